"""tools/sim/fast.py's pixel loop draws what Blinka's own does (Real over toy: the simulator is
Blinka's displayio; inside sim_fast.fast() one inner loop of it, displayio._tilegrid._fill_pixels,
runs on numpy arrays). Both draw the same layers, and every screen must come out the same, byte
for byte: random tile grids of every kind that loop takes (1, 2, 4 and 8 bits a value, palettes
shorter than the values with transparent colours, tiles of any size, scaled groups, flips and
transposes, partly off the screen, redrawn in part after a change), and the app's own screens.
"""
import hashlib
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random  # noqa: E402
from tools.sim import display as sim_display, fast as sim_fast, simulator as sim  # noqa: E402
from tools.sim.display import SimDisplay, displayio  # noqa: E402
from tools.sim.app_script import Model, SETTLE  # noqa: E402
from engine.state import MODE_RIVAL, MODE_TABLE  # noqa: E402


def _tile_grid(rng):
    bits = (1, 2, 4, 8)[rng.randrange(4)]
    tile_w, tile_h = 1 + rng.randrange(12), 1 + rng.randrange(12)
    across, down = 1 + rng.randrange(4), 1 + rng.randrange(3)
    bitmap = displayio.Bitmap(tile_w * across, tile_h * down, 1 << bits)
    for x in range(bitmap.width):
        for y in range(bitmap.height):
            bitmap[x, y] = rng.randrange(1 << bits)
    # A palette shorter than the bitmap's values at times (those draw nothing), with
    # transparent colours.
    palette = displayio.Palette(1 + rng.randrange(min(1 << bits, 12)))
    for i in range(len(palette)):
        palette[i] = rng.randrange(1 << 24)
        if rng.randrange(4) == 0:
            palette.make_transparent(i)
    grid = displayio.TileGrid(bitmap, pixel_shader=palette, width=1 + rng.randrange(6),
                              height=1 + rng.randrange(6), tile_width=tile_w, tile_height=tile_h,
                              x=rng.randrange(180) - 20, y=rng.randrange(150) - 20)
    for i in range(grid.width * grid.height):
        grid[i] = rng.randrange(across * down)
    grid.flip_x, grid.flip_y, grid.transpose_xy = (rng.randrange(2) == 1 for _ in range(3))
    return grid


def _screens(seed, fast):
    """Draws random layers (seeded), then changes a few and draws again (a part of the screen):
    returns the screen's bytes after each."""
    rng = random.Random(seed)
    sim_display.release()
    display = SimDisplay()
    try:
        root = displayio.Group()
        grids = []
        for _ in range(3):
            group = displayio.Group(scale=1 + rng.randrange(3), x=rng.randrange(40) - 10,
                                    y=rng.randrange(40) - 10)
            for _ in range(1 + rng.randrange(4)):
                grids.append(_tile_grid(rng))
                group.append(grids[-1])
            root.append(group)
        display.root_group = root
        shots = []
        for _ in range(3):
            if fast:
                with sim_fast.fast():
                    display.render_now()
            else:
                display.render_now()
            shots.append(bytes(display.screen.get_buffer().raw))
            grid = grids[rng.randrange(len(grids))]
            grid[rng.randrange(grid.width * grid.height)] = 0
            grids[rng.randrange(len(grids))].x += rng.randrange(9) - 4
        return shots
    finally:
        sim_display.release()


def test_the_fast_pixel_loop_draws_every_kind_of_tile_grid_as_blinka_does():
    for seed in range(40):
        assert _screens(seed, True) == _screens(seed, False), seed


def _app_screens(fast):
    # A rival game and a table game played a few turns, every refreshed screen's hash.
    shots = []

    def on_frame(hw):
        d = hw.display
        if d.refresh_calls != len(shots):
            shots.append(hashlib.md5(d.screen.get_buffer().raw).hexdigest())

    keys = []
    for mode, seed in ((MODE_RIVAL, 4), (MODE_TABLE, 6)):
        m = Model(mode, seed)
        m.play_simple(2)
        keys = m.keys + [SETTLE]
        if fast:
            with sim_fast.fast():
                r = sim.run_headless(keys, seed=seed, on_frame=on_frame, render_every=1)
        else:
            r = sim.run_headless(keys, seed=seed, on_frame=on_frame, render_every=1)
        assert r.ok, r.error
    return shots


def test_the_fast_pixel_loop_draws_the_apps_screens_as_blinka_does():
    fast = _app_screens(True)
    assert len(fast) > 30 and len(set(fast)) > 10  # screens enough, and different ones
    assert fast == _app_screens(False)


def _fields(grid):
    # Every field of a TileGrid as Blinka keeps it (vars(): its own names, whatever they are),
    # an Area as its corners.
    out = {}
    for name, value in vars(grid).items():
        if hasattr(value, "x1"):
            value = (value.x1, value.y1, value.x2, value.y2)
        elif isinstance(value, bytearray):
            value = bytes(value)
        out[name] = value
    return out


def _outcome(call):
    try:
        return "ok", call()
    except Exception as e:  # noqa: BLE001 - the error is part of what must be the same
        return type(e).__name__, str(e)


def test_a_tile_grids_items_inside_fast_are_blinkas():
    # sim_fast.set_item / get_item against TileGrid.__setitem__ / __getitem__ as Blinka has
    # them: two grids alike, the same random writes and reads (int, tuple and list indices, out
    # of bounds, values out of range), refreshed between batches (a refresh starts a new dirty
    # area): every field, every answer and every error the same after each.
    rng = random.Random(37)
    sim_display.release()
    display = SimDisplay()
    try:
        for _ in range(30):
            size = dict(width=1 + rng.randrange(6), height=1 + rng.randrange(6),
                        tile_width=1 + rng.randrange(8), tile_height=1 + rng.randrange(8))
            # 16 tiles in the bitmap: some values past them, which Blinka takes as they come.
            bitmap = displayio.Bitmap(4 * size["tile_width"], 4 * size["tile_height"], 4)
            palette = displayio.Palette(4)
            ours = displayio.TileGrid(bitmap, pixel_shader=palette, **size)
            blinkas = displayio.TileGrid(bitmap, pixel_shader=palette, **size)
            root = displayio.Group()
            root.append(ours)
            root.append(blinkas)
            display.root_group = root
            w, h = ours.width, ours.height
            for _ in range(4):
                display.render_now()
                for _ in range(12):
                    pick = rng.randrange(3)
                    if pick == 0:
                        index = rng.randrange(-2, w * h + 2)
                    else:
                        index = (rng.randrange(-1, w + 2), rng.randrange(-1, h + 2))
                        index = list(index) if pick == 2 else index
                    value = rng.choice((rng.randrange(16), rng.randrange(-2, 258)))
                    if rng.randrange(3):
                        got = (_outcome(lambda: sim_fast.set_item(ours, index, value)),
                               _outcome(lambda: sim_fast.BLINKA_SET_ITEM(blinkas, index, value)))
                    else:
                        got = (_outcome(lambda: sim_fast.get_item(ours, index)),
                               _outcome(lambda: sim_fast.BLINKA_GET_ITEM(blinkas, index)))
                    assert got[0] == got[1], (index, value)
                    assert _fields(ours) == _fields(blinkas), (index, value)
    finally:
        sim_display.release()
