"""What the switches between the menus and a game do that needs more than either screen (the
switch itself is lnr/memory's): dealing a new game (new_game), resuming the saved one,
saving & quitting, committing the settings and reading the history for Records, and the save's
bytes: engine/codec.py's blob (with
the app's own bytes: the seed, who plays each seat, the bots' generator) followed by the
game's decision log (engine/gamelog.py), so that a resumed game goes on exactly as it would
have, bots included, and joins the history whole when it ends.

lnr/memory loads this module for a switch, once both screens' code is dropped, and the next
screen's loading drops it (RAM, docs/memory.md): while it runs, neither the menus nor the
play screen is in RAM. The changed settings are committed here, not on the settings screen, so
that the saves' code (lnr/copies.py) never shares RAM with the menus' code and text; a finished
game is counted by lnr/over.py, a switch of its own, so that neither module is in RAM beside
the saves' code for the other's work. (A player's move in the game is an
action, engine/state.py's; the loco's run is shown by lnr/play/screen.py.)
"""
from engine.state import MODE_RIVAL, MODE_TABLE
from lnr.memory import drop, load, shed, sign
from lnr import game as games
from lnr.screens import (
    SC_PLAY, SC_TITLE, SC_RECORDS, W_START, W_RESUME, W_SAVE, W_SETTINGS, W_RECORDS,
)


def go(app):
    """Makes the work of the switch app.want asks for (lnr.screens' W_* and its arguments):
    app.next is then what the App shows next (lnr/memory/switch.py arrive()). Its result:
    (SC_PLAY, None) to begin app.game; (SC_PLAY, (W_SAVE, None)) to go back to a game
    the NVM could not save (the play screen as it was left, then that); (SC_RECORDS, the last
    games: lnr/lastgames.py) or (SC_TITLE, the title entry its cursor goes back to, or None).
    A game's end is lnr/over.py's, a bot's plan and the hint lnr/play/plan.py's."""
    app.next = _go(app, app.want)


def _go(app, want):
    kind = want[0]
    # Each step below takes a board up to half a second (docs/memory.md: board waits): the
    # LEDs' sign steps between them (as the saves' code steps it, lnr/copies.py).
    sign()  # this module is loaded
    if kind == W_START:
        try:
            app.game = start(app, want[1], want[2], want[3], want[4])
        except MemoryError:  # the title says so; nothing was saved or changed
            app.game = None
            app.message = "Not enough memory to deal a game"
    elif kind == W_RESUME:
        app.game = resume(app)
    elif kind == W_SAVE:
        if save(app, want[1], want[2]):
            app.game = None
            if len(want) > 3:  # a game's switch found no room (lnr/memory/settle.py)
                app.message = "Short of memory: game saved, Continue resumes it"
        elif len(want) > 3:  # no way back to the game: the error screen, the saves as they were
            raise MemoryError("no room for a game's switch, nor for the game's save")
        else:
            return SC_PLAY, (W_SAVE, None)
    elif kind == W_SETTINGS:
        if app.writes:
            try:
                saves_code(app)
                app.store.save_settings()  # a failure's notice shows on the title
            except MemoryError:  # the copies hold the settings as they were
                app.message = "Settings not saved: not enough memory"
        return SC_TITLE, "Settings"  # the title's cursor back on it
    elif kind == W_RECORDS:
        try:
            saves_code(app)
            last_games = load(app, "lnr.lastgames").last_games
            return SC_RECORDS, last_games(app.store)
        except MemoryError:
            app.message = "Not enough memory for Records"
            return SC_TITLE, "Records"
    return (SC_TITLE, None) if app.game is None else (SC_PLAY, None)


def lighter(app, work, *args):
    """Returns `work(*args)`, a step that changes nothing before it returns (a deal, a save's
    bytes, a save read); where the heap is too short for it, made again with less in RAM
    (lnr/memory shed()). MemoryError when nothing is left to shed."""
    while True:
        try:
            return work(*args)
        except MemoryError:
            if not shed(app):
                raise


def saves_code(app):
    """Loads the saves' code (lnr/saves.py, lnr/copies.py and what it imports) for the read or
    write that comes next, where the heap's shortness can still be met by shedding (lnr/memory
    load()): the read or write itself then allocates little, and a MemoryError in the middle of
    one could leave what the Storage holds apart from what it wrote. The read or write drops
    them (lnr/saves.py)."""
    load(app, "lnr.saves")
    load(app, "lnr.copies")


def start(app, mode, players, seed=None, roles=None):
    """Returns a new Game of `mode` dealt from `seed` (a deal shared by a friend: the same deck
    and dice), or from the app's next seed; a table's seats 2.. played by `roles`."""
    mine = seed is None
    if mine:
        seed = app.seed
    game = lighter(app, new_game, mode, seed & games.SEED_MASK, players, roles)
    if mine:  # dealt: the next game's seed is the next one
        app.seed = (seed + 1) & games.SEED_MASK
    return game


def roles_for(mode, players, table_roles=None):
    """Returns the roles of each seat: in rival mode seat 0 is the rival (docs/rules.md §8); at a
    table, `table_roles` for seats 2.. (seat 1 is always a person)."""
    roles = bytearray(players)
    if mode == MODE_RIVAL:
        roles[0] = games.ROLE_RIVAL
    elif mode == MODE_TABLE and table_roles is not None:
        for i in range(1, players):
            roles[i] = table_roles[i - 1]
    return roles


def new_game(mode, seed, players=None, table_roles=None):
    """Returns a Game dealt from `seed` (docs/rules.md §3) with the first turn begun."""
    from engine.gamelog import GameLog  # in RAM while a game is played (its log uses it)
    from engine.rng import Rng

    sign()  # the State's modules next (engine.state and those it imports)
    from engine.deal import deal

    rng = Rng(seed, 0)
    state = deal(mode, rng, players)
    deal = None
    drop("engine.deal")  # needed for the deal only (it is not kept with the game's code)
    state.log = GameLog()
    state.start()
    return games.Game(state, rng, seed, roles_for(mode, state.players, table_roles))


def resume(app):
    """Returns the saved Game, exactly where it was saved; None (the title says why, and a
    save that cannot be played is dropped) if it cannot be restored."""
    store = app.store
    game = None
    if store.saved is not None:
        try:
            game = lighter(app, unpack, store.saved)  # engine.codec, loaded for the moment
            sign()
        except ValueError:
            game = None
        except MemoryError:  # the save is kept for a board, or a moment, with more
            app.message = "Not enough memory to continue: the game stays saved"
            return None
    if game is None:
        app.message = store.notice or "Saved game could not be restored"
        store.notice = None
        if app.writes and store.saved is not None:
            store.drop_saved()
    return game


def save(app, game, start):
    """Saves `game` as it stood at the turn's start (the State `start`); returns True if a
    copy holds it (the title then says so)."""
    store = app.store
    before = store.notice
    had = store.saved
    try:
        blob = lighter(app, pack, game, start)
        sign()
        saves_code(app)
        ok = store.save_game(blob)
    except MemoryError:  # the copies hold the last save whole: back to the game, it says so
        store.saved = had
        store.notice = before
        return False
    # An unchanged save is not rewritten (storage spares the flash): still saved.
    if not ok and store.notice == before and store.saved == blob:
        ok = True
    if ok:
        app.message = "Game saved: Continue resumes it"
        app.message_ok = True
    else:
        store.notice = before
    return ok


def meta(game):
    """Returns the app's bytes for a save: the seed (3 bytes), a role per seat, the bots'
    generator (engine.rng state: three ints below 2**15, 2 bytes each) and the player's
    derailments (lnr.game.Game.derails)."""
    s = game.seed
    n = len(game.roles)
    out = bytearray(10 + n)
    out[0] = (s >> 16) & 255
    out[1] = (s >> 8) & 255
    out[2] = s & 255
    out[3:3 + n] = game.roles
    i = 3 + n
    for v in game.bot_rng.getstate():
        out[i] = v >> 8
        out[i + 1] = v & 255
        i += 2
    out[i] = game.derails if game.derails < 255 else 255
    return bytes(out)


def pack(game, state=None):
    """Returns the save of `game` (or of `state` in its place: the turn's start): the codec
    blob's length (1 byte), the blob, the decision log's bit count (2 bytes; 0xFFFF: none)
    and the log's bytes."""
    from engine.codec import pack as _pack

    state = state or game.state
    try:
        blob = _pack(state, game.rng, meta(game))
    finally:
        # the codec and what only it needs (its checksum, the phases' names): for this moment
        drop("engine.codec", "engine.crc", "engine.codes")
    log = state.log
    bits = 0xFFFF if log is None or log.bits < 0 else log.bits
    n = 0 if bits == 0xFFFF else (bits + 7) >> 3
    out = bytearray(3 + len(blob) + n)
    out[0] = len(blob)
    out[1:1 + len(blob)] = blob
    i = 1 + len(blob)
    out[i] = bits >> 8
    out[i + 1] = bits & 255
    if n:
        out[i + 2:] = log.data[0:n]
    return bytes(out)


def unpack(saved):
    """Returns the Game of pack()'s bytes, exactly where it was saved: the dice's and the bots'
    generators continue their streams and the log goes on. Raises ValueError if the bytes
    are not such a save."""
    # The engine's modules load in parts with a sign of life between them: the State's
    # (engine.state and those it imports), the codec's, the log's; the decoding after a sign.
    import engine.state

    sign()
    from engine.codec import unpack as _unpack

    sign()
    from engine.gamelog import GameLog

    sign()
    n = saved[0] if saved else 0
    if len(saved) < n + 3:
        raise ValueError("the save ends early")
    try:
        state, rng, meta_ = _unpack(saved[1:1 + n])
    finally:
        # the codec and what only it needs (its checksum, the phases' names): for this moment
        drop("engine.codec", "engine.crc", "engine.codes")
    players = state.players
    if len(meta_) != 10 + players:
        raise ValueError("the save's seats do not match")
    roles = bytearray(meta_[3:3 + players])
    for seat in range(players):
        r = roles[seat]
        if r > games.ROLE_BOT + len(games.BOT_NAMES) or (
                r == games.ROLE_RIVAL) != state.is_rival(seat):
            raise ValueError("the save's seat %d cannot be role %d" % (seat, r))
    seed = (meta_[0] << 16) | (meta_[1] << 8) | meta_[2]
    game = games.Game(state, rng, seed, roles)
    i = 3 + players
    game.bot_rng.setstate(((meta_[i] << 8) | meta_[i + 1], (meta_[i + 2] << 8) | meta_[i + 3],
                           (meta_[i + 4] << 8) | meta_[i + 5]))
    game.derails = meta_[i + 6]
    bits = (saved[1 + n] << 8) | saved[2 + n]
    data = saved[3 + n:]
    if bits == 0xFFFF:
        state.log = GameLog(b"", -1)  # a game without its log: the history keeps it unrebuilt
    elif len(data) != (bits + 7) >> 3:
        raise ValueError("the save's log has %d bytes for %d bits" % (len(data), bits))
    else:
        state.log = GameLog(data, bits)
    return game
