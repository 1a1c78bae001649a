"""Fuzzing what the tools read with generated and mutated input (issue 25): engine.replay's,
tools.bots.records' and tools.bots.review's files, tools.sim.simulator's key scripts,
tools.flash.deploy's settings.toml. Each runs its main() in this process on a fixed number of
seeded inputs (counted, not timed: issue 36), and asserts the documented answer: an exit code in
the tool's set (2 for bad input) and never a traceback (an exception out of main(), or one
printed). Each prints one line with its counts (pytest -s shows them). Every command's
arguments are fuzzed from its own parser in test_fuzz_commands.py.

tools.flash.deploy's settings.toml is checked deeper: after make flash's change the board reads
a pystack of at least PYSTACK_SIZE (tools/flash/settings_toml.py, CircuitPython's scanner), nothing
but that line changed, and a second run changes nothing; the scanner itself is compared with
CircuitPython's own (its VM's os.getenv) and its strtol with the C library's.
"""
import contextlib
import ctypes
import io
import json
import os
import random
import traceback

from engine import replay
from tools.bots import records, review
from tools.flash import settings_toml, sync
from tools.sim import simulator as sim
from tools.flash.sync import PYSTACK_KEY, PYSTACK_MAX, PYSTACK_SIZE, make_save_file_in

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "host_tests", "golden")


class Tally:
    """Counts the runs of one entry point by exit code; keeps the first bad answer."""

    def __init__(self, name, codes):
        self.name = name
        self.codes = codes
        self.exits = {}
        self.runs = 0
        self.bad = []

    def call(self, main, argv, what):
        """Runs main(argv) with its output captured; records the exit code (argparse's
        SystemExit included) and any traceback."""
        out, err = io.StringIO(), io.StringIO()
        code = None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:
                code = e.code
            except Exception:  # the traceback the user would see
                err.write(traceback.format_exc())
        self.runs += 1
        self.exits[code] = self.exits.get(code, 0) + 1
        text = err.getvalue()
        if code not in self.codes or "Traceback" in text:
            self.bad.append((what, argv, code, text[-1500:]))
        return code, out.getvalue(), text

    def report(self):
        print("\nfuzz %s: %d inputs, exits %s, %d tracebacks or exit codes outside %s" % (
            self.name, self.runs, dict(sorted(self.exits.items(), key=str)), len(self.bad),
            sorted(self.codes)))
        assert not self.bad, self.bad[:3]


def golden():
    out = []
    for name in sorted(os.listdir(GOLDEN)):
        if name.endswith(".json"):
            with open(os.path.join(GOLDEN, name)) as f:
                out.append(json.load(f))
    return out


ODD_VALUES = [0, 1, -1, 2, 54, 55, 1.0, 0.5, 1e308, True, False, None, "", "x", "S", "L", "R",
              "pass", "build", "chaos", [], {}, [0, "S"], [[0, "S"]], {"p": 0}, 10 ** 30,
              -10 ** 30, "\u00e9\u20ac", "\x00"]


def _nodes(value, path=()):
    # Every (path, value) inside a JSON value, down to 20 levels (a record has 5).
    yield path, value
    if len(path) >= 20:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, path + (i,))


def _set(root, path, value):
    if not path:
        return value
    node = root
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return root


def mutate_record(record, rnd, keep_early=False):
    """Returns a mutated copy of a record: a node replaced by an odd value, deleted or
    duplicated, or nested deep. keep_early picks nodes outside the turns after the 3rd (a
    review of a mutation late in the game costs its whole review first)."""
    rec = json.loads(json.dumps(record))
    nodes = list(_nodes(rec))
    if keep_early:
        nodes = [n for n in nodes if not (len(n[0]) > 1 and n[0][0] in ("turns", "rolls")
                                          and n[0][1] > 3)]
    for _ in range(rnd.choice((1, 1, 1, 2, 3))):
        path, value = rnd.choice(nodes)
        kind = rnd.random()
        if kind < 0.6 or not path:
            rec = _set(rec, path, rnd.choice(ODD_VALUES))
        elif kind < 0.75:
            parent = _set(rec, (), rec)
            for p in path[:-1]:
                parent = parent[p]
            del parent[path[-1]]
        elif kind < 0.9:
            rec = _set(rec, path, [value, value] if not isinstance(value, list)
                       else value + value[:1])
        else:
            deep = value
            for _ in range(rnd.choice((50, 500, 5000))):
                deep = [deep]
            rec = _set(rec, path, deep)
        nodes = list(_nodes(rec)) or [((), rec)]
    return rec


def mutate_bytes(data, rnd):
    """Returns data with bytes flipped, cut, or inserted."""
    data = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        kind = rnd.random()
        if kind < 0.4 and data:
            data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
        elif kind < 0.6:
            data = data[:rnd.randrange(len(data) + 1)]
        else:
            at = rnd.randrange(len(data) + 1)
            data[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8)))
    return bytes(data)


def _dumps(rec):
    try:
        return json.dumps(rec).encode()
    except (ValueError, RecursionError):
        return b"[" * 5000


# ---- engine.replay ------------------------------------------------------------------------------

def test_fuzz_engine_replay(tmp_path):
    tally = Tally("engine.replay", {0, 1, 2})
    rnd = random.Random(25)
    bases = golden()
    path = tmp_path / "record.json"
    for i in range(300):
        base = rnd.choice(bases)
        if i % 3 == 2:
            data = mutate_bytes(json.dumps(base).encode(), rnd)
        else:
            data = _dumps(mutate_record(base, rnd))
        path.write_bytes(data)
        tally.call(replay.main, [str(path)], data[:200])
    # The arguments themselves.
    for argv in ([], ["a", "b"], [str(tmp_path)], [str(tmp_path / "none.json")], ["\x00"]):
        tally.call(replay.main, argv, "argv")
    tally.report()
    assert tally.exits.get(2, 0) > 100  # the fuzzing reached the checks


# ---- tools.bots review
# -------------------------------------------------------------------------------

def test_fuzz_tools_review(tmp_path):
    tally = Tally("tools.bots.review", {0, 2})
    rnd = random.Random(26)
    bases = golden()
    path = tmp_path / "record.json"
    (tmp_path / "file").write_text("x")
    pngs = [str(tmp_path / "no" / "x.png"), str(tmp_path / "file" / "x.png"), str(tmp_path)]
    for i in range(60):
        base = rnd.choice(bases)
        argv = [str(path), "--samples", "1"]
        if i % 4 == 0:  # a valid record, bad arguments (the review itself takes seconds)
            data = json.dumps(base).encode()
            bad = rnd.choice(("seat", "samples", "png", "seed"))
            if bad == "seat":
                argv += ["--seat", str(rnd.choice((-3, -1, 4, 5, 99)))]
            elif bad == "samples":
                argv += ["--samples", str(rnd.choice((0, -1, -100)))]
            elif bad == "png":
                argv += ["--png", rnd.choice(pngs)]
            else:
                argv += ["--seed", rnd.choice(("x", "1.5", "", "--"))]
        elif i % 4 == 1:
            data = mutate_bytes(json.dumps(base).encode(), rnd)[:rnd.choice((5, 50, 500))]
        else:
            data = _dumps(mutate_record(base, rnd, keep_early=True))
        path.write_bytes(data)
        tally.call(review.main, argv, data[:200])
    tally.report()


# ---- tools.sim.simulator: key scripts and arguments
# -------------------------------------------------------

TOKENS = ["A", "B", "START", "SELECT", "RIGHT", "LEFT", "UP", "DOWN", "a", "start", "WAIT",
          "WAIT*3", "WAIT=100", "A*2", "DOWN*0", "#", "\n", ",", " ", "*", "=", "WAIT=",
          "A*\u00b2", "WAIT*\u0663", "WAIT=\u00b9", "WAIT*99999999999", "WAIT=99999999999999",
          "X", "\u00df", "A*-1", "A**2", "WAIT=5*2", "\t", "\x00", "WAIT*1200000"]


def random_script(rnd):
    return "".join(rnd.choice(TOKENS) + rnd.choice((" ", ",", "", "\n"))
                   for _ in range(rnd.randint(0, 12)))


def test_fuzz_sim_key_scripts():
    rnd = random.Random(27)
    counts = {"read": 0, "refused": 0}
    bad = []
    for _ in range(3000):
        text = random_script(rnd)
        if rnd.random() < 0.3:
            text = mutate_bytes(text.encode(), rnd).decode("utf-8", "replace")
        try:
            script = sim.parse_keys(text)
        except sim.ScriptError:
            counts["refused"] += 1
            continue
        except Exception:  # pylint: disable=broad-except
            bad.append((text, traceback.format_exc()))
            continue
        counts["read"] += 1
        if len(script) > sim.SCRIPT_LIMIT or any(
                k is not None and not 0 <= k < 8 for k in script):
            bad.append((text, "script of %d frames" % len(script)))
    print("\nfuzz tools.sim.simulator key scripts: %d scripts, %d read, %d refused (ScriptError), "
          "%d other errors" % (sum(counts.values()) + len(bad), counts["read"],
                               counts["refused"], len(bad)))
    assert not bad, bad[:3]
    assert counts["read"] > 100 and counts["refused"] > 100


# ---- tools.bots records
# ------------------------------------------------------------------------------

def _saves(tmp_path, rnd):
    """An NVM image and a drive copy holding a commit with random settings."""
    from lnr.storage import Storage

    drive = tmp_path / "made"
    if drive.exists():
        import shutil
        shutil.rmtree(drive)
    drive.mkdir()
    make_save_file_in(drive)  # as make flash leaves a drive
    nvm = bytearray(b"\xff" * 8192)
    st = Storage(nvm, str(drive), True)
    st.load()
    st.brightness = rnd.randint(0, 4)
    st.sound = rnd.randint(0, 1)
    st.commit()
    with open(drive / "lnrsave" / "data" / "copy.bin", "rb") as f:
        return bytes(nvm), f.read()


def test_fuzz_tools_records(tmp_path):
    tally = Tally("tools.bots.records", {0, 1, 2})
    rnd = random.Random(29)
    nvm_path = tmp_path / "nvm.bin"
    made = [_saves(tmp_path, rnd) for _ in range(3)]
    for i in range(60):
        nvm, copy = rnd.choice(made)
        drive = tmp_path / ("drive%d" % i)
        data = rnd.choice((mutate_bytes(nvm, rnd), nvm[:rnd.randrange(8192)], b"",
                           nvm + b"\x00" * rnd.randint(1, 100), bytes(rnd.randrange(256)
                                                                       for _ in range(64))))
        nvm_path.write_bytes(data)
        shape = rnd.random()
        save_dir = drive / "lnrsave" / "data"
        if shape < 0.6:
            save_dir.mkdir(parents=True)
            (save_dir / "copy.bin").write_bytes(rnd.choice((copy, mutate_bytes(copy, rnd))))
        elif shape < 0.7:
            (save_dir / "copy.bin").mkdir(parents=True)  # a folder where the file goes
        elif shape < 0.8:
            drive.mkdir()
            (drive / "lnrsave").write_text("a file named like the game's folder")
        elif shape < 0.9:
            drive.mkdir()
        argv = ["--nvm", str(nvm_path), "--drive", str(drive)]
        what = rnd.random()
        if what < 0.5:
            argv.append("--show")
        elif what < 0.7:
            argv += ["--out", str(tmp_path / ("out%d" % i))]
        elif what < 0.8:
            argv += ["--out", str(nvm_path)]  # an existing file: refused
        elif what < 0.9:
            argv += ["--out", str(tmp_path / "none" / "deeper" / "out")]
        else:
            argv = rnd.choice((["--show"], ["--nvm", str(tmp_path)], ["--port", "x", "--nvm", "y"],
                               ["--nvm", str(tmp_path / "none.bin"), "--show"], ["--bogus"]))
        tally.call(records.main, argv, data[:64])
    tally.report()


# ---- tools.flash.deploy's settings.toml
# ---------------------------------------------------------------

VALUES = ["4096", "8192", "0x2000", "0X1000", "05000", "010000", "011", "+8192", "-1", "0", "08",
          "8_192", "8192.0", '"8192"', '"x', "", " ", "0x", "9" * 15, "9" * 16, "9" * 5000,
          "0xFFFFFFFF", "196608", "196609", "4096 4096", "true", "\u0664\u0660\u0669\u0666"]


def random_settings(rnd):
    """A settings.toml text from lines of the shapes users write (and some they don't)."""
    lines = []
    for _ in range(rnd.randint(0, 8)):
        kind = rnd.random()
        pad = rnd.choice(("", " ", "  ", "\t"))
        if kind < 0.35:
            key = rnd.choice((PYSTACK_KEY, PYSTACK_KEY, '"%s"' % PYSTACK_KEY, PYSTACK_KEY + "X",
                              PYSTACK_KEY.lower(), PYSTACK_KEY + "\n"))
            lines.append("%s%s%s=%s%s%s" % (pad, key, rnd.choice(("", " ", "\t")),
                                            rnd.choice(("", " ")), rnd.choice(VALUES),
                                            rnd.choice(("", "  # note", "#", " \r"))))
        elif kind < 0.6:
            lines.append('%sCIRCUITPY_WIFI_SSID = "net # not a comment"' % pad)
        elif kind < 0.7:
            lines.append(rnd.choice(("[table]", " [t.x]", "[")))
        elif kind < 0.8:
            lines.append(rnd.choice(("# comment", "", "   ", "=", "x = ")))
        else:
            lines.append("".join(rnd.choice("AB_= #\"[]\t\\0x1") for _ in range(rnd.randint(0, 12))))
    eol = rnd.choice(("\n", "\r\n"))
    return eol.join(lines) + rnd.choice(("", eol))


NOTE = "# Lok'n'Roll needs this much of Python's stack (make flash sets it)"


def test_fuzz_deploy_settings_toml():
    rnd = random.Random(30)
    counts = {"kept": 0, "changed": 0, "added": 0, "left alone": 0}
    bad = []
    for i in range(3000):
        text = random_settings(rnd)
        data = text.encode("utf-8")
        if i % 5 == 4:
            data = mutate_bytes(data, rnd)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                new = sync.settings_change(data)
        except Exception:  # pylint: disable=broad-except
            bad.append((data, traceback.format_exc()))
            continue
        try:
            old = data.decode("utf-8")
        except UnicodeDecodeError:
            old = None
        if new is None:
            if old is None or "\0" in old:
                counts["left alone"] += 1
                assert "Add the line" in out.getvalue()
                continue
            counts["kept"] += 1
            number = settings_toml.board_int(old)
            if number is None or not PYSTACK_SIZE <= number <= PYSTACK_MAX:
                bad.append((data, "kept, but the board reads %s" % number))
            continue
        new = new.decode("utf-8")
        number = settings_toml.board_int(new)
        if number != PYSTACK_SIZE:  # the board reads the size make flash wrote
            bad.append((data, "the board reads %s" % number))
        if sync.settings_with_pystack(new) != new:  # once is enough
            bad.append((data, "a second run changes it again"))
        setting, stop = settings_toml.find(old)
        if setting is not None:  # that line changed, nothing else
            counts["changed"] += 1
            rest = old[setting.value_end:]
            if not (new.startswith(old[:setting.start]) and new.endswith(rest)
                    and new[setting.start:len(new) - len(rest)].strip()
                    == "%s = %d" % (PYSTACK_KEY, PYSTACK_SIZE)):
                bad.append((data, "more than its line changed"))
        else:  # two lines added where the board looks, nothing else
            counts["added"] += 1
            head, tail = old[:stop], old[stop:]
            if not (new.startswith(head) and new.endswith(tail)
                    and new[len(head):len(new) - len(tail)].strip().splitlines()
                    == [NOTE, "%s = %d" % (PYSTACK_KEY, PYSTACK_SIZE)]):
                bad.append((data, "more than two lines added"))
    print("\nfuzz tools.flash.deploy settings.toml: %d files: %s; %d errors" % (
        sum(counts.values()) + len(bad), counts, len(bad)))
    assert not bad, bad[:3]
    assert min(counts.values()) > 20


def test_fuzz_settings_scanner_against_circuitpythons_own(circuitpython):
    # The same generated files through CircuitPython's VM (supervisor/shared/settings.c, via
    # os.getenv: the raw text of the value it finds) and through tools/flash/settings_toml.py.
    from test_tool_input import vm_getenv

    rnd = random.Random(31)
    texts = [random_settings(rnd) for _ in range(600)]
    got = vm_getenv(texts)
    compared = {"bare": 0, "string": 0, "none": 0}
    bad = []
    for text, value in zip(texts, got):
        setting, _ = settings_toml.find(text)
        if setting is None or (setting.value is None and not setting.quoted):
            compared["none"] += 1
            if value is not None:
                bad.append((text, value, "the VM found a value"))
        elif setting.quoted:
            compared["string"] += 1  # a string: no int for the board either way
        else:
            compared["bare"] += 1
            if value != setting.value:
                bad.append((text, value, setting.value))
    print("\nfuzz settings scanner vs CircuitPython's VM: %d files, %s, %d differences" % (
        len(texts), compared, len(bad)))
    assert not bad, bad[:3]
    assert compared["bare"] > 50 and compared["none"] > 50


def test_fuzz_strtol_against_the_c_library():
    libc = ctypes.CDLL(None)
    libc.strtol.restype = ctypes.c_long
    libc.strtol.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int]
    rnd = random.Random(32)
    alphabet = "0123456789abcdefxX+- \t\r\v\f_.gz"
    n = 0
    bad = []
    for _ in range(20000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 15)))
        buf = ctypes.create_string_buffer(text.encode())
        end = ctypes.c_char_p()
        value = libc.strtol(buf, ctypes.byref(end), 0)
        used = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)
        rest = text[used:]
        ok = used > 0 and rest.strip(" \t\n\v\f\r") == "" and not (
            rest and rest[0] not in " \t\n\v\f\r")
        c_says = max(-2 ** 31, min(2 ** 31 - 1, value)) if ok else None
        n += 1
        if settings_toml.strtol(text) != c_says:
            bad.append((text, c_says, settings_toml.strtol(text)))
    print("\nfuzz strtol vs the C library: %d values, %d differences" % (n, len(bad)))
    assert not bad, bad[:5]
