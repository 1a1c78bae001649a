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
    "adafruit_display_text": "start-up: the font sheet drawn",
    "adafruit_display_text.bitmap_label": "start-up: the font sheet drawn",
    "lnr.saves": "each read or write of the saves",
    "lnr.copies": "each read or write of the saves",
    "lnr.image": "each read or write of the saves",
    "engine.codec": "save & quit, Continue",
    "engine.crc": "save & quit, Continue; the old layout's saves read",
    "lnr.memory.switch": "each switch",
    "lnr.memory.report": "the board's line on the serial console: start-up, each game's end",
    "lnr.games": "each switch into or out of a game",
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
    "lnr.play.handoff": "a hot seat's handoff panel written",
}


def session_keys(seed=SEED, simpler=None, basic=None):
    """Returns the session's frames (a key number or -1 per frame) and what it plays, in
    words: games of every mode made by playing the engine (tools/sim/app_script.py).
    `simpler`, `basic`: the table game's turns from which its bots play as the app's turned
    down for memory (Model.bot_action()), where a capped run found them turned down
    (tools/vm/cpapp.py)."""
    from tools.sim.app_script import Model, SETTLE
    from tools.sim.simulator import key_script
    from engine.rng import Rng
    from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE

    # A hint (START, Hint; B closes its panel, or the menu where the app has turned the hint
    # down for memory and greyed it), then save & quit and Continue: the game goes on from the
    # turn's start with the cursor on the first card, as the model's keys expect.
    hint_save = ["START", "DOWN", "DOWN", "DOWN", "A", "WAIT*5", "B",
                 "START", "UP", "A", "WAIT*5", "A"]
    keys = []
    said = []
    last = MODE_SOLO
    for i, mode in enumerate((MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE)):
        m = Model(mode, seed + i, simpler=simpler, basic=basic)  # the table's bots only
        nav = len(m.keys)
        # The mode select's cursor starts on the last mode played (app.py), not on Solo.
        assert m.keys == ["A"] + ["DOWN"] * mode + ["A"] + m.keys[2 + mode:nav]
        keys += ["A"] + ["DOWN"] * ((mode - last) % 4) + ["A"] + m.keys[2 + mode:]
        last = mode
        if mode == MODE_SOLO:
            keys += hint_save  # at the first turn: a short save
            m.game.bot_rng = Rng(m.game.seed, 1)
        m.play_simple(LATE_TURN)
        keys += m.keys[nav:]
        if not m.state.is_terminal():
            keys += hint_save  # late in the game: the biggest State and save
            # Continue makes the bots' generator afresh (lnr.game.Game): so does the model.
            m.game.bot_rng = Rng(m.game.seed, 1)
        n = len(m.keys)
        m.play_simple()
        keys += m.keys[n:] + [SETTLE, "A"]
        said.append("%s (seed %d)" % (("solo", "challenge", "rival", "table, you and 2 bots")[i],
                                       seed + i))
    said[0] += " with a hint and save & quit, Continue at the first turn"
    said.append("in every game a hint, save & quit and Continue at the player's %dth turn"
                % (LATE_TURN + 1))
    # Records, settings (one change), how to play (two pages), the table screen (the mode
    # select's cursor is on Table, the last mode).
    keys += ["DOWN", "A", "A", "DOWN", "DOWN", "A", "RIGHT", "B", "DOWN", "DOWN", "DOWN", "A",
             "RIGHT", "RIGHT", "B", "A", "A", "RIGHT", "B", "B", SETTLE]
    said.append("records, settings, how to play, mode select and table seats")
    frames = [-1 if k is None else k for k in key_script(keys)]
    return frames, said
