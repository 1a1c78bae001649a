"""The error screen (lnr/main.py crashed()): what went wrong, the seed and the turn to replay
it, and the traceback on the serial console. Loaded when something went wrong, not before: its
code and words are not in RAM beside the screens'. Saving is off from then on, so a crash can
never leave a damaged save or record behind."""
from lnr import game as games
from lnr.screens import SC_ERROR
from lnr.ui import wrap, LINE_W, GREY, YELLOW, RED


def show(app, exc):
    """Shows the error screen for `exc` on the App `app` and turns its saving off."""
    # The traceback on the serial console (CircuitPython and CPython both have this form).
    try:
        import traceback

        traceback.print_exception(exc)
    except Exception:  # noqa: BLE001
        print("error:", exc)
    app.writes = False
    app.want = app.next = None
    g = app.game
    # The font tiles of lnr/ui.py's text layer: they are resident, so the error screen shows
    # even when the heap is short (the menus write the same lines).
    app.screen = SC_ERROR
    ui = app.ui
    ui.clear_text()
    ui.put(ui.title, "ERROR", RED)
    lines = ui.lines
    ui.put(lines[0], "Something went wrong:")
    text = wrap("%s: %s" % (type(exc).__name__, exc), LINE_W)
    for i in range(3):
        ui.put(lines[1 + i], text[i] if i < len(text) else "", RED)
    # 26 characters a line: "Challenge seed 16777215" (a seed has 24 bits), "Turn 55".
    if g is not None:
        ui.put(lines[4], "%s seed %d" % (games.MODE_TITLES[g.state.mode], g.seed), YELLOW)
    ui.put(lines[5], ("Turn %d. " % g.state.turn if g is not None else "") +
           "Records are safe.")
    ui.put(lines[6], "Saving is off until reset", GREY)
    ui.put(lines[7], "A: title", GREY)
    ui.show(ui.text)
    app.leds.off()
    app.dirty = True
    app.game = None
