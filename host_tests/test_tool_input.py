"""Issue 25's findings 1, 6 and 7, one test each: a tool never deletes or overwrites what it did
not make, answers bad input with one line and exit 2 (never a traceback, never a read without
end), and reads settings.toml as the board does (CircuitPython's supervisor/shared/settings.c,
followed by tools/flash/settings_toml.py). Each failed on the code before the fix.
"""
import builtins
import json
import os
import shutil
import subprocess
import sys

import pytest

from tools.bots import records, review
from tools.flash import deploy, settings_toml, sync
from tools.sim import simulator as sim
from helpers import python_m
from tools.flash.sync import PYSTACK_KEY, PYSTACK_SIZE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "host_tests", "golden")


def cli(module, *args, stdin=None, timeout=120):
    """Runs `python -m module args` from the repository; returns the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=timeout)


def in_process(monkeypatch, capsys, module, *args):
    """cli()'s answer, the command run in this process (helpers.python_m): for the simulator,
    whose Python, pygame and Blinka take a second of CPU to start each time."""
    code, out, err = python_m([module, *args], monkeypatch, capsys)
    return subprocess.CompletedProcess([module, *args], code, out, err)


def refused(r, words):
    """Asserts the bad-input answer: exit 2, no traceback, the last stderr line names it."""
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    last = r.stderr.strip().splitlines()[-1]
    assert words in last, last


def files_under(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


# ---- finding 1: tools.flash.deploy deletes only what it made
# -----------------------------------------

def test_deploy_refuses_the_drive_as_its_build_folder_and_leaves_it_whole(tmp_path):
    # --build-dir X --to X deleted the drive's files, saves and settings, then said "Up to date".
    drive = tmp_path / "CIRCUITPY"
    (drive / "lnrsave" / "data").mkdir(parents=True)
    (drive / "lnrsave" / "data" / "copy.bin").write_bytes(b"saves")
    (drive / "settings.toml").write_text("WIFI = \"mine\"\n")
    (drive / "notes.txt").write_text("mine\n")
    before = files_under(drive)
    refused(cli("tools.flash.deploy", "--no-mpy", "--build-dir", drive, "--to", drive), "must be apart")
    refused(cli("tools.flash.deploy", "--no-mpy", "--build-dir", drive / "build", "--to", drive),
            "must be apart")
    assert files_under(drive) == before


def test_deploy_refuses_a_folder_it_did_not_build_and_rebuilds_its_own(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work\n")
    with pytest.raises(deploy.DeployError, match="not empty and has no list of what make flash"):
        deploy.check_build_dir(mine)
    with pytest.raises(deploy.DeployError, match="is a file"):
        deploy.check_build_dir(mine / "thesis.tex")
    assert (mine / "thesis.tex").read_text() == "years of work\n"
    # A new folder is built and stamped beside it; built again, it is replaced.
    out = tmp_path / "out"
    tree = deploy.Tree({"code.py": b"print(1)\n", "lib/lnr/a.py": b"x = 1\n"})
    tree.write(out)
    assert deploy.build_stamp(out).is_file() and not (out / deploy.build_stamp(out).name).exists()
    assert deploy.check_build_dir(out) is True
    deploy.Tree({"code.py": b"print(2)\n"}).write(out)
    assert files_under(out) == {"code.py": b"print(2)\n",
                                "settings.toml": sync.settings_with_pystack(None).encode(),
                                sync.MANIFEST: sync.manifest_bytes(deploy.Tree(
                                    {"code.py": b"print(2)\n"}), "adler32")}
    # A file of the user's in it stops the next build: nothing deleted.
    (out / "mine.txt").write_text("x\n")
    with pytest.raises(deploy.DeployError, match="holds mine.txt, which the build did not"):
        tree.write(out)
    assert (out / "mine.txt").exists() and (out / "code.py").read_bytes() == b"print(2)\n"
    # Issue 36: a file of its own that the user changed stops it too (the stamp lists each
    # file's checksum, not only its name): settings.toml given Wi-Fi lines was replaced.
    (out / "mine.txt").unlink()
    (out / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "home"\n')
    with pytest.raises(deploy.DeployError, match="settings.toml changed since the build"):
        tree.write(out)
    assert (out / "settings.toml").read_text() == 'CIRCUITPY_WIFI_SSID = "home"\n'


def test_deploy_removes_no_module_of_the_users_from_a_library_folder(tmp_path, capsys):
    # lib/adafruit_display_text was "owned": the user's label.mpy (another program's) went.
    # Issue 36: nothing the drive's list of installed files does not name is removed, not even
    # in lib/lnr: those are listed as left alone, a .py that a shipped .mpy's import would find
    # first with a warning.
    tree = deploy.Tree({"code.py": b"", "lib/lnr/app.py": b"",
                        "lib/adafruit_display_text/bitmap_label.mpy": b"C\x06new"})
    drive = tmp_path / "CIRCUITPY"
    lib = drive / "lib"
    (lib / "adafruit_display_text").mkdir(parents=True)
    (lib / "adafruit_display_text" / "label.mpy").write_bytes(b"C\x06the user's")
    (lib / "adafruit_display_text" / "bitmap_label.py").write_bytes(b"stale twin")
    (lib / "lnr").mkdir()
    (lib / "lnr" / "gone.py").write_bytes(b"the game's, stale")
    plan = deploy.sync_folder(tree, drive)
    assert plan.remove == []
    assert plan.left == ["lib/adafruit_display_text/bitmap_label.py", "lib/lnr/gone.py"]
    assert plan.shadows == ["lib/adafruit_display_text/bitmap_label.py"]
    said = sync.summary(plan, tree)
    assert "Left alone" in said and "lib/lnr/gone.py" in said
    assert "bitmap_label.py is imported instead of the game's" in said
    assert (lib / "adafruit_display_text" / "label.mpy").read_bytes() == b"C\x06the user's"
    assert (lib / "lnr" / "gone.py").read_bytes() == b"the game's, stale"


def test_deploy_stops_before_copying_when_settings_toml_is_a_folder(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    (drive / "settings.toml").mkdir(parents=True)
    (drive / "settings.toml" / "x").write_text("x")
    r = cli("tools.flash.deploy", "--no-mpy", "--build-dir", tmp_path / "build", "--to", drive)
    refused(r, "settings.toml is not a file")
    assert files_under(drive) == {"settings.toml/x": b"x"}
    assert not (tmp_path / "build").exists()  # checked before the build


def test_deploy_refuses_an_mpy_cross_that_is_not_a_program(tmp_path):
    fake = tmp_path / "mpy-cross"
    fake.write_text("not a program\n")
    fake.chmod(0o644)
    refused(cli("tools.flash.deploy", "--mpy-cross", fake, "--build-dir", tmp_path / "b"),
            "is not executable")
    fake.chmod(0o755)  # executable, but no program this machine can run
    refused(cli("tools.flash.deploy", "--mpy-cross", fake, "--build-dir", tmp_path / "b"),
            "mpy-cross")


# ---- finding 7: settings.toml as the board reads it -------------------------------------------

@pytest.mark.parametrize("value, board_reads", [
    ("4096", 4096), ("0x2000", 8192), ("0X1000", 4096), ("05000", 0o5000), ("010000", 4096),
    ("011", 9), ("+8192", 8192), ("8192   ", 8192), ("08", None), ("8_192", None),
    ("8192.0", None), ('"8192"', None), ("0x", None), ("-16", None), ("0", None),
    ("9" * 15, 2 ** 31 - 1), ("9" * 16, None), ("9" * 5000, None), ("", None),
])
def test_the_pystack_size_is_read_as_circuitpython_reads_it(value, board_reads):
    # supervisor/shared/settings.c get_int(): strtol(buf, &end, 0) of a value of at most 15
    # bytes (char buf[16]); main.c _allocate_memory() takes it only if > 0.
    text = "A = 1\n%s = %s  # mine\n" % (PYSTACK_KEY, value)
    assert settings_toml.board_int(text) == board_reads
    new = sync.settings_with_pystack(text)
    if board_reads is not None and PYSTACK_SIZE <= board_reads <= sync.PYSTACK_MAX:
        assert new == text  # the user's size is enough: kept (0x2000 was lowered to 4096)
    else:  # 05000 (2560) was kept, a 5000-digit value raised ValueError in int()
        assert new == "A = 1\n%s = %d  # mine\n" % (PYSTACK_KEY, PYSTACK_SIZE)
    assert settings_toml.board_int(new) >= PYSTACK_SIZE


def test_the_scanner_finds_the_line_circuitpythons_own_finds(circuitpython):
    # The board's own scanner, in CircuitPython's VM (os.getenv: the raw value of the line
    # supervisor/shared/settings.c finds), on a FAT volume of its own, against ours.
    cases = ["A=1\nCIRCUITPY_PYSTACK_SIZE = 0x2000  # c\n", "CIRCUITPY_PYSTACK_SIZE\n= 05000 \r\n",
             '"CIRCUITPY_PYSTACK_SIZE" = 9\n', "[t]\nCIRCUITPY_PYSTACK_SIZE=7\n",
             "  CIRCUITPY_PYSTACK_SIZE\t=\t12\t\r\n", "CIRCUITPY_PYSTACK_SIZEX = 1\n",
             "CIRCUITPY_PYSTACK_SIZE = 1\nCIRCUITPY_PYSTACK_SIZE = 2\n", "CIRCUITPY_PYSTACK_SIZE =\n"]
    got = vm_getenv(cases)
    for text, value in zip(cases, got):
        setting, _ = settings_toml.find(text)
        mine = None if setting is None or setting.value is None else setting.value
        assert mine == value, (text, value)


VM_GETENV = r"""
import os, sys
cases = open(sys.argv[1], "rb").read().split(b"\n=====\n")  # before the host's files go
os.umount("/")


class Ram:
    def __init__(self, blocks):
        self.data = bytearray(blocks * 512)

    def readblocks(self, block, buf, off=0):
        a = block * 512 + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        a = block * 512 + (off or 0)
        self.data[a:a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // 512
        if op == 5:
            return 512
        return 0


dev = Ram(128)
os.VfsFat.mkfs(dev)
os.mount(os.VfsFat(dev), "/")
for data in cases:
    with open("/settings.toml", "wb") as f:
        f.write(data)
    try:
        print(repr(os.getenv("CIRCUITPY_PYSTACK_SIZE")))
    except Exception as e:
        print(repr(None))
"""


def vm_getenv(cases, tmp=None):
    """Returns, per settings.toml text, what CircuitPython's VM reads for CIRCUITPY_PYSTACK_SIZE
    with os.getenv (the raw text of the value it finds, or None)."""
    import ast
    import tempfile

    from tools.vm import cpvm

    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "getenv.py")
        data = os.path.join(d, "cases.bin")
        with open(script, "w") as f:
            f.write(VM_GETENV)
        with open(data, "wb") as f:
            f.write(b"\n=====\n".join(c.encode("utf-8") for c in cases))
        r = cpvm.run(script, args=[data], timeout=120)
    assert r.returncode == 0, r.stderr
    out = [ast.literal_eval(line) for line in r.stdout.splitlines()]
    assert len(out) == len(cases)
    return out


# ---- finding 6: engine.replay -------------------------------------------------------------------

def test_replay_refuses_a_float_roll_and_a_deep_file_with_exit_2():
    with open(os.path.join(GOLDEN, "solo_story.json")) as f:
        record = json.load(f)
    record["rolls"][0] = float(record["rolls"][0])  # 1.0: was a TypeError's traceback, exit 1
    refused(cli("engine.replay", "-", stdin=json.dumps(record)), "roll 1 is 1.0, not 0 or 1")
    refused(cli("engine.replay", "-", stdin="[" * 100000 + "]" * 100000), "nests")
    record["rolls"][0] = True
    refused(cli("engine.replay", "-", stdin=json.dumps(record)), "not 0 or 1")


# ---- finding 6: tools.bots review
# --------------------------------------------------------------------

@pytest.mark.parametrize("content, args, words", [
    ("[]", (), "a record is a JSON object"),
    ("null", (), "a record is a JSON object"),
    (None, ("--seat", "2"), "--seat 2: the game has seats 0 to 0"),
    (None, ("--seat", "-1"), "--seat: -1 is not from 0 to 3"),
    (None, ("--samples", "0"), "--samples: 0 is not from 1 to"),
    (None, ("--png", "no-such-folder/x.png"), "--png no-such-folder/x.png: no folder"),
])
def test_review_refuses_bad_input_before_the_review(tmp_path, content, args, words):
    path = tmp_path / "game.json"
    if content is None:
        with open(os.path.join(GOLDEN, "solo_story.json")) as f:
            content = f.read()
    path.write_text(content)
    r = cli("tools.bots.review", path, *args)
    refused(r, words)
    assert "Review of" not in r.stdout  # said before the review, not after it


# ---- finding 6: tools.sim -----------------------------------------------------------------------

def test_sim_refuses_bad_input_before_the_app_starts(tmp_path, monkeypatch, capsys):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    (tmp_path / "binary.keys").write_bytes(bytes(range(128, 256)))
    cases = [
        (["--keys", "A*²"], "bad repeat count"),
        (["--keys-file", tmp_path / "binary.keys"], "is not UTF-8 text"),
        (["--nvm", tmp_path / "folder"], "is a folder"),
        (["--drive", tmp_path / "file"], "is not a folder"),
        (["--keys", "WAIT*99999999999"], "runs past"),
        (["--keys", "WAIT=99999999999"], "runs past"),
        (["--screenshot", tmp_path / "file" / "x.png"], "--screenshot"),
        (["--audio-log", tmp_path / "no" / "x.log"], "--audio-log"),
        (["--settle", "-5"], "--settle"),
    ]
    for args, words in cases:
        r = in_process(monkeypatch, capsys, "tools.sim.simulator", "--headless", *args)
        refused(r, words)
        assert not r.stdout, args  # said before the app started (it prints its frames)


# ---- finding 6: tools.bots records
# -------------------------------------------------------------------

def saved(tmp_path, sound=0):
    """An NVM file and a drive folder holding a commit (brightness 3, sound off)."""
    from lnr.storage import Storage

    drive = tmp_path / "drive"
    drive.mkdir()
    nvm = bytearray(b"\xff" * 8192)
    st = Storage(nvm, str(drive), True)
    st.load()
    st.brightness = 3
    st.sound = sound
    assert st.commit()
    path = tmp_path / "nvm.bin"
    path.write_bytes(nvm)
    return path, drive


def test_records_never_overwrites_a_file_it_did_not_write(tmp_path):
    nvm, drive = saved(tmp_path)
    mine = tmp_path / "mine.json"
    mine.write_text("my notes\n")
    refused(cli("tools.bots.records", "--nvm", nvm, "--drive", drive, "--out", mine),
            "is not a folder")
    assert mine.read_text() == "my notes\n"
    # A record's own name holding other bytes: nothing written, the file as it was.
    out = tmp_path / "out"
    out.mkdir()
    history = [{"record": {"format": "x"}, "mode": "solo", "seed": 4}]
    (out / "game-001-solo-seed4.json").write_text("mine\n")
    with pytest.raises(records.RecordsError, match="already exists and holds something else"):
        records.write_records(history, str(out))
    assert (out / "game-001-solo-seed4.json").read_text() == "mine\n"
    # Its own file (the same bytes) is no obstacle: written again, it is the same.
    (out / "game-001-solo-seed4.json").write_text('{"format":"x"}\n')
    assert records.write_records(history, str(out))[0] == [str(out / "game-001-solo-seed4.json")]


def test_records_reads_a_bounded_nvm_and_names_a_short_one_as_the_simulator_does(
        tmp_path, monkeypatch, capsys):
    nvm, drive = saved(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    # /dev/zero never ends: the bytes asked of it are counted (a read with no size, or past
    # the NVM's, is the read without end this guards against), not the seconds it took.
    from tools.standins.microcontroller import NVM_SIZE

    asked = []
    real_open = open

    class Endless:
        def __init__(self, f):
            self.f = f

        def read(self, size=-1):
            asked.append(size)
            if size is None or size < 0 or sum(asked) > NVM_SIZE + 1:
                raise AssertionError("a read of /dev/zero without end: %r" % asked)
            return self.f.read(size)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def counted_open(path, *args, **kwargs):
        f = real_open(path, *args, **kwargs)
        return Endless(f) if str(path) == "/dev/zero" else f

    monkeypatch.setattr(builtins, "open", counted_open)
    code = records.main(["--nvm", "/dev/zero", "--drive", str(empty), "--show"])
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert code == 0 and "Traceback" not in err, err
    assert asked and sum(asked) <= NVM_SIZE + 1, asked
    short = tmp_path / "short.bin"
    short.write_bytes(nvm.read_bytes()[:4000])
    r = cli("tools.bots.records", "--nvm", short, "--drive", empty, "--show")
    assert r.returncode == 0, r.stderr
    assert "damaged" in r.stderr  # was "No storage on this board" / nothing
    # The simulator starting on the same file says so on its title.
    from tools.sim.screen_text import lines_text

    title = sim.run_headless(["WAIT*40"], seed=1, nvm_path=str(short), drive=str(empty))
    assert title.ok, title.error
    assert "damaged" in " ".join(lines_text(title.app.menus.labels.lines))


def test_records_show_includes_the_sound_setting(tmp_path):
    nvm, drive = saved(tmp_path, sound=0)
    r = cli("tools.bots.records", "--nvm", nvm, "--drive", drive, "--show")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["settings"]["sound"] is False


# ---- issue 36: no tool deletes or overwrites a file it did not make ----------------------------

def checkout(tmp_path, with_git):
    """A folder holding the game's sources as a clone does (a .git, or only the sources), with
    an edit of the user's and a new module."""
    src = tmp_path / "clone"
    for rel in ("code.py", "boot.py", "engine/state.py", "lib/lnr/app.py"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, rel), src / rel)
    (src / "lib" / "lnr" / "app.py").write_text("# my uncommitted edit\n")
    (src / "lib" / "lnr" / "mine.py").write_text("# my new module\n")
    if with_git:
        (src / ".git").mkdir()
        (src / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return src


@pytest.mark.parametrize("with_git", [True, False])
def test_flash_refuses_a_checkout_as_its_target(tmp_path, with_git):
    # `python -m tools.flash --to .` in a clone deleted its lib/lnr/*.py, the user's edits
    # and new modules with them (--no-mpy overwrote them).
    src = checkout(tmp_path, with_git)
    before = files_under(src)
    for to in (src, src / "lib"):
        refused(cli("tools.flash", "--to", to, "--no-mpy", "--build-dir", tmp_path / "build"),
                "checkout")
    assert files_under(src) == before


def test_the_build_folder_without_its_list_is_never_wiped(tmp_path, monkeypatch, capsys):
    # mkdir -p build/circuitpy; echo x > build/circuitpy/mine.py; make flash TO=DRIVE deleted
    # mine.py and a settings.toml holding Wi-Fi lines: the default folder was taken for the
    # tool's own without its stamp.
    build = tmp_path / "build" / "circuitpy"
    build.mkdir(parents=True)
    (build / "mine.py").write_text("x\n")
    (build / "settings.toml").write_text('CIRCUITPY_WIFI_PASSWORD = "secret"\n')
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    monkeypatch.setattr(deploy, "BUILD_DIR", build)
    assert deploy.main(["--to", str(drive), "--no-mpy"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "has no list of what make flash built" in err
    assert files_under(build) == {"mine.py": b"x\n",
                                  "settings.toml": b'CIRCUITPY_WIFI_PASSWORD = "secret"\n'}
    assert files_under(drive) == {}


def test_review_never_turns_a_file_of_the_users_into_its_picture(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    r = cli("tools.bots.review", os.path.join(GOLDEN, "solo_story.json"), "--png", notes)
    refused(r, "not replaced")
    assert notes.read_text() == "my notes\n" and "Review of" not in r.stdout


def test_the_simulator_replaces_only_its_own_files(tmp_path, monkeypatch, capsys):
    # --screenshot, --text and --audio-log wrote over existing files, and --nvm FILE turned a
    # text file into an 8 KB save image: each is refused now, the file as it was; the
    # simulator's own files (a first run's) are replaced by the next run; --force replaces.
    mine = {}
    for name in ("shot.png", "screen.txt", "sounds.log", "nvm.bin"):
        mine[name] = tmp_path / ("mine-" + name)
        mine[name].write_text("mine\n")
    for option, name in (("--screenshot", "shot.png"), ("--text", "screen.txt"),
                         ("--audio-log", "sounds.log"), ("--nvm", "nvm.bin")):
        refused(in_process(monkeypatch, capsys, "tools.sim", "--headless", option, mine[name]),
                "not replaced")
    assert all(p.read_text() == "mine\n" for p in mine.values())
    outs = ["--screenshot", tmp_path / "shot.png", "--text", tmp_path / "screen.txt",
            "--audio-log", tmp_path / "sounds.log", "--nvm", tmp_path / "nvm.bin"]
    (tmp_path / "nvm.bin").write_bytes(b"\xff" * 8192)  # an NVM's 8192 bytes: the simulator's
    for _ in range(2):  # the second run replaces the first's files
        r = in_process(monkeypatch, capsys, "tools.sim", "--headless", "--keys", "A", *outs)
        assert r.returncode == 0, r.stderr
    r = in_process(monkeypatch, capsys, "tools.sim", "--headless", "--force", "--text",
                   mine["screen.txt"])
    assert r.returncode == 0 and mine["screen.txt"].read_text().startswith("# The final")


def test_a_full_drive_or_a_folder_in_the_way_leaves_the_game_as_it_was(tmp_path, monkeypatch,
                                                                       capsys):
    # A full drive stopped the flash with boot.py and code.py already new and lib/ half
    # copied, no way back: now the new files go to a folder of their own first, and only once
    # all are there do they replace the old ones, lib/ first, code.py last.
    from pathlib import Path

    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    old = deploy.Tree({"code.py": b"old code\n", "boot.py": b"old boot\n",
                       "lib/lnr/app.py": b"old app\n", "lib/engine/state.py": b"old state\n"})
    deploy.sync_folder(old, drive)
    before = files_under(drive)
    new = deploy.Tree({"code.py": b"new code\n", "boot.py": b"new boot\n",
                       "lib/lnr/app.py": b"new app\n", "lib/lnr/more.py": b"new more\n",
                       "lib/engine/state.py": b"new state\n"})
    written = []
    write_bytes = Path.write_bytes

    def full(self, data):
        if len(written) == 3:  # the drive fills up at the fourth file
            raise OSError(28, "No space left on device")
        written.append(self)
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(deploy.DeployError) as e:
        deploy.sync_folder(new, drive)
    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    said = str(e.value)
    assert "stopped while copying" in said and "is full" in said
    assert "as it was" in said and "Run make flash again to finish it" in said
    assert files_under(drive) == before  # the old game, whole; nothing of the new left over
    # Flashed again, it finishes: the new game, whole.
    deploy.sync_folder(new, drive)
    after = files_under(drive)
    assert {p: after[p] for p in new.files} == new.files
    assert not (drive / sync.STAGING).exists()
    # code.py a folder: refused before anything is written.
    shutil.rmtree(drive)
    drive.mkdir()
    deploy.sync_folder(old, drive)
    (drive / "code.py").unlink()
    (drive / "code.py").mkdir()
    before = files_under(drive)
    with pytest.raises(deploy.DeployError, match="code.py is not a file"):
        deploy.sync_folder(new, drive)
    assert files_under(drive) == before
