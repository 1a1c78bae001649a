"""Checks that tools/vm/mpvm (run.mjs, started by tools/vm/mpvm/__init__.py) runs scripts on the
real MicroPython VM.

Other host checks trust this runner to tell MicroPython problems apart from CPython ones, so
these tests pin what it promises: the VM really is MicroPython, failures reach the exit status
with their traceback, a tree lets its packages be imported, `mpvm.collect()` frees garbage, and a
machine without the VM is told what to install in one line.
"""

import os
import subprocess
import sys

import pytest

from tools.vm import mpvm


def run(tmp_path, source, trees=(), heap=None):
    """Returns the CompletedProcess of the VM on `source` written to tmp_path/script.py."""
    script = tmp_path / "script.py"
    script.write_text(source)
    return mpvm.run(script, trees, heap=heap, timeout=60, cwd=tmp_path)


def test_runs_micropython_not_cpython(tmp_path):
    # bool is not an int subclass on MicroPython: a second sign, besides the name, that no
    # CPython is involved anywhere on the way.
    res = run(tmp_path, "import sys\nprint(sys.implementation.name, isinstance(True, int))\n")
    assert res.returncode == 0, res.stderr
    assert res.stdout == "micropython False\n"


def test_argv_is_script_then_args(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import sys\nprint(sys.argv)\n")
    res = mpvm.run(script, args=["a", "--b"], timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout == "[%r, 'a', '--b']\n" % str(script)


def test_exception_exits_1_with_traceback(tmp_path):
    source = "print('before')\ndef f():\n    raise ValueError('boom')\nf()\n"
    res = run(tmp_path, source)
    assert res.returncode == 1
    assert res.stdout == "before\n"  # output up to the failure is kept
    assert res.stderr.startswith("Traceback (most recent call last):\n")
    assert 'script.py", line 3, in f' in res.stderr
    assert res.stderr.endswith("ValueError: boom\n")
    assert "<stdin>" not in res.stderr  # the runner's own frames are cut


def test_system_exit_code_passes_through(tmp_path):
    assert run(tmp_path, "import sys\nsys.exit(7)\n").returncode == 7
    assert run(tmp_path, "import sys\nsys.exit()\n").returncode == 0
    res = run(tmp_path, "import sys\nsys.exit('bye')\n")
    assert (res.returncode, res.stderr) == (1, "bye\n")


def test_syntax_error_names_the_script(tmp_path):
    res = run(tmp_path, "x = (\n")
    assert res.returncode == 1
    assert "SyntaxError" in res.stderr and "script.py" in res.stderr


def test_tree_makes_package_importable(tmp_path):
    pkg = tmp_path / "host" / "gamepkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "rules.py").write_text("ANSWER = 42\n")
    source = "import gamepkg.sub.rules\nprint(gamepkg.sub.rules.ANSWER)\n"
    res = run(tmp_path, source, [pkg])
    assert res.returncode == 0, res.stderr
    assert res.stdout == "42\n"
    # Without --tree the same import must fail, or the test above proves nothing.
    res = run(tmp_path, source)
    assert res.returncode == 1 and "ImportError" in res.stderr


def test_tree_with_vm_dir(tmp_path):
    lib = tmp_path / "devlib"
    lib.mkdir()
    (lib / "helper.py").write_text("NAME = 'helper'\n")
    res = run(tmp_path, "import helper\nprint(helper.__file__)\n", [(lib, "/lib")])
    assert res.returncode == 0, res.stderr
    assert res.stdout == "/lib/helper.py\n"


def test_mpvm_collect_frees_garbage(tmp_path):
    # The runner's reason for top-level await: on this port only a return to JS collects.
    source = (
        "import gc, mpvm\n"
        "await mpvm.collect(); a = gc.mem_alloc()\n"
        "x = [bytearray(100) for i in range(100)]\n"
        "await mpvm.collect(); b = gc.mem_alloc()\n"
        "x = None\n"
        "await mpvm.collect(); c = gc.mem_alloc()\n"
        "print(b - a > 10000, c - a < 1000)\n"
    )
    res = run(tmp_path, source, heap=65536)
    assert res.returncode == 0, res.stderr
    assert res.stdout == "True True\n"


def test_functions_see_module_globals_in_a_script_with_top_level_await(tmp_path):
    # A coroutine from top-level await resumes after the runner's eval() returns: the
    # script's functions must still find its globals (regression: NameError for every name).
    script = tmp_path / "g.py"
    script.write_text(
        "import sys\nX = 5\ndef f():\n    return X, sys.implementation.name\n"
        "import mpvm\nasync def h():\n    await mpvm.collect()\n    return f()\n"
        "print(await h())\n"
    )
    out = mpvm.run(script, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(5, 'micropython')"


def test_a_machine_without_the_vm_is_told_what_to_install_in_one_line(tmp_path, monkeypatch):
    # Every tool and test starts the VM through tools.vm.mpvm: where the npm package is missing
    # each says the same one line (and the command line exits 2), not a resolver's traceback.
    monkeypatch.setattr(mpvm, "PACKAGE", tmp_path / "nowhere")
    assert mpvm.missing() == mpvm.MISSING_VM
    with pytest.raises(FileNotFoundError, match="npm ci --prefix tools/vm/mpvm"):
        mpvm.run(tmp_path / "script.py")
    monkeypatch.setenv("PATH", str(tmp_path))  # no node
    assert mpvm.missing() == mpvm.MISSING_NODE


def test_the_command_line_runs_a_script_and_reports_a_missing_one(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import sys\nprint(sys.argv[1:])\n")
    out = subprocess.run([sys.executable, "-m", "tools.vm.mpvm", str(script), "x"],
                         cwd=mpvm.ROOT, capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout) == (0, "['x']\n")
    out = subprocess.run([sys.executable, "-m", "tools.vm.mpvm", str(tmp_path / "none.py")],
                         cwd=mpvm.ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "cannot read" in out.stderr
    # Where node is missing: one line, exit status 2.
    out = subprocess.run([sys.executable, "-m", "tools.vm.mpvm", str(script)], cwd=mpvm.ROOT,
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PATH=str(tmp_path)))
    assert (out.returncode, out.stderr) == (2, "mpvm: %s\n" % mpvm.MISSING_NODE)
