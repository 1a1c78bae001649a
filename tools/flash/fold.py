"""Constants folded across modules for the board (tools/flash/deploy.py build()), as a C compiler
folds a #define: RAM, docs/memory.md.

MicroPython and CircuitPython fold a `NAME = const(7)` inside the module that defines it, but
a module that imports it (`from engine.codes import A_LAY`) looks it up at run time: the name
is interned (never freed), it is a global of the defining module and of every importer, and
each use is a dictionary lookup. The app shares some 240 such names (screen ids, actions,
colours, sprite numbers), a few KB of a heap whose budget is 88 KB.

fold(sources) rewrites the shipped sources before mpy-cross compiles them:

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
    columns of the UTF-8 lines, as ast gives them."""
    for line, start, end, text in sorted(spans, reverse=True):
        b = lines[line - 1].encode()
        lines[line - 1] = (b[:start] + text.encode() + b[end:]).decode()


def _import_text(node, keep, indent):
    # The statement importing `keep` from node.module on its first line, blank lines after
    # it: the lines below stay where they were.
    if keep:
        first = "%sfrom %s import %s" % (indent, node.module, ", ".join(keep))
    else:
        first = indent + "pass  # constants only: folded (tools/flash/fold.py)"
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
    this one, or read as an attribute (tools/flash/fold.py exported()): their imports stay."""
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
