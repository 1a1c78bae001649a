"""A faster simulator for long headless runs (the key fuzzer): same results, less CPU.

Two things make a headless frame slow on the desktop that cost little on the board:
- bitmaptools.blit is C on the board and a per-pixel Python loop in Blinka; every label text
  change blits each glyph. fast_blit() does the same copy on the packed words directly (for
  bitmaps of 1, 2 or 4 bits per value, the ones labels and sprite sheets use) and falls back
  to Blinka's for anything else.
- gc.collect() is a few ms on the board but tens of ms in a CPython process holding pygame
  and numpy; the app calls it at quiet points. Inside `fast()` it does nothing.

Use it as `with sim_fast.fast(): sim.run_headless(...)`; host_tests check fast_blit against
Blinka's blit pixel for pixel.
"""
import gc

import bitmaptools
from displayio import Bitmap

_blinka_blit = bitmaptools.blit
_ROWS = {}


def _row_masks(source, dest, dx1, dx2, height, ox, sy1, skip):
    # For each row of the copy: (word index in the row, bits kept, bits set) per word.
    # pylint: disable=protected-access,too-many-locals
    sdata = source._data
    sstride = source._stride
    sbits = source._bits_per_value
    smask = source._bitmask
    sshift = source._x_shift
    sxmask = source._x_mask
    dbits = dest._bits_per_value
    dmask = dest._bitmask
    dshift = dest._x_shift
    dxmask = dest._x_mask
    rows = []
    for r in range(height):
        srow = (sy1 + r) * sstride
        words = {}
        for dx in range(dx1, dx2):
            sx = dx + ox
            v = (sdata[srow + (sx >> sshift)] >> (32 - ((sx & sxmask) + 1) * sbits)) & smask
            if v == skip:
                continue
            dsh = 32 - ((dx & dxmask) + 1) * dbits
            clear, bits = words.get(dx >> dshift, (0, 0))
            words[dx >> dshift] = (clear | (dmask << dsh), bits | ((v & dmask) << dsh))
        rows.append(tuple((w, ~clear & 0xFFFFFFFF, bits)
                          for w, (clear, bits) in sorted(words.items())))
    return tuple(rows)


def fast_blit(dest_bitmap, source_bitmap, x, y, *, x1=0, y1=0, x2=None, y2=None,
              skip_source_index=None, skip_dest_index=None):
    """bitmaptools.blit with the same arguments and result as Blinka's."""
    # pylint: disable=protected-access,too-many-locals,invalid-name
    if (type(dest_bitmap) is not Bitmap or type(source_bitmap) is not Bitmap  # noqa: E721
            or dest_bitmap is source_bitmap or skip_dest_index is not None
            or dest_bitmap._bits_per_value >= 8 or source_bitmap._bits_per_value >= 8):
        return _blinka_blit(dest_bitmap, source_bitmap, x, y, x1=x1, y1=y1, x2=x2, y2=y2,
                            skip_source_index=skip_source_index,
                            skip_dest_index=skip_dest_index)
    if x2 is None:
        x2 = source_bitmap.width
    if y2 is None:
        y2 = source_bitmap.height
    if x1 > x2:
        x1, x2 = x2, x1
    if y1 > y2:
        y1, y2 = y2, y1
    x2 = min(x2, source_bitmap.width)
    y2 = min(y2, source_bitmap.height)
    dx1 = max(x, 0)
    dy1 = max(y, 0)
    dx2 = min(x + x2 - x1, dest_bitmap.width)
    dy2 = min(y + y2 - y1, dest_bitmap.height)
    if dx1 >= dx2 or dy1 >= dy2:
        return None
    ox = x1 - x
    oy = y1 - y
    if dx1 + ox < 0 or dy1 + oy < 0:
        raise ValueError(f"Index {(dx1 + ox, dy1 + oy)} is out of range")
    if dest_bitmap._read_only:
        raise RuntimeError("Read-only")
    dest_bitmap.dirty(dx1, dy1, dx2, dy2)
    sdata = source_bitmap._data
    ddata = dest_bitmap._data
    dstride = dest_bitmap._stride
    # What the copy does to each destination row depends only on the source's bits, the
    # region and the destination's column layout: a label blits the same glyphs at the same
    # places over and over, so the row masks are kept.
    key = (sdata.tobytes(), source_bitmap._stride, source_bitmap._bits_per_value,
           dx1 + ox, dy1 + oy, dx1, dx2 - dx1, dy2 - dy1, dest_bitmap._bits_per_value,
           skip_source_index)
    rows = _ROWS.get(key)
    if rows is None:
        if len(_ROWS) > 20000:
            _ROWS.clear()
        rows = _ROWS[key] = _row_masks(source_bitmap, dest_bitmap, dx1, dx2, dy2 - dy1,
                                        ox, dy1 + oy, skip_source_index)
    drow = dy1 * dstride
    for row in rows:
        for i, keep, bits in row:
            i += drow
            ddata[i] = (ddata[i] & keep) | bits
        drow += dstride
    return None


class fast:  # pylint: disable=invalid-name
    """Context manager: fast_blit in place of Blinka's, gc.collect() a no-op."""

    def __enter__(self):
        self._collect = gc.collect
        bitmaptools.blit = fast_blit
        gc.collect = lambda *a, **k: 0
        return self

    def __exit__(self, *exc):
        bitmaptools.blit = _blinka_blit
        gc.collect = self._collect
