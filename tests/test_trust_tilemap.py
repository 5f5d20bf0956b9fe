"""Tile maps under hostile input: linear builds, calls that refuse cleanly, saves that load.

Every refused call must leave the world exactly as it was (``world.snapshot()`` bytes equal
before and after), and every accepted call must leave a world whose snapshot restores.
Expected geometry comes from a plain-Python reference of the greedy chunk cover (the
algorithm whose output snapshots and golden hashes record) and from closed forms.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import collide2d as c2d
from collide2d import tilemap as tmod

CHUNK = 16


# ---------------------------------------------------------------------------- helpers
def reference_boxes(grid, solid_ids=None, s=1.0, origin=(0.0, 0.0)):
    """Per chunk in row-major chunk order: the list of (4, 2) boxes the build must produce.

    Row runs of solid cells, merged downwards while the run below has the same columns;
    rectangles listed in the order they close (a row's open rectangles close left to right
    when the next row's runs no longer continue them)."""
    g = np.asarray(grid)
    solid = g != 0 if solid_ids is None else np.isin(g, solid_ids)
    ny, nx = solid.shape
    out = []
    for ci in range(-(-ny // CHUNK)):
        for cj in range(-(-nx // CHUNK)):
            i0, i1 = ci * CHUNK, min(ci * CHUNK + CHUNK, ny)
            j0, j1 = cj * CHUNK, min(cj * CHUNK + CHUNK, nx)
            rects = []
            open_ = []  # (a, b, first row), by column
            for i in range(i0, i1 + 1):
                runs = []
                if i < i1:
                    j = j0
                    while j < j1:
                        if solid[i, j]:
                            a = j
                            while j < j1 and solid[i, j]:
                                j += 1
                            runs.append((a, j))
                        else:
                            j += 1
                new = []
                p = 0
                for a, b in runs:
                    while p < len(open_) and (open_[p][0] < a or (open_[p][0] == a
                                                                  and open_[p][1] != b)):
                        rects.append((open_[p][2], open_[p][0], i, open_[p][1]))
                        p += 1
                    if p < len(open_) and open_[p][:2] == (a, b):
                        new.append((a, b, open_[p][2]))
                        p += 1
                    else:
                        new.append((a, b, i))
                rects.extend((o[2], o[0], i, o[1]) for o in open_[p:])
                open_ = new
            if rects:
                r = np.array(rects, dtype=np.float64)
                x0, y0 = origin[0] + r[:, 1] * s, origin[1] + r[:, 0] * s
                x1, y1 = origin[0] + r[:, 3] * s, origin[1] + r[:, 2] * s
                out.append([np.array([[a, b], [c, b], [c, d], [a, d]])
                            for a, b, c, d in zip(x0, y0, x1, y1, strict=True)])
    return out


def body_boxes(tm):
    return [sh.parts for sh in tm.body.shapes]


def same_boxes(got, want):
    return len(got) == len(want) and all(
        len(g) == len(w) and all(np.array_equal(a, b) for a, b in zip(g, w, strict=True))
        for g, w in zip(got, want, strict=True))


def assert_refused(world, exc, match, call):
    """``call`` raises ``exc`` naming the argument and leaves the world's bytes unchanged."""
    before = world.snapshot()
    with pytest.raises(exc, match=match):
        call()
    assert world.snapshot() == before
    c2d.World.restore(world.snapshot())


def assert_restores(world):
    data = world.snapshot()
    twin = c2d.World.restore(data)
    assert twin.snapshot() == data


class KernelSpy:
    """Stands in for the tile kernels module, recording each call's name and arguments."""

    def __init__(self, real):
        self.real = real
        self.calls = []

    def __getattr__(self, name):
        f = getattr(self.real, name)
        if not callable(f):
            return f

        def call(*args):
            self.calls.append((name, args))
            return f(*args)

        return call


# ---------------------------------------------------------------------------- 1. build cost
@pytest.mark.nojit
@pytest.mark.parametrize("shape", [(1, 1), (16, 16), (17, 33), (40, 7), (64, 50)])
def test_build_gives_the_reference_boxes_in_chunk_order(shape):
    rng = np.random.default_rng(sum(shape))
    grid = rng.integers(0, 4, shape)
    grid[rng.random(shape) < 0.3] = 0
    w = c2d.World()
    tm = w.add_tilemap(grid, tile_size=0.25, origin=(-3.0, 1.5))
    assert same_boxes(body_boxes(tm), reference_boxes(grid, s=0.25, origin=(-3.0, 1.5)))
    # Chunks keyed in row-major order, one Shape each.
    keys = list(tm._chunks)
    assert keys == sorted(keys) and [tm._chunks[k] for k in keys] == tm.body.shapes
    # An edit rebuilds its chunk from the edited grid (the chunk's Shape moves to the end).
    tm.set_response(2, "cross")
    tm.set_tile(shape[0] - 1, 0, 3)
    grid[shape[0] - 1, 0] = 3
    want = reference_boxes(grid, solid_ids=(1, 3), s=0.25, origin=(-3.0, 1.5))
    got = body_boxes(tm)
    assert sorted(map(repr, got)) == sorted(map(repr, want))


@pytest.mark.nojit
def test_build_hands_the_whole_grid_to_the_kernel_once(monkeypatch):
    """Linear build: one compiled pass over the grid for all chunks, not one per chunk (a
    work count rather than a timing: each kernel call given the grid is a pass over it)."""
    spy = KernelSpy(tmod._tk)
    monkeypatch.setattr(tmod, "_tk", spy)
    ny, nx = 100, 130                      # 7 x 9 chunks
    grid = np.zeros((ny, nx), bool)
    grid[::3] = True
    w = c2d.World()
    tm = w.add_tilemap(grid)
    passes = [c for c in spy.calls if any(
        isinstance(a, np.ndarray) and a.size == ny * nx for a in c[1])]
    assert len(passes) == 1
    # set_tile: the kernel covers just the edited tile's chunk.
    spy.calls.clear()
    tm.set_tile(51, 70, 0)                 # chunk (3, 4)
    (name, args), = spy.calls
    assert name == "cover_chunks" and args[3:7] == (3, 4, 4, 5)


def test_set_tile_does_no_whole_grid_work(monkeypatch):
    """Before, each rebuilt chunk ran np.isin over the whole grid: count the elements."""
    seen = []
    real_isin = np.isin

    def isin(a, *args, **kw):
        seen.append(np.size(a))
        return real_isin(a, *args, **kw)

    grid = np.ones((256, 256), bool)
    w = c2d.World()
    tm = w.add_tilemap(grid)
    monkeypatch.setattr(np, "isin", isin)
    tm.set_tile(100, 100, 0)
    tm.set_tile(100, 100, 1)
    assert sum(seen) < CHUNK * CHUNK


def test_set_tile_replaces_only_its_chunk():
    grid = np.ones((40, 40), bool)
    w = c2d.World()
    tm = w.add_tilemap(grid)
    before = {k: (sh, sh.id) for k, sh in tm._chunks.items()}
    tm.set_tile(20, 35, 0)                 # chunk (1, 2)
    for k, (sh, sid) in before.items():
        if k == (1, 2):
            assert not sh.alive
        else:
            assert tm._chunks[k] is sh and sh.alive and sh.id == sid


# ---------------------------------------------------------------------------- 2. half-applied
@pytest.mark.nojit
@pytest.mark.parametrize("group, exc", [(2**70, ValueError), (2**63, ValueError),
                                        (-(2**63) - 1, ValueError),
                                        (np.uint64(2**63), ValueError), (1.0, TypeError)])
def test_add_tilemap_with_a_bad_group_creates_nothing(group, exc):
    w = c2d.World()
    w.add_body(position=(1, 2)).add_box(1, 1)
    assert_refused(w, exc, "group", lambda: w.add_tilemap(np.ones((20, 20), bool),
                                                          group=group))
    assert w.tilemaps == [] and len(w.bodies) == 1


def test_add_tilemap_extreme_groups_that_fit_are_kept_and_restore():
    w = c2d.World()
    for g in (2**63 - 1, -(2**63)):
        tm = w.add_tilemap(np.ones((2, 2), bool), group=g)
        assert tm.body.shapes[0].group == g
    assert_restores(w)


@pytest.mark.nojit
@pytest.mark.parametrize("kw, exc, name", [
    ({"friction": 10**400}, ValueError, "friction"),
    ({"density": 1 + 1j}, TypeError, "density"),
    ({"elasticity": -1.0}, ValueError, "elasticity"),
    ({"mask": 2**40}, ValueError, "mask"),
    ({"sensor": "yes"}, TypeError, "sensor"),
])
def test_add_tilemap_with_a_bad_material_creates_nothing(kw, exc, name):
    w = c2d.World()
    assert_refused(w, exc, name, lambda: w.add_tilemap(np.ones((3, 3), bool), **kw))


def test_numpy_material_values_give_a_restorable_snapshot():
    w = c2d.World()
    w.add_tilemap(np.ones((3, 3), bool), sensor=np.True_, friction=np.float32(0.5),
                  category=np.uint8(3), group=np.int64(-2))
    assert_restores(w)


def test_removing_the_body_kills_the_tile_map_and_edits_then_change_nothing():
    w = c2d.World(gravity=(0, 0))
    grid = np.zeros((3, 40), bool)
    grid[0] = True
    tm = w.add_tilemap(grid)
    w.remove(tm.body)
    assert not tm.alive
    assert_refused(w, ValueError, "tilemap: its body was removed", lambda: tm.set_tile(0, 0, 0))
    assert_refused(w, ValueError, "tilemap: its body", lambda: tm.set_response(1, "cross"))
    assert_refused(w, ValueError, "tilemap: its body", lambda: setattr(tm, "tile_size", 2.0))
    assert_refused(w, ValueError, "tilemap: its body", lambda: setattr(tm, "origin", (1, 1)))
    assert tm[0, 0] == 1 and tm.tile_size == 1.0
    # Dead for movers too: a mover drops through where the floor was.
    hero = w.add_body(kind="kinematic", position=(5.0, 1.5))
    hero.add_box(0.8, 0.8)
    r = w.move_and_slide(hero, (0.0, -60.0), 1 / 60, up=(0, 1))
    assert r.position[1] == pytest.approx(0.5) and not r.on_floor
    # The restored world holds the same dead map.
    twin = c2d.World.restore(w.snapshot())
    assert not twin.tilemaps[0].alive
    # remove_tilemap still drops it, without touching the body again.
    w.remove_tilemap(tm)
    assert w.tilemaps == [] and not tm.alive
    assert_restores(w)
    assert_refused(w, ValueError, "tilemap: not a tile map", lambda: w.remove_tilemap(tm))
    assert_refused(w, ValueError, "removed", lambda: tm.set_tile(0, 0, 0))


def test_a_live_tile_map_still_blocks_movers():
    w = c2d.World(gravity=(0, 0))
    grid = np.zeros((3, 40), bool)
    grid[0] = True
    w.add_tilemap(grid)
    hero = w.add_body(kind="kinematic", position=(5.0, 1.5))
    hero.add_box(0.8, 0.8)
    r = w.move_and_slide(hero, (0.0, -60.0), 1 / 60, up=(0, 1))
    assert r.on_floor and r.position[1] == pytest.approx(1.4, abs=1e-4)


def test_edits_while_the_world_is_locked_change_nothing():
    w = c2d.World(gravity=(0, -10))
    tm = w.add_tilemap(np.ones((2, 20), bool))
    w.add_body(position=(3, 1.45)).add_box(1, 1)
    w.step(1 / 60)
    before = w.snapshot()
    w._locked = True  # as while the step kernel runs
    try:
        for call in (lambda: tm.set_tile(0, 0, 0), lambda: tm.set_response(1, "cross"),
                     lambda: setattr(tm, "tile_size", 2.0),
                     lambda: setattr(tm, "origin", (1.0, 0.0)),
                     lambda: w.remove_tilemap(tm)):
            with pytest.raises(RuntimeError, match="world"):
                call()
    finally:
        w._locked = False
    assert w.snapshot() == before


# ---------------------------------------------------------------------------- 3. saves
@pytest.mark.nojit
@pytest.mark.parametrize("kw, name", [
    ({"tile_size": 1e-300}, "tile_size"), ({"tile_size": 1e307}, "tile_size"),
    ({"tile_size": 0.0}, "tile_size"), ({"tile_size": -3}, "tile_size"),
    ({"tile_size": math.inf}, "tile_size"), ({"tile_size": 10**400}, "tile_size"),
    ({"origin": (1e17, 0.0)}, "origin"), ({"origin": (0.0, -1e101)}, "origin"),
    ({"origin": (math.nan, 0.0)}, "origin"), ({"origin": (10**400, 0)}, "origin"),
    ({"tile_size": 1e-90, "origin": (1.0, 0.0)}, "origin"),
])
def test_add_tilemap_refuses_places_a_snapshot_could_not_hold(kw, name):
    w = c2d.World()
    assert_refused(w, ValueError, name, lambda: w.add_tilemap(np.ones((20, 30), bool), **kw))


@pytest.mark.parametrize("kw", [
    {"tile_size": tmod.MIN_TILE_SIZE},
    {"tile_size": tmod.MAX_REACH / 32},                   # 30 columns: near the reach
    {"tile_size": 1.0, "origin": (-(2.0**40) + 30, 2.0**40 - 20)},
    {"tile_size": 1e-60, "origin": (-1e-60 * 2**39, 0.0)},
    {"tile_size": 1e90, "origin": (-1e99, 9e99 - 20e90)},
])
def test_extreme_places_within_the_bounds_restore(kw):
    w = c2d.World()
    grid = np.ones((20, 30), bool)
    grid[5, 5:9] = False
    tm = w.add_tilemap(grid, **kw)
    assert_restores(w)
    s = tm.tile_size
    o = tm.origin
    assert same_boxes(body_boxes(tm), reference_boxes(grid, s=s, origin=tuple(o)))


@pytest.mark.nojit
@pytest.mark.parametrize("value", [-3, 0, 1e-300, 1e307, math.nan, 2**1100])
def test_tile_size_setter_refuses_bad_sizes(value):
    w = c2d.World()
    tm = w.add_tilemap(np.ones((20, 30), bool))
    assert_refused(w, ValueError, "tile_size", lambda: setattr(tm, "tile_size", value))
    assert tm.tile_size == 1.0


def test_tile_size_setter_refuses_a_size_too_small_for_the_origin():
    w = c2d.World()
    tm = w.add_tilemap(np.ones((4, 4), bool), origin=(1e6, 0.0))
    assert_refused(w, ValueError, "tile_size", lambda: setattr(tm, "tile_size", 1e-7))


def test_tile_size_and_origin_setters_move_the_tiles_for_bodies_and_movers():
    w = c2d.World(gravity=(0, 0))
    grid = np.zeros((4, 40), bool)
    grid[0] = True
    grid[1, 30:] = True
    tm = w.add_tilemap(grid)
    tm.tile_size = 0.5
    assert tm.tile_size == 0.5
    assert same_boxes(body_boxes(tm), reference_boxes(grid, s=0.5))
    tm.origin = (2, -1)
    assert tm.origin.tolist() == [2.0, -1.0]
    assert same_boxes(body_boxes(tm), reference_boxes(grid, s=0.5, origin=(2.0, -1.0)))
    assert tm.tile_bounds(1, 3) == (3.5, -0.5, 4.0, 0.0)
    assert_restores(w)
    # Movers see the moved floor: top at y = -1 + 0.5.
    hero = w.add_body(kind="kinematic", position=(5.0, 1.0))
    hero.add_box(0.8, 0.8)
    r = w.move_and_slide(hero, (0.0, -120.0), 1 / 60, up=(0, 1))
    assert r.on_floor and r.position[1] == pytest.approx(-0.5 + 0.4, abs=1e-4)
    # The same values again change nothing.
    data = w.snapshot()
    tm.tile_size = 0.5
    tm.origin = np.array([2.0, -1.0])
    assert w.snapshot() == data


def test_origin_returned_is_a_copy():
    w = c2d.World()
    tm = w.add_tilemap(np.ones((2, 2), bool))
    o = tm.origin
    o[0] = 1e300
    assert tm.origin.tolist() == [0.0, 0.0]
    tm.origin += 1.0
    assert tm.origin.tolist() == [1.0, 1.0]


# ---------------------------------------------------------------------------- 4. types
@pytest.mark.nojit
@pytest.mark.parametrize("value, exc", [
    ("xy", TypeError), (("1", "2"), TypeError), ((1 + 2j, 0), TypeError),
    (np.array([1 + 2j, 0]), TypeError), (np.array([1.0, 2.0]) * 1j, TypeError),
    ((True, 0), TypeError), (None, TypeError), (3.0, TypeError), ((1, 2, 3), ValueError),
    ((10**400, 0), ValueError), ((math.inf, 0), ValueError), ((2**64, 0), ValueError),
])
def test_origin_setter_validates(value, exc):
    w = c2d.World()
    tm = w.add_tilemap(np.ones((3, 3), bool))
    assert_refused(w, exc, "origin", lambda: setattr(tm, "origin", value))
    assert_refused(w, exc, "origin", lambda: w.add_tilemap(np.ones((3, 3), bool), origin=value))


@pytest.mark.nojit
def test_big_ints_raise_value_error_and_complex_type_error_everywhere():
    w = c2d.World()
    tm = w.add_tilemap(np.ones((3, 3), bool))
    big = 2**64
    assert_refused(w, ValueError, "i:", lambda: tm.set_tile(big, 0, 1))
    assert_refused(w, ValueError, "j:", lambda: tm.set_tile(0, -big, 1))
    assert_refused(w, ValueError, "value", lambda: tm.set_tile(0, 0, 2**70))
    assert_refused(w, ValueError, "value", lambda: tm.set_tile(0, 0, np.uint64(2**63)))
    assert_refused(w, TypeError, "value", lambda: tm.set_tile(0, 0, 1 + 0j))
    assert_refused(w, ValueError, "value", lambda: tm.set_response(2**70, "cross"))
    assert_refused(w, ValueError, "i:", lambda: tm.tile_bounds(2**70, 0))
    assert_refused(w, ValueError, "i:", lambda: tm[2**70, 0])
    assert_refused(w, ValueError, "value", lambda: tm.response(2**70))
    assert_refused(w, ValueError, "point", lambda: tm.cell_at((10**400, 0)))
    assert_refused(w, TypeError, "point", lambda: tm.cell_at((1j, 0)))
    assert_refused(w, ValueError, "tile_size", lambda: setattr(tm, "tile_size", 2**2000))
    assert_refused(w, TypeError, "tile_size", lambda: setattr(tm, "tile_size", 1 + 0j))
    assert_refused(w, TypeError, "tile_size", lambda: setattr(tm, "tile_size", "2"))
    assert_refused(w, ValueError, "grid", lambda: w.add_tilemap([[2**70, 1]]))
    assert_refused(w, ValueError, "grid", lambda: w.add_tilemap(np.array([[2**63, 1]],
                                                                         np.uint64)))
    assert_refused(w, TypeError, "grid", lambda: w.add_tilemap(np.ones((2, 2), complex)))
    assert_refused(w, TypeError, "grid", lambda: w.add_tilemap([[1, "a"], [0, 0]]))


def test_cell_at_far_beyond_the_map_is_none():
    w = c2d.World()
    tm = w.add_tilemap(np.ones((3, 3), bool), tile_size=1e-100)
    assert tm.cell_at((1e300, -1e300)) is None
    assert tm.cell_at((2**80, 0)) is None
    assert tm.cell_at((1.5e-100, 2.5e-100)) == (2, 1)


# ---------------------------------------------------------------------------- 5. property
FLOATS = st.one_of(
    st.sampled_from([0.0, -0.0, -3.0, 1.0, 0.5, 1e-300, 1e-100, 1e-101, 5e-324, 1e-12, 1e12,
                     1e90, 1e99, 1e100, 1e307, 1.7e308, math.inf, -math.inf, math.nan,
                     2.0**40, 2.0**41, -(2.0**40)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e3, max_value=1e3),
)
INTS = st.one_of(st.sampled_from([0, 1, 2, 3, -1, 2**31, 2**63 - 1, 2**63, -(2**63),
                                  -(2**63) - 1, 2**64, 2**70, 10**400, -(10**400)]),
                 st.integers(-5, 40))
NUMBERS = st.one_of(FLOATS, INTS, st.sampled_from([1 + 0j, 1j, "1", None, True]))
VECTORS = st.one_of(st.tuples(NUMBERS, NUMBERS), st.sampled_from(["xy", (1.0,), None]),
                    st.tuples(FLOATS, FLOATS).map(np.array))


def mostly(sane, wild):
    """Mostly ``sane``, sometimes ``wild``: valid calls get accepted often enough to reach
    deep states, and every call may still be hostile."""
    return st.tuples(st.integers(0, 3), sane, wild).map(lambda t: t[2] if t[0] == 3 else t[1])


GROUPS = mostly(st.integers(-(2**63), 2**63 - 1),
                st.one_of(INTS, st.sampled_from([1.0, None, np.uint64(2**63), np.int64(-5)])))
SIZES = mostly(st.one_of(st.floats(0.01, 10.0),
                         st.sampled_from([1e-100, 1e-60, 1e-30, 1e30, 1e90, 3e98, 2.0**-20])),
               NUMBERS)
ORIGINS = mostly(st.one_of(st.tuples(st.floats(-100.0, 100.0), st.floats(-100.0, 100.0)),
                           st.tuples(st.sampled_from([-1e99, 1e99, 1e12, -(2.0**40), 1e-90]),
                                     st.sampled_from([1e98, -1e30, 2.0**39, 0.0]))),
                 VECTORS)
INDICES = mostly(st.integers(0, 17), st.one_of(INTS, NUMBERS))
TILES = mostly(st.integers(0, 5), st.one_of(INTS, NUMBERS))

ADD = st.tuples(st.just("add"), st.tuples(st.integers(1, 40), st.integers(1, 40)),
                st.integers(0, 2**32 - 1), SIZES, ORIGINS, GROUPS)
EDITS = st.one_of(
    st.tuples(st.just("set_tile"), st.integers(0, 3), INDICES, INDICES, TILES),
    st.tuples(st.just("tile_size"), st.integers(0, 3), SIZES),
    st.tuples(st.just("origin"), st.integers(0, 3), ORIGINS),
    st.tuples(st.just("response"), st.integers(0, 3), TILES,
              st.sampled_from(["slide", "cross", "oneway", "touch", "nope"])),
)
REMOVALS = st.tuples(st.sampled_from(["remove_tilemap", "remove_body"]), st.integers(0, 3))
OPS = st.one_of(ADD, EDITS, EDITS, EDITS, REMOVALS)   # edits more often than removals


def apply(w, maps, op):
    kind = op[0]
    if kind == "add":
        _, shape, seed, size, origin, group = op
        grid = np.random.default_rng(seed).integers(0, 4, shape)
        maps.append(w.add_tilemap(grid, tile_size=size, origin=origin, group=group))
        return
    if not maps:
        return
    live = [m for m in maps if m.alive]
    pick = live if op[1] != 3 and live else maps  # mostly a live map, sometimes any handle
    tm = pick[op[1] % len(pick)]
    if kind == "set_tile":
        tm.set_tile(op[2], op[3], op[4])
    elif kind == "tile_size":
        tm.tile_size = op[2]
    elif kind == "origin":
        tm.origin = op[2]
    elif kind == "response":
        tm.set_response(op[2], op[3])
    elif kind == "remove_tilemap":
        w.remove_tilemap(tm)
    else:
        w.remove(tm.body)


@pytest.mark.nojit
@given(st.lists(OPS, min_size=1, max_size=16))
def test_random_tile_map_calls_refuse_cleanly_or_save_restorably(ops):
    w = c2d.World()
    w.add_body(position=(0.0, 3.0)).add_box(1.0, 1.0)
    maps = []
    apply(w, maps, ("add", (20, 18), 1, 0.5, (-2.0, 0.0), 0))
    for op in ops:
        before = w.snapshot()
        try:
            apply(w, maps, op)
        except (ValueError, TypeError):
            assert w.snapshot() == before, op
            continue
        data = w.snapshot()
        twin = c2d.World.restore(data)
        assert twin.snapshot() == data, op
    # The surviving live maps' boxes are what their grids and places say.
    for tm in w.tilemaps:
        if tm.alive:
            solid = [v for v in np.unique(tm.grid).tolist()
                     if tm.response(v) in ("slide", "touch", "bounce")]
            want = reference_boxes(tm.grid, solid, tm.tile_size, tuple(tm.origin))
            got = body_boxes(tm)
            assert sorted(map(repr, got)) == sorted(map(repr, want))


def test_a_new_tile_map_taking_a_dead_ones_body_slot_saves_and_restores():
    w = c2d.World()
    dead = w.add_tilemap(np.ones((2, 2), bool))
    w.remove(dead.body)
    assert w.tilemaps == [dead]
    tm = w.add_tilemap(np.ones((3, 3), bool))   # its body takes the freed slot
    assert tm.body._slot == dead.body._slot
    assert w.tilemaps == [tm] and not dead.alive
    assert_restores(w)
