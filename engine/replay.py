"""Checks a `loknroll/1` game record step by step against the rules (docs/rules.md §10).

    python -m engine.replay FILE      (FILE "-" reads standard input)

Exit 0: a legal, finished game; its result is printed as one JSON line.
Exit 2: an illegal, malformed or unfinished record; "turn N: reason" or "setup: reason" on
        standard error (N counts turns from 1).
Exit 1: the replay's result differs from the record's own `result`.
Bad input (no such file, not UTF-8, not JSON, over RECORD_MAX bytes, nested deeper than a record
ever is) and bad arguments are exit 2 with one line on standard error, never a traceback.
"""
import json
import sys

from engine.record import RecordError, check

# A record is a few KB (a long table game: under 20 KB); a file this big is not one, and a read
# stops here (a device such as /dev/zero never ends).
RECORD_MAX = 1 << 20


def one_line_parser(prog, description):
    """Returns an argparse parser (desktop only) whose errors are one line, `prog: message`,
    with exit status 2."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            self.exit(2, "%s: %s\n" % (self.prog, " ".join(message.split())))

    return Parser(prog=prog, description=description)  # (as tools/cli.py's Parser)


def whole(lo, hi):
    """Returns an argument type for one_line_parser: a whole number from lo to hi."""
    def convert(text):
        value = int(text)  # argparse says "invalid ... value" for a ValueError
        if not lo <= value <= hi:
            raise ValueError(text)
        return value
    convert.__name__ = "whole number from %d to %d" % (lo, hi)
    return convert


def read_text(path, stdin=None):
    """Returns the text of the file at `path` ("-": `stdin`, default standard input); raises
    ValueError with the line to say when it can't be read, is not UTF-8 or is larger than
    RECORD_MAX."""
    try:
        if path == "-":
            stdin = sys.stdin if stdin is None else stdin
            data = getattr(stdin, "buffer", stdin).read(RECORD_MAX + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(RECORD_MAX + 1)
    except OSError as e:
        raise ValueError("cannot read %s: %s" % (path, e.strerror or e)) from None
    except ValueError as e:  # a NUL in the name
        raise ValueError("cannot read %r: %s" % (path, e)) from None
    if len(data) > RECORD_MAX:
        raise ValueError("%s holds more than %d bytes: not a record" % (path, RECORD_MAX))
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError("%s is not UTF-8 text (%s)" % (path, e.reason)) from None


def say(text):
    """Prints `text` to standard error as one line, at most 300 characters (a message may
    quote a value of the record's)."""
    line = " ".join(str(text).split())
    print(line if len(line) <= 300 else line[:297] + "...", file=sys.stderr)


def main(argv=None):
    parser = one_line_parser("python -m engine.replay", "Checks a loknroll/1 game record.")
    parser.add_argument("record", help="the record's file (- for standard input)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    path = args.record
    try:
        text = read_text(path)
    except ValueError as e:
        say("replay: %s" % e)
        return 2
    try:
        record = json.loads(text)
    except ValueError as e:
        # json's message names line, column and character offset of the first bad byte.
        say("setup: the record is not valid JSON: %s" % e)
        return 2
    except RecursionError:
        say("setup: the record nests lists or objects deeper than Python reads")
        return 2
    try:
        result, claimed = check(record)
    except RecordError as e:
        say(e)
        return 2
    except RecursionError:  # a message that prints a deeply nested value
        say("setup: the record nests lists or objects too deeply")
        return 2
    print(json.dumps(result))
    if claimed is not None:
        say("replay: the record's result %s differs from the replay's %s"
            % (json.dumps(claimed), json.dumps(result)))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
