"""The switch (lnr/memory/__init__.py says the words): the menus' code and the play screen's
are never in RAM together. A switch drops one side and every module imported since start-up but
the engine's modules a game on was made with (and what it keeps), collects, makes its work
(lnr/games.py, lnr/over.py, lnr/play/plan.py), then loads the other side. This code is loaded
for the switch's first step (leave()) and again for its last (arrive()), and dropped after each
(lnr.memory settle()): it is not in RAM beside a screen's, nor beside the switch's work."""
import gc
import sys

from lnr.memory import drop_since, load, sign, FIGURES, F_START, F_LEAST, F_HINT, F_TURN, F_BACK
from lnr.memory import VIEW
from lnr.screens import SC_PLAY, SC_TITLE, SC_OVER, SC_RECORDS, W_PLAN, W_HINT, W_SAVE, W_TITLE


def unload(app, keep=()):
    """Drops the screen code loaded last and every module imported since start-up, but for
    the modules a game on was made with (the engine's and lnr.game's: its Game, State and dice
    need them, and a second copy of the engine must never load beside them) and those in
    `keep`, then collects."""
    app.menus = None
    app.play = None
    if app.base is None:
        app.base = list(sys.modules)
    elif app.game is not None:
        drop_since(app.base + app.game_code + list(keep))
    else:
        drop_since(app.base)
    gc.collect()


def menus(app):
    """Returns the menus (a lnr.menus.screen.Menus), loaded once the play screen's code is
    gone."""
    if app.menus is None:
        unload(app)
        sign()  # the menus' code loads (as the play screen's: player())
        app.menus = load(app, "lnr.menus.screen").Menus(app)
    return app.menus


def player(app, keep=()):
    """Returns the play screen (a lnr.play.screen.Play), loaded once the menus' code is gone
    (and what is not in `keep`: the modules a bot's plan kept)."""
    if app.play is None:
        unload(app, keep)
        t = app.hw.ticks_ms()
        # Loading the play screen's code takes a board over half a second (docs/memory.md:
        # board waits): the sign steps as it begins, and between its map (lnr.play.mapview),
        # its view (lnr.play.view) and the rest.
        try:
            sign()
            load(app, "lnr.play.mapview")
            sign()
            load(app, "lnr.play.view")
            sign()
            app.play = load(app, "lnr.play.screen").Play(app)
        except MemoryError:
            if not keep:
                raise
            # The kept view lies where the rest would go (the heap is not moved): all of the
            # screen's code loads afresh, a slower switch.
            return player(app)
        if not keep:  # the whole screen loaded: what the hint's deadline leaves for it
            ms = (app.hw.ticks_ms() - t) & 0x1FFFFFFF  # the board's ticks wrap at 2**29
            if ms > FIGURES[F_BACK]:
                FIGURES[F_BACK] = ms
    return app.play


def leave(app):
    """The switch's first step (lnr.memory settle()): both screens' code dropped but what a
    bot's plan keeps of the play screen (VIEW), and collected. What the play screen needs to
    come back as it was left is on the Game (lnr/game.py). The title needs no work: its
    answer is app.next at once."""
    kind = app.want[0]
    app.began = app.hw.ticks_ms()  # the switch's wait, on the board's clock (arrive())
    if kind == W_TITLE:
        app.want = None
        app.next = (SC_TITLE, None)
    unload(app, VIEW if kind == W_PLAN else ())


def arrive(app):
    """The switch's last step: the screen app.next names (the work's answer: (SC_*, what it
    shows)) loaded and shown; the modules the game on was made with noted, to be kept through
    the next switches; the heap free with it up and the switch's wait noted
    (FIGURES)."""
    screen, shown = app.next
    app.next = None
    app.want = None
    app.game_code = []
    if app.game is not None:
        for name in sys.modules:
            if name.startswith("engine.") or name == "lnr.game":
                app.game_code.append(name)
    if screen == SC_PLAY:
        app.screen = SC_PLAY
        # (No room for it, the sound and the LEDs shed: lnr.memory settle() saves the game.)
        play = player(app, VIEW if shown is not None and shown[0] == W_PLAN else ())
        sign()  # the screen's code is loaded: the switch's last sign
        if shown is None:
            play.begin(app.game)
        else:
            kind = shown[0]
            play.take_up(app.game)  # the play screen as it was left
            if kind == W_PLAN:
                play.auto_step()  # the bot's first planned step
                if app.hurry:  # B was pressed: on up to the result (skip())
                    play.skip()
            elif kind == W_HINT:
                play.hint(shown[1])
            else:  # W_SAVE: the NVM refused the save: back to the game as it was
                play.again()
                play.view.toast("Could not save")
    else:
        m = menus(app)
        sign()  # the screen's code is loaded: the switch's last sign
        if screen == SC_OVER:
            m.game_over(shown)
        elif screen == SC_RECORDS:
            m.records(shown)
        else:
            m.title(shown)  # `shown`: the entry the cursor goes back to, or None
    # What the board showed: the wait of a bot's turn and of a hint, the heap free with the
    # next screen up.
    if screen == SC_PLAY and shown is not None and shown[0] != W_SAVE:
        ms = (app.hw.ticks_ms() - app.began) & 0x1FFFFFFF  # the board's ticks wrap at 2**29
        f = F_HINT if shown[0] == W_HINT else F_TURN
        if ms > FIGURES[f]:
            FIGURES[f] = ms
    m = play = shown = None
    gc.collect()
    try:
        free = gc.mem_free()  # type: ignore[attr-defined]  # the typeshed's gc is CPython's
    except AttributeError:  # CPython tells none
        return
    if not FIGURES[F_START]:  # the first switch's, at start-up: the title
        FIGURES[F_START] = free
        FIGURES[F_LEAST] = free
    elif free < FIGURES[F_LEAST]:
        FIGURES[F_LEAST] = free
