"""lnr/powerup.py through its own start() and heap(), on the simulator's board (tools.sim's
headless hardware, the real displayio of Blinka): power-up reads the saves and the game starts
with them (the player's settings, not the defaults), the next game's seed is the board's cut to
3 bytes, lnr.memory starts afresh (no figure of an earlier App, nothing turned down), and a
board with less heap than the game needs (lnr.memory FLOOR_KB) says so in one line, on the
serial console and the title, and touches no save. How a whole power-up plays is the
whole-app tests'."""
import gc

import pytest

from lnr import powerup
from lnr.game import SEED_MASK
from lnr.memory import DOWN, FIGURES, FLOOR_KB
from lnr.screens import W_TITLE
from lnr.storage import Storage
from tools.sim import simulator as sim


def power_up(tmp_path, before=None, seed=7):
    """Returns (the App start() built on the simulator's board, the board), the NVM as
    `before` (a function given a loaded Storage) left it."""
    nvm_path = tmp_path / "nvm.bin"
    nvm = bytearray(b"\xff" * 8192)
    if before is not None:
        store = Storage(nvm)
        store.load()
        before(store)
    nvm_path.write_bytes(bytes(nvm))
    got = {}

    def board(hw):
        got["hw"] = hw
        got["app"] = powerup.start(hw)

    r = sim.run_headless([], seed=seed, nvm_path=str(nvm_path), app=board)
    assert r.ok, r.error
    return got["app"], got["hw"]


def test_the_players_settings_are_read_at_power_up(tmp_path):
    def settings(store):
        store.brightness, store.pixel_count, store.hints, store.sound = 4, 3, 0, 0
        store.save_settings()

    app, hw = power_up(tmp_path, settings)
    store = app.store
    assert (store.brightness, store.pixel_count, store.hints, store.sound) == (4, 3, 0, 0)
    assert app.sound.on == 0  # the effects follow the setting from the first frame
    assert app.writes is True and app.want == (W_TITLE,)  # the title, in the first switch


def test_the_next_games_seed_is_the_boards_cut_to_three_bytes(tmp_path):
    app, _ = power_up(tmp_path, seed=0x7ABCDEF)
    assert app.seed == 0x7ABCDEF & SEED_MASK == 0xABCDEF


def test_memory_starts_afresh_for_each_app(tmp_path):
    # A desktop runs several Apps in one process: no figure or turned-down feature of the last.
    FIGURES[0] = 12345
    DOWN[0] = 1
    DOWN[1] = "Sound off (memory)"
    power_up(tmp_path)
    assert FIGURES == [0] * len(FIGURES) and DOWN == [0] + [None] * (len(DOWN) - 1)


def test_cpython_tells_no_heap_and_the_game_plays_on(tmp_path):
    assert powerup.heap(object()) == 0
    app, _ = power_up(tmp_path)
    assert app.writes is True and app.message is None


@pytest.fixture
def board_heap(monkeypatch):
    """CPython's gc as a board's tells the heap (MicroPython's gc.mem_alloc and mem_free): the
    heap set by the test, in bytes, as what is allocated and what is free."""
    heap = [0]
    monkeypatch.setattr(gc, "mem_alloc", lambda: heap[0] // 4, raising=False)
    monkeypatch.setattr(gc, "mem_free", lambda: heap[0] - heap[0] // 4, raising=False)
    return heap


def test_the_heap_is_what_the_board_has_beyond_the_firmwares(board_heap):
    board_heap[0] = 120000

    class Board:
        base = 20000

    assert powerup.heap(Board()) == 100000


def test_below_the_floor_the_title_says_so_and_no_save_is_touched(tmp_path, board_heap, capsys):
    board_heap[0] = FLOOR_KB * 1024 - 1  # a byte short, the firmware's base 0 (the simulator)
    app, _ = power_up(tmp_path)
    assert app.writes is False
    said = "This board has %d KB of heap; the game needs %d KB. Saving is off." % (
        FLOOR_KB - 1, FLOOR_KB)
    assert app.message == said
    assert "loknroll: " + said in capsys.readouterr().out


def test_at_the_floor_the_game_plays_and_saves(tmp_path, board_heap):
    board_heap[0] = FLOOR_KB * 1024
    app, _ = power_up(tmp_path)
    assert app.writes is True and app.message is None
