"""MicroPython's and CircuitPython's VMs on the desktop, and the checks that run the engine and the
app on them (`make mpcheck`, `make cpcheck`, `make pystack`).

One entry point: `python -m tools.vm` (__main__.py)."""
