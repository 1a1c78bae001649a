"""The switches, made as the main loop asks (lnr/main.py step()), in three steps, each with only
its own code loaded (lnr/memory says the words). A module of its own: it loads the switch's
steps and the screens, which import lnr.memory."""
from lnr.memory import drop_since, empty, load, sign
from lnr.screens import W_OVER, W_PLAN, W_SAVE

def settle(app):
    """Makes the switches the handlers asked for (app.want), here, not inside their key() or
    tick(): a call leaves what it was made on (the play screen) in its caller's stack slots,
    which the collector scans while that caller runs, so a switch made from inside key() would
    keep the play screen's code in RAM beside the next screen's. Each module a switch drops has
    its globals emptied, the switch's own code too after each of its steps (_done()): a stale
    value the stack still holds keeps the one function it hits, not a screen's code.

    A switch is three steps, each with only its own code loaded: the screens left
    (lnr/memory/switch.py leave()), the switch's work with the RAM they leave (a game dealt,
    resumed or saved: lnr/games.py go(); counted: lnr/over.py go(); a bot's plan or the hint:
    lnr/play/plan.py go()), the next screen up (arrive()). Between them the request (app.want)
    and the work's answer (app.next) ride on the App, and the play screen's place on the Game
    (lnr/game.py).

    Where a switch of a game in play (a bot's plan, the hint, the play screen coming back or
    up) finds no room for its code even with the sound and the LEDs shed, the game is saved as
    its turn began and the title says so (lnr/games.py: Continue takes it up again, on a heap
    less full): the player loses no move. Without saving (the drive read-only), or where the
    save finds no room either, the error screen, as for any other error."""
    while app.want is not None:
        try:
            sign()  # the switch begins
            try:
                mod = load(app, "lnr.memory.switch")
            except MemoryError:
                if app.base is None:  # the first switch: no screen up yet
                    raise
                # No room for the switch's code beside the screen's, sound and LEDs shed: the
                # screen's code goes first, all of it (a bot's plan loads its view again after).
                app.play = app.menus = None
                drop_since(app.base + app.game_code)  # (the allocator collects when it must)
                mod = load(app, "lnr.memory.switch")
            mod.leave(app)
            mod = _done(mod)
            if app.next is None:  # leave() answers the title's itself
                kind = app.want[0]
                if kind >= W_PLAN:
                    mod = load(app, "lnr.play.plan")
                elif kind == W_OVER:
                    mod = load(app, "lnr.over")
                else:
                    mod = load(app, "lnr.games")
                mod.go(app)
                mod = _done(mod)
            sign()  # the switch's work is done: the next screen's code loads
            mod = load(app, "lnr.memory.switch")
            mod.arrive(app)
            mod = _done(mod)
        except MemoryError:
            g = app.game
            kind = W_PLAN if app.want is None else app.want[0]  # None: the screen's arrival
            if g is None or not app.writes or kind < W_PLAN or g.state.is_terminal():
                raise
            app.next = None
            app.want = (W_SAVE, g, g.state if g.undo is None else g.undo, True)


def _done(mod):
    # A step of a switch made: its module, loaded for it, is dropped and its globals emptied
    # (lnr.memory empty()). Returns None (the caller's reference goes).
    empty(mod)
