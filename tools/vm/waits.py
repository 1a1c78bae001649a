"""The waits a player has on a board, from counted work rather than timed: every long frame of
two short games on CircuitPython's VM, its instructions counted by valgrind's callgrind (the same
count on every run, whatever else the machine does), turned into a SAMD51's time by the speed
loop's count.

    python -m tools.vm waits

The games (waits_session()): a solo game's start, a hint, save & quit and Continue, a few
turns; a table of you and two `best` bots, a round of passes (each bot's plan). A first run of
them (tools/vm/cpapp.py frames, timed) finds the frames worth counting: those of a switch (the
play screen's code dropped, the work, the next screen loaded: a bot's plan, the hint, a game
dealt, saved, resumed) and any of 5 ms or more here. A second run, under callgrind, stops before
and after each of them, and at each of the LEDs' signs in them (tools/vm/cp_app_session.py
`marks`), while the host has callgrind dump its count, so each frame's instructions are its own,
and so is each stretch between two signs of life: the same in every run (the session waits for
the host's go on a blocking read, which runs no instruction) but for what reads the clock (the
LEDs' sign), NOISE instructions at most (under a third of a millisecond of a board's time;
host_tests/test_cp_app.py counts a frame twice). The speed loop, `for i in range(1000000):
pass` at module level, is counted the same way: its SAMD51 times (CircuitPython 5.3: 4.784 s;
5.4 on, with the background hook at every backward jump: 9.219 s, tools/bots/bench.py) turn a
count into the range of a board's time. Counts are x86 instructions of CircuitPython's VM: as
the loop's are, so the ratio stands for the board, as far as the loop's mix of work is the
frame's (the emulated Cortex-M4's count agrees within it: docs/memory.md).

A search's share of a frame is not the frame's: on a board it stops by the board's own clock
(engine.budget, lnr/play/plan.py) at PLAN_CAP ticks (a bot's plan) or, for the hint, where its
wait of HINT_MS from the key leaves the time the board measured the rest of its switch to take
(lnr/play/plan.py _hint_cap()), whatever the board's speed; what the count estimates is the
switch around it, which loads code and is the same work on every board.

The lines go to docs/memory.md too, between its DOC_BEGIN and DOC_END lines.

Exit status 0; 2 bad arguments; 0 with one line ("skipped") where the VM or valgrind is missing.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools import cli
from tools.vm import cpapp, cpvm

LOOP = "for i in range(1000000):\n    pass\n"
EMPTY = "pass\n"
DOC_BEGIN = "<!-- make waits writes from here: its own run's figures (tools/vm/waits.py) -->"
DOC_END = "<!-- make waits writes up to here -->"
NOISE = 20000  # what reads the clock: a frame's count moves by up to this between runs
LONG_US = 5000  # a frame this long here is counted, whatever it does (a board: about 1 s)
_SUMMARY = re.compile(r"^(?:summary|totals): (\d+)", re.M)


def waits_session():
    """Returns {name: the frames of a short game} (tools/sim/app_script.py's model plays them):
    the switches a player waits for and the frames around them."""
    cpapp.session()  # the library's paths, as the session has them
    from engine.state import MODE_SOLO, MODE_TABLE
    from tools.sim.app_script import Model, SETTLE
    from tools.sim.simulator import key_script
    from tools.vm.membudget.session import SEED

    solo = Model(MODE_SOLO, SEED)
    nav = len(solo.keys)
    keys = solo.keys + ["START", "DOWN", "DOWN", "DOWN", "A", "WAIT*5", "A",  # the hint
                        "START", "UP", "A", "WAIT*5", "A"]  # save & quit, Continue
    solo.play_simple(3)  # from the turn's start, as Continue leaves it
    keys += solo.keys[nav:]
    table = Model(MODE_TABLE, SEED + 3)
    table.pass_turn()
    out = {"solo": keys + [SETTLE], "table": table.keys + [SETTLE]}
    return {name: [-1 if k is None else k for k in key_script(keys)]
            for name, keys in out.items()}


def loop_count(tmp):
    """Returns the instructions CircuitPython's VM counts for the speed loop (its run less an
    empty one's)."""
    counts = []
    for text in (LOOP, EMPTY):
        script = Path(tmp) / "loop.py"
        script.write_text(text)
        r = cpvm.run(script, under=["valgrind", "--tool=callgrind",
                                    "--callgrind-out-file=/dev/null"], timeout=600)
        m = re.search(r"Collected : (\d+)", r.stderr)
        if r.returncode or m is None:
            raise RuntimeError("the speed loop's count failed: " + r.stderr[-500:])
        counts.append(int(m.group(1)))
    return counts[0] - counts[1]


def long_frames(frames):
    """Returns (the frames worth counting, {frame: what switch it made: lnr.screens' W_ or
    -1}) from a timed run of `frames`."""
    work = cpapp.Workdir(frames)
    try:
        played = cpapp.Frames(work.run("frames"))
    finally:
        work.close()
    rows = [r for r in played.rows if r["asked"] >= 0 or r["us"] >= LONG_US]
    return [r["i"] for r in rows], {r["i"]: r["asked"] for r in rows}


def count_frames(frames, marks):
    """Returns {frame: [instructions]} of the frames `marks`, played from `frames` on
    CircuitPython's VM under callgrind (see the module's docstring): each frame's stretches, from
    its start to its first sign of life (the LEDs' sign), from sign to sign, and from its last
    to its end; their sum is the frame's count."""
    work = cpapp.Workdir(frames)
    out_dir = tempfile.mkdtemp(prefix="waits-")
    try:
        conf = work.conf("session", marks=marks)
        proc = cpvm.start(work.script, paths=["./lib"], args=[conf], cwd=work.cwd, under=[
            "valgrind", "--tool=callgrind", "--callgrind-out-file=%s/cg.out" % out_dir])
        order = []  # the frame of each mark and whether it is a sign, in order
        for line in proc.stdout:
            if not line.startswith("MARK "):
                continue
            parts = line.split()
            order.append((int(parts[1]), parts[2:] == ["sign"]))
            dumps = len(glob.glob(out_dir + "/cg.out.*"))
            subprocess.run(["callgrind_control", "--dump=m%d" % len(order), str(proc.pid)],
                           capture_output=True, timeout=120)
            deadline = time.monotonic() + 120
            while len(glob.glob(out_dir + "/cg.out.*")) <= dumps:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("callgrind did not dump the count at frame %d"
                                       % order[-1][0])
                time.sleep(0.05)
            proc.stdin.write("\n")  # the go: the session reads it at its mark
            proc.stdin.flush()
        proc.wait(timeout=600)
        counts = {}
        for k in range(1, len(order) + 1):
            text = Path(out_dir, "cg.out.%d" % k).read_text()
            m = _SUMMARY.search(text)
            if m is None:
                raise RuntimeError("a callgrind dump without its count: cg.out.%d" % k)
            frame, sign = order[k - 1]
            # Each dump counts from the one before: a frame's first mark ends what came
            # between frames; its signs and its last mark end its stretches.
            if frame in counts:
                counts[frame].append(int(m.group(1)))
            elif not sign:
                counts[frame] = []
        return counts
    finally:
        work.close()
        shutil.rmtree(out_dir, ignore_errors=True)


def estimate_lines(loop, found):
    """The lines to print: each kind of wait's longest frame, its instructions, and a SAMD51's
    time at both factors of the speed loop; then the longest stretch of any of them with no sign
    of life. `found`: [(game, frame, kind, [its stretches' instructions])]."""
    from tools.bots.bench import SAMD51_LOOP_US
    from lnr import screens

    names = {v: k[2:].lower() for k, v in vars(screens).items()
             if k.startswith("W_") and isinstance(v, int)}
    slow_us = 9219000  # CircuitPython 5.4 on: the loop's time with the background hook
    worst = {}
    still = (0, "", -1)  # the longest stretch with no sign: (instructions, game, frame)
    for game, frame, kind, stretches in found:
        count = sum(stretches)
        what = names.get(kind, "another switch")  # a game dealt, saved, resumed; a screen
        if what not in worst or count > worst[what][0]:
            worst[what] = (count, game, frame)
        if stretches and max(stretches) > still[0]:
            still = (max(stretches), game, frame)
    out = ["board waits from counted work (callgrind; a SAMD51 at the speed loop's CircuitPython "
           "5.3 to 5.4 times, %d instructions for %d us to %d us):" % (
               loop, SAMD51_LOOP_US, slow_us)]
    # The search's deadline on the board's clock, whatever its speed: what a player waits for
    # beyond the switch (at most: the count holds what little search callgrind's pace allowed).
    # A bot's plan searches PLAN_CAP past its switch; the hint's search ends where HINT_MS from
    # the key leaves the rest of its switch (lnr/play/plan.py), so it waits HINT_MS, or its
    # switch with engine.ai's plan alone where that is longer.
    from engine.bots import PLAN_CAP
    from engine.budget import UNITS_PER_S
    from lnr.play.plan import HINT_MS

    deadline = {"plan": PLAN_CAP * 1000 // UNITS_PER_S}
    for what in sorted(worst, key=lambda w: -worst[w][0]):
        count, game, frame = worst[what]
        fast, slow = count * SAMD51_LOOP_US // loop // 1000, count * slow_us // loop // 1000
        line = "  %-14s %5d-%5d ms  (%d instructions, %s game, frame %d)" % (
            what, fast, slow, count, game, frame)
        if what in deadline:
            line += "; with its search to its deadline (%d ms): at most %d-%d ms" % (
                deadline[what], fast + deadline[what], slow + deadline[what])
        elif what == "hint":
            line += "; its search ends where its %d ms from the key leave the rest: at most " \
                    "%d-%d ms" % (HINT_MS, max(HINT_MS, fast), max(HINT_MS, slow))
        out.append(line)
    if still[1]:
        count, game, frame = still
        out.append("  no sign        %5d-%5d ms  (%d instructions, %s game, frame %d): the "
                   "longest stretch of these frames without the LEDs' sign of life" % (
                       count * SAMD51_LOOP_US // loop // 1000, count * slow_us // loop // 1000,
                       count, game, frame))
    return out


def main(argv=None):
    ap = cli.Parser(prog="python -m tools.vm waits", description=__doc__.split("\n")[0])
    ap.parse_args(argv)
    if cpvm.missing(compiler=True):
        print("waits: " + cpvm.missing(compiler=True))
        return 0
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("waits: skipped: valgrind not found (Debian's package valgrind)")
        return 0
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        loop = loop_count(tmp)
    for game, frames in waits_session().items():
        marks, kinds = long_frames(frames)
        counts = count_frames(frames, marks)
        for frame in marks:
            found.append((game, frame, kinds[frame], counts[frame]))
    lines = estimate_lines(loop, found)
    print("\n".join(lines))
    cpapp.write_doc(lines, begin=DOC_BEGIN, end=DOC_END)
    print("(figures written to docs/memory.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
