"""lnr/sound.py: the effects, played on synthio on the board and through pygame in the simulator
from one table; no allocation in the frame loop (docs/style.md)."""
import io
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lnr.sound import EFFECTS, FREQS, MAX_NOTES, Sound  # noqa: E402
from tools.sim import audio as sim_audio  # noqa: E402
from tools.vm import cpvm  # noqa: E402
from tools.sim.audio import length_ms, notes  # noqa: E402

# What the game must be able to say (the list).
NEEDED = ("dice", "lay", "run", "broken", "derail", "combine", "end")


def test_every_effect_the_game_needs_exists_and_is_short():
    for name in NEEDED:
        assert name in EFFECTS
        assert 0 < length_ms(name) <= 700, name  # short: never drags the turn out
    for name in EFFECTS:
        assert len(EFFECTS[name]) % 3 == 0  # whole notes: start, length, frequency
        steps = notes(name)
        starts = [s for s, _, _ in steps]
        assert starts == sorted(starts)  # SynthPlayer presses them in order
        for start, dur, f in steps:
            assert dur > 0 and 0 <= f < len(FREQS)
        # never more notes at once than the player has
        for t in range(0, max(s + d for s, d, _ in steps)):
            assert sum(1 for s, d, _ in steps if s <= t < s + d) <= MAX_NOTES


def test_the_simulator_renders_the_table():
    for name in NEEDED:
        wave = sim_audio.render(name, rate=8000)
        assert len(wave) == (length_ms(name) + sim_audio.RELEASE_MS) * 8000 // 1000
        assert max(abs(v) for v in wave) > 0.1
        # the last note fades out with its release
        assert all(abs(v) < 0.02 for v in wave[-3:])


def test_the_log_says_when_and_what(tmp_path):
    log = io.StringIO()
    sound = Sound(sim_audio.SimPlayer(None, log))
    sound.play("dice", 120)
    sound.play("derail", 3030)
    sound.on = False
    sound.play("end", 4000)  # the setting is off: nothing
    assert log.getvalue() == "120 dice\n3030 derail\n"


def test_synthio_plays_every_effect_without_allocating_per_frame(tmp_path, circuitpython):
    script = tmp_path / "snd.py"
    script.write_text(textwrap.dedent("""
        import gc, synthio
        from lnr.sound import SynthPlayer, Sound, EFFECTS, UNIT_MS
        synth = synthio.Synthesizer(sample_rate=22050)
        sound = Sound(SynthPlayer(synth, synthio))
        worst = 0
        most = 0
        for name in EFFECTS:
            steps = EFFECTS[name]
            now = 5000
            end = now + 60 + UNIT_MS * max(steps[i] + steps[i + 1]
                                           for i in range(0, len(steps), 3))
            while now < end:
                gc.collect()
                before = gc.mem_alloc()
                if now == 5000:
                    sound.play(name, now)
                sound.update(now)
                worst = max(worst, gc.mem_alloc() - before)
                most = max(most, len(synth.pressed))
                now += 30
            print(name, len(synth.pressed))
        print("worst", worst, "most", most)
    """))
    r = cpvm.run(script, paths=[ROOT / "lib"])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")
    overlap = max(sum(1 for s, d, _ in notes(name) if s <= t < s + d)
                  for name in EFFECTS for t in range(length_ms("end")))
    assert lines[-2] == "worst 0 most %d" % overlap
    # every note released once its effect is over
    assert all(line.endswith(" 0") for line in lines[:len(EFFECTS)])
