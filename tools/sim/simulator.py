"""The desktop simulator: runs the device app (lnr.main.run) on Blinka's displayio in a pygame
window, or headless for tests and screenshots.

    python -m tools.sim [--nvm FILE] [--drive DIR] [--scale N] [--seed S]
    python -m tools.sim --headless [--seed S] [--keys A,RIGHT,START,...] [--keys-file F]
                        [--screenshot out.png] [--scale N] [--no-leds] [--nvm FILE]
                        [--drive DIR] [--drive-readonly] [--settle FRAMES] [--audio-log FILE]
                        [--text FILE]

Window keys: arrows = the D-pad, X or A = A, Z or B = B, Enter = START, Space or Tab = SELECT,
Esc (or closing the window) quits. The NeoPixels are drawn in a band under the screen, pixel 0
at the left (tools/sim/display.py). The NVM lives in a file (default ./sim-nvm.bin in the
window; headless, a fresh erased NVM unless --nvm is given), and a folder stands for the
CIRCUITPY drive, which holds the saves' second copy (docs/storage.md): --drive DIR (default
./sim-drive beside the NVM file in the window; headless, a fresh one, removed afterwards,
unless --drive is given). --drive-readonly plays a board started with SELECT held: the drive
is read-only to the game, which then saves to the NVM alone.
The app's sound effects play through pygame's mixer in the window (tools/sim/audio.py renders
lnr/sound.py's table); headless, --audio-log FILE writes one line `<ms> <name>` per effect
started, ms on the virtual clock from the first frame; --text FILE writes the text on the
final screen, one line per line of text shown, top to bottom (tools/sim/screen_text.py: the
lines' tiles read back as characters), so a test or a reader reads what the player reads.

Headless, the keys are pressed from the title screen one per frame step: frame 0 gets the
first, frame 1 the next, ... into a keypad-like queue (64 deep, as keypad's). Besides the key
names (B A START SELECT RIGHT DOWN UP LEFT, any case) a script may hold NAME*N (N presses, one
per frame), WAIT or WAIT*N (frames without a press) and WAIT=MS (idle for MS virtual ms).
Headless time is a virtual clock: each frame step adds FRAME_MS, so animations cost no wall
time. Like supervisor.ticks_ms() on the board, hw.ticks_ms() wraps at 2**29 and starts about
65 s before its first wrap. Once the script is used up and the app has read every queued key,
the app gets `settle` more frames, then wait_frame() returns False and run(hw) should return.
Exit status 0; 1 with the traceback on stderr if the app raised (or waited for a frame while
handling an exception: its crash screen); 2 for bad arguments or input (a key script that
can't be read or runs longer than SCRIPT_LIMIT frames, an --nvm that is a folder, a --drive
that is a file, an output path that can't be written, a number out of its range), one line on
stderr, checked before the app starts. No file of the user's is replaced: an output
(--screenshot, --text, --audio-log) that exists is written over only where the simulator wrote
it (a PNG's mark, tools/cli.py; the text files' first line, TEXT_HEADER and AUDIO_HEADER), and
an --nvm that exists only where it holds an NVM's 8192 bytes; --force replaces them anyway.

For tests, run_headless(keys, seed=..., nvm_path=..., drive=...) returns a Result: the final
screen (pixel(x, y), save_png()), the NeoPixel colours of every frame, the NVM, the drive's
copy, the sounds started (`audio`: (ms, name) pairs) and the app object.
"""
import argparse
import collections
import io
import os
import random
import shutil
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _path in (os.path.join(ROOT, "lib"), ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from tools import cli  # noqa: E402
from tools.sim import display as sim_display  # noqa: E402  (after the paths: it imports Blinka)
from tools.sim.display import SimDisplay, HEIGHT, WIDTH  # noqa: E402
from tools.sim.parts import SimNvm, SimPixels, install, nvm_problem, speaker  # noqa: E402

from lnr.game import SEED_MASK  # noqa: E402
from lnr.keys import NAMES  # noqa: E402

FRAME_MS = 30  # as the board profiles
TICKS_MASK = 0x1FFFFFFF
CLOCK_START = 0x1FFF0000  # supervisor.ticks_ms() at power-up: 65.5 s before the wrap
PIXELS = 5
QUEUE_DEPTH = 64  # keypad.EventQueue's default max_events
SETTLE = 30  # frames after the last key (0.9 virtual s)
SETTLE_LIMIT = 2000  # frames after the script at most, if the app never reads its keys
# A key script's frames at most: 10 virtual hours at FRAME_MS (a script is a list of frames in
# memory; a repeat count of 99999999999 would ask for 800 GB).
SCRIPT_LIMIT = 1200000
DEFAULT_APP = "lnr.main:run"
DEFAULT_NVM = "sim-nvm.bin"
DEFAULT_DRIVE = "sim-drive"  # beside the NVM file
DRIVE_COPY = os.path.join("lnrsave", "data", "copy.bin")  # lnr/copies.py FILE, in the folder
# The first line of the text files the simulator writes: a file that starts so is its own.
TEXT_HEADER = "# The final screen's text (python -m tools.sim --text), a line per line shown"
AUDIO_HEADER = "# The sound effects started (python -m tools.sim --audio-log): <ms> <name>"
TITLE = ("Lok'n'Roll sim - arrows, X/A = A, Z/B = B, Enter = START, Space/Tab = SELECT, "
         "Esc quits")


class ScriptError(ValueError):
    """A key script that cannot be read; the message says where."""


class SimulatorStop(BaseException):
    """Raised into an app that keeps running after wait_frame() returned False (the
    interface says run(hw) returns then)."""


def parse_keys(text):
    """Returns the frame script of a key text: a list with a key number, or None for a frame
    without a press, per frame. Tokens are separated by commas or white space; '#' starts a
    comment running to the end of the line."""
    script = []
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    for token in " ".join(lines).replace(",", " ").split():
        name, _, count = token.partition("*")
        name = name.upper()
        n = 1
        if count:
            n = _number(count, "bad repeat count in %r" % token)
        if name.startswith("WAIT="):
            if count:
                raise ScriptError("WAIT=MS wants a number of ms: %r" % token)
            n = -(-_number(name[5:], "WAIT=MS wants a number of ms: %r" % token) // FRAME_MS)
            key = None
        elif name == "WAIT":
            key = None
        elif name in NAMES:
            key = NAMES.index(name)
        else:
            raise ScriptError("unknown key %r: one of %s, WAIT, WAIT*N, WAIT=MS" % (
                token, " ".join(NAMES)))
        if len(script) + n > SCRIPT_LIMIT:
            raise ScriptError("the script runs past %d frames (%d virtual hours) at %r" % (
                SCRIPT_LIMIT, SCRIPT_LIMIT * FRAME_MS // 3600000, token))
        script.extend([key] * n)
    return script


def _number(text, message):
    # A count in ASCII digits ("²".isdigit() is True, int("²") fails), at most 12 of them.
    if not (text.isascii() and text.isdigit() and len(text) <= 12):
        raise ScriptError(message)
    return int(text)


def key_script(keys):
    """Returns the key script `keys` as run_headless() takes it: a list of key numbers or None
    from a text (parse_keys) or a sequence of names / key numbers / None; an iterator is kept
    as it is (a live script). Raises ScriptError on what it cannot read."""
    if isinstance(keys, str):
        return parse_keys(keys)
    if iter(keys) is keys:
        return keys
    script = []
    for k in keys:
        if k is None or isinstance(k, int):
            if k is not None and not 0 <= k < len(NAMES):
                raise ScriptError("no key number %d" % k)
            script.append(k)
        else:
            script.extend(parse_keys(k))
    return script


class _Hardware:
    """What the app gets as `hw` (the interface of lnr.boards), for the desktop."""

    name = "sim"
    width = WIDTH
    height = HEIGHT
    max_pixels = PIXELS
    base = 0  # the firmware's heap (lnr/powerup.py heap(): CPython tells none)

    def __init__(self, display, nvm, drive=None, drive_writable=True):
        self.display = display
        # The strip the simulator draws and records; the app lets go of hw.pixels where it
        # turns the LEDs down for memory (lnr/memory shed()): the strip stays, dark.
        self.strip = self.pixels = SimPixels(PIXELS, brightness=0.05, auto_write=False)
        self.nvm = nvm
        # The folder that stands for CIRCUITPY (lnr/boards/pybadge.py: "/") and whether boot.py
        # let the game write it (False: SELECT held at power-up).
        self.drive = drive
        self.drive_writable = drive_writable
        self.player = None  # the speaker's sound player (tools/sim/parts.py speaker())
        self.seed = None  # --seed, for an app that asks
        self.frame = 0
        self.error = None  # the exception the app was seen handling (its crash screen)
        self.nvm_writes_after_error = 0
        self.overflowed = False  # keys lost because the queue was full, as keypad says
        self.caller = None  # the app's frame that last called wait_frame()
        self.delivered = 0  # key presses the app has read
        self._queue = collections.deque()
        self._stopped = False
        nvm.on_write = self._nvm_written

    def _nvm_written(self):
        self._check_error()  # a write from the crash handler counts as after the error
        if self.error is not None:
            self.nvm_writes_after_error += 1

    def _push(self, key):
        if len(self._queue) >= QUEUE_DEPTH:
            self.overflowed = True
        else:
            self._queue.append(key)

    def _check_error(self):
        # An app that shows a crash screen waits for frames inside its `except` block: the
        # exception it handles is the crash the simulator must report.
        exc = sys.exc_info()[1]
        if exc is not None and self.error is None:
            self.error = exc

    def next_key(self):
        """Returns the next key press (lnr.keys number), or -1."""
        self._check_error()
        if self._queue:
            self.delivered += 1
            return self._queue.popleft()
        return -1

    def _stop(self):
        if self._stopped:
            raise SimulatorStop("the app kept running after wait_frame() returned False")
        self._stopped = True
        return False


class HeadlessHardware(_Hardware):
    """Scripted keys, virtual clock, the NeoPixels recorded at every frame."""

    def __init__(self, display, nvm, script, settle=SETTLE, max_frames=None, on_frame=None,
                 drive=None, drive_writable=True):
        super().__init__(display, nvm, drive, drive_writable)
        # A list is pressed one item per frame; an iterator (a live script, e.g. a fuzzer)
        # is asked for its next item only once the app has read every queued key.
        self._live = None if isinstance(script, list) else script
        self._script = [] if self._live is not None else script
        self._i = 0
        self._idle = 0
        self._settle = settle
        self._max_frames = max_frames
        self._now = CLOCK_START
        self.on_frame = on_frame
        self.leds = []  # the colours shown at the end of each frame, per frame
        self.led_brightness = []
        self._feed()

    def ticks_ms(self):
        """Returns the virtual clock in ms (wraps at 2**29 like supervisor.ticks_ms())."""
        return self._now

    def elapsed_ms(self):
        """Returns the virtual ms since the start (not wrapped)."""
        return self.frame * FRAME_MS

    def _script_done(self):
        return self._live is None and self._i >= len(self._script)

    def _feed(self):
        if self._live is not None:
            if not self._queue:
                try:
                    key = next(self._live)
                except StopIteration:
                    self._live = None
                    self._idle += 1
                    return
                if key is not None:
                    self._push(key)
        elif self._i < len(self._script):
            key = self._script[self._i]
            self._i += 1
            if key is not None:
                self._push(key)
        else:
            self._idle += 1

    def wait_frame(self):
        """Ends a frame: records it, moves the clock on and presses the next scripted key.
        Returns False once the script is done and the app settled."""
        self._check_error()
        self.caller = sys._getframe(1)  # pylint: disable=protected-access
        self.leds.append(self.strip.shown)
        self.led_brightness.append(self.strip.brightness)
        if self.on_frame is not None:
            self.on_frame(self)
        if self.error is not None or self._stopped:
            return self._stop()
        if self._script_done():
            if (self._idle >= self._settle and not self._queue) or self._idle >= SETTLE_LIMIT:
                return self._stop()
        if self._max_frames is not None and self.frame >= self._max_frames:
            return self._stop()
        self.frame += 1
        self._now = (self._now + FRAME_MS) & TICKS_MASK
        self._feed()
        return True


class WindowHardware(_Hardware):
    """Keys from the keyboard, the real clock, frames paced to FRAME_MS."""

    KEYMAP = None  # pygame key code -> key number, filled on first use

    def __init__(self, display, nvm, drive=None, drive_writable=True):
        super().__init__(display, nvm, drive, drive_writable)
        import pygame

        self._pg = pygame
        if WindowHardware.KEYMAP is None:
            k = pygame
            WindowHardware.KEYMAP = {
                k.K_LEFT: 7, k.K_RIGHT: 4, k.K_UP: 6, k.K_DOWN: 5,
                k.K_x: 1, k.K_a: 1, k.K_z: 0, k.K_b: 0,
                k.K_RETURN: 2, k.K_KP_ENTER: 2, k.K_SPACE: 3, k.K_TAB: 3,
            }
        self._t0 = time.monotonic()
        self._next = self._t0
        self._drawn = -1
        self._told = False
        display.present(self.strip)

    def ticks_ms(self):
        """Returns the real ms since start, offset and wrapped as supervisor.ticks_ms()."""
        return (int((time.monotonic() - self._t0) * 1000) + CLOCK_START) & TICKS_MASK

    def wait_frame(self):
        """Reads the keyboard, redraws the LEDs if they changed and sleeps to the next frame;
        returns False when the window is closed."""
        pg = self._pg
        self._check_error()
        self.caller = sys._getframe(1)  # pylint: disable=protected-access
        if self.error is not None and not self._told:
            # The app shows its error screen: let the player see it; the exit status and
            # the traceback say it happened.
            self._told = True
            exc = self.error
            traceback.print_exception(type(exc), exc, exc.__traceback__)
        if self._stopped:
            return self._stop()
        for ev in pg.event.get():
            if ev.type == pg.QUIT or (ev.type == pg.KEYDOWN and ev.key == pg.K_ESCAPE):
                return self._stop()
            if ev.type == pg.KEYDOWN and ev.key in self.KEYMAP:
                self._push(self.KEYMAP[ev.key])
            elif ev.type in (pg.WINDOWEXPOSED, pg.WINDOWSHOWN, pg.WINDOWRESTORED):
                self._drawn = -1
        if self._drawn != self.strip.shows:
            self._drawn = self.strip.shows
            self.display.present(self.strip)
        self.frame += 1
        self._next += FRAME_MS / 1000
        delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        else:
            self._next = time.monotonic()
        return True


class Result:
    """What a headless run left behind."""

    def __init__(self, hw, exc, wall_s):
        self.hw = hw
        self.exception = exc  # what the app raised, or the crash its error screen handled
        self.error = None  # its traceback text
        if exc is not None:
            self.error = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.frames = hw.frame
        self.virtual_ms = hw.elapsed_ms()
        self.wall_s = wall_s
        self.leds = hw.leds  # per frame: a tuple of (r, g, b) per pixel, before brightness
        self.led_brightness = hw.led_brightness
        self.nvm = hw.nvm.data()
        self.drive_copy = read_drive_copy(hw.drive)  # the file's bytes, or None
        self.nvm_writes = hw.nvm.writes
        self.nvm_writes_after_error = hw.nvm_writes_after_error
        self.refreshes = hw.display.refresh_calls
        self.audio = []  # (ms, name) of each sound effect started (run_headless fills it)
        self.size = (hw.display.width, hw.display.height)
        import pygame

        self.screen = pygame.image.tobytes(hw.display.screen, "RGB")
        self.app = None
        if hw.caller is not None:
            loc = hw.caller.f_locals
            self.app = loc.get("self", loc.get("app", loc))

    def text(self):
        """Returns the final screen's text (tools/sim/screen_text.py screen_lines): one string per
        line shown, top to bottom; [] if the app left no display objects behind."""
        from tools.sim.screen_text import screen_lines

        ui = getattr(self.app, "ui", None)
        return screen_lines(ui) if ui is not None else []

    @property
    def ok(self):
        return self.exception is None

    def pixel(self, x, y):
        """Returns the (r, g, b) of the final screen at (x, y)."""
        w, h = self.size
        if not (0 <= x < w and 0 <= y < h):
            raise IndexError("(%d, %d) is off the %dx%d screen" % (x, y, w, h))
        i = (y * w + x) * 3
        return tuple(self.screen[i:i + 3])

    def colours(self):
        """Returns the set of (r, g, b) colours on the final screen."""
        s = self.screen
        return {tuple(s[i:i + 3]) for i in range(0, len(s), 3)}

    def picture(self, scale=1, leds=True):
        """Returns a pygame Surface of the final screen, with the LED strip under it."""
        colours = self.leds[-1] if (leds and self.leds) else None
        bright = self.led_brightness[-1] if self.led_brightness else 1.0
        if leds and colours is None:
            colours = ((0, 0, 0),) * PIXELS
        return sim_display.picture(self.screen, self.size, colours, bright, scale)

    def save_png(self, path, scale=1, leds=True):
        """Writes the final screen (and the LED strip under it) as a PNG carrying the mark of
        these tools (tools/cli.py)."""
        cli.write_output(path, cli.png(self.picture(scale, leds)))


def read_drive_copy(drive):
    """Returns the bytes of the saves' copy on the drive folder `drive`, or None."""
    if drive is None:
        return None
    try:
        with open(os.path.join(drive, DRIVE_COPY), "rb") as f:
            return f.read()
    except OSError:
        return None


def load_app(spec=DEFAULT_APP):
    """Returns the function `module:function` (function defaults to run)."""
    import importlib

    module, _, func = spec.partition(":")
    return getattr(importlib.import_module(module), func or "run")


def _new_display(scale=1, window=False):
    sim_display.release()  # Blinka allows one display at a time
    return SimDisplay(scale=scale, window=window, caption=TITLE if window else "")


class _Seeded:
    """Seeds `random` for a run and puts its state back afterwards."""

    def __init__(self, seed):
        self.seed = seed
        self.saved = None

    def __enter__(self):
        if self.seed is not None:
            self.saved = random.getstate()
            random.seed(self.seed)

    def __exit__(self, *exc):
        if self.saved is not None:
            random.setstate(self.saved)


def board_clock(speed):
    """Returns a board's time.monotonic_ns() as the app's searches would read it on a board
    `speed` times as fast as the SAMD51 estimate (engine.budget UNITS_PER_S; 0.5: twice slower): it
    counts their work (engine.budget spent()), so a decision stays the same on every run, as the
    tests and replays need, while it stops where that board's clock would stop it
    (lnr/play/plan.py, engine.budget set_clock)."""
    from engine.budget import UNITS_PER_S, spent

    ns = 1e9 / UNITS_PER_S / speed
    return lambda: int(spent() * ns)


def run_headless(keys=(), seed=None, nvm_path=None, settle=SETTLE, app=DEFAULT_APP,
                 render_every=0, max_frames=None, on_frame=None, drive=None,
                 drive_readonly=False, audio_log=None, board_speed=None):
    """Runs the app headless through a key script (a text for parse_keys, a list of key
    names / numbers / None, or an iterator of key numbers / None asked for the next press
    whenever the app has read the last) and returns a Result. `seed` fixes the app's random seed (the
    app reads hw.seed; `random` is seeded too); `nvm_path` keeps the NVM in a file (default:
    fresh, erased); `drive` is the folder standing for CIRCUITPY (default: a fresh one, removed
    after the run: Result.drive_copy keeps the saves' file), read-only to the game if
    `drive_readonly`; `board_speed`: the searches stop by board_clock(board_speed) (default:
    by the work they count); `app` is "module:function" or a function; `render_every` = N renders
    every Nth refresh (default 0: the final screen alone, which is always rendered; Blinka's
    drawing of each refresh is most of a run's time, and a test reads the display objects); `on_frame(hw)` runs at each
    frame's end (hw.caller is the app's frame that waits); `audio_log` a file to write the
    sounds started to, one `<ms> <name>` line each (Result.audio has them too)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    script = key_script(keys)
    display = _new_display()
    display.render_every = render_every
    fresh = drive is None
    if fresh:
        drive = tempfile.mkdtemp(prefix="lnr-drive-")
    else:
        os.makedirs(drive, exist_ok=True)
    _as_flashed(drive)
    hw = HeadlessHardware(display, SimNvm(nvm_path), script, settle, max_frames, on_frame,
                          drive, not drive_readonly)
    hw.seed = seed
    if board_speed is not None:
        hw.monotonic_ns = board_clock(board_speed)
    heard = io.StringIO()
    hw.player = speaker(log=heard, clock=hw.elapsed_ms)
    uninstall = install(hw)
    exc = None
    t0 = time.monotonic()
    with _Seeded(seed):
        try:
            run = load_app(app) if isinstance(app, str) else app
            run(hw)
        except SimulatorStop as e:
            exc = hw.error or e
        except Exception as e:  # pylint: disable=broad-except
            exc = e
        finally:
            uninstall()
    if exc is None:
        exc = hw.error
    wall = time.monotonic() - t0
    display.render_now()
    result = Result(hw, exc, wall)
    for line in heard.getvalue().splitlines():
        ms, name = line.split()
        result.audio.append((int(ms), name))
    if audio_log:
        cli.write_output(audio_log, (AUDIO_HEADER + "\n" + heard.getvalue()).encode("utf-8"))
    if fresh:
        shutil.rmtree(drive, ignore_errors=True)
        hw.drive = None
    return result


def _as_flashed(drive):
    # The drive as `make flash` leaves it: the saves' file made (the game never makes it).
    from tools.flash.sync import make_save_file_in

    make_save_file_in(drive)


def run_window(seed=None, nvm_path=DEFAULT_NVM, scale=4, app=DEFAULT_APP, drive=None,
               drive_readonly=False, board_speed=None):
    """Runs the app in a window until it is closed, the drive in `drive` (default: sim-drive
    beside the NVM file). Returns the exception the app raised or showed on its error screen
    (its traceback already printed), or None."""
    if drive is None:
        drive = os.path.join(os.path.dirname(os.path.abspath(nvm_path)), DEFAULT_DRIVE)
    os.makedirs(drive, exist_ok=True)
    _as_flashed(drive)
    display = _new_display(scale=scale, window=True)
    hw = WindowHardware(display, SimNvm(nvm_path), drive, not drive_readonly)
    hw.seed = seed
    if board_speed is not None:
        hw.monotonic_ns = board_clock(board_speed)
    hw.player = speaker(window=True)
    uninstall = install(hw)
    with _Seeded(seed):
        try:
            (load_app(app) if isinstance(app, str) else app)(hw)
        except SimulatorStop:
            pass
        except Exception as e:  # pylint: disable=broad-except
            traceback.print_exception(type(e), e, e.__traceback__)
            return e
        finally:
            uninstall()  # as run_headless: a second run in this process starts as the first
    return hw.error


# A key script file larger than this is not a key script (a script of SCRIPT_LIMIT frames in
# NAME*N tokens takes a few bytes).
KEYS_FILE_MAX = 1 << 20


def read_script(keys, keys_file=None):
    """Returns the frame script of --keys and the --keys-file's text after it; raises
    ScriptError for a file that can't be read, is not UTF-8 text or not a key script."""
    text = keys
    if keys_file:
        try:
            with open(keys_file, "rb") as f:
                data = f.read(KEYS_FILE_MAX + 1)
        except OSError as e:
            raise ScriptError("cannot read --keys-file %s: %s" % (keys_file, e.strerror or e))
        if len(data) > KEYS_FILE_MAX:
            raise ScriptError("--keys-file %s is over %d bytes: not a key script" % (
                keys_file, KEYS_FILE_MAX))
        try:
            text = text + "\n" + data.decode("utf-8")
        except UnicodeDecodeError:
            raise ScriptError("--keys-file %s is not UTF-8 text" % keys_file) from None
    return parse_keys(text)


def check_paths(args):
    """Raises ScriptError, before the app starts, when --nvm or --drive can't serve (the
    outputs are checked as the arguments are read: tools/cli.py Parser)."""
    for option, path, problem in (
            ("--nvm", args.nvm, args.nvm is not None and nvm_problem(args.nvm, args.force)),
            ("--drive", args.drive, args.drive is not None and cli.folder_problem(args.drive))):
        if problem:
            raise ScriptError("%s %s: %s" % (option, path, problem))


def main(argv=None):
    parser = cli.Parser(
        prog="python -m tools.sim",
        description="Lok'n'Roll on the desktop: the device app on Blinka displayio.",
        epilog="Window keys: arrows; X or A = A; Z or B = B; Enter = START; "
               "Space or Tab = SELECT; Esc quits. Exit status: 0; 1 the app raised; "
               "2 bad arguments or input.")
    parser.add_argument("--headless", action="store_true",
                        help="no window: scripted keys, virtual clock")
    parser.add_argument("--seed", type=cli.whole(0, SEED_MASK), default=None,
                        help="the app's seed for new games")
    parser.add_argument("--keys", default="", help="headless: keys, e.g. A,RIGHT*3,WAIT=2000")
    parser.add_argument("--keys-file", help="headless: a file of keys (# comments)")
    parser.add_output("--screenshot", mine=cli.is_our_png,
                      help="headless: write the final screen to this PNG")
    parser.add_argument("--scale", type=cli.whole(1, 16), default=None,
                        help="window zoom (default 4) or screenshot zoom (default 1)")
    parser.add_argument("--no-leds", action="store_true",
                        help="screenshot: the screen alone, without the LED strip")
    parser.add_argument("--nvm", default=None,
                        help="NVM file (window default %s; headless: a fresh one)" % DEFAULT_NVM)
    parser.add_argument("--drive", default=None,
                        help="the folder standing for CIRCUITPY (window default: %s beside the "
                             "NVM file; headless: a fresh one)" % DEFAULT_DRIVE)
    parser.add_argument("--drive-readonly", action="store_true",
                        help="the drive is read-only to the game (SELECT held at power-up)")
    parser.add_argument("--settle", type=cli.whole(0, SETTLE_LIMIT), default=SETTLE,
                        help="headless: frames after the last key (default %d)" % SETTLE)
    parser.add_output("--audio-log", default=None, mine=cli.starts_with(AUDIO_HEADER),
                      help="headless: write each sound effect started as '<ms> <name>'")
    parser.add_output("--text", default=None, mine=cli.starts_with(TEXT_HEADER),
                      help="headless: write the final screen's text to this file, a line "
                           "per line of text shown")
    parser.add_argument("--board-speed", type=cli.number(0.01, 100), default=None, metavar="X",
                        help="the searches stop where a board X times as fast as the SAMD51 "
                             "estimate would stop them (0.5: twice slower; default: by the "
                             "work they count)")
    parser.add_argument("--app", default=DEFAULT_APP, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        args.app = load_app(args.app)
    except (ImportError, AttributeError, ValueError, TypeError) as e:
        parser.error("--app %s: %s" % (args.app, e))

    if not args.headless:
        if args.keys or args.keys_file or args.screenshot or args.audio_log or args.text:
            parser.error("--keys, --keys-file, --screenshot, --audio-log and --text need "
                         "--headless")
        if args.nvm is None:
            args.nvm = DEFAULT_NVM
        try:
            check_paths(args)
        except ScriptError as e:
            parser.error(str(e))
        exc = run_window(args.seed, args.nvm, args.scale or 4, args.app, args.drive,
                         args.drive_readonly, args.board_speed)
        return 1 if exc is not None else 0

    try:
        script = read_script(args.keys, args.keys_file)
        check_paths(args)
    except ScriptError as e:
        parser.error(str(e))
    result = run_headless(script, seed=args.seed, nvm_path=args.nvm, settle=args.settle,
                          app=args.app, drive=args.drive, drive_readonly=args.drive_readonly,
                          audio_log=args.audio_log, board_speed=args.board_speed)
    if args.screenshot:
        import pygame

        try:
            result.save_png(args.screenshot, args.scale or 1, not args.no_leds)
        except (OSError, pygame.error) as e:
            return cli.refuse("sim", "cannot write --screenshot %s: %s" % (args.screenshot, e))
    if args.text:
        try:
            cli.write_output(args.text, "".join(line + "\n" for line in [TEXT_HEADER]
                                                + result.text()).encode("utf-8"))
        except OSError as e:
            return cli.refuse("sim", "cannot write --text %s: %s" % (args.text, e))
    print("frames %d, virtual %d ms, wall %.2f s, refreshes %d, nvm writes %d" % (
        result.frames, result.virtual_ms, result.wall_s, result.refreshes, result.nvm_writes))
    if result.error:
        sys.stderr.write(result.error)
        if result.nvm_writes_after_error:
            sys.stderr.write("and %d NVM writes after the error\n"
                             % result.nvm_writes_after_error)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
