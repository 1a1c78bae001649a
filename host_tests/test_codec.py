"""engine/codec.py: a game in progress packed for the NVM and back (issue 3).

Round trips over states reached by random play in every mode and every phase, the worst-case
size worked out on paper and checked against thousands of states, and damaged saves that must
raise ValueError with a message (never IndexError, never a half-built state).
"""
import math
import random

import pytest

from engine.bots import BOTS
from engine.cards import SHAPE, SHAPE_CURVE, VALUE, KIND, KIND_CHAOS
from engine.codec import FORMAT, MAX_META, crc16, pack, unpack
from engine.playout import play_out, seeded, steps
from engine.rng import Rng
from engine.codes import BEND_L, BEND_R, BEND_S, EAST, P_OVER, P_SETUP, PHASE_NAMES
from engine.deal import deal
from engine.state import MODE_SOLO, MODE_TABLE, State
from helpers import assert_accounted

CONFIGS = [(0, None), (1, None), (2, None), (3, 2), (3, 3), (3, 4)]  # every mode, table 2-4
EXTRA = ("moved", "hits", "derail_left", "earned", "taken")  # screen fields outside __eq__
META = b"\x00\x01\x02\x03\x11"  # like the app's: a 4-byte seed and the seats' roles


def states_of_game(mode, players, seed):
    """Yields (state, chance_rng) at every step of one random game, setup included."""
    s, chance, bot = seeded(mode, seed, players)
    yield s, chance
    for a in steps(s, chance, BOTS["random"], bot):
        yield s, chance
        s.apply(a)
    yield s, chance


def curves_on_track(s):
    return sum(1 for c in s.track if SHAPE[c] == SHAPE_CURVE)


def size_on_paper(players, curves, meta_len):
    """The blob size worked out independently of the codec (see its docstring): a format byte,
    the fields, 6-bit zone sizes, ceil(log2 n) bits per card for n cards left, a bit per curve,
    three 15-bit generator ints, padding, meta and a 2-byte CRC."""
    fields = 2 + 2 + 3 + 2 + 6 + 6 + 1 + 3 + 6 + 6 + 6 + 6 + 6 + 6 + 3 + 6 + 6 + 6 + 5 + 7 + 7 + 2
    zones = 6 * (3 + 2 * players)
    cards = sum(math.ceil(math.log2(n)) for n in range(1, 56))
    bits = fields + zones + cards + curves + 3 * 15
    return 1 + (bits + 7) // 8 + meta_len + 2


def test_round_trip_every_state_every_mode_every_phase():
    # Issue 3: the unpacked State == the packed one in every phase, in every mode, the table
    # with 4 seats included; the rng continues the same stream; the screen fields come back too.
    phases = {}  # (mode, players) -> names of the phases round-tripped
    count = 0
    for mode, players in CONFIGS:
        for seed in range(8):
            for s, chance in states_of_game(mode, players, seed):
                blob = pack(s, chance, META)
                s2, r2, meta = unpack(blob)
                assert s2 == s, (mode, players, seed, s.turn, PHASE_NAMES[s.phase])
                assert r2.getstate() == chance.getstate()
                assert meta == META
                for name in EXTRA:
                    assert getattr(s2, name) == getattr(s, name), name
                assert pack(s2, r2, meta) == blob  # canonical: the same state, the same bytes
                phases.setdefault((mode, players), set()).add(PHASE_NAMES[s.phase])
                count += 1
    assert count > 5000
    for config in CONFIGS:  # turn, bend, build, chaos, dice, order, over (and setup) in each
        assert phases[config] == set(PHASE_NAMES), config


def test_unpacked_game_plays_on_exactly_like_the_original():
    # The rng continues the same stream: a game resumed from its save rolls the same dice and
    # ends in the same state as the one that was never saved.
    for mode, players in CONFIGS:
        for seed in (3, 4):
            at = list(range(0, 400, 7))
            for k, (s, chance) in enumerate(states_of_game(mode, players, seed)):
                if k not in at or s.phase == P_SETUP or s.is_terminal():
                    continue
                a, ra = s.clone(), Rng()
                ra.setstate(chance.getstate())
                b, rb, _ = unpack(pack(s, chance))
                bot_a, bot_b = Rng(seed, 7), Rng(seed, 7)
                for st, rng, bot in ((a, ra, bot_a), (b, rb, bot_b)):
                    play_out(st, rng, BOTS["random"], bot)
                assert a == b and a.result() == b.result()
                assert ra.getstate() == rb.getstate()


def test_size_matches_the_paper_formula_and_the_worst_case_fits():
    # The size depends only on seats, curves on the track and meta: check that claim on every
    # state of many games, and that the worst of it, with the app's length byte, the decision
    # log's bit count and the longest log (lnr/games.py pack), fits the image's saved game.
    from engine.gamelog import MAX_BYTES
    from lnr.image import SAVE_MAX

    largest = 0
    for mode, players in CONFIGS:
        for seed in range(100, 125):
            for s, chance in states_of_game(mode, players, seed):
                if s.phase not in (P_SETUP, P_OVER) and s.turn % 3:
                    continue  # every third turn is plenty here; every state is checked above
                n = len(pack(s, chance, META))
                assert n == size_on_paper(s.players, curves_on_track(s), len(META))
                largest = max(largest, n)
    curves = sum(1 for c in range(55) if SHAPE[c] == SHAPE_CURVE)
    assert curves == 25  # docs/rules.md §1: 6 + 5 + 6 + 6 track curves and broken 2 and 4
    worst = size_on_paper(4, curves, MAX_META)
    assert worst == 98
    assert largest <= size_on_paper(4, curves, len(META)) == 72
    assert 1 + worst + 2 + MAX_BYTES <= SAVE_MAX


def worst_case_state():
    """Returns a valid table state for 4 seats with all 50 track cards on the track, the 25
    curves among them: the largest save there can be. The track is a staircase (east, north,
    east, ...) so it never meets itself; values climb 1, 2, 3, 4 so the value rule holds."""
    s = State(MODE_TABLE, 4)
    track = []
    for v in (1, 2, 3, 4):
        track += [c for c in range(50) if VALUE[c] == v and KIND[c] != KIND_CHAOS]
    for c in track:  # laid as the game lays a card: its cell ahead of the end (state.target())
        if SHAPE[c] == SHAPE_CURVE:
            b = BEND_L if s.head == EAST else BEND_R  # east -> north, north -> east
        else:
            b = BEND_S
        s.extend_track(c, b)
    s.deck = [50]
    s.hands = [[51], [52], [53], [54]]
    s.seat, s.turn, s.phase, s.loco = 3, 30, 0, 40
    return s


def test_constructed_worst_case_packs_to_the_computed_size_and_round_trips():
    s = worst_case_state()
    assert len(s.track) == 50 and curves_on_track(s) == 25
    rng = Rng(5)
    blob = pack(s, rng, bytes(range(MAX_META)))
    assert len(blob) == size_on_paper(4, 25, MAX_META) == 98
    s2, r2, meta = unpack(blob)
    assert s2 == s and meta == bytes(range(MAX_META)) and r2.getstate() == rng.getstate()
    with pytest.raises(ValueError, match="meta"):
        pack(s, rng, bytes(MAX_META + 1))


def some_blobs():
    out = []
    for mode, players in CONFIGS:
        for s, chance in states_of_game(mode, players, 9):
            if s.turn in (1, 7, 19) or s.is_terminal():
                out.append(pack(s, chance, META))
    return out


def test_truncated_saves_raise_value_error_with_a_message():
    for blob in some_blobs()[::5]:
        for n in range(len(blob)):
            with pytest.raises(ValueError) as e:
                unpack(blob[:n])
            assert str(e.value)


def test_every_single_bit_flip_is_caught():
    # CRC-16 catches every single-bit error, so every flip must be refused, never half-read.
    for blob in some_blobs()[::4]:
        for i in range(len(blob) * 8):
            bad = bytearray(blob)
            bad[i // 8] ^= 0x80 >> (i % 8)
            with pytest.raises(ValueError) as e:
                unpack(bytes(bad))
            assert str(e.value)


def resealed(data):
    """Returns `data` with its CRC rewritten, to reach the checks behind the checksum."""
    data = bytearray(data[:-2])
    crc = crc16(data)
    return bytes(data + bytearray((crc >> 8, crc & 0xFF)))


def test_damage_behind_the_checksum_is_refused_or_is_a_valid_state():
    # A save whose CRC was recomputed after damage: unpack must name the problem (ValueError)
    # or return a state that passes the rules' own checks; never any other exception.
    rnd = random.Random(1)
    refused = 0
    accepted = 0
    for blob in some_blobs():
        for _ in range(60):
            bad = bytearray(blob)
            for _ in range(rnd.choice((1, 1, 2, 5))):
                i = rnd.randrange(1, len(bad) - 2)
                bad[i] ^= 1 << rnd.randrange(8)
            try:
                s, r, meta = unpack(resealed(bad))
            except ValueError as e:
                assert str(e)
                refused += 1
                continue
            accepted += 1
            assert_accounted(s)
            assert len(set(s.cells)) == len(s.cells)
            assert 0 <= s.loco < len(s.track)
            s.legal_actions()  # must not fail on a state unpack() let through
            # Every field is stored as is and padding must be zero: a save unpack() accepts
            # is the one canonical encoding of its state.
            assert pack(s, r, meta) == resealed(bad)
    assert refused > 1000 and accepted > 0


def test_random_bytes_with_a_good_checksum_never_crash_unpack():
    rnd = random.Random(2)
    for n in range(3000):
        body = bytes([FORMAT]) + bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 100)))
        try:
            s, r, meta = unpack(resealed(body + b"\0\0"))
        except ValueError as e:
            assert str(e)
        else:
            s.legal_actions()


def craft(state, rng=None, meta=b""):
    return pack(state, rng or Rng(1), meta)


def test_unpack_names_what_is_wrong(monkeypatch):
    base = worst_case_state()
    # Another format byte.
    blob = bytearray(craft(base))
    blob[0] = FORMAT + 1
    with pytest.raises(ValueError, match="format"):
        unpack(resealed(blob))
    # A byte too many after the meta.
    with pytest.raises(ValueError, match="expected"):
        unpack(resealed(craft(base)[:-2] + b"\0" + b"\0\0"))
    # docs/rules.md §2.2: a 1 next to a 3 on the track (pack stores it; unpack refuses it).
    bad = solo_state_with_track([0, 23])
    with pytest.raises(ValueError, match="value rule"):
        unpack(craft(bad))
    # docs/rules.md §2.3: four left curves close a loop onto the first cell.
    bad = solo_state_with_track([6, 7, 8, 9, 10], [BEND_L] * 5)
    with pytest.raises(ValueError, match="share a cell"):
        unpack(craft(bad))
    # docs/rules.md §2.4: four left curves: the end points into the first card.
    bad = solo_state_with_track([6, 7, 8, 9], [BEND_L] * 4)
    with pytest.raises(ValueError, match="no block"):
        unpack(craft(bad))
    # docs/rules.md §1: a chaos card on the track. pack() refuses it too, so pack it with card 50
    # passed off as a straight track card, then unpack with the real table.
    bad = solo_state_with_track([0, 50])
    with pytest.raises(ValueError, match="track card 50"):
        craft(bad)
    import engine.codec

    monkeypatch.setattr(engine.codec, "KIND", KIND[:50] + b"\0" + KIND[51:])
    blob = craft(bad)
    monkeypatch.undo()
    with pytest.raises(ValueError, match="chaos card 50 lies on the track"):
        unpack(blob)
    # The loco beyond the end of the track.
    bad = solo_state_with_track([0, 1])
    bad.loco = 2
    with pytest.raises(ValueError, match="loco"):
        unpack(craft(bad))
    # A penalty waiting outside the order phase.
    bad = solo_state_with_track([0, 1])
    bad.penalty = [bad.deck.pop()]
    with pytest.raises(ValueError, match="penalty"):
        unpack(craft(bad))


def solo_state_with_track(track, bends=None):
    """Returns a solo state in its turn phase with `track` laid from (0, 0) heading east,
    cells consistent with the bends (so pack accepts it), every other card in the deck."""
    s = State(MODE_SOLO, 1)
    for c, b in zip(track, bends or [BEND_L if SHAPE[c] == SHAPE_CURVE else BEND_S
                                     for c in track]):
        s.extend_track(c, b)  # from (0, 0) heading east, as a new State starts
    s.hands = [[c for c in range(55) if c not in track][:1]]
    s.deck = [c for c in range(55) if c not in track and c not in s.hands[0]]
    s.turn, s.phase = 1, 0
    return s


def test_pack_refuses_states_that_are_not_a_game():
    s = solo_state_with_track([0, 1])
    s.deck.append(0)  # card 0 twice
    with pytest.raises(ValueError, match="twice"):
        pack(s, Rng(1))
    s = solo_state_with_track([0, 1])
    s.deck.pop()  # a card lost
    with pytest.raises(ValueError, match="no zone"):
        pack(s, Rng(1))
    s = solo_state_with_track([0, 1])
    s.cells[1] += 1  # a cell that does not follow the bends
    with pytest.raises(ValueError, match="cells"):
        pack(s, Rng(1))
    s = solo_state_with_track([0, 1])
    s.turn = 64  # beyond its 6-bit field
    with pytest.raises(ValueError, match="turn"):
        pack(s, Rng(1))


def test_same_saves_on_the_real_micropython_vm():
    # engine/ runs unchanged on MicroPython (docs/style.md): tools/vm/mp_codec_check.py round-trips
    # every state of a game of every mode there and drives lnr.storage on a bytearray NVM and
    # a folder of the VM's file system for the drive.
    # Its per-mode digest of the blobs must equal CPython's: the same game, the same bytes.
    from tools.vm import mpvm

    out = mpvm.output("tools/vm/mp_codec_check.py", ["engine", "lib/lnr"], ["1"], timeout=300)
    want = []
    for mode, players in CONFIGS:
        count = largest = digest = 0
        for s, chance in states_of_game(mode, players, 0):
            blob = pack(s, chance, META)
            count += 1
            largest = max(largest, len(blob))
            digest = (digest * 31 + crc16(blob, 0, len(blob) - 2)) % 1000000007
        want.append("%d %s %d %d %d" % (mode, players, count, largest, digest))
    want.append("storage ok")
    assert out.splitlines() == want
