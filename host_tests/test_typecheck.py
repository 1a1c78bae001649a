"""Device code type-checks against the real CircuitPython API: circuitpython-stubs 10.3.1 with
mypy, once per board (PyBadge, PyGamer), in the venv of its own the stubs need (.venv-stubs,
requirements/typecheck.txt).

Checked: code.py, boot.py, lib/ (the app) and engine/ (it runs on the
device too). The pinned /lib libraries (adafruit_display_text, neopixel, adafruit_ticks) are
read for their types but not checked themselves.

Function bodies are checked too (check_untyped_defs): the device code is mostly unannotated,
and that is where it uses board pins, keypad, displayio, microcontroller.nvm. code.py and
boot.py are checked as copies named device_code.py / device_boot.py (a module named `code`
would shadow the standard library's).

Each board is checked with its own profile (lib/lnr/boards/<board>.py); the other
board's profile is skipped. The board's pin stub is put first on mypy's path: the file
`circuitpython_setboard BOARD` copies into the venv's board-stubs, without rewriting the shared
venv (so the two boards can be checked one after the other, or at once).

To run it alone: .venv/bin/python -m pytest -q host_tests/test_typecheck.py
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.flash import deploy  # noqa: E402

STUBS_VENV = Path(os.environ.get("LNR_STUBS_VENV", ROOT / ".venv-stubs"))
STUBS_PY = STUBS_VENV / "bin" / "python"
BOARDS = ("pybadge", "pygamer")
# mypy's error codes that only ask for annotations the device code leaves out by design
# (docs/style.md: no typing on the device): "Need type annotation", and conditional imports of a
# module that exists on one runtime only.
NOISE = ("var-annotated", "no-redef")
# Messages that are mypy's guesses about unannotated attributes set to None before use, never
# about the CircuitPython API (an API Optional reads e.g. "ByteArray | None").
GUESSES = ('"Any | None"', 'expression has type "None"')


def device_files():
    """Returns [(checked-as name, source Path)]: code.py and boot.py get module names that
    do not shadow the standard library's `code`."""
    out = []
    for name in ("code.py", "boot.py"):
        p = ROOT / name
        assert p.is_file(), "%s is not at the drive's root: it would go unchecked" % name
        out.append(("device_" + name, p))
    for base in (ROOT / "lib", ROOT / "engine"):
        for p in sorted(base.rglob("*.py")):
            if "__pycache__" not in p.parts:
                out.append((None, p))
    return out


def stubs_python():
    if not STUBS_PY.exists():
        pytest.fail(f"{STUBS_PY} is missing: make sets it up (make .venv-stubs/.stamp: a venv "
                    "without pip, requirements/typecheck.txt installed by .venv's pip)")
    return str(STUBS_PY)


def fix_board_stub(text):
    """Returns the board stub with its one stale name fixed: circuitpython-stubs 10.3.1 types
    DISPLAY as displayio.Display, which CircuitPython 9 renamed busdisplay.BusDisplay (the
    stubs have no displayio.Display). Installed as board-stubs by circuitpython_setboard, the
    bad name would silently make board.DISPLAY untyped; here it gets the real type."""
    assert "DISPLAY: displayio.Display" in text
    return text.replace("DISPLAY: displayio.Display", "DISPLAY: busdisplay.BusDisplay").replace(
        "import busio\n", "import busdisplay\nimport busio\n", 1)


def run_mypy(board, tmp_path, files=None, cache=None):
    """Returns (CompletedProcess, [checked paths]) of mypy on files (default: the device's),
    its cache in `cache` (default: a new one in tmp_path)."""
    py = stubs_python()
    defs = subprocess.run(
        [py, "-c", "import importlib.util as u; "
                   "print(list(u.find_spec('board_definitions').submodule_search_locations)[0])"],
        capture_output=True, text=True, check=True).stdout.strip()
    board_stub = Path(defs) / board / "__init__.pyi"
    assert board_stub.is_file(), board_stub
    overlay = tmp_path / "overlay"
    (overlay / "board").mkdir(parents=True)
    (overlay / "board" / "__init__.pyi").write_text(fix_board_stub(board_stub.read_text()))
    libs = tmp_path / "libs"
    for rel, src in deploy.third_party_files():
        (libs / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, libs / rel)
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    paths = []
    if files is None:
        files = [(n, p) for n, p in device_files()
                 if not (p.parent.name == "boards" and p.stem in BOARDS and p.stem != board)]
    for as_name, src in files:
        if as_name:
            shutil.copy(src, scripts / as_name)
            paths.append(str(scripts / as_name))
        else:
            paths.append(str(src))
    silent = ["adafruit_display_text.*", "adafruit_ticks", "neopixel"]
    other_profiles = ["lnr.boards." + b for b in BOARDS if b != board]
    config = tmp_path / "mypy.ini"
    config.write_text(f"""\
[mypy]
mypy_path = {overlay}:{libs}:{ROOT / 'lib'}:{ROOT}
python_version = 3.11
cache_dir = {cache or tmp_path / 'cache'}
check_untyped_defs = True
disable_error_code = {','.join(NOISE)}

[mypy-{','.join(silent)}]
follow_imports = silent

[mypy-{','.join(other_profiles)}]
follow_imports = skip
""")
    r = subprocess.run([py, "-m", "mypy", "--config-file", str(config), *paths], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    return r, paths


def errors(output):
    """Returns mypy's error lines without its GUESSES and one known false alarm: the CPython
    fallback `def const(x)` after `from micropython import const` (the device always has
    micropython, so that branch never runs there) differs from the stub's generic const."""
    out = []
    for line in output.splitlines():
        if ": error: " not in line or any(g in line for g in GUESSES):
            continue
        if "All conditional function variants must have identical signatures" in line:
            path, lineno = line.split(":")[:2]
            try:
                src = Path(path if os.path.isabs(path) else ROOT / path).read_text()
                if src.splitlines()[int(lineno) - 1].lstrip().startswith("def const("):
                    continue
            except (OSError, ValueError, IndexError):
                pass
        out.append(line)
    return out


# The module's runs on one worker, sharing one mypy cache (mypy's incremental mode: a module is
# checked again when it or what it imports changed, as the board stub does from one board to the
# other): typeshed and the stubs are read once, not by each run (7.0 -> 3.5 CPU-s).
pytestmark = pytest.mark.xdist_group("test_typecheck")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("mypy_cache")


@pytest.mark.parametrize("board", BOARDS)
def test_device_code_type_checks_against_circuitpython_stubs(board, tmp_path, cache):
    r, paths = run_mypy(board, tmp_path, cache=cache)
    assert any(p.endswith("device_boot.py") for p in paths)
    assert "error: Cannot find" not in r.stdout and "note: See https" not in r.stdout
    found = errors(r.stdout)
    assert found == [], (f"device code against CircuitPython {board} stubs:\n  "
                         + "\n  ".join(found) + "\n" + r.stderr)
    assert r.returncode in (0, 1), r.stderr  # 2: mypy itself failed
    assert re.search(r"(checked|found in) %d source files" % len(paths), r.stdout), r.stdout


def test_the_check_catches_a_pin_the_board_does_not_have(tmp_path, cache):
    """The PyBadge has no joystick: code using it fails the PyBadge check, passes PyGamer's."""
    bad = tmp_path / "uses_stick.py"
    bad.write_text("import board\nimport analogio\n\n"
                   "stick = analogio.AnalogIn(board.JOYSTICK_X)\n"
                   "level: int = stick.value\n")
    r, _ = run_mypy("pybadge", tmp_path / "a", [(None, bad)], cache)
    assert errors(r.stdout) == [f'{bad}:4: error: Module has no attribute "JOYSTICK_X"  '
                                '[attr-defined]'], r.stdout
    r, _ = run_mypy("pygamer", tmp_path / "b", [(None, bad)], cache)
    assert r.returncode == 0, r.stdout


def test_the_check_catches_optional_nvm_and_missing_api(tmp_path, cache):
    bad = tmp_path / "uses_nvm.py"
    bad.write_text("import microcontroller\nimport keypad\n\n"
                   "first: int = microcontroller.nvm[0]\n"
                   "keypad.Event().get_into(None)\n")
    r, _ = run_mypy("pybadge", tmp_path / "a", [(None, bad)], cache)
    assert r.returncode == 1
    assert 'Value of type "ByteArray | None" is not indexable' in r.stdout
    assert '"Event" has no attribute "get_into"' in r.stdout
