"""No module reaches into another module's `_private` names (docs/style.md, "Small modules with
one job each ... no reaching into another module's `_private` names"; issue 23: "no import of
another module's private names anywhere"), read with `ast` from the engine (engine/), the app
(lib/lnr/), the host tools (tools/) and their tests (host_tests/):

- `from x import _name` is a reach;
- `mod._name` where `mod` is a name an import bound is a reach;
- `obj._name` (read, written or deleted) is a reach unless `obj` is `self` or `cls`, or this
  module itself defines `_name` (a function, class or class attribute, a `self._name` it assigns,
  a module global): an object of a class of this module may be handled here, another module's
  may not. A name this module defines as well may hide a reach; the rule errs that way so that
  it never flags a module's own class;
- `getattr(x, "_name")` (or set-, has-, delattr) is a reach, and so is a method of those names
  given one (a test's `monkeypatch.setattr(mod, "_name", ...)` replaces a private function: the
  test then holds the module to its insides, not to what it does); in the app, so is
  `getattr(x, name)` with the name computed at run time (lnr.storage once called lnr.slots'
  functions by a name built from a string).
Dunder names (`__name__`, `__init__`) are public. ALLOWED lists the few reaches into a library
outside the repository that has no public way to the same thing, each with its reason.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = ("engine", "lib/lnr", "tools", "host_tests")

# (file, what reaches()) reports: a library's private name with no public way to it.
ALLOWED = {
    # The standard library's frame access (documented; the underscore says CPython-specific).
    ("tools/sim/simulator.py", "sys._getframe (an imported module's)"),
    # Blinka's Bitmap keeps its depth only as _bits_per_value (CircuitPython's has no getter);
    # the census counts the bytes a board's Bitmap of that depth takes.
    ("tools/vm/membudget/census.py", "bitmap._bits_per_value"),
    ("tools/vm/membudget/census.py", "obj._bits_per_value"),
}
# tools/sim/fast.py runs one inner loop of Blinka's displayio on numpy arrays (displayio's
# _tilegrid._fill_pixels, replaced inside sim_fast.fast()): it reads what that loop reads, by
# the names Blinka gives them (host_tests/test_sim_fast.py holds the two to the same pixels).
ALLOWED |= {("tools/sim/fast.py", text) for text in (
    "from displayio import _tilegrid", "_tilegrid._fill_pixels (an imported module's)",
    "tilegrid._absolute_transform", "tilegrid._tiles", "tilegrid._top_left_x",
    "tilegrid._top_left_y", "bitmap._data", "bitmap._bits_per_value", "bitmap._stride",
    "bitmap._x_shift", "bitmap._x_mask", "bitmap._bitmask")}
# ... and a TileGrid's items (TileGrid.__setitem__, _extract_and_check_index, _set_tile: its
# tiles and the area its next refresh draws), replaced inside sim_fast.fast() by one call each
# (test_sim_fast.py holds every field of a grid to Blinka's).
ALLOWED |= {("tools/sim/fast.py", text) for text in (
    "grid._width_in_tiles", "grid._height_in_tiles", "grid._tiles", "grid._needs_refresh",
    "grid._tile_width", "grid._tile_height", "grid._top_left_x", "grid._top_left_y",
    "grid._dirty_area", "grid._partial_change")}


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _own_names(tree):
    # The private names this module defines: its functions, classes, class attributes and
    # module globals, and every `self._x` / `cls._x` it assigns.
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            own.add(node.attr)
    return {n for n in own if _private(n)}


def reaches(source, filename="<module>", app=False):
    """Returns [(line, text), ...]: every place `source` reaches into another module's private
    name, as the module docstring defines it (`app`: the app's stricter getattr rule)."""
    tree = ast.parse(source, filename)
    own = _own_names(tree)
    imported = set()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                imported.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                imported.add(alias.asname or alias.name)
                if _private(alias.name):
                    out.append((node.lineno, "from %s import %s" % (node.module, alias.name)))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            continue
        if isinstance(base, ast.Name) and base.id in imported:
            out.append((node.lineno, "%s.%s (an imported module's)" % (base.id, node.attr)))
        elif node.attr not in own:
            out.append((node.lineno, "%s.%s" % (ast.unparse(base), node.attr)))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func.id if isinstance(node.func, ast.Name) else (
            node.func.attr if isinstance(node.func, ast.Attribute) else None)
        if func in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2:
            name = node.args[1]
            computed = not (isinstance(name, ast.Constant) and isinstance(name.value, str))
            if (computed and app and func == "getattr" and isinstance(node.func, ast.Name)) or (
                    not computed and _private(name.value)):
                out.append((node.lineno, ast.unparse(node)))
    return sorted(out)


def test_the_rule_finds_each_kind_of_reach_and_spares_a_module_its_own():
    source = (
        "import engine.ai as ai\n"
        "from engine.ai import Planner, _open\n"  # 2: a private name imported
        "from engine import state\n"
        "class Box:\n"
        "    def __init__(self):\n"
        "        self._items = []\n"
        "    def _fill(self):\n"
        "        return self._items\n"
        "    def __eq__(self, other):\n"
        "        return other._items == self._items\n"  # own class: fine
        "def use(s, box):\n"
        "    box._fill()\n"  # own method: fine
        "    s._rival_forced(3)\n"  # 13: another class's method
        "    s._seq = 0\n"  # 14: another class's attribute, written
        "    state._room(1)\n"  # 15: a module's private function
        "    ai._fill()\n"  # 16: an imported module, even if this module has a _fill
        "    return s.__class__, box.__dict__\n"  # dunders: fine
        "def peek(o, slots, name):\n"
        "    getattr(o, '_seq')\n"  # 19: a private name by getattr
        "    return getattr(slots, name)(o), getattr(o, 'seq')\n"  # 20: computed (app only)
        "def test_it(monkeypatch):\n"
        "    monkeypatch.setattr(ai, '_open', None)\n"  # 22: a test replacing a private name
        "    monkeypatch.setattr(ai, 'open_ahead', None)\n"  # a public one: fine
    )
    got = [line for line, _ in reaches(source)]
    assert got == [2, 13, 14, 15, 16, 19, 22]
    assert [line for line, _ in reaches(source, app=True)] == [2, 13, 14, 15, 16, 19, 20, 22]


def test_the_rule_finds_what_the_old_storage_and_slots_did():
    # The old lnr/slots.py and lnr/storage.py in brief: every line but the last is refused.
    source = ("from lnr.storage import _MAGIC\n"
              "def load(st):\n    st._slot = -1\n    return st._nvm\n"
              "def _slots(name, *args):\n    from lnr import slots\n"
              "    return getattr(slots, name)(*args)\n"
              "def peek(o):\n    return getattr(o, '_seq')\n"
              "class Storage:\n    def load(self):\n        return self._nvm, self.notice\n")
    found = sorted(text for _, text in reaches(source, app=True))
    assert found == sorted(["from lnr.storage import _MAGIC", "st._slot", "st._nvm",
                            "getattr(slots, name)", "getattr(o, '_seq')"])


@pytest.mark.parametrize("tree", TREES)
def test_no_module_reaches_into_another_modules_private_names(tree):
    files = sorted((ROOT / tree).rglob("*.py"))
    assert len(files) > 5, "no modules under %s" % tree
    found = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for line, text in reaches(path.read_text(), str(path), app=tree == "lib/lnr"):
            if (rel, text) not in ALLOWED:
                found.append("%s:%d: %s" % (rel, line, text))
    assert found == []
