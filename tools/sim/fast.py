"""A faster simulator for long headless runs (the key fuzzer, the app tests): same results, less
CPU.

gc.collect() is a few ms on the board but tens of ms in a CPython process holding pygame and
numpy; the app calls it at quiet points. Inside `fast()` it does nothing.

Blinka's displayio draws a TileGrid of an indexed Bitmap on a 16-bit display pixel by pixel in
Python (displayio._tilegrid._fill_pixels): nine in ten of the CPU of a run that draws every
screen. Inside `fast()` that one loop is fill_pixels() below, the same arithmetic on numpy
arrays: the same pixels, the same mask, the same answer (host_tests/test_sim_fast.py draws
every kind of tile grid the loop takes both ways and compares them). Everything around it (which
layers draw, where, their transforms, the areas refreshed) stays Blinka's.

A TileGrid's item (grid[i] = tile, grid[i]), how the app writes every character and map tile,
is three calls and a new Area an item in Blinka (TileGrid.__setitem__, _extract_and_check_index,
_set_tile): half the CPU of a run that plays whole games through the play screen (the texts',
the fuzzers'). Inside `fast()` they are set_item() and get_item() below, Blinka's steps in one
call each: the same tile, the same area marked for the next refresh, the same errors
(host_tests/test_sim_fast.py holds every field of a grid to Blinka's after random writes and
reads, refreshes between them).

Use it as `with sim_fast.fast(): sim.run_headless(...)`.
"""
import gc

import numpy as np
from displayio import _tilegrid


def fill_pixels(buffer, mask, colors, opaque, geometry, tilegrid, bitmap):
    # pylint: disable=too-many-arguments, too-many-locals, protected-access
    """displayio._tilegrid._fill_pixels on arrays: each pixel of the area not yet drawn (its
    mask bit clear) takes its palette colour where that is opaque, and sets its mask bit.
    Returns False if a transparent pixel was left unset."""
    start, x_stride, y_stride, x_shift, y_shift = geometry[:5]
    start_x, end_x, start_y, end_y = geometry[5:]
    if end_x <= start_x or end_y <= start_y:
        return True
    scale = tilegrid._absolute_transform.scale
    tile_width, tile_height = tilegrid.tile_width, tilegrid.tile_height
    ys = np.arange(start_y, end_y, dtype=np.int64)
    xs = np.arange(start_x, end_x, dtype=np.int64)
    offset = ((start + (ys - start_y + y_shift) * y_stride)[:, None]
              + ((xs - start_x + x_shift) * x_stride)[None, :]).ravel()
    words_of_mask = np.asarray(mask)
    bit = np.left_shift(np.uint32(1), (offset & 31).astype(np.uint32))
    todo = (words_of_mask[offset >> 5] & bit) == 0
    local_y = ys // scale
    local_x = xs // scale
    tiles = np.asarray(memoryview(tilegrid._tiles)).astype(np.int64)
    tile = tiles[(((local_y // tile_height + tilegrid._top_left_y) % tilegrid.height)
                  * tilegrid.width)[:, None]
                 + ((local_x // tile_width + tilegrid._top_left_x) % tilegrid.width)[None, :]]
    across = bitmap.width // tile_width
    tile_x = ((tile % across) * tile_width + (local_x % tile_width)[None, :]).ravel()
    tile_y = ((tile // across) * tile_height + (local_y % tile_height)[:, None]).ravel()
    inside = (tile_x < bitmap.width) & (tile_y < bitmap.height)
    tile_x = np.where(inside, tile_x, 0)
    tile_y = np.where(inside, tile_y, 0)
    words = bitmap._data
    bits = bitmap._bits_per_value
    if bits == 8:
        data = np.frombuffer(memoryview(words).cast("B"), dtype=np.uint8)
        pixel = data[tile_y * (bitmap._stride * words.itemsize) + tile_x].astype(np.int64)
    else:
        data = np.asarray(memoryview(words))
        word = data[tile_y * bitmap._stride + (tile_x >> bitmap._x_shift)].astype(np.int64)
        pixel = (word >> (32 - ((tile_x & bitmap._x_mask) + 1) * bits)) & bitmap._bitmask
    pixel = np.where(inside, pixel, 0)
    shown = np.frombuffer(bytes(opaque), dtype=np.uint8)[pixel] != 0
    draw = todo & shown
    drawn = offset[draw]
    np.asarray(buffer)[drawn] = np.asarray(colors, dtype=np.uint16)[pixel[draw]]
    np.bitwise_or.at(words_of_mask, drawn >> 5, bit[draw])
    return not np.any(todo & ~shown)


BLINKA_SET_ITEM = _tilegrid.TileGrid.__setitem__
BLINKA_GET_ITEM = _tilegrid.TileGrid.__getitem__


def _tile_at(grid, index):
    # TileGrid._extract_and_check_index: (x, y) of an int or an (x, y) tuple or list, or None
    # for any other index (left to Blinka's own, and its error).
    width = grid._width_in_tiles
    if isinstance(index, int):
        x = index % width
        y = index // width
    elif isinstance(index, (tuple, list)):
        x = index[0]
        y = index[1]
        index = y * width + x
    else:
        return None
    if x > width or y > grid._height_in_tiles or index >= len(grid._tiles):
        raise ValueError("Tile index out of bounds")
    return x, y


def set_item(grid, index, value):
    # pylint: disable=protected-access
    """TileGrid.__setitem__ and its _set_tile in one call, its tile's Area not made: the tile
    set, the grid to refresh, its dirty area that tile's (the first change since a refresh) or
    grown to hold it."""
    at = _tile_at(grid, index)
    if at is None:
        return BLINKA_SET_ITEM(grid, index, value)
    if not 0 <= value <= 255:
        raise ValueError("Tile value out of bounds")
    x, y = at
    width = grid._width_in_tiles
    grid._needs_refresh = True  # as Blinka's (which never clears it)
    grid._tiles[y * width + x] = value
    tile_w = grid._tile_width
    tile_h = grid._tile_height
    x1 = (x - grid._top_left_x) % width * tile_w
    y1 = (y - grid._top_left_y) % grid._height_in_tiles * tile_h
    x2 = x1 + tile_w
    y2 = y1 + tile_h
    area = grid._dirty_area
    if not grid._partial_change or area.x1 == area.x2 or area.y1 == area.y2:
        area.x1 = x1
        area.y1 = y1
        area.x2 = x2
        area.y2 = y2
    else:  # Area.union (a tile's area is never empty: a grid's tiles are 1 pixel or more)
        if x1 < area.x1:
            area.x1 = x1
        if y1 < area.y1:
            area.y1 = y1
        if x2 > area.x2:
            area.x2 = x2
        if y2 > area.y2:
            area.y2 = y2
    grid._partial_change = True
    return None


def get_item(grid, index):
    # pylint: disable=protected-access
    """TileGrid.__getitem__ in one call."""
    at = _tile_at(grid, index)
    if at is None:
        return BLINKA_GET_ITEM(grid, index)
    return grid._tiles[at[1] * grid._width_in_tiles + at[0]]


class fast:  # pylint: disable=invalid-name
    """Context manager: gc.collect() a no-op, Blinka's pixel loop on arrays, a TileGrid's items
    in one call."""

    def __enter__(self):
        self._collect = gc.collect
        self._fill = _tilegrid._fill_pixels
        gc.collect = lambda *a, **k: 0
        _tilegrid._fill_pixels = fill_pixels
        _tilegrid.TileGrid.__setitem__ = set_item
        _tilegrid.TileGrid.__getitem__ = get_item
        return self

    def __exit__(self, *exc):
        gc.collect = self._collect
        _tilegrid._fill_pixels = self._fill
        _tilegrid.TileGrid.__setitem__ = BLINKA_SET_ITEM
        _tilegrid.TileGrid.__getitem__ = BLINKA_GET_ITEM
