"""The play screen's panels (lnr/play/actions.py, look.py, penalty.py) are loaded while they are
up and dropped when they close (docs/memory.md). What a panel's key chose (a pass, a chaos
discard, the penalty cards put, the hand again) is done by the play screen once the panel has
closed and its key() has returned (Play.key): a method of the panel still running keeps its
class, and so the panel's code, in RAM beside a loco's run and the result panel it loads
(on CircuitPython's VM at 84 KB the run's first step ran out of heap there).
Each is played through the screen's own key() on a real play screen (a headless run's)."""
import inspect
import os

from engine.cards import KIND, KIND_CHAOS, VALUE
from engine.state import A_PASS, A_CHAOS, P_TURN
from helpers import app_in_a_game
from engine.order import best
from lnr.keys import K_A, K_DOWN, K_SELECT, K_START
from lnr.play.penalty import PenaltyOrder
from lnr.play.view import S_ORDER

PANELS = ("actions.py", "look.py", "penalty.py")


def panel_frames():
    # The frames of a panel's module on the stack now.
    return [f.function for f in inspect.stack()
            if os.path.basename(f.filename) in PANELS and
            os.path.basename(os.path.dirname(f.filename)) == "play"]


def recording(monkeypatch, play, name):
    # Replaces the play screen's method `name` by one that records its arguments and the
    # panels' frames on the stack when it is called, then does what it did.
    calls = []
    real = getattr(play, name)

    def record(*args):
        calls.append((args, panel_frames()))
        return real(*args)

    monkeypatch.setattr(play, name, record)
    return calls


def test_the_menus_pass_runs_once_the_menu_is_gone(monkeypatch):
    play = app_in_a_game().play
    assert play.game.state.phase == P_TURN
    calls = recording(monkeypatch, play, "act")
    play.key(K_START)  # the action menu, its cursor on Pass (§4: a pass is always allowed)
    play.key(K_A)
    assert calls and calls[0] == ((A_PASS,), []), calls
    assert play.panel is None


def test_the_menus_chaos_discard_runs_once_the_menu_is_gone(monkeypatch):
    play = app_in_a_game().play
    s = play.game.state
    chaos = [c for c in s.deck if KIND[c] == KIND_CHAOS][:2]
    for c in chaos:  # two chaos cards in hand, from the deck
        s.deck.remove(c)
        s.hands[s.seat].append(c)
    order = best(s.piles[s.seat], chaos)  # §6: they are discarded in the order that scores best
    calls = recording(monkeypatch, play, "act")
    play.key(K_START)
    play.key(K_DOWN)
    play.key(K_DOWN)  # Discard chaos
    play.key(K_A)
    assert calls == [((A_CHAOS + c,), []) for c in order], calls


def test_the_penalty_cards_are_put_once_the_panel_is_gone(monkeypatch):
    play = app_in_a_game().play
    s = play.game.state
    s.piles[s.seat] = []
    a = next(c for c in s.deck if VALUE[c] == 1)
    b = next(c for c in s.deck if VALUE[c] == 2)
    calls = []
    monkeypatch.setattr(play, "put_order", lambda order: calls.append((order, panel_frames())))
    play.open_panel(PenaltyOrder(play, [(3, [a, b]), (3, [b, a])]), S_ORDER)
    play.key(K_A)
    assert calls == [([a, b], [])]


def test_leaving_the_look_goes_on_once_it_is_gone(monkeypatch):
    play = app_in_a_game().play
    calls = recording(monkeypatch, play, "advance")
    play.key(K_SELECT)  # looking around
    play.key(K_A)  # any key but the D-pad goes back to the hand
    assert calls == [((), [])]
