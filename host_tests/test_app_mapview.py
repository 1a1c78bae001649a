"""The geometry the play screen draws (lnr/play/mapview.py, docs/rules.md §2). (The order the app
offers first for penalty cards and chaos discards is tested with engine/order.py in
test_order.py.)"""
from engine.cards import SHAPE, SHAPE_CURVE, KIND, KIND_BROKEN
from engine.rng import Rng
from engine.deal import new_game
from engine.state import BEND_S, TURN
from lnr import sprites
from lnr.play.mapview import track_tile, curve_tile


def test_track_tiles_follow_the_bends_from_the_end_back():
    # §2: entry heading = exit heading minus the bend's turn; a straight keeps the heading.
    for seed in range(30):
        s = new_game(0, Rng(seed))
        h = s.head
        for i in range(len(s.track) - 1, -1, -1):
            c = s.track[i]
            entry = (h - TURN[s.bends[i]]) & 3
            t = track_tile(c, entry, h)
            broken = KIND[c] == KIND_BROKEN
            if s.bends[i] == BEND_S:
                assert t == (sprites.T_BROKEN if broken else sprites.T_STRAIGHT) + (h & 1)
            else:
                assert SHAPE[c] == SHAPE_CURVE
                base = sprites.T_BROKEN + 2 if broken else sprites.T_CURVE
                assert base <= t < base + 4
            h = entry
        assert h == 0  # the first card was entered heading east


def test_curve_tiles_join_the_right_sides():
    E, S, W, N = 0, 1, 2, 3
    # Heading east then turning right (south): the curve joins the west and south sides.
    assert curve_tile(E, S) == sprites.T_CURVE + 1  # SW
    assert curve_tile(E, N) == sprites.T_CURVE + 2  # WN
    assert curve_tile(S, E) == sprites.T_CURVE + 3  # NE
    assert curve_tile(W, S) == sprites.T_CURVE + 0  # ES
    assert curve_tile(N, W) == sprites.T_CURVE + 1  # from the south side, to the west: SW
