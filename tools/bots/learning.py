"""What tools.bots train's two evaluations share (tools/bots/train.py: engine.ai's linear
weights; tools/bots/ntrain.py: engine.ntuple's tables): the games played with a progress bar,
each seat's positions in the order of its turns, how a game and a pair of runs are judged, and
the learning curve's picture."""
import os
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
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.font.init()
    w, h = 720, 400
    left, right, top, bottom = 70, 24, 50, 56
    surf = pygame.Surface((w, h))
    surf.fill((255, 255, 255))
    font = pygame.font.Font(None, 20)
    big = pygame.font.Font(None, 24)
    ink = (40, 40, 40)
    x_max = max([p[0] for p in points] + [1])
    lows = [p[1] - p[2] for p in points] + [today]
    highs = [p[1] + p[2] for p in points] + [today]
    y_min, y_max = min(lows), max(highs)
    pad = max(0.2, (y_max - y_min) * 0.15)
    y_min -= pad
    y_max += pad

    def xy(x, y):
        return (int(left + (w - left - right) * x / x_max),
                int(h - bottom - (h - top - bottom) * (y - y_min) / (y_max - y_min)))

    span = y_max - y_min
    step = 0.1 if span < 1.2 else 0.25 if span < 3 else 0.5 if span < 6 else 1 if span < 12 \
        else 5
    v = int(y_min / step) * step
    while v <= y_max:
        if v >= y_min:
            _, y = xy(0, v)
            pygame.draw.line(surf, (228, 228, 228), (left, y), (w - right, y))
            label = font.render("%.2f" % v, True, ink)
            surf.blit(label, (left - 8 - label.get_width(), y - 7))
        v += step
    for p in points:
        x, _ = xy(p[0], y_min)
        label = font.render("%d" % p[0], True, ink)
        surf.blit(label, (x - label.get_width() // 2, h - bottom + 6))
    pygame.draw.line(surf, ink, (left, h - bottom), (w - right, h - bottom))
    pygame.draw.line(surf, ink, (left, top), (left, h - bottom))
    text = font.render("training games played", True, ink)
    surf.blit(text, ((w - text.get_width()) // 2, h - bottom + 26))
    surf.blit(big.render(title, True, ink), (left, 14))
    _, yt = xy(0, today)
    grey = (130, 130, 130)
    for x in range(left, w - right, 12):
        pygame.draw.line(surf, grey, (x, yt), (min(x + 6, w - right), yt), 2)
    blue = (40, 90, 200)
    pts = [xy(p[0], p[1]) for p in points]
    if len(pts) > 1:
        pygame.draw.lines(surf, blue, False, pts, 2)
    for p, (x, y) in zip(points, pts):
        _, lo = xy(0, p[1] - p[2])
        _, hi = xy(0, p[1] + p[2])
        pygame.draw.line(surf, blue, (x, lo), (x, hi), 1)
        pygame.draw.line(surf, blue, (x - 4, lo), (x + 4, lo), 1)
        pygame.draw.line(surf, blue, (x - 4, hi), (x + 4, hi), 1)
        pygame.draw.circle(surf, blue, (x, y), 4)
    x = left + 10
    for colour, text in ((blue, "choosing range: mean ± standard error"),
                         (grey, "today's weights (%.2f)" % today)):
        pygame.draw.rect(surf, colour, (x, top - 18, 12, 12))
        label = font.render(text, True, ink)
        surf.blit(label, (x + 16, top - 19))
        x += label.get_width() + 34
    cli.write_output(path, cli.png(surf))


def mean_se(xs):
    """Returns (mean, standard error) of the numbers `xs`."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, (var / n) ** 0.5


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
