"""`best` beats `greedy` (the issue's bar), on the same seeded games: a solo mean at least 20%
lower (docs/rules.md §7), more challenges survived (§8: no 4th derailment) and more rival games won
(§8). `make bench` prints the same on 500 seeds; here fewer keep the suite quick. The games are
seeded, so this is deterministic: it fails only if a change makes `best` weaker.

Each game is played once for the module (_play is cached, the module kept on one pytest worker:
its xdist_group), and the bots are compared seed by seed, on the same deal and dice: the sums
below are of pairs, a seed each, so the bars hold on fewer seeds where the lead is wide. `best`'s
solo games (40: a game of `best`'s costs 0.1 CPU-s) serve the bar against `greedy` and against
the bot before its look-ahead, both leads as wide a game on 40 seeds as on 120. The challenge,
where `best` survives every game of 120 and `greedy` none, is shown on 10 of them (a pair a
seed: `best` survives and `greedy` does not, on each). The rival's lead, the closest (61 to 28
games won of 120), keeps all 120. On these seeds the bars against `greedy` fail with `best`
replaced by `greedy` or `random`, the look-ahead's with `best` replaced by the bot before it or
by today's planner without it.
"""
import functools

import pytest

from engine.bots import BOTS
from engine.playout import play_out, seeded
from engine.state import MODE_NAMES

SEEDS = range(1000, 1120)  # not the bench's 0-499, nor the tuner's
SOLO_SEEDS = SEEDS[:40]
CHALLENGE_SEEDS = SEEDS[:10]

# One pytest worker runs the module (make pytest: --dist loadgroup): the games cached once.
pytestmark = pytest.mark.xdist_group("test_bots_strength")


@functools.lru_cache(maxsize=None)
def _play(bot, mode, seed):
    state, chance, rng = seeded(MODE_NAMES.index(mode), seed)
    me = state.players - 1
    play_out(state, chance, BOTS[bot], rng)
    return state.score(me), state.lost, state.winners() == [me]


def _totals(bot):
    solo = sum(_play(bot, "solo", s)[0] for s in SOLO_SEEDS)
    survived = sum(not _play(bot, "challenge", s)[1] for s in CHALLENGE_SEEDS)
    won = sum(_play(bot, "rival", s)[2] for s in SEEDS)
    return solo, survived, won


def test_best_beats_greedy():
    g_solo, g_survived, g_won = _totals("greedy")
    b_solo, b_survived, b_won = _totals("best")
    assert b_solo <= 0.8 * g_solo, (b_solo, g_solo)
    assert b_survived > g_survived, (b_survived, g_survived)
    assert b_won > g_won, (b_won, g_won)
    # Seed by seed (§8: no 4th derailment): where `greedy` survives a challenge, so does `best`.
    assert not [s for s in CHALLENGE_SEEDS
                if not _play("greedy", "challenge", s)[1] and _play("best", "challenge", s)[1]]


def test_greedy_beats_random():
    # The baseline the others are measured from: one turn of look-ahead already halves the
    # solo score of random play.
    r_solo = sum(_play("random", "solo", s)[0] for s in SEEDS)
    g_solo = sum(_play("greedy", "solo", s)[0] for s in SEEDS)
    assert g_solo <= 0.6 * r_solo, (g_solo, r_solo)


def test_best_beats_greedy_at_the_table():
    # Table mode (§8), two seats, `best` and `greedy` taking turns to start: `best` must win
    # clearly more than half (shared wins split). With 3 or 4 seats its lead is smaller (its
    # seats win about 55% of the games where chance would give them 50%, over 900 seeds):
    # too little to show on a few seeds.
    share = 0.0
    for seed in SEEDS:
        roles = ["best", "greedy"] if seed % 2 else ["greedy", "best"]
        state, chance, rng = seeded(MODE_NAMES.index("table"), seed, 2)
        play_out(state, chance, lambda s, r: BOTS[roles[s.seat]](s, r), rng)
        winners = state.winners()
        for seat in winners:
            if roles[seat] == "best":
                share += 1 / len(winners)
    assert share > 0.56 * len(SEEDS), share


def test_best_looks_ahead_to_a_lower_solo_score_than_before():
    # Issue 12: `best`'s look-ahead (engine.lookahead) over the planner alone with the weights
    # it had (tools/bots/best_before.py): on the same seeds, at least a point lower on average.
    from tools.bots.best_before import best_before_bot

    solo = {"best": sum(_play("best", "solo", s)[0] for s in SOLO_SEEDS), "before": 0}
    for seed in SOLO_SEEDS:
        state, chance, rng = seeded(MODE_NAMES.index("solo"), seed)
        solo["before"] += play_out(state, chance, best_before_bot, rng).score(0)
    assert solo["best"] <= solo["before"] - len(SOLO_SEEDS), solo
