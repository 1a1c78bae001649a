"""The save codec and the NVM storage on the real MicroPython VM (issue 3).

    python -m tools.vm.mpvm --tree engine --tree lib/lnr tools/vm/mp_codec_check.py [SEEDS]

Round-trips every state of random games of every mode (seeds 0..SEEDS-1, default 2) through
engine.codec and checks the unpacked State equals the packed one and packs to the same bytes;
then drives lnr.storage on a bytearray NVM and a folder of the VM standing for the drive:
records, a save, the history, a torn NVM write, a damaged file copy and a bit flip. Prints one line per mode, "mode players states largest digest", which
host_tests/test_codec.py compares with CPython's: the same game must give the same bytes on
both, so a save written by one runtime reads on the other. Exits 1 on any mismatch.
"""
import sys

import mpvm

from engine.bots import BOTS
from engine.codec import crc16, pack, unpack
from engine.playout import seeded, steps
from engine.rng import Rng
from engine.deal import deal

CONFIGS = ((0, None), (1, None), (2, None), (3, 2), (3, 3), (3, 4))
META = b"\x00\x01\x02\x03\x11"


def fail(msg):
    print("FAIL " + msg)
    raise SystemExit(1)


def check_codec(mode, players, seeds):
    got = [0, 0, 0]  # states packed, the largest blob, a digest of every blob

    def check(s, chance, seed):
        # Packs `s` with the dice's generator, unpacks it and packs it again.
        blob = pack(s, chance, META)
        s2, r2, meta = unpack(blob)
        if s2 != s or r2.getstate() != chance.getstate() or meta != META:
            fail("round trip: mode %d seed %d turn %d" % (mode, seed, s.turn))
        if pack(s2, r2, meta) != blob:
            fail("repack: mode %d seed %d turn %d" % (mode, seed, s.turn))
        got[0] += 1
        got[1] = max(got[1], len(blob))
        got[2] = (got[2] * 31 + crc16(blob, 0, len(blob) - 2)) % 1000000007

    for seed in range(seeds):
        s, chance, bot = seeded(mode, seed, players)
        check(s, chance, seed)  # before the start
        for action in steps(s, chance, BOTS["random"], bot):
            check(s, chance, seed)
            s.apply(action)
        check(s, chance, seed)  # the end
    return got[0], got[1], got[2]


def check_storage(blob):
    import os

    from engine.gamelog import GameLog
    from lnr import image
    from lnr.storage import Storage

    # The drive as make flash leaves it (tools/flash/sync.py SAVE_FILES): the copies' folders and
    # files, all zeros. The game never makes a file (docs/storage.md).
    from lnr.copies import FILE, SPARE, FILE_SIZE

    os.mkdir("/drive")
    os.mkdir("/drive/lnrsave")
    for name in (FILE, SPARE):
        os.mkdir("/drive/" + name[:name.rfind("/")])
        with open("/drive/" + name, "wb") as f:
            f.write(bytes(FILE_SIZE))
    nvm = bytearray(b"\xff" * 8192)
    s = Storage(nvm, "/drive", True)
    s.load()
    if s.notice is not None:
        fail("blank NVM gave a notice")
    s.finish_game(0, 23, True, 77, 1, GameLog(b"\xa5\x80", 9))
    s.finish_game(2, 9, True, 78, 2, GameLog(b"", -1))
    saved = bytes([len(blob)]) + blob + b"\xff\xff"
    s.save_game(saved)
    before = bytes(nvm)
    s.finish_game(0, 19, True, 79, 1, GameLog())
    t = Storage(nvm, "/drive", True)
    t.load()
    if t.best != [19, None, 9, None] or t.played != [2, 0, 1, 0] or t.saved is not None:
        fail("reload: %s %s" % (t.best, t.played))
    games = t.history()
    if len(games) != 3 or games[0] != bytes(image.entry(77, 0, 1, 23, True,
                                                         GameLog(b"\xa5\x80", 9))):
        fail("history: %s" % games)
    # The NVM erased and cut after 3 of its 16 pages: the file holds the last commit.
    torn = bytearray(b"\xff" * 8192)
    torn[0:1536] = nvm[0:1536]
    u = Storage(torn, "/drive", True)
    u.load()
    if u.best != [19, None, 9, None] or u.notice is None or len(u.history()) != 3:
        fail("torn NVM: %s %s" % (u.best, u.notice))
    # The file damaged: the NVM as it was before the last commit (the save still in it).
    f = open("/drive/lnrsave/data/copy.bin", "r+b")
    f.seek(5000)
    f.write(b"garbage")
    f.close()
    v = Storage(bytearray(before), "/drive", True)
    v.load()
    if v.best != [23, None, 9, None] or v.saved != saved or v.notice is None:
        fail("damaged file: %s %s" % (v.best, v.notice))
    flipped = bytearray(nvm)
    flipped[700] ^= 4  # the only copy (no drive): caught, the defaults with a notice
    w = Storage(flipped, None)
    w.load()
    if w.best != [None, None, None, None] or w.notice is None:
        fail("bit flip: %s %s" % (w.best, w.notice))


async def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    for mode, players in CONFIGS:
        count, largest, digest = check_codec(mode, players, seeds)
        print("%d %s %d %d %d" % (mode, players, count, largest, digest))
        await mpvm.collect()  # this port frees garbage only back in JS (tools/vm/mpvm/run.mjs)
    chance = Rng(5)
    s = deal(0, chance)
    s.start()
    check_storage(pack(s, chance, META))
    print("storage ok")


await main()  # noqa: top-level await is allowed under run.mjs
