"""`make cpcheck`: the game on CircuitPython 10's own VM (tools/vm/cpvm.py finds it), the one judge
of the board's heap.

    python -m tools.vm cpcheck [--cap-kb 88] [--no-frames] [--no-doc]

1. tools/vm/cp_engine_check.py: the engine's import cost and each mode's game peak, under the cap
   the whole app must meet, from .mpy files as the board imports them (compiling engine.ai from
   its source takes more heap than the board ever spends on it).
2. tools/vm/cpapp.py: the whole app plays the session on the VM from the .mpy files `make flash`
   writes, capped at 88 KB: `circuitpython mpy heapsize N peak BYTES frames F`; then the
   smallest cap it completes under, the peaks by phase and what importing each module needs.
3. tools/vm/cpapp.py: the bytes each frame of the main loop allocates (idle frames: none) and each
   screen's frame time, also estimated for a SAMD51; then `board waits (SAMD51 estimate): bot
   turn max N ms, hint max N ms, longest frame N ms` and the longest wait with no sign on the
   screen or the LEDs (the frames in which a bot plans its turn or the hint is found, this VM's
   time x the SAMD51 factor; host_tests/test_waits.py holds the budgets on counted work).

The figures of 2 and 3 (not the times, which vary from run to run) are written into
docs/memory.md. --cap-kb lowers or raises the cap (the check fails once it is below what the app
needs). Exits 1 if any check fails. Where the VM is missing (a user's fresh machine) each check
prints one line saying so and the command exits 0: `make test` still runs everything else.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from tools import cli
from tools.flash import deploy
from tools.vm import cpapp, cpvm

ROOT = cpvm.ROOT

# The engine check runs under the cap the whole app must meet (docs/memory.md).
ENGINE_HEAP_KB = cpapp.CAP_KB


def engine_check():
    """Runs tools/vm/cp_engine_check.py on the engine compiled to .mpy; returns True if it passes
    (or is skipped)."""
    if cpvm.missing(compiler=True):
        print("circuitpython engine: " + cpvm.missing(compiler=True))
        return True
    tmp = tempfile.mkdtemp(prefix="cp-engine-")
    try:
        # Every engine module as CircuitPython's mpy-cross compiles it (the board's own build
        # folds constants too, and leaves out the desktop's modules this check's loop needs).
        os.mkdir(os.path.join(tmp, "engine"))
        for src in sorted((ROOT / "engine").iterdir()):
            out = os.path.join(tmp, "engine", src.stem + ".mpy")
            if src.suffix == ".py":
                subprocess.run([str(cpvm.mpy_cross()), *deploy.MPY_FLAGS, "-o", out, "-s",
                                "engine/" + src.name, str(src)], check=True, capture_output=True)
            elif src.suffix == ".bin":  # the learned tables engine.ntuple reads
                shutil.copy(src, os.path.join(tmp, "engine"))
        r = cpvm.run(ROOT / "tools" / "vm" / "cp_engine_check.py", paths=[tmp],
                     heap_kb=ENGINE_HEAP_KB)
    finally:
        shutil.rmtree(tmp)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode == 0


def main(argv=None):
    ap = cli.Parser(prog="python -m tools.vm cpcheck",
                    description="The game on CircuitPython 10's own VM.")
    ap.add_argument("--cap-kb", type=cli.whole(1, 1024), default=cpapp.CAP_KB,
                    help="the app's cap in KB (default %(default)d)")
    ap.add_argument("--no-frames", action="store_true",
                    help="skip the allocation and time of every frame")
    ap.add_argument("--no-doc", action="store_true",
                    help="don't write the figures into docs/memory.md")
    ap.add_argument("--wanders", type=cli.whole(1, 1000), default=cpapp.WANDERS, metavar="N",
                    help="the random sessions played under the floor's cap: seeds 1 to N "
                    "(default %(default)d)")
    ap.add_argument("--layouts", action="store_true",
                    help="only the session's peak and cap in %d heap layouts, and every mode "
                    "played where the game says it plays (lnr.memory FLOOR_KB; docs/memory.md)"
                    % len(cpapp.LAYOUTS))
    args = ap.parse_args(argv)
    if args.layouts:
        floor = None if cpvm.missing(compiler=True) else cpapp.floor_cap()
        return 0 if cpapp.spread(args.cap_kb, out=lambda text: print(text, flush=True),
                                 floor_kb=floor) else 1
    ok = engine_check()
    sys.stdout.flush()

    def out(text):
        print(text, flush=True)

    ok = cpapp.check(args.cap_kb, frames=not args.no_frames,
                     doc=None if args.no_doc else cpapp.DOC, out=out,
                     wanders=args.wanders) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
