"""`python -m tools.bots bench|tune|review|records [ARGS...]`: the bots on the desktop: their strength
and speed (`make bench`), fitting their weights, a game's review, and the games a board or the
simulator saved.

    bench    python -m tools.bots.bench
    tune     python -m tools.bots.tune
    review   python -m tools.bots.review
    records  python -m tools.bots.records
"""
from tools.commands import dispatch

COMMANDS = {
    "bench": "tools.bots.bench",
    "tune": "tools.bots.tune",
    "review": "tools.bots.review",
    "records": "tools.bots.records",
}

dispatch("bots", COMMANDS, __doc__)
