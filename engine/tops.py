"""The pile's tops and sums that putting penalty cards on a discard pile in some order can leave
(docs/rules.md §6, D3), for the bots' planner (engine.ai) and the advice (engine.advice)."""
# The shape of a good order is engine/order.py's (dig into the pile, pair equal cards off, then
# the rest); that module lists the orders themselves for the device's panel. A module of its
# own so that neither loads the other: the planner runs in a move with the least in RAM
# (lnr/play/plan.py), and the device's play screen loads engine.order only for the moment an order
# is chosen. host_tests/test_order.py checks both against every permutation.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_NONE = const(9999)  # no value yet (more than any change of a pile's sum)


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
