"""The move shown on the play screen, before it is summed up: the dice roll one by one (§4),
then the loco travels card by card on the map, which follows it; a broken card flashes as the
loco enters it, a derailment leaves the loco beside the track's end (§5), and the penalty
cards leave the track's start one by one (§6). Then the penalties are put on the pile (the
player chooses the order when it matters) and the result panel sums the move up. Every step
plays its sound (lnr/sound.py) and LED effect (lnr/leds.py). lnr/turns.py (the game's flow)
builds on this class.

A module of its own, not part of lnr/turns.py: compiled from .py source on the board, one
module's source is parsed whole before it is compiled, so two modules of half the size need
about half the heap for a moment (`make flash --no-mpy`, docs/memory.md).
"""
from adafruit_ticks import ticks_add, ticks_diff
from engine.cards import KIND, VALUE, KIND_BROKEN
from engine.state import (
    A_ROLL0, A_PILE, P_ORDER, MODE_CHALLENGE, MODE_TABLE, MODE_RIVAL, CHALLENGE_DERAILS,
)
from lnr import drop, sprites
from lnr.hud import Hud, S_ROLL, S_MOVE, risk_text, risk_colour, side_text
from lnr.mapview import cell_x, cell_y
from lnr.ui import MAP_W, MAP_H, WHITE, YELLOW, RED

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


DIE_MS = const(160)  # between two dice
STEP_MS = const(250)  # the loco from one card to the next
BROKEN_MS = const(600)  # on a broken card: it flashes
DERAIL_MS = const(900)  # beside the track's end: it blinks
PEN_MS = const(300)  # a penalty card leaving the track's start
_BLINK_MS = const(100)


class MoveShow(Hud):
    """The move on the play screen; see the module docstring. The flow (lnr/turns.py Turns)
    gives it advance() (what comes after a result) and planned() (a bot's next step)."""

    def __init__(self, app):
        Hud.__init__(self, app)
        self.due = 0
        self.dice = []
        self.dice_total = 0
        self.opts = None  # penalty orders offered, best first (lnr/penalty.py shows them)
        self.oi = 0
        self.panel = None  # the code of the panel taking the keys (lnr/actions.py: the action
        # menu, lnr/penalty.py: the penalty order), loaded while it is up
        self.title = ""  # what the last turn did: the move's toast, the result panel's title
        self.mover = 0  # the seat whose move is shown
        self.summary = False  # the result panel is up: the next key closes it, then acts
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

    def advance(self):
        """Decides what comes after a move's result: the flow's (lnr/turns.py Turns)."""
        raise NotImplementedError

    def planned(self):
        """Returns a bot's next step by its plan, or -1: the flow's (lnr/turns.py Turns)."""
        raise NotImplementedError

    def wait(self, step, ms):
        self.step = step
        self.due = ticks_add(self.app.now, ms)

    def sfx(self, name):
        # An effect of lnr/sound.py (none while a move is hurried through).
        if not self.quiet:
            self.app.sound.play(name, self.app.now)

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
        ui.put(ui.side[6], side_text("Ahead", str(ahead)))
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
        """Offers the orders of the penalty cards (§6), best first (the panel: lnr/penalty.py,
        loaded while it is up); one order that every choice comes to is put at once. The
        orders are engine.order's, loaded for this moment and dropped: neither module's code
        is in RAM while the game is played (docs/memory.md)."""
        s = self.game.state
        self.summary = False
        if len(s.penalty) == 1:  # one card, one order: nothing to load (the most common case)
            self.put_order(s.penalty[:])
            return
        from engine.order import orders

        self.opts = orders(s.piles[s.seat], s.penalty)
        orders = None
        drop("engine.order")
        if len(self.opts) == 1:  # forced: every order gives the same values
            self.put_order(self.opts[0][1])
            return
        from lnr import penalty

        self.panel = penalty
        penalty.show(self)

    def put_order(self, order):
        """Puts the player's penalty cards on the pile in `order` (§6) and sums the move up."""
        s = self.game.state
        box = len(s.box)
        for c in order:
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
