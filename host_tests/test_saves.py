"""lnr/saves.py through its own functions (load, commit, finish_game, history) on a real
Storage (lnr/storage.py) over an 8 KB NVM of erased flash: what a finished game counts, which
score becomes a mode's best (docs/rules.md §7, §8), and that all of it is what the next power-up
reads back. Storage's methods are one line each onto these; the whole app's saves are
test_storage.py's and the faults test_storage_faults.py's."""
import pytest

from lnr import saves
from lnr.game import MODE_CHALLENGE, MODE_RIVAL, MODE_SOLO, MODE_TABLE
from lnr.image import read_entry
from lnr.limits import N_MODES
from lnr.storage import Storage


def power_up(nvm):
    """The Storage a board makes at power-up over `nvm`, loaded by lnr.saves."""
    store = Storage(nvm)
    saves.load(store)
    return store


@pytest.fixture
def nvm():
    return bytearray(b"\xff" * 8192)  # a blank board: one erased block


def test_a_blank_board_loads_the_defaults_and_no_game(nvm):
    store = power_up(nvm)
    assert store.played == [0] * N_MODES and store.best == [None] * N_MODES
    assert store.saved is None and store.rival_wins == 0


def test_a_lower_score_won_is_the_new_best_and_the_next_power_up_reads_it(nvm):
    # §7: lower is better; a game no better than the best is counted and leaves the best.
    store = power_up(nvm)
    assert saves.finish_game(store, MODE_SOLO, 30, True, None, 1, None) is True
    assert saves.finish_game(store, MODE_SOLO, 31, True, None, 1, None) is False
    assert saves.finish_game(store, MODE_SOLO, 30, True, None, 1, None) is False  # a tie
    assert saves.finish_game(store, MODE_SOLO, 12, True, None, 1, None) is True
    back = power_up(nvm)
    assert back.best[MODE_SOLO] == 12 and back.played[MODE_SOLO] == 4
    assert back.best[MODE_CHALLENGE] is None and back.played[MODE_CHALLENGE] == 0


def test_a_lost_game_is_no_record_but_a_table_game_is_whoever_won(nvm):
    # §8: a lost challenge ends early and a rival game lost is no record; a table game's score
    # is the player's record whoever won the table.
    store = power_up(nvm)
    assert saves.finish_game(store, MODE_CHALLENGE, 3, False, None, 1, None) is False
    assert saves.finish_game(store, MODE_RIVAL, 3, False, None, 2, None) is False
    assert saves.finish_game(store, MODE_TABLE, 40, False, None, 3, None) is True
    back = power_up(nvm)
    assert back.best[MODE_CHALLENGE] is None and back.best[MODE_RIVAL] is None
    assert back.best[MODE_TABLE] == 40
    assert back.played == [0, 1, 1, 1]


def test_only_a_won_rival_game_counts_as_a_win_over_the_rival(nvm):
    store = power_up(nvm)
    saves.finish_game(store, MODE_RIVAL, 20, True, None, 2, None)
    saves.finish_game(store, MODE_RIVAL, 20, False, None, 2, None)
    saves.finish_game(store, MODE_SOLO, 20, True, None, 1, None)  # a win, not over the rival
    assert power_up(nvm).rival_wins == 1


def test_the_counts_stop_at_their_two_bytes_rather_than_wrap(nvm):
    store = power_up(nvm)
    store.played[MODE_RIVAL] = 0xFFFF
    store.rival_wins = 0xFFFF
    saves.finish_game(store, MODE_RIVAL, 20, True, None, 2, None)
    back = power_up(nvm)
    assert back.played[MODE_RIVAL] == 0xFFFF and back.rival_wins == 0xFFFF


def test_an_unknown_mode_is_refused_and_writes_nothing(nvm):
    store = power_up(nvm)
    before = bytes(nvm)
    with pytest.raises(ValueError):
        saves.finish_game(store, N_MODES, 20, True, None, 1, None)
    assert bytes(nvm) == before and store.played == [0] * N_MODES


def test_a_finished_game_drops_the_saved_one(nvm):
    # The game to resume is the one just finished: continuing it again would replay its end.
    store = power_up(nvm)
    store.saved = b"\x01\x02\x03"
    saves.commit(store)
    assert power_up(nvm).saved == b"\x01\x02\x03"
    saves.finish_game(store, MODE_SOLO, 20, True, None, 1, None)
    assert power_up(nvm).saved is None


def test_hints_and_sound_come_back_as_they_were_set(nvm):
    # Both live in one settings byte (bit 0 hints on, bit 1 sound off): each set alone.
    for hints, sound in ((0, 1), (1, 0), (0, 0), (1, 1)):
        store = power_up(nvm)
        store.hints, store.sound = hints, sound
        saves.commit(store)
        back = power_up(nvm)
        assert (back.hints, back.sound) == (hints, sound)


def test_a_commit_with_nothing_changed_writes_nothing(nvm):
    # Flash wear (docs/hardware.md): the same data is not written again.
    store = power_up(nvm)
    store.brightness = 3
    assert saves.commit(store) is True
    before = bytes(nvm)
    assert saves.commit(store) is False
    assert bytes(nvm) == before


def test_a_game_with_its_seed_joins_the_history_oldest_first(nvm):
    store = power_up(nvm)
    saves.finish_game(store, MODE_SOLO, 25, True, 0x123456, 1, None)
    saves.finish_game(store, MODE_TABLE, 44, False, 0x00ABCD, 3, None)
    saves.finish_game(store, MODE_SOLO, 20, True, None, 1, None)  # no seed: no history entry
    games = [read_entry(e) for e in saves.history(power_up(nvm))]
    assert [(g[0], g[1], g[2], g[3], g[4]) for g in games] == [
        (0x123456, MODE_SOLO, 1, True, 25), (0x00ABCD, MODE_TABLE, 3, False, 44)]
