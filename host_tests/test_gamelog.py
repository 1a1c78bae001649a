"""engine/gamelog.py: a game is its seed plus every decision (docs/rules.md §10), logged in a few
bits per decision; engine.record.from_log() rebuilds the exact loknroll/1 record from them.
"""
import json
import subprocess
import sys

import pytest

from engine.bots import BOTS
from engine.gamelog import GameLog, MAX_BYTES, OVERFLOW, width
from engine.playout import DECIDE, seeded, steps
from engine.record import Reader, Recorder, RecordError, from_log, replay
from engine.rng import Rng
from engine.selfplay import play
from engine.deal import deal
from engine.state import MODE_NAMES, MODE_TABLE


def logged_game(mode, seed, bot, players=None):
    """Plays a game as engine/selfplay.py does, its State logging; returns (state, record)."""
    state, chance, bot_rng = seeded(mode, seed, players)
    state.log = GameLog()
    recorder = Recorder(state)
    for action in steps(state, chance, BOTS[bot], bot_rng):
        recorder.apply(state, action)
    return state, recorder.record


@pytest.mark.parametrize("mode", range(4))
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_the_log_rebuilds_the_exact_record_of_every_mode(mode, bot):
    # §10: the seed gives the deck and the dice; the log gives every decision, nothing else.
    for seed in range(6):
        players = 2 + seed % 3 if mode == MODE_TABLE else None
        state, record = logged_game(mode, seed, bot, players)
        assert record == play(MODE_NAMES[mode], seed, players, bot)
        assert 0 < state.log.bits <= MAX_BYTES * 8
        assert len(state.log.data) == (state.log.bits + 7) // 8
        rebuilt = from_log(mode, seed, state.players, bytes(state.log.data), state.log.bits)
        assert rebuilt == record
        assert replay(rebuilt).result() == record["result"]


def test_forced_steps_and_dice_take_no_bits():
    # A decision among n legal actions takes width(n) bits: 0 for a forced step; dice none.
    assert [width(n) for n in (0, 1, 2, 3, 4, 5, 16, 17)] == [0, 0, 1, 2, 2, 3, 4, 5]
    state, chance, _ = seeded(2, 11)  # rival: its every step is forced or a bend
    state.log = GameLog()
    want = forced = dice = 0
    for action in steps(state, chance):
        if state.is_chance():
            dice += 1
        else:
            acts = state.legal_actions()
            forced += len(acts) == 1
            want += width(len(acts))
            if action == DECIDE:
                action = acts[-1]
        state.apply(action)
    assert dice > 0 and forced > 0
    assert state.log.bits == want


def test_a_clone_keeps_its_own_log_so_an_undone_build_undoes_its_log():
    # lnr/play/screen.py undoes a build by going back to a clone of the turn's start.
    chance = Rng(5, 0)
    state = deal(0, chance)
    state.log = GameLog()
    state.start()
    start = state.clone()
    acts = state.legal_actions()
    state.apply(acts[-1])
    assert state.log.bits > start.log.bits == 0
    back = start.clone()
    assert back.log.bits == 0 and back.log is not start.log
    assert deal(0, Rng(5, 0)).clone().log is None  # unlogged states stay unlogged


class _WatchedLog(GameLog):
    # The game's log, counting what is asked of it.
    copies = 0
    notes = 0

    def copy(self):
        _WatchedLog.copies += 1
        return GameLog.copy(self)

    def note(self, acts, action):
        _WatchedLog.notes += 1
        GameLog.note(self, acts, action)


def test_the_hints_search_and_its_copies_leave_the_games_log_alone():
    # A search's copies play steps that are not the game's decisions (engine.lookahead, the
    # hint's look-ahead): they keep no log. Copying the game's log into each sample's State and
    # noting every step of the sample in it made the log again in RAM for every sample.
    from engine.bots import hint

    searched = 0
    for seed in range(3):
        state, chance, rng = seeded(0, seed, None)
        state.log = _WatchedLog()
        for a in steps(state, chance):
            if a == DECIDE:
                before = (_WatchedLog.copies, _WatchedLog.notes, bytes(state.log.data))
                action, search = hint(state)
                assert action in state.legal_actions()
                assert (_WatchedLog.copies, _WatchedLog.notes,
                        bytes(state.log.data)) == before
                searched += 1
                a = BOTS["greedy"](state, rng)
            state.apply(a)
    assert searched > 30 and _WatchedLog.notes > 30  # the game itself was logged


def test_a_log_that_outgrows_its_room_marks_itself_and_stays_small():
    log = GameLog()
    acts = list(range(16))
    for _ in range(MAX_BYTES * 2 + 1):  # one more than fits
        log.note(acts, 9)  # 4 bits each
    assert log.bits == OVERFLOW and len(log.data) == 0
    log.note(acts, 3)
    assert log.bits == OVERFLOW


def test_a_log_of_another_game_is_refused_with_a_record_error():
    state, record = logged_game(1, 2, "best")
    data = bytes(state.log.data)
    with pytest.raises(RecordError):
        from_log(1, 3, 1, data, state.log.bits)  # another seed: another deal
    with pytest.raises(RecordError):
        from_log(1, 2, 1, data, state.log.bits - 1)  # the log ends before the game
    longer = data + b"\x00"
    with pytest.raises(RecordError):
        from_log(1, 2, 1, longer, state.log.bits + 8)  # bits left over at the end
    r = Reader(b"\xff", 8)
    with pytest.raises(ValueError):
        r.index(3)  # 11 binary is not below 3


def test_replay_cli_accepts_a_rebuilt_record(tmp_path):
    state, record = logged_game(MODE_TABLE, 9, "random", 4)
    rebuilt = from_log(MODE_TABLE, 9, 4, bytes(state.log.data), state.log.bits)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rebuilt))
    out = subprocess.run([sys.executable, "-m", "engine.replay", str(path)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == record["result"]
