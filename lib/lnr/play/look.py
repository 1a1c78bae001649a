"""Looking around the track (SELECT on the play screen): the D-pad scrolls the map by whole
cells, any other key goes back to the hand; at a table or against the rival every seat's
numbers show first (the seats board, lnr/play/view.py seats()), until the map is scrolled.

The play screen loads this module when SELECT is pressed (Play.open_panel) and the look drops it
when it ends (Play.close_panel): its code is not in RAM while the game is played
(docs/memory.md). While it is up (step S_LOOK) Play.key hands it the keys.
"""
from engine.state import MODE_TABLE, MODE_RIVAL
from lnr.keys import K_LEFT, K_RIGHT, K_UP, K_DOWN
from lnr.ui import GREY, YELLOW


class Look:
    """Looking around on `play` (a lnr.play.screen.Play on the player's turn)."""

    def __init__(self, play):
        self.play = play

    def draw(self):
        """Starts the look: the seats board first at a table or against the rival."""
        play = self.play
        ui = play.ui
        ui.cursor.hidden = True
        mode = play.game.state.mode
        if mode == MODE_TABLE or mode == MODE_RIVAL:  # every seat's numbers first
            ui.clear_panel()
            play.view.seats(0, YELLOW)
            ui.pline(6, "D-pad: look  B: back", GREY)
            ui.show(ui.play, True)
        play.view.toast("D-pad look, B back", True)
        play.app.dirty = True

    def key(self, k):
        """A key while looking: the D-pad scrolls, any other key goes back to the hand."""
        play = self.play
        ui = play.ui
        view = play.view
        if k == K_LEFT or k == K_RIGHT or k == K_UP or k == K_DOWN:
            ui.show(ui.play)  # the seats board (if up) gives way to the map
        if k == K_LEFT or k == K_RIGHT:
            view.map.scroll(-1 if k == K_LEFT else 1, 0)
        elif k == K_UP or k == K_DOWN:
            view.map.scroll(0, -1 if k == K_UP else 1)
        else:
            view.hide_toast()
            play.close_panel(True, "lnr.play.look")
            play.advance()
            return
        view.map.draw(play.game.state)
        play.app.dirty = True
