"""The seeds of the bots' games on the desktop, in three disjoint ranges, so that no figure is
measured on the deals it was fitted or chosen on.

- TRAINING: the games weights are fitted on (tools/bots/tune.py, tools/bots/train.py).
- CHOOSING: the games that decide between versions: which iteration of a fit to keep, whether
  new weights replace today's.
- REPORTED: the games of the figures the docs print (`make bench`, docs/bots.md); never used
  to fit or to choose.

A seed is a whole game: its deal, its dice and the bots' own random streams (engine.playout
seeded()).
"""
TRAINING = range(100000, 1000000)
CHOOSING = range(50000, 100000)
REPORTED = range(10000, 50000)
RANGES = {"training": TRAINING, "choosing": CHOOSING, "reported": REPORTED}


def take(name, n, skip=0):
    """Returns the seeds `skip` to `skip + n - 1` of range `name` (a key of RANGES); ValueError
    if the range holds fewer."""
    r = RANGES[name]
    if n < 0 or skip < 0 or skip + n > len(r):
        raise ValueError("the %s range holds %d seeds (%d-%d), not %d from its %d-th" % (
            name, len(r), r.start, r.stop - 1, n, skip))
    return range(r.start + skip, r.start + skip + n)
