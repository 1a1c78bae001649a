"""The whole app on CircuitPython 10's own VM, playing membudget's session from power-up (run by
tools/vm/cpapp.py, whose docstring says what the figures mean; not importable on CPython).

    circuitpython cp_app_session.py CONF

CONF is a file of `name value` lines written by tools/vm/cpapp.py:

    mode       calibrate | session | frames
    frames     the file of the session's frames: one byte each, 0 no key, else key number + 1,
               or PASSING + n + 1: the player's next n turns, taken by Player
    seed       the first game's seed (the session's keys are made for it)
    standins   the CircuitPython modules to stand in (tools/standins), comma-separated
    standin    frames: 1 to time the stand-ins of the firmware's C code too (time_standins())
    layout     bytes the harness holds before the app starts (tools/vm/cpapp.py spread())
    player     S_HAND, S_MENU, K_A, K_START, PASSING: what the session's player reads and
               presses where the frames say PASSING + n (Player)
    consts     SC_PLAY, S_INFO, SC_OVER, SC_ERROR: the play screen's number, the hint panel's
               step, the game over screen's and the error screen's
    momentary  the modules loaded for a moment only (tools/vm/membudget/session.py MOMENTARY)
    collect    1: collect after every frame of a session run too
    intern     session: names to intern before base, growing the VM's name pools in advance
    ballast    session: a file of `frame kind bytes` lines, what the harness holds from that
               frame on (what a board holds beyond this VM: tools/vm/cpapp.py): kind 0 one more
               name pool, kind 1 the display objects' difference
    expect     the base a session run's heap was sized for (the base varies a little with the
               heap's size); a base below it, or above it by more than `slack`, ends the
               run at once, exit status 3
    slack      how far above `expect` a base may be (BASE_SLACK, or more where the base found
               went back and forth between two heap sizes: tools/vm/cpapp.py Form.play)
    marks      session: frames to count (tools/vm/waits.py, the VM under valgrind's callgrind):
               before and after each, `MARK frame`, and at each sign of the LEDs in it
               (Leds.sign), `MARK frame sign`, each followed by a wait for a line on stdin,
               the host's go once it has had callgrind dump its count

The stand-ins are installed, the stand-in Group keeps its children (TrackedGroup: the display
objects alive are found from the display's root_group), and the clock is the harness's own
(virtual time, 30 ms a frame as the board profile paces it: nothing sleeps). Then the live heap
is read: BASE, everything that is not the app's. The app starts as code.py starts it
(lnr.boards, lnr.main, lnr.boards.open_hardware(), start()) and runs frame by frame:
lnr.main.step and the profile's wait_frame. Each frame's key is pressed on the stand-in keypad (a press and a release)
once the app has read the one before, so keys wait as they do in the board's event queue.
Prints UNIT (what a stand-in TileGrid and a Group of n children weigh here), BASE and the name
pools (QSTR), then:

    calibrate  uncapped: after every frame, a real collection, then `R frame phase bytes
               display` and the name pools: the live heap less base, and what the display
               objects alive weigh as the firmware's (vm/sizes.py's formulas) beyond the
               stand-ins; at each drop of a momentary module (lnr.memory's drop() watched), the same just
               before it (`M module frame phase bytes display`)
    session    capped (-X heapsize): the same frames, quiet, the collector left to itself as
               on a board (`collect 1`: a collection after every frame), the ballast held; a
               MemoryError ends it (FAIL)
    frames     `F frame screen step busy effect key refreshes bytes us cpu asked gap search
               standin netgap calls`: each frame with the collector off, the bytes it
               allocated, its time and the longest stretch of it with no sign of life; with
               `standin 1`, the time spent in the stand-ins of the firmware's C code, the
               longest stretch with no sign less that time and the calls of them counted (else
               0, the stretch and 0); and `L frame
               us` before every cp_loop.EVERY-th frame, after a frame of cp_loop.AFTER_US or
               more and after the last: the SAMD51 factor's loop timed beside the frames

and, at the end of calibrate and session: FRAMES, END (the screen, whether the key queue
overflowed), TRACE (a fingerprint of every frame's screen and step, and of the NVM: a run that
went otherwise has another) and the name pools (QSTR end).
"""
import gc
import sys
import time

import micropython

from sizes import group_bytes, tilegrid_bytes  # tools/vm/membudget/vm/sizes.py, copied
from tools.standins import install

# A base above the one the heap was sized for by at most this is run: the app then has that
# much less than its cap (the check errs on the strict side). The base moves by a few hundred
# bytes with the heap's size (where the names interned in advance land), back and forth.
BASE_SLACK = 512
FRAME_MS = 30  # the board profile's pace (lnr/boards/pybadge.py FRAME_MS)
TICKS_MASK = 0x1FFFFFFF  # supervisor.ticks_ms() wraps at 2**29


def _conf(path):
    out = {}
    with open(path) as f:
        for line in f:
            name, _, value = line.strip().partition(" ")
            out[name] = value
    return out


# Only numbers and the same strings in every mode outlive the reading: a string value that
# happens to be an interned name takes no heap, so a run's base must not depend on them.
CONF = _conf(sys.argv[1])
MODE = ("calibrate", "session", "frames").index(CONF["mode"])
CALIBRATE = 0
FRAMES_RUN = 2
with open(CONF["frames"], "rb") as _f:
    FRAMES = _f.read()
SEED = int(CONF["seed"])
SC_PLAY, S_INFO, SC_OVER, SC_ERROR = [int(x) for x in CONF["consts"].split(",")]
S_HAND, S_MENU, K_A, K_START, PASSING = [int(x) for x in CONF["player"].split(",")]
MOMENTARY = CONF["momentary"].split(",")
COLLECT = CONF.get("collect") == "1"  # session: a collection after every frame too
EXPECT = int(CONF.get("expect", "0"))  # session: the base its heap was sized for
SLACK = int(CONF.get("slack", str(BASE_SLACK)))  # session: how far above EXPECT a base may be
INTERN = int(CONF.get("intern", "0"))  # session: names to intern before base (see below)
STANDIN_TIME = CONF.get("standin") == "1"  # frames: the stand-in display's time measured too
MARKS = [int(x) for x in CONF.get("marks", "").split(",") if x]  # session: frames counted
# Where the app's objects land in the heap moves with these bytes, and with it what a value
# left on the stack happens to point at, and keeps (tools/vm/cpapp.py spread()).
LAYOUT = bytearray(int(CONF.get("layout", "0")))


def intern(n):
    """Interns n names of its own (what tools/vm/cpapp.py asks for a capped run): the VM's name
    pools are then grown before base, so the app's names take no new pool here; a board's
    pools for them are the ballast's, allocated when a board allocates them."""
    for i in range(n):
        getattr(0, "%x~" % i, None)  # a name looked up is interned, found or not
        if i & 7 == 7:
            # The name's text, made for the lookup, is garbage at once: collected often, the
            # names' chunks lie side by side. Otherwise they spread over the whole heap between
            # the garbage, and no block of a few KB is left in one piece (a 177 KB heap then
            # refuses 2.5 KB with 75 KB free).
            gc.collect()


# First, on a heap that nothing has fragmented yet: the pools' blocks are the biggest of the
# harness (a pool for 1280 names is about 9 KB) and under a small cap the stand-ins' modules
# would leave no room in one piece for them.
intern(INTERN)
gc.collect()
# session: what the harness holds from a frame on, in frame order: (frame, 0, bytes) one more
# name pool as a board allocates it; (frame, 1, bytes) the display objects' difference
BALLAST_PLAN = []
if CONF.get("ballast"):
    with open(CONF["ballast"]) as _f:
        for _line in _f:
            _frame, _kind, _bytes = _line.split()
            BALLAST_PLAN.append((int(_frame), int(_kind), int(_bytes)))
PARTS = install(CONF["standins"].split(","))
CONF = None
DIO = PARTS["displayio"]
STANDIN_GROUP = DIO.Group


class TrackedGroup(STANDIN_GROUP):
    """The stand-in Group, keeping its children too, so that the display objects alive can be
    found from the display's root_group (the menus' Labels come and go)."""

    def __init__(self, *, scale=1, x=0, y=0):
        STANDIN_GROUP.__init__(self, scale=scale, x=x, y=y)
        self.kids = []

    def insert(self, index, layer):
        STANDIN_GROUP.insert(self, index, layer)
        self.kids.insert(index, layer)

    def remove(self, layer):
        STANDIN_GROUP.remove(self, layer)
        self.kids.remove(layer)

    def pop(self, i=-1):
        STANDIN_GROUP.pop(self, i)
        return self.kids.pop(i)


if MODE != FRAMES_RUN:  # the frames run reads no heap: its Groups allocate as the stand-in's
    DIO.Group = TrackedGroup  # before the app imports it
DIO.forget()  # terminalio's font is in the board's flash: not counted
UNIT_TILEGRID = [0]  # a stand-in TileGrid's bytes (its tile map is in the stand-in's pool)
UNIT_GROUP = [0] * 48  # a TrackedGroup's bytes by its number of children
NOW = [0x1FFF0000]  # the virtual clock: 65.5 s before it wraps, as a board's after power-up


def ticks_ms():
    return NOW[0]


PARTS["supervisor"].ticks_ms = ticks_ms  # the profile (and adafruit_ticks) read it there


def live():
    gc.collect()
    return gc.mem_alloc()


def units():
    """Measures what the stand-ins weigh here: a TileGrid, a Group of n children."""
    keep = [None] * 8
    bmp = DIO.Bitmap(16, 16, 2)
    pal = DIO.Palette(2)
    a = live()
    for i in range(8):
        keep[i] = DIO.TileGrid(bmp, pixel_shader=pal, width=1, height=1)
    UNIT_TILEGRID[0] = (live() - a) // 8
    for n in range(len(UNIT_GROUP)):
        for i in range(8):
            keep[i] = None
        a = live()
        for i in range(8):
            g = keep[i] = TrackedGroup()
            for _ in range(n):
                g.append(None)
        g = None
        UNIT_GROUP[n] = (live() - a) // 8
    for i in range(8):
        keep[i] = None
    DIO.forget()


def firmware_excess(layer):
    """What the display objects alive under `layer` weigh as the firmware's objects (the
    census's formulas, tools/vm/membudget/vm/sizes.py) beyond what the stand-ins weigh here."""
    if isinstance(layer, DIO.TileGrid):
        return tilegrid_bytes(layer) - UNIT_TILEGRID[0]
    if not isinstance(layer, TrackedGroup):
        return 0
    kids = layer.kids
    total = group_bytes(layer) - UNIT_GROUP[min(len(kids), len(UNIT_GROUP) - 1)]
    for i in range(len(kids)):
        total += firmware_excess(kids[i])
    return total


class Watch:
    app = None
    frame = 0
    base = 0
    drop = None  # lnr.memory's drop() itself
    verbose = MODE == CALIBRATE


def reading():
    """Prints the live heap less base, what the display objects alive weigh as the
    firmware's beyond the stand-ins, and the name pools (qstr_info)."""
    raw = live() - Watch.base
    print(raw, firmware_excess(PARTS["board"].DISPLAY.root_group))
    micropython.qstr_info()


def label(app):
    """The phase the app is in: an index into membudget's LABELS (tools/vm/membudget/session.py)."""
    if app is None or app.screen != SC_PLAY or app.game is None:
        return 0
    play = app.play
    if play is not None and play.step == S_INFO:
        return 5
    return 1 + app.game.state.mode


def trace(h):
    """Folds the frame's screen and play step into the fingerprint h (small ints: no
    allocation). A run that went otherwise (an error the app caught, e.g. a MemoryError in a
    hint, which must never end a game) ends with another fingerprint."""
    app = Watch.app
    step = app.play.step if app.play is not None else 15
    return (h * 33 + app.screen * 16 + step) % 1000003


def checksum(data):
    h = 0
    for b in data:
        h = (h * 31 + b) % 1000003
    return h


def _drop_hook(*names):
    # lnr.memory's drop(), watched: the live heap just before a momentary module goes.
    if Watch.verbose:
        for name in names:
            if name in sys.modules and name in MOMENTARY:
                print("M", name, Watch.frame, label(Watch.app), end=" ")
                reading()
    Watch.drop(*names)


class Player:
    """The session's player where its frames say PASSING + n (tools/vm/membudget/session.py):
    their next n turns (0: to the game's end), taken on the screen as it is. At each, START and
    the action menu's first item, Pass (always allowed: docs/rules.md §4); A on whatever else
    waits for a key (a result, an opponent's, the hint's panel). Nothing is pressed while the
    app is busy (a key read then is dropped) or while the seat on turn is not a person's.
    Its decisions read the app's fields and allocate nothing."""

    passed = [0]  # passes in this stretch

    @staticmethod
    def key(turns):
        """Returns the key to press now, -1 for none yet, or DONE once the stretch is over
        (the game over's screen is up, or the turns are passed and the next one waits)."""
        app = Watch.app
        if app.screen != SC_PLAY or app.game is None:
            Player.passed[0] = 0
            return DONE
        if app.busy():
            return -1
        step = app.play.step
        if step == S_MENU:
            Player.passed[0] += 1
            return K_A
        if step == S_HAND:
            game = app.game
            if not game.human(game.state.seat):
                return -1
            if turns and Player.passed[0] >= turns:
                Player.passed[0] = 0
                return DONE
            return K_START
        return K_A


DONE = -2
STRETCH_MOST = 20000  # frames a stretch of the player's turns may take (a game of passes: ~5000)


class Keys:
    """Presses the session's keys on the stand-in keypad, each once the app has read the one
    before (a press and its release; the app reads presses only, skipping releases)."""

    next = 0  # the first frame whose key has not been pressed yet
    # Frames the player's own turns took (Player): the keys after them are due that much later.
    offset = [0]
    began = [-1]  # the frame the player's stretch began (-1: none now)

    @staticmethod
    def events():
        return PARTS["keypad"].last.events

    @staticmethod
    def waiting():
        # The queue holds [the last release?, press, release]: a press waits iff 2 or more.
        return len(Keys.events()) >= 2

    @staticmethod
    def feed(frame):
        # Presses the oldest key of frames up to `frame` not pressed yet, if none waits; in a
        # stretch of the player's own turns, the one Player chooses.
        if Keys.waiting():
            return
        due = frame - Keys.offset[0]
        i = Keys.next
        while i <= due and i < len(FRAMES) and FRAMES[i] == 0:
            i += 1
        Keys.next = i
        if i > due or i >= len(FRAMES):
            return
        key = FRAMES[i] - 1
        if key >= PASSING:
            if Keys.began[0] < 0:
                Keys.began[0] = frame
            if frame - Keys.began[0] < STRETCH_MOST:  # then: the session's "never read" FAIL
                Keys.offset[0] = frame - i  # the stretch is due for as long as it lasts
            key = Player.key(key - PASSING)
            if key == DONE:
                Keys.next = i + 1  # the frames after it are due from the next frame on
                Keys.began[0] = -1
                return
            if key < 0:
                return
        else:
            Keys.next = i + 1
        events = Keys.events()
        events.put(key, True)
        events.put(key, False)

    @staticmethod
    def more(frame):
        # False once every key was read and 60 frames have passed since the last one.
        if frame - Keys.offset[0] < len(FRAMES) + 60:
            return True
        return Keys.next < len(FRAMES) or Keys.waiting()


class Sheet:
    """The sprite sheet the app made (lnr/sheet.py lends its bytes to the saves): at every
    refresh of the display it must hold sprites.bin's bytes again, or the screen would show
    the saves' image as sprites."""

    bitmap = [None]
    crc = [0]  # sprites.bin's CRC-32
    refreshes = [0]

    @staticmethod
    def hook(sheet_module):
        from binascii import crc32

        with open(sheet_module.PATH, "rb") as f:
            Sheet.crc[0] = crc32(f.read())
        new = sheet_module.new

        def kept():
            Sheet.bitmap[0] = new()
            return Sheet.bitmap[0]

        sheet_module.new = kept

    @staticmethod
    def check(display, frame):
        """Returns None, or why the frame failed."""
        from binascii import crc32

        if display.refreshes == Sheet.refreshes[0]:
            return None
        Sheet.refreshes[0] = display.refreshes
        if crc32(memoryview(Sheet.bitmap[0])) != Sheet.crc[0]:
            return "the display was refreshed at frame %d with the sprite sheet not restored" % frame
        return None


def start():
    """Starts the app as code.py does; returns (hw, lnr.main)."""
    import lnr.memory

    Watch.drop = lnr.memory.drop
    # The app's modules import it after this (`from lnr.memory import drop`); lnr.memory's own
    # functions read its global.
    lnr.memory.drop = _drop_hook
    import lnr.sheet

    Sheet.hook(lnr.sheet)
    import lnr.boards
    import lnr.main

    hw = lnr.boards.open_hardware()  # which drops its package, as on the board
    hw.base = Watch.base  # as code.py: the heap held before the app (here the harness's too)
    hw.seed = SEED  # the app takes the first game's seed from hw.seed when it has one
    Watch.app = lnr.main.start(hw)
    return hw, lnr.main


class Ballast:
    """What a board holds that this VM does not, held by the harness (BALLAST_PLAN): the name
    pools a board allocates for the app's names, each a block of its size, and the display
    objects' difference."""

    pools = [None] * 16  # made before base: holding a block allocates nothing more
    display = [None]
    at = [0]  # the next change in BALLAST_PLAN

    @staticmethod
    def before(frame):
        plan = BALLAST_PLAN
        at = Ballast.at
        while at[0] < len(plan) and plan[at[0]][0] == frame:
            _, kind, size = plan[at[0]]
            at[0] += 1
            if kind == 0:
                i = 0
                while Ballast.pools[i] is not None:
                    i += 1
                Ballast.pools[i] = _block(size)
            else:
                Ballast.display[0] = None
                Ballast.display[0] = _block(size)


def _block(size):
    # A heap block of `size` bytes (a multiple of 16, or 0: nothing): a bytearray is a 16-byte
    # object and its data.
    return bytearray(size - 16) if size else None


def session():
    """calibrate and session: the frames, a reading after each (printed when calibrating)."""
    try:
        Ballast.before(0)
        hw, main = start()
    except MemoryError as e:
        print("FAIL MemoryError at start-up: %s" % e)
        import traceback  # where, for the one reading this (it may itself need the heap)

        traceback.print_exception(e)
        return 1
    app = Watch.app
    if MARKS:  # the counted frames' stretches between two signs of life (tools/vm/waits.py)
        signs_within(app)
    i = 0
    path = 0
    shown = [0, 0, -1]  # game over screens, error screens, the screen last frame
    try:
        while Keys.more(i):
            Watch.frame = i
            if i:
                Ballast.before(i)
            Keys.feed(i)
            counted = i in MARKS
            if counted:
                mark(i)
            main.step(hw, app)
            NOW[0] = (NOW[0] + FRAME_MS) & TICKS_MASK
            hw.wait_frame()
            if counted:
                mark(i)
            bad = Sheet.check(PARTS["board"].DISPLAY, i)
            if bad is not None:
                print("FAIL " + bad)
                return 1
            path = trace(path)
            if app.screen != shown[2]:
                shown[2] = app.screen
                if app.screen == SC_OVER:
                    shown[0] += 1
                elif app.screen == SC_ERROR:
                    shown[1] += 1
            if Watch.verbose:
                print("R", i, label(app), end=" ")
                reading()
            elif COLLECT:
                gc.collect()
            i += 1
            if i - Keys.offset[0] > len(FRAMES) + 600:
                print("FAIL the app never read the session's last keys")
                return 1
    except MemoryError as e:
        print("FAIL MemoryError at frame %d (phase %d): %s" % (i, label(app), e))
        import traceback  # where, for the one reading this (it may itself need the heap)

        traceback.print_exception(e)
        return 1
    print("FRAMES", i)
    print("END", app.screen, PARTS["keypad"].last.events.overflowed)
    print("TRACE", path, checksum(PARTS["microcontroller"].nvm.view()))
    print("GAMES", shown[0], shown[1])
    print("QSTR end")
    micropython.qstr_info()
    return 0


def mark(frame, what=""):
    """Says `MARK frame` (`what`: "sign" at a sign of life inside it) and waits for the host's
    go (a line on stdin): the host has had callgrind dump the count since the last mark
    (tools/vm/waits.py). A blocking read runs no instruction while it waits, so the count is
    the frame's however long the host takes."""
    print("MARK", frame, what)
    sys.stdin.readline()


def signs_within(app):
    # Marks each sign of the LEDs (lnr.memory sign(), the search's through engine.budget)
    # given inside a counted frame, after the sign is shown: the counts between two marks are
    # the frame's stretches with no sign of life.
    give = app.leds.sign

    def signed(work=0):
        give(work)
        if Watch.frame in MARKS:
            mark(Watch.frame, "sign")

    app.leds.sign = signed


def time_standins(spent):
    """Times every call of the stand-ins that are C code in the firmware: displayio's Group
    and TileGrid (Python here: tools/standins/displayio.py) and adafruit_pixelbuf's PixelBuf
    (the LEDs). spent[0] and spent[1] add each outermost call's µs (a call that the stand-in
    makes of itself is in its caller's); spent[2] is the depth; spent[3] counts the outermost
    calls (what the timing is of, the same every run). The timing itself slows the run: only
    the share of a frame spent there is read from it (tools/vm/cpapp.py)."""

    def timed(fn):
        def call(*args, **kwargs):
            if spent[2]:
                return fn(*args, **kwargs)
            spent[2] = 1
            spent[3] += 1
            t = time.ticks_us()
            try:
                return fn(*args, **kwargs)
            finally:
                us = time.ticks_diff(time.ticks_us(), t)
                spent[0] += us
                spent[1] += us
                spent[2] = 0

        return call

    for cls in (DIO.Group, DIO.TileGrid, PARTS["adafruit_pixelbuf"].PixelBuf):
        for name in ("__init__", "append", "insert", "remove", "pop", "__len__", "__getitem__",
                     "__setitem__", "__iter__", "fill", "show"):
            if name in cls.__dict__:
                setattr(cls, name, timed(cls.__dict__[name]))


def frames():
    """Each frame with the collector off: the bytes it allocates and its time."""
    hw, main = start()
    app = Watch.app
    display = PARTS["board"].DISPLAY
    # The moves asked in a frame (App.ask: a bot's plan W_PLAN, the hint W_HINT) are made in
    # that frame (lnr/main.py settle): the frame's `asked` says which, for the board's waits.
    asked = [-1]
    ask = app.ask

    def asking(kind):
        asked[0] = kind
        ask(kind)

    app.ask = asking
    # The longest stretch of a frame in which nothing showed a sign of life: from the frame's
    # start to each sign of the LEDs (Leds.sign, given by a switch and a search) to its end.
    # The search's own time in the frame: from the sign before its first sign with work (the
    # search gives its work with each; lnr/play/plan.py gives a sign as the search begins) to
    # the sign after its last (as it ends); the rest is the switch (modules dropped and loaded,
    # the screen taken up again).
    sign = [0, 0, 0]  # the longest gap in µs, the time of the last sign, the longest net gap
    marks = []  # this frame's signs: (time, work told)
    give = app.leds.sign
    # µs in the stand-ins this frame and since the last sign, time_standins()'s depth, and its
    # calls this frame
    spent = [0, 0, 0, 0]
    if STANDIN_TIME:
        time_standins(spent)

    def signing(work=0):
        now = time.ticks_us()
        gap = time.ticks_diff(now, sign[1])
        if gap > sign[0]:
            sign[0] = gap
        if gap - spent[1] > sign[2]:
            sign[2] = gap - spent[1]
        spent[1] = 0
        sign[1] = now
        marks.append((now, work))
        give(work)

    def search_us(t0, t1):
        told = [k for k in range(len(marks)) if marks[k][1] > 0]
        if not told:
            return 0
        start = marks[told[0] - 1][0] if told[0] > 0 else t0
        end = marks[told[-1] + 1][0] if told[-1] + 1 < len(marks) else t1
        return time.ticks_diff(end, start)

    app.leds.sign = signing
    from cp_loop import AFTER_US, EVERY, loop_us  # tools/vm/cp_loop.py, copied

    i = 0
    long = False
    while Keys.more(i):
        if long or i % EVERY == 0:
            print("L", i, loop_us())
        Watch.frame = i
        Keys.feed(i)
        waiting = Keys.waiting()
        play = app.play
        screen = app.screen
        step = play.step if screen == SC_PLAY and play is not None else -1
        busy = app.busy()
        fx = app.leds.busy()
        refreshes = display.refreshes
        asked[0] = -1
        marks.clear()  # before the frame's bytes are counted: what it frees is not the frame's
        gc.collect()
        gc.disable()
        c0 = time.clock()  # a float, made before the bytes are counted (and c1 after)
        a = gc.mem_alloc()
        t0 = time.ticks_us()
        sign[0] = 0
        sign[1] = t0
        sign[2] = 0
        spent[0] = spent[1] = spent[3] = 0
        main.step(hw, app)
        NOW[0] = (NOW[0] + FRAME_MS) & TICKS_MASK
        hw.wait_frame()
        t1 = time.ticks_us()
        gap = time.ticks_diff(t1, sign[1])
        net = gap - spent[1]
        b = gc.mem_alloc()
        c1 = time.clock()
        gc.enable()
        key = waiting and not Keys.waiting()
        # The frame's CPU time, an upper bound in µs (time.clock() is this process's CPU time,
        # cut to the ms here: under a ms more), or -1 across the clock's wrap: the wall time
        # counts the machine's other processes too (tools/bots/bench_cp.py), this does not.
        ms = round((c1 - c0) * 1000)
        cpu = (ms + 1) * 1000 if ms >= 0 else -1
        print("F", i, screen, step, int(busy), int(fx), int(key),
              display.refreshes - refreshes, b - a, time.ticks_diff(t1, t0), cpu, asked[0],
              max(gap, sign[0]), search_us(t0, t1), spent[0], max(net, sign[2]), spent[3])
        long = time.ticks_diff(t1, t0) >= AFTER_US
        i += 1
    print("L", i, loop_us())
    print("FRAMES", i)
    return 0


def main():
    units()
    print("UNIT", UNIT_TILEGRID[0], ",".join([str(u) for u in UNIT_GROUP]))
    Watch.base = live()
    print("BASE", Watch.base)
    if EXPECT and not EXPECT <= Watch.base <= EXPECT + SLACK:
        return 3  # the heap was sized for another base: tools/vm/cpapp.py sizes it again
    print("QSTR")
    micropython.qstr_info()
    return frames() if MODE == FRAMES_RUN else session()


sys.exit(main())
