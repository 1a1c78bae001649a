"""lnr/memory/switch.py through its own functions (menus, player, leave, arrive) on a real App
(a headless run's: tools.sim.simulator): the menus' code and the play screen's are never up
together (docs/memory.md), what the menus chose outlasts their code, and the play screen comes
back as it was left: its place is on the Game, which no switch drops while it is played. On
CPython lnr.memory keeps modules (KEEP): what is dropped from RAM is make cpcheck's
(CircuitPython's VM); every switch of whole games is the whole-app tests'."""
import pytest

from helpers import app_in_a_game
from lnr import games
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


def test_what_the_menus_chose_outlasts_their_code(app):
    menus = switch.menus(app)
    app.mode, app.players, app.roles = 3, 4, bytearray(b"\x00\x05\x05")
    switch.player(app)  # a game: the menus' code goes
    again = switch.menus(app)
    assert again is not menus
    assert (app.mode, app.players, app.roles) == (3, 4, bytearray(b"\x00\x05\x05"))


def test_the_titles_switch_has_its_answer_at_once_and_keeps_no_way_back(app):
    app.want = (W_TITLE,)
    switch.leave(app)
    assert app.next == (SC_TITLE, None) and app.want is None
    assert app.play is None and app.menus is None
    switch.arrive(app)
    assert app.menus is not None and app.play is None and app.next is None


def test_a_refused_save_comes_back_to_the_play_screen_as_it_was_left(app):
    # W_SAVE: the NVM may refuse the save; the play screen's place is on the Game through it.
    play = app.play
    game = app.game
    game.sel = 1
    app.want = (W_SAVE, game, game.state.clone())
    switch.leave(app)
    assert app.play is None and app.game is game
    app.next = (SC_PLAY, (W_SAVE,))  # the save's answer: refused
    switch.arrive(app)
    assert app.next is None and app.want is None
    assert app.play is not play and app.play.game is game
    assert game.sel == 1 and app.play.step == S_HAND


def test_a_save_and_quit_holds_nothing_of_the_game_in_the_menus(app):
    # The turn's start and the play screen's place go with the Game once it is saved: held
    # beside the menus, a State would keep the engine's code in RAM beside theirs.
    app.want = (W_SAVE, app.game, app.game.state.clone())
    switch.leave(app)
    games.go(app)  # the save's work, on the simulator's NVM
    switch.arrive(app)
    assert app.game is None and app.want is None and app.menus is not None
    assert app.store.saved is not None


def test_the_games_modules_are_noted_to_be_kept_while_it_is_on(app):
    app.want = (W_TITLE,)
    switch.leave(app)
    switch.arrive(app)
    names = app.game_code
    assert "lnr.game" in names and "engine.state" in names
    assert all(n == "lnr.game" or n.startswith("engine.") for n in names)


def test_a_save_that_does_not_fit_sheds_the_sound_and_is_made(app, monkeypatch):
    # lnr/games.py lighter(): the save's bytes made again once the sound is shed (lnr.memory
    # shed()), here where a board's heap is too short for the codec at first.
    from lnr.memory import DOWN, SOUND

    made = games.pack
    short = [1]

    def pack(game, state=None):
        if short[0]:
            short[0] -= 1
            raise MemoryError
        return made(game, state)

    monkeypatch.setattr(games, "pack", pack)
    app.want = (W_SAVE, app.game, app.game.state.clone())
    switch.leave(app)
    games.go(app)
    assert DOWN[0] == SOUND and app.sound.player is None
    assert app.game is None and app.store.saved is not None and app.next == (SC_TITLE, None)


def test_a_save_that_never_fits_keeps_the_last_copy_and_the_game(app, monkeypatch):
    # Sound and LEDs shed and still no room: the save is refused (back to the game, which says
    # so), and the copies keep what they held.
    from lnr.memory import DOWN, SOUND, LIGHTS

    def pack(game, state=None):
        raise MemoryError

    monkeypatch.setattr(games, "pack", pack)
    game = app.game
    had = app.store.saved
    app.want = (W_SAVE, game, game.state.clone())
    switch.leave(app)
    games.go(app)
    assert DOWN[0] == SOUND | LIGHTS
    assert app.game is game and app.store.saved == had and app.next == (SC_PLAY, (W_SAVE, None))
