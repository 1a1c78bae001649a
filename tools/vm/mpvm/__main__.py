"""`python -m tools.vm.mpvm [--heap BYTES] [--pystack BYTES] [--tree HOSTDIR[:VMDIR]]... SCRIPT.py
[ARGS...]`: a script on MicroPython's VM (tools/vm/mpvm/run.mjs) through tools.vm.mpvm; where the
VM is missing, one line and exit status 2."""
import subprocess
import sys

from tools.vm import mpvm

try:
    command = mpvm.node(mpvm.RUNNER, *sys.argv[1:])
except FileNotFoundError as e:
    print("mpvm: %s" % e, file=sys.stderr)
    sys.exit(2)
sys.exit(subprocess.call(command, cwd=mpvm.ROOT))
