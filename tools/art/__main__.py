"""`python -m tools.art sprites|screenshots [ARGS...]`: the game's pictures: the sprite sheet
(lib/lnr/sprites.bin) and the README's screenshots (`make screenshots`).

    sprites      python -m tools.art.sprites
    screenshots  python -m tools.art.screenshots
"""
from tools.commands import dispatch

COMMANDS = {
    "sprites": "tools.art.sprites",
    "screenshots": "tools.art.screenshots",
}

dispatch("art", COMMANDS, __doc__)
