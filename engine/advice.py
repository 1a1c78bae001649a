"""The words of advice, one set for the device's hint and the desktop's review of a game
(tools/bots/review.py): why in a few words (reason(): engine.bots.hint gives them to the hint's
panel) and an action in words (say(): the phrases lib/lnr/play/hint.py puts on the panel; card
names are engine.cards.card_name's for both; host_tests/test_review.py holds them equal)."""
# Loaded only when advice is given (the hint's key press, the review): its strings cost RAM on
# the device, which the table's bots do not need.
from engine.ai import open_ahead
from engine.cards import VALUE, card_name
from engine.state import (
    A_PASS, A_STOP, A_BEND_L, A_CHAOS, A_PILE, A_LAY, P_BEND, P_CHAOS, TURN, BEND_L,
)
from engine.tops import pile_tops


def bend(action):
    """Returns a bend (A_BEND_L or A_BEND_R) in words: "bend left", "bend right"."""
    return "bend left" if action == A_BEND_L else "bend right"


def say(state, action):
    """Returns `action` in words, as the hint panel shows it: "Pass", "Lay 4 curve",
    "Bend left", "Roll the dice", "Discard chaos 2", "Pile 3 straight", "Stop discarding"."""
    if action == A_PASS:
        return "Pass"
    if action == A_STOP:
        return "Stop discarding" if state.phase == P_CHAOS else "Roll the dice"
    if action >= A_PILE:
        return "Pile " + card_name(action - A_PILE)
    if action >= A_CHAOS:
        return "Discard " + card_name(action - A_CHAOS)
    if action >= A_LAY:
        return "Lay " + card_name(action - A_LAY)
    return "Lay it, " + bend(action)  # the pending curve (P_BEND)


def _pct(risk):
    # A chance in 1/32768 as a whole percent, rounded.
    return (risk * 100 + 16384) // 32768


def reason(state, action, risk, cards, build_risk):
    """Returns the few words (at most 20 characters) that say why `action` is good, e.g.
    "risk 12%": `risk` the chance (in 1/32768) that its plan for the turn derails (docs/rules.md
    §5), `cards` the cards that plan lays, `build_risk` the best-valued build's chance of
    derailing (-1: no build fits), as engine.ai's Planner found them."""
    p = state.phase
    pile = state.piles[state.seat]
    top = VALUE[pile[-1]] if pile else 0
    if action == A_PASS:
        if build_risk < 0:
            return "no card fits"
        if state.loco == 0 and state.ahead() == 0:
            return "free: no penalty"  # D4: nothing behind the loco to take
        pct = _pct(build_risk)
        # A low risk is not why: holding the cards is worth more than laying them now.
        return "builds risk %d%%" % pct if pct >= 20 else "keep cards for later"
    if action >= A_PILE:
        v = VALUE[action - A_PILE]
        if v == top:
            return "combines: -%d" % v  # §6: both cards go to the box
        least = None
        for t, d in pile_tops([VALUE[c] for c in pile], [VALUE[c] for c in state.penalty]):
            if least is None or d < least:
                least = d
        return "pile %+d in all" % least  # the best order's change of the pile's sum
    if action >= A_CHAOS:
        v = VALUE[action - A_CHAOS]
        if v == top:
            return "combines: -%d" % (2 * v)  # the card leaves the hand, the top the pile
        return "no dice, no risk"
    if action == A_STOP:
        if p == P_CHAOS:
            return "keep the rest"
        return "roll: risk %d%%" % _pct(risk)
    if p == P_BEND:
        cells = state.cells[:]
        cells.append(state.target())
        bend = action - A_BEND_L + BEND_L
        free = open_ahead(cells, (state.head + TURN[bend]) & 3)
        return "%d free ahead" % free if free < 4 else "open ahead"
    if cards > 1:
        return "%d cards, risk %d%%" % (cards, _pct(risk))
    return "risk %d%%" % _pct(risk)


def explain(state, action, planner):
    """Returns reason() for `action` from `planner`'s `options` and `build_risk`: an engine.ai
    Planner of `state` that has chosen with its options recorded, or an engine.lookahead
    Search that kept them. The risk and cards of its best plan that starts with `action` (or
    with a card of the same kind, the same plan)."""
    found = None
    if planner.options:
        found = planner.options.get(action)
        if found is None and action >= A_LAY and action < A_CHAOS:
            c = action - A_LAY
            for a in planner.options:
                if A_LAY <= a < A_CHAOS and VALUE[a - A_LAY] == VALUE[c]:
                    found = planner.options[a]
                    break
    risk = found[1] if found else 0
    cards = found[2] if found else 1
    return reason(state, action, risk, cards, planner.build_risk)
