"""Every command the README shows runs as written (docs/style.md: every example and CLI in the
README is run by a test), and so do docs/engine.md's examples.

Each command of the README's ```sh blocks is run for real by the runner its pattern names (a
command with no runner fails): the make targets in a copy of this checkout, so that parallel
runs never share a build/ folder; a command that needs a board against the fake board of
tools/flash/fakeboard.py (the real mpremote client over a pseudo-terminal); `make test`, the
command running this very test, by make's dry run."""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_deploy import files_under  # noqa: E402
from test_flash import first_installed, reset_done, start_board  # noqa: E402,F401

from tools.flash import deploy  # noqa: E402
from tools.flash.sync import MANIFEST, SAVE_FILES  # noqa: E402

README = ROOT / "README.md"
ENGINE_DOC = ROOT / "docs" / "engine.md"
# The venv and the VM a copy of the checkout shares with this one, and the folds make flash
# keeps (deploy.FOLD_CACHE, by a fingerprint of their inputs): the copy's sources are these, so
# its make flash and make bundle read the fold the suite's other builds made.
LINKED = (".venv", ".venv-flash", ".venv-stubs", "tools/vm/mpvm/node_modules",
          deploy.FOLD_CACHE.relative_to(deploy.ROOT).as_posix())
TIMEOUT = 600  # a build compiles every module; the machine may be busy


def shown_commands(text):
    """Returns every command line of the text's ```sh blocks, comments left out, each once."""
    out = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            line = re.sub(r"(^|\s)#.*$", "", line).strip()
            if line and line not in out:
                out.append(line)
    return out


def make_env(**extra):
    """The environment for a make of our own: none of the outer make's jobserver flags."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env.update(extra)
    return env


def checkout_copy(tmp_path):
    """Returns a clone of this repository holding the checkout's files as they are (committed
    or not, ignored ones left out, times kept so make sees the venvs' stamps as here), with the
    venvs and the MicroPython VM linked."""
    if not (ROOT / ".venv-flash" / ".stamp").is_file():
        pytest.fail("the README's make flash and make bundle need .venv-flash: make pytest "
                    "(or make test) sets it up")
    dst = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(dst)], check=True, timeout=120)
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True, check=True,
                            timeout=60).stdout.decode().split("\0")
    for rel in listed:
        src = ROOT / rel
        if rel and src.is_file() and not src.is_symlink():
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / rel)
        elif rel and not src.exists() and (dst / rel).is_file():
            (dst / rel).unlink()  # deleted here, not yet committed
    deploy.FOLD_CACHE.mkdir(parents=True, exist_ok=True)
    for rel in LINKED:
        if (ROOT / rel).exists():
            if (dst / rel).is_symlink():
                (dst / rel).unlink()
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            (dst / rel).symlink_to((ROOT / rel).resolve())
    return dst


def run_make(cmd, cwd, **values):
    """Runs the README's make command in cwd with the values of NAME=value arguments replaced
    (a path of the reader's machine by one of the test's)."""
    args = shlex.split(cmd)
    for i, a in enumerate(args):
        name = a.split("=", 1)[0]
        if "=" in a and name in values:
            args[i] = "%s=%s" % (name, values.pop(name))
    assert not values, "the command has no %s=" % ", ".join(values)
    return subprocess.run(args, cwd=cwd, env=make_env(), capture_output=True, text=True,
                          timeout=TIMEOUT)


def assert_drive_tree(files, build):
    """A drive's tree as make flash writes it: the sources' code.py and boot.py, settings.toml
    with the pystack's size, lib/ all CircuitPython 10 .mpy files (and the files modules read:
    the sprites' and the font's pixels), the same bytes as the build folder."""
    assert files["code.py"] == (ROOT / "code.py").read_bytes()
    assert files["boot.py"] == (ROOT / "boot.py").read_bytes()
    assert ("%s = %d" % (deploy.PYSTACK_KEY, deploy.PYSTACK_SIZE)).encode() in files["settings.toml"]
    lib = {p: data for p, data in files.items() if p.startswith("lib/")}
    assert {"lib/lnr/main.mpy", "lib/engine/state.mpy", "lib/neopixel.mpy"} <= set(lib)
    for path, data in lib.items():
        assert path.endswith(".mpy") and data[:2] == deploy.MPY_HEADER or \
            path in deploy.data_files(), path
    saves = {p: data for p, data in files.items() if p.startswith("lnrsave/")}
    # The drive's save files, made once by the deploy, all zeros (tools/flash/sync.py).
    assert saves == {p: bytes(n) for p, n in SAVE_FILES if n is not None}, sorted(saves)
    assert set(files) == set(lib) | set(saves) | {"code.py", "boot.py", "settings.toml",
                                                  MANIFEST}
    assert without_saves(files) == files_under(build)


def without_saves(files):
    """A drive's files less the save files (the deploy's; neither the build nor the bundle
    holds them, so unzipping a bundle never overwrites a player's saves)."""
    return {p: data for p, data in files.items() if not p.startswith("lnrsave/")}


# ---- the runners, one per kind of command ---------------------------------------------------

def flash_to_a_folder(cmd, tmp_path):
    """First install onto a mounted drive: an empty folder stands for it."""
    copy = checkout_copy(tmp_path)
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    r = run_make(cmd, copy, TO=str(drive))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "holds the game" in r.stdout
    assert_drive_tree(files_under(drive), copy / "build" / "circuitpy")


def flash_a_chosen_port(cmd, tmp_path, start_board):
    """An update over USB serial to the board on PORT: the fake board after the first install
    (boot.py on its drive)."""
    copy = checkout_copy(tmp_path)
    drive = first_installed(tmp_path)
    board = start_board(drive)
    n = len(board.events())
    r = run_make(cmd, copy, PORT=board.port)
    assert r.returncode == 0, r.stdout + r.stderr
    board.wait_for(reset_done(n))  # it reset the board: boot.py and code.py ran again
    assert_drive_tree(files_under(drive), copy / "build" / "circuitpy")


def flash_the_one_board(cmd, tmp_path):
    """`make flash` finds the board by its USB vendor id, which no pseudo-terminal has: with no
    board plugged in it says so and how to fix it, exit status 2, after building the tree."""
    import serial.tools.list_ports
    if [p for p in serial.tools.list_ports.comports() if p.vid == 0x239A]:
        pytest.skip("an Adafruit board is plugged in here: a test does not flash it")
    copy = checkout_copy(tmp_path)
    r = run_make(cmd, copy)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "flash: No CircuitPython board found on USB" in r.stderr
    assert "make flash PORT=" in r.stderr
    assert "Traceback" not in r.stderr
    assert (copy / "build" / "circuitpy" / "lib" / "lnr" / "main.mpy").is_file()


def bundle(cmd, tmp_path):
    """The zip in dist/, named by the commit, holds exactly the tree make flash TO=DIR writes
    (issue 23: the same tree), and unzips to it."""
    copy = checkout_copy(tmp_path)
    r = run_make(cmd, copy)
    assert r.returncode == 0, r.stdout + r.stderr
    zips = list((copy / "dist").glob("*.zip"))
    assert len(zips) == 1, zips
    # The copy is this checkout's commit with its files as they were (checkout_copy()).
    commit = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], cwd=copy,
                            capture_output=True, text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=copy, capture_output=True,
                           text=True, check=True).stdout.strip()
    name = zips[0].name
    assert name.startswith("loknroll-") and commit in name, name
    assert name.endswith(("-dirty" if dirty else commit) + "-circuitpython10.zip"), name
    assert str(zips[0].relative_to(copy)) in r.stdout
    with zipfile.ZipFile(zips[0]) as z:
        assert z.testzip() is None
        bundled = {i.filename: z.read(i) for i in z.infolist()}
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    r = run_make("make flash TO=X", copy, TO=str(drive))
    assert r.returncode == 0, r.stdout + r.stderr
    assert not any(p.startswith("lnrsave") for p in bundled)
    assert bundled == without_saves(files_under(drive))
    assert_drive_tree(files_under(drive), copy / "build" / "circuitpy")


def play(cmd, tmp_path):
    """The window simulator starts and runs (SDL's dummy screen and sound): it is still playing
    seconds after it set up its drive folder, with nothing on stderr but make's lines."""
    copy = checkout_copy(tmp_path)
    proc = subprocess.Popen(shlex.split(cmd), cwd=copy, env=make_env(
        SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        polls = 0  # counted, not timed: a hang is caught after TIMEOUT seconds of polls
        while not (copy / "sim-drive").is_dir() and proc.poll() is None \
                and polls * 0.2 < TIMEOUT:
            polls += 1
            time.sleep(0.2)
        time.sleep(5)
        running = proc.poll() is None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert running, out + err
    assert "Traceback" not in err, err


def make_test(cmd, tmp_path):
    """`make test` is what runs this test: its dry run shows it runs the host tests (the game
    on CircuitPython's VM among them: test_cp_app.py) and the engine's check on MicroPython's
    VM, and leaves make cpcheck, which writes docs/memory.md, to its own target."""
    r = subprocess.run(["make", "-n"] + shlex.split(cmd)[1:], cwd=ROOT, env=make_env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "-m pytest" in r.stdout and "host_tests/" in r.stdout
    assert "tools.vm mpcheck" in r.stdout and "cpcheck" not in r.stdout


def sim_help(cmd, tmp_path):
    args = shlex.split(cmd)
    assert (ROOT / args[0]).is_file(), "%s: make play sets it up" % args[0]
    r = subprocess.run([str(ROOT / args[0])] + args[1:], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: python -m tools.sim")
    for option in ("--headless", "--seed", "--drive-readonly", "--screenshot"):
        assert option in r.stdout


RUNNERS = (
    (r"make flash TO=\S+", flash_to_a_folder),
    (r"make flash PORT=\S+", flash_a_chosen_port),
    (r"make flash", flash_the_one_board),
    (r"make bundle", bundle),
    (r"make play", play),
    (r"make test", make_test),
    (r"\.venv/bin/python -m tools\.sim --help", sim_help),
)


@pytest.mark.parametrize("cmd", shown_commands(README.read_text()))
def test_each_command_the_readme_shows_runs(cmd, tmp_path, request):
    runners = [run for pattern, run in RUNNERS if re.fullmatch(pattern, cmd)]
    assert len(runners) == 1, "no test runs this README command: %s" % cmd
    run = runners[0]
    if run is flash_a_chosen_port:
        run(cmd, tmp_path, request.getfixturevalue("start_board"))
    else:
        run(cmd, tmp_path)


def test_the_readme_shows_commands_only_in_sh_blocks():
    """A command in a block of another kind, or written inline, would escape the test above."""
    text = README.read_text()
    fences = re.findall(r"^```(\S*)", text, re.M)
    assert fences[0::2] and set(fences[0::2]) == {"sh"} and set(fences[1::2]) == {""}
    shown = set(shown_commands(text))
    prose = re.sub(r"^```sh\n.*?^```", "", text, flags=re.S | re.M)
    inline = [c for c in re.findall(r"`([^`\n]+)`", prose)
              if re.match(r"(make|python3?|\S*/python3?|mpremote|pip)\s+\S", c)]
    assert inline, "the README names its commands in the prose too"
    assert [c for c in inline if c not in shown] == []


def test_the_readme_is_for_players():
    """Issue 23: at most 150 lines, pictures that exist, links that lead somewhere."""
    text = README.read_text()
    assert len(text.splitlines()) <= 150
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
    assert len(re.findall(r"!\[[^\]]*\]\(docs/screenshots/\w+\.png\)", text)) >= 6
    # The line it tells a player to add to their own settings.toml is the one make flash adds.
    told = re.findall(r"`(%s = \d+)`" % deploy.PYSTACK_KEY, text)
    assert told == ["%s = %d" % (deploy.PYSTACK_KEY, deploy.PYSTACK_SIZE)]


# ---- docs/engine.md's examples ----------------------------------------------------------------

def test_the_python_example_plays_a_whole_game(capsys):
    blocks = re.findall(r"```python\n(.*?)```", ENGINE_DOC.read_text(), re.S)
    assert blocks, "docs/engine.md shows the engine's API in a python block"
    for block in blocks:
        exec(compile(block, "docs/engine.md", "exec"), {"__name__": "readme"})
    printed = capsys.readouterr().out.strip().splitlines()[-1]
    assert printed.startswith("{'scores': [") and "'winners': [0]" in printed


def test_the_record_commands_work_as_shown(tmp_path):
    text = ENGINE_DOC.read_text()
    assert "python -m engine.selfplay --mode solo --seed 7 > game.json" in text
    assert "python -m engine.selfplay --mode table --players 3 --seed 7 --bot random" in text
    assert "python -m engine.replay game.json" in text
    game = tmp_path / "game.json"
    with open(game, "w") as out:
        subprocess.run([sys.executable, "-m", "engine.selfplay", "--mode", "solo", "--seed",
                        "7"], cwd=ROOT, stdout=out, check=True, timeout=60)
    table = subprocess.run([sys.executable, "-m", "engine.selfplay", "--mode", "table",
                            "--players", "3", "--seed", "7", "--bot", "random"], cwd=ROOT,
                           capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(table.stdout)["players"] == 3
    replayed = subprocess.run([sys.executable, "-m", "engine.replay", str(game)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stderr
    with open(game) as f:
        assert json.loads(replayed.stdout) == json.load(f)["result"]
