"""adafruit_pixelbuf: PixelBuf, the firmware's base of the neopixel library, keeping nothing but
its buffer: setting pixels costs no heap, show() hands the buffer to the library's _transmit()."""


class PixelBuf:
    def __init__(self, n, *, byteorder="BGR", brightness=1.0, auto_write=False, **kwargs):
        self._n = n
        self._buf = bytearray(3 * n)
        self.brightness = brightness
        self.auto_write = auto_write

    def __len__(self):
        return self._n

    def __setitem__(self, i, value):
        if not -self._n <= i < self._n:
            raise IndexError("pixel index out of range")

    def fill(self, value):
        pass

    def show(self):
        self._transmit(self._buf)  # pylint: disable=no-member
