"""How the device app's modules talk to each other (docs/style.md): none reaches into another
object's `_private` names, nor calls another module's functions by a name computed at run time
(the issue's lnr.storage <-> lnr.slots: 35 reads of the other's private fields and getattr by a
function's name), and the names the app keeps apart from the engine agree with the engine's."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = sorted((ROOT / "lib" / "lnr").rglob("*.py"))


def reaches(path, root=ROOT):
    """Returns the places in `path` that use another object's private name: `x._name` where x
    is not self or cls, `from m import _name`, getattr(x, "_name"), and getattr(x, name) with
    the name computed at run time."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        where = "%s:%d " % (path.relative_to(root).as_posix(), getattr(node, "lineno", 0))
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                out.append(where + ast.unparse(node))
        elif isinstance(node, ast.ImportFrom):
            out += [where + "from %s import %s" % (node.module, a.name) for a in node.names
                    if a.name.startswith("_")]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "getattr" and len(node.args) >= 2:
            name = node.args[1]
            if not isinstance(name, ast.Constant) or name.value.startswith("_"):
                out.append(where + ast.unparse(node))
    return out


def test_the_check_finds_what_the_old_storage_and_slots_did(tmp_path):
    # The old lnr/slots.py and lnr/storage.py in brief: every line but the last is refused.
    p = tmp_path / "old.py"
    p.write_text("from lnr.storage import _MAGIC\n"
                 "def load(st):\n    st._slot = -1\n    return st._nvm\n"
                 "def _slots(name, *args):\n    from lnr import slots\n"
                 "    return getattr(slots, name)(*args)\n"
                 "def peek(o):\n    return getattr(o, '_seq')\n"
                 "class Storage:\n    def load(self):\n        return self._nvm, self.notice\n")
    found = sorted(line.split(" ", 1)[1] for line in reaches(p, tmp_path))
    assert found == sorted(["from lnr.storage import _MAGIC", "st._slot", "st._nvm",
                            "getattr(slots, name)", "getattr(o, '_seq')"])


def test_no_app_module_reaches_into_another_ones_private_names():
    assert len(APP) > 20, "lib/lnr not found"
    found = []
    for path in APP:
        found += reaches(path)
    assert found == []


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
