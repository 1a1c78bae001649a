"""The hint (START, Hint): what the `best` bot would do now (engine.bots), in the panel, the
cursor on its card. Imported by Play.show_hint for the key press and dropped after it (RAM).

A build is named whole: the card, its bend, and the cards to add after it in their order, each
asked of the bot as the turn would go (the bot plans the whole turn and keeps to its plan:
engine/bots.py), on a copy of the State. Its risk is the screen's own figure (lnr/hud.py
risk_text of state.build_risk, docs/rules.md §5): what the side panel shows as "Roll" once the
build is laid, and as "Lay" on the card for a build of one card. The bot's own words are shown
where they do not quote a risk of their own (its rounding may differ from the screen's).
"""
from engine.cards import KIND, KIND_CHAOS
from engine.state import (
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, A_PILE, P_BEND, P_BUILD, P_CHAOS,
)
from lnr.hud import S_INFO, card_name, risk_text, risk_colour
from lnr.ui import GREY, YELLOW, GREEN, WHITE

_MORE = 3  # cards named after the first (a build of one value has at most 4 here)


def show(play):
    """Shows the hint for `play` (a lnr.play.Play on the player's turn)."""
    g = play.game
    s = g.state
    reason = ""
    try:
        from engine.bots import hint

        action, reason = hint(s)
        plan = _plan(hint, s, action) if action is not None and (
            A_LAY <= action < A_CHAOS or action == A_BEND_L or action == A_BEND_R) else None
    except Exception:  # a hint must never end the game
        action = None
    if action is None:  # no hint for this step (bots.hint: e.g. while dice wait to roll)
        play.toast("No hint now")
        play.advance()
        return
    ui = play.ui
    ui.clear_panel()
    ui.pline(0, "Hint", YELLOW)
    if plan is not None:
        _build(ui, s, action, plan)
    else:
        _other(ui, s, action, reason)
    ui.pline(6, "A: OK", GREY)
    cards = play.cards()
    card = action - A_CHAOS if action >= A_CHAOS else action - A_LAY
    for i in range(len(cards)):
        if action >= A_LAY and cards[i] == card:
            play.sel = i
    if action == A_STOP:
        play.sel = len(cards)
    play.clamp_sel()
    play.summary = False
    play.draw()
    play.step = S_INFO
    ui.show(ui.play, True)
    play.app.dirty = True


def _plan(hint, s, action):
    # Plays the bot's build on a copy: returns [bend of the first card or -1, the cards
    # added after it...] and leaves the copy's build laid (the last item: the copy).
    t = s.clone()
    bend = -1
    more = []
    while True:
        t.apply(action)
        if t.phase == P_BEND:  # the curve's bend: the bot's next step
            action = hint(t)[0]
            if action != A_BEND_L and action != A_BEND_R:
                break
            if bend < 0 and not more:
                bend = action
            t.apply(action)
        if t.phase != P_BUILD or len(more) >= _MORE:
            break
        action = hint(t)[0]
        if action is None or not A_LAY <= action < A_CHAOS:
            break  # it rolls
        more.append(action - A_LAY)
    return [bend, more, t]


def _build(ui, s, action, plan):
    bend, more, t = plan
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
    num, den = t.build_risk()
    ui.pline(4, "Risk when rolled:")
    ui.pline(5, risk_text(num, den, "Roll"), risk_colour(num, den))


def _other(ui, s, action, reason):
    if action == A_PASS:
        text = "Pass"
        if "%" in reason:  # the bot's risk, in its own rounding: the screen's instead
            reason = _safest(s)
    elif action == A_STOP:
        if s.phase == P_CHAOS:
            text = "Stop discarding"
        else:
            text = "Roll the dice"
            num, den = s.build_risk()
            reason = risk_text(num, den, "Roll")
    elif action >= A_PILE:
        text = "Pile " + card_name(action - A_PILE)
    else:
        text = "Discard " + card_name(action - A_CHAOS)
    ui.pline(1, text, GREEN)
    ui.pline(3, reason or "", WHITE)


def _safest(s):
    # The lowest risk the side panel shows on a card now ("Lay" of the card alone), or "".
    least = None
    for c in s.hands[s.seat]:
        if KIND[c] != KIND_CHAOS and s.is_legal(A_LAY + c):
            num, den = s.build_risk(c)
            if least is None or num * least[1] < least[0] * den:
                least = (num, den)
    if least is None:
        return ""
    return "safest: " + risk_text(least[0], least[1], "Lay")
