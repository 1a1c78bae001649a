"""What a drive must change to hold the game's tree: the same plan for a folder or mounted
CIRCUITPY drive (tools/flash/deploy.py sync_folder) and for a board over USB serial
(tools/flash/deploy_board.py), and what both say: the checksum the board computes, the board's
version check, settings.toml's Python stack line, the error a user can fix.

Its own module so that the two copies share it without importing each other: tools/flash/deploy.py
builds the tree and runs `make flash`, which calls tools/flash/deploy_board.py for a board, and
deploy_board needs only this.
"""
import zlib
from pathlib import Path

from tools.flash import settings_toml


# The CircuitPython major version the .mpy files are compiled for; the stubs the device code is
# type-checked against are the same (requirements/typecheck.txt).
CIRCUITPY_MAJOR = 10

# CircuitPython keeps Python's frames on a stack of their own, CIRCUITPY_PYSTACK_SIZE bytes read
# from the drive's settings.toml at every start (1536 unless set there): the start-up and the
# `best` bot's search need more (tools/vm/pystack.py measures it). make flash sets this much there
# (settings_with_pystack()), out of the RAM the heap would have.
PYSTACK_SIZE = 4096
PYSTACK_KEY = "CIRCUITPY_PYSTACK_SIZE"
SETTINGS = "settings.toml"

READ_ONLY_HELP = """\
CIRCUITPY is read-only to the board's own code, so files can't be copied over USB serial.
Either boot.py is not installed yet, or SELECT was held when the board started.
  First install: with the drive mounted on this computer, run
      make flash TO=/path/to/CIRCUITPY     (python -m tools.flash --to /path/to/CIRCUITPY)
  or drag build/boot.py onto the CIRCUITPY drive; then press RESET once.
  If SELECT was held at power-up, press RESET without holding it."""


class DeployError(Exception):
    """A problem the user can fix; the message says how."""


def say(*args):
    print(*args, flush=True)


# ---------------------------------------------------------------------------------------------
# settings.toml: the drive's, the user's too

# A pystack larger than the board's RAM (the PyBadge's SAMD51J19: 192 KB, docs/hardware.md) is
# never allocated: main.c's _allocate_memory() then falls back to the default size.
PYSTACK_MAX = 192 * 1024


def settings_with_pystack(text):
    """Returns the text of a drive's settings.toml (`text`; None: there is none) with
    CIRCUITPY_PYSTACK_SIZE at least PYSTACK_SIZE as the board reads it
    (tools/flash/settings_toml.py follows CircuitPython's own scanner: the first bare-key line
    before any [table]; 0x2000 is 8192, 05000 is octal): the same text if it is so already (a
    larger size of the user's stays), else the line the board reads changed or one added where it
    looks, every other line as it was."""
    text = text or ""
    setting, stop = settings_toml.find(text, PYSTACK_KEY)
    if setting is not None:
        if setting.number is not None and PYSTACK_SIZE <= setting.number <= PYSTACK_MAX:
            return text
        rest = text[setting.value_end:]  # a comment after it stays put
        return (text[:setting.start] + "%s = %d" % (PYSTACK_KEY, PYSTACK_SIZE)
                + ("  " if rest.startswith("#") else "") + rest)
    eol = "\r\n" if "\r\n" in text else "\n"
    line = ("# Lok'n'Roll needs this much of Python's stack (make flash sets it)%s"
            "%s = %d%s" % (eol, PYSTACK_KEY, PYSTACK_SIZE, eol))
    head = text[:stop]
    if head and not head.endswith("\n"):
        head += eol
    return head + line + text[stop:]


def settings_change(data):
    """Returns the bytes settings.toml must hold (`data`: what it holds, None: no file), or
    None if it may stay as it is (or is not UTF-8 text: then it is the user's to fix)."""
    try:
        text = None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        text = "\0"
    if text is not None and "\0" in text:  # CircuitPython reads a NUL as the file's end
        say(f"Warning: {SETTINGS} is not UTF-8 text: left as it is. Add the line "
            f"{PYSTACK_KEY} = {PYSTACK_SIZE} to it yourself (the game needs it).")
        return None
    new = settings_with_pystack(text)
    return None if new == text else new.encode("utf-8")


# ---------------------------------------------------------------------------------------------
# The save file: the drive's copy of the saves, made here and never by the game

# The folders and files of the drive's copies of the saves (lib/lnr/copies.py writes the image
# into a copy.bin in place, and never makes, grows or deletes any of them: a file or folder made
# during play rewrites the drive's FAT and root folder, and a power cut there can cost the
# volume, docs/storage.md). spare/copy.bin takes over if a cut destroys data/copy.bin's
# directory entry. Made in this order, each once and all zeros, so that a FAT driver with the
# free space in one run gives them consecutive clusters: then each 4 KB flash sector the board
# erases to rewrite an image (inside its copy.bin's own 3584 bytes of zeros on each side) or a
# copy.bin's directory entry (its folder's sector, between pad.bin or the other copy.bin's
# trailing zeros and its own leading zeros) holds nothing but these files. (path, size; None: a
# folder)
SAVE_FILES = (("lnrsave", None), ("lnrsave/pad.bin", 3584), ("lnrsave/data", None),
              ("lnrsave/data/copy.bin", 15360), ("lnrsave/spare", None),
              ("lnrsave/spare/copy.bin", 15360))


def make_save_file(size, mkdir, write):
    """Makes what is missing of SAVE_FILES on a drive, through size(path) (its size; -1:
    nothing there, -2: a folder), mkdir(path) and write(path, bytes); never writes what is
    there (a copy.bin holds the saves). Returns the line to say."""
    made = []
    for path, want in SAVE_FILES:
        have = size(path)
        if have == (-2 if want is None else want):
            continue
        if have != -1:
            return (f"Warning: {path} is in the way of the game's save files: left as it is. "
                    "The game keeps its saves in the board alone (less safe) until it is "
                    "removed; then flash again.")
        try:
            mkdir(path) if want is None else write(path, bytes(want))
        except OSError as e:
            return (f"Warning: could not make {path} ({e}): the game keeps its saves in the "
                    "board alone (less safe). Make room on the drive, then flash again.")
        made.append(path)
    if not made:
        return "  lnrsave/: kept (it holds the saves)"
    return "  made " + ", ".join(made) + " (the drive's copies of the saves)"


def make_save_file_in(folder):
    """make_save_file() on a folder: a mounted CIRCUITPY, or the simulator's drive."""
    base = Path(folder)

    def size(path):
        p = base / path
        return -2 if p.is_dir() else p.stat().st_size if p.is_file() else -1

    return make_save_file(size, lambda p: (base / p).mkdir(),
                          lambda p, data: (base / p).write_bytes(data))


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


# ---------------------------------------------------------------------------------------------
# What flashing installed: the drive's list, the only files a flash ever removes

# At the drive's root: one line per file the last flash installed, with its size and checksum
# (the algorithm the board computes, named in the head line). A flash removes a file only if
# this list names it and it still holds those bytes; anything else on the drive is the user's.
MANIFEST = "lnr-files.txt"
MANIFEST_HEAD = "# The files python -m tools.flash installed here; it removes no other file. "
MANIFEST_MAX = 64 * 1024  # a list of some 80 files: a few KB

# A flash writes the new files here first, then puts them in place (lib/ first, boot.py and
# code.py last): a full drive or a cut while copying leaves the game as it was.
STAGING = ".lnr-flash"
# Its first file, which marks it as the tool's own (a folder of that name without it is not).
STAGING_NOTE = (b"make flash copies the new game here, then puts each file in place: if this "
                b"folder is here, a flash stopped before it was done; run make flash again.\n")


def read_manifest(data):
    """Returns (algo, {path: (size, digest)}) of a drive's MANIFEST bytes (None: no file), or
    (None, {}) where there is none; raises DeployError where a file of that name is not one."""
    if data is None:
        return None, {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    head = text.split("\n", 1)[0]
    if not head.startswith(MANIFEST_HEAD) or len(data) > MANIFEST_MAX:
        raise DeployError(f"{MANIFEST} is in the way: it is not the list of files make flash "
                          "installed. Move it away, then flash again.")
    algo = head[len(MANIFEST_HEAD):].strip().replace("algo ", "")
    files = {}
    for line in text.splitlines()[1:]:
        parts = line.rsplit(" ", 2)
        if len(parts) == 3 and parts[1].isdigit():
            files[parts[0]] = (int(parts[1]), parts[2])
    return algo, files


def manifest_bytes(tree, algo):
    """Returns the MANIFEST listing every file of the tree, in the board's checksum `algo`."""
    lines = [MANIFEST_HEAD + "algo " + algo]
    for path, data in tree.files.items():
        lines.append(f"{path} {len(data)} {digest(data, algo)}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def install_order(paths):
    """Returns the paths in the order a flash puts them in place: lib/ (and data) first, then
    boot.py, code.py last: until code.py changes, the board starts the game it had."""
    last = {"boot.py": 1, "code.py": 2}
    return sorted(paths, key=lambda p: (last.get(p, 0), p))


class Plan:
    """What to change on a drive so that it holds the tree."""

    def __init__(self, tree, existing, existing_dirs, algo, settings=None, manifest=(None, {})):
        """existing: {path: (size, digest or None)} of the game's files and the files the
        drive's MANIFEST lists, and of every file in the game's folders; settings: what its
        settings.toml holds (None: no file); manifest: read_manifest() of its list."""
        self.settings = settings_change(settings)  # the bytes to write there, or None
        self.mkdirs = [d for d in tree.dirs() if d not in existing_dirs]
        self.copy = install_order(p for p, data in tree.files.items()
                                  if existing.get(p) != (len(data), digest(data, algo)))
        listed_algo, listed = manifest
        # Removed: what the last flash installed, unchanged since, that the tree no longer has.
        self.remove = sorted(p for p, held in listed.items()
                             if p not in tree.files and listed_algo == algo
                             and existing.get(p) == held)
        # Left alone: every other file in the game's folders, or a library twin, that the tree
        # does not hold: the user's, or changed since make flash installed it.
        self.left = sorted(p for p in existing if p not in tree.files and p not in self.remove)
        # Of those, a .py beside a module the tree ships as .mpy is imported instead of it.
        self.shadows = [p for p in self.left if p.endswith(".py") and p[:-3] + ".mpy" in
                        tree.files]
        owned = tree.owned_dirs()
        needed = set(tree.dirs())
        kept = [p for p in existing if p not in self.remove]
        # The folders of the files removed, in the game's own folders, left empty once they
        # are gone (and once any empty folder in them is).
        held = {"/".join(p.split("/")[:i]) for p in self.remove
                for i in range(1, p.count("/") + 1)}
        self.rmdirs = sorted((d for d in existing_dirs if d in held and d not in needed
                              and any(d == o or d.startswith(o + "/") for o in owned)
                              and not any(p.startswith(d + "/") for p in kept)),
                             key=lambda d: -d.count("/"))
        self.unchanged = len(tree.files) - len(self.copy)
        self.manifest = manifest_bytes(tree, algo)
        self.manifest_changed = listed_algo != algo or listed != {
            p: (len(data), digest(data, algo)) for p, data in tree.files.items()}

    def bytes_to_copy(self, tree):
        return sum(len(tree.files[p]) for p in self.copy)

    def empty(self):
        return not (self.mkdirs or self.copy or self.remove or self.rmdirs
                    or self.settings is not None or self.manifest_changed)


def left_alone(plan):
    """Returns the lines that name what a flash left on the drive (plan.left), or []."""
    if not plan.left:
        return []
    lines = ["Left alone (make flash did not install them, or they changed since): "
             + ", ".join(plan.left)]
    for p in plan.shadows:
        lines.append(f"Warning: {p} is imported instead of the game's {p[:-3]}.mpy: remove it "
                     "if it is not yours.")
    return lines


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
        done = f"Up to date: {len(tree.files)} files unchanged, nothing copied."
    else:
        done = (f"Copied {len(plan.copy)} files ({plan.bytes_to_copy(tree)} bytes), "
                f"removed {len(plan.remove)}, {plan.unchanged} unchanged"
                + (f"; {SETTINGS} updated." if plan.settings is not None else "."))
    return "\n".join([done] + left_alone(plan))
