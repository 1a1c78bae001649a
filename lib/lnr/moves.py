"""The moves between the menus and a game that need more than either screen: dealing a new
game, resuming the saved one, saving & quitting, and the save's bytes (engine/codec.py, with
the app's own: the seed and who plays each seat).

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
        game = start(app, want[1], want[2])
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


def start(app, mode, players):
    """Returns a new Game of `mode` dealt from the app's next seed."""
    seed = app.seed
    app.seed = (seed + 1) & games.SEED_MASK
    return games.new_game(mode, seed, players, app.roles)


def resume(app):
    """Returns the saved Game, exactly where it was saved; None (the title says why, and a
    save that cannot be played is dropped) if it cannot be restored."""
    store = app.store
    saved = store.resume()  # engine.codec, loaded for the moment
    game = None
    if saved is not None:
        try:
            game = unpack(saved)
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
    """Returns the app's bytes for a save: the seed (3 bytes) and a role per seat."""
    s = game.seed
    out = bytearray(3 + len(game.roles))
    out[0] = (s >> 16) & 255
    out[1] = (s >> 8) & 255
    out[2] = s & 255
    out[3:] = game.roles
    return bytes(out)


def pack(game, state=None):
    """Returns the save blob of `game` (or of `state` in its place: the turn's start)."""
    from engine.codec import pack as _pack

    try:
        return _pack(state or game.state, game.rng, meta(game))
    finally:
        drop("engine.codec")


def unpack(saved):
    """Returns the Game of a save: `saved` is storage.resume()'s (state, rng, meta); raises
    ValueError if the app's bytes do not fit the state."""
    state, rng, meta_ = saved
    if len(meta_) != 3 + state.players:
        raise ValueError("the save's seats do not match")
    roles = bytearray(meta_[3:])
    for seat in range(state.players):
        r = roles[seat]
        if r > games.ROLE_BOT + len(games.BOT_NAMES) or (
                r == games.ROLE_RIVAL) != state.is_rival(seat):
            raise ValueError("the save's seat %d cannot be role %d" % (seat, r))
    seed = (meta_[0] << 16) | (meta_[1] << 8) | meta_[2]
    return games.Game(state, rng, seed, roles)
