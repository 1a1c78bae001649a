"""The moves between the menus and a game that need more than either screen: dealing a new
game, resuming the saved one, saving & quitting, counting a finished game, and the save's bytes
(engine/codec.py, with the app's own: the seed and who plays each seat).

lnr/app.py imports this module for a move, once both screens' code is dropped, and the next
screen's loading drops it (RAM, docs/memory.md): while it runs, neither the menus nor the
play screen is in RAM. A finished game is counted here, not on the game over screen, so that
the NVM's code and the game are gone before the menus' code and text load.
"""
from engine.state import MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE
from lnr import drop
from lnr import game as games
from lnr.screens import SC_PLAY, SC_TITLE, SC_OVER, W_START, W_RESUME, W_SAVE
from lnr.ui import WHITE, GREY, YELLOW, RED, GREEN, CYAN


def run(app, want, where):
    """Makes the move `want` (lnr.screens' W_* and its arguments); `where` is the play
    screen's (sel, hoff) for a save. Returns what the App shows next: (SC_PLAY, None) to
    begin app.game, (SC_PLAY, (the turn's start, sel, hoff)) to go back to a game the NVM
    refused to save, (SC_OVER, over()'s result) or (SC_TITLE, None)."""
    kind = want[0]
    if kind == W_START:
        app.game = start(app, want[1], want[2])
    elif kind == W_RESUME:
        app.game = resume(app)
    elif kind == W_SAVE:
        if save(app, want[1], want[2]):
            app.game = None
        else:
            return SC_PLAY, (want[2], where[0], where[1])
    else:
        shown = over(app, want[1])
        app.game = None
        return SC_OVER, shown
    return (SC_TITLE, None) if app.game is None else (SC_PLAY, None)


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
        app.message_ok = True
    else:
        store.notice = before
    return ok


def over(app, game):
    """Counts the finished `game` (one NVM write: storage.finish_game) and returns what the
    game over screen shows: (the title's colour, 8 lines of (text, colour))."""
    s = game.state
    mode = s.mode
    me = 1 if mode == MODE_RIVAL else game.first_human()
    score = s.score(me)
    won = me in s.winners()
    store = app.store
    best = store.best[mode]
    # A finished table game's score may be the best whoever won (a lost challenge, §8, and
    # a rival game lost may not).
    counts = won or mode == MODE_TABLE
    record = store.finish_game(mode, score, counts) if app.writes else False
    lines = [("", WHITE)] * 8
    lines[0] = ("Your score: %d" % score, WHITE)
    if mode == MODE_RIVAL:
        n = s.score(0)
        lines[1] = ("Rival's pile: %d card%s" % (n, "" if n == 1 else "s"), WHITE)
        lines[2] = ("YOU WIN!", GREEN) if won else ("The rival wins", RED)
    elif mode == MODE_CHALLENGE and s.lost:
        lines[1] = ("4th derailment: lost", RED)
    elif mode == MODE_TABLE:
        lines[1] = ("WINNER!", GREEN) if won else ("Winner: " + _names(game, s.winners()), WHITE)
        for seat in range(s.players):
            lines[2 + seat] = ("%s: %d" % (game.name(seat), s.score(seat)), WHITE)
    if mode != MODE_TABLE:
        # The player's derailments: against the rival, not the rival's too (s.derails).
        lines[4] = ("Cards: %d  Derailed: %d" % (
            len(s.hands[me]) + len(s.piles[me]),
            game.derails if mode == MODE_RIVAL else s.derails), GREY)
        lines[5] = ("Games of %s: %d" % (games.MODE_TITLES[mode], store.played[mode]), GREY)
    if record:
        lines[6] = ("NEW RECORD!", GREEN)
    elif best is not None:
        lines[6] = ("Record: %d" % best, CYAN)
    lines[7] = ("A: title", GREY)
    return (RED if mode == MODE_CHALLENGE and s.lost else YELLOW), lines


def _names(game, seats):
    out = ""
    for seat in seats:
        out += (" " if out else "") + game.name(seat)
    return out


def meta(game):
    """Returns the app's bytes for a save: the seed (3 bytes), a role per seat, the player's
    derailments (lnr.game.Game.derails)."""
    s = game.seed
    n = len(game.roles)
    out = bytearray(4 + n)
    out[0] = (s >> 16) & 255
    out[1] = (s >> 8) & 255
    out[2] = s & 255
    out[3:3 + n] = game.roles
    out[3 + n] = game.derails if game.derails < 255 else 255
    return bytes(out)


def pack(game, state=None):
    """Returns the save blob of `game` (or of `state` in its place: the turn's start)."""
    from engine.codec import pack as _pack

    try:
        return _pack(state or game.state, game.rng, meta(game))
    finally:
        drop("engine.codec", "engine.crc")  # the codec and its checksum: for this moment


def unpack(saved):
    """Returns the Game of a save: `saved` is storage.resume()'s (state, rng, meta); raises
    ValueError if the app's bytes do not fit the state."""
    state, rng, meta_ = saved
    n = state.players
    if len(meta_) != 3 + n and len(meta_) != 4 + n:  # a save made before the derailments
        raise ValueError("the save's seats do not match")
    roles = bytearray(meta_[3:3 + n])
    for seat in range(state.players):
        r = roles[seat]
        if r > games.ROLE_BOT + len(games.BOT_NAMES) or (
                r == games.ROLE_RIVAL) != state.is_rival(seat):
            raise ValueError("the save's seat %d cannot be role %d" % (seat, r))
    seed = (meta_[0] << 16) | (meta_[1] << 8) | meta_[2]
    game = games.Game(state, rng, seed, roles)
    if len(meta_) > 3 + n:
        game.derails = meta_[3 + n]
    return game
