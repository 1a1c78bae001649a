"""Exact dice odds (docs/rules.md §1, §5): each die shows a wheel with probability 2/3.

Probabilities are fractions num / 3**dice, kept as ints so that they are exact on every
runtime; floats are left to whoever displays them. 3**dice is a small int up to 18 dice
(3**18 < 2**30); bigger builds are rare and then cost one long int.
"""


def wheel_counts(dice):
    """Returns a list w with w[k] = the number of the 3**dice equally likely outcomes that show
    exactly k wheels, i.e. C(dice, k) * 2**k."""
    counts = []
    c = 1  # C(dice, k)
    p = 1  # 2**k
    for k in range(dice + 1):
        counts.append(c * p)
        c = c * (dice - k) // (k + 1)
        p *= 2
    return counts


def derail_chance(dice, ahead):
    """Returns (num, den): the exact probability that `dice` dice show more wheels than
    `ahead`, the cards in front of the loco, i.e. that the loco derails (§5)."""
    counts = wheel_counts(dice)
    num = 0
    k = ahead + 1
    while k <= dice:
        num += counts[k]
        k += 1
    return num, 3 ** dice


def permille(num, den):
    """Returns num/den in thousandths, rounded half up (e.g. for "risk 12%")."""
    return (num * 1000 + den // 2) // den
