"""The hint (START, Hint) on the play screen: what lnr/play/hintplan.py found in a switch, in
the panel, the cursor on its card. Imported by Play.hint for that moment and dropped after it
(RAM). Its risks are the screen's own figures (lnr/play/view.py risk_text, docs/rules.md §5): what
the side panel shows as "Roll" once the build is laid, and as "Lay" on the card for a build of
one card. The bot's own words are shown where they do not quote a risk of their own (its
rounding may differ from the screen's).
"""
from engine.state import A_PASS, A_STOP, A_LAY, A_CHAOS, A_PILE, P_CHAOS
from engine.cards import card_name
from lnr.play.view import risk_text, risk_colour
from lnr.ui import wrap, PANEL_W, GREY, YELLOW, GREEN, WHITE


def show(play, found):
    """Shows the hint `found` (lnr/play/hintplan.py find()) for `play` (a
    lnr.play.screen.Play on the player's turn, as it was when the hint was asked for)."""
    s = play.game.state
    if found is None:  # none for this step (e.g. while dice wait to roll)
        play.view.toast("No hint now")
        play.advance()
        return
    ui = play.ui
    ui.clear_panel()
    ui.pline(0, "Hint", YELLOW)
    if found is False:  # turned down for memory (lnr/play/plan.py): the panel says so
        ui.pline(1, "Hints are off: this", WHITE)
        ui.pline(2, "board is short of", WHITE)
        ui.pline(3, "memory.", WHITE)
        ui.pline(6, "A: OK", GREY)
        play.info(-1)
        return
    action, reason, plan, risk = found
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


_TO = ("right", "down", "left", "up")  # where a curve turns on the screen, by its exit heading


def _card(c, turn):
    # A card of the build as the hint names it: "3 curve up" (the D-pad's way, key_bend).
    return card_name(c) + (" " + _TO[turn] if turn < 4 else "")


def _build(ui, action, plan, risk):
    # The whole build: its first card (or the curve picked, its bend), then every card added
    # after it, wrapped over lines 1-3; then its risk when rolled and why (§5: the loco
    # derails if the dice show more wheels than cards ahead), with the chance of entering a
    # broken card beside it.
    turn, more, dice, ahead, hit = plan
    if action >= A_LAY:
        text = "Lay " + _card(action - A_LAY, turn if turn >= 0 else 255)
    else:
        text = "Turn it " + _TO[turn]  # the curve picked already
    if more:
        text += ", then"
        for i in range(0, len(more), 2):
            text += (" " if i == 0 else ", ") + _card(more[i], more[i + 1])
    lines = wrap(text, PANEL_W)
    for i in range(len(lines)):
        if i < 3:
            ui.pline(1 + i, lines[i], GREEN)
    num, den = risk
    text = risk_text(num, den, "Roll")
    if hit is not None:
        text += ", broken " + risk_text(hit[0], hit[1], "")[1:]
    ui.pline(4, text, risk_colour(num, den))
    ui.pline(5, "%d dice, %d card%s ahead" % (dice, ahead, "" if ahead == 1 else "s"))


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
            ahead = s.ahead()  # why (§5): more wheels than cards ahead derail
            ui.pline(4, "%d dice, %d card%s ahead" % (s.build_sum, ahead,
                                                     "" if ahead == 1 else "s"))
    elif action >= A_PILE:
        text = "Pile " + card_name(action - A_PILE)
    else:
        text = "Discard " + card_name(action - A_CHAOS)
    ui.pline(1, text, GREEN)
    ui.pline(3, reason or "", WHITE)
