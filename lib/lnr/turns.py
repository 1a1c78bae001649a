"""The flow of a game on the play screen: whose turn, what happens on its own, what waits for
a key. Play (lnr/play.py) adds the player's keys on top of this class.

After every change to the State, advance() decides the next step: the game over; an opponent
playing on a timer (the rival by docs/rules.md §8, table bots by engine.bots); dice rolling one by one
on a timer (docs/rules.md §4, §5); a forced step applied at once (a single legal action); or a
step that waits for the player. Timed steps keep the keys queued (they are read when the step
waits again), so a scripted run behaves the same whatever the timing.
"""
import gc

from adafruit_ticks import ticks_add, ticks_less
from engine.cards import VALUE, SHAPE, SHAPE_CURVE, describe
from engine.state import (
    A_PASS, A_BEND_L, A_BEND_R, A_ROLL0, A_LAY, A_CHAOS, A_PILE,
    P_TURN, P_BEND, P_CHAOS, P_DICE, P_ORDER, MODE_CHALLENGE, CHALLENGE_DERAILS,
)
from engine.order import orders
from lnr import sprites
from lnr.hud import (
    Hud, S_HAND, S_BEND, S_ORDER, S_ROLL, S_RESULT, S_AUTO, S_HANDOFF, risk_text, risk_colour,
)
from lnr.mapview import card_top, card_bottom
from lnr.ui import WHITE, GREY, YELLOW, RED, GREEN

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


DIE_MS = const(160)  # between two dice
AUTO_MS = const(450)  # between two steps of an opponent


class Turns(Hud):
    """The game's flow on the play screen; see the module docstring."""

    def __init__(self, app):
        Hud.__init__(self, app)
        self.undo = None  # the State at the start of the player's turn (B undoes a build)
        self.before = None  # the State before a curve was picked (B cancels its bend)
        self.seen_turn = -1
        self.due = 0
        self.dice = []
        self.dice_total = 0
        self.opts = None  # penalty orders offered, best first
        self.oi = 0
        self.mi = 0  # menu cursor
        self.title = ""  # the result panel's title: what the mover did
        self.mover = 0  # the seat whose move the result panel shows

    # ------------------------------------------------------------------ flow

    def begin(self, game):
        """Shows `game` (new or resumed) and goes on from its position."""
        self.game = game
        self.seen_turn = -1
        self.step = S_HAND
        self.ui.show(self.ui.play)
        self.hide_toast()
        self.advance()

    def rejoin(self, game, undo, sel, hoff):
        """Shows `game` again as the player left it (a save the NVM refused): the turn's
        start kept for undo, the cursor where it was."""
        self.game = game
        self.undo = undo
        self.seen_turn = game.state.turn
        self.sel = sel
        self.hoff = hoff
        self.step = S_HAND
        self.ui.show(self.ui.play)
        self.advance()

    def wait(self, step, ms):
        self.step = step
        self.due = ticks_add(self.app.now, ms)

    def advance(self):
        """Decides what comes next after the State changed (see the module docstring)."""
        g = self.game
        s = g.state
        ui = self.ui
        if s.is_terminal():
            self.app.game_over(g)
            return
        if self.sticky:
            self.hide_toast()
        if s.turn != self.seen_turn:
            self.seen_turn = s.turn
            if self.new_turn():
                return
        ui.show(ui.play)
        self.app.dirty = True
        if not g.human(s.seat):
            if s.is_chance():
                self.start_roll()
            elif s.phase == P_ORDER:
                self.apply_order_auto()
            else:
                self.wait(S_AUTO, AUTO_MS)
                self.draw()
            return
        acts = s.legal_actions()
        if s.phase == P_ORDER:
            self.start_order()
            return
        if s.phase == P_BEND:
            if len(acts) == 1:  # a forced step: one bend fits
                s.apply(acts[0])
                self.advance()
                return
            self.step = S_BEND
            self.bend = self.default_bend()
            self.toast("</>: bend  A: lay", True)
        elif s.phase == P_TURN and len(acts) == 1:  # nothing fits and no chaos: pass (§4)
            self.act(A_PASS)
            return
        else:
            self.step = S_HAND
            if s.phase == P_DICE or (s.phase == P_CHAOS and self.sel >= len(self.cards())):
                self.sel = len(self.cards())  # on the button: A rolls
        self.clamp_sel()
        self.draw()

    def new_turn(self):
        # A turn began: keep its start for undo and save, hide hands between people at a
        # hot-seat table. Returns True if the step waits for the hand-over.
        g = self.game
        s = g.state
        gc.collect()  # a quiet point (docs/style.md)
        if not g.human(s.seat):
            self.toast("%s plays" % g.name(s.seat))
            return False
        self.undo = s.clone()
        self.sel = 0
        self.hoff = 0
        if g.humans() > 1:
            self.step = S_HANDOFF
            ui = self.ui
            ui.clear_panel()
            ui.pline(0, "Hot seat", YELLOW)
            ui.pline(2, "Pass the device to %s" % g.name(s.seat))
            ui.pline(4, "%s: press A" % g.name(s.seat), GREEN)
            self.draw()
            ui.show(ui.play, True)
            return True
        return False

    def act(self, action):
        """Applies a player's or opponent's action and goes on (a move shows its result)."""
        s = self.game.state
        seat = s.seat
        moves = action == A_PASS or (s.is_rival(seat) and (
            action == A_BEND_L or action == A_BEND_R or (
                A_LAY <= action < A_CHAOS and SHAPE[action - A_LAY] != SHAPE_CURVE)))
        if s.phase == P_TURN:
            self.title = self.describe(seat, action)
        self.mover = seat
        s.apply(action)
        if not moves and not self.game.human(seat) and self.title:
            self.toast(self.title)  # an opponent's lay or chaos discard, said in passing
        if moves:
            self.ui.clear_panel()
            if s.is_rival(seat) and action != A_PASS:
                c = s.track[-1]
                self.ui.cards[0, 0] = card_top(c)
                self.ui.cards[0, 1] = card_bottom(c)
            self.show_result()
        else:
            self.advance()

    def describe(self, seat, action):
        # The result panel's title for the first action of a turn.
        name = self.game.name(seat)
        s = self.game.state
        if action == A_PASS:
            if s.is_rival(seat):
                return "%s can't lay %d" % (name, VALUE[s.hands[seat][0]])
            if len(s.legal_actions()) == 1:
                return "Can't lay: %s pass%s" % (name, "" if name == "YOU" else "es")
            return "%s pass%s" % (name, "" if name == "YOU" else "es")
        if action >= A_CHAOS:
            return "%s: chaos %d" % (name, VALUE[action - A_CHAOS])
        return "%s lay%s %s" % (name, "" if name == "YOU" else "s", describe(action - A_LAY))

    def auto_step(self):
        # One step of an opponent: the rival by its rules (§8), a bot by engine.bots.
        g = self.game
        s = g.state
        if s.is_rival(s.seat):
            action = s.rival_action()
        else:
            action = g.bot(s.seat)(s, g.bot_rng)
        self.act(action)

    def apply_order_auto(self):
        # An opponent's penalty cards: the rival piles them as taken (§8), a bot by its choice.
        g = self.game
        s = g.state
        while s.phase == P_ORDER:
            if s.is_rival(s.seat):
                s.apply(s.rival_action())
            else:
                s.apply(g.bot(s.seat)(s, g.bot_rng))
        self.advance()

    # ------------------------------------------------------------------ dice

    def start_roll(self):
        """Rolls the build's dice one at a time on a timer (the engine is in P_DICE)."""
        s = self.game.state
        self.dice = []
        self.dice_total = s.dice_left
        ui = self.ui
        ui.clear_panel()
        self.mover = s.seat
        ui.pline(0, "%s: %d dice" % (self.game.name(s.seat), s.dice_left), YELLOW)
        ui.pline(4, "Track ahead: %d" % s.ahead())
        ui.pline(5, risk_text(*s.build_risk()), risk_colour(*s.build_risk()))
        self.draw_dice()
        ui.show(ui.play, True)
        self.app.leds.dice(self.dice, self.dice_total)
        self.wait(S_ROLL, DIE_MS)
        self.app.dirty = True

    def roll_step(self):
        g = self.game
        s = g.state
        last = s.dice_left == 1
        action = s.sample_chance(g.rng)
        s.apply(action)
        self.dice.append(action - A_ROLL0)
        self.draw_dice()
        self.app.leds.dice(self.dice, self.dice_total)
        self.app.dirty = True
        if last:
            self.show_result()
        else:
            self.wait(S_ROLL, DIE_MS)

    def draw_dice(self):
        cards = self.ui.cards
        n = len(self.dice)
        for i in range(16):
            if i < n:
                t = sprites.T_DIE + self.dice[i]
            elif i < self.dice_total:
                t = sprites.T_DIE + 2
            else:
                t = sprites.T_NONE
            cards[i % 8, i // 8] = t

    # ------------------------------------------------------------------ results

    def show_result(self):
        """Shows what the move did (docs/rules.md §5, §6) and starts the LED effect."""
        g = self.game
        s = g.state
        ui = self.ui
        leds = self.app.leds
        title = self.title
        if self.dice:
            wheels = 0
            for d in self.dice:
                wheels += d
            title = "%s: %d wheel%s" % (g.name(self.mover), wheels, "" if wheels == 1 else "s")
        ui.pline(0, title, YELLOW)
        text = "Loco +%d" % s.moved if s.moved else "Loco stays"
        if s.hits:
            text += ", broken x%d" % s.hits
            leds.broken_hit()
        ui.pline(4, text, RED if s.hits else WHITE)
        text = ""
        if s.derail_left:
            text = "DERAILED! %d left" % s.derail_left
            if s.mode == MODE_CHALLENGE:
                left = CHALLENGE_DERAILS - 1 - s.derails
                text = "DERAILED! Lives %d" % left if left >= 0 else "DERAILED! Game lost"
            leds.derail()
        ui.pline(5, text, RED)
        if s.earned:
            text = "Penalty %d" % s.earned
            if s.taken < s.earned:
                text += ", %d taken" % s.taken
        else:
            text = "No penalty"
        ui.pline(6, text + "   A>")
        self.dice = []
        self.title = ""
        self.step = S_RESULT
        self.draw()
        ui.show(ui.play, True)
        self.app.dirty = True

    # ------------------------------------------------------------------ penalty order

    def start_order(self):
        """Offers the orders of the penalty cards (§6), best first; one order: applied."""
        s = self.game.state
        pile = s.piles[s.seat]
        self.opts = orders(pile, s.penalty)
        self.oi = 0
        if len(self.opts) == 1:  # forced: every order gives the same values
            self.apply_order()
            return
        self.step = S_ORDER
        self.draw_order()

    def draw_order(self):
        s = self.game.state
        ui = self.ui
        ui.clear_panel()
        score, order = self.opts[self.oi]
        pile = s.piles[s.seat]
        before = 0
        for c in pile:
            before += VALUE[c]
        ui.pline(0, "Penalty onto the pile", YELLOW)
        cards = ui.cards
        if pile:
            cards[0, 0] = card_top(pile[-1])
            cards[0, 1] = card_bottom(pile[-1])
        else:
            cards[0, 0] = sprites.T_NOPILE
            cards[0, 1] = sprites.T_NOPILE + 1
        cards[1, 0] = sprites.T_ONTO
        for i in range(len(order)):
            if i < 6:
                cards[2 + i, 0] = card_top(order[i])
                cards[2 + i, 1] = card_bottom(order[i])
        ui.pline(4, "pile <- 1st, 2nd, ..." if pile else "empty <- 1st, 2nd, ...", GREY)
        ui.pline(5, "Score +%d%s" % (score - before, "  (best)" if self.oi == 0 else ""),
                 GREEN if self.oi == 0 else WHITE)
        ui.pline(6, "<> order %d/%d  A: put" % (self.oi + 1, len(self.opts)))
        ui.show(ui.play, True)
        self.app.dirty = True

    def apply_order(self):
        s = self.game.state
        for c in self.opts[self.oi][1]:
            s.apply(A_PILE + c)
        self.opts = None
        self.ui.show(self.ui.play)
        self.advance()

    def tick(self, now):
        """Runs timed steps and hides an old toast."""
        # Deadlines by adafruit_ticks: the board's clock wraps at 2**29 (docs/hardware.md).
        if self.toast_due >= 0 and not ticks_less(now, self.toast_due):
            self.hide_toast()
            self.app.dirty = True
        if (self.step == S_AUTO or self.step == S_ROLL) and not ticks_less(now, self.due):
            if self.step == S_ROLL:
                self.roll_step()
            else:
                self.auto_step()

    def busy(self):
        """Returns True while a timed step runs (keys wait in their queue)."""
        return self.step == S_AUTO or self.step == S_ROLL

    def default_bend(self):
        # The bend offered first: the one with more free cells straight ahead (as the rival
        # chooses, engine rival_action), so A alone rarely boxes the track in.
        s = self.game.state
        return s.rival_action() if s.phase == P_BEND else A_BEND_L
