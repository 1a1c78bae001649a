"""The device app's other screens and its persistence, through the headless simulator: the
title, a game over with a new record, save & quit then resume after a power-off, the notice
for damaged NVM, settings and records, how to play, and the error screen after an unexpected
exception (iface §5: seed and turn shown, no NVM write after it).
"""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.app_script import Model, SETTLE, run_checked as run  # noqa: E402
from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, P_TURN  # noqa: E402
from tools.sim.screen_text import lines_text as texts  # noqa: E402
from lnr import leds as L  # noqa: E402
from lnr import sprites  # noqa: E402
from lnr.screens import SC_OVER, SC_TITLE, SC_SETTINGS, SC_ERROR  # noqa: E402
from lnr.storage import Storage  # noqa: E402
from lnr.ui import GREEN, RED, YELLOW, CYAN  # noqa: E402
from helpers import count, rgb  # noqa: E402

TEXT_TITLE = (4, 2, 124, 26)  # the big title (scale 2)


def line(i):
    """The box of text line i of a text screen (lnr/ui.py: 12 px lines from y 30)."""
    return (2, 30 + 12 * i, 158, 42 + 12 * i)




def shown_text(root):
    """Returns what the display shows as text, read from its displayio tree: the visible
    font-tile lines' texts, blank ones left out. Every text is font tiles: no
    adafruit_display_text Label is ever on the display (lnr/menus/labels.py, lnr/make.py)."""
    import displayio
    from adafruit_display_text.bitmap_label import Label

    tiles = []

    def walk(obj):  # in the tree's order: what is drawn first comes first
        assert not isinstance(obj, Label), "a Label on the display: %r" % obj.text
        if obj.hidden:
            return
        if isinstance(obj, displayio.Group):
            for child in obj:
                walk(child)
        elif isinstance(obj, displayio.TileGrid) and obj.tile_width == 6:  # the font sheet
            line = "".join(chr(32 + obj[x, 0]) for x in range(obj.width)).rstrip()
            if line:
                tiles.append(line)

    walk(root)
    return tiles


def stored(r):
    st = Storage(bytearray(r.nvm))
    st.load()
    return st


def test_title_screen_offers_new_game_and_shows_the_loco():
    r = run([])
    app = r.app
    assert app.screen == SC_TITLE
    assert app.menus.items == ["New game", "Records", "Settings", "How to play"]  # nothing saved
    # The title and the lines are font tiles (lnr/menus/labels.py), the title twice the font's size.
    assert shown_text(r.hw.display.root_group) == [
        "LOK'N'ROLL", "> New game", "  Records", "  Settings", "  How to play", "A: choose"]
    assert count(r, TEXT_TITLE, YELLOW) > 150  # LOK'N'ROLL, twice the font size
    assert count(r, line(2), YELLOW) > 40  # "> New game": the cursor's line
    assert count(r, line(3), 0xFFFFFF) > 40
    loco = sprites.COLOURS[sprites.C_LOCO]
    assert count(r, (96, 30, 112, 46), loco) > 30
    assert r.leds[-1] == (rgb(L.OFF),) * 5
    assert r.nvm_writes == 0


def test_solo_game_over_with_a_new_record_is_written_once():
    # docs/rules.md §8 solo: the device keeps the record (lowest score); a game's end is one write.
    seed = 3
    m = Model(MODE_SOLO, seed)
    m.play_passes()
    assert m.state.is_terminal()
    score = m.state.score(0)
    r = run(m.keys + [SETTLE], seed, render_every=0)
    assert r.app.screen == SC_OVER
    assert texts(r.app.menus.labels.lines)[0] == "Your score: %d" % score
    assert texts(r.app.menus.labels.lines)[6] == "NEW RECORD!"
    assert count(r, line(6), GREEN) > 40
    tiles = shown_text(r.hw.display.root_group)
    assert tiles[0] == "GAME OVER" and "NEW RECORD!" in tiles
    assert r.nvm_writes == 1
    st = stored(r)
    assert st.best[MODE_SOLO] == score and st.played[MODE_SOLO] == 1 and st.saved is None


def test_the_same_score_again_is_no_record_and_records_screen_counts_games(tmp_path):
    seed = 3
    nvm = str(tmp_path / "nvm.bin")
    m = Model(MODE_SOLO, seed)
    m.play_passes()
    score = m.state.score(0)
    run(m.keys + [SETTLE], seed, nvm_path=nvm, render_every=0)
    # Same seed, same game, same score: not lower, so no new record (§7: lowest wins).
    r = run(m.keys + [SETTLE], seed, nvm_path=nvm, render_every=0)
    assert texts(r.app.menus.labels.lines)[6] == "Record: %d" % score
    assert count(r, line(6), CYAN) > 30
    st = stored(r)
    assert st.played[MODE_SOLO] == 2 and st.best[MODE_SOLO] == score
    # Records: A on the game over goes to the title; Records is the second item.
    r = run(["DOWN", "A", SETTLE], seed, nvm_path=nvm)
    lines = texts(r.app.menus.labels.lines)
    assert lines[1].split() == ["Solo", str(score), "2"]
    assert lines[2].split() == ["Challenge", "-", "0"]


def test_rival_game_over_counts_a_win_or_a_loss():
    # docs/rules.md §8 rival: you win with a lower score than the rival's card count.
    seed = 4
    m = Model(MODE_RIVAL, seed)
    m.play_passes()
    s = m.state
    won = s.score(1) < s.score(0)
    r = run(m.keys + [SETTLE], seed, render_every=0)
    lines = texts(r.app.menus.labels.lines)
    assert lines[0] == "Your score: %d" % s.score(1)
    assert lines[2] == ("YOU WIN!" if won else "The rival wins")
    assert count(r, line(2), GREEN if won else RED) > 30
    st = stored(r)
    assert st.rival_wins == (1 if won else 0) and st.played[MODE_RIVAL] == 1


def test_challenge_lost_at_the_fourth_derailment_sets_no_record():
    # docs/rules.md §8 challenge: the 4th derailment ends the game, lost; finish_game gets won=False.
    from tools.sim.app_script import derailing_card

    for seed in range(1, 300):
        m = Model(MODE_CHALLENGE, seed)
        while not m.state.is_terminal():
            card = derailing_card(m)
            if card is not None:
                m.build(card)
            else:
                m.pass_turn()
        if m.state.lost:
            break
    else:
        raise AssertionError("no lost challenge found")
    r = run(m.keys + [SETTLE], seed, render_every=0)
    assert texts(r.app.menus.labels.lines)[1] == "4th derailment: lost"
    assert count(r, TEXT_TITLE, RED) > 100
    st = stored(r)
    assert st.played[MODE_CHALLENGE] == 1 and st.best[MODE_CHALLENGE] is None


def test_save_and_quit_then_resume_after_power_off_to_the_same_position(tmp_path):
    # Save & quit stores the game (engine.codec.pack); Continue unpacks it after a power-off
    # (a new run on the same NVM file) to the same State, dice generator and screen.
    seed = 5
    nvm = str(tmp_path / "nvm.bin")
    m = Model(MODE_SOLO, seed)
    m.play_passes(2)
    # RIGHT, LEFT: the last pass's result panel closed, the cursor back on the first card.
    here = run(m.keys + ["RIGHT", "LEFT", SETTLE], seed)
    assert here.app.game.state == m.state and here.app.game.state.phase == P_TURN
    save = m.keys + ["START", "UP", "A", SETTLE]  # menu: Save & quit is the last item
    r = run(save, seed, nvm_path=nvm)
    assert r.app.screen == SC_TITLE and r.app.menus.items[0] == "Continue"
    assert texts(r.app.menus.labels.lines)[0].startswith("Game saved")
    assert r.nvm_writes == 1
    # Power off and on: a new run on the same NVM. Continue is the first item.
    back = run(["A", SETTLE], seed=999, nvm_path=nvm)
    assert back.app.game.state == m.state
    assert back.app.game.rng.getstate() == m.game.rng.getstate()
    assert back.app.game.seed == seed
    assert back.screen == here.screen  # the same pixels
    assert back.leds[-1] == here.leds[-1]
    assert back.nvm_writes == 0  # resuming writes nothing
    # The resumed game plays on as the original: two more passes.
    m.play_passes(2)
    r = run(["A"] + m.keys[len(save) - 4:] + [SETTLE], seed=999, nvm_path=nvm)
    assert r.app.game.state == m.state


def _first_card_to_lay(seed):
    # A solo game's Model at its first turn, and the place in the hand of a card that may be
    # laid there (not a chaos card).
    from engine.state import A_LAY
    from engine.cards import KIND, KIND_CHAOS

    m = Model(MODE_SOLO, seed)
    s = m.state
    cards = [c for c in s.hands[0] if KIND[c] != KIND_CHAOS and s.why_not(A_LAY + c) is None]
    assert cards, "seed %d has a card to lay at the first turn (else pick another seed)" % seed
    return m, s.hands[0].index(cards[0])


def test_save_during_a_build_stores_the_turns_start():
    # B would undo the build; saving mid-build stores the turn as it began (nothing lost).
    seed = 5
    m, i = _first_card_to_lay(seed)
    # The menu opens on Build (a build is under way): UP, UP to Save & quit.
    keys = m.keys + ["RIGHT"] * i + ["A", "A", "START", "UP", "UP", "A", SETTLE]
    r = run(keys, seed)
    st = stored(r)
    from lnr.games import unpack

    assert unpack(st.saved).state == m.state


def test_the_turns_start_is_copied_at_its_first_action_not_before():
    # RAM (docs/memory.md): until the player's first action of a turn, the turn's start is the
    # game's State itself, and the play screen holds no copy of it beside the action menu, a
    # hint's switch or the handoff; the first action copies it, and B then gives it back whole.
    seed = 5
    m, i = _first_card_to_lay(seed)
    start = run(m.keys + ["RIGHT"] * i + ["START", SETTLE], seed)  # the action menu open
    assert start.app.game.state == m.state and start.app.play.game.undo is None
    laid = run(m.keys + ["RIGHT"] * i + ["A", "A", SETTLE], seed)  # the card laid
    assert laid.app.game.state != m.state and laid.app.play.game.undo == m.state
    back = run(m.keys + ["RIGHT"] * i + ["A", "A", "B", SETTLE], seed)
    assert back.app.game.state == m.state
    # B gives the turn's start back itself, copying nothing (on a board short of heap a copy
    # made there ran out of memory: CircuitPython's VM at 80 and 81 KB), and the next action
    # copies it again, as the turn's first did.
    play = laid.app.play
    start = play.game.undo
    built = play.game.state.clone()
    play.back()
    assert play.game.state is start and play.game.undo is None
    again = run(m.keys + ["RIGHT"] * i + ["A", "A", "B"] + ["RIGHT"] * i + ["A", "A", SETTLE],
                seed)
    assert again.app.game.state == built and again.app.play.game.undo == m.state


def test_damaged_nvm_shows_the_notice_once(tmp_path):
    # storage.notice: shown once on the title, never again.
    nvm = tmp_path / "nvm.bin"
    nvm.write_bytes(bytes([0x4C, 1]) + bytes(range(254)))  # a slot with a wrong checksum
    r = run([SETTLE], nvm_path=str(nvm))
    notice = " ".join(texts(r.app.menus.labels.lines)[0:2])  # over the menu, in the rails' place
    assert "damaged" in notice
    assert count(r, line(0), RED) > 40
    r = run(["DOWN", "A", "B", SETTLE], nvm_path=str(nvm))  # records and back: no notice
    assert texts(r.app.menus.labels.lines)[0:2] == ["", ""]


def test_settings_change_the_leds_at_once_and_are_saved_on_leaving():
    # Settings: LED brightness, NeoPixel count, hints (iface §4); one write when left.
    keys = ["DOWN", "DOWN", "A"]  # title: Settings
    r = run(keys + ["LEFT", "LEFT", SETTLE])
    assert r.app.screen == SC_SETTINGS
    assert r.led_brightness[-1] == L.LEVELS[0] / 100  # 2 -> 0: off
    assert r.nvm_writes == 0
    r = run(keys + ["DOWN", "LEFT", "LEFT", "LEFT", "LEFT", "DOWN", "A", "B", SETTLE])
    st = stored(r)
    assert st.pixel_count == 1 and st.hints == 0
    assert r.nvm_writes == 1
    # With one pixel the game still shows progress on pixel 0 only (PyBadge LC).
    seed = 5
    m = Model(MODE_SOLO, seed)
    r2 = run(keys + ["DOWN", "LEFT", "LEFT", "LEFT", "LEFT", "B"] + m.keys + [SETTLE], seed)
    frame = r2.leds[-1]
    assert frame[0] != rgb(L.OFF) and frame[1:] == (rgb(L.OFF),) * 4


def test_left_right_on_the_settings_back_row_change_nothing():
    # Issue 24 finding 3: LEFT/RIGHT on the Back row toggled Sound (the row above it). Sound
    # stays as it was, and leaving writes nothing (no setting changed).
    keys = ["DOWN", "DOWN", "A", "DOWN", "DOWN", "DOWN", "DOWN"]  # Settings, on Back
    r = run(keys + ["LEFT", SETTLE])
    assert r.app.screen == SC_SETTINGS
    lines = texts(r.app.menus.labels.lines)
    sound = [x for x in lines if "Sound" in x]
    assert len(sound) == 1 and sound[0].endswith(" on"), lines
    assert r.app.store.sound == 1
    r = run(keys + ["RIGHT", "LEFT", "RIGHT", "B", SETTLE])
    assert r.nvm_writes == 0 and r.app.store.sound == 1


def test_how_to_play_pages_turn_and_fit_the_screen():
    from lnr.menus.howto import PAGES

    for page in PAGES:
        assert len(page) <= 7 and all(len(t) <= 26 for t in page)
    keys = ["DOWN", "DOWN", "DOWN", "A"]
    r = run(keys + [SETTLE])
    assert texts(r.app.menus.labels.lines)[:7] == list(PAGES[0])
    r = run(keys + ["RIGHT", SETTLE])
    assert texts(r.app.menus.labels.lines)[:7] == list(PAGES[1])
    r = run(keys + ["LEFT", "LEFT", SETTLE])
    assert texts(r.app.menus.labels.lines)[:7] == list(PAGES[-1])
    # The last page is the Board's: what this board showed (lnr/memory/report.py), as the
    # serial console's line says it (docs/hardware.md).
    r = run(keys + ["LEFT", SETTLE])
    board = texts(r.app.menus.labels.lines)
    assert board[1] == "Board: sim" and board[4].startswith("The game needs ")
    assert board[7].startswith("%d/%d" % (len(PAGES) + 1, len(PAGES) + 1))


def test_an_unexpected_exception_shows_seed_and_turn_and_writes_nothing(monkeypatch):
    # iface §5: an error screen with the seed and the turn, never a frozen screen, never a
    # write to the NVM after the error.
    from lnr.play import screen as play

    def boom(self, *args):
        raise RuntimeError("boom")

    monkeypatch.setattr(play.Play, "pick", boom)
    seed = 8
    with sim_fast.fast():
        r = sim.run_headless(["A", "A", "A", SETTLE], seed=seed)
    assert isinstance(r.exception, RuntimeError)
    assert r.nvm_writes == 0 and r.nvm_writes_after_error == 0
    app = r.app
    assert app.screen == SC_ERROR and app.writes is False
    lines = texts(app.ui.lines)
    assert lines[1] == "RuntimeError: boom"
    # The resident font tiles: the error screen must show whatever the heap holds.
    tiles = shown_text(r.hw.display.root_group)
    assert tiles[:2] == ["ERROR", "Something went wrong:"]
    assert lines[4] == "Solo seed %d" % seed and lines[5].startswith("Turn 1. ")
    assert count(r, TEXT_TITLE, RED) > 60
    assert count(r, line(4), YELLOW) > 40
