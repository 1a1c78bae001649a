"""The hot seat's handoff: at a table of several people passing the device, each hand is kept
secret (docs/rules.md §3.5), so before a person's turn the play screen shows no hand and this
panel, which names whose turn it is and tells every turn since that person's last: its build,
pass or chaos cards, a derailment, the penalty cards it took (Game.past, a turn each, written as
each result is shown). That person's A shows their hand (Play.key).

The play screen loads this module (and lnr/play/result.py's words) for the panel and drops it at
once (Play.new_turn): its code is not in RAM while the game is played (docs/memory.md).
"""
from lnr.play.result import pairs
from lnr.ui import WHITE, GREY, YELLOW, RED, GREEN


def cost(chaos, boxed, derailed, hits, taken):
    """Returns what a turn cost, in a panel line's 22 characters: the pairs its chaos cards
    made (§6; a discard takes no penalty, §4), else its derailment or broken cards and the
    penalty cards taken (§5, §6: D4's forfeited ones are not taken)."""
    if chaos:
        return pairs(boxed)
    pen = "penalty %d" % taken if taken else "no penalty"
    if derailed:
        return "Derailed, " + pen
    if hits:  # no derailment: 5 penalty cards at most (a pass and 4 broken cards)
        return "%d broken, %s" % (hits, pen)
    return pen[0].upper() + pen[1:]


def show(play):
    """Writes the handoff panel for the seat on turn of `play` (a lnr.play.screen.Play)."""
    g = play.game
    s = g.state
    ui = play.ui
    name = g.name(s.seat)
    past = g.past
    ui.clear_panel()
    i = 0 if len(past) > 2 else 1  # three turns (4 seats) take six lines: no heading
    if i:
        ui.pline(0, "Hot seat: %s's turn" % name, YELLOW)
    for title, chaos, boxed, derailed, hits, taken in past:
        ui.pline(i, title, WHITE)
        ui.pline(i + 1, cost(chaos, boxed, derailed, hits, taken), RED if derailed else GREY)
        i += 2
    last = not s.deck  # §4: the deck is empty, this turn ends the game
    if i < 6:
        if last:
            ui.pline(5, "Last turn of the game", RED)
        else:
            ui.pline(5, "Pass the device to " + name, GREY)
        ui.pline(6, name + ": press A", GREEN)
    else:
        ui.pline(6, name + (", last turn: press A" if last else "'s turn: press A"),
                 RED if last else GREEN)
