"""The app's main loop: run(hw) builds everything once, then reads a key, updates, refreshes
the display only when something changed, advances the LEDs and waits for the next frame.

An unexpected exception shows the error screen (lnr/app.py) with the seed and the turn, and
turns NVM writes off: a crash can never leave a damaged save or record behind.
"""
import gc

from lnr.keys import K_A


def run(hw):
    """Runs the app on `hw` (lnr.boards or the simulator); returns only when
    hw.wait_frame() says stop (the simulator)."""
    app = start(hw)
    back = False
    while True:
        try:
            if back:  # after the error screen: the title, once the traceback is gone (it
                back = False  # holds the failed screen's code, which the title drops)
                app.title()
            if loop(hw, app):
                return
        except Exception as exc:  # the error screen, never a frozen one
            _report(exc)
            if crashed(hw, app, exc):
                return
            back = True


def start(hw):
    """Builds the display objects, reads the NVM, lights the LEDs and shows the title;
    returns the App. The building is lnr/powerup.py's, loaded for this once: its code is not
    kept beside the screens' (RAM, docs/memory.md)."""
    from lnr import drop, powerup

    app = powerup.start(hw)
    powerup = None
    drop("lnr.powerup")
    gc.collect()
    return app


def loop(hw, app):
    """Runs frames until wait_frame() returns False (returns True then)."""
    while True:
        step(hw, app)
        if not hw.wait_frame():
            return True


def step(hw, app):
    """One frame's work (tools/vm/membudget runs frames with this too): a key, timers, a
    refresh if something changed, the LEDs and the sound. Keys pressed while the screen is
    busy (a loco's run shown, an opponent playing) are read and dropped, every one, so that
    none is left to act on the player's turn; B there hurries the run (App.skip)."""
    now = hw.ticks_ms()
    app.now = now
    k = hw.next_key()
    if app.busy():
        while k >= 0:  # every key waiting was pressed while busy: none acts on the turn
            if app.busy():
                app.skip(k)
                settle(app)
            k = hw.next_key()
        app.hurry = False
    elif k >= 0:
        app.key(k)
        settle(app)
    app.tick(now)
    settle(app)
    if app.dirty:
        app.dirty = False
        hw.display.refresh()
    app.leds.update(now)
    app.sound.update(now)


def settle(app):
    """Makes the switches the handlers asked for (App.switch), here, not inside key() or
    tick(): see App.switch(); each on a scrubbed stack (scrub()), which is scrubbed again after
    it."""
    while app.switching():
        scrub(SCRUB_DEPTH)
        app.switch()
        # The switch's frames left pointers in the stack to the code it loaded and dropped (the
        # switch's own, lnr.switch): the next handlers' frames, made over them, kept that code
        # in RAM through the next screen (CircuitPython's VM, .py: lnr.switch's 7 KB through a
        # whole game).
        scrub(SCRUB_DEPTH)


# Calls deep enough to cover the frames of a key or frame handler (App.key, App.tick and what
# they call: about a dozen Python calls deep, each a few C frames).
SCRUB_DEPTH = 32


def scrub(n):
    """Overwrites the stack below the caller with frames that hold nothing but small ints.
    The collector scans the stack conservatively; the handler that asked for a switch has
    returned but left pointers there to the code it ran (e.g. the play screen's functions),
    and the switch's own frames, made over them, would keep that code in RAM through the switch
    and beside the next screen's (docs/memory.md; without it the session no longer completes
    under make cpcheck's cap: host_tests/test_cp_app.py). It holds on a board too, whose
    Python frames live on a pystack: each Python call nests C calls (the VM's call and its
    bytecode loop) whose frames on the C stack hold the function objects, and the collector
    scans the C stack as it does here."""
    if n:
        scrub(n - 1)


def crashed(hw, app, exc):
    """Shows the error screen and waits for A (returns False: run() shows the title), or
    for the end of the run (returns True)."""
    try:
        app.error(exc)
        hw.display.refresh()
    except Exception:  # noqa: BLE001 - even a broken screen must not freeze the loop
        app.writes = False
    while True:
        now = hw.ticks_ms()
        app.leds.update(now)
        app.sound.update(now)
        if not hw.wait_frame():
            return True
        if hw.next_key() == K_A:
            return False


def _report(exc):
    # The traceback on the serial console (CircuitPython and CPython both have this form).
    try:
        import traceback

        traceback.print_exception(exc)
    except Exception:  # noqa: BLE001
        print("error:", exc)
