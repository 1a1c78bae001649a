"""`python -m tools.flash [ARGS...]`: builds the device tree and copies it to a board, a drive or a folder.

Runs tools.flash.deploy as `python -m tools.flash.deploy` would; its docstring says the arguments."""
import runpy

runpy.run_module("tools.flash.deploy", run_name="__main__", alter_sys=True)
