"""The track as a map of tiles, and card faces, from a State (docs/rules.md §2 geometry).

Every card on the map shows its value in a badge (the values layer, lnr/ui.py), as every card
lies face up on a real table: what a pass or a derailment costs and whether a penalty card pairs
with the pile depend on them. The cards behind the loco have red badges: penalty cards come off
the track's start, first to last, and never the loco's card (§6), so they are what the next
penalties take.

Each laid card fills one grid cell; its tile follows from the headings it is entered and
left with. Only the exit heading of the last card is stored (state.head); walking back from
the end, each card's entry heading is its exit minus its bend's turn, and that entry is the
exit of the card before it.
"""
from engine.cards import KIND, VALUE, SHAPE, KIND_BROKEN, KIND_CHAOS, SHAPE_CURVE
from engine.state import TURN
from lnr import sprites
from lnr.ui import MAP_W, MAP_H

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_ORIGIN_X = const(64)  # engine cell codes are (x + 64) * 128 + y + 64


def curve_tile(entry, exit_):
    """Returns the tile of a curve entered heading `entry` and left heading `exit_`."""
    # Sides joined: the one opposite the entry heading, and the exit heading.
    a = (entry + 2) & 3
    b = exit_
    if a > b:
        a, b = b, a
    # side pairs (E=0, S=1, W=2, N=3): ES=(0,1) SW=(1,2) WN=(2,3) NE=(0,3)
    if a == 0:
        return sprites.T_CURVE + (0 if b == 1 else 3)
    return sprites.T_CURVE + a


def track_tile(card, entry, exit_):
    """Returns the map tile of a laid card."""
    broken = KIND[card] == KIND_BROKEN
    if entry == exit_:
        return (sprites.T_BROKEN if broken else sprites.T_STRAIGHT) + (entry & 1)
    t = curve_tile(entry, exit_)
    if broken:
        return t - sprites.T_CURVE + sprites.T_BROKEN + 2
    return t


def card_top(card):
    """Returns the tile of a card's upper half in the hand: its value."""
    if KIND[card] == KIND_CHAOS:
        return sprites.T_CDIGIT + VALUE[card] - 1
    return sprites.T_DIGIT + VALUE[card] - 1


def card_bottom(card):
    """Returns the tile of a card's lower half in the hand: its kind and shape."""
    kind = KIND[card]
    if kind == KIND_CHAOS:
        return sprites.T_KIND + 4
    n = 1 if SHAPE[card] == SHAPE_CURVE else 0
    return sprites.T_KIND + n + (2 if kind == KIND_BROKEN else 0)


def cell_x(cell):
    return cell // 128 - _ORIGIN_X


def cell_y(cell):
    return cell % 128 - _ORIGIN_X


class MapView:
    """Draws the track into the map TileGrid and places the loco sprite; `ox, oy` is the
    grid cell shown at the top left."""

    def __init__(self, ui):
        self.ui = ui
        self.ox = 0
        self.oy = 0
        self.end_row = 0  # the map row of the open end, last drawn (-1: out of view)
        self.loco_row = 0  # the map row of the loco, last drawn (-1: out of view)

    def follow(self, state):
        """Scrolls so that the open end is in view with as much of the track back from it as
        fits: the loco, then the cards behind it, which the next penalty cards take from the
        track's start (docs/rules.md §6; the end wins when the loco is too far from it)."""
        cells = state.cells
        self.frame(cells, len(cells), 0, state.target())

    def frame(self, cells, i, j, end):
        """Scrolls so that cells[i] is in view (index len(cells) is the cell `end`, the open
        end) with as many of the cells from i towards j as fit, in that order: the loco first
        while it travels (lnr/play/screen.py), the track's start while penalty cards leave it."""
        n = len(cells)
        c = cells[i] if i < n else end
        x0 = x1 = cell_x(c)
        y0 = y1 = cell_y(c)
        step = 1 if j > i else -1
        while i != j:
            i += step
            c = cells[i] if i < n else end
            x = cell_x(c)
            y = cell_y(c)
            if max(x1, x) - min(x0, x) >= MAP_W or max(y1, y) - min(y0, y) >= MAP_H:
                break
            x0 = min(x0, x)
            x1 = max(x1, x)
            y0 = min(y0, y)
            y1 = max(y1, y)
        self.ox = x0 - (MAP_W - 1 - (x1 - x0)) // 2
        self.oy = y0 - (MAP_H - 1 - (y1 - y0)) // 2

    def draw(self, state, ghost=-1, bend=0):
        """Draws the track; `ghost` >= 0 shows that curve card laid at the open end with
        `bend` (the bend being chosen) and puts the frame on it."""
        self.paint(state.track, state.bends, state.cells, state.head, state.loco, 0,
                   state.target(), ghost, bend)

    def paint(self, track, bends, cells, head, loco, first, end, ghost=-1, bend=0):
        """Draws the cards track[first:] (their bends and cells; `head` the last one's exit
        heading) with the loco on card `loco`, or beside the open end `end` turned across the
        way when `loco` is len(track): derailed (docs/rules.md §5). A loco's run is drawn this way
        while it is shown (lnr/play/screen.py): the loco card by card, then the penalty cards
        leaving the track's start (§6) as `first` grows."""
        ui = self.ui
        grid = ui.map
        values = ui.values
        for y in range(MAP_H):
            for x in range(MAP_W):
                grid[x, y] = sprites.T_EMPTY
                values[x, y] = sprites.T_NONE
        ox = self.ox
        oy = self.oy
        h = head
        i = len(track) - 1
        behind = loco if loco < i else i  # derailed, it stays on the last card (§5)
        loco_tile = -1
        self.loco_row = -1
        while i >= first:
            entry = (h - TURN[bends[i]]) & 3
            x = cell_x(cells[i]) - ox
            y = cell_y(cells[i]) - oy
            if 0 <= x < MAP_W and 0 <= y < MAP_H:
                grid[x, y] = track_tile(track[i], entry, h)
                values[x, y] = (sprites.T_TAKEN if i < behind else sprites.T_VALUE) + \
                    VALUE[track[i]] - 1
                if i == loco:
                    loco_tile = sprites.T_LOCO + h
                    ui.loco.x = 16 * x
                    ui.loco.y = 16 * y
                    self.loco_row = y
            h = entry
            i -= 1
        x = cell_x(end) - ox
        y = cell_y(end) - oy
        seen = 0 <= x < MAP_W and 0 <= y < MAP_H
        inside = seen and end not in cells
        if loco >= len(track) and seen:
            loco_tile = sprites.T_LOCO + ((head + 1) & 3)  # off the track, turned across it
            ui.loco.x = 16 * x
            ui.loco.y = 16 * y
            self.loco_row = y
        ui.loco.hidden = loco_tile < 0
        if loco_tile >= 0:
            ui.loco[0, 0] = loco_tile
        ui.frame.hidden = not (inside and ghost >= 0)
        if inside and loco < len(track):
            if ghost >= 0:
                # The curve being placed, framed, and the open end it would leave.
                turned = (head + TURN[bend]) & 3
                grid[x, y] = track_tile(ghost, head, turned)
                values[x, y] = sprites.T_VALUE + VALUE[ghost] - 1
                ui.frame.x = 16 * x
                ui.frame.y = 16 * y
                nx = x + (1 if turned == 0 else (-1 if turned == 2 else 0))
                ny = y + (1 if turned == 1 else (-1 if turned == 3 else 0))
                if 0 <= nx < MAP_W and 0 <= ny < MAP_H and grid[nx, ny] == sprites.T_EMPTY:
                    grid[nx, ny] = sprites.T_END + turned
            else:
                grid[x, y] = sprites.T_END + head
        self.end_row = y if inside else -1

    def scroll(self, dx, dy):
        """Moves the view by whole cells (looking around the track)."""
        self.ox += dx
        self.oy += dy
