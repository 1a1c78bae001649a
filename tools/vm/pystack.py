"""The Python stack the app needs on a board, and the size `make flash` gives it (part of
`make test`, tools/vm/membudget's VM).

    python -m tools.vm pystack [--size BYTES] [--smallest]

CircuitPython keeps Python's frames (each call's locals and operand stack) on a stack of their
own, the pystack: CIRCUITPY_PYSTACK_SIZE bytes, read from the drive's settings.toml at every start,
1536 unless it says otherwise (CircuitPython's main.c and py/circuitpy_mpconfig.h). A call that
does not fit raises RuntimeError "pystack exhausted". The `best` bot's search runs deep (its
builds are searched depth first, a frame a card), and a module's top level needs a slot per item
of its biggest literal while it runs: with the default, the game stops at start-up. So `make
flash` sets the size in settings.toml (tools/flash/deploy.py PYSTACK_SIZE), and this holds it.

Measured on MicroPython's VM (tools/vm/mpvm/run.mjs --pystack), which keeps its frames on a pystack
the way CircuitPython does (the same py/ code: a frame is a 20-byte header, 4 bytes per local
and stack slot, 8 per active try, in 8-byte steps); CircuitPython's own unix VM has no pystack
(its frames are in the heap). The modules run as the .mpy files MicroPython's mpy-cross writes
(CircuitPython's writes the same code; the sources, unfolded, whose frames the build's folding
leaves as they are). Two runs, both under the size checked:

- the session (tools/vm/membudget/session.py: power-up, every mode, hints, saves, every menu)
  played through lnr.main.run as code.py plays it; it also reads how deep in the pystack the app
  begins a search of `best` (a bot's plan, the hint), the deepest time (in frames of the probe,
  tools/vm/membudget/vm/pystack.py down());
- every decision of `best` in whole games of every mode (SEEDS seeds each), each search begun
  that deep (padded with probe frames): how deep a search goes depends on the hand, and the
  session's few games do not reach the deepest.

--smallest finds the smallest size under which both complete (in steps of 16 bytes).
"""
import argparse
import sys

from tools import cli
from tools.flash.deploy import PYSTACK_SIZE
from tools.flash.sync import PYSTACK_MAX
from tools.vm import mpvm
from tools.vm.membudget import vmrun
from tools.vm.membudget.session import SEED, session_keys

BOARD_DEFAULT = 1536  # CIRCUITPY_PYSTACK_SIZE unless settings.toml says otherwise
SEEDS = 8  # games of each mode whose every decision `best` makes (bots run)
FORM = "mpy"  # what make flash sends; a .py module's frames are the same (one compiler)
EXHAUSTED = "pystack exhausted"


class Run:
    """One run of vm/pystack.py: ok (no frame failed), the probe frames left where the deepest
    search began, what failed."""

    def __init__(self, args, size):
        self.size = size
        try:
            lines = vmrun.run("pystack.py", args, FORM, pystack=size)
        except mpvm.VmError as e:
            lines, self.fail = [], e.output
        else:
            self.fail = None
        self.search = None
        self.count = None
        for parts in lines:
            if parts[0] == "SEARCH":
                self.search = int(parts[1])
            elif parts[0] in ("FRAMES", "DECISIONS", "PROBE"):
                self.count = int(parts[1])
        text = " ".join(" ".join(p) for p in lines)
        if self.fail is None and (EXHAUSTED in text or "Traceback" in text
                                  or "error" in text.lower()):
            self.fail = text[-2000:]  # lnr.main.run caught it and printed it (its error screen)
        if self.fail is None and self.count is None:
            self.fail = "the run ended without its figures: " + text[-2000:]

    @property
    def ok(self):
        return self.fail is None

    def failed(self):
        """The last line of what failed (its error), or "failed"."""
        return self.fail.strip().splitlines()[-1] if self.fail.strip() else "failed"


def probe_frame():
    """Returns the bytes of one probe frame: the probe's count under two sizes."""
    a = Run(["probe"], 4096)
    b = Run(["probe"], 8192)
    if not (a.ok and b.ok):
        raise SystemExit("pystack: the probe failed: %s" % (a.fail or b.fail))
    return 4096 // (b.count - a.count)


def session(size):
    frames, _ = session_keys()
    return Run(["session", ",".join(str(k) for k in frames), SEED], size)


def bots(size, pad, seeds=SEEDS):
    return Run(["bots", seeds, pad], size)


class Check:
    """Both runs under `size` bytes: ok, and what they measured. The bots' first game, its
    searches begun where the script begins them, runs first: where a search does not fit even
    there, the check has failed without the session (a run twice as long); session is then
    None."""

    def __init__(self, size, seeds=SEEDS):
        self.size = size
        self.session = None
        self.pad = None
        shallow = bots(size, 0, 1)
        self.bots = shallow
        if not shallow.ok:
            return
        self.session = session(size)
        if not self.session.ok:
            return
        # The bots' searches begin the session's deepest search's depth down: padded by as many
        # probe frames as this script's own searches begin higher than that.
        self.pad = max(0, shallow.search - self.session.search)
        self.bots = bots(size, self.pad, seeds)

    @property
    def ok(self):
        return self.bots.ok and self.session is not None and self.session.ok

    def failed(self):
        return (self.bots if self.session is None or self.session.ok else self.session).failed()


def smallest(lo=512, hi=None, seeds=SEEDS):
    """Returns the smallest size (a multiple of 16) under which both runs complete."""
    hi = hi or 2 * PYSTACK_SIZE
    if not Check(hi, seeds).ok:
        raise SystemExit("pystack: even %d B is not enough" % hi)
    while hi - lo > 16:
        mid = (lo + hi) // 32 * 16
        if Check(mid, seeds).ok:
            hi = mid
        else:
            lo = mid
    return hi


def main(argv=None):
    ap = cli.Parser(prog="python -m tools.vm pystack", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=cli.whole(256, PYSTACK_MAX), default=PYSTACK_SIZE,
                    help="the pystack to check (default: what make flash sets, %d)"
                    % PYSTACK_SIZE)
    ap.add_argument("--smallest", action="store_true",
                    help="also find the smallest size the app plays under")
    args = ap.parse_args(argv)
    if mpvm.missing():
        print("pystack: " + mpvm.missing(), file=sys.stderr)
        return 2
    unit = probe_frame()
    c = Check(args.size)
    if not c.ok:
        print("pystack %d B: FAILED: %s" % (args.size, c.failed()))
        return 1
    print("pystack %d B (make flash's CIRCUITPY_PYSTACK_SIZE; CircuitPython's default %d B): "
          "the session plays (%d frames), and `best` decides %d times in %d games of each "
          "mode from the session's deepest search's depth (%d probe frames of %d B left "
          "there)" % (args.size, BOARD_DEFAULT, c.session.count, c.bots.count, SEEDS,
                      c.session.search, unit))
    d = session(BOARD_DEFAULT)
    print("pystack %d B (CircuitPython's default): %s" % (
        BOARD_DEFAULT, "plays" if d.ok else "fails: " + d.failed()))
    if args.smallest:
        print("pystack: smallest size the app plays under: %d B" % smallest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
