"""The LEDs turned down for memory (lnr/memory shed()): dark, and their code and the neopixel
library's let go (about 4 KB: docs/memory.md). Loaded only then, and kept from then on: Dark
stands in for lnr.leds.Leds as app.leds."""


def go_dark(app):
    """Darkens the LEDs, lets their pin go, puts a Dark in app.leds and keeps this module
    through the switches (lnr/memory drop_since()). Returns the modules nothing refers to now,
    for lnr/memory to drop: lnr.leds and the neopixel library."""
    pixels = app.hw.pixels
    if pixels is not None:
        pixels.fill(0)
        pixels.show()
        pixels.deinit()
    pixels = app.hw.pixels = None
    app.leds = Dark()
    if app.base is not None:
        app.base.append(__name__)
    return ("lnr.leds", "neopixel")


def _nothing(*args):
    return None


class Dark:
    """Every method of Leds, doing nothing: busy() is None (no effect runs), sign() gives
    none."""

    def __getattr__(self, name):
        return _nothing
