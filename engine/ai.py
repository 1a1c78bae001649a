"""Turn planning for the built-in players `greedy` and `best` (engine/bots.py): the plans of a
turn enumerated (Planner), and their outcomes valued, exactly over the dice (Valuer: the score
and the weighted features of the position, docs/rules.md §1, §5, §6)."""
# One decision looks one whole turn ahead: every way to finish the turn from the current step
# (pass; each chaos discard order; each build: how many cards of one value, in which order and
# bends) is valued by its exact expectation over the dice (docs/rules.md §1: a die shows a wheel with
# chance 2/3; every wheel count is enumerated), the penalty cards of each outcome (§5, §6) put
# on the pile in the best order (engine.tops). An outcome is worth:
# - for `greedy`: the score after the turn (§7), nothing else;
# - for `best`: the score after the turn plus an estimate of what the rest of the game will
#   still add: a linear function of features of the position (the hand, the room ahead of the
#   loco, the cards behind it that penalties would take, the pile's top and the combining it
#   allows, the track's end), with weights per number of turns left, fitted by self-play
#   (tools/bots/tune.py: fitted policy iteration, least squares against the final scores; the
#   weights are in engine/ai_weights.py). They stand for the expectation over later dice and
#   the unknown order of the deck that a deeper search would compute, at a cost a SAMD51 can
#   pay at every decision.
# Only what the deciding seat may see is used: its hand, the track, its pile, the number of
# cards left in the deck, the derailments; never the deck's order nor other hands.
# Everything is small ints (values in 1/16 points), iterated in a fixed order with strict
# comparisons, so CPython, MicroPython and CircuitPython decide alike (host_tests/test_bots_vm).
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from engine.budget import spend, late
from engine.cards import KIND, VALUE, SHAPE, KIND_BROKEN, KIND_CHAOS, SHAPE_CURVE
from engine.tops import pile_tops
from engine.state import (
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, A_PILE,
    P_TURN, P_BEND, P_BUILD, P_CHAOS, P_ORDER, STEP, TURN, BEND_S, BEND_L, BEND_R,
    MODE_CHALLENGE, CHALLENGE_DERAILS,
)

_SPEND = const(32)  # a planner spends its work (engine.budget spend()) in steps of about this

# Feature indices (the order of every weight row in engine/ai_weights.py).
_F_CONST = const(0)
_F_HAND = const(1)  # values of the track and broken cards in hand
_F_CHAOS = const(2)  # values of the chaos cards in hand
_F_N1 = const(3)  # _F_N1.._F_N1 + 3: track cards in hand of value 1..4
_F_BROKEN = const(7)  # broken cards in hand
_F_PAIRS = const(8)  # values held at least twice (a build of several cards)
_F_C4 = const(9)  # a chaos 4 in hand
_F_ROOM = const(10)  # cards ahead of the loco, up to 8
_F_A0 = const(11)  # no card ahead
_F_A1 = const(12)
_F_A2 = const(13)
_F_BEHIND = const(14)  # cards behind the loco (what penalties can take, §6), up to 8
_F_B0 = const(15)  # none: penalties are forfeited (D4)
_F_T0 = const(16)  # value of the next card a penalty takes, 0 if none can be taken
_F_T1 = const(17)
_F_T2 = const(18)
_F_TOP_T0 = const(19)  # the pile's top, if the next penalty card would combine with it
_F_TOP_T1 = const(20)
_F_TOP_CHAOS = const(21)  # the pile's top, if a chaos card in hand would combine with it
_F_BROKEN_AHEAD = const(22)  # broken cards the loco will still enter (D1)
_F_BLOCKED = const(23)  # values in hand the value rule keeps off the track's end (§2.2)
_F_TOP = const(24)  # the pile's top value
_F_SHUT = const(25)  # the end has no free cell straight ahead
_F_OPEN = const(26)  # free cells straight ahead of the end, up to 4
_F_DERAILS = const(27)
_F_LAST = const(28)  # challenge: one more derailment loses
N_FEATURES = const(29)

ONE = const(16)  # values are in 1/16 points
LOSS = const(640)  # a lost challenge (§8) counts as 40 points more
_PROB = const(32768)  # dice probabilities in 1/32768
_NONE = const(9999)  # no value yet (more than any change of a pile's sum)
def turns_left(state):
    """Returns how many turns the deciding seat still gets after this one."""
    return len(state.deck) // state.players


def bucket(turns):
    """Returns the weight row for `turns` turns left."""
    # One row per turn near the end, where every card counts; wider rows earlier.
    if turns <= 3:
        return turns
    if turns <= 5:
        return 4
    if turns <= 8:
        return 5
    if turns <= 12:
        return 6
    if turns <= 18:
        return 7
    if turns <= 26:
        return 8
    return 9


N_BUCKETS = const(10)

# An n-tuple evaluation's tables (issue 39; engine/ntuple.py reads them for a decision): one
# block of bytes for each phase of the game, each entry 128 more than its value in 1/16 points
# (a bytearray a file is read into, the least RAM a table can take), each block the tables of
# four small tuples of the position, one entry of each added to an outcome's value:
# - hand (at 0): how many track cards of each value 1..4 the hand holds, each up to 3;
# - end (at T_END): the same counts up to 2, with the value of the track's end (§2.2: what may
#   follow);
# - ahead (at T_AHEAD): the cards ahead of the loco up to 5, the values of the next two (0:
#   none), whether a broken card is still ahead (D1);
# - behind (at T_BEHIND): the cards behind the loco up to 3 (what penalties take, §6), the
#   values of the next three a penalty takes (0: none).
T_END = const(256)
T_AHEAD = const(580)
T_BEHIND = const(880)
T_BLOCK = const(1380)
N_PHASES = const(4)


def phase(turns):
    """Returns the tables' phase for `turns` (> 0) turns left after this one: 1-2, 3-6, 7-14,
    15 and more (the last turn is valued exactly, no table)."""
    if turns <= 2:
        return 0
    if turns <= 6:
        return 1
    if turns <= 14:
        return 2
    return 3


def weight_row(table, row):
    """Returns row `row` of a weight table of engine/ai_weights.py as N_FEATURES ints."""
    # Stored as signed 16-bit little-endian ints: bytes take a quarter of a tuple's RAM.
    out = []
    i = row * N_FEATURES * 2
    for _ in range(N_FEATURES):
        x = table[i] | table[i + 1] << 8
        out.append(x - 65536 if x >= 32768 else x)
        i += 2
    return out

_last = [None, -1, None]  # the table, row and weights _row() returned last


def _row(table, row):
    # weight_row(), the last one kept: engine.lookahead makes dozens of planners a decision,
    # nearly all on one row (a list of N_FEATURES small ints: little RAM).
    last = _last
    if last[0] is not table or last[1] != row:
        last[2] = weight_row(table, row)
        last[0] = table
        last[1] = row
    return last[2]


_probs = {}


def dice_weights(dice):
    """Returns p with p[k] the chance of k wheels from `dice` dice (§1) in 1/32768: C(dice, k)
    * 2**k / 3**dice, rounded, the remainder on the likeliest count."""
    p = _probs.get(dice)
    if p is None:
        # From the likeliest count outwards by the ratio p[k+1] / p[k] = 2 (dice - k) / (k + 1),
        # the likeliest as 2**21: small ints all the way (the exact counts over 3**dice need
        # long ints from 10 dice on, slow on a device), far finer than the final 1/32768.
        q = [0] * (dice + 1)
        mode = 2 * (dice + 1) // 3
        q[mode] = 1 << 21
        for k in range(mode, dice):
            q[k + 1] = q[k] * 2 * (dice - k) // (k + 1)
        for k in range(mode, 0, -1):
            q[k - 1] = q[k] * k // (2 * (dice - k + 1))
        total = 0
        for x in q:
            total += x
        total >>= 7
        left = _PROB
        for k in range(dice + 1):
            q[k] = (q[k] * 256 + total // 2) // total
            left -= q[k]
        q[mode] += left  # the rounding remainder onto the likeliest count
        p = tuple(q)
        if dice <= 12:  # kept: the usual builds; rarer big ones are worked out again
            _probs[dice] = p
    return p


def open_ahead(cells, head):
    """Returns the free cells in a straight line ahead of the track's end `cells[-1]` heading
    `head`, up to 4 (D8: room to build)."""
    c = cells[-1]
    step = STEP[head]
    n = 0
    while n < 4:
        c += step
        if c in cells:
            break
        n += 1
    return n


class Valuer:
    """The values of the outcomes of one seat's turn; `weights`: a table of
    engine/ai_weights.py, or None for the score after the turn alone (`greedy`). `seat`,
    `hand` and `turns` may name a seat other than the one to move, the hand it held and the
    turns it had left (engine.lookahead: the end of its last turn). `tables`: with `weights`,
    the n-tuple tables' blocks by phase (engine.ntuple; None: a phase without), whose entries
    are added to every value."""

    def __init__(self, state, weights=None, seat=-1, hand=None, turns=-1, tables=None):
        self.s = state
        if seat < 0:
            seat = state.seat
        if hand is None:
            hand = state.hands[seat]
        self.seat = seat
        if turns < 0:
            turns = turns_left(state)
        self.w = None
        self.t = None  # the block of n-tuple tables (T_BLOCK) of the game's phase, if any
        if weights is not None and turns > 0:
            self.w = _row(weights, bucket(turns))
            if tables is not None:
                self.t = tables[phase(turns)]
        self.challenge = state.mode == MODE_CHALLENGE
        pile = []
        psum = 0
        for c in state.piles[seat]:
            pile.append(VALUE[c])
            psum += VALUE[c]
        self.pile = pile
        self.psum = psum
        # Made at their length: a list grown by append() doubles its room (RAM: dozens of
        # planners a decision, engine.lookahead).
        track = state.track
        tv = [0] * len(track)
        tb = [0] * len(track)
        for i in range(len(track)):
            c = track[i]
            tv[i] = VALUE[c]
            tb[i] = 1 if KIND[c] == KIND_BROKEN else 0
        self.tv = tv
        self.tb = tb
        bahead = 0
        for i in range(state.loco + 1, len(tb)):
            bahead += tb[i]
        self.bahead = bahead
        self.tops = [None] * (len(tv) + 1)  # pile_tops() of the track's first n cards
        self.big = {}  # dice_weights() of builds over 12 dice
        self.far = {}  # pile_tops() of penalties that reach cards laid this turn
        # The hand as counts: [track values, chaos values, 1s, 2s, 3s, 4s, broken, chaos mask]
        hs = 0
        cs = 0
        n = [0, 0, 0, 0, 0]
        br = 0
        cmask = 0
        for c in hand:
            x = VALUE[c]
            if KIND[c] == KIND_CHAOS:
                cs += x
                cmask |= 1 << x
            else:
                hs += x
                n[x] += 1
                if KIND[c] == KIND_BROKEN:
                    br += 1
        self.hand = [hs, cs, n[1], n[2], n[3], n[4], br, cmask]
        self.cmask = cmask
        self.hscore = 0
        self.last_risk = 0
        # The work this planner did, in steps of its inner loops (an outcome of the dice, a
        # step of the build search, a penalty card weighed): engine.lookahead caps its search
        # by it, the same count on every runtime, so the cap holds the time on a SAMD51.
        self.work = len(tv) + len(hand)
        self.told = 0  # the work spent (spend())

    def spend(self):
        """Spends the work done since it was last spent (engine.budget spend())."""
        spend(self.work - self.told)
        self.told = self.work

    def done(self):
        """Lets go of what valuing needs (the State, the track's and the pile's values, the
        hand's counts, the tables' block) and filled in (the piles' tops, the big builds'
        odds): about 1 KB late in a game that engine.lookahead would hold through its samples
        with the decision's planner, kept for its options and values (RAM, docs/memory.md).
        Valuing again after this fails."""
        self.tops = self.far = self.big = None
        self.tv = self.tb = self.pile = self.hand = self.s = self.t = None

    # ------------------------------------------------------------- valuing outcomes

    def hand_part(self, k, v, broken, chaos, lastv, open_):
        # 16 * the score once k cards of value v (`broken` of them broken) are laid and the
        # chaos values in bitmask-free sum `chaos` discarded, plus the weighted features that
        # depend on the hand and the track's end only (the same for every roll of the dice).
        h = self.hand
        hs = h[0] - k * v
        cs = h[1] - chaos
        total = ONE * (hs + cs + self.psum)
        self.hscore = total
        w = self.w
        if w is None:
            return total
        n1 = h[2]
        n2 = h[3]
        n3 = h[4]
        n4 = h[5]
        if v == 1:
            n1 -= k
        elif v == 2:
            n2 -= k
        elif v == 3:
            n3 -= k
        else:
            n4 -= k
        pairs = (n1 >= 2) + (n2 >= 2) + (n3 >= 2) + (n4 >= 2)
        if lastv == 1:
            blocked = 3 * n3
        elif lastv == 2:
            blocked = 4 * n4
        elif lastv == 3:
            blocked = n1
        else:
            blocked = 2 * n2
        total += (w[_F_CONST] + w[_F_HAND] * hs + w[_F_CHAOS] * cs + w[_F_N1] * n1
                  + w[_F_N1 + 1] * n2 + w[_F_N1 + 2] * n3 + w[_F_N1 + 3] * n4
                  + w[_F_PAIRS] * pairs + w[_F_BLOCKED] * blocked + w[_F_OPEN] * open_)
        br = h[6] - broken
        if br:
            total += w[_F_BROKEN] * br
        if self.cmask & 16:
            total += w[_F_C4]
        if open_ == 0:
            total += w[_F_SHUT]
        t = self.t
        if t is not None:  # the tables' hand and end entries
            total += (t[(((n1 if n1 < 3 else 3) * 4 + (n2 if n2 < 3 else 3)) * 4
                         + (n3 if n3 < 3 else 3)) * 4 + (n4 if n4 < 3 else 3)]
                      + t[T_END + (((((n1 if n1 < 2 else 2) * 3 + (n2 if n2 < 2 else 2)) * 3
                                     + (n3 if n3 < 2 else 2)) * 3 + (n4 if n4 < 2 else 2)) * 4
                                   + lastv - 1)] - 256)
        return total

    def _tops(self, n, k, v):
        # pile_tops() for penalties taking the first n cards of the track with k cards of
        # value v laid at its end; cached while n stays within the track as it was.
        if n <= len(self.tv):
            t = self.tops[n]
            if t is None:
                t = pile_tops(self.pile, self.tv[:n])
                self.tops[n] = t
            return t
        key = n * 8 + v  # past the track's end every card is one of this build's
        t = self.far.get(key)
        if t is None:
            t = pile_tops(self.pile, self.tv + [v] * (n - len(self.tv)))
            self.far[key] = t
        return t

    def outcome(self, hpart, k, v, broken_laid, m, hits, n, derails):
        # The value of the position after the loco moved m cards (entering `hits` broken ones)
        # and penalties took the first n track cards: hpart from hand_part(), then what the
        # track and the pile add.
        w = self.w
        if w is None or (self.challenge and derails >= CHALLENGE_DERAILS):
            best = _NONE
            for t, d in self._tops(n, k, v):
                if d < best:
                    best = d
            if w is not None:  # §8: the 4th derailment ends the challenge, lost
                return self.hscore + ONE * best + LOSS
            return hpart + ONE * best
        tv = self.tv
        nt = len(tv)
        loco = self.s.loco + m  # before the penalties
        behind = loco - n
        ahead = nt + k - 1 - loco
        x = hpart + w[_F_BROKEN_AHEAD] * (self.bahead + broken_laid - hits)
        x += w[_F_DERAILS] * derails
        if derails == CHALLENGE_DERAILS - 1:
            x += w[_F_LAST]
        x += w[_F_ROOM] * (ahead if ahead < 8 else 8)
        if ahead < 3:
            x += w[_F_A0 + ahead]
        x += w[_F_BEHIND] * (behind if behind < 8 else 8)
        t0 = t1 = t2 = 0
        if behind == 0:
            x += w[_F_B0]
        else:
            t0 = tv[n] if n < nt else v
            x += w[_F_T0] * t0
            if behind >= 2:
                t1 = tv[n + 1] if n + 1 < nt else v
                x += w[_F_T1] * t1
                if behind >= 3:
                    t2 = tv[n + 2] if n + 2 < nt else v
                    x += w[_F_T2] * t2
        t = self.t
        if t is not None:  # the tables' ahead and behind entries
            a0 = a1 = 0
            if ahead:
                a0 = tv[loco + 1] if loco + 1 < nt else v
                if ahead >= 2:
                    a1 = tv[loco + 2] if loco + 2 < nt else v
            x += (t[T_AHEAD + (((ahead if ahead < 5 else 5) * 5 + a0) * 5 + a1) * 2
                    + (self.bahead + broken_laid > hits)]
                  + t[T_BEHIND + (behind if behind < 3 else 3) * 125 + t0 * 25 + t1 * 5 + t2]
                  - 256)
        cmask = self.cmask
        best = None
        for t, d in self._tops(n, k, v):
            y = ONE * d + w[_F_TOP] * t
            if t:
                if t == t0:
                    y += w[_F_TOP_T0] * t
                if t == t1:
                    y += w[_F_TOP_T1] * t
                if cmask & (1 << t):
                    y += w[_F_TOP_CHAOS] * t
            if best is None or y < best:
                best = y
        return x + best

    def expected(self, k, v, broken_laid, dice, open_):
        # Expected value (in 1/16 points times 32768, so that nothing is rounded but the dice
        # odds) of laying k more cards of value v (bit i of broken_laid: the i-th of them is
        # broken) and rolling `dice` dice; dice 0 is a pass (§4).
        s = self.s
        tv = self.tv
        nt = len(tv)
        nbroken = _bits(broken_laid)
        hpart = self.hand_part(k, v, nbroken, 0, v if k else tv[-1], open_)
        loco = s.loco
        ahead = nt + k - 1 - loco
        tb = self.tb
        if dice == 0:  # §4: 1 card forward unless on the last card, 1 penalty; no derailment
            m = 1 if ahead > 0 else 0
            hits = tb[loco + 1] if m else 0
            earned = 1 + hits
            n = earned if earned < loco + m else loco + m  # §6, D4
            self.last_risk = 0
            return _PROB * self.outcome(hpart, 0, v, 0, m, hits, n, s.derails)
        if dice <= 12:
            p = dice_weights(dice)
        else:  # big builds: worked out once per decision, not kept (RAM)
            p = self.big.get(dice)
            if p is None:
                p = dice_weights(dice)
                self.big[dice] = p
        # A unit of work for each count of wheels; 25/16 with the tables' lookups (what they
        # add to CircuitPython's instructions: python -m tools.bots cost, docs/bots.md).
        self.work += dice + 1 if self.t is None else (dice + 1) * 25 + 8 >> 4
        if self.work - self.told >= _SPEND:
            self.spend()
        total = 0
        hits = 0
        last_key = -1
        last_val = 0
        risk = 0
        for wheels in range(dice + 1):
            if wheels <= ahead:
                m = wheels
                if m:
                    i = loco + m
                    hits += tb[i] if i < nt else (broken_laid >> (i - nt)) & 1  # D1
                earned = hits
                der = 0
            else:
                m = ahead
                earned = hits + wheels - ahead  # §5: one penalty per move left
                der = 1
                risk += p[wheels]
            if p[wheels] == 0:
                continue  # under 1/65536: many dice make the extremes that rare
            n = earned if earned < loco + m else loco + m  # §6, D4
            key = m * 4096 + n * 2 + der
            if key != last_key:
                last_val = self.outcome(hpart, k, v, nbroken, m, hits, n, s.derails + der)
                last_key = key
            total += p[wheels] * last_val
        self.last_risk = risk
        return total

    def settled(self):
        """Returns the value (as choose()'s: 1/16 points x 32768) of the seat's position as it
        stands, its turn over: the score plus the estimate of the rest of the game."""
        v = self.still(0, open_ahead(self.s.cells, self.s.head))
        self.spend()
        return v

    def still(self, chaos, open_):
        # The value (as expected's) of ending the turn with the loco where it is, `chaos`
        # discarded.
        hpart = self.hand_part(0, 1, 0, chaos, self.tv[-1], open_)
        return _PROB * self.outcome(hpart, 0, 1, 0, 0, 0, 0, self.s.derails)

    def put(self, v):
        # Puts a card of value v on the pile (§6: an equal top and it both go, D3); returns
        # True if they combined, for unput().
        pile = self.pile
        if pile and pile[-1] == v:
            pile.pop()
            self.psum -= v
            return True
        pile.append(v)
        self.psum += v
        return False

    def unput(self, v, combined):
        if combined:
            self.pile.append(v)
            self.psum += v
        else:
            self.pile.pop()
            self.psum -= v


def _bits(mask):
    # How many bits are set: the broken cards among those laid.
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


def _laid(acts, c, head, h):
    # A plan's actions `acts` (a new list) and card c laid at the end heading `head`, which
    # heads `h` after it: its A_LAY, and a curve's bend (docs/rules.md §2: asked after it).
    acts = acts + [A_LAY + c]
    if SHAPE[c] == SHAPE_CURVE:
        acts.append(A_BEND_L if h == (head + TURN[BEND_L]) & 3 else A_BEND_R)
    return acts


_MAX_BUILD = const(6)  # cards laid in one build that the search considers

# The costs of what a search does beside its planners, in Planner.work units (about 3 µs
# each on CircuitPython's VM): fitted by least squares to the time of 2100 decisions of every
# mode on that VM (a copy of a State about 75 µs, a step applied about 8 µs). Uncounted, a
# 4-seat table's look-ahead, which applies three other seats' turns in every sample, took a
# quarter longer per unit of work than solo's and passed the 1.5 s budget (tools/bots/bench.py).
# engine.lookahead's search counts them, and engine.bots a table bot's carried build.
WORK_CLONE = const(25)  # copying a State
WORK_STEP = const(3)  # applying one step to a copy (a die, a card, a rival's move)

_NODES = const(40)  # steps one search for a build's order may try


class Planner(Valuer):
    """One decision of the seat to move (Valuer: its arguments). To value a
    position with settled() rather than decide, `seat`, `hand` and `turns` may name a seat
    other than the one to move (engine.lookahead)."""

    def __init__(self, state, weights=None, seat=-1, hand=None, turns=-1, tables=None):
        Valuer.__init__(self, state, weights, seat, hand, turns, tables)
        self.last_k = 0
        # Filled by choose(): the chosen plan's expected value (in 1/16 points times 32768;
        # _order_step: 1/16 points) and its chance of derailing (1/32768), the best so far
        # while it runs. (Few attributes: each is a slot of the object's table, 8 bytes on the
        # device, and engine.lookahead's planners are many.)
        self.value = 0
        self.risk = 0
        self.build_risk = -1  # the best-valued build's chance of derailing; -1: no build fits
        self.build_val = 0
        # A dict, if given: first action -> (value, chance of derailing, cards laid) of the
        # best plan that starts with it (engine.lookahead).
        self.options = None
        # If `record` is set: `plan`, the actions of the chosen build up to its dice (its
        # first is choose()'s), or None for a pass, a chaos discard or a penalty card (one
        # action each, or planned anew at each); `cur`, the build being valued.
        self.record = False
        self.plan = None
        self.cur = None

    # ------------------------------------------------------------- enumerating plans

    def choose(self):
        """Returns the action that starts the best plan for the rest of this turn."""
        s = self.s
        p = s.phase
        if p == P_ORDER:
            a = self._order_step()
            self.spend()
            return a
        self.value = None
        self.best_act = None
        self.risk = 0
        open_ = open_ahead(s.cells, s.head)
        if p == P_TURN:
            self._consider(self.expected(0, 1, 0, 0, open_), A_PASS)
        if p == P_TURN or p == P_CHAOS:
            self._chaos_plans(p, open_)
        if p == P_TURN:
            lastv = self.tv[-1]
            for v in range(1, 5):
                if late():
                    break  # past the plan's time (set_clock): the plans valued so far
                if v - lastv != 2 and lastv - v != 2:  # §2.2 value rule
                    self._builds(v, 0, -1)
        elif p == P_BUILD:
            self._consider(self.expected(0, 1, 0, s.build_sum, open_), A_STOP)
            self._builds(s.build_value, s.build_sum, -1)
        elif p == P_BEND:
            for bend in (BEND_L, BEND_R):
                if s.fit(s.pending, bend) == 0:
                    self._builds(VALUE[s.pending], s.build_sum, bend)
        self.spend()
        return self.best_act

    def _consider(self, val, act):
        opts = self.options
        if opts is not None:
            old = opts.get(act)
            if old is None or val < old[0]:
                opts[act] = (val, self.last_risk, self.last_k)
        if self.value is None or val < self.value:
            self.value = val
            self.best_act = act
            self.risk = self.last_risk
            if self.record:
                self.plan = self.cur
        self.last_k = 0
        self.cur = None

    def _chaos_plans(self, p, open_):
        # §4 chaos discard: every order of distinct values; no dice, no penalty.
        chaos = []
        for c in self.s.hands[self.seat]:
            if KIND[c] == KIND_CHAOS:
                chaos.append(c)
        self.last_risk = 0
        if p == P_CHAOS:
            self._consider(self.still(0, open_), A_STOP)
        if chaos:
            self._chaos_dfs(chaos, -1, 0, open_)

    def _chaos_dfs(self, chaos, first, gone, open_):
        seen = 0
        for i in range(len(chaos)):
            c = chaos[i]
            v = VALUE[c]
            if seen & (1 << v):
                continue
            seen |= 1 << v
            f = A_CHAOS + c if first < 0 else first
            rest = chaos[:i] + chaos[i + 1:]
            combined = self.put(v)
            saved = self.tops
            saved_far = self.far
            self.tops = [None] * (len(self.tv) + 1)  # the pile changed
            self.far = {}
            mask = self.cmask
            self.cmask = 0
            for d in rest:
                self.cmask |= 1 << VALUE[d]
            self.work += 4  # the pile changed: its tops worked out again, and valued
            self._consider(self.still(gone + v, open_), f)
            if rest:
                self._chaos_dfs(rest, f, gone + v, open_)
            self.cmask = mask
            self.tops = saved
            self.far = saved_far
            self.unput(v, combined)

    def _builds(self, v, dice, bend):
        # The builds of value v worth valuing (in P_BEND: those that start with the pending
        # curve bent `bend`). Cards of one value differ only in shape and kind, so one search
        # (_path) finds the longest sequence of the normal cards that fits, its most open
        # choice first, and each of its beginnings is a build; the broken card of that value
        # goes last after each of them, or first before its own longest sequence (where the
        # loco meets it matters, D1, and so do the penalties it earns, §6).
        s = self.s
        straight = []
        curve = []
        broken = -1
        for c in s.hands[self.seat]:
            if VALUE[c] == v and KIND[c] != KIND_CHAOS:
                if KIND[c] == KIND_BROKEN:
                    broken = c
                elif SHAPE[c] == SHAPE_CURVE:
                    curve.append(c)
                else:
                    straight.append(c)
        cells = s.cells[:]
        head = s.head
        first = -1
        k0 = 0  # cards this plan lays before the search's: the pending one
        bmask0 = 0
        if bend >= 0:
            c = s.pending
            if c == broken:
                broken = -1
                bmask0 = 1
            else:
                curve.remove(c)
            cells.append(s.target())
            head = (head + TURN[bend]) & 3
            first = A_BEND_L + bend - BEND_L
            k0 = 1
            acts = [first] if self.record else None  # the plan's actions so far (recorded)
            self.cur = acts
            self._build(v, dice, 1, bmask0, open_ahead(cells, head), first)
        else:
            acts = [] if self.record else None
        bent = first  # the P_BEND step, or -1
        before = acts  # the actions before the search's cards
        self.cards = (straight, curve, broken)
        room = _MAX_BUILD - k0
        path = self._path(cells, head, room, False)
        n = len(cells)
        for step in range(len(path) + 1):
            if step:
                c, h, op = path[step - 1]
                cells.append(cells[-1] + STEP[head])
                if acts is not None:
                    acts = _laid(acts, c, head, h)
                head = h
                if first < 0 and step == 1:
                    first = A_LAY + c
                self.cur = acts
                self._build(v, dice, k0 + step, bmask0, op, first)
            if broken >= 0 and step < room:  # the broken card after these
                best = -1
                for b in ((BEND_L, BEND_R) if SHAPE[broken] == SHAPE_CURVE else (BEND_S,)):
                    h = self._fits(cells, head, b)
                    if h >= 0:
                        cells.append(cells[-1] + STEP[head])
                        op = open_ahead(cells, h)
                        cells.pop()
                        if op > best:
                            best = op
                            if acts is not None:
                                self.cur = _laid(acts, broken, head, h)
                if best >= 0:
                    self._build(v, dice, k0 + step + 1, bmask0 | 1 << (k0 + step), best,
                                first if first >= 0 else A_LAY + broken)
        del cells[n:]
        if broken >= 0 and room > 1:  # the broken card first, then its own longest sequence
            head = s.head if bend < 0 else (s.head + TURN[bend]) & 3
            path = self._path(cells, head, room, True)
            acts = before
            for step in range(1, len(path) + 1):
                c, h, op = path[step - 1]
                if acts is not None:
                    acts = _laid(acts, c, head, h)
                head = h
                if step >= 2:
                    self.cur = acts
                    self._build(v, dice, k0 + step, bmask0 | 1 << k0, op,
                                bent if bent >= 0 else A_LAY + broken)

    def _build(self, v, dice, k, bmask, open_, act):
        # Values one build of k cards (bit i of bmask: the i-th is broken) and considers it;
        # past the time set_clock() allows, no more: the plans valued so far stand.
        if late():
            return
        val = self.expected(k, v, bmask, dice + k * v, open_)
        if self.build_risk < 0 or val < self.build_val:
            self.build_val = val
            self.build_risk = self.last_risk
        self.last_k = k
        self._consider(val, act)

    def _fits(self, cells, head, bend):
        # Returns the heading after a card bent `bend` laid at the end, or -1 if it breaks
        # §2.3 (the cell is taken) or §2.4 (no block).
        target = cells[-1] + STEP[head]
        if target in cells:
            return -1
        h = (head + TURN[bend]) & 3
        if target + STEP[h] in cells:
            return -1
        return h

    def _path(self, cells, head, want, broken_first):
        # Returns the longest sequence (up to `want` cards) of the normal cards of
        # self.cards that fits from the track's end (after the broken card, if
        # broken_first), as [(card, heading after, free cells ahead after), ...]: depth first,
        # the most open choice first, at most _NODES steps tried (time on the device).
        self.deepest = []
        self.budget = _NODES
        self._dfs(cells, head, 0, 0, want, broken_first, [])
        self.work += _NODES - self.budget
        return self.deepest

    def _dfs(self, cells, head, ns, nc, want, broken_first, path):
        if len(path) > len(self.deepest):
            self.deepest = path[:]
        if len(path) == want or self.budget <= 0:
            return len(path) == want
        self.budget -= 1
        straight, curve, broken = self.cards
        opts = []
        if broken_first and not path:
            opts.append(broken)
        else:
            if ns < len(straight):
                opts.append(straight[ns])
            if nc < len(curve):
                opts.append(curve[nc])
        ranked = []
        target = cells[-1] + STEP[head]
        for c in opts:
            for bend in ((BEND_L, BEND_R) if SHAPE[c] == SHAPE_CURVE else (BEND_S,)):
                h = self._fits(cells, head, bend)
                if h < 0:
                    continue
                cells.append(target)
                op = open_ahead(cells, h)
                cells.pop()
                j = len(ranked)
                while j > 0 and ranked[j - 1][2] < op:
                    j -= 1
                ranked.insert(j, (c, h, op))
        for step in ranked:
            c = step[0]
            cells.append(target)
            path.append(step)
            done = self._dfs(cells, step[1], ns + (c in straight), nc + (c in curve), want,
                             broken_first, path)
            path.pop()
            cells.pop()
            if done:
                return True
        return False

    def _order_step(self):
        # §6: the penalty card to put on the pile next, so that the pile ends lowest (and,
        # for `best`, with the top that suits the cards penalties will take next).
        s = self.s
        pen = s.penalty
        first = -1
        best = None
        seen = 0
        open_ = open_ahead(s.cells, s.head)
        for c in pen:
            v = VALUE[c]
            if seen & (1 << v):
                continue
            seen |= 1 << v
            rest = []
            for d in pen:
                rest.append(VALUE[d])
            rest.remove(v)
            combined = self.put(v)
            self.work += len(rest) + 1
            self.tops[0] = pile_tops(self.pile, rest)
            val = self.outcome(self.hand_part(0, 1, 0, 0, self.tv[-1], open_), 0, 1, 0, 0, 0,
                                0, s.derails)
            self.unput(v, combined)
            if best is None or val < best:
                best = val
                first = c
        self.value = best
        return A_PILE + first

    def done(self):
        """Valuer.done(), and the last build's cards and path too."""
        Valuer.done(self)
        self.cards = self.deepest = None


def follow(state, action, weights=None):
    """Returns the steps of engine.ai's plan after `action` at `state` (bytes: the cards it
    adds to the build and their curves' bends, up to its dice; empty where `action` begins no
    build), each step one planner's work with `weights`: the continuation engine.lookahead
    weighed for that action (Search._plan). The hint names it (lnr/play/hintplan.py), once this
    module's code is out of RAM; the review too (tools/bots/review.py)."""
    t = state.clone(False)
    t.apply(action)
    out = bytearray()
    while t.phase == P_BEND or t.phase == P_BUILD:
        a = Planner(t, weights).choose()
        if a is None or a == A_STOP:
            break  # it rolls (or, past its time, plans no bend)
        out.append(a)
        t.apply(a)
    return bytes(out)
