"""microcontroller: nvm, the 8192 bytes of non-volatile memory, and reset().

`nvm` is as strict as the board's: a slice takes bytes of its own length and no step, a byte
0..255; erased, it reads 0xFF. `writes` counts assignments. reset() ends the program; the fake
board sets `on_reset` to restart its VM as a board restarts.
"""
NVM_SIZE = 8192  # on the PyBadge and PyGamer: one flash erase block (docs/hardware.md)
on_reset = None


class RunMode:
    NORMAL = 0
    SAFE_MODE = 1
    UF2 = 2
    BOOTLOADER = 3


class Nvm:
    def __init__(self, size=NVM_SIZE, data=b""):
        """`data`: the bytes it starts with (the stand-in's own; erased after them)."""
        self._data = bytearray(b"\xff" * size)
        data = data[:size]
        self._data[:len(data)] = data
        self.writes = 0

    def __len__(self):
        return len(self._data)

    def _span(self, s):
        # (start, stop) of a slice, clipped as a list's: MicroPython has no slice.indices().
        if s.step is not None and s.step != 1:
            raise ValueError("nvm slices take no step")
        n = len(self._data)
        start = 0 if s.start is None else s.start
        stop = n if s.stop is None else s.stop
        if start < 0:
            start += n
        if stop < 0:
            stop += n
        start = min(max(start, 0), n)
        return start, min(max(stop, start), n)

    def __getitem__(self, i):
        if isinstance(i, slice):
            start, stop = self._span(i)
            return self._data[start:stop]  # one new bytearray, as the board's nvm returns
        return self._data[i]

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            start, stop = self._span(i)
            # No copy of `value`: the board writes it to flash from where it is (a copy here
            # would charge the app 8 KB of heap that a board never allocates).
            if len(value) != stop - start:
                raise ValueError("slice and value different lengths")
            self._data[start:stop] = value
        else:
            if not 0 <= value <= 255:
                raise ValueError("nvm bytes are 0..255")
            self._data[i] = value  # IndexError out of range
        self.writes += 1

    def data(self):
        """Returns a copy of all the bytes (the stand-in's own)."""
        return bytes(self._data)

    def view(self):
        """Returns the bytes without a copy (a memoryview): a harness that reads them at the
        end of a capped run must not need 8 KB of heap in one piece that a board never
        allocates."""
        return memoryview(self._data)


nvm = Nvm()


def on_next_reset(run_mode):
    pass


def reset():
    if on_reset is not None:
        on_reset()
    raise SystemExit(0)
