"""Orders for putting cards on a discard pile (docs/rules.md §6), the best first.

Cards go on the pile one by one; a card on a top of equal value combines with it and both
leave (D3). Only values matter. The best order digs into the pile: it first puts cards equal
to the top, the card under it, and so on (each pair leaves), then puts equal cards next to
each other so that they pair off among themselves. `orders()` builds one candidate per dig
depth and per order of the remaining value groups, scores each by simulation (the pile's
value sum afterwards, lower is better) and returns them best first without repeats. A host
test checks the best against every permutation.
"""
from engine.cards import VALUE


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


def best(pile, cards):
    """Returns the best order of `cards` (a list of ids) onto `pile`."""
    return orders(pile, cards, 1)[0][1]
