"""Lok'n'Roll rules engine (docs/rules.md). Pure Python for CPython, MicroPython and CircuitPython.

Import the module you need (engine.state, engine.rng, ...); this package imports nothing.
"""
