"""The menus (screen.py: Menus, title to game over), their text (labels.py) and the how-to
pages (howto.py). None of them is in RAM while a game is played (lnr/app.py)."""
