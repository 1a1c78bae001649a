"""`python -m tools.bots train --eval ntuple`: learns engine.ntuple's tables (issue 39) by
self-play with temporal differences, on top of engine.ai's weights of the mode (kept as they
are), and writes the tables file and a learning curve.

As train's linear evaluation: each iteration `best` (engine.lookahead's Search valuing with the
tables so far) plays --games games of the training range; each seat's positions at the end of
its turns get TD(λ) targets (tools.bots.learning td_targets' λ-return, the value of a position
being engine.ai's linear evaluation plus its entries of the tables); the tables are fitted by
least squares to what the targets leave over the linear evaluation (backfitting: each table in
turn to what the others leave, --ridge on each entry), --sweeps times on the targets of the fit
before, then damped (--step) and rounded to signed bytes in 1/16 points. After each iteration
the tables play --choose games of the choosing range, each paired by seed with iteration 0:
`best` without tables, or with --start's tables, which the run trains on; the training games'
search has train's --cap of work a decision, the choosing games' engine.lookahead CAP, as the
bot's.
"""
import time

from engine import ntuple
from engine.ai import ONE, T_BLOCK, N_PHASES
from engine.lookahead import CAP
from tools import cli
from tools.bots import seeds as seed_ranges
from tools.bots import learning
from tools.bots import tune

BACKFIT = 6  # passes of the backfitting over the tables per fit
N_TUPLES = 4  # hand, end, ahead, behind (engine.ai): the entries a position reads
ENTRIES = N_PHASES * T_BLOCK


def pack(entries):
    """Returns the tables' file (engine.ntuple): MAGIC, then the entries (ints in 1/16 points,
    clipped to -128..127) 128 more, a byte each."""
    return ntuple.MAGIC + bytes(max(-128, min(127, int(x))) + 128 for x in entries)


def unpack(data):
    """Returns the entries of a tables file's bytes as ints (pack()'s inverse)."""
    return [b - 128 for b in data[len(ntuple.MAGIC):]]


def lookup(entries, tuples):
    """Returns the sum of the entries `tuples` names (points), 0 for None (the last turn)."""
    if tuples is None:
        return 0.0
    x = 0
    for i in tuples:
        x += entries[i]
    return x / ONE


def td_targets(games, weights, entries, lam):
    """Returns [(tuples, linear value, λ-return)] (points) for the chains of `games` under the
    linear weights (flat ints) and the tables' `entries`."""
    out = []
    for game in games:
        for chain in game:
            n = len(chain)
            g = chain[-1][2]
            targets = [0.0] * n
            targets[-1] = g
            for t in range(n - 2, -1, -1):
                s1 = chain[t + 1]
                d = chain[t][2] - s1[2]
                v1 = learning.value(weights, s1[0], s1[1]) + lookup(entries, s1[4])
                g = d + (1 - lam) * v1 + lam * g
                targets[t] = g
            for t in range(n):
                s = chain[t]
                if s[4] is not None:
                    out.append((s[4], learning.value(weights, s[0], s[1]), targets[t]))
    return out


def fit(samples, entries, ridge, passes=BACKFIT):
    """Returns the entries (floats, 1/16 points) that fit the targets of `samples`
    (td_targets') less their linear value, least squares with `ridge` on each entry; from
    `entries` on, by backfitting: each table in turn fitted to what the others leave."""
    x = [e / ONE for e in entries]
    resid = [y - lin - sum(x[i] for i in tuples) for tuples, lin, y in samples]
    for _ in range(passes):
        for j in range(N_TUPLES):
            total = {}
            count = {}
            for s, r in zip(samples, resid):
                i = s[0][j]
                total[i] = total.get(i, 0.0) + r + x[i]
                count[i] = count.get(i, 0) + 1
            for i in total:
                new = total[i] / (count[i] + ridge)
                total[i] = new - x[i]
                x[i] = new
            for k, s in enumerate(samples):
                resid[k] -= total[s[0][j]]
    return [v * ONE for v in x]


def made_by_ntrain(path):
    """Returns True if `path` is a tables file this tool wrote (its first bytes are MAGIC; only
    those are read: /dev/zero is not)."""
    return cli.head(path).startswith(ntuple.MAGIC)


def pack_of(path):
    """Returns the bytes of a tables file this tool wrote (pack()'s); raises cli.CliError with
    the line to say where it is not one."""
    data = cli.read_bytes(path, ntuple.FILE_BYTES, "the tables file")
    if not ntuple.whole(data):
        raise cli.CliError("%s is not a tables file of %d bytes that train --eval ntuple wrote"
                           % (path, ntuple.FILE_BYTES))
    return data


def read_tables(path):
    """Returns the blocks (engine.ntuple blocks()) of a tables file this tool wrote (pack_of()
    says where it is not one)."""
    return ntuple.blocks(pack_of(path))


def run(args, pool, out):
    """Trains (train.main's parsed `args`); returns 0."""
    from engine import ai_weights

    linear_table = getattr(ai_weights, args.mode.upper())
    weights = tune.unpack(linear_table)
    # Zeros (iteration 0 is then `best` without tables), or --start's tables, trained on.
    entries = unpack(args.start) if args.start else [0] * ENTRIES
    choosing = seed_ranges.take("choosing", args.choose)
    points = []
    history = []
    base = None
    for it in range(args.iters + 1):
        started = time.time()
        packed = (linear_table, ntuple.blocks(pack(entries)))
        plain = it == 0 and not args.start  # today's `best` without tables, not zeros' lookups
        player = "search" if plain else "ntuple"
        tasks = [(args.mode, s, linear_table if plain else packed, player, CAP) for s in choosing]
        test = learning.run_games(pool, tasks, "choosing, iteration %d" % it)
        score, se, line = learning.measure(args.mode, test)
        played = it * args.games
        points.append((played, score, se))
        if it == 0:
            base = test
        else:
            line += ", against today's %+.3f ± %.3f" % learning.paired(args.mode, test, base)
        print("iteration %d after %d training games: choosing range %s (%.0f s)" % (
            it, played, line, time.time() - started), flush=True)
        if it == args.iters:
            break
        started = time.time()
        block = (args.seed * args.iters + it) * args.games
        seeds = seed_ranges.take("training", args.games, block)
        tasks = [(args.mode, s, packed, "ntuple", args.cap) for s in seeds]
        games = learning.run_games(pool, tasks, "training, iteration %d" % (it + 1))
        history.append([learning.chains(g[0]) for g in games])
        pooled = []
        for h in history[-2:]:
            pooled += h
        fitted = entries
        for _ in range(args.sweeps):
            fitted = fit(td_targets(pooled, weights, fitted, args.lam), fitted, args.ridge)
        entries = [max(-128, min(127, int(round(o + args.step * (f - o)))))
                   for o, f in zip(entries, fitted)]
        print("  trained on seeds %d-%d (%.0f s)" % (seeds.start, seeds.stop - 1,
                                                      time.time() - started), flush=True)
    today = points[0][1]
    learning.curve_png(points, today, args.png,
                    "%s: n-tuple tables, mean score on %d choosing seeds, TD(%.2f)" % (
                        args.mode, args.choose, args.lam))
    cli.write_output(out, pack(entries))
    diff, dse = learning.paired(args.mode, test, base)
    print("the last iteration's tables against today's `best` on choosing seeds %d-%d, paired "
          "by seed: %+.3f ± %.3f (negative: the tables play better); wrote %s and %s" % (
              choosing.start, choosing.stop - 1, diff, dse, out, args.png))
    return 0
