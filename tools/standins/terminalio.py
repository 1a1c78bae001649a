"""terminalio: FONT, the built-in 6x12 font, with blank glyphs of the right size.

Its one glyph bitmap is made with displayio's Bitmap (the VM's own where it has one). On a board
the font lives in the firmware's flash: tools/vm/membudget forgets this Bitmap (displayio.forget())
before it counts the app's.
"""
import displayio

WIDTH = 6
HEIGHT = 12


class _Glyph:
    def __init__(self, bitmap):
        self.bitmap = bitmap
        self.tile_index = 0
        self.width = WIDTH
        self.height = HEIGHT
        self.dx = 0
        self.dy = -2
        self.shift_x = WIDTH
        self.shift_y = 0


class _Font:
    """fontio.BuiltinFont as the app uses it: every character has the same glyph."""

    def __init__(self):
        self.bitmap = displayio.Bitmap(WIDTH, HEIGHT, 2)
        self._glyph = _Glyph(self.bitmap)

    def get_glyph(self, codepoint):
        return self._glyph

    def get_bounding_box(self):
        return (WIDTH, HEIGHT)


FONT = _Font()
