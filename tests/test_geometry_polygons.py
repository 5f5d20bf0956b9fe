"""Single-polygon functions: point_in_polygon(s), polygon_mass, convex_hull, is_convex,
decompose.

Oracles: shapely (containment, area, centroid, hull, union), an exact rational even-odd
crossing count, and the triangle inertia formula J = m (a^2 + b^2 + c^2) / 36 summed over a
constrained Delaunay triangulation with the parallel-axis theorem (no shoelace moments).
"""

from __future__ import annotations

import math

import numpy as np
import oracles as O
import pytest
import shapely
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from shapely.geometry import MultiPoint, Point, Polygon
from strategies import (
    convex_polygons,
    points,
    self_intersecting_polygons,
    signed_area,
    simple_polygons,
    star_polygons,
)

import collide2d
from collide2d import geometry as g

TOL = 1e-12
nojit = pytest.mark.nojit

SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
L_SHAPE = np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]], dtype=float)
U_SHAPE = np.array([[0, 0], [3, 0], [3, 3], [2, 3], [2, 1], [1, 1], [1, 3], [0, 3]], dtype=float)
SLIVER = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 1e-6]])
_ang = math.pi / 2 + np.arange(5) * 4 * math.pi / 5
PENTAGRAM = np.column_stack([np.cos(_ang), np.sin(_ang)])  # self-intersecting


PUBLIC = [
    "Circle",
    "segment_intersection",
    "point_in_polygon",
    "points_in_polygon",
    "segment_polygon",
    "clip_segment",
    "polygons_overlap",
    "penetration",
    "sweep",
    "contact_points",
    "polygon_mass",
    "convex_hull",
    "is_convex",
    "decompose",
    "pack_shapes",
    "segment_intersection_many",
    "segment_polygon_many",
    "polygons_overlap_many",
    "penetration_many",
    "sweep_many",
    "clip_segment_many",
]


@nojit
@pytest.mark.parametrize("name", PUBLIC)
def test_public_names_are_reexported(name):
    assert getattr(collide2d, name) is getattr(g, name)


# ---------------------------------------------------------------- point_in_polygon

PIP_CASES = [
    pytest.param(SQUARE, (0.5, 0.5), True, id="square-in"),
    pytest.param(SQUARE, (1.5, 0.5), False, id="square-right"),
    pytest.param(SQUARE, (-1e-9, 0.5), False, id="square-just-left"),
    pytest.param(SQUARE, (1e-9, 1e-9), True, id="square-just-in-corner"),
    pytest.param(L_SHAPE, (1.5, 1.5), False, id="L-notch"),
    pytest.param(L_SHAPE, (0.5, 1.5), True, id="L-arm"),
    pytest.param(L_SHAPE, (1.5, 0.5), True, id="L-foot"),
    pytest.param(U_SHAPE, (1.5, 2), False, id="U-notch"),
    pytest.param(U_SHAPE, (2.5, 2), True, id="U-right-arm"),
    # rays to +x running along horizontal edges and through vertices
    pytest.param(U_SHAPE, (1.5, 3), False, id="U-notch-top"),
    pytest.param(U_SHAPE, (-0.5, 3), False, id="U-left-of-top"),
    pytest.param(U_SHAPE, (0.5, 1), True, id="U-arm-at-notch-floor"),
    pytest.param(U_SHAPE, (2.5, 1), True, id="U-right-arm-at-notch-floor"),
    pytest.param(U_SHAPE, (-0.5, 1), False, id="U-left-at-notch-floor"),
    pytest.param(U_SHAPE, (-0.5, 0), False, id="U-left-of-bottom"),
    pytest.param(SLIVER, (0.5, 1e-7), True, id="sliver-in"),
    pytest.param(SLIVER, (0.5, 2e-6), False, id="sliver-above"),
    pytest.param(SLIVER, (0.5, -1e-7), False, id="sliver-below"),
    # even-odd: the pentagram's centre pentagon is covered twice, so it is outside
    pytest.param(PENTAGRAM, (0.0, 0.0), False, id="pentagram-centre"),
    pytest.param(PENTAGRAM, (0.0, 0.8), True, id="pentagram-tip"),
    pytest.param(PENTAGRAM, (0.0, 1.1), False, id="pentagram-outside"),
    # arrowhead with its notch at (1, 1); a ray to +x from y = 1 runs through two vertices
    pytest.param(np.array([[0, 0], [2, 1], [0, 2], [1, 1]], float), (0.5, 1), False, id="dart"),
    pytest.param(np.array([[0, 0], [2, 1], [0, 2], [1, 1]], float), (1.5, 1), True, id="dart-in"),
]


@nojit
@pytest.mark.parametrize("poly, point, expected", PIP_CASES)
def test_point_in_polygon_hand(poly, point, expected):
    res = g.point_in_polygon(point, poly)
    assert isinstance(res, (bool, np.bool_))
    assert bool(res) is expected
    assert bool(g.point_in_polygon(list(point), poly[::-1])) is expected
    assert bool(g.point_in_polygon(np.asarray(point), poly.ravel().tolist())) is expected


@nojit
def test_points_in_polygon_hand():
    pts = np.array([[0.5, 0.5], [1.5, 1.5], [0.5, 1.5], [1.5, 0.5], [5, 5]])
    out = g.points_in_polygon(pts, L_SHAPE)
    assert np.asarray(out).dtype == bool
    assert np.asarray(out).tolist() == [True, False, True, True, False]
    assert np.asarray(g.points_in_polygon(pts.tolist(), L_SHAPE[::-1])).tolist() == [
        True,
        False,
        True,
        True,
        False,
    ]
    assert np.asarray(g.points_in_polygon(np.zeros((0, 2)), L_SHAPE)).shape == (0,)


@given(simple_polygons(), st.lists(points(-4, 4), min_size=1, max_size=20), st.booleans())
def test_point_in_polygon_matches_shapely(poly, pts, clockwise):
    pg = Polygon(poly)
    pts = np.asarray(pts, dtype=float)
    keep = np.array([pg.exterior.distance(Point(p)) > 1e-9 for p in pts])
    assume(keep.any())
    pts = pts[keep]
    expected = np.array([pg.contains(Point(p)) for p in pts])
    arg = poly[::-1] if clockwise else poly
    many = np.asarray(g.points_in_polygon(pts, arg))
    assert_array_equal(many, expected)
    for p, e in zip(pts, expected, strict=True):
        assert bool(g.point_in_polygon(p, arg)) == e


@given(self_intersecting_polygons(), st.lists(points(-4, 4), min_size=1, max_size=20))
def test_point_in_polygon_even_odd_self_intersecting(poly, pts):
    ring = shapely.LinearRing(poly)
    pts = np.asarray(pts, dtype=float)
    keep = np.array([ring.distance(Point(p)) > 1e-9 for p in pts])
    assume(keep.any())
    pts = pts[keep]
    expected = np.array([O.crossing_count_inside(p, poly) for p in pts])
    region = O.even_odd_region(poly)
    assert [bool(region.contains(Point(p))) for p in pts] == expected.tolist()  # oracles agree
    assert_array_equal(np.asarray(g.points_in_polygon(pts, poly)), expected)
    for p, e in zip(pts, expected, strict=True):
        assert bool(g.point_in_polygon(p, poly)) == e


# ---------------------------------------------------------------- polygon_mass


def check_mass(info, mass, centroid, inertia, rel=1e-12):
    assert info.mass == pytest.approx(mass, rel=rel)
    assert np.shape(info.centroid) == (2,)
    assert_allclose(info.centroid, centroid, rtol=0, atol=1e-12)
    assert info.inertia == pytest.approx(inertia, rel=rel)


# scalene triangle (0,0), (4,0), (1,3): area 6, centroid (5/3, 1),
# squared sides 16 + 18 + 10 = 44 -> J = 6 * 44 / 36
MASS_CASES = [
    pytest.param(SQUARE, 1.0, 1.0, (0.5, 0.5), 1 / 6, id="unit-square"),
    pytest.param(SQUARE, 2.0, 2.0, (0.5, 0.5), 1 / 3, id="unit-square-density-2"),
    # 2 x 1 rectangle: m (w^2 + h^2) / 12
    pytest.param([[3, 1], [5, 1], [5, 2], [3, 2]], 1.0, 2.0, (4, 1.5), 5 / 6, id="rect-2x1"),
    pytest.param([[3, 1], [5, 1], [5, 2], [3, 2]], 3.0, 6.0, (4, 1.5), 2.5, id="rect-density"),
    pytest.param([[0, 0], [1, 0], [0, 1]], 1.0, 0.5, (1 / 3, 1 / 3), 1 / 18, id="right-tri"),
    pytest.param([[0, 0], [4, 0], [1, 3]], 1.0, 6.0, (5 / 3, 1.0), 22 / 3, id="scalene-tri"),
    # L = [0,2]x[0,1] + [0,1]x[1,2]: about the origin 10/12 + 2.5 + 1/6 + 2.5 = 6,
    # minus m |c|^2 = 3 * 50 / 36
    pytest.param(L_SHAPE, 1.0, 3.0, (5 / 6, 5 / 6), 11 / 6, id="L"),
    # sliver: squared sides 1 + 2 (0.25 + 1e-12)
    pytest.param(SLIVER, 1.0, 5e-7, (0.5, 1e-6 / 3), 5e-7 * (1.5 + 2e-12) / 36, id="sliver"),
]


@nojit
@pytest.mark.parametrize("poly, density, mass, centroid, inertia", MASS_CASES)
def test_polygon_mass_hand(poly, density, mass, centroid, inertia):
    poly = np.asarray(poly, dtype=float)
    rel = 1e-9 if mass < 1e-3 else 1e-12
    check_mass(g.polygon_mass(poly, density), mass, centroid, inertia, rel)
    check_mass(g.polygon_mass(poly[::-1], density=density), mass, centroid, inertia, rel)
    check_mass(g.polygon_mass(poly.ravel().tolist(), density), mass, centroid, inertia, rel)


@nojit
def test_closing_and_duplicate_vertices_are_dropped():
    messy = [[0, 0], [1, 0], [1, 0], [1, 1], [0, 1], [0, 1], [0, 0]]
    check_mass(g.polygon_mass(messy), 1.0, (0.5, 0.5), 1 / 6)
    assert g.is_convex(messy)
    assert g.point_in_polygon((0.5, 0.5), messy)
    assert not g.point_in_polygon((1.5, 0.5), messy)
    hit = g.segment_polygon((0.5, 0.5), (3, 0.5), messy)
    assert hit.edge == 1  # (1, 0) -> (1, 1) once the duplicates are gone
    assert_allclose(hit.normal, (1, 0), atol=TOL)
    check_decomposition(SQUARE, g.decompose(messy))


@nojit
def test_polygon_mass_default_density_is_one():
    check_mass(g.polygon_mass(SQUARE), 1.0, (0.5, 0.5), 1 / 6)


@nojit
@pytest.mark.parametrize("center, radius, density", [((0, 0), 1, 1), ((1, 2), 3, 2.5)])
def test_polygon_mass_circle(center, radius, density):
    m = density * math.pi * radius**2
    check_mass(g.polygon_mass(g.Circle(center, radius), density), m, center, m * radius**2 / 2)


def triangle_inertia_oracle(poly, density=1.0):
    """(mass, centroid, inertia about the centroid) from a constrained triangulation."""
    tris = shapely.constrained_delaunay_triangles(Polygon(poly))
    masses, cents, own = [], [], []
    for t in tris.geoms:
        p = np.asarray(t.exterior.coords)[:3]
        m = density * t.area
        sides2 = sum(float(np.sum((p[i] - p[(i + 1) % 3]) ** 2)) for i in range(3))
        masses.append(m)
        cents.append(p.mean(axis=0))
        own.append(m * sides2 / 36.0)
    masses, cents = np.array(masses), np.array(cents)
    mass = masses.sum()
    c = (masses[:, None] * cents).sum(axis=0) / mass
    inertia = sum(own) + float(np.sum(masses * np.sum((cents - c) ** 2, axis=1)))
    return mass, c, inertia


@given(simple_polygons(), st.sampled_from([1.0, 0.5, 7.0]), st.booleans())
def test_polygon_mass_matches_triangulation(poly, density, clockwise):
    mass, c, inertia = triangle_inertia_oracle(poly, density)
    pg = Polygon(poly)
    assert mass == pytest.approx(density * pg.area, rel=1e-9)  # oracle self-check
    info = g.polygon_mass(poly[::-1] if clockwise else poly, density)
    assert info.mass == pytest.approx(density * pg.area, rel=1e-9)
    assert_allclose(info.centroid, np.asarray(pg.centroid.coords[0]), atol=1e-9)
    assert_allclose(info.centroid, c, atol=1e-9)
    assert info.inertia == pytest.approx(inertia, rel=1e-9)
    # translation leaves the inertia about the centroid unchanged
    moved = g.polygon_mass(poly + (100.0, -50.0), density)
    assert moved.inertia == pytest.approx(info.inertia, rel=1e-8)
    assert_allclose(moved.centroid, np.asarray(info.centroid) + (100.0, -50.0), atol=1e-8)


# ---------------------------------------------------------------- convex_hull


HULL_CASES = [
    pytest.param(
        [(0, 0), (2, 0), (1, 0), (2, 2), (0, 2), (1, 1), (2, 1)],
        [(0, 0), (2, 0), (2, 2), (0, 2)],
        id="square-with-collinear-and-interior",
    ),
    pytest.param(
        [(x, y) for x in range(5) for y in range(5)], [(0, 0), (4, 0), (4, 4), (0, 4)], id="grid"
    ),
    # lowest x ties broken by lowest y
    pytest.param([(2, 0), (0, 1), (0, -1), (1, 0)], [(0, -1), (2, 0), (0, 1)], id="start"),
    pytest.param(
        [(3, 1), (1, 3), (-1, 1), (1, -1)] * 2,
        [(-1, 1), (1, -1), (3, 1), (1, 3)],
        id="diamond-duplicated",
    ),
    pytest.param([(2, 2), (0, 0), (1, 1), (3, 3)], [(0, 0), (3, 3)], id="collinear"),
    pytest.param([(1, 5), (1, 2), (1, 3)], [(1, 2), (1, 5)], id="vertical"),
    pytest.param([(1, 1), (1, 1), (1, 1)], [(1, 1)], id="one-point"),
    pytest.param([(0.5, 0.25)], [(0.5, 0.25)], id="single"),
]


@nojit
@pytest.mark.parametrize("pts, expected", HULL_CASES)
def test_convex_hull_hand(pts, expected):
    hull = np.asarray(g.convex_hull(pts))
    assert hull.dtype == np.float64
    assert_array_equal(hull, np.asarray(expected, dtype=float))
    assert_array_equal(np.asarray(g.convex_hull(np.asarray(pts, dtype=float)[::-1])), expected)


def canonical_hull(pts):
    """Shapely's hull as a CCW array starting at the lowest-x (then lowest-y) vertex."""
    h = MultiPoint(pts).convex_hull
    if h.geom_type == "Point":
        return np.asarray(h.coords, dtype=float)
    if h.geom_type == "LineString":
        c = np.asarray(h.coords, dtype=float)
        c = c[np.lexsort((c[:, 1], c[:, 0]))]
        return np.array([c[0], c[-1]])
    c = O.ccw(np.asarray(h.exterior.coords, dtype=float)[:-1])
    start = np.lexsort((c[:, 1], c[:, 0]))[0]
    return np.roll(c, -start, axis=0)


@given(st.lists(points(-5, 5), min_size=1, max_size=30))
def test_convex_hull_matches_shapely(pts):
    pts = np.asarray(pts, dtype=float)
    hull = np.asarray(g.convex_hull(pts))
    expected = canonical_hull(pts)
    if len(expected) >= 3:
        # no (nearly) collinear hull vertices where float rounding could go either way
        assume(O.is_convex_loop(expected) and shapely.Polygon(expected).area > 1e-9)
        e = np.roll(expected, -1, axis=0) - expected
        cr = e[:, 0] * np.roll(e, -1, axis=0)[:, 1] - e[:, 1] * np.roll(e, -1, axis=0)[:, 0]
        assume(np.all(cr > 1e-9))
        # every other input point clearly inside (rounding cannot make it a hull vertex)
        ring = shapely.LinearRing(expected)
        vertices = {tuple(v) for v in expected}
        assume(all(tuple(p) in vertices or ring.distance(Point(p)) > 1e-9 for p in pts))
    else:
        assume(False)  # degenerate hulls: covered exactly by the hand cases and the lattice
    assert hull.shape == expected.shape
    assert_allclose(hull, expected, atol=0)
    if len(hull) >= 3:
        assert signed_area(hull) > 0


@given(
    st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
    st.lists(st.integers(-6, 6), min_size=1, max_size=12),
)
def test_convex_hull_of_collinear_lattice_points(p0, d, ks):
    # exactly collinear (small integers): the two extreme points, lowest x (then y) first
    pts = np.array([(p0[0] + k * d[0], p0[1] + k * d[1]) for k in ks], dtype=float)
    distinct = np.unique(pts, axis=0)  # sorted by x, then y
    hull = np.asarray(g.convex_hull(pts))
    if len(distinct) == 1:
        assert_array_equal(hull, distinct)
    else:
        assert_array_equal(hull, distinct[[0, -1]])


# ---------------------------------------------------------------- is_convex

CONVEX_CASES = [
    pytest.param(SQUARE, True, id="square"),
    pytest.param(SQUARE[::-1], True, id="square-cw"),
    pytest.param([[0, 0], [4, 0], [1, 3]], True, id="triangle"),
    pytest.param(SLIVER, True, id="sliver"),
    pytest.param(
        [[math.cos(a), math.sin(a)] for a in np.arange(6) * math.pi / 3], True, id="hexagon"
    ),
    pytest.param(L_SHAPE, False, id="L"),
    pytest.param(U_SHAPE[::-1], False, id="U-cw"),
    pytest.param([[0, 0], [2, 1], [0, 2], [1, 1]], False, id="dart"),
    # every turn is the same way, but it winds twice: not convex
    pytest.param(PENTAGRAM, False, id="pentagram"),
]


@nojit
@pytest.mark.parametrize("poly, expected", CONVEX_CASES)
def test_is_convex_hand(poly, expected):
    res = g.is_convex(poly)
    assert isinstance(res, (bool, np.bool_))
    assert bool(res) is expected
    assert bool(g.is_convex(np.asarray(poly, dtype=float).ravel().tolist())) is expected


@given(st.one_of(convex_polygons(), star_polygons()), st.booleans())
def test_is_convex_matches_hull_area(poly, clockwise):
    pg = Polygon(poly)
    expected = pg.convex_hull.area - pg.area <= 1e-12 * pg.area
    assert bool(g.is_convex(poly[::-1] if clockwise else poly)) == expected


# ---------------------------------------------------------------- decompose


def check_decomposition(poly, parts):
    pg = Polygon(poly)
    area = pg.area
    assert isinstance(parts, list) and len(parts) >= 1
    total = 0.0
    shp = []
    for part in parts:
        part = np.asarray(part)
        assert part.ndim == 2 and part.shape[1] == 2 and part.shape[0] >= 3
        assert O.is_convex_loop(part, tol=1e-9), part
        a = abs(signed_area(part))
        assert a > 0
        total += a
        shp.append(Polygon(part))
    # no overlaps: the parts' areas add up to the polygon's
    assert total == pytest.approx(area, rel=1e-9)
    union = shapely.unary_union(shp)
    assert shapely.symmetric_difference(union, pg).area <= 1e-9 * area


@nojit
@pytest.mark.parametrize(
    "poly", [SQUARE, SLIVER, [[0, 0], [4, 0], [1, 3]]], ids=["square", "sliver", "triangle"]
)
def test_decompose_convex_is_one_part(poly):
    poly = np.asarray(poly, dtype=float)
    parts = g.decompose(poly)
    assert len(parts) == 1
    check_decomposition(poly, parts)
    assert Polygon(parts[0]).equals(Polygon(poly))


@nojit
@pytest.mark.parametrize("poly", [L_SHAPE, U_SHAPE], ids=["L", "U"])
@pytest.mark.parametrize("clockwise", [False, True])
def test_decompose_concave_hand(poly, clockwise):
    arg = poly[::-1] if clockwise else poly
    parts = g.decompose(arg)
    assert len(parts) >= 2
    check_decomposition(poly, parts)
    check_decomposition(poly, g.decompose(arg.ravel().tolist()))


COMB = np.array(
    [
        (0, 0),
        (7, 0),
        (7, 3),
        (6, 3),
        (6, 1),
        (5, 1),
        (5, 3),
        (4, 3),
        (4, 1),
        (3, 1),
        (3, 3),
        (2, 3),
        (2, 1),
        (1, 1),
        (1, 3),
        (0, 3),
    ],
    dtype=float,
)  # base [0, 7] x [0, 1] with four teeth of height 2: area 15


@nojit
def test_decompose_with_collinear_vertices():
    # L with extra vertices in the middle of two edges
    poly = np.array([[0, 0], [1, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 1]], float)
    check_decomposition(poly, g.decompose(poly))
    check_decomposition(poly, g.decompose(poly[::-1]))


@nojit
def test_decompose_comb():
    assert Polygon(COMB).area == 15.0
    parts = g.decompose(COMB)
    assert len(parts) >= 4  # each tooth's top corners need their own convex part
    check_decomposition(COMB, parts)


@given(st.one_of(star_polygons(), star_polygons(max_vertices=20), convex_polygons()), st.booleans())
def test_decompose_union_matches_shapely(poly, clockwise):
    parts = g.decompose(poly[::-1] if clockwise else poly)
    check_decomposition(poly, parts)
