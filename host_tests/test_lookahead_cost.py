"""`best`'s look-ahead charges all it does to its work cap (engine/lookahead.py, issue 12).

The cap keeps a decision within 1.5 s on a SAMD51 only if the work it counts follows the time
the search takes. Beside its planners, a search copies States and applies steps to them (its own
plan, the dice, the other seats' turns); left uncounted, those made a 4-seat table's decision a
quarter slower per unit of work than a solo one, and over the budget (`make bench`). So every
copy and every step a search makes must be in its work, in every mode.
"""
import pytest

from engine import lookahead
from engine.bots import weights
from engine.rng import Rng
from engine.state import MODE_NAMES, State, deal


@pytest.mark.parametrize("mode", ["solo", "challenge", "rival", "table"])
def test_a_search_counts_every_planner_copy_and_step_it_makes(mode, monkeypatch):
    planners = []
    counts = {"apply": 0, "clone": 0}

    class CountedPlanner(lookahead.Planner):
        def __init__(self, *args):
            super().__init__(*args)
            planners.append(self)

    apply, clone = State.apply, State.clone

    def counted_apply(state, action):
        counts["apply"] += 1
        return apply(state, action)

    def counted_clone(state):
        counts["clone"] += 1
        return clone(state)

    monkeypatch.setattr(lookahead, "Planner", CountedPlanner)
    searched = 0
    for seed in (3, 11):
        chance = Rng(seed, 0)
        rng = Rng(seed, 1)
        state = deal(MODE_NAMES.index(mode), chance, 4 if mode == "table" else None)
        state.start()
        while not state.is_terminal():
            if state.is_chance():
                state.apply(state.sample_chance(chance))
                continue
            if state.is_rival(state.seat):
                state.apply(state.rival_action())
                continue
            del planners[:]
            counts["apply"] = counts["clone"] = 0
            search = lookahead.Search(state, weights(state.mode), rng)
            monkeypatch.setattr(State, "apply", counted_apply)
            monkeypatch.setattr(State, "clone", counted_clone)
            action = search.choose()
            monkeypatch.setattr(State, "apply", apply)
            monkeypatch.setattr(State, "clone", clone)
            done = (sum(p.work for p in planners) + lookahead._CLONE * counts["clone"]
                    + lookahead._STEP * counts["apply"])
            assert search.work == done, (mode, seed, state.turn, search.work, done, counts)
            searched += search.samples > 0
            state.apply(action)
    assert searched > 0, "no decision of these games was searched: the test saw nothing"
