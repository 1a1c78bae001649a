"""tools/standins: CircuitPython's built-in modules for the app off a board, defined once and the
same on CPython, the MicroPython VM and CircuitPython's own VM (CIRCUITPYTHON_VM, or
../shared/circuitpython, where this machine has it)."""
import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools.vm import cpvm, mpvm

ROOT = Path(__file__).resolve().parent.parent
STANDINS = ROOT / "tools" / "standins"
# The stand-ins' own helpers, not names of CircuitPython's API: host_tests/test_storage.py's NVM
# that records each write is a test's recorder, not a copy of a built-in module.
OWN = {"Nvm", "Display"}


def _api_classes():
    """Returns the classes the stand-ins define for CircuitPython's modules (Group, TileGrid,
    ShiftRegisterKeys, ...)."""
    names = set()
    for path in STANDINS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                names.add(node.name)
    return names - OWN


def _repo_files(suffixes):
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / f for f in out if f.endswith(suffixes) and (ROOT / f).is_file()]


def test_each_standin_is_defined_once():
    # One definition of each CircuitPython class off the board: no module, test or string of
    # Python (in a .py or a .mjs file) outside tools/standins defines a class or a function of
    # that name.
    names = _api_classes()
    assert {"Group", "TileGrid", "Bitmap", "Palette", "ShiftRegisterKeys", "Event", "NeoPixel",
            "AnalogIn"} <= names
    in_text = re.compile(r"\b(?:class|def)\s+(%s)\b" % "|".join(sorted(names)))
    found = []
    for path in _repo_files((".py", ".mjs", ".js")):
        if STANDINS in path.parents:
            continue
        text = path.read_text()
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix == ".py":
            for node in ast.walk(ast.parse(text, str(path))):
                if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name in names:
                    found.append("%s:%d %s" % (rel, node.lineno, node.name))
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found += ["%s:%d %s (in a string)" % (rel, node.lineno, m)
                              for m in in_text.findall(node.value)]
        else:
            found += ["%s %s" % (rel, m) for m in in_text.findall(text)]
    assert not found, "defined outside tools/standins: " + ", ".join(found)


# What the firmware does with the app's mistakes, the same on every VM: printed, compared.
CHECK = r'''
import sys
sys.path.insert(0, sys.argv[1])
from tools.standins import install
m = install()
import displayio, board, keypad, microcontroller, terminalio, supervisor, storage, analogio
import neopixel

def tries(what, f):
    try:
        f()
        print(what, "ok")
    except Exception as e:
        print(what, type(e).__name__, e)

def setitem(obj, key, value):
    obj[key] = value

g = displayio.Group(scale=2)
sheet = displayio.Bitmap(24, 12, 2)  # 4 tiles of 6x12
pal = displayio.Palette(2)
pal.make_transparent(0)
tg = displayio.TileGrid(sheet, pixel_shader=pal, width=3, height=1, tile_width=6, tile_height=12)
g.append(tg)
tries("append twice", lambda: g.append(tg))
tg[2, 0] = 3
print("tile", tg[2, 0], "children", len(g))
tries("tile off the grid", lambda: setitem(tg, (3, 0), 1))
tries("tile the sheet lacks", lambda: setitem(tg, (0, 0), 4))
tries("pixel value 2 in 1 bit", lambda: setitem(sheet, (0, 0), 2))
ink = displayio.Palette(2)
tg.pixel_shader = ink
print("shader set", tg.pixel_shader is ink, tg[2], tg[1, 0])
tries("shader a bitmap", lambda: setattr(tg, "pixel_shader", sheet))
tries("grid of a bitmap shader", lambda: displayio.TileGrid(sheet, pixel_shader=sheet))
tries("colour 0x1000000", lambda: setitem(pal, 1, 0x1000000))
board.choose("pygamer")
print(board.board_id, hasattr(board, "JOYSTICK_X"), board.BUTTON_CLOCK)
board.choose("feather_m4_express")
print("unknown board has buttons", hasattr(board, "BUTTON_CLOCK"))
board.choose("pybadge")
tries("keys on other pins", lambda: keypad.ShiftRegisterKeys(
    clock=board.A0, data=board.BUTTON_OUT, latch=board.BUTTON_LATCH, key_count=4,
    value_when_pressed=True))
keypad.pending.extend([(3, True), (7, True)])
keys = keypad.ShiftRegisterKeys(clock=board.BUTTON_CLOCK, data=board.BUTTON_OUT,
                                latch=board.BUTTON_LATCH, key_count=4, value_when_pressed=True)
ev = keypad.Event()
print("event", keys.events.get_into(ev), ev.key_number, ev.pressed, keys.events.get_into(ev))
nvm = microcontroller.nvm
nvm[0:3] = b"abc"
print("nvm", nvm[0:4], nvm[-1], len(nvm), nvm.writes)
def short_slice():
    nvm[0:2] = b"a"
tries("nvm slice of another length", short_slice)
print("ticks", supervisor.ticks_ms() >= 0x1FFF0000, terminalio.FONT.get_glyph(65).width)
px = neopixel.NeoPixel(board.NEOPIXEL, 5, brightness=0.1, auto_write=False)
px[-1] = 0x010203
px.show()
print("pixels", px.shown[4], px.brightness)
tries("colour component 256", lambda: setitem(px, 0, (256, 0, 0)))
tries("remount after boot.py", lambda: storage.remount("/", readonly=False))
analogio.readings[board.A0] = [5]
a = analogio.AnalogIn(board.A0)
print("stick", a.value, a.value)
'''

EXPECTED = """append twice ValueError Layer already in a group
tile 3 children 1
tile off the grid IndexError Tile index out of bounds
tile the sheet lacks ValueError Tile index out of bounds
pixel value 2 in 1 bit ValueError value must be 0-1
shader set True 3 0
shader a bitmap TypeError unsupported pixel_shader type
grid of a bitmap shader TypeError unsupported pixel_shader type
colour 0x1000000 TypeError color must be between 0x000000 and 0xffffff
pygamer True board.BUTTON_CLOCK
unknown board has buttons False
keys on other pins ValueError not the button shift register's pins
event True 3 True False
nvm bytearray(b'abc\\xff') 255 8192 1
nvm slice of another length ValueError slice and value different lengths
ticks True 6
pixels (1, 2, 3) 0.1
colour component 256 ValueError colour component 256 is not an int 0..255
remount after boot.py RuntimeError Cannot remount '/' when visible via USB.
stick 5 32768
"""


def _script(tmp_path):
    script = tmp_path / "standins_check.py"
    script.write_text(CHECK)
    return script


def test_standins_on_cpython(tmp_path):
    # Blinka's Bitmap and Palette check less than the firmware's: the stand-ins' own are used.
    out = subprocess.run([sys.executable, str(_script(tmp_path)), str(ROOT)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == EXPECTED


def test_standins_on_micropython(tmp_path):
    # The VM has no displayio: Bitmap and Palette are the stand-ins', as strict as the firmware.
    assert mpvm.output(_script(tmp_path), [("tools/standins", "/lib/tools/standins")], [ROOT],
                       timeout=60) == EXPECTED


def test_standins_on_circuitpython(tmp_path):
    # Its built-in displayio (Bitmap and Palette only) wins over .py files: install() puts the
    # stand-ins in sys.modules, re-exporting its real Bitmap and Palette.
    if cpvm.missing():
        pytest.skip(cpvm.missing())
    assert cpvm.output(_script(tmp_path), heap_kb=256, args=[ROOT], timeout=60,
                       cwd=ROOT) == EXPECTED
