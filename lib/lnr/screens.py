"""Which screen is up (App.screen) and the switches between the menus and a game (App.start,
resume, save_and_quit, ask), shared by lnr/app.py, lnr/menus/screen.py, lnr/play/screen.py and
lnr/games.py.

They live here, not in lnr/app.py, because the screens and the switches are loaded lazily by the
App and dropped again (RAM, docs/memory.md): a module that imports the App for its constants
would make a cycle of them (docs/style.md).
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


SC_TITLE = const(0)
SC_MODES = const(1)
SC_TABLE = const(2)
SC_RECORDS = const(3)
SC_SETTINGS = const(4)
SC_HOWTO = const(5)
SC_PLAY = const(6)
SC_OVER = const(7)
SC_ERROR = const(8)

# Switches a screen's code asks for (W_: wanted), made by lnr/memory once its handler has
# returned, their work by lnr/games.py (W_TITLE: none), W_PLAN and W_HINT last, by
# lnr/play/plan.py.
W_START = const(0)  # a new game: (mode, players, seed or None: the next seed, roles or None)
W_RESUME = const(1)  # the saved game
W_SAVE = const(2)  # save & quit: (game, the turn's start State[, True: no way back to it])
W_OVER = const(3)  # the game's end: (game,)
W_SETTINGS = const(4)  # the settings screen left with changes: commit them (no arguments)
W_RECORDS = const(5)  # the Records screen: the history's last games read (no arguments)
W_TITLE = const(6)  # the title screen (no arguments): at power-up, after the error screen
W_PLAN = const(7)  # a bot's turn worked out with the play screen's code dropped (no arguments)
W_HINT = const(8)  # the hint worked out with the play screen's code dropped (no arguments)
