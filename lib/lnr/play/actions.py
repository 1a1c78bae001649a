"""The play screen's action menu (START): pass, build, discard the chaos cards, the hint, save &
quit, each item with what it does or why it cannot be chosen now (docs/rules.md §4).

The play screen loads this module when START opens the menu (Play.open_panel) and the menu
drops it when it closes (Play.close_panel): its code (about 2 KB as .mpy) is not in RAM while
the game is played, only while the menu is up (docs/memory.md). Loading it takes a few ms on a
key press, never a frame's work. While it is up (step S_MENU) Play.key hands it the keys.
"""
from engine.cards import KIND, VALUE, SHAPE, KIND_CHAOS, KIND_BROKEN, SHAPE_CURVE
from engine.state import A_PASS, A_LAY, P_TURN, P_BUILD, P_CHAOS, P_DICE
from lnr.memory import drop, DOWN, HINT
from lnr.keys import K_A, K_B, K_START, K_UP, K_DOWN
from lnr.ui import WHITE, GREY, YELLOW, DIM_YELLOW, GREEN

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


ITEMS = ("Pass", "Build", "Discard chaos", "Hint", "Save & quit")
# What each item does, under the menu (docs/rules.md §4).
_HELP = (None, "Lay / roll the dice", "Best order, no penalty", "What would a bot do?",
         "Continue from title")  # the pass's: pass_help()
_PASS = const(0)
_BUILD = const(1)
_CHAOS = const(2)
_HINT = const(3)


def pass_help(s):
    """Returns what a pass of State `s` costs (docs/rules.md §4, §5): the loco 1 card on unless
    it stands on the last, 1 penalty card and 1 more if the card it enters is broken (D1)."""
    if s.loco == len(s.track) - 1:
        return "Loco stays, penalty 1"
    if KIND[s.track[s.loco + 1]] == KIND_BROKEN:
        return "Broken card: penalty 2"
    return "Loco +1, penalty 1"


class Actions:
    """The action menu on `play` (a lnr.play.screen.Play on the player's turn), the cursor (mi)
    on its first item that can be chosen now (Save & quit always can)."""

    def __init__(self, play):
        self.play = play
        self.mi = 0
        while self.why(self.mi) is not None:
            self.mi += 1

    def why(self, i):
        """Returns None if item i can be chosen now, else why not (a panel line)."""
        play = self.play
        s = play.game.state
        if i == _PASS:
            if s.phase == P_TURN:
                return None
            return "Chaos discard begun" if s.phase == P_CHAOS else "The build has begun"
        if i == _BUILD:
            if s.phase == P_BUILD or s.phase == P_DICE:
                return None
            c = play.selected()
            if s.phase != P_TURN or c < 0 or KIND[c] == KIND_CHAOS:
                return "Select a track card"
            if s.is_legal(A_LAY + c):
                return None
            refusal = play.need("lnr.play.refusal")  # its words for this line (dropped by close)
            return "Not enough memory" if refusal is None else refusal.reason(s, c)
        if i == _CHAOS:
            if s.phase != P_TURN and s.phase != P_CHAOS:
                return "Finish the build"
            for c in s.hands[s.seat]:
                if KIND[c] == KIND_CHAOS:
                    return None
            return "No chaos card"
        if i == _HINT:
            if not play.app.store.hints:
                return "Hints are off"
            # Turned down for memory (lnr/play/plan.py): said here, with no switch to wait for.
            return "Hints off (memory)" if DOWN[0] & HINT else None
        return None

    def draw(self):
        """Draws the menu in the panel, the cursor on item mi."""
        play = self.play
        s = play.game.state
        ui = play.ui
        ui.clear_panel()
        ui.pline(0, "Your move", YELLOW)
        composing = s.phase == P_BUILD or s.phase == P_DICE
        c = play.selected()
        for i in range(len(ITEMS)):
            text = ITEMS[i]
            if i == _BUILD:
                if composing:
                    text = "Build: roll dice"
                elif c >= 0 and KIND[c] != KIND_CHAOS:
                    text = "Build: %d %s" % (VALUE[c], "curve" if SHAPE[c] == SHAPE_CURVE
                                             else "straight")
            why = self.why(i)
            colour = GREY if why else WHITE
            if i == self.mi:
                colour = YELLOW if not why else DIM_YELLOW
            ui.pline(1 + i, ("> " if i == self.mi else "  ") + text, colour)
        why = self.why(self.mi)
        ui.pline(6, why or _HELP[self.mi] or pass_help(s), GREY if why else GREEN)
        ui.show(ui.play, True)
        play.app.dirty = True

    def key(self, k):
        """A key while the menu is up: UP/DOWN choose, A does the item (if it can be chosen
        now), B or START close the menu. Returns what A chose, for the play screen to do
        once this module's code is gone (Play.key)."""
        play = self.play
        if k == K_UP or k == K_DOWN:
            self.mi = (self.mi + (1 if k == K_DOWN else len(ITEMS) - 1)) % len(ITEMS)
            self.draw()
        elif k == K_B or k == K_START:
            self.close()
            play.view.draw()
        elif k == K_A:
            i = self.mi
            if self.why(i) is not None:
                return None
            chaos = self.chaos() if i == _CHAOS else None
            self.close()
            if i == _PASS:
                return (play.act, A_PASS)
            if i == _BUILD:
                return (play.pick,) if play.game.state.phase == P_TURN else (play.roll,)
            if i == _CHAOS:
                return (play.discard, chaos)
            if i == _HINT:
                return (play.ask_hint,)
            return (play.save_and_quit,)
        return None

    def close(self):
        # The map again, and this module dropped.
        play = self.play
        play.close_panel(True, "lnr.play.actions", "lnr.play.refusal")
        play.ui.show(play.ui.play)

    def chaos(self):
        # The chaos cards in hand in the order that scores best (docs/rules.md §6:
        # engine.order's, loaded for this moment when there is an order to choose, as in
        # lnr/play/screen.py start_order). Short of heap for it, the cards as held, an order
        # the rules allow (need()'s toast says so).
        play = self.play
        s = play.game.state
        chaos = []
        for c in s.hands[s.seat]:
            if KIND[c] == KIND_CHAOS:
                chaos.append(c)
        if len(chaos) > 1:
            order = play.need("engine.order")
            if order is not None:
                try:
                    chaos = order.best(s.piles[s.seat], chaos)
                except MemoryError:  # its search's lists: the cards as held
                    play.view.toast("Not enough memory")
                order = None
                drop("engine.order")
        return chaos
