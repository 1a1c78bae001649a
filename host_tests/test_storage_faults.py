"""lib/lnr/storage.py under the real fault model (docs/storage.md): the NVM erased whole and
programmed page by page, the drive's file written through FatFs and CircuitPython's 4 KB flash
cache (host_tests/flashmodel.py), the power going at every operation of every kind of commit
and inside every page, and random garbage and bit flips in each copy and in both.

The rule checked after every cut: the app starts without an exception, with the records,
settings, saved game and history of the last commit or of the one before it, never anything
else; and if it is the one before and that one's saved game is not the last one's, the title
says that the last save was lost.
"""
import random
from contextlib import contextmanager

import pytest

from flashmodel import (
    Drive, NvmFlash, Power, Qspi, VolumeLost, cut_points, format_volume, states_at_cuts,
    ERASE, SECTOR, DATA0, NVM_SIZE,
)
from engine.bots import BOTS
from engine.gamelog import GameLog
from engine.playout import play_out, seeded
from lnr import copies
from lnr.storage import Storage

BLOCKS = 160  # an 80 KB volume: the game's files, ours, room to spare
# What `make flash` leaves on the drive before the game first saves (sizes in bytes).
GAME_FILES = (("/boot.py", 1600), ("/code.py", 500), ("/lib/lnr/app.mpy", 5000),
              ("/lib/engine/state.mpy", 9000))
COUNTS = {}  # what each test tried: asserted by each, printed at the end (pytest -s)


@pytest.fixture(scope="module", autouse=True)
def counts_table():
    """Prints how many cut points and damaged images each test tried, after the module's tests
    (shown with `pytest -s host_tests/test_storage_faults.py`; docs/storage.md quotes it)."""
    yield
    if COUNTS:
        print()
        for what, n in COUNTS.items():
            print("  %6d  %s" % (n, what))
        print("  %6d  in all" % sum(v for k, v in COUNTS.items() if not k.startswith(" ")))


def game_files(shift):
    """The game's files, and a file of `shift` sectors in front so that our folder starts at
    every offset inside a 4 KB erase sector."""
    files = [(p, bytes((i * 7 + len(p)) % 251 + 1 for i in range(n))) for p, n in GAME_FILES]
    if shift:
        files.insert(0, ("/notes.txt", b"#" * (shift * SECTOR)))
    return files


class Board:
    """A PyBadge after power-up: the NVM and the drive from their bytes (None: the drive does
    not mount, as after a cut that tore its boot sector)."""

    def __init__(self, nvm, qspi, writable=True, flush_after=()):
        self.power = Power()
        self.nvm = NvmFlash(nvm, self.power)
        self.flash = Qspi(qspi, self.power)
        try:
            self.drive = Drive(self.flash, BLOCKS)
            self.drive.flush_after = flush_after
        except VolumeLost:
            self.drive = None
        self.writable = writable

    @contextmanager
    def running(self):
        """lnr.copies sees this board's drive as `open` and `os` while the app runs."""
        saved = copies.__dict__.get("open"), copies.os
        if self.drive is None:
            def nothing(*a, **k):
                raise OSError(19, "no drive")
            copies.open, copies.os = nothing, _NoOs()
        else:
            copies.open, copies.os = self.drive.open, self.drive.os
        try:
            yield Storage(self.nvm, "/", self.writable)
        finally:
            if saved[0] is None:
                del copies.open
            else:
                copies.open = saved[0]
            copies.os = saved[1]

    def bytes(self):
        return bytes(self.nvm.data), bytes(self.flash.data)


class _NoOs:
    def stat(self, path):
        raise OSError(19, "no drive")

    def mkdir(self, path):
        raise OSError(19, "no drive")


def snapshot(st):
    """Everything the app keeps, to compare two loads."""
    return (st.brightness, st.pixel_count, st.hints, tuple(st.best), tuple(st.played),
            st.rival_wins, st.saved, tuple(st.history()))


def boot(nvm, qspi, writable=True):
    """Powers up on these bytes: returns (snapshot, notice) of load(), or (None, 'volume lost')
    when the drive would not mount."""
    b = Board(nvm, qspi, writable)
    with b.running() as st:
        st.load()
        return snapshot(st), st.notice


def logged(mode, seed, players=None):
    """A finished game played by bots: (score, won, seed, seats, log) for finish_game."""
    s, chance, bot = seeded(mode, seed, players)
    s.log = GameLog()
    play_out(s, chance, BOTS["greedy"], bot)
    me = 1 if mode == 2 else 0
    return s.score(me), me in s.winners(), seed, s.players, s.log


def a_save(seed=5, turns=6):
    """lnr.switch' bytes of a table game with bots, saved at a turn's start."""
    from lnr.game import ROLE_BOT
    from lnr.switch import new_game
    from lnr.switch import pack

    g = new_game(3, seed, 3, bytearray([ROLE_BOT, ROLE_BOT + 2]))
    s = g.state
    while s.turn < turns:
        if s.is_chance():
            s.apply(s.sample_chance(g.rng))
        else:
            s.apply(BOTS["random"](s, g.bot_rng))
    return pack(g)


ACTIONS = {
    "solo": lambda st: st.finish_game(0, *logged(0, 3)),
    "challenge": lambda st: st.finish_game(1, *logged(1, 4)),
    "rival": lambda st: st.finish_game(2, *logged(2, 5)),
    "table": lambda st: st.finish_game(3, *logged(3, 6, 4)),
    "save": lambda st: st.save_game(a_save()),
    "settings": lambda st: (setattr(st, "brightness", (st.brightness + 1) % 5),
                            setattr(st, "hints", 1 - st.hints), st.save_settings()),
}


def history_of(n):
    """A board that finished n games (of every mode) and saved one, both copies intact."""
    b = Board(b"\xff" * NVM_SIZE, format_volume(BLOCKS, game_files(0)))
    with b.running() as st:
        st.load()
        for i in range(n):
            mode = i % 4
            st.finish_game(mode, *logged(mode, 100 + i, 3 if mode == 3 else None))
        st.save_game(a_save(7))
    return b.bytes()


def tear_nvm(nvm, pages=5):
    """The NVM as a cut leaves it after the erase and `pages` pages."""
    out = bytearray(b"\xff" * NVM_SIZE)
    out[:pages * 512] = nvm[:pages * 512]
    return bytes(out)


def tear_file(qspi):
    """The drive with the file's image half erased (a cut inside a cache flush)."""
    b = Board(b"\xff" * NVM_SIZE, qspi)
    d = b.drive
    _, e, _ = d.walk("/lnrsave/data/copy.bin")
    first = DATA0 + e[3] - 2 + 7 + 9  # the image's 10th sector (after 7 sectors of zeros)
    out = bytearray(qspi)
    addr = first * SECTOR
    out[addr:addr + 1024] = b"\xff" * 1024
    return bytes(out)


def record(pre, action, writable=True, flush_after=()):
    """Runs `action` on a board powered up on `pre`; returns (ops, the bytes after)."""
    b = Board(*pre, writable=writable, flush_after=flush_after)
    with b.running() as st:
        st.load()
        ACTIONS[action](st)
    return b.power.ops, b.bytes()


def check_cuts(pre, action, writable=True, flush_after=(), inside=True, every=1, seed=0,
               protected=()):
    """Cuts the power at every point of `action`'s commit from `pre` and checks the rule.
    `protected`: (address, length) ranges of the drive no in-place commit may ever touch.
    Returns (cut points tried, loads of the last commit, loads of the one before)."""
    ops, post = record(pre, action, writable, flush_after)
    assert ops, "the commit wrote nothing"
    if protected:
        for device, kind, addr, data in ops:
            if device == "qspi":
                size = ERASE if kind == "erase" else len(data)
                for a, n in protected:
                    assert addr + size <= a or a + n <= addr, (
                        "a write of the file copy touched another file's flash: %s at %d" % (
                            kind, addr))
    before, _ = boot(*pre, writable=writable)
    after, _ = boot(*post, writable=writable)
    assert after != before
    rng = random.Random(seed)
    tried = last = older = 0
    for k, v, nvm, qspi in states_at_cuts(pre[0], pre[1], ops, cut_points(ops, rng, inside,
                                                                            every)):
        tried += 1
        got, notice = boot(nvm, qspi, writable)
        where = "cut at op %d %s (%s %s)" % (k, v, ops[k][0] if k >= 0 else "-",
                                             ops[k][1] if k >= 0 else "-")
        if writable:
            assert got in (after, before), where
            if got == before:
                older += 1
                if before[6] != after[6] and k >= 0:  # k -1: the write had not begun
                    assert notice is not None, where + ": the last save lost silently"
            else:
                last += 1
        else:  # the NVM alone: a cut during its write may lose the saves, as the title warns
            assert "less safe" in (notice or ""), where
    return tried, last, older


@pytest.fixture(scope="module")
def played():
    return history_of(6)


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_every_cut_of_every_commit_keeps_the_last_or_the_one_before(played, action):
    # Both copies intact before the commit (the usual case): cut after the erase, after every
    # page, inside every page (16-byte prefixes, random bytes, random bits), inside erases.
    tried, last, older = check_cuts(played, action)
    COUNTS["both intact: " + action] = tried
    assert tried > 1500 and last > 0 and older > 0


@pytest.mark.parametrize("damaged", ["nvm", "file"])
@pytest.mark.parametrize("action", ["solo", "save", "settings"])
def test_a_commit_after_a_damaged_copy_repairs_it_first(played, damaged, action):
    # The copy a previous cut damaged is written first: a cut now still leaves the intact one.
    nvm, qspi = played
    pre = (tear_nvm(nvm), qspi) if damaged == "nvm" else (nvm, tear_file(qspi))
    _, notice = boot(*pre)
    assert notice is not None  # the damage was told at start
    tried, last, older = check_cuts(pre, action, every=4)
    COUNTS["%s damaged: %s" % (damaged, action)] = tried
    assert tried > 300 and last > 0 and older > 0


@pytest.mark.parametrize("shift", range(8))
def test_in_place_commits_never_touch_another_files_flash(played, shift):
    # Our folder at every offset inside a 4 KB erase sector: the sectors CircuitPython erases
    # to rewrite the image and the file's directory entry hold nothing but our own files.
    b = Board(b"\xff" * NVM_SIZE, format_volume(BLOCKS, game_files(shift)))
    with b.running() as st:
        st.load()
        st.finish_game(0, *logged(0, 1))  # makes the folder and the file (once per board)
    pre = b.bytes()
    d = Board(*pre).drive
    protected = []
    for path, _ in game_files(shift):
        _, e, _ = d.walk(path)
        protected.append(((DATA0 + e[3] - 2) * SECTOR, ((e[4] + SECTOR - 1) // SECTOR) * SECTOR))
    protected.append((0, DATA0 * SECTOR))  # boot sector, FAT, root directory
    for path in ("/lib", "/lib/lnr", "/lib/engine"):
        _, e, _ = d.walk(path)
        protected.append(((DATA0 + e[3] - 2) * SECTOR, SECTOR))
    tried, last, older = check_cuts(pre, "save", inside=False, protected=protected)
    COUNTS["folder at offset %d of its erase sector" % shift] = tried
    assert last > 0 and older > 0
    for path, data in game_files(shift):  # and the game's files read as they were
        assert Board(*pre).drive.file_bytes(path) == data


@pytest.mark.parametrize("after_block", range(0, 18))
def test_a_background_flush_between_any_two_sector_writes(played, after_block):
    # filesystem_background() flushes the cache once a second, between any two block writes.
    tried, last, older = check_cuts(played, "table", flush_after=(after_block,), inside=False)
    COUNTS["background flush after block %d" % after_block] = tried
    assert last > 0 and older > 0


@pytest.mark.parametrize("fresh_nvm", [False, True])
def test_cuts_while_the_file_copy_is_first_made(played, fresh_nvm):
    # The first commit on a drive without our folder makes it (FAT, directories: the one write
    # that touches the volume's own structures). A cut there may even lose the volume (counted,
    # docs/storage.md); the saves themselves still follow the rule.
    nvm = b"\xff" * NVM_SIZE if fresh_nvm else played[0]
    pre = (nvm, format_volume(BLOCKS, game_files(3)))
    ops, post = record(pre, "solo")
    before, _ = boot(*pre)
    after, _ = boot(*post)
    rng = random.Random(1)
    tried = lost_volume = 0
    for k, v, n, q in states_at_cuts(pre[0], pre[1], ops, cut_points(ops, rng, True, 8)):
        tried += 1
        if Board(n, q).drive is None:
            lost_volume += 1
        got, notice = boot(n, q)
        assert got in (after, before), (k, v)
    COUNTS["file first made (%s NVM)" % ("blank" if fresh_nvm else "valid")] = tried
    COUNTS["  of which the volume did not mount"] = lost_volume
    assert tried > 200


def test_drive_read_only_saves_to_the_nvm_alone_and_says_so(played):
    # SELECT held at power-up: boot.py leaves CIRCUITPY to the computer; the NVM alone holds
    # the saves (a cut after its erase can lose them: "less safe") and the title says so.
    _, notice = boot(*played, writable=False)
    assert "less safe" in notice
    ops, post = record(played, "solo", writable=False)
    assert {op[0] for op in ops} == {"nvm"}
    tried, _, _ = check_cuts(played, "solo", writable=False, every=4)
    COUNTS["drive read-only: solo"] = tried


# ------------------------------------------------------------------ damaged images


def _image_range(qspi):
    d = Board(b"\xff" * NVM_SIZE, qspi).drive
    _, e, _ = d.walk("/lnrsave/data/copy.bin")
    start = (DATA0 + e[3] - 2 + 7) * SECTOR
    return start, start + NVM_SIZE


def test_garbage_and_bit_flips_in_one_copy_load_the_other(played):
    nvm, qspi = played
    want, _ = boot(nvm, qspi)
    a, b = _image_range(qspi)
    rng = random.Random(7)
    tried = 0
    for i in range(300):
        bad = bytearray(nvm)
        if i % 3 == 0:
            bad[:] = bytes(rng.randrange(256) for _ in range(NVM_SIZE))
        else:
            for _ in range(1 + i % 5):
                bad[rng.randrange(NVM_SIZE)] ^= 1 << rng.randrange(8)
        got, notice = boot(bytes(bad), qspi)
        assert got == want and notice is not None
        badq = bytearray(qspi)
        if i % 3 == 0:
            badq[a:b] = bytes(rng.randrange(256) for _ in range(NVM_SIZE))
        else:
            for _ in range(1 + i % 5):
                badq[rng.randrange(a, b)] ^= 1 << rng.randrange(8)
        got, notice = boot(nvm, bytes(badq))
        assert got == want and notice is not None
        tried += 2
    for bit in range(0, NVM_SIZE * 8, 61):  # single bit flips spread over the whole image
        bad = bytearray(nvm)
        bad[bit // 8] ^= 1 << (bit % 8)
        got, notice = boot(bytes(bad), qspi)
        assert got == want and notice is not None
        tried += 1
    COUNTS["damaged images, one copy"] = tried


def test_garbage_in_both_copies_starts_with_defaults_and_a_notice(played):
    nvm, qspi = played
    defaults, _ = boot(b"\xff" * NVM_SIZE, format_volume(BLOCKS, game_files(0)))
    a, b = _image_range(qspi)
    rng = random.Random(8)
    tried = 0
    for i in range(200):
        bad = bytearray(nvm)
        badq = bytearray(qspi)
        if i % 2:
            bad[:] = bytes(rng.randrange(256) for _ in range(NVM_SIZE))
            badq[a:b] = bytes(rng.randrange(256) for _ in range(NVM_SIZE))
        else:
            bad[rng.randrange(NVM_SIZE)] ^= 1 << rng.randrange(8)
            badq[rng.randrange(a, b)] ^= 1 << rng.randrange(8)
        got, notice = boot(bytes(bad), bytes(badq))
        assert got == defaults and "damaged" in notice
        tried += 1
    # The drive's structures damaged instead (its directory sector): the NVM still holds all.
    d = Board(nvm, qspi).drive
    _, e, _ = d.walk("/lnrsave/data")
    badq = bytearray(qspi)
    at = (DATA0 + e[3] - 2) * SECTOR
    badq[at:at + SECTOR] = b"\xff" * SECTOR
    got, notice = boot(nvm, bytes(badq))
    assert got == boot(nvm, qspi)[0] and notice is not None
    tried += 1
    COUNTS["damaged images, both copies"] = tried
