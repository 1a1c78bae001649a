"""Looking around the track (SELECT on the play screen): the D-pad scrolls the map by whole
cells as far as the track reaches, any other key goes back to the hand; at a table or against
the rival every seat's numbers show first (the seats board, lnr/play/result.py seats()), until
the map is scrolled.

The play screen loads this module when SELECT is pressed (Play.open_panel) and the look drops it
when it ends (Play.close_panel): its code is not in RAM while the game is played
(docs/memory.md). While it is up (step S_LOOK) Play.key hands it the keys.
"""
from engine.state import MODE_TABLE, MODE_RIVAL
from lnr.keys import K_LEFT, K_RIGHT, K_UP, K_DOWN
from lnr.play.mapview import cell_x, cell_y
from lnr.play.result import seats
from lnr.ui import GREY, YELLOW, MAP_W, MAP_H


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
            seats(play, 0, YELLOW)
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
        dx = dy = 0
        if k == K_LEFT or k == K_RIGHT:
            dx = -1 if k == K_LEFT else 1
        elif k == K_UP or k == K_DOWN:
            dy = -1 if k == K_UP else 1
        else:
            view.hide_toast()
            play.close_panel(True, "lnr.play.look", "lnr.play.result")
            return (play.advance,)  # done once this code is gone (Play.key)
        s = play.game.state
        m = view.map
        # Never off the track: the map's middle goes no further out than the track's extent,
        # open end included.
        x = m.ox + dx + (MAP_W - 1) // 2
        y = m.oy + dy + (MAP_H - 1) // 2
        x0 = y0 = 64
        x1 = y1 = -64
        for c in s.cells + [s.target()]:
            x0 = min(x0, cell_x(c))
            x1 = max(x1, cell_x(c))
            y0 = min(y0, cell_y(c))
            y1 = max(y1, cell_y(c))
        if not ((dx < 0 and x < x0) or (dx > 0 and x > x1) or (dy < 0 and y < y0) or
                (dy > 0 and y > y1)):
            m.scroll(dx, dy)
            m.draw(s)
        play.app.dirty = True
        return None
