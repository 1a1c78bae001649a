"""The Python stack (pystack) the app needs on a board, on MicroPython's VM with a pystack the
size of a board's (tools/vm/pystack.py): what `make flash` sets in settings.toml
(tools/flash/deploy.py PYSTACK_SIZE) lets the whole session play and `best` decide every move of
whole games of every mode from as deep as the app starts its search; CircuitPython's default
does not (why the setting exists)."""
from tools.vm import pystack
from tools.flash.deploy import PYSTACK_SIZE

# `best`'s whole games on 3 seeds of each mode here, where `make pystack` plays 8
# (pystack.SEEDS): --smallest found the same size on 3 seeds as on 8 (see this line's commit),
# and the size make flash sets passes either way; a size below that fails on 3 seeds too.
SEEDS = 3


def test_the_app_plays_under_the_pystack_make_flash_sets():
    c = pystack.Check(PYSTACK_SIZE, SEEDS)
    assert c.ok, c.failed()
    assert c.session.count > 8000  # the whole session's frames
    assert c.bots.count > 250 * SEEDS  # best's decisions, every seat of every game
    # The bots' searches began at least as deep as the app's deepest one.
    assert c.bots.search <= c.session.search
    assert c.pad > 0


def test_circuitpythons_default_pystack_is_not_enough():
    # The reason make flash writes settings.toml: with the default the game stops early (the
    # session's run), and the check fails (on the bots' search, which it runs first).
    s = pystack.session(pystack.BOARD_DEFAULT)
    assert not s.ok and pystack.EXHAUSTED in s.fail
    c = pystack.Check(pystack.BOARD_DEFAULT)
    assert not c.ok
    assert pystack.EXHAUSTED in c.failed()


def test_a_pystack_smaller_than_the_need_fails_the_check():
    # The check can fail: half of what make flash sets is below what the bots' search needs
    # (python -m tools.vm pystack --smallest: about 2.8 KB).
    assert not pystack.Check(PYSTACK_SIZE // 2, SEEDS).ok
