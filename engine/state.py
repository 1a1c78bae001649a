"""One position of a game of Lok'n'Roll, its legal actions and how each action changes it.

The rules are those of docs/rules.md (cited as §n and Dn). In the spirit of OpenSpiel, a `State`
offers `legal_actions()`, `apply(action)`, `is_chance()`, `is_terminal()` and `result()`;
chance (a die) is an action too, chosen by the caller from `chance_outcomes()` or drawn with
`sample_chance(rng)`, so a screen can animate a roll before applying it and a replay can feed
recorded rolls. Draws need no chance node: the deck's order is fixed at setup (§10).

Actions, phases, bends and grid cells are small ints (engine.codes lists them). A forced step
is still an action (its list has one entry) so that records see every step. The track is kept
as parallel lists from start to end: card ids, bends and grid cells.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from engine.cards import KIND, VALUE, SHAPE, KIND_BROKEN, KIND_CHAOS, SHAPE_STRAIGHT, SHAPE_CURVE
from engine.risk import derail_chance
from engine.codes import (
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_ROLL0, A_ROLL1, A_LAY, A_CHAOS, A_PILE,
    P_TURN, P_BEND, P_BUILD, P_CHAOS, P_DICE, P_ORDER, P_OVER, P_SETUP,
    BEND_S, BEND_L, BEND_R, EAST, ORIGIN,
    FIT_OK, FIT_SHAPE, FIT_VALUE, FIT_TAKEN, FIT_BLOCKED,
)

MODE_SOLO = const(0)
MODE_CHALLENGE = const(1)
MODE_RIVAL = const(2)
MODE_TABLE = const(3)
MODE_NAMES = ("solo", "challenge", "rival", "table")

# The grid's headings (engine.codes: EAST ... NORTH): here, where the track is laid, so that
# the board loads no engine.codes while a game is played (its ints are folded into this module:
# tools/flash/fold.py).
STEP = (128, 1, -128, -1)  # cell-code offset of one step per heading
TURN = (0, 3, 1)  # heading change per bend: S keeps it, L is -1, R is +1 (mod 4)
REMOVED_AT_SETUP = (11, 11, 11, 9, 7)  # §3.4, by number of players (1 = every solo mode)
CHALLENGE_DERAILS = const(4)  # §8: the 4th derailment ends a challenge, lost
CHANCE_OUTCOMES = ((A_ROLL0, 1, 3), (A_ROLL1, 2, 3))  # (action, num, den): §1, 4 of 6 faces


class IllegalAction(ValueError):
    """An action the rules do not allow in this state; the message says why."""


class State:
    """One position of a game. Create one with engine.deal's deal() or new_game(), not directly."""

    def __init__(self, mode=MODE_SOLO, players=1):
        self.mode = mode
        self.players = players
        self.deck = []  # top is deck[-1] (the record lists it top first)
        self.track = []  # card ids, start to end
        self.bends = []  # BEND_* of each track card
        self.cells = []  # cell code of each track card
        self.head = EAST  # exit heading of the last card (the first is entered heading east)
        self.loco = 0  # track index of the loco's card
        self.hands = []
        self.piles = []  # top is pile[-1]
        for _ in range(players):
            self.hands.append([])
            self.piles.append([])
        self.box = []  # removed at setup, combined, and the rival's unplayable draws
        self.penalty = []  # penalty cards taken, waiting to be put on the pile
        self.seat = 0
        self.turn = 0  # counts turns from 1, as records do
        self.phase = P_SETUP
        self.derails = 0  # every seat's, over the game
        self.lost = False
        self.build_value = 0
        self.build_sum = 0  # dice a build rolls: the sum of the values laid (§4)
        self.dice_left = 0
        self.wheels = 0
        self.pending = -1  # the curve card waiting for its bend
        # What the last move of the loco did (not rules state, not in __eq__): here because only
        # _move() knows it (§5, §6: D4's forfeited penalties), for the app's screen and LEDs.
        self.moved = 0
        self.hits = 0  # broken cards entered (D1)
        self.derail_left = 0  # moves left when it derailed; 0: no derailment
        self.earned = 0
        self.taken = 0
        # The decisions so far (an engine.gamelog.GameLog), or None: not logged. apply()
        # feeds it and clone() copies it, so that an undone move undoes its log too.
        self.log = None

    # ----------------------------------------------------------------- queries

    def is_rival(self, seat):
        """Returns True if `seat` is played by the rival automaton (§8: seat 0 in rival mode)."""
        return self.mode == MODE_RIVAL and seat == 0

    def current_player(self):
        """Returns the seat whose turn it is."""
        return self.seat

    def is_terminal(self):
        """Returns True once the game has ended (§7)."""
        return self.phase == P_OVER

    def is_chance(self):
        """Returns True if the next action is a die roll (see chance_outcomes)."""
        return self.phase == P_DICE

    def chance_outcomes(self):
        """Returns the outcomes of the next die as (action, num, den) tuples."""
        return CHANCE_OUTCOMES

    def sample_chance(self, rng):
        """Returns a die-roll action drawn from `rng`: a wheel with probability 2/3 (§1)."""
        return A_ROLL1 if rng.randbelow(3) < 2 else A_ROLL0

    def ahead(self):
        """Returns the number of cards in front of the loco."""
        return len(self.track) - 1 - self.loco

    def build_risk(self, card=-1):
        """Returns (num, den): the exact chance that the build so far, plus `card` laid next if
        given, derails when its dice are rolled (§5)."""
        dice = self.build_sum
        ahead = self.ahead()
        if card >= 0:
            dice += VALUE[card]
            ahead += 1
        return derail_chance(dice, ahead)

    def broken_risk(self, card=-1):
        """Returns (num, den): the exact chance that the build so far, plus `card` laid next if
        given, makes the loco enter a broken card when its dice are rolled (§5, D1: a penalty
        card each, derailing or not), or None if none lies within reach of its dice."""
        track = self.track
        loco = self.loco
        dice = self.build_sum
        d = -1  # cards from the loco to the first broken card ahead
        for i in range(loco + 1, len(track)):
            if KIND[track[i]] == KIND_BROKEN:
                d = i - loco
                break
        if card >= 0:
            dice += VALUE[card]
            if d < 0 and KIND[card] == KIND_BROKEN:
                d = len(track) - loco
        if d < 0 or d > dice:
            return None
        return derail_chance(dice, d - 1)  # at least d wheels: more than d - 1

    def fit(self, card, bend):
        """Returns FIT_OK if `card` can be laid with `bend` at the end of the track, else the
        placement rule of §2 it breaks: FIT_SHAPE (1), FIT_VALUE (2), FIT_TAKEN (3) or
        FIT_BLOCKED (4)."""
        shape = SHAPE[card]
        if shape != SHAPE_CURVE and shape != SHAPE_STRAIGHT:
            return FIT_SHAPE
        if (shape == SHAPE_STRAIGHT) != (bend == BEND_S):
            return FIT_SHAPE
        cells = self.cells
        if cells:
            d = VALUE[card] - VALUE[self.track[-1]]
            if d == 2 or d == -2:
                return FIT_VALUE
            target = cells[-1] + STEP[self.head]
        else:
            target = ORIGIN  # §2: the first card lies at (0, 0), entered heading east
        if target in cells:
            return FIT_TAKEN
        if target + STEP[(self.head + TURN[bend]) & 3] in cells:
            return FIT_BLOCKED
        return FIT_OK

    def can_lay(self, card):
        """Returns True if `card` can be laid at the end of the track with some bend."""
        if SHAPE[card] == SHAPE_CURVE:
            return self.fit(card, BEND_L) == FIT_OK or self.fit(card, BEND_R) == FIT_OK
        return self.fit(card, BEND_S) == FIT_OK

    def target(self):
        """Returns the cell the next card would be laid in."""
        return self.cells[-1] + STEP[self.head] if self.cells else ORIGIN

    def rival_forced_action(self, card):
        """Returns the action §8 forces on the rival holding `card`: a chaos card is discarded,
        a card that can be laid is laid, otherwise the rival passes."""
        if KIND[card] == KIND_CHAOS:
            return A_CHAOS + card
        return A_LAY + card if self.can_lay(card) else A_PASS

    def legal_actions(self):
        """Returns the list of legal actions, in a fixed order."""
        p = self.phase
        if p == P_DICE:
            return [A_ROLL0, A_ROLL1]
        if p == P_ORDER:
            if self.is_rival(self.seat):
                return [A_PILE + self.penalty[0]]  # §8: in the order taken
            return [A_PILE + c for c in self.penalty]
        if p == P_BEND:
            acts = []
            if self.fit(self.pending, BEND_L) == FIT_OK:
                acts.append(A_BEND_L)
            if self.fit(self.pending, BEND_R) == FIT_OK:
                acts.append(A_BEND_R)
            return acts
        if p == P_OVER or p == P_SETUP:
            return []
        hand = self.hands[self.seat]
        if self.is_rival(self.seat):
            return [self.rival_forced_action(hand[0])]
        acts = [A_PASS if p == P_TURN else A_STOP]
        for c in hand:
            if KIND[c] == KIND_CHAOS:
                if p != P_BUILD:
                    acts.append(A_CHAOS + c)
            elif p != P_CHAOS and (p == P_TURN or VALUE[c] == self.build_value):
                if self.can_lay(c):
                    acts.append(A_LAY + c)
        return acts

    def is_legal(self, action):
        """Returns True if `action` is legal now (what legal_actions() lists)."""
        return action in self.legal_actions()

    def why_not(self, action):
        """Returns None if `action` is legal now, else the reason it is not, in words. The words
        live in engine.explain, imported on first use: the device rarely needs them (memory)."""
        from engine.explain import why_not

        return why_not(self, action)

    def score(self, seat):
        """Returns the seat's score (§7): the values in hand and pile; for the rival (§8), the
        number of cards on its pile."""
        if self.is_rival(seat):
            return len(self.piles[seat])
        total = 0
        for c in self.hands[seat]:
            total += VALUE[c]
        for c in self.piles[seat]:
            total += VALUE[c]
        return total

    def rank_key(self, seat):
        """Returns the tuple that orders seats for the win (§7): score, cards, then 4s, 3s,
        2s and 1s held; the lowest wins, equal keys share the win."""
        n = [0, 0, 0, 0, 0]
        for c in self.hands[seat]:
            n[VALUE[c]] += 1
        for c in self.piles[seat]:
            n[VALUE[c]] += 1
        return (self.score(seat), n[1] + n[2] + n[3] + n[4], n[4], n[3], n[2], n[1])

    def winners(self):
        """Returns the list of winning seats as the game stands (§7, §8)."""
        if self.mode == MODE_SOLO:
            return [0]
        if self.mode == MODE_CHALLENGE:
            return [] if self.lost else [0]
        if self.mode == MODE_RIVAL:
            return [1] if self.score(1) < self.score(0) else [0]  # a tie goes to the rival
        best = None
        seats = []
        for seat in range(self.players):
            key = self.rank_key(seat)
            if best is None or key < best:
                best = key
                seats = [seat]
            elif key == best:
                seats.append(seat)
        return seats

    def result(self):
        """Returns the result as the record's `result` object (§10)."""
        scores = []
        cards = []
        for seat in range(self.players):
            scores.append(self.score(seat))
            cards.append(len(self.hands[seat]) + len(self.piles[seat]))
        return {
            "scores": scores,
            "cards": cards,
            "winners": self.winners(),
            "derailments": self.derails,
            "lost": self.lost,
        }

    def rival_action(self):
        """Returns the rival's choice (§8); for a curve's bend (D6) the one with more free
        cells straight ahead, so that the rival does not needlessly box the track in."""
        if self.phase == P_BEND:
            best = -1
            choice = A_BEND_L
            for bend in (BEND_L, BEND_R):
                if self.fit(self.pending, bend) == FIT_OK:
                    room = self._room(self.target(), (self.head + TURN[bend]) & 3)
                    if room > best:
                        best = room
                        choice = A_BEND_L + bend - BEND_L
            return choice
        return self.legal_actions()[0]

    # ----------------------------------------------------------------- changes

    def apply(self, action):
        """Applies a legal action; raises IllegalAction with the reason otherwise."""
        acts = self.legal_actions()
        if action not in acts:
            raise IllegalAction(self.why_not(action) or "action %d is not legal now" % action)
        if self.log is not None and self.phase != P_DICE:  # dice follow from the seed
            self.log.note(acts, action)
        if action == A_ROLL0 or action == A_ROLL1:
            self.wheels += action - A_ROLL0
            self.dice_left -= 1
            if self.dice_left == 0:
                self._move(self.wheels, False, False)
        elif action >= A_PILE:
            c = action - A_PILE
            self.penalty.remove(c)
            self._put_on_pile(c)
            if not self.penalty:
                self._end_turn()
        elif action == A_PASS:
            if self.is_rival(self.seat):
                self.box.append(self.hands[0].pop())  # §8: the unplayable card goes to the box
            # §4: a pass moves the loco 1 card unless it stands on the last card; never derails.
            self._move(1 if self.loco < len(self.track) - 1 else 0, True, False)
        elif action == A_STOP:
            if self.phase == P_BUILD:
                self._roll_build()
            else:
                self._end_turn()
        elif action == A_BEND_L or action == A_BEND_R:
            self._lay_from_hand(self.pending, action - A_BEND_L + BEND_L)
        elif action >= A_CHAOS:
            hand = self.hands[self.seat]
            hand.remove(action - A_CHAOS)
            self._put_on_pile(action - A_CHAOS)
            if self.is_rival(self.seat) or not _has_chaos(hand):
                self._end_turn()
            else:
                self.phase = P_CHAOS
        else:
            c = action - A_LAY
            if SHAPE[c] == SHAPE_CURVE:
                self.pending = c
                self.phase = P_BEND
            else:
                self._lay_from_hand(c, BEND_S)

    def start(self):
        """Begins the first turn after engine.deal's deal(): seat 0 draws (§4, §8)."""
        if self.phase != P_SETUP:
            raise IllegalAction("the game has already started")
        self._begin_turn()

    def extend_track(self, card, bend):
        """Puts `card`, bent `bend`, at the end of the track, checking nothing: the caller has
        (a lay, with fit(); the setup, §3.2)."""
        self.cells.append(self.target())
        self.track.append(card)
        self.bends.append(bend)
        self.head = (self.head + TURN[bend]) & 3

    def clone(self, log=True):
        """Returns an independent copy (lists copied; cards are ints). log=False: the copy
        keeps no log, as a search's or a plan's copies (their steps are not the game's
        decisions: the game logs them as it plays them)."""
        return self.copy_to(State(self.mode, 0), log)

    def copy_to(self, s, log=True):
        """Makes the State `s` an independent copy of this one and returns it: clone() into an
        object made before. Here, not in the search that reuses one State for its copies
        (engine.lookahead; RAM: CircuitPython grows a new object's table of attributes step by
        step), because only State knows every field a copy must take."""
        s.mode = self.mode
        s.players = self.players
        s.deck = self.deck[:]
        s.track = self.track[:]
        s.bends = self.bends[:]
        s.cells = self.cells[:]
        s.hands = [h[:] for h in self.hands]
        s.piles = [p[:] for p in self.piles]
        s.box = self.box[:]
        s.penalty = self.penalty[:]
        s.head = self.head
        s.loco = self.loco
        s.seat = self.seat
        s.turn = self.turn
        s.phase = self.phase
        s.derails = self.derails
        s.lost = self.lost
        s.build_value = self.build_value
        s.build_sum = self.build_sum
        s.dice_left = self.dice_left
        s.wheels = self.wheels
        s.pending = self.pending
        s.moved = self.moved
        s.hits = self.hits
        s.derail_left = self.derail_left
        s.earned = self.earned
        s.taken = self.taken
        s.log = None if self.log is None or not log else self.log.copy()
        return s

    def _key(self):
        return (
            self.mode, self.players, self.deck, self.track, self.bends, self.cells, self.head,
            self.loco, self.hands, self.piles, self.box, self.penalty, self.seat, self.turn,
            self.phase, self.derails, self.lost, self.build_value, self.build_sum,
            self.dice_left, self.wheels, self.pending,
        )

    def __eq__(self, other):
        return isinstance(other, State) and self._key() == other._key()

    def __ne__(self, other):
        return not self.__eq__(other)

    # ----------------------------------------------------------------- internals

    def _room(self, cell, heading):
        # Free cells in a straight line from `cell` (a D6 tie-break), counted up to 6.
        n = 0
        while n < 6:
            cell += STEP[heading]
            if cell in self.cells:
                break
            n += 1
        return n

    def _lay_from_hand(self, card, bend):
        hand = self.hands[self.seat]
        hand.remove(card)
        self.extend_track(card, bend)
        self.pending = -1
        if self.is_rival(self.seat):
            self._move(VALUE[card], False, True)  # §8: no dice, moves by the card's value
            return
        self.build_value = VALUE[card]
        self.build_sum += VALUE[card]
        self.phase = P_BUILD
        for c in hand:
            if KIND[c] != KIND_CHAOS and VALUE[c] == self.build_value and self.can_lay(c):
                return
        self._roll_build()  # nothing else could join the build: stopping is the only choice

    def _roll_build(self):
        self.dice_left = self.build_sum
        self.wheels = 0
        self.phase = P_DICE

    def _move(self, moves, is_pass, is_rival_lay):
        # §5 movement, then §6 penalties (D2: counted while moving, taken once it stops).
        track = self.track
        last = len(track) - 1
        earned = 1 if is_pass else 0
        hits = 0
        moved = 0
        left = 0
        while moves:
            if self.loco == last:
                left = moves  # §5 derailment: the move ends on the last card
                self.derails += 1
                earned += 1 if is_rival_lay else moves  # D5: the rival pays exactly 1
                break
            self.loco += 1
            moved += 1
            moves -= 1
            if KIND[track[self.loco]] == KIND_BROKEN:
                hits += 1  # D1: each broken card entered costs 1, even on a pass
        earned += hits
        self.moved = moved
        self.hits = hits
        self.derail_left = left
        self.earned = earned
        # §6, D4: from the start of the track, never the loco's card; the rest is forfeited.
        n = earned if earned < self.loco else self.loco
        for _ in range(n):
            self.penalty.append(track.pop(0))
            self.bends.pop(0)
            self.cells.pop(0)
        self.loco -= n
        self.taken = n
        if n:
            self.phase = P_ORDER
        else:
            self._end_turn()

    def _put_on_pile(self, card):
        # §6 combining (D3: always): equal values on top both go to the box.
        pile = self.piles[self.seat]
        if pile and VALUE[pile[-1]] == VALUE[card]:
            self.box.append(pile.pop())
            self.box.append(card)
        else:
            pile.append(card)

    def _end_turn(self):
        self.pending = -1
        self.build_value = 0
        self.build_sum = 0
        self.dice_left = 0
        if self.mode == MODE_CHALLENGE and self.derails >= CHALLENGE_DERAILS:
            self.lost = True  # §8: the 4th derailment's turn is played out, then it is lost
            self.phase = P_OVER
        elif not self.deck:
            self.phase = P_OVER  # §4: this turn's draw took the last card
        else:
            self.seat = (self.seat + 1) % self.players
            self._begin_turn()

    def _begin_turn(self):
        self.turn += 1
        self.hands[self.seat].append(self.deck.pop())  # §4: first draw the top card
        self.phase = P_TURN


def _has_chaos(hand):
    for c in hand:
        if KIND[c] == KIND_CHAOS:
            return True
    return False


def players_for(mode, players=None):
    """Returns the number of seats for a mode (§8), checking a requested number."""
    if mode == MODE_SOLO or mode == MODE_CHALLENGE:
        want = (1, 1)
    elif mode == MODE_RIVAL:
        want = (2, 2)
    elif mode == MODE_TABLE:
        want = (2, 4)
    else:
        raise ValueError("unknown mode %s" % mode)
    if players is None:
        return want[0]
    if not want[0] <= players <= want[1]:
        raise ValueError("%s takes %d to %d players, not %s" % (
            MODE_NAMES[mode], want[0], want[1], players))
    return players
