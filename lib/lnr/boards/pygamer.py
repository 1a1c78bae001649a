"""The PyGamer: as the PyBadge, but 4 keys on the shift register (B, A, START, SELECT, the
same numbers) and an analog stick for the directions (docs/hardware.md).

The stick turns into K_LEFT/RIGHT/UP/DOWN presses: a direction is pressed once its reading
passes the threshold (< 15000 or > 50000 of 65535, as adafruit_pybadger) and must come back
near the middle (hysteresis) before it can be pressed again, so holding the stick or a noisy
reading never repeats a press.
"""
import analogio
import board
import keypad
from micropython import const

from lnr.boards.pybadge import Hardware as _Badge
from lnr.keys import K_DOWN, K_LEFT, K_RIGHT, K_UP

_LOW = const(15000)
_HIGH = const(50000)
_BACK_LOW = const(22000)  # back past these (towards the middle of 32768) = released
_BACK_HIGH = const(43000)


class Hardware(_Badge):
    """The PyGamer's Hardware: next_key() also reports stick moves."""

    name = "pygamer"

    def _open_keys(self):
        self._keys = keypad.ShiftRegisterKeys(
            clock=board.BUTTON_CLOCK, data=board.BUTTON_OUT, latch=board.BUTTON_LATCH,
            key_count=4, value_when_pressed=True)
        self._x = analogio.AnalogIn(board.JOYSTICK_X)
        self._y = analogio.AnalogIn(board.JOYSTICK_Y)
        self._xdir = -1  # the direction key held on each axis, or -1
        self._ydir = -1

    def next_key(self):
        """Returns the next press: a button first, else a stick direction just pushed."""
        key = _Badge.next_key(self)
        if key >= 0:
            return key
        d = _axis(self._x.value, self._xdir, K_LEFT, K_RIGHT)
        if d != self._xdir:
            self._xdir = d
            if d >= 0:
                return d
        d = _axis(self._y.value, self._ydir, K_UP, K_DOWN)
        if d != self._ydir:
            self._ydir = d
            if d >= 0:
                return d
        return -1


def _axis(value, held, low_key, high_key):
    # The direction held on one axis after reading `value`, with hysteresis.
    if value < _LOW:
        return low_key
    if value > _HIGH:
        return high_key
    if held == low_key and value < _BACK_LOW:
        return held
    if held == high_key and value > _BACK_HIGH:
        return held
    return -1
