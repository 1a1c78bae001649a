"""Lok'n'Roll: CircuitPython runs this file at start-up; it starts the app (lib/lnr) on this board.

The start-up call sits under `__name__ == "__main__"` (CircuitPython runs code.py as __main__)
so that on a desktop a stray `import code` (pdb imports the standard library's `code`, and the
repository root is often first on sys.path) imports this file without starting anything.
"""

if __name__ == "__main__":
    import gc

    gc.collect()
    try:  # what the heap holds before the app: the firmware's own (lnr/powerup.py)
        base = gc.mem_alloc()  # type: ignore[attr-defined]  # the typeshed's gc is CPython's
    except AttributeError:  # CPython (the desktop) tells none
        base = 0
    import lnr.boards
    from lnr.main import run

    # Through the package, not a name of this module's: open_hardware() drops its package once
    # it has picked the board's profile, and a global here would keep its code (lnr/boards).
    hw = lnr.boards.open_hardware()
    hw.base = base
    run(hw)
