"""Every command, fuzzed from its own argument parser (issue 36): each option of each entry point
(`grep -rl __main__ engine tools`) given, one at a time over arguments that make a short run,
a value of the wrong type, an empty one, zero, a negative and a huge number, a file of the
user's (text, a picture, binary junk), a folder of the user's, a path in a folder that does not
exist, an endless file (/dev/zero) and, where the short run reads a file there, that file cut
short and with its bytes flipped; each flag alone; an unknown option; no arguments. Counted, not
timed: every case runs once.

Each case runs the command's main() in this process and must give the documented answer:

- never a traceback (an exception out of main(), or one printed) and an exit status in the
  command's set;
- a refusal (exit status 2) is one line on standard error, given before the command's work
  starts: the work's first step (WORK below: the pool of games, the VM run, the build...) is
  replaced by a stop, so a case that reaches it counts as accepted and a refusal that comes
  after it as a failure. The commands whose whole run is short run to their end;
- no file or folder of the user's changes (the fixtures are made again for every case: a tool
  may add files to a folder of the user's, never change or delete one there).

`pytest -s` prints one line per command: its cases, how many it refused, ran or started, and
the tracebacks, other exit statuses, refusals of more than one line or after the work began,
and user files changed (all 0).
"""
import argparse
import contextlib
import hashlib
import importlib
import io
import json
import os
import shutil
import sys
import traceback
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "host_tests" / "golden" / "solo_story.json"


class Started(BaseException):
    """Raised by the stand-in of a command's first step of work: the arguments were accepted.
    (A BaseException, so that no `except Exception` of the command's takes it for an error.)"""


class Captured(BaseException):
    """Raised out of parse_args() while the options are read."""


def options_of(main):
    """Returns the argparse Actions main()'s parser is given, in order: main([]) runs with
    ArgumentParser's add_argument (and its groups') recording what they return, and its
    parse_args() stopping it."""
    actions = []

    def recording(add):
        def add_argument(*args, **kwargs):
            action = add(*args, **kwargs)
            actions.append(action)
            return action
        return add_argument

    cls = argparse.ArgumentParser
    saved = {name: getattr(cls, name) for name in (
        "add_argument", "add_mutually_exclusive_group", "add_argument_group", "parse_args")}

    def grouping(make):
        def group(self, *args, **kwargs):
            g = make(self, *args, **kwargs)
            g.add_argument = recording(g.add_argument)
            return g
        return group

    def add_argument(self, *args, **kwargs):
        return recording(lambda *a, **k: saved["add_argument"](self, *a, **k))(*args, **kwargs)

    def parse_args(self, *args, **kwargs):
        raise Captured()

    cls.add_argument = add_argument
    cls.add_mutually_exclusive_group = grouping(saved["add_mutually_exclusive_group"])
    cls.add_argument_group = grouping(saved["add_argument_group"])
    cls.parse_args = parse_args
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main([])
    except Captured:
        pass
    finally:
        for name, value in saved.items():
            setattr(cls, name, value)
    return [a for a in actions if "-h" not in a.option_strings]


# ---- the user's files ----------------------------------------------------------------------------

def _png(width=2, height=2):
    # A picture of the user's: a valid PNG no tool of ours wrote.
    def chunk(kind, data):
        return (len(data).to_bytes(4, "big") + kind + data
                + zlib.crc32(kind + data).to_bytes(4, "big"))
    raw = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", width.to_bytes(4, "big")
                                          + height.to_bytes(4, "big") + b"\x08\x02\x00\x00\x00")
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


USER_FILES = {
    "notes.txt": b"my notes: the Wi-Fi password, a poem\n",
    "photo.png": _png(),
    "junk.bin": bytes(range(256)) * 8,
    "folder/keep.txt": b"years of work\n",
}


def make_user_files(base):
    """Makes the user's files under base (anew); returns their digests by path."""
    if base.exists():
        shutil.rmtree(base)
    for rel, data in USER_FILES.items():
        p = base / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return user_state(base)


def user_state(base):
    """Returns {path: digest} of the user's files under base (missing: None)."""
    out = {}
    for rel in USER_FILES:
        p = base / rel
        out[rel] = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None
    return out


def values(user, scratch, good):
    """Returns [(kind, value)] to give an option: `good` is the value the short run gives it (a
    damaged copy of it is tried where it is a file)."""
    out = [("empty", ""), ("word", "x"), ("fraction", "1.5"), ("zero", "0"), ("negative", "-1"),
           ("very negative", "-99999999999"), ("huge", "99999999999999999999"),
           ("text file", str(user / "notes.txt")), ("picture", str(user / "photo.png")),
           ("binary junk", str(user / "junk.bin")), ("folder", str(user / "folder")),
           ("missing folder", str(user / "none" / "x")), ("endless file", "/dev/zero")]
    if good is not None and os.path.isfile(good):
        data = Path(good).read_bytes()
        cut = scratch / ("cut-" + Path(good).name)
        cut.write_bytes(data[:len(data) // 2])
        flipped = scratch / ("flipped-" + Path(good).name)
        middle = len(data) // 2
        flipped.write_bytes(data[:middle] + bytes(b ^ 0xFF for b in data[middle:middle + 64])
                            + data[middle + 64:])
        out += [("cut short", str(cut)), ("bytes flipped", str(flipped))]
    return out


# ---- the commands --------------------------------------------------------------------------------

def _weights(scratch):
    p = scratch / "weights.py"
    shutil.copyfile(ROOT / "engine" / "ai_weights.py", p)
    return str(p)


def _folder(path):
    path.mkdir()
    return str(path)


def _keys(scratch):
    p = scratch / "keys.txt"
    p.write_text("WAIT  # a key script\n")
    return str(p)


def _saves(scratch):
    """An NVM file and a drive folder holding a commit, as the simulator leaves them."""
    sys.path.insert(0, str(ROOT / "lib"))
    from lnr.storage import Storage
    from tools.flash.sync import make_save_file_in

    drive = scratch / "drive"
    drive.mkdir(exist_ok=True)
    make_save_file_in(drive)
    nvm = bytearray(b"\xff" * 8192)
    st = Storage(nvm, str(drive), True)
    st.load()
    st.brightness = 3
    st.commit()
    path = scratch / "nvm.bin"
    path.write_bytes(nvm)
    return str(path), str(drive)


# module: (the short run's arguments (a function of the scratch folder), the exit statuses the
# command documents, the names whose call starts its work (module, name)).
COMMANDS = {
    "engine.replay": (lambda s: [str(GOLDEN)], {0, 1, 2}, ()),
    "engine.selfplay": (lambda s: ["--mode", "solo", "--seed", "1"], {0, 2}, ()),
    "tools.art.screenshots": (lambda s: ["--out", str(s / "shots"), "title"], {0, 1, 2},
                              [("tools.art.screenshots", "scripts")]),
    "tools.art.sprites": (lambda s: [], {0, 1, 2}, [("tools.art.sprites", "pixels")]),
    "tools.art.font": (lambda s: [], {0, 1, 2}, [("tools.art.font", "pixels")]),
    "tools.bots.bench": (lambda s: ["--seeds", "1", "--no-vm", "--coach-seeds", "0",
                                    "--jobs", "1", "--prior", _weights(s)], {0, 1, 2},
                         [("tools.bots.bench", "Pool")]),
    "tools.bots.compare": (lambda s: [_weights(s), str(ROOT / "engine" / "planner_weights.py"),
                                      "--games", "2", "--jobs", "1"], {0, 2},
                           [("tools.bots.compare", "Pool"), ("tools.bots.train", "run_games")]),
    "tools.bots.cost": (lambda s: ["--games", "1"], {0, 1, 2}, [("tools.bots.cost", "count")]),
    "tools.bots.records": (lambda s: ["--nvm", _saves(s)[0], "--drive", str(s / "drive"),
                                      "--show"], {0, 1, 2},
                           [("tools.bots.records", "capacity"),
                            ("tools.bots.records", "from_board")]),
    "tools.bots.review": (lambda s: [str(GOLDEN), "--samples", "1"], {0, 2},
                          [("tools.bots.review", "review")]),
    "tools.bots.train": (lambda s: ["--iters", "1", "--games", "1", "--choose", "2", "--jobs",
                                    "1", "--out", str(s / "w.py"), "--png", str(s / "c.png")],
                         {0, 2}, [("tools.bots.train", "Pool"), ("tools.bots.train", "run_games")]),
    "tools.bots.tune": (lambda s: ["--iters", "1", "--games", "2", "--holdout", "2", "--jobs",
                                   "1", "--out", str(s / "w.py")], {0, 1, 2},
                        [("tools.bots.tune", "Pool")]),
    "tools.bots.weights_ram": (lambda s: ["--module", _weights(s)], {0, 2},
                               [("tools.bots.weights_ram", "measure")]),
    "tools.flash.boardcheck": (lambda s: ["--port", str(s / "port")], {0, 1, 2},
                               [("tools.flash.deploy_board", "connect"),
                                ("tools.flash.deploy_board", "find_port")]),
    "tools.flash.bundle": (lambda s: ["--out", str(s / "dist")], {0, 2},
                           [("tools.flash.deploy", "find_mpy_cross")]),
    "tools.flash.deploy": (lambda s: ["--to", _folder(s / "CIRCUITPY"), "--build-dir",
                                      str(s / "build"), "--no-mpy"], {0, 2},
                           [("tools.flash.deploy", "build"),
                            ("tools.flash.deploy_board", "flash")]),
    "tools.flash.fakeboard": (lambda s: [str(s / "board"), "--nvm", str(s / "nvm.bin"),
                                         "--log", str(s / "log.jsonl")], {0, 2},
                              [("tools.flash.fakeboard", "FakeBoard")]),
    "tools.flash.imports": (lambda s: [], {0, 1, 2}, ()),
    "tools.sim.presses": (lambda s: [], {0, 1, 2}, [("tools.sim.presses", "turn_counts")]),
    "tools.sim.simulator": (lambda s: ["--headless", "--keys", "WAIT", "--settle", "0",
                                       "--keys-file", _keys(s), "--nvm", str(s / "nvm.bin"),
                                       "--drive", str(s / "drive")], {0, 1, 2},
                            [("tools.sim.simulator", "run_window")]),
    "tools.vm.cpcheck": (lambda s: ["--no-doc", "--no-frames"], {0, 1, 2},
                         [("tools.vm.cpcheck", "engine_check"), ("tools.vm.cpapp", "spread"),
                          ("tools.vm.cpapp", "check")]),
    "tools.vm.pystack": (lambda s: [], {0, 1, 2}, [("tools.vm.pystack", "probe_frame")]),
    "tools.vm.waits": (lambda s: [], {0, 2}, [("tools.vm.waits", "loop_count")]),
}


def _replace(argv, action, value):
    # argv with the option's value (or the positional) replaced by value, or given at the end.
    argv = list(argv)
    for opt in action.option_strings:
        if opt in argv:
            i = argv.index(opt)
            if action.nargs == 0:
                return argv
            argv[i + 1] = value
            return argv
    if action.option_strings:
        return argv + ([action.option_strings[-1]] if action.nargs == 0
                       else [action.option_strings[-1], value])
    return None


def numeric(action):
    """Returns int or float if the option takes a number (its type makes one of "1"), else
    None."""
    try:
        got = action.type("1") if action.type is not None else None
    except Exception:  # pylint: disable=broad-except
        return None
    return type(got) if type(got) in (int, float) else None


# What an option must refuse: a number option anything but a number in its range, an output
# (an option whose short-run value is a path that is not there yet: the run makes it) a file of
# the user's.
NOT_A_NUMBER = ("empty", "word", "negative", "very negative", "huge")
USERS_FILES = ("text file", "picture", "binary junk")


def must_refuse(action, kind, good):
    """Returns True if the option must refuse a value of this kind."""
    kind_of = numeric(action)
    if kind_of is not None:
        return kind in NOT_A_NUMBER or (kind_of is int and kind == "fraction")
    return (good is not None and kind in USERS_FILES and os.path.isabs(good)
            and not os.path.exists(good))


def cases(actions, base, user, scratch):
    """Yields (what, argv, True if it must be refused) for every case of a command whose short
    run is `base`."""
    yield "the short run", list(base), False
    yield "no arguments", [], False
    yield "unknown option", base + ["--no-such-option"], True
    positionals = [a for a in actions if not a.option_strings]
    # The positionals' values in the short run: the words of base that no option takes.
    taken = set()
    for a in actions:
        for opt in a.option_strings:
            if opt in base:
                taken.add(base.index(opt))
                if a.nargs != 0:
                    taken.add(base.index(opt) + 1)
    loose = [i for i in range(len(base)) if i not in taken]
    for a in actions:
        name = a.option_strings[-1] if a.option_strings else a.dest
        if a.nargs == 0:
            yield name, _replace(base, a, None), False
            continue
        good = None
        for opt in a.option_strings:
            if opt in base:
                good = base[base.index(opt) + 1]
        k = positionals.index(a) if a in positionals else None
        if k is not None and k < len(loose):
            good = base[loose[k]]
        for kind, value in values(user, scratch, good):
            if a.option_strings:
                argv = _replace(base, a, value)
            elif k is not None and k < len(loose):
                argv = list(base)
                argv[loose[k]] = value
            else:
                argv = base + [value]
            yield "%s %s" % (name, kind), argv, must_refuse(a, kind, good)


class Outcome:
    """What one case did."""

    def __init__(self, code, out, err, started, error):
        self.code, self.out, self.err, self.started, self.error = code, out, err, started, error


def run_case(main, argv, work):
    """Runs main(argv) here with stdin empty, output captured and the work's first step a stop."""
    out, err = io.StringIO(), io.StringIO()
    stops = []
    for module, name in work:
        mod = importlib.import_module(module)
        stops.append((mod, name, getattr(mod, name)))

        def stop(*args, **kwargs):
            raise Started()
        setattr(mod, name, stop)
    code = None
    started = False
    error = None
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:
                code = e.code
                if isinstance(code, str):
                    print(code, file=sys.stderr)
                    code = 1
            except Started:
                started = True
            except Exception:  # the traceback the user would see  # pylint: disable=broad-except
                error = traceback.format_exc()
    finally:
        sys.stdin = saved_stdin
        for mod, name, value in stops:
            setattr(mod, name, value)
    if code is None:
        code = 0
    return Outcome(code, out.getvalue(), err.getvalue(), started, error)


def fuzz(module, tmp_path):
    """Runs every case of `module`; returns (counts, failures)."""
    base_of, codes, work = COMMANDS[module]
    main = importlib.import_module(module).main
    actions = options_of(main)
    counts = {"cases": 0, "refused": 0, "ran": 0, "started": 0, "tracebacks": 0,
              "other exit statuses": 0, "refusals not one line": 0,
              "accepted, not refused": 0, "user files changed": 0}
    failures = []
    cwd = os.getcwd()
    try:
        for n, (what, argv, refuse) in enumerate(_all_cases(actions, base_of, tmp_path)):
            scratch = tmp_path / ("case%d" % n)
            user = tmp_path / "user"
            before = make_user_files(user)
            os.chdir(scratch)
            got = run_case(main, argv, work)
            os.chdir(cwd)
            counts["cases"] += 1
            bad = []
            text = got.out + got.err
            if got.error is not None or "Traceback (most recent call last)" in text:
                counts["tracebacks"] += 1
                bad.append("traceback")
            elif got.started:
                counts["started"] += 1
            elif got.code not in codes:
                counts["other exit statuses"] += 1
                bad.append("exit status %r" % got.code)
            elif got.code == 2:
                counts["refused"] += 1
                lines = [line for line in got.err.splitlines() if line.strip()]
                if len(lines) != 1:
                    counts["refusals not one line"] += 1
                    bad.append("refused in %d lines" % len(lines))
            else:
                counts["ran"] += 1
            if refuse and got.code != 2 and not bad:
                counts["accepted, not refused"] += 1
                bad.append("accepted (exit status %r%s)" % (
                    got.code, ", work started" if got.started else ""))
            if user_state(user) != before:
                counts["user files changed"] += 1
                bad.append("user files changed")
            if bad:
                failures.append((what, argv, bad, (got.error or got.err)[-1500:]))
    finally:
        os.chdir(cwd)
    return counts, failures


def _all_cases(actions, base_of, tmp_path):
    # The cases, each in a folder of its own holding a copy of the files the short run's
    # arguments name (made once, in `base`).
    template = tmp_path / "base"
    template.mkdir()
    base = base_of(template)
    for n, (what, argv, refuse) in enumerate(cases(actions, base, tmp_path / "user", template)):
        scratch = tmp_path / ("case%d" % n)
        shutil.copytree(template, scratch)
        yield what, [a.replace(str(template), str(scratch)) for a in argv], refuse


@pytest.mark.parametrize("module", sorted(COMMANDS))
def test_fuzz_command(module, tmp_path):
    counts, failures = fuzz(module, tmp_path)
    print("\nfuzz %s: %s" % (module, ", ".join("%d %s" % (v, k) for k, v in counts.items())))
    for what, argv, bad, text in failures[:5]:
        print("  %s: %s: %s\n%s" % (what, " ".join(argv), ", ".join(bad), text))
    assert not failures, failures[:3]
    assert counts["refused"] > 0


# ---- the entry points without a parser of their own ----------------------------------------------

def test_every_command_with_a_parser_is_fuzzed():
    # A new command is fuzzed from the day it has a parser: each module that makes one
    # (tools/cli.py's Parser) is a key of COMMANDS (engine.selfplay's is argparse's own).
    made = sorted(
        str(p.relative_to(ROOT).with_suffix("")).replace(os.sep, ".")
        for folder in ("engine", "tools") for p in (ROOT / folder).rglob("*.py")
        if "Parser(" in p.read_text(encoding="utf-8") and p.name != "cli.py")
    assert [m for m in made if m not in COMMANDS] == []


@pytest.mark.parametrize("package", ["tools.art", "tools.bots", "tools.vm"])
def test_each_package_answers_no_command_or_an_unknown_one_with_one_line(package, monkeypatch,
                                                                          capsys):
    # tools/commands.py dispatch(): `python -m tools.PKG` alone, or with a word that is not one
    # of its commands. (tools.sim and tools.flash are one command each, fuzzed above.)
    import runpy

    for argv in ([package], [package, "no-such-command"]):
        monkeypatch.setattr(sys, "argv", argv)
        with pytest.raises(SystemExit) as e:
            runpy.run_module(package, run_name="__main__", alter_sys=True)
        err = capsys.readouterr().err
        assert e.value.code == 2 and len(err.splitlines()) == 1, err


def test_a_tree_the_deploy_refuses_is_one_line_from_every_command(monkeypatch, tmp_path):
    # tools/commands.py dispatch(): a command that builds the board's tree (cpcheck, waits,
    # pystack, records, ...) from a source the deploy refuses (an import neither shipped nor
    # built in) says why in one line and exits 1, where cpcheck ended in a traceback.
    from tools.commands import dispatch

    (tmp_path / "refused_build.py").write_text(
        "from tools.flash.sync import DeployError\n"
        "raise DeployError('the board would import nowhere, which is neither shipped nor "
        "built in')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["tools.vm", "build"])
    with pytest.raises(SystemExit) as e:
        dispatch("vm", {"build": "refused_build"}, "")
    said = e.value.code  # a str: Python prints it on stderr and exits with status 1
    assert isinstance(said, str) and len(said.splitlines()) == 1, said
    assert said.startswith("python -m tools.vm build: the board would import nowhere"), said


def test_the_cost_tools_vm_half_answers_bad_arguments_with_one_line(capsys):
    # tools/bots/cost_cp.py runs on CircuitPython's VM (no argparse there): its own check.
    from tools.bots import cost_cp

    for argv in ([], ["solo"], ["table", "1", "1"], ["solo", "x", "1"], ["solo", "1", "-1"],
                 ["chaos", "1", "1"], ["solo", "1", "1", "1"]):
        assert cost_cp.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1, (argv, err)
