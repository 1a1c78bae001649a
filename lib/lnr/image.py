"""One copy of the saved data: an image of 8192 bytes, the same in the NVM and in the file on
the drive (lnr/copies.py writes both; docs/storage.md says why and in what order).

Physical layout: 16 sectors of 512 bytes, as the NVM's pages and the drive's FAT sectors.
Byte 0 of sector s is the marker 0x80 + 16 * (n % 7) + s for the commit numbered n (the images
of layout 2 before issue 25 have 0x80 + s: still read), never 0xFF: CircuitPython writes a
drive sector without erasing it when its old first bytes read as erased (external_flash.c,
page_erased()), so no sector of ours may ever start with 0xFF 0xFF 0xFF 0xFF. The commit's
number in every sector keeps a file that cuts left holding sectors of two commits from reading
as valid where their payloads agree (CircuitPython's cache reaches the flash sector by sector,
not in order: docs/storage.md). The other 511 bytes of each
sector carry the payload, 8176 bytes read as one run (logical offsets below). The last 4
bytes of the image are the CRC-32 (binascii.crc32, C on the board) of the 8188 bytes before.

Logical layout (multi-byte ints big-endian):

  offset size  field
     0     3   magic "LnR"
     3     1   layout version (2)
     4     3   sequence number: one higher at every commit; the higher valid copy is newer
     7     1   flags: which file on the drive was written too (lnr/copies.py)
     8     1   LED brightness (0..4)
     9     1   NeoPixel count (1..16)
    10     1   settings flags: bit 0 hints on, bit 1 sound off
    11     4   best score per mode (solo, challenge, rival, table); 0xFF = none yet
    15     8   games played per mode, 2 bytes each
    23     2   games won against the rival
    25     2   length of the saved game (0: none)
    27     2   bytes of the history in use
    29   355   the saved game (lnr/games.py pack()'s bytes), then zeros
   384  7788   the history: finished games, oldest first, each as entry() below; then zeros
  8172     4   the CRC-32 (physical bytes 8188..8191)

The work is done in place on one buffer (to_logical / to_physical move the payload with 16
slice copies), so a read or a write needs one 8 KB buffer and no second one.
"""
from binascii import crc32

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from lnr.limits import (
    IMAGE_SIZE, SAVE_MAX, N_MODES, NO_BEST, BRIGHTNESS_MAX, PIXELS_MAX, DEFAULT_BRIGHTNESS, DEFAULT_PIXELS,
    DEFAULT_HINTS,
)

SIZE = IMAGE_SIZE  # the NVM writes it in one slice assignment: one object, one erase
SECTOR = const(512)
_PAYLOAD = const(511)
_SECTORS = const(16)
_HISTORY = const(384)
HISTORY_MAX = const(7788)
ENTRY_HEAD = const(7)  # a history entry's bytes before its log
NO_LOG = const(0xFFFF)  # an entry's log bits when the game cannot be rebuilt

_VERSION = const(2)
_SEQ = const(4)
_FLAGS = const(7)
_BRIGHT = const(8)
_PIXELS = const(9)
_HINTS = const(10)
_BEST = const(11)
_PLAYED = const(15)
_RIVAL = const(23)
_SAVED_LEN = const(25)
_USED = const(27)
_SAVED = const(29)
_CRC = const(8188)  # physical

VALID = const(0)
BLANK = const(1)
BAD = const(2)
NEWER = const(3)


def status(buf):
    """Returns VALID, BLANK (all 0xFF as erased, or all 0x00), NEWER (a later layout's: its
    magic and a layout byte above ours, at the same place in every layout) or BAD for a
    physical image."""
    crc = crc32(memoryview(buf)[0:_CRC])
    ok = True
    for i in range(4):
        if buf[_CRC + i] != (crc >> (24 - 8 * i)) & 0xFF:
            ok = False
    if ok and buf[1] == 0x4C and buf[2] == 0x6E and buf[3] == 0x52 and buf[4] == _VERSION:
        mark = buf[0]  # the commit's, or 0x80: an image from before the marks had it
        if mark != 0x80 and mark != _mark(buf[5] << 16 | buf[6] << 8 | buf[7]):
            return BAD
        for s in range(_SECTORS):
            if buf[s * SECTOR] != mark + s:
                return BAD
        return VALID
    if buf[1] == 0x4C and buf[2] == 0x6E and buf[3] == 0x52 and buf[4] > _VERSION:
        return NEWER  # read by a later game, whatever its layout: never written by this one
    first = buf[0]
    if first != 0xFF and first != 0:
        return BAD
    same = bytes([first]) * SECTOR  # compared a sector at a time, in C
    for at in range(0, SIZE, SECTOR):
        if buf[at:at + SECTOR] != same:
            return BAD
    return BLANK


def to_logical(buf):
    """Moves a physical image's payload together, in place: logical offsets from 0."""
    for s in range(_SECTORS):
        buf[s * _PAYLOAD:(s + 1) * _PAYLOAD] = buf[s * SECTOR + 1:(s + 1) * SECTOR]


def _mark(number):
    # The first byte of sector 0 of the commit numbered `number`: at most 0xE0 (+ 15 < 0xFF).
    return 0x80 + ((number % 7) << 4)


def to_physical(buf):
    """Spreads a logical image over the sectors in place, writes the markers and the CRC."""
    mark = _mark(seq(buf))
    for s in range(_SECTORS - 1, -1, -1):
        buf[s * SECTOR + 1:(s + 1) * SECTOR] = buf[s * _PAYLOAD:(s + 1) * _PAYLOAD]
        buf[s * SECTOR] = mark + s
    crc = crc32(memoryview(buf)[0:_CRC])
    for i in range(4):
        buf[_CRC + i] = (crc >> (24 - 8 * i)) & 0xFF


def seq(buf):
    """Returns the sequence number of a logical image."""
    return buf[_SEQ] << 16 | buf[_SEQ + 1] << 8 | buf[_SEQ + 2]


def flags(buf):
    """Returns the flags byte of a logical image."""
    return buf[_FLAGS]


def _u16(buf, at):
    return buf[at] << 8 | buf[at + 1]


def _put16(buf, at, v):
    buf[at] = v >> 8
    buf[at + 1] = v & 0xFF


def _in_range(v, lo, hi, default):
    return v if type(v) is int and lo <= v <= hi else default


def clear(buf):
    """Makes `buf` an empty logical image (no records, no save, no history)."""
    for i in range(SIZE):
        buf[i] = 0
    buf[0] = 0x4C  # "LnR"
    buf[1] = 0x6E
    buf[2] = 0x52
    buf[3] = _VERSION


def fields(buf):
    """Returns the values of a valid logical image: (brightness, pixel_count, hints, best (a
    list, None for no record), played (a list), rival_wins, the saved game's bytes or None),
    and False if the saved game's length cannot be one's (it is left out, the rest kept). A
    setting out of range (a later layout, say) falls back to its default alone."""
    best = [None] * N_MODES
    played = [0] * N_MODES
    for m in range(N_MODES):
        b = buf[_BEST + m]
        best[m] = None if b == NO_BEST else b
        played[m] = _u16(buf, _PLAYED + 2 * m)
    n = _u16(buf, _SAVED_LEN)
    return ((_in_range(buf[_BRIGHT], 0, BRIGHTNESS_MAX, DEFAULT_BRIGHTNESS),
             _in_range(buf[_PIXELS], 1, PIXELS_MAX, DEFAULT_PIXELS),
             _in_range(buf[_HINTS], 0, 3, DEFAULT_HINTS),
             best, played, _u16(buf, _RIVAL),
             bytes(buf[_SAVED:_SAVED + n]) if 0 < n <= SAVE_MAX else None),
            n <= SAVE_MAX)


def write(buf, number, flag_byte, values):
    """Writes `values` (as fields() returns them: the records, the settings and the saved
    game), the sequence `number` and the flags into a logical image (the history stays as it
    is); a setting out of range is written as its default (as fields() would read it)."""
    brightness, pixel_count, hints, best, played, rival_wins, saved = values
    buf[_SEQ] = (number >> 16) & 0xFF
    buf[_SEQ + 1] = (number >> 8) & 0xFF
    buf[_SEQ + 2] = number & 0xFF
    buf[_FLAGS] = flag_byte
    buf[_BRIGHT] = _in_range(brightness, 0, BRIGHTNESS_MAX, DEFAULT_BRIGHTNESS)
    buf[_PIXELS] = _in_range(pixel_count, 1, PIXELS_MAX, DEFAULT_PIXELS)
    buf[_HINTS] = hints & 3  # the flags byte (lnr.storage: hints, sound)
    for m in range(N_MODES):
        buf[_BEST + m] = _in_range(best[m], 0, NO_BEST - 1, NO_BEST)
        _put16(buf, _PLAYED + 2 * m, _in_range(played[m], 0, 0xFFFF, 0xFFFF))
    _put16(buf, _RIVAL, _in_range(rival_wins, 0, 0xFFFF, 0xFFFF))
    n = len(saved) if saved is not None and len(saved) <= SAVE_MAX else 0
    _put16(buf, _SAVED_LEN, n)
    for i in range(SAVE_MAX):
        buf[_SAVED + i] = 0
    if n:
        buf[_SAVED:_SAVED + n] = saved


def content_crc(buf):
    """Returns a CRC-32 of everything a commit may change in a logical image except the
    sequence number and the flags: equal values mean there is nothing new to write."""
    mv = memoryview(buf)
    return crc32(mv[_HISTORY:_HISTORY + HISTORY_MAX], crc32(mv[_BRIGHT:_SAVED + SAVE_MAX]))


def entry(seed, mode, players, score, won, log):
    """Returns the history entry of a finished game: the seed (3 bytes), mode, seats and won
    (1 byte), the player's score (1 byte, at most 255), the log's bit count (2 bytes, NO_LOG if
    `log` (an engine.gamelog.GameLog) is None or overflowed) and the log's bytes."""
    bits = NO_LOG if log is None or log.bits < 0 else log.bits
    n = 0 if bits == NO_LOG else (bits + 7) >> 3
    e = bytearray(ENTRY_HEAD + n)
    e[0] = (seed >> 16) & 0xFF
    e[1] = (seed >> 8) & 0xFF
    e[2] = seed & 0xFF
    e[3] = (mode & 3) << 6 | ((players - 1) & 3) << 4 | (8 if won else 0)
    e[4] = score if 0 <= score < 255 else 255
    _put16(e, 5, bits)
    if n:
        e[ENTRY_HEAD:] = log.data[0:n]
    return e


def read_entry(e):
    """Returns (seed, mode, players, won, score, bits, log bytes) of a history entry; bits is
    NO_LOG for a game whose decisions were not kept."""
    bits = _u16(e, 5)
    return ((e[0] << 16) | (e[1] << 8) | e[2], e[3] >> 6, ((e[3] >> 4) & 3) + 1,
            bool(e[3] & 8), e[4], bits, bytes(e[ENTRY_HEAD:]))


def _entry_size(buf, at):
    """Returns the size of the history entry that starts at `at` of a logical image."""
    bits = _u16(buf, at + 5)
    return ENTRY_HEAD + (0 if bits == NO_LOG else (bits + 7) >> 3)


def add(buf, e):
    """Appends the history entry `e` to a logical image, dropping the oldest games until it
    fits (the history keeps as many of the last games as its 7788 bytes hold)."""
    old = _u16(buf, _USED)
    used = old
    n = len(e)
    drop = 0
    while used - drop + n > HISTORY_MAX:
        drop += _entry_size(buf, _HISTORY + drop)
    if drop:
        buf[_HISTORY:_HISTORY + used - drop] = buf[_HISTORY + drop:_HISTORY + used]
        used -= drop
    buf[_HISTORY + used:_HISTORY + used + n] = e
    used += n
    for i in range(_HISTORY + used, _HISTORY + old):
        buf[i] = 0  # what the dropped games left behind
    _put16(buf, _USED, used)


def games(buf):
    """Returns the history of a valid logical image as a list of entries (bytes), oldest
    first; entries that do not tile the used bytes exactly end the list."""
    used = _u16(buf, _USED)
    out = []
    at = _HISTORY
    end = _HISTORY + (used if used <= HISTORY_MAX else 0)
    while at + ENTRY_HEAD <= end:
        n = _entry_size(buf, at)
        if at + n > end:
            break
        out.append(bytes(buf[at:at + n]))
        at += n
    return out
