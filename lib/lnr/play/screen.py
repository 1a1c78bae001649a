"""The play screen: one game on the device, its flow and the player's keys. What it shows is
its View's (lnr/play/view.py); its panels (the action menu, looking around, the penalty order,
the hint: lnr/play/actions.py, look.py, penalty.py, hint.py) are loaded while they are up and
change the screen through its methods (open_panel, close_panel, act, ...); the result and the
hot seat's handoff (lnr/play/result.py, handoff.py) are loaded to write their panel, and the
dice and the loco's run (lnr/play/run.py) while they are shown.

The flow: after every change to the State, advance() decides the next step: the game over
(once the last action's result has shown a while); an opponent playing on a timer (the rival
by docs/rules.md §8, table bots by engine.bots); a pass that is all the player can do (§4),
played as an opponent's step; or a step that waits for the player.

An action that moves the loco (a pass, the last die of a build, the rival's lay) is shown as
the loco's run before its result sums it up: the dice roll one by one (§4) and stay a while
once all have landed, then the loco travels card by card on the map, which follows it; a broken
card flashes as the loco enters it, a derailment leaves the loco beside the track's end (§5),
and the penalty cards leave the track's start one by one (§6). Then the penalties are put on the
pile (the player chooses the order when it matters) and the result panel sums the action up.
Every step plays its sound (lnr/sound.py) and LED effect (lnr/leds.py). While a run is shown the screen is busy (busy()):
keys pressed meanwhile are dropped, never kept for the player's turn (lnr/main.py), and B
finishes it at once (skip()). An opponent's result stays until the player's key (see
advance()), and so does the player's own before a pass that nothing else fits. The next seat's
draw shows once the result is put away: the run and the result show the numbers the action left
(unseen()).

The hot seat (a table of several people passing the device, docs/rules.md §3.5: each hand is
secret): a person's hand, score and risk show only while they hold the device (viewer()), from
the A of their handoff (lnr/play/handoff.py: whose turn, and every turn since theirs) to the key
that puts their own turn's result away.

The keys: the D-pad moves over the hand, A picks or confirms, B goes back (undoes a build
before its dice roll), START opens the action menu, SELECT looks around. A build is composed on
the real State, one card at a time (docs/rules.md §4); the State at the turn's start is kept
(clone()) so that B can undo the build until the dice are rolled, and so that save & quit
stores the turn's start. Laying a card puts the cursor on the roll button: a one-card build is
two presses, A and A.
"""
import gc

from adafruit_ticks import ticks_add, ticks_less
from engine.cards import KIND, VALUE, SHAPE, KIND_CHAOS, SHAPE_CURVE, card_name
from engine.state import (
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, A_PILE, P_TURN, P_BEND,
    P_ORDER, P_BUILD, P_CHAOS, P_DICE, BEND_L, BEND_R, TURN,
)
from lnr.memory import drop, empty, load, turn_down, unsaid, DOWN, DICE
from lnr.keys import K_A, K_B, K_START, K_SELECT, K_LEFT, K_RIGHT
from lnr.play.view import (
    View, S_HAND, S_BEND, S_MENU, S_LOOK, S_ORDER, S_ROLL, S_RUN, S_AUTO, S_HANDOFF, S_INFO,
    S_HOLD, S_HINT_ASKED, S_HINT_FOUND, BTN_NONE, BTN_ROLL, BTN_DONE,
)
from lnr.screens import W_OVER, W_PLAN, W_HINT
from lnr.ui import HAND_N, YELLOW

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


AUTO_MS = const(450)  # before an opponent's step
HOLD_MS = const(1500)  # a result shown before the next opponent plays
END_MS = const(2000)  # the last result, before the game over screen
# The heading each of the D-pad's keys points to (K_RIGHT, K_DOWN, K_UP, K_LEFT): east,
# south, north, west (docs/rules.md §2: 0 east, 1 south, 2 west, 3 north).
_KEY_HEADING = b"\x00\x01\x03\x02"


class Play:
    """The play screen; see the module docstring. `view` draws it."""

    def __init__(self, app):
        self.app = app
        self.ui = app.ui
        self.game = None  # and the screen's place in it (cursor, undo, ...): lnr/game.py
        self.step = S_HAND
        self.due = 0  # when the timed step runs
        self.dice = []
        self.dice_total = 0
        self.panel = None  # the panel taking the keys (open_panel), its code loaded while up
        self.chaos_n = 0  # chaos cards the seat on turn discarded this turn (§4)
        self.pairs = 0  # of them, those that combined with the pile's top (§6)
        self.confirm = -1  # the lone chaos card whose discard would end the turn: A again
        self.drew = -1  # the seat whose draw the run or result on screen does not count (§4)
        self.summary = False  # the result panel is up: the next key closes it, then acts
        self.quiet = False  # skip(): no sound while a run is hurried through
        self.ending = False  # the game is over: its last result shows, then the game over
        # The run being shown: the track as it was before the penalty cards left it (their
        # cards, bends and cells first), the loco's card on it (len: beside the end,
        # derailed), its length, the cards gone from its start, the steps taken, what blinks.
        self.run_track = None
        self.run_bends = None
        self.run_cells = None
        self.run_at = 0
        self.run_len = 0
        self.run_off = False
        self.run_gone = 0
        self.run_first = 0
        self.run_i = 0
        self.blink = 0  # 0 nothing, 1 the broken card under the loco, 2 the derailed loco
        self.running = None  # lnr.play.run while the dice or a run are shown
        self.found = None  # the hint found in a switch, until it is shown (hint())
        self.view = View(self)

    # ------------------------------------------------------------------ the hand

    def viewer(self):
        """Returns the seat whose hand and score are shown: the one person at the table; at a
        hot seat the person who holds the device (-1: nobody's), from the A of their handoff
        to the key that puts their turn's result away (docs/rules.md §3.5: hands are secret)."""
        g = self.game
        if g.humans() < 2:
            return g.first_human()
        if self.step == S_HANDOFF:
            return -1
        s = g.state
        # The turn taken up is the seat on turn's; one played but not yet taken up is still
        # its player's: its run and result.
        seat = s.seat if s.turn == g.seen_turn else g.actor
        return seat if g.human(seat) else -1

    def cards(self):
        v = self.viewer()
        if v < 0:
            return ()
        hand = self.game.state.hands[v]
        return hand[:-1] if self.unseen(v) else hand

    def unseen(self, seat):
        # True while the run or the result panel is up and `seat`'s draw after it is not shown:
        # the hand, score and deck on screen are those the action left (the result's key shows
        # the draw).
        return seat >= 0 and seat == self.drew and (self.summary or self.step == S_RUN)

    def button(self):
        # The extra slot after the cards while a build waits for its roll or chaos cards
        # are being discarded.
        s = self.game.state
        if not self.game.human(s.seat) or self.step == S_HANDOFF:
            return BTN_NONE
        if s.phase == P_BUILD or s.phase == P_DICE:
            return BTN_ROLL
        if s.phase == P_CHAOS:
            return BTN_DONE
        return BTN_NONE

    def slots(self):
        return len(self.cards()) + (1 if self.button() else 0)

    def window(self):
        """Returns (left, k): the hand row shows the slots from hoff in its places from `left`,
        k of them; a place at an end that cards lie off shows a mark instead (lnr/play/view.py
        draw_hand), never over a card."""
        hoff = self.game.hoff
        left = 1 if hoff else 0
        k = HAND_N - left
        if self.slots() - hoff > k:
            k -= 1
        return left, k

    def clamp_sel(self):
        g = self.game
        n = self.slots()
        if g.sel >= n:
            g.sel = n - 1
        if g.sel < 0:
            g.sel = 0
        if n <= HAND_N:
            g.hoff = 0
        elif g.hoff > n - HAND_N + 1:  # the hand shrank: no place empty while a card is off
            g.hoff = n - HAND_N + 1
        if g.sel < g.hoff:
            g.hoff = g.sel
        while g.sel >= g.hoff + self.window()[1]:
            g.hoff += 1

    def selected(self):
        """Returns the card under the hand cursor, or -1 (the button, or no card)."""
        cards = self.cards()
        sel = self.game.sel
        return cards[sel] if 0 <= sel < len(cards) else -1

    # ------------------------------------------------------------------ flow

    def begin(self, game):
        """Shows `game` (new or resumed: its place on the screen starts afresh, lnr/game.py) and
        goes on from its position."""
        self.game = game
        self.step = S_HAND
        self.ui.show(self.ui.play)
        self.view.hide_toast()
        self.advance()

    def take_up(self, game):
        """Takes up `game` where a switch made with this screen's code dropped (a bot's plan,
        the hint, a save the NVM refused) left it: its place is on the Game (lnr/game.py). The
        display objects kept showing it, so nothing is drawn here: what follows (the bot's
        step, the hint, again()) draws."""
        self.game = game

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
        view = self.view
        if s.is_terminal():
            if self.ending:
                self.step = S_HAND
                self.sfx("end")
                self.app.ask(W_OVER)  # the game's result, counted (lnr/games.py)
            else:  # the last result stays a while (or a toast says it is over)
                self.ending = True
                if not self.summary:
                    view.toast("Game over", True)
                view.draw()
                self.wait(S_HOLD, END_MS)
            return
        if view.sticky:
            view.hide_toast()
        if s.turn != g.seen_turn:
            if self.summary and g.humans() > 1 and g.human(g.actor):
                # A hot seat's person sees their own turn's result until their key (S_INFO);
                # then the device goes on (new_turn).
                self.step = S_INFO
                view.draw()
                return
            g.seen_turn = s.turn
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
            elif self.summary and g.humans() and (g.human(s.seat) or not g.human(g.actor)):
                # An opponent's result stays until the player's key (S_INFO: A or B goes on),
                # so that the next opponent's turn never takes it away unseen; so does any
                # result before the player's own pass that nothing else fits.
                self.step = S_INFO
                view.draw()
            else:
                if not self.summary:
                    self.plays()
                self.wait(S_AUTO, HOLD_MS if self.summary else AUTO_MS)
                view.draw()
            return
        if s.phase == P_ORDER:
            self.start_order()
            return
        if s.phase == P_BEND:
            # Even one bend that fits is shown and laid with A: a press never does what the
            # screen did not offer (the A meant for the bend must not roll the dice).
            self.step = S_BEND
            g.bend = self.default_bend()
            if len(acts) < 2:
                view.toast("One bend fits: A", True)
            else:  # the keys toward the two bends on the screen (key_bend)
                view.toast("^/v: bend  A: lay" if s.head & 1 == 0 else "</>: bend  A: lay",
                           True)
        else:
            self.step = S_HAND
            # Turned down for memory (lnr/memory): each said once, here, at a turn's start: in
            # a build the keys' help takes the line at once (build_help()).
            said = unsaid() if s.phase == P_TURN else None
            if said is not None:
                view.toast(said, True)
        self.clamp_sel()
        view.draw()

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
        self.view.toast(text, True)

    def new_turn(self):
        # A turn began: keep its start for undo and save, hide hands between people at a
        # hot-seat table. Returns True if the step waits for the hand-over.
        g = self.game
        s = g.state
        g.planned = b""  # a plan is for one turn
        # The last turn's States go: no undo, save or bend cancel reaches back past a turn,
        # and a State kept through the bots' turns would be in RAM beside their plans' actions
        # (lnr/play/plan.py: about 1.3 KB each; docs/memory.md).
        g.undo = None
        g.built = bytearray()
        g.before = -1
        gc.collect()  # a quiet point (docs/style.md)
        if not g.human(s.seat):
            return False
        g.sel = 0
        g.hoff = 0
        if g.humans() > 1:  # the hot seat's handoff, its code loaded for the panel only
            self.step = S_HANDOFF  # the hands hidden (lnr/play/view.py), the panel or not
            self.summary = False
            handoff = self.need("lnr.play.handoff")
            if handoff is None:  # short of memory: whose turn it is, without the turns since
                ui = self.ui
                ui.clear_panel()
                ui.pline(6, g.name(s.seat) + ": press A", YELLOW)
            else:
                handoff.show(self)
            handoff = None
            drop("lnr.play.handoff", "lnr.play.result")
            self.view.draw()
            self.ui.show(self.ui.play, True)
            return True
        if not s.deck:
            self.view.toast("Your last turn!", True)
        return False

    def act(self, action):
        """Applies a player's or opponent's action and goes on (a loco's run is shown
        first)."""
        g = self.game
        s = g.state
        seat = s.seat
        lays = action == A_BEND_L or action == A_BEND_R or (
            A_LAY <= action < A_CHAOS and SHAPE[action - A_LAY] != SHAPE_CURVE)
        runs = action == A_PASS or (s.is_rival(seat) and lays)
        if s.phase == P_TURN:
            g.title = self.describe(seat, action)
            self.chaos_n = self.pairs = 0
        g.actor = seat
        keep = (s.cells[:], s.bends[:], s.loco) if runs else None
        box = len(s.box)
        turn = s.turn
        if g.human(seat) and g.undo is None:
            g.undo = s.clone()  # the turn's start, before its first action (lnr/game.py)
        s.apply(action)
        if g.human(seat):
            g.built.append(action)  # for a bend's cancel (lnr/game.py)
        if lays:
            self.sfx("lay")
            if g.human(seat):
                g.sel = len(self.cards())  # on the roll button: A rolls, LEFT adds
        elif action >= A_CHAOS:
            self.chaos_n += 1
            if self.chaos_n > 1:  # the title names each (a toast's 18 characters: 4 of 5)
                title = "%s+%d" % (g.title, VALUE[action - A_CHAOS])
                g.title = title if len(title) < 19 else "%s: %d chaos" % (
                    g.name(seat), self.chaos_n)
            if len(s.box) > box + 1:  # §6: both to the box
                self.pairs += 1
            self.sfx("combine" if len(s.box) > box + 1 else "lay")
        if runs:
            self.start_run(keep)
            return
        if s.turn != turn or s.is_terminal():
            self.show_result()  # a chaos discard ended the turn (§4, §8)
            return
        if not g.human(seat) and g.title:
            self.view.toast(g.title, True)  # an opponent's lay or chaos discard, said
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
        """The timed step of the seat on turn: after a result held a while, that result goes
        and the toast says who plays; then one step of it: the rival's by its rules (§8), a
        bot's by engine.bots, or the player's pass when nothing else is legal (§4)."""
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
            if action < 0:  # the bot plans its turn in a switch (RAM: lnr/play/plan.py)
                self.app.ask(W_PLAN)
                return
        self.act(action)

    def planned(self):
        # The bot's next action by its plan (lnr/play/plan.py plan_turn), or -1: none left.
        g = self.game
        p = g.planned
        if not p:
            return -1
        g.planned = p[1:]
        if g.state.is_legal(p[0]):
            return p[0]
        g.planned = b""  # never: the plan is the bot's own, for this very turn
        return -1

    def default_bend(self):
        # The bend offered first: the one with more free cells straight ahead (as the rival
        # chooses, engine rival_action), so A alone rarely boxes the track in.
        s = self.game.state
        return s.rival_action() if s.phase == P_BEND else A_BEND_L

    # ------------------------------------------------------------------ timers

    def wait(self, step, ms):
        """Goes to `step`, which runs (timed_step) `ms` from now."""
        self.step = step
        self.due = ticks_add(self.app.now, ms)

    def sfx(self, name):
        # An effect of lnr/sound.py (none while a run is hurried through).
        if not self.quiet:
            self.app.sound.play(name, self.app.now)

    def tick(self, now):
        """Runs timed steps, blinks, and hides an old toast."""
        # Deadlines by adafruit_ticks: the board's clock wraps at 2**29 (docs/hardware.md).
        self.view.tick(now)
        if self.busy():
            if not ticks_less(now, self.due):
                self.timed_step()
            elif self.step == S_RUN and self.blink:
                self.running.blink_frame(self.view, now)

    def timed_step(self):
        # The timed step on screen, now.
        step = self.step
        if step == S_ROLL:
            self.running.roll_step(self)
        elif step == S_RUN:
            if self.running.run_step(self):
                self.ran()
        elif step == S_AUTO:
            self.auto_step()
        elif step == S_HINT_FOUND:
            self.show_hint()
        elif step == S_HINT_ASKED:  # the toast is on screen: now the hint's switch
            self.step = S_HAND
            self.app.ask(W_HINT)
        else:  # S_HOLD: the game over
            self.advance()

    def busy(self):
        """Returns True while a timed step runs: keys are dropped (lnr/main.py)."""
        step = self.step
        return (step == S_AUTO or step == S_ROLL or step == S_RUN or step == S_HOLD or
                step == S_HINT_ASKED or step == S_HINT_FOUND)

    def skip(self):
        """B while busy: finishes the dice and the run at once, up to its result (or ends
        the wait of a result shown a while); never acts on the player's turn."""
        if self.summary or self.step == S_HOLD:
            self.timed_step()
            return
        turn = self.game.seen_turn
        self.quiet = True
        try:  # up to the result, or to the next seat's turn (an opponent's chaos discard)
            while (self.busy() and not self.summary and self.game.seen_turn == turn and
                   self.app.want is None):  # a bot's plan is made in a switch (W_PLAN)
                self.timed_step()
        finally:
            self.quiet = False

    # ------------------------------------------------------------------ the dice and the run

    def start_roll(self):
        """Rolls the build's dice one at a time on a timer (the engine is in P_DICE), then
        shows the loco's run (lnr/play/run.py, loaded while they are shown). Short of heap for
        that code the dice are rolled at once, and the game goes on to what the run leads to."""
        self.running = self.run_code()
        if self.running is not None:
            self.running.start_roll(self)
            return
        g = self.game
        s = g.state
        g.actor = s.seat
        while s.dice_left > 1:  # the dice as lnr/play/run.py rolls them, the last with the
            s.apply(s.sample_chance(g.rng))  # track before it kept for the run
        keep = (s.cells[:], s.bends[:], s.loco)
        s.apply(s.sample_chance(g.rng))
        self.start_run(keep)

    def start_run(self, keep, toast=None, rolled=False):
        """Shows the loco's run of the action just applied (see the module docstring;
        lnr/play/run.py start_run says what `keep`, `toast` and `rolled` are), or where its
        code does not fit, goes on at once to what it leads to (ran())."""
        g = self.game
        if g.state.derail_left and g.human(g.actor):
            g.derails += 1
        if self.running is None:
            self.running = self.run_code()
            if self.running is None:
                self.ran()
                return
        if self.running.start_run(self, keep, toast, rolled):
            self.ran()

    def run_code(self):
        # lnr/play/run.py, or None: short of heap for it beside the screen's code even with
        # the sound and the LEDs shed, the dice are rolled at once from then on, said once
        # (lnr/memory DICE), not tried again (and toasted) at every roll.
        if DOWN[0] & DICE:
            return None
        try:
            return load(self.app, "lnr.play.run")
        except MemoryError:
            turn_down(DICE, "Dice shown at once")
            return None

    def ran(self):
        # The run is over (or was not shown): its code goes before what follows loads beside
        # the screen's: the penalty order, then the result. Its globals are emptied (lnr.memory
        # empty()): a stale stack slot that still hits one of its functions keeps that one,
        # not the whole module (on CircuitPython's VM the result then found no room at 84 KB).
        if self.running is not None:
            empty(self.running)
            self.running = None
        s = self.game.state
        if s.phase == P_ORDER:
            if self.game.human(s.seat):
                self.start_order()
            else:
                self.order_auto()
        else:
            self.show_result()

    # ------------------------------------------------------------------ results

    def show_result(self):
        """Sums up the action in the result panel (lnr/play/result.py, loaded for the moment),
        then goes on: advance() draws the screen once, for what comes next (drawn here too, the
        run's last frame drew twice). Short of heap for the panel's code, the game goes on
        without it (need()'s toast says so)."""
        result = self.need("lnr.play.result")
        self.drew = self.drawn()
        if result is None:
            self.summary = False
            self.advance()
            return
        self.summary = True
        result.show(self)
        result = None
        drop("lnr.play.result")
        self.view.hide_toast()
        ui = self.ui
        ui.show(ui.play, True)
        self.app.dirty = True
        self.advance()

    def drawn(self):
        """Returns the seat that has drawn since the turn on screen ended (§4), or -1: its card
        is not shown until the result is put away (unseen())."""
        s = self.game.state
        if not s.is_terminal() and s.phase == P_TURN and s.turn == self.game.seen_turn + 1:
            return s.seat
        return -1

    # ------------------------------------------------------------------ penalty order

    def start_order(self):
        """Offers the orders of the penalty cards (§6), best first (the panel:
        lnr/play/penalty.py, loaded while it is up); one order that every choice comes to is
        put at once. The orders are engine.order's, loaded for this moment and dropped:
        neither module's code is in RAM while the game is played (docs/memory.md)."""
        s = self.game.state
        self.summary = False
        if len(s.penalty) == 1:  # one card, one order: nothing to load (the most common case)
            self.put_order(s.penalty[:])
            return
        order = self.need("engine.order")
        if order is None:  # the cards as they were taken: an order the rules allow
            self.put_order(s.penalty[:])
            return
        opts = order.orders(s.piles[s.seat], s.penalty)
        order = None
        drop("engine.order")
        panel = None if len(opts) == 1 else self.need("lnr.play.penalty")
        if panel is None:  # forced (every order gives the same values), or the best
            self.put_order(opts[0][1])
            return
        self.open_panel(panel.PenaltyOrder(self, opts), S_ORDER)

    def need(self, name):
        """Returns module `name`, loaded for a panel or a moment (lnr/memory load(): the
        heap short, a feature is turned down first), or None, the toast saying so, where even
        that leaves too little: what asked for it goes on without it."""
        try:
            return load(self.app, name)
        except MemoryError:
            self.view.toast("Not enough memory")
            return None

    def put_order(self, order):
        """Puts the player's penalty cards on the pile in `order` (§6) and sums the action
        up."""
        s = self.game.state
        box = len(s.box)
        for c in order:
            s.apply(A_PILE + c)
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

    # ------------------------------------------------------------------ panels

    def open_panel(self, panel, step):
        """Gives the keys to `panel` (an object with draw() and key(k), its module loaded
        for as long as it is up; key() returns None, or what the key chose once the panel has
        closed: a method of this Play and its arguments, which key() calls) in `step` (S_MENU,
        S_LOOK, S_ORDER) and draws it."""
        self.panel = panel
        self.step = step
        self.summary = False
        panel.draw()

    def close_panel(self, hand, *modules):
        """Takes the keys back from the panel and drops its modules (`modules`): its code is
        not in RAM while the game is played (docs/memory.md). `hand`: the hand's step again
        (else the step stays until what follows the panel sets it)."""
        self.panel = None
        if hand:
            self.step = S_HAND
        drop(*modules)

    def info(self, sel):
        """A panel of text is up over the map (the hint), the hand's cursor on slot `sel`
        (-1: where it is); A or B closes it."""
        if sel >= 0:
            self.game.sel = sel
        self.clamp_sel()
        self.summary = False
        self.step = S_INFO  # before the drawing: the hand's cursor shows on the hint's card
        self.view.draw()
        self.ui.show(self.ui.play, True)
        self.app.dirty = True

    def ask_hint(self):
        """Asks for the hint: it is worked out in a switch with the play screen's code dropped
        (engine.bots and engine.ai beside it would not fit: lnr/play/plan.py), then shown by
        hint(). First the screen says so: the switch takes up to a few seconds on a board (the
        look-ahead's 1.5 s and the code loaded and dropped), and the display is not refreshed
        while it runs, so the menu would stand frozen there meanwhile. The switch starts on the
        next frame (timed_step), after the refresh that shows the toast."""
        self.view.toast("Thinking...", True)
        self.wait(S_HINT_ASKED, 1)
        self.app.dirty = True

    def save_and_quit(self):
        """Asks the App to store the game as it stood at the turn's start and go to the
        title."""
        g = self.game
        self.app.save_and_quit(g, g.state if g.undo is None else g.undo)

    def hint(self, found):
        """Takes the hint found in a switch (lnr/play/plan.py), shown at the next frame: the
        switch's code is gone by then (RAM)."""
        self.found = found
        self.wait(S_HINT_FOUND, 0)

    def show_hint(self):
        """Shows the hint found (lnr/play/hint.py). Its code is needed for this moment only
        and is dropped after it (RAM, docs/memory.md)."""
        found = self.found
        self.found = None
        self.view.hide_toast()  # the menu's "Thinking..." (lnr/play/actions.py): it would stay
        hint = self.need("lnr.play.hint")
        if hint is None:
            self.advance()
            return
        hint.show(self, found)
        hint = None
        drop("lnr.play.hint")

    # ------------------------------------------------------------------ keys

    def key(self, k):
        """Handles one key press (never while busy(): lnr/main.py drops those)."""
        step = self.step
        if self.summary and step == S_HAND:  # the last result goes
            self.summary = False
            self.ui.show(self.ui.play)
            if self.drew >= 0:
                self.view.draw()  # the card drawn since shows (unseen())
            self.app.dirty = True
            if k == K_A or k == K_B:
                # A or B only put it away: the panel hid the map and the risk, so a card laid
                # or a build undone by that press would be one the screen did not offer. The
                # D-pad, START and SELECT act as usual (the hand and its cursor were shown).
                return
        if step == S_HAND:
            self.key_hand(k)
        elif step == S_BEND:
            self.key_bend(k)
        elif step == S_MENU or step == S_ORDER or step == S_LOOK:  # a panel's code takes them
            # What it chose is done once it has closed, its code gone (its class stays in RAM
            # while one of its methods runs): a loco's run or a result panel loads beside the
            # screen's code, not the panel's too.
            then = self.panel.key(k)
            if then is not None:
                then[0](*then[1:])
        elif step == S_INFO or step == S_HANDOFF:
            if k == K_A or (k == K_B and step != S_HANDOFF):
                self.step = S_HAND
                self.summary = False  # an opponent's result seen: the next one plays
                self.ui.show(self.ui.play)
                self.advance()

    def key_hand(self, k):
        armed = self.confirm  # a chaos discard that ends the turn waits for A again
        self.confirm = -1
        if armed >= 0 and k != K_A:
            self.view.hide_toast()
            self.app.dirty = True
        if k == K_LEFT or k == K_RIGHT:
            n = self.slots()
            if n:  # no wrap: LEFT on the first card never lands on the roll button
                self.game.sel += 1 if k == K_RIGHT else -1
                self.clamp_sel()
                self.view.draw_hand()
                self.view.draw_risk()
                self.app.dirty = True
        elif k == K_A:
            self.pick(armed)
        elif k == K_B:
            if armed < 0:
                self.back()
        elif k == K_START:  # the action menu, loaded while it is up (RAM: lnr/play/actions.py)
            panel = self.need("lnr.play.actions")
            if panel is not None:
                self.open_panel(panel.Actions(self), S_MENU)
        elif k == K_SELECT:  # looking around, loaded while it lasts (RAM: lnr/play/look.py)
            panel = self.need("lnr.play.look")
            if panel is not None:
                self.open_panel(panel.Look(self), S_LOOK)

    def pick(self, armed=-1):
        """A on the selected slot: lay a track card, discard a chaos card, roll, or stop."""
        # A discard that would end the turn (the hand's last chaos card at the turn's start,
        # §4) asks first: `armed` is the card the A before asked about.
        s = self.game.state
        btn = self.button()
        if btn and self.game.sel == len(self.cards()):
            if btn == BTN_ROLL:
                self.roll()
            else:
                self.act(A_STOP)  # the chaos discards done: the turn ends (§4)
            return
        c = self.selected()
        if c < 0:
            return
        action = A_CHAOS + c if KIND[c] == KIND_CHAOS else A_LAY + c
        if not s.is_legal(action):  # why not, in the toast (lnr/play/refusal.py, for now)
            refusal = self.need("lnr.play.refusal")
            if refusal is None:  # short of heap: need()'s toast says so
                return
            self.view.toast(refusal.reason(s, c))
            refusal = None
            drop("lnr.play.refusal")
            return
        if action >= A_CHAOS:
            if s.phase == P_TURN and armed != c and self.chaos_in_hand() == 1:
                self.confirm = c  # one press never ends the turn unasked (B: keep it)
                self.view.toast("A ends turn  B: no", True)
                return
            self.act(action)
            return
        if SHAPE[c] == SHAPE_CURVE:
            self.game.before = len(self.game.built)  # B in the bend step goes back to here
        self.act(action)
        self.build_help()

    def discard(self, chaos):
        """Discards the chaos cards `chaos` in that order (the action menu's item): the last
        one ends the turn (§4), its result sums them up."""
        for c in chaos:
            self.act(A_CHAOS + c)

    def chaos_in_hand(self):
        n = 0
        for c in self.cards():
            if KIND[c] == KIND_CHAOS:
                n += 1
        return n

    def roll(self):
        """Ends the build and rolls its dice (the action menu's Build once it has begun)."""
        s = self.game.state
        if s.phase == P_BUILD:
            s.apply(A_STOP)
        self.start_roll()

    def build_help(self):
        # Says what the keys do once a build has begun (its dice not rolled yet); the cursor
        # is on the roll button (act()).
        p = self.game.state.phase
        if self.step == S_HAND and (p == P_BUILD or p == P_DICE):
            self.view.toast("A: roll  B: undo" if p == P_DICE else "A: roll  <: add", True)

    def back(self):
        """B: undo the build (or chaos discards) composed this turn, before any dice."""
        g = self.game
        p = g.state.phase
        if p == P_BUILD or p == P_DICE or p == P_CHAOS:
            # The turn's start is the game's State again, itself: no copy (the next action
            # copies it, as the turn's first did: lnr/game.py).
            g.state = g.undo
            g.undo = None
            g.built = bytearray()
            g.before = -1
            g.sel = 0
            self.view.toast("Undone")
            self.advance()
        else:
            self.view.toast("START: menu")

    def key_bend(self, k):
        # The D-pad says where on the screen the track turns to (the way the curve's open end
        # will point), not left or right of the loco: heading south, LEFT turns it west, which
        # is the loco's right (§2). The two keys along the track, which no curve turns to,
        # take the other bend.
        g = self.game
        s = g.state
        if K_RIGHT <= k <= K_LEFT:
            to = _KEY_HEADING[k - K_RIGHT]
            if to == (s.head + TURN[BEND_L]) & 3:
                want = A_BEND_L
            elif to == (s.head + TURN[BEND_R]) & 3:
                want = A_BEND_R
            else:
                want = A_BEND_R if g.bend == A_BEND_L else A_BEND_L
            if s.is_legal(want):
                g.bend = want
                self.view.draw()
            else:
                self.view.toast("Blocked that way")
        elif k == K_A:
            self.act(g.bend)
            self.build_help()
        elif k == K_B:  # the State before the curve was picked: see lnr/game.py
            built = g.built[:g.before]
            g.state = s = None  # its room for the copy (the collector frees it if need be)
            s = g.undo.clone()
            for a in built:
                s.apply(a)
            g.state = s
            g.built = built
            g.before = -1
            self.advance()
