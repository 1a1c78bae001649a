"""CircuitPython 10's own VM and mpy-cross on the desktop: where they are, and running them.

The checks that need them (make cpcheck, the CircuitPython tests, the deploy's proof that its
.mpy files are CircuitPython's) take them from the environment:

    CIRCUITPYTHON_VM=/path/to/circuitpython        the unix port, built 32-bit (docs/hardware.md)
    CIRCUITPYTHON_MPY_CROSS=/path/to/mpy-cross     CircuitPython's compiler

and otherwise from the `circuitpython/bin/` folder that the project's machines keep beside the
clone (a workplace convention, named once here: BESIDE). A user's fresh machine has neither:
every check that needs them prints one line (missing(): MISSING_VM / MISSING_MPY_CROSS) and
skips. Every tool and test starts the VM through this module (run(), output(), start());
tools/vm/mpvm is MicroPython's VM's twin.
docs/hardware.md says how to build both from CircuitPython's source.
"""
import functools
import os
import platform
import re
import shutil
import subprocess
from pathlib import Path

from tools.cli import CliError
from tools.vm import VmError

ROOT = Path(__file__).resolve().parent.parent.parent

# Where the project's own machines (developers', CI's) keep CircuitPython's desktop build.
BESIDE = ROOT.parent / "shared" / "circuitpython" / "bin"

# The unix port's coverage variant this VM is built from (its README) gives -X heapsize as
# MICROPY_GC_SPLIT_HEAP_N_HEAPS equal areas; a board's heap grows area by area on demand.
SPLIT_HEAPS = 4

MISSING_VM = ("CircuitPython's VM not found (set CIRCUITPYTHON_VM; docs/hardware.md says how to "
              "build it): skipped")
MISSING_MPY_CROSS = ("CircuitPython's mpy-cross not found (set CIRCUITPYTHON_MPY_CROSS; "
                     "docs/hardware.md says how to build it): skipped")


def _find(env, name):
    given = os.environ.get(env)
    if given:
        p = Path(given)
        if not p.is_file():  # the user's setting: bad input, said in one line (tools/commands.py)
            raise CliError("%s=%s: no such file (unset it, or name the file: docs/hardware.md)"
                           % (env, given))
        return p
    p = BESIDE / name
    return p if p.is_file() else None


def vm():
    """Returns the Path of CircuitPython's VM, or None."""
    return _find("CIRCUITPYTHON_VM", "circuitpython")


def mpy_cross():
    """Returns the Path of CircuitPython's mpy-cross, or None."""
    return _find("CIRCUITPYTHON_MPY_CROSS", "mpy-cross")


def missing(compiler=False):
    """Returns the one line that says what a check lacks (MISSING_VM; MISSING_MPY_CROSS too if
    `compiler`), or None when it has the VM (and mpy-cross)."""
    if vm() is None:
        return MISSING_VM
    if compiler and mpy_cross() is None:
        return MISSING_MPY_CROSS
    return None


def command(script, paths=(), heap_kb=None, args=(), heap_bytes=None, under=()):
    """Returns (the command line, the environment) that runs a script file on CircuitPython's
    VM as run() does (its arguments are run()'s)."""
    exe = vm()
    if exe is None:
        raise FileNotFoundError(MISSING_VM)
    cmd = [str(exe)]
    if heap_bytes:
        cmd += ["-X", "heapsize=%d" % heap_bytes]
    elif heap_kb:
        cmd += ["-X", "heapsize=%dK" % heap_kb]
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(str(p) for p in paths))
    return (fixed_addresses() + list(under) + cmd + [str(script)] + [str(a) for a in args],
            env)


def run(script, paths=(), heap_kb=None, args=(), timeout=600, cwd=None, heap_bytes=None,
        under=()):
    """Runs a script file on CircuitPython's VM with `paths` on sys.path (after the script's
    own folder, as on the unix port; through MICROPYPATH, which replaces the port's defaults)
    and returns the CompletedProcess (text). heap_kb (or heap_bytes, to the byte) caps the heap
    (-X heapsize): an app that does not fit raises MemoryError there, fragmentation included.
    This build splits the heap into 4 equal areas (SPLIT_HEAPS): no single allocation can
    take more than a quarter of it. `under`: a command that runs the VM in its turn (a
    profiler: tools/bots/cost.py)."""
    cmd, env = command(script, paths, heap_kb, args, heap_bytes, under)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=env)


def output(script, paths=(), heap_kb=None, args=(), timeout=600, cwd=None, heap_bytes=None):
    """Returns the stdout of run(); raises VmError, with the end of its output, if the script
    fails (its exit status is not 0)."""
    r = run(script, paths, heap_kb, args, timeout, cwd, heap_bytes)
    if r.returncode:
        raise VmError("CircuitPython's VM", "%s (exit %d)" % (script, r.returncode),
                      r.stdout[-3000:] + r.stderr)
    return r.stdout


def start(script, paths=(), args=(), under=(), cwd=None):
    """Starts a script on the VM as run() does and returns the Popen, its stdin, stdout and
    stderr text pipes: a run that is talked to while it runs (tools/vm/waits.py)."""
    cmd, env = command(script, paths, args=args, under=under)
    return subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


# The VM hashes an object with no __hash__ of its own by its address, so the order of a dict or
# set keyed by such objects follows where the heap lies, which the kernel randomizes for every
# process: the same session under the same cap ran out of it in a few runs of a thousand and
# fitted in the rest, a failure no one could reproduce. Each run gets the same addresses
# instead, as a board's heap always lies at the same place (the heap layouts are sampled on
# purpose: tools/vm/cpapp.py spread()). Where setarch is missing or may not turn randomization
# off, runs go as before.
@functools.lru_cache(maxsize=None)
def fixed_addresses():
    """Returns the command prefix that runs a process with address randomization off (util-linux
    setarch -R), or [] where that is not possible."""
    exe = shutil.which("setarch")
    prefix = [exe, platform.machine(), "-R"] if exe else []
    if prefix and subprocess.run(prefix + ["true"], capture_output=True).returncode:
        return []
    return prefix


# Interns each name read from a file (the script's own names are interned compiling it, so
# the names to try must not be in its text); prints the name pools before and after each.
_ROM_PROBE = """
import micropython
import sys

with open(sys.argv[1]) as f:
    names = f.read().split()
for name in names:
    micropython.qstr_info()
    getattr(0, name, None)  # interns the name if the VM does not hold it yet
    micropython.qstr_info()
"""


def not_in_rom(names, tmp):
    """Returns the names of `names` the VM does not hold in ROM (a name it lacks adds one to
    n_qstr when getattr() interns it), using the folder `tmp`; raises ValueError if the probe's
    output is not one pool reading before and after each name."""
    tmp = Path(tmp)
    (tmp / "names.txt").write_text("\n".join(names))
    script = tmp / "rom_probe.py"
    script.write_text(_ROM_PROBE)
    r = run(script, args=[tmp / "names.txt"], cwd=tmp)
    counts = [int(n) for n in re.findall(r"n_qstr=(\d+)", r.stdout)]
    if len(counts) != 2 * len(names):
        raise ValueError("the ROM probe printed otherwise:\n" + r.stdout + r.stderr)
    return [name for i, name in enumerate(names) if counts[2 * i + 1] != counts[2 * i]]
