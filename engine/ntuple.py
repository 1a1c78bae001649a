"""An n-tuple evaluation for the `best` bot (issue 39), on the desktop only: engine.ai's linear
evaluation plus the sum of a few tables' entries, each looked up by a small tuple of the
position's values (NTuplePlanner), learned by self-play (python -m tools.bots train --eval
ntuple, tools/bots/ntrain.py). The board never imports this module (docs/engine.md): the first
tables played better than today's evaluation by the stop rule docs/bots.md sets, and the
lookups' move into engine.ai for the board is the next step (docs/bots.md says what it needs).
The desktop's coach values with the same planner where it is given tables (engine.coach)."""
# The tuples (docs/bots.md, "An n-tuple evaluation"), each with its own table per phase of the
# game (turns left 1-2, 3-6, 7-14, 15 and more; the last turn is valued exactly, no table):
# - hand: how many track cards of each value 1..4 the hand holds, each up to 3;
# - end: the same counts up to 2, with the value of the track's end (§2.2: what may follow);
# - ahead: the cards ahead of the loco up to 5, the values of the next two (0: none), whether
#   a broken card is still ahead (D1);
# - behind: the cards behind the loco up to 3 (what penalties take, §6), the values of the
#   next three a penalty takes (0: none).
# An entry is a signed byte in 1/16 points (engine.ai's unit): the tables hold what the linear
# evaluation misses, which is small, and a byte is the least RAM a table can take.
from engine.ai import Planner, turns_left
from engine.lookahead import Search, CAP

N_PHASES = 4
SIZES = (256, 324, 300, 500)  # one phase's entries of each tuple, in the order above
NAMES = ("hand", "end", "ahead", "behind")
OFFSETS = (0, N_PHASES * 256, N_PHASES * (256 + 324), N_PHASES * (256 + 324 + 300))
TABLE_BYTES = N_PHASES * (256 + 324 + 300 + 500)


def phase(turns):
    """Returns the phase of the game for `turns` turns left after this one (-1: the last turn,
    which engine.ai values exactly)."""
    if turns <= 0:
        return -1
    if turns <= 2:
        return 0
    if turns <= 6:
        return 1
    if turns <= 14:
        return 2
    return 3


def entry(tables, i):
    """Returns entry `i` of the tables (a bytes of TABLE_BYTES signed bytes)."""
    x = tables[i]
    return x - 256 if x >= 128 else x


class NTuplePlanner(Planner):
    """engine.ai's Planner (the same arguments) valuing every outcome with `tables` added: the
    linear evaluation plus one entry of each tuple's table. Tables of zeros decide as Planner."""

    def __init__(self, state, weights=None, seat=-1, hand=None, turns=-1, tables=None):
        Planner.__init__(self, state, weights, seat, hand, turns)
        if turns < 0:
            turns = turns_left(state)
        self.phase = phase(turns)
        self.tables = tables
        self.laid = (0, 1, 1)  # hand_part()'s k, v and the track end's value after it

    def hand_part(self, k, v, broken, chaos, lastv, open_):
        self.laid = (k, v, lastv)
        return Planner.hand_part(self, k, v, broken, chaos, lastv, open_)

    def outcome(self, hpart, k, v, broken_laid, m, hits, n, derails):
        x = Planner.outcome(self, hpart, k, v, broken_laid, m, hits, n, derails)
        t = self.tables
        if t is None or self.w is None or self.phase < 0:
            return x
        for i in self.indices(broken_laid, m, hits, n):
            x += entry(t, i)
        return x

    def indices(self, broken_laid, m, hits, n):
        """Returns the tables' entries (one a tuple) of the position outcome() values: after
        hand_part()'s build, the loco moved m cards (entering `hits` broken ones) and penalties
        took the first n track cards."""
        k, v, lastv = self.laid
        h = self.hand
        c = [0, h[2], h[3], h[4], h[5]]
        c[v] -= k
        base = self.phase
        hand = 0
        end = 0
        for x in range(1, 5):
            hand = hand * 4 + (c[x] if c[x] < 3 else 3)
            end = end * 3 + (c[x] if c[x] < 2 else 2)
        end = end * 4 + lastv - 1
        tv = self.tv
        nt = len(tv)
        loco = self.s.loco + m
        ahead = nt + k - 1 - loco
        a = [0, 0]
        for j in range(2):
            i = loco + 1 + j
            if j < ahead:
                a[j] = tv[i] if i < nt else v
        broken = 1 if self.bahead + _bits(broken_laid) - hits > 0 else 0
        room = ((ahead if ahead < 5 else 5) * 25 + a[0] * 5 + a[1]) * 2 + broken
        behind = loco - n
        b = [0, 0, 0]
        for j in range(3):
            if j < behind:
                i = n + j
                b[j] = tv[i] if i < nt else v
        pen = (behind if behind < 3 else 3) * 125 + b[0] * 25 + b[1] * 5 + b[2]
        return (OFFSETS[0] + base * 256 + hand, OFFSETS[1] + base * 324 + end,
                OFFSETS[2] + base * 300 + room, OFFSETS[3] + base * 500 + pen)

    def settled_indices(self):
        """Returns the tables' entries of the seat's position as it stands, its turn over (as
        settled() values it), or None on its last turn (valued exactly, no table)."""
        if self.w is None or self.phase < 0:
            return None
        self.hand_part(0, 1, 0, 0, self.tv[-1], 0)
        return self.indices(0, 0, 0, 0)


def _bits(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


class NTupleSearch(Search):
    """engine.lookahead's Search (the same arguments) whose planners are NTuplePlanners with
    `tables`: `best` with the n-tuple evaluation."""

    def __init__(self, state, weights, rng, keep=False, cap=CAP, tables=None):
        Search.__init__(self, state, weights, rng, keep, cap)
        self.tables = tables

    def _planner(self, state, seat=-1, hand=None, turns=-1):
        # A new planner each time (the desktop: no spare kept for the board's heap).
        return NTuplePlanner(state, self.w, seat, hand, turns, self.tables)
