"""The whole app on CircuitPython 10's own VM, under the board's heap (part of `make cpcheck`).

    python -m tools.cpapp [--form mpy|py] [--mpy-kb 80] [--py-kb 112] [--smallest] [--frames]

membudget's session (tools/membudget/session.py session_keys(): power-up, every mode to its end,
hints, save & quit and Continue, every menu) plays on CircuitPython's VM (tools/cpvm.py) in one
process (tools/cp_app_session.py), from the tree `make flash` writes (tools/deploy.py build(),
code.py and boot.py left out: the harness starts the app as code.py does):

    mpy  every module as the .mpy CircuitPython's own mpy-cross writes, capped at 80 KB: what
         `make flash` sends; the game must leave well over half of the PyBadge's 192 KB free
    py   the .py sources, compiled on the VM as a board compiles them, capped at 112 KB: the
         fallback `make flash --no-mpy`; a board has about 150 KB free at start

The VM's own displayio.Bitmap and Palette hold the app's real pixels; tools/standins stand in for
what the VM lacks (Group, TileGrid, board, keypad, microcontroller.nvm, supervisor, storage,
terminalio, and the C modules under the real neopixel library, which is the tree's).

What counts (the same reasoning as tools/membudget, whose census gives the firmware's sizes):

- `base`: the live heap before the app's first import: the VM's own start-up, the harness, the
  stand-in modules, the session's keys. None of it is the game's; on a board the firmware's own
  heap is outside the 80 KB the game may take.
- The stand-in Group and TileGrid objects weigh what Python objects weigh on this VM (UNIT, each
  kind measured there), not what the firmware's C objects weigh. Their bytes (count made x
  UNIT) are taken out of every reading and the firmware's are put in: the display census
  (tools/membudget/census.py, from the CircuitPython 10 structs) of the same Groups and
  TileGrids, counted in the simulator. The counts must agree.
- The app's figure at any moment: live heap - base - stand-in bytes + census bytes. It includes
  everything else the app makes: modules, State, real Bitmaps and Palettes, the board profile,
  the neopixel library, the Hardware object.
- The cap is a real -X heapsize: a MemoryError anywhere (fragmentation included) fails the run.
  So that a MemoryError still means "the real app would not fit in the cap", the heap is
  enlarged by exactly what is not the app's: base + stand-in bytes - census bytes (measured by a
  calibration run of the same harness up to start-up; the session run checks it sees the same
  base and counts). The heap is then the smallest -X heapsize whose usable bytes (the VM's
  gc.mem_alloc() + gc.mem_free()) are the cap's plus that excess.

Readings: after every frame a real collection (gc works inside a script on this VM) and the live
heap, kept per phase (membudget's LABELS); and just before each module loaded for a moment
(membudget's MOMENTARY: lnr.make at start-up, engine.codec at a save, ...) is dropped (lnr.drop
watched), the live heap with it still in. This VM splits -X heapsize into 4 equal areas
(cpvm.SPLIT_HEAPS); a board's heap grows area by area as needed, so fragmentation here is, if
anything, worse than on the board.

--frames (also part of `make cpcheck`) plays the session once more from the .mpy tree, uncapped,
with the collector off for each frame: the bytes each frame of the main loop allocates (step and
wait_frame) and its time. Idle frames (no key read, no refresh, no timed step, no LED effect)
must allocate nothing; animations (dice rolling, an opponent playing, an LED effect) are printed.
Times are of the Python work of a frame (the firmware's display refresh is not run here), also
multiplied by tools/bench.py's SAMD51 factor.

--smallest bisects, for each form, the smallest cap (in KB) the session completes under.
"""
import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from tools import cpvm, deploy

ROOT = cpvm.ROOT
CAPS_KB = {"mpy": 80, "py": 112}
FORMS = ("mpy", "py")
SCRIPT = ROOT / "tools" / "cp_app_session.py"
CENSUS_KEYS = ["A", "A", "WAIT*10", "START", "WAIT*10"]  # into a game, as tools/membudget
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
    """Returns (the session's frames: a key number or -1 each, what it plays in words)."""
    _lib_path()
    from tools.membudget.session import session_keys

    return session_keys()


def app_consts():
    """Returns ({screen number: name}, SC_TITLE, SC_PLAY, {play step number: name}, S_INFO)."""
    _lib_path()
    import lnr.app as screens
    import lnr.hud

    names = {v: k[3:].lower() for k, v in vars(screens).items()
             if k.startswith("SC_") and isinstance(v, int)}
    steps = {v: k[2:].lower() for k, v in vars(lnr.hud).items()
             if k.startswith("S_") and isinstance(v, int)}
    return names, screens.SC_TITLE, screens.SC_PLAY, steps, lnr.hud.S_INFO


def census():
    """Returns ({kind: firmware bytes}, {kind: count}) of the app's display objects, counted
    in the simulator (tools/membudget/census.py)."""
    import os

    _lib_path()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from tools.membudget.census import display_census

    c, _ = display_census("lnr.main:run", CENSUS_KEYS)
    counts = {}
    for kind, _, _ in c.rows:
        counts[kind] = counts.get(kind, 0) + 1
    return c.by_kind(), counts


def standin_names():
    from tools.membudget.modules import STANDINS

    return STANDINS


def momentary():
    from tools.membudget.session import MOMENTARY

    return MOMENTARY


# ---------------------------------------------------------------------------------------------
# The run

class Workdir:
    """A temporary folder with the device tree in one form, the harness and the keys."""

    def __init__(self, form, frames):
        self.form = form
        self.tmp = Path(tempfile.mkdtemp(prefix="cpapp-"))
        if form == "mpy":
            exe = cpvm.mpy_cross()
            if exe is None:
                raise CpAppError(cpvm.MISSING_MPY_CROSS)
            compiler = deploy.MpyCross(exe, deploy.CIRCUITPY_MAJOR)
        else:
            compiler = None
        tree = deploy.build(ROOT, compiler)
        tree.write(self.tmp / "tree")
        self.lib = self.tmp / "tree" / "lib"
        self.files = tree.files
        harness = self.tmp / "harness"
        (harness / "tools" / "standins").mkdir(parents=True)
        shutil.copy(ROOT / "tools" / "__init__.py", harness / "tools")
        for p in (ROOT / "tools" / "standins").glob("*.py"):
            shutil.copy(p, harness / "tools" / "standins")
        self.script = harness / SCRIPT.name
        shutil.copy(SCRIPT, self.script)
        (self.tmp / "frames.bin").write_bytes(bytes(k + 1 for k in frames))
        self.cwd = self.tmp / "cwd"  # any file the app writes lands here
        self.cwd.mkdir()

    def run(self, mode, heap_bytes=None, collect=False, expect=0, timeout=900):
        """Runs the harness in `mode` (calibrate, session, frames); returns the Run (for
        frames, the CompletedProcess)."""
        _, _, sc_play, _, s_info = app_consts()
        conf = self.tmp / "run.conf"  # one name: argv is interned, and the base must not vary
        conf.write_text("\n".join([
            "mode " + mode,
            "frames " + str(self.tmp / "frames.bin"),
            "seed %d" % _seed(),
            "standins " + ",".join(standin_names()),
            "consts %d,%d" % (sc_play, s_info),
            "momentary " + ",".join(momentary()),
            "collect %d" % int(collect),
            "expect %d" % expect,
        ]) + "\n")
        proc = cpvm.run(self.script, paths=[self.lib], heap_bytes=heap_bytes, args=[conf],
                        timeout=timeout, cwd=self.cwd)
        return proc if mode == "frames" else Run(self.form, proc)

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def _seed():
    from tools.membudget.session import SEED

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


# Interned names: CircuitPython keeps them in pools (never freed) that double in size, the first
# of MICROPY_ALLOC_QSTR_ENTRIES_INIT entries; a pool is a 24-byte header and, per entry, a
# pointer, a length byte and the hash: 2 bytes on this VM, 1 on a board (circuitpy_mpconfig.h:
# MICROPY_QSTR_BYTES_IN_HASH 1 on full builds). The harness's own names fill the first pools
# here, so the app's names land in bigger pools than on a board, where they fill the first ones:
# QstrPools says by how much the app's share differs, and the app is charged the most it can be.
QSTR_FIRST_POOL = 10
QSTR_HEADER = 24
QSTR_ENTRY_VM = 7
QSTR_ENTRY_BOARD = 6


def pool_bytes(n, entry):
    """Returns the heap the pools take once `n` names are interned."""
    total = 0
    alloc = QSTR_FIRST_POOL
    held = 0
    while held < n:
        total += -(-(QSTR_HEADER + entry * alloc) // 16) * 16
        held += alloc
        alloc *= 2
    return total


def qstr_extra(harness, app):
    """Returns the most the app's pools on a board may exceed what this VM charges the app
    (0 or more), over the app's first 0..`app` interned names, with `harness` names before."""
    base = pool_bytes(harness, QSTR_ENTRY_VM)
    worst = 0
    for n in range(app + 1):
        worst = max(worst, pool_bytes(n, QSTR_ENTRY_BOARD)
                    - (pool_bytes(harness + n, QSTR_ENTRY_VM) - base))
    return worst


def _qstr_count(parts):
    # "qstr pool: n_pool=7, n_qstr=1170, n_str_data_bytes=11388, n_total_bytes=20492"
    for word in parts:
        if word.startswith("n_qstr="):
            return int(word.rstrip(",").split("=")[1])
    raise CpAppError("not a qstr_info() line: " + " ".join(parts))


class Run:
    """One run's output: the harness's figures, the readings (calibrate), how it ended."""

    def __init__(self, form, proc):
        self.form = form
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.readings = []  # (frame, phase, raw bytes, names interned, momentary module)
        self.frames = 0
        self.fail = None
        self.base = None
        self.qstrs = None  # names interned at base
        self.kinds = []
        self.unit = []
        self.made = None  # (after start-up, at the end): stand-ins made, per kind
        self.end_screen = None
        self.overflowed = False
        self.trace = None  # the fingerprint of the frames' screens and the NVM at the end
        lines = _lines(proc.stdout)
        for k, parts in enumerate(lines):
            tag = parts[0]
            if tag == "R":
                self.readings.append((int(parts[1]), int(parts[2]), int(parts[3]),
                                      _qstr_count(lines[k + 1]), None))
            elif tag == "M":
                self.readings.append((int(parts[2]), int(parts[3]), int(parts[4]),
                                      _qstr_count(lines[k + 1]), parts[1]))
            elif tag == "UNIT":
                self.unit = [int(x) for x in parts[1].split(",")]
            elif tag == "KINDS":
                self.kinds = parts[1].split(",")
            elif tag == "BASE":
                self.base = int(parts[1])
            elif tag == "QSTR":
                self.qstrs = _qstr_count(lines[k + 1])
            elif tag == "FRAMES":
                self.frames = int(parts[1])
            elif tag == "FAIL":
                self.fail = " ".join(parts[1:])
            elif tag == "END":
                self.end_screen = int(parts[1])
                self.overflowed = parts[2] == "True"
            elif tag == "TRACE":
                self.trace = (int(parts[1]), int(parts[2]))
            elif tag == "MADE":
                self.made = ([int(x) for x in parts[1].split(",")],
                             [int(x) for x in parts[2].split(",")])
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
    the app's in a run (base, the stand-ins' bytes over the firmware's, the name pools)."""

    def __init__(self, work, firmware, counts):
        from tools.membudget.session import LABELS

        run = work.run("calibrate")
        if not run.ok:
            raise CpAppError("the uncapped %s run failed: %s\n%s" % (
                work.form, run.fail, run.stderr[-3000:]))
        missing = [LABELS[i] for i in range(len(LABELS))
                   if not any(r[1] == i for r in run.readings)]
        if missing:
            raise CpAppError("the uncapped %s session never reached %s: it no longer plays "
                             "what tools/membudget/session.py meant" % (work.form,
                                                                       ", ".join(missing)))
        self.run = run
        self.kinds = run.kinds
        self.base = run.base
        self.made = run.made[0]
        for kind, n in zip(self.kinds, self.made):
            if counts.get(kind, 0) != n:
                raise CpAppError(
                    "the app made %d %s objects on the VM but the simulator's census counts "
                    "%d: the census cannot stand for them" % (n, kind, counts.get(kind, 0)))
        self.later = [b - a for a, b in zip(*run.made)]  # stand-ins made after start-up
        self.standin = sum(u * n for u, n in zip(run.unit, self.made))
        self.firmware = sum(firmware.get(kind, 0) for kind in self.kinds)
        self.harness_qstrs = run.qstrs
        self.app_qstrs = max(r[3] for r in run.readings) - run.qstrs
        # Each reading as the app's bytes on a board: the firmware's display objects for the
        # stand-ins', a board's name pools for this VM's.
        self.readings = [(frame, phase, raw + self.firmware + self.pool_diff(n), module)
                         for frame, phase, raw, n, module in run.readings]
        # The most a board's pools take beyond this VM's at any moment: the capped run's heap
        # is made that much smaller, so it is never easier than a board's.
        self.qstr_extra = max(0, max(self.pool_diff(r[3]) for r in run.readings))
        self.excess = self.base + self.standin - self.firmware - self.qstr_extra

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
        return ("the cap + base %d B (VM, harness, stand-in modules, keys) + stand-in %s %d B "
                "- their firmware bytes %d B (census) - %d B of name pools a board may take "
                "beyond this VM's (%d names of the harness, %d of the app)" % (
                    self.base if base is None else base, "/".join(self.kinds), self.standin,
                    self.firmware,
                    self.qstr_extra, self.harness_qstrs, self.app_qstrs))


class Result:
    """One capped session run: ok, the app's peak (from the calibration: the same frames),
    frames, the line to print."""

    def __init__(self, form, cap_kb, heap_bytes, cal, run, base):
        self.form = form
        self.base = base
        self.cap_kb = cap_kb
        self.heap_bytes = heap_bytes
        self.cal = cal
        self.run = run
        self.fail = run.fail
        self.frames = run.frames
        if run.base != base:
            self.fail = ("the harness's base was %s B, not the %d B the heap was sized for: "
                         "it was not enlarged by exactly what is not the app's" % (run.base, base))
        if self.fail is None and run.trace != cal.run.trace:
            self.fail = ("the session went otherwise than uncapped (an error the app caught: "
                         "e.g. a MemoryError in a hint, which never ends a game)")
        if self.fail is None and run.made[0] != cal.made:
            self.fail = "stand-in counts at start-up %s differ from the calibration's %s" % (
                run.made[0], cal.made)

    @property
    def ok(self):
        return self.fail is None

    def peak(self):
        return self.cal.peak()

    def line(self):
        """`circuitpython FORM heapsize N peak BYTES frames F` (N: the cap, in bytes)."""
        if not self.ok:
            return "circuitpython %s heapsize %d FAILED: %s" % (self.form, self.cap_kb * 1024,
                                                               self.fail)
        return "circuitpython %s heapsize %d peak %d frames %d" % (
            self.form, self.cap_kb * 1024, self.peak(), self.frames)


class Form:
    """One form's tree and calibration, ready for capped runs."""

    def __init__(self, form, frames, firmware):
        self.form = form
        self.work = Workdir(form, frames)
        try:
            self.cal = Calibration(self.work, *firmware)
        except BaseException:
            self.work.close()
            raise

    def play(self, cap_kb, collect=False):
        """Plays the session capped at cap_kb; returns its Result.

        The base (what is not the app's) varies by some bytes with the heap's size (where the
        harness's interned names and dicts could grow in place): a run whose base is not the
        one its heap was sized for stops at once, and runs again with the heap sized for the
        base it found."""
        base = self.cal.base
        for _ in range(8):
            excess = self.cal.excess - self.cal.base + base
            heap = heap_for(cap_kb * 1024, excess, self.work.tmp)
            run = self.work.run("session", heap_bytes=heap, collect=collect, expect=base)
            if run.base == base:
                break
            base = run.base
        return Result(self.form, cap_kb, heap, self.cal, run, base)

    def smallest(self, start_kb):
        """Bisects the smallest cap in KB under which the session completes; returns (KB,
        the Result at that cap)."""
        hi = start_kb
        best = self.play(hi)
        while not best.ok:
            hi += 16
            best = self.play(hi)
        lo = max(1, self.cal.peak() // 1024 - 8)
        while lo > 1 and self.play(lo).ok:
            lo = lo // 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            r = self.play(mid)
            if r.ok:
                hi, best = mid, r
            else:
                lo = mid
        return hi, best

    def close(self):
        self.work.close()


def play_capped(form, cap_kb, frames=None, firmware=None):
    """Calibrates `form` and plays the session capped at cap_kb; returns its Result."""
    if frames is None:
        frames, _ = session()
    if firmware is None:
        firmware = census()
    f = Form(form, frames, firmware)
    try:
        return f.play(cap_kb)
    finally:
        f.close()


# ---------------------------------------------------------------------------------------------
# The phase table

def phase_rows(cals):
    """Returns [(phase, {form: bytes})] for calibrations {form: Calibration}, in membudget's
    order."""
    from tools.membudget.session import LABELS, MOMENTARY

    found = {form: cal.phase_peaks() for form, cal in cals.items()}
    rows = []

    def row(name, get):
        vals = {}
        for form, (phases, moments) in found.items():
            v = get(phases, moments)
            if v is not None:
                vals[form] = v[0]
        if vals:
            rows.append((name, vals))

    row("start-up: lnr.make resident, every display object built",
        lambda p, m: m.get("lnr.make"))
    for lab, name in enumerate(LABELS):
        row(name if lab == 0 else "playing: " + name, lambda p, m, lab=lab: p.get(lab))
        if lab == 0:
            for module, what in MOMENTARY.items():
                if module != "lnr.make":
                    row("for a moment: %s (%s)" % (module, what),
                        lambda p, m, module=module: m.get(module))
    return rows


def phase_table(results):
    forms = list(results)
    out = ["Peaks by phase on CircuitPython's VM: the app's heap (live, after a real collection; "
           "stand-in Group/TileGrid as the firmware's bytes)",
           "  %-66s%s" % ("", "".join("%10s" % (".%s" % f) for f in forms))]
    for name, vals in phase_rows(results):
        out.append("  %-66s%s" % (name, "".join(
            "%10s" % ("%.1f KB" % (vals[f] / 1024) if f in vals else "-") for f in forms)))
    return out


# ---------------------------------------------------------------------------------------------
# Allocation and time per frame

# Frames with nothing happening (no key read, no refresh, no timed step, no LED effect): they
# must allocate nothing.
IDLE = ("title idle", "play screen idle", "a menu open")
# Frames of the animations: a timed step waiting or acting, an LED effect alone.
ANIMATIONS = ("dice rolling: between two dice", "dice rolling: a die lands",
              "an opponent playing: waiting", "an opponent playing: its move (the loco moves)",
              "LED flash (nothing else happens)")
EVENTS = "a key read, or a timer that changes the screen"


class Frames:
    """The frames run: each frame's screen, step, flags, bytes allocated and time."""

    def __init__(self, proc):
        if proc.returncode:
            raise CpAppError("the frames run failed:\n" + proc.stdout[-2000:] + proc.stderr)
        self.rows = []
        for parts in _lines(proc.stdout):
            if parts[0] == "F":
                (i, screen, step, busy, fx, key, refresh, nbytes, us) = [int(x)
                                                                         for x in parts[1:]]
                self.rows.append({"i": i, "screen": screen, "step": step, "busy": busy,
                                  "fx": fx, "key": key, "refresh": refresh, "bytes": nbytes,
                                  "us": us})
        if not self.rows:
            raise CpAppError("the frames run printed no frame:\n" + proc.stdout[-2000:])

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


def loop_us():
    r = cpvm.run(ROOT / "tools" / "cp_bench.py", args=["--loop"])
    if r.returncode:
        raise CpAppError("cp_bench.py --loop failed: " + r.stderr)
    return int(r.stdout.split("=")[1])


def time_lines(frames, loop):
    from tools.bench import SAMD51_LOOP_US

    names, _, _, _, _ = app_consts()
    factor = SAMD51_LOOP_US / loop
    out = ["Frame times of each screen (the Python work of a frame: the firmware's display "
           "refresh is not run here), on this VM and x %.0f for a SAMD51 (tools/bench.py "
           "SAMD51_LOOP_US %d us / this VM's loop %d us):" % (factor, SAMD51_LOOP_US, loop),
           "  %-9s %6s  %-26s  %-26s  %-26s" % (
               "screen", "frames", "idle: median", "key or refresh: median", "slowest")]

    def cell(us):
        return "%6d us = %7.1f ms" % (us, us * factor / 1000) if us is not None else "-"

    by_screen = {}
    for row in frames.rows:
        by_screen.setdefault(row["screen"], []).append(row)
    for screen in sorted(by_screen):
        rows = by_screen[screen]
        quiet = [r["us"] for r in rows if not (r["key"] or r["refresh"] or r["busy"])]
        work = [r["us"] for r in rows if r["key"] or r["refresh"]]
        out.append("  %-9s %6d  %-26s  %-26s  %-26s" % (
            names.get(screen, str(screen)), len(rows),
            cell(statistics.median(quiet) if quiet else None),
            cell(statistics.median(work) if work else None),
            cell(max(r["us"] for r in rows))))
    return out


def play_frames(frames_keys=None, form="mpy"):
    """Plays the session once from `form`'s tree, uncapped, measuring every frame."""
    if frames_keys is None:
        frames_keys, _ = session()
    work = Workdir(form, frames_keys)
    try:
        return Frames(work.run("frames"))
    finally:
        work.close()


# ---------------------------------------------------------------------------------------------

def check(caps=None, forms=FORMS, smallest=False, frames=True, out=print):
    """The app's checks on CircuitPython's VM, printed with `out`; returns True if all pass
    (or are skipped: the VM or its mpy-cross missing, one line each)."""
    caps = dict(CAPS_KB, **(caps or {}))
    if cpvm.vm() is None:
        for form in forms:
            out("circuitpython %s: %s" % (form, cpvm.MISSING_VM))
        if frames:
            out("circuitpython frames: %s" % cpvm.MISSING_VM)
        return True
    keys, _ = session()
    firmware = census()
    ok = True
    cals = {}
    for form in forms:
        if form == "mpy" and cpvm.mpy_cross() is None:
            out("circuitpython mpy: %s" % cpvm.MISSING_MPY_CROSS)
            continue
        f = Form(form, keys, firmware)
        try:
            if smallest:
                kb, r = f.smallest(caps[form])
                out("circuitpython %s: smallest heapsize %d KB" % (form, kb))
            else:
                r = f.play(caps[form])
        finally:
            f.close()
        cals[form] = f.cal
        out(r.line())
        out("  -X heapsize=%d: %s" % (r.heap_bytes, f.cal.describe(r.base)))
        if any(f.cal.later):
            out("  (display objects made after start-up: %s)" % dict(zip(f.cal.kinds,
                                                                        f.cal.later)))
        ok = ok and r.ok
    if cals:
        out("\n".join(phase_table(cals)))
    if frames:
        form = "mpy" if cpvm.mpy_cross() is not None else "py"
        f = play_frames(keys, form)
        out("\n".join(allocation_lines(f)))
        out("\n".join(time_lines(f, loop_us())))
        ok = ok and not f.idle_allocations()
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.cpapp", description=__doc__.split("\n")[0])
    ap.add_argument("--form", choices=FORMS, action="append",
                    help="the tree to play from (default: both)")
    ap.add_argument("--mpy-kb", type=int, default=CAPS_KB["mpy"], help="the .mpy run's cap")
    ap.add_argument("--py-kb", type=int, default=CAPS_KB["py"], help="the .py run's cap")
    ap.add_argument("--smallest", action="store_true",
                    help="bisect the smallest cap in KB each form completes under")
    ap.add_argument("--no-frames", action="store_true",
                    help="skip the allocation and time of every frame")
    args = ap.parse_args(argv)
    ok = check({"mpy": args.mpy_kb, "py": args.py_kb}, tuple(args.form or FORMS),
               args.smallest, not args.no_frames)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
