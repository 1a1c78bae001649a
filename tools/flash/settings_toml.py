"""settings.toml as a CircuitPython board reads it: which line sets a key, and the integer the
board takes from it.

CircuitPython 10 reads the drive's settings.toml with its own small scanner, not a TOML parser:
supervisor/shared/settings.c (adafruit/circuitpython at cd3da4a5d8, the commit of the VM
docs/hardware.md names). main.c's _allocate_memory() asks settings_get_int() for
CIRCUITPY_PYSTACK_SIZE at every start and uses the value only if that returns SETTINGS_OK and
the value is > 0; else the build's default (1536 on the SAMD51). The scan, followed here step
by step (each function below names the C function it follows):

- key_matches(): a line matches when, after spaces, it spells the key bare (a quoted key never
  matches), then optional spaces and "="; a line starting with "[" ends the scan (no tables);
  so does a NUL byte at a line's start (get_next_byte() returns 0 for it as for the end).
  The first matching line wins.
- read_value() / read_bare_value(): a value in quotes is a string (settings_get_int() refuses
  it); an empty value is refused; a bare value runs to "#", the line's end or a NUL, without
  its trailing spaces, tabs and CRs.
- get_int(): the value must fit a 16-byte buffer with its NUL (15 bytes at most, else
  SETTINGS_ERR_LENGTH), and C's strtol(buf, &end, 0) must take all of it but trailing spaces:
  base 0, so "0x2000" is 8192 and "05000" is octal, 2560; "011" is 9 (docs/environment.rst
  says so too). strtol saturates at the board's 32-bit long.
"""

KEY = "CIRCUITPY_PYSTACK_SIZE"

_SPACE = " \t\n\v\f\r"  # py/unicode.c unichar_isspace(): FL_SPACE, ASCII only
_LONG_MAX = 2 ** 31 - 1  # a SAMD51's long
_LONG_MIN = -2 ** 31
_INT_BUF = 16  # get_int()'s char buf[16], its NUL included


class Setting:
    """The line of a settings.toml the board reads a key from: `start` (the line's first
    character), `value_end` (just after the value, before trailing spaces or a comment),
    `value` (the bare value's text; None if quoted or empty), `quoted` (a string value) and
    `number` (the integer settings_get_int() gives, or None when it gives none)."""

    def __init__(self, start, value_end, value, number, quoted=False):
        self.start = start
        self.value_end = value_end
        self.value = value
        self.number = number
        self.quoted = quoted


class _Reader:
    """The file as get_next_byte() reads it: "\\0" at the end (and for a NUL in the file)."""

    def __init__(self, text):
        self.text = text
        self.pos = 0

    def next(self):
        if self.pos >= len(self.text):
            self.pos = len(self.text) + 1  # a read past the end, as f_read() of 0 bytes
            return "\0"
        c = self.text[self.pos]
        self.pos += 1
        return c

    def eof(self):
        return self.pos >= len(self.text)

    def next_line(self):
        # next_line()
        c = self.next()
        while c != "\0" and c != "\n":
            c = self.next()

    def consume_whitespace(self):
        # consume_whitespace(): spaces but not "\n"; returns the next character.
        c = self.next()
        while c != "\n" and c != "\0" and c in _SPACE:
            c = self.next()
        return c


def _key_matches(r, key):
    # key_matches(): True with r just after the "="; False with r at the next line (or the
    # end); None where the scan ends (a "[" or NUL first on the line: seek_eof()).
    c = r.consume_whitespace()
    if c == "[" or c == "\0":
        return None
    for k in key:
        if c != k:
            if c != "\n":
                r.next_line()
            return False
        c = r.next()
    if c != "\0" and c in _SPACE:  # "\n" too: the "=" may follow on the next line
        c = r.consume_whitespace()
    if c != "=":
        if c != "\n":
            r.next_line()
        return False
    return True


def _read_bare(r, first):
    # read_bare_value(): up to "#", the line's end or NUL, trailing spaces/tabs/CRs dropped.
    chars = []
    c = first
    while c != "\0" and c != "\n" and c != "#":
        chars.append(c)
        c = r.next()
    end = r.pos - 1  # the "#", "\n" or NUL; the text's length at its end (_Reader)
    value = "".join(chars)
    trimmed = value.rstrip(" \t\r")
    return trimmed, end - (len(value) - len(trimmed))


def strtol(text):
    """Returns what get_int() makes of a bare value: C's strtol(text, &end, 0) when it takes the
    whole text but trailing spaces, saturated at a 32-bit long; None otherwise."""
    i = 0
    n = len(text)
    while i < n and text[i] in _SPACE:
        i += 1
    sign = 1
    if i < n and text[i] in "+-":
        sign = -1 if text[i] == "-" else 1
        i += 1
    base = 10
    if text[i:i + 2] in ("0x", "0X") and i + 2 < n and text[i + 2] in "0123456789abcdefABCDEF":
        base = 16
        i += 2
    elif text[i:i + 1] == "0":
        base = 8
    digits = "0123456789abcdef"[:base]
    start = i
    value = 0
    while i < n and text[i].lower() in digits and text[i].isascii():
        value = min(value * base + digits.index(text[i].lower()), _LONG_MAX + 1)
        i += 1
    if i == start:
        return None  # no digits: end == buf
    while i < n and text[i] in _SPACE:
        i += 1
    if i != n:
        return None  # "If the whole buffer was not consumed it's an error"
    return max(_LONG_MIN, min(_LONG_MAX, sign * value))


def find(text, key=KEY):
    """Returns (the Setting the board reads `key` from, or None; where the board's scan stops:
    the start of the line that begins with "[" or NUL, else the text's length) for the text of
    a settings.toml (settings_get_vstr()'s loop)."""
    r = _Reader(text)
    while not r.eof():
        line = r.pos
        found = _key_matches(r, key)
        if found is None:
            return None, line
        if not found:
            continue
        c = r.consume_whitespace()
        if c == '"':  # read_string_value(): a string, which get_int() refuses
            return Setting(line, _string_end(text, r.pos), None, None, True), len(text)
        if c == "\n" or c == "\0":  # an empty value: SETTINGS_ERR_BAD_VALUE
            return Setting(line, r.pos - 1, None, None), len(text)
        value, end = _read_bare(r, c)
        number = None
        if len(value.encode("utf-8")) < _INT_BUF:  # else SETTINGS_ERR_LENGTH
            number = strtol(value)
        return Setting(line, end, value, number), len(text)
    return None, len(text)


def _string_end(text, i):
    # Just after the closing quote of the string whose text starts at i (a backslash escapes
    # the next character, as in read_string_value()); the line's end if it has none.
    while i < len(text) and text[i] not in "\n\0":
        if text[i] == "\\":
            i += 1
        elif text[i] == '"':
            return i + 1
        i += 1
    return min(i, len(text))


def board_int(text, key=KEY):
    """Returns the integer a board takes for `key` from settings.toml's text (> 0, as
    _allocate_memory() wants it), or None when it would use its default."""
    setting, _ = find(text, key)
    if setting is None or setting.number is None or setting.number <= 0:
        return None
    return setting.number
