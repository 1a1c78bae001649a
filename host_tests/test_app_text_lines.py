"""The app's lines of text (lnr/ui.py): each is a TileGrid of the font sheet and nothing more.
Ui.put writes only the tiles that change (each write is redrawn at the next refresh, changed or
not) and changes a line's colour by giving it another of the palettes the lines share, one per
ink (RAM: a palette is 64 B on the board); the shared palettes never change."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import displayio  # noqa: E402

from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.screen_text import line_ink, line_text  # noqa: E402
from lnr.ui import WHITE, RED, GREEN  # noqa: E402

# From the title into a solo game (START then opens the action menu).
INTO_A_GAME = ["A", "A", "WAIT*200"]


def run(keys):
    with sim_fast.fast():
        r = sim.run_headless(keys, seed=3, settle=5)
    assert r.ok, r.error
    return r


def font_lines(root):
    """Returns every TileGrid of the font sheet (tiles of 6x12) under `root`."""
    out = []

    def walk(obj):
        if isinstance(obj, displayio.Group):
            for child in obj:
                walk(child)
        elif isinstance(obj, displayio.TileGrid) and obj.tile_width == 6:
            out.append(obj)

    walk(root)
    return out


class WatchedLine(displayio.TileGrid):
    """A line of text like `like` (the same font sheet, palette and width) that records each
    tile written to it and each palette given to it, through TileGrid's public API: what
    Ui.put calls, and what the board's displayio marks for the next refresh."""

    def __init__(self, like):
        super().__init__(like.bitmap, pixel_shader=like.pixel_shader, width=like.width,
                         height=1, tile_width=like.tile_width, tile_height=like.tile_height)
        self.tiles = []  # the index of each tile written
        self.shaders = []  # each palette given

    def __setitem__(self, index, value):
        self.tiles.append(index)
        super().__setitem__(index, value)

    def _give_shader(self, palette):
        self.shaders.append(palette)
        displayio.TileGrid.pixel_shader.fset(self, palette)

    pixel_shader = property(displayio.TileGrid.pixel_shader.fget, _give_shader)


def test_put_writes_only_the_tiles_that_change_and_the_palette_only_when_the_ink_does():
    r = run(INTO_A_GAME)
    ui = r.app.ui
    line = WatchedLine(ui.side[1])
    ui.put(line, "Score 12")
    assert line_text(line) == "Score 12" and line_ink(line) == WHITE
    del line.tiles[:], line.shaders[:]
    ui.put(line, "Score 12")
    assert line.tiles == [] and line.shaders == []  # the same text again: nothing to redraw
    ui.put(line, "Score 13")
    assert line.tiles == [7] and line.shaders == [] and line_text(line) == "Score 13"
    del line.tiles[:]
    ui.put(line, "Score")  # shorter: only the tiles that were characters become spaces
    assert line.tiles == [6, 7] and line_text(line) == "Score"
    del line.tiles[:]
    ui.put(line, "Score", RED)
    assert line.tiles == [] and line.shaders == [ui.inks[RED]] and line_ink(line) == RED
    ui.put(line, "Score 1234567")  # cut to the line's 8 characters, white again
    assert line_text(line) == "Score 12" and line_ink(line) == WHITE
    ui.put(line, "\x7f~")  # what the font lacks shows as "?"
    assert line_text(line) == "?~"


def test_the_lines_share_one_palette_per_ink_and_never_change_it():
    # Every screen's lines after a game's start, the action menu and its colours: each line's
    # palette is its ink's (or the toast's own), and each ink's palette still holds that ink.
    r = run(INTO_A_GAME + ["START", "WAIT*5"])
    ui = r.app.ui
    assert ui.panel.hidden is False  # the action menu, lines of several inks
    inks = ui.inks
    lines = font_lines(ui.root)
    assert len(lines) == 1 + 8 + 8 + 1 + 1 + 7  # title, menu lines, side, hand ends, toast, panel
    palettes = set(id(line.pixel_shader) for line in lines)
    toast = ui.toast.pixel_shader
    assert palettes <= set(id(p) for p in inks.values()) | {id(toast)}
    assert len(set(line_ink(line) for line in ui.plines)) >= 2  # the menu's lines differ
    for ink, palette in inks.items():
        assert len(palette) == 2 and palette.is_transparent(0) and palette[1] == ink
    assert not toast.is_transparent(0) and toast[0] == 0 and toast[1] == WHITE
    assert line_ink(ui.side[0]) == GREEN  # the viewer's name (lnr/play/view.py)
