"""Turn planning for the built-in players `greedy` and `best` (engine/bots.py): the plans of a
turn enumerated; engine/valuer.py values their outcomes."""
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
#   (tools/tune.py: fitted policy iteration, least squares against the final scores; the
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


from engine.cards import KIND, VALUE, SHAPE, KIND_BROKEN, KIND_CHAOS, SHAPE_CURVE
from engine.tops import pile_tops
from engine.state import (
    A_PASS, A_STOP, A_BEND_L, A_LAY, A_CHAOS, A_PILE,
    P_TURN, P_BEND, P_BUILD, P_CHAOS, P_ORDER, STEP, TURN, BEND_S, BEND_L, BEND_R,
)
from engine.valuer import Valuer, open_ahead

_MAX_BUILD = const(6)  # cards laid in one build that the search considers
_NODES = const(40)  # steps one search for a build's order may try


class Planner(Valuer):
    """One decision of the seat to move (engine.valuer's Valuer: its arguments). To value a
    position with settled() rather than decide, `seat`, `hand` and `turns` may name a seat
    other than the one to move (engine.lookahead)."""

    def __init__(self, state, weights=None, seat=-1, hand=None, turns=-1):
        Valuer.__init__(self, state, weights, seat, hand, turns)
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

    # ------------------------------------------------------------- enumerating plans

    def choose(self):
        """Returns the action that starts the best plan for the rest of this turn."""
        s = self.s
        p = s.phase
        if p == P_ORDER:
            return self._order_step()
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
                if v - lastv != 2 and lastv - v != 2:  # §2.2 value rule
                    self._builds(v, 0, -1)
        elif p == P_BUILD:
            self._consider(self.expected(0, 1, 0, s.build_sum, open_), A_STOP)
            self._builds(s.build_value, s.build_sum, -1)
        elif p == P_BEND:
            for bend in (BEND_L, BEND_R):
                if s.fit(s.pending, bend) == 0:
                    self._builds(VALUE[s.pending], s.build_sum, bend)
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
        self.last_k = 0

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
            self._build(v, dice, 1, bmask0, open_ahead(cells, head), first)
        bent = first  # the P_BEND step, or -1
        self.cards = (straight, curve, broken)
        room = _MAX_BUILD - k0
        path = self._path(cells, head, room, False)
        n = len(cells)
        for step in range(len(path) + 1):
            if step:
                c, h, op = path[step - 1]
                cells.append(cells[-1] + STEP[head])
                head = h
                if first < 0 and step == 1:
                    first = A_LAY + c
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
                if best >= 0:
                    self._build(v, dice, k0 + step + 1, bmask0 | 1 << (k0 + step), best,
                                first if first >= 0 else A_LAY + broken)
        del cells[n:]
        if broken >= 0 and room > 1:  # the broken card first, then its own longest sequence
            head = s.head if bend < 0 else (s.head + TURN[bend]) & 3
            path = self._path(cells, head, room, True)
            for step in range(2, len(path) + 1):
                self._build(v, dice, k0 + step, bmask0 | 1 << k0, path[step - 1][2],
                            bent if bent >= 0 else A_LAY + broken)

    def _build(self, v, dice, k, bmask, open_, act):
        # Values one build of k cards (bit i of bmask: the i-th is broken) and considers it.
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
