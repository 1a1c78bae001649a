"""The dice and the loco's run on the play screen (lnr/play/screen.py's docstring says what they
show): the dice rolled one at a time, then the loco card by card on the map, a broken card
flashing, a derailment blinking, the penalty cards leaving the track's start.

The play screen loads this module as a roll or a run begins and drops it once the run is over,
before the penalty order or the result panel loads (Play.start_roll, Play.start_run,
Play.timed_step): its code is in RAM only while the screen is busy showing them, not while the
player chooses (docs/memory.md). The run's place (Play.run_*, Play.dice) is the screen's, which
its View reads; the steps' timing is here.
"""
from adafruit_ticks import ticks_diff
from engine.cards import KIND, KIND_BROKEN
from engine.state import A_ROLL0
from lnr import sprites
from lnr.play.mapview import cell_x, cell_y
from lnr.play.view import S_ROLL, S_RUN, risk_text, risk_colour, side_text
from lnr.ui import MAP_W, MAP_H, YELLOW

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


DIE_MS = const(160)  # between two dice
STEP_MS = const(250)  # the loco from one card to the next
BROKEN_MS = const(600)  # on a broken card: it flashes
DERAIL_MS = const(900)  # beside the track's end: it blinks
PEN_MS = const(300)  # a penalty card leaving the track's start
ROLLED_MS = const(600)  # every die of a roll, before the run
_BLINK_MS = const(100)

# ------------------------------------------------------------------ dice


def start_roll(play):
    """Rolls the build's dice one at a time on a timer (the engine is in P_DICE)."""
    g = play.game
    s = g.state
    play.dice = []
    play.dice_total = s.dice_left
    play.summary = False
    view = play.view
    view.hide_toast()
    ui = play.ui
    ui.clear_panel()
    g.actor = s.seat
    n = s.dice_left
    ui.pline(0, "%s: %d di%s" % (g.name(s.seat), n, "e" if n == 1 else "ce"), YELLOW)
    ui.pline(4, "Track ahead: %d" % s.ahead())
    num, den = s.build_risk()
    ui.pline(5, risk_text(num, den, "Derail"), risk_colour(num, den))
    hit = s.broken_risk()  # a broken card ahead costs a penalty card too (§5)
    if hit is not None:
        ui.pline(6, risk_text(hit[0], hit[1], "Broken card"), risk_colour(hit[0], hit[1]))
    draw_dice(play)
    ui.show(ui.play, True)
    play.app.leds.dice(play.dice, play.dice_total)
    play.sfx("dice")
    play.wait(S_ROLL, DIE_MS)
    play.app.dirty = True


def roll_step(play):
    """The next die; after the last, the loco's run."""
    g = play.game
    s = g.state
    last = s.dice_left == 1
    keep = (s.cells[:], s.bends[:], s.loco) if last else None
    v = s.build_value
    n = s.build_sum // v if v else 0  # the cards laid (§4: all of one value)
    action = s.sample_chance(g.rng)
    s.apply(action)
    play.dice.append(action - A_ROLL0)
    draw_dice(play)
    play.app.leds.dice(play.dice, play.dice_total)
    play.app.dirty = True
    if last:
        wheels = 0
        for d in play.dice:
            wheels += d
        name = g.name(g.actor)
        plural = "" if wheels == 1 else "s"
        # The result names the build (22 characters), the run's toast the wheels (18).
        laid = "a %d" % v if n == 1 else "%dx%d" % (n, v)
        g.title = "%s laid %s: %d wheel%s" % (name, laid, wheels, plural)
        if len(g.title) > 22:
            g.title = "%s %s: %d wheel%s" % (name, laid, wheels, plural)
        play.start_run(keep, "%s: %d wheel%s" % (name, wheels, plural), True)
    else:
        play.wait(S_ROLL, DIE_MS)


def draw_dice(play):
    # The dice row: those rolled, then those still to roll.
    cards = play.ui.cards
    n = len(play.dice)
    for i in range(16):
        if i < n:
            t = sprites.T_DIE + play.dice[i]
        elif i < play.dice_total:
            t = sprites.T_DIE + 2
        else:
            t = sprites.T_NONE
        cards[i % 8, i // 8] = t

# ------------------------------------------------------------------ the loco's run


def start_run(play, keep, toast, rolled):
    """Shows the loco's run of the action just applied; `keep` is (cells, bends, loco) from
    before it, for the penalty cards it took off the track's start; `rolled`: after a build's
    dice, which stay on screen a while first (every die seen, its LED too)."""
    cells, bends, loco = keep
    g = play.game
    s = g.state
    n = s.taken  # §6, D4: the cards taken from the start are s.penalty, in that order
    play.run_track = s.penalty[:n] + s.track
    play.run_bends = bends[:n] + s.bends
    play.run_cells = cells[:n] + s.cells
    play.run_at = loco
    play.run_len = s.moved
    play.run_off = s.derail_left > 0
    play.run_gone = n
    play.run_first = 0
    play.run_i = -1
    play.blink = 0
    play.summary = False
    play.drew = play.drawn()
    play.view.toast(toast or g.title, True)  # under the dice it waits for the map
    if rolled:
        play.wait(S_RUN, ROLLED_MS)
        return False
    return run_step(play)


def run_step(play):
    """One step of the run: the map with the loco where it starts (no panel hides it), the
    loco onto the next card, off the end, or one penalty card gone. Returns True once the last
    is shown: the run is over (the screen goes on to the penalty order or the result)."""
    i = play.run_i
    play.run_i = i + 1
    play.blink = 0
    view = play.view
    view.b_on = -1
    if i < 0:
        play.dice = []  # a roll's are over
        play.ui.show(play.ui.play)
        play.wait(S_RUN, STEP_MS)
        view.draw()
        return False
    leds = play.app.leds
    if i < play.run_len:
        play.run_at += 1
        if KIND[play.run_track[play.run_at]] == KIND_BROKEN:  # D1: it costs a penalty card
            play.sfx("broken")
            leds.broken_hit()
            play.blink = 1
            play.wait(S_RUN, BROKEN_MS)
        else:
            play.sfx("run")
            play.wait(S_RUN, STEP_MS)
        view.draw()
        return False
    i -= play.run_len
    if play.run_off:
        if i == 0:  # §5: no card left for a run: it derails
            play.run_at = len(play.run_track)
            play.sfx("derail")
            leds.derail()
            play.blink = 2
            play.wait(S_RUN, DERAIL_MS)
            view.draw()
            return False
        i -= 1
    if i <= play.run_gone and play.run_gone:  # each framed, then gone; then a last look
        play.run_at = len(play.run_track) - play.game.state.ahead() - 1  # back on its card
        play.run_first = i
        if i:
            play.sfx("lay")
        play.wait(S_RUN, PEN_MS)
        view.draw()
        return False
    play.run_track = play.run_bends = play.run_cells = None
    return True


def draw_run(view):
    """Draws the run (View.draw while one is shown): the loco and as much ahead of it as
    fits, then the track's start while the penalty cards leave it."""
    p = view.play
    s = p.game.state
    m = view.map
    end = s.target()
    n = len(p.run_cells)
    pen = p.run_i > p.run_len + (1 if p.run_off else 0)  # the penalty cards leave
    if pen:  # the track's start
        m.frame(p.run_cells, 0, p.run_at, end)
    elif p.run_at < n:  # the loco first, and as much ahead of it as fits
        m.frame(p.run_cells, p.run_at, n, end)
    else:  # derailed: beside the end, and the track it left
        m.frame(p.run_cells, n, 0, end)
    m.paint(p.run_track, p.run_bends, p.run_cells, s.head, p.run_at, p.run_first, end)
    ui = view.ui
    if p.blink == 1:
        view.b_tile = ui.map[ui.loco.x // 16, ui.loco.y // 16]
    if pen and p.run_first < p.run_gone:  # the frame on the card leaving next
        c = p.run_cells[p.run_first]
        x = cell_x(c) - m.ox
        y = cell_y(c) - m.oy
        if 0 <= x < MAP_W and 0 <= y < MAP_H:
            ui.frame.x = 16 * x
            ui.frame.y = 16 * y
            ui.frame.hidden = False
    view.place_toast()
    view.draw_hand()
    view.draw_side()
    # The cards ahead of the loco where it is drawn, not where the run will leave it.
    ahead = len(p.run_track) - 1 - p.run_at
    if ahead < 0:
        ahead = 0
    ui.put(ui.side[6], side_text("Ahead", str(ahead)))
    view.app.leds.progress(ahead, len(p.run_track))
    view.app.dirty = True


def blink_frame(view, now):
    """The broken card under the loco flashes; the derailed loco blinks (every 100 ms)."""
    p = view.play
    on = (ticks_diff(p.due, now) // _BLINK_MS) & 1
    if on == view.b_on:
        return
    view.b_on = on
    ui = view.ui
    if p.blink == 1:
        ui.map[ui.loco.x // 16, ui.loco.y // 16] = view.b_tile if on else sprites.T_EMPTY
    else:
        ui.loco.hidden = not on
    view.app.dirty = True
