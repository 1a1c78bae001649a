"""How much of the Python stack (the pystack) the app needs, on a VM whose pystack is the size of
a board's (tools/vm/pystack.py runs this with run.mjs --pystack). A frame that does not fit raises
"pystack exhausted": lnr.main.run shows it on its error screen and prints it, the host looks for
it.

    session FRAMES SEED  the session played as code.py plays the app (lnr.main.run, from this
                         module's frame as from code.py's); prints how deep in the pystack the
                         app begins the hint's search (engine.lookahead Search.choose; a table
                         bot's plan, engine.ai's alone, begins shallower), the deepest over the
                         session, as the probe frames that still fit there (probe())
    bots SEEDS PAD       every decision of whole games of every mode (seeds 1..SEEDS) made by
                         `best`, each begun PAD probe frames deeper than this module's frame
                         (down()): the search's own depth depends on the hand, so it is measured
                         over many more positions than the session's; prints the probe frames
                         left where the searches began
    probe                the probe frames that fit below this module's frame
"""
import builtins
import sys

from tools.vm.membudget.vm import prelude  # noqa: F401 - writes the .mpy files out (form "mpy")

_COUNT = [0]


def down(k, fn):
    """Goes k frames of its own deeper, then returns fn() (the padding, and the probe's unit:
    every frame of it the same size)."""
    _COUNT[0] += 1
    if k:
        return down(k - 1, fn)
    return fn()


def probe():
    """Returns how many frames of down() fit on the pystack from here."""
    _COUNT[0] = 0
    try:
        down(1 << 30, None)
    except RuntimeError:  # pystack exhausted: the probe's frames are gone again
        pass
    return _COUNT[0] - 1


LEAST = [1 << 30]  # the fewest probe frames that fitted where a search began


def _watched(choose):
    def watched(self):
        n = probe()
        if n < LEAST[0]:
            LEAST[0] = n
        return choose(self)

    return watched


_import = builtins.__import__


def _hook(name, globals=None, locals=None, fromlist=(), level=0):  # pylint: disable=W0622
    mod = _import(name, globals, locals, fromlist, level)
    if name == "engine.lookahead":  # the app loads it afresh with each switch that needs it
        search = sys.modules[name].Search  # (`import engine.lookahead` returns `engine`)
        if not getattr(search, "watched", False):
            search.choose = _watched(search.choose)
            search.watched = True
    return mod


def session(frames, seed):
    from tools.vm.membudget.vm.board import Hw

    prelude.standins(("displayio", "terminalio"))
    hw = Hw(frames, seed)

    from lnr.main import run  # after the stand-ins, as on a board after its firmware

    run(hw)
    print("FRAMES", hw.i)


def bots(seeds, pad):
    from engine.bots import best_bot
    from engine.playout import DECIDE, seeded, steps

    decisions = 0
    for mode in range(4):
        for seed in range(1, seeds + 1):
            s, chance, rng = seeded(mode, seed)
            for a in steps(s, chance):
                if a == DECIDE:
                    a = down(pad, lambda: best_bot(s, rng))
                    decisions += 1
                s.apply(a)
    print("DECISIONS", decisions)


builtins.__import__ = _hook
if sys.argv[1] == "probe":
    print("PROBE", probe())
elif sys.argv[1] == "session":
    session([int(k) for k in sys.argv[2].split(",")], int(sys.argv[3]))
else:
    bots(int(sys.argv[2]), int(sys.argv[3]))
print("SEARCH", LEAST[0])
