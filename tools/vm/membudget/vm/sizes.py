"""What a display object takes in CircuitPython 10's heap, by the formulas of
tools/vm/membudget/__init__.py (1): the host's census of Blinka's objects (census.py), the VM
scripts' meter of the stand-ins (display objects made after start-up, such as the menus'
Labels, charged while they live) and tools/vm/cpapp.py's harness on CircuitPython's VM (which
copies this file) use the same numbers. Runs on CPython, MicroPython and CircuitPython."""
BLOCK = 16  # MicroPython's heap allocates in 16-byte blocks
BITMAP_OBJ = 48  # displayio_bitmap_t: base, size, data pointer, stride, masks, dirty area
TILEGRID_OBJ = 112  # displayio_tilegrid_t: geometry, transforms, three areas, flags
PALETTE_OBJ = 32
PALETTE_ENTRY = 16  # _displayio_color_t: rgb888, cached colour and colourspace, flags
GROUP_OBJ = 48  # displayio_group_t plus the list object holding its children
GROUP_SLOT = 4  # one pointer per child in that list
LIST_MIN = 4  # a MicroPython list's first allocation, in slots; doubled when full


def blocks(n):
    """Returns n bytes rounded up to whole heap blocks."""
    return -(-n // BLOCK) * BLOCK


def bitmap_data(width, height, bits_per_value):
    """Returns a Bitmap's pixel bytes (docs/hardware.md: ceil(w*bpp/32)*4*h)."""
    return -(-width * bits_per_value // 32) * 4 * height


def bitmap_total(width, height, bits_per_value):
    """Returns a Bitmap's bytes with its object, in blocks."""
    return blocks(bitmap_data(width, height, bits_per_value)) + blocks(BITMAP_OBJ)


def tilegrid_total(width, height, tiles_in_bitmap):
    """Returns a TileGrid's bytes without its bitmap (object + tile map: a byte a tile, two when
    the bitmap holds over 255 tiles, none for up to 4 bytes: packed in the pointer)."""
    size = width * height * (2 if tiles_in_bitmap > 255 else 1)
    return blocks(TILEGRID_OBJ) + (0 if size <= 4 else blocks(size))


def palette_total(count):
    return blocks(PALETTE_OBJ) + blocks(PALETTE_ENTRY * count)


def group_total(children):
    return blocks(GROUP_OBJ) + blocks(GROUP_SLOT * max(children, 1))


def group_bytes(group):
    """Returns a Group's bytes (any Group: Blinka's, a stand-in)."""
    return group_total(len(group))


def tilegrid_bytes(tg):
    """Returns the bytes of a TileGrid (Blinka's, a stand-in) without its bitmap."""
    bmp = tg.bitmap
    return tilegrid_total(tg.width, tg.height,
                          (bmp.width // tg.tile_width) * (bmp.height // tg.tile_height))


def list_growth(n):
    """Returns what a MicroPython list of n items takes beyond an empty one's storage."""
    alloc = LIST_MIN
    while alloc < n:
        alloc *= 2
    return blocks(4 * alloc) - blocks(4 * LIST_MIN)


def meter(obj):
    """displayio's stand-in meter (tools/standins/displayio.py): (the CircuitPython bytes of
    the stand-in object `obj`, what its stand-in takes beyond an empty one of its kind)."""
    import displayio

    if isinstance(obj, displayio.Group):
        return group_bytes(obj), list_growth(len(obj))
    if isinstance(obj, displayio.TileGrid):
        return tilegrid_bytes(obj), 0
    if isinstance(obj, displayio.Palette):
        return palette_total(len(obj)), 0
    return bitmap_total(obj.width, obj.height, obj.bits_per_value), 0
