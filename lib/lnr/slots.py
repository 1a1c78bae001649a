"""The NVM slots of lnr/storage.py: layout, checks, reads and writes.

Loaded by each Storage read or write and dropped after it (RAM, docs/memory.md): the functions
work on the Storage object `st`, which keeps the data and the slot bookkeeping.

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
from lnr import drop
from lnr.storage import (
    NVM_BYTES, SLOT_SIZE, BLOB_MAX, N_MODES, MODE_RIVAL, BRIGHTNESS_MAX, PIXELS_MAX,
    DEFAULT_BRIGHTNESS, DEFAULT_PIXELS, DEFAULT_HINTS, NOTICE_DAMAGED, NOTICE_OLDER,
    NOTICE_GAME, NOTICE_WRITE, NOTICE_NO_NVM,
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
_NO_BEST = const(0xFF)

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


def load(st):
    # See Storage.load.
    st._defaults()
    st._slot = -1
    st._seq = 0
    st._repair = False
    st.notice = None
    nvm = st._nvm
    if nvm is None or len(nvm) < NVM_BYTES:
        st.notice = NOTICE_NO_NVM
        return
    good = None
    for i in range(2):
        raw = nvm[i * SLOT_SIZE:(i + 1) * SLOT_SIZE]
        status = _slot_status(raw)
        if status == _BAD:
            st._repair = True
        elif status == _VALID:
            seq = _u16(raw, _SEQ)
            if good is None or _newer(seq, st._seq):
                good = raw
                st._slot = i
                st._seq = seq
    if good is None:
        if st._repair:
            st.notice = NOTICE_DAMAGED
        return
    if st._repair:
        st.notice = NOTICE_OLDER
    st._cur[:] = good
    _read(st, good)

def _read(st, raw):
    # Fields of a valid slot. A setting out of range (a later layout, say) falls back to
    # its default alone; a saved game that cannot be one is dropped, the records kept.
    st.brightness = _in_range(raw[_BRIGHT], 0, BRIGHTNESS_MAX, DEFAULT_BRIGHTNESS)
    st.pixel_count = _in_range(raw[_PIXELS], 1, PIXELS_MAX, DEFAULT_PIXELS)
    st.hints = _in_range(raw[_HINTS], 0, 1, DEFAULT_HINTS)
    for m in range(N_MODES):
        b = raw[_BEST + m]
        st.best[m] = None if b == _NO_BEST else b
        st.played[m] = _u16(raw, _PLAYED + 2 * m)
    st.rival_wins = _u16(raw, _RIVAL)
    n = raw[_BLOB_LEN]
    if n > BLOB_MAX:
        st._note(NOTICE_GAME)
    elif n:
        st.saved = bytes(raw[_BLOB:_BLOB + n])

def _build(st, seq):
    # The image of the current attributes into st._new.
    img = st._new
    for i in range(SLOT_SIZE):
        img[i] = 0
    img[0] = _MAGIC
    img[1] = _LAYOUT
    img[_SEQ] = seq >> 8
    img[_SEQ + 1] = seq & 0xFF
    img[_BRIGHT] = _in_range(st.brightness, 0, BRIGHTNESS_MAX, DEFAULT_BRIGHTNESS)
    img[_PIXELS] = _in_range(st.pixel_count, 1, PIXELS_MAX, DEFAULT_PIXELS)
    img[_HINTS] = 1 if st.hints else 0
    for m in range(N_MODES):
        img[_BEST + m] = _in_range(st.best[m], 0, _NO_BEST - 1, _NO_BEST)
        n = _in_range(st.played[m], 0, 0xFFFF, 0xFFFF)
        img[_PLAYED + 2 * m] = n >> 8
        img[_PLAYED + 2 * m + 1] = n & 0xFF
    n = _in_range(st.rival_wins, 0, 0xFFFF, 0xFFFF)
    img[_RIVAL] = n >> 8
    img[_RIVAL + 1] = n & 0xFF
    blob = st.saved
    if blob is not None and 0 < len(blob) <= BLOB_MAX:
        img[_BLOB_LEN] = len(blob)
        img[_BLOB:_BLOB + len(blob)] = blob
    crc = crc16(img, 0, _CRC)
    img[_CRC] = crc >> 8
    img[_CRC + 1] = crc & 0xFF

def commit(st):
    # See Storage.commit.
    nvm = st._nvm
    if nvm is None or len(nvm) < NVM_BYTES:
        return False
    seq = (st._seq + 1) & 0xFFFF
    _build(st, seq)
    if st._slot >= 0 and not st._repair and st._new[4:_CRC] == st._cur[4:_CRC]:
        return False  # the same data: spare the flash
    target = 1 - st._slot if st._slot >= 0 else 0
    at = target * SLOT_SIZE
    try:
        nvm[at:at + SLOT_SIZE] = st._new
        ok = nvm[at:at + SLOT_SIZE] == st._new
    except OSError:
        ok = False
    if not ok:
        # The current slot is untouched: keep it as the current one and retry next time.
        st._note(NOTICE_WRITE)
        st._repair = True
        return False
    st._cur, st._new = st._new, st._cur
    st._slot = target
    st._seq = seq
    st._repair = False
    return True

def finish_game(st, mode, score, won):
    # See Storage.finish_game.
    if not 0 <= mode < N_MODES:
        raise ValueError("unknown mode %s" % mode)
    if st.played[mode] < 0xFFFF:
        st.played[mode] += 1
    if mode == MODE_RIVAL and won and st.rival_wins < 0xFFFF:
        st.rival_wins += 1
    best = st.best[mode]
    new_best = (bool(won) and type(score) is int and 0 <= score < _NO_BEST
                and (best is None or score < best))
    if new_best:
        st.best[mode] = score
    st.saved = None
    commit(st)
    return new_best

def save_game(st, blob):
    # See Storage.save_game.
    if not 0 < len(blob) <= BLOB_MAX:
        return False
    st.saved = bytes(blob)
    return commit(st)

def drop_saved(st):
    # See Storage.drop_saved.
    if st.saved is None:
        return False
    st.saved = None
    return commit(st)

def resume(st):
    # See Storage.resume.
    if st.saved is None:
        return None
    from engine.codec import unpack

    try:
        return unpack(st.saved)
    except ValueError:
        st._note(NOTICE_GAME)
        st.saved = None
        commit(st)
        return None
    finally:
        drop("engine.codec")
