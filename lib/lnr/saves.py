"""The Storage's reads and writes (lnr/storage.py): its data to and from the two copies through
lnr/copies.py, and a finished game counted. Loaded by the Storage method that reads or writes
and dropped after each read or write, with the copies' code: none of it is in RAM while a
screen is up (docs/memory.md). Every write goes through Storage.commit()."""
from lnr.memory import drop, sign
from lnr.game import MODE_RIVAL, MODE_TABLE
from lnr.limits import N_MODES, NO_BEST


def _done(store):
    # The copies' code is needed for a moment (a read or a write), not while a game is
    # played; the buffer goes back to its owner.
    drop("lnr.copies", "lnr.image", "engine.crc", "lnr.saves")
    if store.sheet is not None:  # the sprites read back into the sheet's lent bytes
        from lnr import sheet

        sheet.fill(store.sheet, store.image)
        drop("lnr.sheet")


def _copies():
    # The copies' code (lnr/copies.py and lnr/image.py), loaded for a read or a write: loading
    # it is one of a switch's longest steps on a board, so the LEDs' sign steps first.
    sign()
    from lnr import copies

    return copies


def _held(store, held):
    store.seq, store.nvm_seq, store.file_seq, store.file_seen = held


def _flags(store):
    # The settings byte: bit 0 hints on, bit 1 sound off (lnr/image.py).
    return (1 if store.hints else 0) | (0 if store.sound else 2)


def load(store):
    """Storage.load()."""
    copies = _copies()

    store.reset()
    try:
        values, held, store.notice, store.less_safe = copies.load(
            store.nvm, store.drive, store.writable, store.image)
    finally:
        _done(store)
    _held(store, held)
    if values is not None:
        (store.brightness, store.pixel_count, flags, store.best, store.played,
         store.rival_wins, store.saved) = values
        store.hints = flags & 1
        store.sound = 0 if flags & 2 else 1  # saves from before the setting: sound on


def commit(store, finished=None):
    """Storage.commit()."""
    copies = _copies()

    try:
        ok, held, notice = copies.commit(
            store.nvm, store.drive, store.writable,
            (store.seq, store.nvm_seq, store.file_seq, store.file_seen),
            (store.brightness, store.pixel_count, _flags(store), store.best, store.played,
             store.rival_wins, store.saved), store.image, finished)
    finally:
        _done(store)
    _held(store, held)
    if notice is not None:
        store.note(notice)
    return ok


def finish_game(store, mode, score, won, seed, players, log):
    """Storage.finish_game()."""
    if not 0 <= mode < N_MODES:
        raise ValueError("unknown mode %s" % mode)
    if store.played[mode] < 0xFFFF:
        store.played[mode] += 1
    if mode == MODE_RIVAL and won and store.rival_wins < 0xFFFF:
        store.rival_wins += 1
    best = store.best[mode]
    # A table game's score is a record whoever won; a lost challenge ends early (§8) and a
    # rival game lost is no record.
    new_best = ((bool(won) or mode == MODE_TABLE) and type(score) is int and 0 <= score < NO_BEST
                and (best is None or score < best))
    if new_best:
        store.best[mode] = score
    store.saved = None
    store.commit(None if seed is None else (seed, mode, players, score, won, log))
    return new_best


def history(store):
    """Storage.history()."""
    copies = _copies()

    try:
        games, held = copies.history(store.nvm, store.drive,
                                     (store.seq, store.nvm_seq, store.file_seq, store.file_seen),
                                     store.image)
    finally:
        _done(store)
    _held(store, held)
    return games
