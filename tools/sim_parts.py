"""Stand-ins for the board parts Blinka lacks (docs/hardware.md, Desktop simulation): NeoPixels,
microcontroller.nvm, and the `board`, `neopixel`, `supervisor`, `storage` modules.

Everything else the app uses is real: Blinka's displayio, terminalio and micropython, and the
pinned libraries the board gets (adafruit_display_text's bitmap_label for the menus' text,
adafruit_ticks; requirements/device.txt). The stand-ins are strict where the device is strict, so that a mistake shows
up on the desktop first: an NVM slice must be assigned bytes of its own length, a pixel takes
an (r, g, b) tuple of 0..255 ints or a 0xRRGGBB int.
"""
import os
import sys
import types

NVM_SIZE = 256  # microcontroller.nvm on the PyBadge and PyGamer (docs/hardware.md)


class SimPixels:
    """A NeoPixel strip: set pixels, then show(). Remembers what show() last sent and counts
    the calls; `on_show` (if set) is called after each show()."""

    def __init__(self, n, brightness=1.0, auto_write=False):
        self.n = n
        self._buf = [(0, 0, 0)] * n
        self.shown = tuple(self._buf)  # the colours as set, before brightness
        self.shows = 0
        self.auto_write = auto_write
        self._brightness = 1.0
        self.brightness = brightness
        self.on_show = None

    def __len__(self):
        return self.n

    def _index(self, i):
        if not isinstance(i, int):
            raise TypeError("pixel index must be an int, not %s" % type(i).__name__)
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("pixel index %d out of range 0..%d" % (i, self.n - 1))
        return i

    @staticmethod
    def _colour(value):
        if isinstance(value, int):
            if not 0 <= value <= 0xFFFFFF:
                raise ValueError("colour 0x%x is not 0xRRGGBB" % value)
            return (value >> 16, (value >> 8) & 255, value & 255)
        if not isinstance(value, (tuple, list)) or len(value) != 3:
            raise ValueError("colour must be (r, g, b) or 0xRRGGBB, not %r" % (value,))
        for c in value:
            if not isinstance(c, int) or not 0 <= c <= 255:
                raise ValueError("colour component %r is not an int 0..255" % (c,))
        return tuple(value)

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            idx = range(*i.indices(self.n))
            if len(value) != len(idx):
                raise ValueError("%d colours for %d pixels" % (len(value), len(idx)))
            for j, v in zip(idx, value):
                self._buf[j] = self._colour(v)
        else:
            self._buf[self._index(i)] = self._colour(value)
        if self.auto_write:
            self.show()

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self._buf[i]
        return self._buf[self._index(i)]

    def fill(self, value):
        self._buf = [self._colour(value)] * self.n
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
        if self.on_show is not None:
            self.on_show()

    def deinit(self):
        pass


class SimNvm:
    """microcontroller.nvm: 256 bytes, reading 0xFF when erased as fresh flash does. With a
    `path`, the bytes live in that file and every assignment writes it through, as each slice
    assignment on the board erases and rewrites flash. `writes` counts assignments."""

    def __init__(self, path=None, size=NVM_SIZE):
        self.path = path
        self._data = bytearray(b"\xff" * size)
        self.writes = 0
        self.on_write = None
        if path and os.path.exists(path):
            with open(path, "rb") as f:
                old = f.read(size)
            self._data[: len(old)] = old

    def __len__(self):
        return len(self._data)

    def __getitem__(self, i):
        if isinstance(i, slice):
            if i.step not in (None, 1):
                raise ValueError("nvm slices take no step")
            return bytearray(self._data[i])
        return self._data[i]

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            if i.step not in (None, 1):
                raise ValueError("nvm slices take no step")
            start, stop, _ = i.indices(len(self._data))
            value = bytes(value)  # TypeError for anything not bytes-like, as on the board
            if len(value) != max(stop - start, 0):
                raise ValueError("slice and value different lengths")
            self._data[start:stop] = value
        else:
            if not 0 <= value <= 255:
                raise ValueError("nvm bytes are 0..255")
            self._data[i] = value  # IndexError out of range
        self.writes += 1
        if self.path:
            with open(self.path, "wb") as f:
                f.write(self._data)
        if self.on_write is not None:
            self.on_write()

    def data(self):
        """Returns a copy of all the bytes."""
        return bytes(self._data)


def install(hw):
    """Makes `import board/neopixel/supervisor/storage` and microcontroller.nvm work in the
    simulator, pointing at `hw`'s parts. Only what Blinka lacks is replaced. Returns a
    function that puts everything back (so one test's stand-ins never leak into another)."""
    saved_modules = {name: sys.modules.get(name)
                     for name in ("board", "neopixel", "supervisor", "storage")}
    undo_attrs = []  # (object, name, old value or _MISSING)

    def set_attr(obj, name, value):
        undo_attrs.append((obj, name, getattr(obj, name, _MISSING)))
        setattr(obj, name, value)

    try:
        import board  # Blinka's: has no DISPLAY, NEOPIXEL or buttons; may refuse this host
    except (ImportError, NotImplementedError, RuntimeError):
        board = types.ModuleType("board")
        board.board_id = "sim"
        sys.modules["board"] = board
    set_attr(board, "DISPLAY", hw.display)
    for pin in ("NEOPIXEL", "BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH"):
        set_attr(board, pin, "sim." + pin)

    import microcontroller  # Blinka's, without nvm

    set_attr(microcontroller, "nvm", hw.nvm)

    neopixel = types.ModuleType("neopixel")
    neopixel.RGB = "RGB"
    neopixel.GRB = "GRB"

    def NeoPixel(pin, n, *, brightness=1.0, auto_write=True, pixel_order=None, bpp=3):
        if n > len(hw.pixels):
            raise ValueError("the simulator draws %d pixels" % len(hw.pixels))
        hw.pixels.brightness = brightness
        hw.pixels.auto_write = auto_write
        return hw.pixels

    neopixel.NeoPixel = NeoPixel
    sys.modules["neopixel"] = neopixel

    supervisor = types.ModuleType("supervisor")
    supervisor.ticks_ms = hw.ticks_ms
    supervisor.runtime = types.SimpleNamespace(
        autoreload=False, serial_connected=False, usb_connected=False)
    supervisor.reload = lambda: None
    sys.modules["supervisor"] = supervisor

    storage = types.ModuleType("storage")
    storage.remount = lambda path, readonly=False, **kw: None
    storage.disable_usb_drive = lambda: None
    storage.enable_usb_drive = lambda: None
    sys.modules["storage"] = storage

    def uninstall():
        for obj, name, old in reversed(undo_attrs):
            if old is _MISSING:
                delattr(obj, name)
            else:
                setattr(obj, name, old)
        for name, mod in saved_modules.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod

    return uninstall


_MISSING = object()
