"""The loop that names the SAMD51 factor (tools/bots/bench.py SAMD51_LOOP_US: the time of
`for _ in range(1000000): pass` on a board), timed on CircuitPython's VM: beside the bots'
decisions by tools/bots/bench_cp.py, and beside the frames by tools/vm/cp_app_session.py, whose
frames mode imports it (copied beside it); the calibrate and session runs never do (what the
harness holds moves where the app's objects land: cpapp.py spread())."""
import time

LOOP = 1000000  # the published loop's iterations
RUNS = 5  # runs per timing: the fastest counts
EVERY = 100  # the frames run: frames between two timings ...
AFTER_US = 20000  # ... and after a frame this long here (a switch, a drawing), at once


def loop_us(n=10000):
    """Returns the µs the published loop takes now: the fastest of RUNS runs of `n` of its
    iterations, scaled to LOOP. Short runs fit between the machine's stalls, and its speed moves
    by up to 2x within seconds (its load, its clock): timed beside what it is the factor of, the
    loop moves with it."""
    best = None
    for _ in range(RUNS):
        t0 = time.ticks_us()
        for _ in range(n):
            pass
        us = time.ticks_diff(time.ticks_us(), t0)
        if best is None or us < best:
            best = us
    return best * (LOOP // n)
