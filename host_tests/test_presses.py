"""The presses a turn takes (issue 11, "fewer presses"): a pass in 2, a one-card build in 2 (lay,
roll), none while an opponent plays; counted by `python -m tools.sim.presses` from the key-script
model (tools/sim/app_script.py), and the counted keys checked on the app itself."""
import os
import subprocess
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, presses, simulator as sim  # noqa: E402
from tools.sim.app_script import SETTLE  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_pass_and_a_one_card_build_take_two_presses_an_opponents_turn_none():
    found = presses.turn_counts(range(1, 30))
    assert found[presses.PASS][1] <= 2  # START, Pass
    assert found[presses.STRAIGHT][1] <= 2  # A lays it, A rolls
    assert found[presses.CURVE_TWO][1] <= 3  # the bend is a choice: one press more
    assert found[presses.RIVAL][1] == 0
    # A bot's result waits for A when another bot plays next (issue 24): at a 3-seat table
    # one press for the two bots' turns, never more than one a turn.
    assert 0 < found[presses.BOT][1] <= 1
    assert len(found[presses.BOT][2]) > 20  # counted over many turns
    # The keys counted play the app to the State the model says.
    for kind in (presses.PASS, presses.STRAIGHT, presses.CURVE_TWO, presses.CURVE_ONE):
        for seed, before, turn, state in found[kind][2][:2]:
            with sim_fast.fast():
                r = sim.run_headless(before + turn + [SETTLE], seed=seed)
            assert r.ok, r.error
            assert r.app.game.state == state, (kind, seed)


def test_the_tool_prints_the_counts_and_a_whole_games_time():
    out = subprocess.run([sys.executable, "-m", "tools.sim.presses"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    counts = {}
    for line in lines[1:]:
        if line.startswith("  "):
            what, n = line[2:44].strip(), line[44:51].strip()
            counts[what] = n
    assert counts[presses.PASS] == "2" and counts[presses.STRAIGHT] == "2"
    assert counts[presses.RIVAL] == "0" and 0 < float(counts[presses.BOT]) <= 1
    assert lines[-1].startswith("whole solo game (seed 8, title to game over): ")
    assert lines[-1].endswith(" s")
