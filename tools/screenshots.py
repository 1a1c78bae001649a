"""Screenshots of the device app's main screens for the README (`make screenshots`).

    python -m tools.screenshots [--out docs/screenshots] [--scale 2]

Each picture is the headless simulator's final screen (with the NeoPixel strip under it)
after a key script from tools/app_script.py: seeds where the situation happens are searched
with the engine, so the pictures show real positions of real games.
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools import sim, sim_fast  # noqa: E402
from tools.app_script import Model, SETTLE, find, derailing_card  # noqa: E402
from engine.cards import KIND, KIND_CHAOS, SHAPE, SHAPE_CURVE  # noqa: E402
from engine.state import (  # noqa: E402
    A_LAY, A_BEND_L, A_BEND_R, MODE_SOLO, MODE_CHALLENGE, MODE_RIVAL,
)


def _two_bends(m):
    s = m.state
    for c in s.hands[0]:
        if SHAPE[c] == SHAPE_CURVE and s.why_not(A_LAY + c) is None:
            t = s.clone()
            t.apply(A_LAY + c)
            if t.legal_actions() == [A_BEND_L, A_BEND_R]:
                return c
    return None


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
    out.append(("play", 21, m.keys + ["RIGHT"] * right + [SETTLE]))
    out.append(("action_menu", 21, m.keys + ["START", SETTLE]))
    seed, card = find(MODE_SOLO, _two_bends)
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
    parser = argparse.ArgumentParser(prog="python -m tools.screenshots", description=__doc__)
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "screenshots"))
    parser.add_argument("--scale", type=int, default=2)
    parser.add_argument("names", nargs="*", help="only these screenshots (default: all)")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for name, seed, keys in scripts():
        if args.names and name not in args.names:
            continue
        with sim_fast.fast():
            r = sim.run_headless(keys, seed=seed, render_every=0, settle=120)
        if not r.ok:
            sys.stderr.write(r.error)
            return 1
        path = os.path.join(args.out, name + ".png")
        r.save_png(path, args.scale)
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
