"""Host tests run from the repo root: make the engine and the device's lib importable as they
are on the board (/lib holds lnr/ and engine/)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "device", "lib")):
    if path not in sys.path:
        sys.path.insert(0, path)
