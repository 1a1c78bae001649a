"""Board profiles: the only modules that touch pins. open_hardware() picks one by board_id.

Each profile builds a Hardware object with the attributes the app uses (display, next_key(),
pixels, nvm, ticks_ms(), wait_frame(): see pybadge.py). Only the chosen profile is imported,
so the other costs no RAM; and this package drops itself once it has picked (code.py calls
open_hardware() once): its code is not needed again, the profile's module stays with the
Hardware (RAM, docs/memory.md).
"""


def open_hardware():
    """Returns the Hardware of the board this runs on; raises RuntimeError on an unknown one.
    Drops this package (lnr.memory drop()) on the way out: call it once, through the package, and keep
    no reference to it (code.py)."""
    import board

    from lnr.memory import drop

    bid = board.board_id
    # The PyBadge LC and the EdgeBadge run the PyBadge build (docs/hardware.md); their pixel count
    # is a setting, not something the board can tell.
    if bid == "pygamer" or hasattr(board, "JOYSTICK_X"):
        from lnr.boards.pygamer import Hardware
    elif bid == "pybadge" or hasattr(board, "BUTTON_CLOCK"):
        from lnr.boards.pybadge import Hardware
    else:
        raise RuntimeError("no board profile for %s: PyBadge or PyGamer needed" % bid)
    drop("lnr.boards")  # picked (after the profile's import, which would load it again)
    return Hardware()
