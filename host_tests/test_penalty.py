"""lnr/play/penalty.py through its own PenaltyOrder (draw(), key()) on a real play screen (a
headless run's: tools.sim.simulator): the orders of the penalty cards (docs/rules.md §6) best
first, each with what it does to the pile's sum, every order as good as the best marked best,
LEFT/RIGHT going round them, A putting the cards in the order shown. The panel as a player
reaches it is test_app_play.py's."""
import pytest

from engine.cards import VALUE
from helpers import app_in_a_game
from lnr.keys import K_A, K_LEFT, K_RIGHT
from lnr.play.penalty import PenaltyOrder
from lnr.play.view import S_ORDER
from lnr.ui import GREEN, WHITE
from tools.sim.screen_text import line_ink, lines_text


@pytest.fixture
def app():
    return app_in_a_game()


def cards_of_value(s, *values):
    """Returns a card of each of `values` from the deck (any zone would do for the panel)."""
    out = []
    for v in values:
        out.append(next(c for c in s.deck if VALUE[c] == v and c not in out))
    return out


def test_each_order_shows_its_score_change_and_the_best_are_marked(app):
    play = app.play
    s = play.game.state
    top, a, b, c = cards_of_value(s, 4, 1, 2, 3)
    s.piles[s.seat] = [top]
    # (the pile's sum after the order, the order): two as good as each other, one worse.
    opts = [(5, [a, b]), (5, [b, a]), (9, [c, a, b])]
    panel = PenaltyOrder(play, opts)
    play.open_panel(panel, S_ORDER)
    lines = lines_text(app.ui.plines)
    assert lines[0] == "Penalty: 2 cards"
    assert lines[5] == "Score +1  (best)" and line_ink(app.ui.plines[5]) == GREEN  # 5 - 4
    assert lines[6] == "<> order 1/3  A: put"
    panel.key(K_RIGHT)
    assert lines_text(app.ui.plines)[5] == "Score +1  (best)"  # as good as the first
    panel.key(K_RIGHT)
    lines = lines_text(app.ui.plines)
    assert lines[0] == "Penalty: 3 cards" and lines[6] == "<> order 3/3  A: put"
    assert lines[5] == "Score +5" and line_ink(app.ui.plines[5]) == WHITE
    panel.key(K_RIGHT)  # round to the first
    assert panel.oi == 0
    panel.key(K_LEFT)  # and back round to the last
    assert panel.oi == 2


def test_an_empty_pile_is_said_and_one_card_is_not_plural(app):
    play = app.play
    s = play.game.state
    s.piles[s.seat] = []
    (a,) = cards_of_value(s, 3)
    play.open_panel(PenaltyOrder(play, [(3, [a])]), S_ORDER)
    lines = lines_text(app.ui.plines)
    assert lines[0] == "Penalty: 1 card"
    assert lines[4] == "empty <- 1st, 2nd, ..."
    assert lines[5] == "Score +3  (best)"


def test_more_than_twelve_cards_show_the_rest_by_value(app):
    play = app.play
    s = play.game.state
    s.piles[s.seat] = []
    order = [c for c in s.deck if VALUE[c] in (1, 2)][:14]
    play.open_panel(PenaltyOrder(play, [(0, order)]), S_ORDER)
    assert lines_text(app.ui.plines)[4] == "then " + "".join(str(VALUE[c]) for c in order[12:])


def test_a_puts_the_cards_in_the_order_on_screen(app, monkeypatch):
    play = app.play
    s = play.game.state
    s.piles[s.seat] = []
    a, b = cards_of_value(s, 1, 2)
    put = []
    monkeypatch.setattr(play, "put_order", put.append)  # the play screen's part, recorded
    panel = PenaltyOrder(play, [(3, [a, b]), (3, [b, a])])
    play.open_panel(panel, S_ORDER)
    play.key(K_LEFT)  # the screen hands the panel its keys, does what A chose once shut
    play.key(K_A)
    assert put == [[b, a]] and play.panel is None
