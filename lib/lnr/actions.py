"""The play screen's action menu (START): pass, build, discard the chaos cards, the hint, save &
quit, each item with what it does or why it cannot be chosen now (docs/rules.md §4).

lnr/play.py loads this module when START opens the menu and it drops itself when the menu
closes: its code (about 2 KB as .mpy) is not in RAM while the game is played, only while the
menu is up (docs/memory.md). Loading it takes a few ms on a key press, never a frame's work.
While it is up (step S_MENU) Play.key hands it the keys.
"""
from engine.cards import KIND, VALUE, SHAPE, KIND_CHAOS, SHAPE_CURVE
from engine.state import A_PASS, A_STOP, A_LAY, A_CHAOS, P_TURN, P_BUILD, P_CHAOS, P_DICE
from lnr import drop
from lnr.refusal import reason
from lnr.hud import S_HAND, S_MENU, S_THINK
from lnr.keys import K_A, K_B, K_START, K_UP, K_DOWN
from lnr.ui import WHITE, GREY, YELLOW, DIM_YELLOW, GREEN

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


ITEMS = ("Pass", "Build", "Discard chaos", "Hint", "Save & quit")
# What each item does, under the menu (docs/rules.md §4).
_HELP = ("Loco +1, 1 penalty", "Lay / roll the dice", "Best order, no penalty",
         "What would a bot do?", "Continue from title")
_PASS = const(0)
_BUILD = const(1)
_CHAOS = const(2)
_HINT = const(3)


def show(play):
    """Opens the menu on `play` (a lnr.play.Play on the player's turn), its first item chosen."""
    play.step = S_MENU
    play.mi = 0
    play.summary = False
    draw(play)


def why(play, i):
    """Returns None if item i can be chosen now, else why not (a panel line)."""
    s = play.game.state
    if i == _PASS:
        return None if s.phase == P_TURN else "The build has begun"
    if i == _BUILD:
        if s.phase == P_BUILD or s.phase == P_DICE:
            return None
        c = play.selected()
        if s.phase != P_TURN or c < 0 or KIND[c] == KIND_CHAOS:
            return "Select a track card"
        return None if s.is_legal(A_LAY + c) else reason(play, c)
    if i == _CHAOS:
        if s.phase != P_TURN and s.phase != P_CHAOS:
            return "Finish the build"
        for c in s.hands[s.seat]:
            if KIND[c] == KIND_CHAOS:
                return None
        return "No chaos card"
    if i == _HINT:
        return None if play.app.store.hints else "Hints are off"
    return None


def draw(play):
    """Draws the menu in the panel, the cursor on item play.mi."""
    s = play.game.state
    ui = play.ui
    ui.clear_panel()
    ui.pline(0, "Your move", YELLOW)
    composing = s.phase == P_BUILD or s.phase == P_DICE
    c = play.selected()
    for i in range(len(ITEMS)):
        text = ITEMS[i]
        if i == _BUILD:
            if composing:
                text = "Build: roll dice"
            elif c >= 0 and KIND[c] != KIND_CHAOS:
                text = "Build: %d %s" % (VALUE[c], "curve" if SHAPE[c] == SHAPE_CURVE
                                         else "straight")
        reason = why(play, i)
        colour = GREY if reason else WHITE
        if i == play.mi:
            colour = YELLOW if not reason else DIM_YELLOW
        ui.pline(1 + i, ("> " if i == play.mi else "  ") + text, colour)
    reason = why(play, play.mi)
    ui.pline(6, reason or _HELP[play.mi], GREY if reason else GREEN)
    ui.show(ui.play, True)
    play.app.dirty = True


def key(play, k):
    """A key while the menu is up: UP/DOWN choose, A does the item (if it can be chosen now),
    B or START close the menu."""
    if k == K_UP or k == K_DOWN:
        play.mi = (play.mi + (1 if k == K_DOWN else len(ITEMS) - 1)) % len(ITEMS)
        draw(play)
    elif k == K_B or k == K_START:
        _close(play)
        play.draw()
    elif k == K_A:
        i = play.mi
        if why(play, i) is not None:
            return
        _close(play)
        s = play.game.state
        if i == _PASS:
            play.act(A_PASS)
        elif i == _BUILD:
            if s.phase == P_TURN:
                play.pick()
            else:
                if s.phase == P_BUILD:
                    s.apply(A_STOP)
                play.start_roll()
        elif i == _CHAOS:
            _discard_chaos(play)
        elif i == _HINT:
            _ask_hint(play)
        else:
            play.app.save_and_quit(play.game, play.undo)


def _close(play):
    # The map again, and this module dropped (Play.panel held it while the menu was up).
    play.step = S_HAND
    play.ui.show(play.ui.play)
    play.panel = None
    drop("lnr.actions", "lnr.refusal")


def _discard_chaos(play):
    # Discards every chaos card in hand, in the order that scores best (docs/rules.md §6:
    # engine.order's, loaded for this moment when there is an order to choose, as in
    # lnr/moveshow.py start_order).
    s = play.game.state
    seat = s.seat
    chaos = []
    for c in s.hands[seat]:
        if KIND[c] == KIND_CHAOS:
            chaos.append(c)
    if len(chaos) > 1:
        from engine.order import best

        chaos = best(s.piles[seat], chaos)
        best = None
        drop("engine.order")
    box = len(s.box)
    for c in chaos:
        s.apply(A_CHAOS + c)  # the last one ends the turn (docs/rules.md §4)
    play.sfx("combine" if len(s.box) > box + 1 else "lay")
    play.toast("Chaos out, now %d" % s.score(seat))
    play.advance()


def _ask_hint(play):
    # Asks for the hint: it is worked out in a move with the play screen's code dropped
    # (engine.bots and engine.ai beside it would not fit: lnr/think.py think), then shown by
    # Play.hint(). First the screen says so: the move takes up to a few seconds on a board
    # (the look-ahead's 1.5 s and the code loaded and dropped), and the display is not
    # refreshed while it runs, so the menu would stand frozen there meanwhile. The move starts
    # on the next frame (lnr/turns.py run_step), after the refresh that shows the toast.
    play.toast("Thinking...", True)
    play.wait(S_THINK, 1)
    play.app.dirty = True
