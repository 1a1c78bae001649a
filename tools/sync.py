"""What a drive must change to hold the game's tree: the same plan for a folder or mounted
CIRCUITPY drive (tools/deploy.py sync_folder) and for a board over USB serial
(tools/deploy_board.py), and what both say: the checksum the board computes, the board's
version check, settings.toml's Python stack line, the error a user can fix.

Its own module so that the two copies share it without importing each other: tools/deploy.py
builds the tree and runs `make flash`, which calls tools/deploy_board.py for a board, and
deploy_board needs only this.
"""
import re
import zlib


# The CircuitPython major version the .mpy files are compiled for; the stubs the device code is
# type-checked against are the same (requirements/typecheck.txt).
CIRCUITPY_MAJOR = 10

# CircuitPython keeps Python's frames on a stack of their own, CIRCUITPY_PYSTACK_SIZE bytes read
# from the drive's settings.toml at every start (1536 unless set there): the start-up and the
# `best` bot's search need more (tools/pystack.py measures it). make flash sets this much there
# (settings_with_pystack()), out of the RAM the heap would have.
PYSTACK_SIZE = 4096
PYSTACK_KEY = "CIRCUITPY_PYSTACK_SIZE"
SETTINGS = "settings.toml"

READ_ONLY_HELP = """\
CIRCUITPY is read-only to the board's own code, so files can't be copied over USB serial.
Either boot.py is not installed yet, or SELECT was held when the board started.
  First install: with the drive mounted on this computer, run
      make flash TO=/path/to/CIRCUITPY     (python -m tools.deploy --to /path/to/CIRCUITPY)
  or drag build/boot.py onto the CIRCUITPY drive; then press RESET once.
  If SELECT was held at power-up, press RESET without holding it."""


class DeployError(Exception):
    """A problem the user can fix; the message says how."""


def say(*args):
    print(*args, flush=True)


# ---------------------------------------------------------------------------------------------
# settings.toml: the drive's, the user's too

_PYSTACK_LINE = re.compile(r'^[ \t]*"?%s"?[ \t]*=[ \t]*([^#\r\n]*)' % PYSTACK_KEY, re.M)
_TABLE = re.compile(r"^[ \t]*\[", re.M)


def settings_with_pystack(text):
    """Returns the text of a drive's settings.toml (`text`; None: there is none) with
    CIRCUITPY_PYSTACK_SIZE at least PYSTACK_SIZE: the same text if it is so already (a larger
    size of the user's stays), else its line changed or one added, every other line as it was.
    CircuitPython reads only the keys before the first [table]: the line is looked for, and a
    new one goes, there."""
    text = text or ""
    table = _TABLE.search(text)
    top = table.start() if table else len(text)
    m = _PYSTACK_LINE.search(text, 0, top)
    if m:
        value = m.group(1).rstrip()
        if value.isdigit() and int(value) >= PYSTACK_SIZE:
            return text
        return (text[:m.start()] + "%s = %d" % (PYSTACK_KEY, PYSTACK_SIZE)
                + m.group(1)[len(value):] + text[m.end():])  # a comment after it stays put
    eol = "\r\n" if "\r\n" in text else "\n"
    line = ("# Lok'n'Roll needs this much of Python's stack (make flash sets it)%s"
            "%s = %d%s" % (eol, PYSTACK_KEY, PYSTACK_SIZE, eol))
    head = text[:top]
    if head and not head.endswith("\n"):
        head += eol
    return head + line + text[top:]


def settings_change(data):
    """Returns the bytes settings.toml must hold (`data`: what it holds, None: no file), or
    None if it may stay as it is (or is not UTF-8 text: then it is the user's to fix)."""
    try:
        text = None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        say(f"Warning: {SETTINGS} is not UTF-8 text: left as it is. Add the line "
            f"{PYSTACK_KEY} = {PYSTACK_SIZE} to it yourself (the game needs it).")
        return None
    new = settings_with_pystack(text)
    return None if new == text else new.encode("utf-8")


# ---------------------------------------------------------------------------------------------
# The plan

def digest(data, algo):
    """Returns the checksum the board computes for data (see deploy_board.SCAN)."""
    if algo == "sha256":
        import hashlib
        return hashlib.sha256(data).hexdigest()
    if algo == "crc32":
        return "%08x" % (zlib.crc32(data) & 0xFFFFFFFF)
    v = zlib.adler32(data)
    return "%04x%04x" % (v >> 16, v & 0xFFFF)


class Plan:
    """What to change on a drive so that it holds the tree."""

    def __init__(self, tree, existing, existing_dirs, algo, settings=None):
        """existing: {path: (size, digest or None)} of owned files on the drive; settings:
        what its settings.toml holds (None: no file)."""
        self.settings = settings_change(settings)  # the bytes to write there, or None
        self.mkdirs = [d for d in tree.dirs() if d not in existing_dirs]
        self.copy = [p for p, data in tree.files.items()
                     if existing.get(p) != (len(data), digest(data, algo))]
        self.remove = sorted(p for p in existing if p not in tree.files)
        owned = tree.owned_dirs()
        needed = set(tree.dirs())
        self.rmdirs = sorted((d for d in existing_dirs if d not in needed
                              and any(d == o or d.startswith(o + "/") for o in owned)),
                             key=lambda d: -d.count("/"))
        self.unchanged = len(tree.files) - len(self.copy)

    def bytes_to_copy(self, tree):
        return sum(len(tree.files[p]) for p in self.copy)

    def empty(self):
        return not (self.mkdirs or self.copy or self.remove or self.rmdirs
                    or self.settings is not None)


def check_version(tree, impl, version, where):
    """Raises DeployError when the board can't load the tree; warns when untested."""
    if impl != "circuitpython":
        raise DeployError(
            f"{where} runs {impl}, not CircuitPython. Install CircuitPython "
            f"{CIRCUITPY_MAJOR}.x first: https://circuitpython.org/board/pybadge/ "
            "(or /board/pygamer/), then flash again.")
    shown = ".".join(str(v) for v in version)
    if tree.mpy_major is not None and version[0] != tree.mpy_major:
        raise DeployError(
            f"{where} runs CircuitPython {shown}, but the .mpy files were built for "
            f"CircuitPython {tree.mpy_major}.x: CircuitPython {version[0]} can't import them.\n"
            f"  Update the board to CircuitPython {tree.mpy_major}.x "
            "(https://circuitpython.org/board/pybadge/), or flash sources with --no-mpy.")
    if version[0] != CIRCUITPY_MAJOR:
        say(f"Warning: {where} runs CircuitPython {shown}; this game is checked against "
            f"CircuitPython {CIRCUITPY_MAJOR}.x.")


def summary(plan, tree):
    if plan.empty():
        return f"Up to date: {len(tree.files)} files unchanged, nothing copied."
    return (f"Copied {len(plan.copy)} files ({plan.bytes_to_copy(tree)} bytes), "
            f"removed {len(plan.remove)}, {plan.unchanged} unchanged"
            + (f"; {SETTINGS} updated." if plan.settings is not None else "."))
