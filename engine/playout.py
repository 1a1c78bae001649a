"""A game played forward, step by step: the one loop of every whole game the tools, the VM checks
and the tests play (engine.selfplay, tools/bots/bench.py, tools/bots/tune.py, ...).

A seeded game (docs/rules.md §10) draws its setup and its dice from stream STREAM_CHANCE of the
seed and its bots' choices from stream STREAM_BOT, so that two bots given the same seed face the
same deck and the same dice. steps() takes the steps that are no seat's choice (a die drawn
from the chance stream, the rival's fixed rules, §8) and leaves the caller to apply every
step: through the State, a Recorder, a timer or a check, as it needs.

The board's app does not import this module (it plays its steps one frame at a time), so it
costs the board no RAM; tools/vm/membudget puts it in the VM's tree beside the board's modules.
"""
from engine.codes import P_SETUP
from engine.rng import Rng
from engine.deal import deal

STREAM_CHANCE = 0
STREAM_BOT = 1
DECIDE = -1  # steps(): the seat to move decides, and no bot was given


def seeded(mode, seed, players=None):
    """Returns (state, chance, rng) of game `seed` of `mode` (a MODE_* number): the State as
    deal() sets it up (not yet started), the chance Rng its dice are drawn from, and the bots'
    own Rng."""
    chance = Rng(seed, STREAM_CHANCE)
    return deal(mode, chance, players), chance, Rng(seed, STREAM_BOT)


def steps(state, chance, bot=None, rng=None):
    """Yields the action of each step of `state` until the game is over, for the caller to
    apply before it asks for the next: a die drawn from `chance`, the rival's action (§8), and
    for the seat to move bot(state, rng), or DECIDE without a bot (the caller decides). A
    State just dealt is started first (§4: seat 0 draws)."""
    if state.phase == P_SETUP:
        state.start()
    while not state.is_terminal():
        if state.is_chance():
            yield state.sample_chance(chance)
        elif state.is_rival(state.seat):
            yield state.rival_action()
        elif bot is None:
            yield DECIDE
        else:
            yield bot(state, rng)


def play_out(state, chance, bot, rng):
    """Plays `state` to the end, every seat to move played by bot(state, rng); returns it."""
    for action in steps(state, chance, bot, rng):
        state.apply(action)
    return state
