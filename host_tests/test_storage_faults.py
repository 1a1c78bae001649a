"""lib/lnr/storage.py under the real fault model (docs/storage.md): the NVM erased whole and
programmed page by page, the drive's file written through FatFs and CircuitPython's 4 KB flash
cache (host_tests/flashmodel.py), the power going at every operation of every kind of commit
and inside every page, and random garbage and bit flips in each copy and in both.

The rule checked after every cut: the app starts without an exception, with the records,
settings, saved game and history of the last commit or of the one before it, never anything
else; and if it is the one before and that one's saved game is not the last one's, the title
says that the last save was lost.
"""
import functools
import random
from contextlib import contextmanager

import pytest

from flashmodel import (
    Drive, NvmFlash, Power, Qspi, VolumeLost, cut_points, format_volume, states_at_cuts,
    variants,
    ERASE, SECTOR, DATA0, NVM_SIZE,
)
from engine.bots import BOTS
from engine.gamelog import GameLog
from engine.playout import play_out, seeded
from lnr import copies
from lnr.storage import Storage

# Not one xdist group: what the tests share (the bots' games, the history) is made in 0.1 CPU-s,
# and their 30 CPU-s of cuts on one worker were the suite's longest serial run. Each worker
# makes its own; pytest -s on this module alone prints the whole table of counts.
BLOCKS = 420  # a 210 KB FAT12 volume: the game's files, the save files, a little room
# What `make flash` leaves on the drive before the save file (sizes in bytes, about the game's):
# our files land across cluster 341, whose FAT12 entry straddles two FAT sectors.
GAME_FILES = (("/boot.py", 1600), ("/code.py", 500), ("/lib/lnr/app.mpy", 5000),
              ("/lib/lnr/screens.mpy", 72000), ("/lib/engine/state.mpy", 9000),
              ("/lib/engine/bots.mpy", 66000))
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


@functools.lru_cache(maxsize=None)
def _game_bytes():
    # 154 KB made a byte at a time: once, not at each of the module's 44 volumes (1 CPU-s).
    return tuple((p, bytes((i * 7 + len(p)) % 251 + 1 for i in range(n))) for p, n in GAME_FILES)


def game_files(shift):
    """The game's files, and a file of `shift` sectors in front so that our folder starts at
    every offset inside a 4 KB erase sector."""
    files = list(_game_bytes())
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
        saved = copies.__dict__.get("open"), copies.__dict__.get("os")
        if self.drive is None:
            def nothing(*a, **k):
                raise OSError(19, "no drive")
            copies.open = nothing
            if saved[1] is not None:  # a lnr.copies that makes files (before issue 25)
                copies.os = _NoOs()
        else:
            copies.open = self.drive.open
            if saved[1] is not None:
                copies.os = self.drive.os
        try:
            yield Storage(self.nvm, "/", self.writable)
        finally:
            if saved[0] is None:
                del copies.open
            else:
                copies.open = saved[0]
            if saved[1] is not None:
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


@functools.lru_cache(maxsize=None)  # the same game for every recording of a commit
def logged(mode, seed, players=None):
    """A finished game played by bots: (score, won, seed, seats, log) for finish_game."""
    s, chance, bot = seeded(mode, seed, players)
    s.log = GameLog()
    play_out(s, chance, BOTS["greedy"], bot)
    me = 1 if mode == 2 else 0
    return s.score(me), me in s.winners(), seed, s.players, s.log


@functools.lru_cache(maxsize=None)
def a_save(seed=5, turns=6):
    """lnr.games' bytes of a table game with bots, saved at a turn's start."""
    from lnr.game import ROLE_BOT
    from lnr.games import new_game
    from lnr.games import pack

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


def others(qspi):
    """(address, length) of the drive's flash that no commit may write: the boot sector, the
    FAT and the root folder, and every file and folder but the saves' own."""
    d = Board(b"\xff" * NVM_SIZE, qspi).drive
    out = [(0, DATA0 * SECTOR)]
    for path in ("/lib", "/lib/lnr", "/lib/engine"):
        _, e, _ = d.walk(path)
        out.append(((DATA0 + e[3] - 2) * SECTOR, SECTOR))
    for path, data in game_files(7):
        _, e, _ = d.walk(path)
        if e is not None:
            for c in d.chain(e[3]):
                out.append(((DATA0 + c - 2) * SECTOR, SECTOR))
    return out


@pytest.mark.parametrize("shift", range(8))
def test_in_place_commits_never_touch_another_files_flash(played, shift):
    # The save files at every offset inside a 4 KB erase sector: the sectors CircuitPython
    # erases to rewrite an image and a copy's directory entry hold nothing but the saves' own
    # files, from the first commit on a new board (issue 25, finding 4: the game made its
    # folders and file then, rewriting the boot sector's neighbours, the FAT and the root folder).
    pre = (b"\xff" * NVM_SIZE, format_volume(BLOCKS, game_files(shift)))
    tried, last, older = check_cuts(pre, "solo", inside=False, protected=others(pre[1]))
    COUNTS["first commit, folder at offset %d of its erase sector" % shift] = tried
    ops, post = record(pre, "solo")
    tried, last, older = check_cuts(post, "save", inside=False, protected=others(pre[1]))
    COUNTS["second commit, folder at offset %d of its erase sector" % shift] = tried
    assert last > 0 and older > 0
    for path, data in game_files(shift):  # and the game's files read as they were
        assert Board(*post).drive.file_bytes(path) == data


@pytest.mark.parametrize("after_block", range(0, 18))
def test_a_background_flush_between_any_two_sector_writes(played, after_block):
    # filesystem_background() flushes the cache once a second, between any two block writes.
    tried, last, older = check_cuts(played, "table", flush_after=(after_block,), inside=False)
    COUNTS["background flush after block %d" % after_block] = tried
    assert last > 0 and older > 0


def test_every_cut_of_the_first_commit_on_a_new_board_keeps_the_volume(played):
    # Issue 25, finding 4: no cut point of a new board's first commit (inside every page too)
    # costs the volume or a file of the game's; the saves follow the rule.
    for fresh_nvm in (True, False):
        pre = (b"\xff" * NVM_SIZE if fresh_nvm else played[0],
               format_volume(BLOCKS, game_files(3)))
        tried, last, older = check_cuts(pre, "solo", every=2, protected=others(pre[1]))
        COUNTS["first commit on a new board (%s NVM)" % ("blank" if fresh_nvm else "valid")] = \
            tried
        assert tried > 500 and last > 0


def test_drive_read_only_saves_to_the_nvm_alone_and_says_so(played):
    # SELECT held at power-up: boot.py leaves CIRCUITPY to the computer; the NVM alone holds
    # the saves (a cut after its erase can lose them: "less safe") and the title says so.
    _, notice = boot(*played, writable=False)
    assert "less safe" in notice
    ops, post = record(played, "solo", writable=False)
    assert {op[0] for op in ops} == {"nvm"}
    tried, _, _ = check_cuts(played, "solo", writable=False, every=4)
    COUNTS["drive read-only: solo"] = tried


def full_drive():
    """The game's files, then a file that takes every cluster left: no room for the saves."""
    q = format_volume(BLOCKS, game_files(0), saves=False)
    d = Board(b"\xff" * NVM_SIZE, q).drive
    free = sum(1 for c in range(2, d.n_clusters()) if d.get_fat(c) == 0)
    return format_volume(BLOCKS, game_files(0) + [("/photos.bin", b"\x42" * (free * SECTOR))],
                         saves=False)


ONE_COPY_DRIVES = {
    "read-only": lambda: (format_volume(BLOCKS, game_files(0)), False),
    "without the save files (drag and drop)":
        lambda: (format_volume(BLOCKS, game_files(0), saves=False), True),
    "full": lambda: (full_drive(), True),
    "with a file named lnrsave": lambda: (
        format_volume(BLOCKS, game_files(0) + [("/lnrsave", b"mine")], saves=False), True),
}


@pytest.mark.parametrize("drive", sorted(ONE_COPY_DRIVES))
def test_a_drive_the_board_cannot_write_says_less_safe_at_every_start_and_nothing_else(drive):
    # Issue 25, finding 5: such a board said "A copy was damaged: the last save may be lost" at
    # every start although the NVM held the newest commit. Now: the one-copy notice, true at
    # every start, the data of the last commit, and the drive never written.
    qspi, writable = ONE_COPY_DRIVES[drive]()
    state = (b"\xff" * NVM_SIZE, qspi)
    got, notice = boot(*state, writable=writable)
    for action in ("solo", "save", "settings", "rival"):
        ops, state = record(state, action, writable=writable)
        assert {op[0] for op in ops} == {"nvm"}, "the board wrote the drive"
        assert state[1] == qspi
        want, _ = boot(*state, writable=True)  # what the NVM holds, read normally
        got, notice = boot(*state, writable=writable)
        assert got == want
        assert notice in (copies.NOTICE_LESS_SAFE, copies.NOTICE_NO_FILE), notice
    COUNTS["one copy only: starts (%s)" % drive] = 4


def test_a_copy_that_reads_bad_at_commit_time_never_costs_the_history(played):
    # Issue 25, finding 3: the copy holding the newest commit reads bad when the next commit
    # starts (damaged since the start: here the NVM, after a commit with the drive read-only
    # left the file one commit older); the commit took an empty history and wrote it over the
    # file's intact one. Now the newest intact copy gives the history.
    _, state = record(played, "save", writable=False)  # the NVM one commit ahead of the file
    b = Board(*state)
    older = Board(b"\xff" * NVM_SIZE, state[1])  # the file alone
    with older.running() as st:
        st.load()
        kept = st.history()
    assert len(kept) == 6
    with b.running() as st:
        st.load()
        b.nvm.data[100] ^= 0x10  # the NVM reads bad from now on
        st.finish_game(0, *logged(0, 9))
        games = st.history()
    assert games[:-1] == kept and len(games) == 7
    got, notice = boot(*b.bytes())
    assert list(got[7]) == games and notice is None


def test_every_write_reads_back_before_the_other_copy_is_touched(played):
    # The invariant's order, on the recording of a commit: no NVM operation before the file's
    # last one when the NVM holds the newest commit alone, and the other way round.
    for pre in (played, (tear_nvm(played[0]), played[1])):
        ops, _ = record(pre, "solo")
        kinds = [op[0] for op in ops]
        first = kinds[0]
        assert kinds == [first] * kinds.count(first) + [k for k in kinds if k != first]
        assert first == ("qspi" if pre is played else "nvm")


# ------------------------------------------------------------------ sequences of cuts


def rule(prev, after, got, notice, where, stats, begun=True):
    """The rule a player cares about, after a cut in a commit: the data are what the player saw
    at the last start (`prev`: every commit reported saved is in it) or the interrupted
    commit's (`after`); a lost save-and-quit is announced. Only a board that said at that start
    that it keeps one copy ("less safe") may lose more, and then the title says so again."""
    seen, seen_notice = prev
    if got == seen or got == after:
        if got == seen and seen[6] != after[6] and begun:  # begun: the write had started
            assert notice is not None, where + ": the last save lost silently"
        return
    assert "less safe" in (seen_notice or ""), where + ": a commit reported saved was lost"
    assert notice is not None, where + ": lost without a word"
    stats["lost, one copy, announced"] = stats.get("lost, one copy, announced", 0) + 1


def cut_sequence(state, prev, actions, picks, stats, where=""):
    """Cuts the power in the commit of actions[0] at every point picks[0] gives, boots, checks
    the rule, and goes on from there with the next commit and pick (recursively)."""
    ops, post = record(state, actions[0])
    if not ops:
        return
    after, _ = boot(*post)
    for k, v, n, q in states_at_cuts(state[0], state[1], ops, picks[0](ops)):
        got, notice = boot(n, q)
        here = "%s %s cut at op %d %s;" % (where, actions[0], k, v[0])
        stats["cuts"] += 1
        rule(prev, after, got, notice, here, stats, k >= 0)
        if len(actions) > 1:
            cut_sequence((n, q), (got, notice), actions[1:], picks[1:], stats, here)


def every_boundary(ops):
    return cut_points(ops, None, inside=False)


def boundaries_sampled(seed, n):
    """Every erase (a directory sector's among them) and n other operation boundaries."""
    def pick(ops):
        rng = random.Random(seed + len(ops))
        ks = {k for k, op in enumerate(ops) if op[1] == "erase"}
        ks |= set(rng.sample(range(len(ops)), min(n, len(ops))))
        return [(-1, ("after",))] + [(k, ("after",)) for k in sorted(ks)]
    return pick


def one_inside_every_page(ops):
    """Every operation boundary, and one cut inside every operation (its kind drawn: a prefix
    of 16-byte units, random bytes, random bits of a page; an erase left half done)."""
    rng = random.Random(len(ops))
    out = [(-1, ("after",))]
    for k, op in enumerate(ops):
        size = len(op[3]) if op[3] is not None else 0
        out.append((k, rng.choice(variants(op[1], op[3], size, rng))))
        out.append((k, ("after",)))
    return out


def every_page_inside(ops):
    return cut_points(ops, random.Random(5), inside=True)


SEQUENCES = {
    # (the commits, how each one's cut points are picked): exhaustive over the operations of
    # two commits; inside every page then sampled; three commits sampled (every erase, a
    # directory sector's among them, and a few more operations each).
    "two cuts, every operation of both": (("solo", "save"), (every_boundary, every_boundary)),
    "two cuts, inside every page, then sampled": (
        ("save", "solo"), (one_inside_every_page, boundaries_sampled(1, 3))),
    "three cuts, sampled": (
        ("solo", "settings", "save"),
        (boundaries_sampled(4, 24), boundaries_sampled(2, 2), boundaries_sampled(3, 4))),
}


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_sequences_of_cuts_never_lose_a_commit_reported_saved(played, name):
    # Issue 25, finding 2: a cut destroyed copy.bin's directory entry, the next commit could
    # not make the file again and wrote the NVM, the only intact copy, alone: a second cut
    # there lost every save, often without a word. Now the spare copy takes over and every
    # commit writes the copy without the newest data first, read back, then the other.
    actions, picks = SEQUENCES[name]
    stats = {"cuts": 0}
    cut_sequence(played, boot(*played), actions, picks, stats)
    COUNTS["sequences: " + name] = stats["cuts"]
    COUNTS["  of which lost, one copy, announced: " + name] = stats.get(
        "lost, one copy, announced", 0)
    assert stats["cuts"] > 1000


def test_two_cuts_that_destroy_the_copys_folder_then_cut_the_next_commit(played):
    # Finding 2's own sequence: the first cut erases copy.bin's directory sector (the flush of
    # its erase sector at close()), then every cut point of the next commit, inside every page.
    ops, _ = record(played, "solo")
    d = Board(*played).drive
    _, e, _ = d.walk("/lnrsave/data")
    folder = (DATA0 + e[3] - 2) * SECTOR
    k = [i for i, op in enumerate(ops) if op[:2] == ("qspi", "erase")
         and op[2] <= folder < op[2] + ERASE]
    assert k, "the commit did not rewrite the folder's sector"
    for _, _, n, q in states_at_cuts(played[0], played[1], ops, [(k[0], ("after",))]):
        state = (n, q)
    got, notice = boot(*state)
    assert Board(*state).drive.file_bytes("/lnrsave/data/copy.bin") is None  # the entry is gone
    assert got == boot(*played)[0] and "may be lost" in notice  # the interrupted commit
    stats = {"cuts": 0}
    cut_sequence(state, (got, notice), ("save",), (every_page_inside,), stats)
    COUNTS["finding 2: folder sector erased, then every cut of the next commit"] = stats["cuts"]
    assert stats.get("lost, one copy, announced", 0) == 0
    # and the spare holds the commit after it
    _, post = record(state, "save")
    got, notice = boot(*post)
    assert got[6] == a_save() and notice is None


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


# ------------------------------------------------------------------ issue 36: the last edge cases


def folder_sector_cuts(qspi, path="/lnrsave/data"):
    """A pick for cut_sequence: every operation on the 4 KB erase sector holding the folder
    `path`'s directory sector (where copy.bin's entry is), cut after it and inside it (one kind
    drawn per operation): a cut there erases or tears the entry, and copy.bin is gone."""
    d = Board(b"\xff" * NVM_SIZE, qspi).drive
    _, e, _ = d.walk(path)
    folder = (DATA0 + e[3] - 2) * SECTOR
    base = folder - folder % ERASE

    def pick(ops):
        rng = random.Random(len(ops))
        out = []
        for k, op in enumerate(ops):
            if op[0] == "qspi" and base <= op[2] < base + ERASE:
                size = len(op[3]) if op[3] is not None else 0
                out.append((k, rng.choice(variants(op[1], op[3], size, rng))))
                out.append((k, ("after",)))
        return out
    return pick


def test_a_new_boards_save_and_quit_lost_with_its_copys_folder_is_announced():
    # Issue 36, the saves' case 1: on a new board the first commit is cut after it began, then
    # the save & quit is cut while CircuitPython erases or rewrites the sector holding
    # copy.bin's directory entry: copy.bin is gone, the spare and the NVM blank, and the next
    # start showed the defaults without a word. copy.bin missing beside its spare is a cut's
    # doing (make flash makes both; the board never deletes one): the title says so.
    pre = (b"\xff" * NVM_SIZE, format_volume(BLOCKS, game_files(3)))
    stats = {"cuts": 0}
    cut_sequence(pre, boot(*pre), ("solo", "save"),
                 (every_boundary, folder_sector_cuts(pre[1])), stats)
    COUNTS["new board: first commit cut, then save & quit cut in copy.bin's folder"] = \
        stats["cuts"]
    assert stats["cuts"] > 2000 and stats.get("lost, one copy, announced", 0) == 0


class FailingBoard(Board):
    """A board whose drive answers every write of the save files with an I/O error (FatFs's
    FR_DISK_ERR: worn flash, say): the copy there can't be written, at every commit."""

    @contextmanager
    def running(self):
        with super().running() as st:
            opened = copies.open

            def failing(path, mode="r"):
                if mode != "rb" and path.startswith("/lnrsave/"):
                    raise OSError(5, "EIO")
                return opened(path, mode)
            copies.open = failing
            yield st


def boot_failing(nvm, qspi):
    b = FailingBoard(nvm, qspi)
    with b.running() as st:
        st.load()
        return snapshot(st), st.notice


def test_a_copy_that_keeps_failing_to_write_is_told_at_every_start_until_one_is_written(played):
    # Issue 36, the saves' case 2: the drive's copy fails to write; the commit said so once
    # ("A copy could not be written"), the next start said nothing, and a cut in the next
    # commit, which writes the NVM alone, lost the game reported saved. Now every start says
    # it until a copy is written again; a loss after it is one the title warned of ("less safe").
    state = played
    for action in ("save", "solo", "settings"):
        b = FailingBoard(*state)
        with b.running() as st:
            st.load()
            ACTIONS[action](st)
            assert copies.NOTICE_ONE in (st.notice or ""), action
        state = b.bytes()
        seen = boot_failing(*state)
        assert "less safe" in (seen[1] or ""), action + ": the next start said nothing"
    # A cut anywhere in the next commit (the NVM written alone): any loss was warned of.
    b = FailingBoard(*state)
    with b.running() as st:
        st.load()
        ACTIONS["save"](st)
    ops, post = b.power.ops, b.bytes()
    assert {op[0] for op in ops} == {"nvm"}
    after = boot_failing(*post)[0]
    stats = {"cuts": 0}
    for k, v, n, q in states_at_cuts(state[0], state[1], ops, cut_points(ops, random.Random(3),
                                                                          every=4)):
        stats["cuts"] += 1
        got, notice = boot_failing(n, q)
        rule(seen, after, got, notice, "cut at op %d %s" % (k, v[0]), stats, k >= 0)
    COUNTS["a copy failing at every commit: cuts of the next"] = stats["cuts"]
    COUNTS["  of which lost, one copy, announced: a copy failing"] = stats.get(
        "lost, one copy, announced", 0)
    # The drive works again: the next commit writes both copies, and the starts say nothing.
    _, healed = record(state, "settings")
    assert boot(*healed)[1] is None


def newer_layout(played):
    """The board's two copies as a newer game's layout (3) would leave them: the same magic,
    the layout byte 3, a valid CRC-32."""
    from binascii import crc32

    nvm, qspi = played
    a, b = _image_range(qspi)

    def bump(image):
        image = bytearray(image)
        image[4] = 3
        image[8188:] = (crc32(image[:8188]) & 0xFFFFFFFF).to_bytes(4, "big")
        return bytes(image)

    return bump(nvm), qspi[:a] + bump(qspi[a:b]) + qspi[b:]


def test_saves_of_a_newer_layout_are_kept_and_never_overwritten(played):
    # Issue 36, the saves' case 3: a newer game's saves (layout 3) read as damaged ("reset to
    # defaults") and the next commit wrote over them: going back to an older game wiped the
    # newer one's saves. Now the title says they are a newer version's, and no commit writes.
    state = newer_layout(played)
    _, notice = boot(*state)
    assert "damaged" not in (notice or "") and copies.NOTICE_NEWER in (notice or "")
    for action in sorted(ACTIONS):
        ops, post = record(state, action)
        assert ops == [] and post == state, action + " wrote over a newer game's saves"
    b = Board(*state)
    with b.running() as st:
        st.load()
        ACTIONS["save"](st)
        assert copies.NOTICE_NEWER in st.notice
    # One copy of the newer layout is enough: the other (an older commit) is not written either.
    nvm, _ = newer_layout(played)
    ops, post = record((nvm, played[1]), "solo")
    assert ops == []
    COUNTS["saves of a newer layout: commits refused"] = len(ACTIONS) + 1
