"""The sprite sheet's tiles, drawn pixel by pixel (tools/art/sprites.py writes them into
lib/lnr/sprites.bin). Desktop-only, and in the language CircuitPython runs: host_tests draw them
into CircuitPython's own Bitmap on its VM too.

Tiles are drawn facing east and turned for the other headings; each function draws into a
Bitmap-like `sheet` (`sheet[x, y] = colour`) of lnr.sprites' COLS x ROWS tiles of 16x16.
"""
from lnr.sprites import (
    COLS, C_CLEAR, C_GROUND, C_SLEEPER, C_RAIL, C_RED, C_WHITE, C_BLACK, C_V1, C_YELLOW,
    C_LOCO, C_CHAOS, C_PANEL, C_EDGE, T_EMPTY, T_STRAIGHT, T_CURVE, T_BROKEN, T_END, T_LOCO,
    T_FRAME, T_DIGIT, T_CDIGIT, T_KIND, T_CURSOR, T_ROLL, T_DONE, T_GO, T_DIE, T_PANEL, T_VEIL,
    T_NOPILE, T_VALUE, T_TAKEN,
)

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
# 3x5 digits 1-4 for the map's value badges, one int per row, bit 2 is the left column.
_SMALL = (
    (2, 6, 2, 2, 7),
    (6, 1, 2, 4, 7),
    (6, 1, 2, 1, 6),
    (5, 5, 7, 1, 1),
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


def draw(sheet):
    """Draws every tile into `sheet` (a Canvas, or a displayio.Bitmap of WIDTH x HEIGHT and 16
    colours); tiles no sprite uses stay colour 0, transparent."""
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
    p.tile(T_VEIL)  # a card under it shows dimmed: half its pixels black
    for y in range(16):
        for x in range(y & 1, 16, 2):
            p.dot(x, y, C_BLACK)
    for k in (0, 1):
        p.tile(T_NOPILE + k)
        for i in range(1, 15, 3):
            p.dot(i, 0 if k == 0 else 15, C_EDGE)
            p.dot(0, i, C_EDGE)
            p.dot(15, i, C_EDGE)
    for v in range(1, 5):
        _badge(p, T_VALUE + v - 1, v, C_BLACK)
        _badge(p, T_TAKEN + v - 1, v, C_RED)


def _badge(p, t, value, back):
    # A card's value on the map: a 5x7 badge at the tile's top left (over the rails' ends,
    # clear of a curve's arc and of a broken card's cross), the rest transparent.
    p.tile(t)
    p.box(0, 0, 4, 6, back)
    rows = _SMALL[value - 1]
    for r in range(5):
        for col in range(3):
            if rows[r] & (4 >> col):
                p.dot(1 + col, 1 + r, C_WHITE)


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
