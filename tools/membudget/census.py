"""1. Display objects: the app runs in the simulator (Blinka's displayio) into a game; every
displayio object reachable from the display, or alive but not attached, is counted once in
CircuitPython's bytes (see tools/membudget/__init__.py)."""
import gc
import sys

from tools.membudget.vm.sizes import (  # noqa: F401 - the formulas and constants, for tests
    BLOCK, BITMAP_OBJ, TILEGRID_OBJ, PALETTE_OBJ, PALETTE_ENTRY, GROUP_OBJ, GROUP_SLOT, blocks,
    bitmap_data, bitmap_total, tilegrid_total, palette_total, group_bytes, tilegrid_bytes,
)


def bitmap_bytes(bitmap):
    """Returns (pixel data bytes by docs/hardware.md's formula, with the object, in blocks)."""
    bpp = bitmap._bits_per_value  # pylint: disable=protected-access
    return (bitmap_data(bitmap.width, bitmap.height, bpp),
            bitmap_total(bitmap.width, bitmap.height, bpp))


def palette_bytes(palette):
    return palette_total(len(palette))


class Census:
    """Every displayio object reachable from a root, each counted once."""

    def __init__(self):
        import displayio

        self.dio = displayio
        self.seen = set()
        self.rows = []  # (kind, description, bytes)
        self.total = 0

    def add(self, kind, what, nbytes):
        self.rows.append((kind, what, nbytes))
        self.total += nbytes

    def walk(self, obj, path="root"):
        dio = self.dio
        if id(obj) in self.seen:
            return
        self.seen.add(id(obj))
        if isinstance(obj, dio.Group):
            self.add("Group", "%d children" % len(obj), group_bytes(obj))
            for i, child in enumerate(obj):
                self.walk(child, "%s/%d:%s" % (path, i, type(child).__name__))
        elif isinstance(obj, dio.TileGrid):
            self.add("TileGrid", "%dx%d tiles of %dx%d" % (
                obj.width, obj.height, obj.tile_width, obj.tile_height), tilegrid_bytes(obj))
            self.walk(obj.bitmap, path + ".bitmap")
            if isinstance(obj.pixel_shader, dio.Palette):
                self.walk(obj.pixel_shader, path + ".palette")
        elif isinstance(obj, dio.Bitmap):
            data, total = bitmap_bytes(obj)
            where = " (not in the tree)" if path.startswith("unattached") else ""
            self.add("Bitmap", "%dx%d %d bpp, data %d B%s" % (
                obj.width, obj.height, obj._bits_per_value, data, where),  # pylint: disable=W0212
                total)
        elif isinstance(obj, dio.Palette):
            self.add("Palette", "%d colours" % len(obj), palette_bytes(obj))

    def skip_library(self):
        """Marks as seen the displayio objects Blinka itself holds: terminalio.FONT's glyphs
        (in the firmware's flash on the board) and the start-up splash."""
        import busdisplay
        import terminalio

        todo = [terminalio.FONT, busdisplay.circuitpython_splash]
        while todo:
            obj = todo.pop()
            if id(obj) in self.seen or isinstance(obj, (type, type(sys))):
                continue
            self.seen.add(id(obj))
            todo.extend(gc.get_referents(obj))

    def detached(self):
        """Adds displayio objects alive in the process but not under the root."""
        dio = self.dio
        kinds = (dio.Group, dio.TileGrid, dio.Bitmap, dio.Palette)
        gc.collect()
        found = [o for o in gc.get_objects() if isinstance(o, kinds) and id(o) not in self.seen]
        # Walk groups first so their children are named by their place.
        found.sort(key=lambda o: not isinstance(o, dio.Group))
        for i, obj in enumerate(found):
            self.walk(obj, "unattached%d:%s" % (i, type(obj).__name__))

    def grouped(self):
        """Returns [(bytes, count, kind, bytes each, what)] of the Bitmaps and TileGrids,
        equal ones together, largest first."""
        same = {}
        for kind, what, nbytes in self.rows:
            if kind in ("Bitmap", "TileGrid"):
                same[(kind, what, nbytes)] = same.get((kind, what, nbytes), 0) + 1
        out = [(n * b, n, k, b, w) for (k, w, b), n in same.items()]
        out.sort(key=lambda r: (-r[0], r[2], r[4]))
        return out

    def by_kind(self):
        out = {}
        for kind, _, nbytes in self.rows:
            out[kind] = out.get(kind, 0) + nbytes
        return out


def display_census(app, keys):
    """Runs the app through `keys`; returns (the Census of its display objects at the end,
    how many displayio objects appeared after the first frame: 0 when all are built at
    start)."""
    from tools import sim
    import displayio

    run = sim.load_app(app)  # ImportError: the app is not there yet
    kinds = (displayio.Group, displayio.TileGrid, displayio.Bitmap, displayio.Palette)

    def alive():
        gc.collect()
        return [o for o in gc.get_objects() if isinstance(o, kinds)]

    before = alive()  # kept, so that their ids stay unique: the library's, not the app's
    first = []

    def on_frame(hw):
        if hw.frame == 1:
            first.extend(alive())

    result = sim.run_headless(keys, app=run, settle=30, on_frame=on_frame)
    if result.error:
        sys.stderr.write(result.error)
        raise SystemExit("membudget: the app failed in the simulator")
    census = Census()
    census.skip_library()
    census.seen.update(id(o) for o in before)
    root = result.hw.display.root_group
    if root is not None:
        census.walk(root)
    census.detached()
    known = set(id(o) for o in first)
    later = sum(1 for o in alive() if id(o) not in known and id(o) in census.seen)
    return census, later
