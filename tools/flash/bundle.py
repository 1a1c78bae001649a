"""The release bundle, as Adafruit ships a project's: one zip holding a CIRCUITPY drive's tree for
CircuitPython 10, to unzip onto the drive. `make bundle`.

    python -m tools.flash.bundle                       # dist/loknroll-<commit>-circuitpython10.zip
    python -m tools.flash.bundle --out DIR --mpy-cross PATH

The zip holds what `make flash TO=DIR` writes to an empty folder, file for file: code.py,
boot.py, settings.toml (the Python stack the game needs), and lib/ with the app's, the engine's
and the libraries' modules compiled to .mpy (tools/flash/deploy.py builds the tree; this module
only packs it). The name carries `git describe` of the checkout, with -dirty when files differ from
that commit. Entries are sorted and dated to the commit, so the same sources give the same bytes.
"""

import io
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from tools import cli
from tools.flash import deploy, sync

ROOT = deploy.ROOT
DIST = ROOT / "dist"
PREFIX = "loknroll-"
SUFFIX = "-circuitpython%d.zip" % deploy.CIRCUITPY_MAJOR
# Written into every bundle's zip comment: a file at the bundle's name without it is not one of
# ours, and is never overwritten.
MARK = b"Lok'n'Roll Handheld: unzip onto the CIRCUITPY drive"


class BundleError(Exception):
    """A problem the user can fix; the message says how."""


def _git(root, *args):
    """Returns git's output in root, or None where git or the repository is missing."""
    try:
        r = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def version(root=ROOT):
    """Returns (the checkout's name for its version, the commit's time as seconds since the
    epoch): `git describe --tags --always` with "-dirty" when a file differs from the commit or
    is new; ("unversioned", None) outside a git checkout."""
    name = _git(root, "describe", "--tags", "--always")
    if not name:
        return "unversioned", None
    if _git(root, "status", "--porcelain", "--untracked-files=normal"):
        name += "-dirty"
    when = _git(root, "log", "-1", "--format=%ct")
    return name, int(when) if when and when.isdigit() else None


def drive_files(tree):
    """Returns {path: bytes} of what `make flash TO=DIR` leaves in an empty folder: the tree,
    the settings.toml the deploy writes where the drive has none and the list of what it
    installed (deploy.drive_tree())."""
    return deploy.drive_tree(tree)


def pack(files, when=None):
    """Returns the zip's bytes: the files sorted, each dated `when` (seconds since the epoch;
    1980-01-01, the zip format's first day, when None) and readable by all."""
    stamp = time.gmtime(when)[:6] if when is not None else (1980, 1, 1, 0, 0, 0)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in sorted(files.items()):
            info = zipfile.ZipInfo(path, stamp)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
        z.comment = MARK
    return out.getvalue()


def is_ours(path):
    """True if the file at path is a bundle this tool wrote (its zip comment)."""
    try:
        with zipfile.ZipFile(path) as z:
            return z.comment == MARK
    except (OSError, zipfile.BadZipFile):
        return False


def check_dest(dest, force=False):
    """Raises BundleError unless the bundle may be written at dest: its folder is a folder (or
    absent) and no file is there that this tool did not write (unless `force`)."""
    dest = Path(dest)
    if dest.parent.exists() and not dest.parent.is_dir():
        raise BundleError(f"{dest.parent} is not a folder")
    if dest.is_dir() or dest.exists() and not force and not (dest.is_file() and is_ours(dest)):
        raise BundleError(f"{dest} exists and is not a bundle make bundle wrote: "
                          "move it away, or choose another folder with --out")
    part = dest.with_name(dest.name + ".part")
    if part.exists():
        raise BundleError(f"{part} is in the way: move it away")


def write(data, dest, force=False):
    """Writes the bundle's bytes to dest, through a file beside it (check_dest() first)."""
    dest = Path(dest)
    check_dest(dest, force)
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    part.write_bytes(data)
    part.replace(dest)


def main(argv=None):
    ap = cli.Parser(
        prog="python -m tools.flash.bundle",
        description="Write the zip to unzip onto a CIRCUITPY drive: the tree make flash writes, "
                    "compiled for CircuitPython %d." % deploy.CIRCUITPY_MAJOR)
    ap.add_output("--out", folder=True, mine=None, metavar="DIR", default=str(DIST),
                  help="folder for the zip (default: dist/)")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython's mpy-cross to use (default: as make flash finds it)")
    args = ap.parse_args(argv)
    name, when = version()
    dest = Path(args.out) / (PREFIX + name + SUFFIX)
    try:
        check_dest(dest, args.force)  # before the build, which takes a while
        compiler, note = deploy.find_mpy_cross(args.mpy_cross)
        if compiler is None:
            raise BundleError(note + "\n  A bundle holds .mpy files only: install "
                              "requirements/flash.txt (make bundle does).")
        deploy.say(note)
        files = drive_files(deploy.build(ROOT, compiler))
        write(pack(files, when), dest, args.force)
    except (deploy.DeployError, BundleError, OSError) as e:
        print(f"bundle: {e}", file=sys.stderr, flush=True)
        return 2
    deploy.say(f"Wrote {dest} ({len(files)} files). Unzip it onto the CIRCUITPY drive; if the "
               f"drive has a {sync.SETTINGS} of its own, keep it and add the line "
               f"{deploy.PYSTACK_KEY} = {deploy.PYSTACK_SIZE}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
