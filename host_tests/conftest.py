"""Host tests run from the repo root: make the engine and the app's lib importable as they are on
the board (CIRCUITPY's /lib holds lnr/ and engine/), and keep pygame off any real screen or
sound card."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "lib")):
    if path not in sys.path:
        sys.path.insert(0, path)

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


import pytest  # noqa: E402


@pytest.fixture
def device_libs(tmp_path):
    """A folder holding the pinned device libraries the app imports beside the engine
    (adafruit_ticks, adafruit_display_text), as tools.flash.deploy ships them to the board's /lib:
    give it to the MicroPython VM as `--tree DIR:/lib`."""
    import shutil

    from tools.flash import deploy

    out = tmp_path / "device_libs"
    for rel, path in deploy.third_party_files():
        if rel.split("/")[0].split(".")[0] in ("adafruit_ticks", "adafruit_display_text"):
            dest = out / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    return out


# CircuitPython's VM and its mpy-cross, where this machine has them (tools/vm/cpvm.py): a test
# that needs them asks for these, which skip in one line where they are missing.
@pytest.fixture
def circuitpython():
    """Returns the Path of CircuitPython's VM; skips where it is missing."""
    from tools.vm import cpvm

    if cpvm.missing():
        pytest.skip(cpvm.missing())
    return cpvm.vm()


@pytest.fixture
def circuitpython_mpy_cross():
    """Returns the Path of CircuitPython's mpy-cross; skips where it is missing."""
    from tools.vm import cpvm

    if cpvm.mpy_cross() is None:
        pytest.skip(cpvm.MISSING_MPY_CROSS)
    return cpvm.mpy_cross()


@pytest.fixture
def store_on_circuitpython(tmp_path, circuitpython):
    """Runs a script's source on CircuitPython's own VM with the repository and its lib/
    importable and an empty drive folder as argv[1] (ending in "/", as lnr.storage takes it);
    returns (the CompletedProcess, the drive folder). Skips, in one line, where the VM is
    missing (tools/vm/cpvm.py)."""
    from tools.vm import cpvm

    def run(source):
        script = tmp_path / "store.py"
        script.write_text(source)
        drive = tmp_path / "drive"
        drive.mkdir()
        r = cpvm.run(script, paths=[ROOT, os.path.join(ROOT, "lib")], args=[str(drive) + "/"])
        return r, drive

    return run



@pytest.fixture(autouse=True)
def _frozen_before_the_test():
    """What lives when a test starts (pytest, pygame, numpy, Blinka, the engine's tables, the
    module fixtures) is frozen out of the garbage collector's reach after a collection: each
    gc.collect() the app calls at its quiet points (lnr.memory.settle, a few ms on the board)
    then scans what this test made, not the whole process again (it was a third of a headless
    run's CPU in the suite). Garbage is collected as before: the previous test's by the
    collection here, this test's by the app's own."""
    import gc

    gc.collect()
    gc.freeze()


# The modules holding the suite's longest tests (pytest --durations=40), longest first. make
# pytest hands work to its workers in collection order (after the xdist_group modules, which
# --dist loadgroup hands out first): a long test that starts last keeps one worker busy while
# the other has nothing left, so these go first and the short tests fill in the end. A module
# left off the list only runs later; the list decides no result.
LONG_FIRST = ("test_bots_cli", "test_fuzz_commands", "test_app_texts", "test_pystack",
              "test_fuzz_keys", "test_train", "test_history", "test_app_memory", "test_coach",
              "test_flash", "test_review", "test_deploy", "test_hint_words", "test_bots",
              "test_readme", "test_fold", "test_codec")


def pytest_collection_modifyitems(items):
    def rank(item):
        name = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)

    items.sort(key=rank)  # stable: each module's tests keep their order
