"""The VM half of `make bench` (tools/bots/bench.py): times the bots' decisions on the real
MicroPython VM (tools/vm/mpvm). Run by tools/bots/bench.py as

    python -m tools.vm.mpvm --tree engine --tree tools tools/bots/bench_mp.py \
        BOT MODE FIRST_SEED GAMES

BOT is a name of engine.bots.BOTS, or "best-before": `best` as it was before its look-ahead
(tools/bots/best_before.py). A table has 4 seats, all played by BOT (as in tools/bots/bench_cp.py).

Plays the same seeded games as tools/bots/bench.py and engine.selfplay (chance from stream 0 of the
seed, the bot's rng from stream 1) and prints one line:

    BOT MODE decisions=N total_ms=T max_ms=M raw_max_ms=R worst=SEED/TURN/PHASE alloc_max=B
        import=I

Times come from time.ticks_ms around each call of the bot, so a single decision is known to
the millisecond (this port's clock ticks in whole milliseconds); the mean is total/decisions.
max_ms is the slowest decision, each decision of 5 ms or more timed three times and counted
with its fastest time (other processes can stall the VM); raw_max_ms the slowest single time.
alloc_max is the most bytes one decision allocated (this port never collects while Python runs,
so gc.mem_alloc() only grows during a call). import is the live heap engine.bots and what it
loads (engine.ai, engine.ai_weights) add on top of engine.state, after a collection.
"""
import gc
import sys
import time

import mpvm

await mpvm.collect()  # noqa: F704 - top-level await is how this VM collects (tools/vm/mpvm)
from engine.state import MODE_NAMES  # noqa: E402
from engine.playout import DECIDE, seeded, steps  # noqa: E402

await mpvm.collect()  # noqa: F704
_before = gc.mem_alloc()
from engine.bots import BOTS, weights  # noqa: E402

weights(0)  # the `best` bot loads its weights on first use: counted with the import
await mpvm.collect()  # noqa: F704
_import = gc.mem_alloc() - _before


async def main(argv):
    name, mode, first, games = argv[1], argv[2], int(argv[3]), int(argv[4])
    if name == "best-before":
        from tools.bots.best_before import best_before_bot as bot
    else:
        bot = BOTS[name]
    total = 0
    decisions = 0
    worst = 0
    raw_worst = 0
    where = "-"
    alloc_max = 0
    for seed in range(first, first + games):
        state, chance, rng = seeded(MODE_NAMES.index(mode), seed, 4 if mode == "table" else None)
        for action in steps(state, chance):
            if action != DECIDE:
                state.apply(action)
                continue
            before = rng.getstate()
            a0 = gc.mem_alloc()
            t0 = time.ticks_ms()
            action = bot(state, rng)
            dt = time.ticks_diff(time.ticks_ms(), t0)
            used = gc.mem_alloc() - a0
            after = rng.getstate()
            total += dt
            decisions += 1
            if used > alloc_max:
                alloc_max = used
            if dt > raw_worst:
                raw_worst = dt
            if dt > worst and dt >= 5:
                # Other processes on this machine can stall a call for many milliseconds:
                # a slow decision is timed twice more (from the same rng state: a bot's
                # decision is a function of the state and its rng, and leaves the state
                # alone) and counts with its fastest time.
                for _ in range(2):
                    await mpvm.collect()
                    rng.setstate(before)
                    t0 = time.ticks_ms()
                    bot(state, rng)
                    again = time.ticks_diff(time.ticks_ms(), t0)
                    if again < dt:
                        dt = again
            rng.setstate(after)
            if dt > worst:
                worst = dt
                where = "%d/%d/%d" % (seed, state.turn, state.phase)
            state.apply(action)
            # Each decision starts on a collected heap, as on the device, whose small heap
            # collects during any longer decision anyway; a VM heap grown by whole games of
            # garbage times the allocator, not the bot.
            await mpvm.collect()
    print("%s %s decisions=%d total_ms=%d max_ms=%d raw_max_ms=%d worst=%s alloc_max=%d "
          "import=%d" % (name, mode, decisions, total, worst, raw_worst, where, alloc_max,
                         _import))


await main(sys.argv)  # noqa: F704
