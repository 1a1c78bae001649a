"""Draws the font sheet into lib/lnr/font.bin: terminalio's 6x12 font's 95 printable glyphs
(characters 32 to 126) side by side, as adafruit_display_text's bitmap_label draws them, which
lib/lnr/make.py reads into the 1-bit Bitmap every line of text is tiled from (lnr/ui.py).

    python -m tools.art font            write lib/lnr/font.bin
    python -m tools.art font --check    exit 1 if it is not what bitmap_label draws

Why a file and not the library on the board: the board drew this sheet with bitmap_label at
every start, and its names stayed in RAM for good (CircuitPython never frees an interned name:
about 170 of the library's own, with their pool entries some 3 KB), for one picture that never
changes. Blinka's terminalio.FONT is the same font as the firmware's (ter-u12n), so the sheet
drawn here is the sheet the board drew (docs/memory.md).

The bytes: 12 rows from the top, each GLYPHS x 6 pixels at 1 bit a pixel, the leftmost in a
byte's high bit, a row padded to whole bytes (ROW bytes).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _p in (ROOT, os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from lnr.ui import GLYPHS, GLYPH_W, GLYPH_H  # noqa: E402
from tools import cli  # noqa: E402
from tools.art import write_or_check  # noqa: E402

OUT = os.path.join(ROOT, "lib", "lnr", "font.bin")
WIDTH = GLYPHS * GLYPH_W
ROW = (WIDTH + 7) // 8  # bytes a row


def pixels():
    """Returns the sheet's bytes (what lib/lnr/font.bin must hold): one bitmap_label Label of the
    95 characters on terminalio.FONT, every glyph filling its 6x12 cell, so a character is a
    tile (0 the background, 1 the ink)."""
    import terminalio
    from adafruit_display_text.bitmap_label import Label

    text = "".join([chr(32 + n) for n in range(GLYPHS)])
    drawn = Label(terminalio.FONT, text=text).bitmap
    if (drawn.width, drawn.height) != (WIDTH, GLYPH_H):
        raise cli.CliError("bitmap_label drew the font %dx%d, not %dx%d: each glyph no longer "
                           "fills its cell" % (drawn.width, drawn.height, WIDTH, GLYPH_H))
    out = bytearray(ROW * GLYPH_H)
    for y in range(GLYPH_H):
        for x in range(WIDTH):
            if drawn[x, y]:
                out[y * ROW + x // 8] |= 0x80 >> (x & 7)
    return bytes(out)


def main(argv=None):
    ap = cli.Parser(prog="python -m tools.art font", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if lib/lnr/font.bin is not what bitmap_label draws")
    args = ap.parse_args(argv)
    return write_or_check(args.check, OUT, pixels(), ap.prog)


if __name__ == "__main__":
    sys.exit(main())
