"""The CircuitPython half of `python -m tools.bots cost` (tools/bots/cost.py): plays seeded games
with `best` on CircuitPython 10's VM, which cost.py runs under valgrind to count its instructions.

    circuitpython tools/bots/cost_cp.py MODE FIRST_SEED GAMES

The same seeded games as tools/bots/bench_cp.py (chance from stream 0 of the seed, the bot's rng
from stream 1), in a mode of one player (solo, challenge, rival: `best` searches with its whole
cap there). Prints one line:

    decisions=N work=W digest=D

W: the work the decisions counted (engine.lookahead units, engine.bots decision_work); D: a
digest of every action chosen, so that two versions of the search can show they decide alike.
GAMES 0 plays nothing: the run's start and imports alone, which cost.py takes off.
"""
import sys

from engine.bots import BOTS, decision_work, weights
from engine.playout import DECIDE, seeded, steps
from engine.state import MODE_NAMES

_DIGEST = 1000003  # a prime: digest * 31 stays a small int on every runtime (under 2**30)


def play(mode, first, games):
    """Returns (decisions, work, digest) of `best` over the seeds first..first+games-1."""
    bot = BOTS["best"]
    weights(0)  # loaded here as in every run, games or not
    decisions = work = digest = 0
    for seed in range(first, first + games):
        state, chance, rng = seeded(MODE_NAMES.index(mode), seed)
        for action in steps(state, chance):
            if action == DECIDE:
                action = bot(state, rng)
                decisions += 1
                work += decision_work()
                digest = (digest * 31 + action) % _DIGEST
            state.apply(action)
    return decisions, work, digest


def main(argv):
    """Plays the games argv names (MODE FIRST_SEED GAMES) and prints their line; a usage line
    on standard error and exit status 2 for anything else."""
    try:
        mode, first, games = argv
        first = int(first)
        games = int(games)
        if MODE_NAMES.index(mode) == MODE_NAMES.index("table") or first < 0 or games < 0:
            raise ValueError(mode)
    except ValueError:
        print("usage: cost_cp.py solo|challenge|rival FIRST_SEED GAMES", file=sys.stderr)
        return 2
    print("decisions=%d work=%d digest=%d" % play(mode, first, games))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
