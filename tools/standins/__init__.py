"""CircuitPython's built-in modules for code that runs the app off a board: one definition each.

Used by the memory budget (tools/vm/membudget) and the app's games
(host_tests/test_app_micropython.py) on the MicroPython VM (tools/vm/mpvm), by the board-profile
tests (host_tests/test_sim_platform.py, on CPython and the MicroPython VM), by the fake board
mpremote talks to (tools/flash/fakeboard_vm.mjs), by the simulator for the board parts Blinka lacks
(tools/sim/parts.py), and on CircuitPython 10's own VM (tools/vm/cp_app_session.py). So every
module here runs unchanged on CPython, MicroPython and CircuitPython: no typing, no f-strings,
nothing the smallest of the three lacks.

Each module is named after the one it stands for (displayio.py is `displayio`). They are never put
on sys.path under those names: on CircuitPython's VM a built-in module wins over a .py file of the
same name and cannot be patched, so install() imports each as a submodule of this package and
puts the module object into sys.modules under the device's name, before the app imports it.
displayio.py re-exports the VM's own Bitmap and Palette where the VM has them.

What one user needs differently is a setting of a module, made after install() and named in its
docstring (board.choose(), keypad.pending, storage.in_boot, ...), or a subclass in the user's own
code (tools/sim/parts.py's SimNvm and SimPixels); never a second copy.
"""
import sys

# In the order install() takes them: terminalio draws its glyphs with displayio's Bitmap.
NAMES = ("displayio", "terminalio", "board", "keypad", "neopixel", "microcontroller",
         "supervisor", "storage", "analogio")
# The C modules under the neopixel library (adafruit-circuitpython-neopixel), for a user that
# runs the library itself on a VM (tools/vm/membudget measures it) instead of the neopixel
# stand-in.
UNDER_NEOPIXEL = ("adafruit_pixelbuf", "neopixel_write", "digitalio")


def install(names=NAMES):
    """Imports the stand-ins `names` afresh (new module objects: one run's settings never reach
    the next) and puts each into sys.modules under the name it stands for. Returns {name:
    module}. On CPython the caller puts sys.modules back when done (tools/sim/parts.py does)."""
    out = {}
    for name in names:
        full = __name__ + "." + name
        if full in sys.modules:
            del sys.modules[full]
        __import__(full)
        out[name] = sys.modules[name] = sys.modules[full]
    return out
