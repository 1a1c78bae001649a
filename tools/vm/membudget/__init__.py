"""What the memory checks share: the session the app plays (session.py), the board's modules
in load order (modules.py), and the firmware's display objects' sizes (vm/sizes.py).

The heap is judged by one tool: `make cpcheck` plays the session on CircuitPython 10's own VM
under the board's cap (tools/vm/cpapp.py, docs/memory.md). MicroPython's VM measures only what
CircuitPython's unix VM cannot: the Python stack (`make pystack`: tools/vm/pystack.py runs
vm/pystack.py on it through vmrun.py, on the board of vm/board.py, with vm/prelude.py).
"""
import os
import sys

# The app and the engine import as on the board (lib/lnr, engine), the tools from the root.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
for _path in (os.path.join(ROOT, "lib"), ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)
