"""The platform layer: the headless simulator (tools/sim/simulator.py), the NeoPixel pictures
(lnr/leds.py) and the board profiles (lnr/boards/), each checked against what the device
does. The simulator is driven by small throwaway apps written here, so these tests do not
depend on the game app."""
import os
import subprocess
import sys
import textwrap

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import displayio  # noqa: E402  (Blinka's, through tools.sim.simulator's imports)
from tools import standins  # noqa: E402
from tools.sim import simulator as sim  # noqa: E402
from tools.sim.parts import SimNvm, SimPixels  # noqa: E402
from tools.vm import mpvm  # noqa: E402
from lnr import leds as L  # noqa: E402
from lnr.keys import K_A, K_B, K_DOWN, K_LEFT, K_RIGHT, K_START, K_UP, NAMES  # noqa: E402
from helpers import rgb, rgb565  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------- throwaway apps


def stripes_app(hw):
    """Four vertical stripes in colours that are not exact in RGB565; records the keys."""
    hw.got = []
    bitmap = displayio.Bitmap(160, 128, 4)
    palette = displayio.Palette(4)
    for i, c in enumerate((0x000000, 0x123456, 0xFF7F01, 0xFFFFFF)):
        palette[i] = c
    for x in range(160):
        for y in range(128):
            bitmap[x, y] = x // 40
    group = displayio.Group()
    group.append(displayio.TileGrid(bitmap, pixel_shader=palette))
    hw.display.root_group = group
    hw.display.refresh()
    while True:
        k = hw.next_key()
        while k >= 0:
            hw.got.append((hw.frame, NAMES[k]))
            k = hw.next_key()
        if not hw.wait_frame():
            return


def test_screen_pixels_read_back_rgb565_quantised():
    # docs/hardware.md: colours are RGB565-quantised as on the device.
    r = sim.run_headless([], app=stripes_app, settle=2)
    assert r.ok, r.error
    assert r.size == (160, 128)
    for x, c in ((5, 0x000000), (45, 0x123456), (85, 0xFF7F01), (159, 0xFFFFFF)):
        assert r.pixel(x, 64) == rgb565(c), hex(c)
    assert r.pixel(45, 0) == (16, 52, 82)  # 0x123456 loses its low bits
    assert r.colours() == {rgb565(c) for c in (0, 0x123456, 0xFF7F01, 0xFFFFFF)}
    with pytest.raises(IndexError):
        r.pixel(160, 0)


def test_screenshot_png_has_the_led_strip_and_scales(tmp_path):
    import pygame

    r = sim.run_headless([], app=stripes_app, settle=1)
    r.save_png(str(tmp_path / "a.png"))
    r.save_png(str(tmp_path / "b.png"), scale=3)
    r.save_png(str(tmp_path / "c.png"), leds=False)
    a = pygame.image.load(str(tmp_path / "a.png"))
    b = pygame.image.load(str(tmp_path / "b.png"))
    c = pygame.image.load(str(tmp_path / "c.png"))
    assert a.get_size() == (160, 128 + sim.sim_display.STRIP_H)
    assert b.get_size() == (480, 3 * (128 + sim.sim_display.STRIP_H))
    assert c.get_size() == (160, 128)
    assert tuple(b.get_at((3 * 45 + 1, 3 * 10 + 1)))[:3] == rgb565(0x123456)


def test_key_script_reaches_the_app_in_order_one_per_frame():
    r = sim.run_headless("A, right*2, WAIT, START,B # comment\nWAIT=90 LEFT", app=stripes_app,
                         settle=3)
    assert r.ok, r.error
    assert r.hw.got == [(0, "A"), (1, "RIGHT"), (2, "RIGHT"), (4, "START"), (5, "B"),
                        (9, "LEFT")]
    # The last key, then `settle` frames in which the app read nothing more.
    assert r.frames == 9 + 3


def test_parse_keys_rejects_what_it_cannot_read():
    assert sim.parse_keys("up,DOWN wait*2 wait=31") == [K_UP, K_DOWN, None, None, None, None]
    for bad in ("JUMP", "A*x", "WAIT=abc", "WAIT=5*2"):
        with pytest.raises(sim.ScriptError):
            sim.parse_keys(bad)


def test_keys_queue_while_the_app_is_busy_as_keypad_does():
    # A press made while the app reads no keys waits in the queue (keypad.EventQueue), it
    # is not lost; past 64 waiting presses the new ones are dropped and flagged.
    def busy_app(hw):
        hw.got = []
        while True:
            if hw.frame >= 70:
                k = hw.next_key()
                while k >= 0:
                    hw.got.append(k)
                    k = hw.next_key()
            if not hw.wait_frame():
                return

    r = sim.run_headless([K_A] * 64 + [K_B] * 2, app=busy_app, settle=1)
    assert r.hw.got == [K_A] * 64
    assert r.hw.overflowed


def test_neopixel_colours_recorded_per_frame():
    def led_app(hw):
        while True:
            if hw.frame == 2:
                hw.pixels[0] = (255, 0, 0)
                hw.pixels[4] = 0x00FF00
            if hw.frame == 3:
                hw.pixels.show()
            if hw.frame == 5:
                hw.pixels.fill((0, 0, 9))
                hw.pixels.show()
            if not hw.wait_frame():
                return

    r = sim.run_headless(["WAIT*6"], app=led_app, settle=0)
    assert r.ok, r.error
    off = ((0, 0, 0),) * 5
    lit = ((255, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 255, 0))
    # Set at frame 2 but not shown until show() (auto_write=False, as on the board).
    assert r.leds[:5] == [off, off, off, lit, lit]
    assert r.leds[5] == ((0, 0, 9),) * 5


def test_pixels_and_nvm_are_as_strict_as_the_board(tmp_path):
    px = SimPixels(5)
    for bad in ((256, 0, 0), (1, 2), "red", (1.5, 0, 0), 0x1000000):
        with pytest.raises(ValueError):
            px[0] = bad
    with pytest.raises(IndexError):
        px[5] = (0, 0, 0)
    path = str(tmp_path / "nvm.bin")
    nvm = SimNvm(path)
    assert len(nvm) == 8192 and nvm[0:4] == bytearray(b"\xff" * 4)  # erased flash
    nvm[10:13] = b"abc"
    with pytest.raises(ValueError):
        nvm[0:4] = b"ab"  # "slice and value different lengths"
    assert SimNvm(path)[10:13] == bytearray(b"abc")  # written through to the file
    assert nvm.writes == 1


class _Crash(Exception):
    pass


def test_app_exception_is_reported_with_traceback():
    def crashing_app(hw):
        while True:
            if hw.next_key() == K_START:
                raise _Crash("boom at frame %d" % hw.frame)
            if not hw.wait_frame():
                return

    r = sim.run_headless("A,A,START,A", app=crashing_app)
    assert not r.ok
    assert isinstance(r.exception, _Crash)
    assert "boom at frame 2" in r.error and "crashing_app" in r.error


def test_crash_screen_that_waits_inside_except_is_reported_and_stopped():
    # The app's crash screen (iface §5) waits for frames while handling the exception: the
    # simulator reports that exception, stops the app, and counts NVM writes after it.
    def app(hw):
        try:
            while True:
                if hw.next_key() == K_START:
                    {}["missing"]
                if not hw.wait_frame():
                    return
        except Exception:  # pylint: disable=broad-except
            hw.nvm[0:1] = b"\x00"  # what an app must never do after an error
            while hw.wait_frame():
                pass

    r = sim.run_headless("START,A,A", app=app)
    assert isinstance(r.exception, KeyError)
    assert "'missing'" in r.error
    assert r.nvm_writes_after_error == 1


def test_app_that_ignores_the_stop_is_stopped():
    def stubborn(hw):
        while True:
            hw.wait_frame()

    r = sim.run_headless("A", app=stubborn, settle=1)
    assert isinstance(r.exception, sim.SimulatorStop)


def test_virtual_clock_runs_a_two_second_animation_without_sleeping(monkeypatch):
    import threading
    import time

    real_sleep = time.sleep

    def no_sleep(seconds):
        # Blinka's displayio thread naps 1 ms between its checks: only the app is watched.
        if threading.current_thread() is threading.main_thread():
            raise AssertionError("headless must not sleep")
        real_sleep(seconds)

    monkeypatch.setattr(time, "sleep", no_sleep)

    def anim_app(hw):
        hw.done_at = None
        start = None
        while True:
            now = hw.ticks_ms()
            if hw.next_key() == K_START:
                start = now
            if start is not None and (now - start) & 0x1FFFFFFF >= 2000:
                hw.done_at = hw.elapsed_ms()
                start = None
            if not hw.wait_frame():
                return

    r = sim.run_headless("WAIT*3,START,WAIT=2100", app=anim_app, settle=1)
    assert r.ok, r.error
    # Started at frame 3 (90 ms); done at the first frame at least 2000 ms later.
    assert r.hw.done_at == 90 + 2010
    assert r.virtual_ms >= 2100


def test_virtual_clock_wraps_like_supervisor_ticks_ms():
    # supervisor.ticks_ms() starts 0x1FFF0000 and wraps at 2**29, 65.5 s after power-up.
    def clock_app(hw):
        hw.seen = []
        while True:
            hw.seen.append(hw.ticks_ms())
            if not hw.wait_frame():
                return

    r = sim.run_headless(["WAIT*2200"], app=clock_app, settle=0)
    seen = r.hw.seen
    assert seen[0] == 0x1FFF0000
    wrap = [i for i in range(1, len(seen)) if seen[i] < seen[i - 1]]
    assert len(wrap) == 1 and wrap[0] * 30 >= 65536 > (wrap[0] - 1) * 30
    assert all((seen[i] - seen[i - 1]) & 0x1FFFFFFF == 30 for i in range(1, len(seen)))


def _cli(tmp_path, app_source, *args):
    (tmp_path / "toyapp.py").write_text(textwrap.dedent(app_source))
    env = dict(os.environ, PYTHONPATH=str(tmp_path), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", "tools.sim", "--headless", "--app", "toyapp:run"] + list(args),
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


TOY = """
    import displayio
    from lnr.keys import K_START

    def run(hw):
        bm = displayio.Bitmap(160, 128, 2)
        pal = displayio.Palette(2)
        pal[1] = 0x00FF00
        g = displayio.Group()
        g.append(displayio.TileGrid(bm, pixel_shader=pal))
        hw.display.root_group = g
        while True:
            k = hw.next_key()
            if k == K_START:
                crash_here()
            if k >= 0:
                bm[k, 0] = 1
                hw.display.refresh()
                hw.pixels[k % 5] = (0, 0, 255)
                hw.pixels.show()
            if not hw.wait_frame():
                return

    def crash_here():
        raise RuntimeError("toy app crashed")
"""


def test_cli_exit_status_and_traceback(tmp_path):
    bad = _cli(tmp_path, TOY, "--keys", "A,START")
    assert bad.returncode == 1
    assert "RuntimeError: toy app crashed" in bad.stderr and "crash_here" in bad.stderr
    shot = tmp_path / "shot.png"
    good = _cli(tmp_path, TOY, "--keys", "B,A,RIGHT", "--screenshot", str(shot), "--scale", "2")
    assert good.returncode == 0, good.stderr
    import pygame

    img = pygame.image.load(str(shot))
    assert img.get_size() == (320, 2 * (128 + sim.sim_display.STRIP_H))
    assert tuple(img.get_at((2 * 4, 0)))[:3] == (0, 255, 0)  # bm[RIGHT=4, 0]
    assert tuple(img.get_at((2 * 2, 0)))[:3] == (0, 0, 0)
    usage = _cli(tmp_path, TOY, "--keys", "JUMP")
    assert usage.returncode == 2 and "unknown key" in usage.stderr


# ---------------------------------------------------------------- lnr/leds.py


def _leds(count=5):
    px = SimPixels(5)
    return L.Leds(px, count), px


def strip(*colours):
    """Returns what the strip shows for these colours of lnr.leds, one a pixel."""
    return tuple(rgb(c) for c in colours)


def test_progress_is_a_window_on_the_track_end():
    leds, px = _leds()
    leds.progress(2, 6)  # loco on the 3rd card from the end
    leds.update(0)
    assert px.shown == strip(L.BEHIND, L.BEHIND, L.WHITE, L.YELLOW, L.YELLOW)
    leds.progress(1, 3)  # a track of 3 cards: the two leftmost pixels show no track
    leds.update(30)
    assert px.shown == strip(L.OFF, L.OFF, L.BEHIND, L.WHITE, L.ORANGE)
    leds.progress(0, 8)  # on the last card: any move derails (docs/rules.md §5)
    leds.update(60)
    assert px.shown[4] == rgb(L.RED) and px.shown[:4] == strip(L.BEHIND) * 4
    leds.progress(9, 12)
    leds.update(90)
    assert px.shown == strip(L.GREEN) * 5


def test_show_only_when_something_changed():
    leds, px = _leds()
    leds.progress(2, 6)
    leds.update(0)
    shows = px.shows
    for t in range(30, 3000, 30):
        leds.progress(2, 6)
        leds.update(t)
    assert px.shows == shows


def test_dice_one_pixel_per_die_as_they_resolve():
    leds, px = _leds()
    leds.dice([], 3)
    leds.update(0)
    assert px.shown == strip(L.PENDING) * 3 + strip(L.OFF) * 2
    leds.dice([1, 0], 3)
    leds.update(30)
    assert px.shown == strip(L.WHEEL, L.BLANK, L.PENDING, L.OFF, L.OFF)
    # 8 dice (a build of 4+4): with 6 resolved, the group of the latest is shown.
    leds.dice([1, 1, 1, 1, 1, 0], 8)
    leds.update(60)
    assert px.shown == strip(L.BLANK, L.PENDING, L.PENDING, L.OFF, L.OFF)
    leds.dice(2, 4)  # only a count: resolved dice without their faces
    leds.update(90)
    assert px.shown == strip(L.WHEEL, L.WHEEL, L.PENDING, L.PENDING, L.OFF)


def test_derail_is_a_timed_red_effect_then_the_picture_returns():
    leds, px = _leds()
    leds.progress(3, 9)
    leds.update(1000)
    picture = px.shown
    leds.derail()
    assert leds.busy()
    seen = {}
    for t in range(0, 1800, 10):
        leds.update(2000 + t)
        seen[t] = px.shown
    assert seen[0] == strip(L.RED) * 5
    assert seen[200] == strip(L.OFF) * 5  # flashing
    assert seen[1200] == strip(L.RED) * 5  # then glowing
    assert seen[1790] == picture and not leds.busy()


def test_derail_times_across_the_clock_wrap():
    leds, px = _leds()
    leds.progress(3, 9)
    leds.derail()
    leds.update(0x1FFFFF00)  # 256 ms before ticks_ms wraps
    leds.update(0x1FFFFF00 + 1000 - 0x20000000)  # 1000 ms later, after the wrap
    assert px.shown == strip(L.RED) * 5 and leds.busy()
    leds.update(0x1FFFFF00 + 1700 - 0x20000000)
    assert not leds.busy()


def test_risk_goes_from_green_to_red():
    leds, px = _leds()
    reds = []
    greens = []
    lit = []
    for permille in range(0, 1001, 100):
        leds.risk(permille)
        leds.update(permille)
        c = px.shown[0]
        reds.append(c[0])
        greens.append(c[1])
        lit.append(sum(1 for p in px.shown if p != rgb(L.OFF)))
    assert reds[0] == 0 and greens[0] > 0  # no risk: green
    assert px.shown == ((255, 0, 0),) * 5  # certain: all red
    assert reds == sorted(reds) and greens == sorted(greens, reverse=True)
    assert lit[0] == 1 and lit == sorted(lit) and lit[-1] == 5
    # The ramp as lnr/leds.py says: red 255 * i // 10, green 200 * (10 - i) // 10.
    assert [rgb(c) for c in L.RISK] == [(255 * i // 10, 200 * (10 - i) // 10, 0)
                                        for i in range(11)]


def test_one_pixel_still_shows_progress_and_derailment():
    # PyBadge LC: 1 pixel (docs/hardware.md): its colour alone tells how much track is ahead.
    leds, px = _leds(count=1)
    colours = []
    for ahead in (5, 2, 1, 0):
        leds.progress(ahead, 8)
        leds.update(ahead)
        colours.append(px.shown[0])
        assert px.shown[1:] == strip(L.OFF) * 4
    assert colours == [rgb(L.GREEN), rgb(L.YELLOW), rgb(L.ORANGE), rgb(L.RED)]
    leds.derail()
    leds.update(100)
    assert px.shown[0] == rgb(L.RED)
    leds.update(300)
    assert px.shown[0] == rgb(L.OFF)  # it flashes
    leds.update(2000)
    assert px.shown[0] == rgb(L.RED)  # back to the picture: ahead 0
    leds.dice([1, 0], 2)
    leds.update(2030)
    assert px.shown[0] == rgb(L.BLANK)  # the latest die
    leds.set_count(3)
    leds.progress(1, 8)
    leds.update(2060)
    assert px.shown == strip(L.BEHIND, L.WHITE, L.ORANGE, L.OFF, L.OFF)


def test_broken_hit_blinks_amber_but_never_cuts_a_derailment_short():
    leds, px = _leds()
    leds.progress(4, 9)
    leds.broken_hit()
    leds.update(0)
    assert px.shown == strip(L.AMBER) * 5
    leds.update(500)
    assert not leds.busy()
    leds.derail()
    leds.update(600)
    leds.broken_hit()
    leds.update(650)
    assert px.shown == strip(L.RED) * 5


def test_brightness_levels_are_low_and_zero_is_off():
    leds, px = _leds()
    leds.set_brightness(0)
    assert px.brightness == 0.0
    leds.set_brightness(99)
    assert px.brightness == L.LEVELS[L.MAX_LEVEL] / 100 <= 0.25
    assert list(L.LEVELS) == sorted(L.LEVELS)


def test_leds_allocate_nothing_per_frame_on_micropython(tmp_path, device_libs):
    # docs/style.md: no per-frame allocation on the device; measured on the real MicroPython VM.
    script = textwrap.dedent("""
        import gc
        from lnr.leds import Leds
        class Px:
            def __init__(s):
                s.b = [None] * 5
                s.brightness = 1.0
            def __len__(s):
                return 5
            def __setitem__(s, i, v):
                s.b[i] = v
            def show(s):
                pass
        leds = Leds(Px(), 5)
        def frames(t0):
            for i in range(200):
                leds.update(t0 + i * 30)
        for name in ("progress", "dice", "risk", "derail"):
            if name == "progress":
                leds.progress(2, 7)
            elif name == "dice":
                leds.dice([1, 0, 1], 6)
            elif name == "risk":
                leds.risk(420)
            else:
                leds.derail()
            frames(0)
            gc.collect()
            a = gc.mem_alloc()
            frames(6000)
            print(name, gc.mem_alloc() - a)
    """)
    path = str(tmp_path / "leds_alloc.py")
    with open(path, "w") as f:
        f.write(script)
    out = mpvm.output(path, [("lib/lnr", "/lib/lnr"), (device_libs, "/lib")], timeout=60)
    for line in out.split("\n"):
        if line:
            name, grew = line.split()
            assert grew == "0", line


# ---------------------------------------------------------------- lnr/boards


# What the profiles import that a board has built in: tools/standins, as strict as the firmware
# (keyword-only arguments, the buttons' own pins, colours and NVM writes checked).
PROFILE_MODULES = ("board", "keypad", "neopixel", "microcontroller", "supervisor", "storage",
                   "analogio")


def _board(monkeypatch, board_id, stick=None, presses=()):
    """Installs the stand-ins of the modules the profiles import as the board `board_id`, with
    `presses` ((key, pressed) events) waiting for the keys and `stick` ({pin name: readings})
    for the PyGamer's stick; returns them. sys.modules is put back afterwards."""
    for name in PROFILE_MODULES:
        monkeypatch.setitem(sys.modules, name, None)  # remembered, restored after the test
    for name in ("lnr.boards.pybadge", "lnr.boards.pygamer"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    mods = standins.install(PROFILE_MODULES)
    mods["board"].choose(board_id)
    mods["keypad"].pending.extend(presses)
    for pin, readings in (stick or {}).items():
        mods["analogio"].readings[getattr(mods["board"], pin)] = list(readings)
    return mods


def test_pybadge_profile_reads_presses_only_and_sets_up_the_parts(monkeypatch):
    mods = _board(monkeypatch, "pybadge", presses=[(K_A, True), (K_A, False), (K_LEFT, True)])
    mods["storage"].writable = True  # as boot.py leaves it unless SELECT was held
    from lnr.boards import open_hardware

    hw = open_hardware()  # ValueError if it gave the keys other pins, or pressed != high
    assert hw.name == "pybadge" and (hw.width, hw.height) == (160, 128)
    assert hw.display.auto_refresh is False  # the app refreshes (docs/style.md)
    assert mods["keypad"].last.key_count == 8
    assert len(hw.pixels) == 5 and hw.pixels.auto_write is False
    assert hw.pixels.brightness <= 0.1
    assert hw.max_pixels == 5 and len(hw.nvm) == 8192
    assert hw.drive == "/" and hw.drive_writable is True  # boot.py remounted it for code
    assert [hw.next_key(), hw.next_key(), hw.next_key()] == [K_A, K_LEFT, -1]


def test_pygamer_stick_presses_once_per_push_with_hysteresis(monkeypatch):
    # docs/hardware.md: 16-bit readings, < 15000 or > 50000 count as pressed.
    xs = [32768, 14000, 14000, 20000, 14000, 30000, 14000, 51000, 40000, 51000]
    ys = [32768] * 6 + [60000]
    mods = _board(monkeypatch, "pygamer", stick={"JOYSTICK_X": xs, "JOYSTICK_Y": ys},
                  presses=[(K_START, True)])
    from lnr.boards import open_hardware

    hw = open_hardware()
    assert hw.name == "pygamer" and mods["keypad"].last.key_count == 4
    got = [hw.next_key() for _ in range(12)]
    # START first (buttons before the stick); then x: centre, LEFT, held, held at 20000 (not
    # back past 22000, so the 14000 after it is no new press), released at 30000, LEFT
    # again, RIGHT at once, released at 40000 (back past 43000), RIGHT again; then x rests
    # and y pushes DOWN.
    assert got == [K_START, -1, K_LEFT, -1, -1, -1, -1, K_LEFT, K_RIGHT, -1, K_RIGHT, K_DOWN]


def test_open_hardware_refuses_an_unknown_board(monkeypatch):
    _board(monkeypatch, "feather_m4_express")
    from lnr.boards import open_hardware

    with pytest.raises(RuntimeError, match="feather_m4_express"):
        open_hardware()


def window(tmp_path, app, scale=1):
    """Runs `app` in the simulator's window as `make play` does (run_window), its NVM and
    drive in tmp_path; returns what run_window returns."""
    return sim.run_window(nvm_path=str(tmp_path / "nvm.bin"), drive=str(tmp_path / "drive"),
                          scale=scale, app=app)


def test_window_maps_the_keyboard_and_draws_the_board(tmp_path):
    # `make play`: keyboard keys become presses (README/iface key map); closing the window
    # makes wait_frame() return False; the window is the scaled screen plus the LED band.
    import pygame

    seen = {}

    def app(hw):
        seen["size"] = hw.display.window.get_size()
        for key in (pygame.K_x, pygame.K_z, pygame.K_RETURN, pygame.K_SPACE, pygame.K_LEFT,
                    pygame.K_q, pygame.K_a, pygame.K_b, pygame.K_TAB):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        hw.pixels[2] = (255, 0, 0)
        hw.pixels.show()
        seen["frame"] = hw.wait_frame()
        seen["keys"] = []
        k = hw.next_key()
        while k >= 0:
            seen["keys"].append(NAMES[k])
            k = hw.next_key()
        # LED 2's centre
        seen["led"] = hw.display.window.get_at((2 * 80, 2 * 128 + sim.sim_display.STRIP_H))
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        seen["closed"] = hw.wait_frame()

    assert window(tmp_path, app, scale=2) is None
    assert seen["size"] == (320, 2 * (128 + sim.sim_display.STRIP_H))
    assert seen["frame"] is True
    assert seen["keys"] == ["A", "B", "START", "SELECT", "LEFT", "A", "B", "SELECT"]
    assert seen["led"][0] > 100 and seen["led"][1] == 0
    assert seen["closed"] is False


def test_display_objects_are_counted_by_the_hardware_formula():
    # docs/hardware.md: a Bitmap costs ceil(w*bpp/32)*4*h: a full-screen 16-colour bitmap is
    # 10 240 B, a 16-colour 64x32 sprite sheet 1 KB; 3 colours take 2 bits, 17 take 8
    # (tools/vm/membudget/vm/sizes.py: make cpcheck charges the firmware's objects by these).
    from tools.vm.membudget.vm import sizes
    from tools.vm.membudget.modules import device_modules

    assert sizes.bitmap_data(160, 128, 4) == 10240
    assert sizes.bitmap_data(64, 32, 4) == 1024
    assert sizes.bitmap_data(33, 2, 2) == 2 * 4 * 3  # 66 bits: 3 words
    assert sizes.bitmap_data(5, 5, 8) == 2 * 4 * 5
    sheet = displayio.Bitmap(128, 112, 16)  # 8x7 tiles of 16x16: tile numbers fit a byte
    pal = displayio.Palette(16)
    one = displayio.TileGrid(sheet, pixel_shader=pal, width=2, height=2, tile_width=16,
                             tile_height=16)
    many = displayio.TileGrid(sheet, pixel_shader=pal, width=10, height=6, tile_width=16,
                              tile_height=16)
    assert sizes.tilegrid_bytes(one) == sizes.blocks(sizes.TILEGRID_OBJ)  # 4 tiles: in the pointer
    assert sizes.tilegrid_bytes(many) == sizes.blocks(sizes.TILEGRID_OBJ) + 64  # 60 B in blocks
    order = device_modules()
    assert order.index("lnr.keys") < order.index("lnr.leds")
    assert order[-1] == "lnr.main"


def test_board_profiles_run_on_micropython_with_fake_parts(tmp_path, device_libs):
    # The profiles only run on a board; here they run on the real MicroPython VM with the
    # stand-ins of the CircuitPython modules, so MicroPython-only mistakes show up before
    # flashing.
    script = str(tmp_path / "profiles_vm.py")
    with open(script, "w") as f:
        f.write(textwrap.dedent("""
            from tools.standins import install
            parts = install(("board", "keypad", "neopixel", "microcontroller", "supervisor",
                             "storage", "analogio"))
            parts["board"].choose("pygamer")
            parts["keypad"].pending.extend([(2, True), (2, False)])
            # The stick's x reads 1000 at its 3rd reading.
            parts["analogio"].readings[parts["board"].JOYSTICK_X] = [32768, 32768, 1000]
            from lnr.boards import open_hardware
            from lnr.leds import Leds
            hw = open_hardware()
            leds = Leds(hw.pixels, hw.max_pixels)
            keys = []
            for _ in range(6):
                keys.append(hw.next_key())
                leds.update(hw.ticks_ms())
                assert hw.wait_frame()
            print(hw.name, hw.display.auto_refresh, keys, hw.drive, hw.drive_writable)
        """))
    out = mpvm.output(script, [("lib/lnr", "/lib/lnr"), ("tools/standins", "/lib/tools/standins"),
                               (device_libs, "/lib")], timeout=60)
    # START from the buttons (its release skipped); the stick's x reads 1000 on its 3rd
    # reading (the 4th call): LEFT, once.
    assert out.split("\n")[0] == "pygamer False [2, -1, -1, 7, -1, -1] / False"


def test_window_keeps_showing_the_error_screen_and_reports_the_crash(tmp_path, capsys):
    # In the window the player should see the app's error screen (iface §5); the crash is
    # printed at once and the run still ends with it.
    import pygame

    seen = {}

    def app(hw):
        try:
            raise ZeroDivisionError("on purpose")
        except ZeroDivisionError:
            seen["frames"] = [hw.wait_frame(), hw.wait_frame()]  # the error screen keeps running
        seen["error"] = hw.error
        seen["err"] = capsys.readouterr().err
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        seen["closed"] = hw.wait_frame()

    error = window(tmp_path, app)
    assert seen["frames"] == [True, True]
    assert isinstance(seen["error"], ZeroDivisionError) and error is seen["error"]
    assert seen["err"].count("ZeroDivisionError: on purpose") == 1
    assert seen["closed"] is False
