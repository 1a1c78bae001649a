"""Power-up: the sprite sheet, the saves read, every display object, the LEDs, the sound and the
App, built once (lnr.main.start). Loaded for that moment and dropped after it: this code is
not needed again (RAM, docs/memory.md).
"""
from lnr import sheet
from lnr.app import App
from lnr.leds import Leds
from lnr.memory import DOWN, FIGURES, FLOOR_KB, LEDS, drop
from lnr.sound import Sound
from lnr.storage import Storage
from lnr.ui import Ui


def start(hw):
    """Builds the display objects, reads the NVM, lights the LEDs and shows the title;
    returns the App (lnr.main.start)."""
    # The sprite sheet first, on a heap with nothing else on it yet: its 8 KB of pixels are
    # one piece, kept for good, and on CircuitPython also the saves' image buffer, which must
    # be one piece (lnr/sheet.py). The saves are read into it, then the sprites (the restore
    # function: the Storage calls it after each read or write of the saves). The drive's root
    # and whether boot.py let the board write it: the board profile says.
    sprite_sheet = sheet.new()
    lent = sheet.lend(sprite_sheet)
    store = Storage(hw.nvm, getattr(hw, "drive", None), getattr(hw, "drive_writable", False),
                    lent, sprite_sheet)
    store.load()
    if lent is None:  # a buffer of the Storage's own: the sprites are read once, here
        sheet.fill(sprite_sheet)
    ui = _build_ui(sprite_sheet)
    hw.display.root_group = ui.root
    leds = Leds(hw.pixels, store.pixel_count if store.pixel_count < hw.max_pixels
                else hw.max_pixels)
    leds.set_brightness(store.brightness)
    # lnr.memory afresh (a board powers up once; the desktop runs several Apps): the sign on
    # these LEDs (the saves' code gives it too: lnr/copies.py), nothing turned down, no figure.
    LEDS[0] = leds
    for i in range(len(DOWN)):
        DOWN[i] = 0 if i == 0 else None
    for i in range(len(FIGURES)):
        FIGURES[i] = 0
    # The board profile's speaker (lnr/sound.py; None: silent, e.g. no speaker). The first
    # new game's seed: the board's (a test's), else a new one each power-up.
    seed = getattr(hw, "seed", None)
    app = App(hw, ui, leds, store, Sound(getattr(hw, "player", None), store.sound),
              _random_seed() if seed is None else seed)
    has = heap(hw)
    if has and has < FLOOR_KB * 1024:  # below the least the game plays at: it says so
        app.writes = False  # and touches no save
        app.message = "This board has %d KB of heap; the game needs %d KB. Saving is off." % (
            has // 1024, FLOOR_KB)
        print("loknroll: " + app.message)
        app.title()
    # Code that ran once, here, is not kept beside the screens' (docs/memory.md).
    from lnr.memory.once import let_go

    for cls in (App, Ui):  # (a Storage is made again to read the saves: tools, tests)
        let_go(cls, "__init__")
    let_go(type(hw), "__init__", "_speaker", "_open_keys")
    let_go = None
    drop("lnr.memory.once")
    return app


def heap(hw):
    """Returns the heap the app has in all, in bytes: what the board's heap holds beyond what it
    held before the app (hw.base, code.py: the firmware's own), or 0 where the runtime does not
    tell (CPython)."""
    import gc

    try:
        # The typeshed's gc is CPython's, without MicroPython's mem_alloc() and mem_free().
        return (gc.mem_alloc() + gc.mem_free()  # type: ignore[attr-defined]
                - getattr(hw, "base", 0))
    except AttributeError:
        return 0


def _random_seed():
    # A new seed each power-up: the board's random source, else the clock.
    try:
        import os

        b = os.urandom(3)
        return (b[0] << 16) | (b[1] << 8) | b[2]
    except (ImportError, NotImplementedError, AttributeError):
        import time

        return int(time.monotonic() * 1000)


def _build_ui(sprite_sheet):
    # lnr/make.py reads the font's sheet and builds every display object; its code is needed
    # this once, so it is dropped before anything else loads (RAM, docs/memory.md).
    from lnr import make

    ui = Ui(make.build(sprite_sheet))
    make = None
    # The sprite sheet's numbers too: the build folds them into the modules that use them
    # (tools/flash/fold.py), so only lnr.make reads the module (a source tree imports it again).
    drop("lnr.make", "lnr.sprites")
    return ui
