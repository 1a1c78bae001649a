"""The app: which screen is up, keys and frames sent to it, and the switches between the menus
(lnr/menus/: title, mode select, table seats, records, settings, how to play, game over) and
the play screen (lnr/play/), plus the error screen. Each screen holds its own state.

A screen's code asks for a switch (start, resume, save_and_quit, save_settings, records, ask:
App.want) and lnr/memory/switch.py makes it once its key or frame handler has returned
(settle()), so that none of its code is still running or held in a caller's stack slots: the menus' code and
the play screen's are never resident together (RAM, docs/memory.md). Records, the saved game and
the history go through lnr/storage.py, which writes the saves (the NVM and a file on the drive,
docs/storage.md) only at a game's end, on save & quit and when changed settings are left (flash
wear, docs/hardware.md), each time in a switch: the saves' code is never in RAM beside either
screen's code.
"""
from lnr import game as games
from lnr.keys import K_A, K_B
from lnr.screens import (
    SC_TITLE, SC_PLAY, SC_ERROR, W_START, W_RESUME, W_SAVE, W_SETTINGS, W_RECORDS, W_TITLE,
)


class App:
    """The whole app: `key(k)` for a key press, `tick(now)` once per frame; `dirty` asks
    for a display refresh. `menus` (a lnr.menus.screen.Menus) or `play` (a
    lnr.play.screen.Play) is the screen loaded now."""

    def __init__(self, hw, ui, leds, store, sound, seed):
        self.hw = hw
        self.ui = ui
        self.leds = leds
        self.store = store
        self.sound = sound  # lnr.sound.Sound: the effects on the speaker
        self.now = hw.ticks_ms()
        self.dirty = True
        self.writes = True  # False after an error: the NVM is never written again
        self.menus = None
        self.play = None
        # The next game's mode, a table's seats and their roles (bytearray; None: not chosen
        # yet), as chosen last in the menus: here, their code is dropped for each game.
        self.mode = games.MODE_SOLO
        self.players = 3
        self.roles = None
        self.game = None
        self.screen = SC_TITLE  # which screen is up (lnr.screens' SC_*)
        self.seed = seed & games.SEED_MASK  # the next new game's (lnr/powerup.py)
        self.message = store.notice  # shown once on the title (storage.notice)
        self.message_ok = False  # the message says something went well (green, not red)
        store.notice = None
        self.want = None  # the switch asked for by the running handler (lnr/memory/switch.py)
        self.base = None  # sys.modules' names at the first switch: never dropped
        self.game_code = []  # the modules the game on was made with: kept while it is
        self.hurry = False  # B hurries the loco's run on screen: it goes on after a bot's plan
        # Between a switch's steps (lnr/memory): when it began (hw.ticks_ms()) and its answer
        # (what shows next: lnr.screens' SC_* and its argument).
        self.began = 0
        self.next = None
        self.title()

    # ------------------------------------------------------------------ loop hooks

    def busy(self):
        """Returns True while the screen runs on a timer (a run shown, an opponent playing):
        keys pressed then are not for the player's turn (lnr/main.py drops them)."""
        return self.screen == SC_PLAY and self.play.busy()

    def skip(self, k):
        """A key pressed while busy: B hurries the run on screen to its end
        (lnr/play/screen.py skip()); any other is dropped. Not A: pressed again and again to
        get through an opponent's turn, the A after a skip would land on the player's turn and
        lay a card."""
        if k == K_B:
            self.hurry = True
            self.play.skip()

    def key(self, k):
        sc = self.screen
        if sc == SC_PLAY:
            self.play.key(k)
        elif sc == SC_ERROR:
            if k == K_A or k == K_B:
                self.title()
        else:
            self.menus.key(k)

    def tick(self, now):
        if self.screen == SC_PLAY:
            self.play.tick(now)

    # ------------------------------------------------------------------ switches

    def title(self):
        """Shows the title screen, in a switch (the menus' code loaded if it was not)."""
        self.want = (W_TITLE,)

    def start(self, mode, players, seed=None, roles=None):
        """A new game of `mode` from `seed` (a shared deal), else from the next seed, a table's
        seats 2.. played by `roles` (asked by the menus)."""
        self.want = (W_START, mode, players, seed, roles)

    def resume(self):
        """Continue: the saved game, exactly where it was saved (asked by the title)."""
        self.want = (W_RESUME,)

    def save_and_quit(self, game, start):
        """Stores the game as it stood at the turn's start and goes to the title (asked by
        the play screen's menu)."""
        if not self.writes:
            self.play.view.toast("Saving is off")
            return
        self.want = (W_SAVE, game, start)

    def save_settings(self):
        """Commits the changed settings and shows the title (asked by the settings screen when
        it is left): a switch, so that the saves' code never shares RAM with the menus' code and
        text (docs/memory.md)."""
        self.want = (W_SETTINGS,)

    def records(self):
        """Reads the history's last games and shows Records (asked by the title): a switch, so
        that the saves' code never shares RAM with the menus' (as for save_settings)."""
        self.want = (W_RECORDS,)

    def ask(self, kind):
        """A switch the play screen asks for, of no arguments: W_OVER counts the game
        (self.game: lnr/over.py over() lets it go) and shows its result; W_PLAN, the bot on
        turn plans the rest of its turn (lnr/play/plan.py), and W_HINT, the hint is worked out
        (lnr/play/hintplan.py), each in a switch, so that engine.bots and engine.ai never share
        RAM with the play screen's code but its view and map, which a bot's plan keeps
        (lnr.memory VIEW): the play screen comes back as it was left and plays the
        plan or shows the hint (lnr/play/screen.py, lnr/play/hint.py)."""
        self.want = (kind,)
