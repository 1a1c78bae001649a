"""The board parts Blinka lacks, for the simulator (docs/hardware.md, Desktop simulation): the
`board`, `neopixel`, `supervisor` and `storage` modules and microcontroller.nvm, taken from
tools/standins (the same stand-ins the VMs and the tests use), set to the simulator's own parts;
and the speaker: the app's sound player (hw.player, as a board profile makes it), here
tools/sim/audio.py's, through pygame's mixer in the window and into a log when headless.

Everything else the app uses is real: Blinka's displayio and micropython, and the pinned
library the board gets (adafruit_ticks; requirements/device.txt). The stand-ins are strict where the device is strict,
so that a mistake shows up on the desktop first: an NVM slice must be assigned bytes of its own
length, a pixel takes an (r, g, b) tuple of 0..255 ints or a 0xRRGGBB int.
"""
import os
import sys

from tools import standins
from tools.standins.microcontroller import NVM_SIZE, Nvm
from tools.standins.neopixel import NeoPixel

# The stand-ins the simulator installs; microcontroller stays Blinka's (its pins are Blinka's
# own business), only its nvm is ours.
INSTALLED = ("board", "neopixel", "supervisor", "storage")


class SimPixels(NeoPixel):
    """The one strip the simulator draws under the screen: the stand-in NeoPixel, on no pin."""

    def __init__(self, n, brightness=1.0, auto_write=False):
        super().__init__(None, n, brightness=brightness, auto_write=auto_write)


def read_nvm_file(path, size=NVM_SIZE):
    """Returns the NVM's bytes as the simulator starts with them from the file at `path` (and
    tools/bots/records.py reads them): its first `size` bytes, erased (0xFF) after a short file's
    end, as a cut while the board wrote its NVM would leave them. Reads no more than `size` bytes
    (a device such as /dev/zero never ends)."""
    with open(path, "rb") as f:
        data = f.read(size)
    return data + b"\xff" * (size - len(data))


def nvm_problem(path, force=False):
    """Returns why `path` can't be an NVM's file that a tool reads and writes (None if it can):
    a folder, a missing folder, or a file that is not an NVM's `size` bytes (one the tool would
    write the NVM over; `force`: it is read as an NVM cut short, and written over)."""
    if not path:
        return "an empty name"
    if os.path.exists(path) and not os.path.isfile(path):
        return "is a folder" if os.path.isdir(path) else "is not a file"
    if os.path.isfile(path) and os.path.getsize(path) != NVM_SIZE and not force:
        return ("holds %d bytes, not an NVM's %d: not the simulator's, not replaced (--force "
                "plays it as an NVM cut short and writes it whole)" % (
                    os.path.getsize(path), NVM_SIZE))
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "no folder %s" % folder
    return None


class SimNvm(Nvm):
    """The stand-in NVM; with a `path`, its bytes live in that file and every assignment writes
    it through, as each slice assignment on the board erases and rewrites flash. `on_write` (if
    set) is called after each assignment."""

    def __init__(self, path=None, size=NVM_SIZE):
        old = b""
        if path and os.path.exists(path):
            old = read_nvm_file(path, size)
        super().__init__(size, old)
        self.path = path
        self.on_write = None

    def __setitem__(self, i, value):
        super().__setitem__(i, value)
        if self.path:
            with open(self.path, "wb") as f:
                f.write(self.data())
        if self.on_write is not None:
            self.on_write()


def install(hw):
    """Makes `import board/neopixel/supervisor/storage` and microcontroller.nvm work in the
    simulator, pointing at `hw`'s parts: board.DISPLAY is its display, supervisor.ticks_ms its
    clock, microcontroller.nvm its NVM, and NeoPixel() hands out its one strip. Returns a
    function that puts everything back (so one test's stand-ins never leak into another)."""
    saved = {name: sys.modules.get(name) for name in INSTALLED}
    mods = standins.install(INSTALLED)
    mods["board"].DISPLAY = hw.display
    mods["supervisor"].ticks_ms = hw.ticks_ms

    def strip(pin, n, *, bpp=3, brightness=1.0, auto_write=True, pixel_order=None):
        if n > len(hw.pixels):
            raise ValueError("the simulator draws %d pixels" % len(hw.pixels))
        hw.pixels.brightness = brightness
        hw.pixels.auto_write = auto_write
        return hw.pixels

    mods["neopixel"].NeoPixel = strip
    import microcontroller  # Blinka's, without nvm

    had_nvm = hasattr(microcontroller, "nvm")
    old_nvm = getattr(microcontroller, "nvm", None)
    microcontroller.nvm = hw.nvm

    def uninstall():
        if had_nvm:
            microcontroller.nvm = old_nvm
        else:
            del microcontroller.nvm
        for name, mod in saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod

    return uninstall


def speaker(window=False, log=None, clock=None):
    """Returns the simulator's sound player for hw.player: in the window pygame's mixer at the
    board's rate (22050 Hz, 16-bit, mono; silent if no audio device opens), headless none but
    a log (`log`: a text file for `<ms> <name>` lines, `clock` the ms they carry)."""
    from tools.sim.audio import RATE, SimPlayer

    mixer = None
    if window:
        import pygame

        try:
            # pygame.init() (the window's) may have opened it at its defaults (44.1 kHz stereo):
            # the rendered effects are 22050 Hz mono samples.
            if pygame.mixer.get_init() not in (None, (RATE, -16, 1)):
                pygame.mixer.quit()
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            mixer = pygame.mixer
        except pygame.error:
            mixer = None
    return SimPlayer(mixer, log, clock)
