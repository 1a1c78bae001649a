"""The font sheet (lib/lnr/make.py): every line of text is tiled from it, and its pixels come from
lib/lnr/font.bin, which must be what adafruit_display_text's bitmap_label draws of
terminalio.FONT (tools/art/font.py); the board never loads the library (docs/memory.md)."""
import pytest

import terminalio
from adafruit_display_text.bitmap_label import Label

from lnr import make, sheet
from lnr.ui import GLYPHS, GLYPH_W, GLYPH_H
from tools.art import font as draw_font


def test_the_shipped_font_is_what_bitmap_label_draws():
    # A new pin of adafruit-circuitpython-display-text (or of Blinka's font) must be followed by
    # `python -m tools.art font`.
    with open(make.FONT_PATH, "rb") as f:
        assert f.read() == draw_font.pixels()


def test_every_line_of_text_is_tiled_from_the_glyphs_bitmap_label_draws():
    # What the screen shows: the text layer's, the play screen's and the panel's lines all tile
    # the one sheet lnr/make.py reads, pixel for pixel what one Label of the 95 characters draws
    # (a character is a tile: tile n is character 32 + n).
    objects = make.build(sheet.new())
    lines, side, plines = objects[5], objects[11], objects[19]
    font = lines[0].bitmap
    assert all(g.bitmap is font for g in lines + side + plines)
    drawn = Label(terminalio.FONT, text="".join(chr(32 + n) for n in range(GLYPHS))).bitmap
    assert (font.width, font.height) == (GLYPHS * GLYPH_W, GLYPH_H)
    ink = 0
    for y in range(GLYPH_H):
        for x in range(GLYPHS * GLYPH_W):
            assert font[x, y] == (1 if drawn[x, y] else 0), (x, y)
            ink += font[x, y]
    assert ink > 1000  # the glyphs, not a blank sheet


@pytest.mark.parametrize("data,said", [(None, "lnr/font.bin is missing, flash the game again"),
                                       (b"\x00" * 100, "lnr/font.bin is short: flash the game")])
def test_a_missing_or_short_font_says_to_flash_again(tmp_path, monkeypatch, data, said):
    # A broken install: the error screen's one line (lnr/main.py crashed()) says what to do.
    path = tmp_path / "font.bin"
    if data is not None:
        path.write_bytes(data)
    monkeypatch.setattr(make, "FONT_PATH", str(path))
    with pytest.raises(OSError, match=said):
        make.build(sheet.new())
