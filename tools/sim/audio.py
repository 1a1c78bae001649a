"""The simulator's speaker: plays lnr.sound's effects through pygame's mixer, and logs them.

The board plays each effect's notes on synthio (square waves with a short envelope, lnr/sound.py).
Here every effect is rendered once, from the same table, into a pygame Sound of square waves
with the same envelope shape, and played when the app starts it. With `log` (the headless
mode's --audio-log FILE) each start is written as one line `<ms> <name>`, ms on the simulator's
clock, so tests can check what was heard and when.
"""
from lnr.sound import EFFECTS, FREQS, UNIT_MS

RATE = 22050
VOLUME = 0.25  # of full scale: the board's speaker is small and so are these effects
ATTACK_MS = 4
RELEASE_MS = 40


def notes(name):
    """Returns effect `name`'s notes as (start ms, length ms, index into FREQS), in start
    order: lnr.sound's bytes read back (the board reads them as they are)."""
    steps = EFFECTS[name]
    return [(steps[i] * UNIT_MS, steps[i + 1] * UNIT_MS, steps[i + 2])
            for i in range(0, len(steps), 3)]


def length_ms(name):
    """Returns how long effect `name` sounds, in ms."""
    return max(start + dur for start, dur, _ in notes(name))


def render(name, rate=RATE):
    """Returns effect `name` as a list of float samples in [-1, 1] at `rate`: the sum of its
    notes, each a square wave with a linear attack and release (synthio's default waveform)."""
    total = (length_ms(name) + RELEASE_MS) * rate // 1000
    out = [0.0] * total
    for start, dur, f in notes(name):
        hz = FREQS[f]
        first = start * rate // 1000
        held = dur * rate // 1000
        release = RELEASE_MS * rate // 1000
        attack = max(1, ATTACK_MS * rate // 1000)
        period = rate / hz
        for i in range(held + release):
            if first + i >= total:
                break
            level = min(1.0, i / attack) if i < held else max(0.0, 1 - (i - held) / release)
            wave = 1.0 if (i % period) < period / 2 else -1.0
            out[first + i] += VOLUME * level * wave
    return [max(-1.0, min(1.0, v)) for v in out]


class SimPlayer:
    """A player for lnr.sound.Sound: start(name, now), stop(), update(now). `mixer` is
    pygame.mixer once initialised (None: silent, e.g. SDL's dummy audio driver refused), `log`
    an open text file or None; `clock` (a function returning ms) gives the times logged
    instead of the app's `now` (the headless simulator's virtual ms since its start)."""

    def __init__(self, mixer=None, log=None, clock=None):
        self._log = log
        self._clock = clock
        self._sounds = {}
        self._playing = None
        if mixer is not None:
            import array

            for name in EFFECTS:
                pcm = array.array("h", (int(v * 32767) for v in render(name)))
                self._sounds[name] = mixer.Sound(buffer=pcm.tobytes())

    def start(self, name, now):
        if self._log is not None:
            self._log.write("%d %s\n" % (now if self._clock is None else self._clock(), name))
            self._log.flush()
        self.stop()
        sound = self._sounds.get(name)
        if sound is not None:
            sound.play()
            self._playing = sound

    def stop(self):
        if self._playing is not None:
            self._playing.stop()
            self._playing = None

    def update(self, now):
        pass  # pygame's mixer plays on its own thread
