"""The whole app on CircuitPython 10's own VM, playing membudget's session from power-up (run by
tools/cpapp.py, whose docstring says what the figures mean; not importable on CPython).

    circuitpython cp_app_session.py CONF

CONF is a file of `name value` lines written by tools/cpapp.py:

    mode       calibrate | session | frames
    frames     the file of the session's frames: one byte each, 0 no key, else key number + 1
    seed       the first game's seed (the session's keys are made for it)
    standins   the CircuitPython modules to stand in (tools/standins), comma-separated
    consts     SC_PLAY and S_INFO: the play screen's number and the hint panel's step
    momentary  the modules loaded for a moment only (tools/membudget/session.py MOMENTARY)
    collect    1: collect after every frame of a session run too
    expect     the base a session run's heap was sized for (the base varies a little with the
               heap's size); another base ends the run at once, exit status 3

The stand-ins are installed and the clock is the harness's own (virtual time, 30 ms a frame as
the board profile paces it: nothing sleeps). Then the live heap is read: BASE, everything that is
not the app's. The app starts as code.py starts it (lnr.boards, lnr.main, open_hardware(),
start()) and runs frame by frame: lnr.main.step and the profile's wait_frame. Each frame's key is
pressed on the stand-in keypad (a press and a release) once the app has read the one before, so
keys wait as they do in the board's event queue. Prints UNIT (each stand-in display kind's bytes,
measured here), KINDS, BASE and the name pools (QSTR), then:

    calibrate  uncapped: after every frame, a real collection and the live heap less base and
               the stand-ins' bytes (R frame phase bytes) with the name pools; at each drop of
               a momentary module (lnr.drop watched), the same just before it (M module ...)
    session    capped (-X heapsize): the same frames, quiet, the collector left to itself as
               on a board (`collect 1`: a collection after every frame); a MemoryError ends
               it (FAIL)
    frames     F frame screen step busy effect key refreshes bytes us: each frame with the
               collector off, the bytes it allocated and its time

and, at the end of calibrate and session: MADE (stand-ins made by start-up and in all), FRAMES,
END (the screen, whether the key queue overflowed), TRACE (a fingerprint of every frame's
screen and step, and of the NVM: a run that went otherwise has another).
"""
import gc
import sys
import time

import micropython

from tools.standins import install

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
SC_PLAY, S_INFO = [int(x) for x in CONF["consts"].split(",")]
MOMENTARY = CONF["momentary"].split(",")
COLLECT = CONF.get("collect") == "1"  # session: a collection after every frame too
EXPECT = int(CONF.get("expect", "0"))  # session: the base its heap was sized for
PARTS = install(CONF["standins"].split(","))
CONF = None
DIO = PARTS["displayio"]
DIO.forget()  # terminalio's font is in the board's flash: not counted
KINDS = DIO.standins()
UNIT = [0] * len(KINDS)
NOW = [0x1FFF0000]  # the virtual clock: 65.5 s before it wraps, as a board's after power-up


def ticks_ms():
    return NOW[0]


PARTS["supervisor"].ticks_ms = ticks_ms  # the profile (and adafruit_ticks) read it there


def live():
    gc.collect()
    return gc.mem_alloc()


def standin_bytes():
    """The heap the stand-in display objects take: each kind's count times its measured
    size. Allocates nothing."""
    total = 0
    for i in range(len(KINDS)):
        total += KINDS[i].made * UNIT[i]
    return total


def units():
    """Measures each stand-in kind's bytes: 16 of each, kept in a list made first."""
    keep = [None] * 16
    bmp = DIO.Bitmap(8, 8, 2)
    pal = DIO.Palette(2)
    for j in range(len(KINDS)):
        kind = KINDS[j]
        a = live()
        for i in range(16):
            if kind is DIO.TileGrid:
                keep[i] = kind(bmp, pixel_shader=pal, width=1, height=1, tile_width=8,
                               tile_height=8)
            elif kind is DIO.Group:
                keep[i] = kind()
            elif kind is DIO.Bitmap:
                keep[i] = kind(8, 8, 2)
            else:
                keep[i] = kind(2)
        UNIT[j] = (live() - a) // 16
        for i in range(16):
            keep[i] = None
    DIO.forget()


class Watch:
    app = None
    frame = 0
    base = 0
    drop = None  # lnr.drop itself
    verbose = MODE == CALIBRATE


def reading():
    """The live heap less base and the stand-ins' bytes."""
    return live() - Watch.base - standin_bytes()


def label(app):
    """The phase the app is in: an index into membudget's LABELS (tools/membudget/session.py)."""
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
    # lnr.drop, watched: the live heap just before a momentary module goes.
    if Watch.verbose:
        for name in names:
            if name in sys.modules and name in MOMENTARY:
                print("M", name, Watch.frame, label(Watch.app), reading())
                micropython.qstr_info()
    Watch.drop(*names)


class Keys:
    """Presses the session's keys on the stand-in keypad, each once the app has read the one
    before (a press and its release; the app reads presses only, skipping releases)."""

    next = 0  # the first frame whose key has not been pressed yet

    @staticmethod
    def events():
        return PARTS["keypad"].last.events

    @staticmethod
    def waiting():
        # The queue holds [the last release?, press, release]: a press waits iff 2 or more.
        return len(Keys.events()) >= 2

    @staticmethod
    def feed(frame):
        # Presses the oldest key of frames up to `frame` not pressed yet, if none waits.
        if Keys.waiting():
            return
        i = Keys.next
        while i <= frame and i < len(FRAMES) and FRAMES[i] == 0:
            i += 1
        Keys.next = i
        if i <= frame and i < len(FRAMES):
            events = Keys.events()
            events.put(FRAMES[i] - 1, True)
            events.put(FRAMES[i] - 1, False)
            Keys.next = i + 1

    @staticmethod
    def more(frame):
        # False once every key was read and 60 frames have passed since the last one.
        if frame < len(FRAMES) + 60:
            return True
        return Keys.next < len(FRAMES) or Keys.waiting()


def start():
    """Starts the app as code.py does; returns (hw, lnr.main)."""
    import lnr

    Watch.drop = lnr.drop
    lnr.drop = _drop_hook  # the app's modules import it after this: `from lnr import drop`
    from lnr.boards import open_hardware
    import lnr.main

    hw = open_hardware()
    hw.seed = SEED  # the app takes the first game's seed from hw.seed when it has one
    Watch.app = lnr.main.start(hw)
    return hw, lnr.main


def session():
    """calibrate and session: the frames, a reading after each (printed when calibrating)."""
    hw, main = start()
    app = Watch.app
    made = ",".join([str(k.made) for k in KINDS])
    i = 0
    path = 0
    try:
        while Keys.more(i):
            Watch.frame = i
            Keys.feed(i)
            main.step(hw, app)
            NOW[0] = (NOW[0] + FRAME_MS) & TICKS_MASK
            hw.wait_frame()
            path = trace(path)
            if Watch.verbose:
                print("R", i, label(app), reading())
                micropython.qstr_info()
            elif COLLECT:
                gc.collect()
            i += 1
            if i > len(FRAMES) + 600:
                print("FAIL the app never read the session's last keys")
                return 1
    except MemoryError as e:
        print("FAIL MemoryError at frame %d (phase %d): %s" % (i, label(app), e))
        return 1
    print("MADE", made, ",".join([str(k.made) for k in KINDS]))
    print("FRAMES", i)
    print("END", app.screen, PARTS["keypad"].last.events.overflowed)
    print("TRACE", path, checksum(PARTS["microcontroller"].nvm.data()))
    return 0


def frames():
    """Each frame with the collector off: the bytes it allocates and its time."""
    hw, main = start()
    app = Watch.app
    display = PARTS["board"].DISPLAY
    i = 0
    while Keys.more(i):
        Watch.frame = i
        Keys.feed(i)
        waiting = Keys.waiting()
        play = app.play
        screen = app.screen
        step = play.step if screen == SC_PLAY and play is not None else -1
        busy = app.busy()
        fx = app.leds.busy()
        refreshes = display.refreshes
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        t0 = time.ticks_us()
        main.step(hw, app)
        NOW[0] = (NOW[0] + FRAME_MS) & TICKS_MASK
        hw.wait_frame()
        t1 = time.ticks_us()
        b = gc.mem_alloc()
        gc.enable()
        key = waiting and not Keys.waiting()
        print("F", i, screen, step, int(busy), int(fx), int(key),
              display.refreshes - refreshes, b - a, time.ticks_diff(t1, t0))
        i += 1
    print("FRAMES", i)
    return 0


def main():
    units()
    print("UNIT", ",".join([str(u) for u in UNIT]))
    print("KINDS", ",".join([k.__name__ for k in KINDS]))
    Watch.base = live()
    print("BASE", Watch.base)
    if EXPECT and Watch.base != EXPECT:
        return 3  # the heap was sized for another base: tools/cpapp.py sizes it again
    print("QSTR")
    micropython.qstr_info()
    return frames() if MODE == FRAMES_RUN else session()


sys.exit(main())
