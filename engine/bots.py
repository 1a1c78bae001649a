"""Built-in players: a bot is a function (state, rng) -> action; and the hint."""
# - `random`: a legal action drawn uniformly (the baseline, and the fuzzer's player).
# - `greedy`: one turn ahead, the plan with the lowest expected score after this turn, over
#   every roll of the dice (engine.ai).
# - `best`: the same search, each outcome valued by the score after the turn plus the
#   estimate of what the rest of the game will add (engine.ai; weights per mode in
#   engine.ai_weights, loaded on first use); its few top options are then played a turn
#   further on samples of the dice and the next cards (engine.lookahead, its work capped),
#   except at the table, where the switch that plans a bot's turn on the board leaves no time.
# Every bot sees only what its seat may see and draws chance from its own rng (`greedy`
# uses none): given the same rng state, the same visible position gives the same action (at
# the table, in a build, once the decision that chose it has run: the step its plan carries).
# A bot plans the whole rest of its turn and returns its next step; the next call plans
# again from there (at the table `best` carries a build's plan: see best_bot). Elsewhere
# its look-ahead has CAP per decision (counted in engine.lookahead's units of work, so every
# runtime decides alike). hint(state) says what `best` would do at the decision at hand
# with the search that found it, which engine.advice explains (the desktop's review uses the
# same words). The desktop's deep player, engine.coach, is not here: it never goes to the
# board.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from engine.ai import Planner, WORK_CLONE, WORK_STEP, turns_left
from engine.rng import Rng
from engine.state import A_STOP, P_TURN, P_BEND, P_BUILD, P_CHAOS, P_ORDER, MODE_TABLE


def random_bot(state, rng):
    """Returns a legal action drawn uniformly (the baseline, and the fuzzer's player)."""
    actions = state.legal_actions()
    return actions[rng.randbelow(len(actions))]


def greedy_bot(state, rng):
    """Returns the next step of the plan with the lowest expected score after this turn."""
    return Planner(state).choose()


_weights = None  # (mode, its table): the one table kept, so that a device may drop the module


def weights(mode):
    """Returns the `best` bot's weight table for a mode (docs/rules.md §8). Only the last
    mode's table is kept here: a device that drops engine.ai_weights once it has asked for
    its game's table (lnr/play/plan.py) holds that one table, not all four (RAM)."""
    global _weights
    if _weights is None or _weights[0] != mode:
        from engine import ai_weights  # loaded on first use: RAM on the device

        _weights = (mode, (ai_weights.SOLO, ai_weights.CHALLENGE, ai_weights.RIVAL,
                           ai_weights.TABLE)[mode])
    return _weights[1]


# A table bot's turn may take 2 s on a SAMD51 (issue 24), and most of that is the switch that
# plans it (lnr/play/plan.py: the play screen's code dropped, the engine's loaded, and back:
# make cpcheck's board waits). So at the table `best` plays engine.ai's plan with its weights
# and no look-ahead: it does as well there as the look-ahead with its whole CAP at every
# decision (make bench --table-seeds, docs/bots.md), and a turn's look-ahead (even on its first
# decision alone, as before: 400 units, about half a second) no longer adds to the wait. And
# it plays a build's plan through: the decision that chose the build (the turn's first, or one
# in the middle of a build) carries its cards and bends up to the dice (_carry), for no chance
# comes between them. Planned anew at each card, each over all the build's dice, a long build
# took seconds (nine 4s: 6.8 s on a SAMD51). A carried step is the one the position reached
# by the plan asks for, whoever asks; the penalty cards after the dice are planned one by one.
# host_tests/test_waits.py holds every turn's work.
# In the other modes the board has no bot (the rival keeps its rules, §8): `best` plays on the
# desktop only (bench, review), with CAP at every decision, as the hint's measure.


def best_bot(state, rng):
    """Returns the next step of the plan with the best expected score after this turn plus
    the estimate of the rest of the game; away from the table, its top options checked a turn
    further on a few samples drawn with `rng` (engine.lookahead), within CAP."""
    if state.mode == MODE_TABLE:
        action = _carried.get(_position(state))
        if action is None:
            action = _plan(state)
        else:
            _work[0] = 1
        return action
    # Loaded here, not with this module: a table bot's plan on the board goes without it (RAM
    # and time, lnr/play/plan.py).
    from engine.lookahead import Search, CAP
    from engine.ntuple import tables

    search = Search(state, weights(state.mode), rng, False, CAP,
                    tables(state.mode, turns_left(state)))
    action = search.choose()
    _work[0] = search.work
    return action


def _plan(state):
    # At the table: engine.ai's plan alone, its build carried (_carry). Its lists are let go
    # before the carried build's copy of the State is made (Planner.done(): RAM).
    p = Planner(state, weights(state.mode))
    p.record = True
    action = p.choose()
    plan = p.plan
    _work[0] = p.work
    p.done()
    p = None
    _work[0] += _carry(state, action, plan)
    return action


_carried = {}  # a carried build's positions (_position) -> the plan's action there


def _position(state):
    # What tells apart the positions of a build: the turn, the seat, the phase, the track's
    # length, the curve waiting for its bend, the seat's hand.
    return (state.turn, state.seat, state.phase, len(state.track), state.pending,
            tuple(state.hands[state.seat]))


def _carry(state, action, plan):
    # Plays `plan` (a build's actions, the first `action`; None: nothing to carry) on a copy of
    # `state` up to its dice, noting the action at each position it reaches. Returns its work
    # (engine.lookahead units).
    _carried.clear()
    if not plan or plan[0] != action:
        return 0
    s = state.clone(False)
    s.apply(action)
    n = 1
    for a in plan[1:] + [A_STOP]:  # the build's cards and bends, then its dice
        if s.is_chance() or not s.is_legal(a):
            break
        _carried[_position(s)] = a
        s.apply(a)
        n += 1
    return WORK_CLONE + WORK_STEP * n


_work = [0]  # the work of `best`'s last decision


def decision_work():
    """Returns the work (engine.lookahead units) of `best`'s last decision."""
    return _work[0]


# The hint's search may take 1.5 s on a SAMD51 (UNITS_PER_S), less a margin for a planner
# that costs more than the search foresaw (host_tests/test_waits.py). It is what `best`'s search
# would do with that budget at any decision (a desktop bot's own decisions have CAP).
HINT_CAP = const(950)
# A bot's plan of its turn on the board (lnr/play/plan.py) may take what the switch that makes
# it leaves of the turn's 2 s, 0.5 s, less a margin for the planner under way as it passes:
# 0.4 s, in ticks (engine.budget UNITS_PER_S). Past it, its planners stop valuing builds
# (engine.budget late()) and the turn goes on by its first legal steps (host_tests/test_waits.py).
PLAN_CAP = const(300)
_hint = [0]  # the work of the last hint's search


def hint_work():
    """Returns the work (engine.lookahead units) of the last hint's search."""
    return _hint[0]


BOTS = {"random": random_bot, "greedy": greedy_bot, "best": best_bot}

_HUMAN_PHASES = (P_TURN, P_BEND, P_BUILD, P_CHAOS, P_ORDER)
_STREAM_HINT = const(2)  # the hint's own rng stream (engine.playout: 0 chance, 1 the bots)


def hint(state, rng=None, lookahead=True, cap=HINT_CAP):
    """Returns (action, search): what `best` would do now, and the engine.lookahead Search that
    chose it, its options kept, from which engine.advice says why; (None, None) where nobody
    decides (dice, game over, the rival). Without `rng`, the look-ahead draws from a stream of
    its own seeded by the turn's number, so that asking twice gives the same hint. Without
    `lookahead`: engine.ai's Planner alone, its options kept (a device short of heap:
    lnr/play/plan.py). `cap`: the look-ahead's samples' budget (engine.lookahead Search), less
    than HINT_CAP where the board's switch leaves less of the hint's wait (lnr/play/plan.py); its
    first plan, engine.ai's, is made whatever the cap. Without `best`'s learned tables
    (engine.ntuple): on the board their code and blocks would take the room it keeps at the
    hint (docs/bots.md)."""
    if state.phase not in _HUMAN_PHASES or state.is_rival(state.seat):
        return None, None
    if not lookahead:
        p = Planner(state, weights(state.mode))
        p.options = {}
        action = p.choose()
        _hint[0] = p.work
        return action, p
    if rng is None:
        rng = Rng(state.turn, _STREAM_HINT)
    from engine.lookahead import Search, forget

    search = Search(state, weights(state.mode), rng, True, cap)
    action = search.choose()
    _hint[0] = search.work
    forget()  # the search's spare objects go before the words load (RAM)
    return action, search
