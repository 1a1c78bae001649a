"""tools/bots/revision.py: a git revision's code plays in processes of its own (compare
--old-code), never this tree's, and a revision that cannot play is one line, not a pool waiting
for ever."""
import os
import subprocess

import pytest

from tools import cli
from tools.bots import revision

# A revision's tools/bots/tune.py whose play() tells where it was read from.
_TELLS = "def play(task):\n    return (task, __file__)\n"


def _repo(tmp_path, tune_py):
    # A git repository of one commit: the packages a revision's processes import, tune.py's
    # text `tune_py` (None: no tools/bots at all).
    root = tmp_path / "repo"
    (root / "engine").mkdir(parents=True)
    (root / "engine" / "__init__.py").write_text("")
    if tune_py is not None:
        (root / "tools" / "bots").mkdir(parents=True)
        (root / "tools" / "__init__.py").write_text("")
        (root / "tools" / "bots" / "__init__.py").write_text("")
        (root / "tools" / "bots" / "tune.py").write_text(tune_py)
    for args in (["init", "-q"], ["add", "."],
                 ["-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-qm",
                  "one"]):
        subprocess.run(["git", "-C", str(root)] + args, check=True, capture_output=True)
    return str(root)


def test_the_revisions_own_code_plays_and_its_folder_goes(tmp_path):
    root = _repo(tmp_path, _TELLS)
    with revision.Revision(root, "HEAD") as rev:
        folder = rev.folder.name
        pool = rev.pool(1)
        try:
            got = list(rev.played(pool.imap(revision.play, [("solo", 7)])))
        finally:
            pool.close()
            pool.join()
    assert got[0][0] == ("solo", 7)
    assert got[0][1] == os.path.join(folder, "tools", "bots", "tune.py")
    assert not os.path.exists(folder)  # made by it, removed by it


def test_a_revision_that_cannot_play_is_one_line(tmp_path):
    root = _repo(tmp_path, None)
    with revision.Revision(root, "HEAD") as rev:
        pool = rev.pool(1)
        try:
            with pytest.raises(cli.CliError) as e:
                list(rev.played(pool.imap(revision.play, [("solo", 7)])))
        finally:
            pool.close()
            pool.join()
    assert "could not play" in str(e.value) and "\n" not in str(e.value)


def test_not_a_commit(tmp_path):
    root = _repo(tmp_path, _TELLS)
    for rev in ("no-such-branch", "", "HEAD~5"):
        with pytest.raises(cli.CliError):
            with revision.Revision(root, rev):
                pass
    with pytest.raises(cli.CliError):
        with revision.Revision(str(tmp_path), "HEAD"):  # not a repository
            pass
