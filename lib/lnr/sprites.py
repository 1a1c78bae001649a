"""The one sprite sheet's tile numbers and palette. tools/art/sprites.py draws the tiles into
lib/lnr/sprites.bin; lnr/sheet.py reads that into the sheet's Bitmap.

Every TileGrid of the app (track map, loco, hand, cursors, dice, panels) shares one 16-colour
Bitmap of 16x16 tiles and its Palette, so a frame only changes tile indices. Index 0 of the
palette is transparent: sprites drawn over the map leave it showing.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


COLS = const(8)  # tiles per sheet row
ROWS = const(8)  # 128x128 pixels of 4 bits: 8192 bytes, the saves' image buffer too (lnr/sheet.py)

# Palette indices.
C_CLEAR = const(0)
C_GROUND = const(1)
C_SLEEPER = const(2)
C_RAIL = const(3)
C_RED = const(4)
C_WHITE = const(5)
C_BLACK = const(6)
C_V1 = const(7)  # the four value colours, C_V1 + value - 1
C_YELLOW = const(11)
C_LOCO = const(12)
C_CHAOS = const(13)
C_PANEL = const(14)
C_EDGE = const(15)
COLOURS = (0x000000, 0x1E3320, 0x8A5A2E, 0xC8CCD0, 0xFF2A1A, 0xFFFFFF, 0x000000,
           0x12A012, 0x2C64FF, 0xF08000, 0xB020D0, 0xFFE030, 0x38B8FF, 0x6A4424,
           0x101C40, 0x8C9CB4)

# Tile numbers. Map tiles: the two sides a curve joins name it (ES joins east and south).
T_EMPTY = const(0)
T_STRAIGHT = const(1)  # +1 vertical
T_CURVE = const(3)  # ES, SW, WN, NE
T_BROKEN = const(7)  # straight H, V, then curves ES, SW, WN, NE
T_END = const(13)  # open end arrow, by heading E, S, W, N
T_LOCO = const(17)  # by heading E, S, W, N (transparent background)
T_FRAME = const(21)  # map cursor
T_DIGIT = const(22)  # card tops for values 1-4, white face
T_CDIGIT = const(26)  # card tops for chaos 1-4
T_KIND = const(30)  # card bottoms: straight, curve, broken straight, broken curve, chaos
T_NONE = const(35)  # fully transparent
T_CURSOR = const(36)  # hand cursor top, bottom
T_ROLL = const(38)  # button top: roll the dice
T_DONE = const(39)  # button top: stop discarding
T_GO = const(40)  # button bottom
T_DIE = const(41)  # blank die, wheel die, rolling die
T_PANEL = const(44)  # 9-slice: TL, T, TR, L, C, R, BL, B, BR
T_VEIL = const(53)  # every other pixel black, the rest clear: over a card that can't be played
T_NOPILE = const(54)  # an empty pile: a dotted card outline, top and bottom
# The map's values layer (lnr/play/mapview.py): a laid card's value in a badge at its tile's
# top left, the rest transparent; red where the next penalty cards come from (§6).
T_VALUE = const(56)  # values 1-4, white on black
T_TAKEN = const(60)  # values 1-4, white on red: behind the loco, taken first to last
