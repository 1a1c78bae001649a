"""The NeoPixels under the screen: a picture of the game, and short effects on top of it.

The app calls a picture method when the picture should change (progress, dice, risk, off), an
effect method on an event (derail, broken_hit), and update(now_ms) once per frame; an effect
runs for a while, then the picture comes back by itself. Every colour is a 0xRRGGBB int, which
the NeoPixel library takes as it takes an (r, g, b): a small int is no object on the heap, so a
frame compares and assigns them without allocating (docs/style.md), and the 22 colours cost no
RAM of their own (as tuples they were about 0.9 KB with their code, resident in every phase).
show() runs only when some pixel really changed.

With 5 pixels the strip is a window on the end of the track, pixel 0 at the left (unverified
on hardware) and the track's last card at the right: the cards ahead of the loco are lit in a
colour that warns as they run out (green, yellow, orange), the loco's card white (red when no
card is left ahead: any move derails, docs/rules.md §5), the cards behind dim blue. With 1 pixel
(PyBadge LC) that pixel shows the warning colour alone, and effects still flash on it.
"""
from adafruit_ticks import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython without Blinka

    def const(x):
        return x


OFF = const(0x000000)
RED = const(0xFF0000)
ORANGE = const(0xFF5000)
YELLOW = const(0xC8A000)
GREEN = const(0x00C800)
WHITE = const(0xA0A0A0)
BEHIND = const(0x000030)
WHEEL = const(0xC8C8C8)  # a die that shows a wheel
BLANK = const(0x300000)  # a die that shows none
PENDING = const(0x000028)  # a die still to roll
AMBER = const(0xFF6E00)
SIGN = const(0x0050C8)  # sign(): the dot that runs while a switch works with the screen still

# Warning colour by cards ahead of the loco: 0, 1, 2, 3 or more.
AHEAD = (RED, ORANGE, YELLOW, GREEN)

# Green to red in 11 steps of 10 %, for risk(): red 255 * i // 10, green 200 * (10 - i) // 10
# (host_tests/test_sim_platform.py checks the ramp).
RISK = (0x00C800, 0x19B400, 0x33A000, 0x4C8C00, 0x667800, 0x7F6400, 0x995000, 0xB23C00,
        0xCC2800, 0xE51400, 0xFF0000)

# Brightness per level in percent: the pixels are very bright (docs/hardware.md); level 0 turns
# them off. Ints, not floats (an object of 16 bytes each on the board): set_brightness() makes
# the one float the strip needs when the level changes.
LEVELS = (0, 2, 5, 10, 20)
MAX_LEVEL = const(4)

_M_OFF = const(0)
_M_PROGRESS = const(1)
_M_DICE = const(2)
_M_RISK = const(3)

_FX_NONE = const(0)
_FX_DERAIL = const(1)
_FX_BROKEN = const(2)

# Effect timings in ms: derail flashes 4 times, then glows; a broken-card hit blinks twice.
_DERAIL_FLASH = const(1000)
_DERAIL_END = const(1600)
_DERAIL_PERIOD = const(250)
_DERAIL_ON = const(150)
_BROKEN_END = const(400)
_BROKEN_PERIOD = const(200)
_BROKEN_ON = const(120)


class Leds:
    """Drives `pixels` (a NeoPixel with auto_write=False, or the simulator's) showing the
    game on the first `count` of them; the rest stay off."""

    def __init__(self, pixels, count=5):
        self._px = pixels
        self._max = len(pixels)
        self._count = 1
        self._shown = [-1] * self._max  # the colour last written to each pixel (-1: none yet)
        self._mode = _M_OFF
        self._a = 0  # picture arguments: ahead / dice resolved / permille
        self._b = 0  # track_len / dice total
        self._res = None  # the dice results (a sequence of 0/1), if the app gave them
        self._fx = _FX_NONE
        self._fx_new = False  # the effect starts at the next update()
        self._fx_start = 0
        self._phase = -1  # effect phase drawn last: -1 none, 0 dark, 1 lit
        self._dirty = True
        self._dot = 0  # sign(): the pixel lit last
        self.set_count(count)

    # ------------------------------------------------------------------ settings

    def set_count(self, n):
        """Uses the first n pixels (1 to all); a PyBadge LC has 1."""
        if n < 1:
            n = 1
        if n > self._max:
            n = self._max
        if n != self._count:
            self._count = n
            self._dirty = True

    def set_brightness(self, level):
        """Sets the brightness level, 0 (off) to MAX_LEVEL, and shows it at once."""
        if level < 0:
            level = 0
        if level > MAX_LEVEL:
            level = MAX_LEVEL
        self._px.brightness = LEVELS[level] / 100
        self._px.show()

    # ------------------------------------------------------------------ pictures

    def off(self):
        """Turns every pixel off and cancels any running effect."""
        self._mode = _M_OFF
        self._fx = _FX_NONE
        self._dirty = True

    def progress(self, ahead, track_len):
        """Shows the end of the track: `ahead` cards in front of the loco, of `track_len`."""
        if self._mode != _M_PROGRESS or self._a != ahead or self._b != track_len:
            self._mode = _M_PROGRESS
            self._a = ahead
            self._b = track_len
            self._dirty = True

    def dice(self, results_so_far, total):
        """Shows a roll of `total` dice, one pixel per die as it resolves: `results_so_far`
        is the sequence of results so far (1 = a wheel, 0 = none; an int counts dice rolled
        without saying what they showed). More dice than pixels: the group of the latest."""
        self._mode = _M_DICE
        if isinstance(results_so_far, int):
            self._res = None
            self._a = results_so_far
        else:
            self._res = results_so_far  # kept, not copied: read when the frame is drawn
        self._b = total
        self._dirty = True

    def risk(self, permille):
        """Shows a derailment risk of `permille`/1000 while a build is composed: a bar from
        one green pixel (safe) to all red (sure to derail)."""
        if permille < 0:
            permille = 0
        if permille > 1000:
            permille = 1000
        if self._mode != _M_RISK or self._a != permille:
            self._mode = _M_RISK
            self._a = permille
            self._dirty = True

    # ------------------------------------------------------------------ effects

    def derail(self):
        """Starts the derailment effect: every pixel flashes red, then glows red (1.6 s)."""
        self._start(_FX_DERAIL)

    def broken_hit(self):
        """Starts the short amber blink for a broken card entered (docs/rules.md §5, D1)."""
        if self._fx != _FX_DERAIL:  # a derailment says more: never cut it short
            self._start(_FX_BROKEN)

    def busy(self):
        """Returns True while an effect is running."""
        return self._fx != _FX_NONE

    def _start(self, fx):
        self._fx = fx
        self._fx_new = True
        self._phase = -2  # forces a redraw at the next update()

    def sign(self, work=0):
        """One step of the sign of life, shown at once: a blue dot moves on by one pixel
        (on a single pixel it blinks). A switch gives it between the modules it loads
        (lnr/memory, lnr/play/plan.py) and the search every few tenths of a second of its
        work (engine.budget set_sign: `work`, what it did since, is not needed here); the picture
        comes back at the next update()."""
        n = self._count
        k = self._dot + 1
        if k >= (n if n > 1 else 2):  # one pixel: it blinks (a dot lit at 1 would not move)
            k = 0
        self._dot = k
        px = self._px
        shown = self._shown
        for i in range(self._max):
            c = SIGN if i == k else OFF
            px[i] = c
            shown[i] = c
        px.show()
        self._dirty = True

    # ------------------------------------------------------------------ frame

    def update(self, now):
        """Advances effects to `now` (ms, as hw.ticks_ms(): may wrap at 2**29) and writes
        the pixels if anything changed. Call once per frame."""
        fx = self._fx
        if fx != _FX_NONE:
            if self._fx_new:
                self._fx_new = False
                self._fx_start = now
            t = ticks_diff(now, self._fx_start)  # the clock wraps at 2**29 (docs/hardware.md)
            if fx == _FX_DERAIL:
                if t >= _DERAIL_END:
                    phase = -1
                elif t >= _DERAIL_FLASH or t % _DERAIL_PERIOD < _DERAIL_ON:
                    phase = 1
                else:
                    phase = 0
            elif t >= _BROKEN_END:
                phase = -1
            else:
                phase = 1 if t % _BROKEN_PERIOD < _BROKEN_ON else 0
            if phase < 0:
                self._fx = _FX_NONE
            if phase != self._phase:
                self._phase = phase
                self._dirty = True
        if not self._dirty:
            return
        self._dirty = False
        px = self._px
        shown = self._shown
        changed = False
        for i in range(self._max):
            c = self._colour(i)
            if shown[i] != c:
                px[i] = c
                shown[i] = c
                changed = True
        if changed:
            px.show()

    def _colour(self, i):
        # The colour of pixel i now: the effect if one is running, else the picture.
        n = self._count
        if i >= n:
            return OFF
        fx = self._fx
        if fx != _FX_NONE:
            if self._phase != 1:
                return OFF
            return RED if fx == _FX_DERAIL else AMBER
        mode = self._mode
        if mode == _M_PROGRESS:
            ahead = self._a
            warn = AHEAD[ahead if ahead < 3 else 3]
            if n == 1:
                return warn
            k = n - 1 - i  # this pixel shows the k-th card from the end of the track
            if k < ahead:
                return warn
            if k == ahead:
                return WHITE if ahead else RED
            return BEHIND if k < self._b else OFF
        if mode == _M_DICE:
            results = self._res
            done = self._a if results is None else len(results)
            total = self._b
            if n == 1:
                if done == 0:
                    return PENDING
                return WHEEL if results is None or results[done - 1] else BLANK
            first = (done - 1) // n * n if done else 0
            d = first + i
            if d >= total:
                return OFF
            if d >= done:
                return PENDING
            return WHEEL if results is None or results[d] else BLANK
        if mode == _M_RISK:
            permille = self._a
            lit = (permille * n + 999) // 1000
            if i >= lit and i:  # pixel 0 is always lit: even 0 % risk shows green
                return OFF
            return RISK[(permille + 50) // 100]
        return OFF
