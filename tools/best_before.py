"""`best` as it was before its look-ahead (commit 0746a28): engine.ai's planner alone with the
weights fitted by self-play. Kept for `make bench`'s before/after (tools/bench.py),
desktop-only.

The weights are engine/ai_weights.py's: the look-ahead came without a refit, so they are the
old ones still. A refit of engine/ai_weights.py must first freeze a copy of the old tables
here, or `best-before` would change with it.
"""
from engine import ai_weights
from engine.ai import Planner


def table(mode):
    """Returns the old weight table of a mode (docs/rules.md §8), as engine.ai reads it."""
    return (ai_weights.SOLO, ai_weights.CHALLENGE, ai_weights.RIVAL, ai_weights.TABLE)[mode]


def best_before_bot(state, rng):
    """Returns the old `best`'s action: engine.ai's plan with the old weights."""
    return Planner(state, table(state.mode)).choose()
