"""The bots' command lines as the README shows them: a game by `best` written by
engine.selfplay replays as legal with engine.replay (docs/rules.md §10), and tools/bots/bench.py
(what `make bench` runs) prints its table, here on a few seeds."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(args, stdin=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m"] + args, input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)


def test_selfplay_by_best_replays():
    # python -m engine.selfplay --mode rival --seed 4 --bot best | python -m engine.replay -
    made = _run(["engine.selfplay", "--mode", "rival", "--seed", "4", "--bot", "best"])
    assert made.returncode == 0, made.stderr
    record = json.loads(made.stdout)
    checked = _run(["engine.replay", "-"], stdin=made.stdout)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout) == record["result"]


def test_bench_prints_a_row_per_bot():
    # No coach (its lines are the next test's): its game's 112 decisions were 8 s of this
    # test's 20 s of CPU, and nothing here reads them.
    res = _run(["tools.bots.bench", "--seeds", "4", "--vm-games", "1", "--bots", "greedy,best",
                "--coach-seeds", "0"])
    assert res.returncode == 0, res.stderr
    rows = {}
    for line in res.stdout.splitlines():
        m = re.match(r"(greedy|best)\s+([\d.]+) ± [\d.]+\s+([\d.]+)\s+([\d.]+)"
                     r"\s+([\d.]+) ± [\d.]+\s+([\d.]+) ± [\d.]+%"
                     r"\s+([\d.]+) ± [\d.]+\s+([\d.]+) ± [\d.]+%"
                     r"\s+([\d.]+) / ([\d.]+)\s+([\d.]+) / (\d+)", line)
        if m:
            rows[m.group(1)] = [float(x) for x in m.groups()[1:]]
    assert set(rows) == {"greedy", "best"}, res.stdout
    for name, row in rows.items():
        mean, median, derails, chal, survived, rival, won, cmean, cmax, vmean, vmax = row
        assert 0 < mean < 100 and 0 < median < 100 and 0 < chal < 100 and 0 < rival < 100
        assert 0 <= survived <= 100 and 0 <= won <= 100
        assert 0 < cmean <= cmax and vmean <= vmax


def test_bench_plays_both_coaches_on_the_same_seeds_and_counts_their_decisions():
    # --coach-bots coach,coach-ntuple: in rival mode engine.ntuple has no tables, so the two
    # coaches decide alike: the same decisions, the same counted work, a paired difference of
    # 0; each coach's line counts its decisions and their CPU time.
    res = _run(["tools.bots.bench", "--seeds", "1", "--no-vm", "--bots", "random",
                "--coach-seeds", "1", "--coach-modes", "rival", "--coach-bots",
                "coach,coach-ntuple", "--jobs", "1"])
    assert res.returncode == 0, res.stderr
    lines = {}
    for line in res.stdout.splitlines():
        m = re.match(r"(coach|coach-ntuple): (\d+) decisions; CPU ms a decision mean ([\d.]+), "
                     r"max ([\d.]+), (\d+) over 1 s; .* work a decision .* mean (\d+), "
                     r"max (\d+)$", line)
        if m:
            lines[m.group(1)] = m.groups()[1:]
    assert set(lines) == {"coach", "coach-ntuple"}, res.stdout
    a, b = lines["coach"], lines["coach-ntuple"]
    assert int(a[0]) > 10 and a[0] == b[0] and a[4:] == b[4:]
    assert 0 < float(a[1]) <= float(a[2])
    assert "the machine's load average" in res.stdout
    bad = _run(["tools.bots.bench", "--seeds", "1", "--no-vm", "--coach-bots", "best"])
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr
