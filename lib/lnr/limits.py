"""The sizes, ranges and defaults of what lnr/storage.py keeps in the NVM, shared with
lnr/slots.py (which storage loads only for a read or a write, RAM: docs/memory.md), so that
neither imports the other for them.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


NVM_BYTES = const(256)  # microcontroller.nvm on a PyBadge/PyGamer (docs/hardware.md)
SLOT_SIZE = const(128)  # two slots: lnr/slots.py
BLOB_MAX = const(104)  # bytes for a saved game in a slot
N_MODES = const(4)  # solo, challenge, rival, table (engine/state.py MODE_*)
NO_BEST = const(0xFF)  # a mode's best score as stored when it has none: a best is 0..254
BRIGHTNESS_MAX = const(4)
PIXELS_MAX = const(16)
DEFAULT_BRIGHTNESS = const(2)
DEFAULT_PIXELS = const(5)  # the app clamps it to hw.max_pixels (1 on a PyBadge LC)
DEFAULT_HINTS = const(1)
DEFAULT_SOUND = const(1)
