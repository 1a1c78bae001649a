"""Every displayio object of the app, built once at start (STYLE.md, Device).

Three layers share the root Group and the sprite sheet; screens only show or hide them and
change tile indices, colours and text:
  text   full-screen text: a big title, 8 lines, a row of decoration tiles (menus, records,
         game over, error)
  play   the track map (7x6 tiles) with the loco and a cursor on it, the side panel (8 short
         lines), a toast line over the map, and the hand (10 cards of 16x32) with its cursor
  panel  a framed box over the map for the action menu, dice, penalty order and turn results:
         7 lines and a row of 8 cards (or 16 dice)
Labels are bitmap_labels in terminalio.FONT padded to a fixed width, so a new text reuses
the label's bitmap instead of allocating another.
"""
import displayio
import terminalio
from adafruit_display_text import bitmap_label

from lnr import sprites

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MAP_W = const(7)  # map tiles across
MAP_H = const(6)
HAND_N = const(10)  # hand slots shown at once
SIDE_W = const(8)  # characters in a side panel line
LINE_W = const(26)  # characters in a full-width line
PANEL_W = const(22)
TEXT_LINES = const(8)
PANEL_LINES = const(7)

WHITE = const(0xFFFFFF)
GREY = const(0x7C8494)
YELLOW = const(0xFFE030)
RED = const(0xFF4030)
GREEN = const(0x40E040)
CYAN = const(0x60D0FF)

_SPACES = " " * 32


def fit(text, width):
    """Returns `text` cut or padded with spaces to exactly `width` characters."""
    n = len(text)
    if n == width:
        return text
    if n > width:
        return text[:width]
    return text + _SPACES[:width - n]


def put(label, text, width, color=None):
    """Sets a label's text, padded to its fixed width (no new bitmap), and optionally its
    colour (a palette change only)."""
    label.text = fit(text, width)
    if color is not None and label.color != color:
        label.color = color


def _label(group, x, y, width, scale=1, color=WHITE, background=None):
    lbl = bitmap_label.Label(terminalio.FONT, text=_SPACES[:width], color=color,
                             background_color=background, scale=scale,
                             anchor_point=(0, 0), anchored_position=(x, y))
    group.append(lbl)
    return lbl


def _grid(group, sheet, pal, w, h, x, y, tw=16, th=16):
    tg = displayio.TileGrid(sheet, pixel_shader=pal, width=w, height=h, tile_width=tw,
                            tile_height=th, default_tile=sprites.T_NONE, x=x, y=y)
    group.append(tg)
    return tg


class Ui:
    """The display objects; `root` goes to hw.display.root_group."""

    def __init__(self):
        sheet, pal = sprites.build()
        self.root = displayio.Group()

        text = self.text = displayio.Group()
        self.deco = _grid(text, sheet, pal, 10, 1, 0, 30)
        self.deco_loco = _grid(text, sheet, pal, 1, 1, 96, 30)  # a sprite over the rails
        self.title = _label(text, 4, 2, 13, scale=2, color=YELLOW)
        self.lines = []
        for i in range(TEXT_LINES):
            self.lines.append(_label(text, 2, 30 + 12 * i, LINE_W))
        self.root.append(text)

        play = self.play = displayio.Group()
        self.map = _grid(play, sheet, pal, MAP_W, MAP_H, 0, 0)
        self.frame = _grid(play, sheet, pal, 1, 1, 0, 0)
        self.loco = _grid(play, sheet, pal, 1, 1, 0, 0)
        self.side = []
        for i in range(8):
            self.side.append(_label(play, 112, 12 * i, SIDE_W))
        self.hand = _grid(play, sheet, pal, HAND_N, 2, 0, 96)
        self.cursor = _grid(play, sheet, pal, 1, 2, 0, 96)
        self.cursor[0, 0] = sprites.T_CURSOR
        self.cursor[0, 1] = sprites.T_CURSOR + 1
        self.frame[0, 0] = sprites.T_FRAME
        self.toast = _label(play, 0, 84, 18, color=WHITE, background=0x000000)
        self.root.append(play)

        panel = self.panel = displayio.Group(x=8, y=0)
        box = _grid(panel, sheet, pal, 9, 6, 0, 0)
        for y in range(6):
            for x in range(9):
                col = 0 if x == 0 else (2 if x == 8 else 1)
                row = 0 if y == 0 else (2 if y == 5 else 1)
                box[x, y] = sprites.T_PANEL + row * 3 + col
        self.cards = _grid(panel, sheet, pal, 8, 2, 8, 18)
        self.plines = []
        for i in range(PANEL_LINES):
            self.plines.append(_label(panel, 6, 4 + 12 * i, PANEL_W))
        self.root.append(panel)
        self._written = 0
        self.show(None)

    def show(self, layer, panel=False):
        """Shows one layer (self.text, self.play or None) and the panel over it or not; the
        panel's lines not written since clear_panel() are blanked first."""
        self.text.hidden = layer is not self.text
        self.play.hidden = layer is not self.play
        if panel and self._written != 0x7F:
            for i in range(PANEL_LINES):
                if not self._written & (1 << i):
                    put(self.plines[i], "", PANEL_W, WHITE)
            self._written = 0x7F
        self.panel.hidden = not panel

    def clear_text(self):
        """Blanks the title, the lines and the decoration of the text layer."""
        put(self.title, "", 13)
        for lbl in self.lines:
            put(lbl, "", LINE_W, WHITE)
        deco = self.deco
        for x in range(10):
            deco[x, 0] = sprites.T_NONE
        self.deco_loco[0, 0] = sprites.T_NONE

    def pline(self, i, text, color=WHITE):
        """Writes line i of the panel."""
        put(self.plines[i], text, PANEL_W, color)
        self._written |= 1 << i

    def clear_panel(self):
        """Blanks the panel's card row; its lines not written before the next show() are
        blanked then (a line is drawn once, not blanked and drawn again)."""
        self._written = 0
        cards = self.cards
        for y in range(2):
            for x in range(8):
                cards[x, y] = sprites.T_NONE
