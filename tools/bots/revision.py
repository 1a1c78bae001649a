"""Another git revision's code, played beside this tree's: what a change to the engine (not to
its weights) is worth, paired by seed (python -m tools.bots compare --old-code REV).

The revision's files are exported (`git archive`) into a temporary folder this module makes and
removes; its games run in processes of their own that import the engine and tools from there,
so that nothing of this tree's code plays for it. A task is tools.bots.tune play()'s, played by
the revision's own tools/bots/tune.py: the revision must take the same arguments.
"""
import io
import multiprocessing
import subprocess
import sys
import tarfile
import tempfile

from tools import cli

_PACKAGES = ("engine", "tools")  # what the revision's processes import from its files


class Revision:
    """The files of git revision `rev` of the repository at `root`, exported into a temporary
    folder while the `with` block runs. cli.CliError where `rev` names no commit there."""

    def __init__(self, root, rev):
        self.root = root
        self.rev = rev
        self.folder = None
        self.commit = None

    def __enter__(self):
        try:
            out = subprocess.run(["git", "-C", self.root, "rev-parse", "--verify", "--quiet",
                                  self.rev + "^{commit}"], capture_output=True, check=False)
        except OSError as e:
            raise cli.CliError("git: %s" % e.strerror)
        if out.returncode != 0:
            raise cli.CliError("%s: not a commit of %s" % (self.rev, self.root))
        self.commit = out.stdout.decode().strip()
        self.folder = tempfile.TemporaryDirectory(prefix="lnr-revision-")
        archive = subprocess.run(["git", "-C", self.root, "archive", self.commit],
                                 capture_output=True, check=False)
        if archive.returncode != 0:
            self.folder.cleanup()
            raise cli.CliError("git archive %s: %s" % (self.rev, archive.stderr.decode().strip()))
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(self.folder.name, filter="data")
        return self

    def __exit__(self, *exc):
        self.folder.cleanup()

    def played(self, results):
        """Yields `results` (an iterator over the revision's games), raising cli.CliError with
        one line where the revision's code could not play them (it takes other arguments)."""
        try:
            yield from results
        except (ImportError, AttributeError, TypeError, ValueError) as e:
            raise cli.CliError("the code of %s could not play these games (%s: %s)"
                               % (self.rev, type(e).__name__, e))

    def pool(self, jobs):
        """Returns a multiprocessing Pool of `jobs` processes that import the revision's code
        (fresh interpreters: nothing of this tree's is imported in them by then)."""
        return multiprocessing.get_context("spawn").Pool(
            jobs, initializer=_use_folder, initargs=(self.folder.name,))


def play(task):
    """tools.bots.tune play(task), the revision's: the function Revision.pool()'s processes
    are given. (Not the revision's play() itself, looked up by name as a task arrives: a
    revision without it would leave the pool waiting for ever.)"""
    from tools.bots import tune  # the revision's (_use_folder)

    return tune.play(task)


def _use_folder(folder):
    # A process of Revision.pool(): this tree's modules, imported as the process began, are
    # forgotten but this one (its play() is what the tasks name), and the revision's folder
    # comes first in the path.
    me = sys.modules[__name__]
    for name in list(sys.modules):
        if name.split(".")[0] in _PACKAGES:
            del sys.modules[name]
    sys.modules[__name__] = me
    sys.path.insert(0, folder)
