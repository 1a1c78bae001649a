"""displayio: Group and TileGrid, and Bitmap and Palette where the VM has none of its own.

CircuitPython's VM on the desktop (its unix port) has displayio with only Bitmap, Palette and
ColorConverter: there the real Bitmap and Palette are re-exported, so the app's pixels are real.
Elsewhere (the MicroPython VM has no displayio; CPython's is Blinka's, which checks less than the
firmware) Bitmap and Palette are defined here.

They hold what the firmware's objects hold, so they live as long: a Group its children (in a
list, as the firmware's Group), a TileGrid its Bitmap and Palette. Nothing else is kept: a Bitmap
keeps no pixels, a Palette no colours, and a TileGrid's tile map lives in one pool made when this
module loads, its tile numbers stored inverted (255 - t): the MicroPython VM's collector takes
any word of the heap that looks like an address in its heap for a reference, and words of small
tile numbers do (its heap lies low; a board's lies at 0x20000000). They check what the firmware
checks: a layer in one group at most, tile and pixel indices in range, tile numbers the bitmap
has, colours 0xRRGGBB, a pixel shader that is one (also when it is set later).

For tools/vm/membudget, which takes the stand-ins' own heap out of what it measures and puts the
firmware's in: each kind counts its objects alive in `alive` (up when one is made, down when the
collector takes it; on a VM without weakref.finalize, CircuitPython's, every one made), and when
`meter` is set (a function of an object returning two numbers: its CircuitPython bytes, and what
its stand-in takes beyond an empty one of its kind: a Group's list of children grows), `metered`
holds their sums over the objects alive, a Group's re-read whenever its children change.
forget() starts all that afresh.
"""
import sys

try:
    from weakref import finalize as _finalize
except ImportError:  # CircuitPython's VM: counted when made, never uncounted
    _finalize = None

Bitmap = None
Palette = None
_CONVERTERS = ()  # the VM's ColorConverter, where it has one: a pixel shader too
if sys.implementation.name == "circuitpython":
    try:
        from displayio import Bitmap, Palette  # the firmware's own, built in
        from displayio import ColorConverter as _ColorConverter
        _CONVERTERS = (_ColorConverter,)
    except ImportError:  # the fake board: MicroPython saying it is CircuitPython
        pass

_POOL = bytearray(b"\xff" * 4096)  # every TileGrid's tile map, a byte per tile (255 - t)
_TOP = [0]  # the pool's first free byte

meter = None  # tools/vm/membudget's: obj -> (its CircuitPython bytes, its stand-in's growth)
metered = [0, 0]  # meter()'s two numbers summed over the objects alive
_GEN = [0]  # forget()'s count: an object made before the last forget() is no longer counted


def _born(obj, kind):
    # Counts `obj` (of the stand-in class `kind`) alive; returns its cell: [kind, generation,
    # the two numbers meter() gave it].
    kind.alive += 1
    cell = [kind, _GEN[0], 0, 0]
    _measure(obj, cell)
    if _finalize is not None:
        _finalize(obj, _died, cell)
    return cell


def _measure(obj, cell):
    # (Re)reads meter(obj) into its cell and the sums.
    if meter is None or cell[1] != _GEN[0]:
        return
    a, b = meter(obj)
    metered[0] += a - cell[2]
    metered[1] += b - cell[3]
    cell[2] = a
    cell[3] = b


def _died(cell):
    if cell[1] == _GEN[0]:
        cell[0].alive -= 1
        metered[0] -= cell[2]
        metered[1] -= cell[3]


class Group:
    """displayio.Group: its children in a list, as the firmware keeps them."""

    alive = 0
    # A class attribute, set on the object only when it differs: adafruit_display_text's
    # Label (a Group) makes `scale` a property that needs the Label's own fields first.
    scale = 1

    def __init__(self, *, scale=1, x=0, y=0):
        if scale != 1:
            self.scale = scale
        self.x = x
        self.y = y
        self.hidden = False
        self._in_group = False
        self._children = []
        self._cell = _born(self, Group)

    def append(self, layer):
        self.insert(len(self._children), layer)

    def insert(self, index, layer):
        if isinstance(layer, (Group, TileGrid)):
            if layer._in_group:
                raise ValueError("Layer already in a group")
            layer._in_group = True
        self._children.insert(index, layer)
        _measure(self, self._cell)

    def remove(self, layer):
        if layer not in self._children:
            raise ValueError("Layer not in this group")
        self._children.remove(layer)
        self._left(layer)

    def _left(self, layer):
        if isinstance(layer, (Group, TileGrid)):
            layer._in_group = False
        _measure(self, self._cell)

    def __len__(self):
        return len(self._children)

    def __getitem__(self, i):
        return self._children[i]

    def pop(self, i=-1):
        # adafruit_display_text's Label empties its own group this way (`for _ in group:
        # group.pop(0)`) before it adds a new TileGrid.
        n = len(self._children)
        if not -n <= i < n:
            raise IndexError("pop from empty group" if not n else "index out of range")
        layer = self._children.pop(i)
        self._left(layer)
        return layer

    def __iter__(self):
        return iter(self._children)


class TileGrid:
    """displayio.TileGrid: its tile map in the module's pool."""

    alive = 0

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        if tile_width is None:
            tile_width = bitmap.width
        if tile_height is None:
            tile_height = bitmap.height
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader  # checked, as the firmware does
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
            _POOL[self._at + i] = 255 - default_tile
        _born(self, TileGrid)

    def _check_tile(self, tile):
        if not 0 <= tile < self._tiles:
            raise ValueError("Tile index out of bounds")

    # The firmware's pixel_shader may be set after the TileGrid is made (the whole grid is
    # redrawn then); a Palette or a ColorConverter, at start and after.
    @property
    def pixel_shader(self):
        return self._shader

    @pixel_shader.setter
    def pixel_shader(self, shader):
        if not isinstance(shader, _SHADERS):
            raise TypeError("unsupported pixel_shader type")
        self._shader = shader

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
        _POOL[self._index(i)] = 255 - tile

    def __getitem__(self, i):
        return 255 - _POOL[self._index(i)]


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

        alive = 0

        def __init__(self, width, height, value_count):
            self.width = width
            self.height = height
            bits = 1  # as the firmware: 1, 2, 4, 8 or 16 bits a pixel, the fewest that do
            while (1 << bits) < value_count:
                bits *= 2
            self.bits_per_value = bits
            self._max = (1 << bits) - 1
            _born(self, Bitmap)

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

        alive = 0

        def __init__(self, color_count, *, dither=False):
            self._count = color_count
            _born(self, Palette)

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


_SHADERS = (Palette,) + _CONVERTERS  # what a TileGrid's pixel_shader may be


def standins():
    """Returns the classes here whose objects are stand-ins (counted in `alive`): Group and
    TileGrid, and Bitmap and Palette unless they are the VM's own."""
    out = [Group, TileGrid]
    for kind in (Bitmap, Palette):
        if hasattr(kind, "alive"):
            out.append(kind)
    return out


def forget():
    """Starts the counts, the sums and the tile pool afresh: the objects alive now are never
    counted again (terminalio's font: in the firmware's flash on a board), and their TileGrids
    must no longer be used (tools/vm/membudget drops what it made to measure them)."""
    _GEN[0] += 1
    for kind in standins():
        kind.alive = 0
    metered[0] = metered[1] = 0
    _TOP[0] = 0
