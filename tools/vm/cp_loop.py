"""The SAMD51 factor's loop timed on CircuitPython's VM beside the frames of
tools/vm/cp_app_session.py: its frames mode imports it, the calibrate and session runs never
do (what the harness holds moves where the app's objects land: cpapp.py spread())."""
import time

EVERY = 100  # frames between two timings of the loop ...
AFTER_US = 20000  # ... and after a frame this long here (a switch, a drawing), at once


def loop_us():
    """Returns the µs `for _ in range(1000000): pass` takes now: the fastest of 5 runs of a
    hundredth of it (tools/bots/bench_cp.py loop_us() takes its fastest too). This machine's
    speed moves by up to 2x within seconds (its load, its clock): timed beside the frames, the
    loop moves with them (tools/vm/cpapp.py Frames.samd51())."""
    best = None
    for _ in range(5):
        t0 = time.ticks_us()
        for _ in range(10000):
            pass
        us = time.ticks_diff(time.ticks_us(), t0)
        if best is None or us < best:
            best = us
    return best * 100
