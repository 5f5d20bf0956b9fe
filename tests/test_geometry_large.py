"""Large outlines: the compiled simple-outline test, decomposition and big convex pairs.

Oracles: shapely (union and areas of the parts, ``is_simple``), closed forms for regular
polygons, and a brute-force numpy separating-axis computation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import LinearRing, Polygon
from test_geometry_polygons import COMB, L_SHAPE, U_SHAPE, check_decomposition

import collide2d as c2d
from collide2d import _decompose as D
from collide2d import _validate as V
from collide2d._kernels import bigsat, sat


def star(n: int, r_out: float = 1.0, r_in: float = 0.5) -> np.ndarray:
    t = np.arange(n) * (2.0 * math.pi / n)
    r = np.where(np.arange(n) % 2 == 0, r_out, r_in)
    return np.column_stack((r * np.cos(t), r * np.sin(t)))


def regular(n: int, r: float = 1.0, centre=(0.0, 0.0), phase: float = 0.0) -> np.ndarray:
    t = phase + np.arange(n) * (2.0 * math.pi / n)
    return np.column_stack((centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)))


def random_star_polygon(rng, n: int, snap: bool) -> np.ndarray:
    t = np.sort(rng.uniform(0.0, 2.0 * math.pi, n))
    r = rng.uniform(0.2, 1.0, n)
    v = np.column_stack((r * np.cos(t), r * np.sin(t)))
    return np.round(v * 8.0) / 8.0 if snap else v


# ---------------------------------------------------------------- decomposition


@pytest.mark.parametrize("n", [40, 2_000, 20_000])
def test_star_decomposes_exactly(n):
    v = star(n)
    parts = c2d.decompose(v)
    check_decomposition(v, parts)
    # Each spike needs its own part: a convex part holds at most one outer tip.
    assert len(parts) >= n // 2


@pytest.mark.parametrize("seed", range(12))
def test_random_outlines_match_shapely(seed):
    rng = np.random.default_rng(seed)
    v = random_star_polygon(rng, int(rng.integers(33, 600)), snap=seed % 3 == 0)
    try:
        v = V.polygon("polygon", v)
    except ValueError:
        pytest.skip("snapping collapsed the outline")
    simple = LinearRing(v).is_simple
    if not simple:
        with pytest.raises(ValueError, match="self-intersect"):
            c2d.decompose(v)
        return
    check_decomposition(v, c2d.decompose(v))
    check_decomposition(v, c2d.decompose(v[::-1]))


@pytest.mark.nojit
@pytest.mark.parametrize("poly", [L_SHAPE, U_SHAPE, COMB, star(12)], ids=["L", "U", "comb",
                                                                          "star12"])
def test_compiled_decomposition_on_small_outlines(poly, monkeypatch):
    # Small outlines normally keep the Python algorithm: force the kernels.
    monkeypatch.setattr(D, "SMALL", 0)
    check_decomposition(poly, c2d.decompose(poly))


@pytest.mark.nojit
def test_compiled_decomposition_with_collinear_vertices(monkeypatch):
    monkeypatch.setattr(D, "SMALL", 0)
    poly = np.array([[0, 0], [1, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 1]], float)
    check_decomposition(poly, c2d.decompose(poly))
    check_decomposition(poly, c2d.decompose(poly[::-1]))


def test_large_star_on_a_body_has_the_outline_mass():
    v = star(20_000)
    world = c2d.World()
    body = world.add_body()
    shape = body.add_polygon(v, density=2.0)
    assert len(shape.parts) >= 10_000
    assert body.mass == pytest.approx(2.0 * Polygon(v).area, rel=1e-9)


def test_large_concave_query_shape_finds_the_box_inside():
    v = star(2_000)
    world = c2d.World()
    box = world.add_body(kind="static", position=(0.0, 0.0)).add_box(0.2, 0.2)
    far = world.add_body(kind="static", position=(5.0, 0.0)).add_box(0.2, 0.2)
    found = [hit.shape for hit in world.query_shape(v)]
    assert found == [box] and far not in found


# ---------------------------------------------------------------- simple outlines


def crossed_star(n: int) -> np.ndarray:
    """A star whose spike k reaches across its neighbour: one pair of edges cross."""
    v = star(n)
    k = n // 2
    t = (k + 2.5) * 2.0 * math.pi / n
    v[k] = (0.9 * math.cos(t), 0.9 * math.sin(t))
    return v


@pytest.mark.parametrize("n", [40, 20_000])
def test_crossing_spike_is_refused_as_self_intersecting(n):
    v = crossed_star(n)
    assert not LinearRing(v).is_simple
    with pytest.raises(ValueError, match="self-intersecting"):
        c2d.decompose(v)
    with pytest.raises(ValueError, match=r"^vertices: .*self-intersecting"):
        c2d.World().add_body().add_polygon(v)


@pytest.mark.parametrize("seed", range(20))
def test_simple_outline_test_matches_shapely(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(4, 80))
    if seed % 2:
        v = np.cumsum(rng.normal(size=(n, 2)), axis=0)   # random walk: usually crosses itself
    else:
        v = random_star_polygon(rng, n, snap=seed % 4 == 0)
    try:
        v = V.polygon("polygon", v)
    except ValueError:
        pytest.skip("degenerate outline")
    assert D.is_simple(v) == LinearRing(v).is_simple


@pytest.mark.nojit
def test_outline_touching_itself_at_a_vertex_is_not_simple():
    # Two squares joined at the corner (1, 1), traversed as one outline.
    v = np.array([[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [1, 2], [1, 1], [0, 1]], float)
    assert not D.is_simple(v)


@pytest.mark.nojit
def test_bowtie_is_refused_as_self_intersecting():
    bowtie = [(0, 0), (1, 1), (1, 0), (0, 1)]
    for call in (c2d.decompose, c2d.polygon_mass, c2d.is_convex):
        with pytest.raises(ValueError, match=r"^polygon: outline self-intersects"):
            call(bowtie)
    with pytest.raises(ValueError, match=r"^vertices: outline self-intersects"):
        c2d.World().add_body().add_polygon(bowtie)
    with pytest.raises(ValueError, match="one line"):
        c2d.decompose([(0, 0), (1, 1), (3, 3), (2, 2)])


@pytest.mark.nojit
def test_size_limit_is_named(monkeypatch):
    monkeypatch.setattr(D, "MAX_VERTICES", 100)
    with pytest.raises(ValueError, match=r"^polygon: 200 vertices; .* up to 100"):
        c2d.decompose(star(200))


# ---------------------------------------------------------------- large convex pairs


def brute_force_mtv(a: np.ndarray, b: np.ndarray):
    """(depth, normal from a to b) over every face normal of both, or None if apart."""
    best = (math.inf, None)
    for p, q, sign in ((a, b, 1.0), (b, a, -1.0)):
        e = np.roll(p, -1, axis=0) - p
        m = np.column_stack((e[:, 1], -e[:, 0])) / np.hypot(e[:, 0], e[:, 1])[:, None]
        # overlap of the projections along each outward normal m of p
        pmax = np.max(p @ m.T, axis=0)
        qmin = np.min(q @ m.T, axis=0)
        overlap = pmax - qmin
        k = int(np.argmin(overlap))
        if overlap[k] < best[0]:
            best = (overlap[k], sign * m[k])   # a's outward normal, or minus b's
    return None if best[0] <= 0 else best


@pytest.mark.parametrize("seed", range(10))
def test_large_convex_penetration_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    a = c2d.convex_hull(regular(int(rng.integers(70, 400)), rng.uniform(0.5, 2.0),
                                phase=rng.uniform(0, 6)))
    b = c2d.convex_hull(regular(int(rng.integers(70, 400)), rng.uniform(0.5, 2.0),
                                rng.uniform(-2.5, 2.5, 2), rng.uniform(0, 6)))
    assert len(a) * len(b) > bigsat.LARGE
    expected = brute_force_mtv(a, b)
    pen = c2d.penetration(a, b)
    if expected is not None:
        assert c2d.polygons_overlap(a, b)
    else:
        assert pen is None
        return
    assert pen.depth == pytest.approx(expected[0], rel=1e-9, abs=1e-12)
    # Equal depths on two axes may pick either: the chosen one must give the same depth.
    assert np.dot(pen.normal, pen.normal) == pytest.approx(1.0)
    pool = c2d.pack_shapes([a, b])
    hit, normal, depth = c2d.penetration_many(pool, [(0, 1)])
    assert hit[0] and depth[0] == pen.depth and normal[0].tolist() == pen.normal.tolist()


@pytest.mark.parametrize("seed", range(10))
def test_large_path_is_bit_identical_to_the_narrowphase_scan(seed):
    rng = np.random.default_rng(50 + seed)
    a = c2d.convex_hull(regular(int(rng.integers(60, 200)), 1.0, phase=rng.uniform(0, 6)))
    b = c2d.convex_hull(np.round(regular(int(rng.integers(60, 200)), 1.0,
                                         rng.uniform(-2.2, 2.2, 2)) * 16) / 16)
    d0 = sat.shape_distance(a, 0, len(a), 0.0, b, 0, len(b), 0.0, 0.0, 0.0, True)
    d1 = bigsat.separation_large(a, 0, len(a), b, 0, len(b))
    assert (d0[0] < 0) == (d1[0] < 0)
    if d0[0] < 0:
        assert d1 == tuple(d0[:3])
    for w in ((3.0, 0.5), (-2.0, 4.0), (0.0, 1e-3)):
        s0 = sat.sweep_pair(a, 0, len(a), 0.0, b, 0, len(b), 0.0, w[0], w[1], 1.0)
        s1 = bigsat.sweep_pair_large(a, 0, len(a), b, 0, len(b), w[0], w[1], 1.0)
        np.testing.assert_array_equal(np.array(s0, float), np.array(s1, float))


def test_penetration_of_two_100k_gons_has_the_closed_form_depth():
    n, r, dx = 100_000, 1.0, 1.5
    a = regular(n, r)
    b = regular(n, r, (dx, 0.0))
    pen = c2d.penetration(a, b)
    # Same centrally symmetric polygon: depth (2 r - dx) cos(pi / n) along the face normal
    # nearest +x, at angle +-pi / n; b lies at +x, so the normal (from a to b) is that one.
    assert pen.depth == pytest.approx((2 * r - dx) * math.cos(math.pi / n), rel=1e-9)
    assert pen.normal[0] == pytest.approx(math.cos(math.pi / n), rel=1e-12)
    assert abs(pen.normal[1]) == pytest.approx(math.sin(math.pi / n), rel=1e-6)
    assert c2d.polygons_overlap(a, b)
    assert not c2d.polygons_overlap(a, regular(n, r, (2.1, 0.0)))
    # Head-on sweep: the tips at x = r and x = 3 - r meet at relative speed 4.
    hit = c2d.sweep(a, (2.0, 0.0), regular(n, r, (3.0, 0.0)), (-2.0, 0.0))
    assert hit.time == pytest.approx((3.0 - 2 * r) / 4.0, rel=1e-9)
    assert shapely.Polygon(a).is_valid
