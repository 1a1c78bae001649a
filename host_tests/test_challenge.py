"""`best` in a challenge (docs/rules.md §8: the turn of the 4th derailment ends the game, lost),
and the hint that follows it (issue 35 row 3).

Once 3 derailments are spent, `best` and its hint take no plan that can derail: a pass never
can, and a build only where its dice can outnumber the cards ahead (§5). Before, engine.ai
weighed a lost challenge as 40 points more, so on a last turn with a big hand it dumped the hand
on a build certain to derail and lost the game to lower its score.
"""
from engine.ai import Planner
from engine.bots import best_bot, hint, weights
from engine.playout import DECIDE, seeded, steps
from engine.rng import Rng
from engine.state import MODE_CHALLENGE, P_TURN, CHALLENGE_DERAILS

SEEDS = range(1, 13)


def _positions(first_turn):
    # Every turn's start from `first_turn` on of `best`'s challenge games, as a copy with 3
    # derailments spent (the deal, the track and the hand as they stand: reachable with 3
    # derailments behind them), with the game's chance stream and the bot's rng at that point.
    for seed in SEEDS:
        state, chance, rng = seeded(MODE_CHALLENGE, seed)
        for action in steps(state, chance):
            if action == DECIDE:
                if state.phase == P_TURN and state.turn >= first_turn:
                    t = state.clone()
                    t.derails = CHALLENGE_DERAILS - 1
                    c = Rng(0)
                    c.setstate(chance.getstate())
                    yield seed, t, c, rng
                action = best_bot(state, rng)
            state.apply(action)


def test_best_never_risks_the_4th_derailment():
    # From each position with 3 derailments spent, `best` plays the game out with its dice:
    # it never loses (§8), whatever its hand.
    played = 0
    for seed, t, chance, rng in _positions(30):
        for action in steps(t, chance, best_bot, rng):
            t.apply(action)
        assert not t.lost, (seed, t.turn)
        played += 1
    assert played >= 50


def test_the_hint_never_risks_the_4th_derailment():
    # The hint's first step at each such position begins no plan that can derail (engine.ai's
    # options: each first action's best plan, its chance of derailing exact over the dice).
    checked = 0
    for seed, t, chance, rng in _positions(34):
        action = hint(t)[0]
        p = Planner(t, weights(t.mode))
        p.options = {}
        p.choose()
        o = p.options.get(action)
        assert o is None or o[1] == 0, (seed, t.turn, action, o)
        checked += 1
    assert checked >= 30
