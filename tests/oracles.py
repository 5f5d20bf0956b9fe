"""Independent oracles for geometry tests: shapely 2, closed forms and brute force.

Shapes are test-side data (see ``strategies``): an (n, 2) array is a polygon, a ``Disc`` a
circle. A circle is handled exactly as a point with a radius (a Minkowski sum with a disc),
never as shapely's polygonal ``buffer`` approximation, so distances are exact to rounding.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import LinearRing, LineString, MultiPoint, Point, Polygon
from strategies import Disc


def is_disc(s) -> bool:
    return isinstance(s, Disc)


def to_shape(s, geometry):
    """Test-side shape -> argument for collide2d.geometry (Disc -> geometry.Circle)."""
    if is_disc(s):
        return geometry.Circle(s.center, s.radius)
    return np.asarray(s, dtype=float)


def core(s):
    """(shapely core geometry, radius): the shape is the core grown by the radius."""
    if is_disc(s):
        return Point(s.center), float(s.radius)
    return Polygon(np.asarray(s, dtype=float)), 0.0


def translate(s, v):
    v = np.asarray(v, dtype=float)
    if is_disc(s):
        return Disc((s.center[0] + v[0], s.center[1] + v[1]), s.radius)
    return np.asarray(s, dtype=float) + v


def core_distance(ca, cb) -> float:
    (ga, ra), (gb, rb) = ca, cb
    return max(0.0, float(shapely.distance(ga, gb)) - ra - rb)


def distance(a, b) -> float:
    """Exact Euclidean distance between two closed shapes (0 when they meet)."""
    return core_distance(core(a), core(b))


def overlap_strictly(a, b) -> bool:
    """True when the shapes share a region of positive area (not merely touching)."""
    (ga, ra), (gb, rb) = core(a), core(b)
    if ra == 0.0 and rb == 0.0:
        return float(shapely.intersection(ga, gb).area) > 0.0
    return float(shapely.distance(ga, gb)) < ra + rb


def signed_distance_to_polygon(poly, p) -> float:
    """Negative inside (minus distance to the boundary), positive outside."""
    pg = Polygon(poly)
    pt = Point(p)
    d = float(pg.exterior.distance(pt))
    return -d if pg.contains(pt) else d


def penetration_depth(a, b) -> float:
    """Smallest translation length separating a from b (0 when not overlapping).

    Polygons: distance from the origin to the boundary of the Minkowski difference
    b - a (the set of translations of a that make it meet b). A circle against a convex
    shape: r - signed distance from the centre (signed distance grows by r under the
    Minkowski sum with a disc, for convex sets).
    """
    if is_disc(a) and is_disc(b):
        d = math.dist(a.center, b.center)
        return max(0.0, a.radius + b.radius - d)
    if is_disc(a) or is_disc(b):
        disc, poly = (a, b) if is_disc(a) else (b, a)
        return max(0.0, disc.radius - signed_distance_to_polygon(poly, disc.center))
    pa = np.asarray(a, dtype=float)
    pb = np.asarray(b, dtype=float)
    diff = (pb[None, :, :] - pa[:, None, :]).reshape(-1, 2)
    m = MultiPoint(diff).convex_hull
    origin = Point(0.0, 0.0)
    if not m.contains(origin):
        return 0.0
    return float(m.exterior.distance(origin))


def swept_core(s, v):
    """Core of the region covered by s translated by t*v, t in [0, 1] (a convex hull)."""
    v = np.asarray(v, dtype=float)
    if is_disc(s):
        c = np.asarray(s.center, dtype=float)
        if np.all(c + v == c):  # no motion representable at this position
            return Point(c), float(s.radius)
        return LineString([c, c + v]), float(s.radius)
    p = np.asarray(s, dtype=float)
    return MultiPoint(np.vstack([p, p + v])).convex_hull, 0.0


def shrink(s, eps):
    """The shape eroded by eps (exact for convex polygons: mitred inward offset)."""
    if is_disc(s):
        return Disc(s.center, s.radius - eps)
    g = Polygon(s).buffer(-eps, join_style="mitre")
    return np.asarray(g.exterior.coords, dtype=float)[:-1]


def sweep_time(a, va, b, vb, t_max, margin=1e-6):
    """First contact time by bisection on exact distances; (status, time).

    status is "hit", "miss" or "ambiguous" (the swept hull grazes b within ``margin``,
    or contact happens at a grazing angle, where the answer is ill-conditioned).
    """
    v = np.asarray(va, dtype=float) - np.asarray(vb, dtype=float)
    vt = v * t_max
    if distance(a, b) == 0.0:
        return "hit", 0.0
    swept_gap = core_distance(swept_core(a, vt), core(b))
    if swept_gap > margin:
        return "miss", None
    if core_distance(swept_core(shrink(a, margin), vt), core(shrink(b, margin))) > 0.0:
        return "ambiguous", None

    def gap(t):
        return distance(translate(a, v * t), b)

    if gap(0.0) <= margin:
        return "ambiguous", None
    # gap(t) is convex in t (distance from a moving point to a convex set): ternary search
    # finds a touching time, then bisection finds the first one.
    lo, hi = 0.0, t_max
    for _ in range(200):
        m1 = lo + (hi - lo) / 3.0
        m2 = hi - (hi - lo) / 3.0
        if gap(m1) <= gap(m2):
            hi = m2
        else:
            lo = m1
    # the search ends at the first touching time from either side; step into the contact
    for k in (0.0, 1e-12, 1e-9, 1e-6, 1e-4):
        t_in = min(hi + k * t_max, t_max)
        if gap(t_in) == 0.0:
            break
    else:
        return "ambiguous", None
    lo, hi = 0.0, t_in
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if gap(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    # Ill-conditioned when the approach speed along the contact normal is tiny.
    h = min(1e-3 * t_max, hi)
    if gap(hi - h) < 1e-3 * h * float(np.hypot(*v)):
        return "ambiguous", None
    return "hit", hi


def ccw(poly):
    p = np.asarray(poly, dtype=float)
    x, y = p[:, 0], p[:, 1]
    area2 = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    return p if area2 > 0 else p[::-1].copy()


def outward_normal(p0, p1):
    """Outward unit normal of edge p0 -> p1 of a counter-clockwise polygon."""
    e = np.asarray(p1, dtype=float) - np.asarray(p0, dtype=float)
    return np.array([e[1], -e[0]]) / math.hypot(e[0], e[1])


def nearest_edge(poly, p) -> int:
    poly = np.asarray(poly, dtype=float)
    n = len(poly)
    d = [LineString([poly[i], poly[(i + 1) % n]]).distance(Point(p)) for i in range(n)]
    return int(np.argmin(d))


def boundary_crossings(a, b, poly):
    """Sorted fractions along a->b of every point where the segment meets the boundary."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    inter = LineString([a, b]).intersection(LinearRing(poly))
    pts = shapely.get_coordinates(inter)
    ab = b - a
    return sorted(float(np.dot(p - a, ab) / np.dot(ab, ab)) for p in pts)


def segment_clear_of_vertices(a, b, poly, eps=1e-7) -> bool:
    line = LineString([a, b])
    return all(line.distance(Point(v)) > eps for v in np.asarray(poly))


def even_odd_region(poly):
    """The even-odd fill of any vertex loop (shapely's 'linework' make_valid)."""
    return shapely.make_valid(Polygon(poly), method="linework")


def crossing_count_inside(p, poly) -> bool:
    """Brute-force even-odd test with a rightward ray (exact rational arithmetic)."""
    from fractions import Fraction

    px, py = Fraction(p[0]), Fraction(p[1])
    q = [(Fraction(x), Fraction(y)) for x, y in np.asarray(poly, dtype=float)]
    inside = False
    for i in range(len(q)):
        (x0, y0), (x1, y1) = q[i], q[(i + 1) % len(q)]
        if (y0 > py) != (y1 > py):
            x = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
            if x > px:
                inside = not inside
    return inside


def is_convex_loop(poly, tol=1e-12) -> bool:
    """All turns one way (collinear allowed) and total turning 2 pi: a convex polygon."""
    p = np.asarray(poly, dtype=float)
    e = np.roll(p, -1, axis=0) - p
    e_next = np.roll(e, -1, axis=0)
    cross = e[:, 0] * e_next[:, 1] - e[:, 1] * e_next[:, 0]
    scale = np.hypot(e[:, 0], e[:, 1]) * np.hypot(e_next[:, 0], e_next[:, 1])
    c = cross / scale
    if not (np.all(c >= -tol) or np.all(c <= tol)):
        return False
    ang = np.arctan2(cross, np.einsum("ij,ij->i", e, e_next))
    return abs(abs(float(ang.sum())) - 2 * math.pi) < 1e-6
