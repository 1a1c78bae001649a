"""The engine on CircuitPython 10's own VM (tools/vm/cpvm.py; run by `make cpcheck`).

    python -m tools.vm cpcheck          # runs this file on the VM, with the repository on sys.path

Prints what the engine costs there: the live heap that importing the engine's play modules
keeps, and the peak live heap while a game of each mode is played (the State, both Rngs and
engine.playout's loop), as tools/vm/mpcheck.py prints them from the MicroPython VM. Unlike that
port, gc.collect() works inside a script here, so the game is measured after every step. Exits 1
over issue 2's budgets (import <= 32 KB, game peak < 16 KB).
"""
import gc
import sys

IMPORT_BUDGET = 32 * 1024
GAME_BUDGET = 16 * 1024
MODES = (("solo", None), ("challenge", None), ("rival", None), ("table", 2), ("table", 3),
         ("table", 4))


def live():
    gc.collect()
    return gc.mem_alloc()


def measure_import():
    before = live()
    import engine.state  # noqa: F401 - what the device imports to play
    import engine.rng  # noqa: F401
    return live() - before


def peak_of_game(mode, players, seed):
    # The device's loop: a State, the chance Rng and a bot's Rng; no record is kept.
    from engine.bots import random_bot
    from engine.playout import seeded, steps
    from engine.state import MODE_NAMES

    base = live()
    state, chance, bots = seeded(MODE_NAMES.index(mode), seed, players)
    peak = live() - base
    for action in steps(state, chance, random_bot, bots):
        state.apply(action)
        action = None
        peak = max(peak, live() - base)
    return peak


def best_cost():
    # What the `best` bot (and so the hint) costs: the live heap its modules and a mode's
    # weights keep, and per decision of a solo game the bytes allocated from a collected heap
    # to its answer (nothing is collected meanwhile on this VM's big heap: an upper bound of
    # the decision's peak) and the live heap after it (what it keeps: dice odds).
    before = live()
    from engine.bots import best_bot, weights

    weights(0)
    print("import engine.bots + best's solo weights: %d bytes of live heap" % (live() - before))
    from engine.playout import DECIDE, seeded, steps  # the loop: not a cost of the bot

    state, chance, rng = seeded(0, 1)
    game = steps(state, chance)  # made before the base: the device's play has no such loop
    base = live()
    most = kept = 0
    for action in game:
        if action != DECIDE:
            state.apply(action)
            continue
        a0 = live()
        action = best_bot(state, rng)
        used = gc.mem_alloc() - a0
        most = max(most, used)
        state.apply(action)
        kept = max(kept, live() - base)
    print("best, a solo game: at most %d bytes allocated by one decision (its peak is less), "
          "at most %d bytes live between decisions (State, Rngs, caches)" % (most, kept))


def main():
    print("CircuitPython %s: %s" % (".".join(str(n) for n in sys.implementation.version[:3]),
                                    sys.implementation.name))
    cost = measure_import()
    print("import engine.state + engine.rng: %d bytes of live heap (budget %d)"
          % (cost, IMPORT_BUDGET))
    best_cost()  # it loads engine.bots first
    import engine.bots  # noqa: F401 - loaded before the games: its cost is not a game's
    worst = 0
    for mode, players in MODES:
        peak = max(peak_of_game(mode, players, seed) for seed in (1, 2, 3))
        worst = max(worst, peak)
        print("peak live heap during a %s game%s: %d bytes (State, both Rngs and the loop; "
              "worst of 3 seeds, every step)" % (mode, "" if players is None else " of %d" % players,
                                      peak))
    print("worst game peak: %d bytes (budget < %d)" % (worst, GAME_BUDGET))
    ok = cost <= IMPORT_BUDGET and worst < GAME_BUDGET
    print("cp engine check: %s" % ("ok" if ok else "OVER BUDGET"))
    return 0 if ok else 1


sys.exit(main())
