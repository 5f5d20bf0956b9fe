"""Separating axes between convex shapes: overlap, penetration (MTD), distance, contacts.

Shapes are ``(verts, off, n, radius)`` in one frame (the caller transforms to world space):
n >= 3 a convex CCW polygon, n == 2 a segment (capsule when rounded), n == 1 a circle centre.

A shape's *axes* are its face normals; a segment has four: its two faces and, so that the
degenerate Minkowski difference of a segment is handled exactly, its two end directions.
Over these axes the largest separation equals the signed distance between the cores whenever
the cores overlap (in 2D the Minkowski difference's faces are exactly the two shapes' faces);
when they are apart the exact distance comes from closest points between edges.

Sign convention inside the kernels: ``n_ab`` points from A towards B. The public API speaks
of the normal that pushes A away from B, which is ``-n_ab``.
"""

import math

import numpy as np

from .._jit import njit

# Every division here is guarded (zero-length edges, empty spans and coincident points are
# tested first). error_model="numpy" on the small helpers tells Numba they cannot raise
# ZeroDivisionError, so LLVM inlines them whole and the caller's reference counts can be
# pruned (see _keep_alive).

CLIP_ID = 1 << 40  # clipped points; a closest-feature point has id 0
# B's face becomes the reference only when it separates more than A's by this much (m):
# with equal separations (boxes side by side) the choice must not flicker from step to step,
# or feature ids change and warm starting is lost (Box2D uses 0.1 * linear slop).
FLIP_TOL = 0.0005


@njit(_nrt=False)
def axis_count(n):
    if n >= 3:
        return n
    if n == 2:
        return 4
    return 0


@njit(error_model="numpy", _nrt=False)
def _polygon_normal(verts, off, n, k):
    """Outward unit normal of polygon face k, (0, 0) for a zero-length edge. Every path
    (shape_axis, vertex_normals) uses this formula, so cached normals are bit-identical."""
    i = off + k
    j = off + k + 1 if k + 1 < n else off
    ex = verts[j, 0] - verts[i, 0]
    ey = verts[j, 1] - verts[i, 1]
    el = math.sqrt(ex * ex + ey * ey)
    if el == 0.0:
        return 0.0, 0.0
    return ey / el, -ex / el


@njit(error_model="numpy", _nrt=True)
def vertex_normals(verts, vstart, vcount, n_shapes, out):
    """Face normals of the polygons (n >= 3) among the first n_shapes shapes of a vertex pool,
    bit for bit as shape_axis gives them: ``out[r]`` is the normal of the face that
    starts at vertex row r. Rows of other shapes get meaningless values. (It allocates its
    columns; ``vertex_normals_into`` takes them.)"""
    nv = verts.shape[0]
    vertex_normals_into(verts, vstart, vcount, n_shapes, out, np.empty(nv), np.empty(nv),
                        np.empty(nv), np.empty(nv))


@njit(error_model="numpy", _nrt=False)
def vertex_normals_into(verts, vstart, vcount, n_shapes, out, ex, ey, nx, ny):
    """``vertex_normals`` with its columns given (edge and normal x and y, each at least
    as long as the pool's rows in use).

    One loop over all rows rather than one per shape: it has no branches, so LLVM vectorises
    it, and a normal (a square root and two divisions) then takes a fraction of the time.
    """
    nv = 0
    for s in range(n_shapes):
        nv = max(nv, vstart[s] + vcount[s])
    for r in range(nv - 1):
        ex[r] = verts[r + 1, 0] - verts[r, 0]
        ey[r] = verts[r + 1, 1] - verts[r, 1]
    for s in range(n_shapes):
        if vcount[s] >= 3:
            # the closing edge, from the last vertex back to the first
            i = vstart[s] + vcount[s] - 1
            j = vstart[s]
            ex[i] = verts[j, 0] - verts[i, 0]
            ey[i] = verts[j, 1] - verts[i, 1]
    _unit_normals(ex[:nv], ey[:nv], nx[:nv], ny[:nv])
    for r in range(nv):
        out[r, 0] = nx[r]
        out[r, 1] = ny[r]


@njit(error_model="numpy", _nrt=False)
def _unit_normals(ex, ey, nx, ny):
    """Unit normals (ey, -ex) / |e| of the edge vectors e, (0, 0) for a zero edge:
    _polygon_normal's formula, bit for bit, over flat arrays so that LLVM vectorises the loop
    (a normal costs one square root and two divisions; packed, a fraction of the time)."""
    for r in range(ex.shape[0]):
        x = ex[r]
        y = ey[r]
        el = math.sqrt(x * x + y * y)
        nz = el != 0.0
        nx[r] = y / el if nz else 0.0
        ny[r] = -x / el if nz else 0.0


@njit(_nrt=False)
def shape_axis(verts, off, n, k):
    """Axis k of a shape: (mx, my, px, py, is_face); m outward unit, p a vertex on the
    supporting line (p maximises m . x over the shape). A zero m means a degenerate edge."""
    if n >= 3:
        mx, my = _polygon_normal(verts, off, n, k)
        return mx, my, verts[off + k, 0], verts[off + k, 1], True
    return _segment_axis(verts[off, 0], verts[off, 1], verts[off + 1, 0], verts[off + 1, 1], k)


@njit(error_model="numpy", _nrt=False)
def _segment_axis(x0, y0, x1, y1, k):
    """shape_axis of segment (x0, y0)-(x1, y1)."""
    ex = x1 - x0
    ey = y1 - y0
    el = math.sqrt(ex * ex + ey * ey)
    if el == 0.0:
        return 0.0, 0.0, x0, y0, False
    ex /= el
    ey /= el
    if k == 0:
        return ey, -ex, x0, y0, True
    if k == 1:
        return -ey, ex, x1, y1, True
    if k == 2:
        return ex, ey, x1, y1, False
    return -ex, -ey, x0, y0, False


@njit(_nrt=False)
def max_separation(va, offa, na, vb, offb, nb, dx, dy):
    """Largest separation of B from A over A's axes, with A translated by (dx, dy).

    Returns (sep, k, mx, my, ib): axis k of A (outward m, pointing from A to B) and the index
    (relative to offb) of B's deepest vertex along -m. sep = -inf when A has no axes.
    """
    best = -math.inf
    bk = -1
    bmx = 0.0
    bmy = 0.0
    bib = 0
    for k in range(axis_count(na)):
        # shape_axis's two cases from its small helpers: shape_axis itself is too big for
        # LLVM to inline, and the call would keep this kernel's reference counts
        # (see _keep_alive), a real cost in every shape_distance
        if na >= 3:
            mx, my = _polygon_normal(va, offa, na, k)
            px = va[offa + k, 0]
            py = va[offa + k, 1]
        else:
            mx, my, px, py, _ = _segment_axis(va[offa, 0], va[offa, 1], va[offa + 1, 0],
                                              va[offa + 1, 1], k)
        if mx == 0.0 and my == 0.0:
            continue
        px += dx
        py += dy
        smin = math.inf
        imin = 0
        for i in range(nb):
            s = mx * (vb[offb + i, 0] - px) + my * (vb[offb + i, 1] - py)
            if s < smin:
                smin = s
                imin = i
        if smin > best:
            best = smin
            bk = k
            bmx = mx
            bmy = my
            bib = imin
    _keep_alive(va, vb)
    return best, bk, bmx, bmy, bib


@njit(inline="always")
def _polygon_separation(va, offa, na, nrma, noffa, vb, offb, nb):
    """max_separation(va, offa, na, vb, offb, nb, 0, 0)[:4] for a polygon A whose face
    normals are given (``nrma[noffa + k]``, from vertex_normals)."""
    best = -math.inf
    bk = -1
    bmx = 0.0
    bmy = 0.0
    last = na - 1
    for k0 in range(0, na, 2):
        k1 = min(k0 + 1, last)
        mx0 = nrma[noffa + k0, 0]
        my0 = nrma[noffa + k0, 1]
        mx1 = nrma[noffa + k1, 0]
        my1 = nrma[noffa + k1, 1]
        px0 = va[offa + k0, 0]
        py0 = va[offa + k0, 1]
        px1 = va[offa + k1, 0]
        py1 = va[offa + k1, 1]
        s0 = math.inf
        s1 = math.inf
        for i in range(nb):
            vx = vb[offb + i, 0]
            vy = vb[offb + i, 1]
            t0 = mx0 * (vx - px0) + my0 * (vy - py0)
            t1 = mx1 * (vx - px1) + my1 * (vy - py1)
            s0 = t0 if t0 < s0 else s0
            s1 = t1 if t1 < s1 else s1
        upd = s0 > best and (mx0 != 0.0 or my0 != 0.0)
        best = s0 if upd else best
        bk = k0 if upd else bk
        bmx = mx0 if upd else bmx
        bmy = my0 if upd else bmy
        upd = s1 > best and (mx1 != 0.0 or my1 != 0.0)
        best = s1 if upd else best
        bk = k1 if upd else bk
        bmx = mx1 if upd else bmx
        bmy = my1 if upd else bmy
    return best, bk, bmx, bmy


@njit(_nrt=False)
def closest_segment_segment(p1x, p1y, q1x, q1y, p2x, p2y, q2x, q2y):
    """Closest points between segments p1-q1 and p2-q2 (either may be a point).

    Returns (dist2, c1x, c1y, c2x, c2y). After Ericson, Real-Time Collision Detection 5.1.9.
    """
    d1x = q1x - p1x
    d1y = q1y - p1y
    d2x = q2x - p2x
    d2y = q2y - p2y
    rx = p1x - p2x
    ry = p1y - p2y
    a = d1x * d1x + d1y * d1y
    e = d2x * d2x + d2y * d2y
    f = d2x * rx + d2y * ry
    if a == 0.0 and e == 0.0:
        s = 0.0
        t = 0.0
    elif a == 0.0:
        s = 0.0
        t = min(max(f / e, 0.0), 1.0)
    else:
        c = d1x * rx + d1y * ry
        if e == 0.0:
            t = 0.0
            s = min(max(-c / a, 0.0), 1.0)
        else:
            b = d1x * d2x + d1y * d2y
            denom = a * e - b * b
            s = 0.0
            if denom > 0.0:
                s = min(max((b * f - c * e) / denom, 0.0), 1.0)
            t = (b * s + f) / e
            if t < 0.0:
                t = 0.0
                s = min(max(-c / a, 0.0), 1.0)
            elif t > 1.0:
                t = 1.0
                s = min(max((b - c) / a, 0.0), 1.0)
    c1x = p1x + d1x * s
    c1y = p1y + d1y * s
    c2x = p2x + d2x * t
    c2y = p2y + d2y * t
    ddx = c2x - c1x
    ddy = c2y - c1y
    return ddx * ddx + ddy * ddy, c1x, c1y, c2x, c2y


@njit(_nrt=False)
def _edge_count(n):
    # A polygon has n edges, a segment one, a point one degenerate "edge".
    return n if n >= 3 else 1


@njit(_nrt=False)
def core_distance(va, offa, na, vb, offb, nb, dx, dy):
    """Exact distance between the cores of two shapes that do not overlap (A moved by d).

    Returns (dist, n_ab_x, n_ab_y, pax, pay, pbx, pby): closest points on each core.
    """
    best = math.inf
    cax = 0.0
    cay = 0.0
    cbx = 0.0
    cby = 0.0
    for i in range(_edge_count(na)):
        i2 = i + 1 if i + 1 < na else 0
        p1x = va[offa + i, 0] + dx
        p1y = va[offa + i, 1] + dy
        q1x = va[offa + i2, 0] + dx
        q1y = va[offa + i2, 1] + dy
        for j in range(_edge_count(nb)):
            j2 = j + 1 if j + 1 < nb else 0
            d2, c1x, c1y, c2x, c2y = closest_segment_segment(
                p1x, p1y, q1x, q1y, vb[offb + j, 0], vb[offb + j, 1], vb[offb + j2, 0],
                vb[offb + j2, 1])
            if d2 < best:
                best = d2
                cax = c1x
                cay = c1y
                cbx = c2x
                cby = c2y
    dist = math.sqrt(best)
    if dist > 0.0:
        return dist, (cbx - cax) / dist, (cby - cay) / dist, cax, cay, cbx, cby
    # Coincident features: direction undefined; by rule A is pushed along +y.
    return 0.0, 0.0, -1.0, cax, cay, cbx, cby


@njit(_nrt=False, entry=True)
def shape_distance(va, offa, na, ra, vb, offb, nb, rb, dx, dy, exact):
    """Signed distance between two rounded convex shapes, A translated by (dx, dy).

    Returns (dist, n_ab_x, n_ab_y, pax, pay, pbx, pby): dist < 0 is penetration depth,
    n_ab points from A to B, pa / pb are witness points on the cores with
    pb - pa = core_dist * n_ab. With ``exact`` False and both radii 0, separated shapes
    report a positive lower bound (enough for overlap tests) without the distance pass.
    """
    sa, ka, max_, may, ib = max_separation(va, offa, na, vb, offb, nb, dx, dy)
    rsum = ra + rb
    if not exact and rsum == 0.0 and sa > 0.0:
        # An overlap test needs one separating axis, not the best one.
        return sa, max_, may, 0.0, 0.0, 0.0, 0.0
    sb, kb, mbx, mby, ia = max_separation(vb, offb, nb, va, offa, na, -dx, -dy)
    has_axes = ka >= 0 or kb >= 0
    best = max(sa, sb)
    if not has_axes or (best > 0.0 and (exact or rsum > 0.0)):
        d, nx, ny, pax, pay, pbx, pby = core_distance(va, offa, na, vb, offb, nb, dx, dy)
        # Cores that only touch (round-off can leave best at +1e-16) have no direction of
        # their own: the best axis gives it, as for overlapping cores.
        if d > 0.0 and has_axes:
            # When the distance is the best face's separation the closest features are that
            # face: its exact normal beats the difference of two nearly equal points.
            scale = abs(pax) + abs(pay) + abs(pbx) + abs(pby)
            if d - best <= 1e-9 * d + 1e-14 * scale:
                if sa >= sb:
                    nx = max_
                    ny = may
                else:
                    nx = -mbx
                    ny = -mby
        if d > 0.0 or not has_axes:
            return d - rsum, nx, ny, pax, pay, pbx, pby
        best = 0.0
        sa = min(sa, 0.0)
        sb = min(sb, 0.0)
    if sa >= sb:
        pbx = vb[offb + ib, 0]
        pby = vb[offb + ib, 1]
        return (sa - rsum, max_, may, pbx - sa * max_, pby - sa * may, pbx, pby)
    pax = va[offa + ia, 0] + dx
    pay = va[offa + ia, 1] + dy
    return (sb - rsum, -mbx, -mby, pax, pay, pax - sb * mbx, pay - sb * mby)


@njit(_nrt=False)
def sweep_sat(va, offa, na, vb, offb, nb, wx, wy, t_max):
    """Swept SAT for two polygons (radius 0), A moving by w per unit time relative to B.

    On each axis the projected intervals overlap during [enter, exit]; the shapes touch first
    at the latest entry if it precedes the earliest exit. Returns (hit, time, push_x, push_y)
    with ``push`` the unit normal that pushes A away from B at that time; time <= 0 means they
    already touch or overlap at the start (the caller measures the depth).
    """
    t_enter = -math.inf
    t_exit = math.inf
    pnx = 0.0
    pny = 0.0
    for side in range(2):
        vs = va if side == 0 else vb
        offs = offa if side == 0 else offb
        ns = na if side == 0 else nb
        for k in range(axis_count(ns)):
            mx, my, _, _, face = shape_axis(vs, offs, ns, k)
            if not face or (mx == 0.0 and my == 0.0):
                continue
            a0 = math.inf
            a1 = -math.inf
            for i in range(na):
                p = mx * va[offa + i, 0] + my * va[offa + i, 1]
                a0 = min(a0, p)
                a1 = max(a1, p)
            b0 = math.inf
            b1 = -math.inf
            for i in range(nb):
                p = mx * vb[offb + i, 0] + my * vb[offb + i, 1]
                b0 = min(b0, p)
                b1 = max(b1, p)
            s = mx * wx + my * wy
            if s == 0.0:
                if a0 > b1 or a1 < b0:
                    return False, math.nan, 0.0, 0.0
                continue
            # A's interval is [a0 + s t, a1 + s t]; it meets [b0, b1] between these times.
            if s > 0.0:
                enter = (b0 - a1) / s
                leave = (b1 - a0) / s
                nx = -mx
                ny = -my
            else:
                enter = (b1 - a0) / s
                leave = (b0 - a1) / s
                nx = mx
                ny = my
            if enter > t_enter:
                t_enter = enter
                pnx = nx
                pny = ny
            if leave < t_exit:
                t_exit = leave
            if t_enter > t_exit or t_exit < 0.0 or t_enter > t_max:
                return False, math.nan, 0.0, 0.0
    return True, t_enter, pnx, pny


@njit(_nrt=False)
def sweep_rounded(va, offa, na, ra, vb, offb, nb, rb, wx, wy, t_max, tol):
    """Time of impact for rounded shapes by conservative advancement with Newton steps.

    The signed distance d(t) between A + w t and B is convex in t (distance to a convex set
    along a line), so Newton steps from t = 0 never pass the first root; each step uses the
    closing speed along the current witness normal. Returns (hit, time, push_x, push_y).
    """
    t = 0.0
    for _ in range(100):
        d, nx, ny, _, _, _, _ = shape_distance(va, offa, na, ra, vb, offb, nb, rb,
                                               wx * t, wy * t, True)
        if d <= tol:
            return True, t, -nx, -ny
        closing = nx * wx + ny * wy
        if closing <= 0.0:
            return False, math.nan, 0.0, 0.0
        t += d / closing
        if t > t_max:
            return False, math.nan, 0.0, 0.0
    return False, math.nan, 0.0, 0.0


@njit(_nrt=False, entry=True)
def sweep_pair(va, offa, na, ra, vb, offb, nb, rb, wx, wy, t_max):
    """Swept test for any two convex shapes: (hit, time, push_x, push_y, depth).

    Separated at the start: the first touching time in [0, t_max] and depth 0. Touching or
    overlapping at the start: time 0 and the penetration depth (0 when merely touching).
    """
    d0, nx0, ny0, _, _, _, _ = shape_distance(va, offa, na, ra, vb, offb, nb, rb, 0.0, 0.0, True)
    if d0 <= 0.0:
        return True, 0.0, -nx0, -ny0, -d0
    if wx == 0.0 and wy == 0.0:
        return False, math.nan, 0.0, 0.0, 0.0
    if ra == 0.0 and rb == 0.0 and na >= 3 and nb >= 3:
        hit, t, px, py = sweep_sat(va, offa, na, vb, offb, nb, wx, wy, t_max)
        if not hit:
            return False, math.nan, 0.0, 0.0, 0.0
        return True, max(t, 0.0), px, py, 0.0
    scale = abs(wx) + abs(wy) + d0
    hit, t, px, py = sweep_rounded(va, offa, na, ra, vb, offb, nb, rb, wx, wy, t_max,
                                   1e-12 * scale)
    return hit, t, px, py, 0.0


@njit(_nrt=False, entry=True)
def collide(va, offa, na, ra, vb, offb, nb, rb, margin, out_pts, out_sep, out_ids):
    """Contact manifold between two convex shapes in one frame.

    Writes up to two contacts: ``out_pts[k]`` the point midway between the surfaces,
    ``out_sep[k]`` its separation (negative = penetration), ``out_ids[k]`` a feature key stable
    while the same features touch (for warm starting). Keeps points with separation <= margin.
    Returns (count, n_ab_x, n_ab_y). Polygons and segments use a reference face and clip the
    incident edge against its side planes (after Box2D); circles and vertex-vertex cases use
    the closest points. The world's narrowphase tries collide_polygons first (same results).
    """
    sa, ka, max_, may, ib = max_separation(va, offa, na, vb, offb, nb, 0.0, 0.0)
    sb, kb, mbx, mby, ia = max_separation(vb, offb, nb, va, offa, na, 0.0, 0.0)
    rsum = ra + rb
    if max(sa, sb) - rsum > margin:
        return 0, 0.0, 0.0
    flip = sb > sa + FLIP_TOL
    use_clip = na >= 2 and nb >= 2
    if use_clip:
        if flip:
            _, _, _, _, face = shape_axis(vb, offb, nb, kb)
        else:
            _, _, _, _, face = shape_axis(va, offa, na, ka)
        use_clip = face
    if use_clip and rsum > 0.0 and max(sa, sb) > 0.0:
        # Rounded shapes with separated cores: clip only if the closest features are face-like.
        d, nx, ny, _, _, _, _ = core_distance(va, offa, na, vb, offb, nb, 0.0, 0.0)
        if d - rsum > margin:
            return 0, 0.0, 0.0
        fx = mbx if flip else max_
        fy = mby if flip else may
        if flip:
            nx = -nx
            ny = -ny
        if nx * fx + ny * fy < 0.999:
            use_clip = False
    if not use_clip:
        return _closest_contact(va, offa, na, ra, vb, offb, nb, rb, margin, out_pts, out_sep,
                                out_ids)
    # Reference shape R (face k, outward m) and incident shape I.
    if flip:
        vr = vb
        offr = offb
        nr = nb
        rr = rb
        kr = kb
        mx = mbx
        my = mby
        vi = va
        offi = offa
        ni = na
        ri = ra
    else:
        vr = va
        offr = offa
        nr = na
        rr = ra
        kr = ka
        mx = max_
        my = may
        vi = vb
        offi = offb
        ni = nb
        ri = rb
    r1, r2 = _face_ends(nr, kr)
    # Incident edge: the face of I most anti-parallel to m.
    best = math.inf
    ki = 0
    for k in range(2 if ni == 2 else ni):
        ex, ey, _, _, _ = shape_axis(vi, offi, ni, k)
        dd = ex * mx + ey * my
        if dd < best:
            best = dd
            ki = k
    i1, i2 = _face_ends(ni, ki)
    c, p0x, p0y, s0, k0, p1x, p1y, s1, k1 = _clip_incident(
        vr[offr + r1, 0], vr[offr + r1, 1], vr[offr + r2, 0], vr[offr + r2, 1], rr, mx, my,
        vi[offi + i1, 0], vi[offi + i1, 1], vi[offi + i2, 0], vi[offi + i2, 1], ri, margin)
    # Ids (A's vertex, B's vertex) whichever shape is the reference: see collide_polygons.
    if flip:
        id0 = CLIP_ID | (i2 << 20) | r1
        id1 = CLIP_ID | (i1 << 20) | r2
    else:
        id0 = CLIP_ID | (r1 << 20) | i2
        id1 = CLIP_ID | (r2 << 20) | i1
    if c < 0:
        # No overlap along the face (or degenerate incident edge): fall back to one point.
        return _closest_contact(va, offa, na, ra, vb, offb, nb, rb, margin, out_pts, out_sep,
                                out_ids)
    count = 0
    if k0:
        out_pts[0, 0] = p0x
        out_pts[0, 1] = p0y
        out_sep[0] = s0
        out_ids[0] = id0
        count = 1
    if k1:
        out_pts[count, 0] = p1x
        out_pts[count, 1] = p1y
        out_sep[count] = s1
        out_ids[count] = id1
        count += 1
    if flip:
        return count, -mx, -my
    return count, mx, my


@njit(inline="always")
def collide_polygons(verts, nrm, offa, na, ra, noffa, offb, nb, rb, noffb, margin,
                     out_pts, out_sep, out_ids):
    """The common case of :func:`collide`: two polygons (n >= 3) with their face normals
    given: the vertices of A are ``verts[offa:offa + na]``, its face k has normal
    ``nrm[noffa + k]`` as vertex_normals writes it; likewise B.

    Returns (count, n_ab_x, n_ab_y) as collide does, bit for bit, or count -1 when the pair
    needs the general path (closest-feature contact, rounded shapes with separated cores, a
    polygon whose edges all have zero length): the caller then calls collide. Each normal is
    computed once per shape instead of once per use, and a pair already separated along A's
    faces skips B's.

    Written for Numba's reference counting (checked in the assembly: no NRT_incref left):
    helpers inlined, outputs written in line, _keep_alive at the one exit. Itself inlined
    into collide_pairs (``inline="always"``): as a call it cost about a tenth of that kernel.
    The reference face, the clip and the output slots are chosen by selects, not branches:
    which shape is the reference and which points survive are coin flips in a pile, and
    mispredicted branches cost more than the arithmetic.
    """
    count = -1
    nx = 0.0
    ny = 0.0
    rsum = ra + rb
    sa, ka, max_, may = _polygon_separation(verts, offa, na, nrm, noffa, verts, offb, nb)
    if sa - rsum > margin:
        count = 0
    else:
        sb, kb, mbx, mby = _polygon_separation(verts, offb, nb, nrm, noffb, verts, offa, na)
        if sb - rsum > margin:
            count = 0
        elif ka >= 0 and kb >= 0 and (rsum == 0.0 or max(sa, sb) <= 0.0):
            # Reference face: A's unless B's separates more by FLIP_TOL. Feature ids name
            # (A's vertex, B's vertex) nearest each point, whichever shape is the reference:
            # a stack's parallel faces swap reference with tiny motions, and the ids must
            # survive that or the contact loses its warm start (Box2D v3 does the same).
            flip = sb > sa + FLIP_TOL
            offr = offb if flip else offa
            nr = nb if flip else na
            kr = kb if flip else ka
            rr = rb if flip else ra
            mx = mbx if flip else max_
            my = mby if flip else may
            offi = offa if flip else offb
            noffi = noffa if flip else noffb
            ni = na if flip else nb
            ri = ra if flip else rb
            ki = _incident_face(nrm, noffi, ni, mx, my)
            kr2 = kr + 1 if kr + 1 < nr else 0
            ki2 = ki + 1 if ki + 1 < ni else 0
            c, p0x, p0y, s0, k0, p1x, p1y, s1, k1 = _clip_incident(
                verts[offr + kr, 0], verts[offr + kr, 1], verts[offr + kr2, 0],
                verts[offr + kr2, 1], rr, mx, my, verts[offi + ki, 0], verts[offi + ki, 1],
                verts[offi + ki2, 0], verts[offi + ki2, 1], ri, margin)
            if c == 0:
                # Point 0 ends at the reference face's vertex kr and the incident face's
                # ki2, point 1 at kr2 and ki; ids put A's vertex first.
                ia0 = ki2 if flip else kr
                ib0 = kr if flip else ki2
                ia1 = ki if flip else kr2
                ib1 = kr2 if flip else ki
                # Slot 0 takes point 0, then slot k0 point 1: a dropped point is overwritten
                # or left past count (written in line: a helper call would keep the counts).
                out_pts[0, 0] = p0x
                out_pts[0, 1] = p0y
                out_sep[0] = s0
                out_ids[0] = CLIP_ID | (ia0 << 20) | ib0
                out_pts[k0, 0] = p1x
                out_pts[k0, 1] = p1y
                out_sep[k0] = s1
                out_ids[k0] = CLIP_ID | (ia1 << 20) | ib1
                count = k0 + k1
                nx = -mx if flip else mx
                ny = -my if flip else my
    _keep_alive(verts, nrm, out_pts, out_sep, out_ids)
    return count, nx, ny


@njit(error_model="numpy", _nrt=False)
def collide_segments(a0x, a0y, a1x, a1y, ra, b0x, b0y, b1x, b1y, rb, margin):
    """:func:`collide` for two segments (capsules when rounded) a0-a1 and b0-b1, bit for
    bit, on scalars: each segment's unit direction is found once rather than once per axis
    and pass (collide normalises a segment's edge sixteen times on the closest-point path),
    and its separations and core distance serve both of collide's paths.

    Returns (count, n_ab_x, n_ab_y, p0x, p0y, sep0, id0, p1x, p1y, sep1, id1) with the
    points as collide writes them to slots 0 and 1, or count -1 for a zero-length segment
    (collide's axis-less case: the caller calls collide).

    Cores farther apart than the radii plus the margin (plus round-off) answer 0 at once,
    as ``narrowphase._cores_apart`` decides for other circles and segments: the core
    distance found for that test is the one collide's paths use."""
    zero = (0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0)
    d2, c1x, c1y, c2x, c2y = closest_segment_segment(a0x + 0.0, a0y + 0.0, a1x + 0.0,
                                                     a1y + 0.0, b0x, b0y, b1x, b1y)
    scale = abs(a0x) + abs(a0y) + abs(b0x) + abs(b0y)
    gap = ra + rb + margin + 1e-9 * (1.0 + scale)
    if d2 > gap * gap:
        return zero
    none = (-1, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0)
    eax = a1x - a0x
    eay = a1y - a0y
    ela = math.sqrt(eax * eax + eay * eay)
    ebx = b1x - b0x
    eby = b1y - b0y
    elb = math.sqrt(ebx * ebx + eby * eby)
    if ela == 0.0 or elb == 0.0:
        return none
    uax = eax / ela
    uay = eay / ela
    ubx = ebx / elb
    uby = eby / elb
    # collide's two max_separation calls (offsets 0.0)
    sa, ka, max_, may, ib = _segment_separation(uax, uay, a0x, a0y, a1x, a1y, b0x, b0y, b1x,
                                                b1y, 0.0, 0.0)
    sb, kb, mbx, mby, ia = _segment_separation(ubx, uby, b0x, b0y, b1x, b1y, a0x, a0y, a1x,
                                               a1y, 0.0, 0.0)
    rsum = ra + rb
    if max(sa, sb) - rsum > margin:
        return zero
    flip = sb > sa + FLIP_TOL
    kr = kb if flip else ka
    use_clip = kr == 0 or kr == 1  # a face axis, not an end direction
    have_core = False
    d = 0.0
    dnx = 0.0
    dny = 0.0
    cax = 0.0
    cay = 0.0
    cbx = 0.0
    cby = 0.0
    if use_clip and rsum > 0.0 and max(sa, sb) > 0.0:
        d, dnx, dny, cax, cay, cbx, cby = _segment_core(d2, c1x, c1y, c2x, c2y)
        have_core = True
        if d - rsum > margin:
            return zero
        fx = mbx if flip else max_
        fy = mby if flip else may
        nx = -dnx if flip else dnx
        ny = -dny if flip else dny
        if nx * fx + ny * fy < 0.999:
            use_clip = False
    if use_clip:
        mx = mbx if flip else max_
        my = mby if flip else may
        rr = rb if flip else ra
        ri = ra if flip else rb
        # the reference face's ends (_face_ends: face 1 runs back from vertex 1 to 0)
        r0x = (b0x if flip else a0x) if kr == 0 else (b1x if flip else a1x)
        r0y = (b0y if flip else a0y) if kr == 0 else (b1y if flip else a1y)
        r1x = (b1x if flip else a1x) if kr == 0 else (b0x if flip else a0x)
        r1y = (b1y if flip else a1y) if kr == 0 else (b0y if flip else a0y)
        r1 = 0 if kr == 0 else 1
        r2 = 1 - r1
        # the incident face: of I's two faces, the one most anti-parallel to m
        uix = uax if flip else ubx
        uiy = uay if flip else uby
        ki = 0
        best = math.inf
        dd = uiy * mx + (-uix) * my
        if dd < best:
            best = dd
            ki = 0
        dd = (-uiy) * mx + uix * my
        if dd < best:
            ki = 1
        i1 = 0 if ki == 0 else 1
        i2 = 1 - i1
        i0x = (a0x if flip else b0x) if ki == 0 else (a1x if flip else b1x)
        i0y = (a0y if flip else b0y) if ki == 0 else (a1y if flip else b1y)
        i1x = (a1x if flip else b1x) if ki == 0 else (a0x if flip else b0x)
        i1y = (a1y if flip else b1y) if ki == 0 else (a0y if flip else b0y)
        c, p0x, p0y, s0, k0, p1x, p1y, s1, k1 = _clip_incident(
            r0x, r0y, r1x, r1y, rr, mx, my, i0x, i0y, i1x, i1y, ri, margin)
        if c == 0:
            if flip:
                id0 = CLIP_ID | (i2 << 20) | r1
                id1 = CLIP_ID | (i1 << 20) | r2
            else:
                id0 = CLIP_ID | (r1 << 20) | i2
                id1 = CLIP_ID | (r2 << 20) | i1
            nx = -mx if flip else mx
            ny = -my if flip else my
            if k0 and k1:
                return 2, nx, ny, p0x, p0y, s0, id0, p1x, p1y, s1, id1
            if k0:
                return 1, nx, ny, p0x, p0y, s0, id0, 0.0, 0.0, 0.0, 0
            if k1:
                return 1, nx, ny, p1x, p1y, s1, id1, 0.0, 0.0, 0.0, 0
            return 0, nx, ny, 0.0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0
    # The closest features (_closest_contact): shape_distance's exact path, whose pass over
    # B's axes moves A by -0.0 (the same separations but for the sign of a zero).
    sb, kb, mbx, mby, ia = _segment_separation(ubx, uby, b0x, b0y, b1x, b1y, a0x, a0y, a1x,
                                               a1y, -0.0, -0.0)
    has_axes = ka >= 0 or kb >= 0
    best = max(sa, sb)
    done = False
    if not has_axes or best > 0.0:
        if not have_core:
            d, dnx, dny, cax, cay, cbx, cby = _segment_core(d2, c1x, c1y, c2x, c2y)
        nx = dnx
        ny = dny
        if d > 0.0 and has_axes:
            scale = abs(cax) + abs(cay) + abs(cbx) + abs(cby)
            if d - best <= 1e-9 * d + 1e-14 * scale:
                if sa >= sb:
                    nx = max_
                    ny = may
                else:
                    nx = -mbx
                    ny = -mby
        if d > 0.0 or not has_axes:
            dist = d - rsum
            pax = cax
            pay = cay
            pbx = cbx
            pby = cby
            done = True
        else:
            sa = min(sa, 0.0)
            sb = min(sb, 0.0)
    if not done:
        if sa >= sb:
            pbx = b0x if ib == 0 else b1x
            pby = b0y if ib == 0 else b1y
            dist = sa - rsum
            nx = max_
            ny = may
            pax = pbx - sa * max_
            pay = pby - sa * may
        else:
            pax = (a0x if ia == 0 else a1x) + 0.0
            pay = (a0y if ia == 0 else a1y) + 0.0
            dist = sb - rsum
            nx = -mbx
            ny = -mby
            pbx = pax - sb * mbx
            pby = pay - sb * mby
    if dist > margin:
        return zero
    return (1, nx, ny, 0.5 * (pax + ra * nx + pbx - rb * nx),
            0.5 * (pay + ra * ny + pby - rb * ny), dist, 0, 0.0, 0.0, 0.0, 0)


@njit(inline="always")
def _segment_separation(ux, uy, p0x, p0y, p1x, p1y, q0x, q0y, q1x, q1y, dx, dy):
    """max_separation of segment p0-p1 (unit direction u, moved by (dx, dy)) against
    segment q0-q1, the same arithmetic: its four axes as _segment_axis gives them."""
    best = -math.inf
    bk = -1
    bmx = 0.0
    bmy = 0.0
    bib = 0
    for k in range(4):
        if k == 0:
            mx = uy
            my = -ux
            px = p0x
            py = p0y
        elif k == 1:
            mx = -uy
            my = ux
            px = p1x
            py = p1y
        elif k == 2:
            mx = ux
            my = uy
            px = p1x
            py = p1y
        else:
            mx = -ux
            my = -uy
            px = p0x
            py = p0y
        px += dx
        py += dy
        smin = math.inf
        imin = 0
        s = mx * (q0x - px) + my * (q0y - py)
        if s < smin:
            smin = s
            imin = 0
        s = mx * (q1x - px) + my * (q1y - py)
        if s < smin:
            smin = s
            imin = 1
        if smin > best:
            best = smin
            bk = k
            bmx = mx
            bmy = my
            bib = imin
    return best, bk, bmx, bmy, bib


@njit(inline="always")
def _segment_core(d2, c1x, c1y, c2x, c2y):
    """core_distance of two segments from their closest points (``closest_segment_segment``
    of A moved by 0.0, as collide and shape_distance call it): (dist, n_ab_x, n_ab_y, pax,
    pay, pbx, pby)."""
    best = math.inf
    cax = 0.0
    cay = 0.0
    cbx = 0.0
    cby = 0.0
    if d2 < best:
        best = d2
        cax = c1x
        cay = c1y
        cbx = c2x
        cby = c2y
    dist = math.sqrt(best)
    if dist > 0.0:
        return dist, (cbx - cax) / dist, (cby - cay) / dist, cax, cay, cbx, cby
    return 0.0, 0.0, -1.0, cax, cay, cbx, cby


@njit(_nrt=False)
def _keep_alive(*arrays):
    """No-op, called at a hot kernel's one exit. Numba gives each array argument an atomic
    reference-count increment at entry and a decrement after its last use; its pruning pass
    drops the pair only when the decrements meet in one block with no call left in between.
    So the helpers of collide_polygons are inlined (``inline="always"``, or by LLVM when
    small and unable to raise: see error_model above). Otherwise every call pays those
    atomics per array argument, more than two boxes' whole SAT."""


@njit(inline="always")
def _incident_face(nrm, noff, n, mx, my):
    """The face of a polygon most anti-parallel to m (first of equals)."""
    best = math.inf
    ki = 0
    for k in range(n):
        dd = nrm[noff + k, 0] * mx + nrm[noff + k, 1] * my
        if dd < best:
            best = dd
            ki = k
    return ki


@njit(inline="always")
def _clip_incident(v11x, v11y, v12x, v12y, rr, mx, my, v21x, v21y, v22x, v22y, ri, margin):
    """Clip incident edge v21-v22 of I against the side planes of reference face v11-v12 of
    R (outward unit normal m, the face's own: see the tangent below).

    Returns (c, p0x, p0y, sep0, keep0, p1x, p1y, sep1, keep1): c -1 when the edges do not
    overlap along the face (the caller falls back to the closest points), else 0; point 0
    comes from v22's end, point 1 from v21's, each kept (keep 1) when within margin. Both
    clips are computed and the results selected: whether an end needs clipping is a coin
    flip, and a mispredicted branch costs more than a division.
    """
    # The face's unit tangent (v12 - v11) / |v12 - v11| is m turned +90 degrees: the normal
    # came from the same edge vector and length, so these are the same bits.
    tx = -my
    ty = mx
    lower1 = 0.0
    upper1 = tx * (v12x - v11x) + ty * (v12y - v11y)
    # The incident edge runs against the reference edge: v22 lies at the lower end.
    upper2 = tx * (v21x - v11x) + ty * (v21y - v11y)
    lower2 = tx * (v22x - v11x) + ty * (v22y - v11y)
    span = upper2 - lower2
    # no overlap along the face (or degenerate incident edge)
    c = -1 if (upper2 < lower1) | (lower2 > upper1) | (span <= 0.0) else 0
    # With c = -1 the results are not used; a positive stand-in keeps the division finite.
    div = span if span > 0.0 else 1.0
    fl = (lower1 - lower2) / div
    fu = (upper1 - lower2) / div
    dx = v21x - v22x
    dy = v21y - v22y
    clx = v22x + fl * dx
    cly = v22y + fl * dy
    cux = v22x + fu * dx
    cuy = v22y + fu * dy
    low = lower2 < lower1
    up = upper2 > upper1
    vlx = clx if low else v22x
    vly = cly if low else v22y
    vux = cux if up else v21x
    vuy = cuy if up else v21y
    sep_l = mx * (vlx - v11x) + my * (vly - v11y)
    sep_u = mx * (vux - v11x) + my * (vuy - v11y)
    rsum = rr + ri
    hl = 0.5 * (rr - ri - sep_l)
    hu = 0.5 * (rr - ri - sep_u)
    keep0 = 1 if (c == 0) & (sep_l - rsum <= margin) else 0
    keep1 = 1 if (c == 0) & (sep_u - rsum <= margin) else 0
    return (c, vlx + hl * mx, vly + hl * my, sep_l - rsum, keep0,
            vux + hu * mx, vuy + hu * my, sep_u - rsum, keep1)


@njit(_nrt=False)
def _face_ends(n, k):
    """Vertex indices (relative to the shape's offset) of face k, in its CCW direction; a
    segment's face 1 runs back from vertex 1 to vertex 0."""
    if n >= 3:
        return k, k + 1 if k + 1 < n else 0
    if k == 0:
        return 0, 1
    return 1, 0


@njit(_nrt=False)
def _closest_contact(va, offa, na, ra, vb, offb, nb, rb, margin, out_pts, out_sep, out_ids):
    """One contact from the closest features (circles, vertex-vertex, no face overlap)."""
    d, nx, ny, pax, pay, pbx, pby = shape_distance(va, offa, na, ra, vb, offb, nb, rb,
                                                   0.0, 0.0, True)
    if d > margin:
        return 0, 0.0, 0.0
    # Midway between A's surface (core point out by ra along n_ab) and B's (in by rb).
    out_pts[0, 0] = 0.5 * (pax + ra * nx + pbx - rb * nx)
    out_pts[0, 1] = 0.5 * (pay + ra * ny + pby - rb * ny)
    out_sep[0] = d
    out_ids[0] = 0
    return 1, nx, ny
