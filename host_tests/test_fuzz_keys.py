"""Key fuzzing: more than 20 000 random key presses through the headless simulator running the
real app (lnr.main), over every mode: solo, challenge, rival, table with bots and table with
people passing the board (hot seat), plus free runs that start from the title with the NVM
the earlier runs left (records, saved games). After every frame the engine's invariants must
hold for the game on screen (docs/style.md, Tests): all 55 cards accounted for exactly once across
deck, track, hands, piles, box and penalty cards (docs/rules.md §1), and legal actions until the
game is over (§4: pass is always allowed). The app must never crash (its error screen counts
as a crash here) and never write the NVM after an error (iface §5).

Presses are counted when the app reads them: a new random key is pressed only once the app
has read the last (while dice roll or an opponent plays, keys wait, as on the board), so no
press is lost to a full queue. Runs use tools/sim/fast.py (the same pixels, less CPU) and
render every RENDER_EVERY-th refresh, every run's last screen too: what the fuzz looks for is a
crash and a broken invariant, which the app's display objects show at every frame (their
stand-ins as strict as the firmware); Blinka's drawing of every screen of whole sessions is
test_app_memory's (a render is most of a frame's time here: every 50th took half the run).
"""
import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from lnr.keys import K_A, K_B, K_DOWN, K_LEFT, K_RIGHT, K_SELECT, K_START, K_UP  # noqa: E402
from helpers import assert_accounted  # noqa: E402

PRESSES = 20000
RENDER_EVERY = 250
# A lot of A (it moves the game on), the D-pad often, the keys that go back or open menus
# less: enough to play whole games, and to wander through every screen.
WEIGHTS = ((K_A, 30), (K_LEFT, 14), (K_RIGHT, 14), (K_UP, 9), (K_DOWN, 9), (K_B, 9),
           (K_START, 8), (K_SELECT, 7))
KEYS = [k for k, w in WEIGHTS for _ in range(w)]

# Title: New game; modes: Solo, Challenge, Rival, Table (app.py). Table: Seats 3, P2, P3,
# Start; LEFT/RIGHT change the line's value (seats 2-4; a seat cycles person / bots).
TO_MODES = [K_A]
SOLO = TO_MODES + [K_A]
CHALLENGE = TO_MODES + [K_DOWN, K_A]
RIVAL = TO_MODES + [K_DOWN, K_DOWN, K_A]
TABLE = TO_MODES + [K_DOWN, K_DOWN, K_DOWN, K_A]
TABLE_BOTS = TABLE + [K_DOWN, K_DOWN, K_DOWN, K_A]  # 3 seats: you and 2 bots
TABLE_HOT_SEAT = TABLE + [K_LEFT, K_DOWN, K_RIGHT, K_DOWN, K_A]  # 2 seats: P2 a person
TABLE_FOUR = TABLE + [K_RIGHT, K_DOWN, K_RIGHT, K_DOWN, K_LEFT, K_DOWN, K_DOWN, K_A]

# (name, navigation from the title, share of the presses, carry the NVM over)
RUNS = (
    ("solo", SOLO, 2600, False),
    ("challenge", CHALLENGE, 2400, False),
    ("rival", RIVAL, 2400, False),
    ("table, bots", TABLE_BOTS, 2400, False),
    ("table, hot seat", TABLE_HOT_SEAT, 2400, False),
    ("table, 4 seats", TABLE_FOUR, 2400, False),
    ("free 1", [], 1400, True),
    ("free 2", [], 1400, True),
    ("free 3", [], 1300, True),
    ("free 4", [], 1300, True),
)


def presses(prefix, n, rnd):
    """The live script: the navigation, then n random keys."""
    for k in prefix:
        yield k
    for _ in range(n):
        yield rnd.choice(KEYS)


class Checker:
    """The per-frame invariant check (tools.sim.simulator on_frame hook)."""

    def __init__(self):
        self.seen = set()  # (mode, seats, people) of the games played
        self.frames_in_game = 0
        self.finished = 0  # games played to their end (the records count them)
        self._played = None  # (at the run's first frame, now)

    def begin(self):
        self._played = None

    def end(self):
        if self._played is not None:
            self.finished += self._played[1] - self._played[0]

    def __call__(self, hw):
        # The app object is the `app` of lnr.main's frame loop, the function that waits.
        app = hw.caller.f_locals.get("app") if hw.caller is not None else None
        if app is None:
            return
        played = sum(app.store.played)
        self._played = (played if self._played is None else self._played[0], played)
        game = app.game
        if game is None:
            return
        s = game.state
        self.frames_in_game += 1
        assert_accounted(s, "turn %d, phase %d" % (s.turn, s.phase))
        if not s.is_terminal():
            assert s.legal_actions(), "no legal action before the end (turn %d, phase %d)" % (
                s.turn, s.phase)
        self.seen.add((s.mode, s.players, game.humans()))


def test_twenty_thousand_random_presses_keep_the_app_and_the_engine_sound(tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    check = Checker()
    delivered = 0
    frames = 0
    writes = 0
    for i, (name, prefix, n, carry) in enumerate(RUNS):
        rnd = random.Random(1000 + i)
        path = nvm if carry else str(tmp_path / ("fresh%d.bin" % i))
        check.begin()
        with sim_fast.fast():
            r = sim.run_headless(presses(prefix, n, rnd), seed=500 + i, nvm_path=path,
                                 settle=5, render_every=RENDER_EVERY, on_frame=check)
        assert r.ok, "run %r (seed %d, random.Random(%d)) crashed:\n%s" % (
            name, 500 + i, 1000 + i, r.error)
        assert r.nvm_writes_after_error == 0
        check.end()
        delivered += r.hw.delivered
        frames += r.frames
        writes += r.nvm_writes
    print("fuzz: %d presses read, %d frames, %d in a game, %d games finished, configs %s" % (
        delivered, frames, check.frames_in_game, check.finished, sorted(check.seen)))
    assert delivered >= PRESSES
    assert check.frames_in_game, "never found the game: lnr.main's loop keeps it in `app.game`"
    modes = {m for m, _, _ in check.seen}
    assert modes == {0, 1, 2, 3}, "modes played: %s" % sorted(check.seen)
    table = {(seats, people) for m, seats, people in check.seen if m == 3}
    assert any(people == 1 for _, people in table), "no table game with bots: %s" % table
    assert any(people >= 2 for _, people in table), "no hot-seat table game: %s" % table
    assert any(seats == 4 for seats, _ in table), "no 4-seat table game: %s" % table
    assert check.finished > 0  # random keys do play games to their end
    assert writes > 0


# Hot-seat tables (issue 35): people with bots between them, from the table screen's Seats row
# (3 seats, the best bot in every other; LEFT/RIGHT change a line's value, a seat from a bot to
# a person with RIGHT past the last bot).
HOT_SEATS = (
    TABLE + [K_DOWN, K_RIGHT, K_DOWN, K_DOWN, K_A],  # P1, P2 people, P3 a bot
    TABLE + [K_RIGHT, K_DOWN, K_DOWN, K_RIGHT, K_DOWN, K_DOWN, K_A],  # P1, P3 people
    TABLE_HOT_SEAT,  # P1, P2 people alone
    TABLE + [K_RIGHT, K_DOWN, K_RIGHT, K_DOWN, K_RIGHT, K_DOWN, K_RIGHT, K_DOWN, K_A],  # 4
)
HOT_SEAT_PRESSES = 10000


def test_ten_thousand_random_presses_at_hot_seat_tables_keep_every_hand_secret(tmp_path):
    # 10 000 random presses read while a hot-seat game is up: the app never crashes, the
    # engine's invariants hold at every frame, and nothing private of one person shows while
    # another may hold the device (host_tests/hotseat.py Secrets, docs/rules.md §3.5).
    from hotseat import Secrets

    read = handoffs = shown = 0
    i = 0
    while read < HOT_SEAT_PRESSES:
        assert i < 40, "random presses left the hot-seat tables: %d read there" % read
        rnd = random.Random(3000 + i)
        pressed = []

        def live(prefix=HOT_SEATS[i % len(HOT_SEATS)], rnd=rnd, pressed=pressed):
            for k in presses(prefix, 1500, rnd):
                pressed.append(k)
                yield k

        check = Checker()
        secrets = Secrets(pressed)

        def on_frame(hw, check=check, secrets=secrets):
            check(hw)
            secrets(hw)

        with sim_fast.fast():
            r = sim.run_headless(live(), seed=700 + i, nvm_path=str(tmp_path / ("h%d" % i)),
                                 settle=5, render_every=RENDER_EVERY, on_frame=on_frame)
        assert r.ok, "hot-seat run %d (seed %d, random.Random(%d)) crashed:\n%s" % (
            i, 700 + i, 3000 + i, r.error)
        assert r.nvm_writes_after_error == 0
        read += secrets.presses
        handoffs += secrets.handoffs
        shown += secrets.shown
        i += 1
    print("hot-seat fuzz: %d presses read in hot-seat games over %d runs, %d handoffs taken "
          "up, %d frames with a person's cards" % (read, i, handoffs, shown))
    assert handoffs > 100 and shown > 1000
