"""A bot's plan and the hint: the switches made while a game is on (lnr/memory: W_PLAN,
W_HINT), with the screens' code out of RAM. A module of its own, not lnr/games.py's: these are
the app's heaviest (engine.bots, engine.ai, the hint's engine.lookahead and its copies of the
State), and the code that deals, saves and counts games need not be in RAM beside them
(docs/memory.md).

Each stops by the board's own clock (engine.budget set_clock, from the profile's monotonic_ns():
the hint at engine.bots HINT_CAP ticks, a bot's plan at PLAN_CAP), so a board slower or faster
than the estimate keeps the same wait; where the profile has no clock (the desktop's default),
the work the search counts is its clock, the same on every runtime. Short of heap, each goes on
lighter (lnr/memory turn_down()): the hint without its look-ahead, then none; a bot's plan
without its weights (`greedy`), then its first legal steps."""
import sys

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from engine.state import A_STOP, P_DICE  # folded into this module (tools/flash/fold.py)
from lnr.memory import drop, drop_since, empty, forget, sign, turn_down, DOWN, LOOKAHEAD
from lnr.memory import HINT, WEIGHTS
from lnr.memory import PLAN, FIGURES, F_WORK, F_NS, F_BACK, F_WORDS, VIEW
from lnr.screens import SC_PLAY, W_HINT, W_PLAN

# The hint's wait on the board's clock, from its key to its panel up (issue 38's goal): its
# search gets what the rest of the switch leaves of it (_hint_cap()).
HINT_MS = const(1500)
_MASK = const(0x1FFFFFFF)  # the board's ticks_ms() wraps at 2**29

# The modules an attempt may load (the bots', the search's, the hint's words): what a failed
# import of one leaves is let go (lnr.memory forget()) before a lighter attempt.
_CODE = ("engine.budget", "engine.tops", "engine.ai", "engine.ai_weights", "engine.bots",
         "engine.lookahead", "lnr.play.hintplan", "engine.advice", "engine.explain",
         "engine.codes")

# What the screen says of each feature turned down (a toast's 18 characters).
_SAID = {LOOKAHEAD: "Hints simpler now", HINT: "Hints off (memory)",
         WEIGHTS: "Bots simpler now", PLAN: "Bots play basic"}


def go(app):
    """Makes the work of the switch app.want asks for: a bot's turn planned (W_PLAN:
    app.game.planned) or the hint found (W_HINT: lnr/play/hintplan.py explain()'s result, None
    for none, False where the hint is turned down, which lnr/play/hint.py says); app.next is then
    the play screen to come back with it (lnr/memory/switch.py arrive()). The screens' code is out
    of RAM (but for the play screen's view and map through a bot's plan: lnr/memory VIEW):
    engine.bots and engine.ai (and the hint's look-ahead) load for this moment only and are
    dropped after it (RAM, docs/memory.md: beside the play screen's code they would not fit). It
    takes a board up to 2 s in this one frame: the LEDs' sign steps as each part loads and every
    SIGN_WORK of the search's work (engine.budget set_sign), so that no half second passes without
    it (docs/memory.md: board waits).

    Short of heap, it goes on lighter, rung by rung: the hint without its look-ahead
    (LOOKAHEAD turned down), then none (HINT); a bot's plan without the view it keeps (the play
    screen loads it again after: a slower switch, the same plan, nothing said), then by
    `greedy` (WEIGHTS), then by its first legal steps (PLAN)."""
    kind = app.want[0]
    game = app.game
    had = list(sys.modules)
    ns = getattr(app.hw, "monotonic_ns", None)  # the board's clock (lnr/boards)
    start = ns() if ns is not None else 0
    found = None
    try:
        # -1: a bot's plan beside the view; 0: the lightest, which loads nothing.
        for rung in ((LOOKAHEAD, HINT, 0) if kind == W_HINT else (-1, WEIGHTS, PLAN, 0)):
            # A feature turned down stays down: bots said to play simpler do so to the end.
            if DOWN[0] & (WEIGHTS if rung < 0 else rung):
                continue
            rng = game.bot_rng.getstate()
            try:
                found = _run(app, kind, rung, ns, start, had)
                break
            except MemoryError:
                if not rung:
                    raise
                game.bot_rng.setstate(rng)  # the attempt's draws undone: the plan is the bot's
                # The attempt's code and objects go before a lighter one, and after a plan
                # beside the view, the view (not the game's own code: engine.risk). No list is
                # made for it: the heap is full of what is to go (random sessions on
                # CircuitPython's VM at 85 KB met a MemoryError here making one).
                drop_since(had)
                forget(*_CODE)
                if rung < 0:
                    for name in VIEW:
                        if name in sys.modules and name not in app.game_code:
                            empty(sys.modules[name])
                if rung > 0:
                    turn_down(rung, _SAID[rung])
    finally:
        if "engine.budget" in sys.modules:
            from engine import budget  # still loaded: dropped just below

            if ns is not None:  # the board's pace, for its report (lnr/memory)
                FIGURES[F_WORK] += budget.spent()
                FIGURES[F_NS] += ns() - start
            budget.set_clock(None)
            budget.set_sign(None)  # given the search's last work; the LEDs not held past it
            budget = None
        sign()  # the search is done: a sign before the play screen's code loads
        drop_since(had)
    app.next = (SC_PLAY, (kind, found))


def _run(app, kind, feature, ns, start, had):
    # One attempt: the hint with its look-ahead (LOOKAHEAD), from engine.ai's plan alone (HINT)
    # or none (0: False); a bot's plan by its own bot (-1, WEIGHTS), by `greedy` (PLAN) or by
    # the first legal steps (0).
    game = app.game
    if not feature:  # the lightest: loads none of the bots' code
        if kind == W_HINT:
            return False
        game.planned = plan_turn(game, None, None)
        return None
    sign()  # engine.ai next
    from engine.budget import set_sign, set_clock, UNITS_PER_S

    set_sign(sign)
    clock = None
    if ns is not None:
        tick = 1000000000 // UNITS_PER_S

        def clock():
            return (ns() - start) // tick  # a small int: ticks since the switch began

    if kind == W_HINT:
        from engine.ai import follow
        from engine.bots import HINT_CAP, hint, weights

        _one_table(game.state.mode)
        sign()  # the search begins
        set_clock(clock, HINT_CAP)
        cap = HINT_CAP if ns is None else _hint_cap(app)
        s = game.state
        try:
            options = values = None
            steps = b""
            if s.phase == P_DICE and s.dice_left == s.build_sum:
                action = A_STOP  # a person's dice wait: rolling is the move
            else:
                action, search = hint(s, None, feature == LOOKAHEAD, cap)
                if action is None:
                    return None
                options = search.options
                values = getattr(search, "values", None)  # an engine.ai Planner keeps none
                search = None
            searched = app.hw.ticks_ms()  # the search is done: from here the hint is named
            if options is not None:
                steps = follow(s, action, weights(s.mode))  # the table the search played with
        except MemoryError:
            raise
        except Exception:  # noqa: BLE001 - a hint must never end the game
            return None
        # The search's code (engine.ai, the app's biggest) goes before the words' loads (RAM:
        # lnr/play/hintplan.py); engine.budget stays for go()'s figures.
        hint = follow = weights = None
        drop_since(had + ["engine.budget"])
        from lnr.play.hintplan import explain

        found = explain(s, action, options, values, steps)
        ms = (app.hw.ticks_ms() - searched) & _MASK  # the plan followed, the words made
        if ms > FIGURES[F_WORDS]:
            FIGURES[F_WORDS] = ms
        return found
    if feature == PLAN:
        from engine.bots import BOTS

        bot = BOTS["greedy"]
    else:
        bot = game.bot(game.state.seat)
    game.planned = plan_turn(game, clock, bot)
    return None


def _hint_cap(app):
    # The hint's search's budget in ticks (engine.budget UNITS_PER_S) on the board's clock: what
    # HINT_MS leaves once the switch has run so far (since the key: leave() noted app.began) and
    # the board has named a hint and loaded the play screen's code as slowly as it did at its
    # slowest (FIGURES: until it has named one, half the load stands for the words, which load
    # a quarter as much code and follow the plan a few planners on). Never over HINT_CAP; 0
    # leaves engine.ai's plan alone (engine.bots hint()).
    from engine.bots import HINT_CAP
    from engine.budget import UNITS_PER_S

    back = FIGURES[F_BACK]
    left = HINT_MS - ((app.hw.ticks_ms() - app.began) & _MASK) - back
    left -= FIGURES[F_WORDS] or back // 2
    if left <= 0:
        return 0
    cap = left * UNITS_PER_S // 1000
    return cap if cap < HINT_CAP else HINT_CAP


def plan_turn(game, clock, bot):
    """Returns the actions of the bot on turn for the rest of its turn (bytes): `bot` (a
    function of engine.bots, or None: the first legal action) plays them on a copy of the
    State with a copy of the dice's generator, which rolls there what it will roll in the
    game; its own generator (game.bot_rng) is used as the game goes, once. Every decision is
    the bot's at a State the game will reach, so the game played from the plan is the game
    the bot would have played step by step (host_tests/test_app_plan.py). Past PLAN_CAP ticks
    of `clock` (engine.budget set_clock) its planners stop valuing builds, and the turn goes on by
    its first legal steps."""
    from engine.rng import Rng

    timed = bot is not None
    if timed:  # the lightest rung (no bot) loads none of the bots' code
        from engine.budget import set_clock, late
        from engine.bots import PLAN_CAP, best_bot

        if bot is best_bot:
            _one_table(game.state.mode)
        set_clock(clock, PLAN_CAP)
    s = game.state.clone(False)  # its decisions are the game's: logged as the game plays them
    dice = Rng()
    dice.setstate(game.rng.getstate())
    seat = s.seat
    turn = s.turn
    out = bytearray()
    while not s.is_terminal() and s.seat == seat and s.turn == turn:
        if s.is_chance():
            s.apply(s.sample_chance(dice))
        else:
            if not timed or late():  # no bot, or past its time: the first legal step
                action = s.legal_actions()[0]
            else:
                action = bot(s, game.bot_rng)
            out.append(action)
            s.apply(action)
    return bytes(out)


def _one_table(mode):
    # The `best` bot's weights for the game's mode (the hint's and a `best` bot's plan): only
    # that table is kept (engine.bots weights()), and engine.ai_weights, which holds the four
    # modes' tables, is dropped before the search (about 2 KB less beside it as .mpy).
    from engine.bots import weights

    sign()  # engine.bots and engine.ai are loaded: the weights next
    weights(mode)
    drop("engine.ai_weights")
