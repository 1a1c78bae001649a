"""The menus: title, mode select, table seats, records, settings, how to play and game over.

Each draws a big title and 8 lines of font tiles through lnr/labels.py, on the text layer of
lnr/ui.py; a menu is lines whose colour marks the cursor.
Their state lives on the App (mi, items, page, mode, players, roles). lnr/app.py loads this
module while a menu is up, calls enter() then, and leave() before it drops the module for a game
(RAM): a menu never imports the play screen, it asks the App to start or resume a game.
"""
import gc

from lnr import drop
from lnr import sprites
from lnr.labels import Labels
from lnr import game as games
from lnr.game import MODE_TABLE, SEED_MASK
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
_FIXED = const(7)  # Records' lines before the last games: the best per mode


def enter(app):
    """Gives the menus their text (app.labels, over the text layer: lnr/app.py, on loading)."""
    app.labels = Labels(app.ui)


def leave(app):
    """Lets the menus' text go (lnr/app.py, before the module is dropped)."""
    app.labels = None


def key(app, k):
    """Handles a key press on the menu screen that is up."""
    sc = app.screen
    if sc == SC_TITLE:
        _key_title(app, k)
    elif sc == SC_MODES:
        _key_modes(app, k)
    elif sc == SC_TABLE:
        _key_table(app, k)
    elif sc == SC_SETTINGS:
        _key_settings(app, k)
    elif sc == SC_HOWTO:
        _key_howto(app, k)
    elif sc == SC_RECORDS:
        _key_records(app, k)
    elif k == K_A or k == K_B:  # game over
        title(app)


def _screen(app, screen, title, colour=YELLOW):
    # A menu's screen: the text layer, its title, every line blank, the LEDs off.
    app.screen = screen
    ui = app.ui
    ui.clear_text()  # the error screen's font tiles, the title's rails
    app.labels.show(title, colour)
    ui.show(ui.text)
    app.leds.off()
    app.dirty = True


def _menu(app, items, first=_MENU_Y):
    # Draws `items` as a menu from line `first`, the cursor on app.mi.
    app.items = items
    for i in range(len(items)):
        on = i == app.mi
        app.labels.line(first + i, ("> " if on else "  ") + items[i], YELLOW if on else WHITE)
    app.dirty = True


def _move(app, k):
    # Up/down in a menu; returns True if the cursor moved.
    if k != K_UP and k != K_DOWN:
        return False
    n = len(app.items)
    app.mi = (app.mi + (1 if k == K_DOWN else n - 1)) % n
    return True


# ---------------------------------------------------------------------- title


def title(app):
    """Shows the title screen: Continue (when a game is saved), New game, Records,
    Settings, How to play."""
    _screen(app, SC_TITLE, "LOK'N'ROLL")
    deco = app.ui.deco
    for x in range(10):
        deco[x, 0] = sprites.T_STRAIGHT
    app.ui.deco_loco[0, 0] = sprites.T_LOCO
    app.mi = 0
    items = ["New game", "Records", "Settings", "How to play"]
    store = app.store
    if store.saved is not None:
        items.insert(0, "Continue")
    if store.notice:  # e.g. a write that failed at the last game's end
        app.message = store.notice
        app.message_ok = False
        store.notice = None
    # A message (what a save did, damaged data) takes the rails' place, over the menu; it
    # stays while the title is up, green when it says something went well.
    if app.message:
        for x in range(10):
            deco[x, 0] = sprites.T_NONE
        app.ui.deco_loco[0, 0] = sprites.T_NONE
        lines = wrap(app.message, LINE_W)
        for i in range(len(lines)):
            if i < 2:
                app.labels.line(i, lines[i], GREEN if app.message_ok else RED)
        app.message = None
        app.message_ok = False
    app.labels.line(7, "A: choose", GREY)
    _menu(app, items, 2)
    gc.collect()


def _key_title(app, k):
    if _move(app, k):
        _menu(app, app.items, 2)
    elif k == K_A or k == K_START:
        item = app.items[app.mi]
        if item == "Continue":
            app.resume()
        elif item == "New game":
            _modes(app)
        elif item == "Records":
            app.records()  # a move: the history is read with the menus' code dropped
        elif item == "Settings":
            _settings(app)
        else:
            app.page = 0
            _howto(app)


# ---------------------------------------------------------------------- new game


def _modes(app):
    _screen(app, SC_MODES, "NEW GAME")
    app.mi = app.mode
    app.digit = -1
    _draw_modes(app)


def seed_text(seed):
    """Returns the Seed row's text: "Seed: random", or the typed seed's 8 digits."""
    return "Seed: random" if seed is None else "Seed: %08d" % seed


def _draw_modes(app):
    items = list(games.MODE_TITLES)
    items.append(seed_text(app.typed))
    _menu(app, items, 1)
    if app.store.saved is not None:  # finish_game drops it (storage.py)
        app.labels.line(0, "Finishing drops your save", GREY)
    if app.digit >= 0:  # a caret under the digit being typed
        app.labels.line(6, " " * (_SEED_AT + app.digit) + "^", YELLOW)
        app.labels.line(7, "</>^v: digit  A: ok", GREY)
    elif app.mi == _SEED_ROW:
        app.labels.line(6, "The deal of a shared seed", CYAN)
        app.labels.line(7, "A: type it  B: random", GREY)
    else:
        app.labels.line(6, _MODE_INFO[app.mi], CYAN)
        app.labels.line(7, "A: play  B: back", GREY)


def _type(app, k):
    # A key while the seed is typed: </> pick a digit, ^/v change it, A or B done.
    if k == K_LEFT or k == K_RIGHT:
        app.digit = (app.digit + (1 if k == K_RIGHT else _DIGITS - 1)) % _DIGITS
    elif k == K_UP or k == K_DOWN:
        unit = 10 ** (_DIGITS - 1 - app.digit)
        d = app.typed // unit % 10
        step = (1 if k == K_UP else 9)
        seed = app.typed + ((d + step) % 10 - d) * unit
        # Seeds are 24 bits (lnr.game.SEED_MASK): a digit that would pass it stops there.
        app.typed = seed if seed <= SEED_MASK else SEED_MASK
    elif k == K_A or k == K_B or k == K_START:
        app.digit = -1
        app.mi = app.mode  # back on the mode: A plays it with the typed seed
    _draw_modes(app)


def _key_modes(app, k):
    if app.digit >= 0:
        _type(app, k)
    elif _move(app, k):
        _draw_modes(app)
    elif k == K_B:
        if app.mi == _SEED_ROW and app.typed is not None:
            app.typed = None
            _draw_modes(app)
        else:
            title(app)
    elif app.mi == _SEED_ROW:
        if k == K_A or k == K_START:
            if app.typed is None:
                app.typed = 0
            app.digit = 0
            _draw_modes(app)
    elif k == K_A or k == K_START:
        app.mode = app.mi
        if app.mode == MODE_TABLE:
            app.mi = 0
            _table(app)
        else:
            _start(app, app.mode, None)


def _start(app, mode, players):
    # A new game from the typed seed (then random again: the default), else the next seed.
    seed = app.typed
    app.typed = None
    app.start(mode, players, seed)


def _table(app):
    if app.roles is None:  # the strongest bot in every seat (lnr.game.BOT_NAMES)
        app.roles = bytearray(3)
        for i in range(3):
            app.roles[i] = games.ROLE_BOT + len(games.BOT_NAMES) - 1
    _screen(app, SC_TABLE, "TABLE")
    items = ["Seats: %d" % app.players]
    for seat in range(1, 4):
        if seat < app.players:
            role = app.roles[seat - 1]
            name = "person" if role == games.ROLE_HUMAN else \
                "bot " + games.BOT_NAMES[role - games.ROLE_BOT]
            items.append("P%d: %s" % (seat + 1, name))
    items.append("Start")
    _menu(app, items, 1)
    app.labels.line(6, "P1 is you.", CYAN)
    # What A does on the line under the cursor: it changes a seat line, starts on Start.
    app.labels.line(7, "A: start  B: back" if app.mi == len(items) - 1 else
                    "</> or A: change  B: back", GREY)


def _key_table(app, k):
    if _move(app, k):
        _table(app)
    elif k == K_B:
        _modes(app)
    elif k == K_A and app.mi == len(app.items) - 1:
        _start(app, MODE_TABLE, app.players)
    elif k == K_LEFT or k == K_RIGHT or k == K_A:
        step = -1 if k == K_LEFT else 1
        if app.mi == 0:
            app.players = 2 + (app.players - 2 + step) % 3
        else:
            # A person, then each bot of lnr.game.BOT_NAMES, round and round.
            role = app.roles[app.mi - 1]
            j = role - games.ROLE_BOT + 1 if role >= games.ROLE_BOT else 0
            j = (j + step) % (1 + len(games.BOT_NAMES))
            app.roles[app.mi - 1] = games.ROLE_BOT + j - 1 if j else games.ROLE_HUMAN
        _table(app)


# ---------------------------------------------------------------------- game over


def game_over(app, shown):
    """Shows a finished game's result: `shown` is lnr.moves.over()'s (the title's colour, 8
    lines of (text, colour)), the game already counted and let go."""
    colour, lines = shown
    _screen(app, SC_OVER, "GAME OVER", colour)
    for i in range(TEXT_LINES):
        app.labels.line(i, lines[i][0], lines[i][1])
    gc.collect()


# ---------------------------------------------------------------------- records, settings


def records(app, last):
    """Shows Records: the best per mode and `last`, the history's last games (lnr/lastgames.py,
    read by a move: lnr/moves.py)."""
    _screen(app, SC_RECORDS, "RECORDS")
    app.last = last
    app.page = 0
    _draw_records(app)


def game_line(last, i):
    """Returns the Records line of the i-th game of lnr.lastgames.last_games(): mode, score,
    won or lost, seed (26 characters at most)."""
    g = last[6 * i:6 * i + 6]
    return "%-6s%4d  %-4s  %8d" % (SHORT[g[3]], g[5], "won" if g[4] else "lost",
                                  (g[0] << 16) | (g[1] << 8) | g[2])


def records_line(app, row):
    """Returns (text, colour) of Records' row `row`: the best per mode, then the last games."""
    st = app.store
    if row == 0:
        return "Mode        best   games", GREY
    if row <= 4:
        m = row - 1
        best = st.best[m]
        return "%-10s %5s %7d" % (games.MODE_TITLES[m], "-" if best is None else str(best),
                                  st.played[m]), WHITE
    if row == 5:
        return "Rival beaten: %d" % st.rival_wins, WHITE
    if row == 6:
        return ("Last games  result    seed" if app.last else "No games kept yet"), GREY
    return game_line(app.last, row - _FIXED), WHITE


def _rows(app):
    return _FIXED + len(app.last) // 6


def _draw_records(app):
    for i in range(_SHOWN):
        row = app.page + i
        if row < _rows(app):
            text, colour = records_line(app, row)
            app.labels.line(i, text, colour)
        else:
            app.labels.line(i, "")
    more = _rows(app) > _SHOWN
    app.labels.line(7, "^v: scroll  B: back" if more else "A/B: back", GREY)


def _key_records(app, k):
    if k == K_UP or k == K_DOWN:
        top = app.page + (1 if k == K_DOWN else -1)
        if 0 <= top <= _rows(app) - _SHOWN:
            app.page = top
            _draw_records(app)
    elif k == K_A or k == K_B:
        app.last = None
        title(app)


def _settings(app):
    _screen(app, SC_SETTINGS, "SETTINGS")
    st = app.store
    app.settings_were = (st.brightness, st.pixel_count, st.hints, st.sound)
    app.mi = 0
    app.leds.progress(2, 6)  # a sample picture to judge the LEDs by
    _draw_settings(app)


def _draw_settings(app):
    st = app.store
    values = ("%d of 4" % st.brightness, "%d lit" % st.pixel_count,
              "on" if st.hints else "off", "on" if st.sound else "off", "")
    items = []
    for i in range(len(_SETTINGS)):
        items.append("%-14s %s" % (_SETTINGS[i], values[i]) if values[i] else _SETTINGS[i])
    _menu(app, items, 1)
    app.labels.line(7, "</>: change  B: back", GREY)


def _key_settings(app, k):
    st = app.store
    if _move(app, k):
        _draw_settings(app)
    elif k == K_B or (k == K_A and app.mi == len(_SETTINGS) - 1):
        if app.writes and (st.brightness, st.pixel_count, st.hints, st.sound) != \
                app.settings_were:
            app.save_settings()  # a move (lnr/moves.py): the copies' code never loads here
        else:
            title(app)
    elif k == K_LEFT or k == K_RIGHT or k == K_A:
        step = -1 if k == K_LEFT else 1
        if app.mi == 0:
            st.brightness = (st.brightness + step) % 5
            app.leds.set_brightness(st.brightness)
        elif app.mi == 1:
            n = app.hw.max_pixels
            st.pixel_count = 1 + (st.pixel_count - 1 + step) % n
            app.leds.set_count(st.pixel_count)
        elif app.mi == 2:
            st.hints = 1 - st.hints
        else:
            st.sound = 1 - st.sound
            app.sound.on = st.sound
            app.sound.play("lay", app.now)  # a sample, heard only when on
        app.leds.progress(2, 6)  # a sample picture to judge the LEDs by
        _draw_settings(app)


# ---------------------------------------------------------------------- how to play


def _howto(app):
    # The pages are imported for the screen, then dropped (their text costs RAM).
    from lnr.howto import PAGES

    _screen(app, SC_HOWTO, "HOW TO PLAY")
    app.pages = n = len(PAGES)
    app.page %= n
    page = PAGES[app.page]
    for i in range(TEXT_LINES - 1):
        app.labels.line(i, page[i] if i < len(page) else "")
    app.labels.line(7, "%d/%d  </>: page  B: back" % (app.page + 1, n), GREY)
    del PAGES
    drop("lnr.howto")


def _key_howto(app, k):
    if k == K_B:
        title(app)
    elif k == K_LEFT or k == K_RIGHT or k == K_A:
        app.page += app.pages - 1 if k == K_LEFT else 1
        _howto(app)
