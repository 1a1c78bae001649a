"""Records, settings and a saved game in the board's NVM, kept so that a power cut or damaged
bytes never lose the best scores and never crash the device.

The NVM (`microcontroller.nvm`, passed in: 256 bytes on a PyBadge/PyGamer) holds two slots of
128 bytes. Each commit writes the whole image to the slot that does NOT hold the current data,
in one slice assignment, with a sequence number one higher; load() takes the valid slot with
the newer number. A write cut short leaves at worst that one slot damaged, and the other still
holds the last committed data. Slot layout (multi-byte ints big-endian):

  offset size  field
     0     1   magic 0x4C ("L")
     1     1   layout version (1)
     2     2   sequence number (mod 65536; newer = ahead by 1..32767)
     4     1   LED brightness (0..4)
     5     1   NeoPixel count (1..16)
     6     1   hints (0 off, 1 on)
     7     4   best score per mode (solo, challenge, rival, table); 0xFF = no record yet
    11     8   games played per mode, 2 bytes each
    19     2   games won against the rival
    21     1   length of the saved game (0 = none)
    22   104   the saved game (engine/codec.py, at most 98 bytes), then zeros
   126     2   CRC-16/CCITT-FALSE of bytes 0..125

Why CRC-16 and not a Fletcher sum: a torn write leaves a run of wrong bytes, and CRC-16 catches
every burst up to 16 bits and any odd number of flipped bits; Fletcher-16 adds mod 255, where an
erased 0xFF byte and a 0x00 byte count the same, so it cannot see part of a slot being erased.
A blank slot (all 0xFF as erased, or all 0x00) is simply empty; anything else that fails the
checks is damaged and produces a notice.

Flash wear (shared/HARDWARE.md): every slice assignment erases and rewrites flash, so the app
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

_MAGIC = const(0x4C)
_LAYOUT = const(1)
_SEQ = const(2)
_BRIGHT = const(4)
_PIXELS = const(5)
_HINTS = const(6)
_BEST = const(7)
_PLAYED = const(11)
_RIVAL = const(19)
_BLOB_LEN = const(21)
_BLOB = const(22)
_CRC = const(126)
_NO_BEST = const(0xFF)

_VALID = const(0)
_BLANK = const(1)
_BAD = const(2)

NOTICE_DAMAGED = "Saved data was damaged: reset to defaults"
NOTICE_OLDER = "Last save was damaged: older copy restored"
NOTICE_GAME = "Saved game could not be restored"
NOTICE_WRITE = "Could not save: storage write failed"
NOTICE_NO_NVM = "No storage on this board: nothing is saved"


def crc16(data, start=0, end=-1):
    """Returns the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[start:end] (end -1:
    to the end), as engine.codec's: kept here so that reading the NVM does not load the codec
    (about 10 KB of RAM; resume() loads it for a moment)."""
    if end < 0:
        end = len(data)
    crc = 0xFFFF
    for i in range(start, end):
        crc ^= data[i] << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def _slot_status(raw):
    # _VALID, _BLANK (as shipped or erased: silently empty) or _BAD (damaged).
    first = raw[0]
    if first == 0xFF or first == 0x00:
        blank = True
        for b in raw:
            if b != first:
                blank = False
                break
        if blank:
            return _BLANK
    if first != _MAGIC or raw[1] != _LAYOUT:
        return _BAD
    if crc16(raw, 0, _CRC) != (raw[_CRC] << 8) | raw[_CRC + 1]:
        return _BAD
    return _VALID


def _u16(raw, at):
    return (raw[at] << 8) | raw[at + 1]


def _newer(a, b):
    # Serial-number order (RFC 1982 style): `a` is newer if it is 1..32767 ahead of `b`.
    return 0 < ((a - b) & 0xFFFF) < 0x8000


def _in_range(v, lo, hi, default):
    return v if type(v) is int and lo <= v <= hi else default


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
        self._defaults()
        self._slot = -1
        self._seq = 0
        self._repair = False
        self.notice = None
        nvm = self._nvm
        if nvm is None or len(nvm) < NVM_BYTES:
            self.notice = NOTICE_NO_NVM
            return
        good = None
        for i in range(2):
            raw = nvm[i * SLOT_SIZE:(i + 1) * SLOT_SIZE]
            status = _slot_status(raw)
            if status == _BAD:
                self._repair = True
            elif status == _VALID:
                seq = _u16(raw, _SEQ)
                if good is None or _newer(seq, self._seq):
                    good = raw
                    self._slot = i
                    self._seq = seq
        if good is None:
            if self._repair:
                self.notice = NOTICE_DAMAGED
            return
        if self._repair:
            self.notice = NOTICE_OLDER
        self._cur[:] = good
        self._read(good)

    def _read(self, raw):
        # Fields of a valid slot. A setting out of range (a later layout, say) falls back to
        # its default alone; a saved game that cannot be one is dropped, the records kept.
        self.brightness = _in_range(raw[_BRIGHT], 0, BRIGHTNESS_MAX, DEFAULT_BRIGHTNESS)
        self.pixel_count = _in_range(raw[_PIXELS], 1, PIXELS_MAX, DEFAULT_PIXELS)
        self.hints = _in_range(raw[_HINTS], 0, 1, DEFAULT_HINTS)
        for m in range(N_MODES):
            b = raw[_BEST + m]
            self.best[m] = None if b == _NO_BEST else b
            self.played[m] = _u16(raw, _PLAYED + 2 * m)
        self.rival_wins = _u16(raw, _RIVAL)
        n = raw[_BLOB_LEN]
        if n > BLOB_MAX:
            self._note(NOTICE_GAME)
        elif n:
            self.saved = bytes(raw[_BLOB:_BLOB + n])

    def _build(self, seq):
        # The image of the current attributes into self._new.
        img = self._new
        for i in range(SLOT_SIZE):
            img[i] = 0
        img[0] = _MAGIC
        img[1] = _LAYOUT
        img[_SEQ] = seq >> 8
        img[_SEQ + 1] = seq & 0xFF
        img[_BRIGHT] = _in_range(self.brightness, 0, BRIGHTNESS_MAX, DEFAULT_BRIGHTNESS)
        img[_PIXELS] = _in_range(self.pixel_count, 1, PIXELS_MAX, DEFAULT_PIXELS)
        img[_HINTS] = 1 if self.hints else 0
        for m in range(N_MODES):
            img[_BEST + m] = _in_range(self.best[m], 0, _NO_BEST - 1, _NO_BEST)
            n = _in_range(self.played[m], 0, 0xFFFF, 0xFFFF)
            img[_PLAYED + 2 * m] = n >> 8
            img[_PLAYED + 2 * m + 1] = n & 0xFF
        n = _in_range(self.rival_wins, 0, 0xFFFF, 0xFFFF)
        img[_RIVAL] = n >> 8
        img[_RIVAL + 1] = n & 0xFF
        blob = self.saved
        if blob is not None and 0 < len(blob) <= BLOB_MAX:
            img[_BLOB_LEN] = len(blob)
            img[_BLOB:_BLOB + len(blob)] = blob
        crc = crc16(img, 0, _CRC)
        img[_CRC] = crc >> 8
        img[_CRC + 1] = crc & 0xFF

    def commit(self):
        """Writes everything to the other slot in one slice assignment; returns True if it
        was written and reads back the same. Skipped (False) when nothing changed."""
        nvm = self._nvm
        if nvm is None or len(nvm) < NVM_BYTES:
            return False
        seq = (self._seq + 1) & 0xFFFF
        self._build(seq)
        if self._slot >= 0 and not self._repair and self._new[4:_CRC] == self._cur[4:_CRC]:
            return False  # the same data: spare the flash
        target = 1 - self._slot if self._slot >= 0 else 0
        at = target * SLOT_SIZE
        try:
            nvm[at:at + SLOT_SIZE] = self._new
            ok = nvm[at:at + SLOT_SIZE] == self._new
        except OSError:
            ok = False
        if not ok:
            # The current slot is untouched: keep it as the current one and retry next time.
            self._note(NOTICE_WRITE)
            self._repair = True
            return False
        self._cur, self._new = self._new, self._cur
        self._slot = target
        self._seq = seq
        self._repair = False
        return True

    def finish_game(self, mode, score, won):
        """Counts a finished game of `mode` (0 solo, 1 challenge, 2 rival, 3 table) with the
        player's `score` (RULES.md §7: lower is better); a won game with a lower score than
        the best becomes the best (a lost challenge ends early, §8, and must not set one).
        Drops the saved game, commits once; returns True if it is a new best."""
        if not 0 <= mode < N_MODES:
            raise ValueError("unknown mode %s" % mode)
        if self.played[mode] < 0xFFFF:
            self.played[mode] += 1
        if mode == MODE_RIVAL and won and self.rival_wins < 0xFFFF:
            self.rival_wins += 1
        best = self.best[mode]
        new_best = (bool(won) and type(score) is int and 0 <= score < _NO_BEST
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
        """Commits changed settings (brightness, pixel_count, hints); call it once when the
        settings screen is left, not per key press."""
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
            drop("engine.codec")
