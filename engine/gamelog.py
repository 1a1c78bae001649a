"""The decisions of a game as a short bit string, so that a device can keep many games.

A game is its seed plus every decision (docs/rules.md §10): the deal and the dice follow from
the seed (engine/rng.py, deal() then sample_chance() on Rng(seed, 0)). Each other action is
written as its index among legal_actions() (a fixed order) in as few bits as that list needs:
none for a forced step, 1 for two choices, 4 for up to 16. A whole game takes a few dozen bytes
(`python -m tools.bots records --capacity` measures it), where a loknroll/1 record takes kilobytes.

A State keeps its log in `state.log` (None: not logged, as the bots' and tests' states), which
apply() feeds and clone() copies, so an undone build (lnr/play/screen.py restores a clone) undoes its
log too. engine.record.from_log() turns a log back into the game's record (desktop only: the
reading side lives there, so that the device carries only what writes a log).
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MAX_BYTES = const(247)  # a history entry (7 bytes + the log) stays within 255 bytes
OVERFLOW = const(-1)  # `bits` of a log that outgrew MAX_BYTES: the game cannot be rebuilt


def width(n):
    """Returns the bits that an index below n takes (0 for n <= 1)."""
    w = 0
    while (1 << w) < n:
        w += 1
    return w


class GameLog:
    """The decisions so far: `data` (a bytearray, most significant bit first) holding `bits`
    bits, or bits == OVERFLOW once a game needed more than MAX_BYTES."""

    def __init__(self, data=b"", bits=0):
        self.data = bytearray(data)
        self.bits = bits

    def note(self, acts, action):
        """Writes `action` as its index in `acts` (the legal actions it was chosen from)."""
        w = width(len(acts))
        bits = self.bits
        if w == 0 or bits < 0:
            return
        if bits + w > MAX_BYTES * 8:
            self.bits = OVERFLOW
            self.data = bytearray()
            return
        i = acts.index(action)
        data = self.data
        for k in range(w - 1, -1, -1):
            if bits & 7 == 0:
                data.append(0)
            if (i >> k) & 1:
                data[bits >> 3] |= 0x80 >> (bits & 7)
            bits += 1
        self.bits = bits

    def copy(self):
        """Returns an independent copy (for State.clone)."""
        return GameLog(self.data, self.bits)
