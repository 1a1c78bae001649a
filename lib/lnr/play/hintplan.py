"""What the hint recommends (START, Hint), worked out in a switch with neither screen's code in
RAM (lnr/play/plan.py run): engine.bots' hint and the build it would lay, as numbers and the
bot's few words. lnr/play/hint.py shows them on the play screen.

A build is named whole: the card `best` picks, then where each curve of it turns and the cards
to add after it in their order as engine.ai's plan goes on from there, on a copy of the State: the very
continuation `best`'s look-ahead weighed for that card (engine/lookahead.py Search._plan). Each
further step is one planner's work, not a search of its own (up to about 1.4 s each on a
SAMD51). Its risk is the screen's own figure (the State's
build_risk, docs/rules.md §5): what the side panel shows as "Roll" once the build is laid.
"""
from engine.cards import KIND, KIND_CHAOS
from engine.state import (
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, P_BEND, P_BUILD, P_CHAOS,
)

MORE = 3  # cards named after the first (a build of one value has at most 4 here)


def find(s, lookahead=True):
    """Returns what `best` would do at State `s` as (action, reason, plan, risk), or None
    where it has no hint (bots.hint: e.g. while dice wait to roll) or failed (a hint must
    never end the game; a MemoryError is its caller's to answer: lnr/play/plan.py).
    `lookahead`: engine.bots.hint's. On the board the search runs before this module loads
    (lnr/play/plan.py: RAM), and explain() says what it found."""
    try:
        from engine.bots import hint

        action, reason = hint(s, None, lookahead)  # the look-ahead's choice (engine/lookahead.py)
    except MemoryError:
        raise
    except Exception:  # noqa: BLE001 - a hint must never end the game
        return None
    return explain(s, action, reason)


def explain(s, action, reason):
    """Returns find()'s answer for engine.bots.hint's (`action`, `reason`) at State `s`:
    (action, reason, plan, risk), or None for no action. plan: (the heading the first card
    turns to or -1, the cards added after it with theirs (_plan), the dice the build rolls, the
    cards ahead of the loco then, its chance of entering a broken card or None) for a build,
    else None; risk: (num, den) of the build laid (when rolled), of the build so far (a roll),
    of the safest card to lay (a pass the bot explains by a risk), or None."""
    try:
        if action is None:
            return None
        if A_LAY <= action < A_CHAOS or action == A_BEND_L or action == A_BEND_R:
            turn, more, t = _plan(s, action)
            return (action, reason, (turn, more, t.build_sum, t.ahead(), t.broken_risk()),
                    t.build_risk())
        risk = None
        if action == A_PASS and "%" in reason:  # the bot's own rounding: the screen's instead
            risk = safest(s)
        elif action == A_STOP and s.phase != P_CHAOS:
            risk = s.build_risk()
        return action, reason, None, risk
    except MemoryError:
        raise
    except Exception:  # noqa: BLE001 - a hint must never end the game
        return None


def _next(t):
    # engine.ai's next step of its plan at `t`: what the look-ahead assumed after its choice.
    from engine.ai import Planner
    from engine.bots import weights

    return Planner(t, weights(t.mode)).choose()


def _plan(s, action):
    # Plays the build on a copy: returns (the heading the first card leaves by if it is a
    # curve, else -1; the cards added after it, each followed by its exit heading or -1, as
    # bytes of pairs; the copy with the build laid). Headings, not bends: the player turns a
    # curve with the D-pad toward where it goes on the screen (lnr/play/screen.py key_bend).
    t = s.clone()
    t.log = None
    turn = -1
    more = bytearray()
    while True:
        t.apply(action)
        if action == A_BEND_L or action == A_BEND_R:  # the curve picked already: its bend
            turn = t.head
        if t.phase == P_BEND:  # the curve's bend: the plan's next step
            action = _next(t)
            if action != A_BEND_L and action != A_BEND_R:
                break
            t.apply(action)
            if more:
                more[-1] = t.head
            else:
                turn = t.head
        if t.phase != P_BUILD or len(more) >= 2 * MORE:
            break
        action = _next(t)
        if action is None or not A_LAY <= action < A_CHAOS:
            break  # it rolls
        more.append(action - A_LAY)
        more.append(255)
    return turn, bytes(more), t


def safest(s):
    """Returns the lowest risk (num, den) the side panel shows on a card now ("Lay" of the
    card alone), or None if no card can be laid."""
    least = None
    for c in s.hands[s.seat]:
        if KIND[c] != KIND_CHAOS and s.is_legal(A_LAY + c):
            num, den = s.build_risk(c)
            if least is None or num * least[1] < least[0] * den:
                least = (num, den)
    return least
