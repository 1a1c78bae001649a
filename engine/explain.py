"""Why an action is not legal, in words that cite docs/rules.md (State.why_not() calls this).

Kept apart from engine.state so that the device, which only offers legal actions, does not hold
these strings in RAM until it needs to show a reason. The codes come from engine.codes, not
from engine.state (which imports this module): no import cycle.
"""
from engine.cards import KIND, VALUE, SHAPE, KIND_CHAOS, SHAPE_CURVE
from engine.codes import (
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_ROLL0, A_ROLL1, A_LAY, A_CHAOS, A_PILE,
    P_TURN, P_BEND, P_BUILD, P_CHAOS, P_DICE, P_ORDER, P_OVER, P_SETUP,
    BEND_S, BEND_L, BEND_R, BEND_NAMES, FIT_OK, FIT_SHAPE, FIT_VALUE, FIT_TAKEN, cell_xy,
)


def why_not(state, action):
    """Returns None if `action` is legal now, else the reason it is not, in words."""
    p = state.phase
    if p == P_OVER:
        return "the game is over"
    if p == P_SETUP:
        return "the game has not started"
    if p == P_DICE:
        if action == A_ROLL0 or action == A_ROLL1:
            return None
        return "roll the dice first: %d to go" % state.dice_left
    if action == A_ROLL0 or action == A_ROLL1:
        return "there are no dice to roll now"
    if p == P_ORDER:
        c = action - A_PILE
        if not 0 <= c < 55:
            return "put your penalty cards %s on your pile first" % state.penalty
        if c not in state.penalty:
            return "card %d is not among the penalty cards %s" % (c, state.penalty)
        if state.is_rival(state.seat) and c != state.penalty[0]:
            return "the rival piles its penalty cards in the order taken (docs/rules.md §8)"
        return None
    if action >= A_PILE:
        return "there are no penalty cards to put down"
    if p == P_BEND:
        if action == A_BEND_L or action == A_BEND_R:
            return fit_reason(state, state.pending, action - A_BEND_L + BEND_L)
        return "choose the bend of card %d first: L or R" % state.pending
    if action == A_BEND_L or action == A_BEND_R:
        return "no curve card waits for its bend"
    hand = state.hands[state.seat]
    rival = state.is_rival(state.seat)
    if action == A_PASS:
        if p != P_TURN:
            return "a pass replaces the whole action: this turn's action has begun"
        if rival and state.rival_forced_action(hand[0]) != A_PASS:
            return "the rival passes only when its card cannot be laid (docs/rules.md §8)"
        return None
    if action == A_STOP:
        if p == P_BUILD or p == P_CHAOS:
            return None
        return "there is nothing to finish: lay or discard a card first"
    if A_LAY <= action < A_LAY + 55:
        c = action - A_LAY
        if c not in hand:
            return "card %d is not in the hand" % c
        if KIND[c] == KIND_CHAOS:
            return "card %d is a chaos card: it has no rails, it can only be discarded" % c
        if p == P_CHAOS:
            return "this turn discards chaos cards: no building"
        if p == P_BUILD and VALUE[c] != state.build_value:
            return "a build lays cards of one value: this one lays %ds" % state.build_value
        if SHAPE[c] == SHAPE_CURVE:
            why = fit_reason(state, c, BEND_L)
            if why is not None:
                why_r = fit_reason(state, c, BEND_R)
                if why_r is None:
                    return None
                if why_r != why:
                    why = "bent left, " + why + "; bent right, " + why_r
            return why
        return fit_reason(state, c, BEND_S)
    if A_CHAOS <= action < A_CHAOS + 55:
        c = action - A_CHAOS
        if c not in hand:
            return "card %d is not in the hand" % c
        if KIND[c] != KIND_CHAOS:
            return "card %d is not a chaos card" % c
        if p == P_BUILD:
            return "this turn builds: finish the build first"
        return None
    return "there is no action %d" % action


def fit_reason(state, card, bend):
    """Returns None if `card` fits with `bend`, else the placement rule of §2 that fails, in
    words."""
    r = state.fit(card, bend)
    if r == FIT_OK:
        return None
    if r == FIT_SHAPE:
        return "card %d cannot take bend %s (docs/rules.md §2.1)" % (card, BEND_NAMES[bend])
    if r == FIT_VALUE:
        return "value rule: a %d cannot follow a %d (docs/rules.md §2.2)" % (
            VALUE[card], VALUE[state.track[-1]])
    x, y = cell_xy(state.target())
    if r == FIT_TAKEN:
        return "the cell ahead (%d, %d) holds a card (docs/rules.md §2.3)" % (x, y)
    return "bent %s at (%d, %d) the track would point into a card (no block, docs/rules.md §2.4)" % (
        BEND_NAMES[bend], x, y)
