"""Convex pair queries: polygons_overlap, penetration, contact_points, sweep, batch forms.

Oracles: shapely (intersects, exact distances), the Minkowski difference for the smallest
separating translation, closed forms for circles, and a bisection on exact distances for the
time of impact. Every pair query is called both ways round. The normal always points from A
to B (docs/geometry-rules.md#normals): moving A by -depth * normal separates the pair. Hand
cases give the direction from where B lies relative to A.
"""

from __future__ import annotations

import math

import numpy as np
import oracles as O
import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from strategies import convex_shapes, velocities

from collide2d import geometry as g

TOL = 1e-12
nojit = pytest.mark.nojit


def box(x0, y0, x1, y1):
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=float)


SQUARE = box(0, 0, 1, 1)
SLIVER = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 1e-6]])  # height 1e-6, valid
DIAMOND = np.array([[0, -0.1], [1, 0.9], [0, 1.9], [-1, 0.9]], dtype=float)
FLOOR = box(-5, -1, 5, 0)
DIAMOND0 = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], dtype=float)
R2 = math.sqrt(0.5)


def lib(s):
    return O.to_shape(s, g)


# ---------------------------------------------------------------- polygons_overlap

OVERLAP_CASES = [
    pytest.param(SQUARE, box(0.5, 0.5, 2, 2), True, id="overlapping"),
    pytest.param(SQUARE, box(1, 0, 2, 1), True, id="touching-edge"),
    pytest.param(SQUARE, box(1, 1, 2, 2), True, id="touching-corner"),
    pytest.param(SQUARE, box(1, 0.5, 2, 3), True, id="touching-partial-edge"),
    pytest.param(SQUARE, box(1 + 1e-9, 0, 2, 1), False, id="gap-1e-9"),
    pytest.param(SQUARE, box(-3, -3, 3, 3), True, id="contained"),
    pytest.param(SQUARE, box(3, 3, 4, 4), False, id="apart"),
    # AABBs overlap but a diagonal axis separates them
    pytest.param(SQUARE, np.array([[1.2, 0.9], [2, 1.5], [0.9, 1.2]]), False, id="diagonal"),
    pytest.param(SLIVER, box(0.4, 5e-7, 0.6, 1), True, id="sliver-tip"),
    pytest.param(SLIVER, box(0.4, 1.000001e-6, 0.6, 1), False, id="sliver-above"),
    pytest.param(SQUARE, g.Circle((1.5, 0.5), 0.5), True, id="circle-touching-edge"),
    pytest.param(SQUARE, g.Circle((1.5, 0.5), 0.4999), False, id="circle-near-edge"),
    pytest.param(SQUARE, g.Circle((1.3, 1.4), 0.51), True, id="circle-corner"),
    # the circle's AABB overlaps the square but the corner region is clear: |(.3,.3)| > .4
    pytest.param(SQUARE, g.Circle((1.3, 1.3), 0.4), False, id="circle-corner-gap"),
    pytest.param(SQUARE, g.Circle((0.5, 0.5), 0.1), True, id="circle-inside"),
    pytest.param(SQUARE, g.Circle((0.5, 0.5), 5.0), True, id="square-inside-circle"),
    pytest.param(g.Circle((0, 0), 1), g.Circle((2, 0), 1), True, id="circles-touching"),
    pytest.param(g.Circle((0, 0), 1), g.Circle((2 + 1e-9, 0), 1), False, id="circles-apart"),
    pytest.param(g.Circle((0, 0), 1), g.Circle((0, 0), 2), True, id="circles-concentric"),
]


@nojit
@pytest.mark.parametrize("a, b, expected", OVERLAP_CASES)
def test_polygons_overlap_hand(a, b, expected):
    assert isinstance(g.polygons_overlap(a, b), (bool, np.bool_))
    assert bool(g.polygons_overlap(a, b)) == expected
    assert bool(g.polygons_overlap(b, a)) == expected
    # either winding, flat input
    if not isinstance(a, g.Circle):
        assert bool(g.polygons_overlap(a[::-1], b)) == expected
        assert bool(g.polygons_overlap(a.ravel().tolist(), b)) == expected


@given(convex_shapes(), convex_shapes())
def test_polygons_overlap_matches_shapely(a, b):
    dist = O.distance(a, b)
    assume(dist > 1e-9 or O.penetration_depth(a, b) > 1e-9)
    expected = dist == 0.0
    assert bool(g.polygons_overlap(lib(a), lib(b))) == expected
    assert bool(g.polygons_overlap(lib(b), lib(a))) == expected


# ---------------------------------------------------------------- penetration


def check_pen(pen, normal, depth, tol=TOL):
    assert pen is not None
    assert pen.depth == pytest.approx(depth, abs=tol)
    assert_allclose(pen.normal, normal, atol=tol)


PEN_CASES = [
    # A, B, normal from A to B, depth: all by hand (A moves out along -normal)
    # unit square A, B from x = 0.9: B lies to the right, overlap 0.1 -> normal +x
    pytest.param(SQUARE, box(0.9, 0, 2, 1), (1, 0), 0.1, id="overlap-x"),
    # B from y = 0.75 lies above A, overlap 0.25 -> normal +y
    pytest.param(SQUARE, box(-0.5, 0.75, 1.5, 3), (0, 1), 0.25, id="overlap-y"),
    # small square centred (1, 0) inside [-2, 2]^2: cheapest way out is +x by 1.5, so A
    # moves along -normal = +x: normal -x
    pytest.param(box(0.5, -0.5, 1.5, 0.5), box(-2, -2, 2, 2), (-1, 0), 1.5, id="contained"),
    # the box (top y = 0.5e-6) lies below the sliver's base: A goes up, normal -y
    pytest.param(SLIVER, box(0.4, -1, 0.6, 0.5e-6), (0, -1), 0.5e-6, id="sliver"),
    # the diamond's bottom vertex (0, -0.1) is 0.1 into the floor below it: normal -y
    pytest.param(DIAMOND, FLOOR, (0, -1), 0.1, id="vertex-edge"),
    # centres 0 and 1.5 apart along x, radii 1 + 1: normal +x, depth 0.5
    pytest.param(g.Circle((0, 0), 1), g.Circle((1.5, 0), 1), (1, 0), 0.5, id="circles"),
    # from (3, 4) to (0, 0): (-0.6, -0.8); depth 6 - 5
    pytest.param(g.Circle((3, 4), 3), g.Circle((0, 0), 3), (-0.6, -0.8), 1.0, id="circles-diag"),
    # circle near the square's top: out through y = 1 (0.4 + r 0.1), A goes up: normal -y
    pytest.param(g.Circle((0.5, 0.6), 0.1), SQUARE, (0, -1), 0.5, id="circle-inside-square"),
    # from the centre (1.3, 1.4) to the corner (1, 1): (-0.3, -0.4) / 0.5; depth 0.6 - 0.5
    pytest.param(g.Circle((1.3, 1.4), 0.6), SQUARE, (-0.6, -0.8), 0.1, id="circle-corner"),
    # centre on the right edge x = 1: A leaves to +x, the square lies at -x
    pytest.param(g.Circle((1, 0.5), 0.25), SQUARE, (-1, 0), 0.25, id="circle-centre-on-edge"),
    pytest.param(g.Circle((0, 0.4), 0.5), FLOOR, (0, -1), 0.1, id="circle-floor"),
    # far from the origin: same overlap as overlap-x
    pytest.param(SQUARE + 1e4, box(0.9, 0, 2, 1) + 1e4, (1, 0), 0.1, id="far-away"),
    # diamonds |x| + |y| <= 1, B shifted by (1.5, 0.2): faces x + y = 1 (A), x + y = 0.7 (B);
    # B lies up and right, along (1, 1) / sqrt 2
    pytest.param(DIAMOND0, DIAMOND0 + (1.5, 0.2), (R2, R2), 0.3 * R2, id="rotated-edges"),
]


@nojit
@pytest.mark.parametrize("a, b, normal, depth", PEN_CASES)
def test_penetration_hand_both_ways(a, b, normal, depth):
    far = not isinstance(b, g.Circle) and np.abs(b).max() > 1e3
    tol = 1e-13 if depth < 1e-3 else 1e-10 if far else TOL
    check_pen(g.penetration(a, b), normal, depth, tol)
    check_pen(g.penetration(b, a), -np.asarray(normal, dtype=float), depth, tol)


@nojit
def test_penetration_coincident_circle_centres_pushes_a_up():
    # no direction between the centres: A goes out upwards, so the normal (A to B) is -y
    check_pen(g.penetration(g.Circle((2, 3), 1), g.Circle((2, 3), 2)), (0, -1), 3.0)
    check_pen(g.penetration(g.Circle((2, 3), 2), g.Circle((2, 3), 1)), (0, -1), 3.0)


@nojit
@pytest.mark.parametrize(
    "poly",
    [SQUARE, [(0, 0), (2, 1), (0, 1)], [(0, 0), (3.5, 2), (0, 1)], [(0, 0), (4, 0), (1, 3)]],
    ids=["square", "tri-a", "tri-b", "tri-c"],
)
@pytest.mark.parametrize("vertex", [0, 1, 2])
def test_penetration_circle_centre_on_a_vertex(poly, vertex):
    # depth r; the normal must still separate (any direction of the vertex's normal cone)
    poly = np.asarray(poly, dtype=float)
    disc = O.Disc(tuple(poly[vertex]), 0.5)
    for a, b in ((disc, poly), (poly, disc)):
        pen = g.penetration(lib(a), lib(b))
        assert pen is not None
        assert pen.depth == pytest.approx(0.5, abs=TOL)
        check_separates(a, b, pen.normal, pen.depth)


@nojit
@pytest.mark.parametrize(
    "center",
    [(0.25, 0.75 + 1e-16), (0.3, 0.7 + 1e-15), (0.1, 0.9 + 2e-16), (0.5, 0.5 + 1e-12)],
    ids=["1e-16", "1e-15", "2e-16", "1e-12"],
)
def test_penetration_circle_centre_just_outside_an_edge(center):
    # the centre lies a rounding error outside the hypotenuse x + y = 1: the separating
    # direction is that edge's normal, exactly; depth r minus the tiny gap. The triangle
    # lies down-left of the disc: from the disc to it is (-1, -1) / sqrt 2
    tri = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    disc = O.Disc(center, 0.5)
    gap = (center[0] + center[1] - 1) * R2
    for a, b, n in ((disc, tri, (-R2, -R2)), (tri, disc, (R2, R2))):
        pen = g.penetration(lib(a), lib(b))
        check_pen(pen, n, 0.5 - gap, tol=1e-9)
        check_separates(a, b, pen.normal, pen.depth)
        m = g.contact_points(lib(a), lib(b))
        assert_allclose(m.normal, n, atol=1e-9)


@nojit
@pytest.mark.parametrize(
    "a, b",
    [
        pytest.param(SQUARE, box(1, 0, 2, 1), id="touching-edge"),
        pytest.param(SQUARE, box(1, 1, 2, 2), id="touching-corner"),
        pytest.param(SQUARE, box(2, 0, 3, 1), id="apart"),
        pytest.param(g.Circle((0, 0), 1), g.Circle((2, 0), 1), id="circles-touching"),
        pytest.param(g.Circle((1.5, 0.5), 0.5), SQUARE, id="circle-touching"),
        pytest.param(g.Circle((1.3, 1.3), 0.4), SQUARE, id="circle-corner-gap"),
    ],
)
def test_penetration_none_when_touching_or_apart(a, b):
    assert g.penetration(a, b) is None
    assert g.penetration(b, a) is None


def check_separates(a, b, normal, depth):
    """The normal points from a to b: moving a by -normal*depth (or b by +normal*depth)
    leaves a and b just touching; less still overlaps."""
    n = np.asarray(normal, dtype=float)
    assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-12)
    assert O.distance(O.translate(a, -n * depth), b) <= 1e-7
    assert O.distance(a, O.translate(b, n * depth)) <= 1e-7
    assert O.overlap_strictly(O.translate(a, -n * 0.99 * depth), b)
    # n is a separating axis once touching: a further push eps opens a gap of eps
    eps = 1e-3
    assert O.distance(O.translate(a, -n * (depth + eps)), b) >= eps * (1 - 1e-6)


@given(convex_shapes(), convex_shapes(), st.booleans())
def test_penetration_is_the_smallest_separating_translation(a, b, clockwise):
    depth = O.penetration_depth(a, b)
    dist = O.distance(a, b)
    assume(depth > 1e-6 or dist > 1e-9)
    if clockwise and not O.is_disc(a):
        a = a[::-1].copy()
    pen = g.penetration(lib(a), lib(b))
    back = g.penetration(lib(b), lib(a))
    event("apart" if dist > 0 else "overlapping")
    if dist > 0:
        assert pen is None and back is None
        return
    assert pen is not None and back is not None
    assert pen.depth == pytest.approx(depth, abs=1e-8)
    assert back.depth == pytest.approx(depth, abs=1e-8)
    check_separates(a, b, pen.normal, pen.depth)
    check_separates(b, a, back.normal, back.depth)


# ---------------------------------------------------------------- contact_points


def check_manifold(m, normal, points, depths, tol=TOL):
    assert m is not None
    assert_allclose(m.normal, normal, atol=tol)
    pts = np.asarray(m.points)
    dep = np.asarray(m.depths)
    assert pts.shape == (len(points), 2) and dep.shape == (len(points),)
    # order of the points is not specified: sort both by (x, y)
    order = np.lexsort((pts[:, 1], pts[:, 0]))
    expected = np.asarray(points, dtype=float)
    eorder = np.lexsort((expected[:, 1], expected[:, 0]))
    assert_allclose(pts[order], expected[eorder], atol=tol)
    assert_allclose(dep[order], np.asarray(depths, dtype=float)[eorder], atol=tol)


MANIFOLD_CASES = [
    # box resting 0.1 deep in the floor below it (normal -y): both bottom corners, midway
    # between the surfaces y = 0.9 and y = 1
    pytest.param(
        box(0, 0.9, 2, 1.9),
        box(-5, -1, 5, 1),
        (0, -1),
        [(0, 0.95), (2, 0.95)],
        [0.1, 0.1],
        id="box-floor",
    ),
    # B above A (normal +y); overlap region x in [0.5, 1]: the incident edge is clipped to
    # the reference face
    pytest.param(
        SQUARE,
        box(0.5, 0.9, 1.5, 2),
        (0, 1),
        [(0.5, 0.95), (1, 0.95)],
        [0.1, 0.1],
        id="clipped",
    ),
    pytest.param(DIAMOND, FLOOR, (0, -1), [(0, -0.05)], [0.1], id="vertex-edge"),
    # faces x + y = 1 (A) and x + y = 0.7 (B) overlap for x - y in [0.3, 1]; midway x + y = 0.85
    pytest.param(
        DIAMOND0,
        DIAMOND0 + (1.5, 0.2),
        (R2, R2),
        [(0.575, 0.275), (0.925, -0.075)],
        [0.3 * R2, 0.3 * R2],
        id="rotated-edges",
    ),
    pytest.param(g.Circle((0, 0.4), 0.5), FLOOR, (0, -1), [(0, -0.05)], [0.1], id="circle-floor"),
    # surfaces at x = 1 (A) and x = 0.5 (B); B to the right
    pytest.param(
        g.Circle((0, 0), 1), g.Circle((1.5, 0), 1), (1, 0), [(0.75, 0)], [0.5], id="circles"
    ),
]


@nojit
@pytest.mark.parametrize("a, b, normal, points, depths", MANIFOLD_CASES)
def test_contact_points_hand(a, b, normal, points, depths):
    check_manifold(g.contact_points(a, b), normal, points, depths)
    check_manifold(g.contact_points(b, a), -np.asarray(normal, dtype=float), points, depths)


@nojit
def test_contact_points_coincident_circle_centres():
    # normal n = (0, -1) (A pushed up) both ways round; A's surface point is c + n rA =
    # c - (0, rA), B's is c - n rB = c + (0, rB); the contact point is midway
    small, big = g.Circle((0, 0), 1), g.Circle((0, 0), 2)
    check_manifold(g.contact_points(small, big), (0, -1), [(0, 0.5)], [3.0])
    check_manifold(g.contact_points(big, small), (0, -1), [(0, -0.5)], [3.0])


@nojit
def test_contact_points_none_when_touching_or_apart():
    for a, b in [
        (SQUARE, box(1, 0, 2, 1)),
        (SQUARE, box(1, 1, 2, 2)),
        (SQUARE, box(5, 5, 6, 6)),
        (g.Circle((0, 0), 1), g.Circle((2, 0), 1)),
        (g.Circle((1.5, 0.5), 0.5), SQUARE),
    ]:
        assert g.contact_points(a, b) is None
        assert g.contact_points(b, a) is None


def on_boundary_distance(shape, p):
    if O.is_disc(shape):
        return abs(math.dist(shape.center, p) - shape.radius)
    from shapely.geometry import LinearRing, Point

    return LinearRing(shape).distance(Point(p))


# contact_points keeps A's reference face unless B's separates more by this much (Box2D's
# 0.1 * linear slop, for stable feature ids), so within this tie its normal may differ from
# penetration's and its depth exceed the smallest by up to this much.
FLIP_TOL = 5e-4


@given(convex_shapes(), convex_shapes())
def test_contact_points_lie_between_the_surfaces(a, b):
    depth = O.penetration_depth(a, b)
    dist = O.distance(a, b)
    assume(depth > 1e-6 or dist > 1e-9)
    for s1, s2 in ((a, b), (b, a)):
        m = g.contact_points(lib(s1), lib(s2))
        pen = g.penetration(lib(s1), lib(s2))
        if dist > 0:
            assert m is None
            continue
        assert m is not None
        n = np.asarray(m.normal)
        pts = np.asarray(m.points)
        dep = np.asarray(m.depths)
        assert pts.ndim == 2 and pts.shape[1] == 2 and pts.shape[0] in (1, 2)
        assert dep.shape == (pts.shape[0],)
        assert np.all(dep > -1e-9)
        if np.allclose(n, pen.normal, atol=1e-9):
            event("normal as in penetration")
            assert dep.max() == pytest.approx(depth, abs=1e-8)
        else:
            # a near-tie between two axes: the other reference face, whose overlap is at
            # most FLIP_TOL more than the smallest; clipping to its side planes may drop the
            # deepest incident vertex, so the reported depth is only near the smallest
            event("near-tie: other reference face")
            assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-12)
            assert abs(dep.max() - depth) <= FLIP_TOL + 1e-8
            assert O.distance(O.translate(s1, -n * (depth + FLIP_TOL + 1e-6)), s2) > 0
        for p, d in zip(pts, dep, strict=True):
            # midway: n points from s1 into s2, so s1's surface is half the depth forward
            # along n (inside s2) and s2's half the depth back
            assert on_boundary_distance(s1, p + n * d / 2) <= 1e-7
            assert on_boundary_distance(s2, p - n * d / 2) <= 1e-7


@nojit
def test_contact_points_normal_as_in_penetration_outside_the_flip_tolerance():
    # B = A with one vertex raised by 1e-2: pushing B along (1, 1)/sqrt 2 is cheaper by
    # 3.5e-3 > FLIP_TOL than along its own hypotenuse's normal
    a = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    b = a.copy()
    b[1, 1] = 1e-2
    for s1, s2 in ((a, b), (b, a)):
        pen = g.penetration(s1, s2)
        m = g.contact_points(s1, s2)
        assert_allclose(m.normal, pen.normal, atol=1e-12)
        assert np.max(m.depths) == pytest.approx(pen.depth, abs=1e-12)


# ---------------------------------------------------------------- sweep


def check_impact(imp, time, normal, depth=0.0, tol=TOL):
    assert imp is not None
    assert imp.time == pytest.approx(time, abs=tol)
    if normal is not None:
        assert_allclose(imp.normal, normal, atol=tol)
    assert imp.depth == pytest.approx(depth, abs=tol)


SWEEP_CASES = [
    # A, velocity_a, B, velocity_b, time, normal from A to B at first touch (so the closing
    # velocity va - vb has a positive component along it)
    # A's face x = 1 meets B's x = 2 at t = 1/3; B lies to the right: +x
    pytest.param(SQUARE, (3, 0), box(2, 0.5, 3, 1.5), (0, 0), 1 / 3, (1, 0), id="face"),
    pytest.param(SQUARE, (1, 0), box(2, 0.5, 3, 1.5), (-2, 0), 1 / 3, (1, 0), id="both-move"),
    # A falls 1 m onto the floor below it (top y = -1) at t = 1/4: -y
    pytest.param(SQUARE, (0, -4), FLOOR + (0, -1), (0, 0), 0.25, (0, -1), id="falling"),
    # the diamond's right vertex (-1, 0) reaches x = 0 after 0.5
    pytest.param(
        DIAMOND - (0, 0.9) + (-2, 0),
        (2, 0),
        box(0, -1, 2, 1),
        (0, 0),
        0.5,
        (1, 0),
        id="vertex-first",
    ),
    # exactly at t_max = 1: closed interval
    pytest.param(SQUARE, (1, 0), box(2, 0, 3, 1), (0, 0), 1.0, (1, 0), id="at-t-max"),
    # the circle's right point x = -1.5 + 4t meets x = 0 at 0.375; the square is to the right
    pytest.param(g.Circle((-2, 0.5), 0.5), (4, 0), SQUARE, (0, 0), 0.375, (1, 0), id="circle"),
    # the sliver's apex (0.5, 1e-6) rises to y = 0.5, into the box above it: +y
    pytest.param(SLIVER, (0, 1), box(0.4, 0.5, 0.6, 1), (0, 0), 0.5 - 1e-6, (0, 1), id="sliver"),
    pytest.param(
        g.Circle((0, 0), 1), (6, 0), g.Circle((5, 0), 1), (0, 0), 0.5, (1, 0), id="circles"
    ),
    # |(6t - 5, -1)| = 2  ->  t = (5 - sqrt 3) / 6; from A's centre (6t, 0) to B's (5, 1):
    # (5 - 6t, 1) / 2 = (sqrt 3 / 2, 1 / 2)
    pytest.param(
        g.Circle((0, 0), 1),
        (6, 0),
        g.Circle((5, 1), 1),
        (0, 0),
        (5 - math.sqrt(3)) / 6,
        (math.sqrt(3) / 2, 0.5),
        id="circles-offset",
    ),
    # centre (1.3, 2 - 4t) first meets the corner (1, 1): |(0.3, y - 1)| = 0.5 at y = 1.4;
    # from the centre to the corner: (-0.3, -0.4) / 0.5
    pytest.param(
        g.Circle((1.3, 2.0), 0.5), (0, -4), SQUARE, (0, 0), 0.15, (-0.6, -0.8), id="circle-corner"
    ),
]


@nojit
@pytest.mark.parametrize("a, va, b, vb, time, normal", SWEEP_CASES)
def test_sweep_hand_both_ways(a, va, b, vb, time, normal):
    check_impact(g.sweep(a, va, b, vb), time, normal)
    check_impact(g.sweep(b, vb, a, va), time, -np.asarray(normal, dtype=float))


@nojit
def test_sweep_t_max_and_misses():
    b = box(3, 0, 4, 1)
    assert g.sweep(SQUARE, (1, 0), b) is None  # contact at t = 2 > t_max = 1
    check_impact(g.sweep(SQUARE, (1, 0), b, t_max=3.0), 2.0, (1, 0))
    check_impact(g.sweep(SQUARE, (1, 0), b, (0, 0), 2.0), 2.0, (1, 0))
    check_impact(g.sweep(SQUARE, (0.5, 0), b, velocity_b=(-0.5, 0), t_max=2.0), 2.0, (1, 0))
    # passing by with a 0.5 gap
    assert g.sweep(SQUARE, (5, 0), box(2, 1.5, 3, 2.5)) is None
    # moving away
    assert g.sweep(SQUARE, (-1, 0), b) is None
    # no relative motion
    assert g.sweep(SQUARE, (1, 1), b, (1, 1)) is None
    assert g.sweep(SQUARE, (0, 0), b) is None
    assert g.sweep(g.Circle((0, 0), 1), (0, 0), g.Circle((3, 0), 1)) is None


@nojit
def test_sweep_touching_or_overlapping_at_start():
    # touching at the start: time 0, depth 0, whatever the velocity
    for v in [(1, 0), (-1, 0), (0, 1), (0, 0)]:
        check_impact(g.sweep(SQUARE, v, box(1, 0, 2, 1)), 0.0, None, 0.0)
        check_impact(g.sweep(box(1, 0, 2, 1), v, SQUARE), 0.0, None, 0.0)
    # overlapping at the start: time 0, normal (from A to B) and depth as in penetration
    check_impact(g.sweep(SQUARE, (5, 0), box(0.9, 0, 2, 1)), 0.0, (1, 0), 0.1)
    check_impact(g.sweep(box(0.9, 0, 2, 1), (0, 0), SQUARE, (5, 0)), 0.0, (-1, 0), 0.1)
    check_impact(
        g.sweep(g.Circle((0, 0), 1), (0, 0), g.Circle((0, 0), 2), (0, 0)), 0.0, (0, -1), 3.0
    )


def check_sweep_against_bisection(a, va, b, vb, t_max):
    status, t_hit = O.sweep_time(a, va, b, vb, t_max)
    assume(status != "ambiguous")
    event(f"sweep {status}" + (" at start" if t_hit == 0.0 else ""))
    va, vb = np.asarray(va, dtype=float), np.asarray(vb, dtype=float)
    if t_hit == 0.0:
        depth = O.penetration_depth(a, b)
        assume(depth > 1e-6)  # merely touching at the start is ill-conditioned in floats
    imp = g.sweep(lib(a), va, lib(b), vb, t_max)
    back = g.sweep(lib(b), vb, lib(a), va, t_max)
    if status == "miss":
        assert imp is None and back is None
        return
    assert imp is not None and back is not None
    if t_hit == 0.0:
        assert imp.time == 0.0 and back.time == 0.0
        pen = g.penetration(lib(a), lib(b))
        assert imp.depth == pytest.approx(depth, abs=1e-8)
        assert_allclose(imp.normal, pen.normal, atol=1e-9)
        return
    assert imp.time == pytest.approx(t_hit, abs=1e-6)
    assert back.time == pytest.approx(t_hit, abs=1e-6)
    assert imp.depth == 0.0 and back.depth == 0.0
    at = O.translate(a, va * imp.time)
    bt = O.translate(b, vb * imp.time)
    assert O.distance(at, bt) <= 1e-7
    # each way round the normal (from s1 to s2) separates the touching shapes (a
    # vertex-vertex contact has a cone of such normals, so the two calls need not give
    # exactly opposite ones)
    for s1, s2, v_rel, n in ((at, bt, va - vb, imp.normal), (bt, at, vb - va, back.normal)):
        n = np.asarray(n)
        assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-12)
        assert np.dot(v_rel, n) > 0  # s1 was moving towards s2 along +n
        eps = 1e-3
        assert O.distance(O.translate(s1, -n * eps), s2) >= eps * (1 - 1e-5) - 1e-7


@given(
    convex_shapes(),
    velocities(),
    convex_shapes(),
    st.one_of(st.just((0.0, 0.0)), velocities()),
    st.sampled_from([1.0, 0.5, 2.0]),
)
def test_sweep_matches_swept_hull_and_bisection(a, va, b, vb, t_max):
    check_sweep_against_bisection(a, va, b, vb, t_max)


def centre(s):
    return np.asarray(s.center if O.is_disc(s) else np.mean(s, axis=0), dtype=float)


@given(
    convex_shapes(),
    convex_shapes(),
    st.floats(0, 2 * math.pi),
    st.floats(6.0, 12.0),
    st.floats(0.6, 1.6),
    velocities(1.0),
    st.floats(0.0, 1.0),
)
def test_sweep_aimed_shots_match_bisection(a, b, angle, dist, speed, jitter, share):
    # A starts well away from B and is shot roughly at it; B may move to meet it
    offset = dist * np.array([math.cos(angle), math.sin(angle)])
    a = O.translate(a, centre(b) + offset - centre(a))
    v = -offset * speed + np.asarray(jitter) * dist * 0.3
    check_sweep_against_bisection(a, v * (1 - share), b, -v * share, 1.0)


# ---------------------------------------------------------------- batch forms


def random_pool_and_pairs(shapes, data):
    """Pool of the shapes (polygons in either winding) and random index pairs into it."""
    flip = [data.draw(st.booleans()) for _ in shapes]
    pool = g.pack_shapes(
        [lib(s[::-1] if f and not O.is_disc(s) else s) for s, f in zip(shapes, flip, strict=True)]
    )
    m = data.draw(st.integers(1, 12))
    idx = st.integers(0, len(shapes) - 1)
    pairs = np.array([(data.draw(idx), data.draw(idx)) for _ in range(m)], dtype=np.int64)
    return pool, pairs


@given(st.lists(convex_shapes(), min_size=1, max_size=6), st.data())
def test_polygons_overlap_many_equals_one_pair(shapes, data):
    pool, pairs = random_pool_and_pairs(shapes, data)
    out = np.asarray(g.polygons_overlap_many(pool, pairs))
    assert out.shape == (len(pairs),) and out.dtype == bool
    for k, (i, j) in enumerate(pairs):
        assert out[k] == bool(g.polygons_overlap(lib(shapes[i]), lib(shapes[j])))


@given(st.lists(convex_shapes(), min_size=1, max_size=6), st.data())
def test_penetration_many_equals_one_pair(shapes, data):
    pool, pairs = random_pool_and_pairs(shapes, data)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    assume(len(pairs) > 0)
    hit, normal, depth = g.penetration_many(pool, pairs)
    assert np.shape(hit) == (len(pairs),) and np.shape(normal) == (len(pairs), 2)
    for k, (i, j) in enumerate(pairs):
        one = g.penetration(lib(shapes[i]), lib(shapes[j]))
        assert bool(hit[k]) == (one is not None)
        if one is not None:
            assert depth[k] == pytest.approx(one.depth, abs=1e-12)
            assert_allclose(normal[k], one.normal, atol=1e-12)


@given(
    st.lists(convex_shapes(), min_size=2, max_size=6),
    st.data(),
    st.sampled_from([1.0, 0.5]),
    st.booleans(),
)
def test_sweep_many_equals_one_pair(shapes, data, t_max, with_vb):
    pool, pairs = random_pool_and_pairs(shapes, data)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    assume(len(pairs) > 0)
    va = np.array([data.draw(velocities()) for _ in pairs], dtype=float)
    vb = np.array([data.draw(velocities()) for _ in pairs], dtype=float) if with_vb else None
    hit, time, normal, depth = g.sweep_many(pool, pairs, va, vb, t_max=t_max)
    assert np.shape(hit) == (len(pairs),) and np.shape(normal) == (len(pairs), 2)
    for k, (i, j) in enumerate(pairs):
        vbk = vb[k] if with_vb else (0.0, 0.0)
        one = g.sweep(lib(shapes[i]), va[k], lib(shapes[j]), vbk, t_max)
        assert bool(hit[k]) == (one is not None)
        if one is not None:
            assert time[k] == pytest.approx(one.time, abs=1e-12)
            assert depth[k] == pytest.approx(one.depth, abs=1e-12)
            assert_allclose(normal[k], one.normal, atol=1e-12)


@nojit
def test_batch_pair_forms_hand():
    shapes = [SQUARE, box(0.9, 0, 2, 1), g.Circle((5, 0.5), 0.5), box(1, 0, 1.5, 1)]
    pool = g.pack_shapes(shapes)
    pairs = np.array([[0, 1], [1, 0], [0, 2], [0, 3], [2, 0]])
    assert np.asarray(g.polygons_overlap_many(pool, pairs)).tolist() == [
        True,
        True,
        False,
        True,
        False,
    ]
    hit, normal, depth = g.penetration_many(pool, pairs)
    assert np.asarray(hit).tolist() == [True, True, False, False, False]
    # square -> box to its right: +x; the other way round -x
    assert_allclose(normal[:2], [(1, 0), (-1, 0)], atol=TOL)
    assert_allclose(depth[:2], [0.1, 0.1], atol=TOL)
    vel = np.array([[0, 0], [0, 0], [8, 0], [0, 0], [-8, 0]], dtype=float)
    hit, time, normal, depth = g.sweep_many(pool, pairs, vel)
    # square -> circle: right face x = 1 meets the circle's left point x = 4.5 at 3.5 / 8
    assert np.asarray(hit).tolist() == [True, True, True, True, True]
    assert_allclose(time, [0, 0, 3.5 / 8, 0, 3.5 / 8], atol=TOL)
    # from the square to the circle on its right, and from the circle to the square
    assert_allclose(normal[2], (1, 0), atol=TOL)
    assert_allclose(normal[4], (-1, 0), atol=TOL)
    assert_allclose(depth, [0.1, 0.1, 0, 0, 0], atol=TOL)
    hit, time, normal, depth = g.sweep_many(pool, pairs, vel, t_max=0.25)
    assert np.asarray(hit).tolist() == [True, True, False, True, False]


@nojit
def test_batch_pair_forms_empty_and_list_input():
    pool = g.pack_shapes([SQUARE, g.Circle((0.5, 0.5), 0.25)])
    empty = np.zeros((0, 2), dtype=np.int64)
    assert np.asarray(g.polygons_overlap_many(pool, empty)).shape == (0,)
    hit, normal, depth = g.penetration_many(pool, empty)
    assert np.shape(hit) == (0,) and np.shape(normal) == (0, 2) and np.shape(depth) == (0,)
    hit, time, normal, depth = g.sweep_many(pool, empty, np.zeros((0, 2)))
    assert np.shape(hit) == (0,) and np.shape(time) == (0,) and np.shape(normal) == (0, 2)
    # plain lists are array-like too
    assert np.asarray(g.polygons_overlap_many(pool, [[0, 1], [1, 0]])).tolist() == [True, True]
    hit, normal, depth = g.penetration_many(pool, [[1, 0]])
    # circle centred in the unit square: 0.5 to any side plus r = 0.25; four tied axes
    assert bool(hit[0]) and depth[0] == pytest.approx(0.75, abs=TOL)
    hit, time, normal, depth = g.sweep_many(pool, [[1, 0]], [[3.0, 0.0]], [[0.0, 0.0]])
    assert bool(hit[0]) and time[0] == 0.0 and depth[0] == pytest.approx(0.75, abs=TOL)
