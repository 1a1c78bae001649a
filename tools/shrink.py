"""Parameter and local names shortened for the board (tools/deploy.py build(), after
tools/fold.py): RAM, docs/memory.md.

A compiled function keeps the names of its parameters (a call may pass them by keyword), and
every name is interned on the board for good: its text plus a byte, and 6 B of a name pool.
Its other locals keep no name in a .mpy file, but a board that compiles the .py file (`make
flash --no-mpy`) interns every name its lexer reads, each local's included. So a parameter
named `sprite_sheet` costs some 20 B of RAM that a parameter named `a` does not: CircuitPython
holds `a`, `b`, `c` ... in ROM already (SHORT).

shrink(sources, keywords) renames, in the shipped modules that are ours, each parameter
(positional, keyword-only, *args, **kwargs; of functions, methods, lambdas, nested functions)
that no call can pass by keyword, and each local a function stores as a plain name (an
assignment, a loop's or `with`'s variable, a `del`):

- a parameter's name is no keyword of any call in the shipped modules, ours and the
  libraries' (a library might call one of ours by keyword): keywords();
- the function calls none of locals(), vars(), eval(), exec(), dir(), globals(), which could
  read a local by its name;
- every place the name stands for the parameter or local is a plain name (not `global`,
  `nonlocal`, `except ... as`, an import or a def binding it), and no scope nested in the
  function binds the name again (a nested function's parameter, a comprehension's variable,
  a class attribute, a walrus in a comprehension): then every occurrence of the name inside the
  function is the parameter or local.

A parameter's new name is the first of SHORT that the function does not use in any way (its
other parameters, any name its body or a nested scope reads or writes, keyword names of the
shipped calls), a local's the first such of LOCALS (keywords allowed: no call passes a local),
so the same few names serve every function. A function nested in another is renamed after it,
with the outer one's new names as names it uses. `self` stays: it is in ROM already. The build
shrinks the libraries' modules too: the board runs no code but the shipped tree, whose calls
keywords() reads, so a library's parameter no shipped call passes by keyword is no name anyone
reaches (adafruit_display_text's `new_label_direction`, `outline_accent_ranges` ...).

Every line stays where it was (tracebacks name the source's lines), and a module's meaning is
unchanged: host_tests/test_shrink.py maps the names back and compares the syntax trees, and
host_tests/test_nodocs.py compares the .mpy files CircuitPython's mpy-cross writes.
"""
import ast

from tools import fold

# Names CircuitPython 10's VM holds in ROM (host_tests/test_shrink.py checks each on the VM)
# that no shipped call passes by keyword today, in the order they are handed out. `x`, `y`,
# `x1` ... are in ROM too but are keywords (displayio's TileGrid(x=...)): keywords() keeps
# them out in any case.
SHORT = ("a", "b", "c", "e", "g", "r", "A", "Q", "bb", "bg", "br", "gb", "gc", "gg", "gr",
         "io", "ox", "oy", "px", "py", "rb", "rg", "rr", "tb", "xs", "ys")

# The names a function's local takes (tools/shrink.py plan()): SHORT, then ROM names that
# calls pass by keyword (displayio's x=, y=; bitmaptools' x1= ...), which a local may take.
LOCALS = SHORT + ("x", "y", "x1", "y1", "x2", "y2")

# Calls that can read a function's locals by their names: such a function keeps its names.
DYNAMIC = frozenset(("locals", "vars", "eval", "exec", "dir", "globals"))

# The parameter that stays: in ROM already, and zero-argument super() reads it by position.
KEPT = frozenset(("self",))

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def keywords(sources):
    """Returns the set of names passed by keyword in any call of {file: text} sources:
    `f(name=...)`, the keys of a literal dict passed as `f(**{"name": ...})`, and those a
    function stores in its own **kwargs before it passes them on (`f(**kwargs)`: the other
    keys are keywords of the calls that reached it). Raises ValueError where the names a `**`
    passes can't be told: a `**` of anything else, or **kwargs changed otherwise."""
    out = set()
    for where, text in sources.items():
        tree = ast.parse(text)
        own = {}  # {call: the name of the **kwargs of the function it is in}
        for node in ast.walk(tree):  # outer functions first: an inner one's **kwargs wins
            if isinstance(node, _FUNCTIONS) and node.args.kwarg is not None:
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Call):
                        own[inner] = node
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            for k in node.keywords:
                if k.arg is not None:
                    out.add(k.arg)
                elif isinstance(k.value, ast.Dict) and all(
                        isinstance(key, ast.Constant) and isinstance(key.value, str)
                        for key in k.value.keys):
                    out.update(key.value for key in k.value.keys)
                elif (node in own and isinstance(k.value, ast.Name)
                        and k.value.id == own[node].args.kwarg.arg):
                    out.update(_stored_keys(own[node], where))
                else:
                    raise ValueError("%s line %d: a ** whose names can't be told"
                                     % (where, node.lineno))
    return out


def _stored_keys(func, where):
    # The keys a function stores in its own **kwargs (`kwargs["name"] = ...`); ValueError if
    # it binds the name again or changes the dict otherwise (update(), a key not a literal).
    name = func.args.kwarg.arg
    out = set()
    for node in _inside(func):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            raise ValueError("%s line %d: **%s bound again" % (where, node.lineno, name))
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id == name and not isinstance(node.ctx, ast.Load)):
            if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
                raise ValueError("%s line %d: a key of **%s that can't be told"
                                 % (where, node.lineno, name))
            out.add(node.slice.value)
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == name and node.attr not in ("get", "pop", "keys", "items",
                                                                 "values")):
            raise ValueError("%s line %d: **%s changed by %s()"
                             % (where, node.lineno, name, node.attr))
    return out


def _params(func):
    # The function's parameters (ast.arg nodes), in order.
    a = func.args
    out = list(a.posonlyargs) + list(a.args)
    if a.vararg is not None:
        out.append(a.vararg)
    out.extend(a.kwonlyargs)
    if a.kwarg is not None:
        out.append(a.kwarg)
    return out


def _inside(func):
    # The nodes evaluated in the function's own scope or scopes nested in it: its body, not
    # its defaults, decorators and annotations (evaluated where it is defined).
    body = func.body if isinstance(func.body, list) else [func.body]
    for stmt in body:
        yield from ast.walk(stmt)


def _stored_in_nested(func):
    # Names stored or deleted in a scope nested in the function (a comprehension's variable,
    # a nested function's or class's local): not the function's own there. (The nested
    # scopes' other bindings, their parameters first, are fold.binding_names().)
    out = set()
    for node in _inside(func):
        if isinstance(node, _SCOPES):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
                    out.add(inner.id)
    return out


def _own_stores(func):
    # The plain names the function's own scope stores or deletes, in order of appearance (not
    # a nested scope's: a comprehension's variable, a nested function's locals).
    out = []
    body = func.body if isinstance(func.body, list) else [func.body]
    todo = list(reversed(body))
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES):
            continue
        if (isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
                and node.id not in out):
            out.append(node.id)
        todo.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def plan(func, keyword_names, renamed_outside=None, locals_too=True):
    """Returns {old name: new name} for the function's parameters and locals (see the module
    docstring). `renamed_outside`: {old: new} of the enclosing functions' names, whose new
    names the body will use in place of the old ones. locals_too=False: the parameters
    only."""
    renamed_outside = renamed_outside or {}
    names, bound_otherwise = set(), set()
    for node in _inside(func):
        if isinstance(node, ast.Name):
            names.add(renamed_outside.get(node.id, node.id))
        else:
            for name in fold.binding_names(node):
                names.add(name)
                bound_otherwise.add(name)
    if names & DYNAMIC:
        return {}
    params = [p.arg for p in _params(func)]
    nested = _stored_in_nested(func)
    taken = names | set(params) | set(keyword_names)
    out = {}
    for name in params:
        if name in KEPT or name in SHORT or name in keyword_names:
            continue
        if name in bound_otherwise or name in nested:
            continue  # bound otherwise than as a plain name, or again in a nested scope
        new = next((s for s in SHORT if s not in taken), None)
        if new is None:
            continue
        out[name] = new
        taken.add(new)
    # A local keeps no name in a compiled function, but the board's compiler interns it
    # when it reads a .py file: it takes a ROM name the function does not use. No call
    # passes it by keyword, so keyword names serve too (LOCALS).
    taken = names | set(params) | set(out.values())
    for name in _own_stores(func) if locals_too else ():
        if name in params or name in KEPT or name in LOCALS or name.startswith("__"):
            continue
        if name in bound_otherwise or name in nested:
            continue
        new = next((s for s in LOCALS if s not in taken), None)
        if new is None:
            continue
        out[name] = new
        taken.add(new)
    return out


def _span(lines, lineno, col, name, new):
    # The replacement of `name` at (line, byte column), checked against the text.
    line = lines[lineno - 1].encode()
    if line[col:col + len(name.encode())] != name.encode():
        raise ValueError("line %d: %r is not at column %d" % (lineno, name, col))
    return (lineno, col, col + len(name.encode()), new)


def _spans(nodes, lines, keyword_names, renames, locals_too=True):
    # The replacements for the parameters and locals of the functions in nodes (at any depth)
    # and of the functions nested in those. `renames`: {old: new} of the enclosing functions'
    # names, in force where nodes run.
    out = []
    for node in nodes:
        if not isinstance(node, _FUNCTIONS):
            out.extend(_spans(ast.iter_child_nodes(node), lines, keyword_names, renames,
                              locals_too))
            continue
        # Its decorators, defaults and annotations run where it is defined: here.
        body = node.body if isinstance(node.body, list) else [node.body]
        outside = [part for part in ast.iter_child_nodes(node)
                   if not any(part is stmt for stmt in body)]
        out.extend(_spans(outside, lines, keyword_names, renames, locals_too))
        mine = plan(node, keyword_names, renames, locals_too)
        for p in _params(node):
            if p.arg in mine:
                out.append(_span(lines, p.lineno, p.col_offset, p.arg, mine[p.arg]))
        for inner in _inside(node):
            if isinstance(inner, ast.Name) and inner.id in mine:
                out.append(_span(lines, inner.lineno, inner.col_offset, inner.id,
                                 mine[inner.id]))
        inner_renames = dict(renames)
        inner_renames.update(mine)
        out.extend(_spans(body, lines, keyword_names, inner_renames, locals_too))
    return out


def shrink_module(text, keyword_names, locals_too=True):
    """Returns `text` with its parameters and locals renamed (see the module docstring);
    locals_too=False: its parameters only."""
    tree = ast.parse(text)
    lines = text.split("\n")
    spans = _spans([tree], lines, keyword_names, {}, locals_too)
    if len(spans) != len(set(spans)):
        raise ValueError("a name renamed twice")
    fold.replace_spans(lines, spans)
    return "\n".join(lines)


def shrink(sources, keyword_names, locals_too=True):
    """Returns {module: text} for {module: text} of shipped modules, each parameter no call
    passes by keyword (`keyword_names`: keywords() of every shipped module) and each local
    renamed to a short name (locals_too=False: the parameters only)."""
    return fold.each_module(
        lambda text: shrink_module(text, keyword_names, locals_too=locals_too), sources)

