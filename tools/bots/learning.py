"""What tools.bots train's two evaluations share (tools/bots/train.py: engine.ai's linear
weights; tools/bots/ntrain.py: engine.ntuple's tables): the games played with a progress bar,
each seat's positions in the order of its turns, how a game and a pair of runs are judged, and
the learning curve's picture."""
import math
import statistics
import sys

from engine.ai import N_FEATURES, ONE
from tools import cli
from tools.bots import tune


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

    def close(self):
        """Ends the bar's line where it stopped short (a run that failed: its one line then
        stands alone)."""
        if self.done < self.total:
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
