"""The coach: a deep player for the desktop, never shipped to the board (tools/flash/imports.py).

Every option of a decision is tried on the same samples: the cards the seat cannot see (the
deck, the cards removed at setup, the other hands: docs/rules.md §3.4, §3.5) dealt again in a
fresh order, fresh dice, and the game played on for HORIZON of the seat's turns: the seat by
`best` itself in solo (searched_in()), by `best`'s planner (engine.ai, without its look-ahead)
in the other modes and for the other seats; then engine.ai's estimate of the rest. An option is
worth the mean of its outcomes (points: the seat's score; a lost challenge 40 more, §8; in rival
mode less the rival's cards, §8). The samples come in rounds; after each round the options
clearly worse than the leader drop out, so most of the time goes to the close calls.

Its evaluation, at the leaves and in the rollouts: engine.ai's linear one with a weight table
(playout_table), or with engine.ntuple's n-tuple tables on top (`tables`: engine.ai's Planner, solo
only, as the tables are learned for solo; the bot `coach-ntuple`), so that both can be played
on the same seeds (python -m tools.bots compare --player coach --tables, bench --coach-bots).

Fair and reproducible: the samples start from the unseen cards in a canonical order (sorted
ids, engine.lookahead.unseen) and are shuffled with the coach's own rng; the same rng state
gives the same decision. As a bot: `python -m engine.selfplay --bot coach`.
"""
from engine.ai import Planner
from engine.ai import ONE, LOSS
from engine.bots import HINT_CAP
from engine.cards import KIND, SHAPE, VALUE
from engine.lookahead import Search, unseen
from engine import ai_weights, ntuple, planner_weights
from engine.playout import DECIDE, steps
from engine.rng import Rng
from engine.state import A_CHAOS, A_LAY, A_PILE, MODE_RIVAL, MODE_SOLO, P_ORDER, P_TURN
from engine.state import REMOVED_AT_SETUP

ROUND = 8  # samples per round
SAMPLES = 32  # at most this many samples per option
FIRST = 8  # samples every option gets before any drops out
DROP = 2.0  # an option drops out once it trails the leader by this many standard errors
CANDIDATES = 4  # the options engine.ai rates best that the coach plays out
HORIZON = 3  # turns of the seat each sample plays on before engine.ai's estimate ends it
_PROB = 32768  # engine.ai's values are in 1/16 points x 32768
MARGIN = 4 * ONE * _PROB  # ... within 4 points of its best (engine.ai's units); none: no search
_STREAM_DICE = 3  # the rng stream of a sample's dice (engine.playout uses 0 and 1)
_STREAM_SEARCH = 4  # the rng stream of the look-ahead's samples in a sample (`searched`)


def same_choice(state, a, b):
    """Returns True if actions `a` and `b` are the same choice in `state`: equal, or laying,
    discarding or piling cards of the same value, kind and shape (only those matter, §1)."""
    if a == b:
        return True
    return _kind(a) == _kind(b) and _kind(a) is not None


def _kind(a):
    if a >= A_PILE:
        return (3, VALUE[a - A_PILE])
    if a >= A_CHAOS:
        return (2, VALUE[a - A_CHAOS])
    if a >= A_LAY:
        c = a - A_LAY
        return (1, VALUE[c], KIND[c], SHAPE[c])
    return None


def options(state):
    """Returns the legal actions of `state`, one per distinct choice (same_choice)."""
    out = []
    for a in state.legal_actions():
        for b in out:
            if same_choice(state, a, b):
                break
        else:
            out.append(a)
    return out


def redeal(state, seat, rng):
    """Returns a copy of `state` with the cards `seat` cannot see dealt again: from their
    canonical order (sorted ids), shuffled by `rng`, into the deck, the box's removed part
    and the other hands, each keeping its size."""
    cards = unseen(state, seat)
    rng.shuffle(cards)
    c = state.clone()
    n = len(c.deck)
    c.deck = cards[:n]
    removed = REMOVED_AT_SETUP[c.players]
    c.box = cards[n:n + removed] + c.box[removed:]
    i = n + removed
    for s in range(c.players):
        if s != seat:
            h = len(c.hands[s])
            c.hands[s] = cards[i:i + h]
            i += h
    return c


def outcome(state, seat):
    """Returns the seat's final outcome in points, lower is better: its score (§7), 40 more
    for a lost challenge (§8, engine.ai.LOSS), less the rival's cards in rival mode (§8)."""
    v = state.score(seat)
    if state.lost:
        v += LOSS // ONE
    if state.mode == MODE_RIVAL:
        v -= state.score(0)
    return v


def planner(state, table, tables=None):
    """Returns engine.ai's Planner of the seat to move with weight `table` (and engine.ntuple's
    `tables` valued on top, where given)."""
    return Planner(state, table, tables=tables)


def rollout(state, seat, dice, table, horizon=0, tables=None, searched=0, rng=None):
    """Plays `state` on, every seat by engine.ai with `table` (and n-tuple `tables`: planner()),
    the rival by its rules, the dice from `dice`: to the end, or (horizon > 0) until the seat
    is to start its turn `horizon` turns later. Returns its outcome in points: outcome() at the
    end; else engine.ai's value of the seat's next turn (its score now plus the estimate of the
    rest of the game: exact over that turn's dice), less the rival's cards in rival mode (§8).
    `searched` > 0: the seat's own decisions by `best`'s search within that work
    (engine.lookahead), its samples drawn with `rng`."""
    started = 0
    for action in steps(state, dice):
        if action == DECIDE:
            if state.seat == seat and state.phase == P_TURN:
                if horizon and started == horizon:
                    p = planner(state, table, tables)
                    p.choose()
                    v = p.value / (ONE * _PROB)
                    if state.mode == MODE_RIVAL:
                        v -= state.score(0)
                    return v
                started += 1
            if searched and state.seat == seat:
                action = Search(state, table, rng, False, searched, tables).choose()
            else:
                action = planner(state, table, tables).choose()
        state.apply(action)
    return outcome(state, seat)


class Estimate:
    """What the coach found for one option: its mean final outcome and the samples behind
    it; `score` the mean final score alone, `lost` / `won` the share of lost challenges and
    won rival games."""

    def __init__(self, action):
        self.action = action
        self.values = []
        self.scores = 0
        self.lost = 0
        self.won = 0

    def add(self, value, state, seat):
        # A rollout cut before the end (rollout's horizon) counts its value as its score;
        # its challenge is not lost (yet) and its rival game not won.
        self.values.append(value)
        if state.is_terminal():
            self.scores += state.score(seat)
            self.lost += 1 if state.lost else 0
            self.won += 1 if seat in state.winners() else 0
        else:
            self.scores += value + (state.score(0) if state.mode == MODE_RIVAL else 0)

    def mean(self):
        return sum(self.values) / len(self.values)

    def n(self):
        return len(self.values)


class Coach:
    """One decision of the seat to move in `state`; `rng` the coach's own engine.rng.Rng;
    `table` the weights engine.ai plays and values with at its leaves and in its rollouts
    (default playout_table(mode)); `tables` engine.ntuple's tables valued on top of them
    (planner(); default None: the linear evaluation alone); `searched` the work of `best`'s
    search at each of the seat's decisions in a sample, 0 for engine.ai's planner alone
    (default searched_in(mode))."""

    def __init__(self, state, rng, table=None, samples=SAMPLES, first=FIRST, horizon=HORIZON,
                 tables=None, searched=None):
        self.s = state
        self.horizon = horizon
        self.searched = searched if searched is not None else searched_in(state.mode)
        self.rng = rng
        self.table = table if table is not None else playout_table(state.mode)
        self.tables = tables
        self.samples = samples
        self.first = min(first, samples)

    def choose(self):
        """Returns the coach's action."""
        s = self.s
        if s.phase == P_ORDER:
            # The order of penalty cards (§6): engine.ai's exact search of the pile's tops.
            return planner(s, self.table, self.tables).choose()
        acts = self.options()
        if len(acts) == 1:
            return acts[0]
        return self.estimate(acts)[0].action

    def options(self):
        """Returns the options worth trying: the first steps of engine.ai's plans (a pass, a
        chaos card of each value, the first card of each build, a bend, a stop) that it rates
        within MARGIN of its choice, at most CANDIDATES, engine.ai's choice first; the other
        legal actions are the same plans begun with another card of the same kind, or plans
        engine.ai rates too far behind to be worth the samples."""
        p = planner(self.s, self.table, self.tables)
        p.options = {}
        first = p.choose()
        ranked = sorted((p.options[a][0], a) for a in p.options if a != first)
        acts = [first]
        for v, a in ranked:
            if v > p.value + MARGIN or len(acts) == CANDIDATES:
                break
            acts.append(a)
        return acts

    def estimate(self, acts, keep=()):
        """Returns an Estimate per action of `acts`, best first (ties: the earlier action).
        Actions in `keep` never drop out (the review's: the player's own choice)."""
        s = self.s
        seat = s.seat
        est = [Estimate(a) for a in acts]
        live = list(est)
        done = 0
        while done < self.samples and len(live) > 1 or done < self.first:
            for _ in range(ROUND):
                if done >= self.samples:
                    break
                base = redeal(s, seat, self.rng)
                seed = self.rng.next() * 32768 + self.rng.next()  # the sample's dice
                for e in live:
                    c = base.clone()
                    dice = Rng(seed, _STREAM_DICE)
                    c.apply(e.action)
                    e.add(rollout(c, seat, dice, self.table, self.horizon, self.tables,
                                  self.searched, Rng(seed, _STREAM_SEARCH)), c, seat)
                done += 1
            if done >= self.first:
                live = self._survivors(live, keep)
        est.sort(key=lambda e: (e.mean() if e.n() else 1e9, acts.index(e.action)))
        return est

    def _survivors(self, live, keep):
        # The options still in the running: the leader, what `keep` asks for, and every option
        # whose paired difference from the leader (the same samples) is within DROP standard
        # errors.
        n = min(e.n() for e in live)
        lead = min(live, key=lambda e: sum(e.values[:n]))
        out = []
        for e in live:
            if e is lead or e.action in keep:
                out.append(e)
                continue
            d = [e.values[i] - lead.values[i] for i in range(n)]
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
            if mean <= DROP * (var / n) ** 0.5:
                out.append(e)
        return out


def playout_table(mode):
    """Returns the weight table the coach plays a mode with, at its leaves and in its rollouts
    (docs/rules.md §8): in solo `best`'s (engine.ai_weights), learned by self-play
    (tools/bots/train.py), which played the coach at least as well as engine.planner_weights'
    on the same seeds (docs/bots.md); in the other modes engine.planner_weights', fitted to the
    planner playing alone as the rollouts play (`best`'s tables there are fitted to the
    planner with its look-ahead on top, and can play worse without it)."""
    if mode == MODE_SOLO:
        return ai_weights.SOLO
    w = planner_weights
    return (w.SOLO, w.CHALLENGE, w.RIVAL, w.TABLE)[mode]


def searched_in(mode):
    """Returns the work of `best`'s search at each of the seat's decisions in the coach's samples
    of a `mode` game (rollout's `searched`): the hint's budget (engine.bots HINT_CAP) in solo,
    where it played better than engine.ai's planner alone on 200 choosing seeds, for about four
    and a half times the CPU (docs/bots.md); 0, the planner, in the other modes, where it was not
    measured."""
    return HINT_CAP if mode == MODE_SOLO else 0


def ntuple_tables(mode):
    """Returns engine.ntuple's tables for `mode`, every phase's block (learned by python -m
    tools.bots train --eval ntuple), None where none are learned or the file is not whole."""
    try:
        with open(ntuple.path(mode), "rb") as f:
            data = f.read(ntuple.FILE_BYTES + 1)
    except OSError:
        return None
    if not ntuple.whole(data):
        return None  # not a file train wrote whole: the coach values without, as `best` does
    return ntuple.blocks(data)


def coach_bot(state, rng):
    """Returns the coach's action (a bot, as engine.bots.BOTS's: (state, rng) -> action)."""
    return Coach(state, rng).choose()


def coach_best_bot(state, rng):
    """Returns the action of the coach whose samples play the seat by `best`, its look-ahead
    within the hint's budget a decision (engine.bots HINT_CAP): compare's coach-best
    (docs/bots.md)."""
    return Coach(state, rng, searched=HINT_CAP).choose()


def coach_ntuple_bot(state, rng):
    """Returns the action of the coach valuing with engine.ntuple's tables on top of its
    weights (ntuple_tables(): in solo; elsewhere it plays as coach_bot)."""
    return Coach(state, rng, tables=ntuple_tables(state.mode)).choose()
