"""lnr/menus/labels.py through its own Labels (show(), line()) on a real Ui (a headless run's:
tools.sim.simulator): the menus' title and 8 lines are the font tiles of lnr.ui's text layer, a
title shown blanks every line a screen before left, a line written keeps no colour of before
(white unless given) and is cut to the line's width, never wrapped onto the next."""
import pytest

from helpers import app_in_a_game
from lnr.menus.labels import Labels
from lnr.ui import GREY, LINE_W, RED, TEXT_LINES, WHITE, YELLOW
from tools.sim.screen_text import line_ink, line_text, lines_text


@pytest.fixture(scope="module")
def labels():
    return Labels(app_in_a_game().ui)


def test_a_title_shown_blanks_every_line_before_it(labels):
    for i in range(TEXT_LINES):
        labels.line(i, "left by the last screen %d" % i, RED)
    labels.show("RECORDS", YELLOW)
    assert line_text(labels.title) == "RECORDS" and line_ink(labels.title) == YELLOW
    assert lines_text(labels.lines) == [""] * TEXT_LINES


def test_a_line_is_white_unless_given_and_keeps_no_colour_of_before(labels):
    labels.line(3, "Sound: on", GREY)
    assert line_ink(labels.lines[3]) == GREY
    labels.line(3, "Sound: off")
    assert line_text(labels.lines[3]) == "Sound: off" and line_ink(labels.lines[3]) == WHITE


def test_a_long_line_is_cut_to_its_width_and_the_next_line_is_untouched(labels):
    labels.show("HOW TO PLAY", YELLOW)
    labels.line(0, "x" * (LINE_W + 5))
    assert line_text(labels.lines[0]) == "x" * LINE_W
    assert line_text(labels.lines[1]) == ""


def test_a_shorter_text_leaves_none_of_the_longer_one(labels):
    labels.line(5, "Brightness: 4 of 4")
    labels.line(5, "Off")
    assert line_text(labels.lines[5]) == "Off"
