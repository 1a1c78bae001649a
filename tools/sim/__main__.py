"""`python -m tools.sim [ARGS...]`: the desktop simulator.

Runs tools.sim.simulator as `python -m tools.sim.simulator` would; its docstring says the arguments."""
import runpy

runpy.run_module("tools.sim.simulator", run_name="__main__", alter_sys=True)
