"""What the hint recommends (START, Hint) and why, worked out in a switch with neither screen's
code in RAM (lnr/play/plan.py go): engine.bots' hint, the build it would lay, and
engine.advice's words, as the lines lnr/play/hint.py puts on the play screen's panel.

A build is named whole: the card `best` picks, then where each curve of it turns and the cards
to add after it in their order as engine.ai's plan goes on from there, on a copy of the State:
the very continuation `best`'s look-ahead weighed for that card (engine/lookahead.py
Search._plan). Each further step is one planner's work, not a search of its own (up to about
1.4 s each on a SAMD51). Its risk is the screen's own figure (the State's build_risk,
docs/rules.md §5): what the side panel shows as "Roll" once the build is laid.
"""
import sys

from engine.cards import SHAPE, KIND, KIND_BROKEN, SHAPE_CURVE, card_name
from engine.state import (
    A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, P_BEND, P_BUILD, P_DICE, TURN, BEND_L, BEND_R,
)
from lnr.memory import drop, KEEP
from lnr.ui import wrap, PANEL_W

MORE = 3  # cards named after the first (a build of one value has at most 4 here)
NAMES = 3  # panel lines a build's cards may take: the panel's 7 less the title, the risk, 2 whys
_TO = ("right", "down", "left", "up")  # where a curve turns on the screen, by its exit heading


def find(s, lookahead=True):
    """Returns what `best` would do at State `s` and why: explain()'s answer for engine.bots'
    hint (`lookahead`: its own). On the board the search runs before this module loads
    (lnr/play/plan.py: RAM), and explain() says what it found; a MemoryError is the caller's
    to answer (lnr/play/plan.py turns the hint down)."""
    try:
        from engine.bots import hint

        if s.phase == P_DICE and s.dice_left == s.build_sum:
            action, search = A_STOP, None  # a person's dice wait: rolling is the move
        else:
            action, search = hint(s, None, lookahead)  # the look-ahead's choice
    except MemoryError:
        raise
    except Exception:  # noqa: BLE001 - a hint must never end the game
        return None
    return explain(s, action, search)


def explain(s, action, search):
    """Returns why `action`, engine.bots hint()'s choice at State `s` by `search` (its
    engine.lookahead Search, an engine.ai Planner without the look-ahead, or None where the
    dice wait), is the move, as (action, title, head, risk, tail): the title's words beside
    "Hint" (a challenge's lives, or ""), the lines that say the action (head: a build's cards,
    with where each curve turns), the chance of derailing (risk: (num, den, (num, den) of
    entering a broken card or None) of the build named, of the roll, or of the build a pass is
    weighed against; or None) and the lines after it (tail), each within lnr.ui PANEL_W
    (engine.advice why()); while a person's dice wait, "Roll the dice". None where it has no
    hint (bots.hint: e.g. the rival's turn) or failed (a hint must never end the game)."""
    try:
        if action is None:
            return None
        options = values = w = None
        if search is not None:
            from engine.bots import weights

            options = search.options
            values = getattr(search, "values", None)  # an engine.ai Planner keeps none
            w = weights(s.mode)  # the table the search played its plans with
            weights = None
        # The search is done: its code and engine.bots' go before the plan and the words load
        # (RAM: they are loaded again for the next switch anyway).
        search = None
        for name in ("engine.lookahead", "engine.bots"):
            mod = sys.modules.get(name)
            drop(name)
            if mod is not None and not KEEP:
                mod.__dict__.clear()
        mod = None
        from engine.advice import why

        head = []
        after = None
        if A_LAY <= action < A_CHAOS or action == A_BEND_L or action == A_BEND_R:
            head, after = _plan(s, action, w)

        title, more, risk, tail = why(s, action, options, values, after)
        return action, title, head + more, risk, tail
    except MemoryError:
        raise
    except Exception:  # noqa: BLE001 - a hint must never end the game
        return None


def _next(t, w):
    # engine.ai's next step of its plan at `t`: what the look-ahead assumed after its choice.
    from engine.ai import Planner

    return Planner(t, w).choose()


def _name(c, head):
    # A card added to the build, named as its value goes without saying (the build's): where
    # a curve turns (the D-pad's way, lnr/play/screen.py key_bend) for one that leaves the end
    # heading `head`, -1 for a straight.
    if KIND[c] == KIND_BROKEN:
        name = card_name(c)
    else:
        name = "curve" if SHAPE[c] == SHAPE_CURVE else "straight"
    return name + (" " + _TO[head] if head >= 0 else "")


def _plan(s, action, w):
    # Plays the build on a copy with weights `w`: returns (its lines: the first card or the
    # curve picked, then the cards added after it, within NAMES lines of the panel; the copy
    # with those cards laid). Headings, not bends: the player turns a curve with the D-pad
    # toward where it goes on the screen (lnr/play/screen.py key_bend).
    t = s.clone()
    t.log = None
    t.apply(action)
    if action == A_BEND_L or action == A_BEND_R:  # the curve picked already: its bend
        text = "Turn it " + _TO[t.head]
    else:
        c = action - A_LAY
        if t.phase == P_BEND:  # the curve's bend: the plan's next step
            t.apply(_next(t, w))
        text = "Lay " + card_name(c) + (" " + _TO[t.head] if SHAPE[c] == SHAPE_CURVE else "")
    more = 0
    while t.phase == P_BUILD and more < MORE:
        a = _next(t, w)
        if a is None or not A_LAY <= a < A_CHAOS:
            break  # it rolls
        c = a - A_LAY
        longest = ""  # its name at its longest: the turn is planned once it is laid
        if SHAPE[c] == SHAPE_CURVE:
            for bend in (BEND_L, BEND_R):
                name = _name(c, (t.head + TURN[bend]) & 3)
                if len(name) > len(longest):
                    longest = name
        else:
            longest = _name(c, -1)
        added = text + (", then " if more == 0 else ", ") + longest
        if len(wrap(added, PANEL_W)) > NAMES:
            break  # the rest is for another hint, once these are laid
        t.apply(a)
        head = -1
        if t.phase == P_BEND:
            t.apply(_next(t, w))
            head = t.head
        text += (", then " if more == 0 else ", ") + _name(c, head)
        more += 1
    return wrap(text, PANEL_W), t
