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
from engine.playout import DECIDE, seeded, steps
from engine.state import MODE_NAMES, State


@pytest.mark.parametrize("mode", ["solo", "challenge", "rival", "table"])
def test_a_search_counts_every_planner_copy_and_step_it_makes(mode, monkeypatch):
    planners = []  # the Planner objects made
    finished = []  # the work of each use of one that was set up again (Search._planner)
    counts = {"apply": 0, "clone": 0}

    class CountedPlanner(lookahead.Planner):
        def __init__(self, *args):
            if any(p is self for p in planners):
                finished.append(self.work)
            else:
                planners.append(self)
            super().__init__(*args)

    apply, copy_to = State.apply, State.copy_to

    def counted_apply(state, action):
        counts["apply"] += 1
        return apply(state, action)

    def counted_copy_to(state, other, log=True):  # clone() is a copy_to() into a new State
        counts["clone"] += 1
        return copy_to(state, other, log)

    monkeypatch.setattr(lookahead, "Planner", CountedPlanner)
    lookahead.forget()  # the spare Planner is made again, counted
    searched = 0
    for seed in (3, 11):
        state, chance, rng = seeded(MODE_NAMES.index(mode), seed, 4 if mode == "table" else None)
        for action in steps(state, chance):
            if action != DECIDE:
                state.apply(action)
                continue
            del planners[:]
            del finished[:]
            counts["apply"] = counts["clone"] = 0
            search = lookahead.Search(state, weights(state.mode), rng)
            monkeypatch.setattr(State, "apply", counted_apply)
            monkeypatch.setattr(State, "copy_to", counted_copy_to)
            action = search.choose()
            monkeypatch.setattr(State, "apply", apply)
            monkeypatch.setattr(State, "copy_to", copy_to)
            done = (sum(finished) + sum(p.work for p in planners)
                    + lookahead.WORK_CLONE * counts["clone"]
                    + lookahead.WORK_STEP * counts["apply"])
            assert search.work == done, (mode, seed, state.turn, search.work, done, counts)
            searched += search.samples > 0
            state.apply(action)
    assert searched > 0, "no decision of these games was searched: the test saw nothing"
