"""Records, settings and a saved game in the board's NVM, kept so that a power cut or damaged
bytes never lose the best scores and never crash the device.

The NVM (`microcontroller.nvm`, passed in: 256 bytes on a PyBadge/PyGamer) holds two slots of
128 bytes. Each commit writes the whole image to the slot that does NOT hold the current data,
in one slice assignment, with a sequence number one higher; load() takes the valid slot with
the newer number. A write cut short leaves at worst that one slot damaged, and the other still
holds the last committed data.

The slots' layout, checks, reads and writes are in lnr/slots.py, imported by each method below
that reads or writes and dropped after it: during a game none of that code is in RAM
(docs/memory.md). This object keeps the data (its public attributes) and which slot holds it;
slots gets bytes and values and gives back bytes, values and whether a write held.

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
from lnr.limits import (
    NVM_BYTES, SLOT_SIZE, BLOB_MAX, N_MODES, NO_BEST, DEFAULT_BRIGHTNESS, DEFAULT_PIXELS,
    DEFAULT_HINTS, DEFAULT_SOUND,
)

_MODE_RIVAL = const(2)  # engine/state.py MODE_RIVAL (the engine is not loaded for the NVM)

NOTICE_DAMAGED = "Saved data was damaged: reset to defaults"
NOTICE_OLDER = "Last save was damaged: older copy restored"
NOTICE_GAME = "Saved game could not be restored"
NOTICE_WRITE = "Could not save: storage write failed"
NOTICE_NO_NVM = "No storage on this board: nothing is saved"


def _done():
    # The slots' code (and its checksum's) is needed for a moment, not while a game is played.
    drop("lnr.slots", "engine.crc")


class Storage:
    """The app's persistent data on `nvm` (bytearray-like, 256 bytes, or None on a board
    without one). Call load() once at start; then read the attributes, change them and commit
    through the methods below."""

    def __init__(self, nvm):
        self._nvm = nvm if nvm is not None and len(nvm) >= NVM_BYTES else None
        self._cur = bytearray(SLOT_SIZE)  # the image in the current slot (allocated once)
        self._new = bytearray(SLOT_SIZE)  # the image being written
        self._slot = -1  # the slot holding the current data; -1: none (defaults)
        self._seq = 0
        self._repair = False  # a damaged slot was seen: the next commit must really write
        self.notice = None
        self.reset()

    def reset(self):
        """Sets every setting and record to its default, and no saved game (writes nothing)."""
        self.brightness = DEFAULT_BRIGHTNESS
        self.pixel_count = DEFAULT_PIXELS
        self.hints = DEFAULT_HINTS
        self.sound = DEFAULT_SOUND
        self.best = [None, None, None, None]
        self.played = [0, 0, 0, 0]
        self.rival_wins = 0
        self.saved = None

    def _note(self, text):
        self.notice = text if self.notice is None else self.notice + "\n" + text

    def load(self):
        """Reads the newer valid slot; never raises. Blank NVM gives the defaults silently;
        damaged data gives the defaults or the older copy, with `notice` set to say so."""
        self.reset()
        self._slot = -1
        self._seq = 0
        self._repair = False
        self.notice = None
        if self._nvm is None:
            self.notice = NOTICE_NO_NVM
            return
        from lnr import slots

        try:
            self._slot, self._seq, self._repair = slots.newest(self._nvm, self._cur)
            if self._repair:
                self.notice = NOTICE_OLDER if self._slot >= 0 else NOTICE_DAMAGED
            if self._slot >= 0:
                (self.brightness, self.pixel_count, flags, self.best, self.played,
                 self.rival_wins, self.saved, game_ok) = slots.fields(self._cur)
                self.hints = flags & 1
                self.sound = 0 if flags & 2 else 1
                if not game_ok:  # a saved game that cannot be one: dropped, the rest kept
                    self._note(NOTICE_GAME)
        finally:
            _done()

    def commit(self):
        """Writes everything to the other slot in one slice assignment; returns True if it
        was written and reads back the same. Skipped (False) when nothing changed."""
        if self._nvm is None:
            return False
        from lnr import slots

        try:
            seq = (self._seq + 1) & 0xFFFF
            new = self._new
            slots.image(new, seq, self.brightness, self.pixel_count,
                        (1 if self.hints else 0) | (0 if self.sound else 2), self.best,
                        self.played, self.rival_wins, self.saved)
            if self._slot >= 0 and not self._repair and slots.same(new, self._cur):
                return False  # the same data: spare the flash
            slot = 1 - self._slot if self._slot >= 0 else 0
            ok = slots.write(self._nvm, slot, new)
        finally:
            _done()
        if not ok:
            # The current slot is untouched: keep it as the current one and retry next time.
            self._note(NOTICE_WRITE)
            self._repair = True
            return False
        self._cur, self._new = new, self._cur
        self._slot = slot
        self._seq = seq
        self._repair = False
        return True

    def finish_game(self, mode, score, won):
        """Counts a finished game of `mode` (0 solo, 1 challenge, 2 rival, 3 table) with the
        player's `score` (docs/rules.md §7: lower is better); a won game with a lower score than
        the best becomes the best (a lost challenge ends early, §8, and must not set one).
        Drops the saved game, commits once; returns True if it is a new best."""
        if not 0 <= mode < N_MODES:
            raise ValueError("unknown mode %s" % mode)
        if self.played[mode] < 0xFFFF:
            self.played[mode] += 1
        if mode == _MODE_RIVAL and won and self.rival_wins < 0xFFFF:
            self.rival_wins += 1
        best = self.best[mode]
        new_best = (bool(won) and type(score) is int and 0 <= score < NO_BEST
                    and (best is None or score < best))
        if new_best:
            self.best[mode] = score
        self.saved = None
        self.commit()
        return new_best

    def save_game(self, blob):
        """Keeps `blob` (engine.codec.pack()'s bytes) as the game to resume, and commits.
        Returns False, writing nothing, if it is empty or longer than BLOB_MAX bytes."""
        if not 0 < len(blob) <= BLOB_MAX:
            return False
        self.saved = bytes(blob)
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

    def resume(self):
        """Returns (state, rng, meta) of the saved game (engine.codec.unpack), or None if there
        is none. One that cannot be unpacked is dropped (one write, the records kept) with the
        notice "Saved game could not be restored". The save stays until the game ends, a new
        save or drop_saved(), so a resumed game survives another power cut."""
        if self.saved is None:
            return None
        from engine.codec import unpack

        try:
            return unpack(self.saved)
        except ValueError:
            self._note(NOTICE_GAME)
            self.saved = None
            self.commit()
            return None
        finally:
            drop("engine.codec", "engine.crc")  # the codec and its checksum: for this moment
