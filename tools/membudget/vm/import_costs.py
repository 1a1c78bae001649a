"""Imports each device module on its own after the ones it imports at load, and reports the
live heap it added (IMPORT name kept-before-pools all-it-allocated) with the interned-name pools
around it (QSTR); then what one bitmap_label.Label as the menus make them adds (LABEL characters
scale bytes), and makes the board's Hardware object (HARDWARE bytes).

    argv: the stand-ins to install, the modules in order (comma-separated)
"""
import gc
import sys

import binascii  # noqa: F401 - C on the board; a .py module on the VM, so loaded before any count
import micropython
import mpvm

from tools.membudget.vm.prelude import charged, live, standin_bytes, standins, units

# Kept here, not split inside main(): a list made there would stay alive in a stale slot of the
# coroutine's stack (the collector scans it all) until something else lands there, and be
# freed between two readings.
STANDINS = sys.argv[1].split(",")
NAMES = sys.argv[2].split(",")


async def labels():
    # A bitmap_label.Label as the menus make them (lnr/menus/labels.py): a line of 26 characters and
    # the title, 13 at twice the size. What it adds to the heap, its stand-ins' own heap out and
    # its CircuitPython objects (vm/sizes.py) in.
    import terminalio
    from adafruit_display_text.bitmap_label import Label

    unit = await units()
    for width, scale in ((26, 1), (13, 2)):
        a = await live() + charged() - standin_bytes(unit)
        lbl = Label(terminalio.FONT, text=" " * width, color=0xFFFFFF, scale=scale,
                    anchor_point=(0, 0), anchored_position=(0, 0))
        b = await live() + charged() - standin_bytes(unit)
        print("LABEL", width, scale, b - a)
        lbl = None


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
    if "adafruit_display_text.bitmap_label" in sys.modules:
        await labels()
    # The board's Hardware object with the stand-in parts (lnr.boards picks the PyBadge
    # profile).
    from lnr.boards import open_hardware

    a = await live()
    hw = open_hardware()
    print("HARDWARE", (await live()) - a)
    return hw


mpvm.run(main())
