"""docs/memory.md's figures are the figures of the code as it is: make cpcheck and make waits
write them with the fingerprint of the files they were made from (tools/vm/cpapp.py
fingerprint(): the board's files, how they are compiled, the harness), and a change to any of
those without a new run leaves figures that no longer say what the code does."""
import re

from tools.vm import cpapp, waits

BLOCKS = ((cpapp.DOC_BEGIN, cpapp.DOC_END, "make cpcheck"),
          (waits.DOC_BEGIN, waits.DOC_END, "make waits"))


def written(text, begin, end):
    """Returns the fingerprint written in `text` between the lines `begin` and `end`, or None."""
    a, b = text.find(begin), text.find(end)
    assert 0 <= a < b, "docs/memory.md lacks the lines %r and %r" % (begin, end)
    found = re.search(re.escape(cpapp.FINGERPRINT) + r"`([0-9a-f]{12})`", text[a:b])
    return found.group(1) if found else None


def test_the_figures_of_docs_memory_md_are_of_the_files_as_they_are():
    text = cpapp.DOC.read_text(encoding="utf-8")
    now = cpapp.fingerprint()
    stale = [target for begin, end, target in BLOCKS if written(text, begin, end) != now]
    assert not stale, ("docs/memory.md's figures are of other files than these (fingerprint "
                       "%s now): run %s" % (now, " and ".join(stale)))


def test_the_fingerprint_moves_with_what_the_board_runs(monkeypatch):
    """One byte more in a board module, a library the board runs, or the harness, is another
    fingerprint."""
    now = cpapp.fingerprint()
    for rel in ("lib/lnr/ui.py", "engine/state.py", "tools/vm/cp_app_session.py"):
        monkeypatch.setattr(cpapp.Path, "read_bytes", _with_one_more(cpapp.ROOT / rel))
        assert cpapp.fingerprint() != now, rel
        monkeypatch.undo()
    assert cpapp.fingerprint() == now


def _with_one_more(path):
    # Path.read_bytes that reads `path` with one byte more at its end.
    real = cpapp.Path.read_bytes

    def read(self):
        data = real(self)
        return data + b" " if self.resolve() == path.resolve() else data

    return read
