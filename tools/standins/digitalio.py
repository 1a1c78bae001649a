"""digitalio: DigitalInOut and Direction, as far as the neopixel library uses them."""


class Direction:
    INPUT = 0
    OUTPUT = 1


class DigitalInOut:
    def __init__(self, pin):
        self.direction = Direction.INPUT

    def deinit(self):
        pass
