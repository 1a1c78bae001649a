"""Screenshots of the device app's main screens for the README (`make screenshots`).

    python -m tools.art screenshots [--out docs/screenshots] [--scale 2] [NAME ...]

Each picture is the headless simulator's final screen (with the NeoPixel strip under it)
after a key script from tools/sim/app_script.py: seeds where the situation happens are searched
with the engine, so the pictures show real positions of real games. A picture replaces only a
file of its name that these tools wrote (tools/cli.py: the PNG's mark), unless --force; bad
arguments: one line and exit status 2, before any picture is made.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools import cli  # noqa: E402
from tools.sim import fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.app_script import (  # noqa: E402
    Model, SETTLE, find, derailing_card, frames, rival_draws_chaos, roll_frames, two_bends,
    STEP_MS, DERAIL_MS, PEN_MS,
)
from engine.cards import KIND, KIND_CHAOS, SHAPE, SHAPE_CURVE, VALUE  # noqa: E402
from engine.state import (  # noqa: E402
    A_LAY, A_CHAOS, P_BUILD, MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL,
    MODE_TABLE,
)


# The pictures scripts() and runs() make, in their order (docs/screenshots/NAME.png).
NAMES = ("title", "mode_select", "records", "settings", "how_to_play", "play", "action_menu",
         "bend_choice", "turn_result_derailed", "penalty_order", "game_over", "opponents",
         "seats", "opponent_chaos", "risk_roll", "hint", "records_history", "seed_entry",
         "move", "move_derailed", "move_penalty")


def _order_panel(m):
    card = derailing_card(m)
    if card is None:
        return None
    t = Model(m.state.mode, m.game.seed)
    t.build(card)
    return card if t.order_at >= 0 else None


def _layable(m):
    s = m.state
    for c in s.hands[0]:
        if KIND[c] != KIND_CHAOS and s.why_not(A_LAY + c) is None:
            return c
    return None




def _long_run(m):
    # A card whose build moves the loco 3 cards or more, then derails taking 2 or more.
    for c in m.state.hands[0]:
        if KIND[c] != KIND_CHAOS and m.state.why_not(A_LAY + c) is None:
            t = m.after_build(c)
            if t.moved >= 2 and t.derail_left and t.taken >= 2 and not t.hits:
                return c
    return None


def _builds_on(m):
    # A straight after which the build can grow (the roll button and "Roll" risk show).
    s = m.state
    for c in s.hands[0]:
        if KIND[c] != KIND_CHAOS and SHAPE[c] != SHAPE_CURVE and s.why_not(A_LAY + c) is None:
            t = s.clone()
            t.apply(A_LAY + c)
            if t.phase == P_BUILD:
                return c
    return None


def _hint_curve_and_more(m):
    # A first turn where the hint names a curve and more cards after it: what the hint shows
    # (lnr/play/hintplan.py), the look-ahead's choice and the plan it weighed after it.
    from tools.sim.hints import find as find_hint

    found = find_hint(m.state.clone())
    if found is None:
        return None
    action, _, head, _, _ = found
    if not A_LAY <= action < A_CHAOS or SHAPE[action - A_LAY] != SHAPE_CURVE:
        return None  # not a card laid (a chaos card's action is past the cards laid)
    return ", then " in " ".join(head) or None  # cards added after it


def runs():
    """Returns (name, seed, keys) of the pictures taken while a loco's run is shown (named
    move*.png, as the README shows them): the keys stop that many frames into it (no frame is
    added after them)."""
    seed, card = find(MODE_SOLO, _long_run, range(1, 3000))
    m = Model(MODE_SOLO, seed)
    t = m.after_build(card)
    m.build(card)
    roll = m.keys[:m.roll_at]
    dice = roll_frames(VALUE[card])  # a build of one card rolls its value in dice
    on_way = frames(STEP_MS) + 3  # one card on from where it stood
    off = frames(STEP_MS) * (1 + t.moved) + 6  # the derailed loco blinks: shown then
    leaving = off + frames(DERAIL_MS) + frames(PEN_MS)
    return [("move", seed, roll + ["WAIT*%d" % (dice + on_way)]),
            ("move_derailed", seed, roll + ["WAIT*%d" % (dice + off)]),
            ("move_penalty", seed, roll + ["WAIT*%d" % (dice + leaving)])]


def scripts():
    """Returns (name, seed, keys) per screenshot."""
    out = [("title", 1, [SETTLE]),
           ("mode_select", 1, ["A", "DOWN", "DOWN", SETTLE]),
           ("records", 1, ["DOWN", "A", SETTLE]),
           ("settings", 1, ["DOWN", "DOWN", "A", "DOWN", SETTLE]),
           ("how_to_play", 1, ["DOWN", "DOWN", "DOWN", "A", SETTLE])]
    # Play: a rival game some turns in, the cursor on a card that fits (risk shown).
    m = Model(MODE_RIVAL, 21)
    m.play_simple(6)
    card = _layable(m)
    s = m.state
    right = s.hands[s.seat].index(card) if card is not None else 0
    # The rival's result stays over the hand until a key: the cursor's keys put it away.
    seen = ["RIGHT", "LEFT"] if m.summary and m.theirs else []
    out.append(("play", 21, m.keys + seen + ["RIGHT"] * right + [SETTLE]))
    out.append(("action_menu", 21, m.keys + ["START", SETTLE]))
    seed, card = find(MODE_SOLO, two_bends)
    m = Model(MODE_SOLO, seed)
    out.append(("bend_choice", seed, m.keys + ["RIGHT"] * m.state.hands[0].index(card)
                + ["A", SETTLE]))
    seed, card = find(MODE_SOLO, derailing_card)
    m = Model(MODE_SOLO, seed)
    m.build(card)
    out.append(("turn_result_derailed", seed, m.keys[:m.result_at] + [SETTLE]))
    seed, card = find(MODE_SOLO, _order_panel, range(1, 2000))
    m = Model(MODE_SOLO, seed)
    m.build(card)
    out.append(("penalty_order", seed, m.keys[:m.order_at] + [SETTLE]))
    m = Model(MODE_SOLO, 8)
    m.play_simple()
    out.append(("game_over", 8, m.keys + [SETTLE]))
    # The opponents: a bot's action summed up with every seat's numbers, the seats board.
    m = Model(MODE_TABLE, 14)
    m.play_simple(4)
    out.append(("opponents", 14, m.keys + [SETTLE]))
    out.append(("seats", 14, m.keys + ["SELECT", SETTLE]))
    # An opponent's chaos turn: the rival put the chaos card it drew on its pile (§8).
    seed, _ = find(MODE_RIVAL, rival_draws_chaos, range(1, 60))
    m = Model(MODE_RIVAL, seed)
    rival_draws_chaos(m)
    out.append(("opponent_chaos", seed, m.keys + [SETTLE]))
    # The risk of the build so far ("Roll"), on the roll button after a lay; the hint.
    seed, card = find(MODE_SOLO, _builds_on)
    m = Model(MODE_SOLO, seed)
    out.append(("risk_roll", seed, m.keys + ["RIGHT"] * m.state.hands[0].index(card)
                + ["A", SETTLE]))
    seed, _ = find(MODE_SOLO, _hint_curve_and_more, range(1, 3000))
    m = Model(MODE_SOLO, seed)
    out.append(("hint", seed, m.keys + ["START", "DOWN", "DOWN", "DOWN", "A", SETTLE]))
    # Records with a history: two solo games and a challenge (seeds 8, 9, 10), scrolled to
    # the last games; the New game screen typing a shared deal's seed.
    keys = []
    for mode, seed in ((MODE_SOLO, 8), (MODE_SOLO, 9), (MODE_CHALLENGE, 10)):
        m = Model(mode, seed)
        m.play_simple()
        keys += m.keys + [SETTLE, "A"]
    out.append(("records_history", 8, keys + ["DOWN", "A", "DOWN", "DOWN", "DOWN", SETTLE]))
    out.append(("seed_entry", 1, ["A", "DOWN", "DOWN", "DOWN", "DOWN", "A", "UP", "RIGHT", "UP",
                                  "UP", "RIGHT", "UP", "UP", "UP", SETTLE]))
    return out


def main(argv=None):
    parser = cli.Parser(prog="python -m tools.art screenshots", description=__doc__.split(
        "\n")[0])
    parser.add_output("--out", folder=True, mine=None,
                      default=os.path.join(ROOT, "docs", "screenshots"))
    parser.add_argument("--scale", type=cli.whole(1, 16), default=2)
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="only these screenshots (default: all): " + ", ".join(NAMES))
    args = parser.parse_args(argv)
    for name in args.names:
        if name not in NAMES:
            parser.error("no screenshot %r: one of %s" % (name, ", ".join(NAMES)))
    wanted = args.names or NAMES
    for name in wanted:  # every picture's file checked before the first is made
        path = os.path.join(args.out, name + ".png")
        problem = cli.output_problem(path, cli.is_our_png, args.force)
        if problem and os.path.isdir(args.out):
            parser.error("%s: %s" % (path, problem))
    os.makedirs(args.out, exist_ok=True)
    shots = [(name, seed, keys, 120) for name, seed, keys in scripts()]
    shots += [(name, seed, keys, 0) for name, seed, keys in runs()]
    for name, seed, keys, settle in shots:
        if name not in wanted:
            continue
        with sim_fast.fast():
            r = sim.run_headless(keys, seed=seed, render_every=0, settle=settle)
        if not r.ok:
            sys.stderr.write(r.error)
            return 1
        path = os.path.join(args.out, name + ".png")
        r.save_png(path, args.scale)
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
