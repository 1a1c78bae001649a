"""Shared by membudget's VM scripts: the .mpy files written out (form "mpy"), the stand-ins
installed, and the live heap after a real collection.

Each await leaves a JS proxy (28-30 B of the VM's heap) that only Node's collector frees: node
runs with --expose-gc and live() runs it, lets its finalizers run, then runs MicroPython's,
until two readings agree.
"""
import gc
import sys

import js
import mpvm

from tools.standins import install


def _write_mpy_files():
    # tools/membudget/vmrun.py hands the .mpy files over as a data module (run.mjs copies only
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


def standins(names):
    """Installs the stand-ins `names` (tools/standins) and starts the display objects' counts at
    0: terminalio's font is in the firmware's flash on a board."""
    mods = install(names)
    if "displayio" in mods:
        mods["displayio"].forget()
        _KINDS.extend(mods["displayio"].standins())
    return mods


def standin_bytes(unit):
    """Returns the heap the stand-in display objects take: each kind's count (in the order of
    displayio.standins()) times its measured size `unit`. Allocates nothing."""
    total = 0
    for i in range(len(_KINDS)):
        total += _KINDS[i].made * unit[i]
    return total


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
