"""The n-tuple evaluation (issue 39: engine.ai adds the entries, engine/ntuple.py reads the
tables) and its training (tools/bots/ntrain.py, `train --eval ntuple`): a position's value is
engine.ai's plus the sum of its tables' entries, tables of zeros play as `best` without, a
decision reads its phase's blocks and a file that is not one is refused, the fit recovers
tables that make the targets, training is the same for the same seed, and the tables fit the
8 KB of RAM issue 39 allows on CircuitPython's VM."""
import os
import re
import subprocess
import sys

import pytest

from engine import ntuple
from engine.ai import N_PHASES, T_AHEAD, T_BEHIND, T_BLOCK, T_END, Planner, phase, turns_left
from engine.bots import best_bot
from engine.lookahead import CAP, Search
from engine.playout import DECIDE, seeded, steps
from engine.rng import Rng
from engine.state import MODE_NAMES, MODE_SOLO
from engine import ai_weights
from tools.bots import ntrain, tune, weights_ram
from tools.vm import cpvm
from helpers import python_m

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _random_tables(seed):
    rng = Rng(seed)
    return ntuple.blocks(ntrain.pack([rng.randbelow(255) - 127 for _ in range(ntrain.ENTRIES)]))


def _positions(seeds, mode="solo"):
    # Every decision of games the linear `best`'s planner plays.
    for seed in seeds:
        state, chance, _ = seeded(MODE_NAMES.index(mode), seed, None)
        for action in steps(state, chance):
            if action == DECIDE:
                yield state
                action = Planner(state, ai_weights.SOLO).choose()
            state.apply(action)


# Where each tuple's table starts in a phase's block, and where the next starts (engine.ai).
_TUPLES = ((0, T_END), (T_END, T_AHEAD), (T_AHEAD, T_BEHIND), (T_BEHIND, T_BLOCK))


def test_a_position_is_worth_the_linear_value_plus_one_entry_of_each_table():
    # Issue 39: the evaluation is the sum of the entries its tuples look up, on top of
    # engine.ai's; checked where a position is valued as it stands (settled()) at every
    # decision of a few games, with tables of random entries: one entry of each tuple's table
    # of the phase's block (tune.entries() notes which), and the value moves by their sum.
    tables = _random_tables(7)
    flat = [b - 128 for block in tables for b in block]
    checked = 0
    for state in _positions(range(3)):
        turns = turns_left(state)
        linear = Planner(state, ai_weights.SOLO).settled()
        got = Planner(state, ai_weights.SOLO, tables=tables).settled()
        idx = tune.entries(state, ai_weights.SOLO, state.seat, state.hands[state.seat], turns)
        if turns == 0:
            assert idx is None and got == linear  # the last turn: the exact score alone
            continue
        assert len(idx) == len(_TUPLES)
        base = phase(turns) * T_BLOCK
        for (first, after), i in zip(_TUPLES, idx):
            assert base + first <= i < base + after
        assert got - linear == 32768 * sum(flat[i] for i in idx)
        checked += 1
    assert checked > 30


def test_tables_of_zeros_play_as_best():
    # The first point of the learning curve is today's `best` without tables (tools/bots/
    # ntrain.py plays it so): tables of zeros change no value, so with work enough for every
    # sample (their lookups are counted as work: a capped search would sample less) the
    # search decides alike at every decision.
    zeros = ntuple.blocks(ntrain.pack([0] * ntrain.ENTRIES))
    for seed in range(2):
        state, chance, rng = seeded(MODE_NAMES.index("solo"), seed, None)
        for action in steps(state, chance):
            if action == DECIDE:
                a = Search(state, ai_weights.SOLO, Rng(seed, 1), False, 100 * CAP).choose()
                b = Search(state, ai_weights.SOLO, Rng(seed, 1), False, 100 * CAP,
                           zeros).choose()
                assert a == b
                action = a
            state.apply(action)


def test_a_decision_reads_the_blocks_of_its_phase_and_the_next_turns():
    # The board holds one or two blocks while it decides (engine.ntuple tables()): its own
    # phase's and, where the next turn is in another, that one's too; none on the last turn
    # (valued exactly) nor in a mode without learned tables.
    with open(ntuple.path(MODE_SOLO), "rb") as f:
        every = ntuple.blocks(f.read())
    for turns in range(1, 40):
        got = ntuple.tables(MODE_SOLO, turns)
        wanted = {phase(t) for t in (turns, turns - 1) if t > 0}
        assert {p for p in range(N_PHASES) if got[p] is not None} == wanted, turns
        for p in wanted:
            assert bytes(got[p]) == every[p]
    assert ntuple.tables(MODE_SOLO, 0) is None
    assert all(ntuple.tables(m, 10) is None for m in range(len(MODE_NAMES)) if m != MODE_SOLO)


def test_a_tables_file_that_is_not_one_is_not_read(tmp_path, monkeypatch):
    # A board flashed part way: the file cut short, something else in its place, or none.
    # `best` then goes on without tables, deciding as the search without them.
    good = open(ntuple.path(MODE_SOLO), "rb").read()
    state = next(s for s in _positions([5]) if turns_left(s) > 15)  # the last block
    plain = Search(state, ai_weights.SOLO, Rng(5, 1), False, CAP).choose()
    for data in (good[:-1], b"x" + good[1:], b""):
        bad = tmp_path / "ntuple_solo.bin"
        bad.write_bytes(data)
        monkeypatch.setattr(ntuple, "path", lambda mode: str(bad))
        assert ntuple.tables(MODE_SOLO, 20) is None
        assert best_bot(state, Rng(5, 1)) == plain
    bad.unlink()
    assert ntuple.tables(MODE_SOLO, 20) is None and best_bot(state, Rng(5, 1)) == plain


def test_the_fit_recovers_tables_that_make_the_targets():
    # Least squares by backfitting: where the targets are the linear value plus the entries
    # of known tables (no noise, no ridge), the fit finds entries that give them again.
    rng = Rng(3)
    true = [rng.randbelow(200) - 100 for _ in range(ntrain.ENTRIES)]
    samples = []
    for _ in range(3000):
        idx = tuple(T_BLOCK + first + rng.randbelow(8) for first, _ in _TUPLES)
        lin = rng.randbelow(100) / 10
        samples.append((idx, lin, lin + sum(true[i] for i in idx) / 16))
    fitted = ntrain.fit(samples, [0] * ntrain.ENTRIES, 0.0, passes=60)
    for idx, lin, y in samples[:200]:
        assert lin + sum(fitted[i] for i in idx) / 16 == pytest.approx(y, abs=0.02)
    assert ntrain.unpack(ntrain.pack([-300, -5, 0, 7, 300])) == [-128, -5, 0, 7, 127]


def _train(tmp_path, name):
    tables = tmp_path / (name + ".bin")
    png = tmp_path / (name + ".png")
    r = subprocess.run([sys.executable, "-m", "tools.bots", "train", "--eval", "ntuple",
                        "--iters", "1", "--games", "3", "--choose", "2", "--jobs", "1",
                        "--tables", str(tables), "--png", str(png)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert ntrain.made_by_ntrain(str(tables))
    return tables.read_bytes(), re.sub(r"\(\d+ s\)", "", r.stdout.replace(name + ".", "NAME."))


def test_ntuple_training_is_the_same_for_the_same_seed(tmp_path):
    a, log_a = _train(tmp_path, "a")
    b, log_b = _train(tmp_path, "b")
    assert a == b and log_a == log_b
    assert "seeds 100000-100002" in log_a
    assert len(a) == ntuple.FILE_BYTES and ntrain.unpack(a) != [0] * ntrain.ENTRIES
    assert ntrain.read_tables(str(tmp_path / "a.bin")) == ntuple.blocks(a)


def test_train_and_compare_refuse_other_modes_and_foreign_tables(tmp_path, monkeypatch, capsys):
    foreign = tmp_path / "notes.py"
    foreign.write_text("keep me\n")
    weights = os.path.join(ROOT, "engine", "ai_weights.py")
    tables = ntuple.path(MODE_SOLO)
    for args in (["train", "--eval", "ntuple", "--mode", "table"],
                 ["train", "--eval", "ntuple", "--tables", str(foreign)],
                 ["compare", weights, weights, "--tables", str(foreign)],
                 ["compare", weights, weights, "--tables", weights],
                 ["compare", weights, weights, "--old-tables", str(foreign)],
                 ["train", "--eval", "ntuple", "--start", str(foreign)],
                 ["train", "--start", tables],  # the tables train on only with --eval ntuple
                 # The tables play `best` or the coach (compare --player coach --tables), where
                 # `best` searches: not engine.ai's planner alone, not at the table.
                 ["compare", weights, weights, "--tables", tables, "--player", "planner"],
                 ["compare", weights, weights, "--tables", tables, "--mode", "table"],
                 ["compare", weights, weights, "--old-tables", tables, "--mode", "table"],
                 ["compare", weights, weights, "--tables", tables, "--player", "coach",
                  "--mode", "table"]):
        code, _, err = python_m(["tools.bots"] + args, monkeypatch, capsys)  # in this process
        assert code == 2, (args, err)
        assert "Traceback" not in err
    assert foreign.read_text() == "keep me\n"


def test_tables_fit_in_8_kb_on_circuitpython():
    # Issue 39: the tables cost the board at most 8 KB of RAM, measured on CircuitPython's VM
    # as engine.ntuple reads them for a decision (weights-ram: one phase's block, two).
    line = weights_ram.measure_tables(ntuple.path(MODE_SOLO))
    if line is None:
        pytest.skip(cpvm.missing())
    got = dict(item.split("=") for item in line.split() if "=" in item)
    one, two = int(got["one_phase"]), int(got["two_phases"])
    assert T_BLOCK <= one and 2 * T_BLOCK <= two <= 8192, line


def test_compare_plays_the_old_side_with_its_own_tables(monkeypatch, capsys):
    # compare --old-tables (the rule that judges new tables against the board's, docs/bots.md):
    # the same tables on both sides play the same games, a difference of exactly 0, and each
    # side's line names them; without them OLD plays other games (the weights alone).
    weights = os.path.join(ROOT, "engine", "ai_weights.py")
    tables = ntuple.path(MODE_SOLO)
    base = ["tools.bots", "compare", weights, weights, "--games", "3", "--jobs", "1",
            "--tables", tables, "--cap", "300", "--old-cap", "300"]
    code, out, err = python_m(base + ["--old-tables", tables], monkeypatch, capsys)
    assert code == 0, err
    assert "paired by seed: +0.000 ± 0.000" in out, out
    assert out.count("ai_weights.py + " + tables) == 2, out
    code, out, err = python_m(base, monkeypatch, capsys)
    assert code == 0 and "paired by seed: +0.000 ± 0.000" not in out, out
