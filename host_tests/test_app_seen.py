"""Issue 24, what a player sees of every turn: every opponent action shown until the player's
key (the rival's chaos card, a table bot's turn before the next bot's), no turn ended by one
press unasked, result lines a player can read, and the menus' notes true. Each test reads the
screen as a player does (screen_text reads the text lines' tiles) through the headless
simulator (tools/sim/simulator.py) driven by key scripts (tools/sim/app_script.py); seeds are
searched with the engine at test time.
"""
import os
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim.app_script import (  # noqa: E402
    Model, SETTLE, find, chaos_card, rival_draws_chaos, run_checked as run,
)
from engine.cards import KIND, KIND_CHAOS, VALUE  # noqa: E402
from engine.state import P_CHAOS, P_TURN, MODE_RIVAL, MODE_SOLO, MODE_TABLE  # noqa: E402
from tools.sim.screen_text import line_text as text, lines_text as texts  # noqa: E402
from lnr.play.view import S_INFO  # noqa: E402
from lnr.screens import SC_TITLE  # noqa: E402
from lnr.keys import K_A  # noqa: E402




def test_the_rivals_chaos_card_is_shown_until_the_players_key():
    # Finding 2: the rival put a drawn chaos card on its pile (§8) and the screen jumped to the
    # player's turn: the message never reached it. Now its result panel says so until a key.
    seed, card = find(MODE_RIVAL, rival_draws_chaos, range(1, 60))
    m = Model(MODE_RIVAL, seed)
    assert rival_draws_chaos(m) == card
    r = run(m.keys + [SETTLE], seed)
    assert r.app.game.state == m.state
    lines = texts(r.app.ui.plines)
    assert not r.app.ui.panel.hidden and r.app.play.summary
    assert lines[0] == "RIVAL: chaos %d" % VALUE[card], lines
    assert lines[1] == "Discarded 1 chaos"
    assert lines[2] in ("No penalty", "1 pair to the box")
    # The rival holds no hand (§8): 0 on its line, here as in the look-around (finding 9).
    rival = [x for x in lines if x.startswith("RIVAL ")]
    assert len(rival) == 1 and rival[0].split()[1].split("/")[1] == "0", lines
    r = run(m.keys + ["SELECT", SETTLE], seed)
    look = texts(r.app.ui.plines)
    assert [x for x in look if x.startswith("RIVAL ")] == rival


def _keys_to_second_bot(m):
    # The keys up to the A that lets the second bot (P3) play after P2's result.
    start = len(m.keys)
    m.pass_turn()
    i = m.keys.index("A", start + 2)  # after the pass's START, A
    return m.keys[:i]


def test_a_table_bots_result_stays_until_a_key_before_the_next_bot_plays():
    # Finding 2 / what to build 2: at a table, P2's result went after HOLD_MS as P3 began.
    # Now it stays (long after that) until the player's key, and P3 has not played; A goes on,
    # and the game goes on as the model plays it.
    seed = 6
    m = Model(MODE_TABLE, seed)
    keys = _keys_to_second_bot(m)
    r = run(keys + ["WAIT*300"], seed)  # 9 s: far beyond any hold
    s = r.app.game.state
    assert r.app.play.step == S_INFO and not r.app.ui.panel.hidden
    lines = texts(r.app.ui.plines)
    assert lines[0].startswith("P2"), lines
    assert lines[3] == "A: P3 plays next"
    assert s.seat == 2 and s.phase == P_TURN  # P3 drew, has not acted
    # A bot's build names what it laid (finding 9): "P2 laid a 3: 2 wheels", "P2 laid 2x4: ..".
    if "wheel" in lines[0]:
        assert re.match(r"^P2 laid (a \d|\dx\d): \d+ wheels?$", lines[0]), lines[0]
    r = run(m.keys + [SETTLE], seed)
    assert r.app.game.state == m.state


def test_a_bots_build_names_the_cards_laid():
    # Finding 9: "P2: 0 wheels" said nothing of the card laid. Seats 2..3 over a few rounds.
    seen = []
    m = Model(MODE_TABLE, 6)
    for _ in range(6):
        if m.state.is_terminal():
            break
        m.pass_turn()
    keys = m.keys
    # Every result panel shown on the way is read at each A that lets the next bot play.
    for i in range(len(keys)):
        if keys[i] == "A" and i > 10 and keys[i - 1].startswith("WAIT") and len(seen) < 3:
            r = run(keys[:i] + ["WAIT*5"], 6)
            if r.app.play.step == S_INFO:
                seen.append(text(r.app.ui.plines[0]))
    builds = [x for x in seen if "wheel" in x]
    assert builds, seen
    for x in builds:
        assert re.match(r"^P\d laid (a \d|\dx\d): \d+ wheels?$", x), x


def test_a_on_a_lone_chaos_card_asks_before_the_turn_ends():
    # Finding 4: A on the hand's only chaos card discarded it and ended the turn (§4), so the
    # very first A of a game could throw turn 1 away. Now A asks; B keeps it; A, A discards.
    seed, card = find(MODE_SOLO, chaos_card)
    m = Model(MODE_SOLO, seed)
    start = m.state.clone()
    go = ["RIGHT"] * start.hands[0].index(card) + ["A"]
    r = run(m.keys + go + ["WAIT*3"], seed)
    assert r.app.game.state == start  # nothing discarded, turn 1 still on
    assert text(r.app.ui.toast) == "A ends turn  B: no" and not r.app.ui.toast.hidden
    r = run(m.keys + go + ["B", "A", "WAIT*3"], seed)  # B: kept; A asks again
    assert r.app.game.state == start
    m.chaos(card)  # A, A
    r = run(m.keys + [SETTLE], seed)
    assert r.app.game.state == m.state and m.state.turn == start.turn + 1


def test_result_lines_are_spelled_out_and_the_score_is_before_the_next_draw():
    # Finding 9: the result of a pass in solo: "Loco +1" / "Loco stays", "Penalty 1", and
    # the score it left, before the next turn's draw, as the side panel and the hand show it.
    seed = 11
    m = Model(MODE_SOLO, seed)
    m.pass_turn()
    r = run(m.keys + [SETTLE], seed)
    s = m.state
    lines = texts(r.app.ui.plines)
    assert lines[0] == "YOU pass"
    assert lines[1] in ("Loco +1", "Loco stays") and lines[2] == "Penalty 1"
    drawn = VALUE[s.hands[0][-1]]
    assert lines[5] == "Your score: %d" % (s.score(0) - drawn)
    assert text(r.app.ui.side[1]).split()[-1] == str(s.score(0) - drawn)
    assert text(r.app.ui.side[4]).split()[-1] == str(len(s.deck) + 1)
    assert r.app.play.cards() == s.hands[0][:-1]


def _two_chaos(m):
    for _ in range(40):
        s = m.state
        if s.is_terminal():
            return None
        if sum(1 for c in s.hands[s.seat] if KIND[c] == KIND_CHAOS) > 1:
            return True
        m.play_simple(1)
    return None


def test_the_pass_menu_says_a_chaos_discard_has_begun():
    # Finding 10: during a chaos discard (§4) the action menu's Pass said "The build has begun".
    seed, _ = find(MODE_SOLO, _two_chaos)
    m = Model(MODE_SOLO, seed)
    _two_chaos(m)
    s = m.state
    c = [x for x in s.hands[0] if KIND[x] == KIND_CHAOS][0]
    # The menu opens on the first item that can be chosen (Discard chaos): UP, UP to Pass.
    keys = m.keys + ["RIGHT"] * s.hands[0].index(c) + ["A", "START", "UP", "UP", SETTLE]
    r = run(keys, seed)
    assert r.app.game.state.phase == P_CHAOS
    lines = texts(r.app.ui.plines)
    assert "Chaos discard begun" in lines and "The build has begun" not in lines, lines


def test_the_new_game_screen_says_what_becomes_of_a_saved_game(tmp_path):
    # Finding 10: "Finishing drops your save" was untrue (a new game's Save & quit replaces it).
    nvm = str(tmp_path / "nvm.bin")
    m = Model(MODE_SOLO, 5)
    run(m.keys + ["START", "UP", "A", SETTLE], 5, nvm_path=nvm)  # a saved game
    r = run(["DOWN", "A", SETTLE], 5, nvm_path=nvm)  # title: Continue, New game
    assert texts(r.app.menus.labels.lines)[0] == "Replaces your saved game"


def test_the_title_shows_the_whole_notice():
    # Finding 10: a notice of more than 2 lines was cut to 2 ("...saves are less"). Now all
    # of it shows, then A the menu.
    from lnr import copies
    from lnr.ui import wrap, LINE_W

    app = run(["WAIT*2"], 1).app
    app.message = copies.NOTICE_ONE  # what a copy that could not be written leaves
    app.menus.title()
    want = wrap(copies.NOTICE_ONE, LINE_W)
    assert len(want) == 3
    assert texts(app.menus.labels.lines)[:3] == want
    app.menus.key(K_A)
    assert app.screen == SC_TITLE and "New game" in app.menus.items


def test_a_or_b_on_a_result_over_the_hand_only_puts_it_away():
    # The rival's result stays over the player's turn until a key (finding 2), and the panel
    # hides the map and the risk: A laid the card under the cursor through it (B undid what was
    # built), a press the screen did not offer. Now A or B only puts the result away; then A
    # does what it does on the hand, as after any other key that put it away.
    seed, _ = find(MODE_RIVAL, rival_draws_chaos, range(1, 60))
    m = Model(MODE_RIVAL, seed)
    rival_draws_chaos(m)
    before = m.state.clone()
    for key in ("A", "B"):
        r = run(m.keys + [key, SETTLE], seed)
        assert r.app.ui.panel.hidden and not r.app.play.summary
        assert r.app.game.state == before, key  # nothing laid, nothing undone
    after_a = run(m.keys + ["A", "A", SETTLE], seed).app.game.state
    assert after_a != before  # the second A acts on the hand
    assert after_a == run(m.keys + ["RIGHT", "LEFT", "A", SETTLE], seed).app.game.state
