"""The desktop simulator (`make play`): the device app on Blinka's displayio in a pygame window or
headless, its board parts, and the key scripts that drive it.

One entry point: `python -m tools.sim` (__main__.py)."""
