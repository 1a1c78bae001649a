"""How strong and how fast the built-in bots are (`make bench`).

    python -m tools.bots bench [--seeds 500] [--range reported|choosing|training]
                          [--bots random,greedy,best-before,best] [--coach-seeds 200]
                          [--coach-modes solo] [--coach-bots coach] [--vm-games 500] [--no-vm]
                          [--jobs 2] [--vm-jobs 1]

`best-before` is `best` as it was before its look-ahead and refit (tools/bots/best_before.py:
engine.ai alone with the old weights), so that the bench shows both. The desktop's `coach`
(engine.coach) plays its own number of seeds (the first of the same deals) in the modes asked,
on CPython only: it never runs on a board; --coach-bots coach,coach-ntuple plays it with
engine.ntuple's tables too (in solo), coach-best with `best` playing its samples, and for each
coach the bench prints its decisions' count, their CPU time (the worker process's own,
time.process_time: what other processes on the machine do not stretch) beside their wall
time, and the machine's load while they ran.

Every bot plays the same seeded games (the first N seeds of the reported range,
tools/bots/seeds.py: deals no weights were fitted or chosen on; --range choosing is the one to
decide between versions with; chance from stream 0 of the seed, the bot's rng from stream 1, as
engine.selfplay does) of each mode, and the bench prints per bot: the mean and median solo
score (docs/rules.md §7) and the derailments per solo game, the mean challenge score and the
share of challenge games survived (§8: no 4th derailment; a lost game's score is its score when
it ended), the mean rival-mode score (the player's, not the rival's count) and the share of
rival games won (§8), each mean and share with its standard error (± the standard deviation
over the square root of the games); the challenge's score less the solo's, paired by seed (the
same deal and dice: a challenge is a solo game with a limit); and the
time per decision: on CPython (time.perf_counter around each call) and on the real MicroPython
VM (tools/bots/bench_mp.py under tools/vm/mpvm: time.ticks_ms around each call; this port's clock
ticks in whole milliseconds) and on CircuitPython 10's own VM where it exists
(tools/bots/bench_cp.py, tools/vm/cpvm.py: time.ticks_us). A decision is one call of the bot: one
step of a turn (an action, a card, a bend, a penalty card).

The SAMD51 estimate multiplies the CircuitPython VM's times by SAMD51_FACTOR: the time a 120 MHz
SAMD51 running CircuitPython takes for `for _ in range(1000000): pass` (SAMD51_LOOP_US, as
published) over the time the same loop takes on the CircuitPython VM here. Both run
CircuitPython's own bytecode interpreter, so the ratio of their dispatch speeds carries over to
the bots' code as a first estimate; it is pessimistic where the board's CircuitPython has since
become faster than the published run's. The machine's other processes stall the VM now and
then, so tools/bots/bench_cp.py times the decisions in a way they do not change (its docstring says
how and why): the mean from the process's own CPU time, the slowest decision as the least of
its fastest of 6 runs and its CPU time; the loop as the fastest of short runs timed all through
each run (the fastest over all runs counts: the highest factor). The VMs time a table of 4
seats (the longest look-ahead: three other turns between a seat's two) besides solo, challenge
and rival games.
"""
import os
import statistics
import sys
import time
from multiprocessing import Pool

from engine.bots import decision_work, weights
from engine.budget import UNITS_PER_S, spent
from engine.lookahead import CAP, Search
from engine.playout import DECIDE, seeded, steps
from engine.selfplay import DESKTOP_BOTS, bot_names, find_bot
from engine.state import MODE_NAMES
from tools import cli
from tools.bots.best_before import best_before_bot, best_each_bot
from tools.bots import seeds as seed_ranges, tune
from tools.bots.learning import mean_se

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODES = ("solo", "challenge", "rival")
TIMED_MODES = MODES + ("table",)  # the VMs time the table's bots too (tools/bots/bench_cp.py)

# `for _ in range(1000000): pass` on an ItsyBitsy M4 (SAMD51 at 120 MHz), CircuitPython 5.3.0:
# 4.784 s (adafruit/circuitpython#2929; 5.4.0-beta.0, which checked its background tasks more
# often, took 9.219 s). No later figure for this loop on a SAMD51 was found.
SAMD51_LOOP_US = 4784000


def cp_runs(bots, first, games):
    """Returns {(bot, mode): {field: value}} from tools/bots/bench_cp.py on CircuitPython's VM, or
    None where it is missing."""
    from tools.vm import cpvm

    if cpvm.missing():
        print("bench: " + cpvm.missing())
        return None
    script = os.path.join(ROOT, "tools", "bots", "bench_cp.py")

    def run(*args):
        r = cpvm.run(script, paths=[ROOT], args=args, timeout=3600)
        if r.returncode != 0:
            raise SystemExit("bench: the CircuitPython run %s failed:\n%s" % (args, r.stderr))
        return dict(item.split("=") for item in r.stdout.split() if "=" in item)

    return {(b, m): run(b, m, first, games) for b in bots for m in TIMED_MODES}


def samd51_ms(us, loop_us):
    """Returns the SAMD51 estimate in ms of `us` µs on CircuitPython's VM, where the loop
    takes `loop_us` µs (SAMD51_LOOP_US on the board)."""
    return us * SAMD51_LOOP_US / loop_us / 1000


_prior = [None]  # --prior: the four weight tables of another weights module


def best_prior_bot(state, rng):
    """Returns `best`'s action with the --prior module's weights (as engine.bots.best_bot
    outside the table: the look-ahead within CAP)."""
    return Search(state, _prior[0][state.mode], rng, False, CAP).choose()


def find(name):
    """Returns the bot called `name`: engine.selfplay's, `best-before`, `best-prior`."""
    if name == "best-before":
        return best_before_bot
    if name == "best-prior":
        return best_prior_bot
    if name == "best-each":
        return best_each_bot
    return find_bot(name)


def play(args):
    """Plays one game; returns (score, derailments, lost, won, decision times in seconds, the
    decisions' CPU times in seconds: the process's own, the decisions' work: engine.budget's
    units, the planners' counted steps)."""
    name, mode, seed = args
    bot = find(name)
    state, chance, rng = seeded(MODE_NAMES.index(mode), seed)
    me = state.players - 1  # rival mode: seat 0 is the rival
    times = []
    cpu = []
    work = []
    clock = time.perf_counter
    cpu_clock = time.process_time
    for action in steps(state, chance):
        if action == DECIDE:
            w0 = spent()
            t0 = clock()
            c0 = cpu_clock()
            action = bot(state, rng)
            cpu.append(cpu_clock() - c0)
            times.append(clock() - t0)
            work.append(spent() - w0)
        state.apply(action)
    return (state.score(me), state.derails, state.lost, state.winners() == [me], times, cpu,
            work)


def play_table(args):
    """Plays one table game of `players` seats: `name` (`best`) in seat seed % players,
    `other` in the rest; returns (its score less the others' mean, 1 if it won alone or shared
    the win else 0 (docs/rules.md §7: the lowest score wins), (the work of its longest turn,
    the seed, its seat, that turn))."""
    name, other, players, seed = args
    bot, rest = find(name), find(other)
    state, chance, rng = seeded(MODE_NAMES.index("table"), seed, players)
    me = seed % players
    work = {}  # `best`'s turns in this seat: the work of their decisions (engine.bots)
    for action in steps(state, chance):
        if action == DECIDE:
            if state.seat == me:
                action = bot(state, rng)
                work[state.turn] = work.get(state.turn, 0) + decision_work()
            else:
                action = rest(state, rng)
        state.apply(action)
    mine = state.score(me)
    others = [state.score(i) for i in range(players) if i != me]
    longest = max(work, key=work.get)
    return (mine - sum(others) / len(others), 1 if me in state.winners() else 0,
            (work[longest], seed, me, longest))


def vm_runs(bots, first, games, jobs):
    """Returns {(bot, mode): {field: value}} from tools/bots/bench_mp.py on the MicroPython VM."""
    from tools.vm import mpvm

    script = os.path.join(ROOT, "tools", "bots", "bench_mp.py")
    todo = [(b, m) for b in bots for m in TIMED_MODES]
    out = {}
    running = []
    while todo or running:
        while todo and len(running) < jobs:
            b, m = todo.pop(0)
            running.append(((b, m), mpvm.start(script, ["engine", "tools"],
                                               [b, m, first, games])))
        key, proc = running.pop(0)
        stdout, stderr = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit("bench: the VM run %s failed:\n%s" % (key, stderr))
        fields = {}
        for item in stdout.split()[2:]:
            k, v = item.split("=")
            fields[k] = v
        out[key] = fields
    return out


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bots bench", description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=cli.whole(1, len(seed_ranges.TRAINING)), default=500)
    parser.add_argument("--range", default="reported", choices=sorted(seed_ranges.RANGES),
                        help="the range of seeds (tools/bots/seeds.py): reported, the figures' "
                        "deals; choosing, to decide between versions")
    parser.add_argument("--bots", default="random,greedy,best-before,best",
                        help="the board's bots and best-before: every mode, on every VM")
    parser.add_argument("--coach-seeds", type=cli.whole(0, len(seed_ranges.TRAINING)),
                        default=200,
                        help="games of the desktop's coach per mode (0: none; at most --seeds)")
    parser.add_argument("--coach-modes", default="solo",
                        help="the modes the coach plays (its games take seconds each)")
    parser.add_argument("--coach-bots", default="coach",
                        help="the desktop's coaches that play: coach, coach-best (`best` "
                             "playing its samples), coach-ntuple (engine.ntuple's tables at its "
                             "leaves and in its rollouts, solo)")
    parser.add_argument("--vm-games", type=cli.whole(1, len(seed_ranges.TRAINING)), default=500,
                        help="games per bot and mode timed on the VM (the first of the same "
                        "seeds)")
    parser.add_argument("--table-seeds", type=cli.whole(0, len(seed_ranges.TRAINING)), default=0,
                        help="table games per table size (2-4 seats): best (at the table "
                             "engine.ai's plan alone) against best-each, the look-ahead on "
                             "every decision")
    parser.add_argument("--table-only", action="store_true",
                        help="only the table games (no solo, challenge, rival, coach or VM)")
    parser.add_argument("--prior", help="a weights module (tools.bots tune's or train's): "
                        "`best` with its weights plays too, as best-prior (CPython only: the "
                        "same code as best's; in a mode where its table is best's, best's games "
                        "are its own)")
    parser.add_argument("--no-vm", action="store_true", help="skip both VMs")
    parser.add_argument("--jobs", type=cli.whole(1, cli.JOBS_MAX), default=2,
                        help="CPython games at once")
    parser.add_argument("--vm-jobs", type=cli.whole(1, cli.JOBS_MAX), default=1,
                        help="VM runs at once (more: faster, but they slow each other's "
                             "decisions down)")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    for b in bots:
        if b in DESKTOP_BOTS or find(b) is None:
            parser.error("unknown bot %s: one of %s (the coach has --coach-seeds)" % (
                b, ", ".join(["best-before"] + [n for n in bot_names()
                                                if n not in DESKTOP_BOTS])))
    coach_bots = [b for b in args.coach_bots.split(",") if b]
    for b in coach_bots:
        if b not in DESKTOP_BOTS:
            parser.error("unknown coach %s: one of %s" % (b, ", ".join(DESKTOP_BOTS)))
    if not coach_bots:
        parser.error("--coach-bots: at least one of %s" % ", ".join(DESKTOP_BOTS))
    args.coach_seeds = min(args.coach_seeds, args.seeds)
    coach_modes = [m for m in args.coach_modes.split(",") if m] if args.coach_seeds else []
    for m in coach_modes:
        if m not in MODES:
            parser.error("unknown mode %s: one of %s" % (m, ", ".join(MODES)))
    if args.table_seeds == 1:
        parser.error("--table-seeds must be 0 or 2 or more")
    try:
        seeds = seed_ranges.take(args.range, max(args.seeds, args.table_seeds, args.vm_games))
    except ValueError as e:
        parser.error(str(e))
    first = seeds.start
    if args.prior:
        try:
            tables = tune.read_weights(args.prior)
        except cli.CliError as e:
            parser.error("--prior: %s" % e)
        if not tune.made_by_tune(args.prior):
            parser.error("--prior %s: not a weights module tools.bots tune or train wrote" %
                         args.prior)
        _prior[0] = tuple(tables[m] for m in tune.MODES)
    weights(0)  # load `best`'s weights now, not inside the first timed decision
    if args.table_seeds:
        # `best` (at the table engine.ai's plan alone, engine.bots best_bot) at a table of
        # `best-each` (the look-ahead with its whole CAP on every decision, as `best` is in
        # the other modes): its seat moves round the table with the seed.
        print("best at a table of best-each, seeds %d-%d (the seat turns with the seed): its "
              "score less the others' mean (lower is better), its wins" % (
                  first, first + args.table_seeds - 1))
        with Pool(args.jobs) as pool:
            for n in (2, 3, 4):
                got = pool.map(play_table, [("best", "best-each", n, s)
                                            for s in seeds[:args.table_seeds]], chunksize=2)
                diffs = [d for d, _, _ in got]
                wins = sum(w for _, w, _ in got)
                work, seed, seat, turn = max(t for _, _, t in got)
                print("  table of %d: %+.2f ± %.2f points, won %d of %d (a fair share: %.0f); "
                      "its longest turn's work %d units, %.1f s on a SAMD51 (seed %d, seat %d, "
                      "turn %d)" % (
                          (n,) + mean_se(diffs) + (wins, len(got), len(got) / n, work,
                                                   work / UNITS_PER_S, seed, seat, turn)))
        if args.table_only:
            return 0
    print("%d seeded games per bot and mode (seeds %d-%d, the %s range)" % (
        args.seeds, first, first + args.seeds - 1, args.range))
    results = {}
    started = time.time()
    with Pool(args.jobs) as pool:
        for b in bots:
            for m in MODES:
                results[b, m] = pool.map(play, [(b, m, s) for s in seeds[:args.seeds]],
                                         chunksize=10)
        if args.prior:
            for m in MODES:
                mode = MODE_NAMES.index(m)
                if "best" in bots and _prior[0][mode] == weights(mode):
                    results["best-prior", m] = results["best", m]  # the same decisions
                else:
                    results["best-prior", m] = pool.map(
                        play, [("best-prior", m, s) for s in seeds[:args.seeds]], chunksize=10)
        print("CPython %s: %.0f s" % (sys.version.split()[0], time.time() - started))
        load = None
        if coach_modes:
            # Each seed's games of the coaches one after the other: they meet the same load.
            started = time.time()
            before = os.getloadavg()
            for m in coach_modes:
                got = pool.map(play, [(c, m, s) for s in seeds[:args.coach_seeds]
                                      for c in coach_bots], chunksize=1)
                for i, c in enumerate(coach_bots):
                    results[c, m] = got[i::len(coach_bots)]
            load = (before, os.getloadavg())
            print("%s (CPython), %d seeded games each in %s (seeds %d-%d): %.0f s" % (
                ", ".join(coach_bots), args.coach_seeds, ", ".join(coach_modes), first,
                first + args.coach_seeds - 1, time.time() - started))
    vm = {}
    if not args.no_vm:
        started = time.time()
        vm = vm_runs(bots, first, args.vm_games, args.vm_jobs)
        print("MicroPython VM (tools/vm/mpvm), %d games per bot and mode: %.0f s" % (
            args.vm_games, time.time() - started))
    cp = loop_us = None
    if not args.no_vm:
        started = time.time()
        cp = cp_runs(bots, first, args.vm_games)
        if cp:
            print("CircuitPython VM (tools/vm/cpvm.py), %d games per bot and mode: %.0f s" % (
                args.vm_games, time.time() - started))
            loops = [int(f["loop_us"]) for f in cp.values()]
            loop_us = min(loops)
            print("SAMD51 factor: %d us (the loop on a SAMD51) / %d us (on this VM: the fastest "
                  "of its runs' fastest, %d-%d us) = %.0f" % (
                      SAMD51_LOOP_US, loop_us, min(loops), max(loops), SAMD51_LOOP_US / loop_us))
    print()
    row = "%-12s %13s %6s %8s %13s %11s %13s %11s  %-15s %-15s %-17s %-15s"
    print(row % ("bot", "solo", "median", "derails", "challenge", "challenge", "rival",
                 "rival", "CPython ms", "MP VM ms", "CP VM ms", "SAMD51 est. ms"))
    print(row % ("", "mean ± se", "", "per game", "mean ± se", "survived", "mean ± se", "won",
                 "mean / max", "mean / max", "mean / max", "mean / max"))
    for b in bots + (["best-prior"] if args.prior else []) + (coach_bots if coach_modes else []):
        modes = MODES if b not in coach_bots else coach_modes
        if b == "best-prior":
            modes = [m for m in MODES if results[b, m] is not results.get(("best", m))] or MODES
        solo = results.get((b, "solo"))
        times = []
        for m in modes:
            for r in results[b, m]:
                times += r[4]
        cpy = "%.3f / %.1f" % (1000 * sum(times) / len(times), 1000 * max(times))
        vms = "-"
        if vm and b in bots:
            dec = sum(int(vm[b, m]["decisions"]) for m in TIMED_MODES)
            tot = sum(int(vm[b, m]["total_ms"]) for m in TIMED_MODES)
            mx = max(int(vm[b, m]["max_ms"]) for m in TIMED_MODES)
            vms = "%.2f / %d" % (tot / dec, mx)
            raw = max(int(vm[b, m]["raw_max_ms"]) for m in TIMED_MODES)
            if raw > mx:
                vms += " (%d)" % raw
        cps = est = "-"
        if cp and b in bots:
            dec = sum(int(cp[b, m]["decisions"]) for m in TIMED_MODES)
            mean_us = sum(int(cp[b, m]["cpu_us"]) for m in TIMED_MODES) / dec
            max_us = max(int(cp[b, m]["max_us"]) for m in TIMED_MODES)
            cps = "%.3f / %.2f" % (mean_us / 1000, max_us / 1000)
            est = "%.0f / %.0f" % (samd51_ms(mean_us, loop_us), samd51_ms(max_us, loop_us))
        challenge = results.get((b, "challenge"))
        rival = results.get((b, "rival"))
        print(row % (
            b, "%.2f ± %.2f" % mean_se([r[0] for r in solo]) if solo else "-",
            "%.1f" % statistics.median(r[0] for r in solo) if solo else "-",
            "%.2f" % statistics.mean(r[1] for r in solo) if solo else "-",
            "%.2f ± %.2f" % mean_se([r[0] for r in challenge]) if challenge else "-",
            "%.1f ± %.1f%%" % mean_se([0 if r[2] else 100 for r in challenge])
            if challenge else "-",
            "%.2f ± %.2f" % mean_se([r[0] for r in rival]) if rival else "-",
            "%.1f ± %.1f%%" % mean_se([100 if r[3] else 0 for r in rival])
            if rival else "-", cpy, vms, cps, est))
    paired = [b for b in bots if results.get((b, "solo")) and results.get((b, "challenge"))]
    if paired:
        print()
        print("challenge less solo, paired by seed (the same deals and dice):")
        for b in paired:
            print("  %-11s %+.2f ± %.2f points" % ((b,) + mean_se(
                [c[0] - s[0] for c, s in zip(results[b, "challenge"], results[b, "solo"])])))
    if coach_modes:
        print()
        print("%s: %d games (seeds %d-%d) in %s; the others: %d." % (
            ", ".join(coach_bots), args.coach_seeds, first, first + args.coach_seeds - 1,
            ", ".join(coach_modes), args.seeds))
        for c in coach_bots:
            wall = [t for m in coach_modes for r in results[c, m] for t in r[4]]
            cpu = [t for m in coach_modes for r in results[c, m] for t in r[5]]
            work = [w for m in coach_modes for r in results[c, m] for w in r[6]]
            slow = sum(1 for t in cpu if t > 1.0)
            print("%s: %d decisions; CPU ms a decision mean %.1f, max %.1f, %d over 1 s; wall ms "
                  "mean %.1f, max %.1f; the planners' work a decision (engine.budget units, "
                  "n-tuple lookups not counted) mean %.0f, max %d" % (
                      c, len(cpu), 1000 * sum(cpu) / len(cpu), 1000 * max(cpu), slow,
                      1000 * sum(wall) / len(wall), 1000 * max(wall), sum(work) / len(work),
                      max(work)))
        (b1, b5, _), (e1, e5, _) = load
        print("the machine's load average (1 / 5 min) while the coaches played: %.2f / %.2f "
              "before, %.2f / %.2f after, on %d cores" % (b1, b5, e1, e5, os.cpu_count()))
        if len(coach_bots) > 1 and "solo" in coach_modes:
            base = coach_bots[0]
            for c in coach_bots[1:]:
                print("%s less %s on the same %d solo seeds, paired by seed: %+.2f ± %.2f" % (
                    (c, base, args.coach_seeds) + mean_se(
                        [a[0] - b[0] for a, b in zip(results[c, "solo"],
                                                     results[base, "solo"])])))
        if "solo" in coach_modes:
            for b in bots + (["best-prior"] if args.prior else []):
                if b in ("best", "best-before", "best-prior"):
                    same = [r[0] for r in results[b, "solo"][:args.coach_seeds]]
                    print("%s on the same %d solo seeds: mean %.2f ± %.2f" % (
                        (b, len(same)) + mean_se(same)))
    if args.prior:
        same = [m for m in MODES if results["best-prior", m] is results.get(("best", m))]
        print()
        print("best-prior: best with the weights of %s%s." % (
            args.prior, "; its %s games are best's (the same tables)" % ", ".join(same)
            if same else ""))
    if vm:
        print()
        print("MP VM ms: max is the slowest decision, each one of 5 ms or more timed three times "
              "and taken at its fastest")
        print("(other processes on this machine stall the VM now and then: in brackets the "
              "slowest single time).")
        print("Per mode: the slowest decision (seed/turn/phase), the most bytes one decision "
              "allocated, the live heap engine.bots adds on import (with engine.ai and its "
              "weights):")
        for b in bots:
            for m in TIMED_MODES:
                f = vm[b, m]
                print("  %-11s %-9s max %3s ms (single %3s) at %-12s alloc max %6s B   "
                      "import %s B" % (b, m, f["max_ms"], f["raw_max_ms"], f["worst"],
                                      f["alloc_max"], f["import"]))
    if cp:
        print()
        print("CP VM: the slowest decision (seed/turn/phase), the least of its fastest run and "
              "its CPU time, and its SAMD51 estimate;")
        print("in brackets the slowest single time; the decisions re-timed (tools/bots/bench_cp.py):")
        for b in bots:
            for m in TIMED_MODES:
                f = cp[b, m]
                print("  %-11s %-9s max %6.2f ms: SAMD51 %5.0f ms (single %6.2f) at %-12s "
                      "re-timed %5s of %s" % (
                          b, m, int(f["max_us"]) / 1000, samd51_ms(int(f["max_us"]), loop_us),
                          int(f["raw_max_us"]) / 1000, f["worst"], f["retimed"], f["decisions"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
