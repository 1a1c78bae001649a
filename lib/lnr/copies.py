"""The two copies of lnr/storage.py's data: reading them, choosing one, writing both in an order
that survives a power cut at any moment (docs/storage.md has the fault model and the proof).

Loaded by each Storage read or write and dropped after it (RAM, docs/memory.md), with the one
8 KB buffer below: the functions work on the Storage object `st`, on its public attributes.

The copies hold the same image (lnr/image.py):
- the NVM: `nvm[0:8192] = image`, one slice assignment: the SAMD51 erases the whole 8 KB block,
  then programs its 16 pages of 512 bytes in order;
- the file lnrsave/data/copy.bin on the drive: 3584 bytes of zeros, the image, 3584 bytes of
  zeros, overwritten in place (open "r+b", seek, one write of whole sectors, close). The zeros
  and a folder of its own keep the 4 KB flash sectors CircuitPython erases to rewrite the image
  and the file's directory entry apart from other files (docs/storage.md). The folder also
  holds pad.bin, made just before data/, so that data/'s directory sector follows our own.

A commit writes first the copy that does not hold the newest data (both do: the file), then
the other; each gets a sequence number one higher than the newest valid copy. A cut damages
at most the copy being written, and the other still holds the last or the one before last
commit. A copy that failed to write is written first at the next commit.
"""
import os

from engine.state import MODE_RIVAL
from lnr import image
from lnr.image import SIZE, SECTOR, VALID, BLANK, BAD

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_FOLDER = "lnrsave"
_PAD_FILE = "lnrsave/pad.bin"
_SUBFOLDER = "lnrsave/data"
FILE = "lnrsave/data/copy.bin"
PAD = const(3584)  # 7 sectors of zeros before and after the image
FILE_SIZE = const(15360)  # PAD + SIZE + PAD

_MISSING = const(3)  # a copy's status besides image.VALID / BLANK / BAD: no file
_NONE = const(4)  # no such copy here (no NVM, no drive)

NOTICE_DAMAGED = "Saved data was damaged: reset to defaults"
NOTICE_OLDER = "A copy was damaged: the last save may be lost"
NOTICE_GAME = "Saved game could not be restored"
NOTICE_WRITE = "Could not save: storage write failed"
NOTICE_ONE = "A copy could not be written: saves are less safe"
NOTICE_NO_NVM = "No storage on this board: nothing is saved"
NOTICE_LESS_SAFE = "Drive read-only: saves are less safe"

_buf = None  # the one image buffer: 8 KB, gone when this module is dropped


def _buffer():
    global _buf
    if _buf is None:
        _buf = bytearray(SIZE)
    return _buf


def _path(st, name):
    d = st.drive
    return d + name if d.endswith("/") else d + "/" + name


def _has_nvm(st):
    return st.nvm is not None and len(st.nvm) >= SIZE


# ------------------------------------------------------------------ reading


def read_nvm(st, buf):
    """Reads the NVM's image into `buf`; returns its status (image.VALID, BLANK, BAD; or
    _NONE: no NVM)."""
    nvm = st.nvm
    if not _has_nvm(st):
        return _NONE
    for at in range(0, SIZE, SECTOR):  # a sector at a time: no second 8 KB buffer
        buf[at:at + SECTOR] = nvm[at:at + SECTOR]
    return image.status(buf)


def read_file(st, buf):
    """Reads the file's image into `buf`; returns its status (VALID, BAD, _MISSING; or _NONE:
    no drive)."""
    if st.drive is None:
        return _NONE
    try:
        f = open(_path(st, FILE), "rb")
    except OSError:
        return _MISSING
    try:
        if f.seek(0, 2) != FILE_SIZE:
            return BAD
        f.seek(PAD)
        n = f.readinto(buf)
    except OSError:
        return BAD
    finally:
        f.close()
    if n != SIZE:
        return BAD
    return image.status(buf)


def _take(st, buf):
    # The fields of a valid logical image become st's.
    if not image.read(buf, st, st.DEFAULTS):
        st.note(NOTICE_GAME)
    st.seq = image.seq(buf)


def load(st):
    # See Storage.load.
    st.defaults()
    st.notice = None
    st.seq = st.nvm_seq = st.file_seq = -1
    st.file_seen = False
    st.less_safe = st.drive is None or not st.writable
    buf = _buffer()
    flags = 0
    ns = read_nvm(st, buf)
    legacy = False
    if ns == VALID:
        image.to_logical(buf)
        st.nvm_seq = image.seq(buf)
        flags = image.flags(buf)
        _take(st, buf)
    elif ns == BAD:
        legacy = _legacy(st, buf)
    fs = read_file(st, buf)
    st.file_seen = fs == VALID or fs == BAD
    if fs == VALID:
        image.to_logical(buf)
        st.file_seq = image.seq(buf)
        if st.file_seq > st.nvm_seq:
            _take(st, buf)
    if st.seq < 0:
        if legacy:
            pass
        elif ns == BAD or fs == BAD:
            st.defaults()
            st.note(NOTICE_DAMAGED)
        elif ns == _NONE and fs == _NONE:
            st.note(NOTICE_NO_NVM)
    elif st.file_seq > st.nvm_seq:
        if ns == BAD or ns == BLANK:  # the NVM may have held a newer commit
            st.note(NOTICE_OLDER)
    elif fs == BAD or (fs == _MISSING and flags & image.FLAG_DRIVE):
        st.note(NOTICE_OLDER)  # the file may have held a newer commit
    if st.drive is not None and not st.writable:
        st.note(NOTICE_LESS_SAFE)


def _legacy(st, buf):
    # The layout before this one: two 128-byte slots at the start of a 256-byte NVM (magic
    # 0x4C, layout 1, a 16-bit sequence number, CRC-16 of bytes 0..125 at 126). Its records
    # and settings are taken over; its saved game is not (the save's format changed).
    from engine.crc import crc16

    at = -1
    seq = 0
    for a in (0, 128):
        if buf[a] != 0x4C or buf[a + 1] != 1:
            continue
        if crc16(buf, a, a + 126) != (buf[a + 126] << 8 | buf[a + 127]):
            continue
        s = buf[a + 2] << 8 | buf[a + 3]
        if at < 0 or 0 < ((s - seq) & 0xFFFF) < 0x8000:
            at = a
            seq = s
    if at < 0:
        return False
    d = st.DEFAULTS
    v = buf[at + 4]
    st.brightness = v if v <= image.BRIGHTNESS_MAX else d[0]
    v = buf[at + 5]
    st.pixel_count = v if 1 <= v <= image.PIXELS_MAX else d[1]
    v = buf[at + 6]
    st.hints = v if v <= 1 else d[2]
    for m in range(image.N_MODES):
        v = buf[at + 7 + m]
        st.best[m] = None if v == image.NO_BEST else v
        st.played[m] = buf[at + 11 + 2 * m] << 8 | buf[at + 12 + 2 * m]
    st.rival_wins = buf[at + 19] << 8 | buf[at + 20]
    if buf[at + 21]:
        st.note(NOTICE_GAME)
    return True


def _current(st, buf):
    # Fills `buf` with the logical image of the newest commit (st.seq) from a copy that still
    # holds it intact, or an empty one (the history starts again).
    if st.seq >= 0:
        if st.nvm_seq == st.seq:
            if read_nvm(st, buf) == VALID:
                image.to_logical(buf)
                if image.seq(buf) == st.seq:
                    return
            st.nvm_seq = -1
        if st.file_seq == st.seq:
            if read_file(st, buf) == VALID:
                image.to_logical(buf)
                if image.seq(buf) == st.seq:
                    return
            st.file_seq = -1
    image.clear(buf)


def history(st):
    """Returns the games of the newest copy, oldest first (lnr.image entries)."""
    buf = _buffer()
    _current(st, buf)
    return image.games(buf)


# ------------------------------------------------------------------ writing


def write_nvm(st, buf):
    """Writes the physical image in one slice assignment (one erase of the block); returns
    True if it reads back the same."""
    nvm = st.nvm
    try:
        nvm[0:SIZE] = buf
        for at in range(0, SIZE, SECTOR):
            if nvm[at:at + SECTOR] != buf[at:at + SECTOR]:
                return False
    except (OSError, ValueError):
        return False
    return True


def _zeros(f, n):
    z = bytes(SECTOR)
    for _ in range(n // SECTOR):
        f.write(z)


def _mkdir(path):
    try:
        os.mkdir(path)
    except OSError:  # it exists (or the open below fails and says so)
        pass


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def _zero_file(path, size):
    f = open(path, "wb")
    try:
        _zeros(f, size)
    finally:
        f.close()


def _make(st, path):
    # The folders and files of the drive's copy, zeros for now (once per board, or after the
    # file was lost): the one write of the copy that allocates clusters (docs/storage.md).
    _mkdir(_path(st, _FOLDER))
    pad = _path(st, _PAD_FILE)
    if _size(pad) != PAD:
        _zero_file(pad, PAD)
    _mkdir(_path(st, _SUBFOLDER))
    _zero_file(path, FILE_SIZE)


def write_file(st, buf):
    """Writes the physical image into the file, in place (made first if it is not whole);
    returns True if no OSError came."""
    path = _path(st, FILE)
    try:
        if _size(path) != FILE_SIZE:
            _make(st, path)
        f = open(path, "r+b")
        try:
            f.seek(PAD)
            f.write(buf)
        finally:
            f.close()  # FatFs f_sync: the directory entry, then CircuitPython's flash flush
    except OSError:
        return False
    return True


def commit(st, entry):
    """Writes st's data (and the history entry `entry`, if not None) to both copies; see
    Storage.commit."""
    has_nvm = _has_nvm(st)
    to_file = st.drive is not None and st.writable
    if not has_nvm and not to_file:
        return False
    buf = _buffer()
    _current(st, buf)
    before = image.content_crc(buf)
    number = st.seq + 1 if st.seq >= 0 else 1
    flags = image.FLAG_DRIVE if (to_file or st.file_seen) else 0
    image.write(buf, st, number, flags, st.DEFAULTS)
    if entry is not None:
        image.add(buf, entry)
    if (st.seq >= 0 and image.content_crc(buf) == before
            and (st.nvm_seq == st.seq or not has_nvm)
            and (st.file_seq == st.seq or not to_file)):
        return False  # the same data, and both copies hold it: spare the flash
    image.to_physical(buf)
    wrote = 0
    failed = 0
    nvm_first = has_nvm and st.nvm_seq != st.seq and st.file_seq == st.seq
    for nvm_now in ((True, False) if nvm_first else (False, True)):
        if nvm_now and has_nvm:
            ok = write_nvm(st, buf)
            st.nvm_seq = number if ok else -1
        elif not nvm_now and to_file:
            ok = write_file(st, buf)
            st.file_seq = number if ok else -1
            st.file_seen = st.file_seen or ok
        else:
            continue
        if ok:
            wrote += 1
        else:
            failed += 1
    if not wrote:
        st.note(NOTICE_WRITE)
        return False
    st.seq = number
    if failed:
        st.note(NOTICE_ONE)
    return True


def finish_game(st, mode, score, won, seed, players, log):
    # See Storage.finish_game.
    if not 0 <= mode < image.N_MODES:
        raise ValueError("unknown mode %s" % mode)
    if st.played[mode] < 0xFFFF:
        st.played[mode] += 1
    if mode == MODE_RIVAL and won and st.rival_wins < 0xFFFF:
        st.rival_wins += 1
    best = st.best[mode]
    new_best = (bool(won) and type(score) is int and 0 <= score < image.NO_BEST
                and (best is None or score < best))
    if new_best:
        st.best[mode] = score
    st.saved = None
    entry = None
    if seed is not None:
        entry = image.entry(seed, mode, players, score, won, log)
    commit(st, entry)
    return new_best


def save_game(st, saved):
    # See Storage.save_game.
    if not 0 < len(saved) <= image.SAVE_MAX:
        return False
    st.saved = bytes(saved)
    return commit(st, None)
