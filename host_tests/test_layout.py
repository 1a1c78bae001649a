"""The repository is the CIRCUITPY drive and stands on its own: the design's top level, a
code.py that starts nothing on the desktop, and no reference to a path outside the repository."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_top_level_is_the_drive():
    for name in ("code.py", "boot.py", "lib", "engine", "host_tests", "README.md"):
        assert (ROOT / name).exists(), name
    assert (ROOT / "lib" / "lnr" / "main.py").is_file()
    assert not (ROOT / "device").exists()


def test_pdb_at_the_root_starts_nothing():
    """pdb imports the standard library's `code`; at the root that finds our code.py first. It
    must import without starting the game (the start-up call is under __name__ == "__main__")."""
    r = subprocess.run([sys.executable, "-c", "import pdb, code; print('ok', code.__file__)"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok ")
    # It really was our code.py that was imported, and it printed nothing else.
    assert r.stdout.strip().endswith("code.py") and r.stdout.count("\n") == 1


def test_code_py_starts_the_app_when_run_as_main():
    src = (ROOT / "code.py").read_text()
    body = src.split('if __name__ == "__main__":', 1)
    assert len(body) == 2, "the start-up call must sit under __name__ == '__main__'"
    assert "run(lnr.boards.open_hardware())" in body[1]


# A path that leaves the repository: ../ anything, or the workplace's shared folder.
_OUTSIDE = re.compile(r"\.\./|(?<![\w-])shared/(RULES|HARDWARE|STYLE|circuitpython|seeds)")


def _tracked(*patterns):
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    return [ROOT / p for p in out]


def test_no_path_outside_the_repository_in_readme_docs_or_code():
    """Tests may use ../shared/circuitpython where it exists; nothing else may point out."""
    files = _tracked("README.md", "docs", "engine", "lib", "tools", "code.py", "boot.py",
                     "Makefile", "requirements")
    assert files
    bad = []
    for p in files:
        if p.suffix in (".png", ".bin") or not p.is_file():
            continue
        for n, line in enumerate(p.read_text().splitlines(), 1):
            if _OUTSIDE.search(line):
                bad.append("%s:%d: %s" % (p.relative_to(ROOT), n, line.strip()))
    assert bad == []


def test_the_rules_document_keeps_the_sections_code_cites():
    text = (ROOT / "docs" / "rules.md").read_text()
    for n in range(1, 11):
        assert re.search(r"^## %d\. " % n, text, re.M), "§%d" % n
    for n in range(1, 11):
        assert re.search(r"\*\*D%d\*\*" % n, text), "D%d" % n
    assert "loknroll/1" in text
    # Every citation in code and tests names a section or decision the document has.
    cited = set()
    for p in _tracked("engine", "lib", "tools", "host_tests"):
        if p.suffix == ".py":
            cited.update(re.findall(r"docs/rules\.md §(\d+)", p.read_text()))
    assert cited and all(1 <= int(s) <= 10 for s in cited)
