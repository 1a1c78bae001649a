"""A State from a recorded setup (docs/rules.md §10), for replays; not on the device's play path."""
from engine.cards import KIND, KIND_CHAOS
from engine.explain import fit_reason
from engine.state import State, FIT_OK, REMOVED_AT_SETUP, players_for


def from_setup(mode, players, track, removed, hands, deck):
    """Returns a State, before its first turn, from a recorded setup (§10): `track` as
    (card, bend) pairs in laying order, `deck` top first. Raises ValueError naming what is
    wrong with the setup."""
    players = players_for(mode, players)
    s = State(mode, players)
    seen = bytearray(55)
    everything = [c for c, _ in track] + list(removed) + list(deck)
    for hand in hands:
        everything += hand
    for c in everything:
        if not (type(c) is int and 0 <= c < 55):
            raise ValueError("%s is not a card id" % (c,))
        if seen[c]:
            raise ValueError("card %d appears twice" % c)
        seen[c] = 1
    if len(everything) != 55:
        raise ValueError("the setup holds %d cards, not 55" % len(everything))
    if len(track) != 4:
        raise ValueError("the initial track has %d cards, not 4 (docs/rules.md §3.2)" % len(track))
    for i in range(len(track)):
        c, bend = track[i]
        if KIND[c] == KIND_CHAOS:
            raise ValueError("initial track card %d is a chaos card (docs/rules.md §3.2)" % c)
        if s.fit(c, bend) != FIT_OK:
            raise ValueError("initial track card %d: %s" % (c, fit_reason(s, c, bend)))
        s.extend_track(c, bend)
    s.loco = 2
    want = REMOVED_AT_SETUP[players]
    if len(removed) != want:
        raise ValueError("%d cards removed, not %d (docs/rules.md §3.4)" % (len(removed), want))
    s.box = list(removed)
    if len(hands) != players:
        raise ValueError("%d hands for %d seats" % (len(hands), players))
    for seat in range(players):
        want = 0 if s.is_rival(seat) else 2
        if len(hands[seat]) != want:
            raise ValueError("seat %d is dealt %d cards, not %d (docs/rules.md §3.5)" % (
                seat, len(hands[seat]), want))
        s.hands[seat] = list(hands[seat])
    if not deck:
        raise ValueError("the deck is empty")
    s.deck = list(deck)
    s.deck.reverse()  # we keep the top at the end
    return s
