"""`best` as it was before its look-ahead (commit 0746a28): engine.ai's planner alone with the
weights fitted by self-play. Kept for `make bench`'s before/after (tools/bots/bench.py),
desktop-only.

Its weights are engine/planner_weights.py's (engine/ai_weights.py's tables when the look-ahead
came, frozen there), so that `best-before` stays what it was whatever engine/ai_weights.py holds.
"""
from engine import planner_weights as old
from engine.ai import Planner
from engine.bots import weights
from engine.lookahead import CAP, Search


def table(mode):
    """Returns the old weight table of a mode (docs/rules.md §8), as engine.ai reads it."""
    return (old.SOLO, old.CHALLENGE, old.RIVAL, old.TABLE)[mode]


def best_before_bot(state, rng):
    """Returns the old `best`'s action: engine.ai's plan with the old weights."""
    return Planner(state, table(state.mode)).choose()


def best_each_bot(state, rng):
    """Returns `best`'s action as it was at the table before issue 24, and as it is in the
    other modes: the look-ahead with the whole CAP at every decision (engine.bots best_bot)."""
    return Search(state, weights(state.mode), rng, False, CAP).choose()
