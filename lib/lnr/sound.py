"""Short sound effects: the dice, laying a card, the loco's run, a broken card, a derailment,
combining, the game's end.

An effect is a few square-wave notes (synthio's default waveform), each a start, a length and
a frequency (EFFECTS); the table is shared by the board and the simulator so both play the same
thing. On the board SynthPlayer presses and releases synthio Notes from the frame loop: the
synthesizer runs in C on the speaker's DMA, so an effect costs a few notes' bookkeeping per
frame and no allocation (the Notes and their frequencies are built once). The simulator plays
the same table through pygame's mixer (tools/sim/audio.py).

Sound(player) is what the app calls: play(name, now) starts an effect (replacing one still
playing), update(now) runs once a frame, `on` is the player's setting. A player has start(name,
now), stop() and update(now): SynthPlayer here, the simulator's in tools/sim/audio.py. player is
None on a board without a speaker: everything is then a no-op.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MAX_NOTES = const(4)  # notes sounding at once (the longest effect's chord)
# EFFECTS' unit of time. A plain int, not const(): the simulator reads it (tools/sim/audio.py),
# also from a flashed drive, where a const no shipped module names is made private
# (tools/flash/fold.py).
UNIT_MS = 5

# Frequencies in Hz. Ints, not floats: on the board a float is an object of 16 bytes of its own
# and a small int none; a Note's frequency takes either (it keeps a C float), so assigning one
# allocates nothing.
FREQS = (110, 147, 196, 262, 330, 392, 523, 659, 784, 988, 1047, 1319, 1568)

# name -> its notes in start order, 3 bytes each: the start and the length in UNIT_MS, and the
# index into FREQS (tools/sim/audio.py notes() reads them back as ms). Bytes, not a tuple of
# tuples per effect: 0.5 KB less in RAM on the board, where the table is resident.
EFFECTS = {
    # notes at 0, 45, 90, 135, 180 ms
    "dice": bytes((0, 5, 9, 9, 5, 11, 18, 5, 8, 27, 5, 12, 36, 8, 10)),
    "lay": bytes((0, 7, 6)),
    "run": bytes((0, 8, 1)),
    "broken": bytes((0, 12, 4, 14, 18, 2)),  # at 0, 70 ms
    "derail": bytes((0, 18, 5, 20, 18, 3, 40, 44, 0)),  # at 0, 100, 200 ms
    "combine": bytes((0, 12, 7, 14, 18, 10)),  # at 0, 70 ms
    "end": bytes((0, 22, 6, 24, 22, 7, 48, 22, 8, 72, 52, 10)),  # at 0, 120, 240, 360 ms
}


class SynthPlayer:
    """Plays effects on a synthio.Synthesizer (already playing on the speaker's AudioOut).
    synthio is passed in (the module), so that this file imports on any runtime."""

    def __init__(self, synth, synthio):
        self._synth = synth
        env = synthio.Envelope(attack_time=0.004, decay_time=0.03, release_time=0.04,
                               attack_level=0.8, sustain_level=0.5)
        self._notes = [synthio.Note(frequency=FREQS[0], envelope=env)
                       for _ in range(MAX_NOTES)]
        self._steps = b""  # the effect's notes (EFFECTS)
        self._next = 0  # index of the next note to press (its first byte in _steps)
        self._start = 0
        self._ends = [0] * MAX_NOTES  # when each note is released (ms after the start)
        self._live = [False] * MAX_NOTES

    def start(self, name, now):
        """Starts effect `name` (EFFECTS), cutting one still sounding."""
        self.stop()
        steps = EFFECTS[name]
        self._steps = steps
        self._next = 0
        self._start = now
        self.update(now)

    def stop(self):
        self._synth.release_all()
        for i in range(MAX_NOTES):
            self._live[i] = False
        self._next = len(self._steps)

    def update(self, now):
        t = (now - self._start) & 0x1FFFFFFF  # ms since the start (ticks wrap at 2**29)
        for i in range(MAX_NOTES):
            if self._live[i] and t >= self._ends[i]:
                self._synth.release(self._notes[i])
                self._live[i] = False
        steps = self._steps
        k = self._next
        while k < len(steps) and steps[k] * UNIT_MS <= t:
            end = (steps[k] + steps[k + 1]) * UNIT_MS
            f = steps[k + 2]
            k += 3
            self._next = k
            for i in range(MAX_NOTES):
                if not self._live[i]:
                    note = self._notes[i]
                    note.frequency = FREQS[f]
                    self._synth.press(note)
                    self._live[i] = True
                    self._ends[i] = end
                    break


class Sound:
    """The app's sound: play(name), update(now) each frame; `on` follows the Sound setting."""

    def __init__(self, player, on=True):
        self.player = player
        self.on = on

    def play(self, name, now):
        if self.on and self.player is not None:
            self.player.start(name, now)

    def update(self, now):
        if self.player is not None:
            self.player.update(now)
