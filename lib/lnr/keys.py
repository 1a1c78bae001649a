"""Key numbers shared by the app and every board profile.

They are the PyBadge shift register's own numbers (docs/hardware.md), so the PyBadge profile hands
keypad's key_number straight through; other boards translate their inputs to these.
"""
try:
    from micropython import const
except ImportError:  # CPython without Blinka

    def const(x):
        return x


K_B = const(0)
K_A = const(1)
K_START = const(2)
K_SELECT = const(3)
K_RIGHT = const(4)
K_DOWN = const(5)
K_UP = const(6)
K_LEFT = const(7)

NAMES = ("B", "A", "START", "SELECT", "RIGHT", "DOWN", "UP", "LEFT")
