"""`python -m tools.bots bench|tune|train|weights-ram|review|records [ARGS...]`: the bots on the
desktop: their strength and speed (`make bench`), fitting their weights (least squares, or
temporal differences) and their RAM on the board, a game's review, and the games a board or the
simulator saved.

    bench    python -m tools.bots.bench
    tune     python -m tools.bots.tune
    train    python -m tools.bots.train
    weights-ram  python -m tools.bots.weights_ram
    review   python -m tools.bots.review
    records  python -m tools.bots.records
"""
from tools.commands import dispatch

COMMANDS = {
    "bench": "tools.bots.bench",
    "tune": "tools.bots.tune",
    "train": "tools.bots.train",
    "weights-ram": "tools.bots.weights_ram",
    "review": "tools.bots.review",
    "records": "tools.bots.records",
}

dispatch("bots", COMMANDS, __doc__)
