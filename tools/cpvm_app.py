"""The whole app on CircuitPython's own VM (its unix port), board profile and all: a first step
towards measuring the app on the device's interpreter rather than MicroPython's.

    $CIRCUITPYTHON_VM -X heapsize=192K tools/cpvm_app.py [FRAMES]

(from the repository's root; CIRCUITPYTHON_VM: docs/hardware.md, CircuitPython's VM on the
desktop). The VM's own displayio Bitmap and Palette hold the app's real pixels; Group, TileGrid,
board, keypad, neopixel, microcontroller.nvm and supervisor are tools/standins. lnr.boards opens
the PyBadge profile on them, the keys below wait in the stand-in keypad's queue, and
lnr.main.step runs FRAMES frames (default 90) at the profile's own pace. Prints the heap after
start-up and after the frames, and where the app got to. Not part of `make test`.
"""
import gc
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "lib")

from tools.standins import install  # noqa: E402

# B A START SELECT RIGHT DOWN UP LEFT are keys 0..7 (lnr.keys): the title, Solo, then the hand.
KEYS = (1, 1, 4, 4, 1)


def main(frames):
    parts = install(("displayio", "terminalio", "board", "keypad", "neopixel",
                     "microcontroller", "supervisor"))
    for k in KEYS:
        parts["keypad"].pending.append((k, True))
        parts["keypad"].pending.append((k, False))
    gc.collect()
    before = gc.mem_alloc()
    from lnr.boards import open_hardware
    import lnr.main

    hw = open_hardware()
    app = lnr.main.start(hw)
    gc.collect()
    print("started: heap %d B in use (%d B before the app), free %d B"
          % (gc.mem_alloc(), before, gc.mem_free()))
    peak = 0
    for _ in range(frames):
        lnr.main.step(hw, app)
        hw.wait_frame()
        gc.collect()
        peak = max(peak, gc.mem_alloc())
    print("after %d frames: heap %d B in use, the most after a frame %d B"
          % (frames, gc.mem_alloc(), peak))
    print("screen %d, game %s, %d refreshes, LEDs %s"
          % (app.screen, "on" if app.game is not None else "none",
             parts["board"].DISPLAY.refreshes, hw.pixels.shown))
    print("the stand-ins:", ", ".join([k.__name__ for k in parts["displayio"].standins()]))


main(int(sys.argv[1]) if len(sys.argv) > 1 else 90)
