"""The n-tuple evaluation (issue 39, engine/ntuple.py) and its training (tools/bots/ntrain.py,
`train --eval ntuple`): a position's value is engine.ai's plus the sum of its tables' entries,
tables of zeros play as `best`, the fit recovers tables that make the targets, training is the
same for the same seed, and the tables fit the 8 KB of RAM issue 39 allows on CircuitPython's
VM."""
import os
import re
import subprocess
import sys

import pytest

from engine import ntuple
from engine.ai import Planner, turns_left
from engine.lookahead import Search
from engine.playout import DECIDE, seeded, steps
from engine.rng import Rng
from engine.state import MODE_NAMES
from engine import ai_weights
from tools.bots import ntrain, weights_ram
from tools.vm import cpvm
from helpers import python_m

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _random_tables(seed):
    rng = Rng(seed)
    return ntrain.pack([rng.randbelow(255) - 127 for _ in range(ntuple.TABLE_BYTES)])


def _positions(seeds, mode="solo"):
    # Every decision of games the linear `best`'s planner plays.
    for seed in seeds:
        state, chance, _ = seeded(MODE_NAMES.index(mode), seed, None)
        for action in steps(state, chance):
            if action == DECIDE:
                yield state
                action = Planner(state, ai_weights.SOLO).choose()
            state.apply(action)


def test_a_position_is_worth_the_linear_value_plus_one_entry_of_each_table():
    # Issue 39: the evaluation is the sum of the entries its tuples look up, on top of
    # engine.ai's; checked where a position is valued as it stands (settled()) at every
    # decision of a few games, with tables of random entries, each index within its own table.
    tables = _random_tables(7)
    checked = 0
    for state in _positions(range(3)):
        linear = Planner(state, ai_weights.SOLO).settled()
        p = ntuple.NTuplePlanner(state, ai_weights.SOLO, tables=tables)
        got = p.settled()
        idx = ntuple.NTuplePlanner(state, ai_weights.SOLO).settled_indices()
        if turns_left(state) == 0:
            assert idx is None and got == linear  # the last turn: the exact score alone
            continue
        assert len(idx) == len(ntuple.SIZES)
        for j, i in enumerate(idx):
            assert ntuple.OFFSETS[j] <= i < ntuple.OFFSETS[j] + ntuple.N_PHASES * ntuple.SIZES[j]
        assert got - linear == 32768 * sum(ntuple.entry(tables, i) for i in idx)
        checked += 1
    assert checked > 30


def test_tables_of_zeros_play_as_best():
    # The first point of the learning curve is today's `best` (tools/bots/ntrain.py plays it
    # so): the n-tuple search with nothing learned decides alike at every decision.
    zeros = bytes(ntuple.TABLE_BYTES)
    for seed in range(2):
        state, chance, rng = seeded(MODE_NAMES.index("solo"), seed, None)
        for action in steps(state, chance):
            if action == DECIDE:
                a = Search(state, ai_weights.SOLO, Rng(seed, 1)).choose()
                b = ntuple.NTupleSearch(state, ai_weights.SOLO, Rng(seed, 1), False,
                                        tables=zeros).choose()
                assert a == b
                action = a
            state.apply(action)


def test_the_fit_recovers_tables_that_make_the_targets():
    # Least squares by backfitting: where the targets are the linear value plus the entries
    # of known tables (no noise, no ridge), the fit finds entries that give them again.
    rng = Rng(3)
    true = [rng.randbelow(200) - 100 for _ in range(ntuple.TABLE_BYTES)]
    samples = []
    for _ in range(3000):
        idx = tuple(ntuple.OFFSETS[j] + rng.randbelow(8) for j in range(len(ntuple.SIZES)))
        lin = rng.randbelow(100) / 10
        samples.append((idx, lin, lin + sum(true[i] for i in idx) / 16))
    fitted = ntrain.fit(samples, [0] * ntuple.TABLE_BYTES, 0.0, passes=60)
    for idx, lin, y in samples[:200]:
        assert lin + sum(fitted[i] for i in idx) / 16 == pytest.approx(y, abs=0.02)
    assert ntrain.unpack(ntrain.pack([-300, -5, 0, 7, 300])) == [-128, -5, 0, 7, 127]


def _train(tmp_path, name):
    tables = tmp_path / (name + ".py")
    png = tmp_path / (name + ".png")
    r = subprocess.run([sys.executable, "-m", "tools.bots", "train", "--eval", "ntuple",
                        "--iters", "1", "--games", "3", "--choose", "2", "--jobs", "1",
                        "--tables", str(tables), "--png", str(png)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert ntrain.made_by_ntrain(str(tables))
    return tables.read_text(), re.sub(r"\(\d+ s\)", "", r.stdout.replace(name + ".", "NAME."))


def test_ntuple_training_is_the_same_for_the_same_seed(tmp_path):
    a, log_a = _train(tmp_path, "a")
    b, log_b = _train(tmp_path, "b")
    assert a == b and log_a == log_b
    assert "seeds 100000-100002" in log_a
    assert ntrain.unpack(_module_tables(tmp_path / "a.py")) != [0] * ntuple.TABLE_BYTES


def _module_tables(path):
    return ntrain.read_tables(str(path))


def test_train_and_compare_refuse_other_modes_and_foreign_tables(tmp_path, monkeypatch, capsys):
    foreign = tmp_path / "notes.py"
    foreign.write_text("keep me\n")
    weights = os.path.join(ROOT, "engine", "ai_weights.py")
    tables = os.path.join(ROOT, "engine", "ntuple_weights.py")
    for args in (["train", "--eval", "ntuple", "--mode", "rival"],
                 ["train", "--eval", "ntuple", "--tables", str(foreign)],
                 ["compare", weights, weights, "--tables", str(foreign)],
                 ["compare", weights, weights, "--tables", weights],
                 ["compare", weights, weights, "--tables", weights, "--mode", "rival"],
                 # The tables play `best` or the coach (compare --player coach --tables), in
                 # solo only: not engine.ai's planner alone, not the coach in rival mode.
                 ["compare", weights, weights, "--tables", tables, "--player", "planner"],
                 ["compare", weights, weights, "--tables", tables, "--player", "coach",
                  "--mode", "rival"]):
        code, _, err = python_m(["tools.bots"] + args, monkeypatch, capsys)  # in this process
        assert code == 2, (args, err)
        assert "Traceback" not in err
    assert foreign.read_text() == "keep me\n"


def test_tables_fit_in_8_kb_on_circuitpython():
    # Issue 39: the tables cost the board at most 8 KB of RAM, measured on CircuitPython's VM
    # from the .mpy it would get (weights-ram's measure: the module, and its table kept alone).
    from engine import ntuple_weights  # train --eval ntuple's

    assert len(ntuple_weights.SOLO) == ntuple.TABLE_BYTES
    got = weights_ram.measure(ntuple_weights.__file__)
    if got is None:
        pytest.skip(cpvm.missing(compiler=True))
    module, one_table = got
    assert ntuple.TABLE_BYTES <= one_table <= module <= 8192, got
