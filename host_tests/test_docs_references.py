"""What the docs and the comments name exists (issue 37: "a test that fails when the README, a
page of docs/ or a comment names a file, module, make target or command the repository does
not have").

Read: every Markdown page of the repository (README.md, docs/, host_tests/golden/), the
comments and docstrings of every Python file under lib/, engine/, tools/ and host_tests/ and of
code.py and boot.py (code's string literals are left alone: a test's made-up tree is not a
claim), the comments of the Makefile, requirements/*.txt, .ci/run and tools' .mjs files.

Four kinds of name, each resolved against the checkout:

- a file or folder: a path that starts with one of the repository's top folders (`docs/`,
  `engine/`, `lib/lnr/`, `tools/`, `host_tests/`, `requirements/`), or with `lnr/` (the app as
  the board's /lib holds it: lib/lnr/), must exist; `*` is a glob that must match. A path
  under another folder must end a path the repository has when that folder is one of the
  repository's own (`vm/pystack.py` is tools/vm/pystack.py).
  A bare file name of the repository's kinds (`.py`, `.md`, `.mjs`) must be some file's
  name. A Markdown link is resolved from its page's folder;
- a module, dotted, of lnr, engine or tools (`lnr.ui`, `engine.state`, `tools.vm.cpapp`), and
  after the module any name it defines at its top level (and a class's name after that:
  `lnr.ui.Ui.put`);
- a make target: `make X` must be a target of the Makefile (X an English word that follows
  "make" in prose is not a target: ENGLISH);
- a command: `python -m` and a module must run (a module of the repository that is a file or
  a package with __main__.py, or a module the venv has), and `python -m tools.PKG COMMAND`
  must name a command of the package's table (its __main__.py's COMMANDS).

Not names of the repository, deliberately (NOT_OURS, with why): what lives on a board's drive or
in CircuitPython's and MicroPython's sources, ../shared's files (they exist only beside the
clone), what a command writes, and placeholders. C sources (`.c`, `.h`) are CircuitPython's:
the repository has none.
"""
import ast
import functools
import fnmatch
import glob
import importlib.util
import io
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Names that look like the repository's and are deliberately something else.
NOT_OURS = {
    # Placeholders in usage lines: a package of tools/; a module.
    "tools.PKG", "module",
    # CircuitPython's and MicroPython's own source trees (docs/hardware.md).
    "manifest.py",
    # What a tool or a test writes in a folder of the user's or a tmp_path.
    "mine.py", "script.py", "device_boot.py", "device_code.py",
    # Modules of the past, named as history: what test_private_names' rule caught in them.
    "lnr.slots", "lnr/slots.py",
    # The first n-tuple run's tables, a module until they moved into engine/ntuple_solo.bin (the
    # same entries): docs/bots.md's commands of that run name it as they were printed.
    "engine/ntuple_weights.py",
}

# Words that follow "make" as a verb ("make the ...", "make up") or the tool as a noun
# ("make targets", "make sees"): not targets.
ENGLISH = {"a", "the", "it", "up", "no", "of", "is", "sees", "targets", "target", "command"}

# Stale names held back, (file, name), each with why; one no text names any more is taken out.
# tools/vm/membudget/vm/sizes.py's docstring names the census module, which is gone; but cpcheck's
# harness compiles that file on CircuitPython's VM, and the corrected docstring moved the
# harness's heap (its base 76592 -> 76912 B) so that the session turned the hint down at the
# 88 KB cap, which it fits with no margin since issue 35's hint (smallest heapsize 88 KB).
HELD = {("tools/vm/membudget/vm/sizes.py", "census.py")}

# Which of NOT_OURS, ENGLISH and HELD a run of stale() needed: an entry no text needs goes.
USED = set()


def _ours(name, deliberate):
    # Whether `name` is to be checked: False (and noted) where `deliberate` lists it.
    if name in deliberate:
        USED.add(name)
        return False
    return True


TOPS = ("docs", "engine", "lib", "tools", "host_tests", "requirements")
# The repository's own kinds of file: a bare name of one of these must be some file's name.
OUR_KINDS = (".py", ".md", ".mjs")
EXTENSIONS = ("py|md|txt|mjs|json|png|bin|toml|c|h|zip|mpy|sh|js|csv")

PATH = re.compile(r"(?<![\w./<>-])(\.\./|\./|/)?((?:[\w*-]+/)*[\w*.-]*\w\.(?:%s))(?![\w/])"
                  % EXTENSIONS)
FOLDER = re.compile(r"(?<![\w./<>-])((?:lib/lnr|engine|tools|host_tests|docs|requirements|lnr)"
                    r"(?:/[\w-]+)+)/?(?![\w.*-])")
MODULE = re.compile(r"(?<![\w./-])((?:lnr|engine|tools)(?:\.[A-Za-z_]\w*)+)(?![\w/-])"
                    r"(?:\s+`?([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{2,}\b(?![ -]?[a-z])|`[A-Za-z_]\w*)`?)?")
MAKE = re.compile(r"(?<![\w.$(/-])make\s+([a-z][\w-]*)(?![\w.-])")
PY_M = re.compile(r"\bpython3?\s+-m\s+([\w.]+)(?:[ \t]+([\w-]+))?")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.strip():
        return [f for f in out.stdout.split("\n") if f and (ROOT / f).exists()]
    # A tree without git (an unpacked archive): every file but the venvs' and the VM's.
    skip = (".git", ".venv", ".venv-flash", ".venv-stubs", "node_modules", "build", "dist")
    return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
            if p.is_file() and not set(p.relative_to(ROOT).parts) & set(skip)]


FILES = _files()
BASENAMES = {f.rsplit("/", 1)[-1] for f in FILES}
FOLDERS = {str(Path(f).parent) for f in FILES}
FOLDER_NAMES = {part for f in FOLDERS for part in Path(f).parts}


def _comment_lines(lines, mark):
    # [(line number, text)] of consecutive comment lines joined, the mark taken off, so that a
    # name broken over two lines is read whole.
    out, run = [], []
    for i, line in enumerate(lines, 1):
        s = line.strip()
        if s.startswith(mark):
            run.append((i, s[len(mark):]))
        elif run:
            out.append((run[0][0], "\n".join(t for _, t in run)))
            run = []
    if run:
        out.append((run[0][0], "\n".join(t for _, t in run)))
    return out


def _python_texts(source):
    # The comments (a run of lines as one) and the docstrings, each with its first line.
    texts, run, last = [], [], None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            line = tok.start[0]
            if run and line != last + 1:
                texts.append((run[0][0], "\n".join(t for _, t in run)))
                run = []
            run.append((line, tok.string.lstrip("#")))
            last = line
    if run:
        texts.append((run[0][0], "\n".join(t for _, t in run)))
    # Docstrings are statements: only the statements' bodies are walked, not the expressions.
    stack = [ast.parse(source)]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                texts.append((body[0].lineno, body[0].value.value))
        for field in ("body", "orelse", "finalbody", "handlers"):
            stack.extend(n for n in getattr(node, field, ()) if isinstance(n, ast.AST))
    return texts


def texts():
    """Yields (file, first line, text): every page and every comment or docstring read."""
    for f in FILES:
        path = ROOT / f
        top = f.split("/")[0]
        if f.endswith(".md"):
            yield f, 1, path.read_text()
        elif f.endswith(".py") and (top in ("lib", "engine", "tools", "host_tests")
                                    or f in ("code.py", "boot.py")):
            for line, text in _python_texts(path.read_text()):
                yield f, line, text
        elif f == "Makefile" or f == ".ci/run" or (top == "requirements" and f.endswith(".txt")):
            for line, text in _comment_lines(path.read_text().splitlines(), "#"):
                yield f, line, text
        elif f.endswith(".mjs") and top == "tools":
            for line, text in _comment_lines(path.read_text().splitlines(), "//"):
                yield f, line, text


def _exists(rel):
    if "*" in rel:
        return bool(glob.glob(str(ROOT / rel)))
    return (ROOT / rel).exists()


def path_problem(name, page=None):
    """Returns why `name` (a path as written) names nothing of the repository, or None."""
    name = name.lstrip("*")  # **bold** Markdown
    if not _ours(name, NOT_OURS) or name.startswith("../shared/") or name.endswith((".c", ".h")):
        return None
    if name.startswith("/") or name.startswith("../"):
        return None  # a board's or the machine's path, or beside the clone
    rel = name[2:] if name.startswith("./") else name
    parts = rel.split("/")
    if len(parts) == 1:
        if not rel.endswith(OUR_KINDS) or re.search(r"[A-Z]{3,}", rel):
            return None  # a file of another kind, or a placeholder (NEW.py, PICTURE.png)
        return None if rel in BASENAMES else "no file of this name"
    if re.search(r"(^|[/_-])[A-Z]{3,}", rel):
        # A placeholder (docs/screenshots/NAME.png): it stands for some files.
        rel = re.sub(r"[A-Z]{3,}", "*", rel)
    if parts[0] == "lnr":
        return None if _exists("lib/" + rel) else "no such file under lib/"
    if parts[0] == "lib":
        if parts[1] == "engine":  # the board's /lib/engine is the repository's engine/
            return None if _exists(rel[4:]) else "no such file in engine/"
        if parts[1] != "lnr":
            return None  # the board's /lib, or CircuitPython's lib/ (its sources)
    if parts[0] in TOPS:
        return None if _exists(rel) else "no such file"
    if parts[0] in FOLDER_NAMES:
        pattern = "*/" + rel
        if any(fnmatch.fnmatch(f, pattern) for f in FILES):
            return None
        return "no file ends in this path"
    return None  # another tree's path (CircuitPython's, a board's, a tmp folder's)


def _defined(tree):
    # The names a module (or a class body) binds at its top level.
    names = set()
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        names.add(sub.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(getattr(node, field, []))
        elif isinstance(node, ast.ExceptHandler):
            stack.extend(node.body)
    return names


@functools.lru_cache(maxsize=None)
def _module_tree(path):
    return ast.parse(path.read_text())


def _module_file(dotted):
    # The file of a module of ours (lnr is under lib/), or None.
    base = ROOT / ("lib/" if dotted.startswith("lnr") else "") / dotted.replace(".", "/")
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_problem(name, loose=False):
    """Returns why the dotted `name` names nothing of the repository, or None: its longest
    prefix that is a module, then a name that module defines, then one its class defines
    (`loose`, for "module `name`": a name that module or one of its classes defines)."""
    if not _ours(name, NOT_OURS):
        return None
    parts = name.split(".")
    if parts[-1] in EXTENSIONS.split("|"):
        return None  # a file's name (engine.md)
    n = len(parts)
    while n and _module_file(".".join(parts[:n])) is None:
        n -= 1
    if n == 0:
        return "no such module"
    rest = parts[n:]
    if not rest:
        return None
    tree = _module_tree(_module_file(".".join(parts[:n])))
    names = _defined(tree)
    if loose:
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                names |= _defined(node)
    if rest[0] not in names:
        return "%s has no %s" % (".".join(parts[:n]), rest[0])
    if len(rest) > 1:
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == rest[0]:
                own = _defined(node)
                own |= {a.attr for a in ast.walk(node) if isinstance(a, ast.Attribute)
                        and isinstance(a.value, ast.Name) and a.value.id == "self"}
                if rest[1] not in own:
                    return "%s has no %s" % (rest[0], rest[1])
    return None


def _targets():
    text = (ROOT / "Makefile").read_text()
    found = set(re.findall(r"^([a-z][\w-]*):", text, re.M))
    for phony in re.findall(r"^\.PHONY:((?:.*\\\n)*.*)", text, re.M):
        found.update(phony.replace("\\", " ").split())
    return found


TARGETS = _targets()


def make_problem(target):
    if target in TARGETS or not _ours(target, ENGLISH):
        return None
    return "no such make target"


def _commands(package):
    # The keys of tools.PKG's COMMANDS table (its __main__.py), or None without one.
    main = ROOT / "tools" / package / "__main__.py"
    if not main.is_file():
        return None
    for node in ast.parse(main.read_text()).body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMMANDS"
                                                 for t in node.targets)):
            return {k.value for k in node.value.keys}
    return None


def command_problem(module, word):
    """Returns why `python -m module [word]` would not run, or None."""
    if not _ours(module, NOT_OURS):
        return None
    if module.split(".")[0] in ("lnr", "engine", "tools"):
        file = _module_file(module)
        if file is None:
            return "no such module"
        if file.name == "__init__.py" and not (file.parent / "__main__.py").is_file():
            return "a package without __main__.py"
        commands = _commands(module.split(".")[1]) if module.count(".") == 1 else None
        if commands is not None and word and word[0].islower() and word not in commands:
            return "%s has no command %s" % (module, word)
        return None
    if importlib.util.find_spec(module.split(".")[0]) is None:
        return "no such module in the venv"
    return None


def stale():
    """Returns [(file:line, name, why)]: every name read that the repository does not have."""
    found = []
    for f, first, text in texts():
        def at(m):
            return "%s:%d" % (f, first + text.count("\n", 0, m.start()))
        for m in PATH.finditer(text):
            why = path_problem((m.group(1) or "") + m.group(2))
            if why and (f, m.group(2)) in HELD:
                USED.add((f, m.group(2)))
            elif why:
                found.append((at(m), (m.group(1) or "") + m.group(2), why))
        for m in FOLDER.finditer(text):
            rel = m.group(1)
            rel = "lib/" + rel if rel.startswith("lnr") else rel
            if not ((ROOT / rel).exists() or (ROOT / (rel + ".py")).exists()):
                found.append((at(m), m.group(1), "no such folder"))
        if f.endswith(".md"):
            for m in LINK.finditer(text):
                target = m.group(1).split("#")[0]
                if not target or re.match(r"\w+:", target):
                    continue  # an anchor of the page, or a URL
                if not (ROOT / f).parent.joinpath(target).exists():
                    found.append((at(m), target, "the link leads nowhere"))
        for m in MODULE.finditer(text):
            # "engine.budget UNITS_PER_S", "engine.ai `weight_row`": the module, then its name.
            name, loose = m.group(1), False
            if m.group(2) and not re.search(r"-m\s+$", text[:m.start()]):  # not an argument
                name, loose = name + "." + m.group(2).strip("`"), True
            why = module_problem(name, loose)
            if why:
                found.append((at(m), name, why))
        for m in MAKE.finditer(text):
            why = make_problem(m.group(1))
            if why:
                found.append((at(m), "make " + m.group(1), why))
        for m in PY_M.finditer(text):
            why = command_problem(m.group(1), m.group(2))
            if why:
                found.append((at(m), m.group(0), why))
    return found


def test_every_file_module_target_and_command_named_exists():
    USED.clear()
    found = stale()
    assert not found, "%d names the repository does not have:\n%s" % (
        len(found), "\n".join("  %s: %s (%s)" % row for row in found))
    # Each exception is still needed: one no text names any more is taken out of the lists.
    assert (NOT_OURS | ENGLISH | HELD) - USED == set()


# The checks themselves, on names that are (and are not) the repository's: each kind catches
# the stale name issue 37 found and passes the real one beside it.
def test_a_path_is_resolved_as_the_board_and_the_docs_write_it():
    assert path_problem("lnr/moves.py")
    assert path_problem("lnr/make.py") is None
    assert path_problem("lib/lnr/hint.py")
    assert path_problem("lib/lnr/play/hint.py") is None
    assert path_problem("host_tests/test_cards.py")
    assert path_problem("lib/engine/state.py") is None  # the board's /lib/engine
    assert path_problem("docs/screenshots/NAME.png") is None
    assert path_problem("vm/pystack.py") is None
    assert path_problem("play/think.py")
    assert path_problem("think.py")
    assert path_problem("supervisor/shared/flash.c") is None


def test_a_module_and_the_names_after_it_are_resolved():
    assert module_problem("lnr.moves")
    assert module_problem("lnr.switch")
    assert module_problem("lnr.games") is None
    assert module_problem("lnr.memory.switch") is None
    assert module_problem("engine.budget.UNITS_PER_S") is None
    assert module_problem("engine.ai.UNITS_PER_S")  # docs/hardware.md's, in engine.budget
    assert module_problem("engine.lookahead._leaf")
    assert module_problem("engine.lookahead._leaf", loose=True) is None  # a method
    assert module_problem("lnr.ui.Ui.put") is None
    assert module_problem("lnr.ui.Ui.no_such_method")


def test_make_targets_and_commands_are_resolved():
    assert make_problem("cpcheck") is None and make_problem("membudget")
    assert command_problem("tools.bots", "bench") is None
    assert command_problem("tools.bots", "tunes")
    assert command_problem("tools.vm", "waits") is None
    assert command_problem("engine.selfplay", None) is None
    assert command_problem("tools.flash.deploy", None) is None
    assert command_problem("tools.standins", None)  # a package without __main__.py
    assert command_problem("pytest", None) is None


def test_the_engines_desktop_only_list_is_what_the_board_does_not_import():
    # docs/engine.md, "What runs where", against tools.flash.imports' graph (issue 37: the page
    # had left engine.playout and engine.setup off).
    from tools.flash import imports

    page = (ROOT / "docs" / "engine.md").read_text()
    section = page.split("## What runs where", 1)[1].split("\n## ", 1)[0]
    listed = {"engine." + name for name in re.findall(r"`engine/(\w+)\.py`", section)}
    shipped = imports.reachable()
    desktop = {name for name in imports.module_files() if name.startswith("engine.")} - shipped
    assert listed == desktop
