"""The menus' text (lnr/menus.py): the big title of each menu's screen drawn by
adafruit_display_text's bitmap_label.Label in terminalio.FONT at twice its size, over the text
layer of lnr/ui.py (its rails and loco), and 8 lines of text in the font tiles of that layer.

The title is the text bitmap_label suits: scaled, one per screen. The lines are font tiles,
resident for the error screen anyway: as 8 Labels they held about 11 KB more while a menu was
up, over the board's budget, and each key redrew a Label's Bitmap, glyph by glyph (about 0.4 s
on a SAMD51); a tile line is redrawn by its tile numbers (docs/memory.md).
Built when lnr.menus loads and removed before it is dropped (lnr/app.py): the library and the
title's Label are in RAM only while a menu is up, never beside the play screen's code. The
title is padded to a fixed width, so its Bitmap keeps its size and new text is drawn into the
same pixels (docs/style.md, Device).
"""
import displayio
import terminalio
from adafruit_display_text.bitmap_label import Label

from lnr.ui import fit, put, LINE_W, WHITE, YELLOW

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


TITLE_W = const(13)  # characters of the title, drawn twice the font's size


def _label(group, x, y, width, scale, colour):
    # A Label of `width` spaces whose top left is (x, y); it stays that wide (fit()).
    lbl = Label(terminalio.FONT, text=" " * width, color=colour, scale=scale,
                anchor_point=(0, 0), anchored_position=(x, y))
    group.append(lbl)
    return lbl


class Labels:
    """The title (`title`, a Label in a Group of its own appended to `layer`, lnr.ui's text
    layer) and the lines (`lines`: lnr.ui's font tile lines of that layer) of the menus'
    screens; close() takes the Label off again."""

    def __init__(self, layer, lines):
        group = displayio.Group()
        self.title = _label(group, 4, 2, TITLE_W, 2, YELLOW)
        layer.append(group)
        self.group = group
        self.layer = layer
        self.lines = lines

    def show(self, title, colour):
        """Shows the title `title` in `colour` and every line blank."""
        self.group.hidden = False
        _put(self.title, title, TITLE_W, colour)
        for text in self.lines:
            put(text, "", LINE_W, WHITE)

    def line(self, i, text, colour=WHITE):
        """Writes line i (0-7)."""
        put(self.lines[i], text, LINE_W, colour)

    def hide(self):
        """Hides the title (the error screen is font tiles: it must show whatever the heap)."""
        self.group.hidden = True

    def close(self):
        """Takes the title off the screen for good (the menus' code is being dropped)."""
        self.layer.remove(self.group)
        self.group = None
        self.title = None
        self.lines = None


def _put(lbl, text, width, colour):
    # The text padded to the Label's width (its Bitmap is reused), drawn only if it changed.
    lbl.text = fit(text, width)
    if lbl.color != colour:
        lbl.color = colour
