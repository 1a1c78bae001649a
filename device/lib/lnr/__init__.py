"""Lok'n'Roll on PyBadge-class boards: the device app, one module per concern."""
