"""Every displayio object of the app, built once at start (docs/style.md, Device) by lnr/make.py.

Three layers share the root Group and the sprite sheet; screens only show or hide them and
change tile indices, colours and text:
  text   full-screen text: a row of decoration tiles (the title's rails and loco), a big
         title and 8 lines: the menus' (lnr/labels.py: title, menus, records, game over) and
         the error screen's
  play   the track map (7x6 tiles) with the loco and a cursor on it, the side panel (8 short
         lines), a toast line over the map, and the hand (10 cards of 16x32) with its cursor
  panel  a framed box the width of the screen over the map and the side panel, for the action
         menu, dice, penalty order, turn results, seats and hint:
         7 lines and a row of 8 cards (or 16 dice)
Every text line is a Text object: a TileGrid of the font sheet (terminalio.FONT's glyphs, one
tile per character, drawn at power-up by adafruit_display_text's bitmap_label: lnr/make.py)
with a 2-colour palette of its own, so new text only changes tile numbers and a new colour one
palette entry. They are resident; the text library is not (docs/memory.md).
"""
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
GLYPHS = const(95)  # the font sheet: characters 32 (space) to 126 (~)
GLYPH_W = const(6)  # terminalio.FONT's cell
GLYPH_H = const(12)

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


def wrap(text, width):
    """Returns `text` broken into lines of at most `width` characters, at spaces (a word
    longer than a line, e.g. a path in an error, where it must)."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > width:
                if line:
                    out.append(line)
                    line = ""
                out.append(word[:width])
                word = word[width:]
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = line + " " + word if line else word
        out.append(line)
    return out


class Text:
    """A line of text on screen: `grid` (a TileGrid of the font sheet, hidden, x and y as any),
    `palette` (0 the background, 1 the ink), `text` (what it shows, padded), `color` (ink)."""

    def __init__(self, grid, palette, color):
        self.grid = grid
        self.palette = palette
        self.color = color
        self.text = ""


def put(label, text, width, color=WHITE):
    """Sets a Text's text, padded to its fixed width (tile numbers only, and only when the text
    changed), and its colour (a palette entry: white unless given, so that no line keeps the
    colour another screen gave it)."""
    text = fit(text, width)
    if text != label.text:
        grid = label.grid
        for i in range(width):
            c = ord(text[i]) - 32
            grid[i, 0] = c if 0 <= c < GLYPHS else 31  # "?" for what the font lacks
        label.text = text
    if label.color != color:
        label.palette[1] = color
        label.color = color


class Ui:
    """The display objects; `root` goes to hw.display.root_group."""

    def __init__(self, parts):
        # `parts`: lnr.make.build()'s display objects (lnr/main.py builds them once).
        (self.root, self.text, self.deco, self.deco_loco, self.title, self.lines, self.play,
         self.map, self.frame, self.loco, self.side, self.hand, self.cursor, self.toast,
         self.panel, self.cards, self.plines) = parts
        self._written = 0
        self.toast_on = False  # a toast is meant to show (lnr/hud.py); a panel hides it
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
        self.toast.grid.hidden = panel or not self.toast_on

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
