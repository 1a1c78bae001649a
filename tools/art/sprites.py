"""Draws the sprite sheet (lnr/sprites.py's tiles) into lib/lnr/sprites.bin, the 8192 bytes the
board reads into its sprite sheet's Bitmap at start-up and after every read or write of the
saves (lib/lnr/sheet.py).

    python -m tools.art sprites            write lib/lnr/sprites.bin
    python -m tools.art sprites --check    exit 1 if it is not what tools/art/tiles.py draws

Why a file and not code on the board: drawing the 56 tiles pixel by pixel took 7.0 ms on
CircuitPython's VM, about 1.9 s on a SAMD51 by tools/bots/bench.py's factor, at every start; and
the sheet's pixels are also the saves' 8 KB image buffer (lnr/sheet.py), so the sprites must come
back after each commit, where a file read takes a few milliseconds and no code in RAM.

The bytes are the firmware's own layout of a 128x128 Bitmap of 16 colours (4 bits a pixel):
rows of 64 bytes from the top, two pixels a byte, the left one in the high nibble.
host_tests/test_sprites.py draws the same tiles into CircuitPython's own Bitmap on its VM and
compares its buffer with the file, byte for byte.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _p in (ROOT, os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from lnr.sprites import COLS, ROWS  # noqa: E402
from tools import cli  # noqa: E402
from tools.art import write_or_check  # noqa: E402
from tools.art.tiles import draw  # noqa: E402

OUT = os.path.join(ROOT, "lib", "lnr", "sprites.bin")
WIDTH = COLS * 16
HEIGHT = ROWS * 16
STRIDE = WIDTH // 2  # bytes a row: 4 bits a pixel


class Canvas:
    """A 16-colour Bitmap's pixels in the firmware's byte layout (see the module's docstring):
    `canvas[x, y] = colour` as on a displayio.Bitmap."""

    def __init__(self):
        self.width = WIDTH
        self.height = HEIGHT
        self.data = bytearray(STRIDE * HEIGHT)

    def __setitem__(self, xy, c):
        x, y = xy
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT and 0 <= c < 16):
            raise IndexError("pixel (%d, %d) = %d is off the sheet" % (x, y, c))
        i = y * STRIDE + x // 2
        if x & 1:
            self.data[i] = (self.data[i] & 0xF0) | c
        else:
            self.data[i] = (self.data[i] & 0x0F) | (c << 4)


def pixels():
    """Returns the sheet's bytes (what lib/lnr/sprites.bin must hold)."""
    canvas = Canvas()
    draw(canvas)
    return bytes(canvas.data)


def main(argv=None):
    ap = cli.Parser(prog="python -m tools.art sprites", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if lib/lnr/sprites.bin is not what the drawing makes")
    args = ap.parse_args(argv)
    return write_or_check(args.check, OUT, pixels(), ap.prog)


if __name__ == "__main__":
    sys.exit(main())
