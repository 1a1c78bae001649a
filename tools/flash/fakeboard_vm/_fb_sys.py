"""sys as CircuitPython's: implementation.name 'circuitpython' with the board's version."""
from sys import *  # noqa: F401,F403 pylint: disable=wildcard-import,unused-wildcard-import
import sys as _s

modules = _s.modules
path = _s.path
argv = _s.argv


class Implementation:
    """sys.implementation as CircuitPython 10 shows it (the board's version and machine)."""

    def __init__(self, version, machine):
        self.name = "circuitpython"
        self.version = version
        self._machine = machine
        self._mpy = 0

    def __repr__(self):
        return "(name='circuitpython', version=%r, _machine=%r)" % (self.version, self._machine)


implementation = None
