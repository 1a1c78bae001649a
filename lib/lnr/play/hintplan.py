"""What the hint recommends (START, Hint) and why, in the lines lnr/play/hint.py puts on the
play screen's panel: engine.bots' hint and engine.ai's plan after it (engine.ai follow()), worked
out in a switch with neither screen's code in RAM (lnr/play/plan.py go), then named here with
engine.advice's words once the search's code is out of RAM too (engine.ai's is the app's
biggest: the hint's heaviest moment, docs/memory.md).

A build is named whole: the card `best` picks, then where each curve of it turns and the cards
to add after it in their order as engine.ai's plan goes on from there: the very continuation
`best`'s look-ahead weighed for that card (engine/lookahead.py Search._plan). Its risk is the
screen's own figure (the State's build_risk, docs/rules.md §5): what the side panel shows as
"Roll" once the build is laid.
"""
from engine.cards import SHAPE, KIND, KIND_BROKEN, SHAPE_CURVE, card_name
from engine.state import (
    A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, P_BEND, P_BUILD, TURN, BEND_L, BEND_R,
)
from lnr.ui import wrap, PANEL_W

MORE = 3  # cards named after the first (a build of one value has at most 4 here)
NAMES = 3  # panel lines a build's cards may take: the panel's 7 less the title, the risk, 2 whys
_TO = ("right", "down", "left", "up")  # where a curve turns on the screen, by its exit heading


def explain(s, action, options, values, steps):
    """Returns why `action`, engine.bots hint()'s choice at State `s`, is the move, as (action,
    title, head, risk, tail): the title's words beside "Hint" (a challenge's lives, or ""), the
    lines that say the action (head: a build's cards, with where each curve turns: `action`
    and engine.ai's plan after it, `steps`, engine.ai follow()), the chance of derailing (risk:
    (num, den, (num, den) of entering a broken card or None) of the build named, of the roll,
    or of the build a pass is weighed against; or None) and the lines after it (tail), each
    within lnr.ui PANEL_W (engine.advice why(), from the search's `options` and `values`, None
    where the dice wait); while a person's dice wait, "Roll the dice". None where it failed (a
    hint must never end the game). It loads no search code: on the board that is out of RAM
    before this module loads (lnr/play/plan.py)."""
    try:
        from engine.advice import why

        head = []
        after = None
        if A_LAY <= action < A_CHAOS or action == A_BEND_L or action == A_BEND_R:
            head, after = _plan(s, action, steps)

        title, more, risk, tail = why(s, action, options, values, after)
        return action, title, head + more, risk, tail
    except MemoryError:
        raise
    except Exception:  # noqa: BLE001 - a hint must never end the game
        return None


def _name(c, head):
    # A card added to the build, named as its value goes without saying (the build's): where
    # a curve turns (the D-pad's way, lnr/play/screen.py key_bend) for one that leaves the end
    # heading `head`, -1 for a straight.
    if KIND[c] == KIND_BROKEN:
        name = card_name(c)
    else:
        name = "curve" if SHAPE[c] == SHAPE_CURVE else "straight"
    return name + (" " + _TO[head] if head >= 0 else "")


def _plan(s, action, steps):
    # Plays the build, `action` then `steps`, on a copy: returns (its lines: the first card or
    # the curve picked, then the cards added after it, within NAMES lines of the panel and MORE
    # cards; the copy with those cards laid). Headings, not bends: the player turns a curve
    # with the D-pad toward where it goes on the screen (lnr/play/screen.py key_bend).
    t = s.clone(False)
    t.apply(action)
    i = 0
    if action == A_BEND_L or action == A_BEND_R:  # the curve picked already: its bend
        text = "Turn it " + _TO[t.head]
    else:
        c = action - A_LAY
        if t.phase == P_BEND and i < len(steps):  # the curve's bend: the plan's next step
            t.apply(steps[i])
            i += 1
        text = "Lay " + card_name(c) + (" " + _TO[t.head] if SHAPE[c] == SHAPE_CURVE else "")
    more = 0
    while t.phase == P_BUILD and more < MORE and i < len(steps):
        c = steps[i] - A_LAY
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
        t.apply(steps[i])
        i += 1
        head = -1
        if t.phase == P_BEND:
            if i == len(steps):
                break  # no bend planned (past the plan's time): the card not named
            t.apply(steps[i])
            i += 1
            head = t.head
        text += (", then " if more == 0 else ", ") + _name(c, head)
        more += 1
    return wrap(text, PANEL_W), t
