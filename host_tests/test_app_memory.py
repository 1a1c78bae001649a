"""The app's RAM plan (docs/memory.md, lnr/app.py): the menus' code and the play screen's are
never resident together, modules needed for a moment (the save codec, the saves' copies code,
the hint, the bots in a game without bots) are gone by the next frame, and dropping modules
as the device does changes nothing on screen.

On CPython lnr.drop keeps modules (tests patch them); here lnr.KEEP = False makes the
simulator drop them as the board does, and sys.modules is put back afterwards.
"""
import hashlib
import os
import sys

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools import sim, sim_fast  # noqa: E402
from tools.app_script import Model, SETTLE  # noqa: E402
from engine.state import MODE_SOLO  # noqa: E402
from screen_text import line_text  # noqa: E402
from lnr.play.view import S_MENU, S_ORDER, S_LOOK  # noqa: E402
from lnr.screens import SC_TITLE, SC_RECORDS  # noqa: E402
import lnr  # noqa: E402

PLAY = ("lnr.play.screen", "lnr.play.view", "lnr.play.mapview")
MOMENTARY = ("lnr.saves", "lnr.copies", "lnr.image", "lnr.switch", "lnr.play.think",
             "lnr.play.hint", "lnr.menus.howto",
             "lnr.make", "lnr.powerup", "engine.codec", "engine.crc", "engine.explain", "lnr.lastgames",
             "engine.order")
# START, Hint (A closes it); START, Save & quit; Continue: back at the turn's start.
HINT_SAVE = ["START", "DOWN", "DOWN", "DOWN", "A", "WAIT*5", "A",
             "START", "UP", "A", "WAIT*5", "A"]


@pytest.fixture
def as_on_the_device():
    """lnr.drop really drops, as on the board; sys.modules and the packages' submodule
    attributes are restored afterwards (other tests hold these modules)."""
    import engine

    modules = dict(sys.modules)
    attrs = {pkg: dict(vars(pkg)) for pkg in (lnr, engine)}
    for name in list(sys.modules):  # a fresh board: no app or engine module loaded yet
        if name.startswith("lnr.") or name.startswith("engine."):
            del sys.modules[name]
            pkg = lnr if name.startswith("lnr.") else engine
            if name.count(".") == 1 and hasattr(pkg, name.split(".")[1]):
                delattr(pkg, name.split(".")[1])
        elif name.startswith("adafruit_display_text"):  # nor the menus' text library
            del sys.modules[name]
    lnr.KEEP = False
    try:
        yield
    finally:
        lnr.KEEP = True
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


KEYS = keys()  # made now: the model's own engine calls must not load modules during a run


def session(check=None):
    """Runs KEYS; returns (hash of every refreshed screen, LEDs per frame, NVM)."""
    shots = []

    def on_frame(hw):
        d = hw.display
        if d.refresh_calls != len(shots):
            shots.append(hashlib.md5(d.screen.get_buffer().raw).hexdigest())
        if check is not None:
            check(hw)

    with sim_fast.fast():
        r = sim.run_headless(KEYS, seed=5, on_frame=on_frame)
    assert r.ok, r.error
    assert not r.hw.overflowed
    return shots, r.leds, r.nvm


def test_menus_and_play_screen_never_resident_together(as_on_the_device):
    # lnr/app.py: a move drops one side's code (and what it imported) before the other's
    # loads; momentary modules are dropped before the frame ends. The menus' text library
    # (adafruit_display_text) is gone after start-up; the engine is in RAM only while a game is
    # on (docs/memory.md).
    seen = {"play": 0, "menus": 0, "frames": 0, "lnr.play.actions": 0, "lnr.play.penalty": 0,
            "lnr.play.look": 0, "lnr.play.refusal": 0}

    def check(hw):
        app = hw.caller.f_locals.get("app") if hw.caller is not None else None
        if app is None:
            return
        mods = sys.modules
        playing = [m for m in PLAY if m in mods]
        assert not (playing and "lnr.menus.screen" in mods), "both resident: %s" % playing
        left = [m for m in MOMENTARY if m in mods]
        assert not left, "still resident at a frame's end: %s" % left
        # The play screen's action menu, penalty order panel and look around are in RAM while
        # they are up, and only then (lnr/play/actions.py, penalty.py, look.py); a refused
        # card's words with the menu, or for the toast's frame only (lnr/play/refusal.py).
        for name, step in (("lnr.play.actions", S_MENU), ("lnr.play.penalty", S_ORDER),
                           ("lnr.play.look", S_LOOK), ("lnr.play.refusal", S_MENU)):
            if name in mods:
                assert app.play is not None and app.play.step == step, name + " kept"
                seen[name] += 1
        # The text library draws the font sheet at power-up (lnr/make.py) and is dropped then:
        # it is never beside either screen's code.
        library = [m for m in mods if m.startswith("adafruit_display_text")]
        assert not library, "the text library kept after start-up: %s" % library
        if app.play is not None:
            seen["play"] += 1
            assert "engine.bots" not in mods, "bots kept in a game without bots"
            assert app.menus.labels is None, "the menus' text in a game"
            # One engine: the game's State is of the engine.state loaded now, never of an
            # earlier copy dropped under it (that would hold two engines in RAM).
            assert type(app.game.state) is mods["engine.state"].State
        else:
            assert not playing, "play screen code in the menus: %s" % playing
            assert "lnr.menus.screen" in mods and app.menus.labels is not None
            engine = [m for m in mods if m.startswith("engine.")]
            assert app.game is None and not engine, "the engine in the menus: %s" % engine
            seen["menus"] += 1
        seen["frames"] += 1

    session(check)
    assert seen["play"] > 100 and seen["menus"] > 50 and seen["lnr.play.actions"] > 4


def test_dropping_modules_as_on_the_device_changes_nothing_on_screen(as_on_the_device):
    # The same keys with modules kept (CPython's default) and dropped (the board's): the same
    # screens at every refresh, the same LEDs at every frame, the same NVM.
    dropped = session()
    lnr.KEEP = True
    kept = session()
    assert len(dropped[0]) > 100
    assert dropped[0] == kept[0]
    assert dropped[1] == kept[1]
    assert dropped[2] == kept[2]


def test_a_save_the_nvm_refuses_returns_to_the_game_as_it_was(as_on_the_device, monkeypatch):
    # Save & quit drops the play screen's code before the codec packs the game (lnr/app.py);
    # when the NVM refuses the write (and the drive is read-only to the game: SELECT held at
    # power-up, so no copy holds the save) the game comes back as the player left it: the
    # build laid so far, the cursor on its card, B still undoing to the turn's start.
    from engine.cards import KIND, KIND_CHAOS, SHAPE, SHAPE_CURVE
    from engine.state import A_LAY, P_BUILD, P_DICE
    from tools.sim_parts import SimNvm

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
    keys = m.keys + ["RIGHT"] * i + ["A", "START", "UP", "A", "WAIT*5"]
    monkeypatch.setattr(SimNvm, "__setitem__", refuse)
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=5, drive_readonly=True)
    assert r.ok, r.error
    app = r.app
    # The app's engine is a fresh import here (as_on_the_device): compare the States' fields.
    assert app.play is not None and app.game.state._key() == s._key()
    assert line_text(app.ui.toast) == "Could not save" and not app.ui.toast.hidden
    assert app.play.sel == min(i, len(s.hands[0]))  # the cursor where it was
    assert r.nvm_writes == 0
    with sim_fast.fast():
        r = sim.run_headless(keys + ["B", "WAIT*5"], seed=5, drive_readonly=True)
    assert r.app.game.state._key() == start._key()  # B undoes the build, as before the save
    # With the drive writable the file copy takes the save although the NVM refused it.
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=5)
    assert r.ok and r.app.play is None and r.app.store.saved is not None
    assert r.drive_copy is not None and r.nvm_writes == 0


def test_the_saves_are_written_with_neither_screens_code_in_ram(as_on_the_device, monkeypatch):
    # docs/memory.md: the saves' code and their 8 KB image (lnr.copies) load for a commit only,
    # in a move (lnr/switch.py), never beside the menus' code and text nor the play screen's:
    # a game's end, save & quit, and the settings screen left with a change. Left unchanged,
    # it commits nothing.
    from lnr.storage import Storage  # the app's (as_on_the_device imports the app afresh)

    commits = []
    real = Storage.commit

    def commit(self, finished=None):
        mods = sys.modules
        beside = [m for m in ("lnr.menus.screen", "lnr.menus.labels",
                              "adafruit_display_text.bitmap_label") + PLAY if m in mods]
        assert not beside, "a commit beside %s" % beside
        commits.append(finished is not None)
        return real(self, finished)

    monkeypatch.setattr(Storage, "commit", commit)
    settings = ["DOWN", "DOWN", "A"]  # the title (nothing saved): Settings
    with sim_fast.fast():
        r = sim.run_headless(KEYS + settings + ["B", SETTLE] + settings + ["LEFT", "B", SETTLE],
                             seed=5)
    assert r.ok, r.error
    # Two saves & quits, the game's end (its history entry), the changed brightness.
    assert commits == [False, False, True, False]
    assert r.app.store.brightness == 1 and r.app.screen == SC_TITLE


def test_records_reads_the_history_with_neither_screens_code_in_ram(as_on_the_device,
                                                                     monkeypatch):
    # docs/memory.md: the history's read (lnr.copies, its 8 KB image) is a move too
    # (lnr/lastgames.py): with the menus' code and text up beside it, the .mpy peak passed the
    # 96 KB budget (tools.membudget's records moment). Records then lists the games read.
    from lnr.storage import Storage

    reads = []
    real = Storage.history

    def history(self):
        mods = sys.modules
        beside = [m for m in ("lnr.menus.screen", "lnr.menus.labels",
                              "adafruit_display_text.bitmap_label") + PLAY if m in mods]
        assert not beside, "the history read beside %s" % beside
        got = real(self)
        reads.append(len(got))
        return got

    monkeypatch.setattr(Storage, "history", history)
    with sim_fast.fast():
        r = sim.run_headless(KEYS + ["DOWN", "A", SETTLE], seed=5)
    assert r.ok, r.error
    assert reads == [1] and r.app.screen == SC_RECORDS and len(r.app.menus.last) == 6
    assert "lnr.lastgames" not in sys.modules and "lnr.copies" not in sys.modules


def test_a_bots_plan_keeps_its_games_weight_table_only(as_on_the_device, monkeypatch):
    # lnr/play/think.py: the `best` bot plans its turn with its game's weight table alone in RAM;
    # engine.ai_weights, the four modes' tables, is dropped before the search and never loads
    # again during it (about 2 KB less beside the search as .mpy). The plan is the same.
    from engine.state import MODE_TABLE
    from lnr import game as games
    from lnr.play import think
    from lnr.switch import new_game
    from lnr.screens import W_THINK

    def table_game():
        g = new_game(MODE_TABLE, 5, 3)
        g.roles = bytearray([games.ROLE_BOT + games.BOT_NAMES.index("best")] * 3)
        return g

    lnr.KEEP = True
    expected = think.plan_turn(table_game())
    lnr.KEEP = False
    seen = []
    real = think.plan_turn

    def plan_turn(game):
        seen.append("engine.ai_weights" in sys.modules)
        out = real(game)
        seen.append("engine.ai_weights" in sys.modules)
        from engine.bots import weights

        seen.append(weights(MODE_TABLE))
        return out

    monkeypatch.setattr(think, "plan_turn", plan_turn)
    g = table_game()
    think.think(g, W_THINK)
    from engine import ai_weights

    assert seen == [False, False, ai_weights.TABLE]
    assert g.planned == expected and expected
