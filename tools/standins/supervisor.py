"""supervisor: ticks_ms() and the runtime, as code.py sees them with USB connected.

ticks_ms() starts 65.5 s before it wraps at 2**29, as the board's does after power-up; the
simulator puts its own (virtual) clock in its place.
"""
import time

_START = 0x1FFF0000
_MASK = 0x1FFFFFFF

if hasattr(time, "ticks_ms"):  # MicroPython, CircuitPython's unix port
    _ms = time.ticks_ms
else:  # CPython

    def _ms():
        return time.monotonic_ns() // 1000000

_t0 = _ms()


def ticks_ms():
    return (_ms() - _t0 + _START) & _MASK


class _Runtime:
    def __init__(self):
        self.usb_connected = True
        self.serial_connected = True
        self.serial_bytes_available = 0
        self.autoreload = False


runtime = _Runtime()


def reload():
    raise SystemExit(0)
