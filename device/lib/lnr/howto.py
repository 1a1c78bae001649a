"""How to play: short pages of at most 7 lines of 26 characters (RULES.md in brief).

Imported only when the page is shown, so its strings cost no RAM during a game.
"""
PAGES = (
    ("Lay track, roll dice: the",
     "loco moves 1 card per",
     "wheel. No track left and",
     "it DERAILS: 1 penalty card",
     "per move left. Penalty",
     "cards come from the start",
     "of the track. Low score!"),
    ("Your turn: draw, then",
     "BUILD: lay cards of one",
     "value (never 1 by 3 or",
     "2 by 4), roll their sum",
     "in dice. PASS: loco +1,",
     "1 penalty. CHAOS: discard",
     "chaos cards, no penalty."),
    ("Penalty cards go on your",
     "pile: a card on an equal",
     "value leaves with it. The",
     "red X: broken track costs",
     "1 penalty when entered.",
     "Score: hand + pile. The",
     "deck runs out: game over."),
    ("D-pad: choose a card",
     "A: lay it / confirm",
     "B: back, undo the build",
     "START: menu (pass, build,",
     "chaos, hint, save & quit)",
     "SELECT: look at the track",
     "LEDs: track ahead, risk"),
)
