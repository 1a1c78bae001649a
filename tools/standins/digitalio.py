"""digitalio: DigitalInOut and Direction, as far as the neopixel library and the board profile
(the speaker's amplifier switched on, lnr/boards/pybadge.py) use them."""


class Direction:
    INPUT = 0
    OUTPUT = 1


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT
        self.value = False

    def switch_to_output(self, value=False):
        self.direction = Direction.OUTPUT
        self.value = value

    def deinit(self):
        pass
