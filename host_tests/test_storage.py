"""lib/lnr/storage.py in use: records, settings, a saved game and the history of games in two
copies (the NVM and a file on the drive, docs/storage.md); what a commit writes and when. The
power cuts and damaged images are host_tests/test_storage_faults.py's.
"""
import os

import pytest

from engine.gamelog import GameLog, MAX_BYTES
from lnr import copies, image
from lnr.copies import FILE, FILE_SIZE, PAD
from lnr.storage import Storage
from tools.flash.sync import SAVE_FILES, make_save_file_in

SOLO, CHALLENGE, RIVAL, TABLE = range(4)
SIZE = image.SIZE


class Nvm:
    """microcontroller.nvm's interface: 8192 bytes, slice reads, slice writes counted."""

    def __init__(self, data=None):
        self.data = bytearray(data if data is not None else b"\xff" * SIZE)
        self.writes = 0
        self.refuse = False

    def __len__(self):
        return len(self.data)

    def __getitem__(self, key):
        return self.data[key]

    def __setitem__(self, key, value):
        assert isinstance(key, slice), "the NVM is written by slice assignment only"
        if self.refuse:
            raise OSError(5, "write failed")
        self.writes += 1
        self.data[key] = value


def records(s):
    """Everything Storage keeps, to compare two loads."""
    return (s.brightness, s.pixel_count, s.hints, list(s.best), list(s.played), s.rival_wins,
            s.saved)


def file_bytes(drive):
    try:
        with open(os.path.join(drive, FILE), "rb") as f:
            return f.read()
    except OSError:
        return None


@pytest.fixture
def board(tmp_path):
    """(nvm, drive folder) of a new board, its drive as `make flash` leaves it: the save file
    made, all zeros (tools/flash/deploy.py; the game never makes it)."""
    drive = str(tmp_path / "CIRCUITPY")
    os.mkdir(drive)
    make_save_file_in(drive)
    return Nvm(), drive


def loaded(nvm, drive, writable=True):
    s = Storage(nvm, drive, writable)
    s.load()
    return s


DEFAULTS = records(Storage(None))
A_LOG = GameLog(b"\x12\x34\x50", 20)


@pytest.mark.parametrize("fill", [b"\xff", b"\x00"])
def test_blank_board_starts_with_defaults_silently(board, fill):
    # A blank NVM (all 0xFF as erased, all 0x00 as some boards ship) and no file: no damage.
    nvm, drive = board
    nvm.data[:] = fill * SIZE
    s = loaded(nvm, drive)
    assert records(s) == DEFAULTS and s.notice is None and s.history() == []
    assert not s.less_safe


def test_records_survive_a_reload_and_every_commit_writes_both_copies(board):
    nvm, drive = board
    s = loaded(nvm, drive)
    assert s.finish_game(SOLO, 30, True, 1, 1, A_LOG) is True  # first record
    assert s.finish_game(SOLO, 34, True, 2, 1, A_LOG) is False  # docs/rules.md §7: lower wins
    assert s.finish_game(SOLO, 21, True, 3, 1, A_LOG) is True
    assert s.finish_game(CHALLENGE, 5, False, 4, 1, A_LOG) is False  # §8: a lost challenge
    assert s.finish_game(RIVAL, 12, True, 5, 2, A_LOG) is True
    assert s.finish_game(RIVAL, 9, False, 6, 2, A_LOG) is False
    assert nvm.writes == 6 and s.seq == 6 and s.nvm_seq == s.file_seq == 6
    assert len(file_bytes(drive)) == FILE_SIZE
    assert file_bytes(drive)[PAD:PAD + SIZE] == bytes(nvm.data)  # the same image in both
    t = loaded(nvm, drive)
    assert t.notice is None
    assert t.best == [21, None, 12, None] and t.played == [3, 1, 2, 0] and t.rival_wins == 1
    assert records(t) == records(s)
    # Each copy alone holds everything.
    assert records(loaded(Nvm(), drive)) == records(s)
    assert records(loaded(nvm, None)) == records(s)


def test_one_commit_per_game_and_none_per_turn_or_unchanged_setting(board):
    # Flash wear (docs/hardware.md): a played game costs one commit, at its end; a save and quit
    # one more; an unchanged setting none.
    nvm, drive = board
    s = loaded(nvm, drive)
    s.finish_game(SOLO, 40, True, 9, 1, A_LOG)
    assert nvm.writes == 1
    assert s.save_game(b"a saved game") is True
    assert nvm.writes == 2
    assert s.save_settings() is False  # nothing changed
    mtime = os.stat(os.path.join(drive, FILE)).st_mtime_ns
    s.brightness = 4
    assert s.save_settings() is True
    assert nvm.writes == 3
    assert s.drop_saved() is True and s.drop_saved() is False
    assert nvm.writes == 4
    assert os.stat(os.path.join(drive, FILE)).st_mtime_ns >= mtime
    t = loaded(nvm, drive)
    assert t.brightness == 4 and t.saved is None


def test_saved_game_survives_power_off_and_is_dropped_at_the_game_end(board):
    nvm, drive = board
    s = loaded(nvm, drive)
    s.save_game(b"\x01\x02\x03")
    t = loaded(nvm, drive)  # power off, power on
    assert t.saved == b"\x01\x02\x03"
    t.finish_game(SOLO, 25, True, 9, 1, A_LOG)
    u = loaded(nvm, drive)
    assert u.saved is None and u.best[SOLO] == 25


def test_a_save_too_big_or_empty_is_refused_without_a_write(board):
    nvm, drive = board
    s = loaded(nvm, drive)
    assert s.save_game(bytes(image.SAVE_MAX + 1)) is False
    assert s.save_game(b"") is False
    assert nvm.writes == 0 and file_bytes(drive) == bytes(FILE_SIZE)
    assert s.save_game(bytes(image.SAVE_MAX)) is True  # the largest: lnr/games.py's worst fits
    assert loaded(nvm, drive).saved == bytes(image.SAVE_MAX)


def test_no_nvm_and_no_drive_means_nothing_is_saved_but_nothing_fails():
    s = Storage(None)
    s.load()
    assert s.notice and records(s) == DEFAULTS
    assert s.finish_game(SOLO, 3, True, 1, 1, A_LOG) is True and s.commit() is False


def test_drive_read_only_writes_the_nvm_alone_and_says_saves_are_less_safe(board):
    # SELECT held at power-up: boot.py leaves CIRCUITPY to the computer (docs/storage.md).
    nvm, drive = board
    s = loaded(nvm, drive, writable=False)
    assert s.less_safe and "less safe" in s.notice
    s.finish_game(SOLO, 30, True, 1, 1, A_LOG)
    assert nvm.writes == 1 and file_bytes(drive) == bytes(FILE_SIZE)  # untouched
    t = loaded(nvm, drive)  # the next normal start: the NVM's data, the file made at once
    assert t.best[SOLO] == 30 and t.notice is None and not t.less_safe
    t.save_settings()  # nothing changed, but the drive lacks its copy: written
    assert file_bytes(drive)[PAD:PAD + SIZE] == bytes(nvm.data)


def test_a_failed_nvm_write_leaves_the_file_holding_the_commit(board):
    nvm, drive = board
    s = loaded(nvm, drive)
    s.finish_game(SOLO, 30, True, 1, 1, A_LOG)
    nvm.refuse = True
    assert s.finish_game(SOLO, 20, True, 2, 1, A_LOG) is True
    assert "less safe" in s.notice and s.nvm_seq == -1
    nvm.refuse = False
    t = loaded(nvm, drive)  # the NVM kept the commit before: older but whole, nothing lost
    assert t.best[SOLO] == 20 and (t.nvm_seq, t.file_seq) == (1, 2)
    # ... and the start says the board keeps one copy of it, at every start until the NVM is
    # written again (issue 36: the next start said nothing).
    assert t.notice == copies.NOTICE_ONE and loaded(nvm, drive).notice == copies.NOTICE_ONE
    s.finish_game(SOLO, 10, True, 3, 1, A_LOG)  # the NVM is written again, and first
    assert loaded(nvm, None).best[SOLO] == 10
    assert loaded(nvm, drive).notice is None


def test_both_writes_failing_say_so_and_return_false(board, monkeypatch):
    nvm, drive = board
    s = loaded(nvm, drive)
    nvm.refuse = True

    def no_drive(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(copies, "open", no_drive, raising=False)
    assert s.save_game(b"xyz") is False
    assert s.notice == copies.NOTICE_WRITE


def test_settings_out_of_range_fall_back_to_their_defaults(board):
    nvm, drive = board
    s = loaded(nvm, drive)
    s.brightness, s.pixel_count, s.hints = 9, 0, 1
    s.commit()
    t = loaded(nvm, drive)
    assert (t.brightness, t.pixel_count) == Storage.DEFAULTS[:2]


def test_the_history_keeps_the_last_games_and_drops_the_oldest(board):
    nvm, drive = board
    s = loaded(nvm, drive)
    big = GameLog(bytes(range(MAX_BYTES)), MAX_BYTES * 8)  # the longest a log can be
    fits = image.HISTORY_MAX // (image.ENTRY_HEAD + MAX_BYTES)
    assert fits >= 20  # the floor, even if every game took the longest log
    for seed in range(fits + 5):
        s.finish_game(seed % 4, seed % 50, True, seed, 3 if seed % 4 == 3 else 1, big)
    games = loaded(nvm, drive).history()
    assert len(games) == fits
    assert [g[2] for g in games] == list(range(5, fits + 5))  # the seeds, oldest first
    e = image.entry(77, TABLE, 4, 300, True, A_LOG)
    assert e[0:3] == b"\x00\x00\x4d" and e[3] == (3 << 6 | 3 << 4 | 8) and e[4] == 255
    assert e[5:7] == b"\x00\x14" and e[7:] == b"\x12\x34\x50"
    s.finish_game(SOLO, 5, True, 77, 1, GameLog(b"", -1))  # a log that overflowed
    assert loaded(nvm, drive).history()[-1][5:] == b"\xff\xff"


def test_the_old_256_byte_layout_hands_over_its_records_and_settings(board):
    # The layout before this one (two 128-byte slots): its records are kept on the update.
    from engine.crc import crc16

    nvm, drive = board
    slot = bytearray(128)
    slot[0:4] = b"\x4c\x01\x00\x07"
    slot[4:7] = b"\x03\x01\x00"  # brightness 3, 1 pixel, hints off
    slot[7:11] = b"\x15\xff\x0c\xff"  # best solo 21, rival 12
    slot[11:19] = b"\x00\x03\x00\x01\x00\x02\x00\x00"
    slot[19:21] = b"\x00\x01"
    crc = crc16(slot, 0, 126)
    slot[126:128] = bytes([crc >> 8, crc & 0xFF])
    nvm.data[0:128] = slot
    s = loaded(nvm, drive)
    assert records(s) == (3, 1, 0, [21, None, 12, None], [3, 1, 2, 0], 1, None)
    assert s.notice is None
    s.save_settings()  # the first commit writes the new layout
    assert records(loaded(nvm, drive)) == records(s)


CP_SCRIPT = """
import os, sys
from engine.gamelog import GameLog
from lnr.storage import Storage

drive = sys.argv[1]
for path, size in %r:  # the drive as make flash leaves it (tools/flash/deploy.py)
    if size is None:
        os.mkdir(drive + path)
    else:
        with open(drive + path, "wb") as f:
            f.write(bytes(size))
nvm = bytearray(b"\\xff" * 8192)
s = Storage(nvm, drive, True)
s.load()
assert s.notice is None
s.finish_game(0, 23, True, 77, 1, GameLog(b"\\xa5\\x80", 9))
s.save_game(b"a saved game")
s.finish_game(2, 9, True, 78, 2, GameLog())
t = Storage(bytearray(b"\\xff" * 8192), drive, True)  # the NVM erased: the file alone
t.load()
assert t.best == [23, None, 9, None] and t.played == [1, 0, 1, 0], t.best
assert len(t.history()) == 2 and t.notice is not None
u = Storage(nvm, None)  # the NVM alone
u.load()
assert u.best == t.best and u.history() == t.history()
print("ok", s.seq, len(t.history()[0]))
""" % (SAVE_FILES,)


def test_the_store_on_circuitpythons_own_vm(store_on_circuitpython):
    # CircuitPython's binascii.crc32 and file I/O (the unix port's files for the drive): the same
    # images as CPython writes.
    r, drive = store_on_circuitpython(CP_SCRIPT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split() == ["ok", "3", str(image.ENTRY_HEAD + 2)]
    # CPython reads what CircuitPython wrote.
    s = loaded(Nvm(), str(drive))
    assert s.best == [23, None, 9, None] and len(s.history()) == 2


# A commit on CircuitPython's own VM when the heap has no 8 KB left in one piece (docs/memory.md:
# screens' code loaded and dropped leaves it so): the NVM takes the image in one slice
# assignment, so the image must be one 8 KB object; the Storage made it at power-up, so the
# commit still writes. Made at each commit (as before), this MemoryError lost a game's result.
_FRAGMENTED_COMMIT = """
import gc, sys
from lnr.storage import Storage
nvm = bytearray(8192)
store = Storage(nvm)
store.load()
gc.collect()
keep = []
try:
    while True:  # the heap filled with 2 KB pieces, then 3 of every 4 let go: 6 KB holes
        keep.append(bytearray(2032))
except MemoryError:
    pass
for i in range(len(keep)):
    if i % 4:
        keep[i] = None
gc.collect()
try:
    bytearray(8192)
    print("HOLE")  # the heap was not fragmented: the test proves nothing
except MemoryError:
    pass
ok = store.finish_game(0, 7, True)
print("COMMIT", ok, nvm[0:3] != bytes(3), store.best[0])
"""


def test_a_commit_needs_no_8_kb_in_one_piece_on_circuitpython(tmp_path, circuitpython):
    from pathlib import Path

    from tools.vm import cpvm

    root = Path(__file__).resolve().parent.parent
    script = tmp_path / "commit.py"
    script.write_text(_FRAGMENTED_COMMIT)
    r = cpvm.run(script, paths=[root / "lib", root], heap_kb=96)
    assert r.returncode == 0, r.stderr
    assert "HOLE" not in r.stdout
    assert "COMMIT True True 7" in r.stdout, r.stdout


# ------------------------------------------------------------------ the save files: make flash's


def test_make_flash_makes_the_save_files_in_order_and_never_writes_them_again(tmp_path, capsys):
    # The game never makes a file or a folder on the board (issue 25, finding 4): the deploy
    # makes them, in the order that gives them consecutive clusters, and leaves a copy.bin that
    # holds saves alone at every later deploy.
    from tools.flash.deploy import Tree, sync_folder
    from tools.flash.sync import SAVE_FILES, make_save_file

    calls = []
    have = {}

    def size(p):
        return have.get(p, -1)

    def mkdir(p):
        calls.append(p)
        have[p] = -2

    def write(p, data):
        calls.append(p)
        have[p] = len(data)

    assert "made" in make_save_file(size, mkdir, write)
    assert calls == [p for p, _ in SAVE_FILES]
    assert "kept" in make_save_file(size, mkdir, write) and len(calls) == len(SAVE_FILES)
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    tree = Tree({"code.py": b"print(1)\n"})
    sync_folder(tree, drive)
    nvm = Nvm()
    s = loaded(nvm, str(drive))
    assert s.notice is None and not s.less_safe
    s.finish_game(SOLO, 30, True, 1, 1, A_LOG)
    used = file_bytes(str(drive))
    sync_folder(tree, drive)  # flashed again: the saves stay
    assert file_bytes(str(drive)) == used
    assert loaded(Nvm(), str(drive)).best[SOLO] == 30
    tree.write(tmp_path / "build")  # the build folder (drag and drop) has no save files
    assert not (tmp_path / "build" / "lnrsave").exists()


def test_a_file_in_the_way_of_the_save_files_is_left_alone_and_said(tmp_path):
    from tools.flash.sync import make_save_file_in

    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "lnrsave").write_bytes(b"mine")
    said = make_save_file_in(drive)
    assert said.startswith("Warning: lnrsave is in the way") and "less safe" in said
    assert (drive / "lnrsave").read_bytes() == b"mine"
    s = loaded(Nvm(), str(drive))
    assert s.less_safe and s.notice == copies.NOTICE_NO_FILE


def test_a_drive_without_the_save_files_is_never_written_and_says_so(tmp_path):
    # A drag-and-drop install: the NVM alone, said at every start, and the drive untouched.
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    nvm = Nvm()
    for i in range(3):
        s = loaded(nvm, str(drive))
        assert s.less_safe and s.notice == copies.NOTICE_NO_FILE
        assert s.finish_game(SOLO, 30 - i, True, i, 1, A_LOG) is True
    assert os.listdir(drive) == [] and loaded(nvm, str(drive)).best[SOLO] == 28


def test_the_spare_takes_over_when_the_file_is_gone(board):
    nvm, drive = board
    s = loaded(nvm, drive)
    s.finish_game(SOLO, 30, True, 1, 1, A_LOG)
    os.remove(os.path.join(drive, FILE))  # as a cut that destroyed its directory entry
    t = loaded(nvm, drive)
    assert t.notice == copies.NOTICE_OLDER and not t.less_safe  # it may have held a newer one
    t.finish_game(SOLO, 20, True, 2, 1, A_LOG)
    with open(os.path.join(drive, copies.SPARE), "rb") as f:
        assert f.read()[PAD:PAD + SIZE] == bytes(nvm.data)
    u = loaded(Nvm(), drive)  # the spare alone
    assert u.best[SOLO] == 20 and len(u.history()) == 2
    assert loaded(nvm, drive).notice is None
