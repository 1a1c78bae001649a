"""A game being played on the device: the engine State, its dice generator, the seed and who
plays each seat, and the save blob made of them (engine/codec.py).

Chance (the deal and the dice) draws from Rng(seed, 0) as engine/selfplay.py does, so a seed
and the player's choices replay a game; built-in opponents draw from stream 1. The State logs
every decision (engine/gamelog.py: a few dozen bytes a game) for the history of games.

The engine is imported only when a game is made or played, never at this module's load: the
menus, which use this module's names, run without the engine in RAM (docs/memory.md; lnr/app.py
drops it when no game is on). engine.bots is imported only for a moment: a bot's plan of
its turn and the hint, each in a switch with the play screen's code dropped
(lnr/play/plan.py). A game is dealt (new_game) and a save's bytes are made and read by
lnr/games.py, which is in RAM for those switches only.
"""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The engine's modes (engine/state.py MODE_*, which host_tests/test_app_structure.py holds these
# to): the menus name them without loading the engine.
MODE_SOLO = const(0)
MODE_CHALLENGE = const(1)
MODE_RIVAL = const(2)
MODE_TABLE = const(3)

ROLE_HUMAN = const(0)
ROLE_RIVAL = const(1)
ROLE_BOT = const(2)  # + index in BOT_NAMES
# Opponent kinds a table seat can take, strongest last; the index is what a save stores, so
# only append. Each is a name of engine.bots.BOTS (host_tests/test_app_structure.py checks it,
# so the table screen offers them without loading engine.bots); one the engine lacks would
# play as "random".
BOT_NAMES = ("random", "greedy", "best")
MODE_TITLES = ("Solo", "Challenge", "Rival", "Table")
SEED_MASK = const(0xFFFFFF)  # seeds stay small ints on the device (3 bytes)


def bots():
    """Returns engine.bots.BOTS (name -> function(state, rng) -> action), importing it."""
    try:
        from engine.bots import BOTS
    except ImportError:  # pragma: no cover - the engine always has them; keep the app alive
        return {}
    return BOTS


class Game:
    """`state` (engine State), `rng` (its dice), `seed`, `roles` (a bytearray: ROLE_* per
    seat)."""

    def __init__(self, state, rng, seed, roles):
        from engine.rng import Rng

        self.state = state
        self.rng = rng
        self.seed = seed
        self.roles = roles
        self.bot_rng = Rng(seed, 1)
        # The player's own derailments (state.derails counts every seat's; against the rival
        # the game over shows the player's): counted by lnr/play/screen.py, kept in a save.
        self.derails = 0
        # The bot on turn's actions for the rest of its turn, worked out in a switch
        # (lnr/play/plan.py plan_turn) and played one by one by lnr/play/screen.py; b"" when none.
        self.planned = b""
        # The play screen's place in the game, here where a switch that drops the screen's
        # code (a bot's plan, the hint, a save the NVM refused: lnr/memory) cannot lose it;
        # lnr/play/screen.py keeps them.
        self.sel = 0  # the hand cursor: index into the slots (cards, then a button)
        self.hoff = 0  # the first slot shown
        self.bend = 0  # the bend offered for the curve waiting for one (an engine A_BEND_*)
        self.title = ""  # what the last turn did: the run's toast, the result panel's title
        self.actor = 0  # the seat whose action is shown
        self.seen_turn = -1  # the turn whose start the screen has shown
        # At a hot seat, the last turns' results (title, chaos cards, pairs, derailed, broken
        # cards, penalty cards taken), a turn each since the next person's last: their handoff
        # tells them (lnr/play/handoff.py).
        self.past = []
        # The State at the start of the player's turn (B undoes a build; save & quit stores
        # it), copied as the turn's first action changes it: None until then, when the turn's
        # start is the game's State itself (a copy held from the turn's start was 0.9 KB more
        # in RAM beside the action menu, the hint's switch and the handoff).
        self.undo = None
        # The player's actions since then, and how many of them came before the curve that
        # waits for its bend (-1: none): B cancels the bend by playing those again on a copy
        # of `undo`, which gives the State as it was (State.apply is deterministic, and a turn
        # lays and bends before any die). A second State kept for it would be 0.9 KB more in
        # RAM through the rest of the turn (docs/memory.md).
        self.built = bytearray()
        self.before = -1

    def human(self, seat):
        """Returns True if a person plays `seat`."""
        return self.roles[seat] == ROLE_HUMAN

    def humans(self):
        """Returns the number of seats people play."""
        n = 0
        for r in self.roles:
            if r == ROLE_HUMAN:
                n += 1
        return n

    def first_human(self):
        """Returns the lowest seat a person plays, or -1."""
        for i in range(len(self.roles)):
            if self.roles[i] == ROLE_HUMAN:
                return i
        return -1

    def name(self, seat):
        """Returns a short name for `seat`: YOU, RIVAL, P2, ..."""
        role = self.roles[seat]
        if role == ROLE_RIVAL:
            return "RIVAL"
        if self.state.mode != MODE_TABLE:
            return "YOU"
        return "P%d" % (seat + 1)

    def bot(self, seat):
        """Returns the function playing an opponent seat (engine.bots)."""
        i = self.roles[seat] - ROLE_BOT
        name = BOT_NAMES[i] if 0 <= i < len(BOT_NAMES) else "random"
        have = bots()
        return have.get(name) or have["random"]

