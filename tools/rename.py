"""Our names shortened for the board (tools/deploy.py build(), after tools/fold.py and
tools/shrink.py): RAM, docs/memory.md.

Every name a compiled module uses beyond its functions' locals (its globals, the attributes it
reads and writes, its functions' and classes' names, its keywords) is interned on the board for
good: its text plus a byte, and 6 B of a name pool. A board holds some names in ROM already:
the builtins' and the built-in types' methods (`zip`, `ljust`, `popitem` ...), which cost
nothing more when one of our names takes them. From a .py file the board interns every local's
name as well.

rename(sources) renames, across the shipped modules that are ours taken as one program, each
name the program itself defines (a def, a class, an assignment, a parameter, an attribute it
stores, an import's `as`, a loop's or `with`'s or `except`'s variable) to one new name, the
same at every place the name stands (a variable, an attribute, a keyword, an import): one
renaming for the whole program, so a module's meaning is unchanged as long as no name is
reached by its text or from outside the program. Names that stay:

- names reached from outside the program: whatever the firmware, the libraries, Python itself
  or the harness that plays the shipped tree (tools/cp_app_session.py, tools/standins/) name
  (`outside`), and the members of any class whose base is not ours (the firmware's C code may
  call them: adafruit_pixelbuf calls `_transmit`);
- names reached by their text: a string in the program equal to the name (`getattr(hw,
  "drive")`, the save codec's field names), and exception classes' names (the error screen
  prints `type(exc).__name__`);
- dunder names, module names and names in ROM already.

The new names: those of ROM (ROM_NAMES, checked on CircuitPython's VM by
host_tests/test_rename.py) for some of the names a compiled module keeps, short ones for the
rest, each chosen by the name's hash so that an edit moves few names (plan()). A new name is no name anywhere in the program, the libraries, the firmware's stubs
or the harness, so it meets none of them in any namespace.

Every line stays where it was, and a traceback from a board names functions by their new
names: `python -m tools.rename NAME ...` prints what each stands for (the build is
deterministic), and `python -m tools.rename < traceback.txt` writes the traceback back.
"""
import ast
import io
import keyword
import pathlib
import re
import sys
import tokenize
import zlib

# Names CircuitPython holds in ROM: builtins and built-in types' methods of the language's core
# (host_tests/test_rename.py checks each on CircuitPython's VM). A new name is one of these
# when no shipped module, stub or harness uses it (most are used: `get`, `sort` ...). Left
# out: dunders, exceptions, the builtins that read a scope by name (eval, exec, dir, locals),
# and what a board may lack (complex, execfile, OrderedDict.move_to_end): a ROM name a board
# lacks would cost one interned name there, nothing worse.
ROM_NAMES = (
    "abs", "all", "any", "bin", "callable", "divmod", "hash", "help", "hex", "issubclass",
    "oct", "pow", "sorted", "zip", "frozenset", "bit_length", "from_bytes", "to_bytes",
    "fromhex", "fromkeys", "center", "isalpha", "isdigit", "islower", "isspace", "isupper",
    "lower", "upper", "lstrip", "rstrip", "rfind", "rindex", "rpartition", "splitlines",
    "popitem", "setdefault", "difference", "difference_update", "discard", "intersection",
    "intersection_update", "isdisjoint", "issubset", "issuperset", "symmetric_difference",
    "symmetric_difference_update", "union",
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SHORT_FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SHORT_NEXT = _SHORT_FIRST + "0123456789_"


def _docstrings(tree):
    # The ids of the docstring constants: text, never a name reached by its text.
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if (node.body and isinstance(node.body[0], ast.Expr)
                    and isinstance(node.body[0].value, ast.Constant)
                    and isinstance(node.body[0].value.value, str)):
                out.add(id(node.body[0].value))
    return out


def _targets(node):
    # The names an assignment target binds: a name, or an attribute stored.
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Attribute):
        yield node.attr
    elif isinstance(node, (ast.Tuple, ast.List)):
        for elt in node.elts:
            yield from _targets(elt)
    elif isinstance(node, ast.Starred):
        yield from _targets(node.value)


class Program:
    """What the shipped modules that are ours name: {module: text} parsed once."""

    def __init__(self, sources):
        self.sources = sources
        self.trees = {}
        for name, text in sources.items():
            try:
                self.trees[name] = ast.parse(text)
            except SyntaxError as e:
                raise ValueError("%s line %s: %s" % (name, e.lineno, e.msg)) from None
        self.defined = set()   # names the program binds
        self.used = set()      # every identifier in it, in any place
        self.kept = set()      # names that must stay (see the module docstring)
        self.compiled = set()  # names a compiled module keeps (not only a function's local)
        classes = {}           # {class name: [its bases' names]} of the program
        members = {}           # {class name: names its body binds, self.x included}
        for where, tree in self.trees.items():
            docs = _docstrings(tree)
            for node in ast.walk(tree):
                self._collect(node, where, docs)
                if isinstance(node, ast.ClassDef):
                    classes[node.name] = [self._base_name(b) for b in node.bases]
                    members[node.name] = self._members(node)
        # A class whose base is not the program's: its members (and its subclasses') stay.
        foreign = set()
        changed = True
        while changed:
            changed = False
            for name, bases in classes.items():
                if name in foreign:
                    continue
                if any(b is None or b not in classes or b in foreign for b in bases):
                    foreign.add(name)
                    changed = True
        for name in foreign:
            self.kept |= members[name]
            if any(b is None or b not in classes for b in classes[name]):
                self.kept.add(name)  # e.g. an exception: its name is printed
        self.modules = set()
        for name in sources:
            self.modules |= set(name.split("."))

    @staticmethod
    def _base_name(node):
        if isinstance(node, ast.Name):
            return node.id
        return None  # an attribute (displayio.Group) or an expression: not ours to tell

    @staticmethod
    def _members(cls):
        out = set()
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(stmt.name)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                    out |= set(_targets(t))
        for node in ast.walk(cls):
            if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name) and node.value.id == "self"):
                out.add(node.attr)
        return out

    def _collect(self, node, where, docs):
        if isinstance(node, ast.JoinedStr):
            raise ValueError("%s line %d: an f-string (its names are text to the tokenizer)"
                             % (where, node.lineno))
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and _IDENT.match(node.value):
                self.kept.add(node.value)  # getattr(x, "name"), hasattr, setattr
            return
        if isinstance(node, ast.Name):
            self.used.add(node.id)
            if not isinstance(node.ctx, ast.Load):
                self.defined.add(node.id)
        elif isinstance(node, ast.Attribute):
            self.used.add(node.attr)
            self.compiled.add(node.attr)
            if not isinstance(node.ctx, ast.Load):
                self.defined.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.used.add(node.name)
            self.defined.add(node.name)
            self.compiled.add(node.name)
        elif isinstance(node, ast.arg):
            self.used.add(node.arg)
            self.defined.add(node.arg)
            self.compiled.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg is not None:
            self.used.add(node.arg)
            self.compiled.add(node.arg)
        elif isinstance(node, ast.alias):
            parts = node.name.split(".")
            self.used.update(parts)
            self.compiled.update(parts)
            if node.asname:
                self.used.add(node.asname)
                self.defined.add(node.asname)
                self.compiled.add(node.asname)
        elif isinstance(node, ast.ImportFrom) and node.module:
            self.used.update(node.module.split("."))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            self.used.update(node.names)
            self.compiled.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            self.used.add(node.name)
            self.defined.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            raise ValueError("%s line %d: a match statement" % (where, node.lineno))
        if isinstance(node, ast.Module):
            for stmt in node.body:  # a module's globals are kept by name
                if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                        self.compiled |= set(_targets(t))
                elif isinstance(stmt, (ast.For, ast.With, ast.If, ast.Try)):
                    for inner in ast.walk(stmt):
                        if isinstance(inner, ast.Name):
                            self.compiled.add(inner.id)
        if isinstance(node, ast.ClassDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
                    self.compiled.add(inner.id)  # class attributes (and, harmlessly, locals)

    def renamable(self, outside):
        """Returns the names to rename, given `outside`: the names the libraries, the
        firmware's stubs, the harness and Python's ROM use."""
        out = set()
        for name in self.defined:
            if (name in outside or name in self.kept or name in self.modules
                    or name.startswith("__") or keyword.iskeyword(name)):
                continue
            out.add(name)
        return out


def short_names(taken):
    """Yields one- and two-letter names (then three) that are not in `taken`."""
    for a in _SHORT_FIRST:
        if a not in taken:
            yield a
    for a in _SHORT_FIRST:
        for b in _SHORT_NEXT:
            if a + b not in taken and not keyword.iskeyword(a + b):
                yield a + b
    for a in _SHORT_FIRST:
        for b in _SHORT_NEXT:
            for c in _SHORT_NEXT:
                if a + b + c not in taken and not keyword.iskeyword(a + b + c):
                    yield a + b + c


def _hash(text):
    return zlib.crc32(text.encode("utf-8"))


# How many places a name tries in a space of new names before the next, longer space.
_PROBES = 8


def plan(sources, outside, rom_names=ROM_NAMES):
    """Returns {old name: new name} for {module: text} of our shipped modules; `outside`: the
    names used outside the program (the libraries, the firmware's stubs, the harness).

    A name's new name depends on the name, hardly on the others: `make flash` copies only
    the modules whose text changed, and an edit that adds or drops a name leaves the other
    names where they were (but for the few that met it). Each free ROM name goes to the name
    a compiled module keeps whose hash with it is the least (rendezvous hashing); every other
    name takes the first free place its hash points to among the short names (two letters,
    then three), a private one among "_" and a short name."""
    prog = Program(sources)
    names = prog.renamable(set(outside) | set(rom_names))
    taken = prog.used | set(outside) | prog.kept
    out = {}
    public = sorted(n for n in names if not n.startswith("_"))
    compiled = [n for n in public if n in prog.compiled]
    for rom in rom_names:
        if rom in taken or not compiled:
            continue
        best = min(compiled, key=lambda n: (_hash(rom + ":" + n), n))
        out[best] = rom
        compiled.remove(best)
    # The spaces are the same whatever the program holds (a name in use is skipped where it
    # stands): a name's places do not move when other names come or go.
    spaces = [[], []]  # two letters, three
    for n in short_names(set(rom_names)):
        if len(n) in (2, 3):
            spaces[len(n) - 2].append(n)
    private = [["_" + n for n in space] for space in spaces]
    used = set(taken) | set(rom_names)
    for name in sorted(names):
        if name in out:
            continue
        out[name] = _place(name, private if name.startswith("_") else spaces, used)
    for name in [n for n, new in out.items() if len(new) >= len(n) and new not in rom_names]:
        del out[name]  # no shorter and not in ROM: it stays (its new name is left unused)
    return out


def _place(name, spaces, used):
    # The first free place the name's hash points to: _PROBES tries in each space in turn.
    h = _hash(name)
    for space in spaces:
        for i in range(_PROBES):
            new = space[(h + i * 40503) % len(space)]
            if new not in used:
                used.add(new)
                return new
    for space in spaces:  # full near every place it tried: the first free one
        for new in space:
            if new not in used:
                used.add(new)
                return new
    raise ValueError("no new name left for %s" % name)


def rename_text(text, mapping, where="?"):
    """Returns `text` with every identifier token in `mapping` replaced; lines stay where they
    were."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    lines = text.split("\n")
    spans = []
    for tok in tokens:
        if tok.type == tokenize.STRING and re.match(r"[rbuRBU]*[fF]", tok.string):
            raise ValueError("%s line %d: an f-string" % (where, tok.start[0]))
        if tok.type == tokenize.NAME and tok.string in mapping:
            (row, col), (row2, col2) = tok.start, tok.end
            line = lines[row - 1]
            spans.append((row, len(line[:col].encode()), len(line[:col2].encode()),
                          mapping[tok.string]))
    for row, start, end, new in sorted(spans, reverse=True):
        b = lines[row - 1].encode()
        lines[row - 1] = (b[:start] + new.encode() + b[end:]).decode()
    return "\n".join(lines)


def rename(sources, outside, rom_names=ROM_NAMES):
    """Returns ({module: text}, {old: new}) for {module: text} of our shipped modules."""
    mapping = plan(sources, outside, rom_names)
    out = {}
    for name, text in sources.items():
        out[name] = rename_text(text, mapping, name)
    return out, mapping


def identifiers(text):
    """Returns every identifier in Python `text` in any place (a variable, an attribute, a
    def, a parameter, a keyword, an import, `global`): what a module reaches by name."""
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            out.add(node.arg)
        elif isinstance(node, ast.alias):
            out.update(node.name.split("."))
            if node.asname:
                out.add(node.asname)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.update(node.module.split("."))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def tokens(text):
    """Returns every identifier token of Python `text` (not in strings or comments): any
    syntax the tokenizer knows, newer than this Python's parser (the firmware's stubs)."""
    out = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
            out.add(tok.string)
    return out


# ---------------------------------------------------------------------------------------------
# The names from outside the program

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE_NAMES = ROOT / "tools" / "firmware_names.txt"
# What plays the shipped tree on CircuitPython's VM and reaches into it by name (the app's
# objects, the stand-ins' attributes the app reads): tools/cpapp.py's harness.
# The desktop simulator too: it plays a flashed drive's tree (host_tests/test_flash.py).
HARNESS = ("tools/cp_app_session.py", "tools/standins/*.py", "tools/membudget/vm/sizes.py",
           "tools/sim*.py")


def stub_files():
    """Returns the firmware's stub files of circuitpython-stubs (the type check's venv,
    .venv-stubs), or []."""
    out = []
    for site in sorted((ROOT / ".venv-stubs" / "lib").glob("python3*/site-packages")):
        out.extend(sorted(site.glob("*-stubs/**/*.pyi")))
    return out


def firmware_names_from_stubs(files):
    """Returns the sorted names the firmware's stubs use in any place."""
    names = set()
    for p in files:
        names |= tokens(p.read_text(encoding="utf-8"))
    return sorted(names)


def firmware_names():
    """The names CircuitPython's own modules use (displayio's `pixel_shader`, keypad's
    `key_number` ...): tools/firmware_names.txt, written from circuitpython-stubs by
    `python -m tools.rename --firmware-names` (host_tests/test_rename.py checks it against the
    stubs installed)."""
    return set(FIRMWARE_NAMES.read_text(encoding="utf-8").split())


def harness_names():
    out = set()
    for pattern in HARNESS:
        for p in sorted(ROOT.glob(pattern)):
            out |= identifiers(p.read_text(encoding="utf-8"))
    return out


def outside_names(other_sources):
    """Returns the names used outside the program: {path: text} of the other shipped modules
    (the libraries, code.py, boot.py), the harness, the firmware's names, and the names
    tools/shrink.py hands out (in ROM already)."""
    from tools import shrink

    out = firmware_names() | harness_names() | set(shrink.LOCALS) | {"self"}
    for text in other_sources.values():
        out |= identifiers(text)
    return out


# ---------------------------------------------------------------------------------------------
# A board's traceback read back

def mapping_of_build():
    """Returns {new name: old name} of what tools/deploy.py builds now."""
    from tools import deploy

    return {new: old for old, new in deploy.build_names().items()}


def decode(text, back):
    """Returns `text` (a traceback) with each renamed name written back."""
    return re.sub(r"[A-Za-z_][A-Za-z0-9_]*", lambda m: back.get(m.group(0), m.group(0)), text)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(
        prog="python -m tools.rename",
        description="What the board's renamed names stand for (tools/rename.py): the names "
                    "given, or a traceback on stdin written back.")
    ap.add_argument("names", nargs="*", help="names from a board's traceback")
    ap.add_argument("--firmware-names", action="store_true",
                    help="write tools/firmware_names.txt from circuitpython-stubs")
    args = ap.parse_args(argv)
    if args.firmware_names:
        files = stub_files()
        if not files:
            print("circuitpython-stubs is not installed (make typecheck sets up .venv-stubs)")
            return 1
        FIRMWARE_NAMES.write_text("\n".join(firmware_names_from_stubs(files)) + "\n",
                                  encoding="utf-8")
        print("wrote %s" % FIRMWARE_NAMES.relative_to(ROOT))
        return 0
    back = mapping_of_build()
    if args.names:
        for name in args.names:
            print("%s %s" % (name, back.get(name, "(not renamed)")))
    else:
        sys.stdout.write(decode(sys.stdin.read(), back))
    return 0


if __name__ == "__main__":
    sys.exit(main())
