"""A finished game counted (the switch W_OVER asks for: lnr/memory), and what the game over
screen shows of it: the game joins the history (its seed, seats and decisions) and the records,
in one commit. A module of its own, loaded for that switch alone, with both screens' code
dropped: lnr/games.py's deal and saves are not in RAM beside it, nor is it beside theirs
(docs/memory.md)."""
from engine.state import MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE
from lnr.memory import drop, load, sign
from lnr import game as games
from lnr.screens import SC_OVER
from lnr.ui import WHITE, GREY, YELLOW, RED, GREEN, CYAN


def go(app):
    """Makes W_OVER's work: app.next is then (SC_OVER, over()'s result) (lnr/memory/switch.py
    arrive())."""
    app.next = (SC_OVER, over(app))


def over(app):
    """Counts the finished game (app.game; one commit: storage.finish_game) and returns what
    the game over screen shows: (the title's colour, 8 lines of (text, colour)). The game and
    the engine leave RAM before the commit (forget_game()): the saves' code loads in their
    place (docs/memory.md)."""
    game = app.game
    s = game.state
    mode = s.mode
    me = 1 if mode == MODE_RIVAL else game.first_human()
    # A hot seat's screen is everyone's: it speaks to no one person (their scores below), and
    # the table's record is the best score a person made.
    hot = mode == MODE_TABLE and game.humans() > 1
    if hot:
        for seat in range(s.players):
            if game.human(seat) and s.score(seat) < s.score(me):
                me = seat
    score = s.score(me)
    won = me in s.winners()
    store = app.store
    best = store.best[mode]
    lines = [("", WHITE)] * 8
    lines[0] = ("Final scores" if hot else "Your score: %d" % score, WHITE)
    if mode == MODE_RIVAL:
        n = s.score(0)
        lines[1] = ("Rival's pile: %d card%s" % (n, "" if n == 1 else "s"), WHITE)
        lines[2] = ("YOU WIN!", GREEN) if won else ("The rival wins", RED)
    elif mode == MODE_CHALLENGE and s.lost:
        lines[1] = ("4th derailment: lost", RED)
    elif mode == MODE_TABLE:
        # Every hand and pile counts at the end (§7): each seat's score and, where equal scores
        # were parted, the figures of the tie-break that did it.
        winners = s.winners()
        why = _tie_break(s, winners)
        mine = won and not hot  # the one person's win
        if why > 5:
            text = "Shared win: " + _names(game, winners)
        else:
            text = "WINNER!" if mine else "Winner: " + _names(game, winners)
            if why:
                text += (" " if mine else ", ") + "fewest " + _CRITERIA[why - 1]
        people = False  # at a hot seat, green for a person's win
        for seat in winners:
            people = people or game.human(seat)
        lines[1] = (text, GREEN if mine or hot and people else WHITE)
        for seat in range(s.players):
            key = s.rank_key(seat)
            text = "%s: %d" % (game.name(seat), key[0])
            if why:
                text += ", %d card%s" % (key[1], "" if key[1] == 1 else "s")
            if 1 < why < 6:
                text += ", %s: %d" % (_CRITERIA[why - 1], key[why])
            lines[2 + seat] = (text, WHITE)
    if mode != MODE_TABLE:
        # The player's derailments: against the rival, not the rival's too (s.derails).
        lines[4] = ("Cards: %d  Derailed: %d" % (
            len(s.hands[me]) + len(s.piles[me]),
            game.derails if mode == MODE_RIVAL else s.derails), GREY)
    # The seed: typed on the new game screen, it deals this game again (lnr/menus/screen.py).
    lines[7] = ("Seed %d  A: title" % game.seed, GREY)
    colour = RED if mode == MODE_CHALLENGE and s.lost else YELLOW
    seed = game.seed
    players = s.players
    log = s.log  # an engine.gamelog.GameLog: its module stays (lnr/storage.py reads it)
    s = None
    game = None
    forget_game(app)
    sign()
    record = False
    if app.writes:  # the game joins the history: its seed, seats and decisions
        try:
            load(app, "lnr.saves")  # first, shedding if it must (lnr/games.py saves_code())
            load(app, "lnr.copies")
            record = store.finish_game(mode, score, won, seed, players, log)
        except MemoryError:  # the copies hold the records as they were
            lines[6] = ("Not recorded: no memory", RED)
            best = None
    if mode != MODE_TABLE:
        lines[5] = ("Games of %s: %d" % (games.MODE_TITLES[mode], store.played[mode]), GREY)
    if record:
        lines[6] = ("NEW RECORD!", GREEN)
    elif best is not None:
        lines[6] = ("Record: %d" % best, CYAN)
    from lnr.memory.report import line  # the board's line on the serial console, after each game

    print(line(app.hw))
    line = None
    drop("lnr.memory.report")
    return colour, lines


def forget_game(app):
    """Lets the game on go (app.game) and drops the engine's modules but the decision log's,
    then collects: nothing of them is needed until the next game loads them again."""
    import gc
    import sys

    app.game = None
    for name in list(sys.modules):
        if name.startswith("engine.") and name != "engine.gamelog":
            drop(name)
    gc.collect()


# docs/rules.md §7's tie-breaks after the score, in order (State.rank_key's figures).
_CRITERIA = ("cards", "4s", "3s", "2s", "1s")


def _tie_break(s, winners):
    # The tie-break of docs/rules.md §7 that decided the table's win: 0 the score alone, 1 the
    # cards, 2 to 5 the 4s to the 1s (the last that parted a seat of the lowest score from the
    # winner); 6 none (a shared win).
    if len(winners) > 1:
        return 6
    best = s.rank_key(winners[0])
    why = 0
    for seat in range(s.players):
        key = s.rank_key(seat)
        if key[0] == best[0] and key != best:
            i = 1
            while key[i] == best[i]:
                i += 1
            why = max(why, i)
    return why


def _names(game, seats):
    out = ""
    for seat in seats:
        out += (" " if out else "") + game.name(seat)
    return out
