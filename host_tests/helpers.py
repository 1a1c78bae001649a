"""What several test modules check or read the same way, written once: the 55 cards each in one
place (docs/rules.md §1), an LED's and a pixel's colour as the simulator records them, and the
pixels of a colour in a box of the screen. A test module imports what it needs from here
(`from helpers import ...`: host_tests/ is on the path pytest runs from)."""
from engine.cards import N_CARDS


def cards_of(s):
    """Returns every card id of State `s` in every zone it can be in (deck, track, box, the
    penalty cards being put, every hand and pile)."""
    every = s.deck + s.track + s.box + s.penalty
    for hand in s.hands:
        every = every + hand
    for pile in s.piles:
        every = every + pile
    return every


def assert_accounted(s, where=""):
    """docs/rules.md §1, §10: all 55 cards are somewhere in State `s`, each once (`where` says
    at which point of a game, in the failure's message)."""
    every = sorted(cards_of(s))
    assert every == list(range(N_CARDS)), (
        "docs/rules.md §1: the 55 cards are not each in one place%s: missing %s, twice %s" % (
            " (" + where + ")" if where else "",
            sorted(set(range(N_CARDS)) - set(every)),
            sorted(c for i, c in enumerate(every) if i and every[i - 1] == c)))


def rgb(colour):
    """An LED colour of lnr.leds (0xRRGGBB) as the simulator's strip records it: (r, g, b)."""
    return (colour >> 16, (colour >> 8) & 255, colour & 255)


def rgb565(colour):
    """The colour a 0xRRGGBB palette entry shows on the ST7735R (5-6-5 bits), as Blinka's
    display expands it back to 8 bits and the simulator reads it."""
    r, g, b = colour >> 16, (colour >> 8) & 255, colour & 255
    return ((r >> 3) * 255 // 31, (g >> 2) * 255 // 63, (b >> 3) * 255 // 31)


def count(result, box, colour):
    """Returns how many pixels of a headless run's screen (`result`, tools.sim.simulator
    run_headless) in box (x0, y0, x1, y1) show `colour` (0xRRGGBB)."""
    want = rgb565(colour)
    x0, y0, x1, y1 = box
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if result.pixel(x, y) == want)


INTO_A_GAME = ["A", "A", "WAIT*200"]  # from the title into a solo game, the hand up
# From the title into a table of two people (the modes' 4th; the table screen: P2 a person,
# then Start), the first person's handoff up.
INTO_A_HOT_SEAT = ["A", "DOWN", "DOWN", "DOWN", "A", "LEFT", "DOWN", "RIGHT", "DOWN", "A",
                   "WAIT*200"]


def app_in_a_game(keys=INTO_A_GAME, seed=3):
    """Returns the App (lnr/app.py) of a headless run (tools.sim.simulator, the real displayio
    of Blinka) left where `keys` lead: by default the player's first turn of a solo game of
    `seed`. A real Play, Ui and Game for a module's test to call into."""
    from tools.sim import fast as sim_fast, simulator as sim

    with sim_fast.fast():
        r = sim.run_headless(keys, seed=seed, settle=5)
    assert r.ok, r.error
    assert r.app.play is not None and r.app.game is not None
    return r.app


def python_m(argv, monkeypatch, capsys):
    """Runs the module argv[0] with the arguments after it in this process, as `python -m`
    runs it (runpy, sys.argv, from the repository's root), and returns (its exit status,
    stdout, stderr): a command's answer to bad arguments without a Python of its own started
    and its imports made again for each case (half a second of CPU each). An exception out of
    the command is not caught: it fails the test as the traceback a user would see."""
    import os
    import runpy
    import sys
    import warnings

    monkeypatch.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    monkeypatch.setattr(sys, "argv", [argv[0]] + [str(a) for a in argv[1:]])
    capsys.readouterr()
    # runpy warns that the command's module is imported already (by the test): it runs afresh
    # as __main__ all the same, as under `python -m`.
    code = 0  # a command that returns exits with 0
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "'tools\\.", RuntimeWarning)
        try:
            runpy.run_module(argv[0], run_name="__main__", alter_sys=True)
        except SystemExit as stop:
            code = 0 if stop.code is None else stop.code
    out = capsys.readouterr()
    return code, out.out, out.err
