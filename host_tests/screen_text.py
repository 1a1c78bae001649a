"""What a line of text on the app's screen shows (lnr/ui.py): a line is a TileGrid of the font
sheet and nothing more, so the tests read its tiles back as characters (tile n is character
32 + n) and its ink from its palette: what is drawn, not what the app meant to draw."""


def line_text(line):
    """Returns the text the font TileGrid `line` shows, without the spaces that pad it."""
    return "".join(chr(32 + line[i]) for i in range(line.width)).rstrip()


def lines_text(lines):
    """Returns line_text() of each line of `lines`."""
    return [line_text(line) for line in lines]


def line_ink(line):
    """Returns the colour (0xRRGGBB) the line's characters are drawn in: its palette's 1."""
    return line.pixel_shader[1]
