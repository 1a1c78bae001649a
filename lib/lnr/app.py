"""The app: which screen is up, keys and frames sent to it, and the switch between the menus
(lnr/menus/: title, mode select, table seats, records, settings, how to play, game over) and
the play screen (lnr/play/), plus the error screen. Each screen holds its own state.

RAM (docs/memory.md): the menus' code and the play screen's are never resident together.
Going from one to the other drops every module imported since start-up (its own, and e.g.
engine.bots after a game with bots), collects, then imports the second: while a game is on the
menus' code and text are not in RAM, and in the menus the play screen's code is not, nor the
engine (lnr.switch loads it for a game; it stays while the game is on).
A screen's code asks for the switch (start, resume, save_and_quit, save_settings, records, ask)
and the switch is made once its key or frame handler has returned (App.switch(), lnr/main.py),
so that none of its code is still running or held in a caller's stack slots. Records, the saved
game and the history go through lnr/storage.py, which writes the saves (the NVM and a file on
the drive, docs/storage.md) only at a game's end, on save & quit and when changed settings are
left (flash wear, docs/hardware.md), each time in a switch: the saves' code is never in RAM beside
either screen's code.
"""
import gc
import sys

from lnr import drop_new, sign_on
from lnr import game as games
from lnr.keys import K_A, K_B
from lnr.screens import (
    SC_TITLE, SC_PLAY, SC_OVER, SC_RECORDS, SC_ERROR, W_START, W_RESUME, W_SAVE, W_SETTINGS,
    W_RECORDS, W_THINK, W_HINT,
)
from lnr.ui import wrap, LINE_W, GREY, YELLOW, RED

# What a bot's plan keeps of the play screen's code (W_THINK): its view and map, and every module
# they import that a switch drops (lnr.drop_new empties a dropped module's globals, which a kept
# one would still use: host_tests/test_app_memory.py plays a table game so). Loading them again
# took a board about 0.4 s of the 2 s a bot's turn may take (make cpcheck: board waits), and the
# plan has room for them beside engine.bots; the hint has not (its search is bigger): it keeps
# nothing.
_VIEW = ("lnr.play", "lnr.play.mapview", "lnr.play.view", "lnr.sprites", "engine.risk")


class App:
    """The whole app: `key(k)` for a key press, `tick(now)` once per frame; `dirty` asks
    for a display refresh. `menus` (a lnr.menus.screen.Menus) or `play` (a
    lnr.play.screen.Play) is the screen loaded now."""

    def __init__(self, hw, ui, leds, store, sound, seed):
        self.hw = hw
        self.ui = ui
        self.leds = leds
        sign_on(leds)  # lnr.sign(): the saves' code steps them too (lnr/copies.py)
        self.store = store
        self.sound = sound  # lnr.sound.Sound: the effects on the speaker
        self.now = hw.ticks_ms()
        self.dirty = True
        self.writes = True  # False after an error: the NVM is never written again
        self.menus = None
        self.play = None
        # What the menus keep through a game (Menus.kept(): the next game's mode, seats,
        # roles), held here while their code is dropped: the App does not read it.
        self.menus_kept = None
        self.game = None
        self.screen = SC_TITLE  # which screen is up (lnr.screens' SC_*)
        self.seed = seed & games.SEED_MASK  # the next new game's (lnr/powerup.py)
        self.message = store.notice  # shown once on the title (storage.notice)
        self.message_ok = False  # the message says something went well (green, not red)
        store.notice = None
        self._want = None  # a switch asked for by the running handler
        self.hurry = False  # B hurries the loco's run on screen: it goes on after a bot's plan
        self.doing = -1  # the switch being made (lnr.screens' W_*), -1 between switches
        self._base = None  # sys.modules' names at start-up: never dropped
        self._engine = []  # the engine's modules the game on was made with: kept while it is
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

    def switch(self):
        """Makes the switch a screen's handler asked for, if any (start, resume, save_and_quit,
        save_settings, records; ask(): the game over, a bot's plan, the hint). lnr/main.py
        calls it once key() or tick() has returned, never from inside them, on a scrubbed
        stack (lnr/main.py settle()): a call leaves what it was made on (the play screen) in
        its caller's stack slots, which the collector scans while that caller runs, so a switch
        made from inside key() would keep the play screen's code in RAM beside the next
        screen's (docs/memory.md)."""
        if self._want is not None:
            self._switch()

    # ------------------------------------------------------------------ switches

    def title(self):
        """Shows the title screen (the menus' code loaded if it was not)."""
        self._menus().title()

    def start(self, mode, players, seed=None, roles=None):
        """A new game of `mode` from `seed` (a shared deal), else from the next seed, a table's
        seats 2.. played by `roles` (asked by the menus)."""
        self._want = (W_START, mode, players, seed, roles)

    def resume(self):
        """Continue: the saved game, exactly where it was saved (asked by the title)."""
        self._want = (W_RESUME,)

    def save_and_quit(self, game, start):
        """Stores the game as it stood at the turn's start and goes to the title (asked by
        the play screen's menu)."""
        if not self.writes:
            self.play.view.toast("Saving is off")
            return
        self._want = (W_SAVE, game, start)

    def save_settings(self):
        """Commits the changed settings and shows the title (asked by the settings screen when
        it is left): a switch, so that the saves' code never shares RAM with the menus' code and
        text (docs/memory.md)."""
        self._want = (W_SETTINGS,)

    def records(self):
        """Reads the history's last games and shows Records (asked by the title): a switch, so
        that the saves' code never shares RAM with the menus' (as for save_settings)."""
        self._want = (W_RECORDS,)

    def ask(self, kind):
        """A switch the play screen asks for, of no arguments: W_OVER counts the game
        (self.game: lnr/switch.py over() lets it go) and shows its result; W_THINK, the bot on
        turn plans the rest of its turn (lnr/play/think.py plan_turn), and W_HINT, the hint is
        worked out (lnr/play/hintplan.py), each in a switch, so that engine.bots and engine.ai
        never share RAM with the play screen's code but its view and map, which a bot's plan
        keeps (_VIEW; docs/memory.md): the play screen comes
        back as it was left and plays the plan or shows the hint (lnr/play/screen.py,
        lnr/play/hint.py)."""
        self._want = (kind,)

    def switching(self):
        """Returns True while a switch is asked for and not yet made: a screen's handler that
        asked for one stops there (lnr/play/screen.py skip())."""
        return self._want is not None

    def _unload(self, keep=()):
        # Drops the screen code loaded last and every module imported since start-up, but
        # for the engine's modules a game on was made with (its State and dice need them, and
        # a second copy of the engine must never load beside them) and those in `keep`, then
        # collects.
        if self.menus is not None:
            self.menus_kept = self.menus.kept()
        self.menus = None
        self.play = None
        if self._base is None:
            self._base = list(sys.modules)
        elif self.game is not None:
            drop_new(self._base + self._engine + list(keep))
        else:
            drop_new(self._base)
        gc.collect()

    def _leave(self, keep):
        # Drops both screens' code but the modules in `keep`; returns what the play screen needs
        # to come back as it was left (lnr/play/screen.py kept()), or None. A method of its
        # own: the screen it read is not left in the stack slots of _switch(), which runs on
        # while the next screen's code loads.
        play = self.play
        where = play.kept() if play is not None else None
        play = None
        self._unload(keep)
        return where

    def _menus(self):
        # The menus, loaded once the play screen's code is gone.
        if self.menus is None:
            self._unload()
            self.leds.think()  # the menus' code loads (as the play screen's: player())
            from lnr.menus.screen import Menus

            self.menus = Menus(self, self.menus_kept)
            self.menus_kept = None
        return self.menus

    def player(self, keep=()):
        """Returns the play screen (a lnr.play.screen.Play), loaded once the menus' code is
        gone (and what is not in `keep`: the modules a bot's plan kept, _make_switch())."""
        if self.play is None:
            self._unload(keep)
            # Loading the play screen's code takes a board over half a second (docs/memory.md:
            # board waits): the LEDs' thinking sign steps as it begins, and between its map
            # (lnr.play.mapview), its view (lnr.play.view) and the rest.
            self.leds.think()
            import lnr.play.mapview

            self.leds.think()
            import lnr.play.view

            self.leds.think()
            from lnr.play.screen import Play

            self.play = Play(self)
        return self.play

    def _switch(self):
        # Every switch drops both screens' code and collects; then lnr.switch deals, unpacks,
        # packs or counts the game, and says what follows. The switch's arguments (a game, a
        # State) are let go before the next screen's code loads: they are no longer needed
        # by then, and the menus' screens must not share RAM with a finished game.
        screen, shown, where, keep = self._make_switch()
        self.leds.think()  # the switch's work is done: the next screen's code loads
        if screen != SC_PLAY:
            # A save & quit's way back (the turn's start State) is not needed: not held in this
            # frame while the menus' code loads, nor left in its stack slots after (the State
            # would keep the engine's code in RAM beside the menus', docs/memory.md).
            where = None
        self._engine = []
        if self.game is not None:
            for name in sys.modules:
                if name.startswith("engine."):
                    self._engine.append(name)
        if screen == SC_PLAY:
            self.screen = SC_PLAY
            play = self.player(keep)
            self.leds.think()  # the screen's code is loaded: the switch's last sign
            if shown is None:
                play.begin(self.game)
                return
            kind = shown[0]
            play.restore(self.game, where)  # the play screen as it was left
            if kind == W_THINK:
                play.auto_step()  # the bot's first planned step
                if self.hurry:  # B was pressed: on up to the result (skip())
                    play.skip()
            elif kind == W_HINT:
                play.hint(shown[1])
            else:  # W_SAVE: the NVM refused the save: back to the game as it was
                play.again()
                play.view.toast("Could not save")
            return
        menus = self._menus()
        self.leds.think()  # the screen's code is loaded: the switch's last sign
        if screen == SC_OVER:
            menus.game_over(shown)
        elif screen == SC_RECORDS:
            menus.records(shown)
        else:
            menus.title(shown)  # `shown`: the entry the cursor goes back to, or None

    def _make_switch(self):
        # The switch itself, in a call of its own: the stack slots it passed the switch's
        # arguments in (the game, the turn's start State) go with it when it returns. Kept
        # in _switch()'s slots, which the collector scans while _switch() runs, they would stay
        # in RAM beside the next screen's code (docs/memory.md).
        want = self._want
        self._want = None
        keep = _VIEW if want[0] == W_THINK else ()
        where = self._leave(keep)
        # A switch takes from a tenth of a second to a few on a board (docs/memory.md: board
        # waits): the LEDs' thinking sign steps between its loads, and the search's pulse
        # steps it while a bot plans or the hint is found (Leds.think).
        self.leds.think()
        kind = want[0]
        if kind != W_THINK and kind != W_HINT and kind != W_SAVE:
            where = None  # no way back to the play screen: its States must not stay in RAM
        self.doing = kind
        try:
            if kind == W_THINK or kind == W_HINT:
                from lnr.play.think import think  # not lnr.switch: RAM (lnr/play/think.py)

                screen, shown = SC_PLAY, (kind, think(self.game, kind))
            else:
                from lnr import switch

                screen, shown = switch.go(self, want)
        finally:
            self.doing = -1
        return screen, shown, where, keep

    # ------------------------------------------------------------------ error

    def error(self, exc):
        """Shows the error screen: what went wrong, the seed and the turn to replay it."""
        self.writes = False
        self._want = None
        g = self.game
        # The font tiles of lnr/ui.py's text layer: they are resident, so the error screen
        # shows even when the heap is full (the menus write the same lines).
        self.screen = SC_ERROR
        ui = self.ui
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
        self.leds.off()
        self.dirty = True
        self.game = None
