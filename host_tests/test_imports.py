"""What the board imports (tools/flash/imports.py): no import cycles, every shipped library
imported, every import shipped or built into CircuitPython, the desktop tools never shipped."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.flash import deploy, imports  # noqa: E402


def _tree(tmp_path, files):
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def test_lazy_imports_inside_functions_are_read(tmp_path):
    root = _tree(tmp_path, {
        "code.py": "if __name__ == '__main__':\n    from lnr.main import run\n",
        "boot.py": "import storage\n",
        "lib/lnr/__init__.py": "",
        "lib/lnr/main.py": "def run():\n    from lnr import menus\n    import engine.state\n",
        "lib/lnr/menus.py": "try:\n    from typing import List\nexcept ImportError:\n    pass\n",
        "lib/lnr/unused.py": "import json\n",
        "engine/__init__.py": "",
        "engine/state.py": "from .cards import KIND\n",
        "engine/cards.py": "KIND = b''\n",
        "engine/replay.py": "import json\nfrom engine.state import KIND\n",
    })
    got = imports.reachable(root)
    assert got == {"lnr", "lnr.main", "lnr.menus", "engine", "engine.state", "engine.cards",
                   "storage"}
    # Optional imports (inside try/except ImportError) are not needed on the board.
    assert "typing" not in got


def test_cycles_are_found_and_lazy_pairs_count():
    g = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["d2"], "d2": [], "e": ["f"], "f": ["e"]}
    assert imports.cycles(g) == [["a", "b", "c"], ["e", "f"]]
    assert imports.cycles({"x": ["y"], "y": []}) == []


def test_no_import_cycle_in_the_engine_the_app_or_the_tools():
    """A lazily imported pair (A imports B inside a function, B imports A at the top) is a
    cycle too: what both sides need lives in a module of their own (tools/flash/sync.py for
    tools.flash.deploy and tools.flash.deploy_board)."""
    packages = imports.REPOSITORY_PACKAGES
    g = imports.graph(ROOT, packages=packages)
    ours = {n: [m for m in deps if m.split(".")[0] in packages]
            for n, deps in g.items() if n.split(".")[0] in packages}
    assert len([n for n in ours if n.startswith("tools.")]) > 30, "tools/ not read"
    assert imports.cycles(ours) == []


def test_every_shipped_library_is_imported_and_every_import_shipped():
    libraries = deploy.third_party_files()
    lib_modules = {deploy.module_name(rel) for rel, _ in libraries}
    shipped_paths = {path for path, _ in deploy.source_files(ROOT, libraries)}
    reach = imports.reachable(ROOT, {deploy.module_name(r): p for r, p in libraries})
    for dist, top in deploy.THIRD_PARTY:
        assert any(p.startswith(("lib/" + top + "/", "lib/" + top + ".")) for p in
                   shipped_paths), dist + " is pinned for the board but nothing imports it"
    for name in imports.external(reach):
        assert name in imports.CIRCUITPYTHON_BUILTINS or any(
            m == name or m.startswith(name + ".") for m in lib_modules), name
    # Exactly the reachable library modules, and no more (e.g. bitmap_label but not label).
    for rel, _ in libraries:
        assert (("lib/" + rel) in shipped_paths) == (deploy.module_name(rel) in reach), rel


def test_the_engine_desktop_tools_never_reach_the_board():
    shipped = {path for path, _ in deploy.source_files(ROOT)}
    for name in ("record", "replay", "selfplay", "playout"):
        assert "lib/engine/%s.py" % name not in shipped
    for name in ("state", "rng", "cards", "risk"):
        assert "lib/engine/%s.py" % name in shipped
    # Nothing shipped needs json or argparse (CircuitPython has neither on a SAMD51 build).
    reach = imports.reachable(ROOT, {deploy.module_name(r): p
                                     for r, p in deploy.third_party_files()})
    assert not {"json", "argparse"} & set(imports.external(reach))


def test_a_pinned_library_nothing_imports_fails_the_deploy(tmp_path, monkeypatch):
    lib = tmp_path / "adafruit_motor.py"
    lib.write_text("x = 1\n")
    monkeypatch.setattr(deploy, "THIRD_PARTY", deploy.THIRD_PARTY + (
        ("adafruit-circuitpython-motor", "adafruit_motor"),))
    with pytest.raises(deploy.DeployError, match="adafruit-circuitpython-motor is pinned for "
                                                 "the board but nothing imports it"):
        deploy.source_files(ROOT, _installed_libraries() + [("adafruit_motor.py", lib)])


def _installed_libraries():
    """The pinned libraries' files, read before THIRD_PARTY was patched."""
    return _LIBRARIES


_LIBRARIES = deploy.third_party_files()
