"""Every text the app can show fits its field (issue 11: "Risk 100" lost its %, "A>" was cut
off, "RIVAL lays broken 4 cu", "Look: D-pad, B bac").

A text on screen has a field of fixed width: a side line 8 characters, the toast 18, a panel
line 22, a line of the menus or the error screen 26 (lnr/ui.py, lnr/menus/labels.py). lnr.ui.Ui.put
pads and cuts every text to its line; here it records each text it had to cut. The app's own code
then draws its texts at their longest: every card named by every seat (the widest names), the
scores and counts at their most (3 digits: a hand of all 55 cards), a roll of 16 dice with its
move, penalties and order, the risk at both ends (<1%, >99%), the game over, the records and
the settings at their largest numbers, the hint over whole games; and every text of the bench's
games (issue 35), played to their ends through the play screen's own flow, hot seats'
handoffs included. The texts given as plain literals are read from the source as well, each
against its field.
"""
import ast
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.app_script import Model, SETTLE  # noqa: E402
from engine.cards import KIND, KIND_CHAOS, N_CARDS  # noqa: E402
from engine.playout import STREAM_BOT  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.state import (  # noqa: E402
    A_CHAOS, A_LAY, A_PASS, P_BUILD, P_DICE, P_TURN, MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL,
    MODE_TABLE,
)
import lnr.ui  # noqa: E402
from lnr.play import actions, refusal  # noqa: E402
from lnr.play.view import risk_text  # noqa: E402
from lnr.ui import SIDE_W, PANEL_W, LINE_W, TITLE_W  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOAST_W = 18
# From the title: the mode; a table of 4 seats (RIGHT: 3 -> 4 seats, then Start).
NAV = {MODE_SOLO: ["A", "A"], MODE_CHALLENGE: ["A", "DOWN", "A"],
       MODE_RIVAL: ["A", "DOWN", "DOWN", "A"],
       MODE_TABLE: ["A", "DOWN", "DOWN", "DOWN", "A", "RIGHT", "DOWN", "DOWN", "DOWN", "DOWN",
                    "A"]}


@pytest.fixture
def cut(monkeypatch):
    """The texts lnr.ui.Ui.put cut to fit their line, as (text, width): every text on screen
    goes through it (the menus' too: lnr/menus/labels.py)."""
    found = []
    real = lnr.ui.Ui.put

    def put(ui, line, text, ink=lnr.ui.WHITE):
        if len(text) > line.width:
            found.append((text, line.width))
        return real(ui, line, text, ink)

    monkeypatch.setattr(lnr.ui.Ui, "put", put)
    return found


def start(mode, seed=3, keys=()):
    with sim_fast.fast():
        r = sim.run_headless(NAV[mode] + ["WAIT*200"] + list(keys), seed=seed, settle=5)
    assert r.ok, r.error
    return r


def _longest_numbers(play):
    # The viewer holds every card (score 139, 55 cards), the rival's pile all of them too.
    s = play.game.state
    me = play.viewer()
    s.hands[me] = list(range(N_CARDS))
    if s.mode == MODE_RIVAL:
        s.piles[0] = list(range(N_CARDS))
    s.piles[me] = [N_CARDS - 1]


@pytest.mark.parametrize("mode", [MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE])
def test_the_play_screens_texts_fit_at_their_longest(cut, mode):
    r = start(mode)
    play = r.app.play
    g = play.game
    s = g.state
    assert s.phase == P_TURN and g.human(s.seat)
    play.advance = lambda: None  # what follows an action is not needed here, only its texts
    # Every card named by every seat: the titles of turns (toast and result panel).
    for seat in range(s.players):
        if not s.hands[seat]:
            s.hands[seat].append(0)
        for c in range(N_CARDS):
            action = A_CHAOS + c if KIND[c] == KIND_CHAOS else A_LAY + c
            play.view.toast(play.describe(seat, action))
        play.view.toast(play.describe(seat, A_PASS))
        play.plays()
    # The hand's reasons, every card against every track end.
    for c in range(N_CARDS):
        for end in range(N_CARDS):
            if KIND[end] != KIND_CHAOS:
                s.track[-1] = end
                play.view.toast(refusal.reason(s, c))
    # The side panel at its largest numbers, the risk at both ends with every label.
    _longest_numbers(play)
    play.view.draw_side()
    for label in ("Lay", "Add", "Roll", "Brkn", "Derail", "Broken card"):
        for num, den in ((1, 10 ** 6), (5, 1000), (999, 1000), (999999, 10 ** 6), (0, 1)):
            if len(label) <= 4:  # the side panel's labels, in its 8 characters
                r.app.ui.put(r.app.ui.side[7], risk_text(num, den, label))
            r.app.ui.put(r.app.ui.plines[5], risk_text(num, den, label))
    # A build of 16 dice (4 cards of 4): the dice panel, the run, the penalty order and the
    # result, each step as the timers would run it.
    s = g.state
    s.phase = P_DICE
    s.build_value = 4
    s.build_sum = s.dice_left = 16
    s.wheels = 0
    play.start_roll()
    while play.running is not None:  # (advance() is off here: the run's end is its code gone)
        play.timed_step()
    if play.panel is not None:  # the penalty order panel (lnr/play/penalty.py), every order
        panel = play.panel
        for i in range(len(panel.opts)):
            panel.oi = i
            panel.draw()
        play.put_order(panel.opts[0][1])
    # The result panel again, at the largest numbers an action can have.
    s.moved, s.hits, s.derail_left, s.earned, s.taken = 16, 4, 12, 16, 15
    play.game.title = play.describe(s.players - 1, A_LAY + 49)  # the last seat's broken 4
    play.show_result()
    # The menu (lnr/play/actions.py), on every item, with a card under the cursor and a build under
    # way.
    s.phase = P_TURN
    play.game.sel = 0
    menu = actions.Actions(play)
    for i in range(len(actions.ITEMS)):
        menu.mi = i
        menu.draw()
    s.phase = P_BUILD
    menu.draw()
    assert cut == []


def test_the_hint_fits_over_whole_games(cut):
    # The hint at each of the player's turns of a game of every mode (its words are the
    # bot's and the app's: card names, bends, the build's order, the risk): one play screen
    # per mode, shown a copy of the game at each turn the model reaches.
    from lnr.play import hint
    from tools.sim import hints
    from lnr.game import Game

    shown = 0
    for mode, seed in ((MODE_SOLO, 4), (MODE_RIVAL, 9), (MODE_TABLE, 6)):
        m = Model(mode, seed)
        play = start(mode, seed).app.play
        for turn in range(0, 30, 3):
            m.play_simple(3)
            if m.state.is_terminal():
                break
            if not m.game.human(m.state.seat):
                continue
            play.game = Game(m.state.clone(), m.copy_rng(), m.game.seed, m.game.roles)
            hint.show(play, hints.find(play.game.state))
            shown += 1
    assert shown >= 15 and cut == []


def test_the_menus_and_the_game_over_fit_at_their_largest_numbers(cut):
    from lnr import over

    def largest(hw):
        app = hw.caller.f_locals.get("app") if hw.caller is not None else None
        if app is not None and hw.frame == 1:
            st = app.store
            st.best = [254, 254, 254, 254]
            st.played = [65535] * 4
            st.rival_wins = 65535
            st.brightness = 4
            st.pixel_count = 16

    # Records, settings, the table screen with 4 seats and every kind of seat.
    keys = ["DOWN", "A", "B", "DOWN", "DOWN", "A", "DOWN", "DOWN", "DOWN", "B",
            "A", "DOWN", "DOWN", "DOWN", "A", "RIGHT"] + ["DOWN", "RIGHT"] * 3 + ["DOWN"]
    with sim_fast.fast():
        r = sim.run_headless(keys + [SETTLE], seed=1, on_frame=largest)
    assert r.ok, r.error
    # The game over of every mode at its largest: all the cards in the player's hand, 255
    # derailments, 65535 games played.
    for mode in (MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE):
        game = Model(mode, 3).game
        s = game.state
        me = 1 if mode == MODE_RIVAL else 0
        s.hands[me] = list(range(N_CARDS))
        s.derails = game.derails = 255
        s.lost = mode == MODE_CHALLENGE
        r.app.writes = False
        r.app.game = game
        colour, shown = over.over(r.app)
        r.app.menus.game_over((colour, shown))
    # The error screen with the longest mode name and the largest seed.
    game = Model(MODE_CHALLENGE, 3).game
    game.seed = 0xFFFFFF
    game.state.turn = 55
    r.app.game = game
    from lnr import crash

    crash.show(r.app, RuntimeError("x" * 200))
    assert cut == []


# ---------------------------------------------------------------- the literals


# The width of a line by the Ui's field that holds it (lnr/ui.py, lnr/make.py).
FIELDS = {"side": SIDE_W, "plines": PANEL_W, "lines": LINE_W, "title": TITLE_W,
          "toast": TOAST_W}


def _field(node):
    # The name a line is reached by: side of ui.side[3], lines of lines[0], toast of ui.toast.
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return getattr(node, "id", "")


def _calls(tree):
    # (field width, literal text, line) of every call that shows a plain string literal:
    # .toast(text), .pline(i, text), labels.line(i, text), put(line, text) of a line named
    # by the Ui's field it is in (ui.side[i], lines[i], ui.title ...).
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        args = node.args
        if name == "toast" and args:
            width, text = TOAST_W, args[0]
        elif name == "pline" and len(args) > 1:
            width, text = PANEL_W, args[1]
        elif name == "line" and len(args) > 1:
            width, text = LINE_W, args[1]
        elif name == "put" and len(args) > 1:
            width = FIELDS.get(_field(args[0]))
            text = args[1]
            if width is None:
                continue
        else:
            continue
        texts = []
        if isinstance(text, ast.Constant) and isinstance(text.value, str):
            texts = [text.value]
        elif isinstance(text, ast.IfExp):  # a or b: both
            for t in (text.body, text.orelse):
                if isinstance(t, ast.Constant) and isinstance(t.value, str):
                    texts.append(t.value)
        for t in texts:
            out.append((width, t, node.lineno))
    return out


def test_every_literal_text_fits_its_field():
    files = sorted((ROOT / "lib" / "lnr").glob("**/*.py"))
    assert files
    seen = 0
    too_long = []
    for path in files:
        for width, text, line in _calls(ast.parse(path.read_text())):
            seen += 1
            if len(text) > width:
                too_long.append("%s:%d %r (%d > %d)" % (path.name, line, text, len(text),
                                                        width))
    assert seen > 30  # the check reads the calls it should
    assert too_long == []


# ---------------------------------------------------------------- the bench's games, played


def _play_through(app, mode, seed, players, roles, bot, seen):
    # Plays game `seed` of `mode` (the deal and dice `make bench` plays: engine.playout's
    # streams) on the app's play screen as the keys would: each person's decision is `bot`'s
    # (its rng the bench's, stream 1), each timed step runs at once, the panels' A or B goes on,
    # switches are made as lnr/main.py makes them (lnr/memory/settle.py); the action menu is drawn at each turn's
    # start. Counts the results and handoffs written in `seen`.
    from engine.state import A_STOP, P_BUILD, P_CHAOS
    from lnr.keys import K_A, K_B
    from lnr.memory.settle import settle
    from lnr.play.view import S_HANDOFF, S_INFO, S_ORDER

    rng = Rng(seed, STREAM_BOT)
    app.start(mode, players, seed, roles)
    for _ in range(100000):
        settle(app)
        if app.game is None:  # the game over is up
            return
        play = app.play
        s = app.game.state
        if play.busy():
            play.timed_step()
        elif play.step == S_HANDOFF:
            seen["handoffs"] += 1
            play.key(K_A)
        elif play.step == S_INFO or play.step == S_ORDER:
            seen["results"] += play.summary
            play.key(K_A)
        elif play.summary:
            seen["results"] += 1
            play.key(K_B)  # the result put away, as a key does
        elif s.is_chance():
            play.roll()
        else:
            if s.phase == P_TURN:
                menu = actions.Actions(play)
                menu.draw()
                menu.close()
            action = bot(s, rng)
            if action == A_STOP and s.phase == P_BUILD:
                play.roll()
            else:
                assert action != A_STOP or s.phase == P_CHAOS
                play.act(action)
    raise AssertionError("game %d of mode %d did not end" % (seed, mode))


def test_every_text_of_the_bench_games_fits_its_line(cut):
    # Issue 35: every text the game draws fits its box at 1x. The bench's games (the reported
    # seeds, tools/bots/seeds.py) of every mode, played on the play screen by its own flow: the
    # titles, the dice, the toasts, the results, the seats board, the hot seat's handoffs, the
    # action menu and the game over, each text as lnr.ui.Ui.put writes it into its line.
    from engine.bots import BOTS
    from lnr.game import ROLE_BOT, ROLE_HUMAN
    from tools.bots.seeds import take

    with sim_fast.fast():
        r = sim.run_headless(["WAIT"], seed=1, settle=1)
    assert r.ok, r.error
    app = r.app
    app.writes = False
    best = ROLE_BOT + 2
    tables = ((2, bytes([ROLE_HUMAN])), (3, bytes([ROLE_HUMAN, best])),
              (4, bytes([best, ROLE_HUMAN, ROLE_HUMAN])), (3, bytes([best, best])),
              (4, bytes([ROLE_HUMAN] * 3)))
    seen = {"results": 0, "handoffs": 0}
    seeds = take("reported", 24)
    with sim_fast.fast():
        for i, seed in enumerate(seeds):
            bot = BOTS[("random", "greedy")[i % 2]]
            for mode in (MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL):
                _play_through(app, mode, seed, None, None, bot, seen)
            players, roles = tables[i % len(tables)]
            _play_through(app, MODE_TABLE, seed, players, roles, bot, seen)
    assert seen["results"] > 2000 and seen["handoffs"] > 200, seen
    assert cut == []
