"""The game's RAM: what code is loaded, and what the game goes without when the heap is short
(docs/memory.md). This package is its one home: here what every screen uses (load, drop, sign,
turn down, the board's figures); in settle.py the switches made as the main loop asks; in
switch.py a switch's first and last steps, loaded for each (modules of their own:
they load the screens, which import this one). One vocabulary:

- a *switch* changes what code is loaded: the menus' or the play screen's, with a game dealt,
  resumed, saved or counted between them (lnr/games.py), or a bot's plan or the hint worked
  out with the play screen's code out of RAM (lnr/play/plan.py). A screen's handler asks for
  one (App.want) and settle.py makes it once the handler has returned;
- to *load* a module is to import it for as long as its screen or moment lasts; to *drop* it
  is to let its code go (drop(), drop_since()); to *forget* one whose import failed is to let
  go of what the failure left (forget());
- a *sign* is the LEDs' sign of life, given while the screen cannot change (sign());
- to *turn down* a feature is to go on without it where the heap is short (turn_down(); shed()
  for the sound and the LEDs, whose code stays in RAM): the game lowers what it offers, in the
  order a player would give things up, and never ends or loses a save for want of memory
  (LOOKAHEAD ... LIGHTS below).

The menus' code and the play screen's are never in RAM together: a switch drops one side and
every module imported since start-up but the modules a game on was made with (and what it
keeps), collects, makes the switch's work, then loads the other side.
"""
import gc
import sys

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


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


def forget(*names):
    """Lets go of what failed imports left of modules `names`, those not in sys.modules:
    CircuitPython takes a module whose loading raised (a MemoryError) out of sys.modules, but
    the dict's slot keeps it, and what it had loaded of its code, until the slot is used again
    (a half-loaded search held about 8 KB after a hint ran out of heap, and the play screen
    found no room to come back). Each name is stored again, all before any is taken out, so
    that each lands in its own old slot, not in one another's just freed."""
    if KEEP:
        return
    try:
        for name in names:
            if name not in sys.modules:
                sys.modules[name] = None
    except MemoryError:  # no room to grow the dict: what was stored is taken out below
        pass
    for name in names:
        if name in sys.modules and sys.modules[name] is None:
            del sys.modules[name]


# What a switch drops (drop_since()): the app's and the engine's modules. The libraries are not
# among them: the LEDs use them from the start (neopixel, adafruit_ticks), so they are never new.
_DROPPED = ("lnr.", "engine.")


def drop_since(had):
    """Drops every app, engine or text-label module imported since `had` (a list of
    sys.modules' names) was taken, and empties each one's globals: the collector keeps whatever
    a value left on the stack points at, and one that hits a function of a screen dropped in a
    switch would keep the screen's whole code beside the next one's (its globals hold all the
    rest), where it now keeps that function. Where objects lie decides what such a value hits:
    before this, the session ran out of its cap that way in some heap layouts and not in others
    (python -m tools.vm cpcheck --layouts, docs/memory.md). Nothing the switch keeps may use a
    dropped module's globals after this (the session on CircuitPython's VM would stop there)."""
    if KEEP:  # (the desktop's thousands of modules, looked through at every switch, for nothing)
        return
    while True:
        try:
            names = list(sys.modules)
            break
        except MemoryError:
            # The heap full of what is to go (a bot's search that ran out of it, its code still
            # loaded: lnr/play/plan.py go()) has no block for the list: one module goes first,
            # and the next allocation's own collection takes its code back. None left to go:
            # done (what comes next sheds what it needs, lnr/memory/settle.py).
            for name in sys.modules:
                if name not in had and name.startswith(_DROPPED):
                    break
            else:
                return
            empty(sys.modules[name])
    for name in names:
        if name not in had and name.startswith(_DROPPED):
            empty(sys.modules[name])


def empty(mod):
    """Drops module `mod` and empties its globals (drop_since() says why: a stale value that
    hits one of its functions keeps that function alone, not the module's whole code)."""
    name = mod.__name__
    if not KEEP:  # first: dropping it allocates, and a collection then takes its code back
        mod.__dict__.clear()
    drop(name)


# ------------------------------------------------------------------ the sign

# The LEDs that give the sign (a lnr.leds.Leds: the App sets it as it starts, and DOWN and
# FIGURES afresh: a desktop runs several Apps, lnr/powerup.py).
LEDS = [None]  # type: list


def sign(work=0):
    """One step of the LEDs' sign of life (lnr/leds.py Leds.sign; `work`: the search's since
    the last, when engine.ai gives it), for code that works for long with the screen still: a
    switch (docs/memory.md, board waits: no half second with no sign of life)."""
    leds = LEDS[0]
    if leds is not None:
        leds.sign(work)


# ------------------------------------------------------------------ turning down

# What the game goes without when the heap is short, in the order a player would give them up:
# the hint's look-ahead (the hint from engine.ai's plan alone), then the hint; a bot's plan
# first drops the view it keeps (a slower switch, the same plan), then plans by the score after
# its turn (`greedy`, without the weights), then takes its first legal step; where a screen's
# code, a save's or a deal's does not fit, the sound and then the LEDs, whose code stays in RAM
# through every screen (shed()); where the dice's and the run's code does not fit beside the
# play screen's, even so, the dice are rolled at once from then on (lnr/play/screen.py), not
# tried again at every roll. Each is said once, in one line (DOWN, and the serial console).
LOOKAHEAD = const(1)
HINT = const(2)
SOUND = const(4)
WEIGHTS = const(8)
PLAN = const(16)
LIGHTS = const(32)
DICE = const(64)
# What is turned down (the bits), then a slot per feature (LOOKAHEAD's first) for the line
# that says so until a screen has shown it (turn_down(), unsaid()). Slots, not a queue made as
# lines come: a turn-down comes where the heap is short, and filling a slot allocates nothing.
DOWN = [0, None, None, None, None, None, None, None]  # type: list


def turn_down(feature, said):
    """Goes without `feature` from now on, and says so once: `said` (a toast's 18 characters)
    on a screen to come, and on the serial console. Features turned down at one moment (the
    sound and then the LEDs) are each said in turn, but a rung past the one before it (the hint
    off after its look-ahead, bots playing basic after simpler) says only where it is now."""
    if not DOWN[0] & feature:
        DOWN[0] |= feature
        slot = 1
        bit = feature
        while bit > 1:
            bit >>= 1
            slot += 1
        DOWN[slot] = said
        if feature == HINT or feature == PLAN:  # the rung before it, if not said yet, is past
            DOWN[slot - 1] = None
        print("loknroll: short of memory: " + said)


def unsaid():
    """Returns the first line of a feature turned down that no screen has shown yet, now shown
    (the screen shows it), or None."""
    for slot in range(1, len(DOWN)):
        said = DOWN[slot]
        if said is not None:
            DOWN[slot] = None
            return said
    return None


def shed(app):
    """Turns down the next feature whose code stays in RAM through every screen, and collects:
    the sound (its player's notes and lnr.sound's code go; the app's Sound plays nothing after:
    its methods read no global of lnr.sound), then the LEDs (dark, and lnr.leds' and the
    neopixel library's code go: lnr/dark.py). Returns False when both are down already: the
    caller's MemoryError stands."""
    if not DOWN[0] & SOUND:
        turn_down(SOUND, "Sound off (memory)")
        sound = app.sound
        if sound.player is not None:
            sound.player.stop()
        sound.player = app.hw.player = None
        sound = sys.modules.get("lnr.sound")
        if sound is not None:
            empty(sound)
        sound = None
    elif not DOWN[0] & LIGHTS:
        try:  # first: with no room for its code, the LEDs stay as they are
            from lnr.dark import go_dark
        except MemoryError:
            return False
        turn_down(LIGHTS, "LEDs off (memory)")
        LEDS[0] = None
        for name in go_dark(app):  # the modules nothing refers to now
            mod = sys.modules.get(name)
            if mod is not None:
                empty(mod)
        go_dark = mod = None
    else:
        return False
    gc.collect()
    return True


def load(app, name):
    """Imports module `name` and returns it, shedding the sound and then the LEDs (shed()) if
    the heap is too short for it; MemoryError when both are down already."""
    while True:
        try:
            __import__(name)
            return sys.modules[name]
        except MemoryError:
            drop(name)  # a module half loaded
            forget(name)
            gc.collect()
            if not shed(app):
                raise


# ------------------------------------------------------------------ what the board has

# The least heap the game plays every mode at, features turned down: what the game has
# (gc.mem_alloc() + gc.mem_free() less the firmware's: lnr/powerup.py heap()) under make
# cpcheck's `degrades to` cap (a heap's collector tables take a 30th of it, and the check may
# give the game up to its BASE_SLACK less: tools/vm/cpapp.py floor_cap()), its KB rounded down;
# host_tests/test_cp_app.py holds the session under the cap that leaves the game this much.
# Below it the title says so and nothing is saved.
FLOOR_KB = const(73)

# What this board showed, for its report (lnr/memory/report.py: the serial console's line, the
# Board page): the heap free once the title is up, the least free after a switch, the searches' work and their time on the board's
# clock (ns, where the profile has one), the slowest hint's and bot turn's switch (ms); and for
# the hint's deadline (lnr/play/plan.py), the most a switch took to load the whole play
# screen's code and a hint to be named once its search was done (ms).
FIGURES = [0, 0, 0, 0, 0, 0, 0, 0]
F_START = const(0)
F_LEAST = const(1)
F_WORK = const(2)
F_NS = const(3)
F_HINT = const(4)
F_TURN = const(5)
F_BACK = const(6)
F_WORDS = const(7)


# ------------------------------------------------------------------ the switch

# What a bot's plan keeps of the play screen's code (W_PLAN): its view and map, and every module
# they import that a switch drops (drop_since() empties a dropped module's globals, which a kept
# one would still use: host_tests/test_app_memory.py plays a table game so). Loading them again
# took a board about 0.4 s of the 2 s a bot's turn may take (make cpcheck: board waits), and the
# plan has room for them beside engine.bots; the hint has not (its search is bigger): it keeps
# nothing.
VIEW = ("lnr.play", "lnr.play.mapview", "lnr.play.view", "lnr.sprites", "engine.risk")
