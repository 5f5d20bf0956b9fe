"""World queries over the shape tree: segments, points, boxes, shapes and shape casts.

Every kernel walks the tree of :mod:`.bvh` (built over the rows' world boxes) and tests the
rows it reaches with the geometry kernels, on the world-space vertices ``vworld`` that the
surface refreshed first. Rows are convex parts; the surface maps a row to its Shape through
``owner`` and to its body's index through the body's ``order``.

They take the tree as a ``TreeView``, the shape rows as ``QueryShapes``, the filter as a
``FilterView`` and a query shape as a ``PartsView`` (:mod:`.views`). Conventions shared by
all of them:

* **Filter.** A row takes part when ``category_row & f_mask`` and ``f_category & mask_row``
  are both non-zero, it is not a sensor (unless ``f_sensors``), and its body slot is not in
  ``f_exclude`` (the filter's fields).
* **Start inside.** A segment whose start lies inside or on a row (closed containment) hits
  it at fraction 0 with a zero normal (pymunk's rule); otherwise the hit is the first
  crossing of the row's boundary along a->b, with the outward unit normal there. A concave
  shape's parts tile it, so the first crossing over its parts is the first crossing of its
  outline.
* **Ties.** Equal fractions (times) go to the lower shape id (``owner``), so the answer does
  not depend on the order in which the tree is walked.
"""

import math

import numpy as np

from .._jit import njit
from .bvh import query_box
from .constants import S_ALIVE, S_SENSOR
from .poses import points_box
from .sat import shape_distance, sweep_pair
from .segment import point_in_shape, raycast_shape
from .views import FilterView, MotionView, QueryShapes, SegmentHits, TreeView

# Moving bodies (particles): the relative path is followed to within this distance (m) ...
MOTION_TOL = 1e-3
# ... by at most this many chords per row and step.
MAX_PIECES = 256


@njit(inline="always")
def query_shapes(s):
    """The ``QueryShapes`` of a ShapeView (the arrays of those names)."""
    return QueryShapes(s.body, s.owner, s.flags, s.category, s.mask, s.vstart, s.vcount,
                       s.radius, s.vworld)


@njit(_nrt=False)
def passes(category, mask, flags, body, f_category, f_mask, f_sensors, f_exclude):
    """Does the query filter accept a row with these filter bits, flags and body slot?
    (Scalars, not the row arrays: passing arrays into a callee costs reference counting.)"""
    if not accepts(category, mask, flags, f_category, f_mask, f_sensors):
        return False
    for i in range(f_exclude.shape[0]):
        if f_exclude[i] == body:
            return False
    return True


@njit(inline="always")
def accepts(category, mask, flags, f_category, f_mask, f_sensors):
    """Does a filter's bits and sensor flag accept a row (the bodies it excludes aside)?"""
    if (category & f_mask) == 0 or (f_category & mask) == 0:
        return False
    return f_sensors or not (flags & S_SENSOR)


@njit(_nrt=False, entry=True)
def gather_accepted(aabb, flags, category, mask, count, f_category, f_mask, f_sensors, boxes,
                    items, k):
    """The boxes and rows of the live shapes (of the first ``count``) that a filter's bits
    and sensor flag accept, into ``boxes`` and ``items`` (room for ``count``), which hold
    ``k`` from the last call: -1 when they are those still (a tree over them needs no
    rebuild), else how many now. One pass: rows are compared until the first that differs,
    and written from there on."""
    j = 0
    same = True
    for s in range(count):
        if not (flags[s] & S_ALIVE) or not accepts(category[s], mask[s], flags[s],
                                                    f_category, f_mask, f_sensors):
            continue
        if same and (j >= k or items[j] != s or aabb[s, 0] != boxes[j, 0]
                     or aabb[s, 1] != boxes[j, 1] or aabb[s, 2] != boxes[j, 2]
                     or aabb[s, 3] != boxes[j, 3]):
            same = False
        if not same:
            for c in range(4):
                boxes[j, c] = aabb[s, c]
            items[j] = s
        j += 1
    return -1 if same and j == k else j


@njit(_nrt=False, entry=True)
def box_owners(rows, k, aabb, owner, body, flags, category, mask, lo_x, lo_y, hi_x, hi_y,
               f_category, f_mask, f_sensors, f_exclude, out):
    """Of the query tree's candidate rows ``rows[:k]`` (fattened boxes that meet the box),
    the shapes whose exact box meets the closed box [lo, hi] and that the filter accepts:
    their owners (shape ids; a concave shape's parts share one, so an id may repeat) into
    ``out``; returns how many. (In NumPy this was most of ``query_aabb``'s call.)"""
    m = 0
    for i in range(k):
        r = rows[i]
        if (aabb[r, 0] <= hi_x and aabb[r, 2] >= lo_x and aabb[r, 1] <= hi_y
                and aabb[r, 3] >= lo_y
                and passes(category[r], mask[r], flags[r], body[r], f_category, f_mask,
                           f_sensors, f_exclude)):
            out[m] = owner[r]
            m += 1
    return m


@njit(_nrt=False)
def ray_convex(ax, ay, dx, dy, verts, off, n, t_max):
    """Cyrus-Beck for a convex CCW polygon (radius 0) along a + t d, t in [0, t_max].

    Returns (t, nx, ny): t = inf for a miss, (0, 0, 0) when a is inside or on the polygon,
    else the entry fraction and the entered edge's outward unit normal. The edge normals are
    left unnormalised (only signs and ratios matter) until the winning edge is known.
    """
    t_in = 0.0
    t_out = t_max
    enter = -1
    inside = True
    for i in range(n):
        j = off + i + 1 if i + 1 < n else off
        vx = verts[off + i, 0]
        vy = verts[off + i, 1]
        mx = verts[j, 1] - vy
        my = vx - verts[j, 0]
        s = mx * (ax - vx) + my * (ay - vy)  # > 0: a is outside this edge's half-plane
        k = mx * dx + my * dy
        if s > 0.0:
            inside = False
        if k == 0.0:
            if s > 0.0:
                return math.inf, 0.0, 0.0
        elif k < 0.0:
            t = -s / k
            if t > t_in:
                t_in = t
                enter = i
        else:
            t = -s / k
            if t < t_out:
                t_out = t
        if t_in > t_out:
            return math.inf, 0.0, 0.0
    if inside or enter < 0:
        return 0.0, 0.0, 0.0
    j = off + enter + 1 if enter + 1 < n else off
    mx = verts[j, 1] - verts[off + enter, 1]
    my = verts[off + enter, 0] - verts[j, 0]
    ml = math.sqrt(mx * mx + my * my)
    return t_in, mx / ml, my / ml


@njit(_nrt=False)
def ray_row(ax, ay, bx, by, t_max, vworld, off, n, r):
    """First hit of a->b on one row (``vworld[off:off+n]`` rounded by r) within fraction
    [0, t_max]: (t, nx, ny), t = inf for none."""
    if n >= 3 and r == 0.0:
        return ray_convex(ax, ay, bx - ax, by - ay, vworld, off, n, t_max)
    if point_in_shape(ax, ay, vworld, off, n, r):
        return 0.0, 0.0, 0.0
    t, nx, ny, _ = raycast_shape(ax, ay, bx, by, vworld, off, n, r)
    if t > t_max:
        return math.inf, 0.0, 0.0
    return t, nx, ny


@njit(_nrt=False)
def ray_row_moving(ax, ay, bx, by, t_max, vworld, off, n, r, dth, c0x, c0y, c1x, c1y):
    """First hit of a point moving straight from a to b against a row whose body moved
    during the same time, its centre of mass from c0 to c1 (straight) while turning by dth.

    The point's path relative to the body, written at the body's end pose, is
    q(tau) = c1 + R((1 - tau) dth) (p(tau) - c(tau)), from q(0) (the start carried along
    with the body) to q(1) = b. It is a straight line when the body only translates;
    otherwise it is followed by k chords through points of the path, k chosen so that each
    chord stays within ``MOTION_TOL`` of the path: a chord over a fraction h of the time
    deviates by at most h^2 |q''| / 8, and |q''| <= dth^2 D + 2 |dth| V, with D the largest
    distance from the centre of mass and V the relative displacement.

    Returns (tau, nx, ny, px, py): the time fraction of the hit (inf: none) and the hit
    point on the row at its end pose.
    """
    d0 = math.hypot(ax - c0x, ay - c0y)
    d1 = math.hypot(bx - c1x, by - c1y)
    vx = (bx - ax) - (c1x - c0x)
    vy = (by - ay) - (c1y - c0y)
    curv = dth * dth * max(d0, d1) + 2.0 * abs(dth) * math.hypot(vx, vy)
    k = 1
    if curv > 0.0:
        k = min(MAX_PIECES, max(1, int(math.ceil(math.sqrt(curv / (8.0 * MOTION_TOL))))))
    qx = c1x + math.cos(dth) * (ax - c0x) - math.sin(dth) * (ay - c0y)
    qy = c1y + math.sin(dth) * (ax - c0x) + math.cos(dth) * (ay - c0y)
    for i in range(k):
        tau0 = i / k
        if tau0 > t_max:
            break
        if i + 1 == k:
            rx = bx
            ry = by
        else:
            tau = (i + 1) / k
            ang = (1.0 - tau) * dth
            px = ax + tau * (bx - ax) - (c0x + tau * (c1x - c0x))
            py = ay + tau * (by - ay) - (c0y + tau * (c1y - c0y))
            rx = c1x + math.cos(ang) * px - math.sin(ang) * py
            ry = c1y + math.sin(ang) * px + math.cos(ang) * py
        t, nx, ny = ray_row(qx, qy, rx, ry, min(1.0, (t_max - tau0) * k), vworld, off, n, r)
        if t != math.inf:
            return tau0 + t / k, nx, ny, qx + t * (rx - qx), qy + t * (ry - qy)
        qx = rx
        qy = ry
    return math.inf, 0.0, 0.0, 0.0, 0.0


@njit(_nrt=False)
def _slab_axis(a, d, inv, lo, hi, t0, t1):
    """[t0, t1] narrowed to where a + t d lies in [lo, hi] on one axis (empty: t0 > t1)."""
    if d != 0.0:
        ta = (lo - a) * inv
        tb = (hi - a) * inv
        if ta > tb:
            ta, tb = tb, ta
        return max(t0, ta), min(t1, tb)
    if a < lo or a > hi:
        return math.inf, -math.inf
    return t0, t1


@njit(_nrt=False)
def slab(ax, ay, dx, dy, idx, idy, lox, loy, hix, hiy, t_max):
    """Entry fraction of a + t d (t in [0, t_max]) into the box, inf when it misses.
    ``idx`` / ``idy`` are 1/dx, 1/dy (unused where dx or dy is 0)."""
    t0, t1 = _slab_axis(ax, dx, idx, lox, hix, 0.0, t_max)
    t0, t1 = _slab_axis(ay, dy, idy, loy, hiy, t0, t1)
    if t0 <= t1:
        return t0
    return math.inf


# What cast_segments does with rows whose body moved during the step.
MOTION_NONE = 0   # test them where they are
MOTION_FRAME = 1  # test the segment's path relative to the moving body
MOTION_SKIP = 2   # leave them out


@njit(_nrt=True, entry=True)
def cast_segments(starts, ends, tree, shapes, flt, frames, motion, skip_inside, out):
    """First hit of every segment starts[k] -> ends[k] into ``out`` (a ``SegmentHits``, body
    ids through ``frames.ids``); misses get False, -1 and NaN. ``tree`` a ``TreeView``,
    ``shapes`` a ``QueryShapes``, ``flt`` a ``FilterView``, ``frames`` a ``MotionView``.

    Per segment, depth first through the wide tree. A node's slot boxes are first counted
    branch-free against the segment's box (vectorised); most nodes that a short segment
    reaches hold none it touches. A slot is then taken when the segment's box (shrunk to
    the best fraction so far) meets it and its slab entry is not beyond the best fraction:
    a shape is tested at once, a node pushed with its entry fraction (skipped when popped
    if a nearer hit was found meanwhile).

    ``motion`` says what to do with a row whose body moved during the step (``frames``:
    ``moved``; centre of mass ``com0`` -> ``com1``, turning by ``dtheta``):
    ``MOTION_NONE`` (queries) tests it where it is; ``MOTION_FRAME`` (particles) tests it
    along the segment's path relative to the body (:func:`ray_row_moving`), so a turning
    hull cannot sweep past a particle: the tree's boxes must then cover the rows' swept
    regions, and the hit point is on the row at its end pose; ``MOTION_SKIP`` leaves it
    out. With ``skip_inside`` a row
    the segment starts inside (or on) is no hit, so the rest of the segment is still
    tested against every other row.

    The walk is :func:`cast_segments_into`, which this call gives its stacks. The surface
    calls it with each view as a plain tuple of its fields (Numba's dispatcher types a
    namedtuple argument in Python at every call); they are the views again here, as the
    walk's other callers (particles, the batch) give them.
    """
    n_nodes = tree[4]
    stack = np.empty(max(n_nodes, 1), dtype=np.int64)
    stack_t = np.empty(max(n_nodes, 1))
    cast_segments_into(starts, ends, TreeView(*tree), QueryShapes(*shapes), FilterView(*flt),
                       MotionView(*frames), motion, skip_inside, SegmentHits(*out), stack,
                       stack_t)


@njit(_nrt=False)
def cast_segments_into(starts, ends, tree, shapes, flt, frames, motion, skip_inside, out,
                       stack, stack_t):
    """:func:`cast_segments` with its two stacks given (room for ``tree``'s node count),
    compiled without reference counting: the batch ray cast calls it once per world with
    one pair of stacks per task.

    The walk is written out here rather than in a per-segment helper: handing some thirty
    arrays to a function per segment would cost more than the walk itself."""
    node_first, node_count, slot_box, slot_ref, n_nodes = tree
    s_body, s_owner, s_flags, s_category, s_mask, s_vstart, s_vcount, s_radius, vworld = shapes
    f_category, f_mask, f_sensors, f_exclude = flt
    b_order, moved, dtheta, com0, com1 = frames
    hit, body, shape, point, normal, fraction = out
    for k in range(starts.shape[0]):
        ax = starts[k, 0]
        ay = starts[k, 1]
        bx = ends[k, 0]
        by = ends[k, 1]
        dx = bx - ax
        dy = by - ay
        idx = 1.0 / dx if dx != 0.0 else 0.0
        idy = 1.0 / dy if dy != 0.0 else 0.0
        best = math.inf
        brow = -1
        bnx = 0.0
        bny = 0.0
        bpx = 0.0
        bpy = 0.0
        lox = min(ax, bx)
        hix = max(ax, bx)
        loy = min(ay, by)
        hiy = max(ay, by)
        top = 0
        if n_nodes > 0:
            stack[0] = 0
            stack_t[0] = 0.0
            top = 1
        while top > 0:
            top -= 1
            i = stack[top]
            if stack_t[top] > best:
                continue
            # Unsigned indices: Numba then skips negative-index wraparound and the counting
            # loop compiles to vector loads (6x faster than with int64 indices).
            f0 = np.uint64(node_first[i])
            f1 = np.uint64(node_first[i] + node_count[i])
            n_in = 0
            for j in range(f0, f1):
                n_in += ((slot_box[0, j] <= hix) & (slot_box[2, j] >= lox)
                         & (slot_box[1, j] <= hiy) & (slot_box[3, j] >= loy))
            for j in range(f0, f1):
                if n_in == 0:
                    break  # every slot the segment's box meets has been handled
                if (slot_box[0, j] > hix or slot_box[2, j] < lox or slot_box[1, j] > hiy
                        or slot_box[3, j] < loy):
                    continue
                n_in -= 1
                t_max = min(best, 1.0)
                t_in = slab(ax, ay, dx, dy, idx, idy, slot_box[0, j], slot_box[1, j],
                            slot_box[2, j], slot_box[3, j], t_max)
                if t_in > t_max:
                    continue
                ref = slot_ref[j]
                if ref < 0:
                    stack[top] = -ref - 1
                    stack_t[top] = t_in
                    top += 1
                    continue
                row = ref
                b = s_body[row]
                if not passes(s_category[row], s_mask[row], s_flags[row], b, f_category,
                              f_mask, f_sensors, f_exclude):
                    continue
                if motion != MOTION_NONE and moved[b]:
                    if motion == MOTION_SKIP:
                        continue
                    t, nx, ny, px, py = ray_row_moving(
                        ax, ay, bx, by, t_max, vworld, s_vstart[row], s_vcount[row],
                        s_radius[row], dtheta[b], com0[b, 0], com0[b, 1], com1[b, 0],
                        com1[b, 1])
                else:
                    t, nx, ny = ray_row(ax, ay, bx, by, t_max, vworld, s_vstart[row],
                                        s_vcount[row], s_radius[row])
                    px = ax + t * dx if t != math.inf else 0.0
                    py = ay + t * dy if t != math.inf else 0.0
                if skip_inside and t == 0.0 and nx == 0.0 and ny == 0.0:
                    continue
                if t < best or (t == best and brow >= 0 and s_owner[row] < s_owner[brow]):
                    best = t
                    brow = row
                    bnx = nx
                    bny = ny
                    bpx = px
                    bpy = py
                    ex = ax + best * dx
                    ey = ay + best * dy
                    lox = min(ax, ex)
                    hix = max(ax, ex)
                    loy = min(ay, ey)
                    hiy = max(ay, ey)
        if brow >= 0:
            hit[k] = True
            body[k] = b_order[s_body[brow]]
            shape[k] = s_owner[brow]
            point[k, 0] = bpx
            point[k, 1] = bpy
            normal[k, 0] = bnx + 0.0
            normal[k, 1] = bny + 0.0
            fraction[k] = best
        else:
            hit[k] = False
            body[k] = -1
            shape[k] = -1
            point[k, 0] = math.nan
            point[k, 1] = math.nan
            normal[k, 0] = math.nan
            normal[k, 1] = math.nan
            fraction[k] = math.nan


@njit(_nrt=True, entry=True)
def raycast_rows(ax, ay, bx, by, tree, shapes, flt, rows, ts, normals):
    """Every row crossed by a->b with its first crossing (or 0 when a is inside it).
    Returns how many were written (in tree order)."""
    node_first, node_count, slot_box, slot_ref, n_nodes = tree
    s_body, _, s_flags, s_category, s_mask, s_vstart, s_vcount, s_radius, vworld = shapes
    f_category, f_mask, f_sensors, f_exclude = flt
    stack = np.empty(max(n_nodes, 1), dtype=np.int64)
    cand = np.empty(max(slot_ref.shape[0], 1), dtype=np.int64)
    nc = query_box(node_first, node_count, slot_box, slot_ref, n_nodes, min(ax, bx),
                   min(ay, by), max(ax, bx), max(ay, by), stack, cand)
    count = 0
    for c in range(nc):
        row = cand[c]
        if not passes(s_category[row], s_mask[row], s_flags[row], s_body[row], f_category,
                      f_mask, f_sensors, f_exclude):
            continue
        t, nx, ny = ray_row(ax, ay, bx, by, 1.0, vworld, s_vstart[row], s_vcount[row],
                            s_radius[row])
        if t != math.inf:
            rows[count] = row
            ts[count] = t
            normals[count, 0] = nx + 0.0
            normals[count, 1] = ny + 0.0
            count += 1
    return count


@njit(_nrt=True, entry=True)
def point_rows(px, py, tree, shapes, flt, out):
    """Rows containing the point (closed); returns how many were written."""
    node_first, node_count, slot_box, slot_ref, n_nodes = tree
    s_body, _, s_flags, s_category, s_mask, s_vstart, s_vcount, s_radius, vworld = shapes
    f_category, f_mask, f_sensors, f_exclude = flt
    stack = np.empty(max(n_nodes, 1), dtype=np.int64)
    cand = np.empty(max(slot_ref.shape[0], 1), dtype=np.int64)
    nc = query_box(node_first, node_count, slot_box, slot_ref, n_nodes, px, py, px, py,
                   stack, cand)
    count = 0
    for c in range(nc):
        row = cand[c]
        if passes(s_category[row], s_mask[row], s_flags[row], s_body[row], f_category, f_mask,
                  f_sensors, f_exclude) and point_in_shape(px, py, vworld, s_vstart[row],
                                                           s_vcount[row], s_radius[row]):
            out[count] = row
            count += 1
    return count


@njit(_nrt=True, entry=True)
def points_batch(points, tree, shapes, b_order, flt, hit, body, shape):
    """For each point, the containing Shape with the lowest id (and its body through
    ``b_order``), or -1."""
    node_first, node_count, slot_box, slot_ref, n_nodes = tree
    s_body, s_owner, s_flags, s_category, s_mask, s_vstart, s_vcount, s_radius, vworld = shapes
    f_category, f_mask, f_sensors, f_exclude = flt
    stack = np.empty(max(n_nodes, 1), dtype=np.int64)
    for k in range(points.shape[0]):
        px = points[k, 0]
        py = points[k, 1]
        best = -1
        brow = -1
        top = 0
        if n_nodes > 0:
            stack[0] = 0
            top = 1
        while top > 0:
            top -= 1
            i = stack[top]
            f0 = np.uint64(node_first[i])  # unsigned: vectorised count (see cast_segments)
            f1 = np.uint64(node_first[i] + node_count[i])
            n_in = 0
            for j in range(f0, f1):
                n_in += ((slot_box[0, j] <= px) & (slot_box[2, j] >= px)
                         & (slot_box[1, j] <= py) & (slot_box[3, j] >= py))
            for j in range(f0, f1):
                if n_in == 0:
                    break
                if (slot_box[0, j] > px or slot_box[2, j] < px or slot_box[1, j] > py
                        or slot_box[3, j] < py):
                    continue
                n_in -= 1
                ref = slot_ref[j]
                if ref < 0:
                    stack[top] = -ref - 1
                    top += 1
                    continue
                row = ref
                own = s_owner[row]
                if best >= 0 and own >= best:
                    continue
                if passes(s_category[row], s_mask[row], s_flags[row], s_body[row],
                          f_category, f_mask, f_sensors, f_exclude) and point_in_shape(
                              px, py, vworld, s_vstart[row], s_vcount[row], s_radius[row]):
                    best = own
                    brow = row
        if brow >= 0:
            hit[k] = True
            body[k] = b_order[s_body[brow]]
            shape[k] = best
        else:
            hit[k] = False
            body[k] = -1
            shape[k] = -1


@njit(_nrt=False)
def _part_box(qverts, off, n, wx, wy):
    """Box of a part and of its translate by w."""
    lox, loy, hix, hiy = points_box(qverts, off, n)
    # Adding a constant keeps the min and max: the same bits as widening per vertex.
    return min(lox, lox + wx), min(loy, loy + wy), max(hix, hix + wx), max(hiy, hiy + wy)


@njit(_nrt=True, entry=True)
def shape_overlaps(parts, tree, shapes, flt, rows, dists, normals):
    """Rows touching or overlapping any query part (``parts`` a ``PartsView``, world
    frame). For each such row, the signed distance of the deepest part pair (<= 0) and the
    unit normal that pushes the query part out of the row. Returns how many rows were
    written (one entry per row)."""
    qverts, qoff, qcount, qradius = parts
    node_first, node_count, slot_box, slot_ref, n_nodes = tree
    s_body, _, s_flags, s_category, s_mask, s_vstart, s_vcount, s_radius, vworld = shapes
    f_category, f_mask, f_sensors, f_exclude = flt
    stack = np.empty(max(n_nodes, 1), dtype=np.int64)
    cand = np.empty(max(slot_ref.shape[0], 1), dtype=np.int64)
    count = 0
    for p in range(qoff.shape[0]):
        off = qoff[p]
        n = qcount[p]
        lox, loy, hix, hiy = _part_box(qverts, off, n, 0.0, 0.0)
        nc = query_box(node_first, node_count, slot_box, slot_ref, n_nodes, lox - qradius,
                       loy - qradius, hix + qradius, hiy + qradius, stack, cand)
        for c in range(nc):
            row = cand[c]
            if not passes(s_category[row], s_mask[row], s_flags[row], s_body[row],
                          f_category, f_mask, f_sensors, f_exclude):
                continue
            d, nx, ny, _, _, _, _ = shape_distance(qverts, off, n, qradius, vworld,
                                                   s_vstart[row], s_vcount[row],
                                                   s_radius[row], 0.0, 0.0, True)
            if d > 0.0:
                continue
            slot = -1
            for q in range(count):
                if rows[q] == row:
                    slot = q
                    break
            if slot < 0:
                slot = count
                count += 1
                rows[slot] = row
                dists[slot] = math.inf
            if d < dists[slot]:
                dists[slot] = d
                normals[slot, 0] = -nx + 0.0
                normals[slot, 1] = -ny + 0.0
    return count


@njit(_nrt=True, entry=True)
def shape_cast(parts, wx, wy, tree, shapes, flt):
    """First row touched by the query parts (a ``PartsView``) moving by (wx, wy) over
    fraction [0, 1], by the swept separating-axis test. Returns (row, time, push_x, push_y,
    depth, point_x, point_y): ``push`` moves the query shape away from the row, ``depth`` > 0
    only when they already overlap at time 0, ``point`` is the row's surface point nearest
    the query shape at the time of impact. row -1: nothing in the way."""
    qverts, qoff, qcount, qradius = parts
    node_first, node_count, slot_box, slot_ref, n_nodes = tree
    s_body, s_owner, s_flags, s_category, s_mask, s_vstart, s_vcount, s_radius, vworld = shapes
    f_category, f_mask, f_sensors, f_exclude = flt
    stack = np.empty(max(n_nodes, 1), dtype=np.int64)
    cand = np.empty(max(slot_ref.shape[0], 1), dtype=np.int64)
    best = math.inf
    brow = -1
    bpart = -1
    bpx = 0.0
    bpy = 0.0
    bdepth = 0.0
    for p in range(qoff.shape[0]):
        off = qoff[p]
        n = qcount[p]
        lox, loy, hix, hiy = _part_box(qverts, off, n, wx, wy)
        nc = query_box(node_first, node_count, slot_box, slot_ref, n_nodes, lox - qradius,
                       loy - qradius, hix + qradius, hiy + qradius, stack, cand)
        for c in range(nc):
            row = cand[c]
            if not passes(s_category[row], s_mask[row], s_flags[row], s_body[row],
                          f_category, f_mask, f_sensors, f_exclude):
                continue
            hit, t, px, py, dep = sweep_pair(qverts, off, n, qradius, vworld, s_vstart[row],
                                             s_vcount[row], s_radius[row], wx, wy, 1.0)
            if not hit:
                continue
            if t < best or (t == best and brow >= 0 and (
                    dep > bdepth or (dep == bdepth and s_owner[row] < s_owner[brow]))):
                best = t
                brow = row
                bpart = p
                bpx = px
                bpy = py
                bdepth = dep
    if brow < 0:
        return -1, math.nan, 0.0, 0.0, 0.0, math.nan, math.nan
    _, nx, ny, _, _, pbx, pby = shape_distance(qverts, qoff[bpart], qcount[bpart], qradius,
                                               vworld, s_vstart[brow], s_vcount[brow],
                                               s_radius[brow], best * wx, best * wy, True)
    rb = s_radius[brow]
    return brow, best, bpx + 0.0, bpy + 0.0, bdepth, pbx - rb * nx, pby - rb * ny
