"""The menus: title, mode select, table seats, records, settings, how to play and game over.

Each draws into the text layer of lnr/ui.py (a big title and 8 lines); a menu is lines whose
colour marks the cursor. Their state lives on the App (mi, items, page, mode, players, roles).
lnr/app.py loads this module while a menu is up and drops it for a game (RAM): a menu never
imports the play screen, it asks the App to start or resume a game.
"""
import gc
import sys

from engine.state import MODE_TABLE
from lnr import drop, drop_new
from lnr import sprites
from lnr import game as games
from lnr.screens import SC_TITLE, SC_MODES, SC_TABLE, SC_RECORDS, SC_SETTINGS, SC_HOWTO, SC_OVER
from lnr.keys import K_A, K_B, K_START, K_LEFT, K_RIGHT, K_UP, K_DOWN
from lnr.ui import wrap, LINE_W, TEXT_LINES, WHITE, GREY, YELLOW, RED, CYAN

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_MODE_INFO = ("Lowest score wins", "Derail 4 times: lost", "Beat the rival's pile",
              "2-4 seats, bots or people")
_SETTINGS = ("LED brightness", "NeoPixels", "Hints", "Back")
_MENU_Y = const(2)  # first text line of a menu


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
    elif k == K_A or k == K_B:  # records, game over
        title(app)


def _menu(app, items, first=_MENU_Y):
    # Draws `items` as a menu from line `first`, the cursor on app.mi.
    app.items = items
    for i in range(len(items)):
        on = i == app.mi
        app.line(first + i, ("> " if on else "  ") + items[i], YELLOW if on else WHITE)
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
    app.text_screen(SC_TITLE, "LOK'N'ROLL")
    deco = app.ui.deco
    for x in range(10):
        deco[x, 0] = sprites.T_STRAIGHT
    app.ui.deco_loco[0, 0] = sprites.T_LOCO
    app.mi = 0
    items = ["New game", "Records", "Settings", "How to play"]
    store = app.store
    if store.saved is not None:
        items.insert(0, "Continue")
    _menu(app, items, 2)
    if store.notice:  # e.g. a write that failed at the last game's end
        app.message = store.notice
        store.notice = None
    if app.message:
        lines = wrap(app.message, LINE_W)
        for i in range(len(lines)):
            if i < 2:
                app.line(6 + i, lines[i], RED)
        app.message = None
    else:
        app.line(7, "A: choose", GREY)
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
            _records(app)
        elif item == "Settings":
            _settings(app)
        else:
            app.page = 0
            _howto(app)


# ---------------------------------------------------------------------- new game


def _modes(app):
    app.text_screen(SC_MODES, "NEW GAME")
    app.mi = app.mode
    _draw_modes(app)


def _draw_modes(app):
    _menu(app, list(games.MODE_TITLES), 1)
    if app.store.saved is not None:  # finish_game drops it (storage.py)
        app.line(5, "Finishing drops your save", GREY)
    app.line(6, _MODE_INFO[app.mi], CYAN)
    app.line(7, "A: play  B: back", GREY)


def _key_modes(app, k):
    if _move(app, k):
        _draw_modes(app)
    elif k == K_B:
        title(app)
    elif k == K_A or k == K_START:
        app.mode = app.mi
        if app.mode == MODE_TABLE:
            app.mi = 0
            _table(app)
        else:
            app.start(app.mode, None)


def _kinds(app):
    # The opponent kinds this build has (lnr.game.bot_names), asked once: engine.bots and
    # what it imports are dropped again at once (RAM), a game loads them when bots play.
    if app.kinds is None:
        had = list(sys.modules)
        app.kinds = games.bot_names()
        drop_new(had)
    return app.kinds


def _table(app):
    if app.roles is None:  # the strongest bot this build has in every seat (engine.bots)
        names = _kinds(app)
        app.roles = bytearray(3)
        for i in range(3):
            app.roles[i] = games.ROLE_BOT + (names[-1] if names else 0)
    app.text_screen(SC_TABLE, "TABLE")
    items = ["Seats: %d" % app.players]
    for seat in range(1, 4):
        if seat < app.players:
            role = app.roles[seat - 1]
            name = "person" if role == games.ROLE_HUMAN else \
                "bot " + games.BOT_NAMES[role - games.ROLE_BOT]
            items.append("P%d: %s" % (seat + 1, name))
    items.append("Start")
    _menu(app, items, 1)
    app.line(6, "P1 is you. </>: change", CYAN)
    app.line(7, "A: start  B: back", GREY)


def _key_table(app, k):
    if _move(app, k):
        _table(app)
    elif k == K_B:
        _modes(app)
    elif k == K_A and app.mi == len(app.items) - 1:
        app.start(MODE_TABLE, app.players)
    elif k == K_LEFT or k == K_RIGHT or k == K_A:
        step = -1 if k == K_LEFT else 1
        if app.mi == 0:
            app.players = 2 + (app.players - 2 + step) % 3
        else:
            kinds = [games.ROLE_HUMAN]
            for i in _kinds(app):
                kinds.append(games.ROLE_BOT + i)
            roles = app.roles
            j = kinds.index(roles[app.mi - 1]) if roles[app.mi - 1] in kinds else 0
            roles[app.mi - 1] = kinds[(j + step) % len(kinds)]
        _table(app)


# ---------------------------------------------------------------------- game over


def game_over(app, shown):
    """Shows a finished game's result: `shown` is lnr.moves.over()'s (the title's colour, 8
    lines of (text, colour) or None), the game already counted and let go."""
    colour, lines = shown
    app.text_screen(SC_OVER, "GAME OVER", colour)
    for i in range(TEXT_LINES):
        if lines[i] is not None:
            app.line(i, lines[i][0], lines[i][1])
    gc.collect()


# ---------------------------------------------------------------------- records, settings


def _records(app):
    app.text_screen(SC_RECORDS, "RECORDS")
    st = app.store
    app.line(0, "Mode        best   games", GREY)
    for m in range(4):
        best = st.best[m]
        app.line(1 + m, "%-10s %5s %7d" % (
            games.MODE_TITLES[m], "-" if best is None else str(best), st.played[m]))
    app.line(5, "Rival beaten: %d" % st.rival_wins)
    app.line(7, "A/B: back", GREY)


def _settings(app):
    app.text_screen(SC_SETTINGS, "SETTINGS")
    app.mi = 0
    app.leds.progress(2, 6)  # a sample picture to judge the LEDs by
    _draw_settings(app)


def _draw_settings(app):
    st = app.store
    values = ("%d of 4" % st.brightness, "%d lit" % st.pixel_count,
              "on" if st.hints else "off", "")
    items = []
    for i in range(4):
        items.append("%-14s %s" % (_SETTINGS[i], values[i]) if values[i] else _SETTINGS[i])
    _menu(app, items, 1)
    app.line(7, "</>: change  B: back", GREY)


def _key_settings(app, k):
    st = app.store
    if _move(app, k):
        _draw_settings(app)
    elif k == K_B or (k == K_A and app.mi == 3):
        if app.writes:
            st.save_settings()
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
        app.leds.progress(2, 6)  # a sample picture to judge the LEDs by
        _draw_settings(app)


# ---------------------------------------------------------------------- how to play


def _howto(app):
    # The pages are imported for the screen, then dropped (their text costs RAM).
    from lnr.howto import PAGES

    app.text_screen(SC_HOWTO, "HOW TO PLAY")
    app.pages = n = len(PAGES)
    app.page %= n
    page = PAGES[app.page]
    for i in range(TEXT_LINES - 1):
        app.line(i, page[i] if i < len(page) else "")
    app.line(7, "%d/%d  </>: page  B: back" % (app.page + 1, n), GREY)
    del PAGES
    drop("lnr.howto")


def _key_howto(app, k):
    if k == K_B:
        title(app)
    elif k == K_LEFT or k == K_RIGHT or k == K_A:
        app.page += app.pages - 1 if k == K_LEFT else 1
        _howto(app)
