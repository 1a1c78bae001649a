"""The history's last games as the Records screen lists them (lnr/menus/screen.py): read by a
switch's work (lnr/games.py), with the menus' code dropped, so that the saves' code never shares RAM with the
menus' code and text (docs/memory.md)."""
import gc

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


KEPT = const(40)  # the last games Records lists: 6 bytes each while the screen is up


def last_games(store):
    """Returns the last KEPT games of the history, newest first, 6 bytes each: the seed (3
    bytes, high first), mode, won, score. The history's entries are let go before it returns;
    the copies' code and the image went with the read (lnr/storage.py)."""
    kept = store.history()
    from lnr.image import read_entry  # dropped with the move's modules (lnr/app.py)

    n = len(kept)
    if n > KEPT:
        n = KEPT
    out = bytearray(6 * n)
    for i in range(n):
        seed, mode, players, won, score, bits, log = read_entry(kept[len(kept) - 1 - i])
        out[6 * i:6 * i + 6] = bytes(((seed >> 16) & 0xFF, (seed >> 8) & 0xFF, seed & 0xFF,
                                      mode, 1 if won else 0, score))
    kept = log = None
    gc.collect()
    return out
