"""Separating axes between two large convex polygons in O(n + m).

``sat.py`` finds, for each face normal of A, B's deepest vertex by scanning all of B: O(n m),
which is nothing for the world's shapes of a few vertices but minutes for two 10^5-gons. As
A's face normals turn counter-clockwise, the vertex of B extreme along them turns
counter-clockwise too, so one pointer walking forward around B finds them all (rotating
calipers). Each per-axis value is then computed by the same expression as in ``sat.py`` from
the vertex found, so it equals the full scan's value whenever the walk reaches the true
extreme (on a convex outline projections are unimodal; ties only on edges parallel to the
axis).

Only the geometry functions use this path, for pairs with ``na * nb > LARGE``; the world's
narrowphase keeps ``sat.py``.
"""

import math

from .._jit import njit
from .sat import _polygon_normal

#: Above this product of vertex counts, pair functions take the O(n + m) path.
LARGE = 4096


@njit(_nrt=False)
def _proj(mx, my, px, py, v, off, i):
    return mx * (v[off + i, 0] - px) + my * (v[off + i, 1] - py)


@njit(_nrt=False)
def _walk_min(mx, my, px, py, v, off, n, j):
    """From vertex j, walk forward while the projection does not grow (at most n steps)."""
    s = _proj(mx, my, px, py, v, off, j)
    for _ in range(n):
        j2 = j + 1 if j + 1 < n else 0
        s2 = _proj(mx, my, px, py, v, off, j2)
        if s2 > s:
            break
        j = j2
        s = s2
    return j, s


@njit(_nrt=False)
def _start_min(mx, my, px, py, v, off, n):
    best = math.inf
    jb = 0
    for i in range(n):
        s = _proj(mx, my, px, py, v, off, i)
        if s < best:
            best = s
            jb = i
    return jb


@njit(_nrt=False)
def max_separation_walk(va, offa, na, vb, offb, nb):
    """``sat.max_separation`` (no translation) for convex CCW polygons, in O(na + nb)."""
    best = -math.inf
    bk = -1
    bmx = 0.0
    bmy = 0.0
    bib = 0
    j = -1
    for k in range(na):
        mx, my = _polygon_normal(va, offa, na, k)
        if mx == 0.0 and my == 0.0:
            continue
        px = va[offa + k, 0]
        py = va[offa + k, 1]
        if j < 0:
            j = _start_min(mx, my, px, py, vb, offb, nb)
        j, smin = _walk_min(mx, my, px, py, vb, offb, nb, j)
        if smin > best:
            best = smin
            bk = k
            bmx = mx
            bmy = my
            bib = j
    return best, bk, bmx, bmy, bib


@njit(_nrt=False, entry=True)
def separation_large(va, offa, na, vb, offb, nb):
    """Largest separation over both polygons' faces: (sep, n_ab_x, n_ab_y) with the axis
    chosen as ``sat.shape_distance`` chooses it. sep < 0 is the penetration depth (negated);
    sep > 0 means apart (a lower bound on the distance, enough for overlap and penetration).
    """
    sa, _, max_, may, _ = max_separation_walk(va, offa, na, vb, offb, nb)
    sb, _, mbx, mby, _ = max_separation_walk(vb, offb, nb, va, offa, na)
    if sa >= sb:
        return sa, max_, may
    return sb, -mbx, -mby


@njit(_nrt=False)
def _extremes(mx, my, v, off, n, jmin, jmax):
    """Min and max of m . x over a convex outline, walking forward from jmin and jmax."""
    jmin, lo = _walk_min(mx, my, 0.0, 0.0, v, off, n, jmin)
    jmax, hi = _walk_min(-mx, -my, 0.0, 0.0, v, off, n, jmax)
    return jmin, jmax, lo, -hi


@njit(_nrt=False)
def sweep_large(va, offa, na, vb, offb, nb, wx, wy, t_max):
    """``sat.sweep_sat`` for two large convex polygons: (hit, time, push_x, push_y)."""
    t_enter = -math.inf
    t_exit = math.inf
    pnx = 0.0
    pny = 0.0
    for side in range(2):
        vs = va if side == 0 else vb
        offs = offa if side == 0 else offb
        ns = na if side == 0 else nb
        ja0 = -1
        ja1 = -1
        jb0 = -1
        jb1 = -1
        for k in range(ns):
            mx, my = _polygon_normal(vs, offs, ns, k)
            if mx == 0.0 and my == 0.0:
                continue
            if ja0 < 0:
                ja0 = _start_min(mx, my, 0.0, 0.0, va, offa, na)
                ja1 = _start_min(-mx, -my, 0.0, 0.0, va, offa, na)
                jb0 = _start_min(mx, my, 0.0, 0.0, vb, offb, nb)
                jb1 = _start_min(-mx, -my, 0.0, 0.0, vb, offb, nb)
            ja0, ja1, a0, a1 = _extremes(mx, my, va, offa, na, ja0, ja1)
            jb0, jb1, b0, b1 = _extremes(mx, my, vb, offb, nb, jb0, jb1)
            s = mx * wx + my * wy
            if s == 0.0:
                if a0 > b1 or a1 < b0:
                    return False, math.nan, 0.0, 0.0
                continue
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


@njit(_nrt=False, entry=True)
def is_large(na, ra, nb, rb):
    return na >= 3 and nb >= 3 and ra == 0.0 and rb == 0.0 and na * nb > LARGE


@njit(_nrt=False, entry=True)
def sweep_pair_large(va, offa, na, vb, offb, nb, wx, wy, t_max):
    """``sat.sweep_pair`` for two large polygons: (hit, time, push_x, push_y, depth)."""
    d0, nx0, ny0 = separation_large(va, offa, na, vb, offb, nb)
    if d0 <= 0.0:
        return True, 0.0, -nx0, -ny0, -d0
    if wx == 0.0 and wy == 0.0:
        return False, math.nan, 0.0, 0.0, 0.0
    hit, t, px, py = sweep_large(va, offa, na, vb, offb, nb, wx, wy, t_max)
    if not hit:
        return False, math.nan, 0.0, 0.0, 0.0
    return True, max(t, 0.0), px, py, 0.0
