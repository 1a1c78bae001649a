"""Looking around the track (SELECT on the play screen): the D-pad scrolls the map by whole
cells, any other key goes back to the hand; at a table or against the rival every seat's
numbers show first (the seats board, lnr/hud.py seats()), until the map is scrolled.

lnr/play.py loads this module when SELECT is pressed and it drops itself when the look ends:
its code is not in RAM while the game is played (docs/memory.md). While it is up (step
S_LOOK) Play.key hands it the keys.
"""
from engine.state import MODE_TABLE, MODE_RIVAL
from lnr import drop
from lnr.hud import S_HAND, S_LOOK
from lnr.keys import K_LEFT, K_RIGHT, K_UP, K_DOWN
from lnr.ui import GREY, YELLOW


def show(play):
    """Starts looking around on `play` (a lnr.play.Play on the player's turn)."""
    play.step = S_LOOK
    ui = play.ui
    ui.cursor.hidden = True
    mode = play.game.state.mode
    if mode == MODE_TABLE or mode == MODE_RIVAL:  # every seat's numbers first
        ui.clear_panel()
        play.seats(0, YELLOW)
        ui.pline(6, "D-pad: look  B: back", GREY)
        ui.show(ui.play, True)
    play.toast("D-pad look, B back", True)
    play.app.dirty = True


def key(play, k):
    """A key while looking: the D-pad scrolls, any other key goes back to the hand."""
    ui = play.ui
    if k == K_LEFT or k == K_RIGHT or k == K_UP or k == K_DOWN:
        ui.show(ui.play)  # the seats board (if up) gives way to the map
    if k == K_LEFT or k == K_RIGHT:
        play.view.scroll(-1 if k == K_LEFT else 1, 0)
    elif k == K_UP or k == K_DOWN:
        play.view.scroll(0, -1 if k == K_UP else 1)
    else:
        play.step = S_HAND
        play.hide_toast()
        play.panel = None  # this module goes (Play.panel held it while looking)
        drop("lnr.look")
        play.advance()
        return
    play.view.draw(play.game.state)
    play.app.dirty = True
