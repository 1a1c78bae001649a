"""The bots on the real MicroPython VM (tools/vm/mpvm): the device runs them for the hint and the
table's opponents, so they must load there and decide exactly as on CPython (ints only, fixed
iteration order): the same seed gives the same record, step for step (docs/style.md)."""
import json

import pytest

from engine.selfplay import play
from tools.vm import mpvm

# One pytest worker runs the module (make pytest: --dist loadgroup): the bots' games on
# MicroPython's VM run once for the module.
pytestmark = pytest.mark.xdist_group("test_bots_vm")

GAMES = [(bot, mode, players, seed)
         for bot in ("greedy", "best")
         for mode, players in (("solo", None), ("challenge", None), ("rival", None),
                               ("table", 3))
         for seed in (11, 12)]

SCRIPT = """
import json, sys
import mpvm
from engine.selfplay import play
from engine.bots import hint
from engine.advice import why
from engine.rng import Rng
from engine.deal import new_game

for item in json.loads(sys.argv[1]):
    bot, mode, players, seed = item
    print(json.dumps(play(mode, seed, players, bot)))
    await mpvm.collect()
# The hint on a fresh game of each mode, as the device asks for it, and why (none on the
# rival's first turn: nobody decides).
for mode in range(4):
    s = new_game(mode, Rng(5))
    action, search = hint(s)
    print(json.dumps([action, search and why(s, action, search.options, search.values)]))
"""


@pytest.fixture(scope="module")
def vm_output(tmp_path_factory):
    script = tmp_path_factory.mktemp("vm") / "bots_vm.py"
    script.write_text(SCRIPT)
    return mpvm.output(script, ["engine"], [json.dumps(GAMES)], timeout=300).splitlines()


def test_vm_plays_the_same_games_as_cpython(vm_output):
    # Same seed, same game on every runtime: every step of every turn, every roll, the result.
    assert len(vm_output) == len(GAMES) + 4
    for (bot, mode, players, seed), line in zip(GAMES, vm_output):
        assert json.loads(line) == play(mode, seed, players, bot), (bot, mode, seed)


def test_vm_gives_the_same_hint_and_words(vm_output):
    from engine.advice import why
    from engine.bots import hint
    from engine.rng import Rng
    from engine.deal import new_game

    for mode in range(4):
        s = new_game(mode, Rng(5))
        action, search = hint(s)
        said = json.loads(json.dumps([action, search and why(s, action, search.options,
                                                             search.values)]))
        assert json.loads(vm_output[len(GAMES) + mode]) == said, mode
