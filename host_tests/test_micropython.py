"""Same seed, same game on every runtime (docs/style.md): the engine on the real MicroPython VM
plays exactly the games CPython plays, record for record."""
import json

from engine.selfplay import play
from tools.vm import mpvm

MODES = (("solo", None), ("challenge", None), ("rival", None), ("table", 2), ("table", 3),
         ("table", 4))
SEEDS = 4


def test_micropython_plays_the_same_games_as_cpython():
    lines = mpvm.output("tools/vm/mpcheck.py", ["engine"], ["--records", SEEDS],
                        timeout=300).splitlines()
    assert len(lines) == len(MODES) * SEEDS
    i = 0
    for mode, players in MODES:
        for seed in range(SEEDS):
            on_vm = json.loads(lines[i])
            assert on_vm == play(mode, seed, players), (mode, players, seed)
            assert "result" in on_vm
            i += 1


def test_mpcheck_refuses_bad_arguments_in_one_line():
    # Bad input gets one line and exit status 2, never a traceback (docs/development.md): an
    # option it does not know, a path, --records without a whole number.
    for args in (["--bogus"], ["/tmp"], ["--records"], ["--records", "abc"],
                 ["--speed", "--records", "1"]):
        r = mpvm.run("tools/vm/mpcheck.py", ["engine"], args, timeout=120)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and r.stdout == "", (args, r.stdout)
        assert len(lines) == 1 and lines[0].startswith("python -m tools.vm mpcheck: "), lines
