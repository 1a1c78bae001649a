"""time as CircuitPython's: the VM's own, and the board's clock beside it (time.monotonic(),
time.monotonic_ns(): the game's seed at power-up, its searches' clock)."""
from time import *  # noqa: F401,F403 pylint: disable=wildcard-import,unused-wildcard-import
import time as _t


def monotonic():
    """Seconds, a float, as a board's time.monotonic()."""
    return _t.time_ns() / 1000000000


def monotonic_ns():
    """Nanoseconds, as a board's time.monotonic_ns()."""
    return _t.time_ns()
