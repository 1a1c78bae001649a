"""The sprite sheet's Bitmap: made at power-up, its pixels read from sprites.bin (beside this
module; tools/art/sprites.py draws it), and on CircuitPython lent to the saves as their 8 KB
image buffer.

Why lend it: the NVM takes the saves' image in one slice assignment (one erase of its block),
so their buffer is one 8 KB object, which a heap left in pieces may not have. The sheet is an
8 KB block made at power-up and kept anyway: CircuitPython's Bitmap gives its pixel bytes as a
buffer (memoryview), so the saves read and write their image there, and the sheet is read
again from the file once they are done (lnr/saves.py calls fill(), this module loaded again
for that moment: lnr.main drops it after power-up, RAM). The screen never shows the image's bytes as sprites: the display is
refreshed only after a frame's moves are made (lnr/main.py step()), and a read or write of the
saves is always inside a move, which restores the sheet before it returns. That keeps 8 KB
free in every phase (docs/memory.md). Blinka's Bitmap (the simulator) and the MicroPython
stand-in's keep their pixels to themselves: there the saves get a buffer of their own.
"""
import displayio

from lnr.limits import IMAGE_SIZE
from lnr.sprites import COLS, ROWS

PATH = __file__.rsplit("/", 1)[0] + "/sprites.bin"


def new():
    """Returns a blank sheet: a 16-colour Bitmap of COLS x ROWS tiles of 16x16 pixels."""
    return displayio.Bitmap(COLS * 16, ROWS * 16, 16)


def lend(sheet):
    """Returns the sheet's pixel bytes as a writable buffer of IMAGE_SIZE bytes, or None where
    its Bitmap does not lend them."""
    try:
        buf = memoryview(sheet)
    except TypeError:
        return None
    return buf if len(buf) == IMAGE_SIZE else None


def fill(sheet, buf=None):
    """Reads sprites.bin into `sheet`: straight into its bytes `buf` (lend()'s) when given, else
    pixel by pixel into a blank sheet (new()'s). Raises OSError if the file is missing or
    short (a broken install)."""
    try:
        f = open(PATH, "rb")
    except OSError:
        raise OSError("no sprites: lnr/sprites.bin is missing, flash the game again") from None
    with f:
        if buf is not None:
            if f.readinto(buf) != IMAGE_SIZE:
                raise OSError("lnr/sprites.bin is short: flash the game again")
            sheet.dirty()  # the firmware redraws what shows it, at the next refresh
            return
        row = bytearray(COLS * 8)  # a row of pixels, two a byte, the left one high
        for y in range(ROWS * 16):
            if f.readinto(row) != len(row):
                raise OSError("lnr/sprites.bin is short: flash the game again")
            for i in range(len(row)):
                b = row[i]
                if b:
                    sheet[2 * i, y] = b >> 4
                    sheet[2 * i + 1, y] = b & 15
