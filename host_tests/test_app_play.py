"""The device app's play screen, driven through the headless simulator (tools/sim/simulator.py)
with key scripts made by playing the engine (tools/sim/app_script.py): a build that derails, a
pass, a chaos discard, the bend choice, the penalty order, the derailment risk on screen and on the
NeoPixels, the rival and table opponents, the hot seat. Each test checks the engine State the
keys led to against the model, and the screen's pixels and the NeoPixel colours against what
the rules say should show.

Seeds are searched with the engine at test time (deterministic ranges), so the situations
stay found if the deal changes.
"""
import itertools
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.app_script import (  # noqa: E402
    Model, SETTLE, find, derailing_card, chaos_card, order_choice, two_bends,
)
from engine.cards import KIND, KIND_CHAOS, SHAPE, SHAPE_CURVE, VALUE  # noqa: E402
from engine.risk import permille  # noqa: E402
from engine.state import (  # noqa: E402
    A_BEND_L, A_BEND_R, A_CHAOS, A_LAY, A_PASS, A_PILE, P_BEND, P_BUILD, P_DICE, P_ORDER, P_TURN,
    MODE_SOLO, MODE_RIVAL, MODE_TABLE, TURN,
)
from tools.sim.screen_text import line_text as text  # noqa: E402
from lnr import leds as L  # noqa: E402
from lnr import sprites  # noqa: E402
from engine.order import orders, pile_after  # noqa: E402
from lnr.play.view import S_BEND, S_HAND, S_HANDOFF, S_ORDER, side_text  # noqa: E402
from lnr.ui import RED, GREEN, YELLOW, MAP_W, MAP_H  # noqa: E402
from helpers import count, rgb  # noqa: E402

PANEL = (16, 8, 144, 90)  # inside the panel drawn over the map (lnr/ui.py)
HAND = (0, 96, 160, 128)


def line_box(i):
    """The box of text line i of the panel (lnr/ui.py: 12 px lines from y 4, x from 14)."""
    return (14, 4 + 12 * i, 152, 16 + 12 * i)


def run(keys, seed, fast=True, **kw):
    kw.setdefault("render_every", 0)  # the final screen drawn: what the tests read of pixels
    if fast:
        with sim_fast.fast():
            r = sim.run_headless(keys, seed=seed, **kw)
    else:
        r = sim.run_headless(keys, seed=seed, **kw)
    assert r.ok, r.error
    assert not r.hw.overflowed  # no press lost: the scripts wait out the timed steps
    return r


# ---------------------------------------------------------------- a build that derails


def test_a_build_that_derails_shows_red_on_screen_and_leds():
    # docs/rules.md §5: more wheels than cards ahead derails; the mover earns a penalty per move
    # left. The seed is one where laying a card of the first hand alone derails.
    seed, card = find(MODE_SOLO, derailing_card)
    m = Model(MODE_SOLO, seed)
    m.build(card)
    keys_before_result = m.keys[:m.result_at]  # up to the result panel
    r = run(keys_before_result + [SETTLE], seed)
    s = r.app.game.state
    assert r.app.play.step == S_HAND and r.app.play.summary
    assert s.derails == 1 and s.derail_left > 0
    # The panel: its title in yellow, "DERAILED!" in red on line 1.
    assert count(r, line_box(0), YELLOW) > 30
    assert count(r, line_box(1), RED) > 40
    assert "DERAILED" in text(r.app.ui.plines[1])
    assert text(r.app.ui.plines[2]).startswith("Penalty %d" % s.earned)
    # The dice row: one die tile per die rolled; a wheel is a black ring on white.
    assert r.app.play.dice == []  # the roll is over
    # NeoPixels: the roll lit one pixel per die (wheel white-grey), then every pixel red.
    assert any(rgb(L.WHEEL) in frame for frame in r.leds)
    assert (rgb(L.RED),) * 5 in r.leds
    first_red = r.leds.index((rgb(L.RED),) * 5)
    assert any(rgb(L.WHEEL) in frame for frame in r.leds[:first_red])
    # All the keys: the turn ends in the same State as the engine's.
    r = run(m.keys + [SETTLE], seed)
    assert r.app.game.state == m.state


def _derails_with_dice(m):
    card = derailing_card(m)
    return card if card is not None and VALUE[card] >= 3 else None


def test_the_roll_shows_each_die_on_screen_and_one_pixel_per_die():
    # docs/rules.md §4: a build rolls as many dice as the values laid; the app rolls them one by
    # one (lnr/play/run.py DIE_MS apart) so the screen and the LEDs can follow.
    seed, card = find(MODE_SOLO, _derails_with_dice)
    m = Model(MODE_SOLO, seed)
    m.build(card)
    # Stop a few frames into the roll: the dice rolled so far show, the rest are pending.
    r = run(m.keys[:m.roll_at], seed, settle=8)
    play = r.app.play
    assert play.dice_total >= 3 and 0 < len(play.dice) < play.dice_total
    cards = r.app.ui.cards
    for i in range(play.dice_total):
        want = sprites.T_DIE + play.dice[i] if i < len(play.dice) else sprites.T_DIE + 2
        assert cards[i % 8, i // 8] == want
    frame = r.leds[-1]
    for i in range(len(play.dice)):
        assert frame[i] == rgb(L.WHEEL if play.dice[i] else L.BLANK)
    assert frame[len(play.dice)] == rgb(L.PENDING)
    # Pending dice are grey, rolled ones white: both on screen.
    assert count(r, (16, 18, 144, 34), sprites.COLOURS[sprites.C_EDGE]) > 50


# ---------------------------------------------------------------- pass, chaos


def test_a_pass_moves_the_loco_one_card_and_takes_one_penalty():
    # docs/rules.md §4: a pass moves the loco 1 card forward (never derails), then 1 penalty card.
    seed = 11
    m = Model(MODE_SOLO, seed)
    start = m.state.clone()
    r = run(m.keys + ["START", "A", SETTLE], seed)
    s = r.app.game.state
    expect = start.clone()
    expect.apply(A_PASS)
    assert s.moved == expect.moved and s.earned == expect.earned
    assert r.app.play.step == S_HAND and r.app.play.summary  # the result, up until a key
    assert text(r.app.ui.plines[0]) == "YOU pass"
    assert text(r.app.ui.plines[1]) == ("Loco +1" if start.ahead() else "Loco stays")
    assert text(r.app.ui.plines[2]).startswith("Penalty %d" % s.earned)
    assert count(r, line_box(0), YELLOW) > 30
    assert count(r, line_box(1), RED) == 0  # no derailment on a pass
    # The turn is over as the engine ends it (the one penalty card piled), no key needed.
    m.pass_turn()
    assert r.app.game.state == m.state
    # Beside the result, the score it sums up: before the next turn's draw (issue 24 finding 9).
    s = m.state
    assert text(r.app.ui.side[1]) == side_text("Score", str(s.score(0) - VALUE[s.hands[0][-1]]))
    r = run(m.keys + ["RIGHT", SETTLE], seed)  # the key shows the card drawn
    assert text(r.app.ui.side[1]) == side_text("Score", str(s.score(0)))


def test_a_chaos_discard_puts_it_on_the_pile_without_penalty():
    # docs/rules.md §4: discard chaos: no move, no penalty; §6 combining applies.
    seed, card = find(MODE_SOLO, chaos_card)
    m = Model(MODE_SOLO, seed)
    before = m.state.clone()
    m.chaos(card)
    r = run(m.keys + [SETTLE], seed)
    s = r.app.game.state
    assert s == m.state
    assert card not in s.hands[0] and (card in s.piles[0] or card in s.box)
    assert s.loco == before.loco and s.track == before.track
    # The hand no longer shows a chaos card (brown face) unless the new draw is one.
    chaos_left = sum(1 for c in s.hands[0] if KIND[c] == KIND_CHAOS)
    brown = count(r, HAND, sprites.COLOURS[sprites.C_CHAOS])
    assert (brown > 0) == (chaos_left > 0)
    top = s.piles[0][-1] if s.piles[0] else None
    assert text(r.app.ui.side[2]) == side_text("Pile", str(VALUE[top]) if top is not None else "-")


def _two_chaos_in_an_order_that_matters(m):
    # A turn of the player's, reached by playing cautiously, whose hand holds two chaos cards
    # or more that score differently in one order than in the hand's (docs/rules.md §6).
    for _ in range(40):
        s = m.state
        if s.is_terminal():
            return None
        chaos = [c for c in s.hands[s.seat] if KIND[c] == KIND_CHAOS]
        if len(chaos) > 1 and pile_after(s.piles[0], orders(s.piles[0], chaos)[0][1]) < \
                pile_after(s.piles[0], chaos):
            return True
        m.play_simple(1)
    return None


def test_the_menus_discard_puts_every_chaos_card_in_the_order_that_scores_best():
    # The action menu's Discard chaos (lnr/play/actions.py): every chaos card in hand goes on the
    # pile, no move, no penalty (docs/rules.md §4), in the order that leaves the least on the
    # pile (§6, engine.order loaded for the moment), not in the hand's order.
    seed, _ = find(MODE_SOLO, _two_chaos_in_an_order_that_matters)
    m = Model(MODE_SOLO, seed)
    _two_chaos_in_an_order_that_matters(m)
    s0 = m.state
    chaos = [c for c in s0.hands[0] if KIND[c] == KIND_CHAOS]
    want = s0.clone()
    for c in orders(s0.piles[0], chaos)[0][1]:
        want.apply(A_CHAOS + c)
    r = run(m.keys + ["START", "DOWN", "DOWN", "A", SETTLE], seed)
    s = r.app.game.state
    assert s.piles[0] == want.piles[0] and s.box == want.box
    assert not [c for c in s.hands[0] if c in chaos]
    assert s.loco == s0.loco and s.track == s0.track  # no move
    assert pile_after([], s.piles[0]) < pile_after(s0.piles[0], chaos)


# ---------------------------------------------------------------- bend, risk


def test_bend_choice_shows_the_curve_at_the_open_end_and_left_right_choose():
    # docs/rules.md §2: a curve turns left or right, the layer's choice (D6).
    seed, card = find(MODE_SOLO, two_bends)
    m = Model(MODE_SOLO, seed)
    i = m.state.hands[0].index(card)
    keys = m.keys + ["RIGHT"] * i + ["A"]
    r = run(keys + [SETTLE], seed)
    play = r.app.play
    s = r.app.game.state
    assert play.step == S_BEND and s.phase == P_BEND and s.pending == card
    first = play.game.bend
    # The map shows that curve, entered with the track's heading, at the open end, framed.
    view = play.view.map
    tx, ty = s.target() // 128 - 64 - view.ox, s.target() % 128 - 64 - view.oy
    exit_ = (s.head + TURN[first - A_BEND_L + 1]) & 3
    from lnr.play.mapview import track_tile
    assert r.app.ui.map[tx, ty] == track_tile(card, s.head, exit_)
    assert not r.app.ui.frame.hidden
    assert count(r, (16 * tx, 16 * ty, 16 * tx + 16, 16 * ty + 2), YELLOW) >= 14
    # The other way: RIGHT (or LEFT) picks the other bend, A lays it.
    other = A_BEND_R if first == A_BEND_L else A_BEND_L
    r = run(keys + ["RIGHT" if other == A_BEND_R else "LEFT", "A", SETTLE], seed)
    s = r.app.game.state
    assert s.track[-1] == card and s.bends[-1] == other - A_BEND_L + 1
    # B before A: the card is back in hand, nothing laid.
    r = run(keys + ["B", SETTLE], seed)
    assert r.app.game.state == m.state and r.app.play.step == S_HAND


def _straight_then_curve(m):
    # A straight card that lays now, then a curve that the build can take next (§4: a build
    # lays cards of one value), the curve with a choice of bend.
    s = m.state
    for c in s.hands[0]:
        if SHAPE[c] == SHAPE_CURVE or KIND[c] == KIND_CHAOS or s.why_not(A_LAY + c) is not None:
            continue
        t = s.clone()
        t.apply(A_LAY + c)
        for d in t.hands[0]:
            if SHAPE[d] == SHAPE_CURVE and t.why_not(A_LAY + d) is None:
                u = t.clone()
                u.apply(A_LAY + d)
                if u.legal_actions() == [A_BEND_L, A_BEND_R]:
                    return c, d
    return None


def test_b_in_the_bend_step_gives_back_the_build_as_it_was_before_the_curve():
    # B in the bend step cancels that curve only (lnr/play/screen.py key_bend): the State is the one
    # before the curve was picked, the straight card laid before it still laid, and the game
    # goes on from there as it would have (the curve laid after all, the build rolled).
    seed, (first, curve) = find(MODE_SOLO, _straight_then_curve)
    m = Model(MODE_SOLO, seed)
    s0 = m.state
    t = s0.clone()
    t.apply(A_LAY + first)  # the State the cancel must give back
    n = len(t.hands[0])
    keys = (m.keys + ["RIGHT"] * s0.hands[0].index(first) + ["A"]
            + ["LEFT"] * (n - t.hands[0].index(curve)) + ["A"])
    r = run(keys + [SETTLE], seed)
    assert r.app.play.step == S_BEND and r.app.game.state.pending == curve
    r = run(keys + ["B", SETTLE], seed)
    s = r.app.game.state
    assert s == t and s.phase == P_BUILD and s.track[-1] == first
    assert r.app.play.step == S_HAND
    assert s.log.bits == t.log.bits and s.log.data == t.log.data  # the record is the game's
    # Picked again and laid, the curve ends the same as if never cancelled.
    sel, j = r.app.play.game.sel, t.hands[0].index(curve)
    again = (["LEFT"] * (sel - j) if sel >= j else ["RIGHT"] * (j - sel)) + ["A", "A"]
    r2 = run(keys + ["B", SETTLE] + again + [SETTLE], seed)
    r1 = run(keys + ["A", SETTLE], seed)
    assert r2.app.game.state == r1.app.game.state
    assert r2.app.game.state.log.data == r1.app.game.state.log.data


def _layable(m):
    s = m.state
    for c in s.hands[0]:
        if KIND[c] != KIND_CHAOS and s.why_not(A_LAY + c) is None:
            return c
    return None


def test_risk_of_the_card_under_the_cursor_on_screen_and_leds_and_b_undoes_the_build():
    # state.build_risk(card): the exact chance the build derails (docs/rules.md §5).
    seed, card = find(MODE_SOLO, _layable)
    m = Model(MODE_SOLO, seed)
    s0 = m.state
    i = s0.hands[0].index(card)
    r = run(m.keys + ["RIGHT"] * i + [SETTLE], seed)
    num, den = s0.build_risk(card)
    pm = permille(num, den)
    side = text(r.app.ui.side[7])
    assert side.startswith("Lay ")  # the card under the cursor, laid alone
    pct = (pm + 5) // 10
    assert side == ("Lay <1%" if num and not pct else "Lay %d%%" % pct)
    # The LEDs show the risk bar (lnr/leds.py): lit pixels in the ramp colour.
    lit = max(1, (pm * 5 + 999) // 1000)
    colour = rgb(L.RISK[(pm + 50) // 100])
    assert r.leds[-1] == (colour,) * lit + (rgb(L.OFF),) * (5 - lit)
    # Lay it (any bend offered first): the build is being composed; B undoes it entirely.
    keys = m.keys + ["RIGHT"] * i + ["A"]
    t = s0.clone()
    t.apply(A_LAY + card)
    if t.phase == P_BEND:
        keys.append("A")
    r = run(keys + [SETTLE], seed)
    s = r.app.game.state
    assert s.phase in (P_BUILD, P_DICE) and s.track[-1] == card
    r = run(keys + ["B", SETTLE], seed)
    assert r.app.game.state == s0
    assert r.app.play.step == S_HAND


# ---------------------------------------------------------------- penalty order


def test_penalty_order_offers_the_best_order_first_and_others_on_left_right():
    # docs/rules.md §6: equal values next to each other (and to the pile top) combine; the order
    # that scores best comes first.
    seed, card = find(MODE_SOLO, order_choice, range(1, 2000))
    m = Model(MODE_SOLO, seed)
    m.build(card)
    keys = m.keys[:m.order_at]  # up to the order panel
    r = run(keys + [SETTLE], seed)
    play = r.app.play
    assert play.step == S_ORDER
    s = r.app.game.state
    pile = s.piles[0]
    best = min(pile_after(pile, p) for p in itertools.permutations(s.penalty))
    assert play.panel.opts[0][0] == best
    assert all(play.panel.opts[0][0] <= o[0] for o in play.panel.opts)
    assert text(r.app.ui.plines[5]).endswith("(best)")
    assert count(r, line_box(5), GREEN) > 20
    # The cards shown, in that order, after the pile's top.
    for i, c in enumerate(play.panel.opts[0][1][:6]):
        assert r.app.ui.cards[2 + i, 0] == sprites.T_DIGIT + VALUE[c] - 1 or \
            r.app.ui.cards[2 + i, 0] == sprites.T_CDIGIT + VALUE[c] - 1
    # RIGHT then A: the second order goes on the pile, one card after the other.
    r = run(keys + ["RIGHT", "A", SETTLE], seed)
    second = play.panel.opts[1][1]
    expect = s.clone()
    for c in second:
        expect.apply(A_PILE + c)
    assert r.app.game.state.piles[0] == expect.piles[0]
    # A alone: the best order, as the model plays it.
    r = run(m.keys + [SETTLE], seed)
    assert r.app.game.state == m.state


# ---------------------------------------------------------------- opponents


def test_rival_plays_first_on_its_own_and_its_card_count_shows():
    # docs/rules.md §8: the rival plays first, by fixed rules; its score is its pile's card count.
    seed = 21
    m = Model(MODE_RIVAL, seed)
    m.play_passes(3)
    # RIGHT, LEFT: the rival's result panel (up until a key) goes, the cursor back.
    r = run(m.keys + ["RIGHT", "LEFT", SETTLE], seed)
    s = r.app.game.state
    assert s == m.state
    assert s.seat == 1 and s.phase == P_TURN
    assert text(r.app.ui.side[3]) == side_text("Rival", str(s.score(0)))
    assert text(r.app.ui.side[0]) == "YOU"
    assert count(r, (112, 36, 160, 48), RED) > 10  # the rival's count in red


def test_table_bots_play_their_turns_to_the_end_of_the_game():
    # docs/rules.md §8 table: built-in opponents take the other seats (engine.bots).
    seed = 6
    m = Model(MODE_TABLE, seed)
    m.play_passes()
    r = run(m.keys + [SETTLE], seed, render_every=0)
    assert r.app.game is None and r.app.screen == 7  # the game over screen
    assert r.app.store.played[3] == 1


def test_hot_seat_hides_the_hand_until_the_next_player_presses_a():
    # A table of two people passing the device: hands are secret (docs/rules.md §3.5).
    seed = 7
    nav = ["LEFT", "DOWN", "RIGHT", "DOWN", "A"]  # seats 3 -> 2; P2 bot -> person; Start
    m = Model(MODE_TABLE, seed, players=2, table_roles=bytes([0]), nav=nav)
    m.pass_turn()
    keys = m.keys[:-1]  # the last key is the hot-seat panel's A before P2's hand shows
    r = run(keys + [SETTLE], seed)
    s = r.app.game.state
    assert s.seat == 1 and r.app.play.step == S_HANDOFF
    assert all(r.app.ui.hand[x, y] == sprites.T_NONE for x in range(10) for y in range(2))
    assert count(r, HAND, 0xFFFFFF) == 0  # no card face at all
    r = run(m.keys + [SETTLE], seed)
    assert r.app.play.step == S_HAND and r.app.game.state == m.state
    assert count(r, HAND, 0xFFFFFF) > 100  # P2's cards
    assert text(r.app.ui.side[0]) == "P2"


# ---------------------------------------------------------------- broken track, hint, look


def _pass_hits_broken(m):
    s = m.state.clone()
    s.apply(A_PASS)
    return s.hits > 0


def test_entering_a_broken_card_blinks_the_leds_amber_and_says_so():
    # docs/rules.md §5, D1: each broken card the loco enters costs a penalty card, a pass too.
    for seed in range(1, 3000):
        m = Model(MODE_SOLO, seed)
        for _ in range(6):
            if m.state.is_terminal() or _pass_hits_broken(m):
                break
            m.pass_turn()
        if not m.state.is_terminal() and _pass_hits_broken(m):
            break
    else:
        raise AssertionError("no pass onto a broken card found")
    m.pass_turn()
    r = run(m.keys[:m.result_at] + [SETTLE], seed)
    s = r.app.game.state
    assert s.hits == 1
    assert text(r.app.ui.plines[1]) == "Loco +1, 1 broken card"  # issue 24 finding 9
    assert count(r, line_box(1), RED) > 30
    assert (rgb(L.AMBER),) * 5 in r.leds


def _hint_lays(m):
    # A first turn whose hint lays a card (not a pass): the cursor has a card to go to.
    from tools.sim.hints import find as find_hint

    found = find_hint(m.state.clone())
    return found is not None and A_LAY <= found[0] < A_CHAOS


@pytest.mark.parametrize("lays", [False, True], ids=["seed 12", "a hint that lays"])
def test_hint_panel_names_a_legal_action_and_moves_the_cursor_to_its_card(lays):
    seed = find(MODE_SOLO, _hint_lays)[0] if lays else 12
    m = Model(MODE_SOLO, seed)
    r = run(m.keys + ["START", "DOWN", "DOWN", "DOWN", "A", SETTLE], seed)
    play = r.app.play
    s = r.app.game.state
    assert text(r.app.ui.plines[0]) == "Hint"
    said = text(r.app.ui.plines[1])
    assert said and count(r, line_box(1), GREEN) > 20
    # What it says is something the player may do now, and the cursor is on its card.
    legal = s.legal_actions()
    if said.startswith("Pass"):  # "Pass: 1 card, +2" (what it costs)
        assert A_PASS in legal
    else:
        c = play.selected()
        assert c >= 0 and (said.startswith("Lay") or said.startswith("Discard"))
        assert any(a - A_LAY == c or a - A_CHAOS == c for a in legal)
        # ... shown there under the panel (it was hidden while the panel was up).
        g, cursor = play.game, r.app.ui.cursor
        assert not cursor.hidden and cursor.x == 16 * (g.sel - g.hoff + play.window()[0])
    assert s == m.state  # a hint changes nothing


def test_select_looks_around_the_track_and_back_follows_the_loco():
    seed = 12
    m = Model(MODE_SOLO, seed)
    m.play_simple(4)  # a longer track to look along
    m.keys += ["A"] if m.summary else []  # the last result put away
    r0 = run(m.keys + [SETTLE], seed)
    ox, oy = r0.app.play.view.map.ox, r0.app.play.view.map.oy
    s = r0.app.game.state
    xs = [c // 128 - 64 for c in s.cells + [s.target()]]
    ys = [c % 128 - 64 for c in s.cells + [s.target()]]
    # Issue 35 row 15: the look went on into empty space without end; now the map's middle
    # stays within the track's extent, open end included, whatever the keys.
    for key, far in (("LEFT", min(xs)), ("RIGHT", max(xs)), ("UP", min(ys)), ("DOWN", max(ys))):
        r = run(m.keys + ["SELECT"] + [key] * 20 + [SETTLE], seed)
        mx = r.app.play.view.map.ox + (MAP_W - 1) // 2
        my = r.app.play.view.map.oy + (MAP_H - 1) // 2
        assert (mx if key in ("LEFT", "RIGHT") else my) == far, key
    away = "LEFT" if ox + (MAP_W - 1) // 2 > min(xs) else "RIGHT"  # a way with track
    r = run(m.keys + ["SELECT", away, SETTLE], seed)
    assert r.app.play.view.map.ox == ox + (1 if away == "RIGHT" else -1)  # it looked away
    r = run(m.keys + ["SELECT", away, "B", SETTLE], seed)
    assert (r.app.play.view.map.ox, r.app.play.view.map.oy) == (ox, oy)
    assert r.screen == r0.screen


def test_timed_steps_fall_due_across_the_clock_wrap():
    # supervisor.ticks_ms() wraps at 2**29, about a minute after power-up (docs/hardware.md):
    # a deadline set just before the wrap (adafruit_ticks.ticks_add) falls due just after it,
    # neither at once (the wrapped deadline is the smaller number) nor never.
    from adafruit_ticks import ticks_add
    from lnr.play.view import TOAST_MS, S_AUTO
    from lnr.play.screen import AUTO_MS

    r = run(Model(MODE_SOLO, 5).keys + [SETTLE], 5)
    app = r.app
    play = app.play
    start = 0x1FFFFF00  # 256 ms before the wrap
    app.now = start
    play.view.toast("Hello")
    due = ticks_add(start, TOAST_MS)
    assert play.view.toast_due == due < start  # wrapped
    for now in (start, 0x1FFFFFFF, 0, ticks_add(due, -1)):
        play.tick(now)
        assert not play.ui.toast.hidden, hex(now)
    play.tick(due)
    assert play.ui.toast.hidden
    # An opponent's step on its timer (S_AUTO), the same way: it waits for its deadline.
    played = []
    play.auto_step = lambda: played.append(app.now)
    play.wait(S_AUTO, AUTO_MS)
    assert play.due == ticks_add(start, AUTO_MS) < start
    play.tick(0x1FFFFFFF)
    assert played == []
    play.tick(play.due)
    assert played == [start]
