"""How many key presses a turn takes on the play screen, counted from the key-script model
(tools/sim/app_script.py, which host_tests/test_app_*.py hold to the app), and how long a whole
solo game takes in the headless simulator with its animations.

    python -m tools.sim.presses [--seed S]

A press is any key of a script but WAIT. For a build, moving the cursor to the card is not
counted (it depends on where the card sits in the hand), and builds whose penalty cards can go
on the pile in more than one order are counted apart (that order is a choice of its own, one
press). The whole game's time is the simulator's virtual clock from the title to the game over
screen, each key pressed as soon as the app takes it (a frame of 30 ms per press at the least):
what the dice, the animations and the opponents' turns take.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _p in (os.path.join(ROOT, "lib"), ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import argparse  # noqa: E402

from engine.cards import KIND, KIND_CHAOS, SHAPE, SHAPE_CURVE  # noqa: E402
from engine.order import orders  # noqa: E402
from lnr.game import SEED_MASK  # noqa: E402
from tools import cli  # noqa: E402
from engine.state import (  # noqa: E402
    A_BEND_L, A_BEND_R, A_LAY, A_PASS, A_STOP, P_BEND, P_BUILD, P_DICE, P_ORDER, MODE_SOLO,
    MODE_RIVAL, MODE_TABLE,
)
from tools.sim.app_script import Model, SETTLE  # noqa: E402

SEEDS = range(1, 60)  # where the situations are looked for
GAME_SEED = 8  # the whole solo game (the README's game over picture is this game)

PASS = "pass (START, Pass)"
STRAIGHT = "one-card build: a straight"
CURVE_ONE = "one-card build: a curve, one bend fits"
CURVE_TWO = "one-card build: a curve, two bends"
ORDER = "the same with a penalty order to choose"
RIVAL = "the rival's turn"
BOT = "a table bot's turn"


def presses(keys):
    """Returns the presses in a list of script tokens (NAME*N counts N; WAITs none)."""
    n = 0
    for token in keys:
        name, _, times = token.partition("*")
        if not name.upper().startswith("WAIT"):
            n += int(times) if times else 1
    return n


class Counting(Model):
    """The model, counting the presses made while opponents play and their turns."""

    def __init__(self, *args, **kw):
        self.opponent_presses = 0
        self.opponent_turns = 0
        super().__init__(*args, **kw)

    def opponents(self):
        n = len(self.keys)
        g = self.game
        s = g.state
        first = s.turn  # the turn now begun: an opponent's unless the seat is a person's
        theirs = not s.is_terminal() and not g.human(s.seat)
        super().opponents()
        if theirs:
            self.opponent_turns += s.turn - first + (1 if s.is_terminal() else 0)
            # the hot-seat panel's A belongs to a person's turn, not to an opponent's
            self.opponent_presses += presses(self.keys[n:]) - (
                1 if g.humans() > 1 and not s.is_terminal() else 0)


def _after(s, rng, action):
    # A copy of State `s` after the player's `action`, the bend the app offers first, the
    # roll and its dice (drawn from a copy of `rng`).
    t = s.clone()
    t.apply(action)
    if t.phase == P_BEND:
        t.apply(t.rival_action())
    if t.phase == P_BUILD:
        t.apply(A_STOP)
    while t.phase == P_DICE:
        t.apply(t.sample_chance(rng))
    return t


def _choice(t):
    return t.phase == P_ORDER and len(orders(t.piles[t.seat], t.penalty)) > 1


def turn_counts(seeds=SEEDS):
    """Returns {kind: (fewest, most, [(seed, keys before, keys of the turn, the State it
    leads to)])}: the presses of the first turn of each seed's solo game (a pass, a build of
    each card that can be laid alone) and, per turn, of the opponents' turns of whole rival
    and table games."""
    found = {}

    def note(kind, n, example):
        lo, hi, ex = found.get(kind, (n, n, []))
        ex.append(example)
        found[kind] = (min(lo, n), max(hi, n), ex)

    for seed in seeds:
        m = Model(MODE_SOLO, seed)
        s = m.state
        if s.legal_actions() != [A_PASS]:
            t = _after(s, m.copy_rng(), A_PASS)
            before = list(m.keys)
            m.pass_turn()
            note(ORDER if _choice(t) else PASS, presses(m.keys[len(before):]),
                 (seed, before, m.keys[len(before):], m.state))
        for c in list(Model(MODE_SOLO, seed).state.hands[0]):
            m = Model(MODE_SOLO, seed)
            s = m.state
            if KIND[c] == KIND_CHAOS or s.why_not(A_LAY + c) is not None:
                continue
            t = s.clone()
            t.apply(A_LAY + c)
            if SHAPE[c] != SHAPE_CURVE:
                kind = STRAIGHT
            elif t.legal_actions() == [A_BEND_L, A_BEND_R]:
                kind = CURVE_TWO
            else:
                kind = CURVE_ONE
            if _choice(_after(s, m.copy_rng(), A_LAY + c)):
                kind = ORDER
            before = m.keys + ["RIGHT"] * s.hands[0].index(c)  # the cursor's moves
            m.build(c)
            note(kind, presses(m.keys[len(before):]), (seed, before, m.keys[len(before):],
                                                       m.state))
    for mode, kind in ((MODE_RIVAL, RIVAL), (MODE_TABLE, BOT)):
        for seed in seeds[:10]:
            m = Counting(mode, seed)
            m.play_simple()
            for _ in range(m.opponent_turns):  # the presses spread over their turns
                note(kind, m.opponent_presses / m.opponent_turns, (seed, [], m.keys, m.state))
    return found


def solo_game(seed=GAME_SEED):
    """Returns (presses, seconds) of a whole solo game played as tools/sim/app_script.py's
    play_simple() plays it: from the title to the game over screen, in the headless simulator
    (virtual time)."""
    from tools.sim import fast as sim_fast, simulator as sim
    from lnr.screens import SC_OVER

    m = Model(MODE_SOLO, seed)
    m.play_simple()
    over = []

    def on_frame(hw):
        app = hw.caller.f_locals.get("app") if hw.caller is not None else None
        if not over and app is not None and app.screen == SC_OVER:
            over.append(hw.elapsed_ms())

    with sim_fast.fast():
        r = sim.run_headless(m.keys + [SETTLE], seed=seed, render_every=0, on_frame=on_frame)
    if not r.ok:
        raise SystemExit(r.error)
    if not over:
        raise SystemExit("the solo game of seed %d did not reach its game over" % seed)
    return presses(m.keys), over[0] / 1000


def _number(x):
    return "%g" % x if x == int(x) else "%.2f" % x


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.sim.presses", description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=cli.whole(0, SEED_MASK), default=GAME_SEED,
                        help="the whole solo game's seed (default %d)" % GAME_SEED)
    args = parser.parse_args(argv)
    found = turn_counts()
    print("presses per turn, fewest-most (first turns of solo games, seeds %d-%d; "
          "opponents per turn over whole games):" % (SEEDS[0], SEEDS[-1]))
    for kind in (PASS, STRAIGHT, CURVE_ONE, CURVE_TWO, ORDER, RIVAL, BOT):
        if kind in found:
            lo, hi, ex = found[kind]
            text = _number(lo) if lo == hi else "%s-%s" % (_number(lo), _number(hi))
            print("  %-42s %6s   (%d turns)" % (kind, text, len(ex)))
    n, secs = solo_game(args.seed)
    print("whole solo game (seed %d, title to game over): %d presses, %.1f s"
          % (args.seed, n, secs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
