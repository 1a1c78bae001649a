"""engine/rng.py: the portable PRNG that every shuffle and die of the rules draws from (§3.1,
§1 dice). Same seed, same numbers; uniform; a shuffle is a permutation; and, for the device
(docs/style.md), no intermediate value ever reaches 2**30.
"""
import pytest

from engine.rng import Rng

LIMIT = 1 << 30


def test_same_seed_same_sequence_other_seed_or_stream_other_sequence():
    a = [Rng(1234).next() for _ in range(1)]
    r1, r2 = Rng(1234), Rng(1234)
    seq1 = [r1.next() for _ in range(500)]
    seq2 = [r2.next() for _ in range(500)]
    assert seq1 == seq2 and seq1[:1] == a
    r3 = Rng(1235)
    assert [r3.next() for _ in range(500)] != seq1
    r4 = Rng(1234, 1)
    assert [r4.next() for _ in range(500)] != seq1
    # Neighbouring seeds do not start alike (the generator spreads them apart).
    firsts = {Rng(seed).next() for seed in range(200)}
    assert len(firsts) > 190


def test_getstate_setstate_round_trip_and_reject_bad_states():
    r = Rng(99)
    for _ in range(17):
        r.next()
    saved = r.getstate()
    ahead = [r.next() for _ in range(50)]
    r.setstate(saved)
    assert [r.next() for _ in range(50)] == ahead
    for bad in ((0, 1, 1), (1, 0, 1), (1, 1, 0), (32363, 1, 1), (1, 31727, 1), (1, 1, 31657)):
        with pytest.raises(ValueError):
            r.setstate(bad)


def test_next_stays_in_its_range():
    r = Rng(5)
    for _ in range(20000):
        z = r.next()
        assert 1 <= z <= 32362


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 55, 1000, 32362])
def test_randbelow_in_range(n):
    r = Rng(n)
    seen = set()
    for _ in range(3000):
        k = r.randbelow(n)
        assert 0 <= k < n and type(k) is int
        seen.add(k)
    if n <= 55:
        assert seen == set(range(n))


@pytest.mark.parametrize("n,draws", [(3, 30000), (6, 60000), (55, 55000)])
def test_randbelow_uniform(n, draws):
    """Counts per outcome within 5 standard deviations, and a chi-square far from absurd."""
    r = Rng(2024 + n)
    counts = [0] * n
    for _ in range(draws):
        counts[r.randbelow(n)] += 1
    mean = draws / n
    sd = (draws * (1 / n) * (1 - 1 / n)) ** 0.5
    for c in counts:
        assert abs(c - mean) < 5 * sd, counts
    chi2 = sum((c - mean) ** 2 / mean for c in counts)
    assert chi2 < 3 * (n - 1) + 30  # expectation n - 1


def test_randbelow_sequences_are_not_trivially_correlated():
    """Successive dice (randbelow(3) < 2 is a wheel) show each pair about as often as
    independence says."""
    r = Rng(77)
    pairs = {}
    prev = r.randbelow(3) < 2
    for _ in range(30000):
        cur = r.randbelow(3) < 2
        pairs[(prev, cur)] = pairs.get((prev, cur), 0) + 1
        prev = cur
    total = sum(pairs.values())
    for (a, b), n in pairs.items():
        p = (2 / 3 if a else 1 / 3) * (2 / 3 if b else 1 / 3)
        assert abs(n / total - p) < 0.02, pairs


@pytest.mark.parametrize("length", [0, 1, 2, 3, 10, 55])
def test_shuffle_is_a_permutation(length):
    r = Rng(length)
    items = list(range(length))
    for _ in range(50):
        r.shuffle(items)
        assert sorted(items) == list(range(length))


def test_shuffle_reaches_every_order_evenly():
    r = Rng(3)
    counts = {}
    for _ in range(12000):
        items = [0, 1, 2, 3]
        r.shuffle(items)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 24
    for c in counts.values():
        assert abs(c - 500) < 5 * 21.4  # sd of a count: sqrt(12000 * 1/24 * 23/24)


def test_shuffle_same_seed_same_order():
    a, b = list(range(55)), list(range(55))
    Rng(8).shuffle(a)
    Rng(8).shuffle(b)
    assert a == b and a != list(range(55))


class Checked(int):
    """An int whose arithmetic fails when a result leaves (-2**30, 2**30) and whose results
    stay Checked, so that every intermediate of a computation on it is checked."""

    def _c(self, v):
        if not -LIMIT < v < LIMIT:
            raise OverflowError("intermediate %d is not below 2**30" % v)
        return Checked(v)


for _name in ("add", "sub", "mul", "mod", "floordiv"):
    def _make(op):
        def fwd(self, other):
            return self._c(getattr(int, "__%s__" % op)(self, other))

        def rev(self, other):
            return self._c(getattr(int, "__r%s__" % op)(self, other))
        return fwd, rev
    _f, _r = _make(_name)
    setattr(Checked, "__%s__" % _name, _f)
    setattr(Checked, "__r%s__" % _name, _r)
Checked.__neg__ = lambda self: self._c(-int(self))


def test_checked_int_catches_big_values():
    with pytest.raises(OverflowError):
        Checked(1 << 20) * (1 << 11)
    with pytest.raises(OverflowError):
        (1 << 29) + Checked(1 << 29)
    assert type(Checked(3) * 5 % 7) is Checked


def test_intermediates_stay_below_2_to_30():
    """docs/style.md: no long ints on the device: next, randbelow and shuffle never form a value of
    2**30 or more (checked on every arithmetic step), nor does seeding with seeds < 2**30."""
    for seed in (0, 1, 12345, (1 << 24) - 1, (1 << 30) - 1):
        for stream in (0, 1, 3):
            r = Rng(Checked(seed), Checked(stream))
            assert all(type(x) is Checked for x in r.getstate())
            for n in (1, 2, 3, 6, 55, 32362):
                for _ in range(300):
                    assert 0 <= r.randbelow(n) < n
            items = list(range(55))
            r.shuffle(items)
            assert sorted(items) == list(range(55))
            # Still Checked: the checks above really ran on the generator's arithmetic.
            assert all(type(x) is Checked for x in r.getstate())


def test_randbelow_rejects_the_uneven_tail():
    """randbelow is unbiased for every n, not only for divisors of the span: for n = 20000 a
    plain `next() % n` would give k < 12362 with probability 0.76 instead of 0.618."""
    r = Rng(4)
    n = 20000
    low = sum(1 for _ in range(20000) if r.randbelow(n) < 32362 - n)
    assert abs(low / 20000 - 12362 / 20000) < 0.02
