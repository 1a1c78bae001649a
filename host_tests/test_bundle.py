"""tools/flash/bundle.py, the release zip (`make bundle`), where it can go wrong: what it packs,
the bytes it writes, and the files it must never replace. (That the zip holds the tree make flash
writes, built for real: test_readme.py, `make bundle`.)"""
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.flash import bundle, deploy, sync  # noqa: E402


def run_bundle(*args):
    return subprocess.run([sys.executable, "-m", "tools.flash.bundle", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_the_zip_is_sorted_dated_and_the_same_for_the_same_files():
    files = {"lib/b.mpy": b"C\x06b", "code.py": b"print(1)\n", "lib/a.mpy": b"C\x06a"}
    one = bundle.pack(files, when=1764000000)
    assert one == bundle.pack(dict(reversed(list(files.items()))), when=1764000000)
    with zipfile.ZipFile(__import__("io").BytesIO(one)) as z:
        assert z.namelist() == ["code.py", "lib/a.mpy", "lib/b.mpy"]
        assert {z.read(n) for n in z.namelist()} == set(files.values())
        assert {i.date_time for i in z.infolist()} == {(2025, 11, 24, 16, 0, 0)}
        assert z.comment == bundle.MARK
    assert bundle.pack(files, when=1764003600) != one  # another commit's time, other bytes


def test_the_drive_files_are_the_tree_and_the_settings_for_a_drive_without_any():
    tree = deploy.Tree({"code.py": b"x", "lib/lnr/main.mpy": b"C\x06"})
    files = bundle.drive_files(tree)
    assert files["settings.toml"] == sync.settings_with_pystack(None).encode()
    # and the list of what is installed: a flash after the unzip removes only those files
    assert sync.read_manifest(files[sync.MANIFEST])[1].keys() == {"code.py", "lib/lnr/main.mpy"}
    assert set(files) == {"code.py", "lib/lnr/main.mpy", "settings.toml", sync.MANIFEST}


def test_a_file_it_did_not_write_is_never_replaced(tmp_path):
    """docs/style.md: a tool never overwrites a file it did not make. The bundle's name is
    checked before the build, so this answer comes at once."""
    name, _ = bundle.version()
    theirs = tmp_path / (bundle.PREFIX + name + bundle.SUFFIX)
    theirs.write_bytes(b"the user's own file")
    r = run_bundle("--out", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.startswith("bundle: %s exists and is not a bundle make bundle wrote" % theirs)
    assert "Traceback" not in r.stderr
    assert theirs.read_bytes() == b"the user's own file"
    # A zip of someone else's is not ours either.
    with zipfile.ZipFile(theirs, "w") as z:
        z.writestr("code.py", b"theirs")
    before = theirs.read_bytes()
    assert run_bundle("--out", str(tmp_path)).returncode == 2
    assert theirs.read_bytes() == before


def test_its_own_bundle_is_replaced(tmp_path):
    dest = tmp_path / "x.zip"
    bundle.write(bundle.pack({"code.py": b"1"}), dest)
    bundle.write(bundle.pack({"code.py": b"2"}), dest)
    with zipfile.ZipFile(dest) as z:
        assert z.read("code.py") == b"2"
    assert [p.name for p in tmp_path.iterdir()] == ["x.zip"]  # no .part left behind


@pytest.mark.parametrize("args, says", [
    (["--out", "FILE"], "is not a folder"),
    (["--mpy-cross", "/nonexistent/mpy-cross"], "mpy-cross not found: /nonexistent/mpy-cross"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, says):
    (tmp_path / "FILE").write_text("a file, not a folder")
    args = [str(tmp_path / a) if a == "FILE" else a for a in args]
    r = run_bundle(*args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert len(r.stderr.splitlines()) == 1 and says in r.stderr
    assert "Traceback" not in r.stderr


def test_without_a_compiler_there_is_no_bundle(monkeypatch, tmp_path, capsys):
    """A bundle is .mpy files only: where no mpy-cross is at hand it says so and writes
    nothing."""
    monkeypatch.setattr(deploy, "find_mpy_cross", lambda explicit=None: (None, "no mpy-cross"))
    assert bundle.main(["--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("bundle: no mpy-cross")
    assert list(tmp_path.iterdir()) == []


def test_the_version_is_the_commit_and_says_dirty(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    assert bundle.version(repo) == ("unversioned", None)
    subprocess.run(git[:-2] + ["init", "-q", str(repo)], check=True)
    (repo / "code.py").write_text("x = 1\n")
    subprocess.run(git + ["add", "code.py"], check=True)
    subprocess.run(git + ["commit", "-qm", "one"], check=True)
    commit = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    name, when = bundle.version(repo)
    assert name == commit and isinstance(when, int)
    (repo / "code.py").write_text("x = 2\n")
    assert bundle.version(repo)[0] == commit + "-dirty"
    subprocess.run(git + ["tag", "v1.0"], check=True)
    assert bundle.version(repo)[0] == "v1.0-dirty"
