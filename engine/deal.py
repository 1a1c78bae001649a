"""The deal (docs/rules.md §3): a new game's State, before its first turn or with it begun.

A module of its own, apart from engine.state: the device needs it for a deal only, so it loads
it then and drops it (lnr/games.py), and its code is not in RAM while the game is played."""
from engine.cards import KIND, KIND_CHAOS
from engine.codes import BEND_S, BEND_L, BEND_R, FIT_OK
from engine.state import State, REMOVED_AT_SETUP, players_for


def deal(mode, rng, players=None):
    """Returns a State set up by §3 from `rng` (a engine.rng.Rng), before the first turn; call
    start() on it to begin (new_game() does both)."""
    players = players_for(mode, players)
    s = State(mode, players)
    deck = list(range(55))
    rng.shuffle(deck)
    s.deck = deck
    aside = []
    while len(s.track) < 4:  # §3.2, D7
        c = deck.pop()
        bends = []
        if KIND[c] != KIND_CHAOS:
            for bend in (BEND_S, BEND_L, BEND_R):
                if s.fit(c, bend) == FIT_OK:
                    bends.append(bend)
        if bends:
            s.extend_track(c, bends[rng.randbelow(len(bends))])  # D6: the engine chooses the bend
        else:
            aside.append(c)
    deck.extend(aside)
    rng.shuffle(deck)
    s.loco = 2  # §3.3: the 3rd card
    for _ in range(REMOVED_AT_SETUP[players]):  # §3.4
        s.box.append(deck.pop())
    for _ in range(2):  # §3.5, D9: one at a time round the table; the rival gets none
        for seat in range(players):
            if not s.is_rival(seat):
                s.hands[seat].append(deck.pop())
    return s


def new_game(mode, rng, players=None):
    """Returns a State set up by §3 with the first turn begun."""
    s = deal(mode, rng, players)
    s.start()
    return s
