"""The play screen (screen.py: Play, the game's flow and the player's keys; view.py: what it
shows; mapview.py: the track's map), its panels (actions.py, look.py, penalty.py, hint.py,
refusal.py) and the switches made while a game is on (plan.py: a bot's plan, hintplan.py:
the hint). None of them is in RAM while the menus are up (lnr/app.py)."""
