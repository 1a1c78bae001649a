"""lib/lnr/storage.py: records, settings and a saved game in the 256-byte NVM (issue 3).

A power cut at every byte of every write, random and bit-flipped NVM contents, blank NVM as
shipped, and the write discipline (one slice assignment per commit, only on a game's end, a
save and a settings change).
"""
import random

import pytest

from engine.codec import crc16, pack, unpack
from engine.rng import Rng
from engine.state import new_game
from lnr import storage as st
from lnr.storage import Storage, SLOT_SIZE, BLOB_MAX

SOLO, CHALLENGE, RIVAL, TABLE = range(4)


class Nvm:
    """A stand-in for microcontroller.nvm: 256 bytes, slice reads, slice writes counted."""

    def __init__(self, data=None):
        self.data = bytearray(data if data is not None else b"\xff" * 256)
        self.writes = []  # (offset, bytes) of every slice assignment

    def __len__(self):
        return len(self.data)

    def __getitem__(self, key):
        return self.data[key]

    def __setitem__(self, key, value):
        assert isinstance(key, slice), "the NVM is written by slice assignment only"
        self.writes.append((key.start, bytes(value)))
        self.data[key] = value


def records(s):
    """Returns everything Storage keeps, to compare two loads."""
    return (s.brightness, s.pixel_count, s.hints, list(s.best), list(s.played), s.rival_wins,
            s.saved)


def loaded(data):
    s = Storage(Nvm(data))
    s.load()
    return s


DEFAULTS = records(Storage(None))


def a_blob(seed=1, turns=5):
    rng = Rng(seed)
    g = new_game(SOLO, rng)
    bot = Rng(seed, 1)
    while g.turn < turns:
        acts = g.legal_actions()
        g.apply(g.sample_chance(rng) if g.is_chance() else acts[bot.randbelow(len(acts))])
    return pack(g, rng, b"\x00\x00\x00\x07")


# ------------------------------------------------------------------ blank and basic use


@pytest.mark.parametrize("fill", [b"\xff", b"\x00"])
def test_blank_nvm_boots_to_defaults_silently(fill):
    # Issue 3: a blank NVM (all 0xFF as erased, all 0x00 as some boards ship) is no damage.
    s = loaded(fill * 256)
    assert records(s) == DEFAULTS and s.notice is None
    s = loaded(b"\xff" * 128 + b"\x00" * 128)
    assert records(s) == DEFAULTS and s.notice is None


def test_records_survive_a_reload_and_writes_alternate_slots():
    nvm = Nvm()
    s = Storage(nvm)
    s.load()
    assert s.finish_game(SOLO, 30, True) is True  # first record
    assert s.finish_game(SOLO, 34, True) is False  # docs/rules.md §7: lower is better
    assert s.finish_game(SOLO, 21, True) is True
    assert s.finish_game(CHALLENGE, 5, False) is False  # §8: a lost challenge sets no record
    assert s.finish_game(RIVAL, 12, True) is True
    assert s.finish_game(RIVAL, 9, False) is False
    assert [w[0] for w in nvm.writes] == [0, 128, 0, 128, 0, 128]  # alternating slots
    assert all(len(w[1]) == SLOT_SIZE for w in nvm.writes)  # one whole slot per write
    t = Storage(nvm)
    t.load()
    assert t.notice is None
    assert t.best == [21, None, 12, None]
    assert t.played == [3, 1, 2, 0]
    assert t.rival_wins == 1
    assert records(t) == records(s)


def test_one_write_per_game_and_none_per_turn_or_unchanged_setting():
    # Flash wear (docs/hardware.md): a played game costs exactly one write, at its end; a save and
    # quit costs one more; an unchanged setting costs none.
    nvm = Nvm()
    s = Storage(nvm)
    s.load()
    s.finish_game(SOLO, 40, True)
    assert len(nvm.writes) == 1
    assert s.save_game(a_blob()) is True
    assert len(nvm.writes) == 2
    assert s.save_settings() is False  # nothing changed
    s.brightness = 4
    assert s.save_settings() is True
    assert len(nvm.writes) == 3
    assert s.drop_saved() is True and s.drop_saved() is False
    assert len(nvm.writes) == 4
    t = loaded(nvm.data)
    assert t.brightness == 4 and t.saved is None


def test_saved_game_resumes_after_power_off_and_is_dropped_at_the_end():
    nvm = Nvm()
    s = Storage(nvm)
    s.load()
    blob = a_blob()
    s.save_game(blob)
    t = Storage(nvm)  # power off, power on
    t.load()
    assert t.saved == blob
    state, rng, meta = t.resume()
    assert (state, rng.getstate(), meta) == (unpack(blob)[0], unpack(blob)[1].getstate(), meta)
    assert t.saved == blob  # still there: a second power cut resumes it again
    t.finish_game(SOLO, 25, True)
    assert loaded(nvm.data).saved is None and loaded(nvm.data).best[SOLO] == 25


def test_a_save_that_cannot_be_unpacked_is_dropped_and_the_records_kept():
    nvm = Nvm()
    s = Storage(nvm)
    s.load()
    s.finish_game(SOLO, 17, True)
    s.save_game(b"\x09not a game")
    t = Storage(nvm)
    t.load()
    assert t.notice is None and t.saved is not None
    assert t.resume() is None
    assert t.notice == "Saved game could not be restored"
    u = loaded(nvm.data)
    assert u.saved is None and u.best[SOLO] == 17 and u.notice is None


def test_a_blob_too_big_is_refused_without_a_write():
    nvm = Nvm()
    s = Storage(nvm)
    s.load()
    s.finish_game(SOLO, 17, True)
    assert s.save_game(bytes(BLOB_MAX + 1)) is False
    assert s.save_game(b"") is False
    assert len(nvm.writes) == 1
    assert s.save_game(bytes(BLOB_MAX)) is True  # the largest that fits (codec max is 98)


def test_no_nvm_means_nothing_is_saved_but_nothing_fails():
    s = Storage(None)
    s.load()
    assert s.notice and records(s) == DEFAULTS
    assert s.finish_game(SOLO, 3, True) is True and s.commit() is False


def test_sequence_number_wraps_around():
    # Serial-number order: 0x0000 is newer than 0xFFFF.
    nvm = Nvm()
    s = Storage(nvm)
    s.load()
    s._seq = 0xFFFE
    s.finish_game(SOLO, 50, True)  # seq 0xFFFF in slot 0
    s.finish_game(SOLO, 40, True)  # seq 0x0000 in slot 1
    assert nvm.data[2:4] == b"\xff\xff" and nvm.data[130:132] == b"\x00\x00"
    assert loaded(nvm.data).best[SOLO] == 40
    s.finish_game(SOLO, 30, True)  # seq 1 in slot 0
    assert loaded(nvm.data).best[SOLO] == 30


# ------------------------------------------------------------------ power cuts


def scenarios():
    """Yields (name, nvm bytes before, action) for every kind of write from every history:
    the first write ever (blank as 0xFF and as 0x00), then writes into slot 1 and slot 0."""
    def end_game(s):
        s.finish_game(SOLO, s.best[SOLO] - 1 if s.best[SOLO] else 60, True)

    def save(s):
        s.save_game(a_blob(seed=len(s.played) + s.played[SOLO]))

    def settings(s):
        s.brightness = (s.brightness + 1) % 5
        s.hints ^= 1
        s.save_settings()

    for fill in (b"\xff", b"\x00"):
        yield "first write on blank %r" % fill, fill * 256, end_game
    history = Nvm()
    s = Storage(history)
    s.load()
    for i, act in enumerate((end_game, save, end_game, settings, save, end_game, settings)):
        yield "history step %d (%s)" % (i, act.__name__), bytes(history.data), act
        act(s)
    yield "write with a saved game kept", bytes(history.data), end_game


@pytest.mark.parametrize("tail", ["old", "erased"])
def test_power_cut_at_every_byte_of_every_write_keeps_the_records(tail):
    # Issue 3: a write cut after k bytes, the rest of the slot still old or already erased
    # to 0xFF: load() never raises and gives the last committed records, or the new ones
    # exactly when the whole slot was written. Then the next commit repairs the damage.
    for name, before, act in scenarios():
        old = loaded(before)
        assert old.notice is None, name
        nvm = Nvm(before)
        s = Storage(nvm)
        s.load()
        act(s)
        assert len(nvm.writes) == 1, name  # one slice assignment
        at, image = nvm.writes[0]
        new = records(loaded(nvm.data))
        assert new != records(old), name
        for k in range(SLOT_SIZE + 1):
            torn = bytearray(before)
            rest = before[at + k:at + SLOT_SIZE] if tail == "old" else b"\xff" * (SLOT_SIZE - k)
            torn[at:at + SLOT_SIZE] = image[:k] + rest
            got = loaded(torn)
            if torn[at:at + SLOT_SIZE] == image:
                assert records(got) == new, (name, k)
            else:
                assert records(got) == records(old), (name, k)
                # A torn slot is damage (a notice) unless it is blank or still the old slot.
                slot = bytes(torn[at:at + SLOT_SIZE])
                harmless = slot in (before[at:at + SLOT_SIZE], b"\xff" * SLOT_SIZE)
                assert (got.notice is None) == harmless, (name, k, got.notice)
                if got.notice:
                    assert got.notice in (st.NOTICE_OLDER, st.NOTICE_DAMAGED)
            # The device goes on: the next game's end is written and read back whole.
            if k % 16 == 5:
                got.finish_game(TABLE, 33, True)
                again = loaded(got._nvm.data)
                assert again.notice is None and again.best[TABLE] == 33
                assert again.best[SOLO] == got.best[SOLO] and again.played == got.played


def test_power_cut_in_a_whole_block_erase_never_crashes_and_never_invents_data():
    # Shared/HARDWARE.md: each slice assignment erases and rewrites flash. On the SAMD51, ASF4's
    # _flash_write erases the whole 8 KB block holding all 256 NVM bytes and programs it again
    # from its start, so a cut can hit BOTH slots: model a cut after k bytes of the region
    # (rest 0xFF). No slot scheme inside one erase block survives every such cut; what must
    # hold is that load() never raises and gives new, old or default records, never a mix.
    for name, before, act in scenarios():
        nvm = Nvm(before)
        s = Storage(nvm)
        s.load()
        old = records(s)
        act(s)
        new = records(loaded(nvm.data))
        region = bytes(nvm.data)
        for k in range(0, 257):
            got = loaded(region[:k] + b"\xff" * (256 - k))
            assert records(got) in (old, new, DEFAULTS), (name, k)
            if k >= 128 and nvm.writes[0][0] == 128:
                # Writing slot 1, the old slot 0 is programmed first: once it is, it holds.
                assert records(got) in (old, new), (name, k)


# ------------------------------------------------------------------ bad data


def valid_image():
    nvm = Nvm()
    s = Storage(nvm)
    s.load()
    s.finish_game(SOLO, 20, True)
    s.finish_game(RIVAL, 11, True)
    s.save_game(a_blob())
    s.brightness = 3
    s.save_settings()  # slot 1 holds seq 4 (newest), slot 0 seq 3
    return bytes(nvm.data), s


def test_random_nvm_contents_boot_to_defaults_with_a_notice():
    # Issue 3: random bytes never crash; they boot to the defaults with a notice.
    rnd = random.Random(3)
    for _ in range(3000):
        s = loaded(bytes(rnd.randrange(256) for _ in range(256)))
        assert records(s) == DEFAULTS
        assert s.notice == st.NOTICE_DAMAGED


def test_random_bytes_in_one_slot_fall_back_to_the_other():
    data, s = valid_image()
    good1 = records(s)
    rnd = random.Random(4)
    for i in range(1500):
        junk = bytes(rnd.randrange(256) for _ in range(128))
        got = loaded(data[:128] + junk)  # the newest slot is junk: the older one is used
        assert got.notice == st.NOTICE_OLDER
        assert got.best == [20, None, 11, None] and got.brightness == 2
        got = loaded(junk + data[128:])  # the older slot is junk: nothing lost
        assert records(got) == good1 and got.notice == st.NOTICE_OLDER


def test_every_single_bit_flip_in_a_valid_image_is_caught():
    data, s = valid_image()
    newest = records(s)
    older = records(loaded(data[:128] + b"\xff" * 128))
    for bit in range(256 * 8):
        bad = bytearray(data)
        bad[bit // 8] ^= 0x80 >> (bit % 8)
        got = loaded(bad)
        assert got.notice == st.NOTICE_OLDER, bit
        assert records(got) == (older if bit >= 128 * 8 else newest), bit
    for bit in range(128 * 8):  # only one valid slot: a flip leaves nothing, defaults
        bad = bytearray(data[128:] + b"\xff" * 128)
        bad[bit // 8] ^= 0x80 >> (bit % 8)
        got = loaded(bad)
        assert records(got) == DEFAULTS and got.notice == st.NOTICE_DAMAGED, bit


def sealed(payload):
    """Returns a slot with the right magic, layout and CRC around random `payload` bytes."""
    img = bytearray(b"\x4c\x01" + payload[:124])
    crc = crc16(img)
    return bytes(img + bytearray((crc >> 8, crc & 0xFF)))


def test_garbage_behind_a_good_checksum_never_crashes_and_keeps_settings_sane():
    # A slot that passes the CRC but holds nonsense (a later layout, a bug): settings out of
    # range fall back one by one, a saved game that is no game is dropped on resume, the
    # records stay, and the device never sees an exception.
    rnd = random.Random(5)
    for i in range(1500):
        payload = bytes(rnd.randrange(256) for _ in range(124))
        s = loaded(sealed(payload) + b"\xff" * 128)
        assert 0 <= s.brightness <= 4 and 1 <= s.pixel_count <= 16 and s.hints in (0, 1)
        assert s.saved is None or 0 < len(s.saved) <= BLOB_MAX
        assert (s.saved is None) == (payload[19] == 0 or payload[19] > BLOB_MAX)
        best = list(s.best)
        if s.saved is not None:
            assert s.resume() is None  # random bytes are no game
            assert s.notice == "Saved game could not be restored"
            assert s.best == best
            t = loaded(s._nvm.data)
            assert t.saved is None and t.best == best


def test_a_failed_write_keeps_the_current_slot():
    class FailingNvm(Nvm):
        def __setitem__(self, key, value):
            raise OSError(5)

    data, s = valid_image()
    nvm = FailingNvm(data)
    s = Storage(nvm)
    s.load()
    assert s.finish_game(SOLO, 1, True) is True
    assert s.notice == st.NOTICE_WRITE
    assert loaded(nvm.data).best[SOLO] == 20
