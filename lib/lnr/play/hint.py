"""The hint (START, Hint) on the play screen: what lnr/play/hintplan.py found in a switch, in
the panel, the cursor on its card. Imported by Play.hint for that moment and dropped after it
(RAM): its words were made in the switch (engine.advice), but for the risk, which is the
screen's own figure (lnr/play/view.py risk_text, docs/rules.md §5): what the side panel shows
as "Roll" once the build is laid, and as "Lay" on the card for a build of one card.
"""
from engine.state import A_STOP, A_LAY, A_CHAOS
from lnr.play.view import risk_text, risk_colour
from lnr.ui import PANEL_LINES, GREY, YELLOW, GREEN, WHITE


def show(play, found):
    """Shows the hint `found` (lnr/play/hintplan.py explain()'s answer: lnr/play/plan.py
    on the board, tools/sim/hints.py on the desktop) for `play` (a
    lnr.play.screen.Play on the player's turn, as it was when the hint was asked for)."""
    if found is None:  # the hint failed (it never ends the game)
        play.view.toast("No hint now")
        play.advance()
        return
    ui = play.ui
    ui.clear_panel()
    if found is False:  # turned down for memory (lnr/play/plan.py): the panel says so
        ui.pline(0, "Hint", YELLOW)
        ui.pline(1, "Hints are off: this", WHITE)
        ui.pline(2, "board is short of", WHITE)
        ui.pline(3, "memory.", WHITE)
        ui.pline(PANEL_LINES - 1, "A: OK", GREY)
        play.info(-1)
        return
    action, title, head, risk, tail = found
    ui.pline(0, "Hint  " + title if title else "Hint", YELLOW)  # a challenge's lives
    i = 1
    for text in head:
        ui.pline(i, text, GREEN)
        i += 1
    if risk is not None:
        num, den, hit = risk
        text = risk_text(num, den, "Roll")
        if hit is not None:  # §5, D1: a broken card entered costs a penalty card too
            text += ", broken " + risk_text(hit[0], hit[1], "")[1:]
        ui.pline(i, text, risk_colour(num, den))
        i += 1
    for text in tail:
        ui.pline(i, text)
        i += 1
    if i < PANEL_LINES:
        ui.pline(PANEL_LINES - 1, "A: OK", GREY)
    cards = play.cards()
    card = action - A_CHAOS if action >= A_CHAOS else action - A_LAY
    sel = -1  # the cursor stays where it is
    for i in range(len(cards)):
        if action >= A_LAY and cards[i] == card:
            sel = i
    if action == A_STOP:
        sel = len(cards)
    play.info(sel)
