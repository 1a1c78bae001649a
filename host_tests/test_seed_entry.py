"""Shared deals on the device's screens (lnr/menus/screen.py, lnr/games.py): the game over shows the
game's seed, the New game screen's Seed row types it, and the typed seed plays exactly the
game that seed gave before (the same deck, dice and bots: its loknroll/1 record is the same);
Records lists the history's last games, newest first, with their seeds; every new text fits
its 26-character line at its longest.
"""
from tools.bots import records
from tools.sim import fast as sim_fast, simulator as sim
from tools.sim.app_script import Model, SETTLE
from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_TABLE
from tools.sim.screen_text import lines_text  # noqa: E402
from lnr import image, lastgames
from lnr.menus import screen as menus
from lnr.game import MODE_TITLES, SEED_MASK
from lnr.screens import SC_OVER, SC_MODES, SC_RECORDS
from lnr.storage import Storage
from lnr.ui import LINE_W

import pytest


def run(keys, seed, tmp_path, name):
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=seed, render_every=0, settle=60,
                             nvm_path=str(tmp_path / (name + ".bin")),
                             drive=str(tmp_path / name))
    assert r.ok, r.error
    return r


def texts(r):
    return lines_text(r.app.menus.labels.lines)


def typing(seed):
    """The keys that type `seed` on the New game screen (the cursor on Solo): down to the Seed
    row, A, each digit's UP presses and RIGHT, A (back on the mode)."""
    keys = ["DOWN"] * 4 + ["A"]
    for ch in "%08d" % seed:
        keys += ["UP"] * int(ch) + ["RIGHT"]
    return keys + ["A"]


@pytest.mark.parametrize("mode", [MODE_SOLO, MODE_TABLE])
def test_a_typed_seed_plays_the_very_same_game_again(tmp_path, mode):
    # The first game: the device's own (random) seed, the longest one (8 digits).
    first_seed = SEED_MASK
    m = Model(mode, first_seed)
    m.play_simple()
    assert m.state.is_terminal()
    first = run(m.keys + [SETTLE], first_seed, tmp_path, "a")
    assert first.app.screen == SC_OVER
    footer = texts(first)[7]
    assert footer == "Seed %d  A: title" % first_seed  # whole: not cut by the line's width
    shown = int(footer.split()[1])
    # Another device, whose next seed would be 99: New game, type the seed shown, the mode,
    # then the same keys as the first game from the mode's screen on.
    keys = ["A"] + typing(shown) + ["DOWN"] * mode + ["A"] + m.keys[2 + mode:]
    second = run(keys + [SETTLE], 99, tmp_path, "b")
    assert second.app.screen == SC_OVER
    assert texts(second)[7] == footer
    a = records.games(first.app.store)
    b = records.games(second.app.store)
    assert len(a) == len(b) == 1
    assert a[0]["seed"] == b[0]["seed"] == first_seed
    assert a[0]["record"] is not None and a[0]["record"] == b[0]["record"]
    assert first.app.store.history() == second.app.store.history()
    assert second.app.seed == 99  # the typed seed is used once: the device's own is untouched
    assert second.app.menus.typed is None  # the next New game is random again


def test_the_seed_row_types_digits_and_stops_at_the_largest_seed(tmp_path):
    # A, down to Seed, A: typing from 00000000.
    r = run(["A"] + ["DOWN"] * 4 + ["A", "RIGHT", "UP", "UP", SETTLE], 1, tmp_path, "a")
    lines = texts(r)
    assert r.app.screen == SC_MODES and r.app.menus.digit == 1
    assert lines[5] == "> Seed: 02000000"
    assert lines[6].index("^") == len("> Seed: 0")  # the caret under the digit typed
    # Issue 35 row 9: DOWN on the first digit of 00000000 gave 16777215, and UP, UP, DOWN
    # 06777215: a digit past SEED_MASK (24 bits, lnr.game) changed the others. Now a digit
    # wraps within the values that keep the seed below it, and the others stay as typed.
    r = run(["A"] + ["DOWN"] * 4 + ["A", "DOWN", SETTLE], 1, tmp_path, "b")
    assert texts(r)[5] == "> Seed: 10000000"
    r = run(["A"] + ["DOWN"] * 4 + ["A", "UP", "UP", SETTLE], 1, tmp_path, "b2")
    assert texts(r)[5] == "> Seed: 00000000"  # 1 -> 0: 2 would pass it
    r = run(["A"] + ["DOWN"] * 4 + ["A", "UP", "UP", "DOWN", SETTLE], 1, tmp_path, "b2")
    assert texts(r)[5] == "> Seed: 10000000"
    seven = ["A"] + ["DOWN"] * 4 + ["A"] + ["UP", "RIGHT"] + ["UP"] * 6 + ["RIGHT"] + \
        ["UP"] * 7 + ["RIGHT"] + ["UP"] * 7 + ["RIGHT"] + ["UP"] * 7 + ["RIGHT"] + ["UP"] * 2 + \
        ["RIGHT"] + ["UP"] + ["RIGHT"] + ["UP"] * 5  # 16777215, the caret on the last digit
    r = run(seven + [SETTLE], 1, tmp_path, "b3")
    assert texts(r)[5] == "> Seed: %08d" % SEED_MASK
    assert texts(r)[6].index("^") == len("> Seed: 0000000")  # the last digit
    r = run(seven + ["UP", SETTLE], 1, tmp_path, "b4")  # 16777216 would pass: 5 wraps to 0
    assert texts(r)[5] == "> Seed: 16777210"
    r = run(seven + ["LEFT", "LEFT", "UP", "DOWN", "DOWN", SETTLE], 1, tmp_path, "b5")
    assert texts(r)[5] == "> Seed: 16777115"  # 2 -> 0 (3 would pass) -> 1, the rest as typed
    # A: done, back on the mode; B while typing makes it random, as the row offers.
    r = run(["A"] + ["DOWN"] * 4 + ["A", "UP", "A", SETTLE], 1, tmp_path, "c")
    assert texts(r)[1] == "> Solo" and texts(r)[5] == "  Seed: 10000000"
    r = run(["A"] + ["DOWN"] * 4 + ["A", "UP", "B", SETTLE], 1, tmp_path, "c2")
    assert texts(r)[5] == "> Seed: random" and r.app.menus.typed is None
    assert r.app.menus.digit == -1 and texts(r)[7] == "A: type it  B: random"
    # B on the Seed row makes a typed seed random again.
    r = run(["A"] + ["DOWN"] * 4 + ["A", "UP", "A", "UP", "B", SETTLE], 1, tmp_path, "d")
    assert texts(r)[5] == "> Seed: random" and r.app.menus.typed is None


def test_records_lists_the_last_games_newest_first_with_their_seeds(tmp_path):
    # Two solo games and a challenge (the app's seed goes up by one a game), then Records.
    keys = []
    for mode, seed in ((MODE_SOLO, 8), (MODE_SOLO, 9), (MODE_CHALLENGE, 10)):
        m = Model(mode, seed)
        m.play_simple()
        keys += m.keys + [SETTLE, "A"]
    r = run(keys + ["DOWN", "A", SETTLE], 8, tmp_path, "a")
    assert r.app.screen == SC_RECORDS
    top = texts(r)
    assert top[0].split() == ["Mode", "best", "games", "won"]  # the best per mode, as before
    assert top[1].split()[0] == "Solo" and top[1].split()[2] == "2"
    assert top[7] == "^v: scroll  B: back"
    # Scroll to the end (more DOWNs than lines: it stops at the last game). Issue 35 row 15:
    # the column header scrolled away; now the last games scroll under theirs.
    r = run(keys + ["DOWN", "A"] + ["DOWN"] * 6 + [SETTLE], 8, tmp_path, "b")
    lines = texts(r)
    history = r.app.store.history()
    assert len(history) == 3
    want = []
    for e in reversed(history):  # newest first
        seed, mode, players, won, score, bits, log = image.read_entry(e)
        want.append([menus.SHORT[mode], str(score), "won" if won else "lost", str(seed)])
    assert [line.split() for line in lines[1:4]] == want
    assert [w[3] for w in want] == ["10", "9", "8"]
    assert lines[0].split() == ["Last", "games", "result", "seed"]
    # UP scrolls back; B leaves, and the games read are let go.
    r = run(keys + ["DOWN", "A", "DOWN", "DOWN", "UP", SETTLE], 8, tmp_path, "c")
    assert texts(r)[:7] == top[:7]
    r = run(keys + ["DOWN", "A", "B", SETTLE], 8, tmp_path, "d")
    assert r.app.menus.last is None


def test_records_keeps_only_the_last_games_it_lists(tmp_path):
    # 45 games in the history: Records keeps the newest KEPT (6 bytes each), newest first.
    st = Storage(bytearray(image.SIZE), str(tmp_path), True)
    st.load()
    for i in range(45):
        st.finish_game(MODE_SOLO, i % 200, True, seed=1000 + i)
    assert len(st.history()) == 45
    last = lastgames.last_games(st)
    assert len(last) == 6 * lastgames.KEPT
    assert menus.game_line(last, 0).split() == ["Solo", "44", "won", "1044"]
    assert menus.game_line(last, lastgames.KEPT - 1).split()[3] == str(1044 - lastgames.KEPT + 1)


def test_every_new_text_fits_its_line_at_its_longest():
    # 26 characters a line (lnr/ui.py LINE_W): the widest mode, a 3-digit score, lost, the
    # largest (8-digit) seed; the Seed row with its cursor; the Records' headings.
    for mode in range(len(MODE_TITLES)):
        last = bytes((0xFF, 0xFF, 0xFF, mode, 0, 255))
        line = menus.game_line(last, 0)
        assert len(line) <= LINE_W, line
        assert line.split() == [menus.SHORT[mode], "255", "lost", str(SEED_MASK)]
    assert len("> " + menus.seed_text(SEED_MASK)) <= LINE_W
    assert len("> " + menus.seed_text(None)) <= LINE_W

def test_the_seed_rows_help_is_whole(tmp_path):
    # The Labels cut a text to its line (lnr.ui.fit): whole texts equal to what is shown fit.
    r = run(["A"] + ["DOWN"] * 4 + [SETTLE], 1, tmp_path, "a")
    assert texts(r)[5:] == ["> Seed: random", "The deal of a shared seed",
                            "A: type it  B: random"]
    r = run(["A"] + ["DOWN"] * 4 + ["A", SETTLE], 1, tmp_path, "b")
    assert texts(r)[7] == "</>^v:digit A:ok B:random"
