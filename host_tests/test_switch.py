"""lnr/memory/switch.py through its own functions (menus, player, leave, arrive) on a real App
(a headless run's: tools.sim.simulator): the menus' code and the play screen's are never up
together (docs/memory.md), what the menus keep through a game comes back to them, a switch's
way back (Play.kept()) is held only while a way back is asked for, and the play screen comes
back as it was left. On CPython lnr.memory keeps modules (KEEP): what is dropped from RAM is
make cpcheck's (CircuitPython's VM); every switch of whole games is the whole-app tests'."""
import pytest

from helpers import app_in_a_game
from lnr.memory import switch
from lnr.play.view import S_HAND
from lnr.screens import SC_PLAY, SC_TITLE, W_SAVE, W_TITLE


@pytest.fixture
def app():
    app = app_in_a_game()
    assert app.screen == SC_PLAY and app.menus is None
    return app


def test_the_menus_load_once_the_play_screen_is_gone_and_once_only(app):
    menus = switch.menus(app)
    assert app.play is None and app.menus is menus
    assert switch.menus(app) is menus  # asked again: the same, not loaded twice


def test_the_play_screen_loads_once_the_menus_are_gone(app):
    switch.menus(app)
    play = switch.player(app)
    assert app.menus is None and app.play is play
    assert switch.player(app) is play


def test_what_the_menus_keep_through_a_game_comes_back_to_the_next_menus(app):
    menus = switch.menus(app)
    menus.mode, menus.players, menus.roles = 3, 4, b"\x00\x05\x05\x00"
    switch.player(app)  # a game: the menus' code goes, what they keep is held by the App
    assert app.menus_kept == (3, 4, b"\x00\x05\x05\x00")
    again = switch.menus(app)
    assert again.kept() == (3, 4, b"\x00\x05\x05\x00") and app.menus_kept is None


def test_the_titles_switch_has_its_answer_at_once_and_keeps_no_way_back(app):
    app.want = (W_TITLE,)
    switch.leave(app)
    assert app.next == (SC_TITLE, None) and app.want is None
    assert app.play is None and app.menus is None and app.kept is None
    switch.arrive(app)
    assert app.menus is not None and app.play is None
    assert app.next is None and app.kept is None


def test_a_refused_save_comes_back_to_the_play_screen_as_it_was_left(app):
    # W_SAVE: the NVM may refuse the save; the play screen's way back is held through it.
    play = app.play
    play.sel = 1
    before = play.kept()
    app.want = (W_SAVE, app.game, app.game.state.clone())
    switch.leave(app)
    assert app.play is None and app.kept == before
    app.next = (SC_PLAY, (W_SAVE,))  # the save's answer: refused
    switch.arrive(app)
    assert app.kept is None and app.next is None and app.want is None
    assert app.play is not None and app.play.kept() == before and app.play.step == S_HAND


def test_a_switch_to_the_menus_holds_no_way_back_to_the_game(app):
    # A save & quit's way back (the turn's start State) is not kept past a switch to the
    # menus: it would hold the engine's code in RAM beside theirs.
    app.want = (W_SAVE, app.game, app.game.state.clone())
    switch.leave(app)
    assert app.kept is not None
    app.next = (SC_TITLE, None)
    switch.arrive(app)
    assert app.kept is None and app.menus is not None


def test_the_games_modules_are_noted_to_be_kept_while_it_is_on(app):
    app.want = (W_TITLE,)
    switch.leave(app)
    switch.arrive(app)
    names = app.game_code
    assert "lnr.game" in names and "engine.state" in names
    assert all(n == "lnr.game" or n.startswith("engine.") for n in names)
