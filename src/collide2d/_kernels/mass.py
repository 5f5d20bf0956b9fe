"""Mass properties of polygons and circles (area, centroid, polar moment of inertia).

Polygon formulas integrate over the triangle fan from a reference point (the first vertex,
so large coordinates do not cancel): for a triangle (0, p, q) with c = p x q,
area c/2, centroid (p + q)/3, and second moment about 0 of c (p.p + p.q + q.q) / 12.
"""

import math

from .._jit import njit


@njit(_nrt=False, entry=True)
def polygon_mass(verts, off, n, density):
    """(mass, cx, cy, inertia about the centroid) of a simple polygon (any winding)."""
    ox = verts[off, 0]
    oy = verts[off, 1]
    area = 0.0
    cx = 0.0
    cy = 0.0
    i_o = 0.0
    for i in range(1, n - 1):
        px = verts[off + i, 0] - ox
        py = verts[off + i, 1] - oy
        qx = verts[off + i + 1, 0] - ox
        qy = verts[off + i + 1, 1] - oy
        c = px * qy - py * qx
        area += 0.5 * c
        cx += c * (px + qx) / 6.0
        cy += c * (py + qy) / 6.0
        i_o += c * (px * px + px * qx + qx * qx + py * py + py * qy + qy * qy) / 12.0
    cx /= area
    cy /= area
    # Signed integrals: a clockwise outline negates area and i_o alike.
    mass = density * abs(area)
    inertia = density * abs(i_o) - mass * (cx * cx + cy * cy)
    return mass, cx + ox, cy + oy, inertia


@njit(_nrt=False, entry=True)
def capsule_mass(ax, ay, bx, by, radius, density):
    """(mass, cx, cy, inertia about the centroid) of a capsule: a rectangle and two half
    discs (a circle when a == b)."""
    lx = bx - ax
    ly = by - ay
    length = math.sqrt(lx * lx + ly * ly)
    r = radius
    rect_m = density * length * 2.0 * r
    disc_m = density * math.pi * r * r
    mass = rect_m + disc_m
    # Rectangle about its centre: m (l^2 + w^2) / 12 with w = 2r.
    i_rect = rect_m * (length * length + 4.0 * r * r) / 12.0
    # Two half discs = one disc about its centre (m r^2 / 2), moved out: each half disc's
    # centroid sits 4r/(3 pi) beyond the end; parallel axis via its own centroid.
    c = 4.0 * r / (3.0 * math.pi)
    half_m = 0.5 * disc_m
    i_half_own = half_m * r * r / 2.0 - half_m * c * c
    d = 0.5 * length + c
    i_disc = 2.0 * (i_half_own + half_m * d * d)
    return mass, 0.5 * (ax + bx), 0.5 * (ay + by), i_rect + i_disc
