"""The order of penalty cards (and chaos discards) that scores best (engine/order.py,
docs/rules.md §6: cards go on the pile one by one in the order chosen; a card on a top of equal
value combines with it and both leave, D3 always), checked against every permutation: the orders
the device's panel offers, best first, and the tops and sums the bots' planner reasons with
(engine/tops.py)."""
import itertools
import random

from engine.cards import VALUE
from engine.order import orders, pile_after, best
from engine.rng import Rng
from engine.tops import pile_tops


def _reduced(pile):
    # A pile as play leaves it: never two equal values on top of each other (§6).
    out = []
    for c in pile:
        if out and VALUE[out[-1]] == VALUE[c]:
            continue
        out.append(c)
    return out


def _every_order(pile, values):
    # {top: least pile-sum change} over every order of putting `values` on `pile` (§6, D3).
    out = {}
    for order in set(itertools.permutations(values)):
        work = list(pile)
        delta = 0
        for v in order:
            if work and work[-1] == v:
                work.pop()
                delta -= v
            else:
                work.append(v)
                delta += v
        top = work[-1] if work else 0
        if top not in out or delta < out[top]:
            out[top] = delta
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


def test_pile_tops_match_every_order():
    # pile_tops() reasons from counts instead of trying orders. Its least change must be the
    # least over all orders, and every top it offers must be reachable at the change it claims
    # (some order does at least as well).
    rng = Rng(2024)
    for _ in range(3000):
        pile = []
        for _ in range(rng.randbelow(7)):
            v = 1 + rng.randbelow(4)
            if not pile or pile[-1] != v:  # combining never leaves equal values stacked
                pile.append(v)
        values = [1 + rng.randbelow(4) for _ in range(rng.randbelow(7))]
        brute = _every_order(pile, values)
        fast = pile_tops(pile, values)
        assert min(d for _, d in fast) == min(brute.values()), (pile, values)
        for top, delta in fast:
            assert top in brute and brute[top] <= delta, (pile, values, top, delta, brute)


def test_the_panel_and_the_planner_agree_on_the_best_sum():
    # The same cards on the same pile: the best order the panel offers changes the pile's sum
    # by exactly the least change pile_tops() gives the bots.
    rnd = random.Random(8)
    for _ in range(1500):
        ids = list(range(55))
        rnd.shuffle(ids)
        cards = ids[:rnd.randint(1, 7)]
        pile = _reduced(ids[10:10 + rnd.randint(0, 7)])
        before = pile_after(pile, [])
        least = min(d for _, d in pile_tops([VALUE[c] for c in pile], [VALUE[c] for c in cards]))
        assert orders(pile, cards)[0][0] - before == least, (pile, cards)
