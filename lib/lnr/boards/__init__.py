"""Board profiles: the only modules that touch pins. open_hardware() picks one by board_id.

Each profile builds a Hardware object with the attributes the app uses (display, next_key(),
pixels, nvm, ticks_ms(), wait_frame(): see pybadge.py). Only the chosen profile is imported,
so the other costs no RAM.
"""


def open_hardware():
    """Returns the Hardware of the board this runs on; raises RuntimeError on an unknown one."""
    import board

    bid = board.board_id
    # The PyBadge LC and the EdgeBadge run the PyBadge build (docs/hardware.md); their pixel count
    # is a setting, not something the board can tell.
    if bid == "pygamer" or hasattr(board, "JOYSTICK_X"):
        from lnr.boards.pygamer import Hardware
    elif bid == "pybadge" or hasattr(board, "BUTTON_CLOCK"):
        from lnr.boards.pybadge import Hardware
    else:
        raise RuntimeError("no board profile for %s: PyBadge or PyGamer needed" % bid)
    return Hardware()
