"""Putting cards on a discard pile in the order that scores best (docs/rules.md §6, D3): the
orders to offer, best first, for the device's panel and a chaos discard's order. The tops and
sums any order can leave, which the bots reason with, are engine.tops'."""
# §6: cards go on the pile one by one in the order chosen; a card put on a top of equal value
# combines with it and both go to the box (D3: always). Only values matter, and a good order is
# easy to see: it first digs into the pile (a card equal to the top takes it away, then one
# equal to the card under it, ...), then puts equal cards two by two (each pair vanishes), then
# the rest, one card of each value left over, any of them last. Orders that keep a pair apart
# cost more. orders() below and engine.tops' pile_tops() follow that shape;
# host_tests/test_order.py checks both against every permutation. (Comments, not the docstring:
# MicroPython keeps module docstrings in RAM.) On the device this module is loaded for the
# moment an order is chosen (lnr/play/screen.py) and dropped after it: it is not in
# RAM while a game is played, nor beside the bots' planner.
from engine.cards import VALUE


def pile_after(pile, cards):
    """Returns the sum of the pile's values after putting `cards` (ids) in this order."""
    stack = []
    for c in pile:
        stack.append(VALUE[c])
    for c in cards:
        v = VALUE[c]
        if stack and stack[-1] == v:
            stack.pop()
        else:
            stack.append(v)
    total = 0
    for v in stack:
        total += v
    return total


def orders(pile, cards, limit=6):
    """Returns up to `limit` (score, order) pairs, best (lowest pile sum) first; each order is
    a list of the card ids in `cards`, no two with the same sequence of values; the order as
    given is always among them. `score` is the pile's value sum afterwards."""
    # One candidate per dig depth and per order of the remaining value groups (equal cards
    # next to each other pair off), each scored by simulation.
    n = len(cards)
    found = []
    seen = []
    perms = _perms()
    depth = 0
    while depth <= n and depth <= len(pile):
        # Dig `depth` cards: the pile's top values in turn must all be in hand.
        left = list(cards)
        dig = []
        for i in range(depth):
            c = _take(left, VALUE[pile[len(pile) - 1 - i]])
            if c < 0:
                break
            dig.append(c)
        if len(dig) < depth:
            break
        for perm in perms:
            order = dig[:]
            for v in perm:
                for c in left:
                    if VALUE[c] == v:
                        order.append(c)
            _add(found, seen, pile, order)
        depth += 1
    _add(found, seen, pile, list(cards))
    found.sort(key=_score)
    return found[:limit]


def best(pile, cards):
    """Returns the best order of `cards` (a list of ids) onto `pile`."""
    return orders(pile, cards, 1)[0][1]


def _perms():
    # The 24 orders of the values 1-4 (no itertools on the device).
    out = []
    for a in range(1, 5):
        for b in range(1, 5):
            for c in range(1, 5):
                d = 10 - a - b - c
                if a != b and a != c and b != c and 0 < d < 5 and d != a and d != b and d != c:
                    out.append((a, b, c, d))
    return out


def _take(cards, value):
    # Removes and returns a card of `value` from `cards`, or -1.
    for i in range(len(cards)):
        if VALUE[cards[i]] == value:
            return cards.pop(i)
    return -1


def _score(entry):
    return entry[0]


def _add(found, seen, pile, order):
    key = 0
    for c in order:
        key = key * 5 + VALUE[c]
    if key in seen:
        return
    seen.append(key)
    found.append((pile_after(pile, order), order))
