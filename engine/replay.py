"""Checks a `loknroll/1` game record step by step against the rules (docs/rules.md §10).

    python -m engine.replay FILE      (FILE "-" reads standard input)

Exit 0: a legal, finished game; its result is printed as one JSON line.
Exit 2: an illegal, malformed or unfinished record; "turn N: reason" or "setup: reason" on
        standard error (N counts turns from 1).
Exit 1: the replay's result differs from the record's own `result`.
Bad input (no such file, not UTF-8, not JSON, nested deeper than a record ever is) is exit 2 with
one line on standard error, never a traceback.
"""
import json
import sys

from engine.record import RecordError, check


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m engine.replay FILE  (- for standard input)", file=sys.stderr)
        return 2
    path = argv[0]
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except (OSError, ValueError) as e:  # not UTF-8 (UnicodeDecodeError), a NUL in the name
        print("replay: cannot read %s: %s" % (path, e), file=sys.stderr)
        return 2
    try:
        record = json.loads(text)
    except ValueError as e:
        # json's message names line, column and character offset of the first bad byte.
        print("setup: the record is not valid JSON: %s" % e, file=sys.stderr)
        return 2
    except RecursionError:
        print("setup: the record nests lists or objects deeper than Python reads",
              file=sys.stderr)
        return 2
    try:
        result, claimed = check(record)
    except RecordError as e:
        print(str(e), file=sys.stderr)
        return 2
    except RecursionError:  # a message that prints a deeply nested value
        print("setup: the record nests lists or objects too deeply", file=sys.stderr)
        return 2
    print(json.dumps(result))
    if claimed is not None:
        print("replay: the record's result %s differs from the replay's %s"
              % (json.dumps(claimed), json.dumps(result)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
