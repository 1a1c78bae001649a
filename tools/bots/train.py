"""Learns the `best` bot's evaluation (engine/ai.py) by self-play with temporal differences;
writes the weights module and a learning curve.

    python -m tools.bots train [--mode solo|challenge|rival|table] [--iters 5] [--games 1000]
                          [--choose 1000] [--lam 0.7] [--sweeps 3] [--step 0.5] [--seed 0]
                          [--player search] [--cap N] [--jobs 2] [--out engine/ai_weights.py]
                          [--png docs/learning_curve_MODE.png]
    python -m tools.bots train --eval ntuple [the same options]
                          [--tables engine/ntuple_solo.bin]

TD-Gammon's idea on engine.ai's evaluation: the value of the position at the end of one of the
bot's turns is the expected rest of the game (what it will still add to the seat's score, in
points; per mode the target of tools/bots/tune.py: a lost challenge 40 more, in rival mode less
what the rival adds). The evaluation is the one the board computes, linear in engine.ai's
features with one weight row per bucket of turns left (ai.bucket), ints in 1/16 points:
the learned weights cost the board no more RAM and no more time per outcome than today's.

Each iteration plays --games games of the training range (tools/bots/seeds.py; the block by
--seed and the iteration) with the current weights (--player search: `best` itself, its
look-ahead included, with --cap of work a decision: a bigger search than the bot's plays better
games, whose values the bot's own search can then follow), and fits the weights to TD(λ)
targets over each seat's sequence of positions: the λ-return G_t = d_t + (1 - λ) V(s_t+1) +
λ G_t+1, d_t what the seat's turn t+1 added, the last position's target what the game still
added (λ 1: the final outcome, as tune fits; lower: less noise from later dice, more trust in
the evaluation). The fit is least squares per bucket (tune.fit) on the games of the last two
iterations, the targets worked out again from each fit (--sweeps times: fitted TD), then
damped (--step) as tune's. After each
iteration the weights play --choose games of the choosing range; the learning curve (that
score against the training games played) goes to --png, and the weights that scored best there,
today's included (the curve's first point), are written to --out: the learned weights replace
today's for the mode only where they played better on the choosing range.

--eval ntuple learns engine.ntuple's tables on top of the mode's linear weights instead
(tools/bots/ntrain.py; solo, challenge or rival; --player does not apply: `best` with the
tables plays), writes them to --tables (default: the mode's, engine/ntuple_MODE.bin) and the
curve to docs/learning_curve_ntuple_MODE.png, and leaves --out alone.

Deterministic for a command line (the same seeds, the same fits, any --jobs). Progress on
stderr; bad arguments: one line and exit status 2. It writes --out only where it is a weights
module tune or train wrote (engine/ai_weights.py is one) or a file it does not find, --png only
where it is a picture of these tools (tools/cli.py: its mark) or a file it does not find,
unless --force.
"""
import os
import sys
import time
from multiprocessing import Pool

from engine import ntuple
from engine.lookahead import CAP
from engine.state import MODE_NAMES
from tools import cli
from tools.bots import seeds as seed_ranges
from tools.bots import ntrain, tune
from tools.bots.learning import chains, td_targets, run_games, curve_png, measure, paired

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs")


def default_png(mode, evaluation="linear"):
    """Returns the learning curve's default path for `mode` (and the n-tuple evaluation's)."""
    if evaluation == "ntuple":
        return os.path.join(DOCS, "learning_curve_ntuple_%s.png" % mode)
    return os.path.join(DOCS, "learning_curve_%s.png" % mode)




def check_args(parser, args):
    """Exits with one line (parser.error: status 2) where the arguments can't work."""
    if args.step == 0:
        parser.error("--step 0 never moves the weights: give more than 0, at most 1")
    try:
        seed_ranges.take("training", args.games, (args.seed + 1) * args.iters * args.games)
        seed_ranges.take("choosing", args.choose)
    except ValueError as e:
        parser.error(str(e))
    if args.eval == "ntuple" and args.mode == "table":
        parser.error("--eval ntuple: tables are learned where `best` searches (solo, "
                     "challenge, rival), not at the table")
    if args.start is not None:
        if args.eval != "ntuple":
            parser.error("--start: the tables to train on, with --eval ntuple")
        try:
            args.start = ntrain.pack_of(args.start)
        except cli.CliError as e:
            parser.error("--start " + str(e))
    if args.png is None:
        args.png = default_png(args.mode, args.eval)
        problem = cli.output_problem(args.png, cli.is_our_png, args.force)
        if problem:
            parser.error("--png %s: %s" % (args.png, problem))
    if args.tables is None and args.eval == "ntuple":
        args.tables = ntuple.path(MODE_NAMES.index(args.mode))
        problem = cli.output_problem(args.tables, ntrain.made_by_ntrain, args.force)
        if problem:
            parser.error("--tables %s: %s" % (args.tables, problem))


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bots train", description=__doc__.split("\n")[0])
    parser.add_argument("--mode", default="solo", choices=tune.MODES)
    parser.add_argument("--iters", type=cli.whole(1, 100), default=5)
    parser.add_argument("--games", type=cli.whole(1, len(seed_ranges.TRAINING)), default=1000,
                        help="training games per iteration")
    parser.add_argument("--choose", type=cli.whole(2, len(seed_ranges.CHOOSING)), default=1000,
                        help="games of the choosing range after each iteration")
    parser.add_argument("--lam", type=cli.number(0, 1), default=0.7, help="TD(λ)'s λ")
    parser.add_argument("--sweeps", type=cli.whole(1, 100), default=3,
                        help="fits per iteration, each on the targets of the one before")
    parser.add_argument("--step", type=cli.number(0, 1), default=0.5,
                        help="move this part of the way from the weights to the fitted ones")
    parser.add_argument("--ridge", type=cli.number(0, 1e9), default=1.0)
    parser.add_argument("--seed", type=cli.whole(0, len(seed_ranges.TRAINING)), default=0,
                        help="which block of the training range the games come from")
    parser.add_argument("--player", default="search", choices=("planner", "search"),
                        help="who plays the training games: engine.ai alone, or `best`")
    parser.add_argument("--cap", type=cli.whole(1, 100 * CAP), default=CAP,
                        help="the search's work a decision in the training games (default: "
                        "engine.lookahead CAP, %d, as the choosing games play): a bigger "
                        "search's games teach the values of better play" % CAP)
    parser.add_argument("--jobs", type=cli.whole(1, cli.JOBS_MAX), default=2)
    parser.add_output("--out", default=tune.OUT, mine=tune.made_by_tune,
                      help="the weights module to write")
    parser.add_output("--png", default=None, mine=cli.is_our_png,
                      help="the learning curve (default: docs/learning_curve_MODE.png)")
    parser.add_argument("--eval", default="linear", choices=("linear", "ntuple"),
                        help="what is learned: engine.ai's linear weights, or engine.ntuple's "
                             "tables on top of them (tools/bots/ntrain.py)")
    parser.add_output("--tables", default=None, mine=ntrain.made_by_ntrain,
                      help="--eval ntuple: the tables file to write (default: the mode's, "
                           "engine/ntuple_MODE.bin)")
    parser.add_argument("--start", default=None,
                        help="--eval ntuple: train on from these tables (a file it wrote), not "
                             "from zeros")
    parser.epilog = "Exit status: 0 written; 2 bad arguments."
    args = parser.parse_args(argv)
    check_args(parser, args)
    if args.eval == "ntuple":
        pool = Pool(args.jobs) if args.jobs > 1 else None
        try:
            return ntrain.run(args, pool, args.tables)
        finally:
            if pool:
                pool.close()
                pool.join()
    from engine import ai_weights

    current = {m: tune.unpack(getattr(ai_weights, m.upper())) for m in tune.MODES}
    weights = current[args.mode]
    choosing = seed_ranges.take("choosing", args.choose)
    points = []
    best = None
    history = []
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        for it in range(args.iters + 1):
            started = time.time()
            packed = tune.pack(weights)
            test = run_games(pool, [(args.mode, s, packed, args.player, CAP) for s in choosing],
                             "choosing, iteration %d" % it)
            score, se, line = measure(args.mode, test)
            played = it * args.games
            points.append((played, score, se))
            if it == 0:
                base = test
            else:
                line += ", against today's %+.3f ± %.3f" % paired(args.mode, test, base)
            print("iteration %d after %d training games: choosing range %s" % (
                it, played, line), flush=True)
            if best is None or score < best[0]:
                best = (score, weights, it)
            if it == args.iters:
                break
            block = (args.seed * args.iters + it) * args.games
            seeds = seed_ranges.take("training", args.games, block)
            games = run_games(pool, [(args.mode, s, packed, args.player, args.cap)
                                     for s in seeds],
                              "training, iteration %d" % (it + 1))
            history.append([chains(g[0]) for g in games])
            pooled = []
            for h in history[-2:]:
                pooled += h
            fitted = weights
            for _ in range(args.sweeps):
                fitted = tune.fit([td_targets(pooled, fitted, args.lam)], args.ridge)
            # Damped, as tune's: policy iteration with a fitted value swings between two
            # policies; moving part of the way settles it.
            weights = [int(round(o + args.step * (f - o))) for o, f in zip(weights, fitted)]
            print("  trained on seeds %d-%d (%.0f s)" % (seeds.start, seeds.stop - 1,
                                                          time.time() - started), flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    today = points[0][1]
    if args.mode in ("solo", "challenge"):
        title = "%s: %s score on %d choosing seeds, TD(%.2f)" % (
            args.mode, "mean" if args.mode == "solo" else "mean (+1000 lost)", args.choose,
            args.lam)
        curve_png(points, today, args.png, title)
    else:
        curve_png([(p[0], -p[1], p[2]) for p in points], -today, args.png,
                  "%s: share of wins on %d choosing seeds, TD(%.2f)" % (
                      args.mode, args.choose, args.lam))
    current[args.mode] = best[1]
    tune.write(current, args.out)
    if best[2] == 0:
        print("kept today's %s weights: no iteration played better on the choosing range; "
              "wrote %s and %s" % (args.mode, args.out, args.png))
    else:
        print("kept iteration %d's %s weights (%.3f against today's %.3f on the choosing "
              "range); wrote %s and %s" % (best[2], args.mode, best[0], today, args.out,
                                          args.png))
    return 0


if __name__ == "__main__":
    sys.exit(main())
