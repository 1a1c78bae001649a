"""A game in progress packed into a few bytes and back, for a save in the board's NVM.

The NVM of a PyBadge/PyGamer holds 256 bytes (docs/hardware.md), split into two slots of 128
that also carry the records (lib/lnr/storage.py), so a game must fit in about 100 bytes.
A State is mostly lists of card ids; written as bytes that would be over 60 bytes for the cards
alone. Here every field takes just the bits its range needs:

  * The 55 cards are one permutation split into zones, each kept in order because State.__eq__
    compares them as lists: the deck, the track, each hand, each pile, the penalty cards and,
    as the remainder, the box. Each card is written as its index among the cards not yet
    written, in ceil(log2(n)) bits for n cards left: 267 bits for any deal (log2(55!) = 242.8).
  * The track's cells are not stored: they follow from the first card's cell, the heading it
    was entered with and the bends (docs/rules.md §2). A straight card's bend is always S, so only
    curve cards take a bit (L or R).
  * The dice generator (engine.rng.Rng) is three 15-bit ints, so a resumed game rolls the same
    dice as the game that was saved would have.

Blob layout (format 1), all multi-bit fields most significant bit first:
  byte 0          FORMAT
  bit stream      _FIELDS below, then the zone sizes (6 bits each: deck, track, each hand, each
                  pile, penalty), the permutation, one bit per curve on the track (0 L, 1 R),
                  the three Rng ints (15 bits each); zero bits up to a whole byte
  meta            the app's bytes, as given to pack() (their count is a field)
  last 2 bytes    CRC-16/CCITT-FALSE of everything before, big-endian

The size depends only on the number of seats, the number of curve cards on the track and the
meta length: 103 (_FIELDS) + 6 * (3 + 2 * seats) + 267 + curves + 45 bits, rounded up to whole
bytes, plus 3 + len(meta) bytes. Worst case (4 seats, all 25 curve cards on the track):
506 bits = 64 bytes, so 67 + len(meta) bytes; MAX_META (31) keeps any save at or below 98.

unpack() checks everything before it builds the State (the checksum, every range, the 55 cards
exactly once, the track's geometry and the phase's invariants) and raises ValueError naming
what is wrong, so a damaged save can never reach the rules engine.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from engine.cards import KIND, VALUE, SHAPE, KIND_CHAOS, SHAPE_CURVE
from engine.crc import crc16  # also engine.codec.crc16, as before
from engine.rng import Rng
from engine.codes import (
    P_TURN, P_BEND, P_BUILD, P_DICE, P_ORDER, P_OVER, P_SETUP, BEND_S, BEND_L, PHASE_NAMES,
)
from engine.state import State, players_for, MODE_CHALLENGE, MODE_RIVAL, STEP, TURN

FORMAT = const(1)
MAX_META = const(31)  # the meta length is a 5-bit field
_N = const(55)
_COORD = const(64)  # a cell's x and y lie in -64..63 (engine/state.py cell codes)

# Small fields in the order written: (name, bits). Values are stored as is except `players`
# (players - 1), `pending` (pending + 1, so -1 is 0) and `x`, `y` (+ 64).
_FIELDS = (
    ("mode", 2), ("players", 2), ("phase", 3), ("seat", 2), ("turn", 6), ("derails", 6),
    ("lost", 1), ("build_value", 3), ("build_sum", 6), ("dice_left", 6), ("wheels", 6),
    ("pending", 6), ("loco", 6), ("moved", 6), ("hits", 3), ("derail_left", 6),
    ("earned", 6), ("taken", 6), ("meta", 5), ("x", 7), ("y", 7), ("entry", 2),
)


def _width(n):
    # Bits to write an index below n (int.bit_length does not exist on MicroPython).
    w = 0
    while (1 << w) < n:
        w += 1
    return w


class _Writer:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.bits = 0

    def put(self, value, width, name):
        if not (type(value) is int and 0 <= value < (1 << width)):
            raise ValueError("cannot pack %s = %s: it needs 0..%d" % (name, value, (1 << width) - 1))
        self.acc = (self.acc << width) | value  # stays below 2**22: no long ints
        self.bits += width
        while self.bits >= 8:
            self.bits -= 8
            self.out.append((self.acc >> self.bits) & 0xFF)
        self.acc &= (1 << self.bits) - 1

    def flush(self):
        if self.bits:
            self.out.append((self.acc << (8 - self.bits)) & 0xFF)
            self.acc = 0
            self.bits = 0


class _Reader:
    def __init__(self, data, start, end):
        self.data = data
        self.pos = start * 8
        self.end = end * 8

    def get(self, width):
        if self.pos + width > self.end:
            raise ValueError("the save ends early")
        v = 0
        data = self.data
        for _ in range(width):
            p = self.pos
            v = (v << 1) | ((data[p >> 3] >> (7 - (p & 7))) & 1)
            self.pos = p + 1
        return v


def _zones(state):
    # The card zones in the order written; the box comes last as the remainder.
    zones = [state.deck, state.track]
    zones.extend(state.hands)
    zones.extend(state.piles)
    zones.append(state.penalty)
    return zones


def _walk(x, y, entry, bends, cells, where):
    # Lays out the track from its first card's cell (x, y) entered with heading `entry`
    # (docs/rules.md §2); appends each cell code to `cells` and returns the last exit heading.
    # Raises ValueError (naming `where`) if a cell leaves the box cell codes can hold.
    head = entry
    for i in range(len(bends)):
        if i:
            step = STEP[head]
            if step == 128:
                x += 1
            elif step == -128:
                x -= 1
            else:
                y += step
        if not (-_COORD <= x < _COORD and -_COORD <= y < _COORD):
            raise ValueError("%s: track card %d lies outside the grid" % (where, i))
        cells.append((x + _COORD) * 128 + y + _COORD)
        head = (head + TURN[bends[i]]) & 3
    return head


def pack(state, rng, meta=b""):
    """Returns the bytes of `state` (a State in any phase), the dice generator `rng` (an
    engine.rng.Rng) and up to MAX_META bytes of the app's own; raises ValueError if the state
    cannot be one of a game (a field out of range, cards lost or doubled, cells that do not
    follow the bends)."""
    if len(meta) > MAX_META:
        raise ValueError("meta has %d bytes, at most %d fit" % (len(meta), MAX_META))
    players = players_for(state.mode, state.players)  # raises ValueError for a wrong count
    if not state.track or not len(state.track) == len(state.bends) == len(state.cells):
        raise ValueError("cannot pack: the track, its bends and its cells do not match")
    if len(state.hands) != players or len(state.piles) != players:
        raise ValueError("hands or piles do not match %d seats" % players)
    # The first card's entry heading: the exit heading undone by every bend (§2).
    entry = state.head
    for b in state.bends:
        entry = (entry - TURN[b]) & 3
    x, y = state.cells[0] // 128 - _COORD, state.cells[0] % 128 - _COORD
    cells = []
    _walk(x, y, entry, state.bends, cells, "pack")
    if cells != state.cells:
        raise ValueError("cannot pack: the track's cells do not follow its bends")
    values = {
        "mode": state.mode, "players": players - 1, "phase": state.phase, "seat": state.seat,
        "turn": state.turn, "derails": state.derails, "lost": 1 if state.lost else 0,
        "build_value": state.build_value, "build_sum": state.build_sum,
        "dice_left": state.dice_left, "wheels": state.wheels, "pending": state.pending + 1,
        "loco": state.loco, "moved": state.moved, "hits": state.hits,
        "derail_left": state.derail_left, "earned": state.earned, "taken": state.taken,
        "meta": len(meta), "x": x + _COORD, "y": y + _COORD, "entry": entry,
    }
    w = _Writer()
    w.out.append(FORMAT)
    for name, bits in _FIELDS:
        w.put(values[name], bits, name)
    zones = _zones(state)
    for zone in zones:
        w.put(len(zone), 6, "a zone size")
    left = list(range(_N))
    for zone in zones + [state.box]:
        for c in zone:
            if type(c) is not int or c not in left:
                raise ValueError("cannot pack: card %s is not a card or appears twice" % (c,))
            i = left.index(c)
            w.put(i, _width(len(left)), "a card index")
            left.pop(i)
    if left:
        raise ValueError("cannot pack: cards %s are in no zone" % left)
    for i in range(len(state.track)):
        c = state.track[i]
        b = state.bends[i]
        if KIND[c] == KIND_CHAOS or (SHAPE[c] == SHAPE_CURVE) == (b == BEND_S):
            raise ValueError("cannot pack: track card %d has bend %s" % (c, b))
        if b != BEND_S:
            w.put(b - BEND_L, 1, "a bend")
    for s in rng.getstate():
        w.put(s, 15, "the dice generator")
    w.flush()
    w.out.extend(meta)
    crc = crc16(w.out)
    w.out.append(crc >> 8)
    w.out.append(crc & 0xFF)
    return bytes(w.out)


def unpack(blob):
    """Returns (state, rng, meta) from pack()'s bytes: a State equal to the one packed, an Rng
    that continues its stream, and the meta bytes. Raises ValueError naming what is wrong if
    the bytes are not such a save (damaged, truncated, another format)."""
    n = len(blob)
    if n < 3:
        raise ValueError("the save has %d bytes: too short" % n)
    if blob[0] != FORMAT:
        raise ValueError("unknown save format %d (this build reads %d)" % (blob[0], FORMAT))
    if crc16(blob, 0, n - 2) != (blob[n - 2] << 8) | blob[n - 1]:
        raise ValueError("the save's checksum does not match: it is damaged")
    r = _Reader(blob, 1, n - 2)
    f = {}
    for name, bits in _FIELDS:
        f[name] = r.get(bits)
    mode = f["mode"]
    players = players_for(mode, f["players"] + 1)  # raises ValueError for a wrong count
    phase = f["phase"]
    seat = f["seat"]
    if seat >= players:
        raise ValueError("seat %d of %d seats" % (seat, players))

    # Zones and the permutation of the 55 cards.
    sizes = []
    total = 0
    for _ in range(3 + 2 * players):
        size = r.get(6)
        sizes.append(size)
        total += size
    if total > _N:
        raise ValueError("the zones hold %d cards, more than %d" % (total, _N))
    sizes.append(_N - total)  # the box
    left = list(range(_N))
    zones = []
    for size in sizes:
        zone = []
        for _ in range(size):
            i = r.get(_width(len(left)))
            if i >= len(left):
                raise ValueError("card index %d of %d cards left" % (i, len(left)))
            zone.append(left.pop(i))
        zones.append(zone)
    deck, track = zones[0], zones[1]
    hands = zones[2:2 + players]
    piles = zones[2 + players:2 + 2 * players]
    penalty, box = zones[2 + 2 * players], zones[3 + 2 * players]

    # The track: shapes from the cards, a bit per curve, cells by walking it (§2).
    if not track:
        raise ValueError("the track is empty")
    bends = []
    for i in range(len(track)):
        c = track[i]
        if KIND[c] == KIND_CHAOS:
            raise ValueError("chaos card %d lies on the track (docs/rules.md §1)" % c)
        if i:
            d = VALUE[c] - VALUE[track[i - 1]]
            if d == 2 or d == -2:
                raise ValueError("track cards %d and %d break the value rule (docs/rules.md §2.2)" % (
                    track[i - 1], c))
        bends.append(BEND_L + r.get(1) if SHAPE[c] == SHAPE_CURVE else BEND_S)
    cells = []
    head = _walk(f["x"] - _COORD, f["y"] - _COORD, f["entry"], bends, cells, "the track")
    seen = set()
    for c in cells:
        if c in seen:
            raise ValueError("two track cards share a cell (docs/rules.md §2.3)")
        seen.add(c)
    if cells[-1] + STEP[head] in seen:
        raise ValueError("the track's end points into a card (no block, docs/rules.md §2.4)")

    rng_state = (r.get(15), r.get(15), r.get(15))
    # The rest of the bit stream's last byte must be zero padding, then meta, then the CRC.
    if r.pos % 8 and r.get(8 - r.pos % 8):
        raise ValueError("the save's padding bits are not zero")
    start = r.pos // 8
    if start + f["meta"] != n - 2:
        raise ValueError("the save has %d bytes, expected %d" % (n, start + f["meta"] + 2))
    meta = bytes(blob[start:n - 2])
    rng = Rng()
    rng.setstate(rng_state)  # raises ValueError("not a generator state")

    _check_phase(f, players, seat, phase, track, hands, deck, penalty)

    s = State(mode, players)
    s.deck = deck
    s.track = track
    s.bends = bends
    s.cells = cells
    s.head = head
    s.hands = hands
    s.piles = piles
    s.box = box
    s.penalty = penalty
    s.seat = seat
    s.phase = phase
    for name in ("turn", "derails", "build_value", "build_sum", "dice_left", "wheels", "loco",
                 "moved", "hits", "derail_left", "earned", "taken"):
        setattr(s, name, f[name])
    s.lost = f["lost"] == 1
    s.pending = f["pending"] - 1
    return s, rng, meta


def _check_phase(f, players, seat, phase, track, hands, deck, penalty):
    # What each phase needs so that legal_actions() and apply() cannot fail on the state.
    if phase > P_SETUP:
        raise ValueError("unknown phase %d" % phase)
    name = PHASE_NAMES[phase]
    if f["loco"] >= len(track):
        raise ValueError("the loco stands on card %d of a track of %d" % (f["loco"], len(track)))
    if (phase == P_SETUP) != (f["turn"] == 0):
        raise ValueError("turn %d in phase %s" % (f["turn"], name))
    if phase == P_SETUP and not deck:
        raise ValueError("a game about to start needs a deck")
    if f["build_value"] > 4:
        raise ValueError("a build of value %d" % f["build_value"])
    if phase == P_BUILD and not (f["build_value"] and f["build_sum"] >= f["build_value"]):
        raise ValueError("a build of value %d with %d dice" % (f["build_value"], f["build_sum"]))
    if phase == P_DICE:
        if not 0 < f["dice_left"] <= f["build_sum"]:
            raise ValueError("%d dice left of %d" % (f["dice_left"], f["build_sum"]))
        if f["wheels"] > f["build_sum"] - f["dice_left"]:
            raise ValueError("%d wheels from %d dice" % (
                f["wheels"], f["build_sum"] - f["dice_left"]))
    pending = f["pending"] - 1
    if phase == P_BEND:
        if pending < 0 or pending not in hands[seat] or SHAPE[pending] != SHAPE_CURVE:
            raise ValueError("the card waiting for its bend is not a curve in hand")
    elif pending != -1:
        raise ValueError("a card waits for its bend in phase %s" % name)
    if (phase == P_ORDER) != (len(penalty) > 0):
        raise ValueError("%d penalty cards waiting in phase %s" % (len(penalty), name))
    if f["mode"] == MODE_RIVAL:
        if seat == 0 and not (phase == P_TURN or phase == P_BEND or phase == P_ORDER
                              or phase == P_OVER or phase == P_SETUP):
            raise ValueError("the rival cannot be in phase %s (docs/rules.md §8)" % name)
        want = 1 if seat == 0 and (phase == P_TURN or phase == P_BEND) else 0
        if len(hands[0]) != want:
            raise ValueError("the rival holds %d cards in phase %s (docs/rules.md §8)" % (
                len(hands[0]), name))
    if f["lost"] and not (f["mode"] == MODE_CHALLENGE and phase == P_OVER):
        raise ValueError("a lost game that is not an ended challenge")
