"""The menus' text (lnr/menus.py): a big title and 8 lines drawn by adafruit_display_text's
bitmap_label.Label in terminalio.FONT, over the text layer of lnr/ui.py (its rails and loco).

Built when lnr.menus loads and removed before it is dropped (lnr/app.py): the library and these
Labels are in RAM only while a menu is up, never beside the play screen's code, whose text
stays font tiles (docs/memory.md says what each costs). Every line is padded to a fixed
width, so a Label's Bitmap keeps its size and new text is drawn into the same pixels
(docs/style.md, Device).
"""
import displayio
import terminalio
from adafruit_display_text.bitmap_label import Label

from lnr.ui import fit, LINE_W, TEXT_LINES, WHITE, YELLOW

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


TITLE_W = const(13)  # characters of the title, drawn twice the font's size
_TOP = const(30)  # the first line's top: under the title and its rails
_LINE_H = const(12)  # terminalio.FONT's cell is 6x12: lines touch, as the font tiles do


def _label(group, x, y, width, scale, colour):
    # A Label of `width` spaces whose top left is (x, y); it stays that wide (fit()).
    lbl = Label(terminalio.FONT, text=" " * width, color=colour, scale=scale,
                anchor_point=(0, 0), anchored_position=(x, y))
    group.append(lbl)
    return lbl


class Labels:
    """The title (`title`) and the lines (`lines`) of the menus' screens, in a Group of their
    own appended to `layer` (lnr.ui's text layer); close() takes it off again."""

    def __init__(self, layer):
        group = displayio.Group()
        self.title = _label(group, 4, 2, TITLE_W, 2, YELLOW)
        self.lines = []
        for i in range(TEXT_LINES):
            self.lines.append(_label(group, 2, _TOP + _LINE_H * i, LINE_W, 1, WHITE))
        layer.append(group)
        self.group = group
        self.layer = layer

    def show(self, title, colour):
        """Shows the Labels with `title` in `colour` and every line blank."""
        self.group.hidden = False
        _put(self.title, title, TITLE_W, colour)
        for lbl in self.lines:
            _put(lbl, "", LINE_W, WHITE)

    def line(self, i, text, colour=WHITE):
        """Writes line i (0-7)."""
        _put(self.lines[i], text, LINE_W, colour)

    def hide(self):
        """Hides the Labels (the error screen is font tiles: it must show whatever the heap)."""
        self.group.hidden = True

    def close(self):
        """Takes the Labels off the screen for good (the menus' code is being dropped)."""
        self.layer.remove(self.group)
        self.group = None
        self.title = None
        self.lines = None


def _put(lbl, text, width, colour):
    # The text padded to the Label's width (its Bitmap is reused), drawn only if it changed.
    lbl.text = fit(text, width)
    if lbl.color != colour:
        lbl.color = colour
