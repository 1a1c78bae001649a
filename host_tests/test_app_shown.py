"""Issue 35, what the player sees is right (rows 2, 6, 7, 10, 11, 13, 14 and 15; the hot seat's
rows 1 and 5 are test_app_hot_seat.py's, the hand's ends row 8 test_app_table_view.py's, the
seed editor row 9 test_seed_entry.py's): every die of a roll seen, no value hidden on the map,
the menus' words true, the numbers of the action on screen, the table's tie-break shown, the
words spelled one way. Through the headless simulator (tools/sim/simulator.py) with the key
scripts of tools/sim/app_script.py, or on the module at fault where it stands alone; seeds are
searched with the engine at test time.
"""
import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim.app_script import (  # noqa: E402
    Model, SETTLE, find, frames, run_checked as run, two_bends, wait,
)
from tools.sim.screen_text import line_text as text, lines_text as texts  # noqa: E402
from engine.cards import KIND, KIND_BROKEN, KIND_CHAOS, VALUE  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.deal import deal  # noqa: E402
from engine.state import (  # noqa: E402
    A_LAY, A_PASS, P_BEND, P_ORDER, P_TURN, MODE_CHALLENGE, MODE_SOLO, MODE_TABLE,
)
from lnr import leds as L  # noqa: E402
from lnr import sprites  # noqa: E402
from lnr.play.actions import pass_help  # noqa: E402
from lnr.play.mapview import MapView, cell_x, cell_y  # noqa: E402
from lnr.play.result import seats  # noqa: E402
from lnr.play.run import ROLLED_MS  # noqa: E402
from lnr.play.view import S_BEND, S_RUN, side_text  # noqa: E402
from lnr.ui import GREY, MAP_W, MAP_H  # noqa: E402
from helpers import rgb  # noqa: E402

# One pytest worker runs the module (make pytest: --dist loadgroup): the headless game played once
# for the module.
pytestmark = pytest.mark.xdist_group("test_app_shown")


def _app(hw):
    return hw.caller.f_locals.get("app") if hw.caller is not None else None


# ---------------------------------------------------------------- row 2: the last die


def _dice_build(m):
    # A card of the first hand laid alone: 3 dice or more, its turn over after the run (no
    # penalty card to order).
    s = m.state
    for c in s.hands[0]:
        if KIND[c] != KIND_CHAOS and s.why_not(A_LAY + c) is None and VALUE[c] >= 3:
            if m.after_build(c).phase == P_TURN:
                return c
    return None


def test_every_die_of_a_roll_shows_on_screen_and_leds_before_the_run():
    # Row 2: with 3 dice the player saw two landed and one grey, then the result: the last die
    # was drawn in the frame the run took the screen over, and the LEDs never showed it either.
    # Now the whole roll stays on screen and on the LEDs a while (ROLLED_MS) first.
    seed, card = find(MODE_SOLO, _dice_build)
    m = Model(MODE_SOLO, seed)
    m.build(card)
    seen = []

    def watch(hw):
        app = _app(hw)
        play = app.play if app is not None else None
        if play is None or not play.dice or app.ui.panel.hidden:
            return
        cards = app.ui.cards
        shown = [cards[i % 8, i // 8] - sprites.T_DIE for i in range(play.dice_total)]
        seen.append((shown, list(play.dice), hw.leds[-1]))

    run(m.keys[:m.result_at] + [SETTLE], seed, on_frame=watch)
    whole = [(shown, dice, led) for shown, dice, led in seen if len(dice) == len(shown)]
    assert len(whole) >= frames(ROLLED_MS) - 1  # every die, a while
    for shown, dice, led in whole:
        assert shown == dice  # each die's face: a wheel (1) or blank (0), none pending (2)
        for i, d in enumerate(dice):
            assert led[i] == rgb(L.WHEEL if d else L.BLANK), (i, led)


def test_a_roll_of_one_die_says_die():
    # Row 14: "YOU: 1 dice".
    def one(m):
        s = m.state
        for c in s.hands[0]:
            if KIND[c] != KIND_CHAOS and s.why_not(A_LAY + c) is None and VALUE[c] == 1:
                return c
        return None

    seed, card = find(MODE_SOLO, one)
    m = Model(MODE_SOLO, seed)
    m.build(card)
    r = run(m.keys[:m.roll_at] + ["WAIT*2"], seed, settle=1)
    assert text(r.app.ui.plines[0]) == "YOU: 1 die"


# ---------------------------------------------------------------- row 11: the next draw


def test_the_run_shows_the_numbers_the_result_sums_up_not_the_next_draw():
    # Row 11: during the run the side panel showed the next turn's draw (Score 3, Hand 3), then
    # the result said "Your score: 2". The next draw shows once the result is put away (§4).
    seed, card = find(MODE_SOLO, _dice_build)
    m = Model(MODE_SOLO, seed)
    m.build(card)
    s = m.state
    drawn = s.hands[0][-1]
    want = [side_text("Score", str(s.score(0) - VALUE[drawn])),
            side_text("Hand", str(len(s.hands[0]) - 1)), side_text("Deck", str(len(s.deck) + 1))]
    seen = []

    def watch(hw):
        app = _app(hw)
        play = app.play if app is not None else None
        if play is not None and play.step == S_RUN and app.ui.panel.hidden:
            side = texts(app.ui.side)
            seen.append([side[1], side[3], side[4]])

    r = run(m.keys[:m.result_at] + [SETTLE], seed, on_frame=watch)
    assert len(seen) > 3 and all(x == want for x in seen), (want, seen)
    assert text(r.app.ui.plines[5]) == "Your score: %d" % (s.score(0) - VALUE[drawn])
    assert drawn not in r.app.play.cards()
    r = run(m.keys[:m.result_at] + ["A", SETTLE], seed)  # the result put away: the draw shows
    assert texts(r.app.ui.side)[1] == side_text("Score", str(s.score(0)))


# ---------------------------------------------------------------- row 6: the map's values


def test_the_locos_card_shows_its_value_over_the_loco():
    # Row 6: the loco covered its own card's value ("?"). The values are drawn over the loco.
    seed = 81234  # the repro's: the loco heading west on a curve
    m = Model(MODE_SOLO, seed)
    r = run(m.keys + [SETTLE], seed)
    ui = r.app.ui
    assert list(ui.play).index(ui.values) > list(ui.play).index(ui.loco)
    s = r.app.game.state
    mv = r.app.play.view.map
    x = cell_x(s.cells[s.loco]) - mv.ox
    y = cell_y(s.cells[s.loco]) - mv.oy
    assert not ui.loco.hidden and (ui.loco.x, ui.loco.y) == (16 * x, 16 * y)
    assert ui.values[x, y] == sprites.T_VALUE + VALUE[s.track[s.loco]] - 1
    # The badge's pixels: the same as those of a card without the loco (the badge's box: its
    # digit white on black at the cell's top left).
    box = [r.pixel(16 * x + dx, 16 * y + dy) for dy in range(7) for dx in range(5)]
    assert (255, 255, 255) in box and (0, 0, 0) in box
    assert sum(1 for p in box if p == (255, 255, 255)) >= 6


def _states(mode, n):
    # States met in play: dealt, then random legal actions and dice, each player's turn start.
    out = []
    for seed in range(n):
        rng = Rng(seed)
        s = deal(mode, rng)
        s.start()
        out.append(s.clone())
        pick = random.Random(seed)
        while not s.is_terminal() and len(out) < 40 * (seed + 1):
            if s.is_chance():
                s.apply(s.sample_chance(rng))
                continue
            turn = s.turn
            s.apply(pick.choice(s.legal_actions()))
            if s.turn != turn and s.phase == P_TURN:
                out.append(s.clone())
    return out


def test_the_map_shows_the_card_the_next_penalty_takes_whenever_the_track_fits():
    # Row 6: at the start of Challenge the track's first card (the next penalty's, §6) lay
    # above the top edge while two empty rows sat below (repro 81317). MapView.follow shows
    # the open end and as much of the track back from it as fits: the whole when it fits.
    mv = MapView(None)
    checked = 0
    for s in _states(MODE_CHALLENGE, 40):
        cells = s.cells + [s.target()]
        xs = [cell_x(c) for c in cells]
        ys = [cell_y(c) for c in cells]
        mv.follow(s)

        def seen(c):
            return 0 <= cell_x(c) - mv.ox < MAP_W and 0 <= cell_y(c) - mv.oy < MAP_H

        assert seen(s.target()) and seen(s.cells[s.loco])  # the end and the loco, as before
        if max(xs) - min(xs) < MAP_W and max(ys) - min(ys) < MAP_H:
            assert all(seen(c) for c in s.cells), s.turn
            checked += 1
    assert checked > 300


# ---------------------------------------------------------------- row 7: the Pass row


def test_the_pass_rows_footer_says_what_a_pass_costs():
    # Row 7: the Pass row said "Loco +1, 1 penalty" where the pass took 2 cards (the loco
    # enters a broken card, D1). Its words now follow the engine's pass, state by state.
    kinds = set()
    for s in _states(MODE_SOLO, 60):
        t = s.clone()
        t.apply(A_PASS)
        said = pass_help(s)
        assert said.endswith("penalty %d" % t.earned), (said, t.earned)
        assert ("stays" in said) == (t.moved == 0)
        assert ("Broken" in said) == (t.hits > 0)
        kinds.add(said)
    assert len(kinds) == 3  # onto a track card, onto a broken one, staying on the last


def test_the_menu_shows_the_pass_cost_of_the_repro():
    seed = 81234  # the repro: the card ahead of the loco is broken
    m = Model(MODE_SOLO, seed)
    s = m.state
    assert KIND[s.track[s.loco + 1]] == KIND_BROKEN
    r = run(m.keys + ["START", SETTLE], seed)
    lines = texts(r.app.ui.plines)
    assert lines[1] == "> Pass" and lines[6] == "Broken card: penalty 2"


# ---------------------------------------------------------------- row 10: START in a build


def test_start_during_a_build_opens_the_menu_on_an_item_that_a_chooses():
    # Row 10: START during a build opened the menu on the greyed Pass row, where A did
    # nothing. It opens on the first item that can be chosen: Build (roll), and A rolls.
    seed, card = find(MODE_SOLO, _dice_build)
    m = Model(MODE_SOLO, seed)
    i = m.state.hands[0].index(card)
    keys = m.keys + ["RIGHT"] * i + ["A"]
    s = m.state.clone()
    s.apply(A_LAY + card)
    if s.phase == P_BEND:
        keys.append("A")
    r = run(keys + ["START", SETTLE], seed)
    lines = texts(r.app.ui.plines)
    assert lines[2] == "> Build: roll dice" and lines[1] == "  Pass"
    r = run(keys + ["START", "A", "WAIT*300"], seed)
    assert r.app.game.state == m.after_build(card)  # A rolled the build's dice


# ---------------------------------------------------------------- row 15: smaller


def test_the_last_result_stays_before_a_pass_that_nothing_else_fits():
    # Row 15: a forced pass replaced the last result after 1.5 s. It stays until a key.
    def forced(m):
        for _ in range(60):
            if m.state.is_terminal():
                return None
            m.play_simple(1)
            s = m.state
            if m.summary and not s.is_terminal() and s.legal_actions() == [A_PASS]:
                return len(m.keys)
        return None

    seed, n = find(MODE_SOLO, forced, range(1, 400))
    m = Model(MODE_SOLO, seed)
    forced(m)
    title = None
    r = run(m.keys + ["WAIT*200"], seed)
    s = r.app.game.state
    assert r.app.play.summary and not r.app.ui.panel.hidden  # the result, still
    assert s.legal_actions() == [A_PASS] and s == m.state  # the pass not played
    title = text(r.app.ui.plines[0])
    m.pass_turn()  # A: the result goes, the pass plays
    r = run(m.keys + [SETTLE], seed)
    assert r.app.game.state == m.state and title


def test_cards_of_another_value_stay_veiled_while_a_bend_is_chosen():
    # Row 15: unplayable cards lost their hatching while a curve's bend was chosen. While it
    # is, a card of another value than the build's can't be added (§4): veiled.
    def bend_and_other(m):
        c = two_bends(m)
        if c is None:
            return None
        others = [x for x in m.state.hands[0] if VALUE[x] != VALUE[c]]
        return c if others else None

    seed, card = find(MODE_SOLO, bend_and_other, range(1, 3000))
    m = Model(MODE_SOLO, seed)
    hand = m.state.hands[0]
    r = run(m.keys + ["RIGHT"] * hand.index(card) + ["A", SETTLE], seed)
    play = r.app.play
    assert play.step == S_BEND
    shown = play.cards()
    for i, c in enumerate(shown):
        veiled = r.app.ui.veil[i, 0] == sprites.T_VEIL
        assert veiled == (VALUE[c] != VALUE[card]), (i, c)


def test_left_on_the_first_card_stays_there():
    # Row 15: LEFT on the first card wrapped to the roll button, where A rolls.
    seed, card = find(MODE_SOLO, _dice_build)
    m = Model(MODE_SOLO, seed)
    hand = m.state.hands[0]
    keys = m.keys + ["RIGHT"] * hand.index(card) + ["A"]
    s = m.state.clone()
    s.apply(A_LAY + card)
    if s.phase == P_BEND:
        keys.append("A")
    r = run(keys + ["LEFT"] * 12 + [SETTLE], seed)  # on the roll button, then left, left ...
    assert r.app.play.game.sel == 0
    r = run(keys + ["LEFT"] * 12 + ["A", SETTLE], seed)
    assert not r.app.play.dice and r.app.play.step != S_RUN  # A on a card never rolls


# ---------------------------------------------------------------- row 13: the table's end


@pytest.fixture(scope="module")
def app():
    return run(["WAIT"], 1).app  # the title: an App whose over.over() counts nothing


def _three_seats_at_the_end():
    # A 3-seat table with every hand and pile empty: a test puts the cards that count (§7).
    s = deal(MODE_TABLE, Rng(3), 3)
    for seat in range(3):
        s.hands[seat] = []
        s.piles[seat] = []
    return s


def _over(app, state, people=1):
    # The game over's lines of `state` at a table of P1 (a person; `people`: the first seats
    # are people, a hot seat) and bots.
    from lnr import over
    from lnr.game import Game, ROLE_BOT

    roles = bytearray(state.players)
    for i in range(people, state.players):
        roles[i] = ROLE_BOT
    app.writes = False
    app.game = Game(state, Rng(1), 7, roles)
    colour, lines = over.over(app)
    return [t for t, _ in lines]


def test_a_tie_at_the_table_says_which_tie_break_decided(app):
    # Row 13: "WINNER!" with P1 13 and P3 13 and no tie-break shown. At the end every hand and
    # pile counts (§7): each seat's score, and where equal scores were parted, the figures of
    # the tie-break that did it (fewest cards, then fewest 4s, 3s ...).
    s = _three_seats_at_the_end()
    s.hands[0] = [34, 40, 0]  # 4 + 4 + 1 = 9, 3 cards
    s.hands[1] = [23, 28, 12, 1]  # 3 + 3 + 2 + 1 = 9, 4 cards
    s.hands[2] = [41]  # 4
    lines = _over(app, s)
    assert lines[1] == "Winner: P3" and lines[2] == "P1: 9" and lines[4] == "P3: 4"
    s.hands[2] = [42, 29, 2, 3]  # 4 + 3 + 1 + 1 = 9: three seats on 9
    lines = _over(app, s)
    assert lines[1] == "WINNER! fewest cards"  # P1 (the person), 3 cards; P2 and P3 4
    assert lines[2:5] == ["P1: 9, 3 cards", "P2: 9, 4 cards", "P3: 9, 4 cards"]
    s.hands[0] = [34, 29, 12]  # 4 + 3 + 2 = 9, 3 cards, one 4
    s.hands[2] = [35, 41, 0]  # 4 + 4 + 1 = 9, 3 cards, two 4s
    lines = _over(app, s)
    assert lines[1] == "WINNER! fewest 4s"  # P1 and P3 on 3 cards: the 4s part them
    assert lines[2:5] == ["P1: 9, 3 cards, 4s: 1", "P2: 9, 4 cards, 4s: 0",
                          "P3: 9, 3 cards, 4s: 2"]
    s.hands[1] = [38, 6]  # P2: 4 + 1 = 5, the lowest alone
    lines = _over(app, s)
    assert lines[1] == "Winner: P2" and lines[3] == "P2: 5"
    s.hands[1] = [23, 28, 12, 1]
    s.hands[2] = [36, 30, 13]  # the same values as P1's: nothing parts them
    lines = _over(app, s)
    assert lines[1] == "Shared win: P1 P3" and lines[2] == "P1: 9, 3 cards"


def test_a_hot_seats_game_over_speaks_to_no_one_person(app):
    # At a hot seat (two people, P1 and P2, and a bot) the screen is everyone's: it says
    # "Your score" and "WINNER!" to nobody, it names the winner and every seat's score (§7).
    s = _three_seats_at_the_end()
    s.hands[0] = [34, 40, 0]  # P1: 9
    s.hands[1] = [38, 6]  # P2: 5, the winner
    s.hands[2] = [42, 29, 2, 3]  # P3 (a bot): 9
    lines = _over(app, s, people=2)
    assert lines[0] == "Final scores" and lines[1] == "Winner: P2"
    assert lines[2:5] == ["P1: 9", "P2: 5", "P3: 9"]
    assert app.game is None  # counted (nothing written: app.writes is off here)
    s.hands[1] = [23, 28, 12, 1]  # P2: 9, 4 cards; P1 9 with 3 cards: the tie-break parts them
    lines = _over(app, s, people=2)
    assert lines[0] == "Final scores" and lines[1] == "Winner: P1, fewest cards"


def test_the_seats_board_at_a_table_shows_nothing_of_a_hands_values():
    # Row 13: what a seat may see of another (docs/rules.md §3.5: hands secret; §6: piles face
    # up): the board is the same whatever cards a hand holds, for as many cards.
    seed = 6
    m = Model(MODE_TABLE, seed)
    m.pass_turn()
    r = run(m.keys + [SETTLE], seed)
    play = r.app.play
    s = r.app.game.state
    seats(play, 0, GREY)
    before = texts(r.app.ui.plines)[:3]
    free = [c for c in s.deck]
    for seat in range(s.players):
        n = len(s.hands[seat])
        s.hands[seat][:] = free[:n]
        free = free[n:]
    seats(play, 0, GREY)
    assert texts(r.app.ui.plines)[:3] == before
    assert before[0] == "Pile points/hand/top"


# ---------------------------------------------------------------- row 14: words


def test_two_chaos_cards_discarded_are_named_both_in_the_title():
    # Row 14: "P2: chaos 4" when two chaos cards went.
    def two(m):
        s = m.state
        return [c for c in s.hands[0] if KIND[c] == KIND_CHAOS][:2] if sum(
            1 for c in s.hands[0] if KIND[c] == KIND_CHAOS) == 2 else None

    seed, cards = find(MODE_SOLO, two, range(1, 3000))
    m = Model(MODE_SOLO, seed)
    m.discard_chaos()
    r = run(m.keys[:m.result_at] + [SETTLE], seed)
    lines = texts(r.app.ui.plines)
    from engine.order import best

    order = best([], cards)
    assert lines[0] == "YOU: chaos %d+%d" % (VALUE[order[0]], VALUE[order[1]])
    assert lines[1] == "Discarded 2 chaos"
    assert r.app.game.state == m.state


def test_how_to_play_explains_every_label_of_the_side_panel():
    # Row 14: "Brkn" was never explained in How to play.
    from lnr.menus.howto import PAGES

    words = " ".join(" ".join(page) for page in PAGES)
    for label in ("Lay", "Add", "Roll", "Brkn", "score", "deck", "ahead", "lives"):
        assert label in words, label
