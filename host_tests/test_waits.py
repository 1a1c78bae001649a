"""No frozen screen (issue 24): a table bot's whole turn within 2 s on a SAMD51, the hint within
1.5 s, and never more than 0.5 s with no sign of life on the LEDs while either thinks.

Held on the work the search counts (engine.lookahead's units, UNITS_PER_S of them a second on a
SAMD51, as its CAP was set), not on a clock: the count is the same on every run and every
runtime, so the test does not flake on a loaded machine, and it is what the budgets are made of.
`make cpcheck` prints the times the same session takes on CircuitPython's VM
(`board waits (SAMD51 estimate): ...`)."""
import pytest

from engine.bots import best_bot, decision_work, hint, hint_work
from engine.ai import set_pulse
from engine.lookahead import UNITS_PER_S
from engine.playout import seeded, steps
from engine.state import MODE_NAMES

TURN_MS = 2000  # a bot's whole turn
HINT_MS = 1500  # the hint
SIGN_MS = 500  # the longest wait with no sign of thinking


def ms(work):
    return work * 1000 // UNITS_PER_S


@pytest.fixture
def pulses():
    gaps = []
    set_pulse(gaps.append)
    yield gaps
    set_pulse(None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_table_bots_turn_fits_its_budget(players, pulses):
    """Every turn of `best` at the table (8 seeds): its decisions together within TURN_MS, the
    LEDs stepped at least every SIGN_MS of it; and the look-ahead still uses most of it."""
    turns = {}
    for seed in range(8):
        state, chance, rng = seeded(MODE_NAMES.index("table"), seed, players)
        for action in steps(state, chance, best_bot, rng):
            key = (seed, state.seat, state.turn)
            decides = not state.is_chance()
            state.apply(action)
            if decides:
                turns[key] = turns.get(key, 0) + decision_work()
    worst = max(turns.values())
    assert ms(worst) <= TURN_MS, (players, worst, [k for k in turns if turns[k] == worst])
    assert ms(worst) > TURN_MS // 2, worst  # the look-ahead still uses the time it has
    assert pulses and ms(max(pulses)) <= SIGN_MS, max(pulses)


def test_the_hint_fits_its_budget():
    """The hint's search at every decision of seat 0 in a few games of each mode: within
    HINT_MS, the LEDs stepped at least every SIGN_MS (the pulse set afresh for each hint, as
    lnr/think.py does for the frame that finds it)."""
    most = 0
    pulses = []
    for mode in ("solo", "challenge", "table"):
        for seed in range(2):
            state, chance, rng = seeded(MODE_NAMES.index(mode), seed)
            for action in steps(state, chance, best_bot, rng):
                if state.seat == 0 and not state.is_chance() and state.turn % 3 == 0:
                    set_pulse(pulses.append)
                    hint(state)
                    set_pulse(None)
                    most = max(most, hint_work())
                state.apply(action)
    assert 0 < ms(most) <= HINT_MS, most
    assert ms(max(pulses)) <= SIGN_MS, max(pulses)

