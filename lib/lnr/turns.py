"""The flow of a game on the play screen: whose turn, what happens on its own, what waits for
a key. Play (lnr/play.py) adds the player's keys on top of this class.

After every change to the State, advance() decides the next step: the game over (once the last
move's result has shown a while); an opponent playing on a timer (the rival by docs/rules.md
§8, table bots by engine.bots); a pass that is all the player can do (§4), played as an
opponent's step; or a step that waits for the player.

A move (a pass, the last die of a build, the rival's lay) is shown before it is summed up: the
dice roll one by one (§4), then the loco travels card by card on the map, which follows it;
a broken card flashes as the loco enters it, a derailment leaves the loco beside the track's
end (§5), and the penalty cards leave the track's start one by one (§6). Then the penalties
are put on the pile (the player chooses the order when it matters) and the result panel sums
the move up. While any of this runs the screen is busy (busy()): keys pressed meanwhile are
dropped, never kept for the player's turn (lnr/main.py), and B finishes it at once
(skip()). The result panel of the move before the player's turn stays until their next key,
which then acts as usual (lnr/play.py); before an opponent's move it stays HOLD_MS. Every
step of a move plays its sound (lnr/sound.py) and LED effect (lnr/leds.py).
"""
import gc

from adafruit_ticks import ticks_add, ticks_diff, ticks_less
from engine.cards import KIND, VALUE, SHAPE, SHAPE_CURVE, KIND_BROKEN
from engine.state import (
    A_PASS, A_BEND_L, A_BEND_R, A_ROLL0, A_LAY, A_CHAOS, A_PILE,
    P_TURN, P_BEND, P_BUILD, P_CHAOS, P_DICE, P_ORDER, MODE_CHALLENGE, MODE_TABLE, MODE_RIVAL,
    CHALLENGE_DERAILS,
)
from engine.order import orders
from lnr import sprites
from lnr.hud import (
    Hud, S_HAND, S_BEND, S_ORDER, S_ROLL, S_MOVE, S_AUTO, S_HOLD, S_HANDOFF, risk_text,
    risk_colour, card_name, side_text,
)
from lnr.mapview import card_top, card_bottom, cell_x, cell_y
from lnr.ui import put, MAP_W, MAP_H, SIDE_W, WHITE, GREY, YELLOW, RED, GREEN

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


DIE_MS = const(160)  # between two dice
AUTO_MS = const(450)  # before an opponent's step
HOLD_MS = const(1500)  # a result shown before the next opponent plays
STEP_MS = const(250)  # the loco from one card to the next
BROKEN_MS = const(600)  # on a broken card: it flashes
DERAIL_MS = const(900)  # beside the track's end: it blinks
PEN_MS = const(300)  # a penalty card leaving the track's start
END_MS = const(2000)  # the last result, before the game over screen
_BLINK_MS = const(100)


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
        self.title = ""  # what the last turn did: the move's toast, the result panel's title
        self.mover = 0  # the seat whose move is shown
        self.summary = False  # the result panel is up: the next key closes it, then acts
        self.ending = False  # the game is over: its last result shows, then the game over
        self.quiet = False  # skip(): no sound while a move is hurried through
        # The move being shown: the track as it was before the penalty cards left it (their
        # cards, bends and cells first), the loco's card on it (len: beside the end,
        # derailed), the cards gone from its start, the steps taken, what blinks.
        self.m_track = None
        self.m_bends = None
        self.m_cells = None
        self.m_at = 0
        self.m_moved = 0
        self.m_off = False
        self.m_gone = 0
        self.m_first = 0
        self.m_i = 0
        self.blink = 0  # 0 nothing, 1 the broken card under the loco, 2 the derailed loco
        self.b_tile = 0
        self.b_on = -1

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
        return (self.undo, self.before, self.sel, self.hoff, self.seen_turn, self.title,
                self.mover, self.bend, self.quiet)

    def restore(self, game, kept):
        """Takes up `game` where kept() left it. The display objects kept showing it, so
        nothing is drawn here: what follows (the bot's step, the hint, again()) draws."""
        self.game = game
        (self.undo, self.before, self.sel, self.hoff, self.seen_turn, self.title, self.mover,
         self.bend, self.quiet) = kept

    def again(self):
        """Shows the game again from the turn as it stands (a save the NVM refused)."""
        self.step = S_HAND
        self.ui.show(self.ui.play)
        self.advance()

    def wait(self, step, ms):
        self.step = step
        self.due = ticks_add(self.app.now, ms)

    def sfx(self, name):
        # An effect of lnr/sound.py (none while a move is hurried through).
        if not self.quiet:
            self.app.sound.play(name, self.app.now)

    def advance(self):
        """Decides what comes next after the State changed (see the module docstring)."""
        g = self.game
        s = g.state
        ui = self.ui
        if s.is_terminal():
            if self.ending:
                self.step = S_HAND
                self.sfx("end")
                self.app.game_over(g)
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
        self.before = None
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
                self.app.think()
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

    # ------------------------------------------------------------------ dice

    def start_roll(self):
        """Rolls the build's dice one at a time on a timer (the engine is in P_DICE)."""
        s = self.game.state
        self.dice = []
        self.dice_total = s.dice_left
        self.summary = False
        self.hide_toast()
        ui = self.ui
        ui.clear_panel()
        self.mover = s.seat
        ui.pline(0, "%s: %d dice" % (self.game.name(s.seat), s.dice_left), YELLOW)
        ui.pline(4, "Track ahead: %d" % s.ahead())
        num, den = s.build_risk()
        ui.pline(5, risk_text(num, den), risk_colour(num, den))
        self.draw_dice()
        ui.show(ui.play, True)
        self.app.leds.dice(self.dice, self.dice_total)
        self.sfx("dice")
        self.wait(S_ROLL, DIE_MS)
        self.app.dirty = True

    def roll_step(self):
        g = self.game
        s = g.state
        last = s.dice_left == 1
        keep = (s.cells[:], s.bends[:], s.loco) if last else None
        action = s.sample_chance(g.rng)
        s.apply(action)
        self.dice.append(action - A_ROLL0)
        self.draw_dice()
        self.app.leds.dice(self.dice, self.dice_total)
        self.app.dirty = True
        if last:
            wheels = 0
            for d in self.dice:
                wheels += d
            self.title = "%s: %d wheel%s" % (g.name(self.mover), wheels,
                                             "" if wheels == 1 else "s")
            self.dice = []
            self.start_move(keep)
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

    # ------------------------------------------------------------------ the move on the map

    def start_move(self, keep):
        """Shows the move just applied (see the module docstring); `keep` is (cells, bends,
        loco) from before it, for the penalty cards it took off the track's start."""
        cells, bends, loco = keep
        g = self.game
        s = g.state
        if s.derail_left and g.human(self.mover):
            g.derails += 1
        n = s.taken  # §6, D4: the cards taken from the start are s.penalty, in that order
        self.m_track = s.penalty[:n] + s.track
        self.m_bends = bends[:n] + s.bends
        self.m_cells = cells[:n] + s.cells
        self.m_at = loco
        self.m_moved = s.moved
        self.m_off = s.derail_left > 0
        self.m_gone = n
        self.m_first = 0
        self.m_i = 0
        self.blink = 0
        self.summary = False
        self.ui.show(self.ui.play)  # the result panel never hides the map while it moves
        self.toast(self.title, True)
        self.wait(S_MOVE, STEP_MS)
        self.draw()

    def move_step(self):
        # One step of the move: the loco onto the next card, off the end, or one penalty
        # card gone; after the last, the penalty order and the result.
        i = self.m_i
        self.m_i = i + 1
        self.blink = 0
        self.b_on = -1
        leds = self.app.leds
        if i < self.m_moved:
            self.m_at += 1
            if KIND[self.m_track[self.m_at]] == KIND_BROKEN:  # D1: it costs a penalty card
                self.sfx("broken")
                leds.broken_hit()
                self.blink = 1
                self.wait(S_MOVE, BROKEN_MS)
            else:
                self.sfx("run")
                self.wait(S_MOVE, STEP_MS)
            self.draw()
            return
        i -= self.m_moved
        if self.m_off:
            if i == 0:  # §5: no card left for a move: it derails
                self.m_at = len(self.m_track)
                self.sfx("derail")
                leds.derail()
                self.blink = 2
                self.wait(S_MOVE, DERAIL_MS)
                self.draw()
                return
            i -= 1
        if i <= self.m_gone and self.m_gone:  # each framed, then gone; then a last look
            self.m_at = len(self.m_track) - self.game.state.ahead() - 1  # back on its card
            self.m_first = i
            if i:
                self.sfx("lay")
            self.wait(S_MOVE, PEN_MS)
            self.draw()
            return
        self.m_track = self.m_bends = self.m_cells = None
        s = self.game.state
        if s.phase == P_ORDER:
            if self.game.human(s.seat):
                self.start_order()
            else:
                self.order_auto()
        else:
            self.show_result()

    def draw(self):
        """Draws the play screen: the move being shown, or the State (Hud.draw)."""
        if self.step != S_MOVE or self.m_track is None:
            Hud.draw(self)
            return
        s = self.game.state
        view = self.view
        end = s.target()
        n = len(self.m_cells)
        pen = self.m_i > self.m_moved + (1 if self.m_off else 0)  # the penalty cards leave
        if pen:  # the track's start
            view.frame(self.m_cells, 0, self.m_at, end)
        elif self.m_at < n:  # the loco first, and as much ahead of it as fits
            view.frame(self.m_cells, self.m_at, n, end)
        else:  # derailed: beside the end, and the track it left
            view.frame(self.m_cells, n, 0, end)
        view.paint(self.m_track, self.m_bends, self.m_cells, s.head, self.m_at, self.m_first,
                   end)
        ui = self.ui
        if self.blink == 1:
            self.b_tile = ui.map[ui.loco.x // 16, ui.loco.y // 16]
        if pen and self.m_first < self.m_gone:  # the frame on the card leaving next
            c = self.m_cells[self.m_first]
            x = cell_x(c) - view.ox
            y = cell_y(c) - view.oy
            if 0 <= x < MAP_W and 0 <= y < MAP_H:
                ui.frame.x = 16 * x
                ui.frame.y = 16 * y
                ui.frame.hidden = False
        self.place_toast()
        self.draw_hand()
        self.draw_side()
        # The cards ahead of the loco where it is drawn, not where the move will leave it.
        ahead = len(self.m_track) - 1 - self.m_at
        if ahead < 0:
            ahead = 0
        put(ui.side[6], side_text("Ahead", str(ahead)), SIDE_W)
        self.app.leds.progress(ahead, len(self.m_track))
        self.app.dirty = True

    def blink_frame(self, now):
        # The broken card under the loco flashes; the derailed loco blinks (every 100 ms).
        on = (ticks_diff(self.due, now) // _BLINK_MS) & 1
        if on == self.b_on:
            return
        self.b_on = on
        ui = self.ui
        if self.blink == 1:
            ui.map[ui.loco.x // 16, ui.loco.y // 16] = self.b_tile if on else sprites.T_EMPTY
        else:
            ui.loco.hidden = not on
        self.app.dirty = True

    # ------------------------------------------------------------------ results

    def show_result(self):
        """Sums up the move (docs/rules.md §5, §6) in the result panel, with every seat's
        numbers in a table or rival game, then goes on (the panel stays: see advance())."""
        g = self.game
        s = g.state
        ui = self.ui
        ui.clear_panel()
        ui.pline(0, self.title, YELLOW)
        moved = s.moved
        text = "Loco +%d" % moved if moved else "Loco stays"
        if s.derail_left and s.hits:
            text = "+%d broken x%d DERAILED" % (moved, s.hits)
        elif s.derail_left:
            text += ", DERAILED!"
        elif s.hits:
            text += ", broken x%d" % s.hits
        ui.pline(1, text, RED if s.derail_left or s.hits else WHITE)
        text = "No penalty"
        if s.earned:
            text = "Penalty %d" % s.earned
            if s.taken < s.earned:  # D4: never the loco's card; the rest is forfeited
                text += ", %d taken" % s.taken
        ui.pline(2, text)
        last = ""
        if not s.deck and not s.is_terminal():
            last = "LAST TURN: " + g.name(s.seat)
        if s.mode == MODE_TABLE or s.mode == MODE_RIVAL:
            ui.pline(3, last, RED)
            self.seats(4)
        else:
            if s.mode == MODE_CHALLENGE and s.derail_left:
                left = CHALLENGE_DERAILS - 1 - s.derails
                ui.pline(3, "Lives left: %d" % left if left >= 0 else "4th derailment: lost",
                         RED)
            ui.pline(5, "Your score: %d" % s.score(0))
            ui.pline(6, last, RED)
        self.summary = True
        self.hide_toast()
        self.draw()
        ui.show(ui.play, True)
        self.app.dirty = True
        self.advance()

    # ------------------------------------------------------------------ penalty order

    def start_order(self):
        """Offers the orders of the penalty cards (§6), best first; one order: applied."""
        s = self.game.state
        pile = s.piles[s.seat]
        self.opts = orders(pile, s.penalty)
        self.oi = 0
        self.summary = False
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
        # The pile's sum after this order less before: combining (§6) can lower it.
        ui.pline(5, "Score %+d%s" % (score - before, "  (best)" if self.oi == 0 else ""),
                 GREEN if self.oi == 0 else WHITE)
        ui.pline(6, "<> order %d/%d  A: put" % (self.oi + 1, len(self.opts)))
        ui.show(ui.play, True)
        self.app.dirty = True

    def apply_order(self):
        s = self.game.state
        box = len(s.box)
        for c in self.opts[self.oi][1]:
            s.apply(A_PILE + c)
        self.opts = None
        if len(s.box) > box:
            self.sfx("combine")
        self.show_result()

    def order_auto(self):
        # An opponent's penalty cards: the rival piles them as taken (§8), a bot by its choice.
        g = self.game
        s = g.state
        box = len(s.box)
        while s.phase == P_ORDER:
            if s.is_rival(s.seat):
                s.apply(s.rival_action())
            else:  # a bot's, by the plan it made at its turn's start (planned())
                action = self.planned()
                s.apply(action if action >= 0 else g.bot(s.seat)(s, g.bot_rng))
        if len(s.box) > box:
            self.sfx("combine")
        self.show_result()

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
        else:  # S_HOLD: the game over
            self.advance()

    def busy(self):
        """Returns True while a timed step runs: keys are dropped (lnr/main.py)."""
        step = self.step
        return step == S_AUTO or step == S_ROLL or step == S_MOVE or step == S_HOLD

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
                   not self.app.moving()):  # a bot's plan is made in a move (think())
                self.run_step()
        finally:
            self.quiet = False

    def default_bend(self):
        # The bend offered first: the one with more free cells straight ahead (as the rival
        # chooses, engine rival_action), so A alone rarely boxes the track in.
        s = self.game.state
        return s.rival_action() if s.phase == P_BEND else A_BEND_L
