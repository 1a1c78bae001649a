"""The save codec and the NVM storage on the real MicroPython VM (issue 3).

    node tools/mpvm/run.mjs --tree engine --tree lib/lnr tools/mp_codec_check.py [SEEDS]

Round-trips every state of random games of every mode (seeds 0..SEEDS-1, default 2) through
engine.codec and checks the unpacked State equals the packed one and packs to the same bytes;
then drives lnr.storage on a bytearray NVM: records, a save, a resume, a torn write and a bit
flip. Prints one line per mode, "mode players states largest digest", which
host_tests/test_codec.py compares with CPython's: the same game must give the same bytes on
both, so a save written by one runtime reads on the other. Exits 1 on any mismatch.
"""
import sys

import mpvm

from engine.bots import BOTS
from engine.codec import crc16, pack, unpack
from engine.rng import Rng
from engine.state import deal

CONFIGS = ((0, None), (1, None), (2, None), (3, 2), (3, 3), (3, 4))
META = b"\x00\x01\x02\x03\x11"


def fail(msg):
    print("FAIL " + msg)
    raise SystemExit(1)


def check_codec(mode, players, seeds):
    count = 0
    largest = 0
    digest = 0
    for seed in range(seeds):
        chance = Rng(seed, 0)
        bot = Rng(seed, 1)
        s = deal(mode, chance, players)
        started = False
        while True:
            blob = pack(s, chance, META)
            s2, r2, meta = unpack(blob)
            if s2 != s or r2.getstate() != chance.getstate() or meta != META:
                fail("round trip: mode %d seed %d turn %d" % (mode, seed, s.turn))
            if pack(s2, r2, meta) != blob:
                fail("repack: mode %d seed %d turn %d" % (mode, seed, s.turn))
            count += 1
            largest = max(largest, len(blob))
            digest = (digest * 31 + crc16(blob, 0, len(blob) - 2)) % 1000000007
            if not started:
                s.start()
                started = True
            elif s.is_terminal():
                break
            elif s.is_chance():
                s.apply(s.sample_chance(chance))
            elif s.is_rival(s.seat):
                s.apply(s.rival_action())
            else:
                s.apply(BOTS["random"](s, bot))
    return count, largest, digest


def check_storage(blob):
    from lnr.storage import Storage, SLOT_SIZE

    nvm = bytearray(b"\xff" * 256)
    s = Storage(nvm)
    s.load()
    if s.notice is not None:
        fail("blank NVM gave a notice")
    s.finish_game(0, 23, True)
    s.finish_game(2, 9, True)
    s.save_game(blob)
    before = bytes(nvm)
    s.finish_game(0, 19, True)  # the 4th write: into slot 1
    if nvm[128:256] == before[128:256] or nvm[0:128] != before[0:128]:
        fail("commit did not write slot 1 alone")
    t = Storage(nvm)
    t.load()
    if t.best != [19, None, 9, None] or t.played != [2, 0, 1, 0] or t.saved is not None:
        fail("reload: %s %s" % (t.best, t.played))
    # A cut half-way through that write: the slot written last before it still holds.
    torn = bytearray(before)
    torn[SLOT_SIZE:SLOT_SIZE + 64] = nvm[SLOT_SIZE:SLOT_SIZE + 64]
    u = Storage(torn)
    u.load()
    if u.best != [23, None, 9, None] or u.saved != blob or u.notice is None:
        fail("torn write: %s %s" % (u.best, u.notice))
    state, rng, meta = u.resume()
    if pack(state, rng, meta) != blob:
        fail("resume")
    flipped = bytearray(nvm)
    flipped[SLOT_SIZE + 5] ^= 4  # in the newest slot: the older one is used
    v = Storage(flipped)
    v.load()
    if v.best != [23, None, 9, None] or v.notice is None:
        fail("bit flip: %s" % v.best)


async def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    for mode, players in CONFIGS:
        count, largest, digest = check_codec(mode, players, seeds)
        print("%d %s %d %d %d" % (mode, players, count, largest, digest))
        await mpvm.collect()  # this port frees garbage only back in JS (tools/mpvm/run.mjs)
    chance = Rng(5)
    s = deal(0, chance)
    s.start()
    check_storage(pack(s, chance, META))
    print("storage ok")


await main()  # noqa: top-level await is allowed under run.mjs
