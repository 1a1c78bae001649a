"""What the board imports: a static import graph of the CIRCUITPY tree.

The tree is the repository's drive files (`code.py`, `boot.py`), the app under `lib/` and the
rules engine under `engine/`. Every `import` statement is read with `ast` (the app's lazy imports
inside functions included: they are plain statements too), so the graph is what the board could
ever import, whatever path a session takes. tools.flash.deploy ships exactly the modules reachable
from `code.py` and `boot.py`; the tests check that the graph has no cycles and that every library
the deploy ships is imported (and every import is shipped or built into CircuitPython).

    python -m tools.flash.imports            # what the board imports, and any cycles

A module the app loads by name while the heap allows (lib/lnr/memory/__init__.py load(), and
the play screen's need() that calls it: `load(app, "lnr.play.plan")`, `self.need("lnr.play.actions")`) is
an import too: its name is a string there.

An import inside a `try` that catches ImportError is optional (`typing` in the Adafruit
libraries, `micropython.const` on CPython): it is followed into our modules and the shipped
libraries, but a name it imports need not be shipped or built in.
"""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# Run by file name on the board: the roots of the graph.
ROOT_FILES = ("code.py", "boot.py")

# Packages of ours and where they live in the repository (the board keeps the same names: the
# deploy writes lib/lnr/ and lib/engine/).
OUR_PACKAGES = {"lnr": "lib/lnr", "engine": "engine"}
# Every package of the repository's, the host tools too: no import cycle among any of them.
REPOSITORY_PACKAGES = dict(OUR_PACKAGES, tools="tools")

# Modules CircuitPython 10 has built in on a PyBadge/PyGamer (its SAMD51 full build) that the app
# may import: an import of anything else must be a shipped library or one of ours.
CIRCUITPYTHON_BUILTINS = frozenset((
    "analogio", "array", "audiocore", "audioio", "audiomixer", "binascii", "bitmaptools", "board",
    "busio", "collections", "digitalio", "displayio", "errno", "gc", "io", "keypad", "math",
    "microcontroller", "micropython", "neopixel_write", "os", "random", "storage", "struct",
    "supervisor", "synthio", "sys", "terminalio", "time", "traceback", "vectorio", "zlib",
    # Built into the firmware although they also exist as PyPI packages for Blinka.
    "adafruit_pixelbuf", "fontio",
))


def module_files(root=ROOT, packages=None):
    """Returns {module name: Path} for the modules of `packages` ({package: folder}, default
    OUR_PACKAGES: the board's; a package is its __init__)."""
    root = Path(root)
    out = {}
    for pkg, rel in (packages or OUR_PACKAGES).items():
        base = root / rel
        for p in sorted(base.rglob("*.py")):
            if "__pycache__" in p.parts:
                continue
            parts = list(p.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([pkg] + parts)] = p
    return out


def _optional_nodes(tree):
    """Returns the ids of import nodes inside a `try` that catches ImportError: optional
    imports (typing on a board, micropython on CPython) that need not be shipped."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(_catches_import_error(h) for h in node.handlers):
            for stmt in node.body:
                for sub in ast.walk(stmt):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        out.add(id(sub))
    return out


def _catches_import_error(handler):
    names = []
    t = handler.type
    if t is None:
        return True
    for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
        if isinstance(e, ast.Name):
            names.append(e.id)
    return "ImportError" in names or "Exception" in names


def _at_load(tree):
    """Returns the statements that run as a module loads: its top level and the bodies of
    top-level if/try blocks, not function or class bodies."""
    out = []
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, (ast.Try, ast.If)):
            todo.extend(node.body + node.orelse)
            for handler in getattr(node, "handlers", ()):
                todo.extend(handler.body)
    return out


# The functions that load a module by its name (see the module's docstring).
LOADERS = ("load", "need")


def _loaded(node):
    # The module a call of one of LOADERS names (its last argument, a string), or None.
    if not isinstance(node, ast.Call) or not node.args:
        return None
    f = node.func
    name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")
    last = node.args[-1]
    if name in LOADERS and isinstance(last, ast.Constant) and isinstance(last.value, str):
        return last.value
    return None


def imports_of(path, modname, known, at_load=False):
    """Returns {imported module: optional?} for one file. Modules in `known` (ours and the
    libraries') are resolved to submodules (`from lnr.memory import drop` is lnr.memory;
    `from lnr import game` is lnr.game), others kept as written. Optional: every import of it is inside a `try` that
    catches ImportError. With `at_load`, only the imports that run as the module loads
    (_at_load(): tools.vm.membudget imports each module after those)."""
    text = Path(path).read_text()
    key = (str(path), text, modname, frozenset(known), at_load)
    if key not in _IMPORTS:
        _IMPORTS[key] = _imports_of(text, path, modname, known, at_load)
    return dict(_IMPORTS[key])


# The answers of imports_of() by file, text and question: a deploy, the membudget's trees and
# the tests follow the same files' imports many times in one process (parsing is most of it).
_IMPORTS = {}


def _imports_of(text, path, modname, known, at_load):
    found = {}

    def add(name, optional):
        found[name] = found.get(name, True) and optional

    is_package = Path(path).name == "__init__.py"
    for kind, name, level, names, optional in _statements(text, str(path), at_load):
        if kind == "load":
            add(name, False)
        elif kind == "import":
            add(name, optional)
        else:
            if level:
                base = modname.split(".")
                base = base[:len(base) - level + (1 if is_package else 0)]
                name = ".".join(base + ([name] if name else []))
            add(name, optional)
            for alias in names:
                if name + "." + alias in known:
                    add(name + "." + alias, optional)
    found.pop(modname, None)
    return found


def _statements(text, filename, at_load):
    """Returns the import statements of a module's source as (kind, module, level, names,
    optional) in the order read: kind "load" (a LOADERS call naming a module), "import" or
    "from" (level and module as written). The same source is parsed once: a copy of the tree
    (a checkout's, a build's) asks again under another path."""
    key = (text, at_load)
    if key not in _STATEMENTS:
        tree = ast.parse(text, filename)
        optional_ids = _optional_nodes(tree)
        out = []
        for node in (_at_load(tree) if at_load else ast.walk(tree)):
            optional = id(node) in optional_ids
            loaded = _loaded(node)
            if loaded is not None:
                out.append(("load", loaded, 0, (), False))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    out.append(("import", alias.name, 0, (), optional))
            elif isinstance(node, ast.ImportFrom):
                out.append(("from", node.module, node.level,
                            tuple(alias.name for alias in node.names), optional))
        _STATEMENTS[key] = tuple(out)
    return _STATEMENTS[key]


_STATEMENTS = {}


def graph(root=ROOT, libraries=None, optional=False, at_load=False, packages=None):
    """Returns {module: [imported modules]} for our modules (those of `packages`, default
    OUR_PACKAGES), the drive's root files (named by file, e.g. "code.py") and `libraries`
    ({module name: Path} of shipped libraries' sources). Optional imports are left out unless
    `optional` is true; with `at_load`, only the imports that run as each module loads."""
    root = Path(root)
    files = module_files(root, packages)
    files.update(libraries or {})
    for name in ROOT_FILES:
        if (root / name).is_file():
            files[name] = root / name
    g = {}
    for name, p in files.items():
        found = imports_of(p, name, files, at_load)
        g[name] = sorted(n for n, opt in found.items() if optional or not opt)
    return g


def reachable(root=ROOT, libraries=None, starts=ROOT_FILES):
    """Returns the set of module names the board may import, starting from `starts`: our
    modules, the libraries' modules, and the other names imported (built-ins). An optional
    import is followed only into modules we have (ours or a library's)."""
    g = graph(root, libraries)
    g_opt = graph(root, libraries, optional=True)
    seen = set()
    todo = [s for s in starts if s in g]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(g.get(name, ()))
        todo.extend(n for n in g_opt.get(name, ()) if n in g)
        if name in ROOT_FILES:
            continue
        # Importing a submodule runs its parent packages first: they ship with it.
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
    return seen - set(ROOT_FILES)


def external(names):
    """Returns the top-level names of `names` that are not our packages (libraries or
    built-ins)."""
    return sorted({n.split(".")[0] for n in names} - set(OUR_PACKAGES))


def cycles(g):
    """Returns the import cycles of graph g: each a sorted list of the modules of one strongly
    connected component with more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in g:
        if start in index:
            continue
        work = [(start, iter(g.get(start, ())))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in g:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(g.get(nxt, ()))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def main(argv=None):
    from tools import cli

    cli.Parser(prog="python -m tools.flash.imports",
               description="The modules the board imports, and any import cycle (exit 1)."
               ).parse_args(argv)
    g = graph()
    names = reachable()
    print("The board imports %d modules of ours:" % len([n for n in names if n.split(".")[0]
                                                         in OUR_PACKAGES]))
    for n in sorted(names):
        if n.split(".")[0] in OUR_PACKAGES:
            print("  " + n)
    print("and these libraries or built-ins: " + ", ".join(external(names)))
    left = sorted(set(module_files()) - names)
    print("Desktop-only (never shipped): " + (", ".join(left) or "none"))
    found = cycles(g)
    for c in found:
        print("import cycle: " + " <-> ".join(c))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
