"""The hint (START, Hint) on the play screen: what lnr/play/hintplan.py found in a switch, in
the panel, the cursor on its card. Imported by Play.hint for that moment and dropped after it
(RAM). Its risks are the screen's own figures (lnr/play/view.py risk_text, docs/rules.md §5): what
the side panel shows as "Roll" once the build is laid, and as "Lay" on the card for a build of
one card. The bot's own words are shown where they do not quote a risk of their own (its
rounding may differ from the screen's).
"""
from engine.state import A_PASS, A_STOP, A_BEND_L, A_LAY, A_CHAOS, A_PILE, P_CHAOS
from engine.cards import card_name
from lnr.play.view import risk_text, risk_colour
from lnr.ui import GREY, YELLOW, GREEN, WHITE


def show(play, found):
    """Shows the hint `found` (lnr/play/hintplan.py find()) for `play` (a
    lnr.play.screen.Play on the player's turn, as it was when the hint was asked for)."""
    s = play.game.state
    if found is None:  # no hint for this step (e.g. while dice wait to roll)
        play.view.toast("No hint now")
        play.advance()
        return
    action, reason, plan, risk = found
    ui = play.ui
    ui.clear_panel()
    ui.pline(0, "Hint", YELLOW)
    if plan is not None:
        _build(ui, action, plan, risk)
    else:
        _other(ui, s, action, reason, risk)
    ui.pline(6, "A: OK", GREY)
    cards = play.cards()
    card = action - A_CHAOS if action >= A_CHAOS else action - A_LAY
    sel = -1  # the cursor stays where it is
    for i in range(len(cards)):
        if action >= A_LAY and cards[i] == card:
            sel = i
    if action == A_STOP:
        sel = len(cards)
    play.info(sel)


def _build(ui, action, plan, risk):
    bend, more = plan
    if action >= A_LAY:
        text = "Lay " + card_name(action - A_LAY)
    else:
        text = "Lay it"  # the bend of the curve picked already
        bend = action
    ui.pline(1, text, GREEN)
    if bend >= 0:
        ui.pline(2, "bend " + ("left" if bend == A_BEND_L else "right"), GREEN)
    if more:
        text = "then"
        for c in more:
            text += " " + card_name(c) + ","
        ui.pline(3, text[:-1] if len(text) <= 23 else "then %d more" % len(more), GREEN)
    num, den = risk
    ui.pline(4, "Risk when rolled:")
    ui.pline(5, risk_text(num, den, "Roll"), risk_colour(num, den))


def _other(ui, s, action, reason, risk):
    if action == A_PASS:
        text = "Pass"
        if "%" in reason:  # the bot's risk, in its own rounding: the screen's instead
            reason = "safest: " + risk_text(risk[0], risk[1], "Lay") if risk else ""
    elif action == A_STOP:
        if s.phase == P_CHAOS:
            text = "Stop discarding"
        else:
            text = "Roll the dice"
            reason = risk_text(risk[0], risk[1], "Roll")
    elif action >= A_PILE:
        text = "Pile " + card_name(action - A_PILE)
    else:
        text = "Discard " + card_name(action - A_CHAOS)
    ui.pline(1, text, GREEN)
    ui.pline(3, reason or "", WHITE)
