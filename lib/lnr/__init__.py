"""Lok'n'Roll on PyBadge-class boards: the device app, one module per concern."""
import sys

# On CPython (the simulator, host tests) drop() keeps modules: tests hold and patch them, and
# RAM is no concern there. A test sets it False to run the app as the device does.
KEEP = sys.implementation.name == "cpython"


def drop(*names):
    """Forgets modules (sys.modules and their package's attribute) so that the collector can
    take their code back once nothing else refers to it: the menus' code while a game is
    played, the play screen's in the menus, the save codec between saves. Interned names stay
    (MicroPython never frees them)."""
    if KEEP:
        return
    for name in names:
        if sys.modules.pop(name, None) is not None:
            parts = name.split(".")
            try:
                delattr(sys.modules[".".join(parts[:-1])], parts[-1])
            except (KeyError, AttributeError, NameError):
                pass


_leds = [None]  # the LEDs that show the thinking sign (lnr/app.py sets them: sign_on)


def sign_on(leds):
    """Makes sign() step `leds` (a lnr.leds.Leds)."""
    _leds[0] = leds


def sign(work=0):
    """One step of the LEDs' thinking sign (lnr/leds.py Leds.think; `work`: the search's since
    the last, when it is engine.ai's pulse), for code that works for long with the screen still:
    a switch (docs/memory.md, board waits: no half second with no sign of life)."""
    leds = _leds[0]
    if leds is not None:
        leds.think(work)


# What a screen's code may load and what goes with it: the app's and the engine's modules,
# and the text library (adafruit_display_text: lnr/make.py's at power-up, none of the screens'
# today). adafruit_ticks is not among them: the LEDs use it from the start, so it is never new.
_DROPPED = ("lnr.", "engine.", "adafruit_display_text")


def drop_new(had):
    """Drops every app, engine or text-label module imported since `had` (a list of
    sys.modules' names) was taken, and empties each one's globals: the collector keeps whatever
    a value left on the stack points at, and one that hits a function of a screen dropped in a
    switch would keep the screen's whole code beside the next one's (its globals hold all the
    rest), where it now keeps that function. Where objects lie decides what such a value hits:
    before this, the session ran out of its cap that way in some heap layouts and not in others
    (python -m tools.vm cpcheck --layouts, docs/memory.md). Nothing the switch keeps may use a
    dropped module's globals after this (the session on CircuitPython's VM would stop there)."""
    for name in list(sys.modules):
        if name not in had and name.startswith(_DROPPED):
            mod = sys.modules[name]
            drop(name)
            if not KEEP:
                mod.__dict__.clear()
