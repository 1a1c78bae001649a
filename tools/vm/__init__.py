"""MicroPython's and CircuitPython's VMs on the desktop, and the checks that run the engine and the
app on them (`make mpcheck`, `make cpcheck`, `make pystack`).

One entry point: `python -m tools.vm` (__main__.py)."""


class VmError(RuntimeError):
    """A script failed on a VM (tools/vm/cpvm.py, tools/vm/mpvm); `output`: the end of what it
    wrote (stdout, then stderr)."""

    def __init__(self, vm, what, output):
        RuntimeError.__init__(self, "%s failed on %s:\n%s" % (what, vm, output))
        self.output = output
