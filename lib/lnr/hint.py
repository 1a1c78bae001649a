"""The hint (START, Hint): what engine.bots.hint() would do now, in the panel, the cursor on
its card. Imported by Play.show_hint for the key press and dropped after it (RAM)."""
from engine.cards import describe
from engine.state import A_PASS, A_STOP, A_BEND_L, A_LAY, A_CHAOS, A_PILE, P_CHAOS
from lnr.hud import S_INFO
from lnr.ui import GREY, YELLOW, GREEN


def show(play):
    """Shows the hint for `play` (a lnr.play.Play on the player's turn)."""
    g = play.game
    s = g.state
    reason = ""
    try:
        from engine import bots

        # hint(state) -> (action, reason); until the engine has it, a random legal action.
        hint = getattr(bots, "hint", None)
        if hint is not None:
            action, reason = hint(s)
        else:
            action = bots.BOTS["random"](s, g.bot_rng)
    except Exception:  # a hint must never end the game
        action = None
    if action is None:  # no hint for this step (bots.hint: e.g. while dice wait to roll)
        play.toast("No hint now")
        play.advance()
        return
    if action == A_PASS:
        text = "Pass"
    elif action == A_STOP:
        text = "Roll the dice" if s.phase != P_CHAOS else "Stop discarding"
    elif action >= A_PILE:
        text = "Pile %s" % describe(action - A_PILE)
    elif action >= A_CHAOS:
        text = "Discard " + describe(action - A_CHAOS)
    elif action >= A_LAY:
        text = "Lay " + describe(action - A_LAY)
    else:
        text = "Bend " + ("left" if action == A_BEND_L else "right")
    card = action - A_CHAOS if action >= A_CHAOS else action - A_LAY
    cards = play.cards()
    for i in range(len(cards)):
        if action >= A_LAY and cards[i] == card:
            play.sel = i
    if action == A_STOP:
        play.sel = len(cards)
    play.clamp_sel()
    ui = play.ui
    ui.clear_panel()
    ui.pline(0, "Hint", YELLOW)
    ui.pline(2, text, GREEN)
    ui.pline(3, reason or "")
    ui.pline(6, "A: OK", GREY)
    play.draw()
    play.step = S_INFO
    ui.show(ui.play, True)
    play.app.dirty = True

