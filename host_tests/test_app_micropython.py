"""The device app's own code on the real MicroPython VM (tools/vm/mpvm), not only on CPython: whole
games of every mode played through lnr.main.run with the same key scripts as the simulator
tests, with the pinned libraries the board gets (adafruit_display_text's bitmap_label,
adafruit_ticks), the stand-ins of displayio and terminalio (tools/standins: no pixels, but as
strict as the firmware about indices, tile numbers and colours) and the VM's board
(tools/vm/membudget/vm/board.py, make pystack's too).
MicroPython-only mistakes (a formatting flag, a str or list method it lacks, a long int where a
small one is meant) show up here before a board runs the code. Each run checks the game reached
its end and was counted once in the NVM.
"""
import pytest

from tools.sim.app_script import Model
from tools.sim.simulator import key_script, parse_keys
from tools.flash.sync import SAVE_FILES
from tools.vm import mpvm
from engine.state import MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL, MODE_TABLE

SCRIPT = """
from tools.standins import install

install(("displayio", "terminalio"))

from lnr.main import run
from lnr.storage import Storage
from tools.vm.membudget.vm.board import Hw  # the VM's board, as make pystack's session has it

# A key number or -1 (none) per frame, as text: a list literal of thousands of frames would
# exhaust the VM's compiler stack (pystack), a whole game being longer than that.
FRAMES = [int(k) if k else -1 for k in %(frames)r.split(",")]
SEED = %(seed)d


import os
hw = Hw(FRAMES, SEED)  # its drive folder made
for path, size in %(saves)r:  # the drive as make flash leaves it (the game makes no file)
    if size is None:
        os.mkdir("/drive/" + path)
    else:
        with open("/drive/" + path, "wb") as f:
            f.write(bytes(size))
run(hw)
st = Storage(None, "/drive", True)  # the drive's copy alone
st.load()
print("HISTORY", len(st.history()))
st = Storage(hw.nvm)
st.load()
print("PLAYED", st.played[0], st.played[1], st.played[2], st.played[3])
print("BEST", st.best[0], st.best[1], st.best[2], st.best[3])
print("REFRESHES", hw.display.refreshes)
print("SETTINGS", st.brightness, st.pixel_count)
"""


def _vm(tmp_path, device_libs, frames, seed):
    script = tmp_path / "app_vm.py"
    text = ",".join("" if k is None else str(k) for k in frames)
    script.write_text(SCRIPT % {"frames": text, "seed": seed, "saves": SAVE_FILES})
    out = mpvm.output(script, ["engine", ("lib/lnr", "/lib/lnr"),
                               ("tools/standins", "/lib/tools/standins"),
                               ("tools/vm/membudget/vm", "/lib/tools/vm/membudget/vm"),
                               (device_libs, "/lib")], timeout=300)
    # lnr.main prints an exception it shows on the error screen: none may happen.
    assert "error" not in out.lower() and "Traceback" not in out, out
    lines = dict(line.split(" ", 1) for line in out.strip().splitlines())
    return lines


@pytest.mark.parametrize("mode, seed", [
    (MODE_SOLO, 8), (MODE_CHALLENGE, 5), (MODE_RIVAL, 9), (MODE_TABLE, 6)])
def test_whole_game_runs_on_micropython(tmp_path, device_libs, mode, seed):
    m = Model(mode, seed)
    m.play_simple()
    assert m.state.is_terminal()
    # Then every other screen: title, records, settings (a change), how to play (2 pages). B
    # leaves the title's cursor on the entry it came back from: each next entry is one DOWN.
    tour = ["WAIT*80", "A", "DOWN", "A", "B", "DOWN", "A", "RIGHT", "DOWN", "RIGHT",
            "B", "DOWN", "A", "RIGHT", "RIGHT", "B"]
    frames = key_script(m.keys + tour)
    out = _vm(tmp_path, device_libs, frames, seed)
    played = [int(n) for n in out["PLAYED"].split()]
    assert played == [1 if i == mode else 0 for i in range(4)]
    me = 1 if mode == MODE_RIVAL else 0
    s = m.state
    won = me in s.winners()
    best = out["BEST"].split()[mode]
    # A won game sets the best; a table game does whoever won (lnr/games.py).
    assert best == (str(s.score(me)) if won or mode == MODE_TABLE else "None")
    assert out["SETTINGS"].split() == ["3", "1"]  # brightness 2 -> 3; pixels 5 -> 1 (wraps)
    assert int(out["REFRESHES"]) > 50
    assert out["HISTORY"] == "1"  # the game, in the file on the drive too


def test_parse_keys_is_the_simulators():
    # The frames above come from the simulator's own key parser.
    assert parse_keys("A,WAIT*2,B") == [1, None, None, 0]
