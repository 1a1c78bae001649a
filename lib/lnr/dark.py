"""The LEDs turned down for memory (lnr/memory shed()): dark, and their code and the neopixel
library's let go (about 4 KB: docs/memory.md). Loaded only then, and kept from then on: Dark
stands in for lnr.leds.Leds as app.leds."""
import sys

from lnr.memory import empty, LEDS


def go_dark(app):
    """Darkens the LEDs, lets their pin go, puts a Dark in app.leds and drops lnr.leds and the
    neopixel library (nothing refers to their code now); keeps this module through the switches
    (lnr/memory drop_since())."""
    pixels = app.hw.pixels
    if pixels is not None:
        pixels.fill(0)
        pixels.show()
        pixels.deinit()
    pixels = app.hw.pixels = LEDS[0] = None
    app.leds = Dark()
    if app.base is not None:
        app.base.append(__name__)
    for name in ("lnr.leds", "neopixel"):
        mod = sys.modules.get(name)
        if mod is not None:
            empty(mod)


def _nothing(*args):
    return None


class Dark:
    """Every method of Leds, doing nothing: busy() is None (no effect runs), sign() gives
    none."""

    def __getattr__(self, name):
        return _nothing
