"""A faster simulator for long headless runs (the key fuzzer, the app tests): same results, less
CPU.

gc.collect() is a few ms on the board but tens of ms in a CPython process holding pygame and
numpy; the app calls it at quiet points. Inside `fast()` it does nothing.

Use it as `with sim_fast.fast(): sim.run_headless(...)`.
"""
import gc


class fast:  # pylint: disable=invalid-name
    """Context manager: gc.collect() a no-op."""

    def __enter__(self):
        self._collect = gc.collect
        gc.collect = lambda *a, **k: 0
        return self

    def __exit__(self, *exc):
        gc.collect = self._collect
