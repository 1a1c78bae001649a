"""The engine on the real MicroPython VM (run by `make test` through tools/vm/mpvm).

    python -m tools.vm.mpvm --tree engine tools/vm/mpcheck.py [--records SEEDS | --speed]

Plays whole games of every mode and prints what they cost: the live heap that importing the
engine's play modules keeps, the peak live heap while a game is played, and with --speed games
per second (each mode played for 2 s of the clock: 12 s that `make test`, which runs this, does
not spend on a figure no check reads; `make bench` times every decision on this VM).
Exits 1 if a budget of issue 2 is broken (import <= 32 KB, game peak < 16 KB), 2 with one line
on bad arguments.
With --records N it instead prints, one JSON line each, the records of seeds 0..N-1 of every
mode, which host_tests/test_micropython.py compares with CPython's: same seed, same game.

Heap figures use `await mpvm.collect()` (the runner's module): on this port gc.collect() inside
a script frees nothing, see the note in tools/vm/mpvm/run.mjs.
"""
import gc
import sys
import time

import mpvm

IMPORT_BUDGET = 32 * 1024
GAME_BUDGET = 16 * 1024
MODES = (("solo", None), ("challenge", None), ("rival", None), ("table", 2), ("table", 3),
         ("table", 4))


async def live():
    await mpvm.collect()
    return gc.mem_alloc()


async def measure_import():
    before = await live()
    import engine.state  # what the device imports to play: the rules, cards, dice odds
    import engine.rng
    return (await live()) - before


def play_to(mode, players, seed, count):
    # The device's loop: a State, the chance Rng and a bot's Rng; no record is kept.
    from engine.bots import random_bot
    from engine.playout import seeded, steps
    from engine.state import MODE_NAMES

    state, chance, bots = seeded(MODE_NAMES.index(mode), seed, players)
    done = 0
    for action in steps(state, chance, random_bot, bots):
        if done == count:
            break
        state.apply(action)
        done += 1
    return state, chance, bots, done


async def peak_of_game(mode, players, seed, stride):
    # Each await to collect leaks ~30 bytes in the runner's JS bridge, so the game is not
    # measured step by step: it is replayed to every `stride`-th step with one collection
    # each, and the leak of one await (calibrated here) is taken off.
    play_to(mode, players, seed, 0)  # imports happen before any measurement
    a = await live()
    leak = (await live()) - a
    peak = 0
    steps = 0
    while True:
        base = await live()
        game = play_to(mode, players, seed, steps)
        used = (await live()) - base - leak
        peak = max(peak, used)
        done = game[3]
        game = None
        if done < steps:
            return peak
        steps += stride


async def games_per_second(seconds_each):
    from engine.selfplay import play

    out = []
    for mode, players in MODES:
        games = 0
        start = time.ticks_ms()
        while time.ticks_diff(time.ticks_ms(), start) < seconds_each * 1000:
            play(mode, games, players)
            games += 1
            await mpvm.collect()  # the heap only grows between collections on this port
        out.append((mode, players, games * 1000 / time.ticks_diff(time.ticks_ms(), start)))
    return out


async def print_records(seeds):
    import json
    from engine.selfplay import play

    for mode, players in MODES:
        for seed in range(seeds):
            print(json.dumps(play(mode, seed, players)))
            await mpvm.collect()


async def best_cost():
    # What the `best` bot (and so the hint) costs, as tools/vm/cp_engine_check.py prints it: the
    # live heap its modules and a mode's weights keep, and per decision of a solo game the
    # bytes allocated from a collected heap (an upper bound of the decision's peak) and the
    # live heap between decisions.
    before = await live()
    from engine.bots import best_bot, weights

    weights(0)
    print("import engine.bots + best's solo weights: %d bytes of live heap"
          % ((await live()) - before))
    from engine.playout import DECIDE, seeded, steps  # the loop: not a cost of the bot

    state, chance, rng = seeded(0, 1)
    game = steps(state, chance)  # made before the base: the device's play has no such loop
    base = await live()
    most = kept = 0
    for action in game:
        if action != DECIDE:
            state.apply(action)
            continue
        a0 = await live()
        action = best_bot(state, rng)
        used = gc.mem_alloc() - a0
        most = max(most, used)
        state.apply(action)
        kept = max(kept, (await live()) - base)
    print("best, a solo game: at most %d bytes allocated by one decision (its peak is less), "
          "at most %d bytes live between decisions (State, Rngs, caches)" % (most, kept))


def bad(why):
    # Bad input: one line on stderr, exit status 2 (the tools' convention, tools/cli.py).
    print("python -m tools.vm mpcheck: " + why, file=sys.stderr)
    return 2


async def main():
    args = sys.argv[1:]
    if args[:1] == ["--records"]:
        if len(args) != 2 or not args[1].isdigit():
            return bad("--records takes one whole number of seeds")
        await print_records(int(args[1]))
        return 0
    if args and args != ["--speed"]:
        return bad("unrecognized arguments: " + " ".join(args))
    print("MicroPython %s: %s" % (".".join(str(n) for n in sys.implementation.version[:3]),
                                  sys.implementation.name))
    cost = await measure_import()
    print("import engine.state + engine.rng: %d bytes of live heap (budget %d)"
          % (cost, IMPORT_BUDGET))
    await best_cost()  # before the games, which load engine.bots for their random bot
    worst = 0
    for mode, players in MODES:
        peak = 0
        for seed in (1, 2, 3):
            peak = max(peak, await peak_of_game(mode, players, seed, 3))
        worst = max(worst, peak)
        print("peak live heap during a %s game%s: %d bytes (State and both Rngs; worst of 3 "
              "seeds, every 3rd step)" % (mode, "" if players is None else " of %d" % players,
                                           peak))
    print("worst game peak: %d bytes (budget < %d)" % (worst, GAME_BUDGET))
    before = await live()
    import engine.record
    import engine.selfplay
    from engine.selfplay import play
    print("import engine.record + engine.selfplay (host and tests, not the device's play): "
          "%d bytes" % ((await live()) - before))
    a = await live()
    leak = (await live()) - a
    for mode, players in MODES:
        before = await live()
        record = play(mode, 1, players)
        used = (await live()) - before - leak
        record = None
        print("a whole %s%s game's record kept in memory: %d bytes"
              % (mode, "" if players is None else "-%d" % players, used))
    if args:  # --speed
        for mode, players, rate in await games_per_second(2):
            print("%s%s: %.1f games/s (random bot, with record)"
                  % (mode, "" if players is None else "-%d" % players, rate))
    ok = cost <= IMPORT_BUDGET and worst < GAME_BUDGET
    print("mpcheck: %s" % ("ok" if ok else "OVER BUDGET"))
    return 0 if ok else 1


sys.exit(await main())
