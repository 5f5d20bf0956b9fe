"""Shapes in world space: each live shape's local vertices moved to its body's pose, and its
bounding box (fattened by a margin for the step's broadphase, exact for queries).

A step places every shape that may have moved: O(vertices) of the shapes that move, the
static ones' boxes put back (``finish_shapes``) when nothing moved them since the last step.
"""

import math

from .._jit import njit
from .constants import S_ALIVE, STATIC


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
        if s_flags[s] & S_ALIVE:
            _place_shape(s, pos, rot, s_body, s_vstart, s_vcount, s_radius, vlocal, vworld,
                         aabb, margin)


@njit(inline="always")
def _place_shape(s, pos, rot, s_body, s_vstart, s_vcount, s_radius, vlocal, vworld, aabb,
                 margin):
    """Shape ``s`` at its body's pose: world vertices, and its box fattened by ``margin``."""
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
def fatten_boxes(s_flags, aabb, exact, n_shapes, margin):
    """Exact boxes of shapes already at their poses, fattened by the margin: what
    update_shapes would give, without moving a vertex. The exact boxes are kept in
    ``exact``."""
    for s in range(n_shapes):
        if s_flags[s] & S_ALIVE:
            for c in range(4):
                exact[s, c] = aabb[s, c]
            aabb[s, 0] -= margin
            aabb[s, 1] -= margin
            aabb[s, 2] += margin
            aabb[s, 3] += margin


@njit(_nrt=False)
def finish_shapes(pos, rot, kind, s, n_shapes, statics_kept):
    """Shapes at their bodies' final poses with exact boxes, as ``place_shapes`` with no
    margin, for a shape view ``s``. With ``statics_kept`` (the step began with every shape
    where the last step left it, and ``fatten_boxes`` kept their boxes) a static body's
    shapes keep their vertices and get their kept boxes back: a step never moves them,
    and a large static level costs a copy a shape, not a placing."""
    s_body, s_flags, aabb, exact = s.body, s.flags, s.aabb, s.exact
    for r in range(n_shapes):
        if not s_flags[r] & S_ALIVE:
            continue
        if statics_kept and kind[s_body[r]] == STATIC:
            for c in range(4):
                aabb[r, c] = exact[r, c]
        else:
            _place_shape(r, pos, rot, s_body, s.vstart, s.vcount, s.radius, s.vlocal,
                         s.vworld, aabb, 0.0)
