"""Key scripts for the device app, made by playing the engine: the presses that play a chosen
line of a game from the title screen, and the State those presses must lead to. The app tests
(host_tests/test_app_*.py) drive the app through the headless simulator (tools/sim/simulator.py)
with these keys and compare its State, screen and NeoPixels with this model; `make screenshots`
(tools/art/screenshots.py) uses them to reach each screen, and `python -m tools.sim.presses` counts
their presses.

The model follows the app's documented flow (lib/lnr/play/screen.py): laying a card puts the
cursor on the roll button (A rolls); every curve asks for its bend (A takes the one offered
first); a loco's run (a pass, a build's dice, the rival's lay) is shown on the map on a timer,
then its penalty
cards are put in the best order (engine.order), through a panel that A confirms unless every
order gives the same values, and its result panel stays until the next key (A or B only put it
away, the others act as usual); a pass that is all the player can do, and every opponent's
turn (the rival by docs/rules.md §8, table bots by engine.bots), play on their own. Keys pressed
while the app is busy are dropped, so the scripts wait out each timed step (WAIT for exactly the
frames it takes and one more), and the game's end waits for the last result's hold.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _p in (os.path.join(ROOT, "lib"), ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from engine.cards import SHAPE, SHAPE_CURVE, KIND, KIND_CHAOS  # noqa: E402
from engine.bots import BOTS  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.state import (  # noqa: E402
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, A_PILE, P_BEND, P_BUILD, P_DICE,
    P_ORDER, P_TURN, P_CHAOS, MODE_TABLE,
)
from lnr import game as games  # noqa: E402
from lnr.games import new_game  # noqa: E402
from engine.order import best as best_order, orders  # noqa: E402
from lnr.play.run import DIE_MS, ROLLED_MS, STEP_MS, BROKEN_MS, DERAIL_MS, PEN_MS  # noqa: E402
from lnr.play.screen import AUTO_MS, HOLD_MS, END_MS  # noqa: E402

FRAME_MS = 30  # tools/sim/simulator.py's frame step

# Frames after the model's last key for the screen it leaves to settle (a screenshot).
SETTLE = "WAIT*80"


def frames(ms):
    """Returns the frames a timed step of `ms` takes: it falls due at the first frame at or
    after its deadline, and the next step's deadline counts from there."""
    return -(-ms // FRAME_MS)


def run_frames(s):
    """Returns the frames the app shows the loco's run of the action just applied to State `s`
    for: the loco onto each card (a broken one flashes longer), off the end if it derailed,
    each penalty card framed then gone from the track's start, and a last look
    (lnr/play/screen.py)."""
    return (frames(STEP_MS) * (1 + s.moved - s.hits) + frames(BROKEN_MS) * s.hits
            + (frames(DERAIL_MS) if s.derail_left else 0)
            + (frames(PEN_MS) * (s.taken + 1) if s.taken else 0))


def roll_frames(dice):
    """Returns the frames a roll of `dice` dice is shown for before its run: one die at a
    time, then all of them a while (lnr/play/run.py ROLLED_MS)."""
    return frames(DIE_MS) * dice + frames(ROLLED_MS)


def wait(n):
    """Returns the script token that waits out `n` frames of a busy app: a key in the frame
    the app stops being busy would still be dropped (it reads keys before its timers)."""
    return "WAIT*%d" % (n + 1)


class Model:
    """A game as the app plays it from `seed` (the simulator's --seed is the first game's
    seed), and the keys that got it there from the title screen."""

    def __init__(self, mode, seed, players=None, table_roles=None, nav=None, simpler=None,
                 basic=None):
        if mode == MODE_TABLE:  # the app's defaults: 3 seats, its best bot in the others
            players = players or 3
            if table_roles is None:
                table_roles = bytes([games.ROLE_BOT + len(games.BOT_NAMES) - 1] * 3)
        self.game = new_game(mode, seed, players, table_roles)
        # Where the keys reach the last result panel, the last penalty order panel, the last
        # roll: the keys before these indices stop there.
        self.result_at = -1
        self.order_at = -1
        self.roll_at = -1
        self.summary = False  # the app's result panel is up (the next key closes it)
        self.theirs = False  # that result is an opponent's: it waits for a key (A)
        self.ended = False
        self.derails = 0  # the player's own derailments (the State counts every seat's)
        # The turns from which the bots play as the app's bots turned down for memory do
        # (lnr.memory WEIGHTS, PLAN; lnr/play/plan.py): by `greedy`, by their first legal step.
        # None: never (host_tests/test_app_short_of_memory.py turns them down at a known turn).
        self.simpler = simpler
        self.basic = basic
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

    def after_build(self, card):
        """Returns the State after `card` is laid alone as the first build of the player's
        turn (the bend offered first: the rival's choice) and its dice are rolled with the
        game's own dice, on a copy: what the app will show once the keys lay it."""
        s = self.state.clone()
        s.apply(A_LAY + card)
        if s.phase == P_BEND:
            s.apply(s.rival_action())
        if s.phase == P_BUILD:
            s.apply(A_STOP)
        rng = self.copy_rng()
        while s.phase == P_DICE:
            s.apply(s.sample_chance(rng))
        return s

    def press(self, *keys):
        """The player presses `keys`; a result panel left up is closed first by the first of
        them, or by an A of its own if that is A or B (which only close it)."""
        if self.summary and keys and keys[0] in ("A", "B"):
            self.keys.append("A")
        self.keys += keys
        self.summary = self.theirs = False

    def pass_turn(self):
        """The player passes (START, Pass); a pass that is all they can do plays on its own,
        once the last result is put away (A)."""
        s = self.state
        if s.legal_actions() != [A_PASS]:
            self.press("START", "A")
            n = 0
        else:  # as an opponent's step
            n = self._next_step(True)
        s.apply(A_PASS)
        self.keys.append(wait(n + run_frames(s)))
        self.finish()

    def _own(self, s):
        # After the player's action: a derailment of theirs.
        if s.derail_left:
            self.derails += 1

    def build(self, card):
        """The player lays `card` alone (the bend offered first) and rolls."""
        s = self.state
        i = s.hands[s.seat].index(card)
        self.press(*(["RIGHT"] * i + ["A"]))
        s.apply(A_LAY + card)
        if s.phase == P_BEND:
            self.keys.append("A")  # every curve asks for its bend, even a forced one
            s.apply(s.rival_action())  # the app offers the roomier bend first
        if s.phase == P_BUILD:
            s.apply(A_STOP)
        self.keys.append("A")  # the cursor waits on the roll button after a lay
        self.roll_at = len(self.keys)  # the keys before this start the roll
        n = roll_frames(s.dice_left)
        while s.phase == P_DICE:
            s.apply(s.sample_chance(self.game.rng))
        self.keys.append(wait(n + run_frames(s)))
        self._own(s)
        self.finish()

    def chaos(self, card):
        """The player discards chaos `card` with A (and A again where that ends the turn: the
        hand's last chaos card at the turn's start); if more chaos stays in hand, stops."""
        s = self.state
        self.press(*(["RIGHT"] * s.hands[s.seat].index(card) + ["A"]))
        if s.phase == P_TURN and sum(KIND[c] == KIND_CHAOS for c in s.hands[s.seat]) == 1:
            self.keys.append("A")
        s.apply(A_CHAOS + card)
        if s.phase != P_CHAOS:  # the turn is over: its result panel is up
            self.result_at = len(self.keys)
            self.summary = True
            self.theirs = False
        self.opponents()

    def discard_chaos(self):
        """The player discards every chaos card in hand through the action menu (START,
        Discard chaos: its third item), in the order that scores best (engine.order)."""
        s = self.state
        chaos = [c for c in s.hands[s.seat] if KIND[c] == KIND_CHAOS]
        if len(chaos) > 1:
            chaos = best_order(s.piles[s.seat], chaos)
        self.press("START", "DOWN", "DOWN", "A")
        for c in chaos:
            s.apply(A_CHAOS + c)
        self.result_at = len(self.keys)
        self.summary = True
        self.theirs = False
        self.opponents()

    def finish(self):
        """The rest of an action: the penalty order, the result panel, the opponents' turns."""
        s = self.state
        if s.phase == P_ORDER and not s.is_rival(s.seat):
            opts = orders(s.piles[s.seat], s.penalty)
            if len(opts) > 1:
                self.order_at = len(self.keys)
                self.keys.append("A")
            for c in opts[0][1]:
                s.apply(A_PILE + c)
        self.result_at = len(self.keys)
        self.summary = True
        self.theirs = False
        self.opponents()

    def opponents(self):
        """The opponents' turns, up to the next person's: the rival by its rules (§8), table
        bots by engine.bots; each step on a timer, a loco's run shown on the map and summed up in
        a result panel that stays HOLD_MS before the next one plays. At a table of several
        people, each person's turn starts behind the hot-seat panel (A)."""
        g = self.game
        s = g.state
        while not s.is_terminal() and not g.human(s.seat):
            if s.is_chance():  # a bot's build: its dice, at once
                n = roll_frames(s.dice_left)
                while s.phase == P_DICE:
                    s.apply(s.sample_chance(g.rng))
                self._moved(n + run_frames(s))
                continue
            rival = s.is_rival(s.seat)
            n = self._next_step()
            a = s.rival_action() if rival else self.bot_action(s)
            runs = a == A_PASS or (rival and (a == A_BEND_L or a == A_BEND_R or (
                A_LAY <= a < A_CHAOS and SHAPE[a - A_LAY] != SHAPE_CURVE)))
            turn = s.turn
            s.apply(a)
            if runs:
                self._moved(n + run_frames(s))
            else:  # a lay (its dice, if it was the last, roll next), a chaos discard
                self.keys.append(wait(n))
                if s.turn != turn or s.is_terminal():  # a chaos discard ended the turn
                    self.summary = self.theirs = True
        if s.is_terminal():
            if not self.ended:  # the last result shows END_MS, then the game over
                self.ended = True
                self.keys.append(wait(frames(END_MS)))
        elif g.humans() > 1:
            if self.summary and not self.theirs:
                self.keys.append("A")  # a person's own result, seen before handing over
            self.keys.append("A")  # the hot-seat panel
            self.summary = self.theirs = False

    def bot_action(self, s):
        """The action of the table bot on turn at `s`: its own (lnr.game Game.bot()), or from
        the turns `simpler` and `basic` on, `greedy`'s and the first legal one, as the app's
        bots play once it has turned them down (lnr/play/plan.py)."""
        g = self.game
        if self.basic is not None and s.turn >= self.basic:
            return s.legal_actions()[0]
        if self.simpler is not None and s.turn >= self.simpler:
            return BOTS["greedy"](s, g.bot_rng)
        return g.bot(s.seat)(s, g.bot_rng)

    def _next_step(self, own=False):
        # The frames before the next step on a timer: an opponent's result waits for A (at a
        # table with people or against the rival), and so does any at a hot seat or before
        # the player's `own` pass that nothing else fits; else the player's own for HOLD_MS.
        g = self.game
        if self.summary and g.humans() and (self.theirs or own or g.humans() > 1):
            self.keys.append("A")
            n = frames(AUTO_MS)
        else:
            n = frames(HOLD_MS) + frames(AUTO_MS) if self.summary else frames(AUTO_MS)
        self.summary = self.theirs = False
        return n

    def _moved(self, n):
        # An opponent's run shown (n frames), its penalty cards piled, its result up.
        g = self.game
        s = g.state
        self.keys.append(wait(n))
        while s.phase == P_ORDER:
            s.apply(s.rival_action() if s.is_rival(s.seat) else self.bot_action(s))
        self.summary = self.theirs = True

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


def run_checked(keys, seed=1, **kw):
    """Runs `keys` in the headless simulator at full speed (tools/sim/fast.py) and returns its
    Result, failing (AssertionError) if the app crashed or a key was lost to a full queue. The
    final screen alone is drawn unless `render_every` says otherwise: what a test reads during
    the run is the display objects (their tiles, lines and colours), and Blinka's drawing of
    each refresh was nine tenths of a run's time."""
    from tools.sim import fast, simulator

    kw.setdefault("render_every", 0)
    with fast.fast():
        r = simulator.run_headless(keys, seed=seed, **kw)
    assert r.ok, r.error
    assert not r.hw.overflowed
    return r


def _curve(m, bends):
    # A curve of the first hand whose lay offers this many bends (the bend step's only
    # actions are the bends that fit), or None.
    s = m.state
    for c in s.hands[0]:
        if SHAPE[c] == SHAPE_CURVE and s.why_not(A_LAY + c) is None:
            t = s.clone()
            t.apply(A_LAY + c)
            if len(t.legal_actions()) == bends:
                return c
    return None


def two_bends(m):
    """Returns a curve of the first hand whose lay offers both bends, or None."""
    return _curve(m, 2)


def one_bend(m):
    """Returns a curve of the first hand whose lay offers one bend only, or None."""
    return _curve(m, 1)


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
        if m.after_build(c).derails:
            return c
    return None


def order_choice(m):
    """Returns a card of the first hand whose build (alone) derails with several penalty cards
    taken that can go in more than one order, each scoring differently (docs/rules.md §6), or
    None."""
    card = derailing_card(m)
    if card is None:
        return None
    t = m.after_build(card)
    if t.phase == P_ORDER:
        opts = orders(t.piles[0], t.penalty)
        if opts[0][0] < opts[-1][0]:  # the order matters to the score
            return card
    return None


def chaos_card(m):
    """Returns the chaos card of the first hand if it holds exactly one, else None."""
    s = m.state
    found = [c for c in s.hands[s.seat] if KIND[c] == KIND_CHAOS]
    return found[0] if len(found) == 1 else None


def rival_draws_chaos(m):
    """Passes until the rival's next draw (the deck's top after the player's turn) is a chaos
    card, then plays that pass: the rival's last turn was a chaos discard (docs/rules.md §8).
    Returns that card, or None."""
    for _ in range(30):
        s = m.state
        if s.is_terminal() or len(s.deck) < 2:
            return None
        top = s.deck[-1]
        m.pass_turn()
        if KIND[top] == KIND_CHAOS and not m.state.is_terminal():
            return top
    return None
