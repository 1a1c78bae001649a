"""The built-in players (engine/bots.py, engine/ai.py): legal records, the exact one-turn
search of `greedy` against a brute force over the engine itself, no peeking at hidden cards, and
the hint. (The penalty-order shortcut the planner uses is tested in test_order.py.)"""
import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from engine import ai
from engine.advice import derail_cost, why
from engine.bots import BOTS, HINT_CAP, hint, weights
from engine.lookahead import Search
from engine.cards import VALUE, KIND, KIND_CHAOS
from engine.record import check
from engine.risk import wheel_counts
from engine.playout import DECIDE, seeded, steps
from engine.rng import Rng
from engine.selfplay import play
from engine.deal import new_game
from engine.state import (
    A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, A_ROLL0, A_ROLL1, MODE_NAMES, P_DICE, P_TURN,
    P_BEND, P_BUILD, P_CHAOS, P_ORDER,
)
from tools.bots.tune import features, pack, unpack

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CONFIGS = [("solo", None), ("challenge", None), ("rival", None), ("table", 2), ("table", 4)]


def positions(mode, players, seeds, bot="best"):
    """Yields every state where a bot decides, in seeded games played by `bot`."""
    for seed in seeds:
        s, chance, rng = seeded(MODE_NAMES.index(mode), seed, players)
        for a in steps(s, chance):
            if a == DECIDE:
                yield s
                a = BOTS[bot](s, rng)
            s.apply(a)


@pytest.mark.parametrize("bot", ["greedy", "best"])
@pytest.mark.parametrize("mode,players", CONFIGS)
def test_records_replay_as_legal(bot, mode, players):
    # docs/rules.md §10: a bot's game, written as a record and read back, replays step by step to the
    # result the record claims (JSON round trip included, as `python -m engine.replay` does).
    for seed in range(6):
        record = json.loads(json.dumps(play(mode, seed, players, bot)))
        result, claimed = check(record)
        assert claimed is None, (seed, result, claimed)
        assert result == record["result"]


# ------------------------------------------------------------------ greedy is exact


def _turn_value(s, seat, turn):
    # The exact expected score of `seat` at the end of its turn, playing the rest of the turn
    # perfectly (min over every legal step, every order of penalty cards) over the dice (§1).
    if s.is_terminal() or s.turn != turn:
        score = s.score(seat)
        if not s.is_terminal() and s.seat == seat:
            score -= VALUE[s.hands[seat][-1]]  # the next turn's draw is not this turn's
        return Fraction(score)
    if s.phase == P_DICE:
        # Only the number of wheels matters: C(n, k) 2^k of the 3^n outcomes show k wheels.
        n = s.dice_left
        counts = wheel_counts(n)
        total = Fraction(0)
        for k in range(n + 1):
            c = s.clone()
            for i in range(n):
                c.apply(A_ROLL1 if i < k else A_ROLL0)
            total += counts[k] * _turn_value(c, seat, turn)
        return total / 3 ** n
    best = None
    for a in s.legal_actions():
        c = s.clone()
        c.apply(a)
        v = _turn_value(c, seat, turn)
        if best is None or v < best:
            best = v
    return best


def _small(s):
    # Positions the brute force finishes quickly: few dice and few cards of one value.
    hand = s.hands[s.seat]
    per_value = [0, 0, 0, 0, 0]
    for c in hand:
        if KIND[c] != KIND_CHAOS:
            per_value[VALUE[c]] += VALUE[c]
    return max(per_value) + s.build_sum <= 8 and len(s.penalty) <= 5


def test_greedy_takes_the_lowest_expected_score_after_the_turn():
    # The issue: greedy is one ply, the lowest expected score after this turn, exact over the
    # dice. Checked against a brute force that knows nothing of engine.ai: it plays every
    # legal step on clones of the State, every roll count with its exact odds (§1), every
    # penalty order (§6). The action greedy picks must start a plan worth the optimum (to
    # within its rounding of the dice odds to 1/32768).
    checked = 0
    phases = set()
    for mode, players in (("solo", None), ("rival", None), ("table", 3)):
        for s in positions(mode, players, range(4), bot="greedy"):
            if not _small(s):
                continue
            seat, turn = s.seat, s.turn
            values = {}
            for a in s.legal_actions():
                c = s.clone()
                c.apply(a)
                values[a] = _turn_value(c, seat, turn)
            chosen = BOTS["greedy"](s, None)
            assert chosen in values
            assert values[chosen] - min(values.values()) < Fraction(1, 100), (
                mode, s.turn, s.phase, chosen, values)
            checked += 1
            phases.add(s.phase)
    assert checked > 300
    assert phases == {P_TURN, P_BEND, P_BUILD, P_CHAOS, P_ORDER}


def test_dice_weights_are_the_exact_odds_rounded():
    # docs/rules.md §1: a die shows a wheel with chance 2/3; k wheels of n dice: C(n,k) 2^k / 3^n.
    # (A build and its additions can reach 48 dice: 6 + 6 cards of 4.)
    for n in range(1, 49):
        p = ai.dice_weights(n)
        assert sum(p) == 32768
        counts = wheel_counts(n)
        for k in range(n + 1):
            assert abs(p[k] - Fraction(counts[k] * 32768, 3 ** n)) <= 1 + n // 8


# (That the bots never peek at hidden cards is host_tests/test_fairness.py's.)


# ------------------------------------------------------------------ hint


def test_hint_is_best_and_says_why():
    # The device's hint: for every decision a person makes (turn, bend, build, chaos, order),
    # what `best` would do, and why (engine.advice: at least a line, none longer than the
    # hint's panel line, lnr.ui PANEL_W). Its look-ahead draws from the hint's own stream,
    # seeded by the turn: asked twice, the same hint.
    seen = set()
    for mode, players in CONFIGS:
        for s in positions(mode, players, range(3)):
            action, search = hint(s)
            assert action in s.legal_actions()
            # `best`'s search with the hint's budget (engine.bots HINT_CAP), at the table too,
            # where a bot's own decisions have none (engine.bots best_bot); without the learned
            # tables, which the board has no room for at the hint (docs/bots.md).
            assert action == Search(s, weights(s.mode), Rng(s.turn, 2), False,
                                    HINT_CAP).choose()
            assert action == hint(s)[0]
            if not A_LAY <= action < A_CHAOS and action not in (A_BEND_L, A_BEND_R):
                title, head, risk, tail = why(s, action, search.options, search.values)
                assert tail and all(0 < len(x) <= 22 for x in [title] * bool(title) + head + tail)
            seen.add(s.phase)
    assert seen == {P_TURN, P_BEND, P_BUILD, P_CHAOS, P_ORDER}


def test_hint_reasons_name_the_risk():
    # A roll's hint gives the build's exact chance of derailing (§5) and why: its dice against
    # the cards ahead, and what a derailment would add to the score.
    for s in positions("solo", None, range(10)):
        action, search = hint(s)
        if s.phase == P_BUILD and action == A_STOP:
            title, head, risk, tail = why(s, action, search.options, search.values)
            assert head == ["Roll the dice"] and risk[:2] == s.build_risk()
            assert tail[0] == "%d dice, %d ahead" % (s.build_sum, s.ahead())
            cost = derail_cost(s)
            assert tail[1] == ("Can't derail" if cost is None else "Derail %+d" % cost)
            return
    pytest.fail("no build stopped in these games")


def test_no_hint_where_nobody_decides():
    s = new_game(MODE_NAMES.index("rival"), Rng(3))
    assert s.is_rival(s.seat)
    assert hint(s) == (None, None)


# ------------------------------------------------------------------ tuner consistency


def test_tuner_features_are_what_the_planner_values():
    # tools/bots/tune.py fits weights on features it computes itself; the planner must value a
    # position by exactly those features (else the fitted weights mean something else).
    rng = Rng(99)
    weights = [rng.randbelow(61) - 30 for _ in range(ai.N_FEATURES * ai.N_BUCKETS)]
    assert unpack(pack(weights)) == weights
    n = 0
    for mode, players in CONFIGS:
        for s in positions(mode, players, range(2), bot="random"):
            if s.phase != P_TURN or ai.turns_left(s) == 0:
                continue
            p = ai.Planner(s, pack(weights))
            got = p.still(0, ai.open_ahead(s.cells, s.head)) // 32768
            row = ai.bucket(ai.turns_left(s)) * ai.N_FEATURES
            f = features(s, s.seat, s.hands[s.seat])
            want = 16 * s.score(s.seat) + sum(
                weights[row + i] * f[i] for i in range(ai.N_FEATURES))
            assert got == want
            n += 1
    assert n > 100


def test_a_table_bots_plan_loads_no_look_ahead():
    # At the table `best` plays engine.ai's plan alone (engine/bots.py best_bot): the switch that
    # plans a bot's turn on the board (lnr/play/plan.py) then loads neither engine.lookahead's
    # code nor its RAM, which left the room for the play screen's view beside it (lnr/app.py
    # _VIEW). In a fresh interpreter: this process has loaded the look-ahead already.
    script = (
        "import sys\n"
        "from engine.bots import best_bot\n"
        "from engine.playout import play_out, seeded\n"
        "from engine.state import MODE_TABLE\n"
        "for players in (2, 3, 4):\n"
        "    s, chance, rng = seeded(MODE_TABLE, players, players)\n"
        "    play_out(s, chance, best_bot, rng)\n"
        "print('engine.lookahead' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True)
    assert out.stdout.split() == ["False"]
