"""The whole app on CircuitPython 10's own VM, under the board's heap (`make cpcheck`,
tools/vm/cpcheck.py, runs check()).

The session (tools/vm/membudget/session.py session_keys(): power-up, every mode to its end, hints,
save & quit and Continue, every menu) plays on CircuitPython's VM (tools/vm/cpvm.py) in one process
(tools/vm/cp_app_session.py runs there), from the tree `make flash` writes (tools/flash/deploy.py
build(): every module as the .mpy CircuitPython's own mpy-cross writes; code.py and boot.py are
left out: the harness starts the app as code.py does), capped at CAP_KB: the game must leave over
half of the PyBadge's 192 KB free, and room for what comes next. Then the smallest cap it completes
under (Form.smallest()), and the figures go to docs/memory.md (write_doc()).

The VM's own displayio.Bitmap and Palette hold the app's real pixels; tools/standins stand in for
what the VM lacks (Group, TileGrid, board, keypad, microcontroller.nvm, supervisor, terminalio,
and the C modules under the neopixel library, which is the tree's own).

What counts. The session is played twice:

1. Calibration, uncapped: after every frame a real collection (gc works inside a script on this
   VM) and the live heap; and just before each module loaded for a moment is dropped
   (membudget's MOMENTARY: lnr.make at start-up, engine.codec at a save, ...; lnr.memory's
   drop() is watched) the live heap with it still in. A reading is the app's bytes on a board:
   - less `base`: the live heap before the app's first import (the VM's own start-up, the
     harness, the stand-in modules, the keys). On a board the firmware's own heap is outside
     the cap.
   - plus what the display objects alive (found from the display's root_group) weigh as the
     firmware's C objects (tools/vm/membudget/vm/sizes.py's formulas, from the CircuitPython 10
     structs) beyond what the stand-ins weigh here (measured here);
   - plus a board's name pools for the app's names less this VM's (see QSTR_ENTRY_BOARD).
   So it holds the modules, the State, the real Bitmaps and Palettes, the board profile, the
   neopixel library, the Hardware object. Readings are kept per phase (membudget's LABELS).
2. The check, capped: -X heapsize is the cap plus base (sized again if the run's base is not
   the one it was sized for: it varies a little with the heap's size), and the harness holds,
   from each frame on, what a board holds there beyond this VM (Calibration.plan()): a board's
   name pools for the app's names so far, each a block of its size (this VM's pools were grown
   in advance, before base, so that none grows during the app), and the display objects'
   difference. A MemoryError anywhere (fragmentation included) fails the check, so does a
   session that went otherwise than uncapped (an error the app caught, e.g. a MemoryError in a
   hint: the frames' fingerprints differ). The collector is left to itself, as on a board.

What this VM does unlike a board, and so unlike the check: it splits -X heapsize into 4 equal
areas (cpvm.SPLIT_HEAPS) where a board's heap grows by areas on demand, so fragmentation here is
worse; and displayio allocates a Bitmap's pixels without collecting first
(m_malloc_without_collect), which fails here once the heap is full of garbage, where a board
would grow its heap instead.

The frames run (also part of `make cpcheck`) plays the session once more, uncapped, with the
collector off for each frame: the bytes each frame of the main loop allocates (lnr.main.step and
the profile's wait_frame) and its time. Idle frames (no key read, no refresh, no timed step, no
LED effect) must allocate nothing; the animations' figures are printed. Times are the Python work
of a frame (the firmware's display refresh is not run here), also multiplied by
tools/bots/bench.py's SAMD51 factor.
"""
import hashlib
import os
import shutil
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tools.flash import deploy
from tools.vm import cpvm

ROOT = cpvm.ROOT
# The heap the game may take of a PyBadge's 192 KB, from the .mpy files make flash sends:
# well under half, with room for the next feature (docs/memory.md).
CAP_KB = 88
SCRIPT = ROOT / "tools" / "vm" / "cp_app_session.py"
USABLE_SCRIPT = "import gc\ngc.collect()\nprint(gc.mem_alloc() + gc.mem_free())\n"


class CpAppError(Exception):
    """The harness or its inputs are wrong (not: the app does not fit)."""


# ---------------------------------------------------------------------------------------------
# What the run needs from the host side

def _lib_path():
    for p in (str(ROOT / "lib"), str(ROOT)):
        if p not in sys.path:
            sys.path.insert(0, p)


def session():
    """Returns (the session's frames: a key number or -1 each, or membudget's PASSING + n where
    the harness takes the player's turns at the table, what it plays in words)."""
    _lib_path()
    from tools.vm.membudget.session import session_keys

    return session_keys(passing=True)


def player_consts():
    """Returns what the harness's player needs (cp_app_session.py Player): the play screen's
    steps S_HAND and S_MENU, the keys A and START, and membudget's PASSING."""
    _lib_path()
    from lnr.keys import K_A, K_START
    from lnr.play.view import S_HAND, S_MENU
    from tools.vm.membudget.session import PASSING

    return S_HAND, S_MENU, K_A, K_START, PASSING


def app_consts():
    """Returns ({screen number: name}, SC_TITLE, SC_PLAY, {play step number: name}, S_INFO);
    the screens' names map SC_OVER and SC_ERROR too."""
    _lib_path()
    import lnr.play.view
    import lnr.screens as screens

    names = {v: k[3:].lower() for k, v in vars(screens).items()
             if k.startswith("SC_") and isinstance(v, int)}
    steps = {v: k[2:].lower() for k, v in vars(lnr.play.view).items()
             if k.startswith("S_") and isinstance(v, int)}
    return names, screens.SC_TITLE, screens.SC_PLAY, steps, lnr.play.view.S_INFO


def standin_names():
    from tools.vm.membudget.modules import STANDINS

    return STANDINS


def momentary():
    from tools.vm.membudget.session import MOMENTARY

    return MOMENTARY


# ---------------------------------------------------------------------------------------------
# The run

class Workdir:
    """A temporary folder with the device tree, the harness and the keys."""

    def __init__(self, frames, tree=None, layout=0):
        """`tree`: a device tree already written (e.g. by `make flash TO=DIR`) to play from;
        else the deploy's tree is built here, .mpy by CircuitPython's own mpy-cross. `layout`:
        bytes the harness holds before the app starts (spread())."""
        self.layout = layout
        self.frames = frames  # the keys it was made with (use() plays others)
        self.tmp = Path(tempfile.mkdtemp(prefix="cpapp-"))
        if tree is None:
            exe = cpvm.mpy_cross()
            if exe is None:
                raise CpAppError(cpvm.MISSING_MPY_CROSS)
            deploy.build(ROOT, deploy.MpyCross(exe, deploy.CIRCUITPY_MAJOR)).write(
                self.tmp / "tree")
            tree = self.tmp / "tree"
        self.lib = Path(tree) / "lib"
        if not self.lib.is_dir():
            raise CpAppError("%s has no lib/: not a device tree" % tree)
        harness = self.tmp / "harness"
        (harness / "tools" / "standins").mkdir(parents=True)
        shutil.copy(ROOT / "tools" / "__init__.py", harness / "tools")
        for p in (ROOT / "tools" / "standins").glob("*.py"):
            shutil.copy(p, harness / "tools" / "standins")
        # The census's formulas for the firmware's display objects, as a module of its own:
        # tools/vm/membudget's package needs CPython.
        shutil.copy(ROOT / "tools" / "vm" / "membudget" / "vm" / "sizes.py", harness)
        shutil.copy(ROOT / "tools" / "vm" / "cp_loop.py", harness)
        self.script = harness / SCRIPT.name
        shutil.copy(SCRIPT, self.script)
        self.use(frames)
        self.cwd = self.tmp / "cwd"  # any file the app writes lands here
        self.cwd.mkdir()
        # The tree's lib/ as the relative path "./lib" from there: a module's file name is
        # interned when it loads (its __file__), and on a board it is "/lib/lnr/...", one
        # character less, not the whole path of this temporary folder's tree (about 25
        # characters more for each of some 50 modules, charged to the app's heap: 1.4 KB).
        (self.cwd / "lib").symlink_to(self.lib.resolve(), target_is_directory=True)

    def use(self, frames):
        """Plays `frames` (a key number or -1 each) in the runs from now on, instead of the
        keys it was made with."""
        (self.tmp / "frames.bin").write_bytes(bytes(k + 1 for k in frames))

    def slot(self, k):
        """Returns run slot k's folder (runs in different slots may run at once): names of
        one length, as argv is interned and the base must not vary."""
        d = self.tmp / ("run%d" % k)
        d.mkdir(exist_ok=True)
        return d

    def run(self, mode, heap_bytes=None, collect=False, expect=0, ballast=(), intern=0,
            timeout=900, slot=0, standin=False, under=(), slack=None):
        """Runs the harness in `mode` (calibrate, session, frames) in run slot `slot`; returns
        the Run (for frames, the CompletedProcess; `standin`: the stand-ins' time too)."""
        conf = self.conf(mode, collect, expect, ballast, intern, slot, standin, slack=slack)
        proc = cpvm.run(self.script, paths=["./lib"], heap_bytes=heap_bytes, args=[conf],
                        timeout=timeout, cwd=self.cwd, under=under)
        return proc if mode == "frames" else Run(proc)

    def conf(self, mode, collect=False, expect=0, ballast=(), intern=0, slot=0, standin=False,
             marks=(), slack=None):
        """Writes the harness's run.conf for run slot `slot` (tools/vm/cp_app_session.py says
        what each line is); returns its path."""
        names, _, sc_play, _, s_info = app_consts()
        screen = {v: k for k, v in names.items()}
        conf = self.slot(slot) / "run.conf"
        conf.write_text("\n".join([
            "mode " + mode,
            "frames " + str(self.tmp / "frames.bin"),
            "seed %d" % _seed(),
            "standins " + ",".join(standin_names()),
            "consts %d,%d,%d,%d" % (sc_play, s_info, screen["over"], screen["error"]),
            "player %d,%d,%d,%d,%d" % player_consts(),
            "momentary " + ",".join(momentary()),
            "collect %d" % int(collect),
            "expect %d" % expect,
            "slack %d" % (BASE_SLACK if slack is None else slack),
            "intern %d" % intern,
            "ballast " + str(self.slot(slot) / "ballast.txt"),
            "standin %d" % int(standin),
            "layout %d" % self.layout,
            "marks " + ",".join(str(m) for m in marks),
        ]) + "\n")
        (self.slot(slot) / "ballast.txt").write_text("".join("%d %d %d\n" % b for b in ballast))
        return conf

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def _seed():
    from tools.vm.membudget.session import SEED

    return SEED


def _lines(out):
    return [line.split() for line in out.splitlines() if line.strip()]


def usable(heap_bytes, tmp):
    """Returns the bytes the VM can allocate under -X heapsize=heap_bytes."""
    script = Path(tmp) / "usable.py"
    script.write_text(USABLE_SCRIPT)
    r = cpvm.run(script, heap_bytes=heap_bytes)
    if r.returncode:
        raise CpAppError("the VM did not start with heapsize %d: %s" % (heap_bytes, r.stderr))
    return int(r.stdout.split()[0])


def floor_cap():
    """Returns the least cap in KB under which the game has lnr.memory's FLOOR_KB, the least
    heap it says it plays every mode at (a heap's collector tables take part of a cap:
    usable()), also where a capped run gives it up to BASE_SLACK less (Form.play): with less
    than its floor the game would refuse to play, and the floor's check would judge a refusal
    instead of the game (in 2 of 8 layouts it did)."""
    _lib_path()
    from lnr.memory import FLOOR_KB

    with tempfile.TemporaryDirectory() as tmp:
        kb = FLOOR_KB
        while usable(kb * 1024, tmp) < FLOOR_KB * 1024 + BASE_SLACK:
            kb += 1
    return kb


def heap_for(cap_bytes, excess, tmp):
    """Returns the smallest -X heapsize whose usable bytes are the cap's plus `excess`."""
    want = usable(cap_bytes, tmp) + excess
    lo, hi = 1024, cap_bytes + 2 * abs(excess) + 8192
    while usable(hi, tmp) < want:
        hi *= 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if usable(mid, tmp) >= want:
            hi = mid
        else:
            lo = mid
    return hi


# Interned names: CircuitPython keeps them (never freed) in pools that double in size, the first
# of MICROPY_ALLOC_QSTR_ENTRIES_INIT entries; a pool is a 24-byte header and, per entry, a
# pointer, a length byte and the hash: 2 bytes on this VM, 1 on a board (circuitpy_mpconfig.h:
# MICROPY_QSTR_BYTES_IN_HASH 1 on full builds). The harness's own names fill this VM's first
# pools, so the app's land in bigger pools than on a board, which fills its first ones with
# them: the readings count a board's pools instead of this VM's, and the capped run grows this
# VM's pools before base and holds a board's (Calibration.plan()).
QSTR_FIRST_POOL = 10
QSTR_HEADER = 24
QSTR_ENTRY_VM = 7
QSTR_ENTRY_BOARD = 6
BALLAST_STEP = 256
PROBES = 2  # caps played at once while the smallest is sought (Form.smallest): the 2 cores
# A run's base may exceed the one its heap was sized for by this much (the app then has that
# much less than its cap: strict); tools/vm/cp_app_session.py BASE_SLACK, the same.
BASE_SLACK = 512


def pool_block(k, entry):
    """Returns the heap block of name pool k (0: the first)."""
    return -(-(QSTR_HEADER + entry * QSTR_FIRST_POOL * 2 ** k) // 16) * 16


def board_pool_capacity(pools):
    """Returns the names the first `pools` pools hold."""
    return QSTR_FIRST_POOL * (2 ** pools - 1)


def pool_bytes(n, entry):
    """Returns the heap the pools take once `n` names are interned."""
    total = 0
    k = 0
    while board_pool_capacity(k) < n:
        total += pool_block(k, entry)
        k += 1
    return total


def _qstr_count(parts):
    # "qstr pool: n_pool=7, n_qstr=1170, n_str_data_bytes=11388, n_total_bytes=20492"
    for word in parts:
        if word.startswith("n_qstr="):
            return int(word.rstrip(",").split("=")[1])
    raise CpAppError("not a qstr_info() line: " + " ".join(parts))


def _pool_count(parts):
    for word in parts:
        if word.startswith("n_pool="):
            return int(word.rstrip(",").split("=")[1])
    raise CpAppError("not a qstr_info() line: " + " ".join(parts))


TURNED = "loknroll: short of memory: "


class Run:
    """One run's output: the harness's figures, the readings (calibrate), how it ended."""

    def __init__(self, proc):
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        # (frame, phase, live bytes less base, the firmware's display objects beyond the
        # stand-ins, names interned, the momentary module or None)
        self.readings = []
        self.frames = 0
        self.fail = None
        self.base = None
        self.qstrs = None  # names interned at base
        self.qstrs_end = None
        self.pools = None  # the VM's name pools at base and at the end
        self.pools_end = None
        self.unit = None  # (a stand-in TileGrid's bytes, a Group's by its children)
        self.end_screen = None
        self.overflowed = False
        self.trace = None  # the fingerprint of the frames' screens and the NVM at the end
        self.games = None  # (game over screens shown, error screens shown)
        # What the app turned down for memory, as it said on the serial console (lnr.memory).
        self.turned = [line[len(TURNED):] for line in proc.stdout.splitlines()
                       if line.startswith(TURNED)]
        lines = _lines(proc.stdout)
        for k, parts in enumerate(lines):
            tag = parts[0]
            if tag == "R":
                self.readings.append((int(parts[1]), int(parts[2]), int(parts[3]),
                                      int(parts[4]), _qstr_count(lines[k + 1]), None))
            elif tag == "M":
                self.readings.append((int(parts[2]), int(parts[3]), int(parts[4]),
                                      int(parts[5]), _qstr_count(lines[k + 1]), parts[1]))
            elif tag == "UNIT":
                self.unit = (int(parts[1]), [int(x) for x in parts[2].split(",")])
            elif tag == "BASE":
                self.base = int(parts[1])
            elif tag == "QSTR":
                n, pools = _qstr_count(lines[k + 1]), _pool_count(lines[k + 1])
                if len(parts) > 1:
                    self.qstrs_end, self.pools_end = n, pools
                else:
                    self.qstrs, self.pools = n, pools
            elif tag == "FRAMES":
                self.frames = int(parts[1])
            elif tag == "FAIL":
                self.fail = " ".join(parts[1:])
            elif tag == "END":
                self.end_screen = int(parts[1])
                self.overflowed = parts[2] == "True"
            elif tag == "TRACE":
                self.trace = (int(parts[1]), int(parts[2]))
            elif tag == "GAMES":
                self.games = (int(parts[1]), int(parts[2]))
        if proc.returncode and self.fail is None:
            self.fail = (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]
        if self.fail is None and self.overflowed:
            self.fail = "the keypad's event queue overflowed: keys were lost"
        if self.fail is None and self.trace is None:
            self.fail = "the run ended without its figures:\n" + proc.stdout[-2000:]

    @property
    def ok(self):
        return self.fail is None


class Calibration:
    """The session played uncapped, read after every frame: the app's figures, and what is not
    the app's in a run (base; the display objects' and the name pools' differences between
    this VM with its stand-ins and a board)."""

    def __init__(self, work):
        from tools.vm.membudget.session import LABELS

        self.layout = work.layout
        run = work.run("calibrate")
        if not run.ok:
            raise CpAppError("the uncapped run failed: %s\n%s" % (run.fail, run.stderr[-3000:]))
        missing = [LABELS[i] for i in range(len(LABELS))
                   if not any(r[1] == i for r in run.readings)]
        if missing:
            raise CpAppError("the uncapped session never reached %s: it no longer plays what "
                             "tools/vm/membudget/session.py meant" % ", ".join(missing))
        self.run = run
        self.base = run.base
        self.harness_qstrs = run.qstrs
        self.app_qstrs = max(r[4] for r in run.readings) - run.qstrs
        # What a board holds beyond this VM at each reading: its display objects beyond the
        # stand-ins, its name pools beyond this VM's (either may be less than nothing).
        extra = [display + self.pool_diff(n) for _, _, _, display, n, _ in run.readings]
        self.readings = [(frame, phase, raw + more, module) for (frame, phase, raw, _, _,
                                                                 module), more
                         in zip(run.readings, extra)]
        self.display_extra = max(r[3] for r in run.readings)
        self.pools_extra = max(self.pool_diff(r[4]) for r in run.readings)
        self.intern = self.names_to_intern()
        self.ballast, self.lift = self.plan()

    def names_to_intern(self):
        """Returns how many names the capped run interns before base: enough that the VM's
        last pool, grown in advance, holds every name the app interns (with 32 to spare), so
        that no pool grows during the app (the board's are the ballast's)."""
        h = self.harness_qstrs
        need = self.app_qstrs + 32
        held, alloc = 0, QSTR_FIRST_POOL  # names the pools before this one hold, its size
        while True:
            if held + alloc >= h and held + alloc - max(h, held + 1) >= need:
                return max(0, held + 1 - h)
            held += alloc
            alloc *= 2

    def plan(self):
        """Returns ([(frame, kind, bytes)] what the capped run's harness holds from a frame on,
        the bytes its heap is enlarged by). Kind 0: one more name pool, of a board's size, from
        the frame in which the app's names outgrow a board's pools; kind 1: the display
        objects' difference from the stand-ins (rounded up to 256 bytes, so that it changes
        seldom), plus the lift that makes it 0 or more. A frame's need is the most of the
        readings during it and at the end of the one before."""
        h = self.harness_qstrs
        names, display, end_names, end_display = {}, {}, {}, {}
        for frame, _, _, disp, n, module in self.run.readings:
            names[frame] = max(names.get(frame, n - h), n - h)
            display[frame] = max(display.get(frame, disp), disp)
            if module is None:
                end_names[frame] = n - h
                end_display[frame] = disp
        lift = max(0, -min(min(display.values()), min(end_display.values())))
        plan = []
        pools = 0
        held = None
        for frame in sorted(names):
            n = max(names[frame], end_names.get(frame - 1, 0))
            while board_pool_capacity(pools) < n:
                plan.append((frame, 0, pool_block(pools, QSTR_ENTRY_BOARD)))
                pools += 1
            d = max(display[frame], end_display.get(frame - 1, display[frame])) + lift
            d = -(-d // BALLAST_STEP) * BALLAST_STEP
            if d != held:
                plan.append((frame, 1, d))
                held = d
        return plan, lift

    def pool_diff(self, interned):
        """A board's name pools less this VM's, for the app's names interned by a reading."""
        h = self.harness_qstrs
        n = interned - h
        return pool_bytes(n, QSTR_ENTRY_BOARD) - (pool_bytes(h + n, QSTR_ENTRY_VM)
                                                  - pool_bytes(h, QSTR_ENTRY_VM))

    def peak(self):
        return max(b for _, _, b, _ in self.readings)

    def phase_peaks(self):
        """Returns ({phase: (bytes, frame)}, {module: (bytes, frame, phase)})."""
        phases, moments = {}, {}
        for frame, phase, b, module in self.readings:
            if module is None:
                if b > phases.get(phase, (-1,))[0]:
                    phases[phase] = (b, frame)
            elif b > moments.get(module, (-1,))[0]:
                moments[module] = (b, frame, phase)
        return phases, moments

    def describe(self, base=None):
        pools = [b for _, kind, b in self.ballast if kind == 0]
        return ("the cap + base %d B (VM, harness, stand-in modules, keys, %d names interned in "
                "advance) + %d B; the harness holds what a board holds beyond this VM: the %d "
                "name pools a board allocates for the app's %d names (%d B in all), and the "
                "display objects' difference from the stand-ins (at most %d B)" % (
                    self.base if base is None else base, self.intern, self.lift, len(pools),
                    self.app_qstrs, sum(pools), self.display_extra))


class Result:
    """One capped session run: ok (the session went as uncapped: nothing turned down), plays
    (every mode to its end, what was turned down or not: `turned`), the app's peak (from the
    calibration: the same frames), frames, the line to print."""

    def __init__(self, cap_kb, heap_bytes, cal, run, base, slack=BASE_SLACK):
        self.base = base
        self.cap_kb = cap_kb
        self.heap_bytes = heap_bytes
        self.cal = cal
        self.run = run
        self.fail = run.fail
        self.frames = run.frames
        if run.base is not None and not base <= run.base <= base + slack:
            self.fail = ("the harness's base was %s B, not the %d B the heap was sized for "
                         "(or up to %d B more): it was not enlarged by what is not the app's" % (
                             run.base, base, slack))
        if self.fail is None and run.pools_end != run.pools:
            self.fail = ("the VM's name pools grew during the app (%s to %s): tools/vm/cpapp.py "
                         "interned too few names in advance" % (run.pools, run.pools_end))
        self.turned = run.turned
        if self.fail is None and run.games != cal.run.games:
            self.fail = ("the session did not play every mode to its end (%s game over screens "
                         "and %s error screens, uncapped %d and %d)" % (
                             *(run.games or ("no", "no")), *cal.run.games))
        # Every mode to its end, with what was turned down (lnr.memory) or not.
        self.plays = self.fail is None
        if self.fail is None and (run.trace != cal.run.trace or self.turned):
            self.fail = ("the session went otherwise than uncapped: %s" % (
                "turned down " + ", ".join(self.turned) if self.turned else
                "an error the app caught"))

    @property
    def ok(self):
        return self.fail is None

    def peak(self):
        return self.cal.peak()

    def line(self):
        """`circuitpython mpy heapsize N peak BYTES frames F` (N: the cap, in bytes); where the
        session played every mode with features turned down, what they were."""
        if self.plays and not self.ok:
            return ("circuitpython mpy heapsize %d frames %d: every mode to its end, %d features "
                    "turned down: %s" % (self.cap_kb * 1024, self.frames, len(self.turned),
                                         ", ".join(self.turned) or "none (the session went "
                                         "otherwise: an error the app caught)"))
        if not self.ok:
            return "circuitpython mpy heapsize %d FAILED: %s" % (self.cap_kb * 1024, self.fail)
        return "circuitpython mpy heapsize %d peak %d frames %d" % (
            self.cap_kb * 1024, self.peak(), self.frames)


class Form:
    """The .mpy tree and its calibration, ready for capped runs."""

    def __init__(self, frames, tree=None, layout=0, cal=None):
        """`cal`: the Calibration of the same session from the same .mpy files (another Form's,
        in another heap layout, or from a tree of the same bytes) to play under, instead of a
        calibration run of its own (the most costly run: a collection after every frame). Its
        figures (the names, the display objects, the trace of the frames) are the app's, the
        same in every layout; the base, which the layout's bytes are part of, each run finds
        again (play())."""
        self.work = Workdir(frames, tree, layout)
        if cal is not None:
            self.cal = cal
            return
        try:
            self.cal = Calibration(self.work)
        except BaseException:
            self.work.close()
            raise

    def play(self, cap_kb, collect=False, slot=0):
        """Plays the session capped at cap_kb (in run slot `slot`); returns its Result.

        The base (what is not the app's) varies by some bytes with the heap's size (where the
        harness's interned names and dicts could grow in place), back and forth: a run whose
        base is below the one its heap was sized for, or above it by more than BASE_SLACK,
        stops at once and runs again with the heap sized for the base it found; one above it
        by less runs (the app has that much less than its cap). Where the base found goes back
        and forth between two heap sizes (each sized for the other's base), the heap is sized
        for the lower and the run takes the higher (the app has their difference less than its
        cap: strict)."""
        base = None
        slack = BASE_SLACK
        seen = []
        for _ in range(8):
            if base is None:  # the names interned in advance are base too: a first guess
                # (and the bytes of this layout beyond the calibration's)
                base = (self.cal.base + self.cal.intern * 4 + 8992
                        + self.work.layout - self.cal.layout)
            heap = heap_for(cap_kb * 1024, base + self.cal.lift, self.work.slot(slot))
            run = self.work.run("session", heap_bytes=heap, collect=collect, expect=base,
                                ballast=self.cal.ballast, intern=self.cal.intern, slot=slot,
                                slack=slack)
            if run.base is None or base <= run.base <= base + slack:
                break
            seen.append(base)
            base = run.base
            if base in seen:  # back and forth
                low = min(seen[seen.index(base):] + [run.base])
                slack = max(BASE_SLACK, max(seen[seen.index(base):]) - low)
                base = low
        return Result(cap_kb, heap, self.cal, run, base, slack)

    def smallest(self, cap_kb, fits=None, probes=PROBES):
        """Returns the smallest cap in KB, at most cap_kb, under which the session completes
        (`fits`: the Result at cap_kb if played already), or None if it fails at cap_kb.

        Every cap under the app's own peak fails, so the answer lies between that and cap_kb:
        each round plays `probes` caps that split what is left evenly, at once (one VM each),
        and keeps the smallest that fits and the largest below it that fails. Fragmentation
        makes a fit not quite monotonic in the cap: a cap above the answer may fail now and
        then; make cpcheck's own cap is played in full every time."""
        if fits is None:
            fits = self.play(cap_kb)
        if not fits.ok:
            return None
        lo, hi = -(-self.cal.peak() // 1024) - 1, cap_kb  # fails, fits
        while hi - lo > 1:
            step = (hi - lo) / (probes + 1)
            caps = sorted(set(int(lo + step * (k + 1)) for k in range(probes)) - {lo, hi})
            with ThreadPoolExecutor(len(caps)) as pool:  # each run a VM process of its own
                oks = list(pool.map(lambda kc: self.play(kc[1], slot=kc[0]).ok,
                                    enumerate(caps)))
            for kb, ok in zip(caps, oks):
                if ok:
                    hi = min(hi, kb)
            lo = max([lo] + [kb for kb, ok in zip(caps, oks) if not ok and kb < hi])
        return hi

    def floor(self, smallest, least=60):
        """Returns (the least cap in KB from which every cap up to `smallest` plays every mode
        to its end, features turned down as the app chooses (Result.plays); {cap: what it turned
        down} of those caps; why the next cap down does not). Caps are played one by one down
        from `smallest`, two at a time (the cores)."""
        turned = {smallest: []}
        kb = smallest
        while kb > least:
            caps = [c for c in (kb - 1, kb - 2) if c > least]
            with ThreadPoolExecutor(len(caps)) as pool:
                runs = list(pool.map(lambda kc: self.play(kc[1], slot=kc[0]), enumerate(caps)))
            for c, res in zip(caps, runs):
                if not res.plays:
                    return kb, turned, res.fail
                turned[c] = res.turned
                kb = c
        return kb, turned, "not played (the least cap tried)"

    def close(self):
        self.work.close()


WANDERS = 12  # random sessions make cpcheck plays at the floor: two from each of their starts
WANDER_PRESSES = 1500


def wander(form, cap_kb, seeds=range(1, WANDERS + 1), presses=WANDER_PRESSES):
    """Plays random sessions (membudget random_keys(): a player's keys at random, from power-up
    into each mode, a table and a hot seat) under cap_kb on `form`'s tree and calibration, one
    after another; returns [(seed, what went wrong or None, what was turned down)]. Under the
    floor's cap the app may turn down what it will, but no key may end in a MemoryError or the
    error screen: random sessions there met two the fixed session never did (lnr.memory
    drop_since(), lnr/play/plan.py go()). The form plays its own session again after."""
    from tools.vm.membudget.session import random_keys

    out = []
    try:
        for seed in seeds:
            form.work.use(random_keys(seed, presses))
            r = form.play(cap_kb)
            wrong = r.run.fail
            if wrong is None and r.run.games[1]:
                wrong = "the error screen, %d times" % r.run.games[1]
            out.append((seed, wrong, r.turned))
    finally:
        form.work.use(form.work.frames)
    return out


def wander_line(cap_kb, runs, presses=WANDER_PRESSES):
    """`circuitpython mpy random sessions under N KB: K of M without an error`, what they turned
    down, and each that went wrong."""
    bad = [(seed, wrong) for seed, wrong, _ in runs if wrong is not None]
    turned = sorted(set(t for _, _, down in runs for t in down))
    lines = ["circuitpython mpy random sessions under %d KB: %d of %d without an error (%d "
             "random presses each, seeds %d-%d); turned down in them: %s" % (
                 cap_kb, len(runs) - len(bad), len(runs), presses, runs[0][0], runs[-1][0],
                 ", ".join(turned) or "nothing")]
    lines += ["  seed %d: %s" % (seed, wrong) for seed, wrong in bad]
    return lines


def floor_line(low, floor_kb=None):
    """`circuitpython mpy degrades to N KB: every mode to its end, M features turned down`, and
    what each cap below the smallest turned down (Form.floor()'s result); a cap under
    `floor_kb` (floor_cap()) is said to be under the least heap the game says it plays at."""
    kb, turned, below = low
    lines = ["circuitpython mpy degrades to %d KB: every mode to its end, %d features turned "
             "down" % (kb, len(turned[kb]))]
    for k in sorted(turned, reverse=True):
        lines.append("  %d KB: %s" % (k, ", ".join(turned[k]) or "nothing turned down"))
    if floor_kb is not None and kb - 1 < floor_kb:
        below = "under the game's floor (lnr.memory FLOOR_KB: the title says so): " + below
    lines.append("  %d KB: %s" % (kb - 1, below))
    return "\n".join(lines)


def play_capped(cap_kb, frames=None):
    """Calibrates the .mpy tree and plays the session capped at cap_kb; returns its Result."""
    if frames is None:
        frames, _ = session()
    f = Form(frames)
    try:
        return f.play(cap_kb)
    finally:
        f.close()


# ---------------------------------------------------------------------------------------------
# The phase table

def phase_rows(cal):
    """Returns [(phase, bytes)] of a Calibration, in membudget's order."""
    from tools.vm.membudget.session import LABELS, MOMENTARY

    phases, moments = cal.phase_peaks()
    rows = []
    if "lnr.make" in moments:
        rows.append(("start-up: lnr.make resident, every display object built",
                     moments["lnr.make"][0]))
    for lab, name in enumerate(LABELS):
        if lab in phases:
            rows.append((name if lab == 0 else "playing: " + name, phases[lab][0]))
        if lab == 0:
            for module in MOMENTARY:
                if module != "lnr.make" and module in moments:
                    rows.append(("for a moment: %s loaded (at its most: %s)" % (
                        module, LABELS[moments[module][2]]), moments[module][0]))
    return rows


def phase_table(cal):
    out = ["Peaks by phase on CircuitPython's VM: the app's heap (live, after a real collection; "
           "stand-in Group/TileGrid as the firmware's bytes)"]
    for name, b in phase_rows(cal):
        out.append("  %-88s %7.1f KB" % (name, b / 1024))
    return out


# ---------------------------------------------------------------------------------------------
# Allocation and time per frame

# Frames with nothing happening (no key read, no refresh, no timed step, no LED effect): they
# must allocate nothing.
IDLE = ("title idle", "play screen idle", "a menu open")
# Frames of the animations: a timed step waiting or acting, an LED effect alone.
ANIMATIONS = ("dice rolling: between two dice", "dice rolling: a die lands",
              "an opponent playing: waiting", "an opponent playing: its action (the loco's run)",
              "LED flash (nothing else happens)")
EVENTS = "a key read, or a timer that changes the screen"


class Frames:
    """The frames run: each frame's screen, step, flags, bytes allocated and time."""

    def __init__(self, proc):
        if proc.returncode:
            raise CpAppError("the frames run failed:\n" + proc.stdout[-2000:] + proc.stderr)
        self.rows = []
        loops = []  # (frame, the factor's loop in µs timed just before it)
        for parts in _lines(proc.stdout):
            if parts[0] == "L":
                loops.append((int(parts[1]), int(parts[2])))
            elif parts[0] == "F":
                (i, screen, step, busy, fx, key, refresh, nbytes, wall, cpu, asked, gap,
                 search, standin, netgap, calls) = [int(x) for x in parts[1:]]
                # The least of two upper bounds of the frame's time: its wall time, which a
                # stall by another process inflates (a 15 ms frame read 50 ms while pytest
                # ran beside it), and its CPU time to the next ms, which no stall adds to.
                us = wall if cpu < 0 else min(wall, cpu)
                # Its stretches are timed on the wall only: each counts the frame's share of
                # CPU time in it, as if the stalls fell evenly over the frame (under make
                # test's load, stalls made the longest stretch with no sign read several
                # times what it read alone).
                share = us / wall if wall else 1.0
                self.rows.append({"i": i, "screen": screen, "step": step, "busy": busy,
                                  "fx": fx, "key": key, "refresh": refresh, "bytes": nbytes,
                                  "us": us, "asked": asked,
                                  # its longest stretch with no sign
                                  "gap": min(gap, wall) * share,
                                  # first to last sign of the search: its own time
                                  "search": min(search, wall) * share,
                                  # a standin run's own (cp_app_session.py time_standins()):
                                  # the shares of its wall time in the stand-ins of the
                                  # firmware's C code, and of its longest stretch with no
                                  # sign less its time in them
                                  "standin": standin / wall if wall else 0.0,
                                  "netgap": netgap / wall if wall else 0.0,
                                  # the stand-ins' calls it timed: counted, not timed
                                  "calls": calls})
        if not self.rows:
            raise CpAppError("the frames run printed no frame:\n" + proc.stdout[-2000:])
        self.samd51(loops)

    def samd51(self, loops):
        """Gives each row its SAMD51 estimate (`est`, `est_gap`, `est_search` in µs): its times
        x SAMD51_LOOP_US / the factor's loop timed beside it in the same run (the faster of the
        timings just before and just after its stretch of frames, and a long frame's is timed
        right after it: tools/vm/cp_loop.py).
        The machine's speed moves by up to 2x within seconds; a factor timed before or after the
        whole run moved the estimate with it (docs/memory.md: board waits)."""
        from tools.bots.bench import SAMD51_LOOP_US

        if not loops:
            raise CpAppError("the frames run timed no loop")
        k = 0
        for row in self.rows:
            while k + 1 < len(loops) and loops[k + 1][0] <= row["i"]:
                k += 1
            loop = min(loops[k][1], loops[k + 1][1]) if k + 1 < len(loops) else loops[k][1]
            f = SAMD51_LOOP_US / loop
            row["loop"] = loop
            row["est"] = row["us"] * f
            row["est_gap"] = row["gap"] * f
            row["est_search"] = row["search"] * f

    @staticmethod
    def kind(row, consts):
        """Returns the frame's class: one of IDLE, ANIMATIONS or EVENTS."""
        _, sc_title, sc_play, steps, _ = consts
        step = steps.get(row["step"], "")
        changed = row["key"] or row["refresh"]
        if row["busy"]:
            if step == "roll":
                return ANIMATIONS[1] if changed else ANIMATIONS[0]
            return ANIMATIONS[3] if changed else ANIMATIONS[2]
        if changed:
            return EVENTS
        if row["fx"]:
            return ANIMATIONS[4]
        if row["screen"] == sc_title:
            return IDLE[0]
        if row["screen"] == sc_play and step != "menu":
            return IDLE[1]
        return IDLE[2]

    def by_kind(self):
        consts = app_consts()
        out = {}
        for row in self.rows:
            out.setdefault(self.kind(row, consts), []).append(row)
        return out

    def idle_allocations(self):
        """Returns the idle frames that allocated, [(class, frame, bytes)]."""
        kinds = self.by_kind()
        return [(k, r["i"], r["bytes"]) for k in IDLE for r in kinds.get(k, ()) if r["bytes"]]


def allocation_lines(frames):
    out = ["Allocation per frame of the main loop (lnr.main.step and the profile's wait_frame, "
           "from .mpy, the collector off for the frame):"]
    kinds = frames.by_kind()
    for name in IDLE + ANIMATIONS + (EVENTS,):
        rows = kinds.get(name, [])
        if not rows:
            out.append("  %-48s no such frame in the session" % name)
            continue
        worst = max(rows, key=lambda r: r["bytes"])
        out.append("  %-48s %5d frames: max %5d B (frame %d), mean %.0f B" % (
            name, len(rows), worst["bytes"], worst["i"],
            sum(r["bytes"] for r in rows) / len(rows)))
    bad = frames.idle_allocations()
    out.append("idle frames: %s" % ("0 bytes each" if not bad else "%d ALLOCATE (class, frame, "
                                     "bytes): %s" % (len(bad), bad[:8])))
    return out


def time_lines(frames):
    names, _, _, _, _ = app_consts()
    out = ["Frame times of each screen (the Python work of a frame: the firmware's display "
           "refresh is not run here), on this VM and its SAMD51 estimate (x SAMD51_LOOP_US / "
           "the factor's loop timed beside the frame: Frames.samd51()):",
           "  %-9s %6s  %-26s  %-26s  %-26s" % (
               "screen", "frames", "idle: median", "key or refresh: median", "slowest")]

    def cell(row):
        return "%6d us = %7.1f ms" % (row["us"], row["est"] / 1000) if row is not None else "-"

    def median(rows):  # the row of the median estimate
        return sorted(rows, key=lambda r: r["est"])[len(rows) // 2] if rows else None

    by_screen = {}
    for row in frames.rows:
        by_screen.setdefault(row["screen"], []).append(row)
    for screen in sorted(by_screen):
        rows = by_screen[screen]
        quiet = [r for r in rows if not (r["key"] or r["refresh"] or r["busy"])]
        work = [r for r in rows if r["key"] or r["refresh"]]
        out.append("  %-9s %6d  %-26s  %-26s  %-26s" % (
            names.get(screen, str(screen)), len(rows), cell(median(quiet)), cell(median(work)),
            cell(max(rows, key=lambda r: r["est"]))))
    return out


def waits_line(frames):
    """`board waits (SAMD51 estimate): bot turn max N ms, hint max N ms, longest frame N ms`,
    then how they are made and how much they move, then the same without the stand-ins. A
    bot's turn is the frame in which it plans it (asked as W_PLAN, lnr/play/plan.py), the
    hint the frame that finds it (W_HINT): each is its search (first to last step of the LEDs'
    sign, Leds.sign) and the switch around it (the play screen's code dropped, the
    engine's loaded, and back). A frame's estimate is its time on this VM (the least of its
    wall and CPU time) x SAMD51_LOOP_US / the factor's loop timed beside it in the same run
    (tools/bots/bench.py: a pure-Python loop timed on a board and here; Frames.samd51()), the
    least over the runs. Part of it is the stand-ins of the firmware's C code (the display's
    Group and TileGrid, the LEDs' pixel buffer), Python here: the figures with it are an upper
    bound, those without it (a frames run that times them: play_frames(standin=True)) a lower
    one."""
    from tools.bots.bench import SAMD51_LOOP_US

    _lib_path()
    import lnr.screens as screens

    def most(kind, key):
        rows = [r for r in frames.rows if r["asked"] == kind]
        if not rows:
            return "- (none)", 0
        r = max(rows, key=lambda r: r[key])
        # The search and the frame come from different runs (each the least over the runs):
        # the search may read longer than the frame.
        search = min(r["est_search"], r[key])
        return ("%.0f ms (search %.0f ms, switch %.0f ms)" % (
            r[key] / 1000, search / 1000, (r[key] - search) / 1000), len(rows))

    rows = frames.rows
    turn, turns = most(screens.W_PLAN, "est")
    hint, hints = most(screens.W_HINT, "est")
    loops = [r["loop"] for r in rows]
    out = ["board waits (SAMD51 estimate): bot turn max %s, hint max %s, longest frame %.0f ms"
           % (turn, hint, max(r["est"] for r in rows) / 1000),
           "  longest wait with no sign on the screen or the LEDs %.0f ms; %d bot turns, %d "
           "hints, %d frames; each frame's time here x SAMD51_LOOP_US %d us / the factor's loop "
           "timed beside it (%d-%d us: x %.0f-%.0f)" % (
               max(r["est_gap"] for r in rows) / 1000, turns, hints, len(rows), SAMD51_LOOP_US,
               min(loops), max(loops), SAMD51_LOOP_US / max(loops),
               SAMD51_LOOP_US / min(loops))]
    moved = [r["moved"] for r in rows if "moved" in r and r["est"] >= 100000]
    if moved:
        moved.sort()
        out.append("  a frame of 100 ms or more moved between two runs by %.0f%% at the median, "
                   "%.0f%% at most (%d such frames)" % (
                       moved[len(moved) // 2] * 100, moved[-1] * 100, len(moved)))
    if "est_net" in rows[0]:
        share = sum(r["us"] - r["net"] for r in rows) / sum(r["us"] for r in rows)
        turn, _ = most(screens.W_PLAN, "est_net")
        hint, _ = most(screens.W_HINT, "est_net")
        out.append("  without the stand-ins of the firmware's C code (displayio's Group and "
                   "TileGrid, the LEDs' pixel buffer: %.0f%% of all frames' time here): bot "
                   "turn max %s, hint max %s, longest frame %.0f ms, longest wait with no sign "
                   "%.0f ms" % (share * 100, turn, hint, max(r["est_net"] for r in rows) / 1000,
                                max(r["est_netgap"] for r in rows) / 1000))
    return out


IMPORT_ALL = """
import sys
from tools.standins import install

with open(sys.argv[1]) as f:
    standins, names = f.read().split()
install(standins.split(","))
for name in names.split(","):
    try:
        __import__(name)
        print("OK", name)
    except Exception as e:  # every module's failure, not the first one's
        print("FAIL", name, type(e).__name__, e)
"""


def import_all(tree):
    """Imports every module of a device tree's lib/ on the VM (each .mpy must load there);
    returns {module: None, or why it failed}."""
    lib = Path(tree) / "lib"
    names = sorted(deploy.module_name(p.relative_to(lib).as_posix()[:-4] + ".py")
                   for p in lib.rglob("*.mpy"))
    work = Workdir([], tree)
    try:
        script = work.tmp / "harness" / "import_all.py"
        script.write_text(IMPORT_ALL)
        # A file, not argv: the unix port interns argv, and a string of 256 characters or
        # more ends it before the script starts.
        names_file = work.tmp / "names.txt"
        names_file.write_text(",".join(standin_names()) + " " + ",".join(names) + "\n")
        r = cpvm.run(script, paths=[work.lib], args=[names_file], cwd=work.cwd)
    finally:
        work.close()
    out = {name: "not imported (%s)" % (r.stderr.strip().splitlines() or ["no output"])[-1]
           for name in names}
    for parts in _lines(r.stdout):
        if parts[0] in ("OK", "FAIL") and len(parts) > 1:
            out[parts[1]] = None if parts[0] == "OK" else " ".join(parts[2:])
    return out


# The VM's name pools double as they fill, and a pool grown during an import would be charged
# to that module whole (9 KB to a 56-line panel, lnr.play.hint, before): so names are interned
# first, enough that the pool they end in has room for every name the imports intern, and the
# pools are counted before and after (import_costs() checks that none grew). A module's
# figures then hold its names' characters, not a pool's growth (a board's pools: the
# session's run holds them, Calibration.plan()).
IMPORT_AHEAD = 2400
IMPORT_COSTS = """
import gc
import sys

import micropython
from tools.standins import install

with open(sys.argv[1]) as f:
    standins, names, ahead = f.read().split()
install(standins.split(","))
for i in range(int(ahead)):
    getattr(0, "%x~" % i, None)  # a name looked up is interned, found or not
micropython.qstr_info()
for name in names.split(","):
    gc.collect()
    gc.disable()  # nothing freed by a collection while it loads: the peak is the import's
    before = micropython.mem_current()
    peak = micropython.mem_peak()
    a = gc.mem_alloc()
    __import__(name)
    most = micropython.mem_peak() - before if micropython.mem_peak() > peak else 0
    gc.enable()
    gc.collect()
    print("IMPORT", name, gc.mem_alloc() - a, most)
micropython.qstr_info()
"""


def import_costs():
    """Imports every device module on the VM on its own, after the modules it imports at load
    (tools/vm/membudget/modules.py's order), from the .mpy tree; returns {module: (the live heap
    it keeps, the most it needs above what was live while it loads)}."""
    _lib_path()
    from tools.vm.membudget.modules import device_modules

    names = device_modules(with_libraries=True)
    work = Workdir([])
    try:
        script = work.tmp / "harness" / "import_costs.py"
        script.write_text(IMPORT_COSTS)
        names_file = work.tmp / "names.txt"
        names_file.write_text("%s %s %d\n" % (",".join(standin_names()), ",".join(names),
                                               IMPORT_AHEAD))
        r = cpvm.run(script, paths=[work.lib], args=[names_file], cwd=work.cwd)
    finally:
        work.close()
    if r.returncode:
        raise CpAppError("importing the modules failed:\n" + r.stdout[-2000:] + r.stderr)
    pools = [_pool_count(parts) for parts in _lines(r.stdout) if parts[:2] == ["qstr", "pool:"]]
    if len(pools) != 2 or pools[0] != pools[1]:
        raise CpAppError("a name pool grew while the modules were imported (%s): their "
                         "figures would hold it; intern more in advance (IMPORT_AHEAD)"
                         % pools)
    return {parts[1]: (int(parts[2]), int(parts[3])) for parts in _lines(r.stdout)
            if parts[0] == "IMPORT"}


def import_lines(costs, top=8):
    out = ["Importing a module on CircuitPython's VM from .mpy, alone after those it imports: "
           "what it keeps, and the most the heap holds above what it held before while it "
           "loads (micropython.mem_peak(); its names' characters, not the pools that hold "
           "them), the %d neediest:"
           % top, "  %-38s %8s %8s" % ("module", "keeps", "needs")]
    for name in sorted(costs, key=lambda n: -costs[n][1])[:top]:
        out.append("  %-38s %8d %8d" % (name, costs[name][0], costs[name][1]))
    return out


def _same_frames(one, other):
    if len(other.rows) != len(one.rows):
        raise CpAppError("two frames runs played %d and %d frames" % (
            len(one.rows), len(other.rows)))


def play_frames(frames_keys=None, runs=2, standin=False, tree=None):
    """Plays the session `runs` times from the .mpy tree (`tree`: one built already, else
    built here), uncapped, measuring every frame; a frame's time is its fastest (other
    processes on the machine stall the VM now and then), its bytes the most it allocated (the
    same every run). With `standin`, once more to time the stand-ins of the firmware's C code
    (rows' `net` and `netgap`). runs=0 with `standin`: that run alone, whose own times and
    bytes the rows then hold too (the timing slows the frames that call a stand-in and
    allocates in them: for tests of how the figures are made, host_tests/test_cp_app.py, not
    for the figures; a frame that calls none is as in a run without it)."""
    if frames_keys is None:
        frames_keys, _ = session()
    if runs < 1 and not standin:
        raise ValueError("no frames run asked for")
    work = Workdir(frames_keys, tree)
    try:
        if runs < 1:
            proc = work.run("frames", standin=True)
            out, timed = Frames(proc), Frames(proc)
        else:
            out, timed = Frames(work.run("frames")), None
        for _ in range(runs - 1):
            again = Frames(work.run("frames"))
            _same_frames(out, again)
            for row, other in zip(out.rows, again.rows):
                for key in ("est", "est_gap", "est_search"):
                    row[key] = min(row[key], other[key])
                row["moved"] = abs(row["est"] - other["est"]) / min(row["est"], other["est"])
                row["us"] = min(row["us"], other["us"])
                row["gap"] = min(row["gap"], other["gap"])
                row["search"] = min(row["search"], other["search"])
                row["bytes"] = max(row["bytes"], other["bytes"])
        if standin:
            # One more run with the stand-ins timed (slower: only its shares are kept), for
            # the estimate without them: `net`, the frame's time less its share in them, and
            # `netgap`, its longest stretch with no sign less theirs (waits_line()).
            if timed is None:
                timed = Frames(work.run("frames", standin=True))
            _same_frames(out, timed)
            for row, other in zip(out.rows, timed.rows):
                row["est_net"] = row["est"] * (1 - other["standin"])
                row["est_gap"] = min(row["est_gap"], other["est_gap"])
                row["est_netgap"] = min(row["est_gap"], row["est"] * other["netgap"])
                row["net"] = row["us"] * (1 - other["standin"])
                row["calls"] = other["calls"]
                # Its stretches are slower, never faster: one more chance against a stall.
                row["gap"] = min(row["gap"], other["gap"])
                row["netgap"] = min(row["gap"], row["us"] * other["netgap"])
        return out
    finally:
        work.close()


# ---------------------------------------------------------------------------------------------
# docs/memory.md: its figures are this run's

DOC = ROOT / "docs" / "memory.md"
DOC_BEGIN = "<!-- make cpcheck writes from here: its own run's figures (tools/vm/cpapp.py) -->"
DOC_END = "<!-- make cpcheck writes up to here -->"


# What the figures written to docs/memory.md are made from, beside the board's files
# (tools/flash/deploy.py source_files()): how those are compiled, and the harness that plays the
# session and reads the figures (fingerprint()).
MADE_FROM = ("tools/flash/deploy.py", "tools/flash/fold.py", "tools/vm/cpapp.py",
             "tools/vm/cp_app_session.py", "tools/vm/cp_loop.py", "tools/vm/waits.py",
             "tools/vm/membudget", "tools/standins", "tools/sim/app_script.py")
FINGERPRINT = "Figures of the files fingerprinted "


def fingerprint():
    """Returns a digest (12 hex digits) of the files the figures are made from: what the board
    runs (tools/flash/deploy.py source_files()) and MADE_FROM. write_doc() writes it beside the
    figures, and host_tests/test_memory_doc.py fails when the files are no longer those:
    figures of other code are not written down as this code's."""
    files = [(name, path) for name, path in deploy.source_files()]
    for rel in MADE_FROM:
        path = ROOT / rel
        found = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        files += [(p.relative_to(ROOT).as_posix(), p) for p in found]
    digest = hashlib.sha256()
    for name, path in sorted(files):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def write_doc(lines, doc=DOC, begin=DOC_BEGIN, end=DOC_END):
    """Puts `lines` (the run's figures) between the lines `begin` and `end` in `doc`, the rest
    of it as it is, and the fingerprint of the files they are of (fingerprint()); a CpAppError
    if the doc lacks the two lines."""
    text = Path(doc).read_text(encoding="utf-8")
    a, b = text.find(begin), text.find(end)
    if a < 0 or b < a:
        raise CpAppError("%s has no lines %r and %r to write the figures between" % (
            doc, begin, end))
    body = "\n".join(["", "```"] + lines + ["```", "", "%s`%s` (tools/vm/cpapp.py "
                                                     "fingerprint())." % (FINGERPRINT,
                                                                          fingerprint()), ""])
    new = text[:a + len(begin)] + "\n" + body + "\n" + text[b:]
    if new != text:
        Path(doc).write_text(new, encoding="utf-8")


# ---------------------------------------------------------------------------------------------

# The heap layouts spread() plays: bytes the harness holds before the app starts.
LAYOUTS = (0, 8, 16, 64, 256, 1024, 2048, 4096)


def spread(cap_kb=CAP_KB, layouts=LAYOUTS, out=print, keys=None, form=None, floor_kb=None):
    """Plays the session once per heap layout (`layouts`: bytes the harness holds before the app
    starts, cp_app_session.py LAYOUT), uncapped for its peak and under `cap_kb`; prints a line
    each and the spread; returns True if it fits the cap in every layout. `floor_kb`: a cap
    too, under which every layout must play every mode to its end, features turned down as
    the app chooses (floor_cap(): where the game says it plays): a
    MemoryError the app met there instead of a lighter path ends the game in some layouts and
    not in others (drop_since()'s, lnr.memory). `form`: a Form of the
    session already calibrated (host_tests/test_cp_app.py's): every layout is played capped
    from its tree under its calibration, no uncapped run of its own (the peaks are then that
    one's, and not printed).

    The collector keeps whatever a value left on the stack points at, stale or not. Where the
    app's objects land decides what such a value hits: a screen's code dropped in a switch
    (about 14 KB) may stay beside the next screen's. Nothing the app does changes between the
    layouts: the spread is what the peak owes to where objects happen to lie, on a board too
    (whose layout is its own). `keys`: the session's (session()), if made already."""
    missing = cpvm.missing(compiler=True)
    if missing:
        out("circuitpython mpy: %s" % missing)
        return True
    if keys is None:
        keys, _ = session()

    def play(n):
        if form is None:
            f = Form(keys, layout=n)
        else:
            f = Form(keys, form.work.lib.parent, layout=n, cal=form.cal)
        try:
            return f.play(cap_kb), (f.play(floor_kb) if floor_kb else None)
        finally:
            f.close()

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        both = list(pool.map(play, layouts))
    results = [r for r, _ in both]
    unsized = 0
    for n, r in zip(layouts, results):
        if r.run.base is not None and r.fail == "exit 3":  # Form.play() gave up sizing it
            unsized += 1
            how = "not played (its base moved with the heap's size, 8 tries: Form.play())"
        else:
            how = "fits" if r.ok else "FAILS (%s)" % r.fail
        peak = "" if form is not None else "peak %d B; " % r.peak()
        out("  layout +%4d B: %sunder the %d KB cap: %s" % (n, peak, cap_kb, how))
    plays = 0
    for n, (_, low) in zip(layouts, both):
        if low is not None:
            plays += low.plays
            out("  layout +%4d B: under %d KB: %s" % (n, floor_kb, (
                "every mode to its end, turned down: %s" % (", ".join(low.turned) or "nothing")
                if low.plays else "FAILS (%s)" % low.fail)))
    peaks = sorted(r.peak() for r in results)
    fits = sum(1 for r in results if r.ok)
    spread_of = ("" if form is not None else "the app's peak %d-%d B over %d layouts (median %d "
                 "B); " % (peaks[0], peaks[-1], len(peaks), peaks[len(peaks) // 2]))
    out("heap layouts: %sthe session fits the %d KB cap in %d of the %d played" % (
        spread_of, cap_kb, fits, len(results) - unsized))
    if floor_kb:
        out("heap layouts: the session plays every mode under %d KB in %d of the %d" % (
            floor_kb, plays, len(layouts)))
    return fits == len(results) - unsized and (not floor_kb or plays == len(layouts))


def check(cap_kb=CAP_KB, frames=True, doc=DOC, out=print, wanders=WANDERS):
    """The app's checks on CircuitPython's VM, printed with `out`, and the figures written to
    `doc` (None: not written); returns True if all pass (or are skipped: the VM or its
    mpy-cross missing, one line each). `wanders`: the random sessions played at the floor
    (seeds 1 to `wanders`)."""
    missing = cpvm.missing(compiler=True)
    if missing:
        out("circuitpython mpy: %s" % missing)
        return True
    keys, _ = session()
    figures = []

    def say(lines):
        figures.extend(lines)
        out("\n".join(lines))

    f = Form(keys)
    floor = floor_cap()
    try:
        r = f.play(cap_kb)
        say([r.line()])
        out("  -X heapsize=%d: %s" % (r.heap_bytes, f.cal.describe(r.base)))
        if r.turned:
            out("  turned down for memory: " + ", ".join(r.turned))
        kb = f.smallest(cap_kb, r)
        if kb is not None:
            say(["circuitpython mpy smallest heapsize %d KB (the cap: %d KB)" % (kb, cap_kb)])
            low = f.floor(kb)
            say([floor_line(low, floor)])
        wandered = wander(f, floor, seeds=range(1, wanders + 1))
        say(wander_line(floor, wandered))
    finally:
        f.close()
    # The board's cap holds every feature; a cap below it (--cap-kb) holds the session, every mode
    # to its end, with what the app turns down (docs/memory.md).
    ok = (r.ok if cap_kb >= CAP_KB else r.plays) and all(w is None for _, w, _ in wandered)
    say(phase_table(f.cal))
    say(import_lines(import_costs()))
    if frames:
        played = play_frames(keys, standin=True)
        say(allocation_lines(played))
        out("\n".join(time_lines(played)))  # times vary from run to run: not in the doc
        out("\n".join(waits_line(played)))
        ok = ok and not played.idle_allocations()
    if doc is not None:
        write_doc(figures, doc)
        out("(figures written to %s)" % Path(doc).relative_to(ROOT).as_posix())
    return ok
