"""The result panel: the action just ended, spelled out (docs/rules.md §4 to §6), and every
seat's numbers as it left them (the seats board, which looking around shows too: lnr/play/look.py).

The play screen loads this module to write the panel and drops it at once (Play.show_result):
its code is not in RAM while the game is played, only for that moment (docs/memory.md).
"""
from engine.cards import VALUE
from engine.state import MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE, CHALLENGE_DERAILS
from lnr.ui import fit, PANEL_W, WHITE, GREY, YELLOW, RED, GREEN


def pairs(n):
    """Returns what `n` chaos cards' pairs did (§6; a discard takes no penalty, §4)."""
    return "%d pair%s to the box" % (n, "" if n == 1 else "s") if n else "No penalty"


def show(play):
    """Writes the result panel of `play` (a lnr.play.screen.Play): the numbers the action left,
    without the draw of play.drew since (Play.unseen()); at a hot seat the turn joins those its
    handoff tells (Game.past: lnr/play/handoff.py)."""
    g = play.game
    s = g.state
    ui = play.ui
    ui.clear_panel()
    ui.pline(0, g.title, YELLOW)
    if play.chaos_n:  # a chaos discard: no loco move, no penalty (§4)
        ui.pline(1, "Discarded %d chaos" % play.chaos_n)
        ui.pline(2, pairs(play.pairs))
    else:
        loco_lines(ui, s)
    drew = play.drew
    last = ""
    if not s.deck and not s.is_terminal():
        last = "LAST TURN: " + g.name(s.seat)
    if s.mode == MODE_TABLE or s.mode == MODE_RIVAL:
        mine = g.human(g.actor)
        if not s.is_terminal() and (mine and g.humans() > 1 or not mine and g.humans() and
                                    not g.human(s.seat)):
            # this result waits for A before the next seat plays (Play.advance): a hot seat's
            # person's own, an opponent's before another opponent's turn
            last = (last + "  A: go") if last else "A: %s plays next" % g.name(s.seat)
        ui.pline(3, last, RED if not s.deck else GREEN)
        seats(play, 4, GREY, drew)
    else:
        if s.mode == MODE_CHALLENGE and s.derail_left:
            left = CHALLENGE_DERAILS - 1 - s.derails
            ui.pline(3, "Lives left: %d" % left if left >= 0 else "4th derailment: lost", RED)
        score = s.score(0)
        if drew >= 0:
            score -= VALUE[s.hands[0][-1]]
        ui.pline(5, "Your score: %d" % score)
        ui.pline(6, last, RED)
    if g.humans() > 1:
        past = g.past
        past.append((g.title, play.chaos_n, play.pairs, s.derail_left, s.hits, s.taken))
        if len(past) >= s.players:  # a turn each since the next person's last
            past.pop(0)


def loco_lines(ui, s):
    """Writes lines 1 and 2: the loco's move and the penalty it cost (§5, §6, D4)."""
    moved = s.moved
    text = "Loco +%d" % moved if moved else "Loco stays"
    if s.derail_left:
        text += ", DERAILED!"
    elif s.hits:
        text += ", %d broken card%s" % (s.hits, "" if s.hits == 1 else "s")
        if len(text) > PANEL_W:  # "Loco +12, 3 broken"
            text = text[:text.index(" card")]
    ui.pline(1, text, RED if s.derail_left or s.hits else WHITE)
    text = "No penalty"
    if s.earned:
        text = "Penalty %d" % s.earned
        if s.taken < s.earned:  # D4: never the loco's card; the rest is forfeited
            text += ", %d taken" % s.taken
        elif s.derail_left and s.hits:
            text += " (%d broken)" % s.hits
    ui.pline(2, text)


def seats(play, line, colour, drew=-1):
    """Writes the seats board into the panel from `line` (3 lines): every seat's score, cards
    in hand and pile top (docs/rules.md §7, §8), two seats a line at a table, where a hand's
    values are secret (§3.5): a seat's pile's points (its cards lie face up, §6) in place of
    its score."""
    # `drew`: the seat whose draw (§4) is not counted yet (a result's numbers are those the
    # action left). The rival holds no hand (§8): the card it draws is played at once.
    g = play.game
    s = g.state
    ui = play.ui
    table = s.mode == MODE_TABLE
    ui.pline(line, "Pile points/hand/top" if table else "Seats: score/hand/pile", colour)
    row = ""
    k = line + 1
    for seat in range(s.players):
        pile = s.piles[seat]
        hand = s.hands[seat]
        score = s.score(seat)
        n = len(hand)
        if s.is_rival(seat):
            n = 0
        elif seat == drew:
            score -= VALUE[hand[-1]]
            n -= 1
        if table:
            score = 0
            for c in pile:
                score += VALUE[c]
        text = "%s %d/%d/%s" % (g.name(seat), score, n, str(VALUE[pile[-1]]) if pile else "-")
        if not table:  # the rival's game: a seat a line
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
