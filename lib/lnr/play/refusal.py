"""Why a card of the hand cannot be picked now (docs/rules.md §2, §4), in a few words: the
toast the play screen shows when A picks it (lnr/play/screen.py pick), and the action
menu's Build line (lnr/play/actions.py).

A module of its own, loaded for the toast and dropped after it: the play screen's code does
not hold these words, and the toast does not load the whole action menu (RAM, docs/memory.md).
"""
from engine.cards import KIND, VALUE, SHAPE, KIND_CHAOS, SHAPE_CURVE
from engine.state import (
    P_TURN, P_BUILD, P_CHAOS, FIT_VALUE, FIT_TAKEN, BEND_L, BEND_R, BEND_S,
)


def reason(s, c):
    """Returns why card c of the hand cannot be picked now at State `s`, in 18 characters or
    fewer (the toast)."""
    if KIND[c] == KIND_CHAOS:  # §4: a turn builds or discards chaos, never both
        return "Building: no chaos" if s.phase == P_BUILD else "Chaos: discard it"
    if s.phase == P_CHAOS:
        return "Chaos cards only"
    if s.phase != P_TURN and VALUE[c] != s.build_value:
        return "Build takes %ds" % s.build_value
    bend = BEND_L if SHAPE[c] == SHAPE_CURVE else BEND_S
    why_not = s.fit(c, bend)
    if bend == BEND_L and why_not != s.fit(c, BEND_R) and s.fit(c, BEND_R) == FIT_VALUE:
        why_not = FIT_VALUE
    if why_not == FIT_VALUE:
        return "No %d next to a %d" % (VALUE[c], VALUE[s.track[-1]])
    if why_not == FIT_TAKEN:
        return "No room ahead"
    return "It would block"
