"""The rules engine checked rule by rule against docs/rules.md (cited as §n and Dn).

Each test builds an explicit situation (a track laid from (0, 0) heading east, hands, the cards
still to be drawn, piles) with `situation()`, plays through the public API (`apply`,
`legal_actions`, `why_not`) and asserts what docs/rules.md says must happen. Card ids, values,
shapes and the grid geometry are typed here from docs/rules.md §1 and §2, not taken from the engine,
so that a wrong table or a wrong turn in the engine shows up as a failure.
"""
from fractions import Fraction
from math import comb

import pytest

from engine import codes
from engine import state as st
from engine.deal import deal, new_game
from engine.risk import derail_chance, permille, wheel_counts
from engine.rng import Rng
from engine.setup import from_setup
from helpers import assert_accounted
from engine.codes import (
    A_BEND_L, A_BEND_R, A_CHAOS, A_END, A_LAY, A_PASS, A_PILE, A_ROLL0, A_ROLL1, A_STOP,
    P_BEND, P_BUILD, P_CHAOS, P_DICE, P_ORDER, P_OVER, P_TURN,
)
from engine.state import (
    MODE_CHALLENGE, MODE_RIVAL, MODE_SOLO, MODE_TABLE, IllegalAction, State,
)

# ---------------------------------------------------------------------------------------------
# docs/rules.md §1, typed from the table (independent of engine/cards.py).

S1 = [0, 1, 2, 3, 4, 5]            # track 1 straight
C1 = [6, 7, 8, 9, 10, 11]          # track 1 curve
S2 = [12, 13, 14, 15, 16, 17]
C2 = [18, 19, 20, 21, 22]
S3 = [23, 24, 25, 26, 27]
C3 = [28, 29, 30, 31, 32, 33]
S4 = [34, 35, 36, 37, 38, 39]
C4 = [40, 41, 42, 43, 44, 45]
B1, B2, B3, B4 = 46, 47, 48, 49    # broken: 1 straight, 2 curve, 3 straight, 4 curve
X1, X2, X3, X4, X4B = 50, 51, 52, 53, 54  # chaos 1, 2, 3, 4, 4
STRAIGHT = {1: S1, 2: S2, 3: S3, 4: S4}
CURVE = {1: C1, 2: C2, 3: C3, 4: C4}
CHAOS = [X1, X2, X3, X4, X4B]

VAL = {}
for _v, _ids in ((1, S1 + C1 + [B1, X1]), (2, S2 + C2 + [B2, X2]), (3, S3 + C3 + [B3, X3]),
                 (4, S4 + C4 + [B4, X4, X4B])):
    for _c in _ids:
        VAL[_c] = _v
IS_CURVE = set(C1 + C2 + C3 + C4 + [B2, B4])

# docs/rules.md §2: headings in screen coordinates, and what L and R do to them.
VEC = {"E": (1, 0), "S": (0, 1), "W": (-1, 0), "N": (0, -1)}
LEFT = {"E": "N", "N": "W", "W": "S", "S": "E"}
RIGHT = {"E": "S", "S": "W", "W": "N", "N": "E"}
ENGINE_HEADING = {"E": codes.EAST, "S": codes.SOUTH, "W": codes.WEST, "N": codes.NORTH}
ENGINE_BEND = {"S": codes.BEND_S, "L": codes.BEND_L, "R": codes.BEND_R}


def turned(head, bend):
    return LEFT[head] if bend == "L" else RIGHT[head] if bend == "R" else head


def step(cell, head):
    return (cell[0] + VEC[head][0], cell[1] + VEC[head][1])


def walk(bends):
    """Returns (cells, exit heading) of cards laid with `bends` from (0, 0) heading east."""
    cells = []
    cell, head = (0, 0), "E"
    for b in bends:
        cells.append(cell)
        head = turned(head, b)
        cell = step(cell, head)
    return cells, head


def code(xy):
    # The cell code documented in engine/state.py's module docstring.
    return (xy[0] + 64) * 128 + xy[1] + 64


def xy_cells(s):
    return [codes.cell_xy(c) for c in s.cells]


# ---------------------------------------------------------------------------------------------
# Building situations.


def situation(track, loco=2, hands=None, draws=(), piles=None, mode=MODE_SOLO, players=None,
              taken=0, seat=0, derails=0, start=True):
    """Returns a State in the situation described, its first turn begun (seat `seat` has drawn
    the first of `draws`) unless start=False.

    track: (card, bend) pairs laid from (0, 0) heading east, geometry computed here by §2;
    taken: how many of them have since left the start of the track as penalties (their cells
    are free again); loco: track index after that; draws: the deck, top first; every card not
    named anywhere goes to the box, so that all 55 cards stay accounted for."""
    if players is None:
        players = {MODE_RIVAL: 2, MODE_TABLE: 2}.get(mode, 1)
    s = State(mode, players)
    cells, head = walk([b for _, b in track])
    s.track = [c for c, _ in track][taken:]
    s.bends = [ENGINE_BEND[b] for _, b in track][taken:]
    s.cells = [code(xy) for xy in cells][taken:]
    s.head = ENGINE_HEADING[head]
    s.loco = loco
    hands = hands if hands is not None else [[] for _ in range(players)]
    s.hands = [list(h) for h in hands]
    s.piles = [list(p) for p in (piles or [[] for _ in range(players)])]
    s.deck = list(reversed(draws))
    s.seat = seat
    s.derails = derails
    named = [c for c, _ in track] + list(draws)
    for h in s.hands + s.piles:
        named += h
    assert len(set(named)) == len(named), "a card is named twice in the situation"
    s.box = [c for c in range(55) if c not in named] + [c for c, _ in track][:taken]
    assert_accounted(s)
    if start:
        s.start()
    return s


def straight_track(values, loco=2, **kw):
    """A straight track heading east with cards of the given values (straight ids, broken
    where the value is 'B<n>')."""
    used = {1: 0, 2: 0, 3: 0, 4: 0}
    track = []
    for v in values:
        if isinstance(v, str):
            track.append(({"B1": B1, "B3": B3}[v], "S"))
        else:
            track.append((STRAIGHT[v][used[v]], "S"))
            used[v] += 1
    return situation(track, loco=loco, **kw)


def roll(s, wheels):
    """Applies the dice of the build: one die per entry, 1 = a wheel."""
    for w in wheels:
        assert s.is_chance()
        s.apply(A_ROLL1 if w else A_ROLL0)


def pile(s, order=None):
    """Puts the penalty cards on the pile in `order` (default: as offered)."""
    if order is None:
        order = list(s.penalty)
    for c in order:
        assert s.phase == P_ORDER
        s.apply(A_PILE + c)


def raises(s, action, *words):
    """Asserts that `action` is illegal, that apply() raises IllegalAction (a ValueError) saying
    why in words that contain each of `words`, and that the failed apply changed nothing."""
    before = s.clone()
    assert action not in s.legal_actions()
    reason = s.why_not(action)
    assert reason is not None
    with pytest.raises(IllegalAction) as e:
        s.apply(action)
    assert isinstance(e.value, ValueError)
    for w in words:
        assert w in str(e.value), (w, str(e.value))
    assert s == before
    return str(e.value)


# ---------------------------------------------------------------------------------------------
# §1 Components


def test_s1_card_table_matches_rules():
    """§1: 55 cards; per id the kind, value and shape of the table (D10: one data table)."""
    from engine.cards import KIND, SHAPE, VALUE, KIND_TRACK, KIND_BROKEN, KIND_CHAOS
    from engine.cards import SHAPE_CURVE, SHAPE_STRAIGHT
    assert len(KIND) == len(VALUE) == len(SHAPE) == 55
    for c in range(55):
        assert VALUE[c] == VAL[c], c
        kind = KIND_CHAOS if c in CHAOS else KIND_BROKEN if c in (B1, B2, B3, B4) else KIND_TRACK
        assert KIND[c] == kind, c
        if c not in CHAOS:
            assert SHAPE[c] == (SHAPE_CURVE if c in IS_CURVE else SHAPE_STRAIGHT), c


def test_s1_a_die_shows_a_wheel_two_times_in_three():
    """§1: 4 of 6 faces show a wheel."""
    s = straight_track([1, 1, 1, 1], hands=[[S1[4]]], draws=[S2[0], S2[1]])
    s.apply(A_LAY + S1[4])
    assert s.is_chance()
    outcomes = {a: Fraction(n, d) for a, n, d in s.chance_outcomes()}
    assert outcomes == {A_ROLL1: Fraction(2, 3), A_ROLL0: Fraction(1, 3)}
    rng = Rng(7)
    wheels = sum(s.sample_chance(rng) == A_ROLL1 for _ in range(30000))
    assert abs(wheels - 20000) < 400  # 4.9 sigma


# ---------------------------------------------------------------------------------------------
# §2 The grid and the placement rules


def test_s2_first_card_lies_at_origin_entered_heading_east():
    """§2: the very first card lies at (0, 0), entered heading east; no value rule for it."""
    for c in (S1[0], S2[0], S3[0], S4[0], B1, B3):
        s = State()
        assert s.fit(c, codes.BEND_S) == codes.FIT_OK
        assert s.target() == code((0, 0))
    for c in (C1[0], C2[0], C3[0], C4[0], B2, B4):
        s = State()
        assert s.fit(c, codes.BEND_L) == codes.FIT_OK and s.fit(c, codes.BEND_R) == codes.FIT_OK
    for seed in range(20):
        s = deal(MODE_SOLO, Rng(seed))
        assert codes.cell_xy(s.cells[0]) == (0, 0)
        cells, head = walk([codes.BEND_NAMES[b] for b in s.bends])
        assert xy_cells(s) == cells
        assert s.head == ENGINE_HEADING[head]


# (track bends reaching a heading, that heading)
_REACH = {"E": "SSSS", "S": "SRSS", "N": "SLSS", "W": "SLLS"}


@pytest.mark.parametrize("head", "ESWN")
@pytest.mark.parametrize("bend", "SLR")
def test_s2_bends_turn_as_defined(head, bend):
    """§2: S keeps the heading; L turns east->north->west->south->east, R the other way; a
    card is laid in the cell ahead of the last card's exit."""
    bends = _REACH[head]
    cards = [S2[0], S2[1], S2[2], S2[3]]
    cards = [C2[i] if b != "S" else cards[i] for i, b in enumerate(bends)]
    s = situation(list(zip(cards, bends)), hands=[[S2[5] if bend == "S" else C2[4]]],
                  draws=[S1[0], S1[1]])
    cells, h = walk(bends)
    assert h == head
    laid = s.hands[0][0]
    s.apply(A_LAY + laid)
    if bend != "S":
        assert s.phase == P_BEND
        s.apply(A_BEND_L if bend == "L" else A_BEND_R)
    want = step(cells[-1], head)
    assert codes.cell_xy(s.cells[-1]) == want
    assert s.track[-1] == laid
    assert s.target() == code(step(want, turned(head, bend)))


@pytest.mark.parametrize("prev", [1, 2, 3, 4])
@pytest.mark.parametrize("new", [1, 2, 3, 4])
@pytest.mark.parametrize("shape", ["straight", "curve"])
def test_s2_2_value_rule_every_pair(prev, new, shape):
    """§2.2: |value(c) - value(last)| != 2: 1-3 and 2-4 are forbidden both ways, 1-4 and equal
    values are allowed."""
    card = STRAIGHT[new][-1] if shape == "straight" else CURVE[new][-1]
    s = straight_track([prev] * 4, loco=2, hands=[[card]], draws=[X1, X2])
    allowed = abs(prev - new) != 2
    assert (A_LAY + card in s.legal_actions()) == allowed
    assert (s.why_not(A_LAY + card) is None) == allowed
    if allowed:
        s.apply(A_LAY + card)
        if shape == "curve":
            s.apply(A_BEND_L)
        assert s.track[-1] == card
    else:
        raises(s, A_LAY + card, "value rule", "2.2")


def test_s2_2_value_rule_applies_to_broken_cards_both_ways():
    """§1: broken cards are track cards in every respect: the value rule holds after and for
    them."""
    s = straight_track([3, 3, 3, "B3"], hands=[[S1[0], B1, S4[0]]], draws=[X1, X2])
    raises(s, A_LAY + S1[0], "value rule")
    raises(s, A_LAY + B1, "value rule")
    assert A_LAY + S4[0] in s.legal_actions()
    s = straight_track([2, 2, 2, 2], hands=[[B4, B1]], draws=[X1, X2])
    raises(s, A_LAY + B4, "value rule")
    assert A_LAY + B1 in s.legal_actions()


def test_s2_2_value_rule_not_checked_for_the_first_card_but_for_the_second():
    """§2.2 in the recorded setup (§10): any first card; the second is checked against it."""
    rest = [c for c in range(55) if c not in (S1[0], S3[0], S3[1], S3[2], S4[0], S4[1],
                                              S4[2], S4[3])]
    hands = [[rest[0], rest[1]]]
    removed = rest[2:13]
    deck = rest[13:]
    s = from_setup(MODE_SOLO, 1, [(S3[0], 0), (S4[0], 0), (S4[1], 0), (S4[2], 0)],
                      removed, hands, deck + [S1[0], S3[1], S3[2], S4[3]])
    assert s.track == [S3[0], S4[0], S4[1], S4[2]]
    with pytest.raises(ValueError) as e:
        from_setup(MODE_SOLO, 1, [(S1[0], 0), (S3[0], 0), (S3[1], 0), (S3[2], 0)],
                      removed, hands, deck + [S4[0], S4[1], S4[2], S4[3]])
    assert "2.2" in str(e.value)


def test_s2_1_shapes_take_their_bends():
    """§2.1: a straight card takes S, a curve L or R; chaos cards can never be laid."""
    s = straight_track([1, 1, 1, 1], hands=[[S1[4], C1[0], X1]], draws=[X2, X3])
    assert s.fit(S1[4], codes.BEND_L) == codes.FIT_SHAPE
    assert s.fit(S1[4], codes.BEND_R) == codes.FIT_SHAPE
    assert s.fit(C1[0], codes.BEND_S) == codes.FIT_SHAPE
    for b in (codes.BEND_S, codes.BEND_L, codes.BEND_R):
        assert s.fit(X1, b) == codes.FIT_SHAPE
    raises(s, A_LAY + X1, "chaos")
    raises(s, A_BEND_L, "curve")
    s.apply(A_LAY + C1[0])
    assert s.phase == P_BEND
    assert s.legal_actions() == [A_BEND_L, A_BEND_R]
    for a in range(A_END):
        if a not in (A_BEND_L, A_BEND_R):
            assert s.why_not(a) is not None
    s.apply(A_BEND_R)
    assert s.bends[-1] == codes.BEND_R


# A track that comes back towards its start: (0,0) S, (1,0) R, (1,1) S, (1,2) R, (0,2) R.
# Its open end is (0,1) heading north: a straight there points into (0,0), a right curve into
# (1,1); only a left curve (towards (-1,1)) is free.
HOOK = [(S2[0], "S"), (C2[0], "R"), (S2[1], "S"), (C2[1], "R"), (C2[2], "R")]


def test_s2_4_no_block_straight_and_curve_directions():
    """§2.4, D8: the new open end never points into a card; L and R are judged separately."""
    s = situation(HOOK, loco=2, hands=[[S2[2], C2[3]]], draws=[X1, X2])
    assert s.target() == code((0, 1))
    why = raises(s, A_LAY + S2[2], "no block", "2.4")
    assert "(0, 1)" in why
    assert s.fit(C2[3], codes.BEND_R) == codes.FIT_BLOCKED
    assert s.fit(C2[3], codes.BEND_L) == codes.FIT_OK
    assert A_LAY + C2[3] in s.legal_actions()
    s.apply(A_LAY + C2[3])
    assert s.legal_actions() == [A_BEND_L]
    raises(s, A_BEND_R, "no block", "2.4")
    s.apply(A_BEND_L)
    assert xy_cells(s)[-1] == (0, 1)


def test_s2_4_no_block_mirror_left_blocked_right_free():
    """§2.4: the mirror image: after S, L, L a left curve would point back into (0,0)."""
    track = [(S1[0], "S"), (C1[0], "L"), (C1[1], "L")]  # end (1,-1) heading west
    s = situation(track, loco=1, hands=[[C1[2], S1[1]]], draws=[X1, X2])
    assert s.target() == code((0, -1))
    assert s.fit(C1[2], codes.BEND_L) == codes.FIT_BLOCKED
    assert s.fit(C1[2], codes.BEND_R) == codes.FIT_OK
    assert s.fit(S1[1], codes.BEND_S) == codes.FIT_OK
    s.apply(A_LAY + C1[2])
    assert s.legal_actions() == [A_BEND_R]


def test_s2_4_curve_blocked_both_ways_is_illegal_with_both_reasons():
    """§2.4: a curve is illegal when neither bend is free (the reason names both), while a
    straight card at the same end is legal."""
    bends = "SSLSLSSLL"  # ends at (-1,-1) heading east: (0,-2) left and (0,0) right are taken
    straights, curves = iter(S4), iter(C4)
    track = [(next(straights) if b == "S" else next(curves), b) for b in bends]
    cells, head = walk(bends)
    assert cells[-1] == (-1, -1) and head == "E"
    s = situation(track, loco=5, hands=[[next(curves), next(straights)]], draws=[S2[0], S2[1]])
    curve, straight = s.hands[0][0], s.hands[0][1]
    assert s.fit(curve, codes.BEND_L) == codes.FIT_BLOCKED
    assert s.fit(curve, codes.BEND_R) == codes.FIT_BLOCKED
    why = raises(s, A_LAY + curve, "no block")
    assert "bent left" in why and "bent right" in why
    assert sorted(s.legal_actions()) == [A_PASS, A_LAY + straight]


def test_s2_3_target_cell_taken():
    """§2.3: the target cell must hold no card. (In play §2.4 already keeps the open end free,
    so the situation is built by hand: a track whose end points at its own start.)"""
    track = [(S3[0], "S"), (C3[0], "R"), (S3[1], "S"), (C3[1], "R"), (S3[2], "S"),
             (C3[2], "R"), (S3[3], "S"), (S3[4], "S"), (C3[3], "R"), (C3[4], "R")]
    cells, head = walk([b for _, b in track])
    assert cells[-1] == (0, -1) and head == "S"  # the target (0, 0) holds the first card
    s = situation(track, loco=5, hands=[[C3[5], B3]], draws=[S1[0], S1[1]])
    assert s.fit(B3, codes.BEND_S) == codes.FIT_TAKEN
    raises(s, A_LAY + B3, "holds a card", "2.3")
    raises(s, A_LAY + C3[5], "2.3")
    assert s.legal_actions() == [A_PASS]


def test_s2_4_open_end_freed_by_penalties():
    """§2.4 with §6: cards taken from the start free their cells; a straight blocked by the
    first card becomes legal once that card is taken."""
    s = situation(HOOK, loco=2, hands=[[S2[2]]], draws=[S1[0], S1[1], S1[2]])
    assert s.why_not(A_LAY + S2[2]) is not None
    s.apply(A_PASS)  # §4: move 1, one penalty: the start card (0,0) is taken
    assert s.penalty == [S2[0]]
    pile(s)
    assert s.phase == P_TURN
    assert (0, 0) not in xy_cells(s)
    assert A_LAY + S2[2] in s.legal_actions()
    s.apply(A_LAY + S2[2])
    assert xy_cells(s)[-1] == (0, 1)
    assert s.target() == code((0, 0))


def test_s2_several_cards_each_checked_against_the_card_laid_just_before():
    """§2, last paragraph: in a build, each card is placed after and checked against the card
    laid just before it, not the track's end before the build."""
    track = [(S1[0], "S"), (S1[1], "S"), (S1[2], "S"), (S1[3], "S")]
    s = situation(track, loco=2, hands=[[C1[0], C1[1], C1[2], C1[3]]], draws=[X1, X2])
    s.apply(A_LAY + C1[0])
    s.apply(A_BEND_L)  # (4,0) heading north
    assert s.phase == P_BUILD
    s.apply(A_LAY + C1[1])
    s.apply(A_BEND_L)  # (4,-1) heading west
    s.apply(A_LAY + C1[2])
    # At (3,-1) heading west: a left turn heads south into (3,0), a card of the track.
    assert s.target() == code((3, -1))
    assert s.legal_actions() == [A_BEND_R]
    s.apply(A_BEND_R)  # heading north
    assert xy_cells(s)[-3:] == [(4, 0), (4, -1), (3, -1)]
    assert s.target() == code((3, -2))


def test_s2_build_value_rule_is_against_the_track_end():
    """§2.2 and §4: the first card of a build is checked against the last track card; a build
    may not mix values."""
    s = straight_track([2, 2, 2, 3], hands=[[S1[0], S1[1], S4[0], S3[1], S2[3]]],
                       draws=[X1, X2])
    legal = s.legal_actions()
    assert A_LAY + S1[0] not in legal and A_LAY + S1[1] not in legal  # 1 after 3
    assert A_LAY + S4[0] in legal and A_LAY + S3[1] in legal and A_LAY + S2[3] in legal
    s.apply(A_LAY + S3[1])
    assert s.phase == P_DICE  # no other 3 in hand: the build is complete (§4)
    s = straight_track([2, 2, 2, 3], hands=[[S3[1], S3[2], S4[0]]], draws=[X1, X2])
    s.apply(A_LAY + S3[1])
    assert s.phase == P_BUILD
    assert sorted(s.legal_actions()) == [A_STOP, A_LAY + S3[2]]
    raises(s, A_LAY + S4[0], "one value")
    raises(s, A_PASS, "pass")


# ---------------------------------------------------------------------------------------------
# §3 Setup


def _independent_fit(cells, head, last_value, card, bend):
    """§2 placement rules from scratch: returns True if `card` with `bend` may be laid after
    cards in `cells` whose end exits heading `head`."""
    if card in CHAOS:
        return False
    if (card in IS_CURVE) == (bend == "S"):
        return False
    if cells:
        if abs(VAL[card] - last_value) == 2:
            return False
        target = step(cells[-1], head)
    else:
        target = (0, 0)
    if target in cells:
        return False
    return step(target, turned(head, bend)) not in cells


def _initial_track_story(seed, mode=MODE_SOLO, players=None):
    """Replays §3.2 independently: the first shuffle of Rng(seed) gives the order the engine
    drew in; returns (state, set-aside cards) after checking every decision."""
    s = deal(mode, Rng(seed), players)
    order = list(range(55))
    Rng(seed).shuffle(order)  # deal()'s first shuffle; the top of the deck is the end
    laid_cells, head, last = [], "E", 0
    aside = []
    i = 0
    while len(laid_cells) < 4:
        c = order.pop()
        can = [b for b in "SLR" if _independent_fit(laid_cells, head, last, c, b)]
        if len(laid_cells) < 4 and i < 4 and c == s.track[i]:
            bend = codes.BEND_NAMES[s.bends[i]]
            assert bend in can, (seed, c, bend, can)
            laid_cells.append((0, 0) if not laid_cells else step(laid_cells[-1], head))
            head = turned(head, bend)
            last = VAL[c]
            i += 1
        else:
            assert not can, (seed, c, "was set aside though it could be laid")
            aside.append(c)
    assert xy_cells(s) == laid_cells
    return s, aside, order


def test_s3_2_initial_track_sets_aside_chaos_and_unlayable_cards():
    """§3.2, D7: cards are drawn in deck order; chaos cards and cards that break §2 are set
    aside, all others laid; broken cards may be laid; set-aside cards go back into the deck,
    which is shuffled again."""
    saw_chaos_aside = saw_track_aside = saw_broken_laid = 0
    for seed in range(300):
        s, aside, rest = _initial_track_story(seed)
        everything_left = s.deck + s.box + s.hands[0]
        for c in aside:
            assert c in everything_left  # put back, not lost nor laid
        assert sorted(everything_left) == sorted(rest + aside)
        saw_chaos_aside += any(c in CHAOS for c in aside)
        saw_track_aside += any(c not in CHAOS for c in aside)
        saw_broken_laid += any(c in (B1, B2, B3, B4) for c in s.track)
        if aside:
            # Reshuffled: the cards left over after the track are no longer in the order
            # they had (without a shuffle they would keep it, set-asides on top or bottom).
            top_first = list(reversed(s.deck))
            kept = [c for c in reversed(rest) if c in top_first]
            assert [c for c in top_first if c in kept] != kept, seed
    assert saw_chaos_aside > 10 and saw_track_aside > 10 and saw_broken_laid > 10


@pytest.mark.parametrize("mode,players,removed", [
    (MODE_SOLO, 1, 11), (MODE_CHALLENGE, 1, 11), (MODE_RIVAL, 2, 11),
    (MODE_TABLE, 2, 11), (MODE_TABLE, 3, 9), (MODE_TABLE, 4, 7),
])
def test_s3_setup_loco_removed_dealt_and_accounted(mode, players, removed):
    """§3.3-3.5, §8: the loco on the 3rd card; 11/9/7 cards to the box for 1-2/3/4 players;
    2 cards dealt to each player, none to the rival; all 55 cards accounted for."""
    for seed in range(40):
        s = deal(mode, Rng(seed), players)
        assert s.players == players
        assert len(s.track) == 4 and s.loco == 2
        assert len(s.box) == removed
        for seat in range(players):
            want = 0 if (mode == MODE_RIVAL and seat == 0) else 2
            assert len(s.hands[seat]) == want
            assert s.piles[seat] == []
        assert len(s.deck) == 55 - 4 - removed - 2 * (players - (mode == MODE_RIVAL))
        assert_accounted(s)
        for c in s.track:
            assert c not in CHAOS


def test_s3_same_seed_same_setup():
    """§3.1 with the game record (§10): a seed fixes the whole setup."""
    for mode, players in ((MODE_SOLO, 1), (MODE_RIVAL, 2), (MODE_TABLE, 4)):
        for seed in (0, 1, 99):
            assert deal(mode, Rng(seed), players) == deal(mode, Rng(seed), players)
        assert deal(mode, Rng(1), players) != deal(mode, Rng(2), players)


def test_s3_setup_other_player_counts_refused():
    """§8: solo and challenge have 1 seat, rival 2, table 2 to 4."""
    for mode, bad in ((MODE_SOLO, 2), (MODE_CHALLENGE, 2), (MODE_RIVAL, 1), (MODE_RIVAL, 3),
                      (MODE_TABLE, 1), (MODE_TABLE, 5)):
        with pytest.raises(ValueError):
            deal(mode, Rng(1), bad)


def test_s3_loco_on_third_card_and_first_turn_draws():
    """§3.3 and §4: after start() seat 0 has drawn the deck's top card."""
    s = deal(MODE_TABLE, Rng(3), 3)
    top = s.deck[-1]
    s.start()
    assert s.seat == 0 and s.phase == P_TURN and s.turn == 1
    assert s.hands[0][-1] == top and len(s.hands[0]) == 3
    assert len(s.hands[1]) == 2 and len(s.hands[2]) == 2
    assert s.track[s.loco] == s.track[2]


# ---------------------------------------------------------------------------------------------
# §4 A turn


def test_s4_pass_moves_one_and_takes_one_penalty():
    """§4: a pass moves the loco 1 card and earns 1 penalty card, taken from the start."""
    s = straight_track([1, 1, 1, 1, 1], loco=2, hands=[[S2[0]]], draws=[S2[1], S2[2]])
    s.apply(A_PASS)
    assert s.loco == 2  # moved to index 3, then the start card was taken
    assert s.penalty == [S1[0]] and s.track == S1[1:5]
    assert s.track[s.loco] == S1[3]
    pile(s)
    assert s.piles[0] == [S1[0]]
    assert s.phase == P_TURN and s.turn == 2
    assert s.derails == 0


def test_s4_pass_on_the_last_card_does_not_move_but_costs_one():
    """§4: a pass on the last card does not move (never derails) and still earns 1 penalty."""
    s = straight_track([1, 1, 1, 1], loco=3, hands=[[S2[0]]], draws=[S2[1], S2[2]])
    s.apply(A_PASS)
    assert s.penalty == [S1[0]]
    assert s.track[s.loco] == S1[3] and s.loco == len(s.track) - 1
    assert s.derails == 0
    pile(s)
    assert s.piles[0] == [S1[0]]


def test_s4_pass_is_always_legal_on_a_turn():
    """§4: pass is always allowed, even when nothing can be laid and no chaos is held."""
    s = situation(HOOK, loco=2, hands=[[S2[2]]], draws=[S4[0], S4[1]])  # 4 after 2: value
    assert s.legal_actions() == [A_PASS]


def test_s4_turn_begins_with_a_draw():
    """§4: first draw the top card of the deck into the hand (no hand limit)."""
    hand = S1[:5] + C1[:5]
    s = straight_track([2, 2, 2, 2], hands=[hand], draws=[S3[0], S3[1]], start=False)
    s.start()
    assert s.hands[0] == hand + [S3[0]] and s.deck == [S3[1]]


def test_s4_build_rolls_the_sum_of_the_values_laid():
    """§4: a build rolls as many dice as the sum of the values laid; the loco moves 1 card
    per wheel (§5)."""
    s = straight_track([3, 3, 3, 3] + [3], loco=0, hands=[[C3[0], C3[1], B3]],
                       draws=[X1, X2])
    s.apply(A_LAY + C3[0])
    s.apply(A_BEND_L)
    s.apply(A_LAY + B3)
    s.apply(A_LAY + C3[1])
    s.apply(A_BEND_R)
    assert s.phase == P_DICE and s.dice_left == 9
    dice = 0
    while s.is_chance():
        assert s.legal_actions() == [A_ROLL0, A_ROLL1]
        raises(s, A_PASS, "roll")
        s.apply(A_ROLL1 if dice % 3 else A_ROLL0)  # 0,1,1,0,1,1,0,1,1: 6 wheels
        dice += 1
    assert dice == 9
    # From index 0 six cards forward reaches index 6 (B3 laid at index 6 was entered: 1).
    assert s.penalty == [S3[0]]
    pile(s)
    assert s.track[s.loco] == B3


def test_s4_build_of_two_twos_rolls_four_dice_and_stop_ends_the_build():
    """§4: the player chooses how many cards of the value to lay; STOP rolls."""
    s = straight_track([2, 2, 2, 2], loco=2, hands=[[S2[4], S2[5], C2[0]]], draws=[X1, X2])
    s.apply(A_LAY + S2[4])
    s.apply(A_LAY + S2[5])
    assert s.phase == P_BUILD and A_LAY + C2[0] in s.legal_actions()
    s.apply(A_STOP)
    assert s.phase == P_DICE and s.dice_left == 4
    assert C2[0] in s.hands[0]


def test_s4_discard_chaos_in_chosen_order_no_move_no_penalty():
    """§4: discard 1 or more chaos cards one by one; the loco does not move, no penalty."""
    s = straight_track([1, 1, 1, 1], loco=2, hands=[[X1, X3, X4, S1[4]]], draws=[S2[0], S2[1]])
    track, loco = s.track[:], s.loco
    assert A_CHAOS + X1 in s.legal_actions()
    raises(s, A_CHAOS + S1[4], "not a chaos card")
    raises(s, A_CHAOS + X2, "not in the hand")
    s.apply(A_CHAOS + X3)
    assert s.phase == P_CHAOS
    assert sorted(s.legal_actions()) == sorted([A_STOP, A_CHAOS + X1, A_CHAOS + X4])
    raises(s, A_LAY + S1[4], "chaos")
    raises(s, A_PASS, "pass")
    s.apply(A_CHAOS + X1)
    s.apply(A_STOP)
    assert s.piles[0] == [X3, X1]
    assert s.hands[0] == [X4, S1[4], S2[0], S2[1]]  # the next turn has drawn S2[1]
    assert s.track == track and s.loco == loco and s.penalty == []
    assert s.turn == 2 and s.phase == P_TURN


def test_s4_discard_chaos_needs_a_chaos_card():
    """§4: only with at least 1 chaos card in hand."""
    s = straight_track([1, 1, 1, 1], hands=[[S1[4]]], draws=[S2[0], S2[1]])
    for c in CHAOS:
        assert s.why_not(A_CHAOS + c) is not None


def test_s4_last_chaos_card_ends_the_turn():
    """§4: discarding the only chaos card ends the action (nothing else can follow)."""
    s = straight_track([1, 1, 1, 1], hands=[[X2]], draws=[S2[0], S2[1]])
    s.apply(A_CHAOS + X2)
    assert s.turn == 2 and s.piles[0] == [X2]


# ---------------------------------------------------------------------------------------------
# §5 Moving the loco


def test_s5_derailment_example_three_wheels_one_ahead():
    """§5 example: 3 wheels with 1 card ahead: 1 move, derail with 2 left: 2 penalty cards."""
    s = straight_track([2, 2, 2, 3], loco=3, hands=[[S3[1]]], draws=[S1[0], S1[1]])
    s.apply(A_LAY + S3[1])
    assert s.ahead() == 1 and s.dice_left == 3
    roll(s, [1, 1, 1])
    assert s.moved == 1 and s.derail_left == 2 and s.earned == 2
    assert s.derails == 1
    assert s.penalty == [S2[0], S2[1]]
    assert s.track[s.loco] == S3[1] and s.loco == len(s.track) - 1  # stays on the last card
    pile(s)
    assert s.piles[0] == []  # 2 on 2 combines (§6)


def test_s5_no_derailment_when_wheels_fit():
    """§5: wheels up to the cards ahead move the loco, no penalty."""
    s = straight_track([2, 2, 2, 3], loco=1, hands=[[S3[1]]], draws=[S1[0], S1[1]])
    s.apply(A_LAY + S3[1])
    roll(s, [1, 1, 1])  # 3 ahead exactly
    assert s.derails == 0 and s.loco == 4 and s.penalty == [] and s.phase == P_TURN


def test_s5_zero_wheels_do_not_move():
    s = straight_track([2, 2, 2, 3], loco=3, hands=[[S3[1]]], draws=[S1[0], S1[1]])
    s.apply(A_LAY + S3[1])
    roll(s, [0, 0, 0])
    assert s.loco == 3 and s.derails == 0 and s.piles[0] == [] and s.phase == P_TURN


def test_s5_d1_broken_cards_entered_on_a_build_cost_one_each():
    """§5, D1: each broken card entered (passed over or stopped on) earns 1; the loco keeps
    moving. Here a broken card on the track and one laid by the build itself."""
    s = straight_track([1, 1, 1, "B1", 1], loco=2, hands=[[B2, S2[0]]], draws=[X1, X2])
    s.apply(A_LAY + B2)
    s.apply(A_BEND_R)
    s.apply(A_LAY + S2[0])
    assert s.phase == P_DICE and s.dice_left == 4
    roll(s, [1, 1, 1, 1])  # enters B1, S1, B2, S2: stops on the last card, no derailment
    assert s.derails == 0 and s.hits == 2 and s.earned == 2
    assert s.penalty == [S1[0], S1[1]]


def test_s5_d1_stopping_on_a_broken_card_costs_one():
    s = straight_track([1, 1, 1, "B1", 1], loco=2, hands=[[S1[4]]], draws=[X1, X2])
    s.apply(A_LAY + S1[4])
    roll(s, [1])
    assert s.track[s.loco] == B1 and s.penalty == [S1[0]]


def test_s5_d1_broken_card_on_a_pass_costs_one_more():
    """D1: a pass that enters a broken card earns 2: 1 for the pass, 1 for the broken card."""
    s = straight_track([1, 1, 1, "B1", 1], loco=2, hands=[[S2[0]]], draws=[X1, X2])
    s.apply(A_PASS)
    assert s.penalty == [S1[0], S1[1]]
    assert s.track[s.loco] == B1


def test_s5_d1_card_the_loco_starts_on_is_not_entered():
    """D1: a card the loco starts on is not entered: leaving a broken card costs nothing."""
    s = straight_track([1, 1, "B1", 1, 1], loco=2, hands=[[S2[0]]], draws=[X1, X2])
    s.apply(A_PASS)
    assert s.penalty == [S1[0]]
    s = straight_track([1, 1, "B1", 1, 1], loco=2, hands=[[S1[4]]], draws=[X1, X2])
    s.apply(A_LAY + S1[4])
    roll(s, [1])
    assert s.phase == P_TURN and s.piles[0] == []


def test_s5_d1_broken_hits_and_derailment_add_up():
    """§5: broken cards entered and moves left at a derailment both earn penalties."""
    s = straight_track([3, 3, "B3", 4, "B1"], loco=1, hands=[[S4[1]]], draws=[X1, X2])
    s.apply(A_LAY + S4[1])
    roll(s, [1, 1, 1, 1])  # enters B3 (index 2), 4, B1 (index 4), S4: 4 moves, no derail
    assert s.hits == 2 and s.earned == 2 and s.derails == 0
    s = straight_track([3, 3, "B3", 4, "B1"], loco=2, hands=[[S4[1]]], draws=[X1, X2])
    s.apply(A_LAY + S4[1])
    roll(s, [1, 1, 1, 1])  # from B3 (not entered): 4, B1, S4 (3 moves), derails with 1 left
    assert s.hits == 1 and s.derail_left == 1 and s.earned == 2 and s.derails == 1


# ---------------------------------------------------------------------------------------------
# §6 Penalty cards and combining


def test_s6_penalties_from_the_start_never_the_locos_card_rest_forfeited():
    """§6: taken one by one from the start until enough or the next is the loco's card."""
    s = straight_track([3, 3], loco=1, hands=[[S4[0]]], draws=[X1, X2])
    s.apply(A_LAY + S4[0])
    roll(s, [1, 1, 1, 1])  # 1 move, derail with 3 left: 3 earned, 2 cards behind the loco
    assert s.earned == 3
    assert s.penalty == [S3[0], S3[1]]
    assert s.track == [S4[0]] and s.loco == 0


def test_s6_d4_loco_on_the_start_forfeits_every_penalty():
    """D4: with the loco on the start of the track no penalty card can be taken."""
    s = straight_track([3], loco=0, hands=[[S4[0]]], draws=[X1, X2])
    s.apply(A_PASS)  # on the last card: no move, 1 penalty, forfeited
    assert s.penalty == [] and s.piles[0] == [] and s.track == [S3[0]]
    assert s.phase == P_TURN and s.turn == 2


def test_s6_d2_penalties_counted_while_moving_taken_after_stopping():
    """D2: taken once the loco has stopped: the cards it left behind can be taken."""
    s = straight_track([1, 1, 1], loco=0, hands=[[S2[0]]], draws=[X1, X2])
    s.apply(A_PASS)  # from index 0 to 1, then 1 penalty: the start card is behind it now
    assert s.penalty == [S1[0]]
    assert s.track == [S1[1], S1[2]] and s.loco == 0
    # Broken card entered on the same pass: 2 earned, only 1 card lies behind the loco.
    s = straight_track([1, "B1", 1], loco=0, hands=[[S2[0]]], draws=[X1, X2])
    s.apply(A_PASS)
    assert s.earned == 2 and s.penalty == [S1[0]] and s.track == [B1, S1[1]]


def test_s6_penalty_order_is_the_players_choice_and_changes_the_pile():
    """§6: penalty cards go on the pile one by one in the order the player chooses."""
    results = []
    for order in ([S2[0], S3[0]], [S3[0], S2[0]]):
        s = straight_track([2, 3, 3, 3], loco=3, hands=[[S4[0]]], draws=[X1, X2],
                           piles=[[S1[0], C2[0]]])
        s.apply(A_LAY + S4[0])
        roll(s, [1, 1, 1, 0])  # 1 move, derail with 2 left
        assert sorted(s.legal_actions()) == sorted([A_PILE + S2[0], A_PILE + S3[0]])
        raises(s, A_PILE + S1[1], "not among the penalty")
        raises(s, A_PASS, "penalty")
        pile(s, order)
        results.append((s.piles[0][:], s.score(0)))
    # 2 first: it combines with the 2 on top (both boxed), then 3 on the 1.
    assert results[0][0] == [S1[0], S3[0]]
    assert results[1][0] == [S1[0], C2[0], S3[0], S2[0]]
    hand = 1 + 2  # X1 drawn on this turn, X2 on the next
    assert results[0][1] == 1 + 3 + hand and results[1][1] == 1 + 2 + 3 + 2 + hand


def test_s6_combining_chain_card_beneath_becomes_top():
    """§6: a combined pair goes to the box, the card beneath becomes the top, and the next
    card may combine with it."""
    s = straight_track([3, 3, 2, 1, 1], loco=4, hands=[[S1[2]]], draws=[X1, X2],
                       piles=[[S4[0], S1[3], C2[0]]])
    s.apply(A_PASS)  # 1 penalty: S3[0]
    pile(s)
    assert s.piles[0] == [S4[0], S1[3], C2[0], S3[0]]
    s = straight_track([2, 1], loco=1, hands=[[S4[1]]], draws=[X1, X2],
                       piles=[[S4[0], S1[3], C2[0]]])
    s.apply(A_LAY + S4[1])
    roll(s, [1, 1, 1, 1])  # 1 move, derail 3 left, 2 cards behind: S2[0] then S1[0]
    box = len(s.box)
    pile(s, [S2[0], S1[0]])
    # 2 on 2: both boxed, the 1 beneath is the top; 1 on it: both boxed; the 4 remains.
    assert s.piles[0] == [S4[0]]
    assert sorted(s.box[box:]) == sorted([C2[0], S2[0], S1[3], S1[0]])


def test_s6_a_card_just_put_down_partners_the_next_and_combines_once():
    """§6: the card just put down may be the partner of the next; each card combines at most
    once: a third equal card starts the pile again."""
    s = straight_track([3, 3, 3, 3], loco=3, hands=[[S4[0]]], draws=[X1, X2])
    s.apply(A_LAY + S4[0])
    roll(s, [1, 1, 1, 1])  # derail, 3 left, 3 cards behind the loco's new card... 4 cards
    assert s.penalty == [S3[0], S3[1], S3[2]]
    pile(s)
    assert s.piles[0] == [S3[2]]
    assert S3[0] in s.box and S3[1] in s.box


def test_s6_d3_combining_is_automatic_and_by_value_not_kind():
    """D3: putting a card on an equal top always combines; a broken or chaos card of that
    value partners a track card too."""
    s = straight_track(["B3", 3, 3], loco=2, hands=[[X3]], draws=[X1, X2],
                       piles=[[S1[0], C3[0]]])
    s.apply(A_PASS)
    pile(s)  # B3 on C3: both boxed
    assert s.piles[0] == [S1[0]]
    s.apply(A_CHAOS + X1)  # chaos 1 on S1: combine
    assert s.piles[0] == []


def test_s6_chaos_discard_order_changes_pile_and_score():
    """§4, §6: the same chaos cards discarded in different orders give different piles."""
    outcome = {}
    for order in ((X4, X1), (X1, X4)):
        s = straight_track([1, 1, 1, 1], hands=[[X1, X4]], draws=[S2[0], S2[1]],
                           piles=[[S3[0], S4[0]]])
        for c in order:
            s.apply(A_CHAOS + c)
        outcome[order] = (s.piles[0][:], s.score(0))
    hand = 2 + 2  # S2[0] drawn on this turn, S2[1] on the next
    assert outcome[(X4, X1)] == ([S3[0], X1], 3 + 1 + hand)
    assert outcome[(X1, X4)] == ([S3[0], S4[0], X1, X4], 3 + 4 + 1 + 4 + hand)


# ---------------------------------------------------------------------------------------------
# §7 End and scoring


def test_s7_game_ends_after_the_turn_that_drew_the_last_card():
    """§4, §7: the turn that drew the last card is played out (dice, penalties), then over."""
    s = straight_track([2, 2, 2, 3], loco=3, hands=[[S3[1]]], draws=[S1[0]])
    assert s.deck == [] and s.phase == P_TURN
    s.apply(A_LAY + S3[1])
    roll(s, [1, 1, 1])
    assert s.phase == P_ORDER  # still this turn
    pile(s, [S2[0], S2[1]])
    assert s.is_terminal() and s.legal_actions() == []
    assert s.piles[0] == []  # 2 on 2 combined before the end
    for a in range(A_END):
        assert s.why_not(a) is not None
    with pytest.raises(IllegalAction):
        s.apply(A_PASS)


def test_s7_table_game_ends_without_further_draws():
    """§7: in a table game the next player does not get a turn once the deck is empty."""
    s = straight_track([1, 1, 1, 1, 1, 1], loco=1, mode=MODE_TABLE, players=3,
                       hands=[[S2[0]], [S2[1]], [S2[2]]], draws=[S3[0], S3[1]])
    s.apply(A_PASS)
    pile(s)
    assert s.seat == 1 and s.deck == []
    s.apply(A_PASS)
    pile(s)
    assert s.is_terminal() and s.hands[2] == [S2[2]]


def test_s7_game_goes_on_while_cards_remain():
    s = straight_track([1, 1, 1, 1], loco=3, hands=[[S2[0]]], draws=[S3[0], S3[1]])
    s.apply(A_PASS)
    pile(s)
    assert not s.is_terminal() and s.turn == 2 and s.deck == []
    s.apply(A_PASS)
    pile(s)
    assert s.is_terminal()


def _table(hands, piles=None):
    n = len(hands)
    s = State(MODE_TABLE, n)
    s.hands = [list(h) for h in hands]
    s.piles = [list(p) for p in (piles or [[] for _ in range(n)])]
    return s


def test_s7_score_is_hand_plus_pile_without_combining_at_the_end():
    """§7: the sum of the values in hand and in the pile; no combining at the end."""
    s = _table([[S2[0], S2[1], X4], [S1[0]]], [[S3[0], S1[1]], []])
    assert s.score(0) == 2 + 2 + 4 + 3 + 1
    assert s.result()["scores"] == [12, 1] and s.result()["cards"] == [5, 1]
    assert s.winners() == [1]


@pytest.mark.parametrize("a,b,winners,why", [
    ([S1[0]], [S2[0]], [0], "lower score"),
    ([S4[0]], [S2[0], S2[1]], [0], "same score, fewer cards"),
    ([S2[0], S1[0], S1[1]], [S3[0], S1[2]], [1], "same score, fewer cards"),
    ([S3[0], S2[0]], [S4[0], S1[0]], [0], "same score and cards, fewer 4s"),
    ([S3[0], S1[0]], [S2[0], S2[1]], [1], "same score, cards and 4s, fewer 3s"),
    ([S4[0], S3[0], S1[0]], [S4[1], S2[0], S2[1]], [1], "fewer 3s after equal 4s"),
    ([S3[0], S2[0]], [C3[0], C2[0]], [0, 1], "all equal: shared"),
    ([X3, B2], [S3[0], S2[0]], [0, 1], "all equal by value, whatever the kinds: shared"),
])
def test_s7_tie_breaks_in_table_mode(a, b, winners, why):
    """§7: lowest score; then fewest cards; then fewest 4s, 3s, 2s, 1s; then shared."""
    assert _table([a, b]).winners() == winners, why
    # Split between hand and pile changes nothing.
    assert _table([a[:1], b[1:]], [a[1:], b[:1]]).winners() == winners, why
    assert _table([b, a]).winners() == [1 - w for w in reversed(winners)], why


def test_s7_tie_break_key_and_why_2s_and_1s_never_decide():
    """§7: the order is score, cards, 4s, 3s, 2s, 1s. Once score, cards, 4s and 3s are equal,
    2c + d and c + d are equal, so the 2s and 1s are equal too: those two tie-breaks can never
    decide (checked here over every hand of up to 6 cards)."""
    s = _table([[S4[0], S3[0], S2[0], S2[1], S1[0]], []])
    assert s.rank_key(0) == (12, 5, 1, 1, 2, 1)
    from itertools import combinations_with_replacement
    seen = {}
    for n in range(7):
        for values in combinations_with_replacement((1, 2, 3, 4), n):
            key = (sum(values), n, values.count(4), values.count(3))
            tail = (values.count(2), values.count(1))
            assert seen.setdefault(key, tail) == tail


def test_s7_tie_breaks_three_and_four_players():
    s = _table([[S4[0]], [S2[0], S2[1]], [C4[0]], [S1[0], S3[0]]])
    assert s.winners() == [0, 2]
    s = _table([[S4[0]], [S2[0], S1[0]], [C4[0]]])
    assert s.winners() == [1]


def test_s7_result_in_table_game_played_to_the_end():
    """§7: result() after a real ending names the winners by the tie-breaks."""
    s = straight_track([1, 1, 1, 1, 1, 1], loco=1, mode=MODE_TABLE, players=2,
                       hands=[[S2[0], S2[1]], [S4[0]]], draws=[S3[0], S3[1]])
    s.apply(A_PASS)  # seat 0 takes S1[0]: hand 2+2+3, pile 1 = 8, 4 cards
    pile(s)
    s.apply(A_PASS)  # seat 1 takes S1[1]: hand 4+3, pile 1 = 8, 3 cards
    pile(s)
    r = s.result()
    assert r["scores"] == [8, 8] and r["cards"] == [4, 3] and r["winners"] == [1]
    assert r["derailments"] == 0 and r["lost"] is False


# ---------------------------------------------------------------------------------------------
# §8 Modes: solo and challenge


def test_s8_solo_winner_is_the_player():
    s = _table([[S4[0]]])
    s.mode = MODE_SOLO
    assert s.winners() == [0]


def _derail_turn(s, card, wheels):
    s.apply(A_LAY + card)
    if s.phase == P_BUILD:
        s.apply(A_STOP)
    roll(s, wheels)
    if s.phase == P_ORDER:
        pile(s)


def test_s8_challenge_lost_at_the_fourth_derailment_turn_played_out():
    """§8 challenge: 3 derailments are allowed; the turn of the 4th is played out (penalties
    taken and discarded), then the game ends, lost: winners []."""
    s = straight_track([1, 1, 1, 1, 1, 2], loco=5, mode=MODE_CHALLENGE,
                       hands=[[S2[1], S3[0], S4[0], S4[1]]],
                       draws=[C1[0], C1[1], C1[2], C1[3], C1[4], C1[5]])
    _derail_turn(s, S2[1], [1, 1])
    assert s.derails == 1 and not s.is_terminal()
    _derail_turn(s, S3[0], [1, 1, 1])
    _derail_turn(s, S4[0], [1, 1, 1, 1])
    assert s.derails == 3 and not s.is_terminal() and s.phase == P_TURN
    s.apply(A_LAY + S4[1])
    roll(s, [1, 1, 1, 1])
    assert s.derails == 4
    assert s.phase == P_ORDER and not s.is_terminal()  # the turn is played out
    taken = list(s.penalty)
    assert len(taken) == 3
    pile(s)
    assert s.is_terminal() and s.lost
    for c in taken:
        assert c in s.piles[0] or c in s.box
    r = s.result()
    assert r["lost"] is True and r["winners"] == [] and r["derailments"] == 4
    assert len(s.deck) > 0


def test_s8_challenge_broken_hits_are_not_derailments():
    """§8: broken-track penalties are not derailments."""
    s = straight_track([1, 1, 1, "B1", 1], loco=2, mode=MODE_CHALLENGE, derails=3,
                       hands=[[S2[0]]], draws=[X1, X2])
    s.apply(A_PASS)
    assert s.earned == 2
    pile(s)
    assert s.derails == 3 and not s.is_terminal() and not s.lost


def test_s8_challenge_won_when_the_deck_runs_out():
    s = straight_track([1, 1, 1, 1], loco=3, mode=MODE_CHALLENGE, derails=3,
                       hands=[[S2[0]]], draws=[X1])
    s.apply(A_PASS)
    pile(s)
    assert s.is_terminal() and not s.lost
    assert s.result()["winners"] == [0]


def test_s8_solo_derailments_never_end_the_game():
    s = straight_track([1, 1, 1, 1, 1, 2], loco=5, mode=MODE_SOLO, derails=3,
                       hands=[[S2[1]]], draws=[X1, X2])
    _derail_turn(s, S2[1], [1, 1])
    assert s.derails == 4 and not s.is_terminal() and not s.lost


# ---------------------------------------------------------------------------------------------
# §8 Modes: the rival (seat 0)


def rival(track_values, loco, draws, piles=None, human=None, **kw):
    return straight_track(track_values, loco=loco, mode=MODE_RIVAL,
                          hands=[[], human if human is not None else [S2[5]]],
                          draws=draws, piles=piles, **kw)


def test_s8_rival_plays_first_and_gets_no_hand():
    s = new_game(MODE_RIVAL, Rng(11))
    assert s.seat == 0 and s.is_rival(0) and not s.is_rival(1)
    assert len(s.hands[0]) == 1 and len(s.hands[1]) == 2


def test_s8_rival_chaos_draw_goes_on_its_pile_combining():
    """§8: a chaos draw goes onto the rival's discard pile (combining); no move."""
    s = rival([1, 1, 1, 1], 2, draws=[X2, X3, S1[4]], piles=[[S4[0], S2[0]], []])
    assert s.legal_actions() == [A_CHAOS + X2]
    raises(s, A_PASS, "docs/rules.md §8")
    s.apply(s.rival_action())
    assert s.piles[0] == [S4[0]] and X2 in s.box and S2[0] in s.box
    assert s.loco == 2 and s.seat == 1
    s = rival([1, 1, 1, 1], 2, draws=[X3, X2, S1[4]], piles=[[S4[0], S2[0]], []])
    s.apply(s.rival_action())
    assert s.piles[0] == [S4[0], S2[0], X3]


def test_s8_rival_moves_by_the_value_laid_without_dice():
    """§8: after laying, the rival rolls no dice: the loco moves the card's value."""
    s = rival([4, 4, 4, 4, 4], 1, draws=[S3[0], S1[4], S1[5]])
    assert s.legal_actions() == [A_LAY + S3[0]]
    s.apply(s.rival_action())
    assert not s.is_chance()
    assert s.track[s.loco] == S4[4] and s.penalty == [] and s.seat == 1
    s = rival([4, 4, 4, 4, 4], 1, draws=[C4[0], S1[4], S1[5]])
    s.apply(s.rival_action())
    s.apply(s.rival_action())  # the bend (D6)
    assert s.track[s.loco] == C4[0] and s.loco == 5 and s.derails == 0 and s.seat == 1


def test_s8_d5_rival_derailment_costs_exactly_one():
    """§8, D5: a derailment costs the rival exactly 1 penalty card, whatever the moves left."""
    s = rival([3, 3, 3, 3], 3, draws=[S4[0], S1[4], S1[5]])
    s.apply(s.rival_action())  # 1 move, derail with 3 left
    assert s.derails == 1 and s.derail_left == 3
    assert s.penalty == [S3[0]]
    s.apply(s.rival_action())
    assert s.piles[0] == [S3[0]] and s.seat == 1


def test_s8_d5_rival_pays_broken_cards_plus_one_for_the_derailment():
    """D5: broken cards the rival's loco enters cost 1 each on top of the 1 for derailing."""
    s = rival([3, 3, 3, "B3"], 2, draws=[S4[0], S1[4], S1[5]])
    s.apply(s.rival_action())  # enters B3 (+1), S4, derails with 2 left (+1)
    assert s.hits == 1 and s.derails == 1
    assert s.penalty == [S3[0], S3[1]]


def test_s8_rival_unplayable_card_to_box_and_pass():
    """§8: no legal placement: the rival passes (move 1 if possible, 1 penalty) and the drawn
    card goes to the box."""
    s = rival([1, 1, 1, 1], 2, draws=[S3[0], S2[0], S2[1]])  # 3 after 1
    assert s.legal_actions() == [A_PASS]
    raises(s, A_LAY + S3[0], "value rule")
    s.apply(s.rival_action())
    assert S3[0] in s.box and s.hands[0] == []
    assert s.penalty == [S1[0]] and s.track[s.loco] == S1[3]
    s.apply(s.rival_action())
    assert s.piles[0] == [S1[0]] and s.seat == 1
    # On the last card: no move, still 1 penalty.
    s = rival([1, 1, 1, 1], 3, draws=[S3[0], S2[0], S2[1]])
    s.apply(s.rival_action())
    assert s.loco == 2 and s.track[s.loco] == S1[3] and s.penalty == [S1[0]]
    assert s.derails == 0


def test_s8_d1_rival_pass_into_a_broken_card_costs_two():
    """§8 with D1: the rival's pass moves the loco like anyone's; entering a broken card on it
    costs 1 more (only derailments are capped by D5)."""
    s = rival([1, 1, 1, "B1", 1], 2, draws=[S3[0], S2[0], S2[1]])
    s.apply(s.rival_action())
    assert S3[0] in s.box
    assert s.penalty == [S1[0], S1[1]] and s.track[s.loco] == B1


def test_s8_rival_passes_when_geometry_blocks_and_picks_a_legal_bend():
    """§8, D6: 'any legal placement' includes geometry; a curve is laid with a free bend."""
    s = situation(HOOK, loco=2, mode=MODE_RIVAL, hands=[[], [S1[0]]],
                  draws=[S2[2], S1[1], S1[2]])
    assert s.legal_actions() == [A_PASS]
    s = situation(HOOK, loco=2, mode=MODE_RIVAL, hands=[[], [S1[0]]],
                  draws=[C2[3], S1[1], S1[2]])
    assert s.legal_actions() == [A_LAY + C2[3]]
    s.apply(s.rival_action())
    assert s.phase == P_BEND and s.rival_action() == A_BEND_L
    s.apply(s.rival_action())
    assert xy_cells(s)[-1] == (0, 1)


def test_s8_rival_penalties_go_on_its_pile_in_the_order_taken():
    """§8: the rival's penalty cards go on its pile at once, in the order taken, combining."""
    s = rival([3, 2, 1, 1], 3, draws=[B2, C1[0], C1[1]], piles=[[S3[1]], []])
    s.apply(s.rival_action())  # lays B2 after 1
    s.apply(s.rival_action())  # its bend; 1 move (enters B2: +1), derail (+1)
    assert s.penalty == [S3[0], S2[0]]
    assert s.legal_actions() == [A_PILE + S3[0]]
    raises(s, A_PILE + S2[0], "order taken")
    s.apply(s.rival_action())
    s.apply(s.rival_action())
    assert s.piles[0] == [S2[0]]  # 3 on 3 combined, then the 2
    assert s.seat == 1


def test_s8_rival_score_is_its_card_count_and_a_tie_goes_to_the_rival():
    """§8: the rival's score is the number of cards on its pile; you win only if lower."""
    s = State(MODE_RIVAL, 2)
    s.piles = [[S1[0], S1[1], X1], [S4[0]]]
    s.hands = [[], [S4[1]]]
    assert s.score(0) == 3 and s.score(1) == 8
    assert s.winners() == [0]
    s.piles = [[S4[0], S4[1], X4], [S1[0]]]
    s.hands = [[], [S1[1]]]
    assert s.score(0) == 3 and s.score(1) == 2
    assert s.winners() == [1]
    s.hands = [[], [S1[1], S1[2]]]
    assert s.score(1) == 3 and s.winners() == [0]  # a tie goes to the rival
    assert s.result()["scores"] == [3, 3]


def test_s8_rival_mode_alternates_seats():
    s = rival([1, 1, 1, 1, 1, 1], 2, draws=[X1, S2[0], S2[1]], human=[C1[0], C1[1]])
    s.apply(s.rival_action())
    assert s.seat == 1 and s.hands[1][-1] == S2[0]
    s.apply(A_PASS)
    pile(s)
    assert s.seat == 0 and s.hands[0] == [S2[1]]


def test_s8_human_cannot_play_for_the_rival():
    """§8: the rival follows fixed rules: any other action is illegal."""
    s = rival([1, 1, 1, 1], 2, draws=[S1[4], S1[5], S2[0]])
    assert s.legal_actions() == [A_LAY + S1[4]]
    raises(s, A_PASS, "docs/rules.md §8")
    raises(s, A_STOP)


# ---------------------------------------------------------------------------------------------
# §5 derailment risk (engine.risk, State.build_risk)


def _binomial_derail(dice, ahead):
    p = Fraction(0)
    for k in range(ahead + 1, dice + 1):
        p += comb(dice, k) * Fraction(2, 3) ** k * Fraction(1, 3) ** (dice - k)
    return p


def test_risk_derail_chance_is_the_binomial_tail():
    """§1, §5: P(wheels > cards ahead) with each die a wheel with probability 2/3."""
    assert derail_chance(3, 1) == (20, 27)
    assert derail_chance(1, 0) == (2, 3)
    assert derail_chance(4, 0) == (80, 81)
    assert derail_chance(4, 4) == (0, 81)
    for dice in range(0, 17):
        assert sum(wheel_counts(dice)) == 3 ** dice
        for ahead in range(0, 18):
            num, den = derail_chance(dice, ahead)
            assert Fraction(num, den) == _binomial_derail(dice, ahead), (dice, ahead)
    assert permille(20, 27) == 741 and permille(1, 2) == 500 and permille(1, 3) == 333


def test_risk_build_risk_in_a_state():
    """State.build_risk: dice = values laid so far (+ the card), ahead = cards in front."""
    s = straight_track([2, 2, 2, 3], loco=3, hands=[[S3[1], S3[2]]], draws=[X1, X2])
    assert Fraction(*s.build_risk(S3[1])) == Fraction(20, 27)  # 3 dice, 1 ahead
    s = straight_track([2, 2, 2, 3], loco=2, hands=[[S3[1], S3[2]]], draws=[X1, X2])
    assert Fraction(*s.build_risk(S3[1])) == _binomial_derail(3, 2)
    s.apply(A_LAY + S3[1])
    assert s.phase == P_BUILD
    assert Fraction(*s.build_risk()) == _binomial_derail(3, 2)
    assert Fraction(*s.build_risk(S3[2])) == _binomial_derail(6, 3)


@pytest.mark.parametrize("loco,value", [(3, 3), (2, 3), (3, 4), (1, 4), (3, 1)])
def test_risk_matches_every_outcome_of_the_dice(loco, value):
    """The risk agrees with the engine's own movement: enumerate every roll sequence."""
    card = STRAIGHT[value][-1]
    s = straight_track([value] * 4, loco=loco, hands=[[card]], draws=[X1, X2])
    want = Fraction(*s.build_risk(card))
    s.apply(A_LAY + card)
    n = s.dice_left
    p = Fraction(0)
    for bits in range(2 ** n):
        t = s.clone()
        wheels = [(bits >> i) & 1 for i in range(n)]
        roll(t, wheels)
        if t.derails:
            p += Fraction(2, 3) ** sum(wheels) * Fraction(1, 3) ** (n - sum(wheels))
    assert p == want


# ---------------------------------------------------------------------------------------------
# Illegal actions: typed error, reasons in words


def test_illegal_action_is_a_value_error_with_reasons():
    assert issubclass(IllegalAction, ValueError)
    s = straight_track([1, 1, 1, 1], hands=[[S2[0], S4[0]]], draws=[X1, X2])
    raises(s, A_LAY + S3[0], "not in the hand")
    raises(s, A_STOP, "nothing to finish")
    raises(s, A_ROLL1, "no dice")
    raises(s, A_PILE + S1[0], "no penalty")
    raises(s, 6, "no action")
    s.apply(A_LAY + S2[0])
    roll(s, [0, 0])
    s = straight_track([1, 1, 1, 1], hands=[[C1[0]]], draws=[X1, X2])
    s.apply(A_LAY + C1[0])
    raises(s, A_PASS, "bend")
