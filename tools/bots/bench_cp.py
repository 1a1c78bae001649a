"""The CircuitPython half of `make bench` (tools/bots/bench.py): times the bots' decisions on
CircuitPython 10's own VM (tools/vm/cpvm.py), and the loop that names the SAMD51 factor.

    circuitpython tools/bots/bench_cp.py BOT MODE FIRST_SEED GAMES

BOT is a name of engine.bots.BOTS, or "best-before": `best` as it was before its look-ahead
(tools/bots/best_before.py, importable here: the repository's root is on the path). MODE is one of
engine.state.MODE_NAMES; a table has 4 seats (TABLE_SEATS), all played by BOT.

Plays the same seeded games as tools/bots/bench.py and tools/bots/bench_mp.py (chance from stream 0
of the seed, the bot's rng from stream 1) and prints one line:

    BOT MODE decisions=N total_us=T cpu_us=C loop_us=L max_us=M raw_max_us=R retimed=K
        worst=SEED/TURN/PHASE

Each decision starts on a collected heap (gc.collect() works inside a script on this VM) and is
timed with time.ticks_us. This VM shares the machine's 2 cores with other processes, which stall
it for whole scheduler slices (milliseconds: as long as a decision) and, beside it, slow it down.
Timed by the wall clock, a 5 ms decision on a machine with more busy processes than cores is
stalled in nearly every run (measured: 8.7 ms where it takes 4.8 ms on a quiet machine), so
the fastest of several runs alone does not measure the code. The VM's time.clock() is this
process's own CPU time (C's clock(), in whole milliseconds here), which a stall does not count.
So:

- A decision that may be the slowest (its first time over FLOOR_US and at least half the
  slowest so far: a stall only adds, so a decision never re-timed can't be the slowest) is
  run RETIMES more times back to back from the same rng state (a decision is a function of
  the state and the bot's rng, and leaves the state alone), each timed by the wall clock, the
  whole batch by time.clock(). It counts with the least of its fastest wall time and the
  batch's CPU time per run, rounded up by the clock's millisecond (cpu_bound): both are
  upper bounds of its time, so their least is too. (CPU time is not proof against every
  stall: a virtual machine's host can take the core and the guest count it as the process's.
  So a decision that would be the slowest so far gets a second batch, a moment later.) max_us
  is the slowest decision; retimed counts the decisions re-timed; raw_max_us is the slowest
  first wall time, stalls included.
- total_us is the sum of every decision's first wall time (stalls included: it errs high);
  cpu_us the sum of the same runs' CPU time (each reading is cut to the millisecond, so one
  decision's is off by less than a millisecond either way, but a sum of thousands is right to
  a fraction of a percent: the cuts fall anywhere in a millisecond); loop_us the fastest of
  tools/vm/cp_loop.py's runs of the loop, shortened to SHORT_LOOP iterations (1.6 ms: short
  enough to run between stalls; a run of the whole loop, 16 ms, was stalled 5 times in 5 on a
  busy machine) and scaled to a million, at the start, before each batch and at the end of the
  run. The fastest of all, because this loop's own time here wanders by more than 10% from
  one moment to another while a decision's does not (measured: the loop 15.4-19.7 ms and one
  decision 4.6-4.8 ms of CPU time, at the same moments): a factor from the loop timed beside
  each decision would add that noise, and the fastest loop gives the highest factor, so the
  board's estimate errs high.
"""
import gc
import sys
import time

from tools.vm.cp_loop import loop_us

RETIMES = 5  # more runs of a decision that may be the slowest: its fastest counts
FLOOR_US = 1000  # a decision faster than this is never re-timed
# time.clock() is C's clock() (a 32-bit clock_t of µs on this 32-bit build, cut to ms by the
# VM): it wraps after 2147 s of CPU time, so a difference across a wrap is not used.
SHORT_LOOP = 100000  # the loop beside a re-timed decision: a tenth, about as long as one
TABLE_SEATS = 4  # a table's seats here: the most turns of others a look-ahead plays through


def cpu_bound(start, runs):
    """Returns an upper bound in µs of the CPU time per run of `runs` runs since time.clock()
    read `start`, or None across a wrap of the clock."""
    ms = round((time.clock() - start) * 1000)
    if ms < 0:
        return None
    return (ms + 1) * 1000 // runs  # both readings are cut to the ms: under a ms more


def fastest(bot, state, rng, before):
    """Returns an upper bound of a decision's time in µs: the least of the fastest of RETIMES
    runs from the rng state `before` by the wall clock, and their CPU time per run."""
    gc.collect()
    c0 = time.clock()
    best = None
    for _ in range(RETIMES):
        rng.setstate(before)
        t0 = time.ticks_us()
        bot(state, rng)
        dt = time.ticks_diff(time.ticks_us(), t0)
        best = dt if best is None else min(best, dt)
    bound = cpu_bound(c0, RETIMES)
    return best if bound is None else min(best, bound)


def bench(name, mode, first, games):
    from engine.bots import BOTS, weights
    from engine.playout import DECIDE, seeded, steps
    from engine.state import MODE_NAMES

    if name == "best-before":
        from tools.bots.best_before import best_before_bot as bot
    else:
        bot = BOTS[name]
    weights(0)  # `best` loads its weights on first use: not inside the first timed decision
    seats = TABLE_SEATS if mode == "table" else None
    loop = loop_us(SHORT_LOOP)
    total = decisions = retimed = raw_worst = 0
    cpu = 0.0  # s
    worst = 0  # the slowest decision's time (µs)
    where = "-"
    for seed in range(first, first + games):
        state, chance, rng = seeded(MODE_NAMES.index(mode), seed, seats)
        for action in steps(state, chance):
            if action != DECIDE:
                state.apply(action)
                continue
            gc.collect()
            before = rng.getstate()
            c0 = time.clock()
            t0 = time.ticks_us()
            action = bot(state, rng)
            dt = time.ticks_diff(time.ticks_us(), t0)
            c1 = time.clock()
            if c1 >= c0:  # not across a wrap
                cpu += c1 - c0
            after = rng.getstate()
            total += dt
            raw_worst = max(raw_worst, dt)
            if dt > FLOOR_US and 2 * dt >= worst:
                retimed += 1
                loop = min(loop, loop_us(SHORT_LOOP))
                dt = min(dt, fastest(bot, state, rng, before))
                if dt > worst:  # the slowest so far: once more to be sure
                    loop = min(loop, loop_us(SHORT_LOOP))
                    dt = min(dt, fastest(bot, state, rng, before))
                rng.setstate(after)
            if dt > worst:
                worst = dt
                where = "%d/%d/%d" % (seed, state.turn, state.phase)
            decisions += 1
            state.apply(action)
    loop = min(loop, loop_us(SHORT_LOOP))
    print("%s %s decisions=%d total_us=%d cpu_us=%d loop_us=%d max_us=%d raw_max_us=%d "
          "retimed=%d worst=%s" % (name, mode, decisions, total, round(cpu * 1000) * 1000, loop,
                                   worst, raw_worst, retimed, where))


bench(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
