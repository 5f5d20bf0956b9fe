"""Huge finite coordinates: answered correctly up to COORD_MAX, refused by name beyond it,
never answered with NaN."""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2d
from collide2d import _validate as V

BIG = V.COORD_MAX
HUGE = 1.7e308


def square(side: float, corner=(0.0, 0.0)) -> np.ndarray:
    x, y = corner
    return np.array([(x, y), (x + side, y), (x + side, y + side), (x, y + side)])


# ---------------------------------------------------------------- beyond the bound: refused


@pytest.mark.nojit
def test_raycast_with_huge_ends_is_refused_by_name():
    world = c2d.World()
    world.add_body(kind="static").add_box(2.0, 2.0)
    with pytest.raises(ValueError, match=r"^a: magnitude 1\.7e\+308 exceeds"):
        world.raycast((-HUGE, -0.5), (HUGE, -0.5))
    with pytest.raises(ValueError, match=r"^ends: magnitude"):
        world.raycast_many([(0.0, 0.0)], [(HUGE, 0.0)])
    with pytest.raises(ValueError, match=r"^b: magnitude"):
        world.raycast_all((0.0, 0.0), (0.0, -HUGE))
    with pytest.raises(ValueError, match=r"^end: magnitude"):
        world.shape_cast(c2d.Circle((0, 0), 1.0), (0.0, 0.0), (HUGE, 0.0))


@pytest.mark.nojit
def test_segment_intersection_with_huge_ends_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^a: magnitude"):
        c2d.segment_intersection((-HUGE, 0), (HUGE, 0), (0, -1), (0, 1))
    with pytest.raises(ValueError, match=r"^d: magnitude"):
        c2d.segment_intersection((-1, 0), (1, 0), (0, -1), (0, HUGE))
    with pytest.raises(ValueError, match=r"^c: magnitude"):
        c2d.segment_intersection_many([(-1, 0)], [(1, 0)], [(0, -HUGE)], [(0, 1)])


@pytest.mark.nojit
def test_sweep_with_huge_velocity_is_refused_by_name():
    a, b = square(1.0), square(1.0, (3.0, 0.0))
    with pytest.raises(ValueError, match=r"^velocity_a: magnitude"):
        c2d.sweep(a, (HUGE, 0.0), b)
    with pytest.raises(ValueError, match=r"^t_max: the relative displacement"):
        c2d.sweep(a, (1e70, 0.0), b, (-1e70, 0.0), t_max=1e10)
    pool = c2d.pack_shapes([a, b])
    with pytest.raises(ValueError, match=r"^velocities_a: magnitude"):
        c2d.sweep_many(pool, [(0, 1)], [(HUGE, 0.0)])


@pytest.mark.nojit
@pytest.mark.parametrize("side", [HUGE, 1e300, 2 * BIG])
def test_huge_square_is_refused_as_too_large_not_as_flat(side):
    for call in (c2d.polygon_mass, c2d.decompose, c2d.is_convex):
        with pytest.raises(ValueError, match=r"^polygon: magnitude .* exceeds the supported"):
            call(square(side))
    with pytest.raises(ValueError, match=r"^center: magnitude"):
        c2d.Circle((side, 0.0), 1.0)
    with pytest.raises(ValueError, match=r"^radius: magnitude"):
        c2d.Circle((0.0, 0.0), side)


@pytest.mark.nojit
def test_mass_overflow_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^polygon: its mass or moment of inertia overflows"):
        c2d.polygon_mass(square(1e75), density=1e200)
    with pytest.raises(ValueError, match=r"^polygon: the circle's mass"):
        c2d.polygon_mass(c2d.Circle((0, 0), 1e75), density=1e200)


# ---------------------------------------------------------------- at the bound: answered


@pytest.mark.nojit
def test_polygon_mass_of_a_square_at_the_bound():
    s = BIG
    info = c2d.polygon_mass(square(s))
    assert info.mass == pytest.approx(s * s, rel=1e-12)
    assert info.centroid == pytest.approx([s / 2, s / 2], rel=1e-12)
    assert info.inertia == pytest.approx(s**2 * (s**2 + s**2) / 12.0, rel=1e-9)


def test_raycast_across_the_bound_hits_the_box():
    world = c2d.World()
    world.add_body(kind="static").add_box(2.0, 2.0)
    hit = world.raycast((-BIG, -0.5), (BIG, -0.5))
    assert hit is not None
    assert np.all(np.isfinite(hit.point)) and np.all(np.isfinite(hit.normal))
    # The fraction is 1/2 - 1/(2 BIG): float64 resolves the point only to about 1e-16 BIG.
    assert abs(hit.point[0] + 1.0) <= 1e-15 * BIG and hit.point[1] == -0.5
    assert hit.normal.tolist() == [-1.0, 0.0]


@pytest.mark.nojit
def test_segment_intersection_at_the_bound():
    hit = c2d.segment_intersection((-BIG, -BIG), (BIG, BIG), (-BIG, BIG), (BIG, -BIG))
    assert hit.t == 0.5 and hit.u == 0.5 and hit.point.tolist() == [0.0, 0.0]


def test_sweep_at_the_bound_hits_after_the_gap_closes():
    # Gap 2 m closed at BIG m/s.
    hit = c2d.sweep(square(1.0), (BIG, 0.0), square(1.0, (3.0, 0.0)))
    assert hit.time == pytest.approx(2.0 / BIG, rel=1e-9)
    assert hit.normal.tolist() == [1.0, 0.0]   # from A to B, which lies to its right


def test_random_shapes_at_the_bound_give_no_nan():
    rng = np.random.default_rng(7)
    for trial in range(60):
        scale = BIG * rng.uniform(0.1, 1.0) / 3.0
        def convex(n, c, r):
            t = np.sort(rng.uniform(0, 2 * math.pi, n))
            return c2d.convex_hull(np.column_stack((c[0] + r * np.cos(t), c[1] + r * np.sin(t))))
        a = convex(int(rng.integers(3, 9)), rng.uniform(-scale, scale, 2), scale)
        b = convex(int(rng.integers(3, 9)), rng.uniform(-scale, scale, 2), scale)
        if len(a) < 3 or len(b) < 3:
            continue
        p, q = rng.uniform(-BIG, BIG, (2, 2))
        outs = [c2d.segment_polygon(p, q, a), c2d.clip_segment(p, q, b),
                c2d.penetration(a, b), c2d.contact_points(a, b),
                c2d.sweep(a, rng.uniform(-BIG / 2, BIG / 2, 2), b),
                c2d.segment_intersection(p, q, a[0], b[0]),
                c2d.penetration(c2d.Circle(a[0], scale), b),
                c2d.sweep(c2d.Circle(a[0], scale), rng.uniform(-BIG / 2, BIG / 2, 2), b)]
        c2d.polygons_overlap(a, b)
        for out in outs:
            if out is None:
                continue
            for field in out:
                assert np.all(np.isfinite(np.asarray(field, dtype=float))), (trial, out)
