"""The hint (lnr/hint.py, START then Hint): engine.bots.hint(state) may have nothing to say
(it returns (None, "") where nobody decides, e.g. while the dice wait to be rolled); the app
then says so and the game goes on, as when the hint fails.
"""
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools import sim, sim_fast  # noqa: E402
from tools.app_script import Model  # noqa: E402
from engine.cards import KIND, KIND_CHAOS  # noqa: E402
from engine.state import A_LAY, MODE_SOLO, P_DICE  # noqa: E402
from lnr.hud import S_HAND  # noqa: E402

HINT = ["START", "DOWN", "DOWN", "DOWN", "A", "WAIT*5"]  # the action menu's 4th item


@pytest.mark.parametrize("answer", ["nothing", "raises"])
def test_a_hint_with_nothing_to_say_keeps_the_game_going(monkeypatch, answer):
    import engine.bots

    def hint(state):
        if answer == "raises":
            raise RuntimeError("no plan")
        return None, ""

    monkeypatch.setattr(engine.bots, "hint", hint, raising=False)
    # A build whose dice wait to be rolled (seed 5: a card that takes the build to P_DICE).
    m = Model(MODE_SOLO, 5)
    s = m.state
    for c in s.hands[0]:
        t = s.clone()
        if KIND[c] != KIND_CHAOS and t.is_legal(A_LAY + c):
            t.apply(A_LAY + c)
            if t.phase == P_DICE:
                break
    else:
        pytest.fail("no card of seed 5's first hand goes straight to its dice: pick another seed")
    i = s.hands[0].index(c)
    with sim_fast.fast():
        r = sim.run_headless(m.keys + ["RIGHT"] * i + ["A"] + HINT, seed=5)
    assert r.ok, r.error
    app = r.app
    assert app.game.state == t  # nothing changed
    assert app.play.step == S_HAND
    assert app.ui.toast.text.rstrip() == "No hint now" and not app.ui.toast.grid.hidden
