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
import os
import sys
from multiprocessing import Pool

from engine import planner_weights
from engine.lookahead import CAP
from tools import cli
from tools.bots import seeds as seed_ranges
from tools.bots import train, tune

PLAYERS = {"search": "`best`", "planner": "engine.ai alone", "coach": "the coach"}


def weights_module(path):
    """Returns the tables {mode: bytes} of a weights module compare plays: one tools.bots tune
    or train wrote, or engine/planner_weights.py (a copy of an older one's tables, with its own
    header); raises cli.CliError with the line to say for any other file."""
    tables = tune.read_weights(path)
    if not (tune.made_by_tune(path) or os.path.samefile(path, planner_weights.__file__)):
        raise cli.CliError("%s: not a weights module tools.bots tune or train wrote" % path)
    return tables


def decision_ms(results):
    """Returns the mean time of a decision in `results` (tune.play's), in milliseconds."""
    return 1000 * sum(r[5] for r in results) / max(1, sum(r[6] for r in results))


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bots compare", description=__doc__.split("\n")[0])
    parser.add_argument("new", help="a weights module (engine/ai_weights.py's form)")
    parser.add_argument("old", help="the weights module to compare it with")
    parser.add_argument("--mode", default="solo", choices=tune.MODES)
    parser.add_argument("--games", type=cli.whole(2, 1000000), default=1000)
    parser.add_argument("--skip", type=cli.whole(0, 1000000), default=1000)
    parser.add_argument("--range", default="choosing", choices=sorted(seed_ranges.RANGES))
    parser.add_argument("--player", default="search", choices=sorted(PLAYERS),
                        help="who plays the weights (default: `best`)")
    parser.add_argument("--cap", type=cli.whole(1, 100 * CAP), default=CAP,
                        help="NEW's work a decision with --player search (default: CAP, %d)" % CAP)
    parser.add_argument("--jobs", type=cli.whole(1, cli.JOBS_MAX), default=2)
    args = parser.parse_args(argv)
    if args.cap != CAP and args.player != "search":
        parser.error("--cap is the search's budget: only with --player search")
    try:
        seeds = seed_ranges.take(args.range, args.games, args.skip)
        tables = [weights_module(path)[args.mode] for path in (args.new, args.old)]
    except (ValueError, cli.CliError) as e:
        parser.error(str(e))
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
