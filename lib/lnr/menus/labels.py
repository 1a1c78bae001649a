"""The menus' text (lnr/menus/screen.py): the big title of each menu's screen and 8 lines, all
of them font tiles of lnr/ui.py's text layer (its rails and loco drawn beside them). The title
is that layer's title line, twice the font's size; the error screen writes the same line.

Font tiles, not adafruit_display_text Labels: the library draws the font sheet on the desktop
(tools/art/font.py; lnr/make.py reads it). As Labels the title held about 16 KB of library code
(.mpy, CircuitPython's VM) and 1.1 KB of its own while a menu was up, the 8 lines about 11 KB
more, and each key redrew a Label's Bitmap glyph by glyph (about 0.4 s on a SAMD51); a tile
line is redrawn by its tile numbers (docs/memory.md). The pixels are the same: every glyph of
the font fills its 6x12 cell.
"""
from lnr.ui import WHITE


class Labels:
    """The title (`title`) and the lines (`lines`) of the menus' screens: lnr.ui's font tile
    lines of its text layer."""

    def __init__(self, ui):
        self.ui = ui
        self.title = ui.title
        self.lines = ui.lines

    def show(self, title, colour):
        """Shows the title `title` in `colour` and every line blank."""
        ui = self.ui
        ui.put(self.title, title, colour)
        for line in self.lines:
            ui.put(line, "")

    def line(self, i, text, colour=WHITE):
        """Writes line i (0-7)."""
        self.ui.put(self.lines[i], text, colour)
