"""analogio: AnalogIn, for the PyGamer's stick. A pin reads the values a test put in
`readings[pin]`, one a read, then the stick's middle (32768)."""
readings = {}  # board pin -> [readings to come]


class AnalogIn:
    def __init__(self, pin):
        self._pin = pin

    @property
    def value(self):
        left = readings.get(self._pin)
        return left.pop(0) if left else 32768

    def deinit(self):
        pass
