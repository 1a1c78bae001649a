"""No module reaches into another module's `_private` names (docs/style.md, "Small modules with
one job each ... no reaching into another module's `_private` names"), read with `ast` from the
engine (engine/) and the app (lib/lnr/):

- `from x import _name` is a reach;
- `mod._name` where `mod` is a name an import bound is a reach;
- `obj._name` (read, written or deleted) is a reach unless `obj` is `self` or `cls`, or this
  module itself defines `_name` (a function, class or class attribute, a `self._name` it assigns,
  a module global): an object of a class of this module may be handled here, another module's
  may not. A name this module defines as well may hide a reach; the rule errs that way so that
  it never flags a module's own class.
Dunder names (`__name__`, `__init__`) are public.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = ("engine", "lib/lnr")


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


def reaches(source, filename="<module>"):
    """Returns [(line, text), ...]: every place `source` reaches into another module's private
    name, as the module docstring defines it."""
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
    )
    got = [line for line, _ in reaches(source)]
    assert got == [2, 13, 14, 15, 16]


@pytest.mark.parametrize("tree", TREES)
def test_no_module_reaches_into_another_modules_private_names(tree):
    files = sorted((ROOT / tree).rglob("*.py"))
    assert len(files) > 5, "no modules under %s" % tree
    found = []
    for path in files:
        for line, text in reaches(path.read_text(), str(path)):
            found.append("%s:%d: %s" % (path.relative_to(ROOT), line, text))
    assert found == []
