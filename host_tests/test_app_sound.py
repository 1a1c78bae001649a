"""The sound wired into the app (issue 11, "hear the dice"): the board profile opens the speaker
(synthio on audioio.AudioOut, the amplifier switched on), the app plays lnr/sound.py's effects
at the moments of the game and runs the player every frame, the Settings screen switches it
on and off (kept in the NVM with the others), and the simulator plays the same effects through
pygame's mixer in its window and logs them headless (--audio-log)."""
import os
import subprocess
import sys
import types

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tools import standins  # noqa: E402
from tools.sim import fast as sim_fast, parts as sim_parts, simulator as sim  # noqa: E402
from tools.sim.app_script import Model, SETTLE  # noqa: E402
from engine.state import MODE_SOLO  # noqa: E402
from tools.sim.screen_text import lines_text  # noqa: E402
from lnr.sound import EFFECTS, SynthPlayer  # noqa: E402
from lnr.storage import Storage  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETTINGS_SOUND = ["DOWN", "DOWN", "A", "DOWN", "DOWN", "DOWN"]  # title: Settings; Sound


def _derailing_game():
    # A solo game, played to its end, with a derailment in it.
    for seed in range(1, 100):
        m = Model(MODE_SOLO, seed)
        m.play_simple(max_risk=600)
        if m.state.derails:
            return seed, m
    raise AssertionError("no solo game with a derailment")


def test_the_audio_log_of_a_headless_game_lists_its_sounds(tmp_path):
    seed, m = _derailing_game()
    keys = tmp_path / "game.keys"
    keys.write_text(" ".join(m.keys + [SETTLE]))
    log = tmp_path / "audio.log"
    out = subprocess.run([sys.executable, "-m", "tools.sim", "--headless", "--seed", str(seed),
                          "--keys-file", str(keys), "--audio-log", str(log)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    header, *lines = log.read_text().splitlines()
    assert header.startswith("# ")  # the simulator's own file (tools/sim/simulator.py)
    heard = [line.split() for line in lines]
    names = [name for _, name in heard]
    for want in ("dice", "lay", "run", "derail", "end"):
        assert want in names, want
    assert names[-1] == "end"  # the game's end, last
    times = [int(ms) for ms, _ in heard]
    assert times == sorted(times) and times[0] > 0  # ms on the virtual clock, in order
    # The dice sound as the roll starts, then the loco's run, before the derailment.
    first = names.index("derail")
    assert "dice" in names[:first] and "run" in names[:first]


def test_a_board_without_a_speaker_plays_the_same_game_silently():
    # lnr/boards/pybadge.py: hw.player is None where the board has no speaker or it cannot be
    # opened (lnr/sound.py: "everything is then a no-op"). The same keys then play the same
    # game: the same screen, LEDs and NVM, nothing heard, no error.
    seed = 5
    m = Model(MODE_SOLO, seed)
    m.play_simple(3)
    keys = m.keys + [SETTLE]

    def without_speaker(hw):
        hw.player = None
        sim.load_app()(hw)

    with sim_fast.fast():
        heard = sim.run_headless(keys, seed=seed)
        silent = sim.run_headless(keys, seed=seed, app=without_speaker)
    assert heard.ok and silent.ok, silent.error
    assert [name for _, name in heard.audio].count("lay") >= 1  # the keys do play sounds
    assert silent.audio == []
    assert silent.screen == heard.screen and silent.leds == heard.leds
    assert silent.nvm == heard.nvm and silent.frames == heard.frames


def test_the_sound_setting_is_saved_and_silences_the_game(tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    with sim_fast.fast():
        r = sim.run_headless(SETTINGS_SOUND + [SETTLE], seed=1, nvm_path=nvm)
    labels = lines_text(r.app.menus.labels.lines)
    assert labels[4].split() == [">", "Sound", "on"]
    with sim_fast.fast():
        r = sim.run_headless(SETTINGS_SOUND + ["A", "B", SETTLE], seed=1, nvm_path=nvm)
    st = Storage(bytearray(r.nvm))
    st.load()
    assert st.sound == 0 and st.hints == 1  # next to the others, the others kept
    assert r.nvm_writes == 1
    # The next power-up: a game with the sound off plays nothing.
    seed = 5
    m = Model(MODE_SOLO, seed)
    m.play_simple(3)
    with sim_fast.fast():
        r = sim.run_headless(m.keys + [SETTLE], seed=seed, nvm_path=nvm)
    assert r.ok and r.audio == []
    with sim_fast.fast():
        r = sim.run_headless(m.keys + [SETTLE], seed=seed)  # a fresh NVM: on by default
    assert [name for _, name in r.audio].count("lay") >= 1


def test_the_app_runs_the_player_every_frame(monkeypatch):
    calls = []

    class Player:
        def start(self, name, now):
            calls.append(("start", name))

        def stop(self):
            pass

        def update(self, now):
            calls.append(("update", now))

    monkeypatch.setattr(sim, "speaker", lambda **kw: Player())
    with sim_fast.fast():
        r = sim.run_headless(["A", "A", "WAIT*20"], seed=5, settle=0)
    updates = [c for c in calls if c[0] == "update"]
    assert len(updates) >= r.frames  # every frame (the player releases notes on time)


def test_the_window_opens_the_mixer_at_the_boards_rate():
    import pygame

    player = sim_parts.speaker(window=True)
    try:
        assert pygame.mixer.get_init() == (22050, -16, 1)
        player.start("dice", 0)  # plays without error on SDL's dummy audio
    finally:
        pygame.mixer.quit()


def _fake_audio(monkeypatch, board_id):
    # The board's parts (tools/standins) and stand-ins of the audio modules that record what
    # the profile does with them.
    done = {}
    names = ("board", "keypad", "neopixel", "microcontroller", "supervisor", "analogio",
             "digitalio", "storage")
    for name in names:  # monkeypatch puts back what was there (or nothing) afterwards
        monkeypatch.setitem(sys.modules, name, sys.modules.get(name))
    mods = standins.install(names)
    mods["board"].choose(board_id)
    made = []
    real = mods["digitalio"].DigitalInOut
    mods["digitalio"].DigitalInOut = lambda pin: made.append(real(pin)) or made[-1]
    done["pins"] = made

    class AudioOut:
        def __init__(self, pin):
            done["speaker_pin"] = pin

        def play(self, sample, loop=False):
            done["playing"] = sample

    class Synthesizer:
        def __init__(self, sample_rate=11025):
            done["rate"] = sample_rate

        def press(self, note):
            pass

        def release(self, note):
            pass

        def release_all(self):
            pass

    synthio = types.ModuleType("synthio")
    synthio.Synthesizer = Synthesizer
    synthio.Envelope = lambda **kw: kw
    synthio.Note = lambda frequency, envelope: types.SimpleNamespace(frequency=frequency)
    audioio = types.ModuleType("audioio")
    audioio.AudioOut = AudioOut
    for name, mod in (("synthio", synthio), ("audioio", audioio)):
        monkeypatch.setitem(sys.modules, name, mod)
    return mods, done


@pytest.mark.parametrize("board_id", ["pybadge", "pygamer"])
def test_the_board_profile_opens_the_speaker(monkeypatch, board_id):
    mods, done = _fake_audio(monkeypatch, board_id)
    for name in list(sys.modules):
        if name.startswith("lnr.boards"):
            monkeypatch.delitem(sys.modules, name)
    from lnr.boards import open_hardware

    hw = open_hardware()
    assert isinstance(hw.player, SynthPlayer)
    enable = [p for p in done["pins"] if p.pin is mods["board"].SPEAKER_ENABLE]
    assert len(enable) == 1 and enable[0].value is True  # the amplifier switched on
    assert enable[0].direction == mods["digitalio"].Direction.OUTPUT
    assert done["speaker_pin"] is mods["board"].SPEAKER
    assert done["rate"] == 22050 and "playing" in done  # the synthesizer on the speaker
    hw.player.start("dice", 0)
    hw.player.update(100)


def test_a_board_without_audio_is_silent(monkeypatch):
    mods, done = _fake_audio(monkeypatch, "pybadge")
    monkeypatch.setitem(sys.modules, "audioio", None)  # this firmware has no audioio
    for name in list(sys.modules):
        if name.startswith("lnr.boards"):
            monkeypatch.delitem(sys.modules, name)
    from lnr.boards import open_hardware

    assert open_hardware().player is None


def test_every_effect_the_app_plays_is_in_the_table():
    # The names the app passes to Sound.play (Play.sfx), read from its source.
    import re

    said = set()
    for path in ("play/screen.py", "play/run.py", "play/actions.py", "menus/screen.py"):
        with open(os.path.join(ROOT, "lib", "lnr", path)) as f:
            for a, b in re.findall(r'sfx\("(\w+)"|sound\.play\("(\w+)"', f.read()):
                said.add(a or b)
    assert said <= set(EFFECTS)
    assert {"dice", "lay", "run", "broken", "derail", "combine", "end"} <= said
