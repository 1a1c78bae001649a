"""lnr/memory/report.py through its own functions: the serial console's line and How to play's
Board page say what lnr.memory's FIGURES hold, "?" where the game has not measured a figure (a
zero is no measurement, never "0 B"), and the page fits the screen (7 lines of at most 26
characters, the menus' line: lnr/menus/screen.py). docs/hardware.md asks players to paste the
line into an issue: a wrong figure there becomes a wrong budget."""
import sys

import pytest

from lnr.memory import (
    FIGURES, FLOOR_KB, F_HINT, F_LEAST, F_NS, F_START, F_TURN, F_WORK,
)
from lnr.memory import report


class Board:
    name = "pybadge"


@pytest.fixture
def figures():
    """lnr.memory's FIGURES for one test, put back after it (the module keeps them for the
    whole power-up)."""
    kept = list(FIGURES)
    for i in range(len(FIGURES)):
        FIGURES[i] = 0
    yield FIGURES
    FIGURES[:] = kept


def test_no_figure_measured_reads_as_unknown_not_zero(figures):
    line = report.line(Board())
    assert "heap free at start ? B" in line and "least free ? B" in line
    assert "search speed ? units/s" in line
    assert report.kb(0) == "?"
    assert report.speed() == "?"


def test_the_search_speed_is_units_per_second_of_the_boards_own_clock(figures):
    # 3000 units in 1.5 ms of nanoseconds: 2 000 000 units a second.
    figures[F_WORK] = 3000
    figures[F_NS] = 1500000
    assert report.speed() == "2000000"
    figures[F_NS] = 999  # under a microsecond: no speed to tell, rather than a division by 0
    assert report.speed() == "?"


def test_kilobytes_are_cut_to_a_tenth_never_rounded_up(figures):
    # A heap figure rounded up would promise a player's board more than it has.
    assert report.kb(1024) == "1.0 KB"
    assert report.kb(1024 + 1023) == "1.9 KB"
    assert report.kb(85 * 1024 + 512) == "85.5 KB"


def test_the_line_names_the_runtime_the_board_and_every_figure(figures):
    figures[F_START] = 90000
    figures[F_LEAST] = 41000
    figures[F_HINT] = 2709
    figures[F_TURN] = 1493
    line = report.line(Board())
    assert line.startswith("loknroll: ")
    assert report.version() in line and ", pybadge," in line
    assert "heap free at start 90000 B" in line and "least free 41000 B" in line
    assert "slowest hint 2709 ms" in line and "slowest bot turn 1493 ms" in line


def test_the_version_is_the_runtimes_three_numbers():
    name, numbers = report.version().rsplit(" ", 1)
    assert name == sys.implementation.name  # "CircuitPython" only on CircuitPython
    assert numbers == ".".join(str(v) for v in sys.implementation.version[:3])


def test_the_board_page_fits_the_menus_lines_with_a_boards_figures(figures):
    # A PyBadge's figures at their largest: its heap is under its 192 KB of RAM, a search
    # speed of 7 digits, a hint and a bot's turn under 10 s (docs/memory.md: board waits). A
    # longer line is cut on the screen (lnr.ui put()): "Heap free at start: 87.8 K".
    figures[F_START] = 191 * 1024 + 1000
    figures[F_LEAST] = 191 * 1024 + 1000
    figures[F_WORK] = 9999999
    figures[F_NS] = 10 ** 9
    figures[F_HINT] = 9999
    figures[F_TURN] = 9999
    page = report.page(Board())
    assert len(page) == 7
    assert all(len(text) <= 26 for text in page), [t for t in page if len(t) > 26]
    assert page[4] == "The game needs %d KB" % FLOOR_KB
    assert "191.9 KB" in page[2] and "191.9 KB" in page[3]
