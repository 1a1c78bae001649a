"""Host tests run from the repo root: make the engine and the app's lib importable as they are on
the board (CIRCUITPY's /lib holds lnr/ and engine/), and keep pygame off any real screen or
sound card."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "lib")):
    if path not in sys.path:
        sys.path.insert(0, path)

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
