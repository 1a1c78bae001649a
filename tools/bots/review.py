"""Reviews a game: at each of a player's decisions, what the coach would have done.

    python -m tools.bots review RECORD.json [--seat N] [--png PICTURE.png] [--samples 32]
                                       [--seed 0]

RECORD.json is any `loknroll/1` record (docs/rules.md §10): the desktop's (engine.selfplay) or
one taken off a board. The game is replayed step by step (engine.record) and at every decision
of the seat (the person's: seat 0, or 1 against the rival) that had more than one real choice,
the coach (engine.coach) tries the choice made and its own on the same samples of what the seat
could not see, `best`'s planner playing each on for a few turns (engine.coach.HORIZON) and its
estimate valuing the rest. The report gives per decision the coach's choice in the hint's words
(engine.advice), the expected final score after each choice and the points lost; then the
biggest mistakes and the total. --png draws the expected final score turn by turn.

An expected final score is what the game would end at on average if `best` played on after
that choice (the coach's samples: a few turns played, the rest by `best`'s estimate); the points
lost are the difference from the coach's choice, in the coach's measure (docs/rules.md §7
score; a lost challenge counts 40 more, §8; against the rival, less the rival's cards, §8).
Reproducible: the same --seed gives the same review.

Exit status 0; 2 for bad arguments or input (the record not a loknroll/1 game, a seat it does not
have, --samples out of 1..SAMPLES_MAX, a --png that can't be written or is a file these tools
did not write), with one line on standard error, all checked before the review's minutes of
work.
"""
import json
import sys
import time

from engine.advice import why
from engine.ai import Planner, follow
from engine.cards import card_name
from engine.coach import SAMPLES, Coach, options, outcome, playout_table, same_choice
from engine.codes import PHASE_NAMES
from engine.record import RecordError, replay
from engine.replay import RECORD_MAX
from engine.rng import Rng
from engine.selfplay import SEED_MAX
from engine.state import (
    A_PASS, A_STOP, A_BEND_L, A_BEND_R, A_LAY, A_CHAOS, A_PILE, MODE_CHALLENGE, MODE_RIVAL,
    P_BEND, P_BUILD, P_CHAOS, P_ORDER, P_TURN,
)
from tools import cli

_DECISIONS = (P_TURN, P_BEND, P_BUILD, P_CHAOS, P_ORDER)
_STREAM_REVIEW = 4  # the review's rng stream (engine.selfplay uses 0 and 1)
SAMPLES_MAX = 1000  # the coach's samples per close call at most (it takes 32: a long review)


class Decision:
    """One reviewed decision: where (turn, phase), the choice made and the coach's, each
    with its engine.coach Estimate, and the words for both."""

    def __init__(self, state, played, mine, best, words):
        self.turn = state.turn
        self.phase = state.phase
        self.played = played
        self.mine = mine
        self.best = best
        self.you, self.coach = words

    def lost(self):
        """Returns the points the choice made loses against the coach's (0 if the same)."""
        if self.mine is self.best:
            return 0.0
        return max(0.0, self.mine.mean() - self.best.mean())


def review(record, seat=None, samples=SAMPLES, seed=0):
    """Returns (the seat reviewed, [Decision], final State) for a record (a dict)."""
    found = []
    rng = Rng(seed, _STREAM_REVIEW)

    def observe(state, action):
        if state.phase in _DECISIONS and state.seat == found_seat[0]:
            d = decide(state, action, rng, samples)
            if d is not None:
                found.append(d)

    mode = record.get("mode")
    found_seat = [seat if seat is not None else (1 if mode == "rival" else 0)]
    final = replay(record, observe)
    return found_seat[0], found, final


def decide(state, played, rng, samples):
    """Returns the Decision at `state` where `played` was chosen, or None if there was no
    real choice (one option only, or a penalty order that leaves the same pile)."""
    s = state.clone()
    acts = options(s)
    if len(acts) < 2:
        return None
    table = playout_table(s.mode)  # the coach's: its rollouts' planner
    planner = Planner(s, table)
    planner.options = {}
    plan = planner.choose()
    if s.phase == P_ORDER:
        # The order of penalty cards (§6): engine.ai's exact order is the coach's; a card of
        # the same value is the same choice.
        if same_choice(s, played, plan):
            return None
        acts = [plan, played]
    else:
        for a in acts:
            if same_choice(s, played, a):
                played_kind = a
                break
        else:  # a legal action is always one of the options
            raise RecordError(state.turn, "action %d is not an option here" % played)
        acts = [played_kind] + [a for a in acts if a != played_kind]
    coach = Coach(s, rng, table, samples=samples)
    est = coach.estimate(acts, keep=(acts[0] if s.phase != P_ORDER else played,))
    best = est[0]
    mine = None
    for e in est:
        if same_choice(s, played, e.action):
            mine = e
    if same_choice(s, played, best.action):
        best = mine
    words = (_words(s, played, planner, table), _words(s, best.action, planner, table))
    return Decision(s, played, mine, best, words)


def say(state, action):
    """Returns `action` in words, as the hint names it: "Pass", "Lay 4 curve", "Lay it, bend
    left", "Roll the dice", "Discard chaos 2", "Pile 3 straight", "Stop discarding"."""
    if action == A_PASS:
        return "Pass"
    if action == A_STOP:
        return "Stop discarding" if state.phase == P_CHAOS else "Roll the dice"
    if action >= A_PILE:
        return "Pile " + card_name(action - A_PILE)
    if action >= A_CHAOS:
        return "Discard " + card_name(action - A_CHAOS)
    if action >= A_LAY:
        return "Lay " + card_name(action - A_LAY)
    return "Lay it, bend " + ("left" if action == A_BEND_L else "right")  # the pending curve


def _after(state, action, table):
    # A build's copy of `state`: `action` and the cards and bends engine.ai's plan with `table`
    # lays after it, up to its dice (engine.ai follow(), as the hint names a build).
    t = state.clone()
    t.log = None
    t.apply(action)
    for a in follow(state, action, table):
        t.apply(a)
    return t


def _words(state, action, planner, table):
    # The hint's words (engine.advice): what the action is, and why in one line ("2 cards,
    # +5, Or lay 1 straight, risk 0%, Can't derail, Pass ends 0.7 lower").
    after = None
    if A_LAY <= action < A_CHAOS or action == A_BEND_L or action == A_BEND_R:
        after = _after(state, action, table)
    said, head, risk, tail = why(state, action, planner.options, None, after)
    name = say(state, action)
    parts = []
    for text in head:
        if text != name:  # "Roll the dice"
            parts.append(text[6:] if text.startswith("Pass: ") else text)
    if risk is not None:
        parts.append("risk %d%%" % ((risk[0] * 100 + risk[1] // 2) // risk[1]))
    return "%s (%s)" % (name, ", ".join(parts + tail + ([said] if said else [])))


def _expect(e, mode):
    # The expected final score after an option, with the share of lost challenges or won
    # rival games where that counts (§8).
    n = e.n()
    text = "%5.1f" % (e.scores / n)
    if mode == MODE_CHALLENGE:
        text += " (lost %2d%%)" % round(100 * e.lost / n)
    elif mode == MODE_RIVAL:
        text += " (won %3d%%)" % round(100 * e.won / n)
    return text


def report(record, seat, decisions, final, out):
    """Writes the review as text to `out`."""
    mode = final.mode
    result = final.result()
    out.write("Review of a %s game, seat %d: final score %d%s\n" % (
        record.get("mode"), seat, result["scores"][seat],
        " (lost)" if final.lost else (", rival %d" % result["scores"][0]
                                       if mode == MODE_RIVAL else "")))
    out.write("Expected final score: if `best` played on after the choice (the coach's "
              "samples).\n")
    if mode == MODE_CHALLENGE:
        out.write("Points lost count a lost challenge as 40 points (docs/rules.md §8).\n")
    elif mode == MODE_RIVAL:
        out.write("Points lost count your score less the rival's cards (docs/rules.md §8).\n")
    out.write("\n")
    out.write("%-4s %-6s %-36s %-36s %-17s %-17s %s\n" % (
        "turn", "step", "you", "coach", "you: expected", "coach: expected", "lost"))
    for d in decisions:
        same = d.mine is d.best
        out.write("%-4d %-6s %-36s %-36s %-17s %-17s %s\n" % (
            d.turn, PHASE_NAMES[d.phase], d.you[:36], "same" if same else d.coach[:36],
            _expect(d.mine, mode), "" if same else _expect(d.best, mode),
            "" if same else "%.1f" % d.lost()))
    worst = sorted((d for d in decisions if d.lost() > 0), key=lambda d: -d.lost())[:5]
    out.write("\nBiggest mistakes:\n")
    if not worst:
        out.write("  none: every choice was the coach's\n")
    for d in worst:
        out.write("  turn %d (%s): %.1f points: you chose %s; the coach: %s\n" % (
            d.turn, PHASE_NAMES[d.phase], d.lost(), d.you, d.coach))
    total = sum(d.lost() for d in decisions)
    same = sum(1 for d in decisions if d.mine is d.best)
    out.write("\nTotal: %.1f points lost over %d decisions with a choice (%d as the coach "
              "would have chosen).\n" % (total, len(decisions), same))


def per_turn(decisions):
    """Returns [(turn, expected final outcome after your choice, after the coach's)] at the
    first decision of each turn with a choice, the turn's start (the coach's measure: the
    score, a lost challenge 40 more, less the rival's cards against the rival)."""
    out = []
    seen = set()
    for d in decisions:
        if d.turn in seen:
            continue
        seen.add(d.turn)
        out.append((d.turn, d.mine.mean(), d.best.mean()))
    return out


def picture(decisions, final_score, path, title):
    """Writes a PNG of the expected final score turn by turn (per_turn) to `path`: your choice
    and the coach's, the points each turn lost as bars, the final score as a dashed line."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    points = per_turn(decisions)
    losses = {}
    for d in decisions:
        losses[d.turn] = losses.get(d.turn, 0.0) + d.lost()
    lost = [t for t in sorted(losses) if losses[t] > 0]
    fig = Figure(figsize=(8, 4.2), dpi=100, layout="constrained")
    ax = fig.subplots()
    ax.bar(lost, [losses[t] for t in lost], width=0.6, color="#eb786e",
           label="points lost that turn")
    ax.axhline(final_score, color="#787878", linestyle="--", label="final (%d)" % final_score)
    turns = [p[0] for p in points]
    ax.plot(turns, [p[2] for p in points], "o-", color="#289646", markersize=4,
            label="after the coach's choice")
    ax.plot(turns, [p[1] for p in points], "o-", color="#285ac8", markersize=4,
            label="expected after your choice")  # on top: where the two agree, yours
    ax.axhline(0, color="#282828", linewidth=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("turn")
    ax.grid(axis="y", color="#e1e1e1")
    ax.set_axisbelow(True)
    ax.set_title(title, loc="left")
    fig.legend(loc="outside lower center", ncols=4, fontsize="small", frameon=False)
    cli.write_output(path, cli.figure_png(fig))


class ReviewError(Exception):
    """Bad input or arguments; the message says which."""


def read_record(path):
    """Returns the record (a dict) read from the JSON file at `path`, or raises ReviewError."""
    try:
        data = cli.read_bytes(path, RECORD_MAX, "the record")
        record = json.loads(data.decode("utf-8"))
    except cli.CliError as e:
        raise ReviewError(str(e)) from None
    except ValueError as e:  # UnicodeDecodeError is a ValueError
        raise ReviewError("cannot read %s: %s" % (path, e)) from None
    except RecursionError:
        raise ReviewError("cannot read %s: it nests lists or objects too deeply" % path) from None
    if not isinstance(record, dict):
        raise ReviewError("%s is not a loknroll/1 record: a record is a JSON object" % path)
    return record


def check_arguments(record, args):
    """Raises ReviewError when the arguments do not fit the record: a seat it does not have
    (or the rival's)."""
    players = record.get("players")
    if args.seat is not None:
        if type(players) is int and not 0 <= args.seat < players:
            raise ReviewError("--seat %d: the game has seats 0 to %d" % (args.seat, players - 1))
        if record.get("mode") == "rival" and args.seat == 0:
            raise ReviewError("seat 0 is the rival, which follows fixed rules (§8)")


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.bots review", description=__doc__.split("\n")[0])
    parser.add_argument("record", help="a loknroll/1 record (JSON)")
    parser.add_argument("--seat", type=cli.whole(0, 3), default=None,
                        help="the seat to review (default: the person's: 1 against the rival, "
                             "else 0)")
    parser.add_output("--png", mine=cli.is_our_png,
                      help="write the expected final score turn by turn here")
    parser.add_argument("--samples", type=cli.whole(1, SAMPLES_MAX), default=SAMPLES,
                        help="the coach's samples per close call (fewer: faster, rougher)")
    parser.add_argument("--seed", type=cli.whole(0, SEED_MAX), default=0,
                        help="the coach's samples' seed")
    parser.epilog = "Exit status: 0 reviewed; 2 bad arguments or input."
    args = parser.parse_args(argv)
    try:
        record = read_record(args.record)
        check_arguments(record, args)
    except ReviewError as e:
        return cli.refuse("review", e)
    started = time.time()
    try:
        seat, decisions, final = review(record, args.seat, args.samples, args.seed)
    except RecordError as e:
        return cli.refuse("review", e)
    report(record, seat, decisions, final, sys.stdout)
    if args.png:
        measure = {MODE_CHALLENGE: " (a lost challenge: +40)",
                   MODE_RIVAL: " less the rival's cards"}.get(final.mode, "")
        picture(decisions, outcome(final, seat), args.png, "%s: expected final score%s, "
                "turn by turn" % (args.record.replace("\\", "/").split("/")[-1], measure))
        print("Picture: %s" % args.png)
    print("Reviewed in %.0f s." % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
