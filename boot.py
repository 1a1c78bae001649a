"""Runs once at power-up or RESET, before code.py: decides who may write the CIRCUITPY drive.

Normal start: the board's own code may write it (so `make flash` can copy files over USB serial
with mpremote); the computer then sees the drive read-only.
SELECT held while the board starts: the drive stays writable by the computer, for drag-and-drop
(and for deleting this file to go back to CircuitPython's default). See README "Putting it on a board".
"""

import time

import board
import keypad
import storage
from micropython import const

# Keys 0-3 are B, A, START, SELECT on both the PyBadge (8 keys on its shift register) and the
# PyGamer (4 keys): reading 4 keys works on both.
_KEY_COUNT = const(4)
_SELECT = const(3)


def select_held():
    """Returns True if SELECT is down now."""
    keys = keypad.ShiftRegisterKeys(
        clock=board.BUTTON_CLOCK,
        data=board.BUTTON_OUT,
        latch=board.BUTTON_LATCH,
        key_count=_KEY_COUNT,
        value_when_pressed=True,
    )
    # The scanner starts with every key released: a key held now gives a "pressed" event at
    # its first scans (one every 20 ms).
    time.sleep(0.1)
    event = keypad.Event()
    held = False
    while keys.events.get_into(event):
        if event.key_number == _SELECT:
            held = event.pressed
    keys.deinit()
    return held


if select_held():
    print("SELECT held: CIRCUITPY is writable by the computer (drag-and-drop).")
else:
    storage.remount("/", readonly=False)
    print("CIRCUITPY is writable by code (make flash); hold SELECT at power-up for "
          "drag-and-drop.")
