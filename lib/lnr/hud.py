"""What the play screen shows of a game: the map, the hand with its cursor and extra button,
the side panel (whose turn, deck, score, pile top, the track's end, lives or the rival's count,
the derailment risk) and the toast line; the NeoPixels' picture follows the risk or the track
ahead. lnr/turns.py (the flow) and lnr/play.py (the keys) build on this class.
"""
from adafruit_ticks import ticks_add
from engine.cards import KIND, VALUE, KIND_CHAOS
from engine.risk import permille
from engine.state import (
    A_BEND_L, A_LAY, P_TURN, P_BEND, P_BUILD, P_CHAOS, P_DICE, MODE_CHALLENGE, MODE_RIVAL,
    CHALLENGE_DERAILS,
)
from lnr import sprites
from lnr.mapview import MapView, card_top, card_bottom
from lnr.ui import put, HAND_N, SIDE_W, WHITE, YELLOW, RED, GREEN, CYAN

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Steps of the play screen.
S_HAND = const(0)  # choose a card of the hand (or the roll / done button)
S_BEND = const(1)  # choose a curve's bend
S_MENU = const(2)  # the action menu
S_LOOK = const(3)  # looking around the track
S_ORDER = const(4)  # choose the order of the penalty cards
S_ROLL = const(5)  # dice rolling (timed)
S_RESULT = const(6)  # what a move did; A goes on
S_AUTO = const(7)  # an opponent plays (timed)
S_HANDOFF = const(8)  # hot seat: hands hidden until the next player presses A
S_INFO = const(9)  # a panel of text (hint); A closes

TOAST_MS = const(1800)

BTN_NONE = const(0)
BTN_ROLL = const(1)
BTN_DONE = const(2)


def risk_text(num, den):
    """Returns e.g. "Risk 12%", "Risk <1%" for a derailment chance num/den."""
    pm = permille(num, den)
    pct = (pm + 5) // 10
    if num and not pct:
        return "Risk <1%"
    return "Risk %d%%" % pct


def risk_colour(num, den):
    pm = permille(num, den)
    return GREEN if pm < 100 else (YELLOW if pm < 400 else RED)


class Hud:
    """The play screen's pictures; `game`, `step`, `sel`, `hoff`, `bend` are set by Turns."""

    def __init__(self, app):
        self.app = app
        self.ui = app.ui
        self.view = MapView(app.ui)
        self.game = None
        self.step = S_HAND
        self.sel = 0  # hand cursor: index into the slots (cards, then a button)
        self.hoff = 0  # first slot shown
        self.bend = A_BEND_L
        self.toast_due = -1
        self.sticky = False

    # ------------------------------------------------------------------ drawing

    def viewer(self):
        # The seat whose hand and score are shown: the player on turn, else the one person
        # at the table (hot seat with several: nobody's between turns).
        g = self.game
        s = g.state
        if g.human(s.seat):
            return s.seat
        if g.humans() == 1:
            return g.first_human()
        return -1

    def cards(self):
        v = self.viewer()
        return self.game.state.hands[v] if v >= 0 else ()

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

    def clamp_sel(self):
        n = self.slots()
        if self.sel >= n:
            self.sel = n - 1
        if self.sel < 0:
            self.sel = 0
        if self.sel < self.hoff:
            self.hoff = self.sel
        if self.sel >= self.hoff + HAND_N:
            self.hoff = self.sel - HAND_N + 1

    def draw(self):
        """Draws the map, the hand, the side panel and the LEDs' picture."""
        s = self.game.state
        if self.step != S_LOOK:
            self.view.follow(s)
        if self.step == S_BEND:
            self.view.draw(s, s.pending, self.bend - A_BEND_L + 1)
        else:
            self.view.draw(s)
        # The toast goes on the half of the map away from the open end.
        y = 0 if self.view.end_row >= 3 else 84
        toast = self.ui.toast.grid
        if toast.y != y:
            toast.y = y
        self.draw_hand()
        self.draw_side()
        self.app.dirty = True

    def draw_hand(self):
        ui = self.ui
        hand = ui.hand
        cards = self.cards()
        hidden = self.step == S_HANDOFF
        btn = self.button()
        n = len(cards)
        for i in range(HAND_N):
            j = self.hoff + i
            if hidden or j > n or (j == n and not btn):
                top = bottom = sprites.T_NONE
            elif j == n:
                top = sprites.T_ROLL if btn == BTN_ROLL else sprites.T_DONE
                bottom = sprites.T_GO
            else:
                top = card_top(cards[j])
                bottom = card_bottom(cards[j])
            hand[i, 0] = top
            hand[i, 1] = bottom
        show = self.game.human(self.game.state.seat) and not hidden and (
            self.step == S_HAND or self.step == S_MENU or self.step == S_BEND)
        ui.cursor.hidden = not show
        ui.cursor.x = 16 * (self.sel - self.hoff)

    def selected(self):
        """Returns the card under the hand cursor, or -1 (the button, or no card)."""
        cards = self.cards()
        return cards[self.sel] if 0 <= self.sel < len(cards) else -1

    def draw_side(self):
        g = self.game
        s = g.state
        side = self.ui.side
        seat = s.seat
        me = self.viewer()
        name = g.name(seat)
        put(side[0], name if g.human(seat) or s.is_rival(seat) else name + " bot", SIDE_W,
            RED if s.is_rival(seat) else (GREEN if name == "YOU" else CYAN))
        put(side[1], "Deck %d" % len(s.deck), SIDE_W)
        if me >= 0:
            pile = s.piles[me]
            put(side[2], "Score %d" % s.score(me), SIDE_W)
            put(side[3], "Pile %d" % VALUE[pile[-1]] if pile else "Pile -", SIDE_W)
        else:
            put(side[2], "", SIDE_W)
            put(side[3], "", SIDE_W)
        put(side[4], "End %d" % VALUE[s.track[-1]], SIDE_W)
        if s.mode == MODE_CHALLENGE:
            left = CHALLENGE_DERAILS - 1 - s.derails
            put(side[5], "Lives %d" % (left if left > 0 else 0), SIDE_W, RED if left < 1 else WHITE)
        elif s.mode == MODE_RIVAL:
            put(side[5], "Rival %d" % s.score(0), SIDE_W, RED)
        else:
            put(side[5], "Seat %d/%d" % (seat + 1, s.players) if s.players > 1 else "", SIDE_W)
        n = len(self.cards())
        if n > HAND_N:  # the hand scrolls: say how many cards it holds
            put(side[6], "Hand %d" % n, SIDE_W, CYAN)
        else:
            put(side[6], "Ahead %d" % s.ahead(), SIDE_W, WHITE)
        self.draw_risk()

    def draw_risk(self):
        # The derailment risk of the build being composed, with the card under the cursor
        # added when it could join (state.build_risk, docs/rules.md §5); LEDs follow it.
        s = self.game.state
        lbl = self.ui.side[7]
        leds = self.app.leds
        risk = None
        if self.game.human(s.seat) and self.step != S_HANDOFF:
            c = self.selected()
            if s.phase == P_BEND:
                risk = s.build_risk(s.pending)
            elif (s.phase == P_TURN or s.phase == P_BUILD) and c >= 0 and KIND[c] != KIND_CHAOS \
                    and s.is_legal(A_LAY + c):
                risk = s.build_risk(c)
            elif s.phase == P_BUILD or s.phase == P_DICE:
                risk = s.build_risk()
        if risk is None:
            put(lbl, "", SIDE_W)
            if self.step != S_ROLL:
                leds.progress(s.ahead(), len(s.track))
            return
        num, den = risk
        put(lbl, risk_text(num, den), SIDE_W, risk_colour(num, den))
        leds.risk(permille(num, den))

    # ------------------------------------------------------------------ toast

    def toast(self, text, sticky=False):
        """Shows a line over the map's foot: for a while, or (`sticky`: the keys of the step
        on screen) until the State changes."""
        put(self.ui.toast, text, 18)
        self.ui.toast.grid.hidden = False
        self.sticky = sticky
        self.toast_due = -1 if sticky else ticks_add(self.app.now, TOAST_MS)
        self.app.dirty = True

    def hide_toast(self):
        self.ui.toast.grid.hidden = True
        self.toast_due = -1
        self.sticky = False
