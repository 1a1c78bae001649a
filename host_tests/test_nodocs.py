"""The build's steps for a board that compiles .py files (`make flash --no-mpy`): docstrings
left out (tools/nodocs.py), private constants written as their values (tools/fold.py
inline_private()), locals renamed (tools/shrink.py). docs/memory.md.

Each changes what a board's compiler holds while it reads a .py file, and must change nothing
else: the syntax trees are compared here, and (the strongest check) CircuitPython's own
mpy-cross must write the very same .mpy file from every shipped module before and after them.
"""
import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import cpvm, deploy, fold, nodocs, shrink  # noqa: E402

ITEMS = deploy.source_files(ROOT)
SHIPPED = {p: src.read_text(encoding="utf-8") for p, src in ITEMS if p.endswith(".py")}


def _without_docstrings(text):
    # The syntax tree the stripped text must have: each docstring gone, `pass` where it was
    # a class's or function's only statement.
    tree = ast.parse(text)
    for owner, doc in nodocs.docstrings(tree):
        owner.body.remove(doc)
        if not owner.body and not isinstance(owner, ast.Module):
            owner.body.append(ast.Pass())
    return ast.dump(tree)


@pytest.mark.parametrize("path", sorted(SHIPPED))
def test_a_shipped_module_without_its_docstrings_is_the_same_code(path):
    text = SHIPPED[path]
    out = nodocs.strip(text)
    assert ast.dump(ast.parse(out)) == _without_docstrings(text)
    assert out.count("\n") == text.count("\n")  # every line where it was
    assert not nodocs.docstrings(ast.parse(out))


@pytest.mark.parametrize("source,expected", [
    ('"""Module."""\nX = 1\n', "\nX = 1\n"),
    ('def f():\n    """Only a docstring."""\n', "def f():\n    pass\n"),
    ('class K:\n    """Two\n    lines."""\n\n    def m(self):\n        """Doc."""  # why\n'
     '        return 1\n',
     "class K:\n\n\n\n    def m(self):\n\n        return 1\n"),
    ('def f():\n    x = 1\n    "not a docstring"\n    return x\n',
     'def f():\n    x = 1\n    "not a docstring"\n    return x\n'),
])
def test_docstrings_blanked_on_their_lines(source, expected):
    assert nodocs.strip(source) == expected


def test_a_docstring_sharing_its_line_stops_the_build():
    with pytest.raises(ValueError, match="line 1: a docstring shares its line"):
        nodocs.strip('def f(): "doc"; return 1\n')


# ---- private constants written as their values ----------------------------------------------

@pytest.mark.parametrize("source,expected", [
    ("from micropython import const\n_A = const(3)  # three\n_B = const(_A + 1)\n"
     "_C = const(-2)\nX = const(9)\n\ndef f(v):\n    return v + _A + _B * _C, _C.bit_length()\n",
     "from micropython import const\npass\npass\npass\nX = const(9)\n\ndef f(v):\n"
     "    return v + 3 + 4 * (-2), (-2).bit_length()\n"),
    # Bound again elsewhere (a local of the same name): the constant stays as it is.
    ("_A = const(1)\n\ndef f():\n    _A = 2\n    return _A\n",
     "_A = const(1)\n\ndef f():\n    _A = 2\n    return _A\n"),
    # An attribute of the same name is no use of the constant.
    ("_A = const(1)\n\ndef f(o):\n    return o._A + _A\n",
     "pass\n\ndef f(o):\n    return o._A + 1\n"),
    # Not an int: stays.
    ("_S = const('text')\nT = _S\n", "_S = const('text')\nT = _S\n"),
])
def test_private_constants_written_as_their_values(source, expected):
    assert fold.inline_private_module(source) == expected


# ---- the .mpy files are the same ------------------------------------------------------------

def _mpy_cross():
    exe = cpvm.mpy_cross()
    if exe is None:
        pytest.skip(cpvm.MISSING_MPY_CROSS)
    return deploy.MpyCross(exe, deploy.CIRCUITPY_MAJOR)


def test_circuitpythons_compiler_writes_the_same_mpy_from_every_module_before_and_after():
    # Before: our modules folded, and every module's parameters renamed (what the build did
    # without these steps; parameters are names a .mpy keeps).
    # After: what `make flash` sends (before tools/rename.py, which renames names a .mpy
    # keeps, on purpose). A .mpy holds no docstring and no local's name, and the compiler
    # folds a private constant itself: any difference is a changed meaning.
    compiler = _mpy_cross()
    ours = {deploy.module_name(p[len("lib/"):]): (p, t) for p, t in SHIPPED.items()
            if deploy.is_ours(p)}
    keyword_names = shrink.keywords(SHIPPED)
    before = shrink.shrink(fold.fold({m: t for m, (_, t) in ours.items()}), keyword_names,
                           locals_too=False)
    before = {ours[m][0]: t for m, t in before.items()}
    before.update(shrink.shrink({p: t for p, t in SHIPPED.items()
                                 if p.startswith("lib/") and not deploy.is_ours(p)},
                                keyword_names, locals_too=False))
    after = deploy.folded_sources(ITEMS, program_names=False)
    assert sorted(after) == sorted(before)
    changed = 0
    for path in sorted(before):
        name = deploy.module_name(path[len("lib/"):])
        old = compiler.compile(before[path].encode("utf-8"), name, path)
        new = compiler.compile(after[path], name, path)
        assert new == old, path
        changed += after[path] != before[path].encode("utf-8")
    assert changed > len(before) // 2  # the steps did change the text they compile
