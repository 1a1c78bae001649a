"""Game records (docs/rules.md §10): golden games replay to hand-checked results, and illegal
records are rejected at the right turn with the right reason, through `python -m engine.replay`.

The golden games in host_tests/golden/ were written by hand to pass through chosen rules; the
expected results below were worked out by hand (host_tests/golden/README.md shows the sums),
not by running the engine.
"""
import copy
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "host_tests", "golden")

HAND_CHECKED = {
    "solo_story.json": {"scores": [110], "cards": [37], "winners": [0], "derailments": 2,
                        "lost": False},
    "rival_story.json": {"scores": [5, 70], "cards": [5, 22], "winners": [0], "derailments": 4,
                         "lost": False},
    "challenge_lost.json": {"scores": [12], "cards": [3], "winners": [], "derailments": 4,
                            "lost": True},
}


def load(name):
    with open(os.path.join(GOLDEN, name)) as f:
        return json.load(f)


def replay_cli(record_or_text):
    text = record_or_text if isinstance(record_or_text, str) else json.dumps(record_or_text)
    return subprocess.run([sys.executable, "-m", "engine.replay", "-"], input=text, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", sorted(HAND_CHECKED))
def test_golden_record_replays_to_its_hand_checked_result(name):
    out = replay_cli(load(name))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == HAND_CHECKED[name]
    assert out.stdout.count("\n") == 1, "one JSON line"


def test_golden_table_record_replays_from_a_file():
    # A 3-seat table game played by random bots (seed 2026): a regression record.
    path = os.path.join(GOLDEN, "table3_seed2026.json")
    out = subprocess.run([sys.executable, "-m", "engine.replay", path], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == load("table3_seed2026.json")["result"]


def mutate(name, change):
    record = copy.deepcopy(load(name))
    change(record)
    return record


def set_turn(n, turn):
    def change(record):
        record["turns"][n - 1] = turn
    return change


def swap_into_track(index, card, bend):
    # Puts `card` into the initial track in place of the card there, which takes its place
    # in the deck or a hand: the setup stays a permutation of the 55 cards.
    def change(record):
        setup = record["setup"]
        old = setup["track"][index][0]
        for zone in [setup["deck"], setup["removed"]] + setup["hands"]:
            if card in zone:
                zone[zone.index(card)] = old
        setup["track"][index] = [card, bend]
    return change


ILLEGAL = [
    # (golden, change, turn, words in the reason)
    ("solo_story.json", set_turn(3, {"p": 0, "a": "build", "cards": [[14, "S"]]}), 3,
     "value rule: a 2 cannot follow a 4"),  # docs/rules.md §2.2
    ("solo_story.json", set_turn(1, {"p": 0, "a": "build", "cards": [[36, "S"]]}), 1,
     "card 36 is not in the hand"),
    ("solo_story.json", set_turn(2, {"p": 0, "a": "chaos", "cards": [50, 34]}), 2,
     "card 34 is not in the hand"),
    ("solo_story.json", set_turn(3, {"p": 0, "a": "chaos", "cards": [14]}), 3,
     "card 14 is not a chaos card"),
    ("solo_story.json", set_turn(1, {"p": 0, "a": "build", "cards": [[34, "S"], [35, "S"]],
                                     "order": [12]}), 1, "order leaves penalty cards [13]"),
    ("solo_story.json", set_turn(1, {"p": 0, "a": "build", "cards": [[34, "S"], [35, "S"]],
                                     "order": [13, 12, 0]}), 1, "no penalty card is left"),
    ("solo_story.json", set_turn(1, {"p": 0, "a": "build", "cards": [[34, "S"], [35, "S"]],
                                     "order": [13, 46]}), 1, "card 46 is not among the penalty"),
    ("solo_story.json", set_turn(5, {"p": 0, "a": "build", "cards": [[49, "S"]],
                                     "order": [34]}), 5, "curve card 49 needs bend L or R"),
    ("solo_story.json", set_turn(6, {"p": 0, "a": "build", "cards": [[37, "L"]],
                                     "order": [35, 49]}), 6, "straight card 37 takes bend S"),
    ("solo_story.json", set_turn(2, {"p": 1, "a": "chaos", "cards": [50, 51]}), 2,
     "it is seat 0's turn"),
    ("solo_story.json", set_turn(2, {"p": 0, "a": "jump"}), 2, "unknown action jump"),
    ("solo_story.json", lambda r: r.update(rolls=r["rolls"][:5]), 1,
     "the recorded rolls ran out"),
    ("solo_story.json", lambda r: r["rolls"].append(1), 38, "1 recorded rolls are left unused"),
    ("solo_story.json", lambda r: r["rolls"].__setitem__(0, 2), 1, "roll 1 is 2, not 0 or 1"),
    ("solo_story.json", lambda r: r.update(turns=r["turns"][:37]), 38,
     "the record ends before the game is over"),
    ("challenge_lost.json", lambda r: r["turns"].append({"p": 0, "a": "pass"}), 5,
     "the game was already over"),  # docs/rules.md §8: the 4th derailment ends a challenge
    ("rival_story.json", set_turn(1, {"p": 0, "a": "pass"}), 1,
     "the rival passes only when its card cannot be laid"),  # docs/rules.md §8
    ("rival_story.json", set_turn(5, {"p": 0, "a": "build", "cards": [[12, "S"]]}), 5,
     "value rule: a 2 cannot follow a 4"),  # the rival's unplayable card
    ("rival_story.json", set_turn(2, {"p": 1, "a": "build", "cards": [[54, "S"]],
                                      "order": [1, 0]}), 2, "chaos card"),
    # Setup (§3, §10)
    ("solo_story.json", lambda r: r["setup"]["deck"].__setitem__(0, 34), 0,
     "card 34 appears twice"),
    ("solo_story.json", lambda r: r["setup"]["removed"].pop(), 0, "the setup holds 54 cards"),
    ("solo_story.json", lambda r: r["setup"]["track"].__setitem__(1, [40, "L"]), 0,
     "card 40 appears twice"),
    ("solo_story.json", swap_into_track(3, 23, "S"), 0,
     "initial track card 23: value rule: a 3 cannot follow a 1"),  # §2.2 holds in setup too
    ("solo_story.json", swap_into_track(3, 50, "S"), 0,
     "initial track card 50 is a chaos card"),  # D7
    ("solo_story.json", lambda r: r.update(mode="speed"), 0, "unknown mode speed"),
    ("solo_story.json", lambda r: r.update(players=2), 0, "solo takes 1 to 1 players"),
    ("solo_story.json", lambda r: r.update(format="loknroll/2"), 0, "format is loknroll/2"),
]


@pytest.mark.parametrize("name,change,turn,words", ILLEGAL)
def test_illegal_record_is_rejected_at_the_right_turn(name, change, turn, words):
    out = replay_cli(mutate(name, change))
    assert out.returncode == 2, out.stdout
    prefix = "setup: " if turn == 0 else "turn %d: " % turn
    assert out.stderr.startswith(prefix), out.stderr
    assert words in out.stderr, out.stderr
    assert out.stdout == ""


def test_result_that_disagrees_with_the_replay_exits_1():
    record = mutate("solo_story.json", lambda r: r["result"].update(scores=[109]))
    out = replay_cli(record)
    assert out.returncode == 1
    assert json.loads(out.stdout)["scores"] == [110]
    assert "differs" in out.stderr


def test_record_that_is_not_json_names_the_position():
    text = json.dumps(load("solo_story.json"))[:500]
    out = replay_cli(text)
    assert out.returncode == 2
    assert "not valid JSON" in out.stderr and "char" in out.stderr


def test_selfplay_cli_prints_a_record_that_replays():
    for args in (["--mode", "solo", "--seed", "5"], ["--mode", "table", "--players", "4",
                                                     "--seed", "5"]):
        made = subprocess.run([sys.executable, "-m", "engine.selfplay"] + args, cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert made.returncode == 0, made.stderr
        out = replay_cli(made.stdout)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == json.loads(made.stdout)["result"]


def test_selfplay_cli_refuses_bad_arguments():
    made = subprocess.run([sys.executable, "-m", "engine.selfplay", "--mode", "solo",
                           "--players", "3", "--seed", "1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert made.returncode == 2
    assert "solo takes 1 to 1 players" in made.stderr


# ---- issue 36: a seat is a whole number, as a roll is ----------------------------------------

SHARED_RECORDS = os.path.join(os.path.dirname(ROOT), "shared", "repros", "records")


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(GOLDEN) if n.endswith(".json")))
def test_a_seat_written_as_a_float_or_a_truth_value_is_refused(name):
    # JSON's 1.0, true and false compare equal to the seats 1, 1 and 0 in Python; a record
    # written so is not a loknroll/1 record (docs/rules.md §10: "p" is the seat's number), and
    # the replay refuses it as it refuses such a roll. Every turn's seat, each way.
    from engine.record import RecordError, check

    record = load(name)
    refused = 0
    for n, turn in enumerate(record["turns"]):
        odds = [float(turn["p"])] + {0: [False], 1: [True]}.get(turn["p"], [])
        for odd in odds:
            bad = copy.deepcopy(record)
            bad["turns"][n]["p"] = odd
            with pytest.raises(RecordError, match="turn %d: .*seat" % (n + 1)):
                check(json.loads(json.dumps(bad)))
            refused += 1
    assert refused >= len(record["turns"])


def test_the_seat_repro_records_are_refused_with_exit_2():
    if not os.path.isdir(SHARED_RECORDS):
        pytest.skip("../shared/repros/records is not beside the clone")
    names = sorted(n for n in os.listdir(SHARED_RECORDS) if n.startswith("seat_"))
    assert names
    for name in names:
        out = subprocess.run([sys.executable, "-m", "engine.replay",
                              os.path.join(SHARED_RECORDS, name)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, (name, out.stdout, out.stderr)
        assert len(out.stderr.splitlines()) == 1 and "seat" in out.stderr, out.stderr
