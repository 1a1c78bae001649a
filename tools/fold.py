"""Constants folded across modules for the board (tools/deploy.py build()), as a C compiler folds
a #define: RAM, docs/memory.md.

MicroPython and CircuitPython fold a `NAME = const(7)` inside the module that defines it, but
a module that imports it (`from engine.codes import A_LAY`) looks it up at run time: the name
is interned (never freed), it is a global of the defining module and of every importer, and
each use is a dictionary lookup. The app shares some 240 such names (screen ids, actions,
colours, sprite numbers), a few KB of a heap whose budget is 80 KB.

fold(sources) rewrites the shipped sources before they are compiled (or copied, for a board
that compiles them):

- in an importer, each use of an imported constant becomes its value, and the name leaves the
  module-level `from M import ...` (the statement goes if nothing is left, so a module of
  constants only is never loaded);
- in the defining module, a constant that no shipped module names any more becomes private
  (`_NAME = const(...)`), which the compiler keeps out of the module's globals and the name
  pool altogether.

Every line stays where it was (tracebacks name the source's lines), and a module's meaning is
unchanged: host_tests/test_fold.py compares each rewritten module's syntax tree with the
original's with the values put in. Only what is sure is folded: names bound nowhere else in the
importing module, imports at module level, int values.
"""
import ast
import io
import tokenize

CONST_CALL = "const"


def _const_value(node, known):
    # The int a const() argument evaluates to, with the constants known so far; None if it
    # is anything else.
    try:
        code = compile(ast.Expression(node), "<const>", "eval")
        value = eval(code, {"__builtins__": {}}, dict(known))  # noqa: S307 - ints only
    except Exception:  # noqa: BLE001 - not a constant we can fold
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def own_constants(tree):
    """Returns {NAME: int} of a module's top-level `NAME = const(int expression)`."""
    out = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == CONST_CALL
                and len(node.value.args) == 1):
            value = _const_value(node.value.args[0], out)
            if value is not None:
                out[node.targets[0].id] = value
    return out


def _top_imports(tree):
    # The module-level `from X import ...` statements, those inside a top-level try too.
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            out.append(node)
        elif isinstance(node, ast.Try):
            out.extend(n for n in node.body if isinstance(n, ast.ImportFrom) and n.level == 0)
    return out


def _bound_elsewhere(tree, imports):
    # Names the module binds other than by the given imports (assignments, parameters, defs,
    # other imports, global statements): such a name is not folded.
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Global):
            out.update(node.names)
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and node not in imports:
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
    return out


def constants(trees):
    """Returns {module: {NAME: int}}: each module's constants, its own and those it imports
    at module level from another module (re-exported: engine.state's A_LAY is engine.codes')."""
    out = {name: own_constants(tree) for name, tree in trees.items()}
    changed = True
    while changed:
        changed = False
        for name, tree in trees.items():
            for node in _top_imports(tree):
                for alias in node.names:
                    value = out.get(node.module, {}).get(alias.name)
                    local = alias.asname or alias.name
                    if value is not None and local not in out[name]:
                        out[name][local] = value
                        changed = True
    return out


def _folds(tree, known):
    # {local name: value} the module imports and may fold, and the imports they come from.
    imports = _top_imports(tree)
    bound = _bound_elsewhere(tree, imports)
    out = {}
    for node in imports:
        for alias in node.names:
            value = known.get(node.module, {}).get(alias.name)
            local = alias.asname or alias.name
            if value is not None and local not in bound:
                out[local] = value
    return out, imports


def replace_spans(lines, spans):
    """Replaces (line, start col, end col, text) spans in `lines` (str, one a line): byte
    columns of the UTF-8 lines, as ast gives them (tools/shrink.py uses it too)."""
    for line, start, end, text in sorted(spans, reverse=True):
        b = lines[line - 1].encode()
        lines[line - 1] = (b[:start] + text.encode() + b[end:]).decode()


def _import_text(node, keep, indent):
    # The statement importing `keep` from node.module on its first line, blank lines after
    # it: the lines below stay where they were.
    if keep:
        first = "%sfrom %s import %s" % (indent, node.module, ", ".join(keep))
    else:
        first = indent + "pass  # constants only: folded (tools/fold.py)"
    return [first] + [""] * (node.end_lineno - node.lineno)


def _parents(tree):
    # {node: the node it is a child of} of a syntax tree.
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _literal(value, parent):
    # An int's text where a name was: in parentheses where a bare literal would not read the
    # same (a negative value, `7.bit_length()`).
    text = str(value)
    if value < 0 or isinstance(parent, ast.Attribute):
        text = "(%s)" % text
    return text


def fold_module(text, known, exports=()):
    """Returns `text` with the constants it imports folded (see the module docstring).
    `known`: constants() of the whole tree; `exports`: names other modules still import from
    this one, or read as an attribute (tools/fold.py exported()): their imports stay."""
    tree = ast.parse(text)
    folds, imports = _folds(tree, known)
    objects = _folded_objects(tree, known)
    if not folds and not objects:
        return text
    parents = _parents(tree)
    lines = text.split("\n")
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in folds:
            if node.lineno != node.end_lineno:
                raise ValueError("a name over two lines at line %d" % node.lineno)
            spans.append((node.lineno, node.col_offset, node.end_col_offset,
                          _literal(folds[node.id], parents.get(node))))
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name) and node.value.id in objects
                and node.attr in known[objects[node.value.id]]):
            if node.lineno != node.end_lineno:
                raise ValueError("an attribute over two lines at line %d" % node.lineno)
            spans.append((node.lineno, node.col_offset, node.end_col_offset,
                          _literal(known[objects[node.value.id]][node.attr],
                                   parents.get(node))))
    replace_spans(lines, spans)
    # A module imported as an object for its constants only is imported no more.
    left = {n.id for n in ast.walk(ast.parse("\n".join(lines))) if isinstance(n, ast.Name)}
    gone = {name for name in objects if name not in left}
    for node in imports:
        keep = [a.name if a.asname is None else "%s as %s" % (a.name, a.asname)
                for a in node.names
                if ((a.asname or a.name) not in folds and (a.asname or a.name) not in gone)
                or (a.asname or a.name) in exports]
        if len(keep) == len(node.names):
            continue
        first = lines[node.lineno - 1]
        indent = first[:len(first) - len(first.lstrip())]
        # The statement must have its lines to itself (no `;`, nothing after its end).
        tail = lines[node.end_lineno - 1].encode()[node.end_col_offset:].decode().strip()
        if tail and not tail.startswith("#"):
            raise ValueError("line %d: code after an import" % node.end_lineno)
        lines[node.lineno - 1:node.end_lineno] = _import_text(node, keep, indent)
    return "\n".join(lines)


def _names_in(text):
    # Every NAME token of a module's text.
    out = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME:
            out.add(tok.string)
    return out


def hide_module(text, unused):
    """Returns a defining module's `text` with its constants in `unused` (names no other
    shipped module uses) made private: `_NAME`, every use of it in the module too."""
    tree = ast.parse(text)
    mine = own_constants(tree)
    hide = [n for n in unused if n in mine and not n.startswith("_")]
    if not hide:
        return text
    taken = _names_in(text)
    lines = text.split("\n")
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in hide and "_" + node.id not in taken:
            spans.append((node.lineno, node.col_offset, node.end_col_offset, "_" + node.id))
    replace_spans(lines, spans)
    return "\n".join(lines)


def _module_locals(tree, modules):
    # {local name: module} of the modules a module imports as objects (`from lnr import
    # sprites`, `import engine.ai as ai`).
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            for a in node.names:
                full = "%s.%s" % (node.module, a.name)
                if full in modules:
                    out[a.asname or a.name] = full
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and a.name in modules:
                    out[a.asname] = a.name
    return out


def _folded_objects(tree, known):
    # {local name: module} of the modules imported at module level as objects whose constants
    # are read as attributes (`sprites.T_LOCO`), the local name bound nowhere else.
    imports = _top_imports(tree)
    objects = {}
    for node in imports:
        for a in node.names:
            full = "%s.%s" % (node.module, a.name)
            if full in known:
                objects[a.asname or a.name] = full
    bound = _bound_elsewhere(tree, imports)
    return {name: mod for name, mod in objects.items() if name not in bound}


def exported(trees, known):
    """Returns {module: names} that must stay importable from it after folding: those a
    module imports from it without folding them (in a function, or bound again there), and
    those read as an attribute of it (`sprites.T_LOCO`, the module imported as an object)."""
    out = {name: set() for name in trees}
    for tree in trees.values():
        folds, imports = _folds(tree, known)
        objects = _module_locals(tree, out)
        folded = _folded_objects(tree, known)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in objects):
                mod = objects[node.value.id]
                if not (node.value.id in folded and isinstance(node.ctx, ast.Load)
                        and node.attr in known[mod]):
                    out[mod].add(node.attr)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in out:
                for a in node.names:
                    if node not in imports or (a.asname or a.name) not in folds:
                        out[node.module].add(a.name)
    return out


def fold(sources):
    """Returns {module: text} for {module: text} of the shipped modules that are ours: the
    constants folded into their importers, and made private where nothing else names them."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    known = constants(trees)
    exports = exported(trees, known)
    out = {name: fold_module(text, known, exports[name]) for name, text in sources.items()}
    used = {name: _names_in(text) for name, text in out.items()}
    for name, text in out.items():
        others = set()
        for other, names in used.items():
            if other != name:
                others |= names
        unused = [n for n in own_constants(trees[name]) if n not in others]
        out[name] = hide_module(text, unused)
    return out


# ---------------------------------------------------------------------------------------------
# A module's own private constants, written as their values

def inline_private_module(text):
    """Returns `text` with each of its private int constants (`_NAME = const(...)` at module
    level, bound nowhere else) written as its value where it is read, and its definition a
    `pass` on the same lines.

    The compiler folds a private constant too and keeps it out of the module's globals, so a
    .mpy file is the same either way; but a board that compiles the .py file (`make flash
    --no-mpy`) interns every name its lexer reads, each private constant's included, for good:
    some 200 names (docs/memory.md)."""
    tree = ast.parse(text)
    mine = {n: v for n, v in own_constants(tree).items() if n.startswith("_")}
    bound = {}
    for node in ast.walk(tree):
        stored = isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
        for name in (node.id,) if stored else binding_names(node):
            bound[name] = bound.get(name, 0) + 1
    values = {n: v for n, v in mine.items() if bound.get(n) == 1}
    if not values:
        return text
    parents = _parents(tree)
    lines = text.split("\n")
    spans = []
    definitions = []
    for stmt in tree.body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in values):
            definitions.append(stmt)
    inside = {id(n) for stmt in definitions for n in ast.walk(stmt)}
    for node in ast.walk(tree):  # every other use is a read: the name is bound once
        if (isinstance(node, ast.Name) and node.id in values and id(node) not in inside):
            if node.lineno != node.end_lineno:
                raise ValueError("a name over two lines at line %d" % node.lineno)
            spans.append((node.lineno, node.col_offset, node.end_col_offset,
                          _literal(values[node.id], parents.get(node))))
    replace_spans(lines, spans)
    for stmt in definitions:
        replace_statement(lines, stmt, "pass", "a constant")
    return "\n".join(lines)


def replace_statement(lines, stmt, text, what):
    """Puts `text` (indented as the statement) where a statement stood in `lines` (str, one a
    line), the statement's other lines blank: the lines below stay where they were
    (tools/nodocs.py uses it too). ValueError, naming `what` the statement is, if it shares a
    line with other code (a comment after it goes with it)."""
    head = lines[stmt.lineno - 1].encode()[:stmt.col_offset].decode()
    tail = lines[stmt.end_lineno - 1].encode()[stmt.end_col_offset:].decode().strip()
    if head.strip() or (tail and not tail.startswith("#")):
        raise ValueError("line %d: %s shares its line" % (stmt.lineno, what))
    lines[stmt.lineno - 1:stmt.end_lineno] = (
        [head + text if text else ""] + [""] * (stmt.end_lineno - stmt.lineno))


def binding_names(node):
    """Returns the names a node binds other than as an ast.Name: a parameter, a def or class,
    an import, `except ... as`, a global or nonlocal statement, a match pattern's capture
    (tools/shrink.py uses it too)."""
    if isinstance(node, ast.arg):
        return (node.arg,)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return (node.name,)
    if isinstance(node, ast.alias):
        return ((node.asname or node.name).split(".")[0],)
    if isinstance(node, ast.ExceptHandler) and node.name:
        return (node.name,)
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return tuple(node.names)
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return (node.name,)
    if isinstance(node, ast.MatchMapping) and node.rest:
        return (node.rest,)
    return ()


def each_module(transform, sources):
    """Returns {module: transform(text)} for {module: text} (the build's steps are each a
    function of one module's text); a ValueError it raises names its module."""
    out = {}
    for name, text in sources.items():
        try:
            out[name] = transform(text)
        except ValueError as e:
            raise ValueError("%s: %s" % (name, e)) from None
    return out


def inline_private(sources):
    """Returns {module: text} with inline_private_module() applied to each."""
    return each_module(inline_private_module, sources)
