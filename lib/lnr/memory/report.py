"""What this board has, as the game saw it (lnr/memory FIGURES): the one line on the serial
console at start-up and after each game (line()), and the Board page of How to play (page()).
Loaded for that moment and dropped (RAM). A player with a board pastes the line into an issue
(docs/hardware.md): it replaces the estimates the game's budgets are made of."""
import sys

from lnr.memory import FIGURES, F_START, F_LEAST, F_WORK, F_NS, F_HINT, F_TURN, FLOOR_KB


def speed():
    """Returns the searches' units of work a second on this board's own clock, as text ("?"
    until a search ran by it)."""
    ns = FIGURES[F_NS]
    us = ns // 1000
    return str(FIGURES[F_WORK] * 1000000 // us) if us > 0 else "?"


def version():
    """Returns "CircuitPython 10.3.0" (or the runtime's name and version)."""
    impl = sys.implementation
    name = "CircuitPython" if impl.name == "circuitpython" else impl.name
    return name + " " + ".".join([str(v) for v in impl.version[:3]])


def line(hw):
    """Returns the serial console's line (docs/hardware.md shows one)."""
    f = FIGURES
    return ("loknroll: %s, %s, heap free at start %s B, least free %s B, search speed %s "
            "units/s, slowest hint %d ms, slowest bot turn %d ms" % (
                version(), hw.name, f[F_START] or "?", f[F_LEAST] or "?", speed(), f[F_HINT],
                f[F_TURN]))


def page(hw):
    """Returns the Board page's 7 lines of at most 26 characters."""
    f = FIGURES
    return (version(),
            "Board: " + hw.name,
            "Free at start: %s" % kb(f[F_START]),
            "Least free: %s" % kb(f[F_LEAST]),
            "The game needs %d KB" % FLOOR_KB,
            "Search: %s units/s" % speed(),
            "Hint %d ms, bot %d ms" % (f[F_HINT], f[F_TURN]))


def kb(n):
    """Returns `n` bytes as "12.3 KB", or "?" for none."""
    return "%d.%d KB" % (n // 1024, n % 1024 * 10 // 1024) if n else "?"
