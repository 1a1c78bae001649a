"""The session the app plays on the VMs as a player would, from power-up (session_keys()):
make cpcheck's on CircuitPython's VM (tools/vm/cpapp.py), make pystack's on MicroPython's
(tools/vm/pystack.py)."""

SEED = 11  # the session's first game; the app counts up from it
LATE_TURN = 8  # the session's games ask for a hint and save after this many of your turns

# The phases tools/vm/cp_app_session.py's label() tells apart, in its order.
LABELS = ("title and menus", "solo", "challenge", "rival", "table with bots", "hint shown")
# What the modules loaded for a moment are loaded for (the modules table says it).
MOMENTARY = {
    "lnr.powerup": "start-up",
    "lnr.make": "start-up",
    "lnr.saves": "each read or write of the saves",
    "lnr.copies": "each read or write of the saves",
    "lnr.image": "each read or write of the saves",
    "engine.codec": "save & quit, Continue",
    "engine.crc": "save & quit, Continue; the old layout's saves read",
    "lnr.memory.switch": "each switch",
    "lnr.memory.report": "the board's line on the serial console: start-up, each game's end",
    "lnr.games": "each switch into or out of a game but its end",
    "lnr.over": "a game's end: counted, its result",
    "lnr.play.plan": "a bot's plan, the hint",
    "lnr.play.hint": "a hint",
    "engine.lookahead": "the hint's look-ahead",
    "engine.advice": "the hint's words",
    "lnr.menus.howto": "a page of how to play",
    "engine.bots": "a hint in a game without bots",
    "lnr.lastgames": "the Records screen's history read",
    "engine.order": "the penalty cards' orders offered, a chaos discard's order",
    "lnr.play.actions": "the play screen's action menu, while it is up",
    "lnr.play.refusal": "why a card cannot be picked: its toast, the action menu's Build line",
    "lnr.play.penalty": "the penalty order panel, while it is up",
    "lnr.play.look": "looking around the track (SELECT), while it lasts",
    "lnr.play.result": "an action's result panel written, the seats board",
    "lnr.play.run": "the dice and the loco's run, while they are shown",
    "lnr.play.handoff": "a hot seat's handoff panel written",
}


# A frame of the session may hold, instead of a key, PASSING + n: the player takes their next n
# turns (0: every turn to the game's end) on the screen as it is, passing at each, the keys
# chosen by the harness that runs the session (tools/vm/cp_app_session.py Player). The table
# game's keys are chosen so on CircuitPython's VM: under a small cap the app turns its bots down
# for memory (lnr/play/plan.py), they play other moves than any model of them made beforehand,
# and keys made for the model would no longer fit the game. (PASSING + n + 1 is a byte of the
# harness's frames file: n < 55.)
PASSING = 200


def session_keys(seed=SEED, passing=False):
    """Returns the session's frames (a key number or -1 per frame, or PASSING + n) and what it
    plays, in words: games of every mode made by playing the engine (tools/sim/app_script.py);
    `passing`: the player's turns at the table game taken by the harness instead (PASSING)."""
    from tools.sim.app_script import Model, SETTLE
    from tools.sim.simulator import key_script
    from engine.rng import Rng
    from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE

    # A hint (START, Hint; B closes its panel, or the menu where the app has turned the hint
    # down for memory and greyed it), then save & quit and Continue: the game goes on from the
    # turn's start with the cursor on the first card, as the model's keys expect.
    hint_save = ["START", "DOWN", "DOWN", "DOWN", "A", "WAIT*5", "B",
                 "START", "UP", "A", "WAIT*5", "A"]
    frames = []

    def press(keys):
        frames.extend(-1 if k is None else k for k in key_script(keys))

    said = []
    last = MODE_SOLO
    for i, mode in enumerate((MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE)):
        m = Model(mode, seed + i)
        nav = len(m.keys)
        # The mode select's cursor starts on the last mode played (app.py), not on Solo.
        assert m.keys == ["A"] + ["DOWN"] * mode + ["A"] + m.keys[2 + mode:nav]
        press(["A"] + ["DOWN"] * ((mode - last) % 4) + ["A"] + m.keys[2 + mode:])
        last = mode
        said.append("%s (seed %d)" % (("solo", "challenge", "rival", "table, you and 2 bots")[i],
                                       seed + i))
        if passing and mode == MODE_TABLE:
            frames.append(PASSING + LATE_TURN)
            press(hint_save)
            frames.append(PASSING)
            press([SETTLE, "A"])
            said[-1] += ", you passing at every turn"
            continue
        if mode == MODE_SOLO:
            press(hint_save)  # at the first turn: a short save
            m.game.bot_rng = Rng(m.game.seed, 1)
        m.play_simple(LATE_TURN)
        press(m.keys[nav:])
        if not m.state.is_terminal():
            press(hint_save)  # late in the game: the biggest State and save
            # Continue makes the bots' generator afresh (lnr.game.Game): so does the model.
            m.game.bot_rng = Rng(m.game.seed, 1)
        n = len(m.keys)
        m.play_simple()
        press(m.keys[n:] + [SETTLE, "A"])
    said[0] += " with a hint and save & quit, Continue at the first turn"
    said.append("in every game a hint, save & quit and Continue at the player's %dth turn"
                % (LATE_TURN + 1))
    # Records, settings (one change), how to play (two pages), the table screen (the mode
    # select's cursor is on Table, the last mode).
    press(["DOWN", "A", "A", "DOWN", "DOWN", "A", "RIGHT", "B", "DOWN", "DOWN", "DOWN", "A",
           "RIGHT", "RIGHT", "B", "A", "A", "RIGHT", "B", "B", SETTLE])
    said.append("records, settings, how to play, mode select and table seats")
    return frames, said


# Random sessions (random_keys()): presses weighted as a player's (A moves the game on, the D-pad
# often, the keys that go back or open menus less), each after 0 to 3 frames, from the title
# into each start in turn: a mode, a table of bots, a hot seat, or the title's own menus.
WANDER_WEIGHTS = (("A", 30), ("LEFT", 14), ("RIGHT", 14), ("UP", 9), ("DOWN", 9), ("B", 9),
                  ("START", 8), ("SELECT", 7))
WANDER_STARTS = (["A", "A"], ["A", "DOWN", "A"], ["A", "DOWN", "DOWN", "A"],
                 ["A", "DOWN", "DOWN", "DOWN", "A", "DOWN", "DOWN", "DOWN", "A"],
                 ["A", "DOWN", "DOWN", "DOWN", "A", "LEFT", "DOWN", "RIGHT", "DOWN", "A"], [])


def random_keys(seed, presses):
    """Returns the frames (as session_keys()'s) of a random session from power-up: start
    WANDER_STARTS[seed % 6], then `presses` random keys (random.Random(seed)). Keys that make no
    sense where they land are what a player's fingers do too; the app must take every one."""
    import random

    from tools.sim.simulator import key_script

    rng = random.Random(seed)
    names = [name for name, weight in WANDER_WEIGHTS for _ in range(weight)]
    keys = []
    for name in WANDER_STARTS[seed % len(WANDER_STARTS)]:
        keys += [name, "WAIT*2"]
    for _ in range(presses):
        keys.append(rng.choice(names))
        wait = rng.randrange(4)
        if wait:
            keys.append("WAIT*%d" % wait)
    keys.append("WAIT*60")
    return [-1 if k is None else k for k in key_script(keys)]
