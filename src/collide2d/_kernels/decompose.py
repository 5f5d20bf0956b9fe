"""Simple-polygon test and convex decomposition of large concave outlines.

``outline_is_simple``: every pair of non-adjacent edges that share a cell of a uniform grid is
tested with :func:`segment_segment` (the same closed test as everywhere else). An edge is
entered in the cells it passes through (column by column, padded against round-off), so two
edges that meet share a cell. The grid is coarsened until the cell entries number at most
``16 n``: memory stays O(n); time is O(n) for evenly spread edges and O(n^2) pair tests only
when most edges crowd into one cell.

``ear_clip``: ear clipping over a linked list. Only vertices that are not strictly convex can
lie inside an ear (a vertex inside a triangle implies a reflex one inside), so they alone are
bucketed in a grid and tested. A vertex's interior angle only shrinks as ears are cut, so the
initial bucket set stays a superset. After each ear the scan moves two vertices on, which cuts
a convex chain in rounds of halving instead of one ever-growing fan.

``merge_convex``: Hertel-Mehlhorn. Around each vertex the triangles' corners form a fan;
a diagonal is dropped when, at both ends, the two rays next to it still make an angle of at
most 180 degrees. At most 4x the optimal number of parts; no vertex is moved.
"""

import math

import numpy as np

from .._jit import njit
from .poses import points_box
from .segment import segment_segment

# Same tolerances as the Python decomposition used for small outlines.
TURN_EPS = 1e-15
CONVEX_EPS = 1e-12
# Cell entries allowed per edge before the grid is coarsened.
ENTRIES_PER_EDGE = 16


@njit(_nrt=False)
def _cell(x, lo, size, g):
    c = int((x - lo) / size) if size > 0.0 else 0
    return min(max(c, 0), g - 1)


@njit(_nrt=False)
def _edge_cells(x0, y0, x1, y1, grid, pad, out, k, fill, edge):
    """Cells of ``grid`` (lower left corner, cell width and height, columns and rows) the
    segment (x0, y0)-(x1, y1) passes within ``pad`` of: column by column, the segment's
    y-range in that column. Writes (cell, edge) pairs from ``out[k]`` when ``fill`` and
    returns the new k."""
    xlo, ylo, cw, ch, gx, gy = grid
    if x1 < x0:
        x0, y0, x1, y1 = x1, y1, x0, y0
    c0 = _cell(x0 - pad, xlo, cw, gx)
    c1 = _cell(x1 + pad, xlo, cw, gx)
    dx = x1 - x0
    for c in range(c0, c1 + 1):
        xa = min(max(xlo + c * cw - pad, x0), x1)
        xb = min(max(xlo + (c + 1) * cw + pad, x0), x1)
        if dx > 0.0:
            ya = y0 + (y1 - y0) * ((xa - x0) / dx)
            yb = y0 + (y1 - y0) * ((xb - x0) / dx)
        else:
            ya = y0
            yb = y1
        r0 = _cell(min(ya, yb) - pad, ylo, ch, gy)
        r1 = _cell(max(ya, yb) + pad, ylo, ch, gy)
        for r in range(r0, r1 + 1):
            if fill:
                out[k, 0] = r * gx + c
                out[k, 1] = edge
            k += 1
    return k


@njit(_nrt=True, entry=True)
def outline_is_simple(v):
    """True when no two non-adjacent edges of the closed outline ``v`` (n >= 4) meet."""
    n = v.shape[0]
    xlo, ylo, xhi, yhi = points_box(v, 0, n)
    w = xhi - xlo
    h = yhi - ylo
    span = max(w, h)
    pad = 1e-9 * span
    # About one edge per cell for evenly spread edges, cells roughly square.
    gx = max(1, min(n, int(math.sqrt(n * (w + pad) / (h + pad)))))
    gy = max(1, min(n, int(math.sqrt(n * (h + pad) / (w + pad)))))
    dummy = np.empty((1, 2), dtype=np.int64)
    while True:
        cw = w / gx
        ch = h / gy
        total = 0
        for i in range(n):
            j = i + 1 if i + 1 < n else 0
            total = _edge_cells(v[i, 0], v[i, 1], v[j, 0], v[j, 1], (xlo, ylo, cw, ch, gx, gy),
                                pad, dummy, total, False, i)
        if total <= ENTRIES_PER_EDGE * n or (gx == 1 and gy == 1):
            break
        gx = max(1, gx // 2)
        gy = max(1, gy // 2)
    entries = np.empty((total, 2), dtype=np.int64)
    k = 0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        k = _edge_cells(v[i, 0], v[i, 1], v[j, 0], v[j, 1], (xlo, ylo, cw, ch, gx, gy), pad,
                        entries, k, True, i)
    order = np.argsort(entries[:, 0] * n + entries[:, 1])
    s = 0
    while s < total:
        cell = entries[order[s], 0]
        e = s
        while e < total and entries[order[e], 0] == cell:
            e += 1
        for p in range(s, e):
            a = entries[order[p], 1]
            a2 = a + 1 if a + 1 < n else 0
            axlo = min(v[a, 0], v[a2, 0]) - pad
            axhi = max(v[a, 0], v[a2, 0]) + pad
            aylo = min(v[a, 1], v[a2, 1]) - pad
            ayhi = max(v[a, 1], v[a2, 1]) + pad
            for q in range(p + 1, e):
                b = entries[order[q], 1]   # b > a: sorted by edge within a cell
                if b == a or b == a + 1 or (a == 0 and b == n - 1):
                    continue
                b2 = b + 1 if b + 1 < n else 0
                if (max(v[b, 0], v[b2, 0]) < axlo or min(v[b, 0], v[b2, 0]) > axhi
                        or max(v[b, 1], v[b2, 1]) < aylo or min(v[b, 1], v[b2, 1]) > ayhi):
                    continue
                hit, _, _ = segment_segment(v[a, 0], v[a, 1], v[a2, 0], v[a2, 1],
                                            v[b, 0], v[b, 1], v[b2, 0], v[b2, 1])
                if hit:
                    return False
        s = e
    return True


@njit(_nrt=False)
def _cross(v, o, a, b):
    return ((v[a, 0] - v[o, 0]) * (v[b, 1] - v[o, 1])
            - (v[a, 1] - v[o, 1]) * (v[b, 0] - v[o, 0]))


@njit(_nrt=False)
def _cross_pt(v, o, a, px, py):
    return (v[a, 0] - v[o, 0]) * (py - v[o, 1]) - (v[a, 1] - v[o, 1]) * (px - v[o, 0])


@njit(_nrt=False)
def _blocked(v, i0, i1, i2, reflex, start, items, grid):
    """Does a vertex that is not strictly convex lie in the closed triangle (i0, i1, i2)?
    (The reflex vertices by cell of ``grid``, as :func:`_edge_cells`': ``items[start[c]:
    start[c + 1]]``.)"""
    xlo, ylo, cw, ch, gx, gy = grid
    tx0 = min(v[i0, 0], v[i1, 0], v[i2, 0])
    tx1 = max(v[i0, 0], v[i1, 0], v[i2, 0])
    ty0 = min(v[i0, 1], v[i1, 1], v[i2, 1])
    ty1 = max(v[i0, 1], v[i1, 1], v[i2, 1])
    for r in range(_cell(ty0, ylo, ch, gy), _cell(ty1, ylo, ch, gy) + 1):
        for c in range(_cell(tx0, xlo, cw, gx), _cell(tx1, xlo, cw, gx) + 1):
            cell = r * gx + c
            for q in range(start[cell], start[cell + 1]):
                j = items[q]
                if not reflex[j] or j == i0 or j == i1 or j == i2:
                    continue
                px = v[j, 0]
                py = v[j, 1]
                if px < tx0 or px > tx1 or py < ty0 or py > ty1:
                    continue
                if (_cross_pt(v, i0, i1, px, py) >= 0.0 and _cross_pt(v, i1, i2, px, py) >= 0.0
                        and _cross_pt(v, i2, i0, px, py) >= 0.0):
                    return True
    return False


@njit(_nrt=True, entry=True)
def ear_clip(v, tris):
    """Triangulate the simple counter-clockwise outline ``v`` into ``tris`` (rows of vertex
    indices, each CCW). Collinear vertices are dropped without a triangle. Returns the number
    of triangles, or -1 when no ear is found (an outline that is not simple)."""
    n = v.shape[0]
    xlo, ylo, xhi, yhi = points_box(v, 0, n)
    span = max(xhi - xlo, yhi - ylo)
    eps = TURN_EPS * span * span
    prv = np.empty(n, dtype=np.int64)
    nxt = np.empty(n, dtype=np.int64)
    for i in range(n):
        prv[i] = i - 1 if i > 0 else n - 1
        nxt[i] = i + 1 if i + 1 < n else 0
    reflex = np.zeros(n, dtype=np.bool_)
    used = np.zeros(n, dtype=np.bool_)
    m = 0
    for i in range(n):
        if _cross(v, prv[i], i, nxt[i]) <= eps:
            reflex[i] = True
            m += 1
    # Bucket the candidates: about one per cell.
    g = max(1, int(math.sqrt(m)))
    cw = (xhi - xlo) / g
    ch = (yhi - ylo) / g
    start = np.zeros(g * g + 1, dtype=np.int64)
    for i in range(n):
        if reflex[i]:
            start[_cell(v[i, 1], ylo, ch, g) * g + _cell(v[i, 0], xlo, cw, g) + 1] += 1
    for c in range(g * g):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    items = np.empty(max(m, 1), dtype=np.int64)
    for i in range(n):
        if reflex[i]:
            cell = _cell(v[i, 1], ylo, ch, g) * g + _cell(v[i, 0], xlo, cw, g)
            items[fill[cell]] = i
            fill[cell] += 1
    k = 0
    left = n
    cur = 0
    stall = 0
    while left > 3:
        if stall > left:
            return -1
        b = cur
        a = prv[b]
        c = nxt[b]
        turn = _cross(v, a, b, c)
        if turn <= eps:
            # Collinear: a spike, or a straight vertex no triangle uses yet, is dropped without
            # a triangle. A straight vertex that triangles already use stays (dropping it
            # would leave it in the middle of a later triangle's edge, a T-junction the merge
            # cannot walk); the closed blocking test keeps later ears off it.
            spike = ((v[a, 0] - v[b, 0]) * (v[c, 0] - v[b, 0])
                     + (v[a, 1] - v[b, 1]) * (v[c, 1] - v[b, 1])) > 0.0
            if abs(turn) <= eps and (spike or not used[b]):
                nxt[a] = c
                prv[c] = a
                reflex[b] = False
                left -= 1
                reflex[a] = _cross(v, prv[a], a, c) <= eps and reflex[a]
                reflex[c] = _cross(v, a, c, nxt[c]) <= eps and reflex[c]
                cur = a
                stall = 0
                continue
            cur = c
            stall += 1
            continue
        if _blocked(v, a, b, c, reflex, start, items, (xlo, ylo, cw, ch, g, g)):
            cur = c
            stall += 1
            continue
        tris[k, 0] = a
        tris[k, 1] = b
        tris[k, 2] = c
        k += 1
        used[a] = True
        used[c] = True
        nxt[a] = c
        prv[c] = a
        reflex[b] = False
        left -= 1
        # Cutting an ear only narrows its neighbours' angles: a reflex one may turn convex.
        reflex[a] = reflex[a] and _cross(v, prv[a], a, c) <= eps
        reflex[c] = reflex[c] and _cross(v, a, c, nxt[c]) <= eps
        cur = nxt[c]
        stall = 0
    a = cur
    b = nxt[a]
    c = nxt[b]
    if _cross(v, a, b, c) > 0.0:
        tris[k, 0] = a
        tris[k, 1] = b
        tris[k, 2] = c
        k += 1
    return k


@njit(_nrt=False)
def _find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@njit(_nrt=False)
def _convex_at(v, p, a, b):
    """The angle from ray p->a counter-clockwise to ray p->b is at most 180 degrees."""
    ax = v[a, 0] - v[p, 0]
    ay = v[a, 1] - v[p, 1]
    bx = v[b, 0] - v[p, 0]
    by = v[b, 1] - v[p, 1]
    return ax * by - ay * bx >= -CONVEX_EPS * math.hypot(ax, ay) * math.hypot(bx, by)


@njit(_nrt=True, entry=True)
def merge_convex(v, tris, nt, ring, part_start):
    """Hertel-Mehlhorn over the ``nt`` CCW triangles of ``tris``. Writes the parts as CCW
    rings of vertex indices, part p being ``ring[part_start[p]:part_start[p + 1]]``
    (``ring`` needs 3 nt rows, ``part_start`` nt + 1) and returns the number of parts, or
    -1 when the triangles do not form fans (not a triangulation of a simple outline)."""
    n = v.shape[0]
    nc = 3 * nt
    # Corners: at vertex p the wedge from ray p->s counter-clockwise to ray p->e, triangle t.
    cp = np.empty(nc, dtype=np.int64)
    cs = np.empty(nc, dtype=np.int64)
    ce = np.empty(nc, dtype=np.int64)
    for t in range(nt):
        for r in range(3):
            q = 3 * t + r
            cp[q] = tris[t, r]
            cs[q] = tris[t, (r + 1) % 3]
            ce[q] = tris[t, (r + 2) % 3]
    by_vertex = np.argsort(cp, kind="mergesort")
    # Fan entries: ray k at p is entry fan_off + k; entry k's wedge (to ray k + 1) is a
    # triangle. A vertex with j corners has j + 1 rays.
    nfan = nc + n
    ray = np.empty(nfan, dtype=np.int64)
    wedge_tri = np.full(nfan, -1, dtype=np.int64)
    owner = np.empty(nfan, dtype=np.int64)
    fprev = np.full(nfan, -1, dtype=np.int64)
    fnext = np.full(nfan, -1, dtype=np.int64)
    where = np.full(n, -1, dtype=np.int64)
    is_end = np.zeros(n, dtype=np.bool_)
    used = 0
    s = 0
    while s < nc:
        p = cp[by_vertex[s]]
        e = s
        while e < nc and cp[by_vertex[e]] == p:
            e += 1
        for q in range(s, e):
            where[cs[by_vertex[q]]] = by_vertex[q]
            is_end[ce[by_vertex[q]]] = True
        first = -1
        for q in range(s, e):
            if not is_end[cs[by_vertex[q]]]:
                first = by_vertex[q]
        if first < 0:
            return -1
        cur = first
        base = used
        ray[used] = cs[cur]
        owner[used] = p
        for _ in range(e - s):
            if cur < 0:
                return -1
            wedge_tri[used] = cur // 3
            ray[used + 1] = ce[cur]
            owner[used + 1] = p
            fnext[used] = used + 1
            fprev[used + 1] = used
            used += 1
            nxt_corner = where[ce[cur]]
            cur = nxt_corner
        used += 1
        if used - base != e - s + 1:
            return -1
        for q in range(s, e):
            where[cs[by_vertex[q]]] = -1
            is_end[ce[by_vertex[q]]] = False
        s = e
    # Interior rays are diagonals, entered once at each end: pair them up by key.
    ndiag_entries = 0
    for f in range(used):
        if fprev[f] >= 0 and fnext[f] >= 0:
            ndiag_entries += 1
    dent = np.empty(ndiag_entries, dtype=np.int64)
    dkey = np.empty(ndiag_entries, dtype=np.int64)
    k = 0
    for f in range(used):
        if fprev[f] >= 0 and fnext[f] >= 0:
            dent[k] = f
            dkey[k] = min(owner[f], ray[f]) * n + max(owner[f], ray[f])
            k += 1
    order = np.argsort(dkey, kind="mergesort")
    if ndiag_entries % 2 != 0:
        return -1
    parent = np.arange(nt)
    removed_key = np.empty(ndiag_entries // 2, dtype=np.int64)
    nremoved = 0
    for d in range(0, ndiag_entries, 2):
        f = dent[order[d]]
        g2 = dent[order[d + 1]]
        if dkey[order[d]] != dkey[order[d + 1]]:
            return -1
        p = owner[f]
        q = owner[g2]
        if not (_convex_at(v, p, ray[fprev[f]], ray[fnext[f]])
                and _convex_at(v, q, ray[fprev[g2]], ray[fnext[g2]])):
            continue
        # Merge the wedges on both sides of the diagonal.
        t1 = _find(parent, wedge_tri[fprev[f]])
        t2 = _find(parent, wedge_tri[f])
        parent[t1] = t2
        fnext[fprev[f]] = fnext[f]
        fprev[fnext[f]] = fprev[f]
        fnext[fprev[g2]] = fnext[g2]
        fprev[fnext[g2]] = fprev[g2]
        removed_key[nremoved] = dkey[order[d]]
        nremoved += 1
    removed = np.sort(removed_key[:nremoved])
    # Boundary of each part: its triangles' directed edges that are not removed diagonals.
    bkey = np.empty(nc, dtype=np.int64)
    bsrc = np.empty(nc, dtype=np.int64)
    bdst = np.empty(nc, dtype=np.int64)
    nb = 0
    for t in range(nt):
        root = _find(parent, t)
        for r in range(3):
            a = tris[t, r]
            b = tris[t, (r + 1) % 3]
            key = min(a, b) * n + max(a, b)
            pos = np.searchsorted(removed, key)
            if pos < nremoved and removed[pos] == key:
                continue
            bkey[nb] = root * n + a
            bsrc[nb] = a
            bdst[nb] = b
            nb += 1
    ob = np.argsort(bkey[:nb])
    skey = bkey[:nb][ob]
    nparts = 0
    out = 0
    s = 0
    while s < nb:
        root = skey[s] // n
        e = s
        while e < nb and skey[e] // n == root:
            e += 1
        part_start[nparts] = out
        first = bsrc[ob[s]]
        cur = first
        for _ in range(e - s):
            ring[out] = cur
            out += 1
            pos = s + np.searchsorted(skey[s:e], root * n + cur)
            if pos >= e or skey[pos] != root * n + cur:
                return -1
            cur = bdst[ob[pos]]
            if cur == first:
                break
        if cur != first or out - part_start[nparts] != e - s:
            return -1
        nparts += 1
        s = e
    part_start[nparts] = out
    return nparts
