"""Built-in players: a bot is a function (state, rng) -> action; and the hint."""
# - `random`: a legal action drawn uniformly (the baseline, and the fuzzer's player).
# - `greedy`: one turn ahead, the plan with the lowest expected score after this turn, over
#   every roll of the dice (engine.ai).
# - `best`: the same search, each outcome valued by the score after the turn plus the
#   estimate of what the rest of the game will add (engine.ai; weights per mode in
#   engine.ai_weights, loaded on first use).
# `greedy` and `best` are deterministic (the rng is unused) and see only what their seat may
# see. A bot plans the whole rest of its turn and returns its next step; the next call plans
# again from there (the same plan: nothing it did not foresee has happened).
# hint(state) says what `best` would do at the decision at hand, and why in a few words.
from engine.ai import Planner, open_ahead
from engine.cards import VALUE
from engine.order import pile_tops
from engine.state import (
    A_PASS, A_STOP, A_BEND_L, A_CHAOS, A_PILE, A_LAY, P_TURN, P_BEND, P_BUILD, P_CHAOS,
    P_ORDER, TURN, BEND_L,
)


def random_bot(state, rng):
    """Returns a legal action drawn uniformly (the baseline, and the fuzzer's player)."""
    actions = state.legal_actions()
    return actions[rng.randbelow(len(actions))]


def greedy_bot(state, rng):
    """Returns the next step of the plan with the lowest expected score after this turn."""
    return Planner(state).choose()


_weights = None


def weights(mode):
    """Returns the `best` bot's weight table for a mode (docs/rules.md §8)."""
    global _weights
    if _weights is None:
        from engine import ai_weights  # loaded on first use: RAM on the device

        _weights = (ai_weights.SOLO, ai_weights.CHALLENGE, ai_weights.RIVAL, ai_weights.TABLE)
    return _weights[mode]


def best_bot(state, rng):
    """Returns the next step of the plan with the best expected score after this turn plus
    the estimate of the rest of the game."""
    return Planner(state, weights(state.mode)).choose()


BOTS = {"random": random_bot, "greedy": greedy_bot, "best": best_bot}

_HUMAN_PHASES = (P_TURN, P_BEND, P_BUILD, P_CHAOS, P_ORDER)


def _pct(risk):
    # A chance in 1/32768 as a whole percent, rounded.
    return (risk * 100 + 16384) // 32768


def hint(state):
    """Returns (action, reason): what `best` would do now and why, e.g. "risk 12%" (at most
    20 characters); (None, "") where nobody decides (dice, game over, the rival)."""
    if state.phase not in _HUMAN_PHASES or state.is_rival(state.seat):
        return None, ""
    planner = Planner(state, weights(state.mode))
    action = planner.choose()
    return action, reason(state, planner, action)


def reason(state, planner, action):
    """Returns the few words that say why `planner` (after choose()) picked `action`."""
    p = state.phase
    pile = state.piles[state.seat]
    top = VALUE[pile[-1]] if pile else 0
    if action == A_PASS:
        if planner.build_risk < 0:
            return "no card fits"
        if state.loco == 0 and state.ahead() == 0:
            return "free: no penalty"  # docs/rules.md D4: nothing behind the loco to take
        pct = _pct(planner.build_risk)
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
        return "roll: risk %d%%" % _pct(planner.risk)
    if action >= A_LAY or p == P_BEND:
        if p == P_BEND:
            cells = state.cells[:]
            cells.append(state.target())
            bend = action - A_BEND_L + BEND_L
            free = open_ahead(cells, (state.head + TURN[bend]) & 3)
            return "%d free ahead" % free if free < 4 else "open ahead"
        n = planner.cards_laid
        if n > 1:
            return "%d cards, risk %d%%" % (n, _pct(planner.risk))
        return "risk %d%%" % _pct(planner.risk)
    return ""
