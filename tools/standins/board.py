"""board: the pins and the display of a PyBadge; choose() makes it another board.

The pins are objects compared by identity, as the firmware's are (keypad checks it is given the
buttons' own). DISPLAY is the 160x128 screen: it keeps what the app sets and counts refresh().
"""
board_id = "pybadge"

# The PyBadge's pins the app or its tests may name (circuitpython-stubs' board definitions); the
# PyGamer has these and its stick's.
PYBADGE_PINS = ("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "NEOPIXEL", "SPEAKER",
                "SPEAKER_ENABLE", "LIGHT", "A0", "A1", "D13", "TFT_LITE")
PYGAMER_PINS = PYBADGE_PINS + ("JOYSTICK_X", "JOYSTICK_Y")


class Pin:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "board." + self._name


class Display:
    """The built-in display (displayio's BusDisplay as the app uses it)."""

    def __init__(self):
        self.width = 160
        self.height = 128
        self.auto_refresh = True
        self.root_group = None
        self.refreshes = 0

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        self.refreshes += 1
        return True


def choose(name):
    """Makes this board `name`: "pybadge" (also the LC and the EdgeBadge), "pygamer" (the stick's
    pins too: lnr.boards tells the boards apart by them) or any other board_id, which gets no
    pins at all (lnr.boards must refuse it)."""
    global board_id  # pylint: disable=global-statement
    board_id = name
    here = globals()
    for pin in PYGAMER_PINS:
        if pin in here:
            del here[pin]
    pins = {"pybadge": PYBADGE_PINS, "pygamer": PYGAMER_PINS}.get(name, ())
    for pin in pins:
        here[pin] = Pin(pin)


DISPLAY = Display()
choose(board_id)
