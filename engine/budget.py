"""The searches' budget: the work they count, the sign of life they give as they go, and the
clock they stop by (engine.ai's planners, engine.lookahead's search; the app sets the sign and
the clock: lnr/play/plan.py)."""
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The board's estimated pace, units of work a second: make cpcheck timed the hint's search
# (1250 units then) at 1.67 s on a SAMD51 (CircuitPython's VM x the board's factor); counted on
# an emulated Cortex-M4 it is 3-6 times faster (docs/hardware.md). An estimate, not a
# measurement: the searches' budgets are in ticks of 1/UNITS_PER_S s (engine.lookahead CAP,
# engine.bots HINT_CAP and PLAN_CAP), which a board's own clock counts (set_clock).
UNITS_PER_S = const(750)
SIGN_WORK = const(180)  # work between two signs (about a quarter of a second on a SAMD51)

# The sign: a function of one argument the app sets (set_sign) so that the LEDs move while a
# planner or engine.lookahead's search runs (the screen cannot: its refresh waits for the
# frame's end). Every unit of work is spent once, by whoever does it: a planner
# (Valuer.spend) or the search (engine.lookahead Search._add), and counted (spent()).
_sign = [None]  # the function
_gathered = [0]  # the work done since it was last called
_total = [0]  # the work spent since set_sign() (spent())

# The clock the searches stop by (set_clock): a function of no arguments that returns the time
# in ticks, a tick the time a SAMD51 takes for one unit of work at the estimated pace
# (UNITS_PER_S); and its reading when set, the ticks allowed from then (0: none).
_clock = [None]
_since = [0, 0]


def set_sign(fn):
    """Calls `fn(n)` after every SIGN_WORK units of work of the planners and searches from now
    on, `n` the work since the last call (None: no more calls): the device's sign of life
    while it works (lnr/play/plan.py; host_tests/test_waits.py holds n under half a second of
    the board's). The sign it replaces is first given the work gathered since its last call,
    so that it hears of all the work (make cpcheck times the search by it)."""
    old = _sign[0]
    if old is not None and _gathered[0]:
        old(_gathered[0])
    _sign[0] = fn
    _gathered[0] = 0
    _total[0] = 0


def spend(n):
    """Counts `n` more units of work done (spent()), and gives the sign every SIGN_WORK."""
    _total[0] += n
    fn = _sign[0]
    if fn is not None:
        n += _gathered[0]
        if n >= SIGN_WORK:
            _gathered[0] = 0
            fn(n)
        else:
            _gathered[0] = n


def spent():
    """Returns the work spent since set_sign() (a counted clock reads it: tools/sim)."""
    return _total[0]


def set_clock(fn, ticks=0):
    """From now on, the searches (engine.lookahead) and the planners stop by the time `fn()`
    reads (ticks: see _clock; the board's own clock on a device, lnr/boards), not by the work
    they count; a planner's choose() stops valuing builds once `ticks` have passed (0: never;
    a bot's plan, lnr/play/plan.py). None: the work they count is their clock, the same on
    every runtime (the desktop's tests, bench and replays)."""
    _clock[0] = fn
    _since[0] = fn() if fn is not None else 0
    _since[1] = ticks


def elapsed():
    """Returns the ticks since set_clock(), or -1 where no clock is set."""
    fn = _clock[0]
    return -1 if fn is None else fn() - _since[0]


def late():
    """Returns True once the ticks set_clock() allowed have passed."""
    return _since[1] > 0 and elapsed() > _since[1]
