"""World queries: raycast (one, all, many), points, boxes, shapes and shape casts, filters.

Oracles: shapely 2 for polygon boundaries and containment (concave outlines included),
closed forms for circles, hand-worked values for the small cases. Random worlds put every
shape on its own static body with a random pose, so the world transform is exercised; the
oracle transforms the vertices itself.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from numpy.testing import assert_allclose
from shapely.geometry import MultiPoint, Polygon

import collide2d as c2d
from collide2d import QueryFilter
from collide2d.queries import RayHit

nojit = pytest.mark.nojit
FRACTION_TOL = 1e-9


# ---------------------------------------------------------------------------- random worlds


def _rotate(p, angle):
    c, s = math.cos(angle), math.sin(angle)
    p = np.asarray(p, dtype=float)
    return np.column_stack((c * p[:, 0] - s * p[:, 1], s * p[:, 0] + c * p[:, 1]))


def random_world(seed, n_shapes=14, extent=20.0):
    """A world of static bodies, one shape each, and the oracle's description of each shape:
    ("poly", world vertices) or ("circle", centre, radius), indexed like world.bodies."""
    rng = np.random.default_rng(seed)
    world = c2d.World()
    shapes = []
    while len(shapes) < n_shapes:
        kind = rng.choice(["convex", "star", "box", "circle"])
        pos = rng.uniform(-extent, extent, 2)
        angle = rng.uniform(0, 2 * math.pi)
        size = rng.uniform(1.0, 4.0)
        if kind == "circle":
            offset = rng.uniform(-1, 1, 2)
            body = world.add_body(kind="static", position=pos, angle=angle)
            body.add_circle(size, offset=offset)
            shapes.append(("circle", pos + _rotate([offset], angle)[0], size))
            continue
        if kind == "convex":
            pts = rng.uniform(-size, size, (8, 2))
            local = np.asarray(MultiPoint(pts).convex_hull.exterior.coords)[:-1]
        elif kind == "box":
            w, h = rng.uniform(0.5, 2 * size, 2)
            local = np.array([(-w, -h), (w, -h), (w, h), (-w, h)]) / 2
        else:  # star-shaped, concave, simple
            k = int(rng.integers(6, 11))
            phi = np.sort(rng.uniform(0, 2 * math.pi, k))
            rad = np.where(np.arange(k) % 2 == 0, size, size * rng.uniform(0.3, 0.7, k))
            local = np.column_stack((rad * np.cos(phi), rad * np.sin(phi)))
            if not Polygon(local).is_valid:
                continue
        body = world.add_body(kind="static", position=pos, angle=angle)
        try:
            body.add_polygon(local)
        except ValueError:  # a sliver the library rejects: try another shape
            world.remove(body)
            continue
        shapes.append(("poly", pos + _rotate(local, angle)))
    return world, shapes


def random_segments(seed, m, extent=25.0, reach=30.0):
    rng = np.random.default_rng(seed + 1000)
    a = rng.uniform(-extent, extent, (m, 2))
    b = a + rng.uniform(-reach, reach, (m, 2))
    return a, b


def oracle_rays(shapes, a, b):
    """Per segment and shape: the fraction of the first boundary crossing (inf: none) and
    whether the start lies inside or on the shape."""
    m = len(a)
    t = np.full((m, len(shapes)), np.inf)
    inside = np.zeros((m, len(shapes)), dtype=bool)
    d = b - a
    dd = np.einsum("ij,ij->i", d, d)
    lines = shapely.linestrings(np.stack([a, b], axis=1))
    starts = shapely.points(a)
    for j, sh in enumerate(shapes):
        if sh[0] == "poly":
            poly = Polygon(sh[1])
            inside[:, j] = shapely.covers(poly, starts)
            cross = shapely.intersection(lines, poly.exterior)
            xy, idx = shapely.get_coordinates(cross, return_index=True)
            if len(idx):
                f = np.einsum("ij,ij->i", xy - a[idx], d[idx]) / dd[idx]
                np.minimum.at(t[:, j], idx, np.clip(f, 0.0, 1.0))
        else:
            _, c, r = sh
            f = a - c
            inside[:, j] = np.einsum("ij,ij->i", f, f) <= r * r
            qb = np.einsum("ij,ij->i", f, d)
            qc = np.einsum("ij,ij->i", f, f) - r * r
            disc = qb * qb - dd * qc
            ok = disc >= 0
            root = np.full(m, np.inf)
            root[ok] = (-qb[ok] - np.sqrt(disc[ok])) / dd[ok]
            t[:, j] = np.where((root >= 0) & (root <= 1), root, np.inf)
    return t, inside


def check_against_oracle(world, shapes, a, b, got_hit, got_body, got_frac, got_normal, got_point):
    """Shared checks for raycast and raycast_many results (arrays, one row per segment)."""
    t, inside = oracle_rays(shapes, a, b)
    for k in range(len(a)):
        if inside[k].any():
            assert got_hit[k], k
            assert got_frac[k] == 0.0
            assert inside[k, got_body[k]], "the hit shape must contain the start"
            assert_allclose(got_normal[k], [0.0, 0.0])
            continue
        best = t[k].min()
        if not np.isfinite(best):
            assert not got_hit[k], (k, got_frac[k])
            continue
        assert got_hit[k], (k, best)
        assert abs(got_frac[k] - best) <= FRACTION_TOL, (k, got_frac[k], best)
        ties = np.flatnonzero(t[k] <= best + FRACTION_TOL)
        assert got_body[k] in ties, (k, got_body[k], ties)
        assert_allclose(got_point[k], a[k] + got_frac[k] * (b[k] - a[k]), rtol=0, atol=1e-12)
        n = got_normal[k]
        assert abs(math.hypot(*n) - 1.0) < 1e-12
        assert np.dot(n, b[k] - a[k]) <= 1e-12  # the outward normal faces the segment
        sh = shapes[got_body[k]]
        if sh[0] == "circle":
            assert_allclose(n, (got_point[k] - sh[1]) / sh[2], atol=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_raycast_agrees_with_shapely_on_random_worlds(seed):
    world, shapes = random_world(seed)
    a, b = random_segments(seed, 250)
    rows = [world.raycast(a[k], b[k]) for k in range(len(a))]
    hit = np.array([r is not None for r in rows])
    body = np.array([r.body.index if r else -1 for r in rows])
    frac = np.array([r.fraction if r else np.nan for r in rows])
    normal = np.array([r.normal if r else (np.nan, np.nan) for r in rows])
    point = np.array([r.point if r else (np.nan, np.nan) for r in rows])
    assert 30 < hit.sum() < 240  # the sample exercises hits and misses
    check_against_oracle(world, shapes, a, b, hit, body, frac, normal, point)
    for r in rows:
        if r is not None:
            assert isinstance(r, RayHit)
            assert r.shape.body is r.body and r.shape in r.body.shapes


@pytest.mark.parametrize("seed", [4, 5])
def test_raycast_many_equals_raycast_row_by_row(seed):
    world, shapes = random_world(seed)
    a, b = random_segments(seed, 300)
    many = world.raycast_many(a, b)
    assert many.hit.dtype == np.bool_ and many.body.dtype == np.int64
    assert many.shape.dtype == np.int64 and many.point.shape == (300, 2)
    for k in range(len(a)):
        one = world.raycast(a[k], b[k])
        if one is None:
            assert not many.hit[k] and many.body[k] == -1 and many.shape[k] == -1
            assert np.isnan(many.fraction[k]) and np.isnan(many.point[k]).all()
            assert np.isnan(many.normal[k]).all()
            continue
        assert many.hit[k]
        assert many.body[k] == one.body.index and many.shape[k] == one.shape.id
        assert many.fraction[k] == one.fraction
        assert np.array_equal(many.point[k], one.point)
        assert np.array_equal(many.normal[k], one.normal)
    check_against_oracle(
        world, shapes, a, b, many.hit, many.body, many.fraction, many.normal, many.point
    )


def test_raycast_many_through_a_deep_tree_matches_the_oracle():
    """600 shapes: a multi-level tree (the root holds 64 slots), long and short segments."""
    world, shapes = random_world(11, n_shapes=600, extent=200.0)
    a, b = random_segments(11, 400, extent=210.0, reach=120.0)
    many = world.raycast_many(a, b)
    assert max(t.n_nodes for t in world._queries._cast_trees.values()) > 1
    check_against_oracle(
        world, shapes, a, b, many.hit, many.body, many.fraction, many.normal, many.point
    )


def test_filtered_raycast_walks_a_tree_of_what_the_filter_accepts():
    """A mask filter's casts equal the oracle over the shapes it accepts, and its tree,
    over those shapes only, is not rebuilt when a body it does not accept moves."""
    world, shapes = random_world(12, n_shapes=40)
    wanted = np.zeros(len(shapes), dtype=bool)
    for j, body in enumerate(world.bodies):
        wanted[j] = j % 3 != 0
        for shape in body.shapes:
            shape.category = 2 if wanted[j] else 4
    # (a star is one shape of a few convex rows: the tree holds rows)
    n_wanted = int((world._shapes.category[:world._shapes.count] == 2).sum())
    mover = world.add_body(position=(0.0, 0.0), velocity=(3.0, 0.0))
    mover.add_circle(0.5, category=4)
    world.gravity = (0.0, 0.0)
    flt = c2d.QueryFilter(mask=2)
    a, b = random_segments(12, 300)
    got = world.raycast_many(a, b, flt)
    t, inside = oracle_rays(shapes, a, b)
    t[:, ~wanted] = np.inf
    inside[:, ~wanted] = False
    for k in range(len(a)):
        if inside[k].any():
            assert got.hit[k] and got.fraction[k] == 0.0 and inside[k, got.body[k]]
        elif np.isfinite(t[k].min()):
            assert got.hit[k] and wanted[got.body[k]]
            assert got.fraction[k] == pytest.approx(t[k].min(), abs=1e-9)
        else:
            assert not got.hit[k]
    key = (c2d.QueryFilter().category, 2, False)
    tree = world._queries._cast_trees[key]
    assert tree.k == n_wanted
    for _ in range(5):
        world.step(1 / 60)
    assert mover.position[0] > 0.2
    assert not tree.update_accepted(world._shapes, *key)  # nothing it holds moved
    # Once the filter accepts the mover, the tree takes it in.
    mover.shapes[0].category = 2
    world.raycast_many(a, b, flt)
    assert world._queries._cast_trees[key].k == n_wanted + 1


def test_raycast_all_lists_every_shape_once_nearest_first():
    world, shapes = random_world(6)
    a, b = random_segments(6, 120)
    t, inside = oracle_rays(shapes, a, b)
    expect_t = np.where(inside, 0.0, t)
    for k in range(len(a)):
        hits = world.raycast_all(a[k], b[k])
        got = [h.body.index for h in hits]
        assert sorted(got) == sorted(np.flatnonzero(np.isfinite(expect_t[k])).tolist())
        fr = [h.fraction for h in hits]
        assert fr == sorted(fr)
        for h in hits:
            assert abs(h.fraction - expect_t[k, h.body.index]) <= FRACTION_TOL
        first = world.raycast(a[k], b[k])
        if hits:
            assert first.fraction == hits[0].fraction
        else:
            assert first is None


# ---------------------------------------------------------------------------- hand cases


@nojit
def test_raycast_hand_cases():
    world = c2d.World()
    wall = world.add_body(kind="static", position=(5, 0))
    box = wall.add_box(1, 4)  # faces at x = 4.5 and 5.5, y in [-2, 2]
    ball = world.add_body(kind="static", position=(0, 10)).add_circle(1.0)
    hit = world.raycast((0, 0), (10, 0))
    assert hit.shape is box and hit.body is wall
    assert hit.fraction == pytest.approx(0.45, abs=1e-15)
    assert_allclose(hit.point, [4.5, 0.0], atol=1e-14)
    assert hit.normal.tolist() == [-1.0, 0.0]
    # From the far side the normal flips.
    back = world.raycast((10, 1), (0, 1))
    assert back.normal.tolist() == [1.0, 0.0] and back.fraction == pytest.approx(0.45)
    # Circle: hits at y = 9 from below.
    up = world.raycast((0, 0), (0, 20))
    assert up.shape is ball and up.fraction == pytest.approx(0.45)
    assert_allclose(up.normal, [0.0, -1.0], atol=1e-15)
    # Misses: too short, passing beside, and above the wall.
    assert world.raycast((0, 0), (4.4, 0)) is None
    assert world.raycast((0, 3), (10, 3)) is None
    # Ending exactly on the face still hits (closed segment).
    assert world.raycast((0, 0), (4.5, 0)).fraction == 1.0


@nojit
def test_segment_starting_inside_hits_at_zero_with_zero_normal():
    world = c2d.World()
    box = world.add_body(kind="static").add_box(2, 2)
    for a, b in [((0, 0), (5, 0)), ((0.5, 0.5), (0.2, 0.1)), ((1, 0), (3, 0)), ((0, 0), (0, 0))]:
        hit = world.raycast(a, b)
        assert hit is not None and hit.shape is box
        assert hit.fraction == 0.0 and hit.normal.tolist() == [0.0, 0.0]
        assert hit.point.tolist() == [float(a[0]), float(a[1])]
    assert world.raycast((3, 0), (3, 0)) is None  # a point outside


@nojit
def test_concave_shapes_are_queried_by_their_outline():
    world = c2d.World()
    u = world.add_body(kind="static").add_polygon(
        [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]
    )  # a U, notch x 1..2
    # Down through the notch: first outline crossing is the notch floor at y = 1.
    hit = world.raycast((1.5, 5), (1.5, -1))
    assert hit.shape is u and hit.fraction == pytest.approx(4 / 6)
    assert hit.normal.tolist() == [0.0, 1.0]
    # Across both arms: one shape, reported once, at its first crossing.
    hits = world.raycast_all((-1, 2), (4, 2))
    assert len(hits) == 1 and hits[0].fraction == pytest.approx(0.2)
    # Containment: the notch is outside, the arms and the base are inside.
    assert world.query_point((1.5, 2)) == []
    assert world.query_point((0.5, 2)) == [u] and world.query_point((1.5, 0.5)) == [u]
    assert world.query_point((2, 2)) == [u]  # on the notch's edge: closed
    assert world.query_points([(1.5, 2), (2.5, 2.5)]).hit.tolist() == [False, True]
    # Starting inside the base: fraction 0.
    assert world.raycast((1.5, 0.5), (1.5, 5)).fraction == 0.0


@nojit
def test_raycast_segments_and_capsules():
    world = c2d.World()
    seg = world.add_body(kind="static").add_segment((0, 0), (4, 0))
    cap = world.add_body(kind="static", position=(0, 5)).add_segment((0, 0), (4, 0), radius=0.5)
    down = world.raycast((2, 2), (2, -2))
    assert down.shape is seg and down.fraction == pytest.approx(0.5)
    assert down.normal.tolist() == [0.0, 1.0]  # a bare segment faces the ray
    upward = world.raycast((2, -2), (2, 2))
    assert upward.normal.tolist() == [0.0, -1.0]
    end_cap = world.raycast((-2, 5), (2, 5))
    assert end_cap.shape is cap and end_cap.fraction == pytest.approx(1.5 / 4)
    assert_allclose(end_cap.normal, [-1.0, 0.0], atol=1e-12)


def test_raycast_many_accepts_flat_input_and_empty_batches():
    world = c2d.World()
    world.add_body(kind="static").add_box(2, 2)
    out = world.raycast_many([-5, 0, 0, 5], [5, 0, 0, 3])
    assert out.hit.tolist() == [True, False]
    empty = world.raycast_many(np.empty((0, 2)), np.empty((0, 2)))
    assert empty.hit.shape == (0,) and empty.point.shape == (0, 2)


@nojit
def test_empty_world_answers_nothing():
    world = c2d.World()
    assert world.raycast((0, 0), (1, 1)) is None
    assert world.raycast_all((0, 0), (1, 1)) == []
    many = world.raycast_many([(0, 0)], [(1, 1)])
    assert many.hit.tolist() == [False] and many.body.tolist() == [-1]
    assert world.query_point((0, 0)) == []
    assert world.query_points([(0, 0)]).shape.tolist() == [-1]
    assert world.query_aabb((-1, -1), (1, 1)) == []
    assert world.query_shape(c2d.Circle((0, 0), 1)) == []
    assert world.shape_cast(c2d.Circle((0, 0), 1), (0, 0), (5, 0)) is None
    world.add_body()  # a body without shapes changes nothing
    assert world.raycast((0, 0), (1, 1)) is None


@nojit
def test_ties_go_to_the_lower_shape_id():
    world = c2d.World()
    # Rows are reused lowest first: after freeing rows 0 and 2, an L of two parts takes
    # rows 0 and 2 (id 0), so one of its parts sits in a higher row than the box (id 1)
    # that shares its left face x = 0. Ties must follow ids, not rows.
    first = world.add_body(kind="static", position=(50, 50))
    first.add_circle(1)
    box = world.add_body(kind="static").add_box(1, 2, offset=(0.5, 1))
    last = world.add_body(kind="static", position=(-50, 50))
    last.add_circle(1)
    world.remove(first)
    world.remove(last)
    ell = world.add_body(kind="static").add_polygon([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2),
                                                     (0, 2)])
    assert ell.id < box.id < max(ell._rows)
    for y in (0.5, 1.5):
        assert world.raycast((-1, y), (3, y)).shape is ell
        assert world.raycast_many([(-1, y)], [(3, y)]).shape.tolist() == [ell.id]
        assert world.query_points([(0.5, y)]).shape.tolist() == [ell.id]
    probe = c2d.Circle((0, 0), 0.25)
    assert world.shape_cast(probe, (-2, 1.5), (3, 1.5)).shape is ell
    assert [h.shape for h in world.raycast_all((-1, 1.5), (3, 1.5))] == [ell, box]


# ---------------------------------------------------------------------------- points, boxes


def test_query_points_equals_query_point():
    world, shapes = random_world(7)
    rng = np.random.default_rng(70)
    pts = rng.uniform(-25, 25, (400, 2))
    # Vertices and edge midpoints: on the boundary, which counts as inside.
    for sh in shapes[:5]:
        if sh[0] == "poly":
            v = sh[1]
            pts = np.vstack([pts, v, 0.5 * (v + np.roll(v, -1, axis=0))])
    batch = world.query_points(pts)
    n_hit = 0
    for k, p in enumerate(pts):
        found = world.query_point(p)
        assert batch.hit[k] == bool(found)
        if found:
            n_hit += 1
            assert found == sorted(found, key=lambda s: s.id)
            assert batch.shape[k] == found[0].id
            assert batch.body[k] == found[0].body.id
        else:
            assert batch.shape[k] == -1 and batch.body[k] == -1
    assert n_hit > 40
    # Against shapely: a point is found exactly when some shape covers it (boundary
    # points may round either way, so only the sampled interior points are compared).
    _, inside = oracle_rays(shapes, pts[:400], pts[:400] + 1.0)
    assert np.array_equal(batch.hit[:400], inside.any(axis=1))


@nojit
def test_query_aabb_uses_bounding_boxes_closed():
    world = c2d.World()
    box = world.add_body(kind="static", position=(3, 0)).add_box(2, 2)  # box [2, 4] x [-1, 1]
    diamond = world.add_body(kind="static", position=(0, 5), angle=math.pi / 4).add_box(2, 2)
    assert world.query_aabb((0, 0), (2, 1)) == [box]  # touching counts
    assert world.query_aabb((0, 0), (1.9, 1)) == []
    # The diamond's box reaches sqrt(2) from its centre, further than the diamond near a
    # corner of that box: the box query finds it, the exact shape query does not.
    corner = (math.sqrt(2) - 0.1, 5 + math.sqrt(2) - 0.1)
    assert world.query_aabb(corner, (corner[0] + 1, corner[1] + 1)) == [diamond]
    assert world.query_shape([(0, 0), (1, 0), (1, 1), (0, 1)], position=corner) == []
    assert set(world.query_aabb((-10, -10), (10, 10))) == {box, diamond}
    with pytest.raises(ValueError, match="upper"):
        world.query_aabb((1, 1), (0, 2))


def _part_boxes(shape) -> list[tuple]:
    """The world boxes of a shape's parts, from its parts' world vertices (and its radius:
    a circle's part is its centre)."""
    r = shape.radius
    out = []
    for part in shape.world_parts():
        lo, hi = part.min(axis=0) - r, part.max(axis=0) + r
        out.append((lo[0], lo[1], hi[0], hi[1]))
    return out


def test_query_aabb_against_brute_force_with_parts_and_filters():
    # Concave shapes (several convex parts, one shape), circles, capsules and boxes on
    # static and dynamic bodies, some sensors, two categories; random boxes and filters.
    # Expected: every shape one of whose parts' boxes meets the query box and that the
    # filter accepts, once, in shape id order.
    rng = np.random.default_rng(7)
    world = c2d.World()
    arrow = [(0, 0), (2, 0), (2, -1), (4, 1), (2, 3), (2, 2), (0, 2)]
    shapes = []
    for k in range(40):
        body = world.add_body(kind="static" if k % 3 else "dynamic",
                              position=tuple(rng.uniform(-20, 20, 2)),
                              angle=float(rng.uniform(0, 2 * math.pi)))
        material = {"sensor": bool(k % 7 == 0), "category": 0b01 if k % 2 else 0b10}
        choice = k % 4
        if choice == 0:
            shapes.append(body.add_polygon(arrow, **material))
        elif choice == 1:
            shapes.append(body.add_circle(float(rng.uniform(0.2, 1.5)),
                                          offset=tuple(rng.uniform(-1, 1, 2)), **material))
        elif choice == 2:
            shapes.append(body.add_segment((-1, 0), (1, 0.5), radius=0.2, **material))
        else:
            shapes.append(body.add_box(*rng.uniform(0.5, 3, 2), **material))
    assert sum(len(s.parts) > 1 for s in shapes) == 10
    bodies = [s.body for s in shapes]
    filters = [None, QueryFilter(sensors=True), QueryFilter(mask=0b01),
               QueryFilter(category=0b10, mask=0b11, sensors=True),
               QueryFilter(exclude=bodies[:12:3]), QueryFilter(exclude=bodies[::2], sensors=True)]
    found = {"shapes": 0, "sensors": 0, "parts": 0}
    for _ in range(60):
        a, b = rng.uniform(-25, 25, 2), rng.uniform(-25, 25, 2)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        boxes = {s: _part_boxes(s) for s in shapes}
        edges = np.array([v for bs in boxes.values() for box in bs for v in box])
        # (Ties within rounding of the query's edges would test float noise, not logic.)
        if np.abs(edges[:, None] - np.array([lo[0], lo[1], hi[0], hi[1]])).min() < 1e-9:
            continue
        for f in filters:
            q = f or QueryFilter()
            excluded = {id(body) for body in q.exclude}
            want = [s for s in shapes
                    if any(x0 <= hi[0] and x1 >= lo[0] and y0 <= hi[1] and y1 >= lo[1]
                           for x0, y0, x1, y1 in boxes[s])
                    and (s.category & q.mask) and (q.category & s.mask)
                    and (q.sensors or not s.sensor) and id(s.body) not in excluded]
            want.sort(key=lambda s: s.id)
            assert world.query_aabb(lo, hi, f) == want
            found["shapes"] += len(want)
            found["sensors"] += sum(s.sensor for s in want)
            found["parts"] += sum(len(s.parts) > 1 for s in want)
    # The boxes found shapes, sensors among them, and concave shapes of several parts.
    assert min(found.values()) > 10, found


# ---------------------------------------------------------------------------- shapes


@nojit
def test_query_shape_reports_penetration():
    world = c2d.World()
    ground = world.add_body(kind="static").add_box(4, 2)  # top face at y = 1
    ball = world.add_body(kind="static", position=(10, 0)).add_circle(1.0)
    [ov] = world.query_shape(c2d.Circle((0, 0), 0.5), position=(0, 1.25))
    assert ov.shape is ground and ov.depth == pytest.approx(0.25)
    # From the query shape (above) to the ground (below), as penetration(query, ground).
    assert_allclose(ov.normal, [0.0, -1.0], atol=1e-12)
    pen = c2d.penetration(c2d.Circle((0, 1.25), 0.5), [(-2, -1), (2, -1), (2, 1), (-2, 1)])
    assert_allclose(ov.normal, pen.normal, atol=1e-12)
    assert ov.depth == pytest.approx(pen.depth)
    # Touching: reported with depth 0.
    [touch] = world.query_shape(c2d.Circle((0, 0), 0.5), position=(0, 1.5))
    assert touch.depth == pytest.approx(0.0, abs=1e-12)
    assert world.query_shape(c2d.Circle((0, 0), 0.5), position=(0, 1.6)) == []
    # A thin bar from x = -1 to 11 through the ground and the ball's centre.
    got = world.query_shape(
        [(-6, -0.1), (6, -0.1), (6, 0.1), (-6, 0.1)], position=(5, 0), angle=0.0
    )
    assert [o.shape for o in got] == sorted([ground, ball], key=lambda s: s.id)
    by_shape = {o.shape: o for o in got}
    # Against the ball the box (x up to 11) is 2 m deep along x, 1.1 m along y: y wins.
    assert by_shape[ball].depth == pytest.approx(1.1)
    # A world shape queries from its body's pose and skips its own body.
    probe = world.add_body(kind="static", position=(0, 1.25)).add_circle(0.5)
    [ov2] = world.query_shape(probe)
    assert ov2.shape is ground and ov2.depth == pytest.approx(0.25)
    assert world.query_shape(probe, position=(0, 5)) == []


@nojit
def test_query_shape_with_a_concave_polygon():
    world = c2d.World()
    inner = world.add_body(kind="static", position=(1.5, 2.5)).add_circle(0.3)  # in the notch
    arm = world.add_body(kind="static", position=(0.5, 2.5)).add_circle(0.3)  # on an arm
    u = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]
    got = world.query_shape(u)
    assert [o.shape for o in got] == [arm]
    # The union's depth is 0.8 (0.5 to the arm's sides, plus the radius); a convex part
    # holding the circle's centre is inside the union, so its depth is at most that.
    assert 0.5 < got[0].depth <= 0.8 + 1e-12
    assert inner not in [o.shape for o in world.query_shape(u, position=(0, 0))]


@nojit
def test_a_query_outline_changed_in_place_is_checked_again():
    # Outlines are kept by their coordinates: a list edited between calls is a new outline.
    world = c2d.World()
    left = world.add_body(kind="static", position=(-2, 0)).add_circle(0.5)
    right = world.add_body(kind="static", position=(2, 0)).add_circle(0.5)
    square = [[-2.5, -0.5], [-1.5, -0.5], [-1.5, 0.5], [-2.5, 0.5]]
    assert [o.shape for o in world.query_shape(square)] == [left]
    for corner in square:
        corner[0] += 4.0
    assert [o.shape for o in world.query_shape(square)] == [right]
    square[1], square[2] = square[2], square[1]  # now a bowtie: refused, every time
    for _ in range(2):
        with pytest.raises(ValueError, match="shape_or_polygon"):
            world.query_shape(square)


@nojit
@pytest.mark.parametrize("n", [0, 1, 7, 40, 200])
def test_first_part_per_owner_is_numpys_sort_and_unique(n):
    # A query's rows reduced to each owner's nearest (or deepest) part: the row NumPy's
    # lexsort by (owner, key) and unique's first index pick, ties and NaN keys included.
    from collide2d.queries import _first_per_owner

    rng = np.random.default_rng(n)
    for _ in range(20):
        owners = rng.integers(0, max(n // 3, 1), n)
        keys = rng.choice([0.0, -0.0, 0.25, 0.5, 1.0, -1.0, np.nan], n)
        order = np.lexsort((keys, owners))
        _, first = np.unique(owners[order], return_index=True)
        assert _first_per_owner(owners, keys) == order[first].tolist()


@nojit
def test_shape_cast_hand_cases():
    world = c2d.World()
    wall = world.add_body(kind="static", position=(10, 0))
    wall.add_box(2, 10)  # left face at x = 9
    hit = world.shape_cast(c2d.Circle((0, 0), 1), (0, 0), (20, 0))
    assert hit.body is wall and hit.time == pytest.approx(0.4, abs=1e-9)
    # From the moving circle to the wall on its right, as sweep's Impact.
    assert_allclose(hit.normal, [1.0, 0.0], atol=1e-12)
    imp = c2d.sweep(c2d.Circle((0, 0), 1), (20, 0), [(9, -5), (11, -5), (11, 5), (9, 5)])
    assert_allclose(hit.normal, imp.normal, atol=1e-12)
    assert_allclose(hit.point, [9.0, 0.0], atol=1e-6)
    assert hit.depth == 0.0
    # A unit box moving diagonally: its right face meets x = 9 after 8.5 m along x.
    box = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    diag = world.shape_cast(box, (0, 0), (10, 1))
    assert diag.time == pytest.approx(0.85, abs=1e-12)
    assert_allclose(diag.normal, [1.0, 0.0], atol=1e-12)
    # Short of the wall, or moving away: no hit.
    assert world.shape_cast(box, (0, 0), (8, 0)) is None
    assert world.shape_cast(box, (0, 0), (-20, 0)) is None
    # Overlapping at the start: time 0 with the penetration depth.
    start = world.shape_cast(box, (9.2, 0), (0, 0))
    assert start.time == 0.0 and start.depth == pytest.approx(0.7)
    # The box (8.7 to 9.7) leaves the wall (from 9) 0.7 m to the left: -depth * normal.
    assert_allclose(start.normal, [1.0, 0.0], atol=1e-12)
    # Turned by 45 degrees the box reaches sqrt(2)/2 ahead of its centre.
    turned = world.shape_cast(box, (0, 0), (10, 0), angle=math.pi / 4)
    assert turned.time * 10 == pytest.approx(9 - math.sqrt(0.5), abs=1e-9)
    # The cast is the nearest over every shape: a nearer post wins.
    post = world.add_body(kind="static", position=(5, 0)).add_circle(0.5)
    assert world.shape_cast(c2d.Circle((0, 0), 1), (0, 0), (20, 0)).shape is post


def test_shape_cast_agrees_with_sweeping_each_shape():
    """The nearest time over the world equals the smallest one-pair sweep (public geometry
    API, an independent path through the same swept SAT) over every shape."""
    world, shapes = random_world(8)
    rng = np.random.default_rng(80)
    probe = np.array([(-0.6, -0.4), (0.7, -0.3), (0.2, 0.6)])
    for _ in range(40):
        p0 = rng.uniform(-25, 25, 2)
        p1 = p0 + rng.uniform(-20, 20, 2)
        got = world.shape_cast(probe, p0, p1)
        times = []
        for sh in shapes:
            other = c2d.Circle(sh[1], sh[2]) if sh[0] == "circle" else sh[1]
            parts = [other] if sh[0] == "circle" else c2d.decompose(other)
            best = math.inf
            for part in parts:
                imp = c2d.sweep(probe + p0, p1 - p0, part)
                if imp is not None:
                    best = min(best, imp.time)
            times.append(best)
        t_min = min(times)
        if not np.isfinite(t_min):
            assert got is None
            continue
        assert got is not None and got.time == pytest.approx(t_min, abs=1e-9)
        assert times[got.body.index] == pytest.approx(t_min, abs=1e-9)


# ---------------------------------------------------------------------------- filters


@nojit
def test_filters_category_mask_exclude_and_sensors():
    world = c2d.World()
    ship = world.add_body(kind="static", position=(2, 0))
    hull = ship.add_box(1, 1, category=0b01)
    rock = world.add_body(kind="static", position=(4, 0)).add_box(1, 1, category=0b10, mask=0b01)
    fog = world.add_body(kind="static", position=(1, 0)).add_circle(0.3, sensor=True)
    a, b = (0, 0), (10, 0)
    assert world.raycast(a, b).shape is hull  # sensors are skipped by default
    assert world.raycast(a, b, QueryFilter(sensors=True)).shape is fog
    assert world.raycast(a, b, QueryFilter(exclude=ship)).shape is rock
    assert world.raycast(a, b, QueryFilter(mask=0b10)).shape is rock
    # The rock only sees category 0b01: a query of category 0b10 misses it.
    assert world.raycast(a, b, QueryFilter(category=0b10, mask=0b10)) is None
    assert world.raycast(a, b, QueryFilter(exclude=[ship, rock.body])) is None
    # The same filter works for every query.
    f = QueryFilter(exclude=ship)
    assert world.raycast_many([a], [b], f).shape.tolist() == [rock.id]
    assert [h.shape for h in world.raycast_all(a, b, f)] == [rock]
    assert world.query_point((2, 0), f) == [] and world.query_point((2, 0)) == [hull]
    assert world.query_points([(2, 0)], f).hit.tolist() == [False]
    assert world.query_aabb((0, -1), (10, 1), f) == [rock]
    seen = world.query_aabb((0, -1), (10, 1), QueryFilter(sensors=True, mask=0b01))
    assert seen == sorted([hull, fog], key=lambda s: s.id)
    assert [o.shape for o in world.query_shape(c2d.Circle((0, 0), 0.6), (2, 0), None, f)] == []
    assert world.shape_cast(c2d.Circle((0, 0), 0.1), a, b, filter=f).shape is rock
    # Changing a shape's filter bits takes effect at once.
    rock.category = 0b01
    assert world.raycast(a, b, QueryFilter(mask=0b10)) is None


@nojit
def test_query_errors_name_the_argument():
    world = c2d.World()
    world.add_body(kind="static").add_box(1, 1)
    with pytest.raises(ValueError, match="ends"):
        world.raycast_many([(0, 0), (1, 1)], [(1, 1)])
    with pytest.raises(ValueError, match="starts"):
        world.raycast_many([(0, 0, 0)], [(1, 1)])
    with pytest.raises(ValueError, match="a:"):
        world.raycast((0, math.nan), (1, 1))
    with pytest.raises(TypeError, match="filter"):
        world.raycast((0, 0), (1, 1), filter="sensors")
    with pytest.raises(TypeError, match="exclude"):
        QueryFilter(exclude=[1])
    with pytest.raises(ValueError, match="mask"):
        QueryFilter(mask=1 << 33)
    with pytest.raises(ValueError, match="points"):
        world.query_points([(0, 0, 0)])
    with pytest.raises(ValueError, match="shape_or_polygon"):
        world.query_shape([(0, 0), (1, 1)])
    with pytest.raises(TypeError, match="shape_or_polygon"):
        world.query_shape("box")
    other = c2d.World()
    stranger = other.add_body(kind="static")
    with pytest.raises(ValueError, match="another world"):
        world.raycast((0, 0), (1, 1), QueryFilter(exclude=stranger))


# ---------------------------------------------------------------------------- a changing world


@nojit
def test_queries_follow_moves_removals_and_additions():
    world = c2d.World()
    body = world.add_body(kind="static", position=(5, 0))
    box = body.add_box(1, 1)
    assert world.raycast((0, 0), (10, 0)).fraction == pytest.approx(0.45)
    body.position = (7, 0)
    assert world.raycast((0, 0), (10, 0)).fraction == pytest.approx(0.65)
    # Another reader may refresh the shapes first (clearing the world's dirty flag).
    body.position = (3, 0)
    _ = box.aabb
    assert world.raycast((0, 0), (10, 0)).fraction == pytest.approx(0.25)
    extra = world.add_body(kind="static", position=(1, 0)).add_circle(0.25)
    assert world.raycast((0, 0), (10, 0)).shape is extra
    world.remove(extra)
    assert world.raycast((0, 0), (10, 0)).shape is box
    world.remove(body)
    assert world.raycast((0, 0), (10, 0)) is None


def test_queries_see_bodies_where_the_step_left_them():
    world = c2d.World(gravity=(0, 0))
    mover = world.add_body(kind="kinematic", position=(0, 0), velocity=(60, 0))
    mover.add_box(1, 1)
    world.step(1 / 60)  # one metre to the right
    hit = world.raycast((5, 0), (0, 0))
    assert hit.body is mover and hit.point[0] == pytest.approx(1.5, abs=1e-12)
    assert world.query_points([(1.0, 0.0), (0.0, 0.0)]).hit.tolist() == [True, False]
