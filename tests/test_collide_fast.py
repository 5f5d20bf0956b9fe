"""The contact kernel's polygon fast path, ``sat.collide_polygons``, against its general path
``sat.collide`` and against brute force.

The fast path must give the general path's results bit for bit (count, normal, points,
separations, feature ids) whenever it answers, and answer -1 ("use the general path") only
for closest-feature contacts, rounded shapes with separated cores and polygons without a
usable edge. Cases: random convex polygons of 3 to 8 vertices (overlapping, nested, within
the speculative margin, apart), boxes with parallel faces (stacked, side by side, exactly
touching), slivers, duplicate vertices, rounded polygons, and pairs tuned to the last float
either side of the reference-face tie (``FLIP_TOL``).

Independent checks: face normals from the edge geometry; every contact point midway between
the two boundaries (shapely); the deepest point's separation against a brute-force SAT
depth; feature ids that survive a change of reference face; and ``collide_pairs`` over a
stepped world, row by row, against the general path on the same pairs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from kernel_calls import compiled
from shapely.geometry import LinearRing, Point

import collide2d as c2d
from collide2d._kernels import broadphase, narrowphase, sat
from collide2d._kernels.constants import B_AWAKE
from collide2d._kernels.views import NarrowRoom, PairShapes
from collide2d._store import ContactStore
from collide2d.world import SPECULATIVE_DISTANCE

shape_axis = compiled(sat.shape_axis)
vertex_normals = compiled(sat.vertex_normals)
max_separation = compiled(sat.max_separation)
find_pairs = compiled(broadphase.find_pairs)
collide_polygons = compiled(sat.collide_polygons)
collide_pairs = compiled(narrowphase.collide_pairs)

nojit = pytest.mark.nojit

MARGIN = SPECULATIVE_DISTANCE  # the world's margin (0.02 m)


def rot(theta):
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, s], [-s, c]])  # row vectors: p @ rot(t) turns p by t


def box(cx, cy, hw, hh, theta=0.0):
    loc = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    return loc @ rot(theta) + [cx, cy]


def ellipse_polygon(rng, n, a, b, centre, theta):
    """Convex CCW polygon: n points in angular order on an ellipse (b << a gives slivers)."""
    ang = np.sort(rng.uniform(0.0, 2.0 * math.pi, n))
    pts = np.column_stack((a * np.cos(ang), b * np.sin(ang)))
    return pts @ rot(theta) + centre


def regular(n, r, centre, theta):
    ang = np.arange(n) * 2.0 * math.pi / n
    return np.column_stack((r * np.cos(ang), r * np.sin(ang))) @ rot(theta) + centre


def axis_normals(verts, off, n):
    """Face normals of a polygon as the general path's ``shape_axis`` gives them."""
    return np.array([shape_axis(verts, off, n, k)[:2] for k in range(n)])


def both_paths(pa, pb, ra=0.0, rb=0.0, margin=MARGIN):
    """(fast, general) results for A = pa, B = pb, each (count, normal, pts, seps, ids).

    The shapes sit at different offsets of one vertex array and their normals at other
    offsets of a normals array, so that the offset bookkeeping is exercised too.
    """
    na, nb = len(pa), len(pb)
    verts = np.full((3 + na + 4 + nb, 2), np.nan)
    offa, offb = 3, 3 + na + 4
    verts[offa:offa + na] = pa
    verts[offb:offb + nb] = pb
    nrm = np.full((1 + nb + 2 + na, 2), np.nan)
    noffb, noffa = 1, 1 + nb + 2
    nrm[noffa:noffa + na] = axis_normals(verts, offa, na)
    nrm[noffb:noffb + nb] = axis_normals(verts, offb, nb)
    out = []
    for fast in (True, False):
        pts = np.full((2, 2), np.nan)
        seps = np.full(2, np.nan)
        ids = np.full(2, -7, dtype=np.int64)
        if fast:
            c, nx, ny = collide_polygons(verts, nrm, offa, na, ra, noffa, offb, nb, rb,
                                             noffb, margin, pts, seps, ids)
        else:
            c, nx, ny = sat.collide(verts, offa, na, ra, verts, offb, nb, rb, margin, pts,
                                    seps, ids)
        k = max(c, 0)
        out.append((c, (nx, ny), pts[:k].copy(), seps[:k].copy(), ids[:k].copy()))
    return out[0], out[1]


def assert_same(fast, general):
    c, n, pts, seps, ids = fast
    cg, ng, ptsg, sepsg, idsg = general
    assert c == cg
    assert n == ng
    assert np.array_equal(pts, ptsg)
    assert np.array_equal(seps, sepsg)
    assert np.array_equal(ids, idsg)


def check_pair(pa, pb, ra=0.0, rb=0.0, margin=MARGIN):
    """Fast against general, both ways round; returns the fast counts (A-B, B-A)."""
    counts = []
    for s1, s2, r1, r2 in ((pa, pb, ra, rb), (pb, pa, rb, ra)):
        fast, general = both_paths(s1, s2, r1, r2, margin)
        if fast[0] >= 0:
            assert_same(fast, general)
        else:
            # deferred only for what the fast path leaves to the general one: rounded shapes
            # whose cores are apart, or a closest-feature contact (one point, id 0, or none)
            cores_apart = max(brute_face_separations(s1, s2),
                              brute_face_separations(s2, s1)) > 0.0
            closest = general[0] == 0 or (general[0] == 1 and general[4][0] == 0)
            assert (r1 + r2 > 0.0 and cores_apart) or closest
        counts.append(fast[0])
    return counts


def brute_face_separations(pa, pb):
    """Largest over A's faces of the smallest B-vertex distance beyond the face."""
    best = -math.inf
    for k in range(len(pa)):
        e = pa[(k + 1) % len(pa)] - pa[k]
        length = math.hypot(e[0], e[1])
        if length == 0.0:
            continue
        n = np.array([e[1], -e[0]]) / length
        best = max(best, float(np.min((pb - pa[k]) @ n)))
    return best


def boundary_distance(poly, p):
    return LinearRing(poly).distance(Point(p))


# ---------------------------------------------------------------- normals


@nojit
def test_vertex_normals_are_outward_unit_edge_normals():
    rng = np.random.default_rng(1)
    for _ in range(50):
        n = int(rng.integers(3, 9))
        poly = ellipse_polygon(rng, n, rng.uniform(0.2, 3), rng.uniform(1e-3, 3),
                               rng.uniform(-5, 5, 2), rng.uniform(0, 2 * math.pi))
        nrm = np.empty((n, 2))
        vertex_normals(poly, np.array([0]), np.array([n]), 1, nrm)
        for k in range(n):
            e = poly[(k + 1) % n] - poly[k]
            assert math.hypot(*nrm[k]) == pytest.approx(1.0, abs=1e-15)
            assert abs(nrm[k] @ e) <= 1e-14 * math.hypot(*e)
            # outward: every vertex on the inner side of face k's line
            assert np.all((poly - poly[k]) @ nrm[k] <= 1e-12)
            # the same bits as the general path's axis
            mx, my, _, _, face = shape_axis(poly, 0, n, k)
            assert (mx, my) == (nrm[k, 0], nrm[k, 1]) and face


@nojit
def test_vertex_normals_of_a_zero_length_edge_are_zero():
    poly = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    nrm = np.empty((4, 2))
    vertex_normals(poly, np.array([0]), np.array([4]), 1, nrm)
    assert nrm[1].tolist() == [0.0, 0.0]
    assert nrm[0].tolist() == [0.0, -1.0]


def _pool(shapes):
    """A flat vertex pool with offsets and counts, and room left over (zero rows)."""
    vstart, vcount, rows = [], [], []
    for pts in shapes:
        vstart.append(sum(vcount))
        vcount.append(len(pts))
        rows.extend(np.asarray(pts, dtype=float).reshape(-1, 2))
    verts = np.zeros((len(rows) + 5, 2))
    verts[:len(rows)] = rows
    return verts, np.array(vstart + [0, 0]), np.array(vcount + [0, 0])


def test_vertex_normals_match_the_general_paths_axes_bit_for_bit():
    # the pool mixes polygons with circles and segments (rows with no face normal), a
    # polygon with a repeated vertex (a zero normal), a polygon far from the origin, and
    # unused shape slots (count 0 at row 0) past n_shapes
    rng = np.random.default_rng(5)
    shapes = []
    for i in range(60):
        kind = i % 6
        if kind == 0:
            shapes.append([rng.uniform(-3, 3, 2)])  # circle centre
        elif kind == 1:
            shapes.append(rng.uniform(-3, 3, (2, 2)))  # segment
        elif kind == 2:
            shapes.append(box(*rng.uniform(-1e4, 1e4, 2), 0.5, 0.25, rng.uniform(0, 7)))
        elif kind == 3:
            shapes.append([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
        else:
            n = int(rng.integers(3, 9))
            shapes.append(ellipse_polygon(rng, n, rng.uniform(0.2, 3), rng.uniform(1e-4, 3),
                                          rng.uniform(-5, 5, 2), rng.uniform(0, 2 * math.pi)))
    verts, vstart, vcount = _pool(shapes)
    out = np.full(verts.shape, np.nan)
    vertex_normals(verts, vstart, vcount, len(shapes), out)
    polygons = 0
    for s, pts in enumerate(shapes):
        n = len(pts)
        if n < 3:
            continue
        expected = axis_normals(verts, vstart[s], n)
        got = out[vstart[s]:vstart[s] + n]
        assert got.tobytes() == expected.tobytes()
        # and independently: unit, along the edge turned clockwise (outward for CCW)
        for k in range(n):
            e = verts[vstart[s] + (k + 1) % n] - verts[vstart[s] + k]
            length = math.hypot(*e)
            if length == 0.0:
                assert got[k].tolist() == [0.0, 0.0]
            else:
                assert got[k] == pytest.approx(np.array([e[1], -e[0]]) / length, abs=1e-15)
        polygons += 1
    assert polygons == 40


@nojit
def test_vertex_normals_small_pool():
    # one triangle after a circle; the last row of the pool belongs to the triangle
    verts = np.array([[9.0, 9.0], [0.0, 0.0], [2.0, 0.0], [0.0, 2.0]])
    out = np.full((4, 2), np.nan)
    vertex_normals(verts, np.array([0, 1, 0]), np.array([1, 3, 0]), 2, out)
    assert out[1].tolist() == [0.0, -1.0]
    assert out[2] == pytest.approx([math.sqrt(0.5), math.sqrt(0.5)], abs=2e-16)
    assert out[3].tolist() == [-1.0, 0.0]


# ---------------------------------------------------------------- fast == general


def _bisector(poly, k):
    """Unit outward direction halfway between the normals of the two faces at vertex k."""
    n = len(poly)
    e0 = poly[k] - poly[k - 1]
    e1 = poly[(k + 1) % n] - poly[k]
    m = (np.array([e0[1], -e0[0]]) / np.linalg.norm(e0)
         + np.array([e1[1], -e1[0]]) / np.linalg.norm(e1))
    return m / np.linalg.norm(m)


def random_pairs(rng, count):
    """Random convex pairs in every relation: overlapping, nested, near, apart, slivers."""
    for i in range(count):
        na, nb = (int(x) for x in rng.integers(3, 9, 2))
        kind = i % 7
        a = ellipse_polygon(rng, na, rng.uniform(0.3, 2), rng.uniform(0.3, 2), (0.0, 0.0),
                            rng.uniform(0, 2 * math.pi))
        if kind == 6:  # corner to corner, along A's corner bisector: closest features
            b = ellipse_polygon(rng, nb, rng.uniform(0.3, 2), rng.uniform(0.3, 2), (0.0, 0.0),
                                0.0)
            k = int(rng.integers(na))
            j = int(rng.integers(nb))
            u = _bisector(a, k)
            w = _bisector(b, j)
            turn = math.atan2(-u[1], -u[0]) - math.atan2(w[1], w[0])
            b = b @ rot(turn)
            b = b - b[j] + a[k] + u * rng.uniform(-0.2, 1.0) * MARGIN
        elif kind == 5:  # sliver against a polygon
            b = ellipse_polygon(rng, nb, rng.uniform(0.5, 2), 10.0 ** rng.uniform(-6, -3),
                                rng.uniform(-1.5, 1.5, 2), rng.uniform(0, 2 * math.pi))
        else:
            scale = 0.2 if kind == 1 else rng.uniform(0.3, 2)
            b = ellipse_polygon(rng, nb, scale, scale * rng.uniform(0.3, 1), (0.0, 0.0),
                                rng.uniform(0, 2 * math.pi))
            if kind == 0:  # overlapping
                b = b + rng.uniform(-1.5, 1.5, 2)
            elif kind == 1:  # nested: b inside a's inscribed region near the centre
                b = b + rng.uniform(-0.05, 0.05, 2)
            else:  # b moved along a random direction to a target face separation
                d = rng.normal(size=2)
                d /= np.linalg.norm(d)
                target = {2: -0.01, 3: 0.5 * MARGIN, 4: 3 * MARGIN}[kind]
                b = b + d * 20.0
                lo, hi = 0.0, 20.0
                for _ in range(60):  # bisect the offset for that separation
                    mid = 0.5 * (lo + hi)
                    bb = b - d * mid
                    sep = max(brute_face_separations(a, bb), brute_face_separations(bb, a))
                    lo, hi = (mid, hi) if sep > target else (lo, mid)
                b = b - d * lo
        yield a, b


def test_fast_path_matches_general_path_on_random_pairs():
    rng = np.random.default_rng(20261121)
    seen = {-1: 0, 0: 0, 1: 0, 2: 0}
    for a, b in random_pairs(rng, 3000):
        for c in check_pair(a, b):
            seen[c] += 1
    # every outcome exercised: deferred, separated, one point, two points
    assert min(seen.values()) >= 20, seen


@nojit
def test_fast_path_matches_general_path_on_random_pairs_small():
    rng = np.random.default_rng(7)
    for a, b in random_pairs(rng, 120):
        check_pair(a, b)


@nojit
@pytest.mark.parametrize("gap", [-0.3, -1e-3, -1e-9, 0.0, 1e-9, 0.5 * MARGIN, MARGIN,
                                 2 * MARGIN])
@pytest.mark.parametrize("dx", [0.0, 0.3, 1.0, 1.7, 2.0, 2.0 + 1e-9])
def test_stacked_boxes_with_parallel_faces(gap, dx):
    # equal separations along both boxes' faces (sa == sb): A's face is the reference; at
    # dx = 2 the boxes only share a corner column, beyond it they miss along the face
    a = box(0.0, -0.5, 1.0, 0.5)
    b = box(dx, 0.5 + gap, 1.0, 0.5)
    check_pair(a, b)
    check_pair(a, box(dx, 0.5 + gap, 0.25, 0.5))  # narrower on top
    check_pair(box(gap + 1.0, dx, 0.5, 1.0), box(0.0, 0.0, 0.5, 1.0))  # side by side


@nojit
def test_touching_exactly():
    a = box(0.0, 0.0, 1.0, 1.0)
    for b in (box(2.0, 0.0, 1.0, 1.0), box(2.0, 2.0, 1.0, 1.0), box(0.5, 2.0, 0.5, 1.0),
              regular(4, math.sqrt(2.0), (0.0, 1.0 + math.sqrt(2.0)), math.pi / 4)):
        fast, general = both_paths(a, b)
        check_pair(a, b)
        if fast[0] > 0:
            assert np.all(fast[3] == 0.0)


@nojit
def test_regular_polygons_rotated_by_whole_edges():
    # rain's shapes: every face of one parallel to a face of the other
    for n in range(3, 9):
        for m in range(3, 9):
            a = regular(n, 1.0, (0.0, 0.0), 0.0)
            for k in range(m):
                b = regular(m, 0.6, (0.0, 1.4), math.pi + 2.0 * math.pi * k / m)
                check_pair(a, b)


@nojit
def test_duplicate_vertices_and_degenerate_polygons():
    rng = np.random.default_rng(3)
    for _ in range(40):
        a = ellipse_polygon(rng, 5, 1.0, 0.7, (0.0, 0.0), rng.uniform(0, 6))
        a = np.insert(a, 2, a[2], axis=0)  # a zero-length edge
        b = box(*rng.uniform(-1.5, 1.5, 2), 0.5, 0.3, rng.uniform(0, 6))
        check_pair(a, b)
    # every edge of zero length: no axis at all, the fast path defers
    point3 = np.array([[0.2, 0.1]] * 3)
    fast, general = both_paths(point3, box(0.0, 0.0, 1.0, 1.0))
    assert fast[0] == -1
    assert general[0] == 1


@nojit
def test_rounded_polygons():
    rng = np.random.default_rng(11)
    for _ in range(200):
        a = ellipse_polygon(rng, int(rng.integers(3, 9)), 1.0, 0.6, (0.0, 0.0),
                            rng.uniform(0, 6))
        b = ellipse_polygon(rng, int(rng.integers(3, 9)), 0.8, 0.5,
                            rng.uniform(-2.2, 2.2, 2), rng.uniform(0, 6))
        check_pair(a, b, ra=float(rng.uniform(0, 0.2)), rb=float(rng.uniform(0, 0.2)))


def _tie_case(theta, dx=0.2, depth=0.01):
    # narrow A under a wide, slightly turned B: sb - sa grows with |theta| through FLIP_TOL
    return box(0.0, -0.5, 0.5, 0.5), box(dx, 0.5 - depth, 1.0, 0.5, theta)


def _flips(theta):
    a, b = _tie_case(theta)
    sa = max_separation(a, 0, 4, b, 0, 4, 0.0, 0.0)[0]
    sb = max_separation(b, 0, 4, a, 0, 4, 0.0, 0.0)[0]
    return sb > sa + sat.FLIP_TOL


@nojit
@pytest.mark.parametrize("bracket", [(-2e-3, -2e-4), (5e-4, 3e-3)])
def test_reference_face_tie_to_the_last_float(bracket):
    lo, hi = bracket
    if _flips(lo):
        lo, hi = hi, lo
    assert not _flips(lo) and _flips(hi)
    for _ in range(200):  # bisect to adjacent floats
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if not _flips(mid) else (lo, mid)
    assert np.nextafter(lo, hi) == hi
    thetas = [lo, hi]
    for _ in range(3):
        thetas += [np.nextafter(thetas[-2], -hi), np.nextafter(thetas[-1], 2 * hi - lo)]
    for theta in thetas:
        check_pair(*_tie_case(theta))
    # either side of the tie the reference face differs, the feature ids do not, and each
    # id's point moves continuously (ids name A's vertex and B's vertex, not R's and I's)
    sides = [both_paths(*_tie_case(t))[0] for t in (lo, hi)]
    assert sides[0][1] != sides[1][1]  # other normal: the reference changed
    maps = [dict(zip(s[4].tolist(), s[2].tolist(), strict=True)) for s in sides]
    assert set(maps[0]) == set(maps[1]) and len(maps[0]) == 2
    for key, p in maps[0].items():
        assert np.allclose(p, maps[1][key], atol=1e-3)


# ---------------------------------------------------------------- brute force


@nojit
def test_contact_points_lie_midway_between_the_boundaries():
    rng = np.random.default_rng(5)
    checked = 0
    for a, b in random_pairs(rng, 300):
        for s1, s2 in ((a, b), (b, a)):
            (c, n, pts, seps, _), _ = both_paths(s1, s2)
            if c <= 0:
                continue
            n = np.asarray(n)
            assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-14)
            assert np.all(seps <= MARGIN)
            scale = 1.0 + np.abs(s1).max() + np.abs(s2).max()
            for p, s in zip(pts, seps, strict=True):
                assert boundary_distance(s1, p - 0.5 * s * n) <= 1e-12 * scale
                assert boundary_distance(s2, p + 0.5 * s * n) <= 1e-12 * scale
            depth_sep = max(brute_face_separations(s1, s2), brute_face_separations(s2, s1))
            # the reference face is the best one or within FLIP_TOL of it
            assert -sat.FLIP_TOL - 1e-12 <= seps.min() - depth_sep <= sat.FLIP_TOL + 1e-12
            checked += 1
    assert checked > 100


# ---------------------------------------------------------------- collide_pairs


def _mixed_world():
    w = c2d.World(gravity=(0.0, -10.0))
    w.sleeping = False
    ground = w.add_body(kind="static")
    ground.add_box(40.0, 1.0, offset=(0.0, -0.5))
    ground.add_segment((-20.0, 0.0), (-20.0, 10.0), radius=0.1)
    rng = np.random.default_rng(2)
    for row in range(6):  # a small pyramid: stacked boxes, parallel faces everywhere
        for k in range(6 - row):
            w.add_body(position=(-8.0 + k + 0.5 * row, 0.5 + row)).add_box(1.0, 1.0)
    for k in range(40):  # polygons, rounded polygons, circles, capsules falling in a heap
        body = w.add_body(position=(3.0 + (k % 8) * 0.9, 1.0 + (k // 8) * 0.9),
                          angle=float(rng.uniform(0, 6)))
        kind = k % 4
        if kind == 0:
            body.add_polygon(regular(int(rng.integers(3, 9)), 0.4, (0.0, 0.0), 0.0))
        elif kind == 1:
            body.add_polygon(regular(4, 0.3, (0.0, 0.0), 0.3), radius=0.05)
        elif kind == 2:
            body.add_circle(0.3)
        else:
            body.add_segment((-0.3, 0.0), (0.3, 0.0), radius=0.1)
    return w


def test_collide_pairs_rows_match_collide():
    w = _mixed_world()
    for _ in range(90):
        w.step(1.0 / 60.0)
    b, s = w._bodies, w._shapes
    ps = PairShapes(s.aabb, s.body, s.flags, s.category, s.mask, s.group, s.collision_type,
                    b.kind, w._rules.view(), s.order, s.reach, -1, 0)  # (no index: the grid)
    pa, pb, pr = find_pairs(ps, s.count, broadphase.SOLID, broadphase.SOLID)
    old = w._contacts
    new = ContactStore(len(pa))
    # Every body awake (a copy of the flags): each pair's manifold is computed, none kept
    # aside asleep.
    bodies = b.view()._replace(flags=b.flags | B_AWAKE)
    nv, no = s.vworld.shape[0], old.count
    room = NarrowRoom(np.zeros(len(pa), np.bool_), np.zeros(no, np.bool_),
                      np.zeros(no, np.int64), np.zeros(0, np.bool_), np.zeros(0, np.bool_),
                      np.zeros((nv, 2)), *(np.zeros(nv) for _ in range(4)), np.zeros((2, 2)),
                      np.zeros(2), np.zeros(2, np.int64))
    m, _, _ = collide_pairs(pa, pb, pr, s.view(), bodies, s.count, MARGIN, old.table,
                            old.count, new.table, ContactStore(len(pa)).table, 0, False,
                            np.ones(b.count, np.int64), room)
    new.count = m
    rows_new = new.rows()
    c_a, c_b, c_count, c_normal = rows_new.a, rows_new.b, rows_new.count, rows_new.normal
    c_point, c_sep, c_id = rows_new.point, rows_new.sep, rows_new.id
    rows = {}
    for i in range(len(pa)):
        x, y = int(pa[i]), int(pb[i])
        pts = np.zeros((2, 2))
        seps = np.zeros(2)
        ids = np.zeros(2, dtype=np.int64)
        count, nx, ny = sat.collide(s.vworld, s.vstart[x], s.vcount[x], s.radius[x],
                                    s.vworld, s.vstart[y], s.vcount[y], s.radius[y],
                                    MARGIN, pts, seps, ids)
        if count > 0:
            rows[(x, y)] = (count, (nx, ny), pts[:count], seps[:count], ids[:count])
    polygons = 0
    assert len(c_a) == len(rows) > 50
    for i in range(len(c_a)):
        count, normal, pts, seps, ids = rows[(int(c_a[i]), int(c_b[i]))]
        assert c_count[i] == count
        assert (c_normal[i, 0], c_normal[i, 1]) == normal
        assert np.array_equal(c_point[i, :count], pts)
        assert np.array_equal(c_sep[i, :count], seps)
        assert np.array_equal(c_id[i, :count], ids)
        polygons += s.vcount[c_a[i]] >= 3 and s.vcount[c_b[i]] >= 3
    assert polygons > 30


def _rounded_pair(rng):
    """A circle, segment or capsule pair (1 or 2 vertices each, radius 0 or not) in a pool,
    half of them moved so that their cores' distance grazes the radii plus the margin."""
    na, nb = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    scale = 10.0 ** rng.uniform(-2, 1)
    v = np.zeros((4, 2))
    v[0] = rng.uniform(-1, 1, 2) * scale
    v[1] = v[0] + rng.uniform(-1, 1, 2) * scale
    v[2] = rng.uniform(-2, 2, 2) * scale
    v[3] = v[2] + (rng.uniform(-1, 1, 2) * scale if rng.random() < 0.7
                   else (v[1] - v[0]) * rng.uniform(-2, 2))  # (parallel, collinear)
    ra = float(rng.choice([0.0, rng.uniform(0, 0.5) * scale]))
    rb = float(rng.choice([0.0, rng.uniform(0, 0.5) * scale]))
    d2, c1x, c1y, c2x, c2y = compiled(sat.closest_segment_segment)(
        v[0, 0], v[0, 1], v[na - 1, 0], v[na - 1, 1], v[2, 0], v[2, 1], v[1 + nb, 0],
        v[1 + nb, 1])
    d = math.sqrt(d2)
    if d > 0.0 and rng.random() < 0.5:
        target = (MARGIN + ra + rb) * (1.0 + rng.choice([1e-12, 1e-9, 1e-6, 1e-3, 1e-2])
                                       * rng.choice([-1.0, 1.0]))
        v[2:] += (target - d) * np.array([c2x - c1x, c2y - c1y]) / d
    return v, na, ra, nb, rb


@pytest.mark.parametrize("seed", [0, 1])
def test_cores_apart_never_skips_a_contact_collide_finds(seed):
    # collide_pairs skips collide for two circles or segments whose cores are apart: the
    # skip must only ever drop pairs collide gives no contact (count 0).
    rng = np.random.default_rng(seed)
    cores_apart = compiled(narrowphase._cores_apart)
    skipped = grazing = 0
    for _ in range(3000):
        v, na, ra, nb, rb = _rounded_pair(rng)
        pts, seps, ids = np.zeros((2, 2)), np.zeros(2), np.zeros(2, dtype=np.int64)
        count = sat.collide(v, 0, na, ra, v, 2, nb, rb, MARGIN, pts, seps, ids)[0]
        if cores_apart(v, 0, na, 2, nb, ra + rb + MARGIN):
            skipped += 1
            assert count == 0, (v, na, ra, nb, rb)
        elif count == 0:
            grazing += 1  # kept for collide, which found nothing
    assert skipped > 1000 and grazing > 10


def _segment_pairs(rng, n):
    """Two segments each: the grazing pool above, capsules side by side (parallel, at a gap
    of 0 to a few margins), nearly parallel, end to end, on a coarse grid (ties and exact
    zeros), with signed zeros, far from the origin, and a few of zero length."""
    for _ in range(n):
        mode = int(rng.integers(0, 6))
        ra = float(rng.choice([0.0, 0.05, rng.uniform(0.0, 0.3)]))
        rb = float(rng.choice([0.0, 0.05, rng.uniform(0.0, 0.3)]))
        if mode == 0:
            v, na, ra, nb, rb = _rounded_pair(rng)
            if na != 2 or nb != 2:
                continue
        elif mode in (1, 2):
            ang = rng.uniform(0.0, 2.0 * math.pi)
            twist = 0.0 if mode == 1 else float(rng.choice([1e-9, 1e-6, 1e-3, 0.05]))
            d1 = np.array([math.cos(ang), math.sin(ang)])
            d2 = np.array([math.cos(ang + twist), math.sin(ang + twist)])
            side = np.array([-d1[1], d1[0]])
            c = rng.uniform(-1.0, 1.0, 2)
            gap = ra + rb + float(rng.choice([0.0, MARGIN, rng.uniform(-0.2, 3.0 * MARGIN)]))
            c2 = c + gap * side + rng.uniform(-0.5, 0.5) * d1
            h1, h2 = rng.uniform(0.1, 0.6, 2)
            sign = rng.choice([-1.0, 1.0])
            v = np.array([c - h1 * d1, c + h1 * d1, c2 + sign * h2 * d2, c2 - sign * h2 * d2])
        elif mode == 3:
            v = rng.uniform(-1.0, 1.0, (4, 2))
            v[2] = v[1] + rng.normal(0.0, 0.01, 2)
        elif mode == 4:
            v = rng.integers(-2, 3, (4, 2)) * float(rng.choice([0.1, 0.5]))
            zero = rng.random((4, 2)) < 0.3
            v = np.where(zero, rng.choice([-0.0, 0.0], (4, 2)), v)
        else:
            v = rng.uniform(-1.0, 1.0, (4, 2)) * float(rng.choice([1.0, 1e5]))
            if rng.random() < 0.3:
                v[1] = v[0]
        yield np.ascontiguousarray(v, dtype=np.float64), ra, rb


@nojit
@pytest.mark.parametrize("seed", [0, 1])
def test_segment_path_matches_general_path_bit_for_bit(seed):
    # collide_pairs gives two segments to sat.collide_segments, which must give collide's
    # results to the bit (signed zeros included), on both of collide's paths (clipped
    # faces, closest features) and at every count; -1 only for a zero-length segment.
    rng = np.random.default_rng(seed)
    segments = compiled(sat.collide_segments)
    seen = np.zeros(3, dtype=np.int64)
    closest = deferred = 0
    for v, ra, rb in _segment_pairs(rng, 6000):
        for margin in (0.0, MARGIN):
            pts, seps, ids = np.zeros((2, 2)), np.zeros(2), np.zeros(2, dtype=np.int64)
            count, nx, ny = sat.collide(v, 0, 2, ra, v, 2, 2, rb, margin, pts, seps, ids)
            r = segments(v[0, 0], v[0, 1], v[1, 0], v[1, 1], ra, v[2, 0], v[2, 1], v[3, 0],
                         v[3, 1], rb, margin)
            if r[0] == -1:
                deferred += 1
                assert np.array_equal(v[0], v[1]) or np.array_equal(v[2], v[3])
                continue
            assert r[0] == count, (v, ra, rb, margin)
            seen[count] += 1
            if count == 0:
                continue
            got = np.array([r[1], r[2], *r[3:6], *r[7:10]])
            want = np.array([nx, ny, pts[0, 0], pts[0, 1], seps[0], pts[1, 0], pts[1, 1],
                             seps[1]])
            k = 2 + 3 * count
            assert got[:k].tobytes() == want[:k].tobytes(), (v, ra, rb, margin)
            assert (r[6], r[10])[:count] == tuple(ids[:count])
            closest += count == 1 and ids[0] == 0
    assert min(seen) > 500 and closest > 500 and deferred > 20
