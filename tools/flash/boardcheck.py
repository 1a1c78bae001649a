"""`make boardcheck`: what a connected board has, measured on it, as a table a user pastes into
an issue (docs/hardware.md). The game's budgets are estimates until a board sends these.

    python -m tools.flash.boardcheck [--port PORT]

Over USB serial with mpremote 1.29, as `make flash` talks to the board (tools/flash/
deploy_board.py: the raw REPL after a soft reboot, so code.py is not running), it runs MEASURE
on the board, which the game must be flashed onto first (make flash):

- the speed loop: `for i in range(N): pass` at module level, timed on the board's clock, the loop
  whose CircuitPython 5.3 time on a SAMD51 (tools/bots/bench.py SAMD51_LOOP_US) every board
  estimate of this project rests on;
- one hint's search (engine.bots.hint) at the first decision of a solo game of a fixed seed, by the
  board's own clock as the game runs it (engine.budget set_clock), and its work: the board's units
  of work a second, where the game assumes engine.budget UNITS_PER_S;
- the game's start-up as code.py makes it (its title shown): the heap the game has on this board
  (what gc.mem_alloc() + gc.mem_free() hold beyond the firmware's own) and what is free with the
  title up, against the least the game plays at (lnr.memory FLOOR_KB).

Exit status: 0 measured; 1 the board answered otherwise (the game not flashed, an error there);
2 bad arguments or no board.
"""
import argparse
import ast
import os
import sys

from tools import cli
from tools.flash.imports import ROOT
from tools.flash.sync import DeployError

# Runs on the board (CircuitPython's dialect: no f-strings); prints one line `LNR {...}`.
MEASURE = """\
import gc, sys, time
gc.collect()
_base = gc.mem_alloc()
_ns = getattr(time, 'monotonic_ns', None) or time.time_ns
import board
_out = {'impl': sys.implementation.name, 'version': tuple(sys.implementation.version[:3]),
        'loop_n': %(loop_n)d, 'board': board.board_id}
_t = _ns()
for _i in range(%(loop_n)d):
    pass
_out['loop_ns'] = _ns() - _t
try:
    from engine import budget as ai
    from engine.bots import hint, hint_work, HINT_CAP
    from lnr.games import new_game
    _g = new_game(0, %(seed)d)
    _tick = 1000000000 // ai.UNITS_PER_S
    _t = _ns()
    ai.set_clock(lambda: (_ns() - _t) // _tick, HINT_CAP)
    hint(_g.state)
    _out['hint_ns'] = _ns() - _t
    ai.set_clock(None)
    _out['hint_work'] = hint_work()
    _out['units_per_s'] = ai.UNITS_PER_S
except Exception as _e:
    _out['hint_error'] = '%%s: %%s' %% (type(_e).__name__, _e)
_g = hint = ai = None
for _m in list(sys.modules):
    if _m.startswith('engine.') or _m.startswith('lnr.'):
        del sys.modules[_m]
gc.collect()
try:
    import lnr.boards
    from lnr.main import start
    _hw = lnr.boards.open_hardware()
    _hw.base = _base
    _app = start(_hw)
    gc.collect()
    _out['free'] = gc.mem_free()
    _out['has'] = gc.mem_alloc() + _out['free'] - _base
except Exception as _e:
    _out['start_error'] = '%%s: %%s' %% (type(_e).__name__, _e)
print('LNR', repr(_out))
"""
LOOP_N = 100000
SEED = 7


def parse(output):
    """Returns the dict the board printed (MEASURE's `LNR {...}` line); raises DeployError if
    there is none."""
    for line in output.splitlines():
        if line.startswith("LNR "):
            try:
                return ast.literal_eval(line[4:].strip())
            except (ValueError, SyntaxError):
                break
    raise DeployError("the board printed no measurement:\n" + output.strip()[-2000:])


def floor_kb():
    """Returns lnr.memory's FLOOR_KB, the least heap the game plays at, read from its source."""
    from tools.flash import fold

    path = ROOT / "lib" / "lnr" / "memory" / "__init__.py"
    return fold.own_constants(ast.parse(path.read_text()))["FLOOR_KB"]


def table(m):
    """Returns the measurement `m` (parse()) as a Markdown table, each figure beside the
    estimate the game's budgets use today."""
    from tools.bots.bench import SAMD51_LOOP_US

    name = "CircuitPython" if m["impl"] == "circuitpython" else m["impl"]
    rows = [("runtime", "%s %s" % (name, ".".join(str(v) for v in m["version"])),
             "CircuitPython 10"),
            ("board", m["board"], "pybadge / pygamer")]
    loop_ms = m["loop_ns"] * (1000000 // m["loop_n"]) // 1000000
    rows.append(("`for i in range(1000000): pass` at module level", "%d ms" % loop_ms,
                 "%d ms (CircuitPython 5.3 on a SAMD51)" % (SAMD51_LOOP_US // 1000)))
    if "hint_error" in m:
        rows.append(("the hint's search", "failed: " + m["hint_error"], ""))
    else:
        ms = m["hint_ns"] // 1000000
        speed = m["hint_work"] * 1000000000 // max(1, m["hint_ns"])
        rows.append(("the hint's search (solo seed %d, first decision)" % SEED,
                     "%d units in %d ms: %d units/s" % (m["hint_work"], ms, speed),
                     "%d units/s" % m["units_per_s"]))
    if "start_error" in m:
        rows.append(("the game's start-up", "failed: " + m["start_error"], ""))
    else:
        rows.append(("heap the game has (gc.mem_alloc() + gc.mem_free() less the firmware's)",
                     "%d B" % m["has"], "at least %d KB to play" % floor_kb()))
        rows.append(("heap free with the title up", "%d B" % m["free"], ""))
    out = ["| what | this board | the game's estimate |", "|---|---|---|"]
    for what, got, est in rows:
        out.append("| %s | %s | %s |" % (what, got, est))
    return "\n".join(out)


def serial_port(text):
    """An argument type: a serial port's name (/dev/ttyACM0, COM5), not a file or a folder."""
    if os.path.isfile(text) or os.path.isdir(text):
        raise argparse.ArgumentTypeError("%s is a %s, not a serial port" % (
            text, "folder" if os.path.isdir(text) else "file"))
    return text


def measure(t):
    """Runs MEASURE on the board in raw REPL `t` (tools/flash/deploy_board.py connect());
    returns its dict."""
    from tools.flash import deploy_board

    return parse(deploy_board.run_code(t, MEASURE % {"loop_n": LOOP_N, "seed": SEED},
                                       "the measurement"))


def main(argv=None):
    ap = cli.Parser(prog="python -m tools.flash.boardcheck",
                    description="What a connected board has, measured on it.")
    ap.add_argument("--port", type=serial_port,
                    help="serial port of the board (default: the one connected)")
    args = ap.parse_args(argv)
    from tools.flash import deploy_board

    try:
        t = deploy_board.connect(args.port or deploy_board.find_port())
    except DeployError as e:  # no board to measure
        print("boardcheck: %s" % e, file=sys.stderr)
        return 2
    try:
        m = measure(t)
    except DeployError as e:  # the board answered otherwise
        print("boardcheck: %s" % e, file=sys.stderr)
        return 1
    finally:
        deploy_board.leave(t)
    print(table(m))
    print("\nPaste the table above into an issue (docs/hardware.md says where).")
    return 0 if "hint_error" not in m and "start_error" not in m else 1


if __name__ == "__main__":
    sys.exit(main())
