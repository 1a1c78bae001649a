"""The order the app offers first for penalty cards and chaos discards (lnr/order.py) is the
best one (docs/rules.md §6: a card on an equal top combines and both leave; D3 always), checked
against every permutation; and the geometry the play screen draws (lnr/mapview.py, §2)."""
import itertools
import random

from engine.cards import VALUE, SHAPE, SHAPE_CURVE, KIND, KIND_BROKEN
from engine.rng import Rng
from engine.state import new_game, BEND_S, TURN
from lnr import sprites
from lnr.mapview import track_tile, curve_tile
from lnr.order import orders, pile_after, best


def _reduced(pile):
    # A pile as play leaves it: never two equal values on top of each other (§6).
    out = []
    for c in pile:
        if out and VALUE[out[-1]] == VALUE[c]:
            continue
        out.append(c)
    return out


def test_best_order_scores_as_well_as_every_permutation():
    rnd = random.Random(6)
    for _ in range(1500):
        ids = list(range(55))
        rnd.shuffle(ids)
        n = rnd.randint(1, 6)
        cards = ids[:n]
        pile = _reduced(ids[n:n + rnd.randint(0, 7)])
        want = min(pile_after(pile, p) for p in itertools.permutations(cards))
        got = orders(pile, cards)
        assert got[0][0] == want, (pile, cards)
        assert pile_after(pile, best(pile, cards)) == want


def test_orders_are_permutations_without_repeated_values_best_first():
    rnd = random.Random(7)
    for _ in range(300):
        ids = list(range(55))
        rnd.shuffle(ids)
        cards = ids[:rnd.randint(1, 8)]
        pile = _reduced(ids[10:10 + rnd.randint(0, 6)])
        got = orders(pile, cards)
        seqs = [tuple(VALUE[c] for c in o) for _, o in got]
        assert len(set(seqs)) == len(seqs)
        for score, order in got:
            assert sorted(order) == sorted(cards)
            assert score == pile_after(pile, order)
        assert [s for s, _ in got] == sorted(s for s, _ in got)


def test_combining_example_from_the_rules():
    # §6: a card just put down may be the partner of the next one: 2, 2 on an empty pile
    # leave nothing; a 3 on a 3 leaves the card beneath on top.
    assert pile_after([], [12, 13]) == 0
    assert pile_after([0, 23], [24]) == 1
    # Best of {1, 3, 3} on a pile topped by 1: 1 combines with the top, the 3s pair off.
    assert orders([1], [2, 23, 24])[0][0] == 0


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
