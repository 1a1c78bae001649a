"""The app plays the session from power-up (lnr.main.start, then lnr.main.step per frame) with a
scripted board, and the live heap is read after every frame; or, as a probe, the session runs up
to one moment inside a switch and stops there (tools/membudget/session.py says what it prints).

    argv: the device modules (comma-separated), the moment to stop at ("-": none), its
          occurrence, the frames (a key number or -1 each, comma-separated), the seed, the
          screen numbers SC_PLAY and S_INFO, the moments' kinds (comma-separated)
"""
import builtins
import gc
import sys

import binascii  # noqa: F401 - C on the board; a .py module on the VM, so loaded before any count
import mpvm

from tools.membudget.vm.board import Hw
from tools.membudget.vm.prelude import charged, live, qstr_slack, standin_bytes, standins, units

standins(("displayio", "terminalio"))
LOADED = {}  # every device module: imported at some point of the session?
for _name in sys.argv[1].split(","):
    LOADED[_name] = False
PROBE = sys.argv[2]  # the moment to stop at ("-": none) and its occurrence
PROBE_AT = int(sys.argv[3])
FRAMES = [int(k) for k in sys.argv[4].split(",")]
SEED = int(sys.argv[5])
SC_PLAY = int(sys.argv[6])
S_INFO = int(sys.argv[7])
KINDS = sys.argv[8].split(",")
# lnr.screens' W_SAVE, W_OVER, W_SETTINGS: given, as the board's build folds them away.
W_SAVE, W_OVER, W_SETTINGS = [int(x) for x in sys.argv[9].split(",")]
SEEN = [0] * len(KINDS)  # each moment's occurrences so far
PHASES = 6  # the phases label() tells apart (tools/membudget/session.py LABELS)
_import = builtins.__import__


def _hook(name, globals=None, locals=None, fromlist=(), level=0):  # pylint: disable=W0622
    mod = _import(name, globals, locals, fromlist, level)
    if name in LOADED:
        LOADED[name] = True
    return mod


builtins.__import__ = _hook


class Probe(Exception):
    pass


class Watch:
    """The app and lnr's own drop functions, whether a drop_new is under way (a drop it makes
    is counted with it, once), and the CircuitPython bytes of the display objects alive when
    start-up dropped lnr.make (the census's: section 1 has them; -1 until then)."""

    app = None
    drop = None
    drop_new = None
    inside = False
    cp0 = -1
    q0 = 0  # qstr_slack() at the baseline


def moment(name):
    # Which moment (a kind of tools/membudget/session.py MOMENTS) dropping `name` ends now, or
    # None.
    if name not in sys.modules:
        return None
    app = Watch.app
    if name == "lnr.copies":  # a read or a write of the saves, with their 8 KB image
        if app is None:
            return "load"  # lnr.main.start: the saves read
        if app.doing == W_OVER:
            return "over"  # lnr.switch over(): the game counted (the game let go already)
        if app.doing == W_SAVE:
            return "saved"
        if app.doing == W_SETTINGS:
            return "settings"  # lnr.switch: the settings screen left with changes
        return "records"  # lnr.switch: the title's Records, the history read
    if name == "engine.codec" and app is not None:
        return "save" if app.doing == W_SAVE else "resume"
    return None


def _check(names):
    # Counts the moment that dropping `names` (all at once) ends; the probe run stops at its
    # own, with every one of them still in.
    for name in names:
        kind = moment(name)
        if kind in KINDS:
            i = KINDS.index(kind)
            SEEN[i] += 1
            if kind == PROBE and SEEN[i] == PROBE_AT:
                raise Probe()
            return


def _probe_drop(*names):
    if "lnr.make" in names and Watch.cp0 < 0:
        Watch.cp0 = charged()  # the display objects of start-up: the census's
    if not Watch.inside:
        _check(names)
    Watch.drop(*names)


def _probe_drop_new(had):
    names = []
    for name in sys.modules:
        if name not in had and (name.startswith("lnr.") or name.startswith("engine.")):
            names.append(name)
    _check(names)
    Watch.inside = True
    try:
        Watch.drop_new(had)
    finally:
        Watch.inside = False


def label(app):
    """The phase the app is in: an index into membudget's LABELS."""
    if app.screen != SC_PLAY or app.game is None:
        return 0
    play = app.play
    if play is not None and play.step == S_INFO:
        return 5
    return 1 + app.game.state.mode


def others(unit):
    """Returns what a live heap reading is corrected by: the display objects' stand-ins' own
    heap out, the CircuitPython bytes of the ones made after start-up (the menus' Labels, while
    they live) in (the census, section 1, has the others); and the interned-name pools' room
    for names to come out (prelude.qstr_slack()). Call it after the reading: it allocates."""
    return charged() - Watch.cp0 - standin_bytes(unit) - (qstr_slack() - Watch.q0)


def modules():
    names = []
    for m in sys.modules:
        if m in LOADED:
            names.append(m)
    names.sort()
    return ",".join(names)


async def main():
    maxl = [-1] * PHASES  # per phase: live peak and its frame, bound peak and its frame
    atl = [0] * PHASES
    maxb = [-1] * PHASES
    atb = [0] * PHASES
    # Up to the baseline, main() leaves no object of its own in its stack's slots: the
    # collector scans a suspended coroutine's whole stack, stale slots too, so such an object
    # would be in the baseline and freed later, out of the app's figures.
    unit = await units()
    print("UNIT", ",".join([str(u) for u in unit]))
    hw = Hw(FRAMES, SEED)
    Watch.q0 = qstr_slack()
    base = await live()
    import lnr  # after the baseline: the app's package is the app's

    Watch.drop = lnr.drop
    Watch.drop_new = lnr.drop_new
    lnr.drop = _probe_drop
    lnr.drop_new = _probe_drop_new
    import lnr.main

    b = await live()
    print("IMPORTED", b - base - standin_bytes(unit) - (qstr_slack() - Watch.q0))
    try:
        app = Watch.app = lnr.main.start(hw)
    except Probe:  # the saves read at start-up: stop there
        b = await live()
        print("PROBE", PROBE, b - base + others(unit), -1, modules())
        return
    a = gc.mem_alloc()
    b = await live()
    sb = others(unit)
    print("STARTED", b - base + sb, a - base + sb, standin_bytes(unit))
    print("MODS", 0, -1, modules())
    prev_screen = app.screen
    prev_n = len(sys.modules)
    prev_label = 0
    frame = 0
    k = 0  # awaits since the last live()
    while True:
        try:
            lnr.main.step(hw, app)
        except Probe:
            b = await live()
            print("PROBE", PROBE, b - base + others(unit), frame, modules())
            break
        more = hw.wait_frame()
        frame += 1
        a = gc.mem_alloc()
        await mpvm.collect()
        b = gc.mem_alloc()
        lab = label(app)
        n = len(sys.modules)
        changed = app.screen != prev_screen or n != prev_n or lab != prev_label
        # The exact figure (live()) where this frame may be a new peak, at every change of
        # screen or modules, and every 16 frames; else b is high by the awaits' proxies.
        k += 1
        if b - base + sb - 24 * k > maxl[lab] or changed or k >= 16:
            b = await live()
            k = 0
        sb = others(unit)
        adj = b - base + sb
        bound = a - base + sb
        if adj > maxl[lab]:
            # A new peak is read once more: now and then a reading is high by what the next
            # collection frees (the collectors' timing, not the app's).
            adj = min(adj, (await live()) - base + others(unit))
            k = 0
        if adj > maxl[lab]:
            maxl[lab] = adj
            atl[lab] = frame
        if bound > maxb[lab]:
            maxb[lab] = bound
            atb[lab] = frame
        if changed:
            prev_screen = app.screen
            prev_n = n
            prev_label = lab
            print("MODS", frame, lab, modules())
            await live()
            k = 0
        if not more:
            break
    for i in range(PHASES):
        print("PEAK", i, maxl[i], atl[i], maxb[i], atb[i])
    for i in range(len(KINDS)):
        print("SEEN", KINDS[i], SEEN[i])
    loaded = []
    for name in LOADED:
        if LOADED[name]:
            loaded.append(name)
    print("LOADED", ",".join(loaded))
    print("FRAMES", frame)


mpvm.run(main())
