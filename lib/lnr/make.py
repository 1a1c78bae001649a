"""Start-up only: draws the sprite sheet and the font sheet and builds every display object of
lnr/ui.py.

Drawing the tiles in code costs a few hundred bytes of source instead of a 7 KB literal that
the board would have to compile in RAM; and once the objects exist, this module's code is
needed no more: lnr.main drops it from sys.modules so the collector can take it back.

The play screen's text (and the error screen's) is drawn as TileGrids of one 1-bit sheet of
terminalio.FONT's 95 printable glyphs (864 B), as CircuitPython's own terminal does. The menus'
text is adafruit_display_text's bitmap_label (lnr/labels.py), loaded with the menus only: beside
the play screen its code would keep 25788 B as .py, 16706 B as .mpy (bitmap_label, its
package's __init__ and adafruit_ticks), and each Label of a line 1350 B (.py) or 1238 B (.mpy)
more (`make membudget`, docs/memory.md). The pixels are the same (every glyph fills its 6x12
cell, so a character is a tile).
"""
import displayio
import terminalio

from lnr import sprites
from lnr.sprites import (
    COLS, ROWS, C_CLEAR, C_GROUND, C_SLEEPER, C_RAIL, C_RED, C_WHITE, C_BLACK, C_V1, C_YELLOW,
    C_LOCO, C_CHAOS, C_PANEL, C_EDGE, COLOURS, T_EMPTY, T_STRAIGHT, T_CURVE, T_BROKEN, T_END,
    T_LOCO, T_FRAME, T_DIGIT, T_CDIGIT, T_KIND, T_CURSOR, T_ROLL, T_DONE, T_GO, T_DIE,
    T_PANEL, T_ONTO, T_NOPILE,
)
from lnr.ui import MAP_W, MAP_H, HAND_N, SIDE_W, LINE_W, PANEL_W, TEXT_LINES, PANEL_LINES
from lnr.ui import WHITE, YELLOW, Text, GLYPHS, GLYPH_W, GLYPH_H


def _font():
    # The printable ASCII glyphs of terminalio.FONT side by side in a 1-bit Bitmap: tile n
    # is character 32 + n.
    font = terminalio.FONT
    sheet = displayio.Bitmap(GLYPHS * GLYPH_W, GLYPH_H, 2)
    for n in range(GLYPHS):
        _glyph(sheet, n, font.get_glyph(32 + n))
    return sheet


def _glyph(sheet, n, g):
    # Copies glyph g into tile n. On the board a glyph's bitmap is the font's whole strip
    # (tile_index picks the glyph); on Blinka each glyph has its own: both read the same way.
    if g is None:
        return
    src = g.bitmap
    per_row = src.width // g.width
    sx = (g.tile_index % per_row) * g.width
    sy = (g.tile_index // per_row) * g.height
    for y in range(min(g.height, GLYPH_H)):
        for x in range(min(g.width, GLYPH_W)):
            if src[sx + x, sy + y]:
                sheet[n * GLYPH_W + x, y] = 1


def _label(group, font, x, y, width, scale=1, color=WHITE, background=None):
    # A line of `width` characters at (x, y) (its top left), on a transparent or a solid
    # background; scale 2 doubles it in a Group of its own.
    pal = displayio.Palette(2)
    if background is None:
        pal.make_transparent(0)
    else:
        pal[0] = background
    pal[1] = color
    grid = displayio.TileGrid(font, pixel_shader=pal, width=width, height=1,
                              tile_width=GLYPH_W, tile_height=GLYPH_H, default_tile=0,
                              x=x if scale == 1 else 0, y=y if scale == 1 else 0)
    if scale == 1:
        group.append(grid)
    else:
        big = displayio.Group(scale=scale, x=x, y=y)
        big.append(grid)
        group.append(big)
    return Text(grid, pal, color)


def _grid(group, sheet, pal, w, h, x, y, tw=16, th=16):
    tg = displayio.TileGrid(sheet, pixel_shader=pal, width=w, height=h, tile_width=tw,
                            tile_height=th, default_tile=sprites.T_NONE, x=x, y=y)
    group.append(tg)
    return tg


def build():
    """Draws the sprite sheet and builds every display object; returns them in the order
    lnr.ui.Ui takes them."""
    sheet, pal = _sheet()
    font = _font()
    root = displayio.Group()

    text = displayio.Group()
    deco = _grid(text, sheet, pal, 10, 1, 0, 30)
    deco_loco = _grid(text, sheet, pal, 1, 1, 96, 30)  # a sprite over the rails
    title = _label(text, font, 4, 2, 13, scale=2, color=YELLOW)
    lines = []
    for i in range(TEXT_LINES):
        lines.append(_label(text, font, 2, 30 + 12 * i, LINE_W))
    root.append(text)

    play = displayio.Group()
    map_ = _grid(play, sheet, pal, MAP_W, MAP_H, 0, 0)
    frame = _grid(play, sheet, pal, 1, 1, 0, 0)
    loco = _grid(play, sheet, pal, 1, 1, 0, 0)
    side = []
    for i in range(8):
        side.append(_label(play, font, 112, 12 * i, SIDE_W))
    hand = _grid(play, sheet, pal, HAND_N, 2, 0, 96)
    cursor = _grid(play, sheet, pal, 1, 2, 0, 96)
    cursor[0, 0] = sprites.T_CURSOR
    cursor[0, 1] = sprites.T_CURSOR + 1
    frame[0, 0] = sprites.T_FRAME
    toast = _label(play, font, 0, 84, 18, color=WHITE, background=0x000000)
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
        plines.append(_label(panel, font, 14, 4 + 12 * i, PANEL_W))
    root.append(panel)
    return (root, text, deco, deco_loco, title, lines, play, map_, frame, loco, side, hand,
            cursor, toast, panel, cards, plines)


_LOCO_ART = (  # seen from above, heading east: cab, boiler with its chimney, lamps, buffers
    "................",
    "................",
    "................",
    "................",
    "..kkkkkkkkkkkk..",
    ".kgggkcccccccckr",
    ".kgwgkccccccccky",
    ".kgwgkccccckkck.",
    ".kgwgkccccckkck.",
    ".kgwgkccccccccky",
    ".kgggkcccccccckr",
    "..kkkkkkkkkkkk..",
    "................",
    "................",
    "................",
    "................",
)
_ART_COLOURS = {"k": C_BLACK, "c": C_LOCO, "w": C_WHITE, "y": C_YELLOW, "r": C_RED,
                "s": C_SLEEPER, "g": C_RAIL, "#": C_WHITE}
# 5x7 digits 1-4, one int per row, bit 4 is the left column.
_DIGITS = (
    (4, 12, 4, 4, 4, 4, 14),
    (14, 17, 1, 2, 4, 8, 31),
    (30, 1, 1, 14, 1, 1, 30),
    (2, 6, 10, 18, 31, 2, 2),
)
_RUBBLE = (
    "................",
    "................",
    "....gg..........",
    "...gggg....ss...",
    "....gg....ssss..",
    "..........sss...",
    "..ss...g........",
    ".ssss.ggg...gg..",
    "..ss...g...gggg.",
    "............gg..",
    "...ggg..ss......",
    "..ggggg.sss.....",
    "................",
    "................",
    "................",
    "................",
)
_CHECK = (0x0000, 0x0006, 0x000E, 0x001C, 0x0038, 0x6070, 0x70E0, 0x39C0, 0x1F80, 0x0F00,
          0x0600)


class _Pen:
    # Writes pixels into one tile of the sheet, optionally rotated to a heading: art is drawn
    # facing east and turned (S: clockwise, W: mirrored, N: counter-clockwise).
    def __init__(self, sheet):
        self.sheet = sheet
        self.ox = 0
        self.oy = 0
        self.turn = 0

    def tile(self, t, turn=0):
        self.ox = (t % COLS) * 16
        self.oy = (t // COLS) * 16
        self.turn = turn

    def dot(self, x, y, c):
        t = self.turn
        if t == 1:
            x, y = 15 - y, x
        elif t == 2:
            x = 15 - x
        elif t == 3:
            x, y = y, 15 - x
        self.sheet[self.ox + x, self.oy + y] = c

    def box(self, x0, y0, x1, y1, c):
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.dot(x, y, c)

    def art(self, rows):
        for y in range(16):
            row = rows[y]
            for x in range(16):
                c = _ART_COLOURS.get(row[x])
                if c is not None:
                    self.dot(x, y, c)


def _straight(p, t, turn, ground, sleeper, rail):
    p.tile(t, turn)
    p.box(0, 0, 15, 15, ground)
    for x in (1, 5, 9, 13):
        p.box(x, 2, x + 1, 13, sleeper)
    p.box(0, 4, 15, 5, rail)
    p.box(0, 10, 15, 11, rail)


def _curve(p, t, corner, ground, sleeper, rail):
    # A quarter circle of radius 8 round one corner joins the middles of two sides; rails lie
    # 2-4 px either side of it, as on a straight. Doubled coordinates keep this in ints.
    p.tile(t)
    cx = 32 if corner == 0 or corner == 3 else 0
    cy = 32 if corner < 2 else 0
    for y in range(16):
        for x in range(16):
            dx = abs(2 * x + 1 - cx)
            dy = abs(2 * y + 1 - cy)
            d2 = dx * dx + dy * dy
            c = ground
            if 16 <= d2 < 784:  # sleepers: three spokes at 15, 45 and 75 degrees
                if (abs(dx * 259 - dy * 966) <= 2000 or abs(dx * 707 - dy * 707) <= 2000
                        or abs(dx * 966 - dy * 259) <= 2000):
                    c = sleeper
            if 64 <= d2 < 144 or 400 <= d2 < 576:
                c = rail
            p.dot(x, y, c)


def _cross(p, mx, my):
    # The red X of a broken card, centred on the track.
    for i in range(-4, 5):
        for j in (0, 1):
            p.dot(mx + i, my + i + j, C_RED)
            p.dot(mx + i, my - i + j, C_RED)


def _card(p, t, top, face):
    # Card outline: black border, rounded transparent corners; `top` or bottom half.
    p.tile(t)
    p.box(0, 0, 15, 15, face)
    p.box(0, 0, 0, 15, C_BLACK)
    p.box(15, 0, 15, 15, C_BLACK)
    y = 0 if top else 15
    p.box(0, y, 15, y, C_BLACK)
    y2 = 1 if top else 14
    for x in (0, 15):
        p.dot(x, y, C_CLEAR)
        p.dot(x, y2, C_BLACK)
    p.dot(1, y2, C_BLACK)
    p.dot(14, y2, C_BLACK)


def _digit(p, t, value, face, ink):
    _card(p, t, True, face)
    rows = _DIGITS[value - 1]
    for r in range(7):
        bits = rows[r]
        for col in range(5):
            if bits & (16 >> col):
                p.box(3 + 2 * col, 1 + 2 * r, 4 + 2 * col, 2 + 2 * r, ink)


def _ring(p, r_in, r_out, c):
    # A wheel: pixels whose centre lies between two radii round the tile centre.
    for y in range(16):
        for x in range(16):
            d2 = (2 * x - 15) ** 2 + (2 * y - 15) ** 2
            if r_in * r_in * 4 <= d2 < r_out * r_out * 4:
                p.dot(x, y, c)


def _sheet():
    # Returns (bitmap, palette): the sprite sheet.
    sheet = displayio.Bitmap(COLS * 16, ROWS * 16, 16)
    pal = displayio.Palette(16)
    for i in range(16):
        pal[i] = COLOURS[i]
    pal.make_transparent(C_CLEAR)
    p = _Pen(sheet)
    g = C_GROUND
    p.tile(T_EMPTY)
    p.box(0, 0, 15, 15, g)
    for turn in (0, 1):
        _straight(p, T_STRAIGHT + turn, turn, g, C_SLEEPER, C_RAIL)
        _straight(p, T_BROKEN + turn, turn, g, C_SLEEPER, C_RAIL)
        _cross(p, 7, 7)
    for corner in range(4):
        _curve(p, T_CURVE + corner, corner, g, C_SLEEPER, C_RAIL)
        _curve(p, T_BROKEN + 2 + corner, corner, g, C_SLEEPER, C_RAIL)
        # the arc's middle lies 5.7 px from its corner
        _cross(p, 10 if corner == 0 or corner == 3 else 5, 10 if corner < 2 else 5)
    for h in range(4):
        p.tile(T_END + h, h)
        p.box(0, 0, 15, 15, g)
        for i in range(0, 16, 3):  # a dotted outline where the next card goes
            for e in (0, 15):
                p.dot(i, e, C_RAIL)
                p.dot(e, i, C_RAIL)
        for x in range(4, 13):  # an arrow pointing the way the track goes on
            w = (12 - x) * 2 // 3
            p.box(x, 8 - w - 1, x, 7 + w, C_YELLOW)
        p.tile(T_LOCO + h, h)
        p.art(_LOCO_ART)
    p.tile(T_FRAME)
    p.box(0, 0, 15, 1, C_YELLOW)
    p.box(0, 14, 15, 15, C_YELLOW)
    p.box(0, 0, 1, 15, C_YELLOW)
    p.box(14, 0, 15, 15, C_YELLOW)
    for v in range(1, 5):
        _digit(p, T_DIGIT + v - 1, v, C_WHITE, C_V1 + v - 1)
        _digit(p, T_CDIGIT + v - 1, v, C_CHAOS, C_WHITE)
    # Card bottoms: the card's rails in black on the white face.
    for k in range(4):
        t = T_KIND + k
        if k & 1:
            _curve(p, t, 0, C_WHITE, C_SLEEPER, C_BLACK)
        else:
            _straight(p, t, 1, C_WHITE, C_SLEEPER, C_BLACK)
        if k >= 2:
            _cross(p, 10 if k & 1 else 7, 10 if k & 1 else 7)
        _keep_card(p, t, C_WHITE)
    p.tile(T_KIND + 4)
    p.box(0, 0, 15, 15, C_CHAOS)
    p.art(_RUBBLE)
    _keep_card(p, T_KIND + 4, C_CHAOS)
    p.tile(T_CURSOR)
    p.box(0, 0, 15, 1, C_YELLOW)
    p.box(0, 0, 1, 15, C_YELLOW)
    p.box(14, 0, 15, 15, C_YELLOW)
    p.tile(T_CURSOR + 1)
    p.box(0, 14, 15, 15, C_YELLOW)
    p.box(0, 0, 1, 15, C_YELLOW)
    p.box(14, 0, 15, 15, C_YELLOW)
    _card(p, T_ROLL, True, C_WHITE)
    _ring(p, 3, 6, C_BLACK)
    _card(p, T_DONE, True, C_WHITE)
    for y in range(len(_CHECK)):
        for x in range(16):
            if _CHECK[y] & (0x8000 >> x):
                p.dot(x, y + 3, C_V1)
    _card(p, T_GO, False, C_WHITE)
    for x in range(5, 12):  # a "go" triangle
        w = (11 - x) * 2 // 3
        p.box(x, 7 - w, x, 7 + w, C_V1)
    for k in range(3):
        p.tile(T_DIE + k)
        p.box(1, 1, 14, 14, C_BLACK)
        p.box(2, 2, 13, 13, C_EDGE if k == 2 else C_WHITE)
        if k == 1:
            _ring(p, 2, 5, C_BLACK)
            p.box(7, 7, 8, 8, C_BLACK)
    for k in range(9):
        p.tile(T_PANEL + k)
        p.box(0, 0, 15, 15, C_PANEL)
        col = k % 3
        row = k // 3
        if col == 0:
            p.box(0, 0, 0, 15, C_EDGE)
        if col == 2:
            p.box(15, 0, 15, 15, C_EDGE)
        if row == 0:
            p.box(0, 0, 15, 0, C_EDGE)
        if row == 2:
            p.box(0, 15, 15, 15, C_EDGE)
        if col != 1 and row != 1:  # rounded corner
            p.dot(15 if col else 0, 15 if row else 0, C_CLEAR)
    p.tile(T_ONTO)
    for x in range(3, 13):  # a left-pointing arrow
        w = (x - 3) * 2 // 3
        p.box(x, 7 - w, x, 8 + w, C_YELLOW)
    for k in (0, 1):
        p.tile(T_NOPILE + k)
        for i in range(1, 15, 3):
            p.dot(i, 0 if k == 0 else 15, C_EDGE)
            p.dot(0, i, C_EDGE)
            p.dot(15, i, C_EDGE)
    return sheet, pal


def _keep_card(p, t, face):
    # Redraws the border of a card's bottom half over rails drawn edge to edge.
    sheet = p.sheet
    ox = p.ox
    oy = p.oy
    for y in range(16):
        for x in (0, 15):
            sheet[ox + x, oy + y] = C_BLACK
        sheet[ox + 1, oy + y] = face if y < 14 else C_BLACK
        sheet[ox + 14, oy + y] = face if y < 14 else C_BLACK
    for x in range(16):
        sheet[ox + x, oy + 15] = C_BLACK
        sheet[ox + x, oy + 14] = face if 1 < x < 14 else C_BLACK
    sheet[ox, oy + 15] = C_CLEAR
    sheet[ox + 15, oy + 15] = C_CLEAR
