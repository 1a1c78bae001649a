"""The bots on the desktop: their strength and speed (`make bench`), fitting their weights, a
game's review, and the games a board or the simulator saved.

One entry point: `python -m tools.bots` (__main__.py)."""
