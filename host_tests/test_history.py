"""The history of games and shared deals, through the headless simulator and tools/bots/records.py:
a game played on the device joins the history and comes off it as a loknroll/1 record that
engine.replay accepts; the NVM or the drive's copy damaged after it changes nothing the player
sees; a seed starts the very same deal and dice again; a resumed table game goes on exactly as
the uninterrupted one, its bots included.
"""
import json
import os
import subprocess
import sys

import pytest

from tools.bots import records
from tools.sim import fast as sim_fast, simulator as sim
from tools.sim.app_script import Model, SETTLE
from engine.record import from_log
from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE
from tools.sim.screen_text import lines_text  # noqa: E402
from lnr import image
from lnr.screens import SC_OVER
from lnr.game import ROLE_BOT
from lnr.storage import Storage

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(keys, seed, **kw):
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=seed, render_every=0, **kw)
    assert r.ok, r.error
    return r


def cli(*args):
    out = subprocess.run([sys.executable, "-m", "tools.bots.records", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    return out


def played(tmp_path, mode, seed):
    """Plays a whole game of `mode` in the simulator with its NVM and drive kept in tmp_path;
    returns (nvm path, drive path, the Model that played it)."""
    nvm = str(tmp_path / "nvm.bin")
    drive = str(tmp_path / "drive")
    m = Model(mode, seed)
    m.play_simple()
    assert m.state.is_terminal()
    r = run(m.keys + [SETTLE], seed, nvm_path=nvm, drive=drive)
    assert r.app.screen == SC_OVER
    return nvm, drive, m


@pytest.mark.parametrize("mode, seed", [(MODE_SOLO, 8), (MODE_CHALLENGE, 5), (MODE_RIVAL, 9),
                                        (MODE_TABLE, 6)])
def test_a_game_on_the_device_comes_off_as_a_record_replay_accepts(tmp_path, mode, seed):
    nvm, drive, m = played(tmp_path, mode, seed)
    out = tmp_path / "records"
    r = cli("--nvm", nvm, "--drive", drive, "--out", str(out), "--show")
    assert r.returncode == 0, r.stderr
    shown = json.loads(r.stdout)
    files = sorted(out.iterdir())
    assert len(files) == 1 and len(shown["history"]) == 1
    # The record is the game the Model played (the device's own log rebuilt it).
    log = m.state.log
    want = from_log(mode, seed, m.state.players, bytes(log.data), log.bits)
    assert json.loads(files[0].read_text()) == want
    rep = subprocess.run([sys.executable, "-m", "engine.replay", str(files[0])], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert rep.returncode == 0, rep.stderr
    result = json.loads(rep.stdout)
    # The scores the Records screen shows: the best and the count for the mode.
    st = Storage(bytearray(open(nvm, "rb").read()), drive, True)
    st.load()
    me = 1 if mode == MODE_RIVAL else 0
    won = me in result["winners"]
    # A table game's score is a record whoever won (lnr.storage Storage.finish_game).
    counts = won or mode == MODE_TABLE
    assert st.best[mode] == (result["scores"][me] if counts else None)
    assert shown["best"][("solo", "challenge", "rival", "table")[mode]] == st.best[mode]
    assert st.played[mode] == 1
    assert shown["history"][0]["score"] == result["scores"][me]
    assert shown["history"][0]["result"] == result


@pytest.mark.parametrize("damage", ["nvm erased", "drive copy garbled"])
def test_a_cut_after_the_game_leaves_the_same_records_and_history(tmp_path, damage):
    # A cut right after the NVM's erase leaves 0xFF everywhere; or the drive's copy damaged.
    nvm, drive, m = played(tmp_path, MODE_SOLO, 3)
    before = cli("--nvm", nvm, "--drive", drive, "--show")
    assert before.returncode == 0, before.stderr
    screen_before = run(["DOWN", "A", SETTLE], 1, nvm_path=nvm, drive=drive)
    if damage == "nvm erased":
        with open(nvm, "wb") as f:
            f.write(b"\xff" * image.SIZE)
    else:
        path = os.path.join(drive, "lnrsave", "data", "copy.bin")
        data = bytearray(open(path, "rb").read())
        data[5000:5100] = b"\x5a" * 100
        open(path, "wb").write(data)
    after = cli("--nvm", nvm, "--drive", drive, "--show")
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout) == json.loads(before.stdout)
    assert "damaged" in after.stderr  # the notice the device shows
    # The next start: the notice on the title, then Records shows the same lines.
    title = run([SETTLE], 1, nvm_path=nvm, drive=drive)
    assert "damaged" in " ".join(lines_text(title.app.menus.labels.lines))
    screen = run(["DOWN", "A", SETTLE], 1, nvm_path=nvm, drive=drive)
    assert lines_text(screen.app.menus.labels.lines) == lines_text(screen_before.app.menus.labels.lines)


def test_a_seed_starts_the_very_same_deal_and_dice_again(tmp_path):
    # A shared deal: the app's game-start code (App.start with a seed, lnr/games.py) deals
    # the seed's deck and rolls its dice, whatever seed the device would have used next.
    seed = 21
    m = Model(MODE_SOLO, seed)
    m.play_simple()
    first = run(m.keys + [SETTLE], seed, drive=str(tmp_path / "a"),
                nvm_path=str(tmp_path / "a.bin"))
    a = first.app.store.history()

    def typed(hw):
        if hw.frame == 0:  # on the title: a game from the typed seed
            hw.caller.f_locals["app"].start(MODE_SOLO, None, seed)

    # Another device (seed 99 would be its next game): UP makes the app take the asked move.
    with sim_fast.fast():
        second = sim.run_headless(["WAIT", "UP"] + m.keys[2:] + [SETTLE], seed=99,
                                  render_every=0, on_frame=typed, drive=str(tmp_path / "b"),
                                  nvm_path=str(tmp_path / "b.bin"))
    assert second.ok, second.error
    b = second.app.store.history()
    assert len(a) == len(b) == 1 and a == b
    assert image.read_entry(b[0])[0] == seed
    assert second.app.seed == 99  # the device's own next seed is untouched
    rec_a = records.games(first.app.store)[0]["record"]
    rec_b = records.games(second.app.store)[0]["record"]
    assert rec_a == rec_b and rec_a is not None


def test_a_resumed_table_game_with_bots_plays_the_same_game(tmp_path):
    # Save & quit, power off, Continue: the dice and the bots' generator continue their
    # streams (lnr/games.py), so random bots choose as they would have without the save.
    seed = 12
    nav = ["DOWN", "LEFT", "LEFT", "DOWN", "LEFT", "LEFT", "DOWN", "A"]  # P2, P3: random
    m = Model(MODE_TABLE, seed, 3, bytes([ROLE_BOT] * 3), nav=nav)
    m.play_passes(4)
    cut = len(m.keys)
    m.play_passes()
    assert m.state.is_terminal()
    whole = run(m.keys + [SETTLE], seed)
    nvm = str(tmp_path / "nvm.bin")
    drive = str(tmp_path / "drive")
    run(m.keys[:cut] + ["START", "UP", "A", SETTLE], seed, nvm_path=nvm, drive=drive)
    resumed = run(["A"] + m.keys[cut:] + [SETTLE], 77, nvm_path=nvm, drive=drive)
    assert resumed.app.screen == SC_OVER
    h1 = whole.app.store.history()
    h2 = resumed.app.store.history()
    assert h1 == h2 and len(h1) == 1
    log = m.state.log
    assert records.games(resumed.app.store)[0]["record"] == from_log(
        MODE_TABLE, seed, 3, bytes(log.data), log.bits)


def test_records_reads_a_board_over_mpremote(tmp_path):
    # `python -m tools.bots records --port PORT` on the fake board (tools/flash/fakeboard.py): the
    # NVM read in its REPL, the drive's copy with mpremote's file transfer.
    from tools.vm import mpvm

    why = mpvm.missing()
    if why:
        pytest.fail("the fake board needs the MicroPython VM: %s" % why)
    nvm, drive, m = played(tmp_path, MODE_RIVAL, 9)
    want = cli("--nvm", nvm, "--drive", drive, "--show")
    board_drive = tmp_path / "CIRCUITPY"
    os.makedirs(board_drive / "lnrsave" / "data")
    with open(os.path.join(drive, "lnrsave", "data", "copy.bin"), "rb") as f:
        (board_drive / "lnrsave" / "data" / "copy.bin").write_bytes(f.read())
    board_nvm = tmp_path / "board-nvm.bin"
    board_nvm.write_bytes(open(nvm, "rb").read())
    proc = subprocess.Popen([sys.executable, "-m", "tools.flash.fakeboard", str(board_drive),
                             "--nvm", str(board_nvm)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("PORT "), line + proc.stderr.read()
        port = line.split()[1]
        out = tmp_path / "from-board"
        got = cli("--port", port, "--show", "--out", str(out))
        assert got.returncode == 0, got.stderr
        assert json.loads(got.stdout) == json.loads(want.stdout)
        assert len(list(out.iterdir())) == 1
        # The board's drive copy alone (NVM erased) gives the same.
        board_nvm.write_bytes(b"\xff" * image.SIZE)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    proc = subprocess.Popen([sys.executable, "-m", "tools.flash.fakeboard", str(board_drive),
                             "--nvm", str(board_nvm)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        port = proc.stdout.readline().split()[1]
        got = cli("--port", port, "--show")
        assert got.returncode == 0, got.stderr
        assert json.loads(got.stdout) == json.loads(want.stdout)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_capacity_is_printed_and_meets_the_floor():
    # The issue: at least 20 games, more if they fit; the numbers come from the tool. On 4 seeds
    # of each mode and bot (48 games; docs/storage.md's figures are the default 40's, 480): the
    # figures checked are far from their bounds (entries of 21 bytes on average against the
    # 254 of the worst, so about 370 games where 30 fit at worst; the largest measured 48), so
    # 48 games show them as well as 480 do, at a tenth of the CPU (`best` plays 0.16 s a game).
    r = cli("--capacity", "--seeds", "4")
    assert r.returncode == 0, r.stderr
    cap = json.loads(r.stdout)
    assert cap["games_at_worst"] >= 20
    assert cap["games_typical"] > cap["games_at_worst"]
    assert cap["entry_largest_measured"] <= cap["entry_max"]
