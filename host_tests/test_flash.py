"""End-to-end flashing without hardware: the real mpremote client (inside tools.flash.deploy, and
the stock `mpremote` command) talks through a pseudo-terminal to tools/flash/fakeboard.py, which
speaks CircuitPython's supervisor and raw REPL and runs what it is sent on the real MicroPython VM
over a folder standing for CIRCUITPY."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.vm import mpvm  # noqa: E402
from tools.flash.sync import (MANIFEST, PYSTACK_SIZE, SAVE_FILES, digest,  # noqa: E402
                              read_manifest)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_deploy import fake_mpy_cross, files_under, source_root  # noqa: E402

MPREMOTE = [sys.executable, "-m", "mpremote"]
HANG_S = 600  # seconds of polls after which a board that got nowhere has hung


class Board:
    def __init__(self, proc, port, log, drive):
        self.proc, self.port, self.log, self.drive = proc, port, log, drive

    def events(self):
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def press_reset(self):
        """The RESET button: power-up again (boot.py, code.py)."""
        n = len(self.events())
        os.kill(self.proc.pid, signal.SIGUSR1)
        self.wait_for(lambda ev: len(ev) > n and ev[-1]["event"] == "code.py")

    def wait_for(self, cond):
        """Waits until the board's events meet `cond`; fails at once if the board's process
        ended first. No time limit is the check (a busy machine took more than 10 s): a hang is
        caught by HANG_S, as each command's subprocess timeout catches one."""
        polls = 0
        while not cond(self.events()):
            if self.proc.poll() is not None:
                raise AssertionError(f"the fake board ended before it got there: "
                                     f"{self.events()[-5:]}")
            polls += 1
            if polls * 0.02 > HANG_S:
                raise AssertionError(f"the fake board hung: {self.events()[-5:]}")
            time.sleep(0.02)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def start_board(tmp_path):
    why = mpvm.missing()
    if why:
        pytest.fail(f"the fake board needs the MicroPython VM: {why}")
    boards = []

    def start(drive, *args):
        log = tmp_path / f"board{len(boards)}.log"
        proc = subprocess.Popen([sys.executable, "-m", "tools.flash.fakeboard", str(drive), "--log",
                                 str(log), *args], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        line = proc.stdout.readline()
        if not line.startswith("PORT "):
            proc.kill()
            pytest.fail("fake board did not start: " + line + proc.stderr.read())
        board = Board(proc, line.split()[1], log, Path(drive))
        boards.append(board)
        board.wait_for(lambda ev: any(e["event"] == "code.py" for e in ev))
        return board

    yield start
    for b in boards:
        b.stop()


def flash(tmp_path, board, *args, src=None):
    """Runs `python -m tools.flash --port ...` as `make flash PORT=...` does."""
    src = src or tmp_path / "src"
    if not src.exists():
        source_root(tmp_path)
    r = subprocess.run([sys.executable, "-m", "tools.flash", "--port", board.port,
                        "--source-root", str(src), "--build-dir", str(tmp_path / "build"),
                        *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    return r


def reset_done(n):
    """A wait_for condition: since event n, microcontroller.reset() ran and the board came
    back up (boot.py, code.py)."""
    def cond(ev):
        names = [e["event"] for e in ev[n:]]
        return names[-4:] == ["hard-reset", "power-up", "boot.py", "code.py"]
    return cond


def first_installed(tmp_path):
    """A CIRCUITPY folder after the documented first install: boot.py on it."""
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    shutil.copy(ROOT / "boot.py", drive / "boot.py")
    return drive


def copy_to(tmp_path, drive, *args, mpy_cross=None):
    """Writes the game onto the folder `drive` as `make flash TO=...` does (the tree a flash
    over serial copies: test_flash_copies_the_tree_then_nothing holds that one, file for file,
    at the price of one exchange per 256 bytes). The tests whose subject is what comes after a
    flash start from this, not from a serial flash of their own. The sources' tree, or with
    `mpy_cross` the .mpy tree it compiles."""
    src = tmp_path / "src"
    if not src.exists():
        source_root(tmp_path)
    tree = ["--mpy-cross", str(mpy_cross)] if mpy_cross else ["--no-mpy"]
    r = subprocess.run([sys.executable, "-m", "tools.flash", "--to", str(drive), *tree,
                        "--source-root", str(src), "--build-dir", str(tmp_path / "b0"), *args],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def test_flash_copies_the_tree_then_nothing(tmp_path, start_board):
    drive = first_installed(tmp_path)
    board = start_board(drive)
    n = len(board.events())
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "circuitpython 10.0.3" in r.stdout
    # The folder holds exactly the device tree, and the save files the deploy makes (all
    # zeros: the game writes them in place, never makes them; docs/storage.md).
    built = files_under(tmp_path / "build")
    on_drive = files_under(drive)
    saves = {p: bytes(n) for p, n in SAVE_FILES if n is not None}
    assert {p: on_drive.pop(p) for p in saves} == saves
    # The list of what the flash installed: every file of the tree (not settings.toml, the
    # user's), in the checksum the board computes (Adler-32 on a PyBadge).
    assert read_manifest(on_drive[MANIFEST]) == ("adler32", {
        p: (len(d), digest(d, "adler32")) for p, d in built.items()
        if p not in ("settings.toml", MANIFEST)})
    assert on_drive == built
    assert {"code.py", "boot.py", "lib/neopixel.py", "lib/engine/state.py"} <= set(built)
    # boot.py was there; settings.toml is written, not copied: the pystack's size (the user's
    # other lines would stay, see below).
    assert len(re.findall(r"^  copy ", r.stdout, re.M)) == len(built) - 3  # and the list
    assert "  settings.toml: CIRCUITPY_PYSTACK_SIZE = %d" % PYSTACK_SIZE in r.stdout
    # ... and the board was reset with microcontroller.reset(): boot.py ran again.
    board.wait_for(reset_done(n))

    # A second flash copies nothing: no file on the drive is rewritten.
    before = {p: (drive / p).stat().st_mtime_ns for p in built}
    n = len(board.events())
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Up to date: %d files unchanged, nothing copied." % (len(built) - 2) in r.stdout
    assert "  copy " not in r.stdout
    board.wait_for(reset_done(n))
    assert {p: (drive / p).stat().st_mtime_ns for p in built} == before
    execs = [e for e in board.events()[n:] if e["event"] == "exec"]
    # probe, the list of what was installed, scan, settings.toml, a stopped flash's folder looked
    # for, save files, reset: no writes
    assert len(execs) == 7

    # One changed source: only that file goes over.
    (tmp_path / "src" / "engine" / "rng.py").write_text(
        (tmp_path / "src" / "engine" / "rng.py").read_text() + "\n# changed\n")
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.findall(r"^  copy (\S+)", r.stdout, re.M) == ["lib/engine/rng.py"]
    on_drive = files_under(drive)
    assert {p: on_drive.pop(p) for p in saves} == saves
    assert on_drive == files_under(tmp_path / "build")


def test_only_files_a_flash_installed_are_removed_others_kept(tmp_path, start_board):
    # Issue 36: every flash removed files it had not put there (lib/neopixel.mpy, any file in
    # lib/lnr or lib/engine), printed as "remove" but never asked. Now it removes only a file
    # the drive's list says it installed, unchanged since; the others are named. The drive
    # holds the game without the list (as an earlier make flash left it, copy_to() less its
    # MANIFEST) and the user's files: what the flash decides to remove does not depend on
    # what it copies (the copy over serial is test_flash_copies_the_tree_then_nothing's).
    drive = first_installed(tmp_path)
    copy_to(tmp_path, drive)
    (drive / MANIFEST).unlink()
    (drive / "lib" / "engine" / "zombie.py").write_text("x = 1\n")
    (drive / "lib" / "neopixel.mpy").write_bytes(b"C\x06old")
    (drive / "lib" / "adafruit_motor").mkdir()
    (drive / "lib" / "adafruit_motor" / "servo.mpy").write_bytes(b"C\x06user's")
    (drive / "settings.toml").write_text("X = 1\n")
    board = start_board(drive)
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "  remove " not in r.stdout
    assert ("Left alone (make flash did not install them, or they changed since): "
            "lib/engine/zombie.py, lib/neopixel.mpy") in r.stdout
    on_drive = files_under(drive)
    # The user's settings stay; the pystack's size is added (tools/vm/pystack.py: the app needs
    # it).
    assert on_drive.pop("settings.toml") == (
        b"X = 1\n# Lok'n'Roll needs this much of Python's stack (make flash sets it)\n"
        b"CIRCUITPY_PYSTACK_SIZE = %d\n" % PYSTACK_SIZE)
    assert on_drive.pop("lib/adafruit_motor/servo.mpy") == b"C\x06user's"
    assert on_drive.pop("lib/engine/zombie.py") == b"x = 1\n"
    assert on_drive.pop("lib/neopixel.mpy") == b"C\x06old"
    for path, size in SAVE_FILES:  # made by the deploy (docs/storage.md)
        if size is not None:
            assert on_drive.pop(path) == bytes(size)
    listed = on_drive[MANIFEST]
    built = files_under(tmp_path / "build")
    built.pop("settings.toml")  # the build's own, for a drive that has none
    assert on_drive == built
    # A module an earlier flash installed that this one no longer has (the list names it,
    # unchanged): removed, and its folder with it once empty.
    (drive / "lib" / "engine" / "gone").mkdir()
    (drive / "lib" / "engine" / "gone" / "old.py").write_text("y = 2\n")
    (drive / MANIFEST).write_bytes(listed + b"lib/engine/gone/old.py 6 %s\n"
                                   % digest(b"y = 2\n", "adler32").encode())
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.findall(r"^  remove (\S+)", r.stdout, re.M) == ["lib/engine/gone/old.py"]
    assert not (drive / "lib" / "engine" / "gone").exists()
    assert (drive / "lib" / "engine" / "zombie.py").read_text() == "x = 1\n"
    assert (drive / MANIFEST).read_bytes() == listed


@pytest.mark.parametrize("algo", ["sha256", "crc32"])
def test_boards_with_hashlib_or_crc32_also_copy_nothing_when_unchanged(tmp_path, start_board,
                                                                       algo):
    """The on-board checksum (SCAN) and the host's agree for every algorithm the board may
    have; the PyBadge (no hashlib) uses Adler-32, tested above."""
    drive = first_installed(tmp_path)
    copy_to(tmp_path, drive)
    board = start_board(drive, "--hash", algo)
    # The first flash over serial copies nothing, but lists what is installed in the board's
    # own checksum; the next one changes nothing at all.
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Copied 0 files" in r.stdout and "  copy " not in r.stdout
    assert read_manifest((drive / MANIFEST).read_bytes())[0] == algo
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "nothing copied" in r.stdout and "  copy " not in r.stdout


def test_first_install_read_only_then_drag_and_drop_then_flash(tmp_path, start_board):
    """A board fresh from the factory: CIRCUITPY is read-only to code until boot.py runs."""
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "code.py").write_text('print("Hello World!")\n')
    (drive / "lib").mkdir()
    board = start_board(drive)
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 2
    assert "CIRCUITPY is read-only to the board's own code" in r.stderr
    assert "boot.py is not installed yet" in r.stderr
    assert "make flash TO=/path/to/CIRCUITPY" in r.stderr
    assert sorted(files_under(drive)) == ["code.py"]  # nothing written
    # The game is running again (soft reload after the error), not left in the raw REPL.
    board.wait_for(lambda ev: [e["event"] for e in ev][-2:] == ["soft-reboot", "code.py"])

    # First install as documented: the drive is writable by the computer, copy the tree ...
    copy_to(tmp_path, drive)
    # ... press RESET: boot.py now makes CIRCUITPY writable by code, and make flash works.
    board.press_reset()
    assert [e for e in board.events() if e["event"] == "boot.py"][-1]["writable"] is True
    # An edit to one module: only that module is copied (the build changes no other).
    rng = tmp_path / "src" / "engine" / "rng.py"
    rng.write_text(rng.read_text() + "# an update\n")
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.findall(r"^  copy (\S+)", r.stdout, re.M) == ["lib/engine/rng.py"]
    assert (drive / "lib" / "engine" / "rng.py").read_text().endswith("# an update\n")


@pytest.mark.parametrize("board_id", ["pybadge", "pygamer"])
def test_select_held_at_power_up_keeps_the_drive_for_drag_and_drop(tmp_path, start_board,
                                                                   board_id):
    drive = first_installed(tmp_path)
    board = start_board(drive, "--board", board_id, "--hold", "SELECT")
    assert [e for e in board.events() if e["event"] == "boot.py"][-1] == {
        "event": "boot.py", "writable": False, "error": ""}
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 2
    assert "read-only" in r.stderr and "SELECT was held" in r.stderr
    assert sorted(files_under(drive)) == ["boot.py"]


@pytest.mark.parametrize("board_id, held", [("pybadge", "START"), ("pygamer", "A"),
                                            ("pygamer", None)])
def test_other_keys_or_none_leave_the_drive_writable_by_code(tmp_path, start_board, board_id,
                                                             held):
    drive = first_installed(tmp_path)
    args = ["--board", board_id] + (["--hold", held] if held else [])
    board = start_board(drive, *args)
    assert [e for e in board.events() if e["event"] == "boot.py"][-1] == {
        "event": "boot.py", "writable": True, "error": ""}


def test_mpy_for_another_circuitpython_major_is_refused(tmp_path, start_board):
    drive = first_installed(tmp_path)
    board = start_board(drive, "--version", "9.2.1")
    mpy = fake_mpy_cross(tmp_path)
    r = flash(tmp_path, board, "--mpy-cross", str(mpy))
    assert r.returncode == 2
    assert ("runs CircuitPython 9.2.1, but the .mpy files were built for CircuitPython 10.x"
            in r.stderr)
    assert "--no-mpy" in r.stderr
    assert sorted(files_under(drive)) == ["boot.py"]
    # Sources work on 9.x: flashed with a warning (onto the tree make flash TO= wrote: the
    # warning is the check here, the copy over serial is test_flash_copies_the_tree_then_nothing's).
    copy_to(tmp_path, drive)
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Warning: " in r.stdout and "CircuitPython 9.2.1" in r.stdout


def test_mpy_tree_for_the_right_major_is_flashed(tmp_path, start_board):
    # A CircuitPython 10 board gets the .mpy tree. The drive holds that tree as make flash TO=
    # writes it (copy_to(): the copy over serial is test_flash_copies_the_tree_then_nothing's,
    # some 2000 exchanges, 3.5 CPU-s again here): the flash over serial, told the board's
    # version, builds the same .mpy tree and finds every file of it there, so it copies none.
    # A flash that took the board for another major would refuse (the test above), one that
    # sent the sources would copy them.
    drive = first_installed(tmp_path)
    mpy_cross = fake_mpy_cross(tmp_path)
    copy_to(tmp_path, drive, mpy_cross=mpy_cross)
    board = start_board(drive)
    r = flash(tmp_path, board, "--mpy-cross", str(mpy_cross))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "nothing copied" in r.stdout and "  copy " not in r.stdout
    on_drive = files_under(drive)
    for path, size in SAVE_FILES:  # made by the deploy (docs/storage.md)
        if size is not None:
            assert on_drive.pop(path) == bytes(size)
    assert on_drive == files_under(tmp_path / "build")
    assert on_drive["lib/engine/state.mpy"][:2] == b"C\x06"
    assert "lib/engine/state.py" not in on_drive and on_drive["code.py"][:2] != b"C\x06"


def test_full_drive(tmp_path, start_board):
    drive = first_installed(tmp_path)
    board = start_board(drive, "--capacity", "65536")
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 2
    assert re.search(r"CIRCUITPY has \d+ bytes free but the game needs \d+ more", r.stderr)
    assert sorted(files_under(drive)) == ["boot.py"]


def test_stock_mpremote_reads_the_flashed_drive_and_resets_the_board(tmp_path, start_board):
    """What docs/hardware.md says works with mpremote 1.29 on CircuitPython, against the fake,
    the game on its drive (copy_to())."""
    drive = first_installed(tmp_path)
    copy_to(tmp_path, drive)
    board = start_board(drive)
    r = subprocess.run(MPREMOTE + ["connect", board.port, "fs", "cat", ":code.py", "+",
                                   "eval", "1+1", "+", "fs", "ls", ":lib"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    code = (drive / "code.py").read_text()
    assert r.stdout.startswith(code)
    assert "\n2\n" in r.stdout and "engine/" in r.stdout
    n = len(board.events())
    r = subprocess.run(MPREMOTE + ["connect", board.port, "exec", "--no-follow",
                                   "import microcontroller; microcontroller.reset()"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    board.wait_for(lambda ev: [e["event"] for e in ev[n:]][-3:] == ["power-up", "boot.py",
                                                                     "code.py"])
    # mpremote's own `reset` needs `machine`, which CircuitPython does not have.
    r = subprocess.run(MPREMOTE + ["connect", board.port, "exec",
                                   "import machine"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 1 and "ImportError" in r.stdout + r.stderr


def test_flashed_drive_starts_the_game_in_the_simulator(tmp_path):
    """The app and engine copied to the drive (not the checkout's) run in tools.sim.simulator:
    the drive's tree is a flash's (copy_to())."""
    drive = first_installed(tmp_path)
    copy_to(tmp_path, drive)
    driver = f"""
import sys
from tools.sim import simulator as sim
for name in list(sys.modules):
    if name.split('.')[0] in ('lnr', 'engine', 'adafruit_display_text', 'adafruit_ticks'):
        del sys.modules[name]
sys.path.insert(0, {str(drive / 'lib')!r})
import lnr, engine
assert lnr.__file__.startswith({str(drive)!r}) and engine.__file__.startswith({str(drive)!r})
result = sim.run_headless('WAIT*20', seed=1)
assert result.error is None, result.error
assert result.frames > 0 and result.refreshes > 0
colours = set(result.pixel(x, y) for x in range(0, 160, 4) for y in range(0, 128, 4))
assert len(colours) > 1, colours
print('OK', result.frames)
"""
    r = subprocess.run([sys.executable, "-c", driver], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, SDL_VIDEODRIVER="dummy",
                                             SDL_AUDIODRIVER="dummy"))
    assert r.returncode == 0 and "OK" in r.stdout, r.stdout + r.stderr


def test_make_flash_passes_port_to_the_tool():
    """`make flash PORT=...` runs tools.flash.deploy with that port (dry run)."""
    r = subprocess.run(["make", "-n", "flash", "PORT=/dev/ttyFAKE0"], cwd=ROOT,
                       capture_output=True, text=True)
    assert "-m tools.flash" in r.stdout and "--port /dev/ttyFAKE0" in r.stdout, r.stdout


def test_boardcheck_measures_the_board_and_prints_a_table(tmp_path, start_board):
    """make boardcheck (tools/flash/boardcheck.py) on the emulated board, the game flashed onto
    it (as sources: the MicroPython VM under the fake board loads no CircuitPython .mpy): the
    speed loop, one hint's search by the board's clock, the game's start-up and the heap it has,
    each a row of the table a user pastes into an issue, beside the game's estimate."""
    drive = first_installed(tmp_path)
    copy_to(tmp_path, drive)  # the flashed game (copy_to())
    board = start_board(drive, "--hash", "crc32")  # binascii.crc32: the saves' image needs it
    r = subprocess.run([sys.executable, "-m", "tools.flash.boardcheck", "--port", board.port],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {}
    for line in r.stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("what", "---"):
            rows[cells[0].split(" (")[0]] = cells[1]
    assert rows["runtime"] == "CircuitPython 10.0.3" and rows["board"] == "pybadge"
    assert re.fullmatch(r"\d+ ms", rows["`for i in range(1000000): pass` at module level"])
    work, ms, speed = map(int, re.fullmatch(r"(\d+) units in (\d+) ms: (\d+) units/s",
                                            rows["the hint's search"]).groups())
    assert work > 0 and work * 1000 // (ms + 1) <= speed  # the speed is the work's a second
    assert ms == 0 or speed <= work * 1000 // ms
    has = int(rows["heap the game has"].split()[0])
    free = int(rows["heap free with the title up"].split()[0])
    assert 0 < free < has
    # No board there: one line, exit 2.
    r = subprocess.run([sys.executable, "-m", "tools.flash.boardcheck", "--port",
                        str(tmp_path / "no-such-port")], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_a_stopped_flash_is_finished_by_the_next_and_a_folder_in_its_way_kept(tmp_path,
                                                                             start_board):
    # A flash stopped while copying leaves its new files in .lnr-flash (the game as it was):
    # the next flash clears that folder, its own by the note in it, and finishes. A folder of
    # that name without the note is not its own: refused, kept.
    from tools.flash.sync import STAGING, STAGING_NOTE

    # The drive holds the game as the last flash left it (copy_to()), and what a stopped flash
    # staged; the next brings one changed module, not the one staged.
    drive = first_installed(tmp_path)
    copy_to(tmp_path, drive)
    rng = tmp_path / "src" / "engine" / "rng.py"
    rng.write_text(rng.read_text() + "# an update\n")
    (drive / STAGING / "lib" / "lnr").mkdir(parents=True)
    (drive / STAGING / "README.txt").write_bytes(STAGING_NOTE)
    (drive / STAGING / "lib" / "lnr" / "app.py").write_bytes(b"half of")
    board = start_board(drive)
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.findall(r"^  copy (\S+)", r.stdout, re.M) == ["lib/engine/rng.py"]
    assert not (drive / STAGING).exists()
    built = files_under(tmp_path / "build")
    built.pop("settings.toml")
    assert {p: d for p, d in files_under(drive).items() if p in built} == built
    (drive / STAGING).mkdir()
    (drive / STAGING / "mine.txt").write_text("mine\n")
    r = flash(tmp_path, board, "--no-mpy")
    assert r.returncode == 2 and "is in the way" in r.stderr, r.stdout + r.stderr
    assert (drive / STAGING / "mine.txt").read_text() == "mine\n"
