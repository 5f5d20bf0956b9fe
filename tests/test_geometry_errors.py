"""Bad input for every geometry function: a ValueError whose message names the argument.

Covered: NaN or inf anywhere, fewer than 3 distinct vertices, zero area, concave where a
convex shape is required, non-positive (or non-finite) radius and density, vectors that are
not length 2. Circles are built inside the ``raises`` block so the error may come from the
constructor or from the function using it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from collide2d import geometry as g

pytestmark = pytest.mark.nojit

NAN, INF = math.nan, math.inf
SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
L_SHAPE = np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]], dtype=float)

BAD_POLYGONS = {
    "nan": [[0, 0], [1, 0], [NAN, 1]],
    "inf": [[0, 0], [INF, 0], [1, 1]],
    "-inf-flat": [0, 0, 1, 0, 1, -INF],
    "two-vertices": [[0, 0], [1, 0]],
    "two-distinct-closed": [[0, 0], [1, 0], [0, 0]],
    "two-distinct-duplicated": [[0, 0], [0, 0], [1, 1], [1, 1]],
    "one-vertex": [[2, 3]],
    "empty": np.zeros((0, 2)),
    "zero-area": [[0, 0], [1, 1], [2, 2]],
    "zero-area-flat": [0, 0, 2, 0, 1, 0, 3, 0],
    "odd-flat": [0, 0, 1, 0, 1],
    "three-columns": [[0, 0, 0], [1, 0, 0], [1, 1, 0]],
}
BAD_IDS = list(BAD_POLYGONS)
BAD_VECTORS = {"nan": (NAN, 0.0), "inf": (0.0, INF), "length-3": (0.0, 1.0, 2.0)}
VEC_IDS = list(BAD_VECTORS)

A_NAME, B_NAME = r"\bA\b", r"\bB\b"


def circle(center=(0.0, 0.0), radius=1.0):
    return g.Circle(center, radius)


# ---------------------------------------------------------------- polygons


@pytest.mark.parametrize("bad", BAD_IDS)
@pytest.mark.parametrize(
    "call, name",
    [
        pytest.param(lambda p: g.point_in_polygon((0.5, 0.5), p), "polygon", id="pip"),
        pytest.param(lambda p: g.points_in_polygon([(0.5, 0.5)], p), "polygon", id="pips"),
        pytest.param(lambda p: g.segment_polygon((0, 0), (1, 1), p), "polygon", id="segpoly"),
        pytest.param(lambda p: g.clip_segment((0, 0), (1, 1), p), "convex", id="clip"),
        pytest.param(
            lambda p: g.clip_segment_many([(0, 0)], [(1, 1)], p), "convex", id="clip_many"
        ),
        pytest.param(lambda p: g.polygons_overlap(p, SQUARE), A_NAME, id="overlap-A"),
        pytest.param(lambda p: g.polygons_overlap(SQUARE, p), B_NAME, id="overlap-B"),
        pytest.param(lambda p: g.penetration(p, SQUARE), A_NAME, id="pen-A"),
        pytest.param(lambda p: g.penetration(SQUARE, p), B_NAME, id="pen-B"),
        pytest.param(lambda p: g.contact_points(p, SQUARE), A_NAME, id="contact-A"),
        pytest.param(lambda p: g.contact_points(SQUARE, p), B_NAME, id="contact-B"),
        pytest.param(lambda p: g.sweep(p, (1, 0), SQUARE), A_NAME, id="sweep-A"),
        pytest.param(lambda p: g.sweep(SQUARE, (1, 0), p), B_NAME, id="sweep-B"),
        pytest.param(lambda p: g.polygon_mass(p), "polygon", id="mass"),
        pytest.param(lambda p: g.is_convex(p), "polygon", id="is_convex"),
        pytest.param(lambda p: g.decompose(p), "polygon", id="decompose"),
        pytest.param(lambda p: g.pack_shapes([SQUARE, p]), "shapes", id="pack"),
    ],
)
def test_bad_polygon_is_a_value_error_naming_the_argument(call, name, bad):
    with pytest.raises(ValueError, match=name):
        call(BAD_POLYGONS[bad])


@pytest.mark.parametrize(
    "call, name",
    [
        pytest.param(lambda p: g.clip_segment((0, 0), (1, 1), p), "convex", id="clip"),
        pytest.param(
            lambda p: g.clip_segment_many([(0, 0)], [(1, 1)], p), "convex", id="clip_many"
        ),
        pytest.param(lambda p: g.polygons_overlap(p, SQUARE), A_NAME, id="overlap-A"),
        pytest.param(lambda p: g.polygons_overlap(SQUARE, p), B_NAME, id="overlap-B"),
        pytest.param(lambda p: g.penetration(p, SQUARE), A_NAME, id="pen-A"),
        pytest.param(lambda p: g.penetration(SQUARE, p), B_NAME, id="pen-B"),
        pytest.param(lambda p: g.contact_points(p, SQUARE), A_NAME, id="contact-A"),
        pytest.param(lambda p: g.contact_points(SQUARE, p), B_NAME, id="contact-B"),
        pytest.param(lambda p: g.sweep(p, (1, 0), SQUARE), A_NAME, id="sweep-A"),
        pytest.param(lambda p: g.sweep(SQUARE, (1, 0), p), B_NAME, id="sweep-B"),
    ],
)
@pytest.mark.parametrize("clockwise", [False, True])
def test_concave_where_convex_required(call, name, clockwise):
    with pytest.raises(ValueError, match=name):
        call(L_SHAPE[::-1] if clockwise else L_SHAPE)


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda p: g.point_in_polygon((0.5, 0.5), p), id="pip"),
        pytest.param(lambda p: g.segment_polygon((0, 0), (1, 1), p), id="segpoly"),
        pytest.param(lambda p: g.polygon_mass(p), id="mass"),
        pytest.param(lambda p: g.is_convex(p), id="is_convex"),
        pytest.param(lambda p: g.decompose(p), id="decompose"),
        pytest.param(lambda p: g.pack_shapes([p]), id="pack"),
    ],
)
def test_concave_accepted_where_allowed(call):
    call(L_SHAPE)  # must not raise


# ---------------------------------------------------------------- circles


@pytest.mark.parametrize("radius", [0.0, -1.0, NAN, INF, -INF])
@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda c: g.polygons_overlap(c(), SQUARE), id="overlap"),
        pytest.param(lambda c: g.penetration(SQUARE, c()), id="pen"),
        pytest.param(lambda c: g.contact_points(c(), SQUARE), id="contact"),
        pytest.param(lambda c: g.sweep(c(), (1, 0), SQUARE), id="sweep"),
        pytest.param(lambda c: g.segment_polygon((0, 0), (1, 1), c()), id="segpoly"),
        pytest.param(lambda c: g.clip_segment((0, 0), (1, 1), c()), id="clip"),
        pytest.param(lambda c: g.polygon_mass(c()), id="mass"),
        pytest.param(lambda c: g.pack_shapes([c()]), id="pack"),
    ],
)
def test_bad_radius(call, radius):
    with pytest.raises(ValueError, match="radius"):
        call(lambda: circle(radius=radius))


@pytest.mark.parametrize("center", [(NAN, 0.0), (0.0, INF), (0.0, 1.0, 2.0)])
def test_bad_circle_center(center):
    with pytest.raises(ValueError, match="center"):
        g.polygons_overlap(circle(center=center), SQUARE)
    with pytest.raises(ValueError, match="center"):
        g.polygon_mass(circle(center=center))


# ---------------------------------------------------------------- density


@pytest.mark.parametrize("density", [0.0, -2.0, NAN, INF])
def test_bad_density(density):
    with pytest.raises(ValueError, match="density"):
        g.polygon_mass(SQUARE, density)
    with pytest.raises(ValueError, match="density"):
        g.polygon_mass(circle(), density=density)


# ---------------------------------------------------------------- points and vectors


@pytest.mark.parametrize("bad", VEC_IDS)
@pytest.mark.parametrize(
    "call, name",
    [
        pytest.param(
            lambda v: g.segment_intersection(v, (1, 1), (0, 1), (1, 0)), r"\ba\b", id="si-a"
        ),
        pytest.param(
            lambda v: g.segment_intersection((0, 0), v, (0, 1), (1, 0)), r"\bb\b", id="si-b"
        ),
        pytest.param(
            lambda v: g.segment_intersection((0, 0), (1, 1), v, (1, 0)), r"\bc\b", id="si-c"
        ),
        pytest.param(
            lambda v: g.segment_intersection((0, 0), (1, 1), (0, 1), v), r"\bd\b", id="si-d"
        ),
        pytest.param(lambda v: g.point_in_polygon(v, SQUARE), r"\bpoint\b", id="pip"),
        pytest.param(lambda v: g.segment_polygon(v, (1, 1), SQUARE), r"\ba\b", id="sp-a"),
        pytest.param(lambda v: g.segment_polygon((0, 0), v, SQUARE), r"\bb\b", id="sp-b"),
        pytest.param(lambda v: g.clip_segment(v, (1, 1), SQUARE), r"\ba\b", id="clip-a"),
        pytest.param(lambda v: g.clip_segment((0, 0), v, SQUARE), r"\bb\b", id="clip-b"),
        pytest.param(lambda v: g.sweep(SQUARE, v, SQUARE + 2), "velocity_a", id="sweep-va"),
        pytest.param(lambda v: g.sweep(SQUARE, (1, 0), SQUARE + 2, v), "velocity_b", id="sweep-vb"),
    ],
)
def test_bad_vector(call, name, bad):
    with pytest.raises(ValueError, match=name):
        call(BAD_VECTORS[bad])


@pytest.mark.parametrize("t_max", [NAN, INF])
def test_bad_t_max(t_max):
    with pytest.raises(ValueError, match="t_max"):
        g.sweep(SQUARE, (1, 0), SQUARE + 2, (0, 0), t_max)
    pool = g.pack_shapes([SQUARE, SQUARE + 2])
    with pytest.raises(ValueError, match="t_max"):
        g.sweep_many(pool, [[0, 1]], [[1.0, 0.0]], t_max=t_max)


@pytest.mark.parametrize("value", [NAN, INF])
def test_bad_points_arrays(value):
    pts = np.array([[0.5, 0.5], [0.1, value]])
    with pytest.raises(ValueError, match="points"):
        g.points_in_polygon(pts, SQUARE)
    with pytest.raises(ValueError, match="points"):
        g.convex_hull(pts)


def test_convex_hull_needs_points():
    with pytest.raises(ValueError, match="points"):
        g.convex_hull(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="points"):
        g.convex_hull([[0, 0, 0], [1, 1, 1]])


# ---------------------------------------------------------------- batch forms


@pytest.mark.parametrize("value", [NAN, INF])
@pytest.mark.parametrize("which", ["a", "b", "c", "d"])
def test_segment_intersection_many_non_finite(which, value):
    arrays = {k: np.array([[0.0, 0.0], [1.0, 1.0]]) for k in "abcd"}
    arrays[which][1, 0] = value
    with pytest.raises(ValueError, match=rf"\b{which}\b"):
        g.segment_intersection_many(**arrays)


def test_segment_intersection_many_mismatched_lengths():
    with pytest.raises(ValueError):
        g.segment_intersection_many(
            np.zeros((3, 2)), np.ones((3, 2)), np.zeros((2, 2)), np.ones((2, 2))
        )


@pytest.mark.parametrize("which", ["starts", "ends"])
def test_segment_batch_non_finite(which):
    pool = g.pack_shapes([SQUARE])
    arrays = {"starts": np.array([[0.0, 0.0], [-1.0, 0.5]]), "ends": np.array([[2.0, 2], [2, 1]])}
    arrays[which][0, 1] = NAN
    with pytest.raises(ValueError, match=which):
        g.segment_polygon_many(arrays["starts"], arrays["ends"], pool)
    with pytest.raises(ValueError, match=which):
        g.clip_segment_many(arrays["starts"], arrays["ends"], SQUARE)


def test_segment_batch_mismatched_lengths():
    pool = g.pack_shapes([SQUARE])
    with pytest.raises(ValueError):
        g.segment_polygon_many(np.zeros((3, 2)), np.ones((2, 2)), pool)
    with pytest.raises(ValueError):
        g.clip_segment_many(np.zeros((3, 2)), np.ones((2, 2)), SQUARE)


def test_pair_batch_velocities():
    pool = g.pack_shapes([SQUARE, SQUARE + 2])
    pairs = np.array([[0, 1]])
    with pytest.raises(ValueError, match="velocities_a"):
        g.sweep_many(pool, pairs, np.array([[NAN, 0.0]]))
    with pytest.raises(ValueError, match="velocities_b"):
        g.sweep_many(pool, pairs, np.array([[1.0, 0.0]]), np.array([[0.0, INF]]))


def test_pair_batch_bad_pairs():
    pool = g.pack_shapes([SQUARE, SQUARE + 2])
    for pairs in (np.array([[0, 2]]), np.array([[-1, 0]]), np.array([[0, 1, 1]])):
        for call in (
            lambda p: g.polygons_overlap_many(pool, p),
            lambda p: g.penetration_many(pool, p),
            lambda p: g.sweep_many(pool, p, np.zeros((len(p), 2))),
        ):
            with pytest.raises((ValueError, IndexError)):
                call(pairs)


def test_concave_pool_member_rejected_for_pair_queries():
    pool = g.pack_shapes([SQUARE, L_SHAPE])
    pairs = np.array([[0, 1]])
    for call in (
        lambda: g.polygons_overlap_many(pool, pairs),
        lambda: g.penetration_many(pool, pairs),
        lambda: g.sweep_many(pool, pairs, np.array([[1.0, 0.0]])),
    ):
        with pytest.raises(ValueError, match=r"(?i)convex|concave"):
            call()
