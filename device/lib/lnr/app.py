"""The app's screens and what connects them: title, mode select, table seats, records,
settings, how to play, play (lnr/play.py), game over, and the error screen.

Every screen but play draws into the text layer of lnr/ui.py: a big title and 8 lines, a menu
being lines whose colour marks the cursor. Records and the saved game go through
lnr/storage.py, which writes the NVM only at a game's end, on save & quit and when the
settings are left (flash wear, HARDWARE.md).
"""
import gc

from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE
from lnr import sprites
from lnr import game as games
from lnr.keys import K_A, K_B, K_START, K_LEFT, K_RIGHT, K_UP, K_DOWN
from lnr.play import Play
from lnr.ui import put, LINE_W, TEXT_LINES, WHITE, GREY, YELLOW, RED, GREEN, CYAN

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

_MODE_INFO = ("Lowest score wins", "Derail 4 times: lost", "Beat the rival's pile",
              "2-4 seats, bots or people")
_SETTINGS = ("LED brightness", "NeoPixels", "Hints", "Back")
_MENU_Y = const(2)  # first text line of a menu


def wrap(text, width):
    """Returns `text` broken into lines of at most `width` characters, at spaces."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = line + " " + word if line else word
        out.append(line)
    return out


class App:
    """The whole app: `key(k)` for a key press, `tick(now)` once per frame; `dirty` asks
    for a display refresh."""

    def __init__(self, hw, ui, leds, store):
        self.hw = hw
        self.ui = ui
        self.leds = leds
        self.store = store
        self.now = hw.ticks_ms()
        self.dirty = True
        self.writes = True  # False after an error: the NVM is never written again
        self.play = Play(self)
        self.game = None
        self.screen = SC_TITLE
        self.mi = 0
        self.items = []
        self.page = 0
        self.pages = 1
        self.mode = MODE_SOLO
        self.players = 3
        self.roles = bytearray(3)
        names = games.bot_names()
        for i in range(3):
            self.roles[i] = games.ROLE_BOT + (names[-1] if names else 0)
        seed = getattr(hw, "seed", None)
        self.seed = (seed if seed is not None else _random_seed()) & games.SEED_MASK
        self.message = store.notice  # shown once on the title (storage.notice)
        store.notice = None
        self.title()

    # ------------------------------------------------------------------ loop hooks

    def busy(self):
        """Returns True while the screen runs on a timer and keys should wait."""
        return self.screen == SC_PLAY and self.play.busy()

    def key(self, k):
        sc = self.screen
        if sc == SC_PLAY:
            self.play.key(k)
        elif sc == SC_TITLE:
            self.key_title(k)
        elif sc == SC_MODES:
            self.key_modes(k)
        elif sc == SC_TABLE:
            self.key_table(k)
        elif sc == SC_SETTINGS:
            self.key_settings(k)
        elif sc == SC_HOWTO:
            self.key_howto(k)
        elif k == K_A or k == K_B:  # records, game over, error
            self.title()

    def tick(self, now):
        if self.screen == SC_PLAY:
            self.play.tick(now)

    # ------------------------------------------------------------------ text screens

    def text_screen(self, screen, title, colour=YELLOW):
        self.screen = screen
        ui = self.ui
        ui.clear_text()
        put(ui.title, title, 13, colour)
        ui.show(ui.text)
        self.leds.off()
        self.dirty = True

    def line(self, i, text, colour=WHITE):
        put(self.ui.lines[i], text, LINE_W, colour)

    def menu(self, items, first=_MENU_Y):
        # Draws `items` as a menu from line `first`, the cursor on self.mi.
        self.items = items
        for i in range(len(items)):
            on = i == self.mi
            self.line(first + i, ("> " if on else "  ") + items[i], YELLOW if on else WHITE)
        self.dirty = True

    def move(self, k):
        # Up/down in a menu; returns True if the cursor moved.
        if k != K_UP and k != K_DOWN:
            return False
        n = len(self.items)
        self.mi = (self.mi + (1 if k == K_DOWN else n - 1)) % n
        return True

    # ------------------------------------------------------------------ title

    def title(self):
        """Shows the title screen: Continue (when a game is saved), New game, Records,
        Settings, How to play."""
        self.text_screen(SC_TITLE, "LOK'N'ROLL")
        deco = self.ui.deco
        for x in range(10):
            deco[x, 0] = sprites.T_STRAIGHT
        self.ui.deco_loco[0, 0] = sprites.T_LOCO
        self.mi = 0
        items = ["New game", "Records", "Settings", "How to play"]
        if self.store.saved is not None:
            items.insert(0, "Continue")
        self.menu(items, 2)
        if self.store.notice:  # e.g. a write that failed at the last game's end
            self.message = self.store.notice
            self.store.notice = None
        if self.message:
            lines = wrap(self.message, LINE_W)
            for i in range(len(lines)):
                if i < 2:
                    self.line(6 + i, lines[i], RED)
            self.message = None
        else:
            self.line(7, "A: choose", GREY)
        gc.collect()

    def key_title(self, k):
        if self.move(k):
            self.menu(self.items, 2)
        elif k == K_A or k == K_START:
            item = self.items[self.mi]
            if item == "Continue":
                self.resume()
            elif item == "New game":
                self.modes()
            elif item == "Records":
                self.records()
            elif item == "Settings":
                self.settings()
            else:
                self.page = 0
                self.howto()

    # ------------------------------------------------------------------ new game

    def modes(self):
        self.text_screen(SC_MODES, "NEW GAME")
        self.mi = self.mode
        self.draw_modes()

    def draw_modes(self):
        self.menu(list(games.MODE_TITLES), 1)
        if self.store.saved is not None:  # finish_game drops it (storage.py)
            self.line(5, "Finishing drops your save", GREY)
        self.line(6, _MODE_INFO[self.mi], CYAN)
        self.line(7, "A: play  B: back", GREY)

    def key_modes(self, k):
        if self.move(k):
            self.draw_modes()
        elif k == K_B:
            self.title()
        elif k == K_A or k == K_START:
            self.mode = self.mi
            if self.mode == MODE_TABLE:
                self.mi = 0
                self.table()
            else:
                self.start(self.mode, None)

    def table(self):
        self.text_screen(SC_TABLE, "TABLE")
        items = ["Seats: %d" % self.players]
        for seat in range(1, 4):
            if seat < self.players:
                role = self.roles[seat - 1]
                name = "person" if role == games.ROLE_HUMAN else \
                    "bot " + games.BOT_NAMES[role - games.ROLE_BOT]
                items.append("P%d: %s" % (seat + 1, name))
        items.append("Start")
        self.menu(items, 1)
        self.line(6, "P1 is you. </>: change", CYAN)
        self.line(7, "A: start  B: back", GREY)

    def key_table(self, k):
        if self.move(k):
            self.table()
        elif k == K_B:
            self.modes()
        elif k == K_A and self.mi == len(self.items) - 1:
            self.start(MODE_TABLE, self.players)
        elif k == K_LEFT or k == K_RIGHT or k == K_A:
            step = -1 if k == K_LEFT else 1
            if self.mi == 0:
                self.players = 2 + (self.players - 2 + step) % 3
            else:
                kinds = [games.ROLE_HUMAN]
                for i in games.bot_names():
                    kinds.append(games.ROLE_BOT + i)
                j = kinds.index(self.roles[self.mi - 1]) if self.roles[self.mi - 1] in kinds \
                    else 0
                self.roles[self.mi - 1] = kinds[(j + step) % len(kinds)]
            self.table()

    def start(self, mode, players):
        """Deals a new game of `mode` from the next seed and shows it."""
        gc.collect()
        seed = self.seed
        self.seed = (seed + 1) & games.SEED_MASK
        self.begin(games.new_game(mode, seed, players, self.roles))

    def begin(self, game):
        self.game = game
        self.screen = SC_PLAY
        self.play.begin(game)

    def resume(self):
        """Continue: the saved game, exactly where it was saved (engine/codec.py)."""
        saved = self.store.resume()
        game = None
        if saved is not None:
            try:
                game = games.unpack(saved)
            except ValueError:
                game = None
        if game is None:
            self.message = self.store.notice or "Saved game could not be restored"
            self.store.notice = None
            if self.writes and self.store.saved is not None:
                self.store.drop_saved()
            self.title()
            return
        self.begin(game)

    def save_and_quit(self, game, start):
        """Stores the game as it stood at the turn's start and goes to the title."""
        store = self.store
        if not self.writes:
            self.play.toast("Saving is off")
            return
        blob = games.pack(game, start)
        before = store.notice
        ok = store.save_game(blob)
        # An unchanged save is not rewritten (storage spares the flash): still saved.
        if not ok and store.notice == before and store.saved == blob:
            ok = True
        if not ok:
            store.notice = before
            self.play.toast("Could not save")
            return
        self.game = None
        self.message = "Game saved: Continue resumes it"
        self.title()

    def game_over(self, game):
        """Counts the game (one NVM write) and shows the score and the record."""
        s = game.state
        mode = s.mode
        me = 1 if mode == MODE_RIVAL else game.first_human()
        score = s.score(me)
        won = me in s.winners()
        record = False
        best = self.store.best[mode]
        if self.writes:
            record = self.store.finish_game(mode, score, won)
        self.game = None
        self.text_screen(SC_OVER, "GAME OVER", RED if mode == MODE_CHALLENGE and s.lost else YELLOW)
        self.line(0, "Your score: %d" % score)
        if mode == MODE_RIVAL:
            n = s.score(0)
            self.line(1, "Rival's pile: %d card%s" % (n, "" if n == 1 else "s"))
            self.line(2, "YOU WIN!" if won else "The rival wins", GREEN if won else RED)
        elif mode == MODE_CHALLENGE and s.lost:
            self.line(1, "4th derailment: lost", RED)
        elif mode == MODE_TABLE:
            self.line(1, "WINNER!" if won else "Winner: " + _names(game, s.winners()),
                      GREEN if won else WHITE)
            for seat in range(s.players):
                self.line(2 + seat, "%s: %d" % (game.name(seat), s.score(seat)))
        if mode != MODE_TABLE:
            self.line(4, "Cards: %d  Derailed: %d" % (
                len(s.hands[me]) + len(s.piles[me]), s.derails), GREY)
            self.line(5, "Games of %s: %d" % (games.MODE_TITLES[mode],
                                               self.store.played[mode]), GREY)
        if record:
            self.line(6, "NEW RECORD!", GREEN)
        elif best is not None:
            self.line(6, "Record: %d" % best, CYAN)
        self.line(7, "A: title", GREY)
        self.leds.off()
        gc.collect()

    # ------------------------------------------------------------------ records, settings

    def records(self):
        self.text_screen(SC_RECORDS, "RECORDS")
        st = self.store
        self.line(0, "Mode        best   games", GREY)
        for m in range(4):
            best = st.best[m]
            self.line(1 + m, "%-10s %5s %7d" % (
                games.MODE_TITLES[m], "-" if best is None else str(best), st.played[m]))
        self.line(5, "Rival beaten: %d" % st.rival_wins)
        self.line(7, "A/B: back", GREY)

    def settings(self):
        self.text_screen(SC_SETTINGS, "SETTINGS")
        self.mi = 0
        self.leds.progress(2, 6)  # a sample picture to judge the LEDs by
        self.draw_settings()

    def draw_settings(self):
        st = self.store
        values = ("%d of 4" % st.brightness, "%d lit" % st.pixel_count,
                  "on" if st.hints else "off", "")
        items = []
        for i in range(4):
            items.append("%-14s %s" % (_SETTINGS[i], values[i]) if values[i] else _SETTINGS[i])
        self.menu(items, 1)
        self.line(7, "</>: change  B: back", GREY)

    def key_settings(self, k):
        st = self.store
        if self.move(k):
            self.draw_settings()
        elif k == K_B or (k == K_A and self.mi == 3):
            if self.writes:
                st.save_settings()
            self.title()
        elif k == K_LEFT or k == K_RIGHT or k == K_A:
            step = -1 if k == K_LEFT else 1
            if self.mi == 0:
                st.brightness = (st.brightness + step) % 5
                self.leds.set_brightness(st.brightness)
            elif self.mi == 1:
                n = self.hw.max_pixels
                st.pixel_count = 1 + (st.pixel_count - 1 + step) % n
                self.leds.set_count(st.pixel_count)
            elif self.mi == 2:
                st.hints = 1 - st.hints
            self.leds.progress(2, 6)  # a sample picture to judge the LEDs by
            self.draw_settings()

    def howto(self):
        # The pages are imported for the screen, then dropped (their strings cost RAM).
        import sys

        from lnr.howto import PAGES

        self.text_screen(SC_HOWTO, "HOW TO PLAY")
        self.pages = n = len(PAGES)
        self.page %= n
        page = PAGES[self.page]
        for i in range(TEXT_LINES - 1):
            self.line(i, page[i] if i < len(page) else "")
        self.line(7, "%d/%d  </>: page  B: back" % (self.page + 1, n), GREY)
        del PAGES
        sys.modules.pop("lnr.howto", None)

    def key_howto(self, k):
        if k == K_B:
            self.title()
        elif k == K_LEFT or k == K_RIGHT or k == K_A:
            self.page += self.pages - 1 if k == K_LEFT else 1
            self.howto()

    # ------------------------------------------------------------------ error

    def error(self, exc):
        """Shows the error screen: what went wrong, the seed and the turn to replay it."""
        self.writes = False
        g = self.game
        self.text_screen(SC_ERROR, "ERROR", RED)
        self.line(0, "Something went wrong:", WHITE)
        lines = wrap("%s: %s" % (type(exc).__name__, exc), LINE_W)
        for i in range(3):
            self.line(1 + i, lines[i] if i < len(lines) else "", RED)
        if g is not None:
            self.line(4, "%s seed %d turn %d" % (
                games.MODE_TITLES[g.state.mode], g.seed, g.state.turn), YELLOW)
        self.line(5, "Records are safe.")
        self.line(6, "Saving is off until reset", GREY)
        self.line(7, "A: title", GREY)
        self.game = None


def _names(game, seats):
    out = ""
    for seat in seats:
        out += (" " if out else "") + game.name(seat)
    return out


def _random_seed():
    # A new seed each power-up: the board's random source, else the clock.
    try:
        import os

        b = os.urandom(3)
        return (b[0] << 16) | (b[1] << 8) | b[2]
    except (ImportError, NotImplementedError, AttributeError):
        import time

        return int(time.monotonic() * 1000)

