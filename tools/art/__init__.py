"""The game's pictures: the sprite sheet (lib/lnr/sprites.bin), the font sheet (lib/lnr/font.bin)
and the README's screenshots (`make screenshots`).

One entry point: `python -m tools.art` (__main__.py)."""


def write_or_check(check, path, data, command):
    """What a tool that draws a sheet the board reads does (tools/art/sprites.py, font.py):
    writes `data` to `path` (lib/lnr/...), or with `check` returns 1 if the file holds other
    bytes, saying to run `command`; 0 otherwise."""
    import os

    from tools import cli

    rel = "lib/lnr/" + os.path.basename(path)
    if check:
        try:
            same = cli.read_bytes(path, len(data), "the " + rel) == data
        except cli.CliError:
            same = False
        print("%s is %s" % (rel, "up to date" if same else "stale: run " + command))
        return 0 if same else 1
    cli.write_output(path, data)
    print("wrote %s (%d bytes)" % (rel, len(data)))
    return 0
