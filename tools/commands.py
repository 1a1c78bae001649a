"""The one entry point of each tools package: `python -m tools.PKG COMMAND [ARGS...]` runs
tools.PKG's module for COMMAND as `python -m` would run it (its own argument parser, its exit
code), so a package's __main__.py is its table of commands."""
import os
import runpy
import subprocess
import sys

from tools.cli import CliError, refuse
from tools.flash.sync import DeployError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def dispatch(package, commands, doc):
    """Runs what `commands` names for sys.argv[1] with the arguments after it: a module (a
    str, run as `python -m` runs it) or a command line (a list, run from the repository's root,
    for what runs on a VM rather than in this Python). No command, or one not in `commands`: a
    usage line on stderr and exit status 2 (-h prints `doc`)."""
    usage = "usage: python -m tools.%s %s [ARGS...]" % (package, "|".join(commands))
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(usage + "\n\n" + doc.strip())
        return
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        got = "no command" if len(sys.argv) < 2 else "unknown command %r" % sys.argv[1]
        print("%s (%s)" % (usage, got), file=sys.stderr)
        sys.exit(2)
    name = sys.argv.pop(1)
    what = commands[name]
    if isinstance(what, list):
        sys.exit(subprocess.call(what + sys.argv[1:], cwd=ROOT))
    try:
        runpy.run_module(what, run_name="__main__", alter_sys=True)
    except CliError as e:  # bad input a command did not answer itself (an environment variable)
        sys.exit(refuse("python -m tools.%s %s" % (package, name), e))
    except DeployError as e:  # the tree the board would get is refused (a check that builds it)
        sys.exit("python -m tools.%s %s: %s" % (package, name, e))
