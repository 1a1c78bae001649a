"""Two weights modules played by `best` on the same seeds, and the paired difference: whether
new weights (tools/bots/train.py's, tune's) play better than others, to decide between them.

    python -m tools.bots compare NEW.py OLD.py [--mode solo] [--games 1000] [--skip 1000]
                            [--range choosing] [--player search] [--old-player P]
                            [--cap N] [--old-cap N]
                            [--tables engine/ntuple_solo.bin] [--old-tables FILE]
                            [--old-code REV] [--jobs 2]

Both play the same --games seeds of the range (tools/bots/seeds.py; by default the choosing
range after its first --skip seeds, the ones train.py chose an iteration on: a fresh block, so
the choice's luck does not count twice), `best` with the one mode's table of each module, or
with --player another player of the weights (tools/bots/tune.py decide(): `planner`, engine.ai
alone; `coach`, engine.coach with the table at its leaves and in its rollouts; `coach-end`, the
coach with each sample played to the game's end; `coach-wide`, the coach with four times the
samples at most; `coach-near`, the coach whose samples stop a turn sooner; `coach-far`, a turn
later; `coach-best`, the coach whose samples play the seat by `best`, within the hint's budget a
decision, in every mode; `coach-planner`, by engine.ai's planner in every mode); --old-player
gives OLD another player than NEW's (with the same module on both sides, what one player is
worth against the other). --cap gives NEW's `best` another budget of work a
decision than engine.lookahead's CAP, --old-cap OLD's: with the same module on both sides, what
a bigger or smaller search alone is worth. --tables: NEW's `best` (or with --player coach NEW's
coach, at its leaves and in its rollouts) values with engine.ntuple's tables (a file train
--eval ntuple wrote) on top of its weights; OLD values with the weights alone, or with
--old-tables. --old-code: OLD plays with the engine (and tools) of git revision REV, NEW with
this tree's: what a change to the code is worth (tools/bots/revision.py). A module is one
tools.bots tune or train wrote, or engine/planner_weights.py (the coach's own tables).
The two play each seed one after the other, so that they meet the same load of the machine.
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
from tools.bots import learning, ntrain, revision, train, tune

PLAYERS = {"search": "`best`", "planner": "engine.ai alone", "coach": "the coach",
           "coach-end": "the coach to the game's end",
           "coach-wide": "the coach with four times the samples",
           "coach-near": "the coach a turn shorter",
           "coach-far": "the coach a turn longer",
           "coach-best": "the coach with `best` playing its samples",
           "coach-planner": "the coach with engine.ai's planner playing its samples"}


def weights_module(path):
    """Returns the tables {mode: bytes} of a weights module compare plays: one tools.bots tune
    or train wrote, or engine/planner_weights.py (a copy of an older one's tables, with its own
    header); raises cli.CliError with the line to say for any other file."""
    tables = tune.read_weights(path)
    if not (tune.made_by_tune(path) or os.path.samefile(path, planner_weights.__file__)):
        raise cli.CliError("%s: not a weights module tools.bots tune or train wrote" % path)
    return tables


def decision_ms(results, field=5):
    """Returns the mean time of a decision in `results` (tune.play's), in milliseconds: wall
    time, or with field=7 the CPU time of the process that played."""
    return 1000 * sum(r[field] for r in results) / max(1, sum(r[6] for r in results))


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
    parser.add_argument("--old-player", default=None, choices=sorted(PLAYERS),
                        help="who plays OLD's weights (default: --player)")
    parser.add_argument("--cap", type=cli.whole(1, 100 * CAP), default=CAP,
                        help="NEW's work a decision with --player search (default: CAP, %d)" % CAP)
    parser.add_argument("--old-cap", type=cli.whole(1, 100 * CAP), default=CAP,
                        help="OLD's work a decision with --player search (default: CAP)")
    parser.add_argument("--tables", default=None,
                        help="NEW's `best` (or coach) values with these n-tuple tables on top "
                             "of its weights (a file train --eval ntuple wrote)")
    parser.add_argument("--old-tables", default=None,
                        help="OLD's, as --tables is NEW's (default: none, its weights alone)")
    parser.add_argument("--old-code", default=None, metavar="REV",
                        help="OLD plays with the code of this git revision (default: this "
                             "tree's, as NEW)")
    parser.add_argument("--every", type=cli.whole(0, 1000000), default=0,
                        help="print the paired difference so far after every this many seeds "
                             "(0: at the end only): a run stopped early has its figure up to "
                             "there")
    parser.add_argument("--jobs", type=cli.whole(1, cli.JOBS_MAX), default=2)
    args = parser.parse_args(argv)
    players = [args.player, args.old_player or args.player]
    for option, cap, player in (("--cap", args.cap, players[0]),
                                ("--old-cap", args.old_cap, players[1])):
        if cap != CAP and player != "search":
            parser.error("%s is the search's budget: only where that side's player is search"
                         % option)
    try:
        seeds = seed_ranges.take(args.range, args.games, args.skip)
        tables = [weights_module(path)[args.mode] for path in (args.new, args.old)]
    except (ValueError, cli.CliError) as e:
        parser.error(str(e))
    for side, (option, path) in enumerate((("--tables", args.tables),
                                           ("--old-tables", args.old_tables))):
        if path is None:
            continue
        if players[side] not in ("search", "coach") or args.mode == "table":
            parser.error("%s: the n-tuple tables play `best` (--player search) or the coach, "
                         "not at the table" % option)
        if not ntrain.made_by_ntrain(path):
            parser.error("%s %s: not a tables file train --eval ntuple wrote" % (option, path))
        try:
            tables[side] = (tables[side], ntrain.read_tables(path))
        except cli.CliError as e:
            parser.error(str(e))
        players[side] = "ntuple" if players[side] == "search" else "coach-ntuple"
    if args.old_code is None:
        both = _play(args, seeds, tables, players, None)
    else:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        try:
            with revision.Revision(root, args.old_code) as rev:
                both = _play(args, seeds, tables, players, rev)
        except cli.CliError as e:
            parser.error(str(e))
    new, old = both[0::2], both[1::2]
    who = PLAYERS[args.player]
    if args.old_player not in (None, args.player):
        who = "new %s, old %s" % (who, PLAYERS[args.old_player])
    print("%s, %s seeds %d-%d, %s:" % (args.mode, args.range, seeds.start, seeds.stop - 1, who))
    new_name = args.new if args.tables is None else "%s + %s" % (args.new, args.tables)
    old_name = args.old if args.old_tables is None else "%s + %s" % (args.old, args.old_tables)
    if args.old_code is not None:
        old_name += " (the code of %s)" % args.old_code
    for name, path, cap, player, res in (("new", new_name, args.cap, players[0], new),
                                         ("old", old_name, args.old_cap, players[1], old)):
        budget = ", cap %d" % cap if player in ("search", "ntuple") else ""
        print("  %s %s%s: %s, %.1f ms a decision (CPU %.1f ms)" % (
            name, path, budget, train.measure(args.mode, res)[2], decision_ms(res),
            decision_ms(res, 7)))
    print("  new - old, paired by seed: %+.3f ± %.3f (negative: new plays better)" %
          train.paired(args.mode, new, old))
    return 0


def _play(args, seeds, tables, players, rev):
    # Plays each seed with both sides; returns their tune.play() results, NEW's and OLD's of
    # each seed in turn, printing the paired figure so far every --every seeds. OLD's games in
    # the processes of `rev` (revision.Revision) if given.
    tasks = [[], []]
    for s in seeds:
        tasks[0].append((args.mode, s, tables[0], players[0], args.cap))
        tasks[1].append((args.mode, s, tables[1], players[1], args.old_cap))
    pools = []
    bar = None
    try:
        if rev is None:
            # Each seed's two games one after the other: both sides meet the same load on a
            # shared machine, so their times a decision compare too.
            pool = Pool(args.jobs) if args.jobs > 1 else None
            pools.append(pool)
            mixed = [t for pair in zip(tasks[0], tasks[1]) for t in pair]
            it = pool.imap(tune.play, mixed, chunksize=2) if pool else map(tune.play, mixed)
        else:
            # Both sides at once, each in its own processes (the revision's import its code):
            # they meet the same load too.
            pools.append(Pool(args.jobs))
            pools.append(rev.pool(args.jobs))
            its = [pools[0].imap(tune.play, tasks[0], chunksize=2),
                   rev.played(pools[1].imap(revision.play, tasks[1], chunksize=2))]
            it = (r for pair in zip(*its) for r in pair)
        both = []
        bar = learning.Progress("new and old", 2 * len(seeds))
        for r in it:
            both.append(r)
            bar.step()
            seeds_done = len(both) // 2
            if (args.every and len(both) % 2 == 0 and seeds_done % args.every == 0
                    and seeds_done < len(seeds)):
                new, old = both[0::2], both[1::2]
                print("  after seeds %d-%d: new %s, %.1f CPU ms a decision; old %s, %.1f; "
                      "new - old %+.3f ± %.3f" % (
                          (seeds.start, seeds.start + seeds_done - 1,
                           train.measure(args.mode, new)[2], decision_ms(new, 7),
                           train.measure(args.mode, old)[2], decision_ms(old, 7))
                          + train.paired(args.mode, new, old)), flush=True)
    finally:
        if bar is not None:
            bar.close()
        for pool in pools:
            if pool:
                pool.close()
                pool.join()
    return both


if __name__ == "__main__":
    sys.exit(main())
