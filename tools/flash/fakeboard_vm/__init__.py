"""The Python side of the fake board (tools/flash/fakeboard_vm.mjs writes these files, with
tools/standins, into the VM's /tmp/_fb, outside CIRCUITPY): what makes the MicroPython VM look
like CircuitPython. Not importable on CPython (they run on the VM only)."""
