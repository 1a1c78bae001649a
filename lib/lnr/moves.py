"""The moves between the menus and a game that need more than either screen: dealing a new
game, resuming the saved one, saving & quitting, and the save's bytes: engine/codec.py's blob
(with the app's own bytes: the seed, who plays each seat, the bots' generator) followed by the
game's decision log (engine/gamelog.py), so that a resumed game goes on exactly as it would
have, bots included, and joins the history whole when it ends.

lnr/app.py imports this module for a move, once both screens' code is dropped, and the next
screen's loading drops it (RAM, docs/memory.md): while it runs, neither the menus nor the
play screen is in RAM.
"""
from lnr import drop
from lnr import game as games
from lnr.app import SC_PLAY, W_START, W_RESUME


def run(app, want, where):
    """Makes the move `want` (lnr.app's W_START, W_RESUME or W_SAVE and its arguments) and
    shows the game or the title; `where` is the play screen's (sel, hoff) for a save."""
    kind = want[0]
    if kind == W_START:
        game = start(app, want[1], want[2], want[3])
    elif kind == W_RESUME:
        game = resume(app)
    else:
        game = None if save(app, want[1], want[2]) else want[1]
    if game is None:
        app.game = None
        app.title()
        return
    app.game = game
    app.screen = SC_PLAY
    play = app._player()  # pylint: disable=protected-access
    if where is not None:  # the NVM refused the save: back to the game as it was
        play.rejoin(game, want[2], where[0], where[1])
        play.toast("Could not save")
    else:
        play.begin(game)


def start(app, mode, players, seed=None):
    """Returns a new Game of `mode` dealt from `seed` (a deal shared by a friend: the same deck
    and dice), or from the app's next seed."""
    if seed is None:
        seed = app.seed
        app.seed = (seed + 1) & games.SEED_MASK
    return games.new_game(mode, seed & games.SEED_MASK, players, app.roles)


def resume(app):
    """Returns the saved Game, exactly where it was saved; None (the title says why, and a
    save that cannot be played is dropped) if it cannot be restored."""
    store = app.store
    game = None
    if store.saved is not None:
        try:
            game = unpack(store.saved)  # engine.codec, loaded for the moment
        except ValueError:
            game = None
    if game is None:
        app.message = store.notice or "Saved game could not be restored"
        store.notice = None
        if app.writes and store.saved is not None:
            store.drop_saved()
    return game


def save(app, game, start):
    """Saves `game` as it stood at the turn's start (the State `start`); returns True if the
    NVM holds it (the title then says so)."""
    store = app.store
    blob = pack(game, start)
    before = store.notice
    ok = store.save_game(blob)
    # An unchanged save is not rewritten (storage spares the flash): still saved.
    if not ok and store.notice == before and store.saved == blob:
        ok = True
    if ok:
        app.message = "Game saved: Continue resumes it"
    else:
        store.notice = before
    return ok


def meta(game):
    """Returns the app's bytes for a save: the seed (3 bytes), a role per seat and the bots'
    generator (engine.rng state: three ints below 2**15, 2 bytes each)."""
    s = game.seed
    n = len(game.roles)
    out = bytearray(9 + n)
    out[0] = (s >> 16) & 255
    out[1] = (s >> 8) & 255
    out[2] = s & 255
    out[3:3 + n] = game.roles
    i = 3 + n
    for v in game.bot_rng.getstate():
        out[i] = v >> 8
        out[i + 1] = v & 255
        i += 2
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
        drop("engine.codec")
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
    from engine.codec import unpack as _unpack
    from engine.gamelog import GameLog

    n = saved[0] if saved else 0
    if len(saved) < n + 3:
        raise ValueError("the save ends early")
    try:
        state, rng, meta_ = _unpack(saved[1:1 + n])
    finally:
        drop("engine.codec")
    players = state.players
    if len(meta_) != 9 + players:
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
    bits = (saved[1 + n] << 8) | saved[2 + n]
    data = saved[3 + n:]
    if bits == 0xFFFF:
        state.log = GameLog(b"", -1)  # a game without its log: the history keeps it unrebuilt
    elif len(data) != (bits + 7) >> 3:
        raise ValueError("the save's log has %d bytes for %d bits" % (len(data), bits))
    else:
        state.log = GameLog(data, bits)
    return game
