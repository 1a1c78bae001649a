"""The README's examples run as written (docs/style.md: every example and CLI in the README is run
by a test)."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def readme():
    with open(os.path.join(ROOT, "README.md")) as f:
        return f.read()


def test_the_python_example_plays_a_whole_game(capsys):
    blocks = re.findall(r"```python\n(.*?)```", readme(), re.S)
    assert blocks, "the README shows the engine's API in a python block"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    printed = capsys.readouterr().out.strip().splitlines()[-1]
    assert printed.startswith("{'scores': [") and "'winners': [0]" in printed


def test_the_record_commands_work_as_shown(tmp_path):
    text = readme()
    assert "python -m engine.selfplay --mode solo --seed 7 > game.json" in text
    assert "python -m engine.selfplay --mode table --players 3 --seed 7 --bot random" in text
    assert "python -m engine.replay game.json" in text
    game = tmp_path / "game.json"
    with open(game, "w") as out:
        subprocess.run([sys.executable, "-m", "engine.selfplay", "--mode", "solo", "--seed",
                        "7"], cwd=ROOT, stdout=out, check=True, timeout=60)
    table = subprocess.run([sys.executable, "-m", "engine.selfplay", "--mode", "table",
                            "--players", "3", "--seed", "7", "--bot", "random"], cwd=ROOT,
                           capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(table.stdout)["players"] == 3
    replayed = subprocess.run([sys.executable, "-m", "engine.replay", str(game)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stderr
    with open(game) as f:
        assert json.loads(replayed.stdout) == json.load(f)["result"]
