"""`make cpcheck`: the game on CircuitPython 10's own VM (tools/cpvm.py finds it).

    python -m tools.cpcheck [--mpy-kb 80] [--py-kb 112] [--smallest] [--no-frames]

1. tools/cp_engine_check.py: the engine's import cost and each mode's game peak, under the cap
   the whole app must meet from .mpy files.
2. tools/cpapp.py: the whole app plays membudget's session on the VM twice, from the .mpy files
   `make flash` writes (capped at 80 KB) and from the .py sources (128 KB); one line each,
   `circuitpython FORM heapsize N peak BYTES frames F`, then the peaks by phase.
3. tools/cpapp.py: the bytes each frame of the main loop allocates (idle frames: none) and each
   screen's frame time, also estimated for a SAMD51.

--mpy-kb / --py-kb lower or raise a cap (the check fails once it is below what the app needs),
--smallest bisects the smallest cap each form completes under. Exits 1 if any check fails.
Where the VM is missing (a user's fresh machine) each check prints one line saying so and the
command exits 0: `make test` still runs everything else.
"""
import argparse
import sys

from tools import cpapp, cpvm

ROOT = cpvm.ROOT

# The engine check runs under the cap the whole app must meet from .mpy files (docs/memory.md).
ENGINE_HEAP_KB = cpapp.CAPS_KB["mpy"]


def engine_check():
    """Runs tools/cp_engine_check.py; returns True if it passes (or is skipped)."""
    if cpvm.vm() is None:
        print("circuitpython engine: " + cpvm.MISSING_VM)
        return True
    r = cpvm.run(ROOT / "tools" / "cp_engine_check.py", paths=[ROOT], heap_kb=ENGINE_HEAP_KB)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode == 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.cpcheck",
                                 description="The game on CircuitPython 10's own VM.")
    ap.add_argument("--mpy-kb", type=int, default=cpapp.CAPS_KB["mpy"],
                    help="the .mpy run's cap in KB (default %(default)d)")
    ap.add_argument("--py-kb", type=int, default=cpapp.CAPS_KB["py"],
                    help="the .py run's cap in KB (default %(default)d)")
    ap.add_argument("--smallest", action="store_true",
                    help="bisect the smallest cap in KB each form completes under")
    ap.add_argument("--no-frames", action="store_true",
                    help="skip the allocation and time of every frame")
    args = ap.parse_args(argv)
    ok = engine_check()
    sys.stdout.flush()

    def out(text):
        print(text, flush=True)

    ok = cpapp.check({"mpy": args.mpy_kb, "py": args.py_kb}, smallest=args.smallest,
                     frames=not args.no_frames, out=out) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
