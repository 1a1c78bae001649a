"""`python -m tools.vm cpcheck|mpcheck|pystack [ARGS...]`: microPython's and CircuitPython's VMs on
the desktop, and the checks that run the engine and the app on them (`make mpcheck`, `make
cpcheck`, `make pystack`).

    cpcheck  python -m tools.vm.cpcheck
    mpcheck  python -m tools.vm.mpvm --tree engine tools/vm/mpcheck.py [--speed]
    pystack  python -m tools.vm.pystack
    waits    python -m tools.vm.waits
"""
import sys

from tools.commands import dispatch

COMMANDS = {
    "cpcheck": "tools.vm.cpcheck",
    "mpcheck": [sys.executable, "-m", "tools.vm.mpvm", "--tree", "engine", "tools/vm/mpcheck.py"],
    "pystack": "tools.vm.pystack",
    "waits": "tools.vm.waits",
}

dispatch("vm", COMMANDS, __doc__)
