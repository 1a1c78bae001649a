"""A bot's turn planned in a switch (lnr/play/plan.py plan_turn, docs/memory.md: engine.bots and
engine.ai never share RAM with the play screen's code) is the turn the bot plays step by step.

The plan is made on a copy of the State with a copy of the dice's generator; the game then
plays it one action at a time (lnr/play/screen.py planned()). If the copy rolled other dice than the
game, or the bot's own generator were used twice, the game played from plans would differ from
the game the engine's bots play (engine/selfplay.py's way). Every seat here is a bot, so that
whole games of every kind of seat run without keys.
"""
import pytest

from engine.playout import play_out
from engine.state import MODE_TABLE, MODE_SOLO, MODE_CHALLENGE
from lnr import game as games
from lnr.games import new_game
from lnr.play.plan import plan_turn

SEEDS = range(1, 13)


def _roles(players, bots):
    # Every seat a bot of `bots` in turn (lnr/game.py: ROLE_BOT + its index in BOT_NAMES).
    roles = bytearray(players)
    for seat in range(players):
        roles[seat] = games.ROLE_BOT + games.BOT_NAMES.index(bots[seat % len(bots)])
    return roles


def _game(mode, seed, players, bots):
    g = new_game(mode, seed, players)
    g.roles = _roles(g.state.players, bots)
    return g


def _step_by_step(g):
    # The engine's way: each decision asked of the bot when it is due.
    return play_out(g.state, g.rng, lambda s, rng: g.bot(s.seat)(s, rng), g.bot_rng)


def _planned(g):
    # The app's way: a plan at the start of each turn, its actions played as the game goes,
    # the dice rolled by the game's own generator in between.
    s = g.state
    plans = []  # the turn each plan was made at
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.sample_chance(g.rng))
            continue
        if not g.planned:
            g.planned = plan_turn(g, None, g.bot(s.seat))
            plans.append(s.turn)
            assert g.planned, "a plan of no action for seat %d at turn %d" % (s.seat, s.turn)
        action = g.planned[0]
        g.planned = g.planned[1:]
        s.apply(action)  # raises IllegalAction if the plan were not the bot's for this State
    assert not g.planned, "actions left over after the game's end"
    return s, plans


@pytest.mark.parametrize("mode,players,bots", [
    (MODE_SOLO, None, ("best",)),
    (MODE_CHALLENGE, None, ("greedy",)),
    (MODE_TABLE, 4, ("best", "greedy", "random")),
    (MODE_TABLE, 3, ("random",)),
])
def test_a_game_played_from_plans_is_the_game_played_step_by_step(mode, players, bots):
    for seed in SEEDS:
        want = _step_by_step(_game(mode, seed, players, bots))
        got, plans = _planned(_game(mode, seed, players, bots))
        assert got == want, "seed %d: the planned game went otherwise" % seed
        assert got.log.data == want.log.data and got.log.bits == want.log.bits, seed
        # One plan per turn: a plan covers its turn to the end, dice and penalties included.
        assert len(plans) == len(set(plans)), "seed %d: a turn planned twice" % seed


def test_a_plan_ends_with_its_turn_and_leaves_the_game_untouched():
    g = _game(MODE_TABLE, 5, 3, ("best",))
    s = g.state
    before = s.clone()
    dice = g.rng.getstate()
    plan = plan_turn(g, None, g.bot(s.seat))
    assert s == before and g.rng.getstate() == dice  # worked out on copies
    turn, seat = s.turn, s.seat
    for action in plan:
        while s.is_chance():
            s.apply(s.sample_chance(g.rng))
        assert (s.turn, s.seat) == (turn, seat)
        s.apply(action)
    while s.is_chance():
        s.apply(s.sample_chance(g.rng))
    assert (s.turn, s.seat) != (turn, seat) or s.is_terminal()
