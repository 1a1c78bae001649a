# Lok'n'Roll Handheld. Every target sets up what it needs on a fresh machine:
# a venv with pinned packages (.venv; flashing has its own, .venv-flash), the MicroPython VM
# from npm (tools/vm/mpvm/node_modules).
#   make test      host tests (pytest host_tests/: the app and the engine on CircuitPython's own
#                  VM where it exists among them) and the engine on the real MicroPython VM
#   make cpcheck   the game on CircuitPython's own VM: its figures, written into docs/memory.md
#   make play      the simulator in a window
#   make flash     copy the game to a connected board (PORT=/dev/ttyACM0 to choose)
#   make bundle    the zip to unzip onto a board's CIRCUITPY drive, in dist/
#   make bench     bot strength and speed
#   make pystack   the Python stack the app needs on a board (make flash sets it)
#   make boardcheck what a connected board has (heap, speed, a hint's search): a table for an issue
#   make waits     a player's waits on a board, from instructions counted (valgrind), not timed

PYTHON ?= python3

# Python keeps what it compiles (the venvs are installed with pip --no-compile: a module is
# compiled when a run first imports it, once). Where PYTHONDONTWRITEBYTECODE is set, every
# Python process would compile every module it imports again: each worker of make pytest, and
# each tool, mpremote client and emulated board a test starts. The compiled files go to
# build/pycache (PYTHONPYCACHEPREFIX), not beside the sources; make, when a test runs it in a
# copy of the checkout, shares the outer run's.
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX ?= $(CURDIR)/build/pycache

VENV := .venv
PY := $(VENV)/bin/python
MPVM := tools/vm/mpvm/node_modules/.package-lock.json
STUBS := .venv-stubs
FLASH_VENV := .venv-flash
FLASH_PY := $(FLASH_VENV)/bin/python

.PHONY: test pytest mpcheck cpcheck typecheck play flash bundle bench screenshots clean pystack \
	boardcheck waits

# The two at once (each one's output kept together), and on a fresh machine the venvs and the
# MicroPython VM set up at once too: mpcheck runs while pytest's workers share the cores.
# make cpcheck is not part of it: the checks of it that can fail (the engine's budgets, the
# session under the cap in every heap layout, idle frames allocating nothing) are
# host_tests/test_circuitpython.py's and test_cp_app.py's, which play the same sessions; what
# make cpcheck adds is figures, written into docs/memory.md, which a test run leaves as it is.
test:
	$(MAKE) --no-print-directory -j3 --output-sync=target pytest mpcheck

# The flashing venv too: host_tests/test_readme.py runs make flash and make bundle as shown.
# --dist loadgroup: a module marked xdist_group runs on one worker, so that what its
# module-scoped fixtures make (a VM's session, a game) is made once, not once a worker.
pytest: $(VENV)/.stamp $(MPVM) $(STUBS)/.stamp $(FLASH_VENV)/.stamp
	$(PY) -m pytest -q -rs -n auto --dist loadgroup host_tests/

# The engine on the real MicroPython VM: whole games of every mode, import and peak heap.
mpcheck: $(VENV)/.stamp $(MPVM)
	$(PY) -m tools.vm mpcheck

# The game on CircuitPython 10's own VM (CIRCUITPYTHON_VM, or the build beside the clone), the
# one judge of the board's heap: the session from .mpy under the 88 KB cap, the smallest cap
# it completes under, and docs/memory.md written from this run (not part of make test: its
# checks are the host tests', its figures this target's). One line and a skip where the
# VM is missing (tools/vm/cpvm.py, docs/hardware.md).
cpcheck: $(VENV)/.stamp
	$(PY) -m tools.vm cpcheck

# A player's waits on a board (a hint, a bot's turn, a game dealt, saved, resumed), each frame's
# instructions counted on CircuitPython's VM under valgrind and turned into a SAMD51's time by
# the speed loop's count: the same figures every run (tools/vm/waits.py, docs/memory.md).
waits: $(VENV)/.stamp
	$(PY) -m tools.vm waits

# The Python stack the app needs, on MicroPython's VM with a board's pystack (tools/vm/pystack.py;
# host_tests/test_pystack.py holds the size make flash sets in settings.toml).
pystack: $(VENV)/.stamp $(MPVM)
	$(PY) -m tools.vm pystack --smallest

# .venv's Python, with pip (ensurepip). The other venvs are made --without-pip and installed by
# .venv's pip (pip --python: pip 22.3 and later, Python 3.11's own is 23): ensurepip unpacking
# pip into each venv cost 4 CPU-s a venv of a fresh clone's setup, spent while the three venvs
# share the cores.
$(PY):
	$(PYTHON) -m venv $(VENV)

# --no-compile: pip byte-compiles every file of every package it installs (half of the install's
# time here: 25 s of 50 on a fresh clone); Python compiles the modules a run imports, once.
# Python 3.11's venv brings setuptools, which no requirement needs (3.12's has none): pygame
# imports its pkg_resources when it finds it, 0.2 CPU-s in each of the suite's dozen processes
# that import pygame, so it goes.
$(VENV)/.stamp: requirements/*.txt | $(PY)
	$(PY) -m pip install -q --disable-pip-version-check --no-compile -r requirements/all.txt
	if $(PY) -c "import setuptools" 2>/dev/null; then \
		$(PY) -m pip uninstall -q -y --disable-pip-version-check setuptools; fi
	touch $@

# circuitpython-stubs rewrites its venv's board stubs, so the type check has a venv of its own.
$(STUBS)/.stamp: requirements/typecheck.txt | $(PY)
	test -x $(STUBS)/bin/python || $(PYTHON) -m venv --without-pip $(STUBS)
	$(PY) -m pip --python $(STUBS)/bin/python install -q --disable-pip-version-check \
		--no-compile -r requirements/typecheck.txt
	touch $@

# Flashing and the bundle have a venv of their own holding requirements/flash.txt exactly
# (--no-deps: every version there is pinned), so that flashing a board installs no simulator
# (pygame, numpy) and no test tools.
$(FLASH_VENV)/.stamp: requirements/flash.txt | $(PY)
	test -x $(FLASH_PY) || $(PYTHON) -m venv --without-pip $(FLASH_VENV)
	$(PY) -m pip --python $(FLASH_PY) install -q --disable-pip-version-check --no-compile \
		--no-deps -r requirements/flash.txt
	touch $@

$(MPVM): tools/vm/mpvm/package.json tools/vm/mpvm/package-lock.json
	npm ci --prefix tools/vm/mpvm --no-audit --no-fund

# The simulator in a window (keys: arrows, X/A = A, Z/B = B, Enter = START, Space/Tab = SELECT).
play: $(VENV)/.stamp
	$(PY) -m tools.sim

# The bots' strength and speed: the same 500 seeded games per bot and mode on CPython, and every
# decision timed on the MicroPython VM (tools/bots/bench.py; --no-vm, --seeds N, --vm-games N).
bench: $(VENV)/.stamp $(MPVM)
	$(PY) -m tools.bots bench

# Copy the game to the connected board over USB serial with mpremote: only changed files, then
# a reset. PORT=/dev/ttyACM0 picks a board; TO=/media/$USER/CIRCUITPY writes a mounted drive
# (or any folder) instead: the first install.
flash: $(FLASH_VENV)/.stamp
	$(FLASH_PY) -m tools.flash $(if $(PORT),--port $(PORT)) $(if $(TO),--to "$(TO)")

# What a connected board has, measured on it over USB serial as make flash talks to it (the game
# flashed first): its heap, its speed, one hint's search; a table to paste into an issue
# (tools/flash/boardcheck.py, docs/hardware.md). PORT=/dev/ttyACM0 picks a board.
boardcheck: $(FLASH_VENV)/.stamp
	$(FLASH_PY) -m tools.flash.boardcheck $(if $(PORT),--port $(PORT))

# The release bundle: the drive's tree (code.py, boot.py, settings.toml, lib/ of .mpy files for
# CircuitPython 10) in dist/loknroll-<commit>-circuitpython10.zip, the tree make flash TO=DIR
# writes (tools/flash/bundle.py).
bundle: $(FLASH_VENV)/.stamp
	$(FLASH_PY) -m tools.flash.bundle

# Device code against circuitpython-stubs for the PyBadge and the PyGamer (also in make test).
typecheck: $(VENV)/.stamp $(STUBS)/.stamp
	$(PY) -m pytest -q host_tests/test_typecheck.py

# The README's pictures of the device app's screens (docs/screenshots/*.png): real positions
# of real games, reached by key scripts in the headless simulator (tools/art/screenshots.py).
screenshots: $(VENV)/.stamp
	$(PY) -m tools.art screenshots --out docs/screenshots

clean:
	rm -rf $(VENV) $(STUBS) $(FLASH_VENV) tools/vm/mpvm/node_modules build
