"""neopixel: NeoPixel, the library's strip, as strict as the library: a colour is an (r, g, b) of
0..255 ints or a 0xRRGGBB int, an index an int in range (negative from the end).

Nothing lights: show() keeps what it would send (`shown`, the colours before brightness) and
counts (`shows`). A user that runs the real library instead installs UNDER_NEOPIXEL (this
package's __init__).
"""


class NeoPixel:
    def __init__(self, pin, n, *, bpp=3, brightness=1.0, auto_write=True, pixel_order=None):
        self.pin = pin
        self.n = n
        self._buf = [(0, 0, 0)] * n
        self.shown = tuple(self._buf)
        self.shows = 0
        self.auto_write = auto_write
        self._brightness = 1.0
        self.brightness = brightness

    def __len__(self):
        return self.n

    def _index(self, i):
        if type(i) is not int:
            raise TypeError("pixel index must be an int")
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("pixel index %d out of range 0..%d" % (i, self.n - 1))
        return i

    @staticmethod
    def _colour(value):
        if type(value) is int:
            if not 0 <= value <= 0xFFFFFF:
                raise ValueError("colour 0x%x is not 0xRRGGBB" % value)
            return (value >> 16, (value >> 8) & 255, value & 255)
        if type(value) not in (tuple, list) or len(value) != 3:
            raise ValueError("colour must be (r, g, b) or 0xRRGGBB")
        for c in value:
            if type(c) is not int or not 0 <= c <= 255:
                raise ValueError("colour component %s is not an int 0..255" % (c,))
        return tuple(value)

    def __setitem__(self, i, value):
        self._buf[self._index(i)] = self._colour(value)
        if self.auto_write:
            self.show()

    def __getitem__(self, i):
        return self._buf[self._index(i)]

    def fill(self, value):
        colour = self._colour(value)
        for i in range(self.n):
            self._buf[i] = colour
        if self.auto_write:
            self.show()

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        self._brightness = min(max(float(value), 0.0), 1.0)

    def show(self):
        self.shown = tuple(self._buf)
        self.shows += 1

    def deinit(self):
        pass
