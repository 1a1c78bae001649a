"""The hint as the board works it out, in one call, for the desktop (host tests, screenshots):
engine.bots' hint, engine.ai's plan after it and lnr/play/hintplan.py's words. On the board
lnr/play/plan.py makes the same calls in a switch, split by a drop (the search's code goes
before the words' loads: RAM, docs/memory.md); here everything stays loaded."""
from engine.ai import follow
from engine.bots import hint, weights
from engine.state import A_STOP, P_DICE
from lnr.play.hintplan import explain


def find(s, lookahead=True):
    """Returns what `best` would do at State `s` and why: explain()'s answer for engine.bots'
    hint (`lookahead`: its own) and engine.ai's plan after it, as lnr/play/plan.py works them
    out; None where it failed, as the board's (a hint must never end the game)."""
    try:
        if s.phase == P_DICE and s.dice_left == s.build_sum:
            return explain(s, A_STOP, None, None, b"")  # a person's dice wait: rolling is the move
        action, search = hint(s, None, lookahead)  # the look-ahead's choice
        if action is None:
            return None
        steps = follow(s, action, weights(s.mode))
    except MemoryError:
        raise
    except Exception:  # noqa: BLE001 - as on the board: a hint must never end the game
        return None
    return explain(s, action, search.options, getattr(search, "values", None), steps)
