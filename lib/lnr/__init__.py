"""Lok'n'Roll on PyBadge-class boards: the device app, one module per concern (its RAM, the
switch between the menus and a game, and what it turns down when the heap is short:
lnr/memory)."""
