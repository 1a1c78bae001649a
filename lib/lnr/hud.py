"""What the play screen shows of a game: the map, the hand with its cursor and extra button,
the side panel (whose numbers it shows, their score, pile top and hand or lives or the rival's
count; the deck, the track's end, the cards ahead, the derailment risk, labelled) and the toast
line; the seats board of a table or rival game; the NeoPixels' picture follows the risk or the
track ahead. lnr/turns.py (the flow) and lnr/play.py (the keys) build on this class.

Every text has a field of a fixed width (a side line 8 characters, the toast 18, a panel line
22): the texts are made to fit it at their longest (host_tests/test_app_texts.py renders each).
"""
from adafruit_ticks import ticks_add
from engine.cards import KIND, VALUE, KIND_CHAOS, card_name
from engine.risk import permille
from engine.state import (
    A_BEND_L, A_LAY, P_TURN, P_BEND, P_BUILD, P_CHAOS, P_DICE, MODE_CHALLENGE, MODE_RIVAL,
    MODE_TABLE, CHALLENGE_DERAILS,
)
from lnr import sprites
from lnr.mapview import MapView, card_top, card_bottom
from lnr.ui import fit, HAND_N, SIDE_W, WHITE, GREY, YELLOW, RED, GREEN, CYAN

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
S_MOVE = const(6)  # the loco travels, derails, penalty cards leave the track (timed)
S_AUTO = const(7)  # an opponent plays (timed)
S_HANDOFF = const(8)  # hot seat: hands hidden until the next player presses A
S_INFO = const(9)  # a panel of text (hint); A closes
S_HOLD = const(10)  # the last move's result, shown a while before the game over (timed)
S_THINK = const(11)  # "Thinking..." on screen for a frame before the hint is worked out (timed)

TOAST_MS = const(1800)

BTN_NONE = const(0)
BTN_ROLL = const(1)
BTN_DONE = const(2)


def risk_text(num, den, label="Risk"):
    """Returns e.g. "Risk 12%", "Lay <1%", "Roll>99%" for a derailment chance num/den, named
    by `label` (at most 4 characters: a side line holds 8). A build can always roll no wheel,
    so the chance is never 1: one that rounds to 100% says ">99%"."""
    pm = permille(num, den)
    pct = (pm + 5) // 10
    if num and not pct:
        return label + " <1%"
    if pct > 99 and num < den:
        return label + ">99%"
    return "%s %d%%" % (label, pct)


def risk_colour(num, den):
    pm = permille(num, den)
    return GREEN if pm < 100 else (YELLOW if pm < 400 else RED)


def side_text(label, value):
    """Returns a side line: `label` at the left, `value` (a str) at the right of 8 characters
    ("Score 12", "Score123")."""
    gap = SIDE_W - len(label) - len(value)
    return label + fit("", gap if gap > 0 else 0) + value


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
        if self.hoff > n - HAND_N:  # the hand shrank: no slot left empty while a card is off
            self.hoff = n - HAND_N if n > HAND_N else 0
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
        self.place_toast()
        self.draw_hand()
        self.draw_side()
        self.app.dirty = True

    def place_toast(self):
        # The toast covers the map's top or bottom row: the one without the loco (it never
        # hides the loco), and else the one without the open end.
        view = self.view
        if view.loco_row == 5 or (view.loco_row != 0 and view.end_row == 5):
            y = 0
        else:
            y = 84
        toast = self.ui.toast
        if toast.y != y:
            toast.y = y

    def draw_hand(self):
        ui = self.ui
        hand = ui.hand
        self.clamp_sel()  # the hand may have shrunk since the cursor was placed
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
        # The viewer's numbers under their name (docs/rules.md §7: score = hand + pile), the
        # challenge's lives or the rival's count (§8), then the table's: the deck (red on the
        # last turn, §4), the track's end, the cards ahead, the risk.
        g = self.game
        s = g.state
        ui = self.ui
        side = ui.side
        me = self.viewer()
        if me >= 0:
            pile = s.piles[me]
            ui.put(side[0], self.seat_name(me), GREEN)
            ui.put(side[1], side_text("Score", str(s.score(me))))
            ui.put(side[2], side_text("Pile", str(VALUE[pile[-1]]) if pile else "-"))
        else:
            ui.put(side[0], "")
            ui.put(side[1], "")
            ui.put(side[2], "")
        n = len(self.cards())
        if s.mode == MODE_CHALLENGE:
            left = CHALLENGE_DERAILS - 1 - s.derails
            ui.put(side[3], side_text("Lives", str(left if left > 0 else 0)),
                   RED if left < 1 else WHITE)
        elif s.mode == MODE_RIVAL:
            ui.put(side[3], side_text("Rival", str(s.score(0))), RED)
        else:
            ui.put(side[3], side_text("Hand", str(n)) if me >= 0 else "")
        ui.put(side[4], side_text("Deck", str(len(s.deck))), WHITE if s.deck else RED)
        ui.put(side[5], side_text("End", str(VALUE[s.track[-1]])))
        if n > HAND_N and (s.mode == MODE_CHALLENGE or s.mode == MODE_RIVAL):
            # the hand scrolls: its count, which line 3 shows in the other modes
            ui.put(side[6], side_text("Hand", str(n)), CYAN)
        else:
            ui.put(side[6], side_text("Ahead", str(s.ahead())))
        self.draw_risk()

    def seat_name(self, seat):
        """Returns how the side panel and the seats board name `seat`: YOU, RIVAL, P2, or
        "P1 you" at a table with one person."""
        g = self.game
        name = g.name(seat)
        if g.state.mode == MODE_TABLE and g.human(seat) and g.humans() == 1:
            return name + " you"
        return name

    def seats(self, line, colour=GREY):
        """Writes the seats board into the panel from `line` (3 lines): every seat's score,
        cards in hand and pile top (docs/rules.md §7, §8), two seats a line at a table."""
        g = self.game
        s = g.state
        ui = self.ui
        ui.pline(line, "Seats: score/hand/pile", colour)
        row = ""
        k = line + 1
        for seat in range(s.players):
            pile = s.piles[seat]
            text = "%s %d/%d/%s" % (g.name(seat), s.score(seat), len(s.hands[seat]),
                                    str(VALUE[pile[-1]]) if pile else "-")
            if s.mode != MODE_TABLE:  # the rival's game: a seat a line
                ui.pline(k, text, RED if s.is_rival(seat) else WHITE)
                k += 1
            elif row:
                ui.pline(k, fit(row, 11) + text, WHITE)
                row = ""
                k += 1
            else:
                row = text
        if row:
            ui.pline(k, row, WHITE)

    def draw_risk(self):
        # The derailment risk (state.build_risk, docs/rules.md §5), labelled with what it is
        # the chance of: "Lay" the card under the cursor laid alone, "Add" it added to the
        # build, "Roll" the build laid so far. The LEDs follow it.
        s = self.game.state
        ui = self.ui
        line = ui.side[7]
        leds = self.app.leds
        risk = None
        label = "Roll"
        if self.game.human(s.seat) and self.step != S_HANDOFF:
            c = self.selected()
            if s.phase == P_BEND:
                risk = s.build_risk(s.pending)
                label = "Add" if s.build_sum else "Lay"
            elif (s.phase == P_TURN or s.phase == P_BUILD) and c >= 0 and KIND[c] != KIND_CHAOS \
                    and s.is_legal(A_LAY + c):
                risk = s.build_risk(c)
                label = "Lay" if s.phase == P_TURN else "Add"
            elif s.phase == P_BUILD or s.phase == P_DICE:
                risk = s.build_risk()
        if risk is None:
            ui.put(line, "")
            if self.step != S_ROLL:
                leds.progress(s.ahead(), len(s.track))
            return
        num, den = risk
        ui.put(line, risk_text(num, den, label), risk_colour(num, den))
        leds.risk(permille(num, den))

    # ------------------------------------------------------------------ toast

    def toast(self, text, sticky=False):
        """Shows a line over the map's foot: for a while, or (`sticky`: the keys of the step
        on screen) until the State changes."""
        ui = self.ui
        ui.put(ui.toast, text, None)  # white on black, its own palette
        ui.toast_on = True
        ui.toast.hidden = not ui.panel.hidden  # under a panel it waits for the map
        self.sticky = sticky
        self.toast_due = -1 if sticky else ticks_add(self.app.now, TOAST_MS)
        self.app.dirty = True

    def hide_toast(self):
        self.ui.toast_on = False
        self.ui.toast.hidden = True
        self.toast_due = -1
        self.sticky = False
