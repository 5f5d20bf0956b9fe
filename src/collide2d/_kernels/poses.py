"""Shapes in world space: each live shape's local vertices moved to its body's pose, and its
bounding box (fattened by a margin for the step's broadphase, exact for queries).

Every step runs this over the whole vertex pool, O(vertices).
"""

import math

from .._jit import njit
from .constants import S_ALIVE


@njit(_nrt=False)
def body_rotations(angle, n_bodies, rot):
    """(cos, sin) of each body's angle into ``rot``: once per body, for all its shapes."""
    for b in range(n_bodies):
        rot[b, 0] = math.cos(angle[b])
        rot[b, 1] = math.sin(angle[b])


@njit(_nrt=False, entry=True)
def update_shapes(pos, angle, rot, s_body, s_flags, s_vstart, s_vcount, s_radius, vlocal,
                  vworld, aabb, n_shapes, margin):
    """World vertices and margin-fattened bounding boxes of every live shape, and the
    bodies' rotations (into ``rot``) they were placed with."""
    body_rotations(angle, angle.shape[0], rot)
    place_shapes(pos, rot, s_body, s_flags, s_vstart, s_vcount, s_radius, vlocal, vworld,
                 aabb, n_shapes, margin)


@njit(inline="always")
def points_box(pts, off, n):
    """Box (lox, loy, hix, hiy) of the points ``pts[off:off+n]``."""
    lox = math.inf
    loy = math.inf
    hix = -math.inf
    hiy = -math.inf
    for k in range(off, off + n):
        lox = min(lox, pts[k, 0])
        loy = min(loy, pts[k, 1])
        hix = max(hix, pts[k, 0])
        hiy = max(hiy, pts[k, 1])
    return lox, loy, hix, hiy


@njit(inline="always")
def transform_vertices(vlocal, a0, n, px, py, c, sn, out, o0):
    """Local vertices ``vlocal[a0:a0+n]`` turned by (c, sn) and moved to (px, py), into
    ``out[o0:o0+n]``; returns their box (lox, loy, hix, hiy)."""
    lox = math.inf
    loy = math.inf
    hix = -math.inf
    hiy = -math.inf
    for k in range(n):
        lx = vlocal[a0 + k, 0]
        ly = vlocal[a0 + k, 1]
        x = px + c * lx - sn * ly
        y = py + sn * lx + c * ly
        out[o0 + k, 0] = x
        out[o0 + k, 1] = y
        lox = min(lox, x)
        loy = min(loy, y)
        hix = max(hix, x)
        hiy = max(hiy, y)
    return lox, loy, hix, hiy


@njit(_nrt=False)
def place_shapes(pos, rot, s_body, s_flags, s_vstart, s_vcount, s_radius, vlocal, vworld,
                 aabb, n_shapes, margin):
    """``update_shapes`` with the bodies' rotations given (``body_rotations``)."""
    for s in range(n_shapes):
        if not s_flags[s] & S_ALIVE:
            continue
        b = s_body[s]
        a0 = s_vstart[s]
        lox, loy, hix, hiy = transform_vertices(vlocal, a0, s_vcount[s], pos[b, 0], pos[b, 1],
                                                rot[b, 0], rot[b, 1], vworld, a0)
        # (exact box) then margin, in that order: fatten_boxes gives the same bits.
        r = s_radius[s]
        aabb[s, 0] = (lox - r) - margin
        aabb[s, 1] = (loy - r) - margin
        aabb[s, 2] = (hix + r) + margin
        aabb[s, 3] = (hiy + r) + margin


@njit(_nrt=False)
def fatten_boxes(s_flags, aabb, n_shapes, margin):
    """Exact boxes of shapes already at their poses, fattened by the margin: what
    update_shapes would give, without moving a vertex."""
    for s in range(n_shapes):
        if s_flags[s] & S_ALIVE:
            aabb[s, 0] -= margin
            aabb[s, 1] -= margin
            aabb[s, 2] += margin
            aabb[s, 3] += margin
