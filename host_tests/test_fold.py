"""The constants the board's build folds across modules (tools/flash/fold.py, docs/memory.md): each
module keeps its meaning and its lines, and the whole app plays the same game from the folded
tree as from the sources.

A fold that put a wrong value in, dropped a name still imported elsewhere, or moved a line
would make the board run other code than the one tested on the desktop; the syntax trees are
compared here, and the game played on CircuitPython's VM from both trees is compared by its
fingerprint (every frame's screen and step, and the NVM at the end).
"""
import ast
import functools
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.flash import deploy, fold  # noqa: E402
from tools.vm import cpapp, cpvm  # noqa: E402


def _ours():
    items = deploy.source_files(ROOT)
    return {deploy.module_name(p[len("lib/"):]): src.read_text(encoding="utf-8")
            for p, src in items if p.startswith(("lib/lnr/", "lib/engine/")) and p.endswith(".py")}


SOURCES = _ours()
KNOWN = fold.constants({name: ast.parse(text) for name, text in SOURCES.items()})


# One pytest worker runs the module (make pytest: --dist loadgroup), and it folds the tree once,
# when a test first asks: at collection each worker folded it, the one that ran none of these
# tests too (1.5 CPU-s).
pytestmark = pytest.mark.xdist_group("test_fold")


@functools.lru_cache(maxsize=None)
def folded_tree():
    """{module: text} of the shipped modules folded (fold.fold, not the build's cache)."""
    return fold.fold(SOURCES)


class _Expected(ast.NodeTransformer):
    # The original module as the fold should leave it: each name the folded module no longer
    # has replaced by its value (an imported constant) or by its private name (one of its own
    # constants made private); imports of folded names gone.
    def __init__(self, values, renamed, dropped, objects):
        self.values = values
        self.renamed = renamed
        self.dropped = dropped
        self.objects = objects  # {local name: module} imported as objects, for constants

    def visit_Attribute(self, node):
        if (isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
                and node.value.id in self.objects
                and node.attr in KNOWN[self.objects[node.value.id]]):
            value = KNOWN[self.objects[node.value.id]][node.attr]
            if value < 0:
                return ast.copy_location(ast.UnaryOp(ast.USub(), ast.Constant(-value)), node)
            return ast.copy_location(ast.Constant(value), node)
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        if node.id in self.renamed:
            return ast.copy_location(ast.Name(self.renamed[node.id], node.ctx), node)
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            value = self.values[node.id]
            if value < 0:
                return ast.copy_location(ast.UnaryOp(ast.USub(), ast.Constant(-value)), node)
            return ast.copy_location(ast.Constant(value), node)
        return node

    def visit_ImportFrom(self, node):
        kept = [a for a in node.names if (a.asname or a.name) not in self.dropped]
        if len(kept) == len(node.names):
            return node
        if not kept:
            return ast.copy_location(ast.Pass(), node)
        node.names = kept
        return node


def _names(tree):
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _loads(tree):
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _imported(tree):
    return {(a.asname or a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            for a in n.names}


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_a_folded_module_is_its_source_with_the_values_put_in(module):
    before = ast.parse(SOURCES[module])
    after = ast.parse(folded_tree()[module])
    mine = fold.own_constants(before)
    renamed = {n: "_" + n for n in _names(before) - _names(after) if n in mine}
    folded = (_loads(before) - _loads(after)) - set(renamed)
    dropped = _imported(before) - _imported(after)
    assert all((n in KNOWN[module] or "lnr." + n in KNOWN or "engine." + n in KNOWN)
               and n not in mine for n in folded | dropped), \
        "a name that is no imported constant (or module of them) was folded or dropped"
    objects = {}
    for node in before.body:  # modules imported as objects at module level
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if "%s.%s" % (node.module, a.name) in KNOWN:
                    objects[a.asname or a.name] = "%s.%s" % (node.module, a.name)
    values = {n: KNOWN[module][n] for n in folded if n not in objects}
    expected = _Expected(values, renamed, dropped, objects).visit(before)
    assert ast.dump(after) == ast.dump(expected)
    # Every line where it was: a traceback on the board names the source's line.
    assert folded_tree()[module].count("\n") == SOURCES[module].count("\n")


def test_nothing_the_board_imports_is_folded_away():
    # Each name a folded module still imports (at any depth) from one of ours, it still has.
    for module, text in folded_tree().items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module in folded_tree():
                tree = ast.parse(folded_tree()[node.module])
                defined = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
                    n.name for n in ast.walk(tree)
                    if isinstance(n, (ast.FunctionDef, ast.ClassDef))} | {
                    (a.asname or a.name) for n in ast.walk(tree)
                    if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
                for a in node.names:
                    if "%s.%s" % (node.module, a.name) in folded_tree():
                        continue  # a module of the package
                    assert a.name in defined, "%s imports %s from %s, which lost it" % (
                        module, a.name, node.module)


def test_the_fold_removes_the_shared_names():
    # What it is for (docs/memory.md): the engine's action codes and the screens' ids are no
    # longer names on the board.
    codes = ast.parse(folded_tree()["engine.codes"])
    public = [n for n in fold.own_constants(codes) if not n.startswith("_")]
    assert "A_LAY" not in public and "P_TURN" not in public
    assert "from lnr.screens import" not in folded_tree()["lnr.games"]


def test_the_app_plays_the_same_game_from_the_folded_tree():
    # The session of make cpcheck, uncapped, from the build's tree (folded) and from the
    # sources, both as the .mpy files CircuitPython's mpy-cross writes: the same screens and
    # steps frame by frame, the same NVM at the end (the run's TRACE; a session run prints
    # the calibration's, without its collection and reading after every frame).
    if cpvm.missing(compiler=True):
        pytest.skip(cpvm.missing(compiler=True))
    keys, _ = cpapp.session()
    compiler = deploy.MpyCross(cpvm.mpy_cross(), deploy.CIRCUITPY_MAJOR)
    traces = []
    for folded in (True, False):
        tree = Path(cpapp.tempfile.mkdtemp(prefix="fold-"))
        try:
            deploy.build(ROOT, compiler, folded=folded).write(tree)
            work = cpapp.Workdir(keys, tree)
            try:
                run = work.run("session")
            finally:
                work.close()
        finally:
            cpapp.shutil.rmtree(tree, ignore_errors=True)
        assert run.fail is None, run.fail
        traces.append(run.trace)
    assert traces[0] == traces[1]
    assert run.games[0] > 0 and run.frames > 8000  # the whole session: every mode's game over
