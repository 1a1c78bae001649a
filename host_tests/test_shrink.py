"""The parameters and locals the board's build renames (tools/shrink.py, docs/memory.md): each
module keeps its meaning and its lines, and a parameter some call passes by keyword keeps its
name.

A rename that made a body read another variable than before (a global, a closure's, another
parameter), missed one use, or renamed a keyword a call passes would make the board run other
code than the one tested on the desktop. Here each renamed module is mapped back name by name
and compared with its source's syntax tree, and small modules built to trip a careless renamer
are run both ways. The game played on CircuitPython's VM from the build (renamed) and from the
sources is compared in host_tests/test_fold.py.
"""
import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import cpvm, deploy, fold, shrink  # noqa: E402

FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
SCOPES = FUNCS + (ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _shipped():
    # {device path: text} of every shipped module (ours, the libraries', code.py, boot.py),
    # and {module: text} of ours folded as the build folds them.
    items = deploy.source_files(ROOT)
    texts = {p: src.read_text(encoding="utf-8") for p, src in items if p.endswith(".py")}
    ours = {deploy.module_name(p[len("lib/"):]): t for p, t in texts.items()
            if p.startswith(("lib/lnr/", "lib/engine/"))}
    return texts, fold.fold(ours)


SHIPPED, FOLDED = _shipped()
KEYWORDS = shrink.keywords(SHIPPED)
SHRUNK = shrink.shrink(FOLDED, KEYWORDS)


# ---- mapping a renamed module back ----------------------------------------------------------

def _params(func):
    a = func.args
    return (list(a.posonlyargs) + list(a.args) + ([a.vararg] if a.vararg else [])
            + list(a.kwonlyargs) + ([a.kwarg] if a.kwarg else []))


def _scope_nodes(func):
    # The nodes of a function's own scope and those nested in it: its parameters and body,
    # not its defaults or decorators (they run where it is defined).
    body = func.body if isinstance(func.body, list) else [func.body]
    out = list(_params(func))
    for stmt in body:
        out.extend(ast.walk(stmt))
    return out


def _own_stores(func):
    # The Name nodes the function's own scope stores or deletes (a local's bindings), in the
    # order of ast.walk; not those of a scope nested in it.
    body = func.body if isinstance(func.body, list) else [func.body]
    out, todo = [], list(body)
    while todo:
        n = todo.pop(0)
        if isinstance(n, SCOPES):
            continue
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            out.append(n)
        todo.extend(ast.iter_child_nodes(n))
    return out


def _identifiers(nodes):
    # Every identifier the nodes use as a variable, in any role.
    out = set()
    for n in nodes:
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.alias):
            out.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            out.update(n.names)
    return out


def _rename(nodes, back):
    # Renames every identifier of the nodes by {name: name}, in every role.
    for n in nodes:
        if isinstance(n, ast.Name) and n.id in back:
            n.id = back[n.id]
        elif isinstance(n, ast.arg) and n.arg in back:
            n.arg = back[n.arg]
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and n.name in back:
            n.name = back[n.name]
        elif isinstance(n, ast.ExceptHandler) and n.name in back:
            n.name = back[n.name]
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            n.names = [back.get(x, x) for x in n.names]
        elif isinstance(n, ast.alias):
            if n.asname in back:
                n.asname = back[n.asname]
            elif n.asname is None and n.name in back:
                n.name = back[n.name]


def mapped_back(source, renamed):
    """Returns (the renamed module's syntax tree with each function's parameters renamed back
    in its scope, {(line, old): new} of the renames). Fails if a renamed function still uses a
    parameter's old name anywhere in its scope: a use the rename missed, which mapping back
    would hide."""
    before, after = ast.parse(source), ast.parse(renamed)
    pairs = list(zip([n for n in ast.walk(after) if isinstance(n, FUNCS)],
                     [n for n in ast.walk(before) if isinstance(n, FUNCS)]))
    assert len(pairs) == sum(isinstance(n, FUNCS) for n in ast.walk(before)) == sum(
        isinstance(n, FUNCS) for n in ast.walk(after)), "functions came or went"
    plans = []
    renames = {}
    for new_f, old_f in pairs:
        new_p, old_p = _params(new_f), _params(old_f)
        assert len(new_p) == len(old_p), "line %d: parameters came or went" % old_f.lineno
        back = {n.arg: o.arg for n, o in zip(new_p, old_p) if n.arg != o.arg}
        for n, o in zip(_own_stores(new_f), _own_stores(old_f)):
            if n.id != o.id:
                assert back.get(n.id, o.id) == o.id, "line %d: %s stands for two names" % (
                    o.lineno, n.id)
                back[n.id] = o.id
        left = set(back.values()) & _identifiers(_scope_nodes(new_f))
        assert not left, "line %d: %s still used after the rename" % (old_f.lineno, left)
        plans.append((new_f, back))
        renames.update({(old_f.lineno, o): n for n, o in back.items()})
    # Breadth-first order reversed: a nested function before the one it is in.
    for new_f, back in reversed(plans):
        _rename(_scope_nodes(new_f), back)
    return after, renames


def assert_same_meaning(source, renamed):
    back, renames = mapped_back(source, renamed)
    assert ast.dump(back) == ast.dump(ast.parse(source))
    assert renamed.count("\n") == source.count("\n")  # every line where it was
    return renames


# ---- the shipped modules --------------------------------------------------------------------

@pytest.mark.parametrize("module", sorted(FOLDED))
def test_a_renamed_module_is_its_source_with_the_parameters_renamed(module):
    assert_same_meaning(FOLDED[module], SHRUNK[module])


def test_a_parameter_some_shipped_call_passes_by_keyword_keeps_its_name():
    # displayio.Group(x=..., y=...), a TileGrid's width=, lnr.make's own: a parameter named
    # like any keyword of any shipped call (ours, the libraries', code.py) keeps it, and no
    # parameter is given one.
    assert {"x", "y", "width"} <= KEYWORDS
    kept = renamed = 0
    for module in FOLDED:
        for new_f, old_f in zip(
                [n for n in ast.walk(ast.parse(SHRUNK[module])) if isinstance(n, FUNCS)],
                [n for n in ast.walk(ast.parse(FOLDED[module])) if isinstance(n, FUNCS)]):
            for n, o in zip(_params(new_f), _params(old_f)):
                if o.arg in KEYWORDS:
                    assert n.arg == o.arg, "%s line %d: %s" % (module, o.lineno, o.arg)
                    kept += 1
                elif n.arg != o.arg:
                    assert n.arg not in KEYWORDS, "%s line %d" % (module, o.lineno)
                    renamed += 1
    assert kept > 5 and renamed > 150  # what it is for: most names go


def test_the_libraries_keywords_count():
    # A library calling one of our functions by keyword: the name stays (the build gathers the
    # keywords of every shipped file, not only ours).
    lib = "def each(callback):\n    callback(count=3)\n"
    ours = "def on_tick(count, total=0):\n    return count + total\n"
    names = shrink.keywords({"lib/somelib.py": lib, "lib/lnr/x.py": ours})
    assert names == {"count"}
    out = shrink.shrink_module(ours, names)
    assert out == "def on_tick(count, a=0):\n    return count + a\n"


def test_the_keywords_a_double_star_passes_count():
    # bitmap_label's Label(font, **kwargs) sets padding_top ... in the kwargs it passes on.
    assert "padding_top" in KEYWORDS
    passes_on = ("def label(font, **kw):\n    kw['count'] = 1\n    if 'total' in kw:\n"
                 "        kw.pop('total')\n    return make(font, **kw)\n")
    literal = "def go(f):\n    return f(**{'count': 1, 'total': 2})\n"
    assert shrink.keywords({"a.py": passes_on}) == {"count"}
    assert shrink.keywords({"a.py": literal}) == {"count", "total"}
    for changed in ("kw.update(more)", "kw[name] = 1", "kw = dict(more)"):
        with pytest.raises(ValueError, match="a.py line 2"):
            shrink.keywords({"a.py": "def label(font, more, name, **kw):\n    %s\n"
                                     "    return make(font, **kw)\n" % changed})
    with pytest.raises(ValueError, match="a.py line 2: a \\*\\* whose names"):
        shrink.keywords({"a.py": "def go(f, opts):\n    return f(**opts)\n"})


def test_the_build_renames_with_every_shipped_files_keywords(tmp_path):
    # deploy.folded_sources(): a library's keyword keeps our parameter's name there too.
    lib = tmp_path / "somelib.py"
    lib.write_text("def each(callback):\n    callback(count=3)\n")
    ours = tmp_path / "x.py"
    ours.write_text("def on_tick(count, total=0):\n    return count + total\n")
    out = deploy.folded_sources([("lib/lnr/x.py", ours), ("lib/somelib.py", lib)],
                                program_names=False)
    assert out["lib/lnr/x.py"] == b"def on_tick(count, a=0):\n    return count + a\n"
    lib.write_text("def each(callback):\n    callback(3)\n")
    out = deploy.folded_sources([("lib/lnr/x.py", ours), ("lib/somelib.py", lib)],
                                program_names=False)
    assert out["lib/lnr/x.py"] == b"def on_tick(a, b=0):\n    return a + b\n"
    assert out["lib/somelib.py"] == b"def each(a):\n    a(3)\n"


def test_a_double_star_whose_names_cannot_be_told_stops_the_build(tmp_path):
    ours = tmp_path / "x.py"
    ours.write_text("OPTIONS = {'total': 1}\n\n\ndef on(count, total=0):\n    return count\n\n\n"
                    "on(1, **OPTIONS)\n")
    with pytest.raises(deploy.DeployError, match="x.py line 8: a \\*\\* whose names"):
        deploy.folded_sources([("lib/lnr/x.py", ours)])


# ---- modules built to trip a renamer --------------------------------------------------------

def _run(source, call):
    # Executes the module and returns what `call` (an expression) evaluates to there.
    env = {}
    exec(compile(source, "<m>", "exec"), env)  # noqa: S102 - the test's own code
    return eval(call, env)  # noqa: S307


CASES = [
    # (why, source, calls whose results must not change, keywords of the shipped calls,
    #  {(line, old name): new name}: the renames the case is about; a case that renamed
    #  nothing where it should would prove nothing)
    ("a parameter named like nothing else: renamed, its uses too",
     "def f(count, step):\n    return count * 10 + step\n", ["f(1, 2)"], set(),
     {(1, "count"): "a", (1, "step"): "b"}),
    ("the body reads a global named like the first short name: not `a`",
     "a = 100\n\ndef f(p):\n    return a + p\n", ["f(1)"], set(),
     {(3, "p"): "b"}),
    ("a builtin the body calls is no candidate either",
     "def f(items):\n    e = 1\n    return len(items) + e\n", ["f([1, 2])"], set(),
     {(1, "items"): "a"}),
    ("a nested function reads the outer parameter: both renamed alike, the inner one's "
     "parameter gets another name",
     "def f(p):\n    def g(q):\n        return p * 10 + q\n    return g(2)\n", ["f(1)"], set(),
     {(1, "p"): "a", (2, "q"): "b"}),
    ("a closure returned and called later",
     "def f(p):\n    return lambda q: (p, q)\n", ["f(1)(2)"], set(),
     {(1, "p"): "a", (2, "q"): "b"}),
    ("a nested function binds the same name: the outer one keeps it",
     "def f(p):\n    def g(p):\n        return p + 1\n    return g(10) + p\n", ["f(1)"], set(),
     {(2, "p"): "a"}),
    ("a comprehension's variable named like the parameter: kept",
     "def f(p):\n    return [p for p in range(3)] + [p]\n", ["f(7)"], set(),
     {}),
    ("a comprehension reads the parameter: renamed inside it too",
     "def f(p, rows):\n    return [p + r for r in rows]\n", ["f(1, [1, 2])"], set(),
     {(1, "p"): "a", (1, "rows"): "b"}),
    ("a default reads a global named like the parameter: the default is not renamed",
     "p = 10\n\ndef f(q, p=p):\n    return q + p\n", ["f(1)", "f(1, 2)"], set(),
     {(3, "q"): "a", (3, "p"): "b"}),
    ("a default reads the global `a`: still the global",
     "a = 5\n\ndef f(p, k=a):\n    return p + k\n", ["f(1)"], set(),
     {(3, "p"): "a", (3, "k"): "b"}),
    ("a lambda as a nested function's default reads the outer parameter: it runs in the outer "
     "function, and its own parameter avoids the outer one's new name",
     "def f(p):\n    def g(q, k=lambda v: v + p):\n        return k(q)\n    return g(1)\n",
     ["f(10)"], set(),
     {(1, "p"): "a", (2, "q"): "a", (2, "k"): "b", (2, "v"): "b"}),
    ("a lambda as a default, a lambda at module level",
     "key = lambda item: item[1]\n\ndef f(p, k=lambda v: v * 2):\n    return k(p[0]) + key(p)\n",
     ["f((3, 4))"], set(),
     {(1, "item"): "a", (3, "p"): "a", (3, "k"): "b", (3, "v"): "a"}),
    ("keyword-only and *args, **kwargs",
     "def f(first, *rest, scale=1, **more):\n    return first, rest, scale, sorted(more)\n",
     ["f(1, 2, 3)"], set(),
     {(1, "first"): "a", (1, "rest"): "b", (1, "scale"): "c", (1, "more"): "e"}),
    ("a keyword-only parameter passed by keyword keeps its name",
     "def f(first, *, scale=1):\n    return first * scale\n\nR = f(2, scale=3)\n",
     ["f(1)", "R"], {"scale"},
     {(1, "first"): "a"}),
    ("a **kwargs function called with the keyword `a`: no parameter becomes `a`",
     "def f(p, **more):\n    return p, more\n\nR = f(1, a=2)\n", ["R"], {"a"},
     {(1, "p"): "b", (1, "more"): "c"}),
    ("`global` of a name: not a candidate",
     "a = 0\n\ndef f(p):\n    global a\n    a = p\n    return a\n", ["f(3)", "a"], set(),
     {(3, "p"): "b"}),
    ("`except ... as` and a nested def's name: not candidates",
     "def f(p):\n    def a():\n        return 1\n    try:\n        raise KeyError(p)\n"
     "    except KeyError as b:\n        return a() + b.args[0]\n", ["f(3)"], set(),
     {(1, "p"): "c"}),
    ("an import in the body binds a name: not a candidate, the parameter renamed",
     "def f(p):\n    import math as a\n    return a.floor(p)\n", ["f(2.5)"], set(),
     {(1, "p"): "b"}),
    ("locals() reads names: the function keeps them",
     "def f(p):\n    return sorted(locals())\n", ["f(1)"], set(),
     {}),
    ("self stays; zero-argument super() reads it by position",
     "class B:\n    def go(self, n):\n        return n\n\nclass C(B):\n"
     "    def go(self, n):\n        return super().go(n) + 1\n", ["C().go(1)"], set(),
     {(2, "n"): "a", (6, "n"): "a"}),
    ("a name the body declares `global` and never uses: not a candidate (a parameter can't be "
     "global)",
     "def f(p):\n    global a\n    return p\n", ["f(3)"], set(),
     {(1, "p"): "b"}),
    ("a function and a class the body defines and never uses: not candidates",
     "def f(p):\n    def a():\n        pass\n    class b:\n        pass\n    return p\n",
     ["f(3)"], set(),
     {(1, "p"): "c"}),
    ("the parameter bound again by an import in the body: kept",
     "def f(p, q):\n    if q:\n        import math as p\n    return p\n",
     ["f(2, False)", "f(2, True)"], set(),
     {(1, "q"): "a"}),
    ("the parameter bound again by `except ... as`: kept",
     "def f(p, q):\n    try:\n        if q:\n            raise KeyError(q)\n"
     "    except KeyError as p:\n        return p.args\n    return p\n",
     ["f(1, 0)", "f(1, 2)"], set(),
     {(1, "q"): "a"}),
    ("a short parameter the body does not use: the next one does not take its name",
     "def f(a, p):\n    return p\n", ["f(5, 2)"], set(),
     {(1, "p"): "b"}),
    ("a parameter already short stays, the next one avoids it",
     "def f(a, p):\n    return a - p\n", ["f(5, 2)"], set(),
     {(1, "p"): "b"}),
    ("a class in the function reads the parameter",
     "def f(p):\n    class K:\n        v = p\n    return K.v\n", ["f(4)"], set(),
     {(1, "p"): "a"}),
    ("a class body binds the name: kept",
     "def f(p):\n    class K:\n        p = 2\n    return K.p + p\n", ["f(4)"], set(),
     {}),
    ("text with non-ASCII characters before the name on its line (byte columns), f-strings",
     "def f(p, *rest):\n    return \"é\" + f\"{p!s:>{len(rest)}}|{p}\"\n", ["f(1, 2, 3)"], set(),
     {(1, "p"): "a", (1, "rest"): "b"}),
    ("a signature over several lines",
     "def f(first,\n      second=2,\n      *rest):\n    return first + second + len(rest)\n",
     ["f(1)", "f(1, 1, 9)"], set(),
     {(1, "first"): "a", (1, "second"): "b", (1, "rest"): "c"}),
    # Locals: no name in a compiled function, but a board that compiles the .py file interns
    # each one.
    ("a local read in a closure: renamed there too",
     "def f(p):\n    total = p * 2\n    def g():\n        return total + 1\n    return g()\n",
     ["f(3)"], set(),
     {(1, "p"): "a", (1, "total"): "b"}),
    ("loop variables unpacked, an augmented assignment, a del",
     "def f(rows):\n    total = 0\n    for key, value in rows:\n        total += value\n"
     "    last = key\n    del key\n    return total, last\n",
     ["f([(1, 2), (3, 4)])"], set(),
     {(1, "rows"): "a", (1, "total"): "b", (1, "key"): "c", (1, "value"): "e",
      (1, "last"): "g"}),
    ("a keyword of a shipped call: no parameter takes it, a local may",
     "def f(p):\n    count = p\n    return count\n", ["f(4)"], {"a"},
     {(1, "p"): "b", (1, "count"): "a"}),
    ("a nested function stores the name: the outer local keeps it, the inner one is renamed",
     "def f(p):\n    n = 1\n    def g():\n        n = 2\n        return n\n"
     "    return g() + n + p\n",
     ["f(10)"], set(),
     {(1, "p"): "a", (3, "n"): "a"}),
    ("`nonlocal` in a nested function: kept",
     "def f():\n    n = 1\n    def g():\n        nonlocal n\n        n += 1\n"
     "    g()\n    return n\n",
     ["f()"], set(),
     {}),
    ("a walrus in a comprehension binds the function's local: kept",
     "def f(rows):\n    last = None\n    [last := r for r in rows]\n    return last\n",
     ["f([1, 2, 3])"], set(),
     {(1, "rows"): "a"}),
    ("a local named like a global another function reads",
     "count = 5\n\ndef f():\n    count = 1\n    return count\n\ndef g():\n    return count\n",
     ["f()", "g()"], set(),
     {(3, "count"): "a"}),
    ("`with ... as` and a method's locals",
     "class C:\n    def __enter__(self):\n        return 5\n    def __exit__(self, *exc):\n"
     "        return False\n    def m(self, p):\n        with C() as got:\n"
     "            doubled = got * p\n"
     "        return doubled\n",
     ["C().m(2)"], set(),
     {(4, "exc"): "a", (6, "p"): "a", (6, "got"): "b", (6, "doubled"): "c"}),
]


@pytest.mark.parametrize("why,source,calls,keywords,renames", CASES,
                         ids=[c[0][:40] for c in CASES])
def test_a_renamed_module_runs_as_before(why, source, calls, keywords, renames):
    renamed = shrink.shrink_module(source, keywords)
    assert assert_same_meaning(source, renamed) == renames
    for call in calls:
        assert _run(renamed, call) == _run(source, call), call


def test_the_mapping_back_catches_a_careless_rename():
    # The check above is worth something only if a wrong rename fails it.
    source = "a = 100\n\ndef f(p):\n    return a + p\n"
    with pytest.raises(AssertionError):  # p -> a: the body now reads the parameter twice
        assert_same_meaning(source, source.replace("(p)", "(a)").replace("+ p", "+ a"))
    with pytest.raises(AssertionError):  # a use left behind
        assert_same_meaning(source, source.replace("(p)", "(b)"))
    with pytest.raises(AssertionError):  # the default renamed with the parameter
        assert_same_meaning("p = 1\n\ndef f(p=p):\n    return p\n",
                            "p = 1\n\ndef f(a=a):\n    return a\n")
    with pytest.raises(AssertionError):  # the outer parameter renamed, the closure's not
        assert_same_meaning("def f(p):\n    return lambda: p\n",
                            "def f(a):\n    return lambda: p\n")
    with pytest.raises(AssertionError):  # a line moved
        assert_same_meaning("def f(p):\n    return p\n", "def f(a): return a\n")
    with pytest.raises(AssertionError):  # a local renamed, the closure's read of it not
        assert_same_meaning("def f():\n    v = 1\n    return lambda: v\n",
                            "def f():\n    a = 1\n    return lambda: v\n")
    with pytest.raises(AssertionError):  # a local renamed to a global the body reads
        assert_same_meaning("a = 1\n\ndef f():\n    v = 2\n    return v + a\n",
                            "a = 1\n\ndef f():\n    a = 2\n    return a + a\n")


def test_a_librarys_parameters_and_locals_are_renamed_but_a_shipped_keyword():
    # The build shrinks the libraries too (tools/deploy.py folded_sources()): the board runs
    # no caller but the shipped tree, whose keywords keep their names.
    source = "def f(count, *, step=1):\n    total = count + step\n    return total\n"
    ours = "from somelib import f\n\nR = f(2, step=3)\n"
    names = shrink.keywords({"lib/somelib.py": source, "lib/lnr/x.py": ours})
    out = shrink.shrink({"lib/somelib.py": source}, names)["lib/somelib.py"]
    assert out == "def f(a, *, step=1):\n    b = a + step\n    return b\n"
    assert assert_same_meaning(source, out) == {(1, "count"): "a", (1, "total"): "b"}



# ---- the short names are the board's own ----------------------------------------------------

def test_the_short_names_are_in_the_vms_rom(tmp_path):
    # A name CircuitPython holds in ROM costs no RAM when a parameter takes it. Read from a
    # file at run time (the script's own names would be interned by compiling it); a name
    # the VM lacks adds one to n_qstr when getattr() interns it.
    if cpvm.vm() is None:
        pytest.skip(cpvm.MISSING_VM)
    new = cpvm.not_in_rom(shrink.SHORT + ("self", "zq_not_in_rom"), tmp_path)
    assert new == ["zq_not_in_rom"]
