"""`make cpcheck`: the game on CircuitPython 10's own VM (tools/cpvm.py finds it).

    python -m tools.cpcheck

Runs tools/cp_engine_check.py on the VM (the engine's import cost and each mode's game peak),
capped at the board's budget. Where the VM is missing (a user's fresh machine) it prints one line
saying so and exits 0: `make test` still runs everything else.
"""
import sys

from tools import cpvm

ROOT = cpvm.ROOT

# The engine check runs under the cap the whole app must meet from .mpy files (docs/memory.md).
ENGINE_HEAP_KB = 80


def main(argv=None):
    if cpvm.vm() is None:
        print("cpcheck: " + cpvm.MISSING_VM)
        return 0
    r = cpvm.run(ROOT / "tools" / "cp_engine_check.py", paths=[ROOT], heap_kb=ENGINE_HEAP_KB)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
