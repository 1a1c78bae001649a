"""The `best` bot's look-ahead (engine/bots.py): a few samples of the next turn for its top
options."""
# engine.ai values a plan by the score after this turn plus an estimate of the rest of the
# game. Here the few plans it rates highest (their first steps: a pass, a chaos card, the first
# card of a build, a bend, a stop) are played on: for each of a few samples of what the seat
# cannot know (its dice this turn, the cards drawn next), every option plays out the rest of
# its turn (engine.ai's plan, the same dice for all), the other seats' turns up to the seat's
# next one, and is then valued by engine.ai at the seat's next turn (exact over that turn's
# dice, plus the estimate). The option with the lowest total wins; if not even one round of
# samples fits in its time, the engine.ai plan stands.
# Fair by construction (docs/rules.md §3.4, §3.5: the deck, the cards removed at setup and the
# other hands are hidden): the samples draw from the unseen cards in a canonical order (sorted
# ids) with the bot's own rng, never from the deck's real order.
# Its time is capped: every planner counts its work (engine.ai Planner.work), and the search
# does not begin a round of samples, nor a planner, that would not finish within CAP. On the
# desktop the work is the clock, the same on every runtime (ints only, as in engine.ai: every
# runtime decides alike); on a board the board's own clock is (engine.budget set_clock: CAP ticks,
# each the time a SAMD51 takes for a unit at the estimated UNITS_PER_S), so a board slower or
# faster than the estimate keeps the same wait, in the same RAM.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from engine.ai import Planner, WORK_CLONE, WORK_STEP
from engine.budget import spend, elapsed, late
from engine.ai import dice_weights, turns_left, ONE, LOSS
from engine.state import (
    A_ROLL0, A_ROLL1, P_TURN, P_DICE, P_ORDER, MODE_CHALLENGE, MODE_RIVAL, REMOVED_AT_SETUP,
    CHALLENGE_DERAILS,
)

_PROB = const(32768)  # engine.ai's dice probabilities, in 1/32768
OPTIONS = const(4)  # the top options of engine.ai played on
SAMPLES = const(3)  # samples per option
MARGIN = const(5242880)  # options rated over 10 points (x16 x32768) worse are not played on
CAP = const(1300)  # ticks per decision: units of work (engine.ai Planner.work units,
# WORK_CLONE, WORK_STEP) where the work is the clock, else the board's time for so many
# A tick is the time a SAMD51 takes for a unit of work at the estimated pace (engine.budget
# UNITS_PER_S); the LEDs' sign comes every engine.budget SIGN_WORK units of work.

# The Planner and the State that every planner and every copy of a search are, from one
# decision to the next (a bot's turn is several): each is set up afresh for each use
# (Planner.__init__, State.copy_to), so its table of some 30 attributes is made once. Made anew
# for each of the dozens of planners and copies of a decision, each table grew step by step,
# ten blocks made and dropped, which left CircuitPython's heap in pieces (RAM, docs/memory.md).
# Their lists are let go after each decision. {0: the Planner, 1: the State}, once made.
_spare = {}

def forget():
    """Lets go of the spare Planner and State (the next search makes them again)."""
    _spare.clear()


def unseen(state, seat):
    """Returns the cards `seat` cannot see, in a canonical order (sorted ids): the deck, the
    cards removed at setup (§3.4) and the other seats' hands (§3.5)."""
    out = state.deck[:]
    n = REMOVED_AT_SETUP[state.players]
    for i in range(n):
        out.append(state.box[i])
    for i in range(state.players):
        if i != seat:
            for c in state.hands[i]:
                out.append(c)
    out.sort()
    return out


class Search:
    """One decision of the seat to move, `weights` a table of engine/ai_weights.py, `rng`
    the bot's own engine.rng.Rng; `keep`: choose() keeps engine.ai's options of the decision
    (`options`: first action -> (value, chance of derailing, cards laid) of the best plan that
    starts with it), its best build's chance of derailing (`build_risk`) and the estimates of
    the options it played on (`values`: action -> estimate, as the options' values; None if it
    played none on), which engine.advice explains the hint from. `cap`: the work this
    decision may do (the bots' turn budget gives less once the turn has spent some,
    engine.bots). `tables`: engine.ntuple's tables, valued on top of `weights` by every
    planner (engine.ai Valuer)."""

    def __init__(self, state, weights, rng, keep=False, cap=CAP, tables=None):
        self.s = state
        self.w = weights
        self.tables = tables  # engine.ai's n-tuple tables by phase, for every planner
        self.rng = rng
        self.seat = state.seat
        self.turn = state.turn
        self.turns = turns_left(state)
        self.work = 0
        self.cap = cap
        self.t0 = elapsed()  # the clock's reading as the search begins (-1: no clock)
        self.samples = 0  # rounds of samples completed by choose()
        self.keep = keep
        self.options = None
        self.build_risk = -1
        self.values = None  # kept: the options it played on -> their estimates (_sample)

    def choose(self):
        """Returns the action to take."""
        a = self._choose()
        # RAM: the spares keep no lists between decisions (the hint loads its words after
        # this, engine.bots).
        if 0 in _spare:
            _spare[0].done()
        if 1 in _spare:
            _release(_spare[1])
        return a

    def _choose(self):
        s = self.s
        p = self._planner(s)
        p.options = {}
        best = p.choose()
        p.done()  # its options and values stay; its lists go before the samples (RAM)
        if self.keep:
            self.options = p.options
            self.build_risk = p.build_risk
        self.work = p.work
        self.unit = p.work  # the most work one planner has done in this search
        if s.mode == MODE_CHALLENGE and s.derails == CHALLENGE_DERAILS - 1:
            # One more derailment loses (§8): no plan that can derail, however small its
            # chance (a pass never can; a build's dice can only when they outnumber the cards
            # ahead, and a shorter build of the same cards can no sooner), unless every one can
            # (a build a person began): then the least likely to. No samples: they would miss
            # or overstate a small chance. (The penalty order's options are empty: engine.ai's.)
            return _safest(p.options, best, p.risk)
        if s.phase == P_ORDER or turns_left(s) == 0:
            return best  # the order is engine.ai's; the last turn it values exactly
        # The candidates: engine.ai's choice first (it stands if the search cannot finish a
        # round), then the next best by its value; an equal value is the same plan begun with
        # another card of the same kind.
        opts = []
        for a in p.options:
            o = p.options[a]
            opts.append((o[0], o[1], a))
        opts.sort()
        top = p.value
        risk = p.risk
        cands = [best]
        seen = [top]
        for v, r, a in opts:
            if v > top + MARGIN or len(cands) == OPTIONS:
                break
            if r > risk and s.mode == MODE_CHALLENGE:
                continue  # in a challenge, no riskier plan on the word of a few samples
            if v not in seen:
                cands.append(a)
                seen.append(v)  # engine.ai's values of the candidates, in order
        if len(cands) < 2:
            return best
        first = p.work
        opts = p = None  # RAM: not held through the samples (docs/memory.md)
        return self._sample(cands, seen, first)

    def _planner(self, state, seat=-1, hand=None, turns=-1):
        # engine.ai's Planner(state, self.w, seat, hand, turns): the spare one set up afresh
        # (Planner.__init__ sets every attribute a use reads before it sets it), see _spare.
        p = _spare.get(0)
        if p is None:
            p = _spare[0] = Planner(state, self.w, seat, hand, turns, self.tables)
        else:
            p.done()  # its lists go before the new ones are made
            p.__init__(state, self.w, seat, hand, turns, self.tables)
        return p

    def _room(self):
        # The work that still fits in the search's time: CAP less the work done, where the
        # work is the clock (the desktop); where the board's clock is set (engine.ai
        # set_clock), the ticks left at the pace the work went so far, so that a board
        # slower or faster than the estimate keeps the same wait.
        t = elapsed() - self.t0 if self.t0 >= 0 else -1
        if t <= 0 or self.work <= 0:
            return self.cap - self.work
        return (self.cap - t) * self.work // t

    def _afford(self):
        # Returns True if one more planner fits in the search's time: as costly as the
        # costliest yet.
        return self.unit <= self._room()

    def _add(self, n):
        # The search's own work (a copy, steps applied), spent (engine.budget spend): its
        # planners spend theirs themselves.
        self.work += n
        spend(n)

    def _spent(self, p):
        self.work += p.work
        if p.work > self.unit:
            self.unit = p.work

    def _plan(self, state, acts):
        # Plays engine.ai's plan for the seat from `state` up to its dice or the end of its
        # turn; appends the steps to `acts`. Returns False if CAP would not allow it.
        while state.turn == self.turn and state.phase != P_DICE and not state.is_terminal():
            if not self._afford():
                return False
            p = self._planner(state)
            a = p.choose()
            self._spent(p)
            p = None  # RAM: let go before the next one is built (docs/memory.md)
            acts.append(a)
            state.apply(a)
            self._add(WORK_STEP)
        return True

    def _sample(self, cands, base, first):
        s = self.s
        seat = self.seat
        n = len(cands)
        pool = unseen(s, seat)
        size = len(pool)
        ndeck = len(s.deck)
        # Cards dealt per sample: the other hands (in their sizes), then one draw per seat up
        # to this seat's next turn, the seat's own last.
        others = 0
        for i in range(s.players):
            if i != seat:
                others += len(s.hands[i])
        draws = s.players if s.players <= ndeck else ndeck
        rng = self.rng
        # Stratified: the seat's next card is spread over the unseen cards in their order
        # (ids run by value, then broken, then chaos: every sample a different part of the
        # mix), and its dice this turn over SAMPLES equal ranges of chance, the ranges dealt
        # to the samples in a random order.
        offset = rng.randbelow(size)
        strata = []
        for i in range(SAMPLES):
            strata.append(i)
        rng.shuffle(strata)
        pres = [None] * n  # per option: its steps up to its dice or the end of its turn
        after = []  # per option: {wheels: its steps after the dice}
        for _ in range(n):
            after.append({})
        totals = [0] * n
        costs = [first] * n  # the most one evaluation of each option cost so far
        for i in range(SAMPLES):
            mine = (i * size + offset) // SAMPLES
            left = pool[:mine] + pool[mine + 1:]
            dealt = []
            for k in range(others + draws - 1):  # the other cards: a partial shuffle
                r = k + rng.randbelow(len(left) - k)
                x = left[r]
                left[r] = left[k]
                left[k] = x
                dealt.append(x)
            if draws:
                dealt.append(pool[mine])
            rest = left[len(dealt) - (1 if draws else 0):]
            left = None  # RAM: not held through the evaluations
            rest.sort()
            # randbelow takes at most 32362: even numbers below 32768.
            u = (strata[i] * _PROB + 2 * rng.randbelow(_PROB // 2)) // SAMPLES
            u2 = 2 * rng.randbelow(_PROB // 2)  # the other seats' dice
            values = []
            for ci in range(n):
                before = self.work
                if costs[ci] > self._room():
                    break  # this round would not finish: it does not count
                v = self._evaluate(cands[ci], pres, after[ci], ci, dealt, rest, ndeck, draws,
                                   u, u2)
                if v is None:
                    break  # the work passed CAP during this evaluation
                values.append(v)
                if self.work - before > costs[ci]:
                    costs[ci] = self.work - before
            if len(values) < n:
                if i == 0:
                    n = len(values)  # only these options had their first sample
                    if n < 2:
                        return cands[0]  # engine.ai's plan stands
                else:
                    break
            for ci in range(n):
                totals[ci] += values[ci]
            self.samples = i + 1
        # Each option: its value by engine.ai plus the mean correction of its samples.
        bi = 0
        best = None
        if self.keep:
            self.values = {}
        for ci in range(n):
            v = base[ci] * self.samples + totals[ci]
            if self.keep:
                self.values[cands[ci]] = v // self.samples
            if best is None or v < best:
                best = v
                bi = ci
        return cands[bi]

    def _evaluate(self, a, pres, after, ci, dealt, rest, ndeck, draws, u, u2):
        # The value of option `a` in one sample (see _leaf), or None if the work passed CAP.
        # The copy is the spare State (see _spare), without the game's log: copying it for each
        # sample, and noting every step of the sample in it, was the game's log made again.
        c = _spare.get(1)
        c = _spare[1] = self.s.clone(False) if c is None else self.s.copy_to(c, False)
        self._add(WORK_CLONE)
        self._deal(c, dealt, rest, ndeck, draws)
        acts = pres[ci]
        if acts is None:  # first time: engine.ai's plan after `a`, kept for the next samples
            acts = [a]
            c.apply(a)
            self._add(WORK_STEP)
            if not self._plan(c, acts):
                return None
            pres[ci] = acts
        else:
            for x in acts:
                c.apply(x)
            self._add(WORK_STEP * len(acts))
        if c.phase == P_DICE and c.turn == self.turn:
            self._add(WORK_STEP * c.dice_left)
            k = _roll(c, u)
            acts = after.get(k)
            if acts is None:
                acts = []
                if not self._plan(c, acts):
                    return None
                after[k] = acts
            else:
                for x in acts:
                    c.apply(x)
                self._add(WORK_STEP * len(acts))
        # The turn is over: engine.ai's value of the position now (before the next draw) is
        # the control variate. Its mean over the dice is the option's value by engine.ai,
        # exactly; the sample's leaf less it keeps what the next turn adds and little of the
        # luck of this turn's dice, which 4 samples would measure badly.
        hand = c.hands[self.seat]
        if c.seat == self.seat and not c.is_terminal():
            hand = hand[:-1]  # the next turn's draw
        p = self._planner(c, self.seat, hand, self.turns)
        now = p.settled()
        self.work += p.work
        p = None  # RAM: not held through the other seats' planners below (docs/memory.md)
        if c.mode == MODE_RIVAL:
            now -= ONE * _PROB * len(c.piles[0])
        if not self._others(c, u2) or not self._afford():
            return None
        v = self._leaf(c) - now
        # Past the clock's time (engine.budget set_clock), its planners stopped valuing builds
        # on the way: this sample's value is not a whole one.
        return None if late() else v

    def _deal(self, c, dealt, rest, ndeck, draws):
        # Gives the copy `c` this sample's cards: the other hands, then the draws on top of
        # the deck; the rest of the unseen cards fill the deck's bottom and the box's removed
        # part, in their canonical order.
        seat = self.seat
        k = 0
        for i in range(c.players):
            if i != seat:
                h = len(c.hands[i])
                c.hands[i] = dealt[k:k + h]
                k += h
        top = dealt[k:]
        top.reverse()
        low = ndeck - draws
        c.deck = rest[:low] + top
        removed = REMOVED_AT_SETUP[c.players]
        c.box = rest[low:low + removed] + c.box[removed:]

    def _others(self, c, u):
        # Plays on to this seat's next turn: the rival by its rules (§8), other seats by
        # engine.ai's plan (their dice at chance u). Returns False if the work passed CAP.
        seat = self.seat
        while not c.is_terminal() and not (c.seat == seat and c.phase == P_TURN):
            if c.phase == P_DICE:
                self._add(WORK_STEP * c.dice_left)
                _roll(c, u)
            elif c.is_rival(c.seat):
                c.apply(c.rival_action())
                self._add(WORK_STEP)
            else:
                if not self._afford():
                    return False
                p = self._planner(c)
                c.apply(p.choose())
                self._spent(p)
                p = None  # RAM: let go before the next seat's is built
                self._add(WORK_STEP)
        return True

    def _leaf(self, c):
        # The value (engine.ai's units: 1/16 points x 32768) of the seat's position: the final
        # score if the game is over (a lost challenge: LOSS more, §8), else engine.ai's value
        # of its next turn; in rival mode less the rival's cards (§8: it scores by count).
        if c.is_terminal():
            v = ONE * _PROB * c.score(self.seat)
            if c.lost:
                v += LOSS * _PROB
        else:
            p = self._planner(c)
            p.choose()
            self._spent(p)
            v = p.value
        if c.mode == MODE_RIVAL:
            v -= ONE * _PROB * len(c.piles[0])
        return v


def _safest(options, best, risk):
    # The best-valued of engine.ai's options (first action -> (value, chance of derailing,
    # cards)) that cannot derail; if none, the least likely to; `best` (its chance `risk`)
    # where it is one of them.
    if risk == 0:
        return best
    found = None
    for a in options:  # in no fixed order (MicroPython's dicts): ties go to the lower action
        o = options[a]
        key = (o[1], o[0], a)
        if found is None or key < found:
            found = key
    if found is None or found[0] >= risk:
        return best
    return found[2]


def _release(c):
    # Lets go of the spare State's cards, track and log (RAM, see _spare): nothing but
    # copy_to() into it may be asked of it until the next search.
    c.deck = c.track = c.bends = c.cells = c.hands = c.piles = None
    c.box = c.penalty = c.log = None


def _roll(c, u):
    # Rolls the copy's pending dice to the wheel count at chance u (of 32768) and returns it.
    n = c.dice_left
    p = dice_weights(n)
    acc = 0
    k = 0
    while k < n:
        acc += p[k]
        if acc > u:
            break
        k += 1
    for i in range(n):
        c.apply(A_ROLL1 if i < k else A_ROLL0)
    return k
