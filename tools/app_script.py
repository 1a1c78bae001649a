"""Key scripts for the device app, made by playing the engine: the presses that play a chosen
line of a game from the title screen, and the State those presses must lead to. The app tests
(host_tests/test_app_*.py) drive the app through the headless simulator (tools/sim.py) with
these keys and compare its State, screen and NeoPixels with this model; `make screenshots`
(tools/screenshots.py) uses them to reach each screen.

The model follows the app's documented flow (lib/lnr/turns.py): a move (pass, build,
the rival's lay) shows a result panel that A closes; penalty cards are put in the best order
(engine.order), through a panel that A confirms unless every order gives the same values; a step
with one legal action (one bend, only pass) is applied without a key; the rival plays on its
own (docs/rules.md §8).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (os.path.join(ROOT, "lib"), ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from engine.cards import SHAPE, SHAPE_CURVE, KIND, KIND_CHAOS  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.state import (  # noqa: E402
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, A_PILE, P_BEND, P_BUILD, P_DICE,
    P_ORDER, MODE_TABLE,
)
from lnr import game as games  # noqa: E402
from engine.order import orders  # noqa: E402
from lnr.turns import AUTO_MS, DIE_MS  # noqa: E402

FRAME_MS = 30  # tools/sim.py's frame step

# Frames for any roll shown die by die or an opponent's pauses: keys pressed meanwhile wait in
# the queue (64 deep, as keypad's), so scripts wait out each timed step (_busy) to keep it
# short, and end with SETTLE before a screenshot of what follows.
SETTLE = "WAIT*80"


def _busy(ms):
    # A WAIT for a timed step of `ms`, rounded up to frames, plus one.
    return "WAIT*%d" % (ms // FRAME_MS + 2)


class Model:
    """A game as the app plays it from `seed` (the simulator's --seed is the first game's
    seed), and the keys that got it there from the title screen."""

    def __init__(self, mode, seed, players=None, table_roles=None, nav=None):
        if mode == MODE_TABLE:  # the app's defaults: 3 seats, its best bot in the others
            players = players or 3
            if table_roles is None:
                table_roles = bytes([games.ROLE_BOT + len(games.BOT_NAMES) - 1] * 3)
        self.game = games.new_game(mode, seed, players, table_roles)
        # Where the keys reach the last result panel and the last penalty order panel: the
        # keys before these indices stop on that panel.
        self.result_at = -1
        self.order_at = -1
        self.roll_at = -1
        self.keys = ["A"] + ["DOWN"] * mode + ["A"]  # title: New game; modes: the mode
        if mode == MODE_TABLE:
            # The table screen: Seats, P2.., Start. `nav` reaches Start another way.
            self.keys += nav if nav is not None else ["DOWN"] * players + ["A"]
        self.opponents()

    @property
    def state(self):
        return self.game.state

    def copy_rng(self):
        """Returns a copy of the game's dice generator."""
        r = Rng(0)
        r.setstate(self.game.rng.getstate())
        return r

    def pass_turn(self):
        """The player passes (START, Pass) unless passing is all they can do (no key)."""
        s = self.state
        if s.legal_actions() != [A_PASS]:
            self.keys += ["START", "A"]
        s.apply(A_PASS)
        self.result_at = len(self.keys)
        self.keys.append("A")  # the result panel
        self.finish()

    def build(self, card):
        """The player lays `card` alone (the bend offered first) and rolls."""
        s = self.state
        i = s.hands[s.seat].index(card)
        self.keys += ["RIGHT"] * i + ["A"]
        s.apply(A_LAY + card)
        if s.phase == P_BEND:
            if len(s.legal_actions()) > 1:
                self.keys.append("A")
            s.apply(s.rival_action())  # the app offers the roomier bend first
        if s.phase == P_BUILD:
            self.keys += ["START", "DOWN", "A"]  # menu: Build: roll dice
            s.apply(A_STOP)
        else:
            self.keys.append("A")  # the cursor waits on the roll button
        self.roll_at = len(self.keys)  # the keys before this start the roll
        self.keys.append(_busy(DIE_MS * s.dice_left))
        while s.phase == P_DICE:
            s.apply(s.sample_chance(self.game.rng))
        self.result_at = len(self.keys)
        self.keys.append("A")  # the result panel, once the dice have rolled
        self.finish()

    def chaos(self, card):
        """The player discards chaos `card` with A; if more chaos stays in hand, stops."""
        s = self.state
        self.keys += ["RIGHT"] * s.hands[s.seat].index(card) + ["A"]
        s.apply(A_CHAOS + card)
        self.opponents()

    def finish(self):
        """The rest of the turn: the penalty order, then the opponents' turns."""
        s = self.state
        if s.phase == P_ORDER and not s.is_rival(s.seat):
            opts = orders(s.piles[s.seat], s.penalty)
            if len(opts) > 1:
                self.order_at = len(self.keys)
                self.keys.append("A")
            for c in opts[0][1]:
                s.apply(A_PILE + c)
        self.opponents()

    def opponents(self):
        """The opponents' turns, up to the next person's: the rival by its rules (§8), table
        bots by engine.bots; each move (a pass, the last die, the rival's lay) shows a result
        panel that A closes. At a table of several people, each person's turn starts behind
        the hot-seat panel (A)."""
        g = self.game
        s = g.state
        while not s.is_terminal() and not g.human(s.seat):
            if s.is_chance():
                self.keys.append(_busy(DIE_MS * s.dice_left))
                while s.phase == P_DICE:
                    s.apply(s.sample_chance(g.rng))
                self.keys.append("A")
            elif s.phase == P_ORDER:
                while s.phase == P_ORDER:
                    s.apply(s.rival_action() if s.is_rival(s.seat) else g.bot(s.seat)(s, g.bot_rng))
            else:
                rival = s.is_rival(s.seat)
                self.keys.append(_busy(AUTO_MS))
                a = s.rival_action() if rival else g.bot(s.seat)(s, g.bot_rng)
                moves = a == A_PASS or (rival and (a == A_BEND_L or a == A_BEND_R or (
                    A_LAY <= a < A_CHAOS and SHAPE[a - A_LAY] != SHAPE_CURVE)))
                s.apply(a)
                if moves:
                    self.keys.append("A")
        if not s.is_terminal() and g.humans() > 1:
            self.keys.append("A")  # the hot-seat panel

    def play_simple(self, turns=10 ** 6, max_risk=350):
        """Plays like a cautious person for `turns` of the player's turns or to the end: a
        lone chaos card is discarded; else the card whose build alone is least likely to
        derail is laid if that chance is below `max_risk` per mille; else a pass."""
        from engine.risk import permille

        while turns and not self.state.is_terminal():
            s = self.state
            hand = s.hands[s.seat]
            chaos = [c for c in hand if KIND[c] == KIND_CHAOS]
            best = None
            for c in hand:
                if KIND[c] != KIND_CHAOS and s.why_not(A_LAY + c) is None:
                    risk = permille(*s.build_risk(c))
                    if best is None or risk < best[0]:
                        best = (risk, c)
            if len(chaos) == 1:
                self.chaos(chaos[0])
            elif best is not None and best[0] < max_risk:
                self.build(best[1])
            else:
                self.pass_turn()
            turns -= 1

    def play_passes(self, turns=10 ** 6):
        """Passes for `turns` turns or to the end of the game."""
        while turns and not self.state.is_terminal():
            self.pass_turn()
            turns -= 1


def find(mode, want, seeds=range(1, 400)):
    """Returns (seed, extra) for the first seed where want(model) returns a true `extra`."""
    for seed in seeds:
        extra = want(Model(mode, seed))
        if extra:
            return seed, extra
    raise AssertionError("no seed in %s gives the situation" % (seeds,))


def derailing_card(m):
    """Returns a card of the first hand whose build (alone) derails with the game's dice, or
    None."""
    s = m.state
    for c in s.hands[s.seat]:
        if KIND[c] == KIND_CHAOS or s.why_not(A_LAY + c) is not None:
            continue
        t = s.clone()
        t.apply(A_LAY + c)
        if t.phase == P_BEND:
            t.apply(t.rival_action())
        if t.phase == P_BUILD:
            t.apply(A_STOP)
        rng = m.copy_rng()
        while t.phase == P_DICE:
            t.apply(t.sample_chance(rng))
        if t.derails:
            return c
    return None


def chaos_card(m):
    """Returns the chaos card of the first hand if it holds exactly one, else None."""
    s = m.state
    found = [c for c in s.hands[s.seat] if KIND[c] == KIND_CHAOS]
    return found[0] if len(found) == 1 else None
