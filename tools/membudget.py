"""What the game costs in RAM on a PyBadge, estimated on the desktop (`make membudget`).

    python -m tools.membudget [--app MODULE:FUNCTION] [--heap-kb 192]

1. Display objects: runs the app headless in the simulator until its start-up settles, then
   walks hw.display.root_group and also looks for displayio objects the app built but has
   not attached (screens kept for later). Each Bitmap costs ceil(w*bpp/32)*4*h bytes of
   pixel data (HARDWARE.md) plus its object; a TileGrid its object plus its tile map (one
   byte per tile, two when the bitmap holds over 255 tiles, none for up to 4 tiles: packed
   in the pointer), as common_hal_displayio_tilegrid_construct() allocates. Object sizes are
   estimates from the CircuitPython 10 structs, rounded to the heap's 16-byte blocks.
2. Modules: imports every device module on the real MicroPython VM (tools/mpvm) one after
   the other and prints the live heap each one keeps (code, globals, interned names). App
   modules that import displayio, terminalio or adafruit_display_text get stand-ins with no
   behaviour, loaded first so that their own cost is not counted.
3. A game: the live heap of the largest game state (table, 4 seats) with its dice Rng.

It then checks that the sum leaves more than half of a ~192 KB heap free: the budget is
about 100 KB for the game (HARDWARE.md), the rest is CircuitPython's own and fragmentation.
Exits 1 if not. A .py module is compiled in RAM at import and briefly needs several times
its kept size: the device should get .mpy files (HARDWARE.md, Toolchain).
"""
import argparse
import gc
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (os.path.join(ROOT, "device", "lib"), ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)

BLOCK = 16  # MicroPython's heap allocates in 16-byte blocks
BITMAP_OBJ = 48  # displayio_bitmap_t: base, size, data pointer, stride, masks, dirty area
TILEGRID_OBJ = 112  # displayio_tilegrid_t: geometry, transforms, three areas, flags
PALETTE_OBJ = 32
PALETTE_ENTRY = 16  # _displayio_color_t: rgb888, cached colour and colourspace, flags
GROUP_OBJ = 48  # displayio_group_t plus the list object holding its children
GROUP_SLOT = 4  # one pointer per child in that list

ENGINE_MODULES = ("engine.cards", "engine.risk", "engine.rng", "engine.state", "engine.bots",
                  "engine.ai", "engine.codec")
FIRST_LNR = ("lnr.keys", "lnr.leds", "lnr.storage")
STUBS = {
    "displayio.py": (
        "class _Any:\n"
        "    def __init__(self, *a, **k):\n"
        "        pass\n"
        "Group = TileGrid = Bitmap = Palette = ColorConverter = OnDiskBitmap = _Any\n"),
    "terminalio.py": "FONT = object()\n",
    "adafruit_display_text/__init__.py": "",
    "adafruit_display_text/bitmap_label.py": (
        "class Label:\n"
        "    def __init__(self, *a, **k):\n"
        "        pass\n"),
    "adafruit_display_text/label.py": (
        "class Label:\n"
        "    def __init__(self, *a, **k):\n"
        "        pass\n"),
}


def blocks(n):
    """Returns n bytes rounded up to whole heap blocks."""
    return -(-n // BLOCK) * BLOCK


def bitmap_bytes(bitmap):
    """Returns (pixel data bytes by HARDWARE.md's formula, with the object, in blocks)."""
    bpp = bitmap._bits_per_value  # pylint: disable=protected-access
    data = -(-bitmap.width * bpp // 32) * 4 * bitmap.height
    return data, blocks(data) + blocks(BITMAP_OBJ)


def tilegrid_bytes(tg):
    """Returns the bytes of a TileGrid without its bitmap (object + tile map)."""
    tiles = tg.width * tg.height
    bmp = tg.bitmap
    tiles_in_bitmap = (bmp.width // tg.tile_width) * (bmp.height // tg.tile_height)
    size = 2 if tiles_in_bitmap > 255 else 1
    inline = tiles * size <= 4
    return blocks(TILEGRID_OBJ) + (0 if inline else blocks(tiles * size))


def palette_bytes(palette):
    return blocks(PALETTE_OBJ) + blocks(PALETTE_ENTRY * len(palette))


def group_bytes(group):
    return blocks(GROUP_OBJ) + blocks(GROUP_SLOT * max(len(group), 1))


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
        import terminalio
        from displayio import _group

        todo = [terminalio.FONT, _group.circuitpython_splash]
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


def display_census(app):
    """Runs the app to its settled start screen; returns the Census of its display tree."""
    from tools import sim

    run = sim.load_app(app)  # ImportError: the app is not there yet
    result = sim.run_headless([], app=run, settle=30)
    if result.error:
        sys.stderr.write(result.error)
        raise SystemExit("membudget: the app failed at start-up")
    census = Census()
    census.skip_library()
    root = result.hw.display.root_group
    if root is not None:
        census.walk(root)
    census.detached()
    return census


def vm_script():
    """Returns the MicroPython script that measures each module's import."""
    return """
import gc
import sys
import mpvm


async def live():
    await mpvm.collect()
    return gc.mem_alloc()


async def main(names, stubs):
    for name in stubs:
        __import__(name)
    for name in names:
        a = await live()
        try:
            __import__(name)
        except Exception as e:
            print("FAIL", name, "%s: %s" % (type(e).__name__, e))
            continue
        print("IMPORT", name, (await live()) - a)
    from engine.rng import Rng
    from engine.state import new_game
    a = await live()
    rng = Rng(7)
    state = new_game(3, rng, 4)
    print("STATE table4", (await live()) - a)
    gc.collect()
    print("HEAP", gc.mem_alloc())


await main(sys.argv[1].split(","), sys.argv[2].split(","))
"""


def _lnr_deps(path):
    # The lnr modules a module imports, read from its source (module level or not).
    import re

    deps = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*from lnr import (.+)", line)
            if m:
                deps.update(n.strip().split()[0] for n in m.group(1).split(","))
                continue
            m = re.match(r"\s*(?:from|import) lnr\.(\w+)", line)
            if m:
                deps.add(m.group(1))
    return deps


def device_modules():
    """Returns the device modules in import order: the engine's, then lnr's with each
    module after the ones it imports (so each is charged only its own cost), main last."""
    names = [m for m in ENGINE_MODULES
             if os.path.exists(os.path.join(ROOT, *m.split(".")) + ".py")]
    lnr = os.path.join(ROOT, "device", "lib", "lnr")
    mods = sorted(f[:-3] for f in os.listdir(lnr) if f.endswith(".py") and f != "__init__.py")
    deps = {m: _lnr_deps(os.path.join(lnr, m + ".py")) & set(mods) for m in mods}
    first = [m[4:] for m in FIRST_LNR if m[4:] in mods]
    order = []
    while len(order) < len(mods):
        ready = [m for m in first + mods if m not in order and deps[m] <= set(order)]
        if not ready:  # an import cycle: take the rest as they come
            ready = [m for m in mods if m not in order]
        pick = [m for m in ready if m != "main"] or ready
        order.append(pick[0])
    return names + ["lnr." + m for m in order]


def import_costs(names):
    """Runs the imports on the MicroPython VM; returns ({module: bytes}, failures, state)."""
    runner = os.path.join(ROOT, "tools", "mpvm", "run.mjs")
    with tempfile.TemporaryDirectory() as tmp:
        stubs = os.path.join(tmp, "stubs")
        for rel, text in STUBS.items():
            path = os.path.join(stubs, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        script = os.path.join(tmp, "membudget_vm.py")
        with open(script, "w") as f:
            f.write(vm_script())
        stub_names = "displayio,terminalio,adafruit_display_text.bitmap_label"
        out = subprocess.run(
            ["node", runner, "--tree", os.path.join(ROOT, "engine"),
             "--tree", os.path.join(ROOT, "device", "lib", "lnr") + ":/lib/lnr",
             "--tree", stubs + ":/lib", script, ",".join(names), stub_names],
            capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
        sys.stderr.write(out.stderr)
        raise SystemExit("membudget: the MicroPython VM run failed")
    costs = {}
    fails = {}
    state = 0
    for line in out.stdout.splitlines():
        parts = line.split(None, 2)
        if parts[0] == "IMPORT":
            costs[parts[1]] = int(parts[2])
        elif parts[0] == "FAIL":
            fails[parts[1]] = parts[2]
        elif parts[0] == "STATE":
            state = int(parts[2])
    return costs, fails, state


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.membudget",
                                     description="RAM estimate of the game on a PyBadge.")
    parser.add_argument("--app", default="lnr.main:run",
                        help="the app to start in the simulator (default lnr.main:run)")
    parser.add_argument("--heap-kb", type=int, default=192, help="the board's RAM in KB")
    args = parser.parse_args(argv)
    heap = args.heap_kb * 1024
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

    census = None
    try:
        census = display_census(args.app)
    except ImportError as e:
        print("display objects: skipped, the app does not import yet (%s)" % e)
    if census is not None:
        print("Display objects after start-up (estimated CircuitPython bytes; same ones"
              " counted together):")
        by_kind = {}
        same = {}
        for kind, what, nbytes in census.rows:
            by_kind[kind] = by_kind.get(kind, 0) + nbytes
            if kind in ("Bitmap", "TileGrid"):
                same[(kind, what, nbytes)] = same.get((kind, what, nbytes), 0) + 1
        for (kind, what, nbytes), n in sorted(same.items(), key=lambda i: -i[0][2] * i[1]):
            print("  %6d  %2d x %-8s %5d B: %s" % (n * nbytes, n, kind, nbytes, what))
        for kind in sorted(by_kind):
            print("  %6d  all %ss" % (by_kind[kind], kind))
        print("  %6d  display total" % census.total)

    costs, fails, state = import_costs(device_modules())
    print("Modules, live heap kept after import on the MicroPython VM:")
    for name, nbytes in costs.items():
        print("  %6d  %s" % (nbytes, name))
    for name, why in fails.items():
        print("     n/a  %s: %s" % (name, why))
    imports = sum(costs.values())
    print("  %6d  modules total" % imports)
    print("  %6d  largest game state (table, 4 seats, with its Rng)" % state)

    display = census.total if census is not None else 0
    total = display + imports + state
    print("TOTAL %d B = %.1f KB of a %d KB heap; free for the rest: %.1f KB" % (
        total, total / 1024, args.heap_kb, (heap - total) / 1024))
    if total * 2 >= heap:
        print("OVER BUDGET: the game must leave more than half of the heap free")
        return 1
    if fails:
        print("(some modules could not be measured: the total is a lower bound)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
