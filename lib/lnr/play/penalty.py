"""The penalty order panel: the orders in which the player may put the penalty cards on the pile
(docs/rules.md §6), best first, each with the score it makes; LEFT/RIGHT choose, A puts them.

The play screen loads this module when the player has orders to choose from (Play.start_order:
one order that every choice comes to is put at once, without it) and the panel drops it when A
puts the cards (Play.close_panel): its code is not in RAM while the game is played, only while
the panel is up (docs/memory.md). Loading it takes a few ms once a loco's run has been shown,
never a frame's work. While it is up (step S_ORDER) Play.key hands it the keys.
"""
from engine.cards import VALUE
from lnr import sprites
from lnr.keys import K_A, K_LEFT, K_RIGHT
from lnr.play.mapview import card_top, card_bottom
from lnr.ui import WHITE, GREY, YELLOW, GREEN

_ROW = 6  # cards after the pile's top and the arrow in the panel's row of 8


class PenaltyOrder:
    """The orders `opts` (engine.order orders(): (score, order) pairs, best first) on `play`
    (a lnr.play.screen.Play), the best one chosen (oi: the cursor)."""

    def __init__(self, play, opts):
        self.play = play
        self.opts = opts
        self.oi = 0

    def draw(self):
        """Draws order oi in the panel: the pile's top, then the cards in that order, and
        what it does to the score."""
        play = self.play
        s = play.game.state
        ui = play.ui
        ui.clear_panel()
        score, order = self.opts[self.oi]
        pile = s.piles[s.seat]
        before = 0
        for c in pile:
            before += VALUE[c]
        n = len(order)
        ui.pline(0, "Penalty: %d card%s" % (n, "" if n == 1 else "s"), YELLOW)
        cards = ui.cards
        if pile:
            cards[0, 0] = card_top(pile[-1])
            cards[0, 1] = card_bottom(pile[-1])
        else:
            cards[0, 0] = sprites.T_NOPILE
            cards[0, 1] = sprites.T_NOPILE + 1
        ui.pline(1, "   <-", YELLOW)  # "onto", between the pile's top and the cards
        # Every card, in this order (§6: only values matter): up to 6 whole cards; more, their
        # values' halves in two rows of 6; past 12 (rare: each a card behind the loco), the
        # rest's values in a line.
        wide = n > _ROW
        for i in range(n):
            if i < _ROW:
                cards[2 + i, 0] = card_top(order[i])
                if not wide:
                    cards[2 + i, 1] = card_bottom(order[i])
            elif i < 2 * _ROW:
                cards[2 + i - _ROW, 1] = card_top(order[i])
        if n > 2 * _ROW:
            rest = "then "
            for i in range(2 * _ROW, n):
                rest += str(VALUE[order[i]])
            ui.pline(4, rest)
        else:
            ui.pline(4, "pile <- 1st, 2nd, ..." if pile else "empty <- 1st, 2nd, ...", GREY)
        # The pile's sum after this order less before: combining (§6) can lower it. Every
        # order as good as the first is the best: all are marked, or none would be right.
        best = score == self.opts[0][0]
        ui.pline(5, "Score %+d%s" % (score - before, "  (best)" if best else ""),
                 GREEN if best else WHITE)
        ui.pline(6, "<> order %d/%d  A: put" % (self.oi + 1, len(self.opts)))
        ui.show(ui.play, True)
        play.app.dirty = True

    def key(self, k):
        """A key while the panel is up: LEFT/RIGHT choose an order, A puts the cards in it."""
        if k == K_LEFT or k == K_RIGHT:
            n = len(self.opts)
            self.oi = (self.oi + (1 if k == K_RIGHT else n - 1)) % n
            self.draw()
        elif k == K_A:
            order = self.opts[self.oi][1]
            play = self.play
            play.close_panel(False, "lnr.play.penalty")  # the action's result follows
            return (play.put_order, order)
        return None
