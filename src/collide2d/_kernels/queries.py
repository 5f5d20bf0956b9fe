"""World queries over the shape tree: segments, points, boxes, shapes and shape casts.

Every kernel walks the tree of :mod:`.bvh` (built over the rows' world boxes) and tests the
rows it reaches with the geometry kernels, on the world-space vertices ``vworld`` that the
surface refreshed first. Rows are convex parts; the surface maps a row to its Shape through
``owner`` and to its body's index through the body's ``order``.

Conventions shared by all of them:

* **Filter.** A row takes part when ``category_row & f_mask`` and ``f_category & mask_row``
  are both non-zero, it is not a sensor (unless ``f_sensors``), and its body slot is not in
  ``f_exclude``.
* **Start inside.** A segment whose start lies inside or on a row (closed containment) hits
  it at fraction 0 with a zero normal (pymunk's rule); otherwise the hit is the first
  crossing of the row's boundary along a->b, with the outward unit normal there. A concave
  shape's parts tile it, so the first crossing over its parts is the first crossing of its
  outline.
* **Ties.** Equal fractions go to the lower row, so the answer does not depend on the order
  in which the tree is walked.
"""

import math

import numpy as np

from .._jit import njit
from .bvh import query_box
from .sat import shape_distance, sweep_pair
from .segment import point_in_shape, raycast_shape

S_SENSOR = 2


@njit
def passes(row, s_body, s_flags, s_category, s_mask, f_category, f_mask, f_sensors,
           f_exclude):
    """Does the query filter accept this row?"""
    if (s_category[row] & f_mask) == 0 or (f_category & s_mask[row]) == 0:
        return False
    if not f_sensors and (s_flags[row] & S_SENSOR):
        return False
    b = s_body[row]
    for i in range(f_exclude.shape[0]):
        if f_exclude[i] == b:
            return False
    return True


@njit
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


@njit
def ray_row(ax, ay, bx, by, t_max, row, s_vstart, s_vcount, s_radius, vworld):
    """First hit of a->b on one row within fraction [0, t_max]: (t, nx, ny), t = inf: none."""
    off = s_vstart[row]
    n = s_vcount[row]
    r = s_radius[row]
    if n >= 3 and r == 0.0:
        return ray_convex(ax, ay, bx - ax, by - ay, vworld, off, n, t_max)
    if point_in_shape(ax, ay, vworld, off, n, r):
        return 0.0, 0.0, 0.0
    t, nx, ny, _ = raycast_shape(ax, ay, bx, by, vworld, off, n, r)
    if t > t_max:
        return math.inf, 0.0, 0.0
    return t, nx, ny


@njit
def slab(ax, ay, dx, dy, idx, idy, lox, loy, hix, hiy, t_max):
    """Entry fraction of a + t d (t in [0, t_max]) into the box, inf when it misses.
    ``idx`` / ``idy`` are 1/dx, 1/dy (unused where dx or dy is 0)."""
    t0 = 0.0
    t1 = t_max
    if dx != 0.0:
        ta = (lox - ax) * idx
        tb = (hix - ax) * idx
        if ta > tb:
            ta, tb = tb, ta
        t0 = max(t0, ta)
        t1 = min(t1, tb)
    elif ax < lox or ax > hix:
        return math.inf
    if dy != 0.0:
        ta = (loy - ay) * idy
        tb = (hiy - ay) * idy
        if ta > tb:
            ta, tb = tb, ta
        t0 = max(t0, ta)
        t1 = min(t1, tb)
    elif ay < loy or ay > hiy:
        return math.inf
    if t0 <= t1:
        return t0
    return math.inf


@njit(inline="always")
def first_hit(ax, ay, bx, by, node_box, node_right, node_first, node_count, leaf_box,
              leaf_item, n_nodes, stack, stack_t,
              s_body, s_flags, s_category, s_mask, s_vstart, s_vcount, s_radius, vworld,
              f_category, f_mask, f_sensors, f_exclude,
              use_motion, moved, dcos, dsin, com0, com1):
    """Nearest row hit by a->b: (row, t, nx, ny, sx, sy), row -1 for none.

    Depth-first, nearer child first. A node or a leaf's box is skipped when the segment's
    box (shrunk to the best fraction so far) misses it or its slab entry lies beyond the
    best fraction. A leaf's boxes are first counted branch-free (vectorised); most leaves
    reached by short segments have none.

    With ``use_motion`` (particles), a row whose body moved during the step is tested in the
    body's frame: the start is carried along with the body, s = com1 + R(dtheta)(a - com0),
    and the chord s->b is tested against the row at its end pose (relative motion, so a
    turning hull cannot sweep past a particle). The tree's boxes must then cover the rows'
    swept regions. (sx, sy) is the start used for the winning row: the hit point is
    s + t (b - s). Without motion s = a.
    """
    dx = bx - ax
    dy = by - ay
    idx = 1.0 / dx if dx != 0.0 else 0.0
    idy = 1.0 / dy if dy != 0.0 else 0.0
    best = math.inf
    brow = -1
    bnx = 0.0
    bny = 0.0
    bsx = ax
    bsy = ay
    lox = min(ax, bx)
    hix = max(ax, bx)
    loy = min(ay, by)
    hiy = max(ay, by)
    top = 0
    if n_nodes > 0 and not (node_box[0, 0] > hix or node_box[0, 2] < lox
                            or node_box[0, 1] > hiy or node_box[0, 3] < loy):
        t_root = slab(ax, ay, dx, dy, idx, idy, node_box[0, 0], node_box[0, 1],
                      node_box[0, 2], node_box[0, 3], 1.0)
        if t_root != math.inf:
            stack[0] = 0
            stack_t[0] = t_root
            top = 1
    while top > 0:
        top -= 1
        i = stack[top]
        if stack_t[top] > best:
            continue
        r = node_right[i]
        if r < 0:
            f0 = node_first[i]
            f1 = f0 + node_count[i]
            n_in = 0
            for j in range(f0, f1):
                n_in += ((leaf_box[0, j] <= hix) & (leaf_box[2, j] >= lox)
                         & (leaf_box[1, j] <= hiy) & (leaf_box[3, j] >= loy))
            if n_in == 0:
                continue
            for j in range(f0, f1):
                if (leaf_box[0, j] > hix or leaf_box[2, j] < lox or leaf_box[1, j] > hiy
                        or leaf_box[3, j] < loy):
                    continue
                t_max = min(best, 1.0)
                if slab(ax, ay, dx, dy, idx, idy, leaf_box[0, j], leaf_box[1, j],
                        leaf_box[2, j], leaf_box[3, j], t_max) > t_max:
                    continue
                row = leaf_item[j]
                if not passes(row, s_body, s_flags, s_category, s_mask, f_category, f_mask,
                              f_sensors, f_exclude):
                    continue
                sx = ax
                sy = ay
                if use_motion:
                    b = s_body[row]
                    if moved[b]:
                        rx = ax - com0[b, 0]
                        ry = ay - com0[b, 1]
                        sx = com1[b, 0] + dcos[b] * rx - dsin[b] * ry
                        sy = com1[b, 1] + dsin[b] * rx + dcos[b] * ry
                t, nx, ny = ray_row(sx, sy, bx, by, t_max, row, s_vstart, s_vcount, s_radius,
                                    vworld)
                if t < best or (t == best and row < brow):
                    best = t
                    brow = row
                    bnx = nx
                    bny = ny
                    bsx = sx
                    bsy = sy
                    ex = ax + best * dx
                    ey = ay + best * dy
                    lox = min(ax, ex)
                    hix = max(ax, ex)
                    loy = min(ay, ey)
                    hiy = max(ay, ey)
            continue
        # Internal node: test both children here so the nearer one is walked first.
        t_max = min(best, 1.0)
        c = i + 1
        tl = math.inf
        if not (node_box[c, 0] > hix or node_box[c, 2] < lox or node_box[c, 1] > hiy
                or node_box[c, 3] < loy):
            tl = slab(ax, ay, dx, dy, idx, idy, node_box[c, 0], node_box[c, 1],
                      node_box[c, 2], node_box[c, 3], t_max)
        tr = math.inf
        if not (node_box[r, 0] > hix or node_box[r, 2] < lox or node_box[r, 1] > hiy
                or node_box[r, 3] < loy):
            tr = slab(ax, ay, dx, dy, idx, idy, node_box[r, 0], node_box[r, 1],
                      node_box[r, 2], node_box[r, 3], t_max)
        if tl > tr:
            tl, tr = tr, tl
            c, r = r, c
        # Now c is the nearer child (entry tl <= tr): push it last so it is popped first.
        if tr != math.inf:
            stack[top] = r
            stack_t[top] = tr
            top += 1
        if tl != math.inf:
            stack[top] = c
            stack_t[top] = tl
            top += 1
    return brow, best, bnx, bny, bsx, bsy


@njit
def raycast_batch(starts, ends, node_box, node_right, node_first, node_count, leaf_box,
                  leaf_item, n_nodes, depth, s_body, s_owner, s_flags, s_category, s_mask,
                  s_vstart, s_vcount, s_radius, vworld, b_order, f_category, f_mask,
                  f_sensors, f_exclude, hit, body, shape, point, normal, fraction):
    """First hit of every segment starts[k] -> ends[k]; misses get -1 and NaN."""
    stack = np.empty(depth + 2, dtype=np.int64)
    stack_t = np.empty(depth + 2)
    no_moved = np.zeros(0, dtype=np.bool_)
    no_f = np.zeros(0)
    no_p = np.zeros((0, 2))
    for k in range(starts.shape[0]):
        ax = starts[k, 0]
        ay = starts[k, 1]
        bx = ends[k, 0]
        by = ends[k, 1]
        row, t, nx, ny, _, _ = first_hit(ax, ay, bx, by, node_box, node_right, node_first,
                                         node_count, leaf_box, leaf_item, n_nodes, stack,
                                         stack_t, s_body, s_flags, s_category, s_mask,
                                         s_vstart, s_vcount, s_radius, vworld, f_category,
                                         f_mask, f_sensors, f_exclude,
                                         False, no_moved, no_f, no_f, no_p, no_p)
        if row >= 0:
            hit[k] = True
            body[k] = b_order[s_body[row]]
            shape[k] = s_owner[row]
            point[k, 0] = ax + t * (bx - ax)
            point[k, 1] = ay + t * (by - ay)
            normal[k, 0] = nx + 0.0
            normal[k, 1] = ny + 0.0
            fraction[k] = t
        else:
            hit[k] = False
            body[k] = -1
            shape[k] = -1
            point[k, 0] = math.nan
            point[k, 1] = math.nan
            normal[k, 0] = math.nan
            normal[k, 1] = math.nan
            fraction[k] = math.nan


@njit
def raycast_rows(ax, ay, bx, by, node_box, node_right, node_first, node_count, leaf_box,
                 leaf_item, n_nodes, depth, s_body, s_flags, s_category, s_mask, s_vstart,
                 s_vcount, s_radius, vworld, f_category, f_mask, f_sensors, f_exclude,
                 rows, ts, normals):
    """Every row crossed by a->b with its first crossing (or 0 when a is inside it).
    Returns how many were written (in tree order)."""
    stack = np.empty(depth + 2, dtype=np.int64)
    cand = np.empty(leaf_item.shape[0], dtype=np.int64)
    nc = query_box(node_box, node_right, node_first, node_count, leaf_box, leaf_item,
                   n_nodes, min(ax, bx), min(ay, by), max(ax, bx), max(ay, by), stack, cand)
    count = 0
    for c in range(nc):
        row = cand[c]
        if not passes(row, s_body, s_flags, s_category, s_mask, f_category, f_mask,
                      f_sensors, f_exclude):
            continue
        t, nx, ny = ray_row(ax, ay, bx, by, 1.0, row, s_vstart, s_vcount, s_radius, vworld)
        if t != math.inf:
            rows[count] = row
            ts[count] = t
            normals[count, 0] = nx + 0.0
            normals[count, 1] = ny + 0.0
            count += 1
    return count


@njit
def point_rows(px, py, node_box, node_right, node_first, node_count, leaf_box, leaf_item,
               n_nodes, depth, s_body, s_flags, s_category, s_mask, s_vstart, s_vcount,
               s_radius, vworld, f_category, f_mask, f_sensors, f_exclude, out):
    """Rows containing the point (closed); returns how many were written."""
    stack = np.empty(depth + 2, dtype=np.int64)
    cand = np.empty(leaf_item.shape[0], dtype=np.int64)
    nc = query_box(node_box, node_right, node_first, node_count, leaf_box, leaf_item,
                   n_nodes, px, py, px, py, stack, cand)
    count = 0
    for c in range(nc):
        row = cand[c]
        if passes(row, s_body, s_flags, s_category, s_mask, f_category, f_mask, f_sensors,
                  f_exclude) and point_in_shape(px, py, vworld, s_vstart[row], s_vcount[row],
                                                s_radius[row]):
            out[count] = row
            count += 1
    return count


@njit
def points_batch(points, node_box, node_right, node_first, node_count, leaf_box, leaf_item,
                 n_nodes, depth, s_body, s_owner, s_flags, s_category, s_mask, s_vstart,
                 s_vcount, s_radius, vworld, b_order, f_category, f_mask, f_sensors,
                 f_exclude, hit, body, shape):
    """For each point, the containing Shape with the lowest id (and its body), or -1."""
    stack = np.empty(depth + 2, dtype=np.int64)
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
            if (node_box[i, 0] > px or node_box[i, 2] < px or node_box[i, 1] > py
                    or node_box[i, 3] < py):
                continue
            if node_right[i] >= 0:
                stack[top] = node_right[i]
                stack[top + 1] = i + 1
                top += 2
                continue
            f0 = node_first[i]
            f1 = f0 + node_count[i]
            n_in = 0
            for j in range(f0, f1):
                n_in += ((leaf_box[0, j] <= px) & (leaf_box[2, j] >= px)
                         & (leaf_box[1, j] <= py) & (leaf_box[3, j] >= py))
            if n_in == 0:
                continue
            for j in range(f0, f1):
                if (leaf_box[0, j] > px or leaf_box[2, j] < px or leaf_box[1, j] > py
                        or leaf_box[3, j] < py):
                    continue
                row = leaf_item[j]
                own = s_owner[row]
                if best >= 0 and own >= best:
                    continue
                if passes(row, s_body, s_flags, s_category, s_mask, f_category, f_mask,
                          f_sensors, f_exclude) and point_in_shape(
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


@njit
def _part_box(qverts, off, n, wx, wy):
    """Box of a part and of its translate by w."""
    lox = math.inf
    loy = math.inf
    hix = -math.inf
    hiy = -math.inf
    for v in range(off, off + n):
        lox = min(lox, qverts[v, 0], qverts[v, 0] + wx)
        loy = min(loy, qverts[v, 1], qverts[v, 1] + wy)
        hix = max(hix, qverts[v, 0], qverts[v, 0] + wx)
        hiy = max(hiy, qverts[v, 1], qverts[v, 1] + wy)
    return lox, loy, hix, hiy


@njit
def shape_overlaps(qverts, qoff, qcount, qradius, node_box, node_right, node_first,
                   node_count, leaf_box, leaf_item, n_nodes, depth, s_body, s_flags,
                   s_category, s_mask, s_vstart, s_vcount, s_radius, vworld, f_category,
                   f_mask, f_sensors, f_exclude, rows, dists, normals):
    """Rows touching or overlapping any query part (parts: ``qverts[qoff[p]:+qcount[p]]``,
    world frame, rounded by ``qradius``). For each such row, the signed distance of the
    deepest part pair (<= 0) and the unit normal that pushes the query part out of the row.
    Returns how many rows were written (one entry per row)."""
    stack = np.empty(depth + 2, dtype=np.int64)
    cand = np.empty(leaf_item.shape[0], dtype=np.int64)
    count = 0
    for p in range(qoff.shape[0]):
        off = qoff[p]
        n = qcount[p]
        lox, loy, hix, hiy = _part_box(qverts, off, n, 0.0, 0.0)
        nc = query_box(node_box, node_right, node_first, node_count, leaf_box, leaf_item,
                       n_nodes, lox - qradius, loy - qradius, hix + qradius, hiy + qradius,
                       stack, cand)
        for c in range(nc):
            row = cand[c]
            if not passes(row, s_body, s_flags, s_category, s_mask, f_category, f_mask,
                          f_sensors, f_exclude):
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


@njit
def shape_cast(qverts, qoff, qcount, qradius, wx, wy, node_box, node_right, node_first,
               node_count, leaf_box, leaf_item, n_nodes, depth, s_body, s_flags, s_category,
               s_mask, s_vstart, s_vcount, s_radius, vworld, f_category, f_mask, f_sensors,
               f_exclude):
    """First row touched by the query parts moving by (wx, wy) over fraction [0, 1], by the
    swept separating-axis test. Returns (row, time, push_x, push_y, depth, point_x,
    point_y): ``push`` moves the query shape away from the row, ``depth`` > 0 only when they
    already overlap at time 0, ``point`` is the row's surface point nearest the query shape
    at the time of impact. row -1: nothing in the way."""
    stack = np.empty(depth + 2, dtype=np.int64)
    cand = np.empty(leaf_item.shape[0], dtype=np.int64)
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
        nc = query_box(node_box, node_right, node_first, node_count, leaf_box, leaf_item,
                       n_nodes, lox - qradius, loy - qradius, hix + qradius, hiy + qradius,
                       stack, cand)
        for c in range(nc):
            row = cand[c]
            if not passes(row, s_body, s_flags, s_category, s_mask, f_category, f_mask,
                          f_sensors, f_exclude):
                continue
            hit, t, px, py, dep = sweep_pair(qverts, off, n, qradius, vworld, s_vstart[row],
                                             s_vcount[row], s_radius[row], wx, wy, 1.0)
            if not hit:
                continue
            if t < best or (t == best and (dep > bdepth or (dep == bdepth and row < brow))):
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
