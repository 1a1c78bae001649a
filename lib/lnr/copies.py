"""The two copies of lnr/storage.py's data: reading them, choosing one, writing both in an order
that no sequence of power cuts can turn into a loss of a commit reported saved
(docs/storage.md has the fault model and the proof).

Loaded by each Storage read or write and dropped after it (RAM, docs/memory.md); the one 8 KB
buffer they read into and write from is the Storage's (`buf`, made at power-up and kept). The
functions know nothing else of the Storage: they take the NVM, the drive,
the values kept (as lnr.image.fields() gives them) and `held`, which commit each copy holds,
and give back values, `held` and the notice to show; lnr/storage.py keeps them.

`held` is (seq, nvm_seq, file_seq, file_seen): the newest commit's number loaded or written
(-1: none), the one each copy holds intact (-1: none, damaged, or not known to be intact), and
whether the drive has a file copy the board can write.

The copies hold the same image (lnr/image.py):
- the NVM: `nvm[0:8192] = image`, one slice assignment: the SAMD51 erases the whole 8 KB block,
  then programs its 16 pages of 512 bytes in order;
- the file lnrsave/data/copy.bin on the drive: 3584 bytes of zeros, the image, 3584 bytes of
  zeros, overwritten in place (open "r+b", seek, one write of whole sectors, close). The board
  never makes, grows or deletes it, nor its folders: `make flash` makes them (tools/flash/deploy.py,
  where the layout's reasons are), so a commit writes the image's sectors and the one sector of
  the file's directory entry, never the drive's boot sector, FAT or root folder. A drive without
  the file at its full size (a drag-and-drop install, a full drive, a cut that destroyed its
  directory entry) leaves the NVM alone, and the title says saves are less safe.

A commit reads both copies first, then writes first the copy that does not hold the newest
intact commit, reads it back, and only then the other: at every moment an intact copy holds the
newest commit reported saved. A copy that cannot be written (or does not read back, twice)
leaves the other alone to take the commit, and the title says so.
"""
from lnr import image
from lnr.memory import sign
from lnr.image import SIZE, SECTOR, VALID, BLANK, BAD, NEWER
from lnr.limits import (
    N_MODES, NO_BEST, BRIGHTNESS_MAX, PIXELS_MAX, DEFAULT_BRIGHTNESS, DEFAULT_PIXELS,
    DEFAULT_HINTS,
)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The drive's copies: the file in use is the first that is there at its full size. The spare
# takes over when a cut destroyed the first one's directory entry (its folder's sector is erased
# and rewritten at every commit): then the board still keeps two copies, and never has to write
# the NVM alone while it holds the only intact one (docs/storage.md).
FILE = "lnrsave/data/copy.bin"
SPARE = "lnrsave/spare/copy.bin"
PAD = const(3584)  # 7 sectors of zeros before and after the image
FILE_SIZE = const(15360)  # PAD + SIZE + PAD

FLAG_FILE = const(1)  # the image's flags (lnr/image.py): FILE was the drive's copy in use
FLAG_SPARE = const(2)  # SPARE was

_MISSING = const(4)  # a copy's status besides image's VALID / BLANK / BAD / NEWER: no file at
# full size
_NONE = const(5)  # no such copy here (no NVM, no drive)

NOTICE_DAMAGED = "Saved data was damaged: reset to defaults"
NOTICE_OLDER = "A copy was damaged: the last save may be lost"
NOTICE_GAME = "Saved game could not be restored"
NOTICE_WRITE = "Could not save: storage write failed"
NOTICE_ONE = "A copy could not be written: saves are less safe"
NOTICE_NO_NVM = "No storage on this board: nothing is saved"
NOTICE_LESS_SAFE = "Drive read-only: saves are less safe"
NOTICE_NO_FILE = "No save file on the drive: saves are less safe"
NOTICE_NEWER = "Saves of a newer version: kept, not changed"


def _path(drive, name):
    return drive + name if drive.endswith("/") else drive + "/" + name


def _has_nvm(nvm):
    return nvm is not None and len(nvm) >= SIZE


def _join(notice, text):
    return text if notice is None else notice + "\n" + text


# ------------------------------------------------------------------ reading


def read_nvm(nvm, buf):
    """Reads the NVM's image into `buf`; returns its status (image.VALID, BLANK, BAD, NEWER;
    or _NONE: no NVM)."""
    if not _has_nvm(nvm):
        return _NONE
    for at in range(0, SIZE, SECTOR):  # a sector at a time: no second 8 KB buffer
        buf[at:at + SECTOR] = nvm[at:at + SECTOR]
    return image.status(buf)


def read_file(drive, buf, name=FILE):
    """Reads the image of the file `name` (FILE, SPARE) on the drive folder `drive` into `buf`;
    returns its status (VALID, BLANK, BAD, NEWER; _MISSING: no file, or not at its full size, which
    the board never writes; or _NONE: no drive)."""
    if drive is None:
        return _NONE
    try:
        f = open(_path(drive, name), "rb")
    except OSError:
        return _MISSING
    try:
        if f.seek(0, 2) != FILE_SIZE:
            return _MISSING
        f.seek(PAD)
        n = f.readinto(buf)
    except OSError:
        return BAD
    finally:
        f.close()
    if n != SIZE:
        return BAD
    return image.status(buf)


def _survey(nvm, drive, buf):
    # Reads every copy as it is now. Returns (the NVM's status, the drive's file in use (FILE,
    # or SPARE if FILE is not there; None: neither), its status, the sequence number the NVM
    # and that file hold intact (-1: none), the newest any copy holds, the number in that
    # file's first sector if it reads bad (-1: none), True if a copy is a later layout's)
    # with `buf` holding the logical image of the newest intact copy (the NVM's when it is
    # one), cleared if none.
    ns = read_nvm(nvm, buf)
    newer = ns == NEWER
    nvm_seq = -1
    if ns == VALID:
        image.to_logical(buf)
        nvm_seq = image.seq(buf)
    newest = nvm_seq
    best = None  # the newest copy, if a file; None: the NVM's (or none)
    held = None  # whose bytes buf holds: a file's name, or None (the NVM's)
    name = None
    fs = _NONE if drive is None else _MISSING
    file_seq = -1
    lost = -1
    for f in (FILE, SPARE):
        st = read_file(drive, buf, f)
        if st == NEWER:
            newer = True
        if st != _MISSING and st != _NONE:
            held = f
        q = -1
        if st == VALID:
            image.to_logical(buf)
            q = image.seq(buf)
            if q > newest:
                newest = q
                best = f
        if name is None and st != _MISSING and st != _NONE:
            name = f
            fs = st
            file_seq = q
            if st == BAD and buf[1] == 0x4C and buf[2] == 0x6E and buf[3] == 0x52:
                lost = buf[5] << 16 | buf[6] << 8 | buf[7]  # a cut commit's number?
    if newest < 0:
        image.clear(buf)
    elif best != held:  # buf holds another copy's bytes: read the newest again
        if best is None:
            read_nvm(nvm, buf)
        else:
            read_file(drive, buf, best)
        image.to_logical(buf)
    return ns, name, fs, nvm_seq, file_seq, newest, lost, newer


def load(nvm, drive, writable, buf):
    """Reads every copy and takes the newest valid one; never raises. Returns (values, held,
    notice, less_safe): the values as image.fields() gives them (None: no copy to take them
    from, the defaults stand), which commit each copy holds, the notice the title shows (None:
    a blank board, or nothing lost), and True if a commit can write one copy only.
    `buf`: the image's buffer (lnr/storage.py), written over."""
    values = None
    notice = None
    ns, name, fs, nvm_seq, file_seq, seq, _, newer = _survey(nvm, drive, buf)
    legacy = False
    if seq >= 0:
        values, game_ok = image.fields(buf)
        if not game_ok:
            notice = NOTICE_GAME  # the saved game is dropped, the rest kept
        flags = image.flags(buf)
    elif ns == BAD:
        read_nvm(nvm, buf)
        values, game_ok = _legacy(buf)
        legacy = values is not None
    if seq < 0:
        if legacy:
            pass
        elif ns == BAD or fs == BAD or name == SPARE and not newer:
            # (copy.bin gone beside its spare: a cut while its folder's sector was rewritten,
            # so during a commit, which no copy holds: make flash makes both, the board never
            # deletes one.)
            notice = NOTICE_DAMAGED
        elif ns == _NONE and fs == _NONE:
            notice = NOTICE_NO_NVM
    elif seq > nvm_seq:
        if ns == BAD or ns == BLANK:  # the NVM may have held a newer commit
            notice = _join(notice, NOTICE_OLDER)
        elif ns == VALID:  # its write failed (or a cut came between the two): one copy holds it
            notice = _join(notice, NOTICE_ONE)
    elif (fs == BAD or flags & FLAG_FILE and name != FILE
          or flags & FLAG_SPARE and name is None):
        # The file may have held a newer commit: it was being written (BAD), or its directory
        # entry was destroyed while it was (gone although the newest commit had it in use).
        notice = _join(notice, NOTICE_OLDER)
    elif writable and flags & 3 and fs == VALID and file_seq < seq:
        # The newest commit was for the file too, which holds an older one: its write failed
        # (or a cut came between the two). Said at every start until a commit writes it again.
        notice = _join(notice, NOTICE_ONE)
    if newer:
        notice = _join(notice, NOTICE_NEWER)
    if drive is not None and not writable:
        notice = _join(notice, NOTICE_LESS_SAFE)
    elif name is None and ns != _NONE:
        notice = _join(notice, NOTICE_NO_FILE)
    return (values, (seq, nvm_seq, file_seq, name is not None), notice,
            ns == _NONE or name is None or not writable)


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


def history(nvm, drive, held, buf):
    """Returns (the games of the newest intact copy, oldest first, as lnr.image entries;
    held); `buf`: the image's buffer, written over."""
    _, name, _, nvm_seq, file_seq, _, _, _ = _survey(nvm, drive, buf)
    return image.games(buf), (held[0], nvm_seq, file_seq, name is not None)


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


def write_file(drive, buf, name=FILE):
    """Writes the physical image into the file `name` on the drive folder `drive`, in place,
    and returns True if it reads back the same. A file that is not there at its full size is
    not written (False): making or growing it would write the drive's FAT and folders."""
    path = _path(drive, name)
    try:
        f = open(path, "r+b")  # never creates the file
        try:
            if f.seek(0, 2) != FILE_SIZE:
                return False
            f.seek(PAD)
            f.write(buf)
        finally:
            f.close()  # FatFs f_sync: the directory entry, then CircuitPython's flash flush
        r = open(path, "rb")  # what the flash holds now (the flush emptied the cache)
        try:
            r.seek(PAD)
            got = bytearray(SECTOR)
            for at in range(0, SIZE, SECTOR):
                if r.readinto(got) != SECTOR or got != buf[at:at + SECTOR]:
                    return False
        finally:
            r.close()
    except OSError:
        return False
    return True


def _write(nvm, drive, name, buf):
    # One copy written (the NVM's if `name` is None) and read back; a second try if it does
    # not read back the same (a drive sector left half erased by a cut reads as erased to
    # CircuitPython, which then programs it without erasing it: the next try erases it).
    if name is None:
        return write_nvm(nvm, buf) or write_nvm(nvm, buf)
    return write_file(drive, buf, name) or write_file(drive, buf, name)


def commit(nvm, drive, writable, held, values, buf, finished=None):
    """Writes `values` (as image.fields() gives them) and, if `finished` is not None, a
    finished game for the history ((seed, mode, players, score, won, log): image.entry()'s
    arguments) to the NVM and the drive's file in use; the drive's only if `writable`.
    Returns (True if a copy now holds it, held, the notice to add or None); (False, held,
    None) when nothing changed. `buf`: the image's buffer (lnr/storage.py), written over."""
    seq = held[0]
    has_nvm = _has_nvm(nvm)
    # What each copy holds now, not what it held at the last read: a copy that reads bad now
    # is not counted on, and the newest intact one gives the history (it is never dropped).
    ns, name, fs, nvm_seq, file_seq, newest, lost, newer = _survey(nvm, drive, buf)
    sign()  # both copies read (the LEDs' sign: a commit is a switch's longest step)
    if newer:  # a later game's saves: this one never writes over them
        return False, held, NOTICE_NEWER
    to_file = writable and name is not None
    if not has_nvm and not to_file:
        return False, held, None
    if newest >= 0:
        before = image.content_crc(buf)
        flags_before = image.flags(buf)
    number = (seq if seq > newest else newest) + 1
    if fs == BAD and number <= lost <= newest + 16:
        # The file holds the first sector of a commit a cut stopped (its other sectors may be
        # there too): a number of this commit's own keeps them from ever reading as part of
        # it (lnr/image.py, the sectors' marks). A number beyond 16 more is a torn one.
        number = lost + 1
    if number < 1:
        number = 1
    flags = 0 if not to_file else FLAG_FILE if name == FILE else FLAG_SPARE
    image.write(buf, number, flags, values)
    if finished is not None:
        image.add(buf, image.entry(*finished))
    if (newest >= 0 and image.content_crc(buf) == before and flags == flags_before
            and (nvm_seq == newest or not has_nvm)
            and (file_seq == newest or not to_file)):
        # The same data, and every copy the board writes holds it: spare the flash.
        return False, (newest, nvm_seq, file_seq, to_file), None
    image.to_physical(buf)
    # First the copy that does not hold the newest intact commit (both do, or neither: the
    # file); the other, which may be the last intact copy, only once the first reads back.
    nvm_first = not to_file or (has_nvm and nvm_seq < file_seq)
    wrote = 0
    failed = 0
    for nvm_now in ((True, False) if nvm_first else (False, True)):
        if nvm_now and has_nvm:
            ok = _write(nvm, drive, None, buf)
            nvm_seq = number if ok else -1
        elif not nvm_now and to_file:
            ok = _write(nvm, drive, name, buf)
            file_seq = number if ok else -1
        else:
            continue
        sign()  # a copy written and read back
        if ok:
            wrote += 1
        else:
            failed += 1
    held = (number if wrote else seq, nvm_seq, file_seq, to_file)
    if not wrote:
        return False, held, NOTICE_WRITE
    return True, held, NOTICE_ONE if failed else None
