"""The 55 cards of docs/rules.md §1, as three byte tables indexed by card id.

This is the one place that fixes counts, values, shapes and chaos values (D10): a corrected
count changes these tables and nothing else. Tables are `bytes` literals so that importing
costs a few bytes of flash and no work; `host_tests/test_rules.py` checks them against the
table in docs/rules.md §1.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


N_CARDS = const(55)

# Kinds (docs/rules.md §1): broken cards are track cards in every respect but the penalty of §5.
KIND_TRACK = const(0)
KIND_BROKEN = const(1)
KIND_CHAOS = const(2)
KIND_NAMES = ("track", "broken", "chaos")

SHAPE_STRAIGHT = const(0)
SHAPE_CURVE = const(1)
SHAPE_NONE = const(2)  # chaos cards have no rails

# One byte per card id. Adjacent literals are joined by the compiler, one line per run of §1.
KIND = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"  # 0-11   track 1
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"  # 12-22  track 2
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"  # 23-33  track 3
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"  # 34-45  track 4
    b"\x01\x01\x01\x01"  # 46-49  broken 1, 2, 3, 4
    b"\x02\x02\x02\x02\x02"  # 50-54  chaos 1, 2, 3, 4, 4
)
VALUE = (
    b"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
    b"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02"
    b"\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03"
    b"\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04"
    b"\x01\x02\x03\x04"
    b"\x01\x02\x03\x04\x04"
)
SHAPE = (
    b"\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01\x01"  # 0-5 straight, 6-11 curve
    b"\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01"  # 12-17 straight, 18-22 curve
    b"\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01\x01"  # 23-27 straight, 28-33 curve
    b"\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01\x01"  # 34-39 straight, 40-45 curve
    b"\x00\x01\x00\x01"  # broken: 46 straight, 47 curve, 48 straight, 49 curve
    b"\x02\x02\x02\x02\x02"
)


def card_name(c):
    """Returns card `c`'s name as the hint and the review say it (lnr/play/view.py, engine/advice.py),
    in 10 characters at most: "4 straight", "3 curve", "broken 2" (its shape is on the map and
    in the hand), "chaos 4"."""
    v = VALUE[c]
    if KIND[c] == KIND_CHAOS:
        return "chaos %d" % v
    if KIND[c] == KIND_BROKEN:
        return "broken %d" % v
    return "%d %s" % (v, "curve" if SHAPE[c] == SHAPE_CURVE else "straight")
