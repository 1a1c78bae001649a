"""What every command of tools/ does at its door (issue 36): bad arguments answered with one line
and exit status 2 before any work starts, every number bounded, every read bounded, and no file
of the user's replaced.

- Parser: argparse's parser whose error is one line (`prog: message`), and whose outputs
  (add_output) are checked as the arguments are read: a folder, a missing folder, or a file
  that is not the command's own (its `mine` test reads the file's first bytes: a PNG these
  tools wrote carries PNG_MARK, a text file its header line) is refused unless --force.
- whole(lo, hi), number(lo, hi): argument types of a bounded int or float.
- read_bytes(): a file's bytes, refused past a size (a device such as /dev/zero never ends).
- write_output(): an output written through a file beside it and renamed over, so that a
  stopped write leaves the old file or none, never half of one.
- png(), figure_png(): a pygame Surface, a matplotlib Figure as PNG bytes carrying PNG_MARK;
  is_our_png().
"""
import argparse
import io
import math
import os
import sys
import tempfile
import zlib

# A tEXt chunk in every PNG these tools write: an existing PNG without it is the user's.
PNG_MARK = b"Software\x00Lok'n'Roll Handheld tools"
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# How far into a file its owner is looked for (the mark, a header line).
_HEAD_BYTES = 4096
# Processes a command may start at once (--jobs): more than any machine here has cores.
JOBS_MAX = 64


class CliError(Exception):
    """Bad input a command found: its message is the one line the user reads."""


class Parser(argparse.ArgumentParser):
    """argparse.ArgumentParser with a one-line error and checked outputs (the module's
    docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outputs = []  # (action, mine) of every add_output()

    def error(self, message):
        """Exits with status 2 and one line: `prog: message`."""
        self.exit(2, "%s: %s\n" % (self.prog, " ".join(str(message).split())))

    def add_output(self, *names, mine, folder=False, **kwargs):
        """Adds an option naming what the command writes: a file, or with `folder` a folder
        it writes files into (each checked by the command, with output_problem()). Refused as
        the arguments are read: a file that is a folder, a folder that is a file, a path whose
        folder does not exist, a file that `mine(path)` does not recognise as the command's
        own, unless --force (added with the first output)."""
        action = self.add_argument(*names, **kwargs)
        self.outputs.append((action, None if folder else mine))
        if len(self.outputs) == 1:
            self.add_argument("--force", action="store_true",
                              help="replace output files even where they are not this "
                                   "command's own")
        return action

    def parse_args(self, args=None, namespace=None):
        """argparse's parse_args, then the outputs checked (add_output)."""
        ns = super().parse_args(args, namespace)
        for action, mine in self.outputs:
            path = getattr(ns, action.dest)
            if path is None:
                continue
            option = action.option_strings[-1] if action.option_strings else action.dest
            if mine is None:
                problem = folder_problem(path)
            else:
                problem = output_problem(path, mine, ns.force)
            if problem:
                self.error("%s %s: %s" % (option, path, problem))
        return ns


def refuse(prefix, error):
    """Prints `prefix: error` to standard error as one line (at most 300 characters: a message
    may quote a value of the input's); returns 2, the exit status of bad input."""
    line = " ".join(("%s: %s" % (prefix, error)).split())
    print(line if len(line) <= 300 else line[:297] + "...", file=sys.stderr)
    return 2


def whole(lo, hi):
    """Returns an argument type: a whole number from lo to hi."""
    def convert(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError("%s is not from %d to %d" % (text, lo, hi))
        return value
    return convert


def number(lo, hi):
    """Returns an argument type: a number from lo to hi."""
    def convert(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a number" % text) from None
        if math.isnan(value) or not lo <= value <= hi:
            raise argparse.ArgumentTypeError("%s is not from %g to %g" % (text, lo, hi))
        return value
    return convert


def read_bytes(path, limit, what="the file"):
    """Returns the bytes of the regular file at `path`; CliError (its message naming `what`)
    where it can't be read, is not a file (a folder, a device) or holds more than `limit`
    bytes. Reads no more than limit + 1 bytes."""
    try:
        if not os.path.isfile(path):
            raise CliError("%s %s is %s" % (what, path, "a folder" if os.path.isdir(path) else
                                            "not a file" if os.path.exists(path) else
                                            "not there"))
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise CliError("cannot read %s %s: %s" % (what, path, e.strerror or e)) from None
    except ValueError as e:  # a NUL in the name
        raise CliError("cannot read %s %r: %s" % (what, path, e)) from None
    if len(data) > limit:
        raise CliError("%s %s holds more than %d bytes: not what it should be" % (
            what, path, limit))
    return data


def head(path):
    """Returns the first bytes of the regular file at `path` (b"" if it can't be read)."""
    try:
        if not os.path.isfile(path):
            return b""
        with open(path, "rb") as f:
            return f.read(_HEAD_BYTES)
    except (OSError, ValueError):
        return b""


def folder_problem(path):
    """Returns why `path` can't be an output folder (None if it can: a folder, or a path whose
    parent is one)."""
    if not path:
        return "an empty name"
    if os.path.isdir(path):
        return None
    if os.path.lexists(path):
        return "is not a folder"
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        return "no folder %s to make it in" % parent
    return None


def output_problem(path, mine, force=False):
    """Returns why the file `path` can't be written (None if it can): an empty name, a folder,
    a missing folder, or an existing file that mine(path) does not recognise as this command's
    (unless `force`)."""
    if not path:
        return "an empty name"
    if os.path.isdir(path):
        return "is a folder"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "no folder %s" % folder
    if os.path.lexists(path) and not force and not (os.path.isfile(path) and mine(path)):
        return ("is a file this command did not write: not replaced (move it away, or give "
                "--force)")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        return "can't be written"
    return None


def write_output(path, data):
    """Writes `data` (bytes) to `path` through a new file beside it, renamed over it once
    whole: a write stopped half way leaves the file as it was."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, part = tempfile.mkstemp(dir=folder, prefix=".part-", suffix="-" + os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(part, path)
    except BaseException:
        if os.path.exists(part):
            os.remove(part)
        raise


def _chunk(kind, data):
    return (len(data).to_bytes(4, "big") + kind + data
            + (zlib.crc32(kind + data) & 0xFFFFFFFF).to_bytes(4, "big"))


def mark_png(data):
    """Returns the PNG `data` with PNG_MARK in a tEXt chunk after its header chunk."""
    if not data.startswith(_PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    end = 8 + 12 + int.from_bytes(data[8:12], "big")
    return data[:end] + _chunk(b"tEXt", PNG_MARK) + data[end:]


def png(surface):
    """Returns a pygame Surface as PNG bytes carrying PNG_MARK."""
    import pygame

    out = io.BytesIO()
    pygame.image.save(surface, out, "picture.png")
    return mark_png(out.getvalue())


def figure_png(figure):
    """Returns a matplotlib Figure as PNG bytes carrying PNG_MARK (in place of matplotlib's own
    Software line)."""
    out = io.BytesIO()
    figure.savefig(out, format="png", metadata={"Software": None})
    return mark_png(out.getvalue())


def is_our_png(path):
    """Returns True if the file at `path` is a PNG these tools wrote (PNG_MARK in a chunk of
    its first bytes)."""
    data = head(path)
    if not data.startswith(_PNG_SIGNATURE):
        return False
    at = 8
    while at + 8 <= len(data):
        n = int.from_bytes(data[at:at + 4], "big")
        kind = data[at + 4:at + 8]
        if kind == b"tEXt" and data[at + 8:at + 8 + n] == PNG_MARK:
            return True
        if kind in (b"IDAT", b"IEND"):
            return False
        at += 12 + n
    return False


def starts_with(line):
    """Returns a `mine` test for add_output: the file's first line is `line`."""
    want = line.encode("utf-8")

    def mine(path):
        data = head(path)
        return data.split(b"\n", 1)[0].rstrip(b"\r") == want
    return mine
