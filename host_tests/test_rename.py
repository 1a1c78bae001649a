"""The names the board's build renames across our program (tools/rename.py, docs/memory.md):
one new name for each name the program defines, the same everywhere, and none that could meet
a name from outside.

A careless renamer breaks the board in ways the desktop never sees: an attribute the firmware
reads (`pixel_shader`) renamed on our side only, a name reached by its text (`getattr(hw,
"drive")`), a `_PRIVATE = const()` made public (a global and a name on the board), a new name
that captures one the code already used. Each is tried here on small modules run both ways; the
shipped modules are mapped back to their text; the whole game played from the renamed build is
compared with the sources' frame by frame in host_tests/test_fold.py.
"""
import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import cpvm, deploy, fold, nodocs, rename, shrink  # noqa: E402


def _program():
    items = deploy.source_files(ROOT)
    texts = {p: src.read_text(encoding="utf-8") for p, src in items if p.endswith(".py")}
    ours = {deploy.module_name(p[len("lib/"):]): t for p, t in texts.items()
            if p.startswith(("lib/lnr/", "lib/engine/"))}
    others = {p: t for p, t in texts.items() if not p.startswith(("lib/lnr/", "lib/engine/"))}
    shrunk = shrink.shrink(fold.inline_private(fold.fold(ours)), shrink.keywords(texts))
    return shrunk, rename.outside_names(others)


SHRUNK, OUTSIDE = _program()
RENAMED, MAPPING = rename.rename(SHRUNK, OUTSIDE)


# ---- the shipped modules --------------------------------------------------------------------

def test_each_shipped_module_maps_back_to_its_text():
    # One name for one name: the renamed text with the new names written back is the text.
    back = {new: old for old, new in MAPPING.items()}
    assert len(back) == len(MAPPING)
    for module, text in RENAMED.items():
        assert rename.rename_text(text, back, module) == SHRUNK[module], module


def test_a_new_name_is_no_name_the_program_or_anything_outside_uses():
    # A new name that was in use would capture it: two names become one.
    used = set()
    for text in SHRUNK.values():
        used |= rename.identifiers(text)
    new = set(MAPPING.values())
    assert not new & used
    assert not new & OUTSIDE


def test_no_name_from_outside_is_renamed():
    # The firmware's (stubs), the libraries', the harness's and ROM's names are reached from
    # code the build does not rename.
    assert not set(MAPPING) & OUTSIDE
    assert not set(MAPPING) & set(rename.ROM_NAMES)
    for name in ("pixel_shader", "key_number", "root_group", "auto_write", "self"):
        assert name in OUTSIDE and name not in MAPPING


def test_names_the_program_reaches_by_their_text_stay():
    # engine/codec.py sets the State's fields by name, lnr/powerup.py reads the profile's
    # optional attributes with getattr(), lnr/app.py prints an exception's class name.
    for name in ("derail_left", "build_sum", "drive_writable", "IllegalAction", "RecordError"):
        assert name not in MAPPING, name


def test_private_names_stay_private():
    # `_X = const(...)` leaves no global and no name on the board; `X = const(...)` does.
    for old, new in MAPPING.items():
        assert old.startswith("_") == new.startswith("_"), (old, new)


def test_the_renaming_saves_names_on_the_board():
    # What it is for: the names a compiled module keeps are shorter or in ROM.
    prog = rename.Program(SHRUNK)
    kept = [n for n in MAPPING if n in prog.compiled and not n.startswith("_")]
    assert len(kept) > 300
    before = sum(len(n) for n in kept)
    after = sum(0 if MAPPING[n] in rename.ROM_NAMES else len(MAPPING[n]) for n in kept)
    assert after < before / 3


def test_the_build_ships_the_renamed_modules():
    # What make flash sends (.py with --no-mpy, else compiled from the same text), its
    # docstrings left out (tools/nodocs.py).
    tree = deploy.build(ROOT, None)
    for module, text in RENAMED.items():
        path = [p for p in tree.files if p.startswith("lib/") and p.endswith(".py")
                and deploy.module_name(p[len("lib/"):]) == module]
        assert tree.files[path[0]] == nodocs.strip(text).encode("utf-8"), module
    assert deploy.build_names(ROOT) == MAPPING


def test_an_edit_moves_few_names():
    # make flash copies the modules whose text changed: a module's names gone (or new) must
    # not move the other modules' names, but for the few that met them.
    for gone in ("engine.rng", "lnr.menus.screen", "lnr.play.screen"):
        rest = {m: t for m, t in SHRUNK.items() if m != gone}
        again = rename.plan(rest, OUTSIDE)
        moved = [n for n in again if again[n] != MAPPING.get(n)]
        assert len(moved) <= len(again) // 50, (gone, len(moved), moved[:10])


def test_a_boards_traceback_is_written_back(capsys):
    # `python -m tools.rename < traceback.txt`: the names it prints are the sources'.
    new_play = MAPPING["Play"]
    method = next(old for old in ("key_hand", "pick") if old in MAPPING)
    text = 'File "lnr.play.screen", line 1, in %s\n  %s\n' % (MAPPING[method], new_play)
    back = {new: old for old, new in MAPPING.items()}
    assert rename.decode(text, back) == 'File "lnr.play.screen", line 1, in %s\n  Play\n' % method
    assert rename.main([MAPPING[method]]) == 0
    assert capsys.readouterr().out.split() == [MAPPING[method], method]


# ---- modules built to trip a renamer --------------------------------------------------------

def _run(modules, call, outside=frozenset()):
    # Runs {module: text} (real modules: they import each other) before and after renaming;
    # returns (both results of `call`, an expression evaluated in the last module), the
    # renamed texts and the mapping.
    import types

    renamed, mapping = rename.rename(modules, outside)
    results = []
    for texts, names in ((modules, {}), (renamed, mapping)):
        for name in texts:
            sys.modules.pop(name, None)
        try:
            for name, text in texts.items():
                module = types.ModuleType(name)
                sys.modules[name] = module
                exec(compile(text, name, "exec"), module.__dict__)  # noqa: S102
            results.append(eval(rename.rename_text(call, names), module.__dict__))  # noqa: S307
        finally:
            for name in texts:
                sys.modules.pop(name, None)
    return results, renamed, mapping


def test_attributes_defs_and_keywords_are_renamed_alike_across_modules():
    a = ("class Counter:\n    def __init__(self, start):\n        self.total = start\n\n"
         "    def bump(self, by=1):\n        self.total += by\n        return self.total\n")
    b = ("from rn_a import Counter\n\n\ndef twice(counter):\n    counter.bump(by=2)\n"
         "    return counter.bump(by=2)\n")
    (before, after), renamed, mapping = _run({"rn_a": a, "rn_b": b},
                                             "twice(Counter(start=1))")
    assert before == after == 5
    for name in ("Counter", "total", "bump", "twice", "counter", "by", "start"):
        assert name in mapping, name
        assert not re.search(r"\b%s\b" % name, renamed["rn_a"] + renamed["rn_b"]), name


def test_a_name_read_by_its_text_stays():
    a = ("class Box:\n    def __init__(self):\n        self.width = 3\n        self.depth = 4\n\n"
         "def size(box):\n    return getattr(box, 'width') * box.depth\n")
    (before, after), renamed, mapping = _run({"rn_c": a}, "size(Box())")
    assert before == after == 12
    assert "width" not in mapping and "depth" in mapping


def test_the_members_of_a_class_whose_base_is_not_ours_stay():
    # The base's code (C, on the board) may call them: adafruit_pixelbuf calls _transmit.
    a = ("class Base:\n    def show(self):\n        return self._transmit(b'x')\n")
    b = ("from a import Base\n\nclass Pixels(Base):\n    def _transmit(self, buf):\n"
         "        self.sent = buf\n        return len(buf)\n\n    def helper(self):\n"
         "        return 1\n")
    # `a` stands for the firmware here: outside the program.
    renamed, mapping = rename.rename({"b": b}, rename.identifiers(a))
    assert "_transmit" not in mapping and "sent" not in mapping and "helper" not in mapping
    assert "Pixels" not in mapping


def test_a_name_used_outside_is_not_renamed_even_where_ours_defines_it():
    # Our attribute named like the firmware's (TileGrid.x): one name at every place, so it
    # stays wherever it stands.
    a = "class Sprite:\n    def __init__(self):\n        self.x = 1\n        self.speed = 2\n"
    _, mapping = rename.rename({"a": a}, {"x"})
    assert "x" not in mapping and "speed" in mapping


def test_an_fstring_stops_the_renaming():
    # Python 3.11's tokenizer gives an f-string as one token: names in it would be missed.
    with pytest.raises(ValueError, match="m line 2"):
        rename.rename({"m": "total = 1\ntext = f'{total}'\n"}, set())


def test_new_names_skip_python_keywords_and_names_in_use():
    gen = rename.short_names({"a", "b"})
    first = [next(gen) for _ in range(200)]
    assert "a" not in first and "b" not in first
    assert not [n for n in first if n in ("as", "if", "in", "is", "or", "def", "for")]


# ---- the lists it relies on ------------------------------------------------------------------

def test_the_rom_names_are_in_the_vms_rom(tmp_path):
    # A name CircuitPython holds in ROM costs no RAM; one the VM lacks adds one to n_qstr when
    # getattr() interns it (read from a file: the script's own names are interned compiling it).
    if cpvm.vm() is None:
        pytest.skip(cpvm.MISSING_VM)
    new = cpvm.not_in_rom(rename.ROM_NAMES + ("zq_not_in_rom",), tmp_path)
    assert new == ["zq_not_in_rom"]


def test_the_firmware_names_are_the_stubs_names():
    # tools/firmware_names.txt is written from circuitpython-stubs (pinned in
    # requirements/typecheck.txt): a stubs upgrade that names more must write it again.
    files = rename.stub_files()
    if not files:
        pytest.skip("circuitpython-stubs is not installed here (.venv-stubs: make typecheck)")
    assert sorted(rename.firmware_names()) == rename.firmware_names_from_stubs(files)


def test_identifiers_sees_every_place_a_name_stands():
    text = ("import a.b as c\nfrom d import e as f\nglobal g\n\ndef h(i, *j, k=1, **l):\n"
            "    m.n = o(p=1)\n    try:\n        pass\n    except q as r:\n        pass\n"
            "class s(t):\n    pass\n")
    assert rename.identifiers(text) == set("abcdefghijklmnopqrst")
    assert ast.parse(text)
