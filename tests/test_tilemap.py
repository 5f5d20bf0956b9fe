"""Tile maps: the grid API, merged boxes for rigid bodies, and grid-direct character sweeps.

Oracles: brute force over every tile in NumPy (box overlap depth, swept-box first entry into
any solid cell), shapely for the merged boxes, and closed forms for the seam tests.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely.geometry import box as sbox
from shapely.ops import unary_union

import collide2d as c2d
from collide2d._kernels import tiles as tk

DT = 1.0 / 60.0
SKIN = 1e-5  # the world's default character skin


# ---------------------------------------------------------------------------- brute force
def solid_cells(grid, s=1.0, origin=(0.0, 0.0)):
    """(k, 4) boxes x0, y0, x1, y1 of the solid tiles."""
    ij = np.argwhere(np.asarray(grid) != 0)
    x0 = origin[0] + ij[:, 1] * s
    y0 = origin[1] + ij[:, 0] * s
    return np.stack([x0, y0, x0 + s, y0 + s], axis=1)


def deepest_overlap(centres, half, cells):
    """Largest over boxes and solid tiles of min(x overlap, y overlap), 0 when apart."""
    c = np.asarray(centres, float).reshape(-1, 2)
    h = np.asarray(half, float).reshape(-1, 2)
    ox = np.minimum(c[:, None, 0] + h[:, None, 0], cells[None, :, 2]) - np.maximum(
        c[:, None, 0] - h[:, None, 0], cells[None, :, 0]
    )
    oy = np.minimum(c[:, None, 1] + h[:, None, 1], cells[None, :, 3]) - np.maximum(
        c[:, None, 1] - h[:, None, 1], cells[None, :, 1]
    )
    depth = np.where((ox > 0) & (oy > 0), np.minimum(ox, oy), 0.0)
    return float(depth.max(initial=0.0))


def first_entry(centre, half, d, cells):
    """Earliest t in [0, 1] at which the box's interior meets any solid tile (inf if never):
    the union's first contact is the first contact with one of its cells."""
    lo_b = np.asarray(centre) - half
    hi_b = np.asarray(centre) + half
    t_in = np.full(len(cells), -np.inf)
    t_out = np.full(len(cells), np.inf)
    for a in range(2):
        c_lo, c_hi = cells[:, a], cells[:, a + 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            if d[a] > 0:
                enter, leave = (c_lo - hi_b[a]) / d[a], (c_hi - lo_b[a]) / d[a]
            elif d[a] < 0:
                enter, leave = (c_hi - lo_b[a]) / d[a], (c_lo - hi_b[a]) / d[a]
            else:
                inside = (hi_b[a] > c_lo) & (lo_b[a] < c_hi)
                enter = np.where(inside, -np.inf, np.inf)
                leave = np.where(inside, np.inf, -np.inf)
        t_in = np.maximum(t_in, enter)
        t_out = np.minimum(t_out, leave)
    hit = (t_in < t_out) & (t_in <= 1.0) & (t_out > 0.0)
    return float(np.maximum(t_in[hit], 0.0).min(initial=np.inf))


def random_map(rng, ny, nx, fill):
    grid = rng.random((ny, nx)) < fill
    grid[0, :] = grid[-1, :] = True
    grid[:, 0] = grid[:, -1] = True
    return grid


def character(world, position, w=0.8, h=0.8):
    body = world.add_body(kind="kinematic", position=position)
    body.add_box(w, h)
    return body


# ---------------------------------------------------------------------------- grid API
@pytest.mark.nojit
def test_tilemap_geometry_and_indexing():
    world = c2d.World()
    grid = np.zeros((3, 5), dtype=np.int64)
    grid[0, :] = 7
    tm = world.add_tilemap(grid, tile_size=0.5, origin=(10.0, -2.0))
    assert tm.shape == (3, 5)
    assert tm.tile_bounds(2, 4) == (12.0, -1.0, 12.5, -0.5)  # x0 + 4 s, y0 + 2 s
    assert tm.cell_at((10.01, -1.99)) == (0, 0)
    assert tm.cell_at((12.49, -0.51)) == (2, 4)
    assert tm.cell_at((9.99, -1.0)) is None
    assert tm[0, 3] == 7 and tm[1, 3] == 0
    assert tm.response(7) == "slide" and tm.response(0) == "empty"
    with pytest.raises(ValueError):
        tm.grid[0, 0] = 1  # read-only: edits go through set_tile
    assert world.tilemaps == [tm]


@pytest.mark.nojit
@pytest.mark.parametrize(
    "bad, exc",
    [
        (np.zeros(4, bool), ValueError),
        (np.zeros((0, 3), bool), ValueError),
        (np.zeros((2, 2)), TypeError),
        (np.array([[0, -1]]), ValueError),
        ("abc", ValueError),
    ],
)
def test_add_tilemap_rejects_bad_grids(bad, exc):
    world = c2d.World()
    n_bodies = len(world.bodies)
    with pytest.raises(exc):
        world.add_tilemap(bad)
    assert len(world.bodies) == n_bodies and world.tilemaps == []


@pytest.mark.nojit
def test_tilemap_argument_errors_name_the_argument():
    world = c2d.World()
    tm = world.add_tilemap(np.ones((2, 2), bool))
    with pytest.raises(ValueError, match="tile_size"):
        world.add_tilemap(np.ones((2, 2), bool), tile_size=0)
    with pytest.raises(ValueError, match="i:"):
        tm.set_tile(2, 0, 1)
    with pytest.raises(TypeError, match="value"):
        tm.set_tile(0, 0, 1.5)
    with pytest.raises(ValueError, match="response"):
        tm.set_response(1, "sticky")
    with pytest.raises(ValueError, match="value"):
        tm.set_response(0, "slide")
    with pytest.raises(TypeError, match="friction|unknown"):
        world.add_tilemap(np.ones((2, 2), bool), colour=3)
    world.remove_tilemap(tm)
    assert not tm.alive and world.tilemaps == []
    with pytest.raises(ValueError, match="removed"):
        tm.set_tile(0, 0, 0)


@pytest.mark.nojit
def test_cover_chunks_covers_exactly_the_solid_cells_chunk_by_chunk():
    rng = np.random.default_rng(0)
    for _ in range(30):
        ny, nx = (int(n) for n in rng.integers(1, 40, 2))
        cls = rng.integers(0, 6, (ny, nx)).astype(np.int8)  # every class, solid or not
        solid = np.isin(cls, (tk.SLIDE, tk.TOUCH, tk.BOUNCE))
        n_ci, n_cj = -(-ny // tk.CHUNK), -(-nx // tk.CHUNK)
        out = np.empty((ny * nx + 1, 4), np.int64)
        counts = np.zeros(n_ci * n_cj, np.int64)
        k = tk.cover_chunks(cls.ravel(), ny, nx, 0, n_ci, 0, n_cj, out, counts,
                            np.empty((6, tk.CHUNK + 1), np.int64))
        assert k == counts.sum()
        cover = np.zeros((ny, nx), np.int64)
        pos = 0
        for c in range(n_ci * n_cj):
            ci, cj = divmod(c, n_cj)
            for i0, j0, i1, j1 in out[pos:pos + counts[c]]:
                assert i0 < i1 and j0 < j1
                # Inside its own chunk.
                assert ci * tk.CHUNK <= i0 and i1 <= (ci + 1) * tk.CHUNK
                assert cj * tk.CHUNK <= j0 and j1 <= (cj + 1) * tk.CHUNK
                cover[i0:i1, j0:j1] += 1
            pos += counts[c]
        assert np.array_equal(cover, solid.astype(np.int64))  # each solid cell exactly once
        # Never more rectangles than row runs within chunks.
        runs = int(np.sum(solid[:, 0])) + int(np.sum(solid[:, 1:] & ~solid[:, :-1]))
        runs += int(np.sum(solid[:, tk.CHUNK::tk.CHUNK] & solid[:, tk.CHUNK - 1:-1:tk.CHUNK]))
        assert k <= runs


@pytest.mark.nojit
def test_cover_chunks_reports_a_buffer_too_small():
    cls = np.ones(4 * 4, np.int8)
    out = np.empty((0, 4), np.int64)
    counts = np.zeros(1, np.int64)
    assert tk.cover_chunks(cls, 4, 4, 0, 1, 0, 1, out, counts,
                           np.empty((6, tk.CHUNK + 1), np.int64)) == -1


def test_rigid_boxes_match_the_solid_tiles_and_follow_edits():
    rng = np.random.default_rng(1)
    grid = rng.integers(0, 4, (37, 21))  # ids 1..3, crossing chunk borders
    world = c2d.World()
    tm = world.add_tilemap(grid, tile_size=0.5, origin=(-3.0, 2.0))
    tm.set_response(3, "oneway")  # not given to rigid bodies

    def boxes_union():
        return unary_union(
            [sbox(*p.min(0), *p.max(0)) for sh in tm.body.shapes for p in sh.world_parts()]
        )

    def expected(g):
        cells = solid_cells((g == 1) | (g == 2), 0.5, (-3.0, 2.0))
        return unary_union([sbox(*c) for c in cells])

    assert boxes_union().symmetric_difference(expected(grid)).area < 1e-12
    n_parts = sum(len(sh.parts) for sh in tm.body.shapes)
    assert n_parts < np.count_nonzero((grid == 1) | (grid == 2))  # merged
    tm.set_tile(20, 10, 0)
    tm.set_tile(5, 5, 2)
    grid[20, 10], grid[5, 5] = 0, 2
    assert boxes_union().symmetric_difference(expected(grid)).area < 1e-12


def test_dynamic_box_rests_on_tiles_and_falls_when_they_go():
    world = c2d.World(gravity=(0, -10))
    grid = np.zeros((4, 10), bool)
    grid[0, :] = True  # floor top at y = 1
    tm = world.add_tilemap(grid)
    crate = world.add_body(position=(4.5, 3.0))
    crate.add_box(1, 1)
    for _ in range(90):
        world.step(DT)
    assert crate.position[1] == pytest.approx(1.5, abs=0.02)
    for j in range(3, 7):
        tm.set_tile(0, j, 0)
    for _ in range(60):
        world.step(DT)
    assert crate.position[1] < 0.0


# ---------------------------------------------------------------------------- seams
def test_box_slides_along_a_100_tile_floor_without_snagging():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((3, 120), bool)
    grid[0, :] = True  # 120 tiles, top y = 1
    world.add_tilemap(grid)
    hero = character(world, (2.0, 1.4 + SKIN))
    vx = 9.0
    x = 2.0
    for _ in range(600):
        r = world.move_and_slide(hero, (vx, -20.0 * DT), DT, up=(0, 1))
        x += vx * DT
        assert r.on_floor and not r.on_wall
        assert r.velocity[0] == vx
        assert r.position[0] == pytest.approx(x, abs=1e-9)
        assert r.position[1] == pytest.approx(1.4, abs=2 * SKIN)
        if x > 100:
            break


@pytest.mark.parametrize("side", [-1, 1])
def test_45_degree_slide_along_a_100_tile_wall_keeps_tangential_speed(side):
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((110, 5), bool)
    grid[:, 0 if side < 0 else 4] = True  # a wall of 110 tiles, one column
    world.add_tilemap(grid)
    x0 = 1.4 + SKIN if side < 0 else 3.6 - SKIN
    hero = character(world, (x0, 1.0))
    speed = 12.0
    v = speed * np.array([side, 1.0]) / math.sqrt(2)
    y = 1.0
    for _ in range(800):
        r = world.move_and_slide(hero, v, DT)
        y += v[1] * DT
        assert r.velocity.tolist() == [0.0, v[1]]  # normal part gone, tangential kept
        assert r.position[1] == pytest.approx(y, abs=1e-9)
        assert r.position[0] == pytest.approx(x0, abs=2 * SKIN)
        if y > 100:
            break
    assert y > 100


def test_box_along_a_ceiling_of_tiles_never_snags():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((6, 80), bool)
    grid[5, :] = True  # ceiling bottom at y = 5
    world.add_tilemap(grid)
    hero = character(world, (1.0, 4.6 - SKIN))
    for k in range(400):
        r = world.move_and_slide(hero, (7.0, 3.0), DT, up=(0, 1))
        assert r.on_ceiling and not r.on_wall and not r.on_floor
        assert r.position[0] == pytest.approx(1.0 + 7.0 * DT * (k + 1), abs=1e-9)
        if r.position[0] > 70:
            break


def test_walking_off_an_outer_corner_neither_snags_nor_floors_on_the_corner():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((8, 30), bool)
    grid[0, :] = True  # low floor, top y = 1
    grid[1:4, :10] = True  # a ledge of 10 columns, top y = 4, corner x = 10
    world.add_tilemap(grid)
    hero = character(world, (2.0, 4.4 + SKIN))
    v = np.zeros(2)
    vx, g = 5.0, -30.0
    xs, left_ledge = [], False
    for _ in range(240):
        r = world.move_and_slide(hero, (vx, v[1] + g * DT), DT, up=(0, 1))
        v = r.velocity
        xs.append(r.position[0])
        assert not r.on_wall  # never catches the ledge's side
        bottom = r.position[1] - 0.4
        if r.on_floor:
            # Floors only on the ledge top (while over it at the move's start) or the low
            # floor.
            start_left = r.position[0] - vx * DT - 0.4
            assert (abs(bottom - 4.0) < 1e-3 and start_left < 10.0) or abs(bottom - 1.0) < 1e-3
        if bottom < 3.9:
            left_ledge = True
    assert left_ledge and r.on_floor and abs(r.position[1] - 1.4) < 1e-3
    assert np.allclose(np.diff(xs), vx * DT, atol=1e-9)  # constant horizontal speed


def test_rising_past_a_wall_top_is_never_a_floor():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((12, 12), bool)
    grid[0, :] = True
    grid[:6, 6] = True  # a pillar, top y = 6, left face x = 6
    world.add_tilemap(grid)
    hero = character(world, (5.6 - SKIN, 1.4 + SKIN))
    floors_while_rising = 0
    for _ in range(90):
        r = world.move_and_slide(hero, (4.0, 9.0), DT, up=(0, 1))
        if r.on_floor:
            floors_while_rising += 1
    assert floors_while_rising == 0
    assert r.position[1] - 0.4 > 6.0 and r.position[0] > 6.0  # went over the top


# ---------------------------------------------------------------------------- random maps
def test_random_maps_fast_movers_never_overlap_or_leave():
    rng = np.random.default_rng(7)
    for trial in range(25):
        ny, nx = rng.integers(5, 40, 2)
        grid = random_map(rng, ny, nx, rng.uniform(0.05, 0.5))
        s = float(rng.choice([0.25, 1.0, 3.0]))
        origin = rng.uniform(-50, 50, 2)
        world = c2d.World(gravity=(0, 0))
        world.add_tilemap(grid, tile_size=s, origin=origin)
        cells = solid_cells(grid, s, origin)
        free = np.argwhere(~grid)
        pick = free[rng.choice(len(free), size=min(10, len(free)), replace=False)]
        half = rng.uniform(0.02, 0.49, (len(pick), 2)) * s
        ids = []
        for (i, j), (hx, hy) in zip(pick, half, strict=True):
            ids.append(character(world, origin + (np.array([j, i]) + 0.5) * s, 2 * hx, 2 * hy).id)
        ids = np.array(ids)
        lo, hi = origin, origin + s * np.array([nx, ny])
        for _ in range(30):
            speed = rng.choice([0.01, 1.0, 20.0, 200.0], size=(len(ids), 1)) * s
            v = rng.normal(size=(len(ids), 2)) * speed
            r = world.move_and_slide_many(ids, v, 1.0, up=(0, 1) if trial % 2 else None)
            assert deepest_overlap(r.position, half, cells) <= 1e-6
            assert np.all(r.position - half >= lo) and np.all(r.position + half <= hi)


def test_first_hit_matches_brute_force_entry_over_all_tiles():
    """One slide: the mover stops where the box first meets any solid tile (brute force over
    every cell, internal faces included), a skin short along the contact normal."""
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(400):
        grid = random_map(rng, 24, 24, 0.3)
        world = c2d.World(gravity=(0, 0))
        world.add_tilemap(grid)
        cells = solid_cells(grid)
        half = rng.uniform(0.05, 0.45, 2)
        p = rng.uniform(1.5, 22.5, 2)
        if deepest_overlap(p, half, cells) > 0 or first_entry(p, half, np.zeros(2), cells) < 1:
            continue
        d = rng.normal(size=2) * rng.choice([0.5, 5.0, 40.0])
        body = character(world, p, *(2 * half))
        r = world.move_and_slide(body, d, 1.0, max_slides=1)
        t = first_entry(p, half, d, cells)
        if t == np.inf:
            assert r.contacts == [] and np.allclose(r.position, p + d, atol=1e-12)
            continue
        n = r.contacts[0].normal   # from the mover to the tile: d @ n > 0
        # At time t the box touches; the mover stops short by the skin along the normal.
        assert d @ n > 0
        back = SKIN / (d @ n)
        assert r.position == pytest.approx(p + max(t - back, 0.0) * d, abs=1e-9)
        assert abs(n[0]) + abs(n[1]) == 1.0  # a face normal of a tile
        checked += 1
    assert checked > 100


# ---------------------------------------------------------------------------- edits, responses
def test_set_tile_blocks_at_once_and_a_tile_set_on_a_character_pushes_it_out():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((5, 10), bool)
    tm = world.add_tilemap(grid)
    hero = character(world, (1.5, 2.5))
    tm.set_tile(2, 4, True)  # a wall tile x in [4, 5]
    r = world.move_and_slide(hero, (60.0, 0.0), 1.0)
    assert r.position[0] == pytest.approx(3.6 - SKIN, abs=1e-9)
    tm.set_tile(2, 3, True)  # now covering most of the hero (x in [3, 4])
    r = world.move_and_slide(hero, (0.0, 0.0), DT)
    cells = solid_cells(tm.grid)
    assert deepest_overlap(r.position, (0.4, 0.4), cells) <= 1e-6
    tm.set_tile(2, 3, False)
    tm.set_tile(2, 4, False)
    r = world.move_and_slide(hero, (60.0, 0.0), 0.1)
    assert r.contacts == []


def test_tile_responses_touch_cross_bounce():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((5, 40), np.int64)
    grid[2, 10] = 2  # touch
    grid[2, 20] = 3  # cross (water)
    grid[2, 30] = 4  # bounce
    tm = world.add_tilemap(grid)
    tm.set_response(2, "touch")
    tm.set_response(3, "cross")
    tm.set_response(4, "bounce")
    a = character(world, (8.0, 2.5))
    r = world.move_and_slide(a, (10.0, 1.0), 1.0)
    assert r.velocity.tolist() == [0.0, 0.0] and r.contacts[0].response == "touch"
    assert r.position[0] == pytest.approx(9.6 - SKIN, abs=1e-9)
    b = character(world, (18.0, 2.5))
    r = world.move_and_slide(b, (5.0, 0.0), 1.0)
    assert r.position[0] == pytest.approx(23.0)  # passed through the water tile
    assert [(c.response, c.tile) for c in r.contacts] == [("cross", (2, 20))]
    c = character(world, (28.0, 2.5))
    r = world.move_and_slide(c, (3.0, 0.0), 1.0)  # face at x = 30, 1.6 m away
    assert r.velocity.tolist() == [-3.0, 0.0]
    assert r.position[0] == pytest.approx(29.6 - 1.4, abs=1e-4)  # 1.6 in, 1.4 back


def test_cross_tiles_report_a_round_mover_only_when_it_really_enters():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((6, 12), np.int64)
    grid[2, 5] = 9                         # a pickup tile, x in [5, 6], y in [2, 3]
    tm = world.add_tilemap(grid)
    tm.set_response(9, "cross")
    ball = world.add_body(kind="kinematic", position=(1.0, 3.45))
    ball.add_circle(0.5)
    r = world.move_and_slide(ball, (8.0, 0.0), 1.0)      # its bottom (y 2.95) skims the tile
    assert [(c.tile, c.response) for c in r.contacts] == [((2, 5), "cross")]
    assert r.position.tolist() == [9.0, 3.45]
    # Along x + y = 6.2 the disc passes the tile's corner (5, 2) at 0.8 / sqrt(2) = 0.566 m
    # > 0.5 m: never inside, although its bounding box cuts the tile's corner.
    ball2 = world.add_body(kind="kinematic", position=(3.6, 2.6))
    ball2.add_circle(0.5)
    r = world.move_and_slide(ball2, (2.0, -2.0), 1.0)
    assert r.contacts == []
    assert r.position == pytest.approx((5.6, 0.6), abs=1e-12)


def test_oneway_tiles_jump_through_land_and_drop_off():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((20, 12), np.int64)
    grid[0, :] = grid[:, 0] = grid[:, -1] = 1
    grid[5, 3:8] = 2  # one-way platform, top y = 6, x in [3, 8]
    tm = world.add_tilemap(grid)
    tm.set_response(2, "oneway")
    hero = character(world, (5.0, 1.4 + SKIN))
    g = -20.0
    v = np.array([0.0, 16.0])  # apex 6.4 m higher: clears the top
    passed_through = landed = False
    for _ in range(200):
        r = world.move_and_slide(hero, v + (0.0, g * DT), DT, up=(0, 1))
        v = r.velocity
        if 4.0 < r.position[1] < 6.4:
            passed_through = True
        if r.on_floor and r.position[1] > 6:
            landed = True
            break
    assert passed_through and landed
    assert r.position[1] == pytest.approx(6.4, abs=2 * SKIN)
    # Walk right off its end and fall to the floor (the wall stops it at x = 10.6).
    for _ in range(100):
        r = world.move_and_slide(hero, (4.0, v[1] + g * DT), DT, up=(0, 1))
        v = r.velocity
    assert r.on_floor and r.position[1] == pytest.approx(1.4, abs=2 * SKIN)
    assert r.position[0] == pytest.approx(10.6, abs=2 * SKIN)
    # Walking under it along the floor never touches it.
    for _ in range(120):
        r = world.move_and_slide(hero, (-4.0, -1.0), DT, up=(0, 1))
        assert not r.on_ceiling
