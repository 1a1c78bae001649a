"""The repository is the CIRCUITPY drive and stands on its own: its code.py starts the game as a
board runs it and nothing when the desktop imports it, and nothing points outside the
repository."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_pdb_at_the_root_starts_nothing():
    """pdb imports the standard library's `code`; at the root that finds our code.py first. It
    must import without starting the game (the start-up call is under __name__ == "__main__")."""
    r = subprocess.run([sys.executable, "-c", "import pdb, code; print('ok', code.__file__)"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok ")
    # It really was our code.py that was imported, and it printed nothing else.
    assert r.stdout.strip().endswith("code.py") and r.stdout.count("\n") == 1


# code.py run as a board runs it: as __main__, with lib/ on the path and the board's built-in
# modules (tools/standins, a PyBadge whose boot.py left the drive writable to the game); the
# run ends at the app's first refresh and prints the text lines the screen shows.
RUN_CODE_PY = """
import runpy, sys
root = sys.argv[1]
sys.path[:0] = [root + "/lib", root]
from tools import standins
parts = standins.install()
parts["board"].choose("pybadge")
parts["storage"].writable = True


class FirstFrame(BaseException):
    pass


def refresh(**_):
    raise FirstFrame


display = parts["board"].DISPLAY
display.refresh = refresh
try:
    runpy.run_path(root + "/code.py", run_name="__main__")
except FirstFrame:
    pass


def lines(group, out):
    for child in group:
        if getattr(child, "tile_width", 0) == 6 and not child.hidden:  # a line of text
            out.append("".join(chr(32 + child[i]) for i in range(child.width)).rstrip())
        elif not hasattr(child, "tile_width") and not child.hidden:
            lines(child, out)
    return out


print("|".join(line for line in lines(display.root_group, []) if line))
"""


def test_code_py_starts_the_game_as_a_board_runs_it():
    """The board runs code.py as __main__: it opens the board's hardware (lnr.boards) and the
    app shows its title menu at the first refresh, having said what the board has on the serial
    console (lnr/memory/report.py: docs/hardware.md)."""
    r = subprocess.run([sys.executable, "-c", RUN_CODE_PY, str(ROOT)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    said, screen = r.stdout.strip().splitlines()
    assert said.startswith("loknroll: ") and ", pybadge, heap free at start " in said
    shown = screen.split("|")
    assert shown[0] == "LOK'N'ROLL"
    # The stand-in drive ("/" of this machine) holds no save files (make flash makes them), so
    # the title says that first, as a board's would after a drag-and-drop install.
    assert (shown[1:5] == ["> New game", "  Records", "  Settings", "  How to play"]
            or shown[1] == "No save file on the drive:"), shown


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
