"""Short sound effects: the dice, laying a card, the loco's run, a broken card, a derailment,
combining, the game's end.

An effect is a few square-wave notes (synthio's default waveform), each `(start ms, length ms,
frequency index)`; the table is shared by the board and the simulator so both play the same
thing. On the board SynthPlayer presses and releases synthio Notes from the frame loop: the
synthesizer runs in C on the speaker's DMA, so an effect costs a few notes' bookkeeping per
frame and no allocation (the Notes and their frequencies are built once). The simulator plays
the same table through pygame's mixer (tools/sim_audio.py).

Sound(player) is what the app calls: play(name, now) starts an effect (replacing one still
playing), update(now) runs once a frame, `on` is the player's setting. A player has start(name,
now), stop() and update(now): SynthPlayer here, the simulator's in tools/sim_audio.py. player is
None on a board without a speaker: everything is then a no-op.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MAX_NOTES = const(4)  # notes sounding at once (the longest effect's chord)

# Frequencies in Hz, as floats built once: a Note's frequency is a float and assigning one of
# these allocates nothing.
FREQS = (110.0, 147.0, 196.0, 262.0, 330.0, 392.0, 523.0, 659.0, 784.0, 988.0, 1047.0,
         1319.0, 1568.0)

# name -> steps (start ms, length ms, index into FREQS), in start order.
EFFECTS = {
    "dice": ((0, 25, 9), (45, 25, 11), (90, 25, 8), (135, 25, 12), (180, 40, 10)),
    "lay": ((0, 35, 6),),
    "run": ((0, 40, 1),),
    "broken": ((0, 60, 4), (70, 90, 2)),
    "derail": ((0, 90, 5), (100, 90, 3), (200, 220, 0)),
    "combine": ((0, 60, 7), (70, 90, 10)),
    "end": ((0, 110, 6), (120, 110, 7), (240, 110, 8), (360, 260, 10)),
}


def length_ms(name):
    """Returns how long effect `name` sounds, in ms."""
    return max(start + dur for start, dur, _ in EFFECTS[name])


class SynthPlayer:
    """Plays effects on a synthio.Synthesizer (already playing on the speaker's AudioOut).
    synthio is passed in (the module), so that this file imports on any runtime."""

    def __init__(self, synth, synthio):
        self._synth = synth
        env = synthio.Envelope(attack_time=0.004, decay_time=0.03, release_time=0.04,
                               attack_level=0.8, sustain_level=0.5)
        self._notes = [synthio.Note(frequency=FREQS[0], envelope=env)
                       for _ in range(MAX_NOTES)]
        self._steps = ()  # type: tuple
        self._next = 0  # index of the next step to press
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
        while self._next < len(steps) and steps[self._next][0] <= t:
            start, dur, f = steps[self._next]
            self._next += 1
            for i in range(MAX_NOTES):
                if not self._live[i]:
                    note = self._notes[i]
                    note.frequency = FREQS[f]
                    self._synth.press(note)
                    self._live[i] = True
                    self._ends[i] = start + dur
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
