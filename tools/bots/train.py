"""Learns the `best` bot's evaluation (engine/ai.py) by self-play with temporal differences;
writes the weights module and a learning curve.

    python -m tools.bots train [--mode solo|challenge|rival|table] [--iters 5] [--games 1000]
                          [--choose 1000] [--lam 0.7] [--sweeps 3] [--step 0.5] [--seed 0]
                          [--player search] [--cap N] [--jobs 2] [--out engine/ai_weights.py]
                          [--png docs/learning_curve_MODE.png]

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

Deterministic for a command line (the same seeds, the same fits, any --jobs). Progress on
stderr; bad arguments: one line and exit status 2. It writes --out only where it is a weights
module tune or train wrote (engine/ai_weights.py is one) or a file it does not find, --png only
where it is a picture of these tools (tools/cli.py: its mark) or a file it does not find,
unless --force.
"""
import math
import os
import statistics
import sys
import time
from multiprocessing import Pool

from engine.ai import N_FEATURES, ONE
from engine.lookahead import CAP
from tools import cli
from tools.bots import seeds as seed_ranges
from tools.bots import tune

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs")


def default_png(mode):
    """Returns the learning curve's default path for `mode`."""
    return os.path.join(DOCS, "learning_curve_%s.png" % mode)


def value(weights, b, f):
    """Returns the evaluation (points) of features `f` in bucket `b` with flat int weights."""
    row = b * N_FEATURES
    x = 0
    for i in range(N_FEATURES):
        if f[i]:
            x += weights[row + i] * f[i]
    return x / ONE


def chains(samples):
    """Returns a game's samples (tune.play's) as one list per seat, in the order of its turns."""
    out = {}
    for sample in samples:
        out.setdefault(sample[3], []).append(sample)
    return [out[seat] for seat in sorted(out)]


def td_targets(games, weights, lam):
    """Returns [(bucket, features, λ-return)] for the chains of `games` (lists of chains) under
    flat int weights (None: no evaluation yet, the final outcome alone)."""
    out = []
    for game in games:
        for chain in game:
            n = len(chain)
            g = chain[-1][2]  # the last position: what the game still added
            targets = [0.0] * n
            targets[-1] = g
            for t in range(n - 2, -1, -1):
                b1, f1, y1 = chain[t + 1][0], chain[t + 1][1], chain[t + 1][2]
                d = chain[t][2] - y1  # what the seat's next turn added
                v1 = value(weights, b1, f1) if weights is not None else y1
                g = d + (1 - lam) * v1 + lam * g
                targets[t] = g
            for t in range(n):
                out.append((chain[t][0], chain[t][1], targets[t]))
    return out


class Progress:
    """A bar on stderr: `label [#####.....] done/total`."""

    def __init__(self, label, total, out=sys.stderr):
        self.label = label
        self.total = total
        self.done = 0
        self.out = out
        self.show()

    def step(self, n=1):
        self.done += n
        self.show()

    def show(self):
        width = 30
        full = width * self.done // max(1, self.total)
        self.out.write("\r%-24s [%s%s] %d/%d" % (self.label, "#" * full, "." * (width - full),
                                                   self.done, self.total))
        if self.done >= self.total:
            self.out.write("\n")
        self.out.flush()


def run_games(pool, tasks, label):
    """Returns tune.play() of every task, in order, with a progress bar."""
    bar = Progress(label, len(tasks))
    out = []
    it = pool.imap(tune.play, tasks, chunksize=4) if pool else map(tune.play, tasks)
    for r in it:
        out.append(r)
        bar.step()
    return out


def curve_png(points, today, path, title):
    """Writes a PNG of the choosing range's score (mean ± standard error) against the training
    games played, today's weights as a dashed line."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.2, 4), dpi=100, layout="constrained")
    ax = fig.subplots()
    ax.axhline(today, color="#828282", linestyle="--", label="today's weights (%.2f)" % today)
    ax.errorbar([p[0] for p in points], [p[1] for p in points], yerr=[p[2] for p in points],
                fmt="o-", color="#285ac8", capsize=4,
                label="choosing range: mean ± standard error")
    ax.set_xticks([p[0] for p in points])
    ax.set_xlabel("training games played")
    ax.grid(axis="y", color="#e4e4e4")
    ax.set_axisbelow(True)
    ax.set_title(title, loc="left")
    fig.legend(loc="outside lower center", ncols=2, fontsize="small", frameon=False)
    cli.write_output(path, cli.figure_png(fig))


def mean_se(xs):
    """Returns (mean, standard error of the mean) of the numbers `xs` (the sample's standard
    deviation over the square root of its size; 0 for one number)."""
    if len(xs) < 2:
        return statistics.fmean(xs), 0.0
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def judged(mode, r):
    """Returns what one game (tune.play's result) is judged by, lower is better: the score; a
    lost challenge 1000 more (survival first, as tune's objective); in rival and table games
    minus the share of the win."""
    if mode in ("rival", "table"):
        return -r[4]
    if mode == "challenge":
        return r[1] + (1000 if r[3] else 0)
    return r[1]


def paired(mode, results, base):
    """Returns (mean, standard error) of the per-seed difference of `results` from `base` (the
    same seeds): far less noisy than either mean, the deals and dice being the same."""
    return mean_se([judged(mode, r) - judged(mode, b) for r, b in zip(results, base)])


def measure(mode, results):
    """Returns (what the choice is judged by, lower is better; its standard error; a line)."""
    if mode in ("rival", "table"):
        m, se = mean_se([-r[4] for r in results])
        return m, se, "won %.3f ± %.3f" % (-m, se)
    scores = [r[1] for r in results]
    if mode == "challenge":
        m, se = mean_se([r[1] + (1000 if r[3] else 0) for r in results])
        lost = sum(1 for r in results if r[3])
        return m, se, "mean %.2f ± %.2f lost %d of %d" % (
            mean_se(scores) + (lost, len(results)))
    m, se = mean_se(scores)
    return m, se, "mean %.2f ± %.2f" % (m, se)


def check_args(parser, args):
    """Exits with one line (parser.error: status 2) where the arguments can't work."""
    if args.step == 0:
        parser.error("--step 0 never moves the weights: give more than 0, at most 1")
    try:
        seed_ranges.take("training", args.games, (args.seed + 1) * args.iters * args.games)
        seed_ranges.take("choosing", args.choose)
    except ValueError as e:
        parser.error(str(e))
    if args.png is None:
        args.png = default_png(args.mode)
        problem = cli.output_problem(args.png, cli.is_our_png, args.force)
        if problem:
            parser.error("--png %s: %s" % (args.png, problem))


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
    parser.epilog = "Exit status: 0 written; 2 bad arguments."
    args = parser.parse_args(argv)
    check_args(parser, args)
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
