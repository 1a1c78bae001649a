"""Shared by membudget's VM scripts: the .mpy files written out (form "mpy"), the stand-ins
installed, and the live heap after a real collection.

Each await leaves a JS proxy (28-30 B of the VM's heap) that only Node's collector frees: node
runs with --expose-gc and live() runs it, lets its finalizers run, then runs MicroPython's,
until two readings agree.
"""
import gc
import sys

import js
import micropython
import mpvm

from tools.standins import install
from tools.vm.membudget.vm.sizes import meter


def _write_mpy_files():
    # tools/vm/membudget/vmrun.py hands the .mpy files over as a data module (run.mjs copies only
    # .py files); they go where the .py sources would be, and the module is dropped.
    try:
        import _mpy_files
    except ImportError:
        return
    import os

    for path, data in _mpy_files.FILES.items():
        parts = path.split("/")
        for i in range(3, len(parts)):
            try:
                os.mkdir("/".join(parts[:i]))
            except OSError:
                pass
        with open(path, "wb") as f:
            f.write(data)
    del sys.modules["_mpy_files"]


_write_mpy_files()


_KINDS = []  # displayio.standins(), once installed
_DIO = []  # the displayio stand-in, once installed


def standins(names):
    """Installs the stand-ins `names` (tools/standins) with displayio's meter set to the
    firmware's sizes (vm/sizes.py), and starts its counts afresh: terminalio's font is in the
    firmware's flash on a board."""
    mods = install(names)
    if "displayio" in mods:
        dio = mods["displayio"]
        dio.meter = meter
        dio.forget()
        _KINDS.extend(dio.standins())
        _DIO.append(dio)
    return mods


def standin_bytes(unit):
    """Returns the heap the stand-in display objects alive take: each kind's count (in the order
    of displayio.standins()) times its measured size `unit`, and what their Groups' lists of
    children grew by. Allocates nothing."""
    total = _DIO[0].metered[1]
    for i in range(len(_KINDS)):
        total += _KINDS[i].alive * unit[i]
    return total


def charged():
    """Returns the CircuitPython bytes of the stand-in display objects alive (vm/sizes.py)."""
    return _DIO[0].metered[0]


async def units():
    """Returns the heap one stand-in display object of each kind takes (16 of each, kept in a
    list made first), in the order of displayio.standins(); their counts are forgotten after
    (they are garbage once this returns)."""
    import displayio

    keep = [None] * 64
    bmp = displayio.Bitmap(8, 8, 2)
    pal = displayio.Palette(2)
    makers = {
        displayio.Group: lambda: displayio.Group(),  # pylint: disable=unnecessary-lambda
        displayio.Bitmap: lambda: displayio.Bitmap(8, 8, 2),
        displayio.Palette: lambda: displayio.Palette(2),
        displayio.TileGrid: lambda: displayio.TileGrid(
            bmp, pixel_shader=pal, width=1, height=1, tile_width=8, tile_height=8),
    }
    kinds = displayio.standins()
    out = [0] * len(kinds)
    for j in range(len(kinds)):
        make = makers[kinds[j]]
        a = await live()
        for i in range(16):
            keep[16 * j + i] = make()
        out[j] = ((await live()) - a) // 16
    displayio.forget()
    return out


QSTR_ENTRY = 7  # an interned name's pool entry: the pointer, a 2-byte hash, a 1-byte length


def qstr_slack():
    """Returns what the interned-name pools take beyond their names' own bytes (their text and
    a pool entry each, as tools/vm/membudget/modules.py charges a module's names): the entries a
    pool holds ready for names to come. Pools double when full, and the VM's and a board's fill
    up at different moments (a board's first ones follow its firmware's own names), so the
    phases leave this out: subtract its change from a live heap reading. Prints one line (the
    VM's qstr_info(), read back) and leaves a little garbage."""
    micropython.qstr_info()
    n = data = total = 0
    for word in mpvm.last_line().split():
        key, _, value = word.rstrip(",").partition("=")
        if key == "n_qstr":
            n = int(value)
        elif key == "n_str_data_bytes":
            data = int(value)
        elif key == "n_total_bytes":
            total = int(value)
    return total - data - QSTR_ENTRY * n


async def live():
    """Returns the live heap after a real collection."""
    # Node runs the finalizers of what its collector found a turn later, and not all of a
    # long backlog at once: collect again until the live heap stops falling.
    last = -1
    for _ in range(12):
        js.gc()
        await js.Promise.new(lambda res, rej: js.setTimeout(res, 0))
        await mpvm.collect()
        now = gc.mem_alloc()
        if last >= 0 and last - 64 <= now <= last + 64:
            return now
        last = now
    return last
