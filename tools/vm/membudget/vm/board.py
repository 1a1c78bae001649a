"""The board the app runs on in MicroPython's VM (vm/pystack.py, host_tests/test_app_micropython.py):
a display that draws nothing (its refreshes counted), five pixels, an 8 KB NVM, a folder for the
drive, and the session's keys one frame at a time."""
import os


class _Display:
    def __init__(self):
        self.root_group = None
        self.refreshes = 0  # a test counts the screen's refreshes (test_app_micropython.py)

    def refresh(self):
        self.refreshes += 1


class _Pixels:
    def __init__(self):
        self.p = [(0, 0, 0)] * 5
        self.brightness = 1.0

    def __len__(self):
        return 5

    def __setitem__(self, i, v):
        self.p[i] = v

    def show(self):
        pass


class Hw:
    """The board as the app sees it (lnr.boards): `frames` a key number or -1 per frame, fed
    into a keypad-like queue that allocates nothing; `seed` the first game's."""

    name = "vm"
    width = 160
    height = 128
    max_pixels = 5

    def __init__(self, frames, seed):
        self.frames = frames
        self.display = _Display()
        self.pixels = _Pixels()
        self.nvm = bytearray(b"\xff" * 8192)  # microcontroller.nvm: one 8 KB erase block
        self.drive = "/drive"  # a folder of the VM stands for CIRCUITPY, writable to the game
        self.drive_writable = True
        try:
            os.mkdir(self.drive)
        except OSError:
            pass
        self.seed = seed
        self.now = 0x1FFF0000
        self.i = 0
        self.queue = [0] * 80
        self.head = 0
        self.tail = 0
        self.idle = 0

    def ticks_ms(self):
        return self.now

    def next_key(self):
        if self.head == self.tail:
            return -1
        k = self.queue[self.head % 80]
        self.head += 1
        return k

    def wait_frame(self):
        if self.i < len(self.frames):
            k = self.frames[self.i]
            self.i += 1
            if k >= 0:
                if self.tail - self.head >= 64:
                    raise RuntimeError("key queue overflow at frame %d" % self.i)
                self.queue[self.tail % 80] = k
                self.tail += 1
        else:
            self.idle += 1
            if self.idle > 60 and self.head == self.tail:
                return False
        self.now = (self.now + 30) & 0x1FFFFFFF
        return True
