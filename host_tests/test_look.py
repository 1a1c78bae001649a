"""lnr/play/look.py through its own Look (draw(), key()) on a real play screen (a headless
run's: tools.sim.simulator): the D-pad scrolls the map by whole cells and never past the
track's extent (the map's middle stays within the cells laid and the open end), any other key
gives the hand back; at a table or against the rival every seat's numbers show first. The look
as a player reaches it (SELECT) is the whole-app tests'."""
import pytest

from helpers import app_in_a_game
from lnr.keys import K_A, K_B, K_DOWN, K_LEFT, K_RIGHT, K_UP
from lnr.play.look import Look
from lnr.play.mapview import cell_x, cell_y
from lnr.play.view import S_HAND, S_LOOK
from lnr.ui import MAP_H, MAP_W
from tools.sim.screen_text import line_text


@pytest.fixture(scope="module")
def app():
    return app_in_a_game()


def middle(view_map):
    return view_map.ox + (MAP_W - 1) // 2, view_map.oy + (MAP_H - 1) // 2


def extent(s):
    xs = [cell_x(c) for c in s.cells + [s.target()]]
    ys = [cell_y(c) for c in s.cells + [s.target()]]
    return min(xs), max(xs), min(ys), max(ys)


def look(app):
    play = app.play
    play.open_panel(Look(play), S_LOOK)
    assert play.step == S_LOOK
    assert line_text(app.ui.toast) == "D-pad look, B back"
    return play


@pytest.mark.parametrize("key", [K_LEFT, K_RIGHT, K_UP, K_DOWN])
def test_the_d_pad_scrolls_a_cell_a_press_and_stops_at_the_tracks_extent(app, key):
    play = look(app)
    m = play.view.map
    x0, x1, y0, y1 = extent(play.game.state)
    start = middle(m)
    seen = [start]
    for _ in range(MAP_W + MAP_H):  # more presses than the track can be wide
        play.key(key)
        seen.append(middle(m))
    # Each press moves by one cell along its axis or not at all, and the middle stays on the
    # track's extent (or where it began, when the track is narrower than the map).
    for a, b in zip(seen, seen[1:]):
        assert abs(b[0] - a[0]) + abs(b[1] - a[1]) <= 1
    x, y = seen[-1]
    if key == K_LEFT:
        assert x == min(start[0], x0)
    elif key == K_RIGHT:
        assert x == max(start[0], x1)
    elif key == K_UP:
        assert y == min(start[1], y0)
    else:
        assert y == max(start[1], y1)
    play.key(K_B)
    assert play.step == S_HAND and play.panel is None


def test_a_key_that_is_not_the_d_pad_gives_the_hand_back(app):
    for key in (K_A, K_B):
        play = look(app)
        before = middle(play.view.map)
        play.key(key)
        assert play.step == S_HAND and play.panel is None
        assert app.ui.toast.hidden  # the look's keys are no longer told
        assert middle(play.view.map) == before
