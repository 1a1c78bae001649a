"""A small integer PRNG that gives the same numbers on CPython, MicroPython and CircuitPython.

It is L'Ecuyer's combined multiplicative generator for 16-bit arithmetic (CACM 31(6), 1988):
three Lehmer generators whose products stay below 2**23, so no long ints are ever allocated on
a device (docs/style.md: intermediates below 2**30). Period about 8e12, far more than a game needs.
CircuitPython's `random` has no `shuffle` and differs between ports, hence our own.
"""

# (modulus, multiplier) of the three component generators.
_M1 = 32363
_A1 = 157
_M2 = 31727
_A2 = 146
_M3 = 31657
_A3 = 142
_SPAN = 32362  # outputs are 1.._SPAN, uniform


class Rng:
    """Returns a generator seeded from any non-negative int; `stream` separates independent
    streams from one seed (e.g. dice apart from a bot's choices)."""

    def __init__(self, seed=0, stream=0):
        # The seed is split into digits below each modulus, so that for any seed below 2**30
        # (and any small stream) no intermediate reaches 2**30 either.
        low = seed % (_M1 - 1)
        mid = seed // (_M1 - 1) % (_M2 - 1)
        high = seed // (_M1 - 1) // (_M2 - 1) % (_M3 - 1)
        self.s1 = 1 + (low + stream * 7919) % (_M1 - 1)
        self.s2 = 1 + (mid + low * 7 + stream * 104729 + 12345) % (_M2 - 1)
        self.s3 = 1 + (high + low * 13 + mid * 3 + stream * 1299709 + 6789) % (_M3 - 1)
        for _ in range(8):  # spread nearby seeds apart
            self.next()

    def next(self):
        """Returns the next output, uniform in 1..32362."""
        self.s1 = self.s1 * _A1 % _M1
        self.s2 = self.s2 * _A2 % _M2
        self.s3 = self.s3 * _A3 % _M3
        z = (self.s1 - self.s2 + self.s3) % _SPAN
        return z if z else _SPAN

    def randbelow(self, n):
        """Returns a uniform int in 0..n-1 (1 <= n <= 32362), by rejection, without bias."""
        limit = _SPAN - _SPAN % n
        while True:
            z = self.next() - 1
            if z < limit:
                return z % n

    def shuffle(self, items):
        """Shuffles a list in place (Fisher-Yates)."""
        i = len(items) - 1
        while i > 0:
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1

    def getstate(self):
        """Returns the state as three ints below 2**15, e.g. for a save."""
        return (self.s1, self.s2, self.s3)

    def setstate(self, state):
        """Restores a state from getstate(); raises ValueError if it cannot be one."""
        s1, s2, s3 = state
        if not (0 < s1 < _M1 and 0 < s2 < _M2 and 0 < s3 < _M3):
            raise ValueError("not a generator state")
        self.s1, self.s2, self.s3 = s1, s2, s3
