"""Short of memory, the game turns features down and goes on (lnr/memory, docs/memory.md: short
of memory): each MemoryError below is the one a board with less heap meets where the module
named is loaded, raised here by the import machinery the board uses. Each feature turned down is
said once, on the screen and on the serial console, and the game plays on to its end."""
import builtins
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.app_script import Model, SETTLE  # noqa: E402
from tools.sim.screen_text import line_text, lines_text  # noqa: E402
from tools.sim.app_script import find  # noqa: E402
from engine.cards import KIND, KIND_CHAOS  # noqa: E402
from engine.order import best as best_order  # noqa: E402
from engine.state import MODE_SOLO, MODE_TABLE  # noqa: E402
from lnr.play.view import View  # noqa: E402

HINT = ["START", "DOWN", "DOWN", "DOWN", "A", "WAIT*5"]  # the action menu's 4th item
SAID = "loknroll: short of memory: "


@pytest.fixture
def short(monkeypatch):
    """short(name, times): the next `times` imports of module `name` (None: every one) raise
    MemoryError, as loading its code does on a board with too little heap left."""
    real = builtins.__import__
    left = {}

    def importing(name, globals=None, locals=None, fromlist=(), level=0):
        # `import a.b`, `from a.b import c`, or `from a import b` (the module a.b).
        for full in [name] + [name + "." + f for f in (fromlist or ())]:
            if level == 0 and left.get(full, 0) != 0:
                left[full] -= 1
                raise MemoryError("memory allocation failed, allocating 1024 bytes (a test)")
        return real(name, globals, locals, fromlist, level)

    def short_of(name, times=-1):
        left[name] = times

    monkeypatch.setattr(builtins, "__import__", importing)
    return short_of


def test_the_hint_goes_on_without_its_look_ahead_then_says_it_is_off(short, capsys):
    """Rungs 1 and 2 (docs/memory.md): without the look-ahead's code the hint is `best`'s plan
    alone, and the player is told once; without the words' too, the hint's panel says it is off.
    The game goes on either way, A closing the panel as a hint's."""
    short("engine.lookahead")
    m = Model(MODE_SOLO, 3)
    with sim_fast.fast():
        r = sim.run_headless(m.keys + HINT, seed=3)
    assert r.ok, r.error
    panel = lines_text(r.app.ui.plines)
    assert panel[0] == "Hint" and panel[1].startswith(("Lay", "Pass", "Discard", "Turn", "Roll"))
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith(SAID)]
    assert said == [SAID + "Hints simpler now"]
    with sim_fast.fast():
        r = sim.run_headless(m.keys + HINT + ["A"], seed=3)
    assert r.ok, r.error
    assert line_text(r.app.ui.toast) == "Hints simpler now"  # said once, on the player's turn
    capsys.readouterr()

    short("engine.advice")  # the words too: no hint at all
    with sim_fast.fast():
        r = sim.run_headless(m.keys + HINT, seed=3)
    assert r.ok, r.error
    panel = lines_text(r.app.ui.plines)
    assert panel[0] == "Hint" and "off" in panel[1], panel
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith(SAID)]
    assert said == [SAID + "Hints simpler now", SAID + "Hints off (memory)"]
    assert r.app.game.state.turn == m.state.turn  # the game as it was
    with sim_fast.fast():
        r = sim.run_headless(m.keys + HINT + ["A"], seed=3)
    assert r.ok, r.error  # said once, where it is now: not the look-ahead's line gone past
    assert line_text(r.app.ui.toast) == "Hints off (memory)"
    capsys.readouterr()

    # Off, the menu's Hint says so, greyed, and A on it makes no switch: the menu stays.
    with sim_fast.fast():
        r = sim.run_headless(m.keys + HINT + ["A"] + HINT[:-1] + ["A"], seed=3)
    assert r.ok, r.error
    assert r.app.play.panel is not None and r.app.want is None
    assert "Hints off (memory)" in lines_text(r.app.ui.plines), lines_text(r.app.ui.plines)


def test_a_panel_that_does_not_load_turns_the_sound_down_and_opens(short, capsys):
    """Rung 3: the action menu's code does not load beside the play screen's; the sound goes
    (its player and code), then the menu loads and opens; the serial console says so."""
    short("lnr.play.actions", 1)
    m = Model(MODE_SOLO, 3)
    with sim_fast.fast():
        r = sim.run_headless(m.keys + ["START"], seed=3)
    assert r.ok, r.error
    app = r.app
    assert app.play.panel is not None  # the menu is up
    assert app.sound.player is None and app.hw.player is None
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith(SAID)]
    assert said == [SAID + "Sound off (memory)"]


def test_a_panel_that_never_loads_is_said_and_the_turn_goes_on(short):
    """When even the sound's memory is not enough, the action menu does not open, the toast
    says why, and the hand's keys go on (a pass is still the menu's, a card is laid)."""
    short("lnr.play.actions")
    m = Model(MODE_SOLO, 3)
    with sim_fast.fast():
        r = sim.run_headless(m.keys + ["START"], seed=3)
    assert r.ok, r.error
    assert r.app.play.panel is None
    assert line_text(r.app.ui.toast) == "Not enough memory"


def test_bots_plan_without_their_weights_and_the_table_plays_to_its_end(short, capsys):
    """Rung 4: a bot's plan that does not load beside the view it keeps goes without the view
    (the same plan: nothing said), then, still short, plans as `greedy` (without the weights),
    said once; the bots then play on so, round after round."""
    m = Model(MODE_TABLE, 6)
    m.pass_turn()
    short("engine.bots", 2)  # the first bot's plan: beside the view, then its own bot
    keys = m.keys + ["WAIT*400"] + ["A", "WAIT*100"] * 20
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=6)
    assert r.ok, r.error
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith(SAID)]
    assert said == [SAID + "Bots simpler now"]
    assert r.app.game.state.turn >= m.state.turn + 2  # both bots played, and played again


def test_bots_turned_down_stay_down_and_play_as_the_session_model_says(short):
    """Rung 4 stays down once said: a bot's plan after "Bots simpler now" is `greedy`'s even
    where the heap would now hold its own (here engine.bots loads again), so the line stays
    true, and tools/vm/cpapp.py can make the session's keys for those moves (the model's
    `simpler`: from the turn the bots went down, greedy's moves)."""
    first = Model(MODE_TABLE, 6).state.turn + 1  # the first bot's turn: planned short of memory
    m = Model(MODE_TABLE, 6, simpler=first)
    m.play_passes(4)  # and the bots' next turns, planned by greedy as the model says
    short("engine.bots", 2)
    with sim_fast.fast():
        r = sim.run_headless(m.keys + [SETTLE], seed=6)
    assert r.ok, r.error
    got, want = r.app.game.state, m.state
    assert want.turn > first + 4
    assert (got.turn, got.track, got.piles, got.hands) == (
        want.turn, want.track, want.piles, want.hands)


def test_below_the_least_heap_the_title_says_so_and_nothing_is_saved(monkeypatch, tmp_path):
    """Power-up on a board whose heap is under lnr.memory's FLOOR_KB: the title says what the
    board has and what the game needs, and the NVM is never written (a settings change
    neither)."""
    import gc

    from lnr.memory import FLOOR_KB

    # CPython's gc tells no heap: a board's, FLOOR_KB less 4 KB in all, half of it free.
    have = (FLOOR_KB - 4) * 1024
    monkeypatch.setattr(gc, "mem_alloc", lambda: have // 2, raising=False)
    monkeypatch.setattr(gc, "mem_free", lambda: have - have // 2, raising=False)
    nvm = str(tmp_path / "nvm.bin")
    with sim_fast.fast():
        r = sim.run_headless(["A", "DOWN", "DOWN", "A", "RIGHT", "B", SETTLE], seed=3,
                             nvm_path=nvm)
    assert r.ok, r.error
    with sim_fast.fast():
        r = sim.run_headless([], seed=3, nvm_path=nvm)
    text = " ".join(lines_text(r.app.ui.lines))
    assert "This board has %d KB of heap; the game needs %d KB" % (FLOOR_KB - 4, FLOOR_KB) in \
        text.replace("  ", " "), text
    assert r.nvm_writes == 0 and not r.app.writes


def test_a_result_panel_that_never_loads_leaves_the_game_going_to_its_end(short):
    """Issue 38 item 2: a MemoryError in loading a screen's code is answered where it can be.
    Without the result panel's code (lnr.play.result) each action goes on unsummed, the toast
    saying why, and a solo game is played to its end, where a MemoryError used to end it at the
    error screen (lnr/crash.py). Another module's refusal (lnr.play.refusal) likewise."""
    from lnr.screens import SC_ERROR

    short("lnr.play.result")
    short("lnr.play.refusal")
    m = Model(MODE_SOLO, 3)
    m.play_simple()  # the game's keys to its end, as a player presses them
    with sim_fast.fast():
        r = sim.run_headless(m.keys + [SETTLE], seed=3)
    assert r.ok, r.error
    assert r.app.screen != SC_ERROR
    assert r.app.game is None or r.app.game.state.is_terminal()  # counted, or over on screen
    assert m.state.is_terminal()


def test_dropping_after_a_failed_attempt_lets_one_module_go_when_the_heap_has_no_block(
        monkeypatch):
    """A bot's plan that ran out of heap leaves it full of its code; the lighter rung first
    drops what the attempt loaded (lnr.memory drop_since()), whose list of the modules found no
    block on CircuitPython's VM at 85 KB in 2 of 8 heap layouts, even after a collection, and
    ended the game. Here the list finds no block until a module has gone: one module goes
    first, found without a list, then the list is made."""
    import sys
    import lnr.memory as memory
    import lnr.play.look  # noqa: F401 - a module the attempt loaded

    emptied = []
    listed = []

    def listing(names):
        listed.append(1)
        if not emptied:
            raise MemoryError("memory allocation failed, allocating 256 bytes (a test)")
        return builtins.list(names)

    monkeypatch.setattr(memory, "KEEP", False)  # as on the device (the desktop keeps modules)
    monkeypatch.setattr(memory, "list", listing, raising=False)
    monkeypatch.setattr(memory, "empty", lambda mod: emptied.append(mod.__name__))
    memory.drop_since([name for name in sys.modules if name != "lnr.play.look"])
    assert len(listed) == 2 and emptied[0] == "lnr.play.look", (listed, emptied)

    # Nothing left that came since: no block for the list is nothing to drop, not a crash (a
    # random session at 76 KB, the floor, met it at a bot's plan's end, after its failed
    # attempt had dropped all it loaded: lnr/play/plan.py go()).
    had = list(sys.modules)

    def no_block(names):
        raise MemoryError("memory allocation failed, allocating 256 bytes (a test)")

    monkeypatch.setattr(memory, "list", no_block, raising=False)
    emptied.clear()
    memory.drop_since(had)
    assert emptied == []


def test_a_handoff_panel_that_never_loads_still_hides_every_hand(short):
    """A hot seat short of memory (random sessions on CircuitPython's VM at 85 KB met it: the
    panel's code imported without a lighter path, a MemoryError): the hands stay hidden at
    every handoff all the same (docs/rules.md §3.5: host_tests/hotseat.py's oracle at every
    frame), the panel says whose turn it is, A takes it up, and the game goes on to its end."""
    from hotseat import Secrets
    from lnr.game import ROLE_HUMAN

    def two_people(seed):
        return Model(MODE_TABLE, seed, players=2, table_roles=bytes([ROLE_HUMAN]),
                     nav=["LEFT", "DOWN", "RIGHT", "DOWN", "A"])

    short("lnr.play.handoff")
    m = two_people(3)
    m.play_simple(1)  # P1's turn, up to P2's handoff (the model's last key takes it up)
    with sim_fast.fast():
        r = sim.run_headless(m.keys[:-1] + [SETTLE], seed=3)
    assert r.ok, r.error
    assert lines_text(r.app.ui.plines)[-1] == "P2: press A", lines_text(r.app.ui.plines)

    m = two_people(3)
    m.play_simple()
    keys = m.keys + [SETTLE]
    secrets = Secrets([k for k in sim.key_script(keys) if k is not None])
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=3, render_every=0, on_frame=secrets)
    assert r.ok, r.error
    assert r.app.game is None and r.app.store.played[MODE_TABLE] == 1  # played to its end
    assert secrets.handoffs >= 8


def test_without_the_runs_code_the_dice_roll_at_once_and_the_game_is_the_same(short, capsys,
                                                                             monkeypatch):
    """Issue 38 item 2: the dice and the loco's run (lnr.play.run) are shown with their code
    loaded beside the play screen's; where it does not load, the dice are rolled at once (the
    same draws of the game's generator) and the game goes on to its penalty order and result,
    unshown: the same game to its end, the same records. The player is told once, after the
    sound and the LEDs were shed for it, and the dice stay so: no toast at every roll (a board
    at the least heap the game plays at met this dozens of times a session)."""
    m = Model(MODE_SOLO, 3)
    m.play_simple()
    with sim_fast.fast():
        plain = sim.run_headless(m.keys + [SETTLE], seed=3)
    short("lnr.play.run")
    toasts = []  # each line the player saw, in turn
    put = []  # each line put up
    toast = View.toast
    monkeypatch.setattr(View, "toast", lambda view, text, sticky=False: (
        put.append(text), toast(view, text, sticky)))

    def on_frame(hw):
        ui = hw.caller.f_locals["app"].ui
        line = line_text(ui.toast) if ui.toast_on and not ui.toast.hidden else None
        if line and (not toasts or toasts[-1] != line):
            toasts.append(line)

    with sim_fast.fast():
        r = sim.run_headless(m.keys + [SETTLE], seed=3, on_frame=on_frame)
    assert r.ok, r.error
    assert plain.ok and plain.app.game is None  # counted: the game over screen
    assert r.app.game is None and r.nvm == plain.nvm
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith(SAID)]
    assert said == [SAID + "Sound off (memory)", SAID + "LEDs off (memory)",
                    SAID + "Dice shown at once"]
    assert put.count("Dice shown at once") == 1 and "Not enough memory" not in put, put
    # Shown at a turn's start, where no key's help takes its place in the same step.
    assert "Dice shown at once" in toasts, toasts


@pytest.mark.parametrize("module", ["lnr.play.screen", "lnr.play.plan"])
def test_a_game_s_switch_that_does_not_load_saves_the_game_and_says_so(short, capsys, module):
    """Issue 38 item 2, the last lighter path: after a hint's switch the play screen's code
    (lnr.play.screen) does not load even with the sound and the LEDs shed; or the switch's own
    work does not (the hint's code, lnr.play.plan, its screens' code already dropped). The game
    is not lost to the error screen: it is saved as its turn began (lnr.memory settle()), the
    title says why, and Continue takes it up again."""
    from lnr.games import unpack
    from lnr.screens import SC_ERROR, SC_TITLE

    m = Model(MODE_SOLO, 3)
    armed = []

    def on_frame(hw):
        if not armed and hw.caller.f_locals["app"].play is not None:  # the game on screen
            short(module)  # every load of it from now on
            armed.append(1)

    with sim_fast.fast():
        r = sim.run_headless(m.keys + HINT + [SETTLE], seed=3, on_frame=on_frame)
    assert r.ok, r.error
    app = r.app
    assert app.screen == SC_TITLE and app.game is None
    shown = " ".join(lines_text(app.menus.labels.lines))
    assert "Short of memory: game saved" in shown, shown
    assert unpack(app.store.saved).state == m.state  # its turn as it began
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith(SAID)]
    assert said == [SAID + "Sound off (memory)", SAID + "LEDs off (memory)"]

    # Saving off (SELECT held at power-up: the drive read-only; a crash): nothing to save it
    # to, so the error screen, as before.
    armed.clear()
    with sim_fast.fast():
        r = sim.run_headless(m.keys + HINT + [SETTLE], seed=3, on_frame=lambda hw: (
            setattr(hw.caller.f_locals["app"], "writes", False), on_frame(hw)))
    assert not r.ok and "MemoryError" in r.error and r.app.screen == SC_ERROR


def _held_not_best(m):
    # The first hand's chaos cards (more than one), as held, where that is not their best order.
    s = m.state
    chaos = [c for c in s.hands[0] if KIND[c] == KIND_CHAOS]
    return chaos if len(chaos) > 1 and best_order([], chaos) != chaos else None


def test_chaos_cards_go_as_held_where_their_best_order_does_not_load(short):
    """docs/rules.md §4: the chaos cards are discarded one by one, in any order. The action
    menu's Discard chaos puts them in engine.order's best order; where its code does not load
    even with the sound and the LEDs shed (seed 39 of the random sessions at the floor met a
    MemoryError there), they go as held, the toast says so, and the game goes on."""
    seed, held = find(MODE_SOLO, _held_not_best, range(1, 3000))
    m = Model(MODE_SOLO, seed)
    toasts = []
    real = View.toast
    short("engine.order")
    with sim_fast.fast(), pytest.MonkeyPatch.context() as mp:
        mp.setattr(View, "toast", lambda view, text, sticky=False: (
            toasts.append(text), real(view, text, sticky)))
        r = sim.run_headless(m.keys + ["START", "DOWN", "DOWN", "A", SETTLE], seed=seed)
    assert r.ok, r.error
    s = r.app.game.state
    assert s.piles[0][-len(held):] == held and s.turn == 2
    assert "Not enough memory" in toasts, toasts


def test_chaos_cards_go_as_held_where_their_orders_search_runs_out(monkeypatch):
    """docs/rules.md §4: where engine.order loads but its search finds no room (a MemoryError
    making its lists), the action menu's chaos cards go as held, an order the rules allow, and
    the game goes on."""
    import engine.order

    def no_room(*args):
        raise MemoryError("memory allocation failed, allocating 64 bytes (a test)")

    seed, held = find(MODE_SOLO, _held_not_best, range(1, 3000))
    m = Model(MODE_SOLO, seed)  # (before the patch: the model orders with it)
    monkeypatch.setattr(engine.order, "best", no_room)
    with sim_fast.fast():
        r = sim.run_headless(m.keys + ["START", "DOWN", "DOWN", "A", SETTLE], seed=seed)
    assert r.ok, r.error
    assert r.app.game.state.piles[0][-len(held):] == held
