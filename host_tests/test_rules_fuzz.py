"""Random whole games in every mode, checked after every step against docs/rules.md (§n, Dn):

- legal_actions() and why_not() agree on every action 0..182, and illegal actions raise
  IllegalAction without changing anything;
- invariants: all 55 cards accounted for (§1), the track is a chain of adjacent cells laid by
  §2 (value rule between neighbours, no cell twice, the open end free), no pile shows two equal
  values on top of each other (§6, D3), the loco on the track;
- every move of the loco against an independent model of §5/§6 (D1, D2, D4, D5): which cards
  are taken as penalties, how many derailments, where the loco stops;
- every card put on a pile against §6 combining; the end of the game against §4/§7/§8.
Seeded, so every run plays the same games.
"""
import pytest

from engine.playout import DECIDE, seeded, steps
from engine.rng import Rng
from engine.explain import why_not
from helpers import assert_accounted
from engine.codes import (
    A_BEND_L, A_BEND_R, A_CHAOS, A_END, A_LAY, A_PASS, A_PILE, A_ROLL0, A_ROLL1,
    P_BEND, P_DICE, P_ORDER, P_OVER, cell_xy,
)
from engine.deal import new_game
from engine.state import (
    MODE_CHALLENGE, MODE_RIVAL, MODE_SOLO, MODE_TABLE, IllegalAction,
)

BROKEN = (46, 47, 48, 49)
CHAOS = (50, 51, 52, 53, 54)
VALUE = [1] * 12 + [2] * 11 + [3] * 11 + [4] * 12 + [1, 2, 3, 4] + [1, 2, 3, 4, 4]  # §1
VEC = ((1, 0), (0, 1), (-1, 0), (0, -1))  # engine heading order E, S, W, N
STRAIGHT = tuple(range(0, 6)) + tuple(range(12, 18)) + tuple(range(23, 28)) + tuple(
    range(34, 40)) + (46, 48)
UNTURN = (0, 1, 3)  # undo S, L (-1), R (+1): heading before = after + UNTURN[bend] mod 4


def check_invariants(s):
    assert_accounted(s)
    assert len(s.track) == len(s.bends) == len(s.cells) >= 1
    assert 0 <= s.loco < len(s.track)
    assert len(set(s.cells)) == len(s.cells), "§2: two cards in one cell"
    for c in s.track:
        assert c not in CHAOS, "§1: a chaos card on the track"
    # Walk the chain back from the open end: each card's exit heading leads to the next cell.
    head = s.head
    xy = [cell_xy(c) for c in s.cells]
    end = (xy[-1][0] + VEC[head][0], xy[-1][1] + VEC[head][1])
    assert end not in xy, "§2.4: the open end points into a card"
    for i in range(len(s.track) - 1, 0, -1):
        head = (head + UNTURN[s.bends[i]]) % 4  # entry heading of card i = exit of card i-1
        assert (xy[i - 1][0] + VEC[head][0], xy[i - 1][1] + VEC[head][1]) == xy[i]
        assert abs(VALUE[s.track[i]] - VALUE[s.track[i - 1]]) != 2, "§2.2 between neighbours"
    for p in s.piles:
        for i in range(1, len(p)):
            assert VALUE[p[i]] != VALUE[p[i - 1]], "§6/D3: equal values left uncombined"
    if s.mode == MODE_RIVAL and s.phase != P_ORDER:
        assert len(s.hands[0]) <= 1


def check_agreement(s, rng):
    legal = s.legal_actions()
    assert len(set(legal)) == len(legal), "an action listed twice"
    assert (legal == []) == s.is_terminal()
    # engine.explain's why_not, which State.why_not() hands every action (checked below): the
    # method imports it at each call (RAM on the device), half of this module's CPU here.
    allowed = set(legal)
    for a in range(A_END):
        why = why_not(s, a)
        assert (why is None) == (a in allowed), (a, why, legal)
        if why is not None:
            assert isinstance(why, str) and why
    # One illegal action per step really raises and changes nothing.
    illegal = [a for a in range(A_END) if a not in allowed]
    a = illegal[rng.randbelow(len(illegal))]
    assert s.why_not(a) == why_not(s, a) and s.why_not(a) is not None
    if legal:
        assert s.why_not(legal[a % len(legal)]) is None  # no draw: the games stay the same
    before = s.clone()
    with pytest.raises(IllegalAction):
        s.apply(a)
    assert s == before


def expected_move(s, moves, is_pass, is_rival):
    """Independent §5/§6 model: returns (penalty cards in the order taken, loco's card,
    derailed) for `moves` from the state `s` before it moves."""
    loco = s.loco
    last = len(s.track) - 1
    earned = 1 if is_pass else 0
    derailed = False
    while moves:
        if loco == last:
            derailed = True
            earned += 1 if is_rival else moves  # §5; D5
            break
        loco += 1
        moves -= 1
        if s.track[loco] in BROKEN:
            earned += 1  # D1
    taken = s.track[:min(earned, loco)]  # §6, D2, D4
    return taken, s.track[loco], derailed


def move_of(s, a):
    """Returns (moves, is_pass, is_rival) if applying `a` to `s` moves the loco, else None."""
    rival = s.is_rival(s.seat)
    if a == A_PASS:
        return (1 if s.loco < len(s.track) - 1 else 0), True, rival
    if s.phase == P_DICE and s.dice_left == 1:
        return s.wheels + (a - A_ROLL0), False, False
    if rival and s.phase == P_BEND:
        return ("lay", s.pending), False, True  # the curve is laid, then the loco moves
    if rival and A_LAY <= a < A_LAY + 55 and (a - A_LAY) in STRAIGHT:
        return ("lay", a - A_LAY), False, True  # a straight card is laid at once
    return None


def play_checked(mode, players, seed):
    s, chance, bot = seeded(mode, seed, players)
    count = 0
    for a in steps(s, chance):
        check_invariants(s)
        check_agreement(s, bot)
        if a == DECIDE:
            legal = s.legal_actions()
            a = legal[bot.randbelow(len(legal))]
        elif s.is_rival(s.seat):
            assert a in s.legal_actions()
        move = move_of(s, a)
        before = s.clone()
        deck_empty = not s.deck
        seat = s.seat
        s.apply(a)
        count += 1
        if move is not None:
            moves, is_pass, is_rival = move
            if isinstance(moves, tuple):  # the rival's lay (§8): the model lays it first
                before.track.append(moves[1])
                moves = VALUE[moves[1]]
            taken, loco_card, derailed = expected_move(before, moves, is_pass, is_rival)
            assert s.derails == before.derails + derailed
            assert s.track[s.loco] == loco_card
            if taken:
                assert s.phase == P_ORDER and s.penalty == taken and s.seat == seat
            else:
                assert s.penalty == [] and s.phase != P_ORDER
        if a >= A_PILE or (A_CHAOS <= a < A_CHAOS + 55):
            c = a % 64 if a < A_PILE else a - A_PILE
            old = before.piles[seat]
            if old and VALUE[old[-1]] == VALUE[c]:
                assert s.piles[seat] == old[:-1], "§6: equal top combines"
                assert s.box[-2:] == [old[-1], c]
            else:
                assert s.piles[seat] == old + [c]
        if s.phase == P_OVER:
            if s.mode == MODE_CHALLENGE and s.derails >= 4:
                assert s.lost and s.result()["winners"] == []
            else:
                assert deck_empty and not s.lost, "§7: over only once the deck is drawn"
        elif s.turn != before.turn:
            assert not deck_empty, "§4: the turn that drew the last card ends the game"
            assert s.seat == (seat + 1) % s.players
        assert count < 5000
    check_invariants(s)
    check_agreement(s, bot)
    r = s.result()
    assert len(r["scores"]) == players
    if mode == MODE_TABLE:
        keys = []
        for seat in range(players):
            cards = s.hands[seat] + s.piles[seat]
            n = [sum(1 for c in cards if VALUE[c] == v) for v in range(5)]
            keys.append((sum(VALUE[c] for c in cards), len(cards), n[4], n[3], n[2], n[1]))
        assert r["winners"] == [i for i in range(players) if keys[i] == min(keys)]  # §7
    if mode == MODE_RIVAL:
        assert r["scores"][0] == len(s.piles[0])
        assert r["winners"] == ([1] if r["scores"][1] < r["scores"][0] else [0])
    return s, count


CONFIGS = [(MODE_SOLO, 1), (MODE_CHALLENGE, 1), (MODE_RIVAL, 2), (MODE_TABLE, 2),
           (MODE_TABLE, 3), (MODE_TABLE, 4)]


@pytest.mark.parametrize("mode,players", CONFIGS)
def test_random_games_follow_the_rules(mode, players):
    """Whole random games, every step checked (see the module docstring)."""
    lost = derailed = 0
    for seed in range(40):
        s, _ = play_checked(mode, players, 1000 * mode + 10 * players + seed)
        lost += s.lost
        derailed += s.derails > 0
    assert derailed > 0  # the checks saw derailments
    if mode == MODE_CHALLENGE:
        assert lost > 0  # and lost challenges


def test_fuzz_model_sees_rival_straight_and_curve_lays():
    """The rival's lays are checked by the model both for straight cards and curves."""
    seen = set()
    for seed in range(10):
        s = new_game(MODE_RIVAL, Rng(seed), None)
        chance, bot = Rng(seed), Rng(seed, 1)
        for a in steps(s, chance):
            if a == DECIDE:
                legal = s.legal_actions()
                a = legal[bot.randbelow(len(legal))]
            elif s.is_rival(s.seat):
                if a in (A_BEND_L, A_BEND_R):
                    seen.add("curve")
                elif A_LAY <= a < A_LAY + 55:
                    seen.add("lay")
                elif a == A_PASS:
                    seen.add("pass")
            s.apply(a)
    assert seen == {"curve", "lay", "pass"}
