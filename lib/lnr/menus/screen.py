"""The menus: title, mode select, table seats, records, settings, how to play and game over.

Each draws a big title and 8 lines of font tiles through lnr/menus/labels.py, on the text layer
of lnr/ui.py; a menu is lines whose colour marks the cursor. The Menus object holds the menus'
state (the cursor, the items, a page, the seed being typed); lnr/app.py makes one while a menu
is up and drops it with this module for a game (RAM): what outlasts the game (the mode, seats
and roles chosen last) is the App's. A menu never imports the play screen, it asks the App to
start or resume a game.
"""
import gc

from lnr.memory import drop, unsaid, DOWN, HINT, LIGHTS, SOUND
from lnr import sprites
from lnr.menus.labels import Labels
from lnr import game as games
from lnr.game import MODE_RIVAL, MODE_TABLE, SEED_MASK
from lnr.screens import SC_TITLE, SC_MODES, SC_TABLE, SC_RECORDS, SC_SETTINGS, SC_HOWTO, SC_OVER
from lnr.keys import K_A, K_B, K_START, K_LEFT, K_RIGHT, K_UP, K_DOWN
from lnr.ui import wrap, LINE_W, TEXT_LINES, WHITE, GREY, YELLOW, RED, GREEN, CYAN

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_MODE_INFO = ("Lowest score wins", "Derail 4 times: lost", "Beat the rival's pile",
              "2-4 seats, bots or people")
_SETTINGS = ("LED brightness", "NeoPixels", "Hints", "Sound", "Back")
_MENU_Y = const(2)  # first text line of a menu
_SEED_ROW = const(4)  # the new game screen's Seed row, under the 4 modes
_DIGITS = const(8)  # a seed's digits: SEED_MASK is 16777215
_SEED_AT = const(8)  # where the digits start in "> Seed: 00000000"
SHORT = ("Solo", "Chall.", "Rival", "Table")  # the modes in a Records line (26 characters)
_SHOWN = const(7)  # Records' lines above its footer
_FIXED = const(6)  # Records' lines before the last games: the best per mode


def seed_text(seed):
    """Returns the Seed row's text: "Seed: random", or the typed seed's 8 digits."""
    return "Seed: random" if seed is None else "Seed: %08d" % seed


def game_line(last, i):
    """Returns the Records line of the i-th game of lnr.lastgames.last_games(): mode, score,
    won or lost, seed (26 characters at most)."""
    g = last[6 * i:6 * i + 6]
    return "%-6s%4d  %-4s  %8d" % (SHORT[g[3]], g[5], "won" if g[4] else "lost",
                                  (g[0] << 16) | (g[1] << 8) | g[2])


class Menus:
    """The menus on `app`; see the module docstring."""

    def __init__(self, app):
        self.app = app
        self.labels = Labels(app.ui)  # the menus' text, over the text layer
        self.mi = 0  # the cursor, on one of `items`
        self.items = []
        self.page = 0  # the how-to page, or Records' first row
        self.pages = 1
        self.settings_were = None  # the settings as the settings screen opened
        self.typed = None  # the seed typed on the new game screen; None: random
        self.digit = -1  # the seed's digit being typed, -1 when not typing
        self.last = None  # the Records screen's last games, None elsewhere

    def key(self, k):
        """Handles a key press on the menu screen that is up."""
        sc = self.app.screen
        if sc == SC_TITLE:
            self._key_title(k)
        elif sc == SC_MODES:
            self._key_modes(k)
        elif sc == SC_TABLE:
            self._key_table(k)
        elif sc == SC_SETTINGS:
            self._key_settings(k)
        elif sc == SC_HOWTO:
            self._key_howto(k)
        elif sc == SC_RECORDS:
            self._key_records(k)
        elif k == K_A or k == K_B:  # game over
            self.title()

    def _screen(self, screen, title, colour=YELLOW):
        # A menu's screen: the text layer, its title, every line blank, the LEDs off.
        self.app.screen = screen
        ui = self.app.ui
        ui.clear_text()  # the error screen's font tiles, the title's rails
        self.labels.show(title, colour)
        ui.show(ui.text)
        self.app.leds.off()
        self.app.dirty = True

    def _menu(self, items, first=_MENU_Y):
        # Draws `items` as a menu from line `first`, the cursor on self.mi.
        self.items = items
        for i in range(len(items)):
            on = i == self.mi
            self.labels.line(first + i, ("> " if on else "  ") + items[i], YELLOW if on else WHITE)
        self.app.dirty = True

    def _cursor(self, k):
        # Up/down in a menu; returns True if the cursor moved.
        if k != K_UP and k != K_DOWN:
            return False
        n = len(self.items)
        self.mi = (self.mi + (1 if k == K_DOWN else n - 1)) % n
        return True

    # ---------------------------------------------------------------------- title

    def title(self, at=None):
        """Shows the title screen: Continue (when a game is saved), New game, Records,
        Settings, How to play; the cursor on the entry `at` (the one B came back from), else
        on the first."""
        self._screen(SC_TITLE, "LOK'N'ROLL")
        deco = self.app.ui.deco
        for x in range(10):
            deco[x, 0] = sprites.T_STRAIGHT
        self.app.ui.deco_loco[0, 0] = sprites.T_LOCO
        self.mi = 0
        items = ["New game", "Records", "Settings", "How to play"]
        store = self.app.store
        if store.saved is not None:
            items.insert(0, "Continue")
        if store.notice:  # e.g. a write that failed at the last game's end
            self.app.message = store.notice
            self.app.message_ok = False
            store.notice = None
        if not self.app.message:  # a feature turned down for memory: each said once
            self.app.message = unsaid()
        # A message (what a save did, damaged data) takes the rails' place, over the menu; it
        # stays while the title is up, green when it says something went well.
        if self.app.message:
            for x in range(10):
                deco[x, 0] = sprites.T_NONE
            self.app.ui.deco_loco[0, 0] = sprites.T_NONE
            lines = wrap(self.app.message, LINE_W)
            for i in range(len(lines)):
                if i < 7:
                    self.labels.line(i, lines[i], GREEN if self.app.message_ok else RED)
            self.app.message = None
            self.app.message_ok = False
            if len(lines) > 2:  # the whole of it, before the menu (a key shows the menu)
                self.labels.line(7, "A: ok", GREY)
                self.items = []
                return
        self.labels.line(7, "A: choose", GREY)
        if at in items:
            self.mi = items.index(at)
        self._menu(items, 2)
        gc.collect()

    def _key_title(self, k):
        if not self.items:  # a long message was up (title()): now the menu
            self.title()
        elif self._cursor(k):
            self._menu(self.items, 2)
        elif k == K_A or k == K_START:
            item = self.items[self.mi]
            if item == "Continue":
                self.app.resume()
            elif item == "New game":
                self._modes()
            elif item == "Records":
                self.app.records()  # a switch: the history is read with the menus' code dropped
            elif item == "Settings":
                self._settings()
            else:
                self.page = 0
                self._howto()

    # ---------------------------------------------------------------------- new game

    def _modes(self):
        self._screen(SC_MODES, "NEW GAME")
        self.mi = self.app.mode
        self.digit = -1
        self._draw_modes()

    def _draw_modes(self):
        items = list(games.MODE_TITLES)
        items.append(seed_text(self.typed))
        self._menu(items, 1)
        # A new game's end drops the saved game and its Save & quit replaces it (storage.py).
        if self.app.store.saved is not None:
            self.labels.line(0, "Replaces your saved game", GREY)
        if self.digit >= 0:  # a caret under the digit being typed
            self.labels.line(6, " " * (_SEED_AT + self.digit) + "^", YELLOW)
            self.labels.line(7, "</>^v:digit A:ok B:random", GREY)
        elif self.mi == _SEED_ROW:
            self.labels.line(6, "The deal of a shared seed", CYAN)
            self.labels.line(7, "A: type it  B: random", GREY)
        else:
            self.labels.line(6, _MODE_INFO[self.mi], CYAN)
            self.labels.line(7, "A: play  B: back", GREY)

    def _type(self, k):
        # A key while the seed is typed: </> pick a digit, ^/v change it, A done, B random
        # (as the Seed row offers).
        if k == K_LEFT or k == K_RIGHT:
            self.digit = (self.digit + (1 if k == K_RIGHT else _DIGITS - 1)) % _DIGITS
        elif k == K_UP or k == K_DOWN:
            unit = 10 ** (_DIGITS - 1 - self.digit)
            d = self.typed // unit % 10
            rest = self.typed - d * unit
            d = (d + (1 if k == K_UP else 9)) % 10
            # Seeds are 24 bits (lnr.game.SEED_MASK): a digit wraps within those that keep
            # the seed below it (UP past the largest to 0, DOWN from 0 to the largest), and
            # the other digits stay as typed.
            while rest + d * unit > SEED_MASK:
                d = 0 if k == K_UP else d - 1
            self.typed = rest + d * unit
        elif k == K_A or k == K_START:
            self.digit = -1
            self.mi = self.app.mode  # back on the mode: A plays it with the typed seed
        elif k == K_B:
            self.digit = -1
            self.typed = None
        self._draw_modes()

    def _key_modes(self, k):
        if self.digit >= 0:
            self._type(k)
        elif self._cursor(k):
            self._draw_modes()
        elif k == K_B:
            if self.mi == _SEED_ROW and self.typed is not None:
                self.typed = None
                self._draw_modes()
            else:
                self.title("New game")
        elif self.mi == _SEED_ROW:
            if k == K_A or k == K_START:
                if self.typed is None:
                    self.typed = 0
                self.digit = 0
                self._draw_modes()
        elif k == K_A or k == K_START:
            mode = self.app.mode = self.mi
            if mode == MODE_TABLE:
                self.mi = 0
                self._table()
            else:
                self._start(mode, None)

    def _start(self, mode, players):
        # A new game from the typed seed (then random again: the default), else the next seed.
        seed = self.typed
        self.typed = None
        self.app.start(mode, players, seed, self.app.roles)

    def _table(self):
        app = self.app
        if app.roles is None:  # the strongest bot in every seat (lnr.game.BOT_NAMES)
            app.roles = bytearray(3)
            for i in range(3):
                app.roles[i] = games.ROLE_BOT + len(games.BOT_NAMES) - 1
        self._screen(SC_TABLE, "TABLE")
        items = ["Seats: %d" % app.players]
        for seat in range(1, 4):
            if seat < app.players:
                role = app.roles[seat - 1]
                name = "person" if role == games.ROLE_HUMAN else \
                    "bot " + games.BOT_NAMES[role - games.ROLE_BOT]
                items.append("P%d: %s" % (seat + 1, name))
        items.append("Start")
        self._menu(items, 1)
        self.labels.line(6, "P1 is you.", CYAN)
        # What A does on the line under the cursor: it changes a seat line, starts on Start.
        self.labels.line(7, "A: start  B: back" if self.mi == len(items) - 1 else
                        "</> or A: change  B: back", GREY)

    def _key_table(self, k):
        if self._cursor(k):
            self._table()
        elif k == K_B:
            self._modes()
        elif self.mi == len(self.items) - 1:  # Start: only A starts (no seat under the cursor)
            if k == K_A or k == K_START:
                self._start(MODE_TABLE, self.app.players)
        elif k == K_LEFT or k == K_RIGHT or k == K_A:
            step = -1 if k == K_LEFT else 1
            app = self.app
            if self.mi == 0:
                app.players = 2 + (app.players - 2 + step) % 3
            else:
                # A person, then each bot of lnr.game.BOT_NAMES, round and round.
                role = app.roles[self.mi - 1]
                j = role - games.ROLE_BOT + 1 if role >= games.ROLE_BOT else 0
                j = (j + step) % (1 + len(games.BOT_NAMES))
                app.roles[self.mi - 1] = games.ROLE_BOT + j - 1 if j else games.ROLE_HUMAN
            self._table()

    # ---------------------------------------------------------------------- game over

    def game_over(self, shown):
        """Shows a finished game's result: `shown` is lnr.over.over()'s (the title's colour, 8
        lines of (text, colour)), the game already counted and let go."""
        colour, lines = shown
        self._screen(SC_OVER, "GAME OVER", colour)
        for i in range(TEXT_LINES):
            self.labels.line(i, lines[i][0], lines[i][1])
        gc.collect()

    # ---------------------------------------------------------------------- records, settings

    def records(self, last):
        """Shows Records: the best per mode and `last`, the history's last games (lnr/lastgames.py,
        read by a switch: lnr/games.py)."""
        self._screen(SC_RECORDS, "RECORDS")
        self.last = last
        self.page = 0
        self._draw_records()

    def records_line(self, row):
        """Returns (text, colour) of Records' row `row`: the best per mode, then the last games."""
        st = self.app.store
        # The rival's wins in its row, not a row of their own: the last games start above the
        # fold (_SHOWN), the newest first.
        if row == 0:
            return "Mode       best games  won", GREY
        if row <= 4:
            m = row - 1
            best = st.best[m]
            text = "%-10s %4s %5d" % (games.MODE_TITLES[m], "-" if best is None else str(best),
                                      st.played[m])
            return (text + " %4d" % st.rival_wins if m == MODE_RIVAL else text), WHITE
        if row == 5:
            return ("Last games  result    seed" if self.last else "No games kept yet"), GREY
        return game_line(self.last, row - _FIXED), WHITE

    def _pages(self):
        # The last page: page 0 shows the best per mode and the newest game; page p > 0 the
        # last games from the (p - 1)th under their column header, which stays.
        n = len(self.last) // 6
        return 0 if n < 2 else max(1, n - _SHOWN + 2)

    def _draw_records(self):
        p = self.page
        rows = _FIXED + len(self.last) // 6
        for i in range(_SHOWN):
            row = i if p == 0 else (_FIXED - 1 if i == 0 else _FIXED + p - 2 + i)
            if row < rows:
                text, colour = self.records_line(row)
                self.labels.line(i, text, colour)
            else:
                self.labels.line(i, "")
        more = self._pages() > 0
        self.labels.line(7, "^v: scroll  B: back" if more else "A/B: back", GREY)

    def _key_records(self, k):
        if k == K_UP or k == K_DOWN:
            top = self.page + (1 if k == K_DOWN else -1)
            if 0 <= top <= self._pages():
                self.page = top
                self._draw_records()
        elif k == K_A or k == K_B:
            self.last = None
            self.title("Records")

    def _settings(self):
        self._screen(SC_SETTINGS, "SETTINGS")
        st = self.app.store
        self.settings_were = (st.brightness, st.pixel_count, st.hints, st.sound)
        self.mi = 0
        self.app.leds.progress(2, 6)  # a sample picture to judge the LEDs by
        self._draw_settings()

    def _draw_settings(self):
        st = self.app.store
        values = ("%d of 4" % st.brightness, "%d lit" % st.pixel_count,
                  "on" if st.hints else "off", "on" if st.sound else "off", "")
        items = []
        for i in range(len(_SETTINGS)):
            items.append("%-14s %s" % (_SETTINGS[i], values[i]) if values[i] else _SETTINGS[i])
        self._menu(items, 1)
        # A setting whose feature the board turned down for memory (lnr/memory) changes nothing
        # until it is reset: the line under the menu says so where the cursor is on it.
        mi = self.mi
        down = mi < 4 and DOWN[0] & (LIGHTS if mi < 2 else HINT if mi == 2 else SOUND)
        self.labels.line(6, "Off: short of memory" if down else "", GREY)
        self.labels.line(7, "</>: change  B: back", GREY)

    def _key_settings(self, k):
        st = self.app.store
        if self._cursor(k):
            self._draw_settings()
        elif k == K_B or (k == K_A and self.mi == len(_SETTINGS) - 1):
            if self.app.writes and (st.brightness, st.pixel_count, st.hints, st.sound) != \
                    self.settings_were:
                self.app.save_settings()  # a switch: the copies' code never loads here
            else:
                self.title("Settings")
        elif (k == K_LEFT or k == K_RIGHT or k == K_A) and self.mi < len(_SETTINGS) - 1:
            step = -1 if k == K_LEFT else 1  # (the Back row changes nothing)
            if self.mi == 0:
                st.brightness = (st.brightness + step) % 5
                self.app.leds.set_brightness(st.brightness)
            elif self.mi == 1:
                n = self.app.hw.max_pixels
                st.pixel_count = 1 + (st.pixel_count - 1 + step) % n
                self.app.leds.set_count(st.pixel_count)
            elif self.mi == 2:
                st.hints = 1 - st.hints
            else:
                st.sound = 1 - st.sound
                self.app.sound.on = st.sound
                self.app.sound.play("lay", self.app.now)  # a sample, heard only when on
            self.app.leds.progress(2, 6)  # a sample picture to judge the LEDs by
            self._draw_settings()

    # ---------------------------------------------------------------------- how to play

    def _howto(self):
        # The pages are imported for the screen, then dropped (their text costs RAM).
        # The last page is the Board's: what this board showed (lnr/memory/report.py), the
        # figures a player with a board sends us (docs/hardware.md).
        from lnr.menus.howto import PAGES

        self.pages = n = len(PAGES) + 1
        self.page %= n
        if self.page < n - 1:
            self._screen(SC_HOWTO, "HOW TO PLAY")
            page = PAGES[self.page]
        else:
            from lnr.memory.report import page as board

            self._screen(SC_HOWTO, "BOARD")
            page = board(self.app.hw)
            board = None
            drop("lnr.memory.report")
        for i in range(TEXT_LINES - 1):
            self.labels.line(i, page[i] if i < len(page) else "")
        self.labels.line(7, "%d/%d  </>: page  B: back" % (self.page + 1, n), GREY)
        del PAGES
        drop("lnr.menus.howto")

    def _key_howto(self, k):
        if k == K_B:
            self.title("How to play")
        elif k == K_LEFT or k == K_RIGHT or k == K_A:
            self.page += self.pages - 1 if k == K_LEFT else 1
            self._howto()
