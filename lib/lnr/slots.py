"""The NVM slots of lnr/storage.py: layout, checks, reads and writes.

Loaded by each Storage read or write and dropped after it (RAM, docs/memory.md). The functions
know nothing of the Storage: they take bytes and values and return bytes, values and whether a
write held; lnr/storage.py keeps the data and which slot holds it.

The NVM (`microcontroller.nvm`: 256 bytes on a PyBadge/PyGamer) holds two slots of 128 bytes.
Each commit writes the whole image to the slot that does NOT hold the current data, in one
slice assignment, with a sequence number one higher; load() takes the valid slot with the newer
number. A write cut short leaves at worst that one slot damaged, and the other still holds the
last committed data. Slot layout (multi-byte ints big-endian):

  offset size  field
     0     1   magic 0x4C ("L")
     1     1   layout version (1)
     2     2   sequence number (mod 65536; newer = ahead by 1..32767)
     4     1   LED brightness (0..4)
     5     1   NeoPixel count (1..16)
     6     1   flags: bit 0 hints on, bit 1 sound off (layout 1's 0 and 1 keep the sound on)
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

Flash wear (docs/hardware.md): every slice assignment erases and rewrites flash, so the app
commits only at a game's end (finish_game), on save and quit (save_game) and when it leaves the
settings (save_settings); a commit that would write the same data is skipped.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from engine.crc import crc16
from lnr.limits import (
    SLOT_SIZE, BLOB_MAX, N_MODES, NO_BEST, BRIGHTNESS_MAX, PIXELS_MAX, DEFAULT_BRIGHTNESS,
    DEFAULT_PIXELS, DEFAULT_HINTS,
)

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

_VALID = const(0)
_BLANK = const(1)
_BAD = const(2)


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


def newest(nvm, into):
    """Finds the valid slot of `nvm` (256 bytes) with the newer sequence number and copies its
    image into `into` (a bytearray of SLOT_SIZE). Returns (the slot, 0 or 1, or -1 if neither
    is valid; its sequence number; True if a slot was damaged, not blank)."""
    slot = -1
    seq = 0
    damaged = False
    for i in range(2):
        raw = nvm[i * SLOT_SIZE:(i + 1) * SLOT_SIZE]
        status = _slot_status(raw)
        if status == _BAD:
            damaged = True
        elif status == _VALID:
            n = _u16(raw, _SEQ)
            if slot < 0 or _newer(n, seq):
                into[:] = raw
                slot = i
                seq = n
    return slot, seq, damaged


def fields(raw):
    """Returns the values of a valid image: (brightness, pixel_count, flags (the hints and
    sound settings, as image() takes them), best (a list,
    None for no record), played (a list), rival_wins, the saved game's bytes or None, False if
    the saved game's length cannot be one's). A setting out of range (a later layout, say)
    falls back to its default alone; a saved game that cannot be one is dropped, the records
    kept."""
    best = [None] * N_MODES
    played = [0] * N_MODES
    for m in range(N_MODES):
        b = raw[_BEST + m]
        best[m] = None if b == NO_BEST else b
        played[m] = _u16(raw, _PLAYED + 2 * m)
    n = raw[_BLOB_LEN]
    return (_in_range(raw[_BRIGHT], 0, BRIGHTNESS_MAX, DEFAULT_BRIGHTNESS),
            _in_range(raw[_PIXELS], 1, PIXELS_MAX, DEFAULT_PIXELS),
            _in_range(raw[_HINTS], 0, 3, DEFAULT_HINTS),
            best, played, _u16(raw, _RIVAL),
            bytes(raw[_BLOB:_BLOB + n]) if 0 < n <= BLOB_MAX else None,
            n <= BLOB_MAX)


def image(img, seq, brightness, pixel_count, flags, best, played, rival_wins, saved):
    """Writes into `img` (a bytearray of SLOT_SIZE) the slot image of these values (as
    fields() returns them) with sequence number `seq`, its checksum last."""
    for i in range(SLOT_SIZE):
        img[i] = 0
    img[0] = _MAGIC
    img[1] = _LAYOUT
    img[_SEQ] = seq >> 8
    img[_SEQ + 1] = seq & 0xFF
    img[_BRIGHT] = _in_range(brightness, 0, BRIGHTNESS_MAX, DEFAULT_BRIGHTNESS)
    img[_PIXELS] = _in_range(pixel_count, 1, PIXELS_MAX, DEFAULT_PIXELS)
    img[_HINTS] = flags & 3
    for m in range(N_MODES):
        img[_BEST + m] = _in_range(best[m], 0, NO_BEST - 1, NO_BEST)
        n = _in_range(played[m], 0, 0xFFFF, 0xFFFF)
        img[_PLAYED + 2 * m] = n >> 8
        img[_PLAYED + 2 * m + 1] = n & 0xFF
    n = _in_range(rival_wins, 0, 0xFFFF, 0xFFFF)
    img[_RIVAL] = n >> 8
    img[_RIVAL + 1] = n & 0xFF
    if saved is not None and 0 < len(saved) <= BLOB_MAX:
        img[_BLOB_LEN] = len(saved)
        img[_BLOB:_BLOB + len(saved)] = saved
    crc = crc16(img, 0, _CRC)
    img[_CRC] = crc >> 8
    img[_CRC + 1] = crc & 0xFF


def same(a, b):
    """Returns True if two images hold the same values (their sequence numbers aside)."""
    return a[_BRIGHT:_CRC] == b[_BRIGHT:_CRC]


def write(nvm, slot, img):
    """Writes `img` into `slot` (0 or 1) of `nvm` in one slice assignment; returns True if it
    reads back the same (False, too, if the NVM raised OSError)."""
    at = slot * SLOT_SIZE
    try:
        nvm[at:at + SLOT_SIZE] = img
        return nvm[at:at + SLOT_SIZE] == img
    except OSError:
        return False
