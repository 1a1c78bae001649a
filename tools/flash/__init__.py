"""Building the device tree and putting it on a board: over USB serial, on a mounted drive or
any folder (`make flash`); the fake board the flashing tests talk to.

One entry point: `python -m tools.flash` (__main__.py)."""
