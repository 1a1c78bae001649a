"""lnr/play/handoff.py through its own functions: cost() words what a turn cost in a panel line
(docs/rules.md §4-§6), and show() writes the hot seat's handoff panel on a real play screen (a
headless run's: tools.sim.simulator) from play.game.past. The whole hot seat, its secrets and every
handoff of real games, is test_app_hot_seat.py's."""
import pytest

from helpers import INTO_A_HOT_SEAT, app_in_a_game
from lnr.play import handoff
from lnr.ui import GREEN, GREY, PANEL_W, RED, YELLOW
from tools.sim.screen_text import line_ink, lines_text


def test_a_chaos_discard_costs_its_pairs_never_a_penalty():
    # §4: a discard takes no penalty; §6: chaos cards' pairs go to the box.
    assert handoff.cost(1, 0, False, 0, 0) == "No penalty"
    assert handoff.cost(2, 1, False, 0, 0) == "1 pair to the box"
    assert handoff.cost(3, 2, True, 4, 5) == "2 pairs to the box"  # the discard's words win


def test_a_build_costs_its_derailment_or_broken_cards_and_the_penalty_taken():
    # §5: a derailment; §6: a pass and broken cards take penalty cards.
    assert handoff.cost(0, 0, True, 0, 3) == "Derailed, penalty 3"
    assert handoff.cost(0, 0, True, 0, 0) == "Derailed, no penalty"
    assert handoff.cost(0, 0, False, 2, 2) == "2 broken, penalty 2"
    assert handoff.cost(0, 0, False, 0, 0) == "No penalty"
    assert handoff.cost(0, 0, False, 0, 1) == "Penalty 1"


def test_every_cost_fits_a_panel_line():
    # The worst: a pass and 4 broken cards, 5 penalty cards (§5, §6), and 9 chaos pairs.
    for words in (handoff.cost(0, 0, False, 4, 5), handoff.cost(0, 0, True, 0, 16),
                  handoff.cost(9, 9, False, 0, 0)):
        assert len(words) <= PANEL_W, words


@pytest.fixture(scope="module")
def app():
    app = app_in_a_game(INTO_A_HOT_SEAT)
    assert app.game.humans() == 2
    return app


def panel(app):
    app.ui.show(app.ui.play, True)  # the lines not written since clear_panel() are blanked
    return lines_text(app.ui.plines)


def test_two_turns_are_told_under_a_heading_naming_whose_turn(app):
    play = app.play
    play.game.past = [("P2 built 3", False, 0, True, 0, 2), ("P3 passed", False, 0, False, 0, 1)]
    handoff.show(play)
    lines = panel(app)
    name = play.game.name(play.game.state.seat)
    assert lines[0] == "Hot seat: %s's turn" % name and line_ink(app.ui.plines[0]) == YELLOW
    assert lines[1:5] == ["P2 built 3", "Derailed, penalty 2", "P3 passed", "Penalty 1"]
    assert line_ink(app.ui.plines[2]) == RED and line_ink(app.ui.plines[4]) == GREY
    assert lines[5] == "Pass the device to " + name
    assert lines[6] == name + ": press A" and line_ink(app.ui.plines[6]) == GREEN


def test_three_turns_take_the_heading_and_the_last_line_names_the_player(app):
    # Four seats: three turns since this person's last take six lines, no room for a heading.
    play = app.play
    play.game.past = [("P2 built 1", False, 0, False, 0, 0), ("P3 discarded", True, 1, False, 0, 0),
                 ("P4 passed", False, 0, False, 0, 1)]
    handoff.show(play)
    lines = panel(app)
    name = play.game.name(play.game.state.seat)
    assert lines[0] == "P2 built 1" and lines[3] == "1 pair to the box"
    assert lines[6] == name + "'s turn: press A"
    assert name in ("P1", "P2")


def test_the_last_turn_of_the_game_is_said(app):
    # §4: with the deck empty this turn ends the game.
    play = app.play
    s = play.game.state
    deck = s.deck
    s.deck = []
    try:
        play.game.past = [("P2 built 2", False, 0, False, 0, 0)]
        handoff.show(play)
        assert panel(app)[5] == "Last turn of the game"
        play.game.past = play.game.past * 3
        handoff.show(play)
        name = play.game.name(s.seat)
        assert panel(app)[6] == name + ", last turn: press A"
        assert line_ink(app.ui.plines[6]) == RED
    finally:
        s.deck = deck
