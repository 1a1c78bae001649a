"""A bot's plan and the hint: the switches made while a game is on (lnr/app.py W_THINK, W_HINT),
with the screens' code out of RAM. A module of its own, not lnr/switch.py's: these are the
app's heaviest (engine.bots, engine.ai, the hint's engine.lookahead and its copies of the State),
and the code that deals, saves and counts games (about 3 KB as .mpy) need not be in RAM beside
them (docs/memory.md)."""
from lnr import drop, drop_new, sign
from lnr.screens import W_HINT


def think(game, kind):
    """A bot's turn planned (W_THINK: game.planned; returns None) or the hint found (W_HINT:
    returns lnr/play/hintplan.py find()'s result), with the screens' code out of RAM (but for
    the play screen's view and map through a bot's plan: lnr/app.py _VIEW): engine.bots and
    engine.ai (and the hint's look-ahead) load for this moment only and are dropped after it
    (RAM, docs/memory.md: beside the play screen's code they would not fit). It takes a board up
    to 2 s in this one frame: the LEDs' thinking sign (lnr.sign()) steps as each part loads and
    every PULSE of the search's work (engine.ai set_pulse), so that no half second passes
    without it (docs/memory.md: board waits)."""
    import sys

    had = list(sys.modules)
    try:
        sign()  # this module is loaded: engine.ai next
        from engine.ai import set_pulse

        set_pulse(sign)
        sign()  # engine.ai is loaded: engine.bots and the weights next
        _one_table(game, kind)
        sign()  # the engine's modules and weights are loaded
        if kind == W_HINT:
            from lnr.play.hintplan import find

            sign()  # the look-ahead next: the hint's search (engine.bots hint), not a bot's plan
            import engine.lookahead

            sign()  # the search begins
            return find(game.state)
        game.planned = plan_turn(game)
        return None
    finally:
        from engine.ai import set_pulse  # still loaded: dropped just below

        set_pulse(None)  # told the search's last work; the LEDs not held past this frame
        sign()  # the search is done: a sign before the play screen's code loads
        drop_new(had)


def plan_turn(game):
    """Returns the actions of the bot on turn for the rest of its turn (bytes): it plays them
    on a copy of the State with a copy of the dice's generator, which rolls there what it
    will roll in the game; its own generator (game.bot_rng) is used as the game goes, once.
    Every decision is the bot's at a State the game will reach, so the game played from the
    plan is the game the bot would have played step by step (host_tests/test_app_think.py)."""
    from engine.rng import Rng

    s = game.state.clone()
    s.log = None  # the copy's decisions are the game's own: logged when the game plays them
    dice = Rng()
    dice.setstate(game.rng.getstate())
    seat = s.seat
    turn = s.turn
    bot = game.bot(seat)
    out = bytearray()
    while not s.is_terminal() and s.seat == seat and s.turn == turn:
        if s.is_chance():
            s.apply(s.sample_chance(dice))
        else:
            action = bot(s, game.bot_rng)
            out.append(action)
            s.apply(action)
    return bytes(out)


def _one_table(game, kind):
    # The `best` bot's weights for the game's mode (the hint's and a `best` bot's plan): only
    # that table is kept (engine.bots weights()), and engine.ai_weights, which holds the four
    # modes' tables, is dropped before the search (about 2 KB less beside it as .mpy).
    from engine.bots import best_bot, weights

    sign()  # engine.bots and engine.lookahead are loaded: the weights next
    s = game.state
    if kind == W_HINT or game.bot(s.seat) is best_bot:
        weights(s.mode)
        drop("engine.ai_weights")
