"""The coach (engine/coach.py, desktop only) with engine.ntuple's tables at its leaves and in its
rollouts (issue 39): the tables do reach every place the coach values a position, tables of
zeros play as the linear coach, its decisions are the same for the same seed and legal at every
step of many random games (the 55 cards each in one place, docs/rules.md §1), and the engine/
modules keep to the CircuitPython subset docs/engine.md and the guide's standards name."""
import ast
import os

import pytest

from helpers import assert_accounted

from engine import ai_weights, coach, ntuple
from engine.ai import N_PHASES, T_BLOCK
from engine.bots import HINT_CAP, random_bot
from engine.playout import DECIDE, seeded, steps
from engine.rng import Rng
from engine.selfplay import find_bot
from engine.state import MODE_NAMES, MODE_RIVAL, MODE_SOLO, P_ORDER

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZEROS = [bytes([128]) * T_BLOCK] * N_PHASES  # every entry 0 (engine.ai: 128 more)
SOLO = coach.ntuple_tables(MODE_SOLO)  # the learned ones


def small(state, rng, tables):
    # The coach with 2 samples an option: the same code as with its SAMPLES, fast for a test;
    # engine.ai's planner plays its samples, whose valuing with the tables these tests check
    # (`best`'s search counts the tables' lookups as work: with zeros it would search less).
    return coach.Coach(state, rng, samples=2, first=2, tables=tables, searched=0).choose()


def _decisions(seed, every=3):
    # Positions of a solo game the random bot plays, every `every`-th decision (the coach's
    # choices then start from all kinds of positions, not only its own).
    state, chance, rng = seeded(MODE_SOLO, seed)
    n = 0
    for action in steps(state, chance):
        if action == DECIDE:
            if n % every == 0:
                yield state
            n += 1
            action = random_bot(state, rng)
        state.apply(action)


def test_the_tables_reach_the_rollouts_and_their_leaves():
    # A rollout cut at its horizon ends on engine.ai's value of the seat's next turn: with the
    # tables it must differ from the linear one somewhere, and tables of zeros
    # must give the linear rollout exactly (the same dice, the same choices, the same leaf).
    differs = 0
    checked = 0
    for seed in range(4):
        for state in _decisions(seed, every=7):
            if state.phase == P_ORDER:
                continue
            values = []
            for tables in (None, ZEROS, SOLO):
                values.append(coach.rollout(state.clone(), state.seat, Rng(seed, 3),
                                            ai_weights.SOLO, 2, tables))
            assert values[0] == values[1]
            differs += values[2] != values[0]
            checked += 1
    assert checked > 20
    assert differs > checked // 4, (differs, checked)


def test_tables_of_zeros_decide_as_the_linear_coach():
    # The same rng state, the same samples: zeros add nothing to any value, so every choice
    # and every number drawn from the rng is the same.
    n = 0
    for seed in (2, 3):
        for state in _decisions(seed, every=5):
            r1 = Rng(seed, 9)
            r2 = Rng(seed, 9)
            assert small(state, r1, None) == small(state, r2, ZEROS)
            assert r1.getstate() == r2.getstate()
            n += 1
    assert n > 10


def _game(seed, bot):
    # A whole solo game: the actions taken, the final score.
    state, chance, rng = seeded(MODE_SOLO, seed)
    actions = []
    for action in steps(state, chance, bot, rng):
        actions.append(action)
        state.apply(action)
    return actions, state.score(0)


def test_the_ntuple_coach_is_the_same_for_the_same_seed():
    # docs/rules.md §10: a seeded game is its seed; the coach draws its samples from the seed's
    # bot stream only (engine.playout), so the same seed gives the same game twice. One seed's
    # game is enough: each of its 20-odd decisions draws its samples' deals and dice, so a draw
    # from any other source (the random module, the clock) changes some decision of it (a
    # second seed doubled the test's 11 s of CPU).
    def bot(state, rng):
        return small(state, rng, SOLO)

    first = _game(5, bot)
    assert first == _game(5, bot)
    assert len(first[0]) > 20


def test_the_ntuple_coach_plays_legally_from_many_random_positions():
    # Random positions of 30 solo games (the random bot's, every 9th decision): the coach with
    # the tables takes a legal action, and after it the 55 cards are each in one place (§1).
    decided = 0
    for seed in range(100, 130):
        for state in _decisions(seed, every=9):
            legal = state.legal_actions()
            action = small(state, Rng(seed, 9), SOLO)
            assert action in legal, (seed, state.turn, action)
            after = state.clone()
            after.apply(action)
            assert_accounted(after, "seed %d turn %d after the coach's step" % (seed, state.turn))
            decided += 1
    assert decided > 100


def test_coach_ntuple_plays_solo_with_the_learned_tables_and_elsewhere_as_the_coach():
    # The bot `coach-ntuple` (engine.selfplay, bench --coach-bots): solo's tables are the only
    # ones learned, so in rival mode it is the linear coach.
    with open(ntuple.path(MODE_SOLO), "rb") as f:
        assert SOLO == ntuple.blocks(f.read())
    assert coach.ntuple_tables(MODE_RIVAL) is None
    assert find_bot("coach-ntuple") is coach.coach_ntuple_bot
    state, chance, rng = seeded(MODE_NAMES.index("rival"), 4)
    state.start()
    while state.is_chance() or state.is_rival(state.seat):
        state.apply(state.sample_chance(chance) if state.is_chance() else state.rival_action())
    r1 = Rng(4, 9)
    r2 = Rng(4, 9)
    assert coach.coach_ntuple_bot(state, r1) == coach.coach_bot(state, r2)
    assert r1.getstate() == r2.getstate()


# The guide's subset for engine/ (the board's CircuitPython and MicroPython have none of these,
# and the board's modules share one source with the desktop's): no dataclasses, enum, typing at
# runtime, itertools, functools; no board, displayio, time or random; no random.shuffle (the
# engine shuffles with engine.rng); no f-string's !r conversion.
FORBIDDEN_MODULES = ("dataclasses", "enum", "typing", "itertools", "functools", "board",
                     "displayio", "time", "random")


def subset_problems(source, name):
    """Returns the lines of `source` (a module's text) that leave the engine's subset."""
    out = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mods = [node.module or ""]
        else:
            mods = []
        for m in mods:
            if m.split(".")[0] in FORBIDDEN_MODULES:
                out.append("%s:%d imports %s" % (name, node.lineno, m))
        if (isinstance(node, ast.Attribute) and node.attr == "shuffle"
                and isinstance(node.value, ast.Name) and node.value.id == "random"):
            out.append("%s:%d random.shuffle" % (name, node.lineno))
        if isinstance(node, ast.FormattedValue) and node.conversion == ord("r"):
            out.append("%s:%d an f-string's !r" % (name, node.lineno))
    return out


def test_the_subset_check_finds_what_it_forbids():
    bad = ("import itertools\nfrom functools import reduce\nimport dataclasses\n"
           "from enum import Enum\nimport random\nrandom.shuffle(x)\ny = f'{x!r}'\n"
           "import time\n")
    assert len(subset_problems(bad, "bad.py")) == 8
    assert subset_problems("from engine.rng import Rng\ny = f'{x}'\nz = '%r' % x\n",
                           "good.py") == []


def test_engine_modules_keep_to_the_subset():
    engine = os.path.join(ROOT, "engine")
    names = sorted(n for n in os.listdir(engine) if n.endswith(".py"))
    assert "coach.py" in names and "ntuple.py" in names
    problems = []
    for n in names:
        with open(os.path.join(engine, n), encoding="utf-8") as f:
            problems += subset_problems(f.read(), "engine/" + n)
    assert problems == []


def test_compare_plays_the_coach_with_the_tables():
    # compare --player coach --tables plays tools.bots.tune's player "coach-ntuple": the coach
    # with the weights and the tables of the pair it is given.
    from tools.bots import tune

    state = next(_decisions(8))  # the game's first decision: a turn's, with options
    assert state.phase != P_ORDER and len(coach.options(state)) > 1
    pair = (ai_weights.SOLO, SOLO)
    r1 = Rng(8, 9)
    r2 = Rng(8, 9)
    got = tune.decide("coach-ntuple", state, pair, r1)
    assert got == coach.Coach(state, r2, ai_weights.SOLO, tables=SOLO).choose()
    assert r1.getstate() == r2.getstate()


@pytest.mark.parametrize("player, kwargs", [("coach-end", {"horizon": 0}),
                                            ("coach-wide", {"samples": 4 * coach.SAMPLES}),
                                            ("coach-near", {"horizon": coach.HORIZON - 1}),
                                            ("coach-far", {"horizon": coach.HORIZON + 1}),
                                            ("coach-best", {"searched": HINT_CAP}),
                                            ("coach-planner", {"searched": 0})])
def test_compare_plays_the_coach_s_variants(player, kwargs):
    # compare --player coach-end plays tools.bots.tune's player "coach-end": the coach whose
    # samples go to the game's end (horizon 0), not its HORIZON turns; coach-wide the coach
    # with four times its SAMPLES at most; coach-near and coach-far a turn shorter and longer;
    # coach-best the coach whose samples play the seat by `best` within the hint's budget (in
    # every mode), coach-planner by engine.ai's planner (in every mode).
    from tools.bots import tune

    state = next(_decisions(8))
    assert coach.HORIZON > 0 and len(coach.options(state)) > 1
    r1 = Rng(8, 9)
    r2 = Rng(8, 9)
    got = tune.decide(player, state, ai_weights.SOLO, r1)
    assert got == coach.Coach(state, r2, ai_weights.SOLO, **kwargs).choose()
    assert r1.getstate() == r2.getstate()


def test_the_coach_values_without_a_tables_file_that_is_not_whole(monkeypatch, tmp_path):
    # A cut or foreign file beside engine.ntuple (a copy stopped part way) is not read as
    # tables: the coach plays without, as `best` does (engine.ntuple tables()).
    with open(ntuple.path(MODE_SOLO), "rb") as f:
        whole = f.read()
    for data in (whole[:-1], b"x" + whole[1:], whole + b"\0"):
        bad = tmp_path / "ntuple_solo.bin"
        bad.write_bytes(data)
        monkeypatch.setattr(ntuple, "path", lambda mode: str(bad))
        assert coach.ntuple_tables(MODE_SOLO) is None
    bad.write_bytes(whole)
    assert coach.ntuple_tables(MODE_SOLO) == ntuple.blocks(whole)
