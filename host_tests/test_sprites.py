"""The sprite sheet (lib/lnr/sheet.py): its pixels come from lib/lnr/sprites.bin, which must be
what tools/art/tiles.py draws, in the byte layout of CircuitPython's own Bitmap; and on
CircuitPython the same 8 KB are the saves' image buffer, given back with the sprites after every
read and write of the saves (docs/storage.md, docs/memory.md)."""
from engine.gamelog import GameLog
from lnr import sheet
from lnr.limits import IMAGE_SIZE
from lnr.sprites import COLS, ROWS, T_NOPILE
from lnr.storage import Storage
from tools.art import sprites as draw_sprites
from tools.flash.sync import make_save_file_in


def sprites_bin():
    with open(sheet.PATH, "rb") as f:
        return f.read()


def test_the_shipped_sprites_are_what_the_drawing_makes():
    # A change to tools/art/tiles.py must be followed by `python -m tools.art sprites`.
    assert sprites_bin() == draw_sprites.pixels()


def test_the_sheet_is_exactly_the_saves_image_and_holds_every_tile():
    # 4 bits a pixel: the sheet's bytes are the NVM's one erase block (lnr/limits.py), so the
    # saves can borrow it whole; and no tile number lies beyond it.
    assert COLS * 16 * ROWS * 16 // 2 == IMAGE_SIZE == len(sprites_bin())
    assert T_NOPILE + 1 < COLS * ROWS


def test_the_simulators_sheet_is_filled_pixel_by_pixel_from_the_file():
    # Blinka's Bitmap lends no buffer: lend() says so and fill() sets the pixels.
    bitmap = sheet.new()
    assert sheet.lend(bitmap) is None
    sheet.fill(bitmap)
    data = sprites_bin()
    for y in range(0, ROWS * 16, 3):
        for x in range(COLS * 16):
            b = data[y * COLS * 8 + x // 2]
            assert bitmap[x, y] == (b >> 4 if x % 2 == 0 else b & 15), (x, y)


class Lent:
    """A sprite sheet as CircuitPython's Bitmap lends its bytes (a memoryview of 8 KB) to the
    Storage: lnr/saves.py reads the sprites back into them (lnr.sheet fill()), which marks the
    sheet dirty: the restores, counted."""

    def __init__(self):
        self.pixels = bytearray(sprites_bin())
        self.buf = memoryview(self.pixels)
        self.restores = 0

    def dirty(self):
        self.restores += 1


def test_every_read_and_write_of_the_saves_gives_the_sprites_back(tmp_path):
    # The saves write their image into the sheet's bytes; the display must never be refreshed
    # with those bytes as sprites, so each Storage call that used them restores them before it
    # returns, and nothing the Storage keeps points into them (the saved game, the history).
    drive = str(tmp_path)
    make_save_file_in(drive)  # the drive as make flash leaves it (the game makes no file)
    nvm = bytearray(b"\xff" * IMAGE_SIZE)
    lent = Lent()
    s = Storage(nvm, drive, True, lent.buf, lent)
    s.load()
    assert lent.restores == 1 and lent.pixels == sprites_bin()
    s.finish_game(0, 23, True, 77, 1, GameLog(b"\xa5\x80", 9))
    assert lent.restores == 2 and lent.pixels == sprites_bin()
    s.save_game(b"a saved game")
    assert lent.restores == 3
    games = s.history()
    assert lent.restores == 4 and lent.pixels == sprites_bin()
    assert s.saved == b"a saved game" and len(games) == 1
    # What was written is the image, not the sprites: a Storage with a buffer of its own reads
    # the same records, saved game and history from the NVM alone and from the file alone.
    for t in (Storage(nvm), Storage(bytearray(b"\xff" * IMAGE_SIZE), drive, True)):
        t.load()
        assert t.best[0] == 23 and t.saved == b"a saved game" and t.history() == games


# The same on CircuitPython's own VM, with the real Bitmap's bytes lent (lnr/sheet.py) and the
# sprites read back from lib/lnr/sprites.bin after each read or write (lnr/saves.py).
CP_LENT = """
import sys
from binascii import crc32
from engine.gamelog import GameLog
from lnr import sheet
from lnr.storage import Storage
from tools.art.tiles import draw

drawn = sheet.new()
draw(drawn)  # the layout: drawn by the firmware's own Bitmap, byte for byte the file's
with open(sheet.PATH, "rb") as f:
    assert bytes(memoryview(drawn)) == f.read(), "sprites.bin is not the Bitmap's layout"
want = crc32(memoryview(drawn))
drawn = None
bitmap = sheet.new()
lent = sheet.lend(bitmap)
assert lent is not None and len(lent) == 8192
nvm = bytearray(b"\\xff" * 8192)
s = Storage(nvm, sys.argv[1], True, lent, bitmap)
s.load()
assert crc32(lent) == want
s.finish_game(0, 23, True, 77, 1, GameLog(b"\\xa5\\x80", 9))
assert crc32(lent) == want
s.save_game(b"a saved game")
games = s.history()
assert crc32(lent) == want and bitmap[16, 0] != 0
t = Storage(nvm)
t.load()
assert t.best[0] == 23 and t.saved == b"a saved game" and t.history() == games
print("ok", len(games))
"""


def test_the_saves_through_the_sheets_bytes_on_circuitpythons_own_vm(store_on_circuitpython):
    r, _ = store_on_circuitpython(CP_LENT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split() == ["ok", "1"]
