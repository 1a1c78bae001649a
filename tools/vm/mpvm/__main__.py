"""`python -m tools.vm.mpvm [--heap BYTES] [--pystack BYTES] [--tree HOSTDIR[:VMDIR]]... SCRIPT.py
[ARGS...]`: a script on MicroPython's VM (tools/vm/mpvm/run.mjs) through tools.vm.mpvm."""
import sys

from tools.vm import mpvm

sys.exit(mpvm.main())
