"""Every displayio object of the app, built once at start (docs/style.md, Device) by lnr/make.py.

Three layers share the root Group and the sprite sheet; screens only show or hide them and
change tile indices, colours and text:
  text   full-screen text: a row of decoration tiles (the title's rails and loco), a big
         title and 8 lines: the menus' (lnr/menus/labels.py: title, menus, records, game
         over) and the error screen's
  play   the track map (7x6 tiles) with each card's value over it (a badge a tile, same
         grid), the loco and a cursor on it, the side panel (8 short
         lines), a toast line over the map, and the hand (10 cards of 16x32) with its cursor,
         a veil over the cards that can't be played now and a "<" or ">" at its ends where
         more cards lie off it
  panel  a framed box the width of the screen over the map and the side panel, for the action
         menu, dice, penalty order, turn results, seats and hint:
         7 lines and a row of 8 cards (or 16 dice)
Every text line is a TileGrid of the font sheet (terminalio.FONT's glyphs, one tile per
character: lnr/make.py reads them from lnr/font.bin, which bitmap_label drew on the desktop),
and nothing more: the line's tiles are its text (Ui.put compares them, writes what changes)
and its palette its colour. The lines share one 2-colour palette per ink (0 transparent, 1 the
ink: `Ui.inks`), the toast one of its own (white on black); a line changes colour by taking
another palette. No Python object and no palette per line (RAM: docs/memory.md). They are
resident; the text library never is.
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
TITLE_W = const(13)  # characters of the text layer's title (twice the font's size)
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
DIM_YELLOW = const(0xB0A040)  # the action menu's cursor on an action not open now
# Every ink a line is shown in has a palette (lnr/make.py INKS): Ui.put fails on any other.

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


class Ui:
    """The display objects; `root` goes to hw.display.root_group."""

    def __init__(self, parts):
        # `parts`: lnr.make.build()'s display objects (lnr/main.py builds them once).
        (self.root, self.text, self.deco, self.deco_loco, self.title, self.lines, self.play,
         self.map, self.values, self.frame, self.loco, self.side, self.hand, self.veil, self.more,
         self.cursor, self.toast, self.panel, self.cards, self.plines, self.inks) = parts
        self._written = 0
        self.toast_on = False  # a toast is meant to show (lnr/play/view.py); a panel hides it
        self.show(None)

    def put(self, line, text, ink=WHITE):
        """Shows `text` on `line` (a font TileGrid), cut or padded with spaces to the line's
        width, in `ink` (white unless given, so that no line keeps the colour another screen
        gave it; None: the line keeps its palette, the toast's white on black). Only the tiles
        that change are written and the palette only when the ink changes: each write marks
        its area for the next refresh, whether it changed or not."""
        # Its bytes, not text[i]: a 1-character str is looked up among the interned names,
        # the app's own scanned one by one (CircuitPython's VM: a line of 26 about 4 times
        # slower). The texts are ASCII, the font's characters.
        chars = text.encode()
        width = line.width
        n = len(chars)
        if n > width:
            n = width
        for i in range(n):
            c = chars[i] - 32
            if c < 0 or c >= GLYPHS:
                c = 31  # "?" for what the font lacks
            if line[i] != c:
                line[i] = c
        for i in range(n, width):  # the spaces that pad it
            if line[i]:
                line[i] = 0
        if ink is not None:
            palette = self.inks[ink]
            if line.pixel_shader is not palette:
                line.pixel_shader = palette

    def show(self, layer, panel=False):
        """Shows one layer (self.text, self.play or None) and the panel over it or not; the
        panel's lines not written since clear_panel() are blanked first."""
        self.text.hidden = layer is not self.text
        self.play.hidden = layer is not self.play
        if panel and self._written != 0x7F:
            for i in range(PANEL_LINES):
                if not self._written & (1 << i):
                    self.put(self.plines[i], "")
            self._written = 0x7F
        self.panel.hidden = not panel
        self.toast.hidden = panel or not self.toast_on

    def clear_text(self):
        """Blanks the title, the lines and the decoration of the text layer."""
        self.put(self.title, "")
        for line in self.lines:
            self.put(line, "")
        deco = self.deco
        for x in range(10):
            deco[x, 0] = sprites.T_NONE
        self.deco_loco[0, 0] = sprites.T_NONE

    def pline(self, i, text, color=WHITE):
        """Writes line i of the panel."""
        self.put(self.plines[i], text, color)
        self._written |= 1 << i

    def clear_panel(self):
        """Blanks the panel's card row; its lines not written before the next show() are
        blanked then (a line is drawn once, not blanked and drawn again)."""
        self._written = 0
        cards = self.cards
        for y in range(2):
            for x in range(8):
                cards[x, y] = sprites.T_NONE
