"""Random-simulation conformance: thousands of seeded games over every mode with random legal
play, checking the engine's invariants after every single step (docs/style.md, Tests)."""
import json

import pytest

from engine.cards import KIND, KIND_CHAOS, VALUE
from engine.playout import seeded, steps
from engine.record import Recorder, replay
from engine.codes import A_END, P_OVER
from engine.state import IllegalAction, MODE_NAMES, MODE_CHALLENGE, MODE_RIVAL
from engine.bots import random_bot
from helpers import assert_accounted

# (mode, players) and how many seeded games of each: 2 000 in all.
CONFIGS = [
    ("solo", None, 600),
    ("challenge", None, 500),
    ("rival", None, 500),
    ("table", 2, 150),
    ("table", 3, 150),
    ("table", 4, 100),
]


def check_invariants(state):
    assert_accounted(state)
    assert len(state.bends) == len(state.track) == len(state.cells)
    assert len(set(state.cells)) == len(state.cells), "docs/rules.md §2: one card per cell"
    assert 0 <= state.loco < len(state.track), "the loco stands on a track card"
    for c in state.track:
        assert KIND[c] != KIND_CHAOS, "docs/rules.md §1: chaos cards are never laid"
    for pile in state.piles:  # docs/rules.md §6: combining leaves no two equal values on top of each other
        for i in range(1, len(pile)):
            assert VALUE[pile[i]] != VALUE[pile[i - 1]]
    if state.mode == MODE_RIVAL:
        assert len(state.hands[0]) <= 1, "docs/rules.md §8: the rival has no hand beyond its draw"
    legal = state.legal_actions()
    if state.phase == P_OVER:
        assert legal == []
    else:
        assert legal, "legal actions are non-empty until the game ends"
    copy = state.clone()
    assert copy == state and not (copy != state)
    return legal


def play_checked(mode, seed, players):
    state, chance, bot_rng = seeded(MODE_NAMES.index(mode), seed, players)
    recorder = Recorder(state)
    count = 0
    for action in steps(state, chance, random_bot, bot_rng):
        legal = check_invariants(state)
        assert action in legal
        before = state.clone()
        if count % 7 == 0:  # an illegal action is refused and changes nothing
            for bad in range(A_END):
                if bad not in legal:
                    with pytest.raises(IllegalAction):
                        state.apply(bad)
                    assert state == before
                    break
        recorder.apply(state, action)
        assert state != before or action in (4, 5), "every decision changes the state"
        count += 1
        assert count < 2000, "a game ends"
    check_invariants(state)
    return state, recorder.record


@pytest.mark.parametrize("mode,players,games", CONFIGS)
def test_random_games_keep_invariants_and_replay(mode, players, games):
    for seed in range(games):
        state, record = play_checked(mode, seed, players)
        assert record["result"] == state.result()
        # The record survives JSON and replays to the same result (docs/rules.md §10).
        again = replay(json.loads(json.dumps(record)))
        assert again == state or again.result() == state.result()
        assert again.result() == record["result"]
        if state.mode == MODE_CHALLENGE:
            assert state.lost == (state.derails >= 4)
        else:
            assert not state.deck, "docs/rules.md §4: the game ends when the deck is used up"


def test_same_seed_same_game():
    from engine.selfplay import play

    for mode in ("solo", "challenge", "rival", "table"):
        assert play(mode, 99) == play(mode, 99)
        assert play(mode, 99) != play(mode, 100)
