"""Dropping modules as the board does (lnr.memory drop(); docs/memory.md) changes nothing the player sees:
the same screens, LEDs and NVM, a refused save back as it was, the saves and the history
written and read, a bot's plan. What stays in RAM when, and how much, is `make cpcheck`'s to
measure (CircuitPython's VM under the cap, the peaks by phase), not a list of module names here.

On CPython lnr.memory's drop() keeps modules (tests patch them); here memory.KEEP = False makes the
simulator drop them as the board does, and sys.modules is put back afterwards.
"""
import hashlib
import os
import sys

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.app_script import Model, SETTLE  # noqa: E402
from engine.state import MODE_SOLO, MODE_TABLE  # noqa: E402
from tools.sim.screen_text import line_text  # noqa: E402
from lnr.screens import SC_TITLE, SC_RECORDS  # noqa: E402
import lnr  # noqa: E402
from lnr import memory  # noqa: E402

# START, Hint (A closes it); START, Save & quit; Continue: back at the turn's start.
HINT_SAVE = ["START", "DOWN", "DOWN", "DOWN", "A", "WAIT*5", "A",
             "START", "UP", "A", "WAIT*5", "A"]

# A game's position: the fields engine.state.State compares, read by name (here the app's State
# is of a fresh import of the engine, of another class than the test's).
POSITION = ("mode", "players", "deck", "track", "bends", "cells", "head", "loco", "hands",
            "piles", "box", "penalty", "seat", "turn", "phase", "derails", "lost", "build_value",
            "build_sum", "dice_left", "wheels", "pending")


def position(state):
    return [getattr(state, name) for name in POSITION]


@pytest.fixture
def as_on_the_device():
    """lnr.memory drop() really drops, as on the board; sys.modules and the packages' submodule
    attributes are restored afterwards (other tests hold these modules)."""
    import engine

    modules = dict(sys.modules)
    attrs = {pkg: dict(vars(pkg)) for pkg in (lnr, engine)}
    for name in list(sys.modules):  # a fresh board: no app or engine module loaded yet
        if name == "lnr.memory":
            continue  # where KEEP is set (lnr/powerup.py starts its state afresh)
        if name.startswith("lnr.") or name.startswith("engine."):
            del sys.modules[name]
            pkg = lnr if name.startswith("lnr.") else engine
            if name.count(".") == 1 and hasattr(pkg, name.split(".")[1]):
                delattr(pkg, name.split(".")[1])
        elif name.startswith("adafruit_display_text"):  # nor the menus' text library
            del sys.modules[name]
    memory.KEEP = False
    try:
        yield
    finally:
        memory.KEEP = True
        sys.modules.clear()
        sys.modules.update(modules)
        for pkg, saved in attrs.items():
            for name in list(vars(pkg)):
                if name not in saved:
                    delattr(pkg, name)
            for name, value in saved.items():
                setattr(pkg, name, value)


def keys():
    """A solo game with a hint and save & quit, Continue, at the first and the fourth turn,
    to its end; then the table screen and how to play."""
    m = Model(MODE_SOLO, 5)
    out = m.keys + HINT_SAVE
    n = len(m.keys)
    m.play_simple(3)
    out += m.keys[n:] + HINT_SAVE
    n = len(m.keys)
    m.play_simple()
    assert m.state.is_terminal()
    return out + m.keys[n:] + [SETTLE, "A", "A", "DOWN", "DOWN", "DOWN", "A", "B", "B",
                               "DOWN", "DOWN", "DOWN", "A", "RIGHT", "B", SETTLE]


def table_keys():
    """A table game with bots to its end: each bot's turn planned in a switch that keeps the
    play screen's view and map (lnr/memory/switch.py VIEW) while the rest of its code is dropped."""
    m = Model(MODE_TABLE, 6)
    m.play_simple()
    assert m.state.is_terminal()
    return m.keys + [SETTLE]


# Made now: the model's own engine calls must not load modules during a run.
KEYS = keys()
TABLE_KEYS = table_keys()


def session(keys=KEYS):
    """Runs `keys`; returns (hash of every refreshed screen, LEDs per frame, NVM)."""
    shots = []

    def on_frame(hw):
        d = hw.display
        if d.refresh_calls != len(shots):
            shots.append(hashlib.md5(d.screen.get_buffer().raw).hexdigest())

    with sim_fast.fast():
        r = sim.run_headless(keys, seed=5, on_frame=on_frame, render_every=1)  # every screen
    assert r.ok, r.error
    assert not r.hw.overflowed
    return shots, r.leds, r.nvm


@pytest.mark.parametrize("keys", [KEYS, TABLE_KEYS], ids=["solo", "table"])
def test_dropping_modules_as_on_the_device_changes_nothing_on_screen(as_on_the_device, keys):
    # The same keys with modules kept (CPython's default) and dropped (the board's): the same
    # screens at every refresh, the same LEDs at every frame, the same NVM. A module dropped has
    # its globals emptied (lnr.memory.drop_since): one that a kept module still used would stop the game.
    dropped = session(keys)
    memory.KEEP = True
    kept = session(keys)
    assert len(dropped[0]) > 100
    assert dropped[0] == kept[0]
    assert dropped[1] == kept[1]
    assert dropped[2] == kept[2]


def test_a_board_short_of_heap_sheds_the_sound_then_the_leds_and_plays_the_same_game(
        as_on_the_device):
    # lnr.memory shed(), as the board calls it where a screen's code, a save's or a deal's does
    # not fit: the sound goes, then the LEDs (dark from then on, lnr.leds' and the neopixel
    # library's code dropped and emptied: a use of them after would stop the game here), and
    # the game plays on to the same end and the same saves. Once both are down there is
    # nothing left to shed. Each is said once, on the player's next turns, one after the other.
    from lnr.memory import shed, DOWN, SOUND, LIGHTS

    at = []
    toasts = []

    def on_frame(hw):
        if at and hw.caller.f_locals["app"].play is not None:
            ui = hw.caller.f_locals["app"].ui
            said = line_text(ui.toast) if ui.toast_on else None
            if said and (not toasts or toasts[-1] != said):
                toasts.append(said)
        if len(hw.leds) == 40:  # the game on: its first turn's screen is up
            app = hw.caller.f_locals["app"]
            assert shed(app) and DOWN[0] == SOUND and app.sound.player is None
            assert shed(app) and DOWN[0] == SOUND | LIGHTS and app.hw.pixels is None
            assert not shed(app)
            assert "lnr.leds" not in sys.modules, "lnr.leds"
            library = sys.modules.get("neopixel")  # the simulator's stand-in: named otherwise
            assert library is None or not vars(library)  # emptied: its code let go
            at.append(len(hw.leds))

    with sim_fast.fast():
        r = sim.run_headless(KEYS, seed=5, on_frame=on_frame)
    assert r.ok, r.error
    assert at == [40]
    said = [t for t in toasts if "(memory)" in t]
    assert said == ["Sound off (memory)", "LEDs off (memory)"], toasts
    assert all(c == (0, 0, 0) for frame in r.leds[41:] for c in frame)  # dark from then on
    assert not r.audio or max(ms for ms, _ in r.audio) < 40 * 30  # no sound after
    memory.KEEP = True
    with sim_fast.fast():
        plain = sim.run_headless(KEYS, seed=5)
    assert r.nvm == plain.nvm  # the same game to its end, the same records


def test_settings_of_a_feature_shed_say_it_is_off():
    # The LEDs' and the sound's settings change nothing once shed: the line under the menu
    # says so where the cursor is on one of them, and is blank elsewhere.
    from lnr.memory import shed

    def on_frame(hw):
        if len(hw.leds) == 5:
            app = hw.caller.f_locals["app"]
            shed(app)
            shed(app)

    into = ["WAIT*10", "DOWN", "DOWN", "A", "WAIT*3"]  # the title's Settings
    for moves, said in (([], True), (["DOWN"], True), (["DOWN", "DOWN"], False),
                        (["UP", "UP"], True), (["UP"], False)):
        with sim_fast.fast():
            r = sim.run_headless(into + moves, seed=3, on_frame=on_frame, settle=5)
        assert r.ok, r.error
        lines = r.text()
        assert lines[0] == "SETTINGS", lines
        assert ("Off: short of memory" in lines) == said, (moves, lines)


def test_a_save_the_nvm_refuses_returns_to_the_game_as_it_was(as_on_the_device, monkeypatch):
    # Save & quit drops the play screen's code before the codec packs the game (lnr/app.py);
    # when the NVM refuses the write (and the drive is read-only to the game: SELECT held at
    # power-up, so no copy holds the save) the game comes back as the player left it: the
    # build laid so far, the cursor on its card, B still undoing to the turn's start.
    from engine.cards import KIND, KIND_CHAOS, SHAPE, SHAPE_CURVE
    from engine.state import A_LAY, P_BUILD, P_DICE
    from tools.sim.parts import SimNvm

    def refuse(self, i, value):
        raise OSError(5, "write failed")

    m = Model(MODE_SOLO, 5)
    s = m.state
    start = s.clone()
    straight = [c for c in s.hands[0] if KIND[c] != KIND_CHAOS and SHAPE[c] != SHAPE_CURVE
                and s.is_legal(A_LAY + c)]
    assert straight, "seed 5 has a straight card to lay at the first turn"
    c = straight[0]
    i = s.hands[0].index(c)
    s.apply(A_LAY + c)
    assert s.phase in (P_BUILD, P_DICE)  # the build waits for more cards or its roll
    # The menu opens on Build (a build is under way): UP, UP to Save & quit.
    keys = m.keys + ["RIGHT"] * i + ["A", "START", "UP", "UP", "A", "WAIT*5"]
    monkeypatch.setattr(SimNvm, "__setitem__", refuse)
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=5, drive_readonly=True)
    assert r.ok, r.error
    app = r.app
    # The app's engine is a fresh import here (as_on_the_device): compare the States' fields.
    assert app.play is not None and position(app.game.state) == position(s)
    assert line_text(app.ui.toast) == "Could not save" and not app.ui.toast.hidden
    assert app.play.game.sel == min(i, len(s.hands[0]))  # the cursor where it was
    assert r.nvm_writes == 0
    with sim_fast.fast():
        r = sim.run_headless(keys + ["B", "WAIT*5"], seed=5, drive_readonly=True)
    assert position(r.app.game.state) == position(start)  # B undoes the build, as before the save
    # With the drive writable the file copy takes the save although the NVM refused it.
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=5)
    assert r.ok and r.app.play is None and r.app.store.saved is not None
    assert r.drive_copy is not None and r.nvm_writes == 0


def test_the_saves_are_written_when_the_game_or_a_setting_changes(as_on_the_device,
                                                                    monkeypatch):
    # The saves' code loads for a commit only (lnr/games.py): a game's end, save & quit, and
    # the settings screen left with a change. Left unchanged, it commits nothing.
    from lnr.storage import Storage  # the app's (as_on_the_device imports the app afresh)

    commits = []
    real = Storage.commit

    def commit(self, finished=None):
        commits.append(finished is not None)
        return real(self, finished)

    monkeypatch.setattr(Storage, "commit", commit)
    # KEYS leave the title's cursor on How to play (B comes back to the entry it left); UP:
    # Settings. B from Settings leaves the cursor there: A opens it again.
    with sim_fast.fast():
        r = sim.run_headless(KEYS + ["UP", "A", "B", SETTLE, "A", "LEFT", "B", SETTLE], seed=5)
    assert r.ok, r.error
    # Two saves & quits, the game's end (its history entry), the changed brightness.
    assert commits == [False, False, True, False]
    assert r.app.store.brightness == 1 and r.app.screen == SC_TITLE


def test_records_reads_the_history_and_lets_its_code_go(as_on_the_device, monkeypatch):
    # The history's read is a screen change of its own (lnr/lastgames.py): Records then lists
    # the games read, and the reading code is gone again.
    from lnr.storage import Storage

    reads = []
    real = Storage.history

    def history(self):
        got = real(self)
        reads.append(len(got))
        return got

    monkeypatch.setattr(Storage, "history", history)
    with sim_fast.fast():
        r = sim.run_headless(KEYS + ["DOWN", "DOWN", "A", SETTLE], seed=5)  # How to play: Records
    assert r.ok, r.error
    assert reads == [1] and r.app.screen == SC_RECORDS and len(r.app.menus.last) == 6


def test_a_bots_plan_is_the_same_with_modules_dropped(as_on_the_device):
    # lnr/play/plan.py drops and loads the bots' tables around the `best` bot's search as the board
    # does: the plan is the one made with every module kept.
    from lnr import game as games
    from types import SimpleNamespace

    from lnr.play import plan
    from lnr.games import new_game
    from lnr.screens import W_PLAN

    def table_game():
        g = new_game(MODE_TABLE, 5, 3)
        g.roles = bytearray([games.ROLE_BOT + games.BOT_NAMES.index("best")] * 3)
        return g

    memory.KEEP = True
    g = table_game()
    expected = plan.plan_turn(g, None, g.bot(g.state.seat))
    memory.KEEP = False
    g = table_game()
    plan.go(SimpleNamespace(game=g, hw=SimpleNamespace(), want=(W_PLAN,), game_code=[]))
    assert g.planned == expected and expected
