"""Watchers of a hot-seat table (several people pass the device) for the headless simulator's
on_frame hook, each an oracle apart from the app's own flow:

Secrets: docs/rules.md §3.5, each hand is kept secret. The device may be held by a person
from the A that takes up their handoff to the A or B that puts their own turn's result away
(after it they may hand it on); the screen shows nothing private of anyone else, and nothing
private at all while nobody holds it: no card face in the hand row, no name, score or pile top
in the side panel (where no panel covers it), no derailment risk of a card (the hand row's and
side panel's tiles and text).

Turns: what each turn did, read from the engine State as the frames go (its seat, the cards it
laid, its chaos cards, its derailment, the penalty cards it put on the pile), and at each
handoff the panel's lines: the turns since that person's last, each by its player, what it did
and what it cost.
"""
from engine.cards import KIND, KIND_CHAOS
from lnr import sprites
from lnr.keys import K_A, K_B
from lnr.play.mapview import card_bottom, card_top
from lnr.play.view import S_HANDOFF
from lnr.screens import SC_PLAY
from lnr.ui import HAND_N
from tools.sim.screen_text import lines_text

_BUTTON = (sprites.T_ROLL, sprites.T_DONE)


def _app(hw):
    return hw.caller.f_locals.get("app") if hw.caller is not None else None


def _hot_seat(app):
    # The play screen of a game of several people, or None.
    game = app.game if app is not None else None
    if game is None or app.play is None or app.screen != SC_PLAY or game.humans() < 2:
        return None
    return game


class Secrets:
    """The on_frame check that nothing private of one person shows while another may hold the
    device. `keys`: the keys pressed, in order (hw.delivered counts those the app read)."""

    def __init__(self, keys):
        self.keys = keys
        self.holder = -1  # the person who holds the device, -1: nobody known
        self.turn = -1  # the turn they took up
        self.game = None
        self.last = None  # (busy, turn, step) at the last frame's end
        self.read = 0
        self.frames = 0  # frames checked
        self.shown = 0  # of them, with a person's cards on screen
        self.handoffs = 0
        self.presses = 0  # keys read during hot-seat games

    def __call__(self, hw):
        app = _app(hw)
        keys = self.keys[self.read:hw.delivered]  # read in this frame
        self.read = hw.delivered
        game = _hot_seat(app)
        if game is None:
            self.game = self.last = None
            return
        if game is not self.game:  # a new game or one resumed: it starts at a handoff
            self.game = game
            self.holder = -1
            self.last = None
        play = app.play
        s = game.state
        self.presses += len(keys)
        if self.last is not None and keys:
            busy, turn, step = self.last
            if step == S_HANDOFF and play.step != S_HANDOFF:
                self.holder = s.seat
                self.turn = s.turn
                self.handoffs += 1
            elif self.holder >= 0 and not busy and turn != self.turn and (
                    K_A in keys or K_B in keys):
                self.holder = -1  # their turn's result put away: the device may go on
        self.last = (play.busy(), s.turn, play.step)
        self.check(app, game)

    def check(self, app, game):
        ui = app.ui
        if ui.play.hidden:
            return
        self.frames += 1
        s = game.state
        faces = []
        for i in range(HAND_N):
            top, bottom = ui.hand[i, 0], ui.hand[i, 1]
            if top != sprites.T_NONE and top not in _BUTTON:
                faces.append((top, bottom))
        # The side panel shows unless the panel (opaque, the screen's width) is over it.
        side = lines_text(ui.side) if ui.panel.hidden else [""] * 8
        where = "turn %d, seat %d, holder %d, step %d" % (s.turn, s.seat, self.holder,
                                                          app.play.step)
        if self.holder < 0:
            assert not faces, "a hand shows while nobody holds the device: " + where
            assert side[0] == side[1] == side[2] == "", (side, where)
            assert side[7] == "", (side, where)  # a card's risk tells of the card
            return
        if faces:
            self.shown += 1
        allowed = [(card_top(c), card_bottom(c)) for c in s.hands[self.holder]]
        for face in faces:
            assert face in allowed, "a card not the holder's shows: " + where
            allowed.remove(face)
        assert side[0] in ("", game.name(self.holder)), (side, where)


class Turns:
    """The on_frame record of each turn from the engine State, and the check of each handoff
    panel against it (see the module docstring)."""

    def __init__(self):
        self.game = None
        self.start = None  # the State's figures at the turn's start
        self.done = []  # (seat, laid, chaos, derailed, taken) of each turn ended, in order
        self.checked = 0  # handoff panels checked
        self.told = 0  # turns they told
        self._step = None

    @staticmethod
    def figures(s):
        seat = s.seat
        chaos = sum(1 for c in s.hands[seat] if KIND[c] == KIND_CHAOS)
        return (s.turn, seat, len(s.hands[seat]), chaos, s.derails,
                len(s.piles[seat]) + len(s.box))

    def __call__(self, hw):
        app = _app(hw)
        game = _hot_seat(app)
        if game is None:
            self.game = None
            return
        s = game.state
        if game is not self.game:
            self.game = game
            self.done = []
            self.start = self.figures(s)
        turn, seat, hand, chaos, derails, put = self.start
        if s.turn != turn:
            assert s.turn == turn + 1, "two turns ended in one frame"
            # The turn ended: the draw that began the next is the next seat's (§4).
            now_chaos = sum(1 for c in s.hands[seat] if KIND[c] == KIND_CHAOS)
            out = chaos - now_chaos
            laid = hand - len(s.hands[seat]) - out
            taken = len(s.piles[seat]) + len(s.box) - put - out
            self.done.append((seat, laid, out, s.derails > derails, taken))
            self.start = self.figures(s)
        play = app.play
        if play.step == S_HANDOFF and self._step != S_HANDOFF:
            self.check(app, game)
        self._step = play.step

    def check(self, app, game):
        s = game.state
        lines = lines_text(app.ui.plines)
        name = game.name(s.seat)
        since = self.done[-(s.players - 1):] if self.done else []
        text = "\n".join(lines)
        assert name in lines[6] and "press A" in lines[6], lines  # whose turn it is
        first = 0 if len(since) > 2 else 1
        for k, (seat, laid, out, derailed, taken) in enumerate(since):
            title = lines[first + 2 * k]
            cost = lines[first + 2 * k + 1]
            assert title.startswith(game.name(seat)), (k, since, text)
            if out:
                assert "chaos" in title, (k, since, text)
                assert "enalty" not in cost or cost == "No penalty", (k, since, text)
            elif laid:  # "P3 laid a 2: 2 wheels", "P3 laid 2x4: ...", "P3 2x4: ..."
                assert "laid" in title or "x" in title, (k, since, text)
            else:
                assert "pass" in title, (k, since, text)
            assert cost.startswith("Derailed") == derailed, (k, since, text)
            if not out:
                want = "penalty %d" % taken if taken else "no penalty"
                assert cost.lower().endswith(want), (k, since, text, want)
        self.checked += 1
        self.told += len(since)
