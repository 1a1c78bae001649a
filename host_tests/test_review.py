"""The review of a game (tools/bots/review.py, `python -m tools.bots review RECORD.json`): at each
of the player's decisions the coach's choice (engine.coach), the expected final score of both and
the points lost, then the biggest mistakes and the total, and a PNG turn by turn. Its words are the
device hint's (engine.advice, lnr/play/hint.py)."""
import io
import json
from pathlib import Path

import pytest

from engine.cards import VALUE
from engine.rng import Rng
from engine.selfplay import play
from engine.deal import new_game
from engine.state import A_CHAOS, A_LAY, A_PASS, MODE_NAMES
from engine.cards import card_name
from tools import cli
from tools.bots import review

ROOT = Path(__file__).resolve().parent.parent
SOLO_STORY = ROOT / "host_tests" / "golden" / "solo_story.json"


def _review(path, samples):
    record = json.loads(Path(path).read_text())
    seat, decisions, final = review.review(record, None, samples, 0)
    out = io.StringIO()
    review.report(record, seat, decisions, final, out)
    return decisions, final, out.getvalue()


# The two tests of the story run on one worker of make pytest (--dist loadgroup), which makes
# the review once; on two workers each made its own (3.6 CPU-s).
with_the_story = pytest.mark.xdist_group("test_review_story")


@pytest.fixture(scope="module")
def story():
    """The review of the golden solo story, 4 samples a decision, made once for the module:
    its costly passes stand out as clearly as with 8 (the last pass lost 40.0 points with 4,
    39.5 with 8; the worst turn 38 either way)."""
    return _review(SOLO_STORY, 4)


@with_the_story
def test_the_review_finds_the_golden_solo_story_s_costly_passes(story):
    # solo_story.json passes from turn 7 to the end with a full hand (host_tests/golden): every
    # card kept counts its value (docs/rules.md §7), so the coach lays cards in the last turns,
    # and the report says how much each pass cost and sums it.
    decisions, final, text = story
    assert final.score(0) == 110
    last = [d for d in decisions if d.turn == 38]
    assert last and last[0].played == A_PASS and last[0].best.action != A_PASS
    assert last[0].lost() > 10
    worst = max(decisions, key=lambda d: d.lost())
    assert worst.turn >= 30
    assert "Biggest mistakes:" in text and "turn %d (turn)" % worst.turn in text
    total = sum(d.lost() for d in decisions)
    assert "Total: %.1f points lost over %d decisions" % (total, len(decisions)) in text
    # The words of a row are the hint's: the action by review.say, why by engine.advice.
    assert "Pass (no penalty, Or lay " in text  # docs/rules.md D4: the loco on the start


@with_the_story
def test_the_review_is_reproducible_and_draws_its_picture(story, tmp_path, capsys):
    # Two reviews of the same record, the second by the command: the same report, word for word.
    decisions, final, first = story
    png = tmp_path / "review.png"
    assert review.main([str(SOLO_STORY), "--samples", "4", "--png", str(png)]) == 0
    assert capsys.readouterr().out.startswith(first)
    # matplotlib's picture (issue 37): the same bytes for the same review, and the tools' mark
    # (tools/cli.py), so that the next review may replace it and no other file.
    again = tmp_path / "again.png"
    review.picture(decisions, final.score(0), str(again),
                   "solo_story.json: expected final score, turn by turn")
    assert again.read_bytes() == png.read_bytes()
    assert cli.is_our_png(str(png))


def test_the_review_of_a_coach_game_loses_little():
    # A game the coach played itself, reviewed by the coach on other samples: its choices
    # should cost little next to the passes of the golden story (same measure).
    record = play("solo", 7, bot="coach")
    decisions = review.review(record, None, 8, 1)[1]
    assert decisions
    assert sum(d.lost() for d in decisions) < 10


def test_the_hint_and_the_review_name_cards_alike():
    # The hint's panel names cards with engine.cards.card_name; the review says an action with
    # tools/bots/review.py say(): the same words for every card.
    chance = Rng(1, 0)
    s = new_game(MODE_NAMES.index("solo"), chance, None)
    while s.is_chance():
        s.apply(s.sample_chance(chance))
    for c in range(len(VALUE)):
        assert review.say(s, A_LAY + c) == "Lay " + card_name(c)
        assert review.say(s, A_CHAOS + c) == "Discard " + card_name(c)
    lays = [a for a in s.legal_actions() if A_LAY <= a < A_CHAOS]
    assert lays
    for a in lays:
        assert review.say(s, a) == "Lay " + card_name(a - A_LAY)
    assert review.say(s, A_PASS) == "Pass"


def test_the_coach_and_the_review_never_go_to_the_board():
    # The deploy ships exactly what the board imports (tools/flash/imports.py): the coach is the
    # desktop's (issue 12), `best`'s look-ahead and the hint's words are the board's.
    from tools.flash import imports

    shipped = imports.reachable()
    assert "engine.coach" not in shipped and "tools.bots.review" not in shipped
    assert "engine.lookahead" in shipped and "engine.advice" in shipped
