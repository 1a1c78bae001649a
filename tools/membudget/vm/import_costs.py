"""Imports each device module on its own after the ones it imports at load, and reports the
live heap it added (IMPORT name kept-before-pools all-it-allocated) with the interned-name pools
around it (QSTR), then makes the board's Hardware object (HARDWARE bytes).

    argv: the stand-ins to install, the modules in order (comma-separated)
"""
import gc
import sys

import micropython
import mpvm

from tools.membudget.vm.prelude import live, standins

# Kept here, not split inside main(): a list made there would stay alive in a stale slot of the
# coroutine's stack (the collector scans it all) until something else lands there, and be
# freed between two readings.
STANDINS = sys.argv[1].split(",")
NAMES = sys.argv[2].split(",")


async def main():
    standins(STANDINS)
    for i in range(len(NAMES)):
        name = NAMES[i]
        a = await live()
        print("QSTR")
        micropython.qstr_info()
        try:
            __import__(name)
        except Exception as e:  # pylint: disable=broad-except
            print("FAIL", name, type(e).__name__, e)
            continue
        b = gc.mem_alloc()
        c = await live()
        print("QSTR")
        micropython.qstr_info()
        print("IMPORT", name, c - a, b - a)
    # The board's Hardware object with the stand-in parts (lnr.boards picks the PyBadge
    # profile).
    from lnr.boards import open_hardware

    a = await live()
    hw = open_hardware()
    print("HARDWARE", (await live()) - a)
    return hw


mpvm.run(main())
