"""The result panel of the play screen: what an action did, spelled out in the panel's width
(docs/rules.md §4 to §6), with every seat's numbers as the action left them. Play.show_result
(lnr/play/screen.py) imports this module to write the panel and drops it after (RAM,
docs/memory.md); the panel stays up until a key or a hold (Play.advance).
"""
from engine.cards import VALUE
from engine.state import P_TURN, MODE_TABLE, MODE_RIVAL, MODE_CHALLENGE, CHALLENGE_DERAILS
from lnr.ui import PANEL_W, WHITE, YELLOW, RED, GREEN


def write(play):
    """Writes the result of the action just ended (`play` a lnr.play.screen.Play) into the
    panel; returns the seat whose draw after it the panel does not count (-1: none)."""
    g = play.game
    s = g.state
    ui = play.ui
    ui.clear_panel()
    ui.pline(0, play.title, YELLOW)
    if play.chaos_n:  # a chaos discard: no loco move, no penalty (§4)
        ui.pline(1, "Discarded %d chaos" % play.chaos_n)
        n = play.pairs
        ui.pline(2, "%d pair%s to the box" % (n, "" if n == 1 else "s") if n else "No penalty")
    else:
        loco_lines(s, ui)
    # The next seat has drawn (§4): what the action left is its numbers without that card.
    drew = -1
    if not s.is_terminal() and s.phase == P_TURN and s.turn == play.seen_turn + 1:
        drew = s.seat
    last = ""
    if not s.deck and not s.is_terminal():
        last = "LAST TURN: " + g.name(s.seat)
    if s.mode == MODE_TABLE or s.mode == MODE_RIVAL:
        if not g.human(play.actor) and not g.human(s.seat) and g.humans():
            # this opponent's result waits for A before the next one plays (Play.advance)
            last = (last + "  A: go") if last else "A: %s plays next" % g.name(s.seat)
        ui.pline(3, last, RED if not s.deck else GREEN)
        play.view.seats(4, drew=drew)
    else:
        if s.mode == MODE_CHALLENGE and s.derail_left:
            left = CHALLENGE_DERAILS - 1 - s.derails
            ui.pline(3, "Lives left: %d" % left if left >= 0 else "4th derailment: lost", RED)
        score = s.score(0)
        if drew >= 0:
            score -= VALUE[s.hands[0][-1]]
        ui.pline(5, "Your score: %d" % score)
        ui.pline(6, last, RED)
    return drew


def loco_lines(s, ui):
    # The loco's move and the penalty it cost, spelled out (§5, §6, D4).
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
