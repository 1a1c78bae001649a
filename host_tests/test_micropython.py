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
