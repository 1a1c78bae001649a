"""Records, settings, a saved game and the history of finished games, kept so that a power cut
at any moment of a write, or damaged bytes in one copy, never loses more than that write and
never crashes the device (docs/storage.md).

Two copies of one 8 KB image (lnr/image.py): the board's NVM (`microcontroller.nvm`: 8192
bytes, one flash erase block that every write erases whole) and a file on the CIRCUITPY drive
(lnrsave/data/copy.bin). Each commit writes them one after the other, the one that does not
hold the newest data first, each with a sequence number one higher and a CRC-32; load() takes
the newest valid copy. A cut leaves at most the copy being written damaged.

When boot.py left the drive read-only to the board (SELECT held at power-up), or the drive has
no save file at its full size (the board never makes one: `make flash` does), only the NVM is
written: `less_safe` is True and the title says so at every start.

The code that reads and writes the copies (lnr/saves.py, lnr/copies.py, lnr/image.py) is
imported by each method below that reads or writes and dropped after it: none of it is in RAM
while a game is played (docs/memory.md), nor is the counting of a finished game. Their 8 KB
buffer is: the Storage holds it from power-up (see __init__; on a board it is the sprite
sheet's pixels, lent, lnr/sheet.py). This object keeps the data (its public attributes) and
which commit each copy holds; copies gets values and bytes and gives back values, which copy
holds what, and the notice to show.

Flash wear (docs/hardware.md): the app commits only at a game's end (finish_game), on save and
quit (save_game) and when it leaves the settings (save_settings); a commit that would write the
same data is skipped.
"""
from lnr.limits import (
    IMAGE_SIZE, N_MODES, SAVE_MAX, DEFAULT_BRIGHTNESS, DEFAULT_PIXELS, DEFAULT_HINTS,
    DEFAULT_SOUND,
)


class Storage:
    """The app's persistent data on `nvm` (microcontroller.nvm or None) and the drive whose root
    folder is `drive` ("/" on the board; None: no drive), which the board's code may write if
    `writable`. Call load() once at start; then read the attributes, change them and commit
    through the methods below."""

    DEFAULTS = (DEFAULT_BRIGHTNESS, DEFAULT_PIXELS, DEFAULT_HINTS)  # brightness, pixels, hints

    def __init__(self, nvm, drive=None, writable=False, image=None, sheet=None):
        # The image's buffer, for every read and write of the copies. The NVM takes the image
        # in one slice assignment (one erase of its block), so it is one 8 KB object, made
        # at power-up, while the heap is empty, and kept for good: made at each commit it
        # needs 8 KB in one piece of a heap that the screens' and the engine's code, loaded
        # and dropped, have left in pieces, and on CircuitPython's VM it did not get it (a
        # finished game's result lost to a MemoryError). docs/memory.md. `image`: such a
        # buffer lent by the sprite sheet `sheet` (its pixels, lnr/sheet.py), whose sprites
        # lnr/saves.py reads back after each read or write; None: one of this object's own.
        # These five are lnr/saves.py's, which reads and writes through them.
        self.image = bytearray(IMAGE_SIZE) if image is None else image
        self.sheet = None if image is None else sheet
        self.nvm = nvm
        self.drive = drive
        self.writable = writable
        # Which commit the copies hold (lnr/copies.py's `held`), read by tools/bots/records.py:
        # the newest sequence number loaded or written (-1: none), the one each copy holds
        # intact (-1: none, damaged, or not known to be intact), and whether the drive has a
        # file copy the board can write. Only lnr/saves.py sets them, from what copies gives
        # back (less_safe too, at load()).
        self.seq = -1
        self.nvm_seq = -1
        self.file_seq = -1
        self.file_seen = False
        self.less_safe = drive is None or not writable  # one copy only: the NVM
        self.notice = None
        self.reset()

    def reset(self):
        """Sets every setting and record to its default, and no saved game (writes nothing)."""
        self.brightness, self.pixel_count, self.hints = self.DEFAULTS
        self.sound = DEFAULT_SOUND
        self.best = [None] * N_MODES
        self.played = [0] * N_MODES
        self.rival_wins = 0
        self.saved = None

    def note(self, text):
        """Adds `text` to the notice the title shows once."""
        self.notice = text if self.notice is None else self.notice + "\n" + text

    def _saves(self):
        # The reads and writes are lnr/saves.py's, loaded for the moment only (it drops itself
        # with the copies' code after each read or write): their code is not in RAM beside a
        # screen's (about 1 KB as .mpy, docs/memory.md).
        from lnr import saves

        return saves

    def load(self):
        """Reads the newest valid copy; never raises. A blank board gives the defaults
        silently; damaged data gives the other copy or the defaults, with `notice` saying so."""
        self._saves().load(self)

    def commit(self, finished=None):
        """Writes everything (and the game `finished`, if not None, into the history: see
        finish_game) to both copies; returns True if a copy now holds it. Skipped (False)
        when nothing changed."""
        return self._saves().commit(self, finished)

    def finish_game(self, mode, score, won, seed=None, players=1, log=None):
        """Counts a finished game of `mode` (0 solo, 1 challenge, 2 rival, 3 table) with the
        player's `score` (docs/rules.md §7: lower is better); a won game with a lower score than
        the best becomes the best (a lost challenge ends early, §8, and must not set one).
        With its `seed`, seats and decision log (engine.gamelog.GameLog) the game joins the
        history. Drops the saved game, commits once; returns True if it is a new best."""
        return self._saves().finish_game(self, mode, score, won, seed, players, log)

    def save_game(self, saved):
        """Keeps `saved` (lnr.games pack()'s bytes) as the game to resume, and commits. Returns False,
        writing nothing, if it is empty or too long (SAVE_MAX, lnr/limits.py)."""
        if not 0 < len(saved) <= SAVE_MAX:
            return False
        self.saved = bytes(saved)
        return self.commit()

    def drop_saved(self):
        """Forgets the saved game (commits once if there was one)."""
        if self.saved is None:
            return False
        self.saved = None
        return self.commit()

    def save_settings(self):
        """Commits changed settings (brightness, pixel_count, hints, sound); call it once when
        the settings screen is left, not per key press."""
        return self.commit()

    def history(self):
        """Returns the finished games kept, oldest first, as lnr.image entries (bytes; read
        them with lnr.image.read_entry or tools/bots/records.py)."""
        return self._saves().history(self)
