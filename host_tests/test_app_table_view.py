"""Issue 24, the table as the player sees it: what a player at a real table sees face up, on the
screen or one press away (every card's value on the map, the cards the next penalties take),
the screen's text read back as a player reads it (tools/sim/simulator.py --text), and the findings
on the play screen and the menus, each with the test that would have caught it. Driven through
the headless simulator (tools/sim/simulator.py) with the key scripts of tools/sim/app_script.py.
"""
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.app_script import (  # noqa: E402
    Model, SETTLE, find, derailing_card, run_checked as run, two_bends,
)
from tools.sim.screen_text import line_text, lines_text, screen_lines  # noqa: E402
from engine.cards import KIND, KIND_BROKEN, KIND_CHAOS, VALUE  # noqa: E402
from engine.order import orders  # noqa: E402
from engine.risk import wheel_counts  # noqa: E402
from engine.state import (  # noqa: E402
    A_BEND_L, A_BEND_R, A_CHAOS, A_LAY, P_ORDER, MODE_SOLO, MODE_RIVAL, TURN,
)
from lnr import sprites  # noqa: E402
from lnr.play.mapview import card_top  # noqa: E402
from lnr.play.view import S_BEND, S_ORDER, risk_text, side_text  # noqa: E402
from lnr.screens import SC_TITLE  # noqa: E402
from lnr.ui import MAP_W, MAP_H, HAND_N  # noqa: E402




def _values_shown(r):
    # The badge each visible card of the State shows on the map: {track index: tile}.
    play = r.app.play
    s = r.app.game.state
    m = play.view.map
    shown = {}
    for i, cell in enumerate(s.cells):
        x = cell // 128 - 64 - m.ox
        y = cell % 128 - 64 - m.oy
        if 0 <= x < MAP_W and 0 <= y < MAP_H:
            shown[i] = r.app.ui.values[x, y]
    return shown


# ---------------------------------------------------------------- finding 1: the map's values


@pytest.mark.parametrize("seed,turns", [(3, 0), (11, 4), (40, 6)])
def test_every_card_on_the_map_shows_its_value_red_behind_the_loco(seed, turns):
    # Finding 1: penalty cards come off the track's start, never the loco's card
    # (docs/rules.md §6), so what a pass or a derailment costs depends on cards the map never
    # showed. Every laid card in view shows its value; the cards behind the loco, the next
    # penalties' in order from the start, in red. Empty cells show nothing.
    m = Model(MODE_SOLO, seed)
    m.play_simple(turns)
    r = run(m.keys + [SETTLE], seed)
    s = r.app.game.state
    assert s == m.state
    shown = _values_shown(r)
    assert len(shown) >= 2
    for i, tile in shown.items():
        base = sprites.T_TAKEN if i < s.loco else sprites.T_VALUE
        assert tile == base + VALUE[s.track[i]] - 1, (i, s.loco)
    badges = sum(1 for x in range(MAP_W) for y in range(MAP_H)
                 if r.app.ui.values[x, y] != sprites.T_NONE)
    assert badges == len(shown)
    if turns:
        assert any(i < s.loco for i in shown)  # some cards are marked as the next taken


def test_the_badges_are_legible_pixels_on_the_screen():
    # The badge is drawn, not only set: its digit's white pixels on black (or red) at the top
    # left of the loco's card's neighbour ahead.
    seed = 3
    m = Model(MODE_SOLO, seed)
    r = run(m.keys + [SETTLE], seed)
    s = r.app.game.state
    m_ = r.app.play.view.map
    i = len(s.track) - 1  # the last card: no loco over it
    x = s.cells[i] // 128 - 64 - m_.ox
    y = s.cells[i] % 128 - 64 - m_.oy
    box = [r.pixel(16 * x + dx, 16 * y + dy) for dx in range(5) for dy in range(7)]
    assert (255, 255, 255) in box and (0, 0, 0) in box


# ---------------------------------------------------------------- sim --text


def test_sim_text_writes_what_the_screen_shows_a_line_per_line(tmp_path, capsys):
    # Build item 4: the text on the final screen, one line per line of text shown, as the
    # lines' tiles read back (tools/sim/screen_text.py): here the side panel of a first turn.
    seed = 3
    m = Model(MODE_SOLO, seed)
    out = tmp_path / "screen.txt"
    with sim_fast.fast():
        code = sim.main(["--headless", "--seed", str(seed), "--keys", ",".join(m.keys + [SETTLE]),
                         "--text", str(out)])
    assert code == 0
    header, *lines = out.read_text().splitlines()
    assert header == sim.TEXT_HEADER  # the simulator's own file: the next run may replace it
    s = m.state
    assert lines[0] == "YOU"
    assert lines[1] == side_text("Score", str(s.score(0)))
    assert side_text("Deck", str(len(s.deck))) in lines
    # The action menu over the map: its lines, not the side panel's it covers.
    with sim_fast.fast():
        code = sim.main(["--headless", "--seed", str(seed), "--keys",
                         ",".join(m.keys + ["START", "WAIT*5"]), "--text", str(out)])
    assert code == 0
    lines = out.read_text().splitlines()[1:]
    assert "> Pass" in lines and "YOU" not in lines
    # A file it cannot write: refused before the app starts, the error on stderr's last line,
    # exit 2.
    with pytest.raises(SystemExit) as e:
        sim.main(["--headless", "--keys", "A", "--text", str(tmp_path / "no" / "x.txt")])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "--text" in err[-1] and "no folder" in err[-1]


# ---------------------------------------------------------------- finding 5: the order panel


def _order_panel(m):
    card = derailing_card(m)
    if card is None:
        return None
    t = m.after_build(card)
    if t.phase == P_ORDER and len(orders(t.piles[0], t.penalty)) > 1:
        return card
    return None


def _panel_values(ui, n):
    # The values the order panel's card row shows after the pile and the arrow, in reading
    # order: whole cards up to 6, else two rows of values' halves.
    cards = ui.cards
    out = []
    for row in (0, 1):
        for x in range(2, 8):
            t = cards[x, row]
            if sprites.T_DIGIT <= t < sprites.T_DIGIT + 4:
                out.append(t - sprites.T_DIGIT + 1)
            elif sprites.T_CDIGIT <= t < sprites.T_CDIGIT + 4:
                out.append(t - sprites.T_CDIGIT + 1)
    return out


@pytest.mark.parametrize("n", [2, 6, 7, 11, 12, 15])
def test_the_order_panel_shows_every_penalty_card_of_every_order(n):
    # Finding 5: the panel showed 6 cards at most (a 7th cut off), so the orders listed
    # looked different from the cards taken. 11 cards were taken at once in 3000 random-bot
    # games; the panel shows every card up to 12 as values, and the rest's values in a line.
    seed, card = find(MODE_SOLO, _order_panel)
    m = Model(MODE_SOLO, seed)
    m.build(card)
    r = run(m.keys[:m.order_at] + [SETTLE], seed)
    play = r.app.play
    assert play.step == S_ORDER
    s = r.app.game.state
    # n penalty cards: the real ones first, then cards from the deck (values only matter, §6).
    taken = (list(s.penalty) + [c for c in s.deck if KIND[c] != KIND_CHAOS])[:n]
    opts = orders(s.piles[0], taken)
    panel = type(play.panel)(play, opts)
    for oi in range(len(opts)):
        panel.oi = oi
        panel.draw()
        order = opts[oi][1]
        assert sorted(order) == sorted(taken)  # every order is of the cards taken
        values = _panel_values(r.app.ui, n)
        rest = line_text(r.app.ui.plines[4])
        if n > 12:
            assert rest.startswith("then ")
            values += [int(ch) for ch in rest[5:]]
        assert values == [VALUE[c] for c in order], (oi, n)
        assert line_text(r.app.ui.plines[0]) == "Penalty: %d cards" % n


def test_best_marks_every_order_as_good_as_the_first():
    # Finding 11: "(best)" marked one of several equally good orders.
    seed, card = find(MODE_SOLO, _order_panel)
    m = Model(MODE_SOLO, seed)
    m.build(card)
    r = run(m.keys[:m.order_at] + [SETTLE], seed)
    play = r.app.play
    s = r.app.game.state
    cards = [c for c in s.deck if KIND[c] != KIND_CHAOS]
    # Two values that cannot pair with each other: several orders of equal score.
    a = [c for c in cards if VALUE[c] == 1][:1] + [c for c in cards if VALUE[c] == 3][:1]
    b = [c for c in cards if VALUE[c] == 2][:1]
    opts = orders([], a + b)
    assert len(opts) > 1 and opts[0][0] == opts[1][0]  # equal best orders
    panel = type(play.panel)(play, opts)
    for oi in range(len(opts)):
        panel.oi = oi
        panel.draw()
        marked = line_text(r.app.ui.plines[5]).endswith("(best)")
        assert marked == (opts[oi][0] == opts[0][0]), oi


# ---------------------------------------------------------------- finding 6: broken cards


def _zero_risk_broken(m):
    # The first hand's first card laid alone: no chance of derailing, a chance of entering a
    # broken card (§5: a penalty card each).
    s = m.state
    c = s.hands[0][0]
    if KIND[c] == KIND_CHAOS or not s.is_legal(A_LAY + c):
        return None
    num, den = s.build_risk(c)
    return c if num == 0 and s.broken_risk(c) is not None else None


def test_a_roll_that_cannot_derail_still_shows_its_broken_card_chance():
    # Finding 6: "Lay 0%", then "broken x2, Penalty 2". Beside the chance of derailing, the
    # side panel shows the chance of entering a broken card, by the same dice odds.
    seed, card = find(MODE_SOLO, _zero_risk_broken, range(1, 3000))
    m = Model(MODE_SOLO, seed)
    r = run(m.keys + [SETTLE], seed)
    ui = r.app.ui
    s = r.app.game.state
    assert line_text(ui.side[7]) == "Lay 0%"
    num, den = s.broken_risk(card)
    assert 0 < num < den
    assert line_text(ui.side[5]) == risk_text(num, den, "Brkn")
    # The exact chance: at least as many wheels as cards to the first broken one.
    seq = s.track + [card]
    d = next(i for i in range(s.loco + 1, len(seq)) if KIND[seq[i]] == KIND_BROKEN) - s.loco
    dice = VALUE[card]
    assert (num, den) == (sum(wheel_counts(dice)[d:]), 3 ** dice)


# ---------------------------------------------------------------- finding 8: the bend's keys


_KEY = {0: "RIGHT", 1: "DOWN", 2: "LEFT", 3: "UP"}  # the D-pad's key toward each heading


@pytest.mark.parametrize("head", [0, 1])  # heading east, heading south (north agrees with both)
def test_the_d_pad_turns_a_curve_toward_where_it_points_on_the_screen(head):
    # Finding 8: LEFT/RIGHT were left and right of the loco: heading south, LEFT turned the
    # track east, to the screen's right. Now the key toward where the curve's open end will
    # point picks that bend (docs/rules.md §2), and the prompt names those keys.
    def want(m):
        c = two_bends(m)
        return c if c is not None and m.state.head == head else None

    seed, card = find(MODE_SOLO, want, range(1, 3000))
    m = Model(MODE_SOLO, seed)
    i = m.state.hands[0].index(card)
    keys = m.keys + ["RIGHT"] * i + ["A"]
    r = run(keys + [SETTLE], seed)
    play = r.app.play
    s = r.app.game.state
    assert play.step == S_BEND
    first = play.game.bend
    other = A_BEND_R if first == A_BEND_L else A_BEND_L
    to = (s.head + TURN[other - A_BEND_L + 1]) & 3
    assert line_text(r.app.ui.toast) == ("</>" if head & 1 else "^/v") + ": bend  A: lay"
    r = run(keys + [_KEY[to], "A", SETTLE], seed)
    t = r.app.game.state
    assert t.track[-1] == card and t.bends[-1] == other - A_BEND_L + 1
    assert t.head == to  # the open end points where the key pointed
    # The key toward the bend offered first keeps it.
    back = (s.head + TURN[first - A_BEND_L + 1]) & 3
    r = run(keys + [_KEY[to], _KEY[back], "A", SETTLE], seed)
    assert r.app.game.state.head == back


# ---------------------------------------------------------------- finding 11: polish


def test_a_side_number_of_three_digits_keeps_a_space_from_its_label():
    # Finding 11: "Score100" ran together.
    assert side_text("Score", "12") == "Score 12"
    assert side_text("Score", "100") == "Scor 100"
    assert all(" " in side_text(label, "100") for label in ("Score", "Pile", "Deck"))


def test_cards_that_cannot_be_played_are_veiled_and_the_hand_shows_more_off_its_end():
    # Finding 11: unplayable cards looked playable; a hand of more than 10 cards showed 10
    # with no sign of the rest. Passing draws a card a turn (§4).
    seed = 5
    m = Model(MODE_SOLO, seed)
    m.play_passes(10)
    s = m.state
    assert len(s.hands[0]) > HAND_N
    r = run(m.keys + [SETTLE], seed)
    ui = r.app.ui
    s = r.app.game.state
    hand = s.hands[0]
    for i in range(HAND_N - 1):
        c = hand[i]
        playable = s.is_legal((A_CHAOS if KIND[c] == KIND_CHAOS else A_LAY) + c)
        want = sprites.T_NONE if playable else sprites.T_VEIL
        assert ui.veil[i, 0] == want and ui.veil[i, 1] == want, (i, c)
    assert any(ui.veil[i, 0] == sprites.T_VEIL for i in range(HAND_N))
    # Issue 35 row 8: ">" lay over the last card's rails; now it has the last place to itself.
    assert line_text(ui.more).endswith(">") and not line_text(ui.more).startswith("<")
    assert ui.hand[HAND_N - 1, 0] == ui.hand[HAND_N - 1, 1] == sprites.T_NONE
    assert ui.veil[HAND_N - 1, 1] == sprites.T_NONE
    # At the hand's other end: "<" where cards lie off its left, in the first place.
    r = run(m.keys + ["RIGHT"] * len(hand) + [SETTLE], seed)
    play = r.app.play
    assert play.game.hoff > 0 and play.game.sel == len(hand) - 1
    assert line_text(r.app.ui.more) == "<"
    assert r.app.ui.hand[0, 0] == r.app.ui.hand[0, 1] == sprites.T_NONE
    assert r.app.ui.hand[HAND_N - 1, 0] == card_top(hand[-1])  # the last card, whole
    assert r.app.ui.cursor.x == 16 * (HAND_N - 1)


def test_records_shows_the_last_games_above_the_fold():
    # Finding 11: the last games were below the fold: the first lay under the footer.
    seed = 8
    m = Model(MODE_SOLO, seed)
    m.play_simple()
    r = run(m.keys + [SETTLE, "A", "DOWN", "A", SETTLE], seed)
    lines = lines_text(r.app.menus.labels.lines)
    assert lines[0].split() == ["Mode", "best", "games", "won"]
    assert lines[5].split()[:2] == ["Last", "games"]
    assert lines[6].split()[:2] == ["Solo", str(m.state.score(0))]  # the game just played
    assert lines[3].split()[0] == "Rival" and len(lines[3].split()) == 4  # its wins


@pytest.mark.parametrize("entry,keys", [
    ("New game", ["A", "B"]), ("Records", ["DOWN", "A", "B"]),
    ("Settings", ["DOWN", "DOWN", "A", "B"]), ("Settings", ["DOWN", "DOWN", "A", "RIGHT", "B"]),
    ("How to play", ["DOWN", "DOWN", "DOWN", "A", "B"]),
])
def test_b_from_a_title_entry_comes_back_with_the_cursor_on_it(entry, keys):
    # Finding 11: after B the cursor jumped to New game (a changed setting saves on the way
    # back: a switch, the menus' code loaded again).
    r = run(keys + [SETTLE], 1)
    assert r.app.screen == SC_TITLE
    menus = r.app.menus
    assert menus.items[menus.mi] == entry
    assert "> " + entry in screen_lines(r.app.ui)


def test_the_rival_mode_first_turn_shows_badges_too():
    # The rival's game draws the same map (docs/rules.md §8): values after the rival's lay.
    seed = 21
    m = Model(MODE_RIVAL, seed)
    r = run(m.keys + [SETTLE], seed)
    s = r.app.game.state
    for i, tile in _values_shown(r).items():
        assert tile in (sprites.T_VALUE + VALUE[s.track[i]] - 1,
                        sprites.T_TAKEN + VALUE[s.track[i]] - 1)

