"""The RAM the `best` bot's weights take on CircuitPython's VM (the board's heap, issue 26: at
most 4 KB).

    python -m tools.bots weights-ram [--module engine/ai_weights.py]
    python -m tools.bots weights-ram --module engine/ntuple_solo.bin   (issue 39's tables)

Compiles the weights module with CircuitPython's mpy-cross as the board gets it (.mpy, the
deploy's flags), imports it on CircuitPython 10's VM (tools/vm/cpvm.py) between two collections
and prints one line:

    weights module=M B one_table=T B

M: the live heap the whole module adds (every mode's table); T: what stays once only one
mode's table is kept and the module dropped, as the device holds it during a game
(engine.bots.weights, lnr/play/plan.py). For a tables file (train --eval ntuple's), what a
decision holds of it as engine.ntuple tables() reads it on that VM:

    tables one_phase=P B two_phases=Q B

P: a decision within one phase of the game (one block); Q: one whose next turn is in the next
phase (two blocks: the most a decision reads). One line and exit status 2 where the module is
missing or not a weights module; one line and exit status 0 ("skipped") where the VM is; one
line and exit status 1 where its run fails.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from tools import cli
from tools.bots import ntrain, tune
from tools.flash.deploy import MPY_FLAGS
from tools.vm import cpvm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SCRIPT = """
import gc
import sys
gc.collect()
gc.collect()
a0 = gc.mem_alloc()
import wts
gc.collect()
a1 = gc.mem_alloc()
keep = wts.SOLO
del wts
del sys.modules["wts"]
gc.collect()
a2 = gc.mem_alloc()
print("weights module=%d B one_table=%d B" % (a1 - a0, a2 - a0))
"""


_TABLES_SCRIPT = """
import gc
import sys
from engine import ntuple
ntuple.path = lambda mode: sys.argv[1]
gc.collect()
a0 = gc.mem_alloc()
one = ntuple.tables(0, 20)
gc.collect()
a1 = gc.mem_alloc()
one = None
gc.collect()
a2 = gc.mem_alloc()
two = ntuple.tables(0, 15)
gc.collect()
print("tables one_phase=%d B two_phases=%d B" % (a1 - a0, gc.mem_alloc() - a2))
"""


def measure_tables(path):
    """Returns the line of a tables file's RAM on CircuitPython's VM, or None without it."""
    if cpvm.missing():
        return None
    tmp = tempfile.mkdtemp(prefix="weights-ram-")
    try:
        script = os.path.join(tmp, "measure.py")
        with open(script, "w") as f:
            f.write(_TABLES_SCRIPT)
        r = cpvm.run(script, paths=[ROOT], cwd=tmp, args=[os.path.abspath(path)])
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip() or r.stdout.strip())
        return r.stdout.strip().splitlines()[-1]
    finally:
        shutil.rmtree(tmp)


def measure(module):
    """Returns (module bytes, one table's bytes) on CircuitPython's VM, or None without it."""
    if cpvm.missing(compiler=True):
        return None
    tmp = tempfile.mkdtemp(prefix="weights-ram-")
    try:
        subprocess.run([str(cpvm.mpy_cross()), *MPY_FLAGS, "-o", os.path.join(tmp, "wts.mpy"),
                        "-s", "wts.py", module], check=True, capture_output=True)
        script = os.path.join(tmp, "measure.py")
        with open(script, "w") as f:
            f.write(_SCRIPT)
        r = cpvm.run(script, paths=[tmp], cwd=tmp)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip())
        fields = dict(item.split("=") for item in r.stdout.split() if "=" in item)
        return int(fields["module"]), int(fields["one_table"])
    finally:
        shutil.rmtree(tmp)


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bots weights-ram",
                        description=__doc__.split("\n")[0])
    parser.add_argument("--module", default=tune.OUT,
                        help="a weights module (tune's, train's) or train --eval ntuple's tables")
    args = parser.parse_args(argv)
    tables = ntrain.made_by_ntrain(args.module)
    try:
        if tables:  # engine.ntuple's tables (issue 39)
            ntrain.read_tables(args.module)
        else:
            tune.read_weights(args.module)
    except cli.CliError as e:
        parser.error(str(e))
    try:
        if tables:
            line = measure_tables(args.module)
            if line is not None:
                print(line)
                return 0
            got = None
        else:
            got = measure(args.module)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        print("weights-ram: the VM run failed: %s" % " ".join(
            (getattr(e, "stderr", None) or str(e) or "").split())[-300:], file=sys.stderr)
        return 1
    if got is None:
        print("weights-ram: skipped: " + cpvm.MISSING_VM)
        return 0
    print("weights module=%d B one_table=%d B" % got)
    return 0


if __name__ == "__main__":
    sys.exit(main())
