"""The game's pictures: the sprite sheet (lib/lnr/sprites.bin) and the README's screenshots
(`make screenshots`).

One entry point: `python -m tools.art` (__main__.py)."""
