"""Host-side tools, never copied to the device; one package per concern, each with one entry
point (`python -m tools.PKG`): flash (the device tree onto a board), sim (the desktop simulator),
vm (MicroPython's and CircuitPython's VMs and the checks on them), bots (bench, tune, review,
records), art (sprites, screenshots); standins (CircuitPython's built-ins off a board) serves
them all."""
