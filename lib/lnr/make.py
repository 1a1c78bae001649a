"""Start-up only: reads the font sheet and builds every display object of lnr/ui.py over the
sprite sheet lnr/main.py made (lnr/sheet.py: its pixels come from sprites.bin). Once the objects
exist, this module's code is needed no more: lnr.main drops it from sys.modules so the
collector can take it back.

All text, the menus' and the play screen's and the error screen's, is drawn as TileGrids of one
1-bit sheet of terminalio.FONT's 95 printable glyphs (864 B), as CircuitPython's own terminal
does; the menus' big titles too, at twice the size (a Group of scale 2). The lines share one
2-colour palette per ink (INKS below), the toast has its own (white on black). The sheet's
pixels come from font.bin beside this module, which adafruit_display_text's bitmap_label drew on
the desktop (tools/art/font.py: every glyph fills its 6x12 cell, so a character is a tile). The
board drew it with bitmap_label at every start before, and the library's names stayed in RAM
for good (docs/memory.md).
"""
import displayio

from lnr import sprites
from lnr.sprites import C_CLEAR, COLOURS
from lnr.ui import MAP_W, MAP_H, HAND_N, SIDE_W, LINE_W, TITLE_W, PANEL_W, TEXT_LINES
from lnr.ui import PANEL_LINES, GLYPHS, GLYPH_W, GLYPH_H
from lnr.ui import WHITE, GREY, YELLOW, DIM_YELLOW, RED, GREEN, CYAN

# Every ink a line of text is shown in (lnr.ui.Ui.put): a palette each, built once.
INKS = (WHITE, GREY, YELLOW, DIM_YELLOW, RED, GREEN, CYAN)


FONT_PATH = __file__.rsplit("/", 1)[0] + "/font.bin"


def _font():
    # The printable ASCII glyphs of terminalio.FONT side by side in a 1-bit Bitmap (0 the
    # background, 1 the ink): tile n is character 32 + n. font.bin holds them a row at a time,
    # a bit a pixel, the leftmost in a byte's high bit (tools/art/font.py).
    width = GLYPHS * GLYPH_W
    sheet = displayio.Bitmap(width, GLYPH_H, 2)
    row = bytearray((width + 7) // 8)
    try:
        f = open(FONT_PATH, "rb")
    except OSError:
        raise OSError("no font: lnr/font.bin is missing, flash the game again") from None
    with f:
        for y in range(GLYPH_H):
            if f.readinto(row) != len(row):
                raise OSError("lnr/font.bin is short: flash the game again")
            for x in range(width):
                if row[x >> 3] & (0x80 >> (x & 7)):
                    sheet[x, y] = 1
    return sheet


def _palette(background, ink):
    # A line's 2 colours: 0 the background (None: transparent), 1 the ink.
    pal = displayio.Palette(2)
    if background is None:
        pal.make_transparent(0)
    else:
        pal[0] = background
    pal[1] = ink
    return pal


def _inks():
    # One palette per ink on a transparent background, shared by every line shown in it
    # (a palette is 64 B on the board; 24 lines share 7): a line's colour is its palette.
    inks = {}
    for ink in INKS:
        inks[ink] = _palette(None, ink)
    return inks


def _label(group, font, pal, x, y, width, scale=1):
    # A line of `width` characters at (x, y) (its top left) in the palette `pal`; scale 2
    # doubles it in a Group of its own.
    grid = displayio.TileGrid(font, pixel_shader=pal, width=width, height=1,
                              tile_width=GLYPH_W, tile_height=GLYPH_H, default_tile=0,
                              x=x if scale == 1 else 0, y=y if scale == 1 else 0)
    if scale == 1:
        group.append(grid)
    else:
        big = displayio.Group(scale=scale, x=x, y=y)
        big.append(grid)
        group.append(big)
    return grid


def _grid(group, sheet, pal, w, h, x, y, tw=16, th=16):
    tg = displayio.TileGrid(sheet, pixel_shader=pal, width=w, height=h, tile_width=tw,
                            tile_height=th, default_tile=sprites.T_NONE, x=x, y=y)
    group.append(tg)
    return tg


def build(sheet):
    """Builds every display object over `sheet` (lnr/sheet.py's, its sprites read); returns them
    in the order lnr.ui.Ui takes them."""
    pal = displayio.Palette(16)
    for i in range(16):
        pal[i] = COLOURS[i]
    pal.make_transparent(C_CLEAR)
    font = _font()
    inks = _inks()
    white = inks[WHITE]
    root = displayio.Group()

    text = displayio.Group()
    deco = _grid(text, sheet, pal, 10, 1, 0, 30)
    deco_loco = _grid(text, sheet, pal, 1, 1, 96, 30)  # a sprite over the rails
    title = _label(text, font, inks[YELLOW], 4, 2, TITLE_W, scale=2)
    lines = []
    for i in range(TEXT_LINES):
        lines.append(_label(text, font, white, 2, 30 + 12 * i, LINE_W))
    root.append(text)

    play = displayio.Group()
    map_ = _grid(play, sheet, pal, MAP_W, MAP_H, 0, 0)
    frame = _grid(play, sheet, pal, 1, 1, 0, 0)
    loco = _grid(play, sheet, pal, 1, 1, 0, 0)
    # Each card's value over the map, the loco's card's over the loco: never hidden.
    values = _grid(play, sheet, pal, MAP_W, MAP_H, 0, 0)
    side = []
    for i in range(8):
        side.append(_label(play, font, white, 112, 12 * i, SIDE_W))
    hand = _grid(play, sheet, pal, HAND_N, 2, 0, 96)
    veil = _grid(play, sheet, pal, HAND_N, 2, 0, 96)  # over the cards that can't be played
    more = _label(play, font, inks[RED], 2, 114, LINE_W)  # "<" ">": cards off the hand's ends
    cursor = _grid(play, sheet, pal, 1, 2, 0, 96)
    cursor[0, 0] = sprites.T_CURSOR
    cursor[0, 1] = sprites.T_CURSOR + 1
    frame[0, 0] = sprites.T_FRAME
    toast = _label(play, font, _palette(0x000000, WHITE), 0, 84, 18)
    root.append(play)

    # The panel's box spans the screen's width (the side panel's last column must not show
    # at its edge); its text and cards sit where a box 16 px in from each side puts them.
    panel = displayio.Group(x=0, y=0)
    box = _grid(panel, sheet, pal, 10, 6, 0, 0)
    for y in range(6):
        for x in range(10):
            col = 0 if x == 0 else (2 if x == 9 else 1)
            row = 0 if y == 0 else (2 if y == 5 else 1)
            box[x, y] = sprites.T_PANEL + row * 3 + col
    cards = _grid(panel, sheet, pal, 8, 2, 16, 18)
    plines = []
    for i in range(PANEL_LINES):
        plines.append(_label(panel, font, white, 14, 4 + 12 * i, PANEL_W))
    root.append(panel)
    return (root, text, deco, deco_loco, title, lines, play, map_, values, frame, loco, side,
            hand, veil, more, cursor, toast, panel, cards, plines, inks)
