"""Game records in the `loknroll/1` format (docs/rules.md §10): writing one while a game is played,
and replaying one step by step against the rules.

Plain dicts and lists, no json here, so this runs on MicroPython too; the CLIs serialise.
The device does not import this module to play.
"""
from engine.cards import SHAPE, SHAPE_CURVE
from engine.gamelog import width
from engine.rng import Rng
from engine.setup import from_setup
from engine.codes import (
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_ROLL0, A_ROLL1, A_LAY, A_CHAOS, A_PILE,
    P_BUILD, P_CHAOS, P_DICE, P_ORDER, P_OVER, BEND_NAMES, BEND_S,
)
from engine.deal import deal
from engine.state import MODE_NAMES

FORMAT = "loknroll/1"


class RecordError(ValueError):
    """A record that is malformed or breaks the rules; `turn` is 0 for the setup, else the
    turn number counting from 1, and the message reads "turn N: reason" / "setup: reason"."""

    def __init__(self, turn, reason):
        self.turn = turn
        self.reason = reason
        ValueError.__init__(self, ("setup: " if turn == 0 else "turn %d: " % turn) + reason)


class Recorder:
    """Writes the record of a game: create it on the dealt State (before start()), then apply
    every action through it instead of through the state."""

    def __init__(self, state):
        self.record = {
            "format": FORMAT,
            "mode": MODE_NAMES[state.mode],
            "players": state.players,
            "setup": {
                "track": [[state.track[i], BEND_NAMES[state.bends[i]]]
                          for i in range(len(state.track))],
                "removed": state.box[:],
                "hands": [h[:] for h in state.hands],
                "deck": _top_first(state.deck),
            },
            "rolls": [],
            "turns": [],
        }
        self._turn = None
        self._number = 0

    def apply(self, state, action):
        """Applies `action` to `state` and records it."""
        seat = state.seat
        number = state.turn
        state.apply(action)  # raises before anything is recorded
        if state.phase == P_OVER:  # a game can end on any step, a die roll included
            self.record["result"] = state.result()
        if action == A_ROLL0 or action == A_ROLL1:
            self.record["rolls"].append(action - A_ROLL0)
            return
        if number != self._number:
            self._number = number
            self._turn = {"p": seat}
            self.record["turns"].append(self._turn)
        turn = self._turn
        if action == A_PASS:
            turn["a"] = "pass"
        elif action == A_BEND_L or action == A_BEND_R:
            turn["cards"][-1][1] = "L" if action == A_BEND_L else "R"
        elif action >= A_PILE:
            if "order" not in turn:
                turn["order"] = []
            turn["order"].append(action - A_PILE)
        elif action >= A_CHAOS:
            turn["a"] = "chaos"
            turn.setdefault("cards", []).append(action - A_CHAOS)
        elif action >= A_LAY:
            turn["a"] = "build"
            turn.setdefault("cards", []).append([action - A_LAY, "S"])  # a curve's bend follows


def _top_first(deck):
    cards = deck[:]
    cards.reverse()
    return cards


def _int_list(value, what, turn):
    if not isinstance(value, list):
        raise RecordError(turn, "%s must be a list" % what)
    for x in value:
        if type(x) is not int:
            raise RecordError(turn, "%s holds %s, not a card id" % (what, x))
    return value


def _bend(code, turn):
    if code == "S":
        return 0
    if code == "L":
        return 1
    if code == "R":
        return 2
    raise RecordError(turn, "bend %s is not S, L or R" % (code,))


def start_state(record):
    """Returns the State before the first turn from a record's header and setup, or raises
    RecordError (turn 0)."""
    if not isinstance(record, dict):
        raise RecordError(0, "a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(0, "format is %s, not %s" % (record.get("format"), FORMAT))
    mode = record.get("mode")
    if mode not in MODE_NAMES:
        raise RecordError(0, "unknown mode %s" % (mode,))
    setup = record.get("setup")
    if not isinstance(setup, dict):
        raise RecordError(0, "setup is missing")
    track = setup.get("track")
    if not isinstance(track, list):
        raise RecordError(0, "setup.track must be a list of [card, bend]")
    pairs = []
    for item in track:
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int):
            raise RecordError(0, "setup.track holds %s, not [card, bend]" % (item,))
        pairs.append((item[0], _bend(item[1], 0)))
    hands = setup.get("hands")
    if not isinstance(hands, list):
        raise RecordError(0, "setup.hands must be a list of hands")
    players = record.get("players")
    if type(players) is not int:
        raise RecordError(0, "players must be a number")
    try:
        return from_setup(
            MODE_NAMES.index(mode), players, pairs,
            _int_list(setup.get("removed"), "setup.removed", 0),
            [_int_list(h, "a hand", 0) for h in hands],
            _int_list(setup.get("deck"), "setup.deck", 0),
        )
    except RecordError:
        raise
    except ValueError as e:
        raise RecordError(0, str(e))


def replay(record, observe=None):
    """Replays a record step by step; returns the final State, or raises RecordError at the
    first step that is malformed or illegal. `observe(state, action)`, if given, is called
    before every step is applied (tools/bots/review.py walks a game that way)."""
    state = start_state(record)
    if observe is not None:
        state = _Observed(state, observe)
    rolls = record.get("rolls", [])
    turns = record.get("turns")
    if not isinstance(rolls, list) or not isinstance(turns, list):
        raise RecordError(0, "rolls and turns must be lists")
    state.start()
    used = 0
    number = 0
    for turn in turns:
        number += 1
        if state.phase == P_OVER:
            raise RecordError(number, "the game was already over")
        if not isinstance(turn, dict):
            raise RecordError(number, "a turn is a JSON object")
        try:
            used = _replay_turn(state, turn, number, rolls, used)
        except RecordError:
            raise
        except ValueError as e:  # IllegalAction and malformed ids
            raise RecordError(number, str(e))
    if state.phase != P_OVER:
        raise RecordError(number + 1, "the record ends before the game is over")
    if used != len(rolls):
        raise RecordError(number, "%d recorded rolls are left unused" % (len(rolls) - used))
    return state.state if observe is not None else state


class _Observed:
    """A State whose apply() first tells `observe` (replay's observe hook)."""

    def __init__(self, state, observe):
        self.state = state
        self.observe = observe

    def apply(self, action):
        self.observe(self.state, action)
        self.state.apply(action)

    def __getattr__(self, name):
        return getattr(self.state, name)


def _replay_turn(state, turn, number, rolls, used):
    seat = turn.get("p")
    if type(seat) is not int:  # 1.0, true and false equal seats 1, 1 and 0: not seat numbers
        raise RecordError(number, "the seat %s is not a seat's number" % (
            "true" if seat is True else "false" if seat is False else seat,))
    if seat != state.seat:
        raise RecordError(number, "it is seat %d's turn, not seat %d's" % (state.seat, seat))
    kind = turn.get("a")
    cards = turn.get("cards", [])
    if not isinstance(cards, list):
        raise RecordError(number, "cards must be a list")
    if kind == "pass":
        if cards:
            raise RecordError(number, "a pass lays no cards")
        state.apply(A_PASS)
    elif kind == "build":
        if not cards:
            raise RecordError(number, "a build lays at least one card")
        for item in cards:
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                    and 0 <= item[0] < 55):
                raise RecordError(number, "build card %s is not [card, bend]" % (item,))
            card, bend = item[0], _bend(item[1], number)
            state.apply(A_LAY + card)
            if SHAPE[card] == SHAPE_CURVE:
                if bend == BEND_S:
                    raise RecordError(number, "curve card %d needs bend L or R" % card)
                state.apply(A_BEND_L if bend == 1 else A_BEND_R)
            elif bend != BEND_S:
                raise RecordError(number, "straight card %d takes bend S" % card)
        if state.phase == P_BUILD:
            state.apply(A_STOP)
    elif kind == "chaos":
        if not cards:
            raise RecordError(number, "a chaos discard puts down at least one card")
        for card in cards:
            if type(card) is not int or not 0 <= card < 55:
                raise RecordError(number, "%s is not a card id" % (card,))
            state.apply(A_CHAOS + card)
        if state.phase == P_CHAOS:
            state.apply(A_STOP)
    else:
        raise RecordError(number, "unknown action %s" % (kind,))
    while state.phase == P_DICE:
        if used >= len(rolls):
            raise RecordError(number, "the recorded rolls ran out")
        roll = rolls[used]
        if type(roll) is not int or (roll != 0 and roll != 1):  # 1.0 and True are not rolls
            raise RecordError(number, "roll %d is %s, not 0 or 1" % (used + 1, roll))
        state.apply(A_ROLL0 + roll)
        used += 1
    order = turn.get("order", [])
    if not isinstance(order, list):
        raise RecordError(number, "order must be a list")
    for card in order:
        if state.phase != P_ORDER or state.turn != number:
            raise RecordError(number, "order lists %s but no penalty card is left to put "
                                      "down" % (card,))
        if type(card) is not int or not 0 <= card < 55:
            raise RecordError(number, "%s is not a card id" % (card,))
        state.apply(A_PILE + card)
    if state.phase == P_ORDER and state.turn == number:
        raise RecordError(number, "order leaves penalty cards %s off the pile" % state.penalty)
    return used


def check(record):
    """Returns (replayed result, None) if the record's own result agrees, else (replayed
    result, the record's result). Raises RecordError for an illegal record."""
    result = replay(record).result()
    claimed = record.get("result")
    return result, (None if claimed == result else claimed)


class Reader:
    """Reads the indices of a decision log (engine/gamelog.py) back: index(n) for a choice
    among n actions."""

    def __init__(self, data, bits):
        self.data = data
        self.bits = bits
        self.pos = 0

    def index(self, n):
        """Returns the next index below n; raises ValueError if the log ends or the index is
        not below n (a log that does not belong to this game)."""
        w = width(n)
        if self.pos + w > self.bits:
            raise ValueError("the log ends at bit %d" % self.pos)
        i = 0
        data = self.data
        for _ in range(w):
            p = self.pos
            i = (i << 1) | ((data[p >> 3] >> (7 - (p & 7))) & 1)
            self.pos = p + 1
        if i >= n:
            raise ValueError("choice %d of %d at bit %d" % (i, n, self.pos - w))
        return i

    def done(self):
        """Returns True once every bit has been read."""
        return self.pos == self.bits


def from_log(mode, seed, players, data, bits):
    """Returns the record of the finished game that `seed` and a decision log (engine/gamelog.py:
    `data` holding `bits` bits) describe: the deal and the dice drawn from Rng(seed, 0) as the
    device and engine/selfplay.py draw them, every other step read from the log. `mode` is a
    MODE_* number. Raises RecordError if the log does not lead to the end of that game."""
    chance = Rng(seed, 0)
    try:
        state = deal(mode, chance, players)
    except ValueError as e:
        raise RecordError(0, str(e))
    recorder = Recorder(state)
    state.start()
    reader = Reader(data, bits)
    while not state.is_terminal():
        if state.is_chance():
            action = state.sample_chance(chance)
        else:
            acts = state.legal_actions()
            try:
                action = acts[reader.index(len(acts))]
            except ValueError as e:
                raise RecordError(state.turn, "the log does not fit this game: %s" % e)
        recorder.apply(state, action)
    if not reader.done():
        raise RecordError(state.turn, "the game ended with %d bits of its log unread" % (
            bits - reader.pos))
    return recorder.record
