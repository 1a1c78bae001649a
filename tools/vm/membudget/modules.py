"""The modules the board may import (tools/flash/imports.py's graph from code.py and boot.py: the
app, the engine and the shipped libraries) in an order where each comes after those it imports
at load: make cpcheck imports each on its own in this order (tools/vm/cpapp.py import_costs())."""
from pathlib import Path

from tools.flash import deploy, imports
from tools.vm.membudget import vmrun
from tools.standins import NAMES, UNDER_NEOPIXEL

ROOT = Path(vmrun.ROOT)
# Imported first, in this order, after their package: the modules the others lean on.
FIRST = ("lnr.keys", "lnr.leds", "lnr.storage")
# The C modules' stand-ins: all but neopixel's (the real library is measured, on the stand-ins
# of the C modules under it).
STANDINS = tuple(n for n in NAMES if n != "neopixel") + UNDER_NEOPIXEL


def _libraries():
    """Returns {module name: source Path} of the shipped libraries (tools/flash/deploy.py)."""
    return {deploy.module_name(rel): path for rel, path in deploy.third_party_files()}


def load_deps():
    """Returns {device module: the device modules it imports as it loads}, for every module of
    ours or of a library that the board may import; a package's submodule loads its package
    first, so the package is one of them."""
    libraries = _libraries()
    files = imports.module_files(ROOT)
    files.update(libraries)
    device = set(n for n in imports.reachable(ROOT, libraries) if n in files)
    if "lnr.main" not in device:  # code.py moved, or no longer starts the app
        raise SystemExit("membudget: code.py does not import lnr.main (tools/flash/imports.py)")
    g = imports.graph(ROOT, libraries, optional=True, at_load=True)
    deps = {}
    for name in device:
        found = set(m for m in g[name] if m in device and m != name)
        parent = name.rpartition(".")[0]
        if parent in device:
            found.add(parent)
        deps[name] = found
    return deps


def device_modules(with_libraries=False):
    """Returns the device modules in import order: libraries (if asked), the engine's, then
    lnr's, each after the ones it imports at load; the board profiles before the app, lnr.main
    last."""
    deps = load_deps()
    tops = set(imports.OUR_PACKAGES)

    def group(m):
        top = m.split(".")[0]
        return 0 if top not in tops else (1 if top == "engine" else 2)

    def rank(m):
        return (group(m), m == "lnr.main", m not in FIRST,
                FIRST.index(m) if m in FIRST else 0, m)

    order = []
    state = {}

    def visit(m):
        if state.get(m):
            return  # done, or on the stack: a cycle, taken as it comes
        state[m] = 1
        for d in sorted(deps.get(m, ()), key=rank):
            if d in deps:
                visit(d)
        order.append(m)

    for m in sorted(deps, key=rank):
        visit(m)
    if not with_libraries:
        order = [m for m in order if group(m)]
    return order
