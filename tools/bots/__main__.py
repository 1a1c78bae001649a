"""`python -m tools.bots bench|cost|tune|train|compare|weights-ram|review|records [ARGS...]`:
the bots on the desktop: their strength and speed (`make bench`), their decisions' cost in
CircuitPython's instructions, fitting their weights (least squares, or temporal differences),
two weights played on the same seeds, their RAM on the board, a game's review, and the games a
board or the simulator saved.

    bench    python -m tools.bots.bench
    cost     python -m tools.bots.cost
    tune     python -m tools.bots.tune
    train    python -m tools.bots.train
    compare  python -m tools.bots.compare
    weights-ram  python -m tools.bots.weights_ram
    review   python -m tools.bots.review
    records  python -m tools.bots.records
"""
from tools.commands import dispatch

COMMANDS = {
    "bench": "tools.bots.bench",
    "cost": "tools.bots.cost",
    "tune": "tools.bots.tune",
    "train": "tools.bots.train",
    "compare": "tools.bots.compare",
    "weights-ram": "tools.bots.weights_ram",
    "review": "tools.bots.review",
    "records": "tools.bots.records",
}

dispatch("bots", COMMANDS, __doc__)
