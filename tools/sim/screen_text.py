"""What the app's screen reads as text (lnr/ui.py): a line is a TileGrid of the font sheet and
nothing more, so its tiles read back as characters (tile n is character 32 + n) and its ink
from its palette: what is drawn, not what the app meant to draw. Host tests read lines with
it, and `python -m tools.sim --headless --text FILE` writes the whole screen's text."""


def line_text(line):
    """Returns the text the font TileGrid `line` shows, without the spaces that pad it."""
    return "".join(chr(32 + line[i]) for i in range(line.width)).rstrip()


def lines_text(lines):
    """Returns line_text() of each line of `lines`."""
    return [line_text(line) for line in lines]


def line_ink(line):
    """Returns the colour (0xRRGGBB) the line's characters are drawn in: its palette's 1."""
    return line.pixel_shader[1]


def _shown(group, x, y, scale, out):
    # Every font line shown under `group` (whose top left is at x, y on the screen) as
    # (y, x, its height, the line), walking the display tree as the display draws it.
    if group.hidden:
        return
    for item in group:
        if item.hidden:
            continue
        if hasattr(item, "tile_width"):  # a TileGrid: a line of text if its tiles are glyphs
            if item.tile_width == _GLYPH_W and item.height == 1:
                out.append((y + item.y * scale, x + item.x * scale, _GLYPH_H * scale, item))
        else:
            s = scale * item.scale
            _shown(item, x + item.x * scale, y + item.y * scale, s, out)


_GLYPH_W = 6  # lnr.ui GLYPH_W, GLYPH_H: terminalio.FONT's cell
_GLYPH_H = 12


def screen_lines(ui):
    """Returns the text a player reads on the screen of `ui` (a lnr.ui.Ui): each line of text
    shown, top to bottom and left to right, blank lines left out. The play screen's lines under
    the panel's box (when it is up) are covered by it and left out, as the toast is."""
    found = []
    _shown(ui.root, 0, 0, 1, found)
    found.sort(key=lambda f: (f[0], f[1]))
    covered = None
    if not ui.panel.hidden and not ui.play.hidden:
        covered = ui.play  # the box spans the map and the side panel (lnr/make.py)
    out = []
    for y, x, h, line in found:
        if covered is not None and _inside(covered, line):
            continue
        text = line_text(line)
        if text:
            out.append(text)
    return out


def _inside(group, line):
    for item in group:
        if item is line:
            return True
    return False
