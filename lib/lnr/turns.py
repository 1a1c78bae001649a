"""The flow of a game on the play screen: whose turn, what happens on its own, what waits for
a key. Play (lnr/play.py) adds the player's keys on top of this class, and this class builds
on the move shown (lnr/moveshow.py: the dice, the loco's run, the penalty order, the result).

After every change to the State, advance() decides the next step: the game over (once the last
move's result has shown a while); an opponent playing on a timer (the rival by docs/rules.md
§8, table bots by engine.bots); a pass that is all the player can do (§4), played as an
opponent's step; or a step that waits for the player.

A move (a pass, the last die of a build, the rival's lay) is shown before it is summed up
(lnr/moveshow.py). While it runs the screen is busy (busy()): keys pressed meanwhile are
dropped, never kept for the player's turn (lnr/main.py), and B finishes it at once (skip()).
The result panel of the move before the player's turn stays until their next key, which then
acts as usual (lnr/play.py); before an opponent's move it stays HOLD_MS.
"""
import gc

from adafruit_ticks import ticks_less
from engine.cards import VALUE, SHAPE, SHAPE_CURVE
from engine.state import A_PASS, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, P_TURN, P_BEND, P_ORDER
from lnr.hud import (
    S_HAND, S_BEND, S_MOVE, S_ROLL, S_AUTO, S_HOLD, S_HANDOFF, S_THINK, card_name,
)
from lnr.moveshow import MoveShow
from lnr.screens import W_OVER, W_THINK, W_HINT
from lnr.ui import YELLOW, RED, GREEN

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


AUTO_MS = const(450)  # before an opponent's step
HOLD_MS = const(1500)  # a result shown before the next opponent plays
END_MS = const(2000)  # the last result, before the game over screen


class Turns(MoveShow):
    """The game's flow on the play screen; see the module docstring."""

    def __init__(self, app):
        MoveShow.__init__(self, app)
        self.undo = None  # the State at the start of the player's turn (B undoes a build)
        # The player's actions since then, and how many of them came before the curve that
        # waits for its bend (-1: none): B cancels the bend by playing those again on a copy
        # of `undo`, which gives the State as it was (State.apply is deterministic, and a turn
        # lays and bends before any die). A second State kept for it would be 0.9 KB more in
        # RAM through the rest of the turn (docs/memory.md).
        self.built = bytearray()
        self.before = -1
        self.seen_turn = -1
        self.mi = 0  # the action menu's cursor
        self.ending = False  # the game is over: its last result shows, then the game over

    # ------------------------------------------------------------------ flow

    def begin(self, game):
        """Shows `game` (new or resumed) and goes on from its position."""
        self.game = game
        self.seen_turn = -1
        self.step = S_HAND
        self.ui.show(self.ui.play)
        self.hide_toast()
        self.advance()

    def kept(self):
        """Returns what this screen needs to come back as it was left after a move made with
        its code dropped (a bot's plan, the hint, a save the NVM refused): lnr/app.py."""
        return (self.undo, self.built, self.before, self.sel, self.hoff, self.seen_turn,
                self.title, self.mover, self.bend, self.quiet)

    def restore(self, game, kept):
        """Takes up `game` where kept() left it. The display objects kept showing it, so
        nothing is drawn here: what follows (the bot's step, the hint, again()) draws."""
        self.game = game
        (self.undo, self.built, self.before, self.sel, self.hoff, self.seen_turn, self.title,
         self.mover, self.bend, self.quiet) = kept

    def again(self):
        """Shows the game again from the turn as it stands (a save the NVM refused)."""
        self.step = S_HAND
        self.ui.show(self.ui.play)
        self.advance()


    def advance(self):
        """Decides what comes next after the State changed (see the module docstring)."""
        g = self.game
        s = g.state
        ui = self.ui
        if s.is_terminal():
            if self.ending:
                self.step = S_HAND
                self.sfx("end")
                self.app.ask(W_OVER)  # the game's result, counted (lnr/moves.py)
            else:  # the last result stays a while (or a toast says it is over)
                self.ending = True
                if not self.summary:
                    self.toast("Game over", True)
                self.draw()
                self.wait(S_HOLD, END_MS)
            return
        if self.sticky:
            self.hide_toast()
        if s.turn != self.seen_turn:
            self.seen_turn = s.turn
            if self.new_turn():
                return
        ui.show(ui.play, self.summary)
        self.app.dirty = True
        acts = s.legal_actions()
        if not g.human(s.seat) or (s.phase == P_TURN and len(acts) == 1):
            # An opponent's step, or the pass that is all the player can do (§4: nothing
            # fits, no chaos card): on a timer, after the last result has shown a while.
            if s.is_chance():
                self.start_roll()
            elif s.phase == P_ORDER:
                self.order_auto()
            else:
                if not self.summary:
                    self.plays()
                self.wait(S_AUTO, HOLD_MS if self.summary else AUTO_MS)
                self.draw()
            return
        if s.phase == P_ORDER:
            self.start_order()
            return
        if s.phase == P_BEND:
            # Even one bend that fits is shown and laid with A: a press never does what the
            # screen did not offer (the A meant for the bend must not roll the dice).
            self.step = S_BEND
            self.bend = self.default_bend()
            self.toast("</>: bend  A: lay" if len(acts) > 1 else "One bend fits: A", True)
        else:
            self.step = S_HAND
        self.clamp_sel()
        self.draw()

    def plays(self):
        # The toast while the seat on turn plays on its own.
        g = self.game
        s = g.state
        name = g.name(s.seat)
        if not s.deck:
            text = "%s: last turn!" % name
        elif g.human(s.seat):
            text = "Nothing fits: pass"
        else:
            text = name + (" plays" if s.is_rival(s.seat) else " bot plays")
        self.toast(text, True)

    def new_turn(self):
        # A turn began: keep its start for undo and save, hide hands between people at a
        # hot-seat table. Returns True if the step waits for the hand-over.
        g = self.game
        s = g.state
        g.planned = b""  # a plan is for one turn
        # The last turn's States go: no undo, save or bend cancel reaches back past a turn,
        # and a State kept through the bots' turns would be in RAM beside their plans' moves
        # (lnr/think.py: about 1.3 KB each; docs/memory.md).
        self.undo = None
        self.built = bytearray()
        self.before = -1
        gc.collect()  # a quiet point (docs/style.md)
        if not g.human(s.seat):
            return False
        self.undo = s.clone()
        self.sel = 0
        self.hoff = 0
        if g.humans() > 1:
            self.step = S_HANDOFF
            self.summary = False
            ui = self.ui
            ui.clear_panel()
            ui.pline(0, "Hot seat", YELLOW)
            ui.pline(1, self.title)  # what the turn before did (its result has gone)
            ui.pline(2, "Pass the device to %s" % g.name(s.seat))
            if not s.deck:  # §4: the deck is empty, this turn ends the game
                ui.pline(3, "Last turn of the game", RED)
            ui.pline(4, "%s: press A" % g.name(s.seat), GREEN)
            self.draw()
            ui.show(ui.play, True)
            return True
        if not s.deck:
            self.toast("Your last turn!", True)
        return False

    def act(self, action):
        """Applies a player's or opponent's action and goes on (a move is shown first)."""
        g = self.game
        s = g.state
        seat = s.seat
        lays = action == A_BEND_L or action == A_BEND_R or (
            A_LAY <= action < A_CHAOS and SHAPE[action - A_LAY] != SHAPE_CURVE)
        moves = action == A_PASS or (s.is_rival(seat) and lays)
        if s.phase == P_TURN:
            self.title = self.describe(seat, action)
        self.mover = seat
        keep = (s.cells[:], s.bends[:], s.loco) if moves else None
        box = len(s.box)
        s.apply(action)
        if g.human(seat):
            self.built.append(action)  # for a bend's cancel (see __init__)
        if lays:
            self.sfx("lay")
            if g.human(seat):
                self.sel = len(self.cards())  # on the roll button: A rolls, LEFT adds
        elif action >= A_CHAOS:
            self.sfx("combine" if len(s.box) > box + 1 else "lay")  # §6: both to the box
        if moves:
            self.start_move(keep)
            return
        if not g.human(seat) and self.title:
            self.toast(self.title, True)  # an opponent's lay or chaos discard, said
        self.advance()

    def describe(self, seat, action):
        # The title of a turn (18 characters at most: the toast's): what its first action is.
        name = self.game.name(seat)
        s = self.game.state
        if action == A_PASS:
            if s.is_rival(seat):
                return "%s can't lay %d" % (name, VALUE[s.hands[seat][0]])
            if len(s.legal_actions()) == 1:
                return name + ": no fit, pass"
            return name + (" pass" if name == "YOU" else " passes")
        c = action - A_CHAOS if action >= A_CHAOS else action - A_LAY
        return "%s: %s" % (name, card_name(c))

    def auto_step(self):
        # The timed step of the seat on turn: after a result held a while, that result goes
        # and the toast says who plays; then one step of it: the rival's by its rules (§8), a
        # bot's by engine.bots, or the player's pass when nothing else is legal (§4).
        g = self.game
        s = g.state
        if self.summary:
            self.summary = False
            self.ui.show(self.ui.play)
            self.plays()
            self.wait(S_AUTO, AUTO_MS)
            self.app.dirty = True
            return
        if g.human(s.seat):
            action = A_PASS
        elif s.is_rival(s.seat):
            action = s.rival_action()
        else:
            action = self.planned()
            if action < 0:  # the bot plans its turn in a move (RAM: lnr/think.py think)
                self.app.ask(W_THINK)
                return
        self.act(action)

    def planned(self):
        # The bot's next action by its plan (lnr/think.py plan_turn), or -1: none left.
        g = self.game
        p = g.planned
        if not p:
            return -1
        g.planned = p[1:]
        if g.state.is_legal(p[0]):
            return p[0]
        g.planned = b""  # never: the plan is the bot's own, for this very turn
        return -1


    # ------------------------------------------------------------------ timers

    def tick(self, now):
        """Runs timed steps, blinks, and hides an old toast."""
        # Deadlines by adafruit_ticks: the board's clock wraps at 2**29 (docs/hardware.md).
        if self.toast_due >= 0 and not ticks_less(now, self.toast_due):
            self.hide_toast()
            self.app.dirty = True
        if self.busy():
            if not ticks_less(now, self.due):
                self.run_step()
            elif self.step == S_MOVE and self.blink:
                self.blink_frame(now)

    def run_step(self):
        # The timed step on screen, now.
        step = self.step
        if step == S_ROLL:
            self.roll_step()
        elif step == S_MOVE:
            self.move_step()
        elif step == S_AUTO:
            self.auto_step()
        elif step == S_THINK:  # the toast is on screen: now the hint's move
            self.step = S_HAND
            self.app.ask(W_HINT)
        else:  # S_HOLD: the game over
            self.advance()

    def busy(self):
        """Returns True while a timed step runs: keys are dropped (lnr/main.py)."""
        step = self.step
        return (step == S_AUTO or step == S_ROLL or step == S_MOVE or step == S_HOLD or
                step == S_THINK)

    def skip(self):
        """B while busy: finishes the dice and the move at once, up to its result (or ends
        the wait of a result shown a while); never acts on the player's turn."""
        if self.summary or self.step == S_HOLD:
            self.run_step()
            return
        turn = self.seen_turn
        self.quiet = True
        try:  # up to the result, or to the next seat's turn (an opponent's chaos discard)
            while (self.busy() and not self.summary and self.seen_turn == turn and
                   not self.app.moving()):  # a bot's plan is made in a move (W_THINK)
                self.run_step()
        finally:
            self.quiet = False

    def default_bend(self):
        # The bend offered first: the one with more free cells straight ahead (as the rival
        # chooses, engine rival_action), so A alone rarely boxes the track in.
        s = self.game.state
        return s.rival_action() if s.phase == P_BEND else A_BEND_L
