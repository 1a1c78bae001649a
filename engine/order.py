"""Putting cards on a discard pile in the order that scores best (docs/rules.md §6, D3): the
orders to offer, best first, for the device's panel; the tops and sums any order can leave, for
the bots (engine.ai)."""
# §6: cards go on the pile one by one in the order chosen; a card put on a top of equal value
# combines with it and both go to the box (D3: always). Only values matter, and a good order is
# easy to see: it first digs into the pile (a card equal to the top takes it away, then one
# equal to the card under it, ...), then puts equal cards two by two (each pair vanishes), then
# the rest, one card of each value left over, any of them last. Orders that keep a pair apart
# cost more. Both views below follow that shape; host_tests/test_order.py checks both against
# every permutation. (Comments, not the docstring: MicroPython keeps module docstrings in RAM.)
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from engine.cards import VALUE

_NONE = const(9999)  # no value yet (more than any change of a pile's sum)


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


def pile_tops(pile, values):
    """Returns [(top, delta), ...]: the pile's top values (0: empty) that putting penalty
    cards of `values` on `pile` (values, top last) can leave, each with a change of the pile's
    sum some order reaches; the least of them is the least any order reaches (§6, D3)."""
    # No search over orders: for each depth dug, the sum and the possible tops follow from the
    # counts of each value. (Orders that keep a pair apart are not tried, so a top may be
    # listed dearer than some order leaves it.)
    counts = [0, 0, 0, 0, 0]
    for v in values:
        counts[v] += 1
    least = [_NONE, _NONE, _NONE, _NONE, _NONE]  # per top value
    d = len(pile)
    dug = 0  # the values taken off the pile so far
    while True:
        under = pile[d - 1] if d else 0  # the top left after digging to depth d
        odd = 0
        left = 0  # values of the cards left over: one of each value with an odd count
        nodd = 0
        for v in range(1, 5):
            if counts[v] & 1:
                odd |= 1 << v
                left += v
                nodd += 1
        delta = left - dug
        for t in range(5):
            if nodd == 0:
                ok = t == under
            elif not odd & (1 << t):
                ok = False
            elif nodd == 1:
                ok = t != under  # else it would combine: that is digging one deeper
            else:
                # Another leftover must go first without combining with `under`.
                others = odd & ~(1 << t)
                ok = others & ~(1 << under) != 0
            if ok and delta < least[t]:
                least[t] = delta
        if d == 0:
            break
        x = pile[d - 1]
        if counts[x] == 0:
            break
        counts[x] -= 1
        dug += x
        d -= 1
    out = []
    for t in range(5):
        if least[t] != _NONE:
            out.append((t, least[t]))
    return out


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
