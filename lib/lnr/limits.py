"""The sizes, ranges and defaults of what lnr/storage.py keeps (the records, the settings, the
saved game), shared with lnr/image.py, which lays them out in the saves' image and which
storage loads only for a read or a write (RAM: docs/memory.md), so that neither imports the
other for them.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


IMAGE_SIZE = const(8192)  # the saves' image: the NVM's one erase block (lnr/image.py SIZE)
SAVE_MAX = const(355)  # bytes for a saved game in the image (lnr/games.py pack()'s largest fits)
N_MODES = const(4)  # solo, challenge, rival, table (engine/state.py MODE_*)
NO_BEST = const(0xFF)  # a mode's best score as stored when it has none: a best is 0..254
BRIGHTNESS_MAX = const(4)
PIXELS_MAX = const(16)
DEFAULT_BRIGHTNESS = const(2)
DEFAULT_PIXELS = const(5)  # the app clamps it to hw.max_pixels (1 on a PyBadge LC)
DEFAULT_HINTS = const(1)
DEFAULT_SOUND = const(1)
