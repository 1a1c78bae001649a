"""MicroPython's VM on the desktop (the WebAssembly port under Node, installed by `npm ci --prefix
tools/vm/mpvm`): whether it is here, and running a script on it. Every tool and test starts it
through this module (run(), start()); tools/vm/cpvm.py is CircuitPython's VM's twin.

run.mjs runs one script to its end (its header says what this port does differently). The fake
board of `make flash`'s tests (tools/flash/fakeboard_vm.mjs) is a second entry point into the
same VM, as it keeps a process alive across soft reboots; it loads the VM as run.mjs does
(load.mjs) and is started by node() here.

`make test` installs the VM before the tests run, so where it is missing (missing()), the tests
that need it fail with that one line rather than skip: a check that silently did not run is
worse than one that says what to install.
"""
import shutil
import subprocess
from pathlib import Path

from tools.vm import VmError

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
RUNNER = HERE / "run.mjs"
PACKAGE = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"

MISSING_NODE = "MicroPython's VM needs Node.js >= 18 on PATH (node not found)"
MISSING_VM = ("MicroPython's VM is not installed: `make test` installs it "
              "(npm ci --prefix tools/vm/mpvm)")


def missing():
    """Returns why the VM cannot run here, in one line, or None when it can."""
    if shutil.which("node") is None:
        return MISSING_NODE
    if not (PACKAGE / "micropython.mjs").is_file():
        return MISSING_VM
    return None


def node(entry, *args, js_gc=False):
    """Returns the command line that runs the Node program `entry` (run.mjs, the fake board's)
    with `args`, Node's own collector callable from the script as js.gc() if `js_gc`
    (tools/vm/membudget/vm/prelude.py); raises FileNotFoundError with missing()'s line where
    the VM cannot run."""
    why = missing()
    if why:
        raise FileNotFoundError(why)
    return ["node"] + (["--expose-gc"] if js_gc else []) + [str(entry)] + [str(a) for a in args]


def command(script, trees=(), args=(), heap=None, pystack=None, js_gc=False):
    """Returns the command line that runs a script file on the VM: `trees` are host folders
    copied into the VM's file system, each a path (to /NAME) or a pair (path, VM folder, as
    "/lib/lnr"); heap and pystack in bytes (run.mjs's defaults: 512 KiB, 8 KiB); js_gc as
    node()'s."""
    options = []
    if heap is not None:
        options += ["--heap", heap]
    if pystack is not None:
        options += ["--pystack", pystack]
    for tree in trees:
        options += ["--tree", "%s:%s" % tuple(tree) if isinstance(tree, tuple) else tree]
    return node(RUNNER, *options, script, *args, js_gc=js_gc)


def run(script, trees=(), args=(), timeout=600, cwd=ROOT, **options):
    """Runs a script file on the VM (command()'s arguments and `options`: heap, pystack, js_gc)
    from `cwd` (relative trees and scripts are the repository's) and returns the
    CompletedProcess (text)."""
    return subprocess.run(command(script, trees, args, **options), cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def output(script, trees=(), args=(), timeout=600, cwd=ROOT, **options):
    """Returns the stdout of run(); raises VmError, with the end of its output, if the script
    fails (its exit status is not 0)."""
    r = run(script, trees, args, timeout, cwd, **options)
    if r.returncode:
        raise VmError("MicroPython's VM", "%s (exit %d)" % (script, r.returncode),
                      r.stdout[-3000:] + r.stderr)
    return r.stdout


def start(script, trees=(), args=(), cwd=ROOT, **options):
    """Starts a script on the VM as run() does and returns the Popen, its stdout and stderr text
    pipes: runs side by side (tools/bots/bench.py)."""
    return subprocess.Popen(command(script, trees, args, **options), cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
