"""Records, settings and a saved game in the board's NVM, kept so that a power cut or damaged
bytes never lose the best scores and never crash the device.

The NVM (`microcontroller.nvm`, passed in: 256 bytes on a PyBadge/PyGamer) holds two slots of
128 bytes. Each commit writes the whole image to the slot that does NOT hold the current data,
in one slice assignment, with a sequence number one higher; load() takes the valid slot with
the newer number. A write cut short leaves at worst that one slot damaged, and the other still
holds the last committed data.

The slots' layout, checks, reads and writes are in lnr/slots.py, imported by each method below
that reads or writes and dropped after it: during a game none of that code is in RAM (about
5 KB, docs/memory.md). This object keeps the data and the slots' bookkeeping.

Flash wear (docs/hardware.md): every slice assignment erases and rewrites flash, so the app
commits only at a game's end (finish_game), on save and quit (save_game) and when it leaves the
settings (save_settings); a commit that would write the same data is skipped.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from lnr import drop

NVM_BYTES = const(256)
SLOT_SIZE = const(128)
BLOB_MAX = const(104)  # bytes for a saved game in a slot
N_MODES = const(4)  # solo, challenge, rival, table (engine/state.py MODE_*)
MODE_RIVAL = const(2)
BRIGHTNESS_MAX = const(4)
PIXELS_MAX = const(16)
DEFAULT_BRIGHTNESS = const(2)
DEFAULT_PIXELS = const(5)  # the app clamps it to hw.max_pixels (1 on a PyBadge LC)
DEFAULT_HINTS = const(1)

NOTICE_DAMAGED = "Saved data was damaged: reset to defaults"
NOTICE_OLDER = "Last save was damaged: older copy restored"
NOTICE_GAME = "Saved game could not be restored"
NOTICE_WRITE = "Could not save: storage write failed"
NOTICE_NO_NVM = "No storage on this board: nothing is saved"


def _slots(name, *args):
    # Runs lnr.slots' function `name`, then drops that module: its code is needed for a
    # moment (a read or a write), not while a game is played.
    from lnr import slots

    try:
        return getattr(slots, name)(*args)
    finally:
        drop("lnr.slots", "engine.crc")


class Storage:
    """The app's persistent data on `nvm` (bytearray-like, 256 bytes, or None on a board
    without one). Call load() once at start; then read the attributes, change them and commit
    through the methods below."""

    def __init__(self, nvm):
        self._nvm = nvm
        self._cur = bytearray(SLOT_SIZE)  # the image in the current slot (allocated once)
        self._new = bytearray(SLOT_SIZE)  # the image being written
        self._slot = -1  # the slot holding the current data; -1: none (defaults)
        self._seq = 0
        self._repair = False  # a damaged slot was seen: the next commit must really write
        self.notice = None
        self._defaults()

    def _defaults(self):
        self.brightness = DEFAULT_BRIGHTNESS
        self.pixel_count = DEFAULT_PIXELS
        self.hints = DEFAULT_HINTS
        self.best = [None, None, None, None]
        self.played = [0, 0, 0, 0]
        self.rival_wins = 0
        self.saved = None

    def _note(self, text):
        self.notice = text if self.notice is None else self.notice + "\n" + text

    def load(self):
        """Reads the newer valid slot; never raises. Blank NVM gives the defaults silently;
        damaged data gives the defaults or the older copy, with `notice` set to say so."""
        _slots("load", self)

    def commit(self):
        """Writes everything to the other slot in one slice assignment; returns True if it
        was written and reads back the same. Skipped (False) when nothing changed."""
        return _slots("commit", self)

    def finish_game(self, mode, score, won):
        """Counts a finished game of `mode` (0 solo, 1 challenge, 2 rival, 3 table) with the
        player's `score` (docs/rules.md §7: lower is better); a won game with a lower score than
        the best becomes the best (a lost challenge ends early, §8, and must not set one).
        Drops the saved game, commits once; returns True if it is a new best."""
        return _slots("finish_game", self, mode, score, won)

    def save_game(self, blob):
        """Keeps `blob` (engine.codec.pack()'s bytes) as the game to resume, and commits.
        Returns False, writing nothing, if it is empty or longer than BLOB_MAX bytes."""
        return _slots("save_game", self, blob)

    def drop_saved(self):
        """Forgets the saved game (commits once if there was one)."""
        return _slots("drop_saved", self)

    def save_settings(self):
        """Commits changed settings (brightness, pixel_count, hints); call it once when the
        settings screen is left, not per key press."""
        return _slots("commit", self)

    def resume(self):
        """Returns (state, rng, meta) of the saved game (engine.codec.unpack), or None if there
        is none. One that cannot be unpacked is dropped (one write, the records kept) with the
        notice "Saved game could not be restored". The save stays until the game ends, a new
        save or drop_saved(), so a resumed game survives another power cut."""
        return _slots("resume", self)
