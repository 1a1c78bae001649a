"""The PyBadge, PyBadge LC and EdgeBadge (one firmware build): 160x128 display, 8 keys on a
shift register, 5 NeoPixels (1 on the LC: a setting), 8192 bytes of NVM, a speaker and the CIRCUITPY
drive, which holds the second copy of the saves when boot.py let the board write it
(docs/hardware.md, docs/storage.md).

The PyGamer profile builds on this one and only changes how keys are read.
"""
import time

import board
import keypad
import microcontroller
import neopixel
import storage
import supervisor
from adafruit_ticks import ticks_add, ticks_diff
from micropython import const

FRAME_MS = const(30)  # about 33 frames a second: smooth enough, leaves the CPU idle
PIXELS = const(5)
_START_BRIGHTNESS = 0.05  # the app sets the player's level at once; they are very bright


class Hardware:
    """What the app needs of the board: see the attributes below."""

    name = "pybadge"

    def __init__(self):
        self.base = 0  # the heap the firmware held before the app (code.py sets it)
        # The board's clock in ns, which the searches stop by (lnr/play/plan.py). The desktop's
        # CircuitPython VM (make cpcheck) has the unix port's time, without it: its searches
        # stop by the work they count, as the desktop's tests and replays do.
        self.monotonic_ns = getattr(time, "monotonic_ns", None)
        display = board.DISPLAY
        display.auto_refresh = False  # the app refreshes once per changed frame (docs/style.md)
        self.display = display
        self.width = display.width
        self.height = display.height
        self.max_pixels = PIXELS
        # The LC has 1 pixel on the same pin: driving 5 is harmless, the app's setting says
        # how many to use.
        self.pixels = neopixel.NeoPixel(
            board.NEOPIXEL, PIXELS, brightness=_START_BRIGHTNESS, auto_write=False)
        self.pixels.fill((0, 0, 0))
        self.pixels.show()
        nvm = microcontroller.nvm
        if nvm is None:
            raise RuntimeError("this firmware has no microcontroller.nvm")
        self.nvm = nvm
        # The drive as the app sees it: its root, and whether the board's code may write it
        # (boot.py remounts it so unless SELECT was held: then the saves live in the NVM only).
        self.drive = "/"
        self.drive_writable = not storage.getmount("/").readonly
        self._event = keypad.Event()  # one event, refilled by get_into: no allocation
        self._open_keys()
        self._audio = None
        self.player = self._speaker()  # lnr/sound.py's player, or None: silent
        self._next = supervisor.ticks_ms()

    def _speaker(self):
        # synthio's synthesizer playing on the speaker for good (notes are pressed and
        # released by lnr.sound.SynthPlayer: C code on the DMA, little RAM), the amplifier
        # switched on; None if the board has no speaker or it cannot be opened.
        if not hasattr(board, "SPEAKER"):
            return None
        try:
            import audioio
            import digitalio
            import synthio
            from lnr.sound import SynthPlayer

            enable = digitalio.DigitalInOut(board.SPEAKER_ENABLE)
            enable.switch_to_output(value=True)
            audio = audioio.AudioOut(board.SPEAKER)
            synth = synthio.Synthesizer(sample_rate=22050)
            audio.play(synth)
        except (ImportError, ValueError, RuntimeError):
            return None
        self._audio = (enable, audio)  # kept: the pin and the output must stay open
        return SynthPlayer(synth, synthio)

    def _open_keys(self):
        self._keys = keypad.ShiftRegisterKeys(
            clock=board.BUTTON_CLOCK, data=board.BUTTON_OUT, latch=board.BUTTON_LATCH,
            key_count=8, value_when_pressed=True)

    def next_key(self):
        """Returns the key number (lnr.keys) of the next press, or -1 if there is none.
        Releases are skipped: the game acts on presses only."""
        events = self._keys.events
        ev = self._event
        while events.get_into(ev):
            if ev.pressed:
                return ev.key_number
        return -1

    def ticks_ms(self):
        """Returns supervisor.ticks_ms(): wraps at 2**29, about a minute after power-up, so
        times are compared and added with adafruit_ticks (ticks_diff, ticks_less,
        ticks_add), never a plain a - b."""
        return supervisor.ticks_ms()

    def wait_frame(self):
        """Sleeps until the next frame is due; always True (the device never stops)."""
        now = supervisor.ticks_ms()
        left = ticks_diff(self._next, now)
        if not 0 <= left <= FRAME_MS:  # late (or the first frame): start counting from now
            self._next = ticks_add(now, FRAME_MS)
            return True
        if left:
            time.sleep(left / 1000)  # also runs background tasks (USB, display)
        self._next = ticks_add(self._next, FRAME_MS)
        return True
