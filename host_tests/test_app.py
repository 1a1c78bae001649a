"""lnr/app.py through its own App (key, skip, busy, and the switches it asks for) on a real App
(a headless run's: tools.sim.simulator): a key goes to the screen that is up, the error screen
takes A or B back to the title and nothing else, only B hurries an opponent's turn (an A then
would land on the player's own turn and lay a card), a board that may not write is never asked
to save, and each switch is asked in the form lnr/memory/switch.py and lnr/games.py read
(lnr/screens.py's W_*). The whole app's flow is the test_app_*.py files'."""
import pytest

from helpers import app_in_a_game
from lnr.app import App
from lnr.keys import K_A, K_B, K_DOWN, K_LEFT, K_RIGHT, K_SELECT, K_START, K_UP
from lnr.screens import (
    SC_ERROR, SC_PLAY, W_HINT, W_RECORDS, W_RESUME, W_SAVE, W_SETTINGS, W_START, W_TITLE,
)
from tools.sim.screen_text import line_text


@pytest.fixture
def app():
    app = app_in_a_game()
    assert isinstance(app, App) and app.screen == SC_PLAY and app.want is None
    return app


def test_on_the_error_screen_only_a_or_b_goes_back_to_the_title(app):
    app.screen = SC_ERROR
    for k in (K_UP, K_DOWN, K_LEFT, K_RIGHT, K_START, K_SELECT):
        app.key(k)
        assert app.want is None, k
    app.key(K_B)
    assert app.want == (W_TITLE,)
    app.want = None
    app.key(K_A)
    assert app.want == (W_TITLE,)


def test_while_busy_only_b_hurries_and_an_a_is_dropped(app):
    app.skip(K_A)
    assert app.hurry is False
    app.skip(K_B)
    assert app.hurry is True


def test_busy_is_the_play_screens_timed_steps_only(app):
    assert app.busy() == app.play.busy()
    app.screen = SC_ERROR  # a screen of no timer is never busy, whatever the play screen's step
    assert app.busy() is False


def test_a_board_that_may_not_write_is_never_asked_to_save(app):
    # After an error or below the heap the game needs (lnr/powerup.py): "Saving is off".
    app.writes = False
    app.save_and_quit(app.game, app.game.state.clone())
    assert app.want is None
    assert line_text(app.ui.toast) == "Saving is off" and not app.ui.toast.hidden


def test_each_switch_is_asked_as_the_switch_reads_it(app):
    start = app.game.state.clone()
    app.save_and_quit(app.game, start)
    assert app.want == (W_SAVE, app.game, start)
    app.start(3, 4, 1234, b"\x00\x05\x05\x00")
    assert app.want == (W_START, 3, 4, 1234, b"\x00\x05\x05\x00")
    app.start(0, 1)  # the next seed, no roles
    assert app.want == (W_START, 0, 1, None, None)
    for ask, want in ((app.resume, (W_RESUME,)), (app.save_settings, (W_SETTINGS,)),
                      (app.records, (W_RECORDS,)), (app.title, (W_TITLE,))):
        ask()
        assert app.want == want
    app.ask(W_HINT)
    assert app.want == (W_HINT,)


def test_a_key_on_the_play_screen_goes_to_it(app):
    seen = []
    app.play.key = seen.append  # the play screen's part, recorded
    app.key(K_RIGHT)
    assert seen == [K_RIGHT]
