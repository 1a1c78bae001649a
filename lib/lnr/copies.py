"""The two copies of lnr/storage.py's data: reading them, choosing one, writing both in an order
that survives a power cut at any moment (docs/storage.md has the fault model and the proof).

Loaded by each Storage read or write and dropped after it (RAM, docs/memory.md); the one 8 KB
buffer they read into and write from is the Storage's (`buf`, made at power-up and kept). The
functions know nothing else of the Storage: they take the NVM, the drive,
the values kept (as lnr.image.fields() gives them) and `held`, which commit each copy holds,
and give back values, `held` and the notice to show; lnr/storage.py keeps them.

`held` is (seq, nvm_seq, file_seq, file_seen): the newest commit's number loaded or written
(-1: none), the one each copy holds intact (-1: none, damaged, or not known to be intact), and
whether a file copy was found on the drive or written.

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

from lnr import image
from lnr.image import SIZE, SECTOR, VALID, BLANK, BAD
from lnr.limits import (
    N_MODES, NO_BEST, BRIGHTNESS_MAX, PIXELS_MAX, DEFAULT_BRIGHTNESS, DEFAULT_PIXELS,
    DEFAULT_HINTS,
)

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

def _path(drive, name):
    return drive + name if drive.endswith("/") else drive + "/" + name


def _has_nvm(nvm):
    return nvm is not None and len(nvm) >= SIZE


def _join(notice, text):
    return text if notice is None else notice + "\n" + text


# ------------------------------------------------------------------ reading


def read_nvm(nvm, buf):
    """Reads the NVM's image into `buf`; returns its status (image.VALID, BLANK, BAD; or
    _NONE: no NVM)."""
    if not _has_nvm(nvm):
        return _NONE
    for at in range(0, SIZE, SECTOR):  # a sector at a time: no second 8 KB buffer
        buf[at:at + SECTOR] = nvm[at:at + SECTOR]
    return image.status(buf)


def read_file(drive, buf):
    """Reads the image of the file on the drive folder `drive` into `buf`; returns its status
    (VALID, BAD, _MISSING; or _NONE: no drive)."""
    if drive is None:
        return _NONE
    try:
        f = open(_path(drive, FILE), "rb")
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


def load(nvm, drive, writable, buf):
    """Reads both copies and takes the newest valid one; never raises. Returns (values, held,
    notice): the values as image.fields() gives them (None: no copy to take them from, the
    defaults stand), which commit each copy holds, and the notice the title shows (None: a
    blank board, or nothing lost). `buf`: the image's buffer (lnr/storage.py), written over."""
    values = None
    notice = None
    seq = nvm_seq = file_seq = -1
    flags = 0
    ns = read_nvm(nvm, buf)
    legacy = False
    if ns == VALID:
        image.to_logical(buf)
        seq = nvm_seq = image.seq(buf)
        flags = image.flags(buf)
        values, game_ok = image.fields(buf)
    elif ns == BAD:
        values, game_ok = _legacy(buf)
        legacy = values is not None
    fs = read_file(drive, buf)
    file_seen = fs == VALID or fs == BAD
    if fs == VALID:
        image.to_logical(buf)
        file_seq = image.seq(buf)
        if file_seq > nvm_seq:
            seq = file_seq
            values, game_ok = image.fields(buf)
    if values is not None and not game_ok:
        notice = NOTICE_GAME  # the saved game is dropped, the rest kept
    if seq < 0:
        if legacy:
            pass
        elif ns == BAD or fs == BAD:
            notice = NOTICE_DAMAGED
        elif ns == _NONE and fs == _NONE:
            notice = NOTICE_NO_NVM
    elif file_seq > nvm_seq:
        if ns == BAD or ns == BLANK:  # the NVM may have held a newer commit
            notice = _join(notice, NOTICE_OLDER)
    elif fs == BAD or (fs == _MISSING and flags & image.FLAG_DRIVE):
        notice = _join(notice, NOTICE_OLDER)  # the file may have held a newer commit
    if drive is not None and not writable:
        notice = _join(notice, NOTICE_LESS_SAFE)
    return values, (seq, nvm_seq, file_seq, file_seen), notice


def _legacy(buf):
    # The layout before this one: two 128-byte slots at the start of a 256-byte NVM (magic
    # 0x4C, layout 1, a 16-bit sequence number, CRC-16 of bytes 0..125 at 126). Returns its
    # records and settings as image.fields() does (None if neither slot is valid), and False
    # if it held a saved game: that is not taken over (the save's format changed).
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
        return None, True
    v = buf[at + 4]
    brightness = v if v <= BRIGHTNESS_MAX else DEFAULT_BRIGHTNESS
    v = buf[at + 5]
    pixel_count = v if 1 <= v <= PIXELS_MAX else DEFAULT_PIXELS
    v = buf[at + 6]
    hints = v if v <= 1 else DEFAULT_HINTS
    best = [None] * N_MODES
    played = [0] * N_MODES
    for m in range(N_MODES):
        v = buf[at + 7 + m]
        best[m] = None if v == NO_BEST else v
        played[m] = buf[at + 11 + 2 * m] << 8 | buf[at + 12 + 2 * m]
    rival_wins = buf[at + 19] << 8 | buf[at + 20]
    return (brightness, pixel_count, hints, best, played, rival_wins, None), not buf[at + 21]


def _current(nvm, drive, held, buf):
    # Fills `buf` with the logical image of the newest commit (held's seq) from a copy that
    # still holds it intact, or an empty one (the history starts again). Returns `held`, a
    # copy found no longer holding it marked so.
    seq, nvm_seq, file_seq, file_seen = held
    if seq >= 0:
        if nvm_seq == seq:
            if read_nvm(nvm, buf) == VALID:
                image.to_logical(buf)
                if image.seq(buf) == seq:
                    return held
            nvm_seq = -1
        if file_seq == seq:
            if read_file(drive, buf) == VALID:
                image.to_logical(buf)
                if image.seq(buf) == seq:
                    return seq, nvm_seq, file_seq, file_seen
            file_seq = -1
    image.clear(buf)
    return seq, nvm_seq, file_seq, file_seen


def history(nvm, drive, held, buf):
    """Returns (the games of the newest copy, oldest first, as lnr.image entries; held);
    `buf`: the image's buffer, written over."""
    held = _current(nvm, drive, held, buf)
    return image.games(buf), held


# ------------------------------------------------------------------ writing


def write_nvm(nvm, buf):
    """Writes the physical image in one slice assignment (one erase of the block); returns
    True if it reads back the same."""
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


def _make(drive, path):
    # The folders and files of the drive's copy, zeros for now (once per board, or after the
    # file was lost): the one write of the copy that allocates clusters (docs/storage.md).
    _mkdir(_path(drive, _FOLDER))
    pad = _path(drive, _PAD_FILE)
    if _size(pad) != PAD:
        _zero_file(pad, PAD)
    _mkdir(_path(drive, _SUBFOLDER))
    _zero_file(path, FILE_SIZE)


def write_file(drive, buf):
    """Writes the physical image into the file on the drive folder `drive`, in place (made
    first if it is not whole); returns True if no OSError came."""
    path = _path(drive, FILE)
    try:
        if _size(path) != FILE_SIZE:
            _make(drive, path)
        f = open(path, "r+b")
        try:
            f.seek(PAD)
            f.write(buf)
        finally:
            f.close()  # FatFs f_sync: the directory entry, then CircuitPython's flash flush
    except OSError:
        return False
    return True


def commit(nvm, drive, writable, held, values, buf, finished=None):
    """Writes `values` (as image.fields() gives them) and, if `finished` is not None, a
    finished game for the history ((seed, mode, players, score, won, log): image.entry()'s
    arguments) to both copies; the drive's only if `writable`. Returns (True if a copy now
    holds it, held, the notice to add or None); (False, held, None) when nothing changed.
    `buf`: the image's buffer (lnr/storage.py), written over."""
    has_nvm = _has_nvm(nvm)
    to_file = drive is not None and writable
    if not has_nvm and not to_file:
        return False, held, None
    seq, nvm_seq, file_seq, file_seen = _current(nvm, drive, held, buf)
    before = image.content_crc(buf)
    number = seq + 1 if seq >= 0 else 1
    flags = image.FLAG_DRIVE if (to_file or file_seen) else 0
    image.write(buf, number, flags, values)
    if finished is not None:
        image.add(buf, image.entry(*finished))
    if (seq >= 0 and image.content_crc(buf) == before
            and (nvm_seq == seq or not has_nvm)
            and (file_seq == seq or not to_file)):
        # The same data, and both copies hold it: spare the flash.
        return False, (seq, nvm_seq, file_seq, file_seen), None
    image.to_physical(buf)
    wrote = 0
    failed = 0
    nvm_first = has_nvm and nvm_seq != seq and file_seq == seq
    for nvm_now in ((True, False) if nvm_first else (False, True)):
        if nvm_now and has_nvm:
            ok = write_nvm(nvm, buf)
            nvm_seq = number if ok else -1
        elif not nvm_now and to_file:
            ok = write_file(drive, buf)
            file_seq = number if ok else -1
            file_seen = file_seen or ok
        else:
            continue
        if ok:
            wrote += 1
        else:
            failed += 1
    if not wrote:
        return False, (seq, nvm_seq, file_seq, file_seen), NOTICE_WRITE
    return True, (number, nvm_seq, file_seq, file_seen), NOTICE_ONE if failed else None
