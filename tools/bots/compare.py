"""Two weights modules played by `best` on the same seeds, and the paired difference: whether
new weights (tools/bots/train.py's, tune's) play better than others, to decide between them.

    python -m tools.bots compare NEW.py OLD.py [--mode solo] [--games 1000] [--skip 1000]
                            [--range choosing] [--player search] [--cap N] [--jobs 2]

Both play the same --games seeds of the range (tools/bots/seeds.py; by default the choosing
range after its first --skip seeds, the ones train.py chose an iteration on: a fresh block, so
the choice's luck does not count twice), `best` with the one mode's table of each module, or
with --player another player of the weights (tools/bots/tune.py decide(): `planner`, engine.ai
alone; `coach`, engine.coach with the table at its leaves and in its rollouts). --cap gives
NEW's `best` another budget of work a decision than engine.lookahead's CAP (OLD keeps CAP): with
the same module on both sides, what a bigger or smaller search alone is worth. A module is
one tools.bots tune or train wrote, or engine/planner_weights.py (the coach's own tables).
Prints each one's mean (as tools/bots/train.py judges a game: the score; a lost challenge 1000
more; in rival and table games minus the share of the win) with its standard error and the
mean time of a decision on this machine, and the per-seed difference NEW - OLD with its
standard error: negative is better for NEW. Bad arguments: one line and exit status 2.
"""
import argparse
import importlib.util
import os
import sys
from multiprocessing import Pool

from engine import planner_weights
from engine.lookahead import CAP
from tools.bots import seeds as seed_ranges
from tools.bots import train, tune

PLAYERS = {"search": "`best`", "planner": "engine.ai alone", "coach": "the coach"}


def load(path):
    """Returns the weights module at `path`."""
    spec = importlib.util.spec_from_file_location("weights_%d" % abs(hash(path)), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def weights_module(path):
    """Returns True if `path` is a weights module compare plays: one tools.bots tune or train
    wrote, or engine/planner_weights.py (a copy of an older one's tables, with its own header)."""
    if not os.path.isfile(path):
        return False
    return train.made_by_tune(path) or os.path.samefile(path, planner_weights.__file__)


def decision_ms(results):
    """Returns the mean time of a decision in `results` (tune.play's), in milliseconds."""
    return 1000 * sum(r[5] for r in results) / max(1, sum(r[6] for r in results))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.bots compare",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("new", help="a weights module (engine/ai_weights.py's form)")
    parser.add_argument("old", help="the weights module to compare it with")
    parser.add_argument("--mode", default="solo", choices=tune.MODES)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--skip", type=int, default=1000)
    parser.add_argument("--range", default="choosing", choices=sorted(seed_ranges.RANGES))
    parser.add_argument("--player", default="search", choices=sorted(PLAYERS),
                        help="who plays the weights (default: `best`)")
    parser.add_argument("--cap", type=int, default=CAP,
                        help="NEW's work a decision with --player search (default: CAP, %d)" % CAP)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.games < 2 or args.jobs < 1 or args.cap < 1:
        parser.error("--games must be 2 or more, --jobs and --cap 1 or more")
    if args.cap != CAP and args.player != "search":
        parser.error("--cap is the search's budget: only with --player search")
    try:
        seeds = seed_ranges.take(args.range, args.games, args.skip)
    except ValueError as e:
        parser.error(str(e))
    tables = []
    for path in (args.new, args.old):
        if not weights_module(path):
            parser.error("%s: not a weights module tools.bots tune or train wrote" % path)
        tables.append(getattr(load(path), args.mode.upper()))
    results = []
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        for name, table, cap in zip(("new", "old"), tables, (args.cap, CAP)):
            results.append(train.run_games(
                pool, [(args.mode, s, table, args.player, cap) for s in seeds], name))
    finally:
        if pool:
            pool.close()
            pool.join()
    new, old = results
    print("%s, %s seeds %d-%d, %s:" % (args.mode, args.range, seeds.start, seeds.stop - 1,
                                      PLAYERS[args.player]))
    for name, path, cap, res in (("new", args.new, args.cap, new), ("old", args.old, CAP, old)):
        budget = ", cap %d" % cap if args.player == "search" else ""
        print("  %s %s%s: %s, %.1f ms a decision" % (
            name, path, budget, train.measure(args.mode, res)[2], decision_ms(res)))
    print("  new - old, paired by seed: %+.3f ± %.3f (negative: new plays better)" %
          train.paired(args.mode, new, old))
    return 0


if __name__ == "__main__":
    sys.exit(main())
