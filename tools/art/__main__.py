"""`python -m tools.art sprites|font|screenshots [ARGS...]`: the game's pictures: the sprite
sheet (lib/lnr/sprites.bin), the font sheet (lib/lnr/font.bin) and the README's screenshots
(`make screenshots`).

    sprites      python -m tools.art.sprites
    font         python -m tools.art.font
    screenshots  python -m tools.art.screenshots
"""
from tools.commands import dispatch

COMMANDS = {
    "sprites": "tools.art.sprites",
    "font": "tools.art.font",
    "screenshots": "tools.art.screenshots",
}

dispatch("art", COMMANDS, __doc__)
