"""The device app's own code on the real MicroPython VM (tools/mpvm), not only on CPython: whole
games of every mode played through lnr.main.run with the same key scripts as the simulator
tests, with the pinned libraries the board gets (adafruit_display_text's bitmap_label,
adafruit_ticks), stand-ins for displayio, terminalio and bitmaptools (objects that only keep
what they are given: no pixels; the font's glyphs are blank) and a scripted hw. MicroPython-only mistakes (a formatting flag, a
str or list method it lacks, a long int where a small one is meant) show up here before a board
runs the code. Each run checks the game reached its end and was counted once in the NVM.
"""
import os
import subprocess
import textwrap

import pytest

from tools.app_script import Model
from tools.sim import parse_keys, _script
from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "tools", "mpvm", "run.mjs")

STANDINS = {
    "displayio.py": """
        class Group:
            scale = 1  # a class attribute: bitmap_label's Label makes `scale` a property
            def __init__(self, *, scale=1, x=0, y=0):
                self.items = []
                self.hidden = False
                if scale != 1:
                    self.scale = scale
                self.x = x
                self.y = y
            def append(self, item):
                self.items.append(item)
            def remove(self, item):
                self.items.remove(item)
            def pop(self, i=-1):
                return self.items.pop(i)
            def __len__(self):
                return len(self.items)
            def __iter__(self):
                return iter(self.items)
        class Bitmap:
            def __init__(self, w, h, n):
                self.width = w
                self.height = h
                self.data = bytearray(w * h)
            def __setitem__(self, xy, v):
                if not 0 <= v < 256:
                    raise ValueError("value")
                self.data[xy[1] * self.width + xy[0]] = v
            def __getitem__(self, xy):
                return self.data[xy[1] * self.width + xy[0]]
            def fill(self, v):
                for i in range(len(self.data)):
                    self.data[i] = v
        class Palette:
            def __init__(self, n):
                self.c = [0] * n
            def __setitem__(self, i, v):
                self.c[i] = v
            def __getitem__(self, i):
                return self.c[i]
            def __len__(self):
                return len(self.c)
            def make_transparent(self, i):
                pass
            def make_opaque(self, i):
                pass
            def is_transparent(self, i):
                return False
        class TileGrid:
            def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=16,
                         tile_height=16, default_tile=0, x=0, y=0):
                self.w = width
                self.h = height
                self.tiles = bytearray([default_tile] * (width * height))
                self.hidden = False
                self.x = x
                self.y = y
            def __setitem__(self, xy, t):
                x, y = xy
                if not (0 <= x < self.w and 0 <= y < self.h):
                    raise IndexError("tile index")
                self.tiles[y * self.w + x] = t
            def __getitem__(self, xy):
                return self.tiles[xy[1] * self.w + xy[0]]
        """,
    "terminalio.py": """
        import displayio
        class _Glyph:
            def __init__(self):
                self.bitmap = displayio.Bitmap(6, 12, 2)
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
            def get_glyph(self, code):
                return self.glyph
            def get_bounding_box(self):
                return (6, 12)
        FONT = _Font()
        """,
    "bitmaptools.py": """
        def blit(dest, source, x, y, **kw):
            pass
        """,
}

SCRIPT = """
import gc
from lnr.main import run
from lnr.storage import Storage

FRAMES = %(frames)r
SEED = %(seed)d


class _Display:
    def __init__(self):
        self.root_group = None
        self.refreshes = 0

    def refresh(self):
        self.refreshes += 1


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
    name = "vm"
    width = 160
    height = 128
    max_pixels = 5

    def __init__(self):
        self.display = _Display()
        self.pixels = _Pixels()
        self.nvm = bytearray(b"\\xff" * 256)
        self.seed = SEED
        self.now = 0x1FFF0000  # 65 s before the clock wraps, as the board
        self.i = 0
        self.queue = []
        self.idle = 0
        self.app = None

    def ticks_ms(self):
        return self.now

    def next_key(self):
        return self.queue.pop(0) if self.queue else -1

    def wait_frame(self):
        if self.i < len(FRAMES):
            k = FRAMES[self.i]
            self.i += 1
            if k is not None:
                self.queue.append(k)
        else:
            self.idle += 1
            if self.idle > 60 and not self.queue:
                return False
        self.now = (self.now + 30) & 0x1FFFFFFF
        return True


hw = Hw()
run(hw)
st = Storage(hw.nvm)
st.load()
print("PLAYED", st.played[0], st.played[1], st.played[2], st.played[3])
print("BEST", st.best[0], st.best[1], st.best[2], st.best[3])
print("REFRESHES", hw.display.refreshes)
print("SETTINGS", st.brightness, st.pixel_count)
"""


def _vm(tmp_path, device_libs, frames, seed):
    if not os.path.exists(os.path.join(ROOT, "tools", "mpvm", "node_modules")):
        pytest.fail("MicroPython VM not installed in tools/mpvm: run `make test`, which installs it")
    lib = tmp_path / "standins"
    for name, text in STANDINS.items():
        path = lib / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    script = tmp_path / "app_vm.py"
    script.write_text(SCRIPT % {"frames": frames, "seed": seed})
    out = subprocess.run(
        ["node", RUNNER, "--tree", "engine", "--tree", "lib/lnr:/lib/lnr",
         "--tree", "%s:/lib" % device_libs, "--tree", "%s:/lib" % lib, str(script)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    # lnr.main prints an exception it shows on the error screen: none may happen.
    assert "error" not in out.stdout.lower() and "Traceback" not in out.stdout, out.stdout
    lines = dict(line.split(" ", 1) for line in out.stdout.strip().splitlines())
    return lines


@pytest.mark.parametrize("mode, seed", [
    (MODE_SOLO, 8), (MODE_CHALLENGE, 5), (MODE_RIVAL, 9), (MODE_TABLE, 6)])
def test_whole_game_runs_on_micropython(tmp_path, device_libs, mode, seed):
    m = Model(mode, seed)
    m.play_simple()
    assert m.state.is_terminal()
    # Then every other screen: title, records, settings (a change), how to play (2 pages).
    tour = ["WAIT*80", "A", "DOWN", "A", "B", "DOWN", "DOWN", "A", "RIGHT", "DOWN", "RIGHT",
            "B", "DOWN", "DOWN", "DOWN", "A", "RIGHT", "RIGHT", "B"]
    frames = _script(m.keys + tour)
    out = _vm(tmp_path, device_libs, frames, seed)
    played = [int(n) for n in out["PLAYED"].split()]
    assert played == [1 if i == mode else 0 for i in range(4)]
    me = 1 if mode == MODE_RIVAL else 0
    s = m.state
    won = me in s.winners()
    best = out["BEST"].split()[mode]
    assert best == (str(s.score(me)) if won else "None")
    assert out["SETTINGS"].split() == ["3", "1"]  # brightness 2 -> 3; pixels 5 -> 1 (wraps)
    assert int(out["REFRESHES"]) > 50


def test_parse_keys_is_the_simulators():
    # The frames above come from the simulator's own key parser.
    assert parse_keys("A,WAIT*2,B") == [1, None, None, 0]
