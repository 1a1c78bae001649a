"""The app's main loop: run(hw) builds everything once, then reads a key, updates, refreshes
the display only when something changed, advances the LEDs and waits for the next frame.

An unexpected exception shows the error screen (lnr/crash.py) with the seed and the turn, and
turns NVM writes off: a crash can never leave a damaged save or record behind.
"""
import gc

from lnr.keys import K_A
from lnr.memory import drop
from lnr.memory.settle import settle


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
            if crashed(hw, app, exc):
                return
            back = True


def start(hw):
    """Builds the display objects, reads the NVM, lights the LEDs and shows the title;
    returns the App. The building is lnr/powerup.py's, loaded for this once: its code is not
    kept beside the screens' (RAM, docs/memory.md)."""
    from lnr import powerup

    app = powerup.start(hw)
    powerup = None
    drop("lnr.powerup", "lnr.sheet")  # the sheet's code loads again to read the sprites back
    settle(app)  # the title, in the first switch
    from lnr.memory.report import line  # the board's line on the serial console

    print(line(hw))
    line = None
    drop("lnr.memory.report")
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


def crashed(hw, app, exc):
    """Shows the error screen and waits for A (returns False: run() shows the title), or
    for the end of the run (returns True)."""
    try:
        from lnr import crash  # its code loads now (lnr/crash.py): not in RAM before

        crash.show(app, exc)
        crash = None
        hw.display.refresh()
    except Exception:  # noqa: BLE001 - even a broken screen must not freeze the loop
        app.writes = False
    drop("lnr.crash")
    while True:
        now = hw.ticks_ms()
        app.leds.update(now)
        app.sound.update(now)
        if not hw.wait_frame():
            return True
        if hw.next_key() == K_A:
            return False
