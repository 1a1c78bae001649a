"""displayio: Group and TileGrid, and Bitmap and Palette where the VM has none of its own.

CircuitPython's VM on the desktop (its unix port) has displayio with only Bitmap, Palette and
ColorConverter: there the real Bitmap and Palette are re-exported, so the app's pixels are real.
Elsewhere (the MicroPython VM has no displayio; CPython's is Blinka's, which checks less than the
firmware) Bitmap and Palette are defined here.

No object here allocates anything after it is made, and every object of a kind costs the same
heap whatever it is given: a Group keeps no list of its children, a Bitmap no pixels, a Palette
no colours, and a TileGrid's tile map lives in one pool made when this module loads. So
tools/membudget can count the objects (`made`) and take their measured size out of the live
heap, putting the firmware's own sizes in. They check what the firmware checks: a layer in one
group at most, tile and pixel indices in range, tile numbers the bitmap has, colours 0xRRGGBB.
"""
import sys

Bitmap = None
Palette = None
if sys.implementation.name == "circuitpython":
    try:
        from displayio import Bitmap, Palette  # the firmware's own, built in
    except ImportError:  # the fake board: MicroPython saying it is CircuitPython
        pass

_POOL = bytearray(4096)  # every TileGrid's tile map, one byte per tile
_TOP = [0]  # the pool's first free byte


class Group:
    """displayio.Group: knows how many children it has and its own place, not its children."""

    made = 0
    # A class attribute, set on the object only when it differs: adafruit_display_text's
    # Label (a Group) makes `scale` a property that needs the Label's own fields first.
    scale = 1

    def __init__(self, *, scale=1, x=0, y=0):
        Group.made += 1
        if scale != 1:
            self.scale = scale
        self.x = x
        self.y = y
        self.hidden = False
        self._in_group = False
        self._count = 0

    def append(self, layer):
        self.insert(self._count, layer)

    def insert(self, index, layer):
        if isinstance(layer, (Group, TileGrid)):
            if layer._in_group:
                raise ValueError("Layer already in a group")
            layer._in_group = True
        self._count += 1

    def remove(self, layer):
        if isinstance(layer, (Group, TileGrid)):
            if not layer._in_group:
                raise ValueError("Layer not in this group")
            layer._in_group = False
        self._count -= 1

    def __len__(self):
        return self._count

    def pop(self, i=-1):
        # Knows no children, so returns None; adafruit_display_text's Label empties its own
        # group this way (`for _ in group: group.pop(0)`) before it adds a new TileGrid.
        if not -self._count <= i < self._count:
            raise IndexError("pop from empty group" if not self._count else "index out of range")
        self._count -= 1

    def __iter__(self):
        return iter(range(self._count))


class TileGrid:
    """displayio.TileGrid: its tile map in the module's pool."""

    made = 0

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        TileGrid.made += 1
        if tile_width is None:
            tile_width = bitmap.width
        if tile_height is None:
            tile_height = bitmap.height
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.tile_width = tile_width
        self.tile_height = tile_height
        self.x = x
        self.y = y
        self.hidden = False
        self._in_group = False
        self._tiles = (bitmap.width // tile_width) * (bitmap.height // tile_height)
        if self._tiles > 256:
            raise ValueError("the stand-in keeps tile numbers in a byte")
        self._check_tile(default_tile)
        self._at = _TOP[0]
        if self._at + width * height > len(_POOL):
            raise MemoryError("the stand-in TileGrids' tile pool is full")
        _TOP[0] += width * height
        for i in range(width * height):
            _POOL[self._at + i] = default_tile

    def _check_tile(self, tile):
        if not 0 <= tile < self._tiles:
            raise ValueError("Tile index out of bounds")

    def _index(self, i):
        if type(i) is tuple:
            x, y = i
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise IndexError("Tile index out of bounds")
            return self._at + y * self.width + x
        if not 0 <= i < self.width * self.height:
            raise IndexError("Tile index out of bounds")
        return self._at + i

    def __setitem__(self, i, tile):
        self._check_tile(tile)
        _POOL[self._index(i)] = tile

    def __getitem__(self, i):
        return _POOL[self._index(i)]


def _check_colour(colour):
    if type(colour) is int:
        if not 0 <= colour <= 0xFFFFFF:
            raise TypeError("color must be between 0x000000 and 0xffffff")
    elif len(colour) != 3:
        raise TypeError("color buffer must be 3 bytes (RGB) or 4 bytes (RGB + pad byte)")


if Bitmap is None:

    class Bitmap:  # pylint: disable=function-redefined
        """displayio.Bitmap without pixels: reads back 1 everywhere (ink), so code copying
        from it writes every pixel it would copy from a glyph."""

        made = 0

        def __init__(self, width, height, value_count):
            Bitmap.made += 1
            self.width = width
            self.height = height
            bits = 1  # as the firmware: 1, 2, 4, 8 or 16 bits a pixel, the fewest that do
            while (1 << bits) < value_count:
                bits *= 2
            self._max = (1 << bits) - 1

        def _check(self, i):
            if type(i) is tuple:
                x, y = i
                if not 0 <= x < self.width:
                    raise IndexError("x must be 0-%d" % (self.width - 1))
                if not 0 <= y < self.height:
                    raise IndexError("y must be 0-%d" % (self.height - 1))
            elif not 0 <= i < self.width * self.height:
                raise IndexError("index out of range")

        def __setitem__(self, i, value):
            self._check(i)
            if not 0 <= value <= self._max:
                raise ValueError("value must be 0-%d" % self._max)

        def __getitem__(self, i):
            self._check(i)
            return 1

        def fill(self, value):
            if not 0 <= value <= self._max:
                raise ValueError("value must be 0-%d" % self._max)

        def blit(self, x, y, source_bitmap, *, x1=0, y1=0, x2=None, y2=None,
                 skip_index=None):
            # The firmware clips the copy to this bitmap: nothing to check but the origin.
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise ValueError("out of range of target")

    class Palette:  # pylint: disable=function-redefined
        """displayio.Palette without colours: checks what is set, keeps nothing; reads back
        black and opaque (adafruit_display_text's Label copies a palette it is given)."""

        made = 0

        def __init__(self, color_count, *, dither=False):
            Palette.made += 1
            self._count = color_count

        def _check(self, i):
            if not 0 <= i < self._count:
                raise IndexError("index out of range")

        def __len__(self):
            return self._count

        def __setitem__(self, i, colour):
            self._check(i)
            _check_colour(colour)

        def __getitem__(self, i):
            self._check(i)
            return 0

        def is_transparent(self, i):
            self._check(i)
            return False

        def make_transparent(self, i):
            self._check(i)

        def make_opaque(self, i):
            self._check(i)


def standins():
    """Returns the classes here whose objects are stand-ins (counted in `made`): Group and
    TileGrid, and Bitmap and Palette unless they are the VM's own."""
    out = [Group, TileGrid]
    for kind in (Bitmap, Palette):
        if hasattr(kind, "made"):
            out.append(kind)
    return out


def forget():
    """Starts the counts and the tile pool afresh: for a user that made objects to measure them
    and has dropped them (tools/membudget)."""
    for kind in standins():
        kind.made = 0
    _TOP[0] = 0
