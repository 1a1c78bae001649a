"""lnr/play/run.py through its own functions (start_roll, roll_step, start_run, run_step) on a
real play screen (a headless run's: tools.sim.simulator): the dice rolled one a step with the
game's own generator, and the loco's run shown step by step as docs/rules.md §4 to §6 play it:
a step onto each card, a broken card flashing (D1), a derailment blinking beside the track's end
(§5), each penalty card framed as it leaves the track's start (§6), and the run over after
exactly those steps, its waits the ones tools/sim/app_script.py's model of the app counts. The
run as a player sees it is test_app_play.py's and test_app_shown.py's."""
import pytest

from engine.rng import Rng
from engine.deal import deal
from engine.state import A_CHAOS, A_LAY, A_PASS, A_ROLL0, P_DICE, P_TURN, MODE_SOLO
from helpers import app_in_a_game
from lnr import sprites
from lnr.play import run
from lnr.play.view import S_ROLL, S_RUN
from tools.sim.app_script import FRAME_MS, run_frames


@pytest.fixture(scope="module")
def app():
    return app_in_a_game()


def moves(seeds):
    """Yields (State before, State after) for every loco-moving action of solo games played by
    random legal choices: a pass (§4) and a build's last die (the run follows its dice)."""
    for seed in seeds:
        chance = Rng(seed, 0)
        pick = Rng(seed, 5)
        s = deal(MODE_SOLO, chance)
        s.start()
        while not s.is_terminal():
            if s.is_chance():
                last = s.phase == P_DICE and s.dice_left == 1
                before = s.clone(log=False) if last else None
                s.apply(s.sample_chance(chance))
                if last:
                    yield before, s
                continue
            acts = s.legal_actions()
            a = acts[pick.randbelow(len(acts))]
            before = s.clone(log=False) if a == A_PASS and s.phase == P_TURN else None
            s.apply(a)
            if before is not None:
                yield before, s


def test_every_run_takes_the_steps_the_rules_make_and_the_model_counts(app):
    """Invariants at every step of every run of 30 random games: the loco moves one card a
    step, blinks only on a broken card (D1) or beside the end once derailed (§5), the
    penalty cards leave one a step (§6); the run is over (True) after exactly the model's
    frames, its waits summed, and lets its track go."""
    play = app.play
    runs = derails = broken = penalties = 0
    for before, after in moves(range(30)):
        play.game.state = after
        play.game.actor = after.seat if after.phase != P_TURN else before.seat
        keep = (before.cells[:], before.bends[:], before.loco)
        play.running = run
        waited = 0
        over = run.start_run(play, keep, None, False)
        steps = 0
        blinks = {1: 0, 2: 0}
        at = before.loco
        while not over:
            assert play.step == S_RUN
            waited += play.due - play.app.now
            steps += 1
            if play.blink:
                blinks[play.blink] += 1
            if 0 < steps <= after.moved + 1 and play.run_at != len(play.run_track):
                assert play.run_at == at + steps - 1  # one card a step, from where it stood
            over = run.run_step(play)
        assert play.run_track is None  # let go
        frames = run_frames(after)
        assert steps == 1 + after.moved + (1 if after.derail_left else 0) + (
            after.taken + 1 if after.taken else 0)
        assert -(-waited // FRAME_MS) <= frames and waited > (frames - steps) * FRAME_MS
        assert blinks[1] == after.hits and blinks[2] == (1 if after.derail_left else 0)
        runs += 1
        derails += after.derail_left > 0
        broken += after.hits > 0
        penalties += after.taken > 0
    # The games met every kind of step, so each invariant above was put to the test.
    assert runs > 100 and derails and broken and penalties


def test_the_dice_roll_one_a_step_from_the_games_generator(app):
    """A build's dice (§4): start_roll shows each die still to roll, roll_step draws one from
    the game's generator and shows it (A_ROLL0 + 0 or 1 wheel), and after the last the run
    begins with the wheels in its toast and the build in the result's title."""
    play = app.play
    g = play.game
    seen = set()
    for seed in range(12):
        s = deal(MODE_SOLO, Rng(seed, 0))
        s.start()
        # A build: the first card the hand may lay (its bend the first offered), its dice.
        s.apply(next(a for a in s.legal_actions() if A_LAY <= a < A_CHAOS))
        while s.phase != P_DICE:
            acts = s.legal_actions()
            s.apply(acts[0] if len(acts) == 1 else next(a for a in acts if a < A_LAY))
        g.state = s
        n = s.dice_left
        twin = s.clone(log=False)
        rng = Rng(seed, 2)
        g.rng = Rng(seed, 2)
        play.running = run
        run.start_roll(play)
        assert play.step == S_ROLL and play.dice == [] and play.dice_total == n
        cards = app.ui.cards
        assert [cards[i % 8, i // 8] for i in range(n)] == [sprites.T_DIE + 2] * n  # to roll
        for k in range(n):
            action = twin.sample_chance(rng)
            twin.apply(action)
            run.roll_step(play)
            assert play.dice[k] == action - A_ROLL0
            assert cards[k % 8, k // 8] == sprites.T_DIE + play.dice[k]
            seen.add(play.dice[k])
        assert s == twin and play.step == S_RUN  # the run waits while every die shows
        assert ("%d wheel" % sum(play.dice)) in g.title
    assert seen == {0, 1}  # both faces met
