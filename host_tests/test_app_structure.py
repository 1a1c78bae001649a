"""The names the device app keeps apart from the engine agree with the engine's. (That no app
module reaches into another's private names is host_tests/test_private_names.py's.)"""


def test_the_apps_mode_ids_and_bot_names_are_the_engines():
    # lnr.game names the modes and the table's bots without loading the engine (the menus run
    # without it, docs/memory.md): they must be the engine's (engine/state.py MODE_*,
    # engine.bots.BOTS), or a table seat would offer a bot that plays as "random".
    from engine import state
    from engine.bots import BOTS
    from lnr import game

    for name in ("MODE_SOLO", "MODE_CHALLENGE", "MODE_RIVAL", "MODE_TABLE"):
        assert getattr(game, name) == getattr(state, name), name
    assert len(game.MODE_TITLES) == 4
    for name in game.BOT_NAMES:
        assert name in BOTS, name
