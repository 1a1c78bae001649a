"""Whole games played by built-in bots, as `loknroll/1` records (docs/rules.md §10).

`play()` runs on MicroPython too. As a command:
    python -m engine.selfplay --mode MODE [--players N] --seed S [--bot NAME]
prints the record as JSON.
"""
from engine.state import MODE_NAMES
from engine.record import Recorder
from engine.bots import BOTS
from engine.playout import seeded, steps

# Bots of the desktop alone: their modules are never shipped to the board (tools/flash/imports.py).
DESKTOP_BOTS = ("coach", "coach-best", "coach-ntuple")


def bot_names():
    """Returns the names of every bot: the board's (engine.bots.BOTS) and the desktop's."""
    return sorted(BOTS) + list(DESKTOP_BOTS)


def find_bot(name):
    """Returns the bot called `name` (a function (state, rng) -> action), or None."""
    if name == "coach":
        from engine.coach import coach_bot

        return coach_bot
    if name == "coach-best":
        from engine.coach import coach_best_bot

        return coach_best_bot
    if name == "coach-ntuple":
        from engine.coach import coach_ntuple_bot

        return coach_ntuple_bot
    return BOTS.get(name)


def play(mode, seed, players=None, bot=None):
    """Returns the record (a dict) of a whole game of `mode` ("solo", "challenge", "rival" or
    "table") from `seed`, every human seat played by `bot` (a name from bot_names(), default
    "random"); the rival seat follows its fixed rules (§8)."""
    if mode not in MODE_NAMES:
        raise ValueError("unknown mode %s: one of %s" % (mode, ", ".join(MODE_NAMES)))
    choose = find_bot(bot or "random")
    if choose is None:
        raise ValueError("unknown bot %s: one of %s" % (bot, ", ".join(bot_names())))
    state, chance, bot_rng = seeded(MODE_NAMES.index(mode), seed, players)
    recorder = Recorder(state)
    for action in steps(state, chance, choose, bot_rng):
        recorder.apply(state, action)
    return recorder.record


# Seeds of engine.rng: any below 2**30 keeps every intermediate below 2**30 on a board.
SEED_MAX = (1 << 30) - 1


def main(argv=None):
    import json
    import sys

    from engine.replay import one_line_parser, whole

    parser = one_line_parser("python -m engine.selfplay",
                             "Play a whole game with bots; print its record.")
    parser.add_argument("--mode", required=True, choices=MODE_NAMES)
    parser.add_argument("--players", type=whole(1, 4), default=None,
                        help="seats (table: 2-4; other modes have a fixed number)")
    parser.add_argument("--seed", type=whole(0, SEED_MAX), required=True)
    parser.add_argument("--bot", default="random", choices=bot_names())
    args = parser.parse_args(argv)
    try:
        record = play(args.mode, args.seed, args.players, args.bot)
    except ValueError as e:
        print("selfplay: %s" % e, file=sys.stderr)
        return 2
    json.dump(record, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
