"""What `best`'s decisions cost on CircuitPython's VM, counted in instructions rather than timed:
the measure of a change that makes the search cheaper (issue 26: the same search with less work).

    python -m tools.bots cost [--mode solo] [--games 2] [--skip 0]

Plays --games seeds of the reported range (tools/bots/seeds.py, after its first --skip) with
`best` on CircuitPython 10's VM (tools/vm/cpvm.py, tools/bots/cost_cp.py) under valgrind's
callgrind, which counts the instructions the VM executes: the same count, within a few parts in
a million, on every run and whatever else the machine does, where a decision's time on this VM
moves by a tenth from one run to the next. A run with no game counts the VM's start and imports,
taken off. Prints the decisions, the work they counted (engine.lookahead units), the
instructions and the instructions a unit of work, and a digest of the actions chosen: a change
that should leave every decision alike shows the same digest and work, and its cost in the
instructions. Counts are x86's, not a SAMD51's: compare two versions, not a count with a time.

One line and exit status 2 on bad arguments; one line and exit status 0 ("skipped") where the
VM or valgrind is missing; one line and exit status 1 where the VM's run fails.
"""
import os
import re
import shutil
import sys

from tools import cli
from tools.bots import bench
from tools.bots import seeds as seed_ranges
from tools.vm import cpvm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tools", "bots", "cost_cp.py")
HEAP_KB = 512  # fixed, so that two versions' counts compare (the collector runs as it fills)
_TOTAL = re.compile(r"Collected : (\d+)")


def count(mode, first, games):
    """Returns (instructions, {"decisions": N, "work": W, "digest": D}) of one VM run of
    cost_cp.py under callgrind. Raises RuntimeError if the run fails."""
    valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    r = cpvm.run(SCRIPT, paths=[ROOT], heap_kb=HEAP_KB, args=[mode, first, games],
                 timeout=3600, under=valgrind)
    total = _TOTAL.search(r.stderr)
    if r.returncode != 0 or total is None:
        # The VM's own last words (it prints a traceback on stdout), not valgrind's (==pid==).
        said = [line for line in (r.stdout + r.stderr).splitlines() if line.strip() and not
                line.startswith("==")]
        raise RuntimeError("cost: the VM run failed: "
                           + (said[-1] if said else "exit status %d" % r.returncode))
    fields = dict(item.split("=") for item in r.stdout.split() if "=" in item)
    return int(total.group(1)), {k: int(v) for k, v in fields.items()}


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bots cost", description=__doc__.split("\n")[0])
    parser.add_argument("--mode", default="solo", choices=bench.MODES)
    parser.add_argument("--games", type=cli.whole(1, len(seed_ranges.REPORTED)), default=2)
    parser.add_argument("--skip", type=cli.whole(0, len(seed_ranges.REPORTED)), default=0)
    args = parser.parse_args(argv)
    try:
        seeds = seed_ranges.take("reported", args.games, args.skip)
    except ValueError as e:
        parser.error(str(e))
    if cpvm.missing():
        print("cost: skipped: " + cpvm.missing())
        return 0
    if shutil.which("valgrind") is None:
        print("cost: skipped: valgrind not found (Debian's package valgrind)")
        return 0
    try:
        start, _ = count(args.mode, seeds.start, 0)
        total, got = count(args.mode, seeds.start, args.games)
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    spent = total - start
    print("best in %s, reported seeds %d-%d: %d decisions, %d units of work, digest %d"
          % (args.mode, seeds.start, seeds.stop - 1, got["decisions"], got["work"],
             got["digest"]))
    print("CircuitPython's VM under callgrind: %d instructions for the games (%d less the "
          "run's start, %d), %d a unit of work"
          % (spent, total, start, spent // max(1, got["work"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
