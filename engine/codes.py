"""The small ints a game is told in: actions, phases of a turn, bends, headings, grid cells and
placement verdicts (docs/rules.md §2, §4). engine.state and engine.explain both need them."""
# They live apart from engine.state because engine.explain, which engine.state imports on first
# use only (its strings cost RAM), needs them too: neither imports the other at its top, so the
# pair is no import cycle. engine.state imports those it uses, so callers may take them there.
# Module docstrings are kept in RAM by MicroPython (not CircuitPython): the why is in comments.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Actions are small ints, so a device can list them cheaply. A turn is decided step by step; a
# forced step is still an action (its list has one entry) so that records see every step.
A_PASS = const(0)  # pass (§4)
A_STOP = const(1)  # end a build (roll its dice) or a chaos discard
A_BEND_L = const(2)  # the bend of the curve just laid (A_LAY)
A_BEND_R = const(3)
A_ROLL0 = const(4)  # chance: one die shows no wheel
A_ROLL1 = const(5)  # chance: one die shows a wheel
A_LAY = const(8)  # + card: lay a track or broken card; a curve then asks for A_BEND_L/R
A_CHAOS = const(64)  # + card: discard a chaos card (§4), one at a time in the chosen order
A_PILE = const(128)  # + card: put the next penalty card on the pile (§6), in the chosen order
A_END = const(183)  # every action is below this

# Phases of a turn.
P_TURN = const(0)  # choose the action: pass, lay a first card, discard a first chaos card
P_BEND = const(1)  # choose the bend of the curve card just picked
P_BUILD = const(2)  # lay another card of the build's value, or stop and roll
P_CHAOS = const(3)  # discard another chaos card, or stop
P_DICE = const(4)  # chance: roll the build's dice one by one
P_ORDER = const(5)  # put the penalty cards taken on the pile, one by one
P_OVER = const(6)  # the game has ended
P_SETUP = const(7)  # dealt, first turn not yet started (see State.start())
PHASE_NAMES = ("turn", "bend", "build", "chaos", "dice", "order", "over", "setup")

BEND_S = const(0)
BEND_L = const(1)
BEND_R = const(2)
BEND_NAMES = "SLR"

# A cell (x, y) of the grid is the int (x + 64) * 128 + y + 64: at most 50 track cards are ever
# laid in a game, so the track cannot drift out of that box. Headings are in screen coordinates
# (y grows downward), clockwise, so that a right turn adds 1.
EAST = const(0)
SOUTH = const(1)
WEST = const(2)
NORTH = const(3)
ORIGIN = const(8256)  # cell (0, 0)

# Why a placement fails (§2), as returned by State.fit().
FIT_OK = const(0)
FIT_SHAPE = const(1)  # §2.1
FIT_VALUE = const(2)  # §2.2
FIT_TAKEN = const(3)  # §2.3
FIT_BLOCKED = const(4)  # §2.4


def cell_xy(cell):
    """Returns the (x, y) grid coordinates of a cell code."""
    return (cell // 128 - 64, cell % 128 - 64)
