"""The simulator's display: Blinka's real displayio (through blinka_displayio_pygamedisplay)
drawing into a 160x128 pygame surface, and the picture of the board made from it.

The picture is the screen with the NeoPixel strip under it, as on the PyBadge: a band
STRIP_H pixels high (at native size) with one round LED per pixel, evenly spaced, pixel 0 at
the left. An LED is drawn in the colour the app set, dimmed by sqrt(brightness / 0.2) so that
the low brightness levels the device uses stay visible (full colour at 0.2 and above).
"""
import contextlib
import io
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

# Blinka prints a platform warning on import (an x86 host is no microcontroller): not news.
with contextlib.redirect_stdout(io.StringIO()):
    import displayio  # noqa: E402
    import busdisplay  # noqa: E402
    from blinka_displayio_pygamedisplay import PyGameDisplay  # noqa: E402

WIDTH = 160
HEIGHT = 128
STRIP_H = 16
BOARD = (28, 28, 32)  # the band around the LEDs
LED_OFF = (60, 60, 64)  # an unlit LED's rim, so five dark LEDs still read as LEDs


class SimDisplay(PyGameDisplay):
    """A PyGameDisplay that draws into an off-screen 160x128 surface (`screen`); `window`
    (optional) shows the board picture scaled up. `render_every` = N renders only every Nth
    refresh() (0: none until render_now()); the fuzz tests use it to spend their time in the
    app rather than in Blinka's pure-Python pixel pipeline."""

    # The displayio background thread may look at a display before __init__ has set this.
    _auto_refresh = False

    def __init__(self, scale=1, window=False, caption="", width=WIDTH, height=HEIGHT):
        self.scale = scale
        self._want_window = window
        self.window = None
        self.screen = None
        self.refresh_calls = 0
        self.renders = 0
        self.render_every = 1
        self._caption_text = caption
        super().__init__(width=width, height=height, auto_refresh=False, caption=caption)

    def _initialize(self, init_sequence):
        pygame.init()  # pylint: disable=no-member
        self.screen = pygame.Surface((self.width, self.height))
        self._pygame_screen = self.screen  # where PyGameDisplay._refresh_area blits
        if self._want_window:
            if self._caption_text:
                pygame.display.set_caption(self._caption_text)
            size = (self.width * self.scale, (self.height + STRIP_H) * self.scale)
            self.window = pygame.display.set_mode(size)

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        self.refresh_calls += 1
        n = self.render_every
        if n != 1 and (n == 0 or self.refresh_calls % n):
            return True
        return super().refresh(target_frames_per_second=target_frames_per_second,
                               minimum_frames_per_second=minimum_frames_per_second)

    def render_now(self):
        """Renders the current root group whatever render_every says."""
        busdisplay.BusDisplay._refresh_display(self)  # pylint: disable=protected-access
        self.renders += 1

    def _refresh_display(self):
        # Not PyGameDisplay's: that one flips a window the size of the screen.
        ok = busdisplay.BusDisplay._refresh_display(self)  # pylint: disable=protected-access
        self.renders += 1
        if self.window is not None:
            self.present(None)
        return ok

    def present(self, pixels):
        """Draws the board picture into the window (the LEDs too when `pixels`, a SimPixels,
        is given)."""
        if self.window is None:
            return
        s = self.scale
        self.window.blit(pygame.transform.scale(self.screen, (self.width * s, self.height * s)),
                         (0, 0))
        if pixels is not None:
            draw_strip(self.window, pixels.shown, pixels.brightness, self.height * s,
                       self.width * s, s)
        pygame.display.flip()

    def _release(self):
        pygame.display.quit()


def led_colour(colour, brightness):
    """Returns the RGB an LED is drawn in (see the module docstring)."""
    f = min(1.0, (max(brightness, 0.0) / 0.2) ** 0.5)
    return tuple(int(c * f + 0.5) for c in colour)


def draw_strip(surface, colours, brightness, top, width, scale):
    """Draws the LED band (one LED per (r, g, b) in `colours`) at row `top` of `surface`."""
    h = STRIP_H * scale
    surface.fill(BOARD, pygame.Rect(0, top, width, h))
    slot = width / len(colours)
    r = max(2, int(STRIP_H * scale * 0.32))
    for i, colour in enumerate(colours):
        centre = (int(slot * (i + 0.5)), top + h // 2)
        pygame.draw.circle(surface, LED_OFF, centre, r + max(1, scale // 2))
        pygame.draw.circle(surface, led_colour(colour, brightness), centre, r)


def picture(screen_rgb, size, colours=None, brightness=1.0, scale=1):
    """Returns a pygame Surface: the screen (RGB bytes of `size`) with the LED strip of
    `colours` under it when given, scaled by `scale` (nearest neighbour: pixels stay sharp)."""
    w, h = size
    shot = pygame.image.frombuffer(screen_rgb, size, "RGB")
    out = pygame.Surface((w * scale, (h + (STRIP_H if colours is not None else 0)) * scale))
    out.blit(pygame.transform.scale(shot, (w * scale, h * scale)), (0, 0))
    if colours is not None:
        draw_strip(out, colours, brightness, h * scale, w * scale, scale)
    return out


def release():
    """Releases every display (Blinka allows one at a time)."""
    displayio.release_displays()
