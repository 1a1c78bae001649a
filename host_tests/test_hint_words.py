"""The hint's words (issue 35): every hint fits its box, and says why.

Rows 4 and 14 of issue 35: a build's cards ran past the panel ("Lay 3 curve right, then 3
curve up, 3 curve right, 3 curve"), and "No hint now" stood where rolling the dice was the
move. Here the bench's games (tools/bots/bench.py: `best` on the reported seeds, the person's
seat at every decision, and a hot-seat table of 3) ask for the hint at every decision, the
play screen draws it (lnr/play/hint.py on the app's own panel), and every line must lie within
the panel's box at 1x: terminalio's font is 6x12 fixed width, so a line of n characters is 6n
pixels from its label's x, and the box's border is as wide on the right as the text's margin
on the left. Row 12: a build says what a derailment would cost against the pass, a pass what it
costs against the safest build; row 14: never a risk under a pass without what it is of.
"""
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.bots import seeds  # noqa: E402
from engine.bots import best_bot  # noqa: E402
from engine.playout import DECIDE, seeded, steps  # noqa: E402
from engine.cards import KIND, SHAPE, KIND_BROKEN, SHAPE_CURVE, card_name  # noqa: E402
from engine.state import (  # noqa: E402
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, P_BEND, P_DICE, P_TURN, MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL,
    MODE_TABLE,
)
import lnr.ui  # noqa: E402
from lnr.game import Game, ROLE_HUMAN, ROLE_RIVAL  # noqa: E402
from lnr.play import hint  # noqa: E402
from tools.sim import hints  # noqa: E402
from lnr.ui import GLYPH_W, PANEL_LINES  # noqa: E402

GAMES = 20  # seeded games per mode, the first of the reported range (the bench's)
NAV = {MODE_SOLO: ["A", "A"], MODE_CHALLENGE: ["A", "DOWN", "A"],
       MODE_RIVAL: ["A", "DOWN", "DOWN", "A"],
       MODE_TABLE: ["A", "DOWN", "DOWN", "DOWN", "A", "RIGHT", "DOWN", "DOWN", "DOWN", "DOWN",
                    "A"]}


def _play_screen(mode):
    # The app's play screen in a game of `mode`: its panel draws the hints.
    with sim_fast.fast():
        r = sim.run_headless(NAV[mode] + ["WAIT*200"], seed=3, settle=5)
    assert r.ok, r.error
    return r.app.play


def _hints(mode, seed, players=None):
    # Yields (State, hints.find()) at every decision of a person's seat of the bench's game
    # `seed`: `best` plays every seat (the rival its rules), a hint asked before each of its
    # decisions, and where a person's dice wait to be rolled.
    state, chance, rng = seeded(mode, seed, players)
    for action in steps(state, chance):
        if action == DECIDE or (state.phase == P_DICE and state.dice_left == state.build_sum):
            yield state, hints.find(state.clone())
        if action == DECIDE:
            action = best_bot(state, rng)
        state.apply(action)


def _box(ui):
    # The panel's box: its width in pixels (its tile grid, drawn from the sprite sheet's 16 px
    # tiles) and the x of its text lines.
    box = ui.panel[0]
    return box.width * box.tile_width, ui.plines[0].x


@pytest.mark.parametrize("mode,players", [(MODE_SOLO, None), (MODE_CHALLENGE, None),
                                          (MODE_RIVAL, None), (MODE_TABLE, 3)])
def test_every_hint_of_the_bench_s_games_fits_its_box_at_1x(monkeypatch, mode, players):
    play = _play_screen(mode)
    ui = play.ui
    width, x = _box(ui)
    written = []
    real = lnr.ui.Ui.pline

    def pline(self, i, text, color=lnr.ui.WHITE):
        written.append((i, text))
        return real(self, i, text, color)

    monkeypatch.setattr(lnr.ui.Ui, "pline", pline)
    shown = 0
    kinds = set()
    with sim_fast.fast():  # the panel's tiles written as Blinka writes them, in fewer calls
        for seed in seeds.take("reported", GAMES):
            for s, found in _hints(mode, seed, players):
                # Never "No hint now" while a move exists (row 14): rolling the dice included.
                assert found is not None, (seed, s.turn, s.phase)
                roles = bytearray([ROLE_HUMAN] * s.players)
                if mode == MODE_RIVAL:
                    roles[0] = ROLE_RIVAL
                play.game = Game(s.clone(), None, seed, roles)
                del written[:]
                hint.show(play, found)
                lines = {}
                for i, text in written:
                    assert i not in lines, ("a panel line written twice", written)
                    lines[i] = text
                said = [i for i in lines if lines[i] != "A: OK"]
                assert sorted(said) == list(range(len(said))), written  # no line left blank
                for i, text in written:
                    # Within the box: as far from its right edge as the text's margin on the left.
                    assert x + GLYPH_W * len(text) <= width - x, (seed, s.turn, text)
                assert len(lines) <= PANEL_LINES
                if A_LAY <= found[0] < A_CHAOS or found[0] in (A_BEND_L, A_BEND_R):
                    _whole_cards(s, found[0], [lines[i] for i in sorted(said)[1:]])
                shown += 1
                kinds.add(found[0] if found[0] < A_LAY else A_LAY if found[0] < A_CHAOS
                          else A_CHAOS)
    assert shown >= 100 * GAMES // 2
    assert {A_PASS, A_STOP, A_LAY} <= kinds, kinds


_TO = ("right", "down", "left", "up")  # where a curve turns on the screen, by its heading


def _whole_cards(s, action, lines):
    # Row 4: the build's lines name each card whole, where it turns too ("3 curve up", or with
    # the build's value gone without saying "curve up"), in the order of the plan the hint
    # names (the look-ahead's choice, engine.ai's plan on from it: lnr/play/hintplan.py), and
    # the risk under them is that of the cards they name, laid (the screen's figure, §5).
    from engine.ai import Planner
    from engine.bots import weights
    from lnr.play.view import risk_text

    text = " ".join(lines)
    named = text[:text.index("Roll ")].rstrip().split(", ")
    roll = text[text.index("Roll "):]
    w = weights(s.mode)
    t = s.clone()
    t.log = None
    a = action
    for i in range(len(named)):
        if i:
            a = Planner(t, w).choose()
            assert A_LAY <= a < A_CHAOS, (named, i)
        t.apply(a)
        if t.phase == P_BEND:
            t.apply(Planner(t, w).choose())
        turn = " " + _TO[t.head] if a < A_LAY or SHAPE[a - A_LAY] == SHAPE_CURVE else ""
        if a < A_LAY:
            assert named[i] == "Turn it" + turn, named
            continue
        full = card_name(a - A_LAY) + turn
        short = full if KIND[a - A_LAY] == KIND_BROKEN else full[2:]
        said = named[i][len("Lay "):] if i == 0 else named[i][len("then "):] if i == 1 else \
            named[i]
        assert said == full or (i and said == short), (named, i, full)
    num, den = t.build_risk()
    assert roll.startswith(risk_text(num, den, "Roll")), (named, roll)


def _found(state):
    found = hints.find(state.clone())
    assert found is not None
    return found


def test_a_pass_says_what_it_costs_against_the_safest_build():
    # Row 12 (seed 81234, its first turn): the hint passed over a 1 that "Lay 0%" shows, the
    # pass taking 2 cards (+5: the loco enters a broken card, D1), with no word why. Now the
    # pass's cost, the build it is weighed against, that build's risk and why not it.
    from tools.sim.app_script import Model
    from engine.advice import pass_cost

    s = Model(MODE_SOLO, 81234).state
    assert s.phase == P_TURN and pass_cost(s) == (2, 5)
    action, title, head, risk, tail = _found(s)
    if action != A_PASS:
        pytest.skip("the hint no longer passes here")
    assert title == "" and head[0] == "Pass: 2 cards, +5"
    assert head[1].startswith("Or lay ") and risk is not None
    assert tail[0] in ("Can't derail",) or tail[0].startswith("Derail ")
    assert tail[-1].startswith("Pass ends ")


def test_a_build_says_its_risk_and_what_a_derailment_costs_against_the_pass():
    # Row 12: "N dice, N cards ahead" alone under a build of 74-99% risk. Now its dice against
    # the cards ahead (§5) and what a derailment would add (the penalty cards it takes, put on
    # the pile in the best order, §6) against the pass's.
    from tools.sim.app_script import Model
    from engine.advice import derail_cost, pass_cost

    checked = 0
    for seed in range(1, 200):
        s = Model(MODE_SOLO, seed).state
        action, title, head, risk, tail = _found(s)
        if not A_LAY <= action < A_CHAOS or risk[0] == 0:
            continue
        assert head[0].startswith("Lay ")
        passing = pass_cost(s)[1]
        assert tail[-1].endswith(", pass %+d" % passing), tail
        assert tail[-1].startswith("Derail ")
        checked += 1
        if checked == 5:
            break
    assert checked == 5
    assert derail_cost(s) is None  # no build laid: nothing to derail
