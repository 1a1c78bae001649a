"""The play screen's keys: the D-pad moves over the hand, A picks or confirms, B goes back
(undoes a build before its dice roll), START opens the action menu (lnr/actions.py), SELECT
looks around (lnr/look.py). Each of those panels' code is loaded while it is up (Play.panel),
not while the game is played (RAM, docs/memory.md).

A build is composed on the real State, one card at a time (docs/rules.md §4); the State at the
turn's start is kept (clone()) so that B can undo the build until the dice are rolled, and so
that save & quit stores the turn's start. Laying a card puts the cursor on the roll button: a
one-card build is two presses, A and A. The result panel left over the map at the turn's start
(lnr/turns.py) goes with the next key, which then acts as usual. Keys never reach this class
while a move is shown or an opponent plays (lnr/main.py drops them).
"""
from engine.cards import KIND, VALUE, SHAPE, KIND_CHAOS, SHAPE_CURVE
from engine.state import (
    A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, P_BUILD, P_CHAOS, P_DICE,
)
from lnr import drop
from lnr.keys import K_A, K_B, K_START, K_SELECT, K_LEFT, K_RIGHT
from lnr.hud import S_HAND, S_BEND, S_MENU, S_LOOK, S_ORDER, S_HANDOFF, S_INFO, BTN_ROLL
from lnr.turns import Turns


class Play(Turns):
    """The play screen (see lnr/turns.py for the flow)."""

    def key(self, k):
        """Handles one key press."""
        step = self.step
        if self.summary and step == S_HAND:  # the last result goes; the key acts as usual
            self.summary = False
            self.ui.show(self.ui.play)
            self.app.dirty = True
        if step == S_HAND:
            self.key_hand(k)
        elif step == S_BEND:
            self.key_bend(k)
        elif step == S_MENU or step == S_ORDER or step == S_LOOK:  # a panel's code takes them
            self.panel.key(self, k)
        elif step == S_INFO or step == S_HANDOFF:
            if k == K_A or (k == K_B and step != S_HANDOFF):
                self.step = S_HAND
                self.ui.show(self.ui.play)
                self.advance()

    # ------------------------------------------------------------------ hand

    def key_hand(self, k):
        if k == K_LEFT or k == K_RIGHT:
            n = self.slots()
            if n:
                self.sel = (self.sel + (1 if k == K_RIGHT else n - 1)) % n
                self.clamp_sel()
                self.draw_hand()
                self.draw_risk()
                self.app.dirty = True
        elif k == K_A:
            self.pick()
        elif k == K_B:
            self.back()
        elif k == K_START:  # the action menu, loaded while it is up (RAM: lnr/actions.py)
            from lnr import actions

            self.panel = actions
            actions.show(self)
        elif k == K_SELECT:  # looking around, loaded while it lasts (RAM: lnr/look.py)
            from lnr import look

            self.panel = look
            look.show(self)

    def pick(self):
        """A on the selected slot: lay a track card, discard a chaos card, roll, or stop."""
        s = self.game.state
        btn = self.button()
        if btn and self.sel == len(self.cards()):
            if btn == BTN_ROLL:
                if s.phase == P_BUILD:
                    s.apply(A_STOP)
                self.start_roll()
            else:
                s.apply(A_STOP)
                self.advance()
            return
        c = self.selected()
        if c < 0:
            return
        action = A_CHAOS + c if KIND[c] == KIND_CHAOS else A_LAY + c
        if not s.is_legal(action):  # why not, in the toast (lnr/refusal.py, for the moment)
            from lnr import refusal

            self.toast(refusal.reason(self, c))
            refusal = None
            drop("lnr.refusal")
            return
        if action >= A_CHAOS:
            self.act(action)
            if self.game.state.phase != P_CHAOS and self.step == S_HAND:
                self.toast("Chaos %d discarded" % VALUE[c])
            return
        if SHAPE[c] == SHAPE_CURVE:
            self.before = len(self.built)  # B in the bend step goes back to here
        self.act(action)
        self.build_help()

    def build_help(self):
        # Says what the keys do once a build has begun (its dice not rolled yet); the cursor
        # is on the roll button (Turns.act).
        p = self.game.state.phase
        if self.step == S_HAND and (p == P_BUILD or p == P_DICE):
            self.toast("A: roll  B: undo" if p == P_DICE else "A: roll  <: add", True)

    def back(self):
        """B: undo the build (or chaos discards) composed this turn, before any dice."""
        s = self.game.state
        if s.phase == P_BUILD or s.phase == P_DICE or s.phase == P_CHAOS:
            self.game.state = self.undo.clone()
            self.built = bytearray()
            self.before = -1
            self.sel = 0
            self.toast("Undone")
            self.advance()
        else:
            self.toast("START: menu")

    # ------------------------------------------------------------------ bend

    def key_bend(self, k):
        s = self.game.state
        if k == K_LEFT or k == K_RIGHT:
            want = A_BEND_L if k == K_LEFT else A_BEND_R
            if s.is_legal(want):
                self.bend = want
                self.draw()
            else:
                self.toast("Blocked that way")
        elif k == K_A:
            self.act(self.bend)
            self.build_help()
        elif k == K_B:  # the State before the curve was picked: see Turns.__init__
            built = self.built[:self.before]
            s = self.undo.clone()
            for a in built:
                s.apply(a)
            self.game.state = s
            self.built = built
            self.before = -1
            self.advance()

    # ------------------------------------------------------------------ hint

    def hint(self, found):
        """Shows the hint found (lnr/hint.py). Its code is needed for this moment only and is
        dropped after it (RAM, docs/memory.md)."""
        from lnr import hint

        self.hide_toast()  # the menu's "Thinking..." (lnr/actions.py): it would stay on
        hint.show(self, found)
        hint = None
        drop("lnr.hint")
