"""Copy a built device tree to a CircuitPython board over USB serial, with mpremote 1.29.

mpremote's transport is used as a library (one connection, one raw-REPL session) rather than
as a command line per file. What goes over the wire is what `mpremote fs cp` sends; what differs:

- "Only files that changed" is decided by a checksum computed ON the board by SCAN below:
  `mpremote fs cp` would call `hashlib.sha256()`, which CircuitPython does not have (its hashlib
  only has `new()`, and the SAMD51 build has no hashlib at all), and then read every file back
  over serial to hash it on the host.
- The reset is `microcontroller.reset()`; mpremote's `reset` calls `machine`, which
  CircuitPython does not have.

Everything sent to the board is plain MicroPython-dialect code (no f-strings, os.walk, pathlib):
it runs on CircuitPython and, in the tests, on the real MicroPython VM (tools/flash/fakeboard.py).
"""

import ast

from tools.flash.sync import (DeployError, MANIFEST, MANIFEST_MAX, Plan, PYSTACK_KEY, PYSTACK_SIZE,
                              READ_ONLY_HELP, SAVE_FILES, SETTINGS, STAGING, STAGING_NOTE,
                              check_version,
                              make_save_file, read_manifest, say, summary)

ADAFRUIT_VID = 0x239A

# Checks what the board runs and whether its code may write CIRCUITPY (boot.py remounted it).
PROBE = """\
import os, sys
_i = sys.implementation
try:
    _m = os.uname().machine
except Exception:
    _m = ''
try:
    _f = open('/.lnr_write_probe', 'wb')
    _f.close()
    os.remove('/.lnr_write_probe')
    _w = 0
except OSError as _e:
    _w = _e.args[0]
try:
    _s = os.statvfs('/')
    _free = _s[0] * _s[3]
except Exception:
    _free = -1
print(repr((_i.name, tuple(_i.version[:3]), _m, _w, _free)))
"""

# Lists the owned paths on the board, one repr()'d tuple per line:
#   ('A', algo)                  the checksum the board can compute
#   ('D', path)                  a directory
#   ('F', path, size, digest)    a file; digest only when its size is the wanted size
# Checksums, best first: hashlib.new('sha256') (CircuitPython's hashlib API) or
# hashlib.sha256() (MicroPython's), binascii.crc32, else Adler-32 in Python with sums kept
# below 2**30 (reduced every 512 bytes) so no long ints are needed.
SCAN = """\
import os
def _lnr_scan(walk, files, dirs, want):
    algo = 'adler32'
    hnew = None
    try:
        import hashlib
        try:
            hashlib.new('sha256')
            hnew = lambda: hashlib.new('sha256')
        except Exception:
            hashlib.sha256()
            hnew = hashlib.sha256
        algo = 'sha256'
    except Exception:
        try:
            from binascii import crc32
            algo = 'crc32'
        except ImportError:
            pass
    print(repr(('A', algo)))
    buf = bytearray(512)
    mv = memoryview(buf)
    def dig(p):
        f = open(p, 'rb')
        try:
            if algo == 'sha256':
                h = hnew()
                while True:
                    n = f.readinto(buf)
                    if not n:
                        break
                    h.update(mv[:n])
                return ''.join(['%02x' % x for x in h.digest()])
            if algo == 'crc32':
                c = 0
                while True:
                    n = f.readinto(buf)
                    if not n:
                        break
                    c = crc32(mv[:n], c)
                return '%08x' % (c & 0xffffffff)
            a = 1
            b = 0
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                for x in (buf if n == 512 else mv[:n]):
                    a += x
                    b += a
                a %= 65521
                b %= 65521
            return '%04x%04x' % (b, a)
        finally:
            f.close()
    def visit(p, deep):
        try:
            st = os.stat(p)
        except OSError:
            return
        if st[0] & 0x4000:
            print(repr(('D', p)))
            if deep:
                for name in sorted(os.listdir(p)):
                    visit(p + '/' + name, True)
        elif deep is not None:
            size = st[6]
            print(repr(('F', p, size, dig(p) if want.get(p) == size else None)))
    for p in walk:
        visit(p, True)
    for p in files:
        visit(p, False)
    for p in dirs:
        visit(p, None)
_lnr_scan(__ARGS__)
del _lnr_scan
"""

# A file of the drive's as bytes (repr()'d; at most LIMIT bytes read), or None: settings.toml
# (make flash sets the pystack's size in it and leaves the user's other lines as they are,
# tools/flash/sync.py settings_with_pystack()) and the list of what the last flash installed.
READ_FILE = """\
try:
    _f = open(__PATH__, 'rb')
    print(repr(_f.read(__LIMIT__)))
    _f.close()
except OSError:
    print('None')
"""

# Puts the staged files in place, in the order given (lib/ first, code.py last), then removes
# the staging folder (its note, then its folders, deepest first): one exchange, so that the
# board holds a mix of the old and the new game for as short a time as can be.
SWAP = """\
import os
def _lnr_swap(pairs, note, dirs):
    for src, dst in pairs:
        try:
            os.remove(dst)
        except OSError:
            pass
        os.rename(src, dst)
    os.remove(note)
    for d in dirs:
        os.rmdir(d)
_lnr_swap(__ARGS__)
del _lnr_swap
"""

# A staging folder a stopped flash left: removed if it holds the tool's note (prints True),
# left if anything else (False), None if there is none.
CLEAR_STAGING = """\
import os
def _lnr_clear(p, note):
    try:
        os.stat(p)
    except OSError:
        print('None')
        return
    try:
        f = open(p + '/README.txt', 'rb')
        ok = f.read(len(note) + 1) == note
        f.close()
    except OSError:
        ok = False
    if not ok:
        print('False')
        return
    def rm(q):
        if os.stat(q)[0] & 0x4000:
            for n in os.listdir(q):
                rm(q + '/' + n)
            os.rmdir(q)
        else:
            os.remove(q)
    rm(p)
    print('True')
_lnr_clear(__ARGS__)
del _lnr_clear
"""

# The sizes of the paths given (-2: a folder), a dict of those that are there.
SIZES = """\
import os
def _lnr_sizes(paths):
    out = {}
    for p in paths:
        try:
            st = os.stat(p)
            out[p] = -2 if st[0] & 0x4000 else st[6]
        except OSError:
            pass
    print(repr(out))
_lnr_sizes(__ARGS__)
del _lnr_sizes
"""

ZEROS = "f = open(%r, 'wb')\nz = bytes(512)\nfor _ in range(%d):\n    f.write(z)\nf.close()\n"

RESET = "import time, microcontroller\ntime.sleep(0.1)\nmicrocontroller.reset()\n"


# ---------------------------------------------------------------------------------------------
# Finding the board

def consoles(ports):
    """Returns one REPL port per connected Adafruit board.

    A board with `usb_cdc.enable(data=True)` shows a second ("CDC2") port with the same serial
    number; only the console one speaks the REPL.
    """
    boards = {}
    for p in sorted((p for p in ports if p.vid == ADAFRUIT_VID), key=lambda p: p.device):
        key = p.serial_number or (p.location or p.device).split(":")[0]
        boards.setdefault(key, []).append(p)
    out = []
    for group in boards.values():
        console = [p for p in group if "CDC2" not in (p.interface or "")
                   and "data" not in (p.interface or "").lower()]
        out.append((console or group)[0])
    return out


def _describe(p):
    bits = [p.product or p.description or "", ("serial " + p.serial_number)
            if p.serial_number else ""]
    return "  ".join([p.device] + [b for b in bits if b and b != "n/a"])


def find_port(ports=None):
    """Returns the serial port of the one connected Adafruit board, or raises DeployError."""
    if ports is None:
        import serial.tools.list_ports
        ports = list(serial.tools.list_ports.comports())
    boards = consoles(ports)
    if len(boards) == 1:
        return boards[0].device
    if not boards:
        others = [p for p in ports if p.vid is not None]
        seen = ("\n  Other USB serial ports (not Adafruit boards):\n    "
                + "\n    ".join(_describe(p) for p in others)) if others else ""
        raise DeployError(
            "No CircuitPython board found on USB (no serial port with Adafruit's vendor id "
            "239A).\n"
            "  Plug the PyBadge/PyGamer in with a data (not charge-only) USB cable and switch it "
            "on: a CIRCUITPY drive appears.\n"
            "  A ...BOOT drive instead means it is in the bootloader: press RESET once.\n"
            "  Or name the port: make flash PORT=/dev/ttyACM0" + seen)
    listing = "\n  ".join(_describe(p) for p in boards)
    raise DeployError(
        f"{len(boards)} CircuitPython boards are connected:\n  {listing}\n"
        f"  Choose one: make flash PORT={boards[0].device}   "
        f"(python -m tools.flash --port {boards[0].device})")


# ---------------------------------------------------------------------------------------------
# Talking to it

def connect(port):
    """Returns an mpremote SerialTransport in the raw REPL (after a soft reboot)."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport
    try:
        t = SerialTransport(port, baudrate=115200)
    except TransportError as e:
        raise DeployError(f"Can't open {port}: {e}. Is it the board's port, and is no other "
                          "program (serial monitor, Mu, Thonny, mpremote) using it?") from None
    try:
        t.enter_raw_repl(soft_reset=True)
    except (TransportError, OSError) as e:
        _close(t)
        raise DeployError(
            f"{port} does not answer like a CircuitPython REPL ({e}). Press RESET on the board "
            "and try again; if the game is stuck, unplug and replug it.") from None
    return t


def _close(t):
    try:
        t.close()
    except Exception:  # the port may be gone already (the board is resetting)
        pass


def run_code(t, code, what):
    """Runs `code` in the board's raw REPL and returns its output; raises DeployError naming
    `what` if it fails there or the board is gone."""
    from mpremote.transport import TransportError, TransportExecError
    try:
        return t.exec(code).decode("utf-8", "replace")
    except TransportExecError as e:
        raise DeployError(f"{what} failed on the board:\n{e.error_output.strip()}") from None
    except TransportError as e:
        raise DeployError(f"{what}: lost contact with the board ({e})") from None


def probe(t):
    """Returns (implementation, version tuple, machine, write errno or 0, free bytes)."""
    out = run_code(t, PROBE, "Checking the board")
    return ast.literal_eval(out.strip().splitlines()[-1])


def scan(t, tree, listed=None):
    """Returns ({path: (size, digest)}, set of dirs, algo) for the game's paths on the board:
    the tree's files, their library twins, every file in the game's own folders and the files
    `listed` ({path: (size, digest)}: the drive's MANIFEST)."""
    listed = listed or {}
    walk = ["/" + d for d in tree.owned_dirs()]
    owned = tuple(d + "/" for d in tree.owned_dirs())
    files = ["/" + p for p in dict.fromkeys(list(tree.files) + tree.owned_files() + list(listed))
             if not p.startswith(owned)]
    dirs = ["/" + d for d in tree.dirs() if not (d + "/").startswith(owned)]
    want = {"/" + p: size for p, (size, _) in listed.items()}
    want.update({"/" + p: len(data) for p, data in tree.files.items()})
    args = ", ".join(repr(a) for a in (walk, files, dirs, want))
    out = run_code(t, SCAN.replace("__ARGS__", args), "Listing the board's files")
    found, found_dirs, algo = {}, set(), None
    for line in out.splitlines():
        line = line.strip()
        if not line.startswith("("):
            continue
        rec = ast.literal_eval(line)
        if rec[0] == "A":
            algo = rec[1]
        elif rec[0] == "D":
            found_dirs.add(rec[1].lstrip("/"))
        elif rec[0] == "F":
            found[rec[1].lstrip("/")] = (rec[2], rec[3])
    if algo is None:
        raise DeployError("Listing the board's files gave no answer:\n" + out)
    return found, found_dirs, algo


def read_file(t, path, limit):
    """Returns the bytes of the file `path` on the board (at most limit + 1), or None."""
    code = READ_FILE.replace("__PATH__", repr(path)).replace("__LIMIT__", str(limit + 1))
    out = run_code(t, code, "Reading " + path.lstrip("/"))
    return ast.literal_eval(out.strip().splitlines()[-1])


def read_settings(t):
    """Returns the bytes of the board's settings.toml, or None if it has none."""
    return read_file(t, "/" + SETTINGS, 64 * 1024)


def _staged_dirs(paths):
    # STAGING and the folders the staged paths need in it, parents first.
    wanted = set()
    for p in paths:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            wanted.add("/".join(parts[:i]))
    return [STAGING] + [STAGING + "/" + d for d in sorted(wanted,
                                                         key=lambda d: (d.count("/"), d))]


def apply(t, tree, plan, port=None):
    """Makes the board hold the tree as `plan` says: the changed files into STAGING first,
    then put in place in one exchange (lib/ first, code.py last), then the files the last flash
    installed that the tree no longer has removed, the list of what is installed written, and
    settings.toml. A flash stopped while copying leaves the game as it was, and says so."""
    from mpremote.transport import TransportError, TransportExecError

    again = f" --port {port}" if port else ""
    where, state = "while copying", "The game on the board is as it was."

    def stopped(why):
        return DeployError(f"The flash stopped {where}: {why}\n  {state} Run make flash again "
                           f"to finish it (python -m tools.flash{again}).")

    step = "Looking for a stopped flash"
    try:
        cleared = run_code(t, CLEAR_STAGING.replace("__ARGS__", "%r, %r" % (
            "/" + STAGING, STAGING_NOTE)), step).strip().splitlines()
        if cleared and cleared[-1] == "False":
            raise DeployError(f"/{STAGING} is in the way on the board: make flash copies the "
                              "game there first. Move it away, then flash again.")
        staged = _staged_dirs(plan.copy) if plan.copy else []
        for d in staged:
            step = f"Making {d}/"
            t.fs_mkdir("/" + d)
        if plan.copy:
            step = f"Writing {STAGING}/README.txt"
            t.fs_writefile(f"/{STAGING}/README.txt", STAGING_NOTE)
        for p in plan.copy:
            step = f"Copying {p}"
            say(f"  copy {p} ({len(tree.files[p])} B)")
            t.fs_writefile(f"/{STAGING}/{p}", tree.files[p])
        where, state = "while putting the new files in place", "Some files are new, some old."
        for d in plan.mkdirs:
            step = f"Making {d}/"
            t.fs_mkdir("/" + d)
        if plan.copy:
            step = "Putting the new files in place"
            pairs = [(f"/{STAGING}/{p}", "/" + p) for p in plan.copy]
            run_code(t, SWAP.replace("__ARGS__", "%r, %r, %r" % (
                pairs, f"/{STAGING}/README.txt", ["/" + d for d in reversed(staged)])), step)
        where, state = "after the new files were in place", "The game is new and whole."
        for p in plan.remove:
            step = f"Removing {p}"
            say(f"  remove {p}")
            t.fs_rmfile("/" + p)
        for d in plan.rmdirs:
            try:
                t.fs_rmdir("/" + d)
            except (OSError, TransportExecError):
                pass  # not empty: something of the user's is in it
        if plan.manifest_changed:
            step = "Writing " + MANIFEST
            t.fs_writefile("/" + MANIFEST, plan.manifest)
        if plan.settings is not None:
            step = "Writing " + SETTINGS
            say(f"  {SETTINGS}: {PYSTACK_KEY} = {PYSTACK_SIZE}")
            t.fs_writefile("/" + SETTINGS, plan.settings)
    except (OSError, TransportExecError) as e:
        text = getattr(e, "error_output", None) or str(e)
        if "28" in text or "ENOSPC" in text or "No space" in text:
            raise stopped(f"{step}: CIRCUITPY is full. Delete files you don't need from it "
                          "(old projects in lib/).") from None
        raise stopped(f"{step} failed: {' '.join(text.split())}") from None
    except TransportError as e:
        raise stopped(f"{step}: lost contact with the board ({e})") from None


def sizes_on_board(t):
    """Returns {path: size (-2: a folder)} of the save files (tools/flash/sync.py SAVE_FILES) that
    are on the board, in one exchange."""
    args = repr(["/" + p for p, _ in SAVE_FILES])
    out = run_code(t, SIZES.replace("__ARGS__", args), "Looking for the save files")
    return {p.lstrip("/"): n for p, n in ast.literal_eval(out.strip().splitlines()[-1]).items()}


def _zeros_on_board(t, path, data):
    # The save files are zeros: written by the board itself, a sector at a time, in one
    # exchange (over the wire, 256-byte chunks would take one exchange each).
    if data.count(0) != len(data) or len(data) % 512:
        raise ValueError("only whole sectors of zeros are written this way")
    _fs(t.exec, ZEROS % (path, len(data) // 512))


def _fs(call, *args):
    # mpremote's fs_* calls raise OSError for the errors it recognises, TransportExecError for
    # the others: one kind here, for make_save_file().
    from mpremote.transport import TransportError, TransportExecError
    try:
        return call(*args)
    except TransportExecError as e:
        raise OSError(5, e.error_output.strip().splitlines()[-1]) from None
    except TransportError as e:
        raise DeployError(f"lost contact with the board ({e})") from None


def reset_board(t):
    """Hard-resets the board: boot.py runs again, then code.py starts the game."""
    from mpremote.transport import TransportError
    try:
        t.exec_raw_no_follow(RESET)
    except (TransportError, OSError):
        pass  # it may vanish before acknowledging: that is the reset


def leave(t):
    """Back to the friendly REPL and a soft reload, so the game runs again after an error."""
    try:
        t.exit_raw_repl()
        t.serial.write(b"\x04")
    except Exception:
        pass


def flash(tree, port=None, reset=True):
    """Copies the tree to the board at port (default: the one connected). Returns 0."""
    port = port or find_port()
    say(f"Board at {port}: connecting with mpremote ...")
    t = connect(port)
    done = False
    try:
        impl, version, machine, werr, free = probe(t)
        where = f"The board at {port}" + (f" ({machine})" if machine else "")
        say(f"{where}: {impl} {'.'.join(map(str, version))}")
        check_version(tree, impl, version, where)
        if werr == 30:
            raise DeployError(READ_ONLY_HELP)
        if werr == 28:
            raise DeployError("CIRCUITPY is full. Delete files you don't need from it, then "
                              "flash again.")
        if werr:
            raise DeployError(f"The board can't write CIRCUITPY (OSError {werr}).")
        data = read_file(t, "/" + MANIFEST, MANIFEST_MAX)
        listed = read_manifest(data if data is None or len(data) <= MANIFEST_MAX else b"")
        files, dirs, algo = scan(t, tree, listed[1])
        settings = read_settings(t)
        plan = Plan(tree, files, dirs, algo, settings, listed)
        for p in list(tree.files) + [SETTINGS]:
            if p in dirs:
                raise DeployError(f"/{p} is a folder where the game needs a file: move it "
                                  "away, then flash again.")
        # The new files are copied whole beside the old ones, which go once they are all there.
        need = plan.bytes_to_copy(tree) + len(plan.manifest)
        if plan.settings is not None:
            need += len(plan.settings) - len(settings or b"")
        if free >= 0 and need > free:
            raise DeployError(f"CIRCUITPY has {free} bytes free but the game needs {need} more. "
                              "Delete files you don't need from it, then flash again.")
        apply(t, tree, plan, port)
        sizes = sizes_on_board(t)
        say(make_save_file(lambda p: sizes.get(p, -1), lambda p: _fs(t.fs_mkdir, "/" + p),
                           lambda p, data: _zeros_on_board(t, "/" + p, data)))
        say(summary(plan, tree))
        if reset:
            say("Resetting the board: the game starts in a few seconds.")
            reset_board(t)
        done = True
    finally:
        if not done:
            leave(t)
        _close(t)
    return 0


