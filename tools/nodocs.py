"""Docstrings left out of the board's modules (tools/deploy.py build(), the last step): RAM,
docs/memory.md.

CircuitPython keeps no docstring (a function has no __doc__ there), so a compiled module is
the same with or without them; but a board that compiles a .py file (`make flash --no-mpy`)
lexes each docstring into a string object of its own and holds it in the parse tree until the
whole module is compiled. bitmap_label's 8.6 KB of docstrings cost some 10 KB more heap at
that moment, on top of everything the app holds then.

strip(text) blanks each docstring (a module's, a class's, a function's) on its lines, and puts
`pass` where it was a body's only statement: every other line stays where it was (tracebacks
name the source's lines). host_tests/test_nodocs.py compares the syntax trees, and the .mpy
files CircuitPython's mpy-cross writes with and without the docstrings.
"""
import ast

from tools import fold

_OWNERS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def docstrings(tree):
    """Returns [(owner node, the docstring's Expr statement)] of a syntax tree."""
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, _OWNERS) and node.body and isinstance(node.body[0], ast.Expr)
                and isinstance(node.body[0].value, ast.Constant)
                and isinstance(node.body[0].value.value, str)):
            out.append((node, node.body[0]))
    return out


def strip(text):
    """Returns `text` with its docstrings blanked (see the module docstring); ValueError if a
    docstring shares a line with other code (`def f(): "doc"; return 1`)."""
    tree = ast.parse(text)
    lines = text.split("\n")
    for owner, doc in docstrings(tree):
        only = len(owner.body) == 1 and not isinstance(owner, ast.Module)
        fold.replace_statement(lines, doc, "pass" if only else "", "a docstring")
    return "\n".join(lines)


def strip_all(sources):
    """Returns {name: text} with strip() applied to each of {name: text}."""
    return fold.each_module(strip, sources)
