"""Fits the weights of the `best` bot (engine/ai.py) by self-play; writes engine/ai_weights.py.

    python -m tools.bots tune [--mode solo|challenge|rival|table] [--iters 6] [--games 800]
                         [--start MODE] [--fresh] [--step 0.5] [--jobs 2]
                         [--out engine/ai_weights.py]

Fitted policy iteration: play seeded games with the current weights (at first none: the
`greedy` bot), record every position at the end of one of the bot's turns with what the rest of
the game still added to its score, fit per row of turns left the feature weights by least
squares (a small ridge keeps rare features tame), and play again with the new weights. The
weights of the iteration that scored best on the choosing seeds (tools/bots/seeds.py) are
kept. The targets: solo, the final score; challenge, the final score plus ai.LOSS for a lost
game (§8); rival, the final score minus the rival's (§8); table, the seat's final score, in
games of 2 to 4 seats where every other seat is `greedy` (judged by the share of wins).

Host only (multiprocessing); deterministic for a given command line. Bad arguments: one line
and exit status 2. --out is written only where it is a weights module tune or train wrote (the
default, engine/ai_weights.py, is one) or not there, unless --force.
"""
import ast
import os
import sys
import time
from multiprocessing import Pool

import numpy

from engine import ai
from engine.ai import Planner, N_FEATURES, N_BUCKETS, N_PHASES, ONE, T_BLOCK, bucket, phase
from engine.cards import KIND, VALUE, KIND_BROKEN, KIND_CHAOS
from engine.lookahead import CAP, Search
from engine.playout import DECIDE, seeded, steps
from engine.state import MODE_NAMES, CHALLENGE_DERAILS
from tools import cli
from tools.bots import seeds as seed_ranges

MODES = ("solo", "challenge", "rival", "table")  # the weight tables, in bots.weights() order
FEATURE_NAMES = ("const", "hand", "chaos", "n1", "n2", "n3", "n4", "broken", "pairs", "c4",
                 "room", "a0", "a1", "a2", "behind", "b0", "t0", "t1", "t2", "top=t0",
                 "top=t1", "top=chaos", "broken_ahead", "blocked", "top", "shut", "open",
                 "derails", "last")
# The features' indices, by name. engine/ai.py numbers the features in this order with
# private consts (no RAM on a board), which no other module may import.
(F_CONST, F_HAND, F_CHAOS, F_N1, F_BROKEN, F_PAIRS, F_C4, F_ROOM, F_A0, F_BEHIND, F_B0, F_T0,
 F_T1, F_T2, F_TOP_T0, F_TOP_T1, F_TOP_CHAOS, F_BROKEN_AHEAD, F_BLOCKED, F_TOP, F_SHUT, F_OPEN,
 F_DERAILS, F_LAST) = (FEATURE_NAMES.index(name) for name in (
    "const", "hand", "chaos", "n1", "broken", "pairs", "c4", "room", "a0", "behind", "b0", "t0",
    "t1", "t2", "top=t0", "top=t1", "top=chaos", "broken_ahead", "blocked", "top", "shut",
    "open", "derails", "last"))
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "engine",
                   "ai_weights.py")
# The first line of every weights module tune or train writes (write()).
HEADER = '"""Weights of the `best` bot (engine/ai.py); written by tools.bots tune or train."""'
# A weights module is about 16 KB; a file this big is not one.
WEIGHTS_MAX = 64 * 1024
TABLE_BYTES = N_BUCKETS * N_FEATURES * 2


def features(state, seat, hand):
    """Returns the feature vector engine.ai values for `seat` at the end of its turn, holding
    `hand` (the same definitions as Planner._hand_part and Planner._outcome)."""
    f = [0] * N_FEATURES
    f[F_CONST] = 1
    n = [0, 0, 0, 0, 0]
    cmask = 0
    tv = [VALUE[c] for c in state.track]
    lastv = tv[-1]
    for c in hand:
        v = VALUE[c]
        if KIND[c] == KIND_CHAOS:
            f[F_CHAOS] += v
            cmask |= 1 << v
        else:
            f[F_HAND] += v
            n[v] += 1
            if KIND[c] == KIND_BROKEN:
                f[F_BROKEN] += 1
    for v in range(1, 5):
        f[F_N1 + v - 1] = n[v]
        if n[v] >= 2:
            f[F_PAIRS] += 1
        if abs(v - lastv) == 2:
            f[F_BLOCKED] += n[v] * v
    f[F_C4] = 1 if cmask & 16 else 0
    op = ai.open_ahead(state.cells, state.head)
    f[F_OPEN] = op
    f[F_SHUT] = 1 if op == 0 else 0
    loco = state.loco
    ahead = len(tv) - 1 - loco
    f[F_ROOM] = min(ahead, 8)
    if ahead < 3:
        f[F_A0 + ahead] = 1
    f[F_BEHIND] = min(loco, 8)
    t0 = t1 = 0
    if loco == 0:
        f[F_B0] = 1
    else:
        t0 = f[F_T0] = tv[0]
        if loco >= 2:
            t1 = f[F_T1] = tv[1]
            if loco >= 3:
                f[F_T2] = tv[2]
    for i in range(loco + 1, len(tv)):
        if KIND[state.track[i]] == KIND_BROKEN:
            f[F_BROKEN_AHEAD] += 1
    pile = state.piles[seat]
    top = VALUE[pile[-1]] if pile else 0
    f[F_TOP] = top
    if top:
        if top == t0:
            f[F_TOP_T0] = top
        if top == t1:
            f[F_TOP_T1] = top
        if cmask & (1 << top):
            f[F_TOP_CHAOS] = top
    f[F_DERAILS] = state.derails
    f[F_LAST] = 1 if state.derails == CHALLENGE_DERAILS - 1 else 0
    return f


def decide(player, state, weights, rng, cap=CAP):
    """Returns the action of `player` ("planner": engine.ai alone; "search": `best`, engine.ai
    with engine.lookahead, its work capped at `cap`; "ntuple": `best` with engine.ntuple's
    evaluation, `weights` a pair (engine.ai's table, the n-tuple tables); "coach":
    engine.coach, its rollouts by engine.ai; "coach-end": the same, each sample played to the
    game's end; "coach-wide": the same, with four times the samples at most (engine.coach
    SAMPLES); "coach-near" and "coach-far": each sample stopping a turn sooner or later
    (engine.coach HORIZON); "coach-best": the coach whose samples play the seat by `best`
    within engine.bots HINT_CAP a decision in every mode; "coach-planner": by engine.ai's
    planner in every mode; "coach-ntuple": the coach valuing with the n-tuple
    tables, `weights` the same pair) with `weights`."""
    if player == "planner":
        return Planner(state, weights).choose()
    if player == "search":
        return Search(state, weights, rng, False, cap).choose()
    if player == "ntuple":  # weights: (engine.ai's table, engine.ntuple's blocks)
        return Search(state, weights[0], rng, False, cap, weights[1]).choose()
    from engine.coach import Coach, HORIZON, SAMPLES
    from engine.bots import HINT_CAP

    if player == "coach-ntuple":
        return Coach(state, rng, weights[0], tables=weights[1]).choose()
    # The coach's variants that compare plays beside it (docs/bots.md): its settings changed.
    changed = {"coach": {}, "coach-end": {"horizon": 0}, "coach-wide": {"samples": 4 * SAMPLES},
               "coach-near": {"horizon": HORIZON - 1}, "coach-far": {"horizon": HORIZON + 1},
               "coach-best": {"searched": HINT_CAP}, "coach-planner": {"searched": 0}}
    return Coach(state, rng, weights, **changed[player]).choose()


class _Noted:
    """A block of n-tuple tables (engine.ai) whose entries read 0 and are noted, by their place
    in the tables' file (the phase's block first): what engine.ai's valuing reads, in its
    order (hand, end, ahead, behind), is the position's tuples."""

    def __init__(self, phase):
        self.base = phase * T_BLOCK
        self.read = []

    def __getitem__(self, i):
        self.read.append(self.base + i)
        return 128  # an entry is 128 more than its value (engine.ai)


def entries(state, table, seat, hand, turns):
    """Returns the places of the n-tuple tables' entries (engine.ai, on top of weight `table`)
    that value `seat`'s position with `hand` and `turns` turns left, its turn over, as
    engine.ai's settled() values it; None on its last turn (valued exactly, no table)."""
    if turns <= 0:
        return None
    noted = [_Noted(p) for p in range(N_PHASES)]
    Planner(state, table, seat, hand, turns, noted).settled()
    return noted[phase(turns)].read


def play(args):
    """Plays one game; returns (samples, final score, derailments, lost, won, seconds,
    decisions, CPU seconds): samples are (bucket, features, target, seat, n-tuple entries: player
    "ntuple"'s, else None) at the end of each turn of a seat
    the weights play, in the order of the game (tools/bots/train.py's temporal differences
    follow a seat's turns); seconds the time the weights' decisions took, decisions their
    number.

    solo, challenge, rival: the weights play the one person's seat. table: 2 to 4 seats (by
    the seed), every other one played by the weights, the rest by `greedy`; the score, lost
    and won returned are those of the first seat the weights play (won: a shared win counts
    its share)."""
    mode, seed, weights, player, cap = args
    table = mode == "table"
    state, chance, rng = seeded(MODE_NAMES.index(mode), seed, 2 + seed % 3 if table else None)
    if table:
        mine = [seat for seat in range(state.players) if (seat + seed) % 2 == 0]
    else:
        mine = [state.players - 1]  # rival mode: seat 0 is the rival
    samples = []
    under_way = 0  # the number of a tuned seat's turn under way, 0 between such turns
    seat = -1
    thought = 0.0
    cpu = 0.0  # the same decisions' CPU time, the process's own (what the machine's load
    # does not stretch)
    decisions = 0
    clock = time.perf_counter
    for action in steps(state, chance):
        if action == DECIDE and state.seat in mine:
            under_way = state.turn
            seat = state.seat
            t0 = clock()
            c0 = time.process_time()
            action = decide(player, state, weights, rng, cap)
            cpu += time.process_time() - c0
            thought += clock() - t0
            decisions += 1
        elif action == DECIDE:
            action = Planner(state).choose()  # greedy at the table
        state.apply(action)
        if under_way and (state.turn != under_way or state.is_terminal()):
            # The turn ended (after the bot's own step, a die or its last penalty card). The
            # next turn has begun with a draw: the position at the end of the bot's turn is
            # this one with that card still in the deck (and, if the same seat plays again,
            # not yet in its hand).
            under_way = 0
            hand = state.hands[seat]
            if state.seat == seat and not state.is_terminal():
                hand = hand[:-1]
            score = sum(VALUE[c] for c in hand) + sum(VALUE[c] for c in state.piles[seat])
            deck = len(state.deck) + (0 if state.is_terminal() else 1)
            rival = len(state.piles[0]) if mode == "rival" else 0
            tuples = None
            if player == "ntuple":  # the n-tuple tables' entries of this position
                tuples = entries(state, weights[0], seat, hand, deck // state.players)
            samples.append((seat, bucket(deck // state.players),
                            features(state, seat, hand), score, rival, tuples))
    rival = state.score(0) if mode == "rival" else 0
    out = []
    for seat, b, f, score, r, tuples in samples:
        y = state.score(seat) - score
        if mode == "challenge" and state.lost:
            y += ai.LOSS / ONE
        if mode == "rival":
            y -= rival - r
        out.append((b, f, y, seat, tuples))
    me = mine[0]
    winners = state.winners()
    won = 1 / len(winners) if me in winners else 0
    return out, state.score(me), state.derails, state.lost, won, thought, decisions, cpu


def fit(games, ridge):
    """Returns flat int weights (in 1/16 points): per bucket of turns left, the least squares
    fit of the targets on the features (numpy.linalg.lstsq), every weight but the constant's
    pulled towards 0 by `ridge` (ridge regression, as rows of sqrt(ridge) under the samples')."""
    rows = [[] for _ in range(N_BUCKETS)]
    targets = [[] for _ in range(N_BUCKETS)]
    for samples in games:
        for sample in samples:
            rows[sample[0]].append(sample[1])
            targets[sample[0]].append(sample[2])
    pull = numpy.sqrt(ridge) * numpy.eye(N_FEATURES)[1:]
    weights = [0] * N_FEATURES  # no turn left: the exact score
    for b in range(1, N_BUCKETS):
        x = numpy.vstack([numpy.array(rows[b], dtype=float).reshape(-1, N_FEATURES), pull])
        y = numpy.concatenate([targets[b], numpy.zeros(N_FEATURES - 1)])
        weights += [int(round(w * ONE)) for w in numpy.linalg.lstsq(x, y, rcond=None)[0]]
    return weights


def summary(results):
    n = len(results)
    scores = sorted(r[1] for r in results)
    return "mean %.2f median %.1f derails %.2f lost %.3f won %.3f" % (
        sum(scores) / n, scores[n // 2] if n % 2 else (scores[n // 2 - 1] + scores[n // 2]) / 2,
        sum(r[2] for r in results) / n, sum(r[3] for r in results) / n,
        sum(r[4] for r in results) / n)


def objective(mode, results):
    """Returns what the iteration is judged by (lower is better)."""
    n = len(results)
    if mode == "rival" or mode == "table":
        return -sum(r[4] for r in results) / n
    if mode == "challenge":
        return sum(r[3] for r in results) / n * 1000 + sum(r[1] for r in results) / n
    return sum(r[1] for r in results) / n


def pack(weights):
    """Returns flat int weights as the bytes engine.ai.weight_row() reads."""
    out = bytearray()
    for x in weights:
        if not -32768 <= x < 32768:
            raise ValueError("weight %d does not fit in 16 bits" % x)
        out += (x & 0xFFFF).to_bytes(2, "little")
    return bytes(out)


def unpack(table):
    """Returns the flat int weights of a table of engine/ai_weights.py."""
    out = []
    for b in range(N_BUCKETS):
        out += ai.weight_row(table, b)
    return out


def write(all_weights, path=OUT):
    """Writes engine/ai_weights.py: the tables as bytes, readable copies in comments (comments
    cost no RAM on the device; a docstring would on a VM that keeps them)."""
    lines = [
        HEADER,
        "# Per mode one row of ai.N_FEATURES ints (1/16 points) per row of turns left",
        "# (ai.bucket), stored as signed 16-bit little-endian ints (ai.weight_row): bytes take",
        "# a quarter of a tuple's RAM. Do not edit by hand: run python -m tools.bots tune",
        "# (least squares) or python -m tools.bots train (temporal differences).",
        "# Feature order: " + ", ".join(FEATURE_NAMES[:10]) + ",",
        "#   " + ", ".join(FEATURE_NAMES[10:20]) + ",",
        "#   " + ", ".join(FEATURE_NAMES[20:]) + ".",
    ]
    for mode in MODES:
        w = all_weights[mode]
        lines.append("# %s:" % mode)
        for b in range(N_BUCKETS):
            row = [str(x) for x in w[b * N_FEATURES:(b + 1) * N_FEATURES]]
            lines.append("#   %d: %s" % (b, " ".join(row[:15])))
            lines.append("#      %s" % " ".join(row[15:]))
    for mode in MODES:
        data = pack(all_weights[mode])
        lines.append("%s = (" % mode.upper())
        for i in range(0, len(data), 22):
            lines.append('    b"' + "".join("\\x%02x" % x for x in data[i:i + 22]) + '"')
        lines.append(")")
    cli.write_output(path, ("\n".join(lines) + "\n").encode("utf-8"))


def made_by_tune(path):
    """Returns True if `path` is a weights module tools.bots tune or train wrote (its first
    line is theirs)."""
    return cli.head(path).startswith(HEADER[:44].encode("utf-8"))


def read_weights(path):
    """Returns {mode: table bytes} of the weights module at `path` (one tune or train wrote, or
    engine/planner_weights.py), read as data and never run; raises cli.CliError with the line
    to say where it is not one: too big, not UTF-8, not Python, a table missing or not
    TABLE_BYTES bytes."""
    data = cli.read_bytes(path, WEIGHTS_MAX, "the weights module")
    try:
        tree = ast.parse(data.decode("utf-8"), path)
    except UnicodeDecodeError:
        raise cli.CliError("%s is not UTF-8 text: not a weights module" % path) from None
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        raise cli.CliError("%s is not Python (%s): not a weights module" % (
            path, getattr(e, "msg", e))) from None
    tables = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id.lower() in MODES):
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                value = None
            if type(value) is not bytes or len(value) != TABLE_BYTES:
                raise cli.CliError("%s: %s is not a table of %d bytes: not a weights module"
                                   % (path, node.targets[0].id, TABLE_BYTES))
            tables[node.targets[0].id.lower()] = value
    missing = [m.upper() for m in MODES if m not in tables]
    if missing:
        raise cli.CliError("%s has no %s table: not a weights module" % (path, missing[0]))
    return tables


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bots tune", description=__doc__.split("\n")[0])
    parser.add_argument("--mode", default="solo", choices=MODES)
    parser.add_argument("--iters", type=cli.whole(1, 100), default=6)
    parser.add_argument("--games", type=cli.whole(1, len(seed_ranges.TRAINING)), default=800)
    parser.add_argument("--holdout", type=cli.whole(1, len(seed_ranges.CHOOSING)), default=400)
    parser.add_argument("--ridge", type=cli.number(0, 1e9), default=1.0)
    parser.add_argument("--jobs", type=cli.whole(1, cli.JOBS_MAX), default=2)
    parser.add_argument("--player", default="search", choices=("planner", "search", "coach"),
                        help="who plays the games the targets come from: engine.ai alone, "
                        "`best` (engine.ai and its look-ahead) or the desktop's coach")
    parser.add_argument("--step", type=cli.number(0, 1), default=0.5,
                        help="move this part of the way from the weights to the fitted ones")
    parser.add_argument("--fresh", action="store_true", help="start from greedy, not the "
                        "current weights")
    parser.add_argument("--start", choices=MODES,
                        help="start from another mode's current weights (a challenge started "
                        "from greedy never survives, so nothing teaches it to)")
    parser.add_output("--out", default=OUT, mine=made_by_tune,
                      help="the weights module to write (default: engine/ai_weights.py)")
    args = parser.parse_args(argv)
    if args.step == 0:
        parser.error("--step 0 never moves the weights: give more than 0, at most 1")
    try:
        seed_ranges.take("training", args.games, args.iters * args.games)
    except ValueError as e:
        parser.error(str(e))
    try:
        from engine import ai_weights
        current = {m: unpack(getattr(ai_weights, m.upper())) for m in MODES
                   if hasattr(ai_weights, m.upper())}
    except ImportError:
        current = {}
    weights = None if args.fresh else current.get(args.start or args.mode)
    if weights is not None:
        weights = pack(weights)
    best = None
    history = []
    # The iteration kept is chosen on the choosing range, fitted on the training range
    # (tools/bots/seeds.py): the bench reports neither.
    holdout = seed_ranges.take("choosing", args.holdout)
    with Pool(args.jobs) as pool:
        for it in range(args.iters + 1):
            t = time.time()
            test = pool.map(play, [(args.mode, s, weights, args.player, CAP) for s in holdout],
                            chunksize=8)
            score = objective(args.mode, test)
            print("iter %d held-out %s" % (it, summary(test)), flush=True)
            if weights is not None and (best is None or score < best[0]):
                best = (score, weights)
            if it == args.iters:
                break
            seeds = seed_ranges.take("training", args.games, it * args.games)
            games = pool.map(play, [(args.mode, s, weights, args.player, CAP) for s in seeds],
                             chunksize=8)
            history.append([g[0] for g in games])
            pooled = []
            for h in history[-2:]:
                pooled += h
            fitted = fit(pooled, args.ridge)
            if weights is not None and args.step < 1:
                # Damped: policy iteration with a fitted value tends to swing between two
                # policies; moving part of the way settles it.
                old = unpack(weights)
                fitted = [int(round(o + args.step * (f - o))) for o, f in zip(old, fitted)]
            weights = pack(fitted)
            print("       trained on %s (%.0f s)" % (summary(games), time.time() - t),
                  flush=True)
    if best is None:
        return 1
    for m in MODES:
        current.setdefault(m, [0] * (N_FEATURES * N_BUCKETS))
    current[args.mode] = unpack(best[1])
    write(current, args.out)
    print("kept weights scoring %s; wrote %s" % (best[0], args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
