"""What the play screen shows of a game: the map (the loco's run on it while one is shown), the
hand with its cursor and extra button, the side panel (whose numbers it shows, their score,
pile top and hand or lives or the rival's count; the deck, the track's end, the cards ahead,
the derailment risk, labelled), the dice row and the toast line; the NeoPixels' picture follows
the risk or the track ahead (the result panel and the seats board: lnr/play/result.py). The
play screen (lnr/play/screen.py Play) owns a View and the game's flow; the View reads the
screen's state (its game, step, cursor, the run shown) and keeps only the pictures' own (the
toast's timer, a blink's tile).

Every text has a field of a fixed width (a side line 8 characters, the toast 18, a panel line
22): the texts are made to fit it at their longest (host_tests/test_app_texts.py renders each).
"""
from adafruit_ticks import ticks_add, ticks_less
from engine.cards import KIND, VALUE, KIND_CHAOS
from engine.risk import permille
from engine.state import (
    A_BEND_L, A_LAY, A_CHAOS, P_TURN, P_BEND, P_BUILD, P_CHAOS, P_DICE, MODE_CHALLENGE,
    MODE_RIVAL, MODE_TABLE, CHALLENGE_DERAILS,
)
from lnr import sprites
from lnr.play.mapview import MapView, card_top, card_bottom
from lnr.ui import (
    fit, HAND_N, SIDE_W, LINE_W, WHITE, YELLOW, RED, GREEN,
)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Steps of the play screen (Play.step).
S_HAND = const(0)  # choose a card of the hand (or the roll / done button)
S_BEND = const(1)  # choose a curve's bend
S_MENU = const(2)  # the action menu
S_LOOK = const(3)  # looking around the track
S_ORDER = const(4)  # choose the order of the penalty cards
S_ROLL = const(5)  # dice rolling (timed)
S_RUN = const(6)  # the loco's run: it travels, derails, penalty cards leave the track (timed)
S_AUTO = const(7)  # an opponent plays (timed)
S_HANDOFF = const(8)  # hot seat: hands hidden until the next player presses A
S_INFO = const(9)  # a panel of text (hint); A closes
S_HOLD = const(10)  # the last action's result, shown a while before the game over (timed)
S_HINT_ASKED = const(11)  # "Thinking..." on screen for a frame before the hint is worked out (timed)
S_HINT_FOUND = const(12)  # the hint found, shown at the next frame: the switch's code gone (timed)

TOAST_MS = const(1800)

BTN_NONE = const(0)
BTN_ROLL = const(1)
BTN_DONE = const(2)


def risk_text(num, den, label="Risk"):
    """Returns e.g. "Risk 12%", "Lay <1%", "Roll 99%" for a chance num/den (of derailing, or
    of entering a broken card), named by `label`. A build can always roll no wheel, so the
    chance is never 1: one that rounds to 100% says 99%, as the side line's 8 characters hold
    it ("Roll 99%"; ">99%" there lost its space)."""
    pm = permille(num, den)
    pct = (pm + 5) // 10
    if num and not pct:
        return label + " <1%"
    if pct > 99 and num < den:
        pct = 99
    return "%s %d%%" % (label, pct)


def risk_colour(num, den):
    pm = permille(num, den)
    return GREEN if pm < 100 else (YELLOW if pm < 400 else RED)


def side_text(label, value):
    """Returns a side line: `label` at the left, `value` (a str) at the right of 8 characters,
    a space at least between them, the label cut for it ("Score 12", "Scor 123")."""
    gap = SIDE_W - len(label) - len(value)
    if gap < 1:
        label = label[:SIDE_W - 1 - len(value)]
        gap = 1
    return label + fit("", gap) + value


# The hand's ends (lnr/ui.py more): "<" where cards lie off its left, ">" off its right, each
# in a place of the hand row of its own (Play.window()).
_MORE = ("", "<", fit("", LINE_W - 1) + ">", "<" + fit("", LINE_W - 2) + ">")


class View:
    """The play screen's pictures, drawn from `play` (its lnr.play.screen.Play)."""

    def __init__(self, play):
        self.play = play
        self.app = play.app
        self.ui = play.app.ui
        self.map = MapView(play.app.ui)
        self.toast_due = -1
        self.sticky = False
        self.b_tile = 0  # the broken card's tile under the blinking loco
        self.b_on = -1  # the blink's phase last drawn

    # ------------------------------------------------------------------ drawing

    def draw(self):
        """Draws the map (the loco's run while one is shown, else the State), the hand, the
        side panel and the LEDs' picture."""
        p = self.play
        s = p.game.state
        if p.step == S_RUN and p.run_track is not None:
            p.running.draw_run(self)  # (lnr/play/run.py)
            return
        if p.step != S_LOOK:
            self.map.follow(s)
        if p.step == S_BEND:
            self.map.draw(s, s.pending, p.game.bend - A_BEND_L + 1)
        else:
            self.map.draw(s)
        self.place_toast()
        self.draw_hand()
        self.draw_side()
        self.app.dirty = True

    def place_toast(self):
        # The toast covers the map's top or bottom row: the one without the loco (it never
        # hides the loco), and else the one without the open end.
        m = self.map
        if m.loco_row == 5 or (m.loco_row != 0 and m.end_row == 5):
            y = 0
        else:
            y = 84
        toast = self.ui.toast
        if toast.y != y:
            toast.y = y

    def draw_hand(self):
        p = self.play
        ui = self.ui
        hand = ui.hand
        p.clamp_sel()  # the hand may have shrunk since the cursor was placed
        cards = p.cards()
        btn = p.button()
        n = len(cards)
        left, k = p.window()  # places at the ends that cards lie off show "<" or ">"
        g = p.game
        for i in range(HAND_N):
            j = g.hoff + i - left
            if i < left or i >= left + k or j > n or (j == n and not btn):
                top = bottom = sprites.T_NONE
            elif j == n:
                top = sprites.T_ROLL if btn == BTN_ROLL else sprites.T_DONE
                bottom = sprites.T_GO
            else:
                top = card_top(cards[j])
                bottom = card_bottom(cards[j])
            hand[i, 0] = top
            hand[i, 1] = bottom
        # A card that can't be played now is veiled while the player chooses (§2, §4); while a
        # curve's bend is chosen, those of another value than the build's (§4).
        s = g.state
        phase = s.phase
        me = p.viewer() == s.seat
        mine = me and (phase == P_TURN or phase == P_BUILD or phase == P_CHAOS or
                       phase == P_BEND)
        legal = s.legal_actions() if mine else ()  # once: each is_legal() lists them all
        veil = ui.veil
        for i in range(HAND_N):
            j = g.hoff + i - left
            t = sprites.T_NONE
            if mine and i >= left and j < n:
                c = cards[j]
                if phase == P_BEND:
                    if VALUE[c] != VALUE[s.pending]:
                        t = sprites.T_VEIL
                elif (A_CHAOS if KIND[c] == KIND_CHAOS else A_LAY) + c not in legal:
                    t = sprites.T_VEIL
            veil[i, 0] = t
            veil[i, 1] = t
        ui.put(ui.more, _MORE[left + 2 * (HAND_N - left - k)], RED)
        step = p.step
        show = me and (step == S_HAND or step == S_MENU or step == S_BEND or step == S_INFO)
        ui.cursor.hidden = not show
        ui.cursor.x = 16 * (g.sel - g.hoff + left)

    def draw_side(self):
        # The viewer's numbers under their name (docs/rules.md §7: score = hand + pile), the
        # challenge's lives or the rival's count (§8), then the table's: the deck (red on the
        # last turn, §4), the track's end, the cards ahead, the risk.
        p = self.play
        s = p.game.state
        ui = self.ui
        side = ui.side
        me = p.viewer()
        deck = len(s.deck)
        if p.unseen(p.drew):  # the action's numbers: before the draw (lnr/play/screen.py)
            deck += 1
        if me >= 0:
            pile = s.piles[me]
            score = s.score(me)
            if p.unseen(me):
                score -= VALUE[s.hands[me][-1]]
            ui.put(side[0], self.seat_name(me), GREEN)
            ui.put(side[1], side_text("Score", str(score)))
            ui.put(side[2], side_text("Pile", str(VALUE[pile[-1]]) if pile else "-"))
        else:
            ui.put(side[0], "")
            ui.put(side[1], "")
            ui.put(side[2], "")
        if s.mode == MODE_CHALLENGE:
            left = CHALLENGE_DERAILS - 1 - s.derails
            ui.put(side[3], side_text("Lives", str(left if left > 0 else 0)),
                   RED if left < 1 else WHITE)
        elif s.mode == MODE_RIVAL:
            ui.put(side[3], side_text("Rival", str(s.score(0))), RED)
        else:
            ui.put(side[3], side_text("Hand", str(len(p.cards()))) if me >= 0 else "")
        ui.put(side[4], side_text("Deck", str(deck)), WHITE if deck else RED)
        ui.put(side[6], side_text("Ahead", str(s.ahead())))
        self.draw_risk()

    def seat_name(self, seat):
        """Returns how the side panel and the seats board name `seat`: YOU, RIVAL, P2, or
        "P1 you" at a table with one person."""
        g = self.play.game
        name = g.name(seat)
        if g.state.mode == MODE_TABLE and g.human(seat) and g.humans() == 1:
            return name + " you"
        return name

    def draw_risk(self):
        # The derailment risk (state.build_risk, docs/rules.md §5), labelled with what it is
        # the chance of: "Lay" the card under the cursor laid alone, "Add" it added to the
        # build, "Roll" the build laid so far. The LEDs follow it.
        p = self.play
        s = p.game.state
        ui = self.ui
        line = ui.side[7]
        leds = self.app.leds
        risk = None
        label = "Roll"
        card = -1
        if p.viewer() == s.seat:  # the player on turn's cards (never between hot seats)
            c = p.selected()
            if s.phase == P_BEND:
                card = s.pending
                label = "Add" if s.build_sum else "Lay"
            elif (s.phase == P_TURN or s.phase == P_BUILD) and c >= 0 and KIND[c] != KIND_CHAOS \
                    and s.is_legal(A_LAY + c):
                card = c
                label = "Lay" if s.phase == P_TURN else "Add"
            if card >= 0 or s.phase == P_BUILD or s.phase == P_DICE:
                risk = s.build_risk(card)
        # Beside the chance of derailing, the chance of entering a broken card (1 penalty card
        # each, §5) on the line of the track's end, whose value the map shows too.
        hit = s.broken_risk(card) if risk is not None else None
        if hit is None:
            ui.put(ui.side[5], side_text("End", str(VALUE[s.track[-1]])))
        else:
            ui.put(ui.side[5], risk_text(hit[0], hit[1], "Brkn"), risk_colour(hit[0], hit[1]))
        if risk is None:
            ui.put(line, "")
            if p.step != S_ROLL:
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

    def tick(self, now):
        """Hides a toast whose time is up."""
        # Deadlines by adafruit_ticks: the board's clock wraps at 2**29 (docs/hardware.md).
        if self.toast_due >= 0 and not ticks_less(now, self.toast_due):
            self.hide_toast()
            self.app.dirty = True
