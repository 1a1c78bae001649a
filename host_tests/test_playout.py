"""engine/playout.py: the one loop that plays a game forward (chance, the rival, the seat to
move), over seeded games of every mode."""
import pytest

from engine.bots import BOTS
from engine.codes import A_ROLL0, A_ROLL1, P_SETUP
from engine.playout import DECIDE, play_out, seeded, steps
from engine.rng import Rng
from engine.selfplay import play
from engine.deal import deal
from engine.state import MODE_NAMES

CONFIGS = [(0, None), (1, None), (2, None), (3, 2), (3, 3), (3, 4)]


@pytest.mark.parametrize("mode,players", CONFIGS)
def test_each_step_is_chance_the_rival_or_the_seat_to_move(mode, players):
    # A die where the next step is one (§1), the rival's own choice on its seat (§8), DECIDE
    # for every other seat; every step until the game is over (§7), and none after.
    for seed in range(8):
        s, chance, rng = seeded(mode, seed, players)
        assert s.phase == P_SETUP  # dealt, not started: a Recorder sees the setup
        kinds = set()
        for action in steps(s, chance):
            assert not s.is_terminal()
            if s.is_chance():
                assert action in (A_ROLL0, A_ROLL1)
                kinds.add("die")
            elif s.is_rival(s.seat):
                assert action == s.rival_action()
                kinds.add("rival")
            else:
                assert action == DECIDE
                kinds.add("seat")
                action = BOTS["random"](s, rng)
            s.apply(action)
        assert s.is_terminal()
        assert kinds == ({"die", "rival", "seat"} if mode == 2 else {"die", "seat"})


@pytest.mark.parametrize("mode,players", CONFIGS)
def test_a_seeded_game_is_the_game_of_its_seed(mode, players):
    # §10: the deal and the dice come from stream 0 of the seed, the bots' choices from stream
    # 1; play_out() with a bot is steps() with the caller asking the same bot; and the record
    # engine.selfplay writes from the same loop replays to the same end.
    for seed in range(4):
        s, chance, rng = seeded(mode, seed, players)
        assert s == deal(mode, Rng(seed, 0), players)
        a = play_out(s, chance, BOTS["greedy"], rng)
        b, chance, rng = seeded(mode, seed, players)
        for action in steps(b, chance):
            b.apply(BOTS["greedy"](b, rng) if action == DECIDE else action)
        assert a == b and a.result() == b.result()
        assert play(MODE_NAMES[mode], seed, players, "greedy")["result"] == a.result()


def test_another_seed_is_another_game():
    # The check above could pass with a loop that ignored its rngs: two seeds must differ.
    ends = []
    for seed in (1, 2):
        s, chance, rng = seeded(0, seed)
        ends.append(play_out(s, chance, BOTS["random"], rng))
    assert ends[0] != ends[1]
