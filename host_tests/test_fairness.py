"""Fair by construction: every bot decides from what its seat may see (its hand, the track, the
piles, how many cards are left, the derailments) and its own random stream, never from the
cards it cannot see (docs/rules.md §3.4: the cards removed at setup; §3: the deck's order; §3.5:
the other hands). At every decision of a few games of each mode, the unseen cards are dealt
again in a copy of the state, in a different order; given the same rng state, the bot must
take the same action and draw the same numbers from its rng."""
import pytest

from engine.bots import BOTS, hint
from engine.coach import Coach, ntuple_tables
from engine.playout import DECIDE, seeded, steps
from engine.rng import Rng
from engine.state import MODE_NAMES, REMOVED_AT_SETUP

CONFIGS = [("solo", None), ("challenge", None), ("rival", None), ("table", 3)]


def coach_bot(state, rng):
    # The coach with 2 samples per option: the same code as with its SAMPLES (engine/coach.py),
    # fast enough for a test.
    return Coach(state, rng, samples=2, first=2).choose()


def peeking_bot(state, rng):
    # The wrong way to sample the unseen cards: from the deck's real order, shuffled.
    cards = state.deck[:]
    rng.shuffle(cards)
    actions = state.legal_actions()
    return actions[cards[0] % len(actions)] if cards else actions[0]


def coach_ntuple_bot(state, rng):
    # The same coach valuing with engine.ntuple's tables (in solo; elsewhere none).
    return Coach(state, rng, samples=2, first=2, tables=ntuple_tables(state.mode)).choose()


def coach_best_bot(state, rng):
    # The coach whose samples play the seat by `best` (compare's coach-best), with a smaller
    # search than the hint's a decision: the same code, fast enough for a test.
    return Coach(state, rng, samples=2, first=2, searched=300).choose()


ALL = dict(BOTS, coach=coach_bot)


def redealt(state, seed):
    """Returns a copy of `state` with every card the seat to move cannot see (the deck, the
    cards removed at setup, the other hands) dealt again in another order."""
    c = state.clone()
    removed = REMOVED_AT_SETUP[c.players]
    others = [i for i in range(c.players) if i != c.seat]
    cards = c.deck + c.box[:removed]
    for i in others:
        cards += c.hands[i]
    Rng(seed, 7).shuffle(cards)
    c.deck = cards[:len(c.deck)]
    k = len(c.deck)
    c.box = cards[k:k + removed] + c.box[removed:]
    k += removed
    for i in others:
        c.hands[i] = cards[k:k + len(c.hands[i])]
        k += len(c.hands[i])
    return c


def unfair_steps(bot, mode, players, seed):
    """Plays a game with `bot` (every seat but the rival); returns (decisions, the decisions
    where the redealt copy got another action or another use of the rng)."""
    s, chance, rng = seeded(MODE_NAMES.index(mode), seed, players)
    n = 0
    bad = []
    for action in steps(s, chance):
        if action != DECIDE:
            s.apply(action)
            continue
        other = redealt(s, 1000 * seed + n)
        assert other.deck + other.box != s.deck + s.box  # the hidden cards did move
        r1 = Rng()
        r1.setstate(rng.getstate())
        r2 = Rng()
        r2.setstate(rng.getstate())
        a1 = bot(s, r1)
        a2 = bot(other, r2)
        if a1 != a2 or r1.getstate() != r2.getstate():
            bad.append((s.turn, s.phase, a1, a2))
        rng.setstate(r1.getstate())
        s.apply(a1)
        n += 1
    return n, bad


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("mode,players", CONFIGS)
def test_board_bots_decide_alike_whatever_the_unseen_cards(name, mode, players):
    total = 0
    for seed in (3, 4, 5):
        n, bad = unfair_steps(ALL[name], mode, players, seed)
        assert bad == [], (name, mode, seed, bad[:5])
        total += n
    assert total > 40  # (a challenge `greedy` plays ends early: §8)


@pytest.mark.parametrize("mode,players", CONFIGS)
def test_the_coach_decides_alike_whatever_the_unseen_cards(mode, players):
    n, bad = unfair_steps(coach_bot, mode, players, 5)
    assert n > 30
    assert bad == [], (mode, bad[:5])


def test_the_ntuple_coach_decides_alike_whatever_the_unseen_cards():
    # Its tables look up the seat's own hand and the track (engine.ntuple), never a hidden card.
    n, bad = unfair_steps(coach_ntuple_bot, "solo", None, 5)
    assert n > 30
    assert bad == [], bad[:5]


def _hint_and_why(s):
    # The hint's action and its words (engine.advice), from what the seat may see.
    from engine.advice import why

    action, search = hint(s)
    if search is None:
        return action
    return action, why(s, action, search.options, search.values)


def test_the_hint_is_the_same_whatever_the_unseen_cards():
    # The hint (engine.bots.hint) draws from its own stream, seeded by the turn's number; its
    # words say nothing the seat may not see.
    n = 0
    for mode, players in CONFIGS:
        for s in _positions(mode, players, 6):
            assert _hint_and_why(s) == _hint_and_why(redealt(s, n)), (mode, s.turn, s.phase)
            n += 1
    assert n > 100


def test_the_check_catches_a_sampler_that_starts_from_the_real_deck():
    # The check can fail: shuffling the deck as it lies, not from a canonical order, leaks
    # its order into the decision.
    n, bad = unfair_steps(peeking_bot, "solo", None, 3)
    assert len(bad) > n // 4  # (many steps have a single legal action)


def _positions(mode, players, seed):
    s, chance, rng = seeded(MODE_NAMES.index(mode), seed, players)
    for action in steps(s, chance):
        if action == DECIDE:
            yield s
            action = BOTS["best"](s, rng)
        s.apply(action)


def test_the_coach_with_best_in_its_samples_decides_alike_whatever_the_unseen_cards():
    # `best` in its samples draws from the sample's own unseen cards (engine.lookahead unseen),
    # which the coach dealt from the canonical order with its own rng, never the real ones.
    n, bad = unfair_steps(coach_best_bot, "solo", None, 5)
    assert n > 30
    assert bad == [], bad[:5]
