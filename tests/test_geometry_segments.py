"""Segment queries: segment_intersection, segment_polygon, clip_segment and their batch forms.

Expectations are worked out by hand (exact fractions) or come from shapely (boundary
crossings, clipped pieces) and closed forms (line against circle). Rules referenced are those
of docs/geometry-rules.md.
"""

from __future__ import annotations

import math

import numpy as np
import oracles as O
import pytest
import shapely
from hypothesis import assume, event, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from shapely.geometry import LineString, Point, Polygon
from strategies import convex_polygons, convex_shapes, discs, segments, star_polygons

from collide2d import geometry as g

TOL = 1e-12
nojit = pytest.mark.nojit

SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])  # CCW
# CCW edge i runs from vertex i to vertex i+1; outward normals of SQUARE's edges:
SQUARE_NORMALS = {0: (0.0, -1.0), 1: (1.0, 0.0), 2: (0.0, 1.0), 3: (-1.0, 0.0)}
L_SHAPE = np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]], dtype=float)
U_SHAPE = np.array([[0, 0], [3, 0], [3, 3], [2, 3], [2, 1], [1, 1], [1, 3], [0, 3]], dtype=float)


def vec(x):
    return np.asarray(x, dtype=float)


def field(result, name):
    """Field of a NamedTuple-like or dict-like batch result."""
    if hasattr(result, name):
        return getattr(result, name)
    return result[name]


# ---------------------------------------------------------------- segment_intersection


def check_hit(hit, point, t, u):
    assert hit is not None
    assert np.shape(hit.point) == (2,)
    assert_allclose(hit.point, point, atol=TOL)
    assert hit.t == pytest.approx(t, abs=TOL)
    assert hit.u == pytest.approx(u, abs=TOL)


# (a, b, c, d, point, t, u), all worked by hand
CROSSINGS = [
    pytest.param((0, 0), (2, 2), (0, 2), (2, 0), (1, 1), 0.5, 0.5, id="x"),
    # a + t(6,3) = c + u(2,-4): 6t = 1 + 2u, 3t = 3 - 4u -> u = 1/2, t = 1/3
    pytest.param((0, 0), (6, 3), (1, 3), (3, -1), (2, 1), 1 / 3, 0.5, id="oblique"),
    pytest.param((0, 0), (2, 0), (1, 0), (1, 5), (1, 0), 0.5, 0.0, id="T-junction"),
    pytest.param((0, 0), (1, 1), (1, 1), (2, 0), (1, 1), 1.0, 0.0, id="endpoint-endpoint"),
    pytest.param((0, 0), (4, 0), (4, -1), (4, 3), (4, 0), 1.0, 0.25, id="end-on-segment"),
    # thin but valid: crosses y = 0 a hair below its upper end
    pytest.param(
        (0, 0), (1, 0), (0.5, -1e-9), (0.5, 1), (0.5, 0), 0.5, 1e-9 / (1 + 1e-9), id="barely"
    ),
]


@nojit
@pytest.mark.parametrize("a, b, c, d, point, t, u", CROSSINGS)
def test_segment_intersection_crossings_both_ways(a, b, c, d, point, t, u):
    check_hit(g.segment_intersection(a, b, c, d), point, t, u)
    # both ways round: t and u swap
    check_hit(g.segment_intersection(c, d, a, b), point, u, t)
    # reversing a->b maps t to 1 - t (a single crossing point)
    check_hit(g.segment_intersection(b, a, c, d), point, 1 - t, u)
    check_hit(g.segment_intersection(a, b, d, c), point, t, 1 - u)


@nojit
@pytest.mark.parametrize(
    "a, b, c, d",
    [
        pytest.param((0, 0), (1, 0), (0, 1), (1, 1), id="parallel"),
        pytest.param((0, 0), (1, 1), (0, 1e-9), (1, 1 + 1e-9), id="parallel-close"),
        pytest.param((0, 0), (1, 0), (2, 0), (3, 0), id="collinear-disjoint"),
        pytest.param((0, 0), (1, 0), (0.5, 1e-9), (0.5, 1), id="near-miss"),
        pytest.param((0, 0), (1, 0), (2, -1), (2, 1), id="line-would-cross"),
        pytest.param((0, 0), (1, 1), (2, 0), (3, -5), id="apart"),
    ],
)
def test_segment_intersection_misses(a, b, c, d):
    assert g.segment_intersection(a, b, c, d) is None
    assert g.segment_intersection(c, d, a, b) is None
    assert g.segment_intersection(b, a, d, c) is None


@nojit
def test_collinear_overlap_reports_first_point_along_ab():
    # overlap is [1, 4] on the x axis
    check_hit(g.segment_intersection((0, 0), (4, 0), (1, 0), (6, 0)), (1, 0), 0.25, 0.0)
    check_hit(g.segment_intersection((0, 0), (4, 0), (6, 0), (1, 0)), (1, 0), 0.25, 1.0)
    # walking a->b from x = 4 down, the overlap starts at x = 4
    check_hit(g.segment_intersection((4, 0), (0, 0), (1, 0), (6, 0)), (4, 0), 0.0, 0.6)
    # both ways round: along c->d = (1,0)->(6,0) the overlap starts at (1, 0)
    check_hit(g.segment_intersection((1, 0), (6, 0), (0, 0), (4, 0)), (1, 0), 0.0, 0.25)
    # one segment inside the other
    check_hit(g.segment_intersection((0, 0), (0, 8), (0, 2), (0, 4)), (0, 2), 0.25, 0.0)
    check_hit(g.segment_intersection((0, 2), (0, 4), (0, 0), (0, 8)), (0, 2), 0.0, 0.25)
    # diagonal: overlap [(1,1), (2,2)]
    check_hit(g.segment_intersection((0, 0), (2, 2), (3, 3), (1, 1)), (1, 1), 0.5, 1.0)


@nojit
def test_collinear_touching_at_an_endpoint():
    check_hit(g.segment_intersection((0, 0), (1, 0), (1, 0), (2, 0)), (1, 0), 1.0, 0.0)
    check_hit(g.segment_intersection((1, 0), (2, 0), (0, 0), (1, 0)), (1, 0), 0.0, 1.0)


@nojit
def test_zero_length_segment_is_a_point():
    hit = g.segment_intersection((0.5, 0), (0.5, 0), (0, 0), (1, 0))
    assert hit is not None
    assert_allclose(hit.point, (0.5, 0), atol=TOL)
    assert hit.u == pytest.approx(0.5, abs=TOL)
    assert 0.0 <= hit.t <= 1.0
    hit = g.segment_intersection((0, 0), (1, 0), (0.25, 0), (0.25, 0))
    assert hit is not None
    assert_allclose(hit.point, (0.25, 0), atol=TOL)
    assert hit.t == pytest.approx(0.25, abs=TOL)
    assert g.segment_intersection((0.5, 0.1), (0.5, 0.1), (0, 0), (1, 0)) is None
    assert g.segment_intersection((0, 0), (1, 0), (2, 0), (2, 0)) is None
    hit = g.segment_intersection((1, 2), (1, 2), (1, 2), (1, 2))
    assert hit is not None
    assert_allclose(hit.point, (1, 2), atol=TOL)


@nojit
def test_segment_intersection_accepts_any_length_2_sequence():
    expected = g.segment_intersection((0.0, 0.0), (2.0, 2.0), (0.0, 2.0), (2.0, 0.0))
    for conv in (list, tuple, np.array, lambda p: np.array(p, dtype=np.int32)):
        hit = g.segment_intersection(conv([0, 0]), conv([2, 2]), conv([0, 2]), conv([2, 0]))
        assert_allclose(hit.point, expected.point, atol=TOL)
        assert isinstance(hit.t, float) and isinstance(hit.u, float)
        assert np.asarray(hit.point).dtype == np.float64


@given(segments(), segments())
def test_segment_intersection_matches_shapely(s1, s2):
    (a, b), (c, d) = s1, s2
    l1, l2 = LineString([a, b]), LineString([c, d])
    dist = l1.distance(l2)
    # keep away from touching and from near-parallel pairs, where the oracle is ambiguous
    u1, u2 = (b - a) / np.linalg.norm(b - a), (d - c) / np.linalg.norm(d - c)
    assume(abs(u1[0] * u2[1] - u1[1] * u2[0]) > 1e-4)
    assume(
        dist > 1e-9
        or all(Point(p).distance(other) > 1e-9 for p, other in ((a, l2), (b, l2), (c, l1), (d, l1)))
    )
    hit = g.segment_intersection(a, b, c, d)
    if dist > 0:
        assert hit is None
        assert g.segment_intersection(c, d, a, b) is None
        return
    expected = np.asarray(l1.intersection(l2).coords[0])
    assert hit is not None
    assert_allclose(hit.point, expected, atol=1e-9)
    assert_allclose(a + hit.t * (b - a), expected, atol=1e-9)
    assert_allclose(c + hit.u * (d - c), expected, atol=1e-9)
    assert 0.0 <= hit.t <= 1.0 and 0.0 <= hit.u <= 1.0
    swapped = g.segment_intersection(c, d, a, b)
    assert swapped is not None
    assert_allclose(c + swapped.t * (d - c), expected, atol=1e-9)
    assert_allclose(a + swapped.u * (b - a), expected, atol=1e-9)


# ---------------------------------------------------------------- segment_polygon


def check_ray(hit, fraction, point, normal=None, edge=None):
    assert hit is not None
    assert hit.fraction == pytest.approx(fraction, abs=TOL)
    assert_allclose(hit.point, point, atol=TOL)
    if normal is not None:
        assert_allclose(hit.normal, normal, atol=TOL)
    if edge is not None:
        assert hit.edge == edge


SQUARE_RAYS = [
    # enters through the left edge
    pytest.param((-1, 0.5), (2, 0.5), 1 / 3, (0, 0.5), 3, id="enter-left"),
    pytest.param((0.5, 3), (0.5, -1), 0.5, (0.5, 1), 2, id="enter-top"),
    # starts inside: reports where it leaves, outward normal
    pytest.param((0.5, 0.5), (0.5, 3), 0.2, (0.5, 1), 2, id="leave-top"),
    pytest.param((0.25, 0.5), (2.25, 0.5), 0.375, (1, 0.5), 1, id="leave-right"),
    # ends exactly on the boundary
    pytest.param((0.5, -1), (0.5, 0), 1.0, (0.5, 0), 0, id="end-on-edge"),
]


@nojit
@pytest.mark.parametrize("a, b, fraction, point, edge", SQUARE_RAYS)
def test_segment_polygon_square(a, b, fraction, point, edge):
    hit = g.segment_polygon(a, b, SQUARE)
    check_ray(hit, fraction, point, SQUARE_NORMALS[edge], edge)
    # clockwise input: same fraction, point and normal (edge indices refer to CCW order)
    check_ray(g.segment_polygon(a, b, SQUARE[::-1]), fraction, point, SQUARE_NORMALS[edge])
    # flat coordinate input
    check_ray(
        g.segment_polygon(a, b, SQUARE.ravel().tolist()),
        fraction,
        point,
        SQUARE_NORMALS[edge],
        edge,
    )


@nojit
def test_segment_polygon_misses_and_inside():
    assert g.segment_polygon((2, 2), (3, 5), SQUARE) is None
    assert g.segment_polygon((-1, 2), (2, 2), SQUARE) is None
    # entirely inside: never crosses the boundary
    assert g.segment_polygon((0.2, 0.2), (0.8, 0.7), SQUARE) is None


@nojit
def test_segment_polygon_grazing_and_along_edge():
    # touches only the vertex (0, 1) at its midpoint
    check_ray(g.segment_polygon((-1, 0), (1, 2), SQUARE), 0.5, (0, 1))
    # through the vertex (0, 0) into the interior
    check_ray(g.segment_polygon((-1, -1), (1, 1), SQUARE), 0.5, (0, 0))
    # running along the bottom edge: first common point (0, 0)
    check_ray(g.segment_polygon((-1, 0), (2, 0), SQUARE), 1 / 3, (0, 0))
    check_ray(g.segment_polygon((2, 0), (-1, 0), SQUARE), 1 / 3, (1, 0))


@nojit
def test_segment_polygon_zero_length():
    check_ray(g.segment_polygon((0.5, 0), (0.5, 0), SQUARE), 0.0, (0.5, 0), (0, -1), 0)
    assert g.segment_polygon((0.5, 0.5), (0.5, 0.5), SQUARE) is None
    assert g.segment_polygon((3, 3), (3, 3), SQUARE) is None


@nojit
def test_segment_polygon_concave():
    # L: edge 2 is (2,1)->(1,1) normal (0,1); edge 3 is (1,1)->(1,2) normal (1,0)
    check_ray(g.segment_polygon((1.5, 1.5), (-1, 1.5), L_SHAPE), 0.2, (1, 1.5), (1, 0), 3)
    check_ray(g.segment_polygon((1.5, 3), (1.5, -1), L_SHAPE), 0.5, (1.5, 1), (0, 1), 2)
    # U: start inside the left arm, leave into the notch through edge 5 (1,1)->(1,3)
    check_ray(g.segment_polygon((0.5, 2), (2.5, 2), U_SHAPE), 0.25, (1, 2), (1, 0), 5)
    # from the notch into the right arm through edge 3 (2,3)->(2,1), normal (-1, 0)
    check_ray(g.segment_polygon((1.5, 2), (3.5, 2), U_SHAPE), 0.25, (2, 2), (-1, 0), 3)
    # across the whole U from outside: first crossing is the left outer wall
    check_ray(g.segment_polygon((-1, 2), (4, 2), U_SHAPE), 0.2, (0, 2), (-1, 0), 7)
    check_ray(g.segment_polygon((-1, 2), (4, 2), U_SHAPE[::-1]), 0.2, (0, 2), (-1, 0))


@nojit
def test_segment_polygon_thin_sliver():
    sliver = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 1e-6]])
    check_ray(g.segment_polygon((0.5, -1), (0.5, 1), sliver), 0.5, (0.5, 0), (0, -1), 0)
    # from above: enters through one of the slanted edges at height 1e-6 * (1 - 2|x - .5|)
    hit = g.segment_polygon((0.25, 1), (0.25, -1), sliver)
    assert hit is not None
    assert hit.fraction == pytest.approx((1 - 0.5e-6) / 2, abs=1e-13)
    assert_allclose(hit.point, (0.25, 0.5e-6), atol=1e-13)
    assert hit.edge == 2
    assert_allclose(hit.normal, O.outward_normal(sliver[2], sliver[0]), atol=1e-12)


@nojit
def test_segment_polygon_circle():
    c = g.Circle((0, 0), 1)
    check_ray(g.segment_polygon((-3, 0), (3, 0), c), 1 / 3, (-1, 0), (-1, 0), -1)
    # y = 0.6 meets the unit circle at x = -0.8
    check_ray(g.segment_polygon((-2, 0.6), (2, 0.6), c), 0.3, (-0.8, 0.6), (-0.8, 0.6), -1)
    # from the centre: leaves at (0, 1), outward normal
    check_ray(g.segment_polygon((0, 0), (0, 2), c), 0.5, (0, 1), (0, 1), -1)
    # tangent at (0, 1)
    check_ray(g.segment_polygon((-2, 1), (2, 1), c), 0.5, (0, 1), None, -1)
    assert g.segment_polygon((-2, 1.5), (2, 1.5), c) is None
    assert g.segment_polygon((-0.5, 0), (0.5, 0.1), c) is None
    check_ray(g.segment_polygon((3, 4), (6, 8), g.Circle((0, 0), 5)), 0.0, (3, 4), (0.6, 0.8))
    # shifted circle, radius 2 centred at (10, -3); segment along x from (0, -3)
    check_ray(
        g.segment_polygon((0, -3), (20, -3), g.Circle((10, -3), 2)), 0.4, (8, -3), (-1, 0), -1
    )


def polygon_ray_case(poly, a, b):
    """First boundary crossing by shapely, or None; assume()s away ambiguous geometry."""
    ring = shapely.LinearRing(poly)
    assume(ring.distance(Point(a)) > 1e-7 and ring.distance(Point(b)) > 1e-7)
    assume(O.segment_clear_of_vertices(a, b, poly))
    fr = O.boundary_crossings(a, b, poly)
    if not fr:
        return None
    assume(len(fr) == 1 or fr[1] - fr[0] > 1e-9)
    point = a + fr[0] * (b - a)
    edge = O.nearest_edge(poly, point)
    n = len(poly)
    e = poly[(edge + 1) % n] - poly[edge]
    ab = b - a
    sin = abs(e[0] * ab[1] - e[1] * ab[0]) / (np.linalg.norm(e) * np.linalg.norm(ab))
    assume(sin > 1e-3)
    return fr[0], point, edge, O.outward_normal(poly[edge], poly[(edge + 1) % n])


@given(st.one_of(convex_polygons(), star_polygons()), segments())
def test_segment_polygon_matches_shapely(poly, seg):
    a, b = seg
    expected = polygon_ray_case(poly, a, b)
    hit = g.segment_polygon(a, b, poly)
    cw = g.segment_polygon(a, b, poly[::-1])
    event("miss" if expected is None else "hit")
    if expected is None:
        assert hit is None
        assert cw is None
        return
    fraction, point, edge, normal = expected
    assert hit is not None
    assert hit.fraction == pytest.approx(fraction, abs=1e-9)
    assert_allclose(hit.point, point, atol=1e-8)
    assert hit.edge == edge
    assert_allclose(hit.normal, normal, atol=1e-9)
    assert cw is not None
    assert cw.fraction == pytest.approx(fraction, abs=1e-9)
    assert_allclose(cw.normal, normal, atol=1e-9)


def circle_ray(center, r, a, b):
    """Closed form: smallest t in [0, 1] with |a + t(b-a) - c| = r on the boundary."""
    d = b - a
    f = a - np.asarray(center)
    qa, qb, qc = d @ d, 2 * f @ d, f @ f - r * r
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    s = math.sqrt(disc)
    for t in sorted(((-qb - s) / (2 * qa), (-qb + s) / (2 * qa))):
        if 0.0 <= t <= 1.0:
            return t
    return None


@given(discs(), segments())
def test_segment_polygon_circle_matches_closed_form(disc, seg):
    a, b = seg
    c = np.asarray(disc.center)
    line = LineString([a, b])
    # away from tangency and from endpoints on the circle
    assume(abs(line.distance(Point(c)) - disc.radius) > 1e-6)
    for p in (a, b):
        assume(abs(np.linalg.norm(p - c) - disc.radius) > 1e-6)
    t = circle_ray(c, disc.radius, a, b)
    hit = g.segment_polygon(a, b, g.Circle(disc.center, disc.radius))
    if t is None:
        assert hit is None
        return
    assert hit is not None
    assert hit.fraction == pytest.approx(t, abs=1e-9)
    p = a + t * (b - a)
    assert_allclose(hit.point, p, atol=1e-8)
    assert_allclose(hit.normal, (p - c) / disc.radius, atol=1e-8)
    assert hit.edge == -1


# ---------------------------------------------------------------- clip_segment


def check_clip(clip, t0, t1, n0=None, n1=None):
    assert clip is not None
    assert clip.t_enter == pytest.approx(t0, abs=TOL)
    assert clip.t_exit == pytest.approx(t1, abs=TOL)
    if n0 is not None:
        assert_allclose(clip.normal_enter, n0, atol=TOL)
    if n1 is not None:
        assert_allclose(clip.normal_exit, n1, atol=TOL)


@nojit
@pytest.mark.parametrize("poly", [SQUARE, SQUARE[::-1]], ids=["ccw", "cw"])
def test_clip_segment_square(poly):
    check_clip(g.clip_segment((-1, 0.5), (2, 0.5), poly), 1 / 3, 2 / 3, (-1, 0), (1, 0))
    check_clip(g.clip_segment((2, 0.5), (-1, 0.5), poly), 1 / 3, 2 / 3, (1, 0), (-1, 0))
    # an end inside: t = 0 (or 1) with a zero normal
    check_clip(g.clip_segment((0.5, 0.5), (2, 0.5), poly), 0.0, 1 / 3, (0, 0), (1, 0))
    check_clip(g.clip_segment((0.5, -1), (0.5, 0.5), poly), 2 / 3, 1.0, (0, -1), (0, 0))
    check_clip(g.clip_segment((0.2, 0.2), (0.8, 0.5), poly), 0.0, 1.0, (0, 0), (0, 0))
    # touching at a single point: t_enter == t_exit
    check_clip(g.clip_segment((-1, 0), (1, 2), poly), 0.5, 0.5)
    check_clip(g.clip_segment((0.5, -1), (0.5, 0), poly), 1.0, 1.0)
    # along an edge: the closed part inside is [1/3, 2/3]
    check_clip(g.clip_segment((-1, 0), (2, 0), poly), 1 / 3, 2 / 3)
    # diagonal through two corners
    check_clip(g.clip_segment((-1, -1), (3, 3), poly), 0.25, 0.5)
    assert g.clip_segment((-1, 2), (2, 2), poly) is None
    assert g.clip_segment((0, 2 + 1e-9), (2 + 1e-9, 0), poly) is None  # misses (1, 1)
    assert g.clip_segment((3, 3), (3, 3), poly) is None


@nojit
def test_clip_segment_triangle():
    tri = np.array([[0, 0], [4, 0], [0, 4]], dtype=float)  # hypotenuse x + y = 4
    # y = 1 from x = -2 to x = 6: inside for x in [0, 3]
    s2 = math.sqrt(0.5)
    check_clip(g.clip_segment((-2, 1), (6, 1), tri), 0.25, 0.625, (-1, 0), (s2, s2))


@nojit
def test_clip_segment_circle():
    c = g.Circle((0, 0), 1)
    check_clip(g.clip_segment((-2, 0), (2, 0), c), 0.25, 0.75, (-1, 0), (1, 0))
    check_clip(g.clip_segment((0, 0), (0, 2), c), 0.0, 0.5, (0, 0), (0, 1))
    check_clip(g.clip_segment((-2, 0.6), (2, 0.6), c), 0.3, 0.7, (-0.8, 0.6), (0.8, 0.6))
    check_clip(g.clip_segment((-2, 1), (2, 1), c), 0.5, 0.5)
    assert g.clip_segment((-2, 1.1), (2, 1.1), c) is None


def clip_case(poly, a, b):
    """Clip by shapely: (t_enter, t_exit, normal_enter, normal_exit) or None."""
    pg = Polygon(poly)
    ring = pg.exterior
    assume(ring.distance(Point(a)) > 1e-7 and ring.distance(Point(b)) > 1e-7)
    assume(O.segment_clear_of_vertices(a, b, poly))
    piece = LineString([a, b]).intersection(pg)
    if piece.is_empty:
        return None
    ab = b - a
    ts = [float(np.dot(p - a, ab) / np.dot(ab, ab)) for p in shapely.get_coordinates(piece)]
    t0, t1 = min(ts), max(ts)
    assume(t1 - t0 > 1e-9)
    n = len(poly)

    def normal_at(t, inside):
        if inside:
            return np.zeros(2)
        i = O.nearest_edge(poly, a + t * ab)
        e = poly[(i + 1) % n] - poly[i]
        sin = abs(e[0] * ab[1] - e[1] * ab[0]) / (np.linalg.norm(e) * np.linalg.norm(ab))
        assume(sin > 1e-3)
        return O.outward_normal(poly[i], poly[(i + 1) % n])

    return t0, t1, normal_at(t0, pg.contains(Point(a))), normal_at(t1, pg.contains(Point(b)))


@given(convex_polygons(), segments(), st.booleans())
def test_clip_segment_matches_shapely(poly, seg, clockwise):
    a, b = seg
    expected = clip_case(poly, a, b)
    clip = g.clip_segment(a, b, poly[::-1] if clockwise else poly)
    event(
        "miss"
        if expected is None
        else f"hit, ends inside: {(np.any(expected[2]), np.any(expected[3]))}"
    )
    if expected is None:
        assert clip is None
        return
    t0, t1, n0, n1 = expected
    assert clip is not None
    assert clip.t_enter == pytest.approx(t0, abs=1e-9)
    assert clip.t_exit == pytest.approx(t1, abs=1e-9)
    assert_allclose(clip.normal_enter, n0, atol=1e-9)
    assert_allclose(clip.normal_exit, n1, atol=1e-9)


def circle_clip(center, r, a, b):
    """Closed form: the parameter interval of a->b inside the disc, clipped to [0, 1]."""
    d = b - a
    f = a - np.asarray(center)
    qa, qb, qc = d @ d, 2 * f @ d, f @ f - r * r
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    s = math.sqrt(disc)
    t0, t1 = (-qb - s) / (2 * qa), (-qb + s) / (2 * qa)
    if t1 < 0 or t0 > 1:
        return None
    return max(t0, 0.0), min(t1, 1.0)


@given(discs(), segments())
def test_clip_segment_circle_matches_closed_form(disc, seg):
    a, b = seg
    c = np.asarray(disc.center)
    r = disc.radius
    assume(abs(LineString([a, b]).distance(Point(c)) - r) > 1e-6)
    for p in (a, b):
        assume(abs(np.linalg.norm(p - c) - r) > 1e-6)
    expected = circle_clip(c, r, a, b)
    clip = g.clip_segment(a, b, g.Circle(disc.center, r))
    event("miss" if expected is None else "hit")
    if expected is None:
        assert clip is None
        return
    t0, t1 = expected
    assert clip is not None
    assert clip.t_enter == pytest.approx(t0, abs=1e-9)
    assert clip.t_exit == pytest.approx(t1, abs=1e-9)
    for t, n in ((t0, clip.normal_enter), (t1, clip.normal_exit)):
        if t in (0.0, 1.0):  # that end is inside
            assert_allclose(n, (0, 0), atol=0)
        else:
            assert_allclose(n, (a + t * (b - a) - c) / r, atol=1e-8)


@nojit
def test_clip_segment_zero_length():
    check_clip(g.clip_segment((0.5, 0.5), (0.5, 0.5), SQUARE), 0.0, 1.0, (0, 0), (0, 0))
    assert g.clip_segment((1.5, 0.5), (1.5, 0.5), SQUARE) is None
    assert g.clip_segment((1.5, 0.5), (1.5, 0.5), g.Circle((0, 0), 1)) is None


# ---------------------------------------------------------------- batch forms


def nan_equal(x, y, tol=1e-12):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return x.shape == y.shape and np.allclose(x, y, atol=tol, rtol=0, equal_nan=True)


HAND_ROWS = [
    ((0, 0), (2, 2), (0, 2), (2, 0)),
    ((0, 0), (4, 0), (1, 0), (6, 0)),  # collinear overlap
    ((0, 0), (1, 0), (0, 1), (1, 1)),  # parallel
    ((0, 0), (1, 0), (1, 0), (2, 0)),  # collinear touching
    ((0.5, 0), (0.5, 0), (0, 0), (1, 0)),  # zero length
    ((0, 0), (1, 0), (2, 0), (3, 0)),  # collinear apart
]


def check_segment_intersection_many(a, b, c, d):
    hit, point, t, u = g.segment_intersection_many(a, b, c, d)
    n = len(a)
    assert np.shape(hit) == (n,) and np.asarray(hit).dtype == bool
    assert np.shape(point) == (n, 2) and np.shape(t) == (n,) and np.shape(u) == (n,)
    for i in range(n):
        one = g.segment_intersection(a[i], b[i], c[i], d[i])
        if one is None:
            assert not hit[i]
            assert np.all(np.isnan(point[i])) and np.isnan(t[i]) and np.isnan(u[i])
        else:
            assert hit[i]
            assert nan_equal(point[i], one.point)
            assert nan_equal(t[i], one.t) and nan_equal(u[i], one.u)


@nojit
def test_segment_intersection_many_hand_rows():
    a, b, c, d = (np.array(col, dtype=float) for col in zip(*HAND_ROWS, strict=True))
    check_segment_intersection_many(a, b, c, d)
    hit, point, t, u = g.segment_intersection_many(a, b, c, d)
    assert hit.tolist() == [True, True, False, True, True, False]
    assert_allclose(point[1], (1, 0), atol=TOL)


@given(st.lists(st.tuples(segments(), segments()), min_size=1, max_size=20))
def test_segment_intersection_many_equals_one_pair(rows):
    a = np.array([r[0][0] for r in rows])
    b = np.array([r[0][1] for r in rows])
    c = np.array([r[1][0] for r in rows])
    d = np.array([r[1][1] for r in rows])
    check_segment_intersection_many(a, b, c, d)


@nojit
def test_segment_intersection_many_empty():
    z = np.zeros((0, 2))
    hit, point, t, u = g.segment_intersection_many(z, z, z, z)
    assert hit.shape == (0,) and point.shape == (0, 2) and t.shape == (0,) and u.shape == (0,)


def check_segment_polygon_many(starts, ends, shapes):
    pool = g.pack_shapes(shapes)
    res = g.segment_polygon_many(starts, ends, pool)
    hit = np.asarray(field(res, "hit"))
    shape = np.asarray(field(res, "shape"))
    n = len(starts)
    assert hit.shape == (n,) and shape.shape == (n,)
    assert np.shape(field(res, "point")) == (n, 2)
    assert np.shape(field(res, "normal")) == (n, 2)
    for i in range(n):
        ones = [g.segment_polygon(starts[i], ends[i], s) for s in shapes]
        fractions = [h.fraction for h in ones if h is not None]
        if not fractions:
            assert not hit[i]
            assert shape[i] == -1
            continue
        assert hit[i]
        # the first hit; with ties (equal fractions) any of the tied shapes
        first = min(fractions)
        tied = [k for k, h in enumerate(ones) if h is not None and h.fraction == first]
        assert shape[i] in tied
        best = ones[shape[i]]
        assert field(res, "fraction")[i] == pytest.approx(best.fraction, abs=1e-12)
        assert_allclose(field(res, "point")[i], best.point, atol=1e-12)
        assert_allclose(field(res, "normal")[i], best.normal, atol=1e-12)
        assert field(res, "edge")[i] == best.edge


@nojit
def test_segment_polygon_many_hand():
    shapes = [SQUARE, g.Circle((3, 0.5), 0.5), SQUARE + (6, 0)]
    starts = np.array([[-1, 0.5], [7.5, 0.5], [0.5, 5], [2, 0.5], [0.5, 0.5]], dtype=float)
    ends = np.array([[9, 0.5], [-1, 0.5], [0.5, 6], [2, 0.5], [10, 0.5]], dtype=float)
    check_segment_polygon_many(starts, ends, shapes)
    res = g.segment_polygon_many(starts, ends, g.pack_shapes(shapes))
    assert np.asarray(field(res, "hit")).tolist() == [True, True, False, False, True]
    assert np.asarray(field(res, "shape")).tolist() == [0, 2, -1, -1, 0]
    assert_allclose(field(res, "fraction")[[0, 1, 4]], [0.1, 0.5 / 8.5, 0.5 / 9.5], atol=TOL)
    assert_allclose(field(res, "normal")[[0, 1, 4]], [(-1, 0), (1, 0), (1, 0)], atol=TOL)
    assert np.asarray(field(res, "edge"))[[0, 1, 4]].tolist() == [3, 1, 1]


@nojit
def test_segment_polygon_many_concave_pool():
    # concave polygons are allowed in a pool for segment queries
    shapes = [L_SHAPE, U_SHAPE + (5, 0), g.Circle((1.5, 5), 0.5)]
    starts = np.array([[1.5, 1.5], [4, 2], [5.5, 2], [1.5, 8], [1.5, 3]], dtype=float)
    ends = np.array([[-1, 1.5], [9, 2], [7.5, 2], [1.5, -1], [1.5, 3.2]], dtype=float)
    check_segment_polygon_many(starts, ends, shapes)
    res = g.segment_polygon_many(starts, ends, g.pack_shapes(shapes))
    assert np.asarray(field(res, "shape")).tolist() == [0, 1, 1, 2, -1]
    # (4, 2) -> (9, 2) meets the U's outer wall x = 5 after 1/5
    assert_allclose(field(res, "fraction")[:4], [0.2, 0.2, 0.25, 2.5 / 9], atol=TOL)
    assert np.asarray(field(res, "edge"))[:3].tolist() == [3, 7, 5]


def clear_of_near_touch(s, a, b, eps=1e-9):
    line = LineString([a, b])
    if O.is_disc(s):
        c, r = Point(s.center), s.radius
        gaps = [line.distance(c) - r] + [Point(p).distance(c) - r for p in (a, b)]
        return all(abs(gap) > eps for gap in gaps)
    pg = Polygon(s)
    gap = pg.distance(line)
    return (gap == 0 or gap > eps) and all(pg.exterior.distance(Point(p)) > eps for p in (a, b))


@given(
    st.lists(st.tuples(convex_shapes(), st.booleans()), min_size=1, max_size=5),
    st.lists(segments(), min_size=1, max_size=12),
)
def test_segment_polygon_many_equals_one_pair(shapes, segs):
    # keep segments from touching a shape within rounding (an endpoint or a vertex 1e-60
    # from it): the pool may cull by bounding box first, exactly, where one-pair rounds
    for s, _ in shapes:
        for a, b in segs:
            assume(clear_of_near_touch(s, a, b))
    # polygons of either winding in the pool
    shapes = [O.to_shape(s[::-1] if cw and not O.is_disc(s) else s, g) for s, cw in shapes]
    starts = np.array([s[0] for s in segs])
    ends = np.array([s[1] for s in segs])
    check_segment_polygon_many(starts, ends, shapes)


def check_clip_many(starts, ends, convex):
    hit, t0, t1, n0, n1 = g.clip_segment_many(starts, ends, convex)
    n = len(starts)
    assert np.shape(hit) == (n,) and np.shape(t0) == (n,) and np.shape(n1) == (n, 2)
    for i in range(n):
        one = g.clip_segment(starts[i], ends[i], convex)
        assert bool(hit[i]) == (one is not None)
        if one is not None:
            assert t0[i] == pytest.approx(one.t_enter, abs=1e-12)
            assert t1[i] == pytest.approx(one.t_exit, abs=1e-12)
            assert_allclose(n0[i], one.normal_enter, atol=1e-12)
            assert_allclose(n1[i], one.normal_exit, atol=1e-12)


@nojit
def test_clip_segment_many_hand():
    starts = np.array([[-1, 0.5], [0.5, 0.5], [-1, 2], [-1, 0]], dtype=float)
    ends = np.array([[2, 0.5], [2, 0.5], [2, 2], [1, 2]], dtype=float)
    check_clip_many(starts, ends, SQUARE)
    hit, t0, t1, n0, n1 = g.clip_segment_many(starts, ends, SQUARE)
    assert np.asarray(hit).tolist() == [True, True, False, True]
    assert_allclose(t0[[0, 1, 3]], [1 / 3, 0, 0.5], atol=TOL)
    assert_allclose(t1[[0, 1, 3]], [2 / 3, 1 / 3, 0.5], atol=TOL)
    check_clip_many(starts, ends, g.Circle((0.5, 0.5), 0.5))


@given(convex_shapes(), st.lists(segments(), min_size=1, max_size=12))
def test_clip_segment_many_equals_one_pair(shape, segs):
    starts = np.array([s[0] for s in segs])
    ends = np.array([s[1] for s in segs])
    check_clip_many(starts, ends, O.to_shape(shape, g))


@nojit
def test_segment_batch_forms_empty():
    z = np.zeros((0, 2))
    res = g.segment_polygon_many(z, z, g.pack_shapes([SQUARE]))
    assert np.shape(field(res, "hit")) == (0,) and np.shape(field(res, "point")) == (0, 2)
    hit, t0, t1, n0, n1 = g.clip_segment_many(z, z, SQUARE)
    assert np.shape(hit) == (0,) and np.shape(n0) == (0, 2)
