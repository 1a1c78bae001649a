"""The CircuitPython half of `make bench` (tools/bench.py): times the bots' decisions on
CircuitPython 10's own VM (tools/cpvm.py), and the loop that names the SAMD51 factor.

    circuitpython tools/cp_bench.py BOT MODE FIRST_SEED GAMES
    circuitpython tools/cp_bench.py --loop

BOT is a name of engine.bots.BOTS, or "best-before": `best` as it was before its look-ahead
(tools/best_before.py, importable here: the repository's root is on the path).

Plays the same seeded games as tools/bench.py and tools/bench_vm.py (chance from stream 0 of the
seed, the bot's rng from stream 1) and prints one line:

    BOT MODE decisions=N total_us=T max_us=M worst=SEED/TURN/PHASE

Each decision starts on a collected heap (gc.collect() works inside a script on this VM) and is
timed with time.ticks_us; a decision slower than 1 ms is timed twice more and counts with its
fastest time (other processes on the machine can stall the VM).

--loop prints the fastest of 5 runs of `for _ in range(1000000): pass`, in microseconds: the
loop whose time on a 120 MHz SAMD51 running CircuitPython is published (tools/bench.py,
SAMD51_LOOP_US), so that its ratio to this VM's time is the factor a decision's time here is
multiplied by to estimate it on the board.
"""
import gc
import sys
import time


def loop_us():
    best = None
    for _ in range(5):
        t0 = time.ticks_us()
        for _ in range(1000000):
            pass
        dt = time.ticks_diff(time.ticks_us(), t0)
        best = dt if best is None else min(best, dt)
    return best


def bench(name, mode, first, games):
    from engine.bots import BOTS
    from engine.rng import Rng
    from engine.state import MODE_NAMES, deal

    if name == "best-before":
        from tools.best_before import best_before_bot as bot
    else:
        bot = BOTS[name]
    total = decisions = worst = 0
    where = "-"
    for seed in range(first, first + games):
        chance = Rng(seed, 0)
        rng = Rng(seed, 1)
        state = deal(MODE_NAMES.index(mode), chance)
        state.start()
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(chance))
                continue
            if state.is_rival(state.seat):
                state.apply(state.rival_action())
                continue
            gc.collect()
            before = rng.getstate()
            t0 = time.ticks_us()
            action = bot(state, rng)
            dt = time.ticks_diff(time.ticks_us(), t0)
            after = rng.getstate()
            if dt > 1000:
                # Timed twice more from the same rng state (a decision is a function of the
                # state and the bot's rng, and leaves the state alone).
                for _ in range(2):
                    gc.collect()
                    rng.setstate(before)
                    t0 = time.ticks_us()
                    bot(state, rng)
                    dt = min(dt, time.ticks_diff(time.ticks_us(), t0))
                rng.setstate(after)
            total += dt
            decisions += 1
            if dt > worst:
                worst = dt
                where = "%d/%d/%d" % (seed, state.turn, state.phase)
            state.apply(action)
    print("%s %s decisions=%d total_us=%d max_us=%d worst=%s"
          % (name, mode, decisions, total, worst, where))


if sys.argv[1] == "--loop":
    print("loop_us=%d" % loop_us())
else:
    bench(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
