"""The learned evaluation's tools (issue 26): the three seed ranges stay apart, the training by
temporal differences (tools/bots/train.py) is reproducible and computes TD(λ)'s returns, the
weights module it writes reads back as written, and the weights fit the board's 4 KB."""
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

from engine import ai_weights
from engine.ai import N_BUCKETS, N_FEATURES, ONE
from engine.playout import DECIDE, seeded, steps
from engine.rng import Rng
from engine.state import MODE_NAMES
from tools.bots import cost, cost_cp, seeds, train, tune, weights_ram
from tools.vm import cpvm
from helpers import python_m

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_seed_ranges_are_disjoint_and_named_in_the_readme():
    # A figure is honest only on deals nothing was fitted or chosen on (issue 26).
    ranges = list(seeds.RANGES.values())
    for i, a in enumerate(ranges):
        for b in ranges[i + 1:]:
            assert a.stop <= b.start or b.stop <= a.start, (a, b)
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for r in ranges:
        assert "%d-%d" % (r.start, r.stop - 1) in readme, r
    with pytest.raises(ValueError):
        seeds.take("choosing", len(seeds.CHOOSING) + 1)
    assert seeds.take("reported", 3, 2) == range(seeds.REPORTED.start + 2,
                                                   seeds.REPORTED.start + 5)


def _chain():
    # One seat's positions: (bucket, features, what the game still added), as tune.play gives.
    f = [[1] + [i % 3] * (N_FEATURES - 1) for i in range(4)]
    return [(5, f[0], 9.0, 0), (4, f[1], 7.0, 0), (2, f[2], 3.0, 0), (0, f[3], 1.0, 0)]


def test_td_returns_span_final_outcome_and_one_step_bootstrap():
    chain = _chain()
    weights = [(i * 7) % 11 - 5 for i in range(N_FEATURES * N_BUCKETS)]
    # λ = 1: every target is what the game still added (tune's Monte Carlo targets).
    got = [t[2] for t in train.td_targets([[chain]], weights, 1.0)]
    assert got == [9.0, 7.0, 3.0, 1.0]
    # λ = 0: what the next turn added plus the evaluation of the next position.
    got = [t[2] for t in train.td_targets([[chain]], weights, 0.0)]
    for t in range(3):
        b, f = chain[t + 1][0], chain[t + 1][1]
        v = sum(weights[b * N_FEATURES + i] * f[i] for i in range(N_FEATURES)) / ONE
        assert got[t] == pytest.approx(chain[t][2] - chain[t + 1][2] + v)
    assert got[3] == 1.0  # the last position: the outcome itself


def test_chains_follow_each_seat_in_order():
    samples = [(3, [1], 5.0, 2), (3, [2], 4.0, 0), (2, [3], 2.0, 2), (1, [4], 1.0, 0)]
    assert train.chains(samples) == [[samples[1], samples[3]], [samples[0], samples[2]]]


def _train(tmp_path, name, seed):
    out = tmp_path / (name + ".py")
    png = tmp_path / (name + ".png")
    r = subprocess.run([sys.executable, "-m", "tools.bots", "train", "--iters", "1", "--games",
                        "3", "--choose", "2", "--player", "planner", "--jobs", "1", "--lam",
                        "0.5", "--seed", str(seed), "--step", "1", "--out", str(out), "--png",
                        str(png)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "3/3" in r.stderr  # the progress bar reached its end
    # The log without the seconds each iteration took (the machine's, not the training's).
    return out.read_text(), re.sub(r"\(\d+ s\)", "", r.stdout.replace(name + ".", "NAME."))


def test_the_fit_is_least_squares_per_bucket_with_the_ridge_on_all_but_the_constant():
    # tune.fit, which train's TD fits and tune's both use: per bucket of turns left the weights
    # that predict the targets best (exact here: the targets are linear in the features), in
    # 1/ONE points; a feature a bucket never saw weighs 0; no turn left (bucket 0) is the exact
    # score, no weights; a huge ridge leaves only the constant, the targets' mean.
    rng = Rng(37, 0)
    true = [[(rng.randbelow(64) - 32) / ONE for _ in range(N_FEATURES)] for _ in range(N_BUCKETS)]
    samples = []
    for b in range(N_BUCKETS):
        for _ in range(120):
            f = [1] + [rng.randbelow(6) for _ in range(N_FEATURES - 1)]
            f[7] = 0  # never seen
            samples.append((b, f, sum(w * x for w, x in zip(true[b], f))))
    got = tune.fit([samples], 0.0)
    assert got[:N_FEATURES] == [0] * N_FEATURES
    for b in range(1, N_BUCKETS):
        row = got[b * N_FEATURES:(b + 1) * N_FEATURES]
        assert row == [0 if i == 7 else round(true[b][i] * ONE) for i in range(N_FEATURES)], b
    flat = tune.fit([samples], 1e12)
    for b in range(1, N_BUCKETS):
        ys = [y for bb, _, y in samples if bb == b]
        assert flat[b * N_FEATURES] == round(sum(ys) / len(ys) * ONE)
        assert flat[b * N_FEATURES + 1:(b + 1) * N_FEATURES] == [0] * (N_FEATURES - 1)


def test_training_is_reproducible_from_its_seed(tmp_path):
    a, log_a = _train(tmp_path, "a", 0)
    b, log_b = _train(tmp_path, "b", 0)
    assert a == b and log_a == log_b
    _, log_c = _train(tmp_path, "c", 1)
    assert "seeds 100000-100002" in log_a and "seeds 100003-100005" in log_c


def test_weights_module_round_trips(tmp_path):
    current = {m: tune.unpack(getattr(ai_weights, m.upper())) for m in tune.MODES}
    current["rival"] = [(i * 37) % 2001 - 1000 for i in range(N_FEATURES * N_BUCKETS)]
    path = tmp_path / "w.py"
    tune.write(current, str(path))
    spec = importlib.util.spec_from_file_location("w", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for m in tune.MODES:
        assert tune.unpack(getattr(mod, m.upper())) == current[m], m
    assert tune.made_by_tune(str(path))
    with pytest.raises(ValueError):
        tune.pack([40000])


def test_train_refuses_bad_arguments_and_foreign_files(tmp_path, monkeypatch, capsys):
    # `python -m tools.bots ...` run in this process (helpers.python_m): the same dispatch, exit
    # status and standard error, without a Python started for each case.
    foreign = tmp_path / "notes.py"
    foreign.write_text("keep me\n")
    for args in (["--lam", "2"], ["--games", "0"], ["--out", str(foreign)],
                 ["--png", str(foreign)], ["--seed", "99999999"], ["--cap", "0"]):
        code, _, err = python_m(["tools.bots", "train"] + args, monkeypatch, capsys)
        assert code == 2, (args, err)
        assert "Traceback" not in err
    assert foreign.read_text() == "keep me\n"
    for args in (["compare", str(foreign), tune.OUT], ["compare", tune.OUT, tune.OUT, "--games",
                                                        "1"],
                 ["compare", tune.OUT, tune.OUT, "--skip", "49999"],
                 ["compare", tune.OUT, tune.OUT, "--cap", "0"],
                 ["compare", tune.OUT, tune.OUT, "--cap", "2600", "--player", "coach"],
                 ["weights-ram", "--module", str(foreign)],
                 ["cost", "--games", "0"], ["cost", "--skip", "39999"], ["cost", "--mode", "table"]):
        code, _, err = python_m(["tools.bots"] + args, monkeypatch, capsys)
        assert code == 2, (args, err)
        assert "Traceback" not in err


def test_compare_plays_new_with_its_own_search_budget():
    """tools/bots/compare.py --cap: NEW's `best` searches within that budget, OLD within CAP.
    Under a budget no round of samples fits, `best` plays engine.ai's plan (engine.lookahead);
    under CAP it does not, at some decision of these games."""
    table = ai_weights.SOLO
    differs = 0
    for seed in range(3):
        state, chance, rng = seeded(MODE_NAMES.index("solo"), seed, None)
        for action in steps(state, chance):
            if action == DECIDE:
                alone = tune.decide("planner", state, table, None)
                assert tune.decide("search", state, table, Rng(seed, 1), cap=1) == alone
                if tune.decide("search", state, table, Rng(seed, 1)) != alone:
                    differs += 1
                action = alone
            state.apply(action)
    assert differs


def test_weights_fit_in_4_kb_on_circuitpython():
    # Issue 26: the weights cost the board at most 4 KB of RAM. Measured on CircuitPython's
    # VM from the .mpy the board gets; the whole module (every mode) counts, not only the one
    # table a game keeps.
    for m in tune.MODES:
        assert len(getattr(ai_weights, m.upper())) == 2 * N_FEATURES * N_BUCKETS
    got = weights_ram.measure(tune.OUT)
    if got is None:
        pytest.skip(cpvm.missing(compiler=True))
    module, one_table = got
    assert 0 < one_table < module <= 4096, got


def test_cost_counts_alike_every_run_and_the_decisions_cpython_makes(circuitpython):
    """tools/bots/cost.py: the instructions CircuitPython's VM executes for the same games are
    the same from run to run (the point of counting rather than timing), and the decisions
    counted are those CPython makes (the same work and digest of the actions). A rival game:
    `best`'s decisions in it (48) are the same search as in a solo game, at half the
    instructions of one under callgrind (11 s of CPU a run, a solo game's 20 s)."""
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind not found (Debian's package valgrind)")
    first = seeds.REPORTED.start
    runs = [cost.count("rival", first, 1) for _ in range(2)]
    (a, got), (b, again) = runs
    assert got == again
    assert abs(a - b) <= a // 100000, runs  # within 10 parts in a million
    decisions, work, digest = cost_cp.play("rival", first, 1)
    assert got == {"decisions": decisions, "work": work, "digest": digest}
    assert a > 1000 * work  # each unit of work is thousands of instructions, not a stray count


def test_cost_names_what_failed_in_the_vm_not_valgrinds_summary(circuitpython, tmp_path,
                                                                monkeypatch):
    # The VM prints its traceback on stdout and valgrind its summary (==pid== lines) on stderr:
    # the one line cost.py prints must be the VM's error.
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind not found (Debian's package valgrind)")
    script = tmp_path / "fails.py"
    script.write_text("raise ValueError('no such game')\n")
    monkeypatch.setattr(cost, "SCRIPT", str(script))
    with pytest.raises(RuntimeError, match="the VM run failed: ValueError: no such game$"):
        cost.count("solo", seeds.REPORTED.start, 0)


def test_tune_runs_and_writes_only_its_own_weights_module(tmp_path):
    # Issue 36: tune failed on every run (tune.play() takes the search's cap since the cost
    # tool's change; tune gave it 4 arguments). The smallest real run, written to --out: a
    # weights module read back as data; a file of the user's at --out is refused, untouched.
    out = tmp_path / "weights.py"
    args = [sys.executable, "-m", "tools.bots", "tune", "--iters", "1", "--games", "2",
            "--holdout", "2", "--jobs", "1", "--player", "planner"]
    r = subprocess.run(args + ["--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "wrote %s" % out in r.stdout
    assert set(tune.read_weights(str(out))) == set(tune.MODES) and tune.made_by_tune(str(out))
    mine = tmp_path / "mine.py"
    mine.write_text("SOLO = (b'')\n")
    r = subprocess.run(args + ["--out", str(mine)], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "not replaced" in r.stderr and mine.read_text() == "SOLO = (b'')\n"
