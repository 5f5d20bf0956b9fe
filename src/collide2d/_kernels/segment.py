"""Segments against segments, polygons and circles: crossings, containment and clipping.

Shapes follow the package convention ``(verts, off, n, radius)``: vertices ``verts[off:off+n]``
counter-clockwise, rounded by ``radius``. A CCW edge i runs from vertex i to i+1 and its
outward normal is the edge direction turned clockwise, (ey, -ex) / |e|.
Every function returns plain tuples; "no hit" is a fraction of ``inf`` (or a False flag).
"""

import math

from .._jit import njit

# sin(angle) below which two directions count as parallel; also the relative distance below
# which a point counts as lying on a line.
PARALLEL_EPS = 1e-12


@njit(_nrt=False, entry=True)
def segment_segment(ax, ay, bx, by, cx, cy, dx, dy):
    """Intersection of closed segments a->b and c->d: (hit, t, u), point = a + t(b-a).

    Parallel, non-collinear segments never hit; collinear overlapping ones report the
    overlap's first point along a->b; a zero-length segment acts as a point.
    """
    rx = bx - ax
    ry = by - ay
    sx = dx - cx
    sy = dy - cy
    qx = cx - ax
    qy = cy - ay
    rr = rx * rx + ry * ry
    ss = sx * sx + sy * sy
    if rr == 0.0 and ss == 0.0:
        if qx == 0.0 and qy == 0.0:
            return True, 0.0, 0.0
        return False, math.nan, math.nan
    if rr == 0.0:
        # a is a point: does it lie on c->d?
        cross = qx * sy - qy * sx
        if abs(cross) > PARALLEL_EPS * ss:
            return False, math.nan, math.nan
        u = -(qx * sx + qy * sy) / ss
        if u < 0.0 or u > 1.0:
            return False, math.nan, math.nan
        return True, 0.0, u
    if ss == 0.0:
        cross = qx * ry - qy * rx
        if abs(cross) > PARALLEL_EPS * rr:
            return False, math.nan, math.nan
        t = (qx * rx + qy * ry) / rr
        if t < 0.0 or t > 1.0:
            return False, math.nan, math.nan
        return True, t, 0.0
    denom = rx * sy - ry * sx
    if abs(denom) <= PARALLEL_EPS * math.sqrt(rr * ss):
        # Parallel: only collinear segments can meet.
        cross = qx * ry - qy * rx
        if abs(cross) > PARALLEL_EPS * rr * (1.0 + math.sqrt((qx * qx + qy * qy) / rr)):
            return False, math.nan, math.nan
        t0 = (qx * rx + qy * ry) / rr
        t1 = t0 + (sx * rx + sy * ry) / rr
        lo = min(t0, t1)
        hi = max(t0, t1)
        start = max(lo, 0.0)
        if start > min(hi, 1.0):
            return False, math.nan, math.nan
        px = ax + start * rx - cx
        py = ay + start * ry - cy
        u = (px * sx + py * sy) / ss
        return True, start, min(max(u, 0.0), 1.0)
    t = (qx * sy - qy * sx) / denom
    u = (qx * ry - qy * rx) / denom
    if t < 0.0 or t > 1.0 or u < 0.0 or u > 1.0:
        return False, math.nan, math.nan
    return True, t, u


@njit(_nrt=False, entry=True)
def point_in_polygon(px, py, verts, off, n):
    """Even-odd crossing test (Haines' crossings test): concave and self-intersecting too."""
    inside = False
    j = off + n - 1
    for i in range(off, off + n):
        xi = verts[i, 0]
        yi = verts[i, 1]
        xj = verts[j, 0]
        yj = verts[j, 1]
        if (yi > py) != (yj > py):
            x_cross = xi + (py - yi) * (xj - xi) / (yj - yi)
            if px < x_cross:
                inside = not inside
        j = i
    return inside


@njit(_nrt=False)
def point_in_shape(px, py, verts, off, n, radius):
    """Closed containment for a convex shape rounded by ``radius`` (circles, capsules too)."""
    if n >= 3:
        # Inside the core polygon?
        inside = True
        for i in range(n):
            j = i + 1 if i + 1 < n else 0
            ex = verts[off + j, 0] - verts[off + i, 0]
            ey = verts[off + j, 1] - verts[off + i, 1]
            if ex * (py - verts[off + i, 1]) - ey * (px - verts[off + i, 0]) < 0.0:
                inside = False
                break
        if inside:
            return True
        if radius == 0.0:
            return False
    r2 = radius * radius
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        d2 = point_segment_dist2(px, py, verts[off + i, 0], verts[off + i, 1],
                                 verts[off + j, 0], verts[off + j, 1])
        if d2 <= r2:
            return True
    return False


@njit(_nrt=False)
def point_segment_dist2(px, py, ax, ay, bx, by):
    """Squared distance from p to the closed segment a-b."""
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    t = 0.0
    if ee > 0.0:
        t = ((px - ax) * ex + (py - ay) * ey) / ee
        t = min(max(t, 0.0), 1.0)
    dx = px - (ax + t * ex)
    dy = py - (ay + t * ey)
    return dx * dx + dy * dy


@njit(_nrt=False)
def _ray_circle(ax, ay, rx, ry, cx, cy, radius):
    """Both roots t1 <= t2 of |a + t r - c| = radius (NaN, NaN when the line misses)."""
    fx = ax - cx
    fy = ay - cy
    qa = rx * rx + ry * ry
    if qa == 0.0:
        return math.nan, math.nan
    qb = fx * rx + fy * ry
    qc = fx * fx + fy * fy - radius * radius
    disc = qb * qb - qa * qc
    if disc < 0.0:
        return math.nan, math.nan
    sq = math.sqrt(disc)
    # Numerically stable pair of roots.
    if qb > 0.0:
        q = -(qb + sq)
    else:
        q = -qb + sq
    if q == 0.0:
        return 0.0, 0.0
    t1 = q / qa
    t2 = qc / q
    if t1 > t2:
        t1, t2 = t2, t1
    return t1, t2


@njit(_nrt=False, entry=True)
def raycast_shape(ax, ay, bx, by, verts, off, n, radius):
    """First crossing of the shape's boundary along a->b: (fraction, nx, ny, edge).

    ``fraction`` is ``inf`` when the closed segment never meets the boundary. The normal is the
    unit outward normal at the crossing; ``edge`` is the crossed edge, -1 on a rounded cap or
    circle. For n >= 3 with radius 0 this works for concave outlines too.
    """
    rx = bx - ax
    ry = by - ay
    best = math.inf
    bnx = 0.0
    bny = 0.0
    bedge = -1
    if n >= 2:
        for i in range(n):
            j = i + 1 if i + 1 < n else 0
            if n == 2 and i == 1 and radius == 0.0:
                break  # a bare segment has one edge, not two
            ex = verts[off + j, 0] - verts[off + i, 0]
            ey = verts[off + j, 1] - verts[off + i, 1]
            el = math.sqrt(ex * ex + ey * ey)
            if el == 0.0:
                continue
            nx = ey / el
            ny = -ex / el
            cx = verts[off + i, 0] + radius * nx
            cy = verts[off + i, 1] + radius * ny
            hit, t, u = segment_segment(ax, ay, bx, by, cx, cy, cx + ex, cy + ey)
            if hit and t < best:
                best = t
                bedge = i
                if n == 2 and radius == 0.0 and nx * rx + ny * ry > 0.0:
                    nx = -nx  # a bare segment faces the ray
                    ny = -ny
                bnx = nx
                bny = ny
    if radius > 0.0:
        for i in range(n):
            cx = verts[off + i, 0]
            cy = verts[off + i, 1]
            t1, t2 = _ray_circle(ax, ay, rx, ry, cx, cy, radius)
            if math.isnan(t1):
                continue
            for k in range(2):
                t = t1 if k == 0 else t2
                if t < 0.0 or t > 1.0 or t >= best:
                    continue
                hx = ax + t * rx - cx
                hy = ay + t * ry - cy
                if n >= 2 and not _on_cap(verts, off, n, i, hx, hy):
                    continue
                best = t
                bedge = -1
                bnx = hx / radius
                bny = hy / radius
    return best, bnx, bny, bedge


@njit(_nrt=False)
def _on_cap(verts, off, n, i, dx, dy):
    """Is direction d from vertex i inside the cone of outward normals between its edges?"""
    h = i - 1 if i > 0 else n - 1
    j = i + 1 if i + 1 < n else 0
    px = verts[off + i, 0] - verts[off + h, 0]
    py = verts[off + i, 1] - verts[off + h, 1]
    qx = verts[off + j, 0] - verts[off + i, 0]
    qy = verts[off + j, 1] - verts[off + i, 1]
    # Outward normals of the previous and next edges: (ey, -ex).
    n0x = py
    n0y = -px
    n1x = qy
    n1y = -qx
    return n0x * dy - n0y * dx >= 0.0 and dx * n1y - dy * n1x >= 0.0


@njit(_nrt=False, entry=True)
def clip_segment(ax, ay, bx, by, verts, off, n, radius):
    """The closed part of a->b inside a convex polygon (radius 0) or a circle (n == 1).

    Returns (hit, t_enter, t_exit, nx_enter, ny_enter, nx_exit, ny_exit); a normal is zero
    where that end of the segment is already inside.
    """
    rx = bx - ax
    ry = by - ay
    if n == 1:
        cx = verts[off, 0]
        cy = verts[off, 1]
        if rx == 0.0 and ry == 0.0:
            inside = (ax - cx) ** 2 + (ay - cy) ** 2 <= radius * radius
            return inside, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0
        t1, t2 = _ray_circle(ax, ay, rx, ry, cx, cy, radius)
        if math.isnan(t1) or t2 < 0.0 or t1 > 1.0:
            return False, math.nan, math.nan, 0.0, 0.0, 0.0, 0.0
        n0x = 0.0
        n0y = 0.0
        n1x = 0.0
        n1y = 0.0
        if t1 > 0.0:
            n0x = (ax + t1 * rx - cx) / radius
            n0y = (ay + t1 * ry - cy) / radius
        else:
            t1 = 0.0
        if t2 < 1.0:
            n1x = (ax + t2 * rx - cx) / radius
            n1y = (ay + t2 * ry - cy) / radius
        else:
            t2 = 1.0
        return True, t1, t2, n0x, n0y, n1x, n1y
    # Cyrus-Beck against each edge's half-plane.
    t0 = 0.0
    t1 = 1.0
    n0x = 0.0
    n0y = 0.0
    n1x = 0.0
    n1y = 0.0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        ex = verts[off + j, 0] - verts[off + i, 0]
        ey = verts[off + j, 1] - verts[off + i, 1]
        el = math.sqrt(ex * ex + ey * ey)
        if el == 0.0:
            continue
        mx = ey / el
        my = -ex / el
        num = mx * (verts[off + i, 0] - ax) + my * (verts[off + i, 1] - ay)
        den = mx * rx + my * ry
        if den == 0.0:
            if num < 0.0:
                return False, math.nan, math.nan, 0.0, 0.0, 0.0, 0.0
            continue
        t = num / den
        if den < 0.0:
            if t > t0:
                t0 = t
                n0x = mx
                n0y = my
        elif t < t1:
            t1 = t
            n1x = mx
            n1y = my
        if t0 > t1:
            return False, math.nan, math.nan, 0.0, 0.0, 0.0, 0.0
    return True, t0, t1, n0x, n0y, n1x, n1y


@njit(_nrt=False, entry=True)
def segment_intersection_batch(a, b, c, d, hit, point, t_out, u_out):
    """Row-wise :func:`segment_segment` over (N, 2) arrays."""
    for k in range(a.shape[0]):
        h, t, u = segment_segment(a[k, 0], a[k, 1], b[k, 0], b[k, 1],
                                  c[k, 0], c[k, 1], d[k, 0], d[k, 1])
        hit[k] = h
        t_out[k] = t
        u_out[k] = u
        point[k, 0] = a[k, 0] + t * (b[k, 0] - a[k, 0])
        point[k, 1] = a[k, 1] + t * (b[k, 1] - a[k, 1])


@njit(_nrt=False, entry=True)
def points_in_polygon_batch(pts, verts, off, n, out):
    for k in range(pts.shape[0]):
        out[k] = point_in_polygon(pts[k, 0], pts[k, 1], verts, off, n)


@njit(_nrt=False, entry=True)
def clip_segment_batch(starts, ends, verts, off, n, radius, hit, t_in, t_out, n_in, n_out):
    for k in range(starts.shape[0]):
        h, t0, t1, ax, ay, bx, by = clip_segment(starts[k, 0], starts[k, 1], ends[k, 0],
                                                 ends[k, 1], verts, off, n, radius)
        hit[k] = h
        t_in[k] = t0
        t_out[k] = t1
        n_in[k, 0] = ax
        n_in[k, 1] = ay
        n_out[k, 0] = bx
        n_out[k, 1] = by


@njit(_nrt=False, entry=True)
def segment_pool_first(starts, ends, verts, offs, counts, radii, aabbs,
                       hit, shape, fraction, point, normal, edge):
    """First boundary crossing of each segment over every shape of a pool (brute force with
    a bounding-box reject; the world's queries use its broadphase tree instead)."""
    for k in range(starts.shape[0]):
        ax = starts[k, 0]
        ay = starts[k, 1]
        bx = ends[k, 0]
        by = ends[k, 1]
        lox = min(ax, bx)
        hix = max(ax, bx)
        loy = min(ay, by)
        hiy = max(ay, by)
        best = math.inf
        bs = -1
        bnx = 0.0
        bny = 0.0
        be = -1
        for s in range(offs.shape[0]):
            if aabbs[s, 0] > hix or aabbs[s, 2] < lox or aabbs[s, 1] > hiy or aabbs[s, 3] < loy:
                continue
            t, nx, ny, e = raycast_shape(ax, ay, bx, by, verts, offs[s], counts[s], radii[s])
            if t < best:
                best = t
                bs = s
                bnx = nx
                bny = ny
                be = e
        if bs >= 0:
            hit[k] = True
            shape[k] = bs
            fraction[k] = best
            point[k, 0] = ax + best * (bx - ax)
            point[k, 1] = ay + best * (by - ay)
            normal[k, 0] = bnx
            normal[k, 1] = bny
            edge[k] = be
        else:
            hit[k] = False
            shape[k] = -1
            fraction[k] = math.nan
            point[k, 0] = math.nan
            point[k, 1] = math.nan
            normal[k, 0] = math.nan
            normal[k, 1] = math.nan
            edge[k] = -1
