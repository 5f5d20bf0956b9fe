"""Collision geometry: one-call functions for a pair, batch forms for arrays.

Conventions (see ``docs/geometry-rules.md`` for every degenerate case):

* float64, metres, y up. Polygons are (N, 2) array-likes or flat ``[x1, y1, x2, y2, ...]``
  sequences in either winding; they are normalised to **counter-clockwise**.
* ``Circle(center, radius)`` is accepted wherever a convex shape is.
* **Normals** (one rule for the whole library, ``docs/geometry-rules.md#normals``): a normal
  between two shapes A and B (``Penetration``, ``Manifold``, ``Impact`` and the batch forms)
  is the unit vector **from A to B**: moving A by ``-depth * normal`` or B by
  ``+depth * normal`` separates them. A normal where a segment meets a boundary
  (``BoundaryHit``, ``BoundaryHits``, ``Clip``) is that boundary's **outward surface normal**.
* Predicates treat shapes as closed sets (touching overlaps); measures (``penetration``,
  ``contact_points``) need depth > 0.

Every one-pair function and its ``*_many`` batch form run the same compiled kernel.

Example
-------
>>> import collide2d as c2d
>>> square = [(0, 0), (2, 0), (2, 2), (0, 2)]
>>> hit = c2d.segment_polygon((-1, 1), (3, 1), square)
>>> float(hit.fraction), hit.normal.tolist(), hit.edge
(0.25, [-1.0, 0.0], 3)
>>> pen = c2d.penetration(square, [(1.5, 0), (3, 0), (3, 2), (1.5, 2)])
>>> pen.normal.tolist(), float(pen.depth)   # from A (left) to B (right)
([1.0, 0.0], 0.5)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _tiers
from . import _validate as V
from ._decompose import decompose_ccw, is_simple

_big = _tiers.kernels("bigsat")
_hull = _tiers.kernels("hull")
_mass = _tiers.kernels("mass")
_pair_kernels = _tiers.kernels("pairs")
_sat = _tiers.kernels("sat")
_seg = _tiers.kernels("segment")

__all__ = [
    "Circle", "SegmentHit", "BoundaryHit", "Clip", "Penetration", "Impact", "Manifold",
    "MassInfo", "ShapePool", "BoundaryHits",
    "segment_intersection", "point_in_polygon", "points_in_polygon", "segment_polygon",
    "clip_segment", "polygons_overlap", "penetration", "sweep", "contact_points",
    "polygon_mass", "convex_hull", "is_convex", "decompose",
    "pack_shapes", "segment_intersection_many", "segment_polygon_many",
    "polygons_overlap_many", "penetration_many", "sweep_many", "clip_segment_many",
]


class Circle:
    """A closed disc: ``Circle(center, radius)``, radius in metres (> 0).

    >>> Circle((0, 0), 1.5).radius
    1.5
    """

    __slots__ = ("_center", "_radius")

    def __init__(self, center, radius):
        self.center = center
        self.radius = radius

    # Attributes are validated when set, as by the constructor.
    @property
    def center(self) -> np.ndarray:
        """Centre (m), a read-only (2,) float64 array; assign a new one to move the disc."""
        return self._center

    @center.setter
    def center(self, value):
        c = V.real_vector("center", value, bounded=True)
        c.flags.writeable = False
        self._center = c

    @property
    def radius(self) -> float:
        """Radius (m): finite, > 0, at most ``COORD_MAX``."""
        return self._radius

    @radius.setter
    def radius(self, value):
        self._radius = V.length("radius", value)

    def __repr__(self) -> str:
        return f"Circle(center=({self.center[0]:g}, {self.center[1]:g}), radius={self.radius:g})"


class SegmentHit(NamedTuple):
    """Where two segments meet: ``point = a + t (b - a) = c + u (d - c)``."""

    point: np.ndarray
    t: float
    u: float


class BoundaryHit(NamedTuple):
    """First crossing of a shape's boundary along a->b (:func:`segment_polygon`):
    ``point = a + fraction (b - a)``; ``normal`` is the boundary's unit **outward surface
    normal** there (of edge ``edge``; -1 for a circle), whichever way the segment crosses.

    Not to be confused with ``world.raycast``'s :class:`collide2d.RayHit`, which names the
    world shape and body hit."""

    fraction: float
    point: np.ndarray
    normal: np.ndarray
    edge: int


class Clip(NamedTuple):
    """The part of a->b inside a convex shape: ``t`` in [t_enter, t_exit]. The normals are the
    shape's outward surface normals where a->b enters and leaves it; a normal is zero where
    that end of the segment is already inside."""

    t_enter: float
    t_exit: float
    normal_enter: np.ndarray
    normal_exit: np.ndarray


class Penetration(NamedTuple):
    """Minimum translation distance. ``normal`` points from A to B: moving A by
    ``-normal * depth`` (or B by ``+normal * depth``) leaves A and B just touching."""

    normal: np.ndarray
    depth: float


class Impact(NamedTuple):
    """Swept contact: first touch at ``time`` (depth 0), or overlap at the start (time 0,
    ``normal`` and ``depth`` as in :func:`penetration`). ``normal`` points from A to B: at
    first touch it is the contact normal of the touching features, so the closing relative
    velocity has ``dot(velocity_a - velocity_b, normal) > 0``."""

    time: float
    normal: np.ndarray
    depth: float


class Manifold(NamedTuple):
    """Contact points midway between the surfaces (k = 1 or 2), the depth at each, and the
    normal, from A to B (as in the world's contacts)."""

    normal: np.ndarray
    points: np.ndarray
    depths: np.ndarray


class MassInfo(NamedTuple):
    """Mass (kg), centroid (m) and moment of inertia about the centroid (kg m^2)."""

    mass: float
    centroid: np.ndarray
    inertia: float


class BoundaryHits(NamedTuple):
    """:func:`segment_polygon_many`'s results, one row per segment: :class:`BoundaryHit`'s
    fields plus ``hit`` and the pool index ``shape``; rows without a hit hold NaN and -1."""

    hit: np.ndarray
    shape: np.ndarray
    fraction: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    edge: np.ndarray


class ShapePool(NamedTuple):
    """Many shapes packed for batch calls: vertices ``verts[offsets[i]:offsets[i]+counts[i]]``
    (counter-clockwise; a circle is its centre with ``radii[i] > 0``), bounding boxes
    ``aabbs[i] = (min_x, min_y, max_x, max_y)``, and whether each shape is convex."""

    verts: np.ndarray
    offsets: np.ndarray
    counts: np.ndarray
    radii: np.ndarray
    aabbs: np.ndarray
    convex: np.ndarray


# ---------------------------------------------------------------------------- helpers


def _vec(x: float, y: float) -> np.ndarray:
    # Adding 0.0 turns -0.0 into 0.0 so results print and compare cleanly.
    return np.array([x + 0.0, y + 0.0])


def _flip(normals: np.ndarray) -> np.ndarray:
    """Reverse (n, 2) normals in place (the batch kernels push A away from B; results point
    from A to B). ``0.0 - x`` keeps NaN rows NaN and gives 0.0, never -0.0."""
    np.subtract(0.0, normals, out=normals)
    return normals


def _shape(name: str, shape, *, convex: bool = True) -> tuple[np.ndarray, float]:
    """(vertices, radius) for a Circle or a polygon, validated."""
    if isinstance(shape, Circle):
        return shape.center.reshape(1, 2).copy(), shape.radius
    return V.polygon(name, shape, convex=convex), 0.0


def _check_motion(w: np.ndarray, t_max: float) -> None:
    """The relative displacement over [0, t_max] obeys the coordinate bound too."""
    if float(np.max(np.abs(w), initial=0.0)) * t_max > V.COORD_MAX:
        raise ValueError(f"t_max: the relative displacement (velocity_a - velocity_b) * t_max "
                         f"exceeds the supported {V.COORD_MAX:.0e} m")


def _pair(a, b):
    va, ra = _shape("A", a)
    vb, rb = _shape("B", b)
    return va, ra, vb, rb


# ---------------------------------------------------------------------------- one pair


def segment_intersection(a, b, c, d) -> SegmentHit | None:
    """Intersection of the closed segments a->b and c->d.

    Parallel segments never hit; collinear overlapping ones report the overlap's first point
    along a->b; a zero-length segment is a point.

    >>> segment_intersection((0, 0), (2, 2), (0, 2), (2, 0)).point.tolist()
    [1.0, 1.0]
    """
    a, b, c, d = (V.vector(n, p, bounded=True)
                  for n, p in zip("abcd", (a, b, c, d), strict=True))
    hit, t, u = _seg.segment_segment(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1])
    if not hit:
        return None
    return SegmentHit(a + t * (b - a), float(t), float(u))


def point_in_polygon(point, polygon) -> bool:
    """Even-odd containment; concave and self-intersecting outlines allowed.

    >>> point_in_polygon((1, 1), [(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)])
    True
    """
    p = V.vector("point", point, bounded=True)
    v = V.polygon("polygon", polygon)
    return bool(_seg.point_in_polygon(p[0], p[1], v, 0, v.shape[0]))


def points_in_polygon(points, polygon) -> np.ndarray:
    """:func:`point_in_polygon` for an (N, 2) array of points, in one compiled pass."""
    pts = V.points("points", points, bounded=True)
    v = V.polygon("polygon", polygon)
    out = np.empty(pts.shape[0], dtype=np.bool_)
    _seg.points_in_polygon_batch(pts, v, 0, v.shape[0], out)
    return out


def segment_polygon(a, b, polygon) -> BoundaryHit | None:
    """First crossing of a polygon's (or a Circle's) boundary along a->b.

    Concave polygons are allowed. A segment that starts inside reports where it leaves.
    ``normal`` is the outward surface normal at the crossing (a surface normal, not a
    normal between two shapes).

    >>> hit = segment_polygon((0, -5), (0, 5), Circle((0, 0), 1))
    >>> float(hit.fraction), hit.normal.tolist(), hit.edge
    (0.4, [0.0, -1.0], -1)
    """
    a = V.vector("a", a, bounded=True)
    b = V.vector("b", b, bounded=True)
    v, r = _shape("polygon", polygon, convex=False)
    t, nx, ny, edge = _seg.raycast_shape(a[0], a[1], b[0], b[1], v, 0, v.shape[0], r)
    if not np.isfinite(t):
        return None
    return BoundaryHit(float(t), a + t * (b - a), _vec(nx, ny), int(edge))


def clip_segment(a, b, convex) -> Clip | None:
    """The part of a->b inside a convex polygon or Circle (a laser through a hull).

    >>> clip = clip_segment((-1, 1), (3, 1), [(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> clip.t_enter, clip.t_exit
    (0.25, 0.75)
    """
    a = V.vector("a", a, bounded=True)
    b = V.vector("b", b, bounded=True)
    v, r = _shape("convex", convex)
    hit, t0, t1, ax, ay, bx, by = _seg.clip_segment(a[0], a[1], b[0], b[1], v, 0, v.shape[0], r)
    if not hit:
        return None
    return Clip(float(t0), float(t1), _vec(ax, ay), _vec(bx, by))


def polygons_overlap(A, B) -> bool:
    """Separating axis test for convex polygons or Circles; touching counts as overlap.

    >>> polygons_overlap([(0, 0), (1, 0), (0, 1)], [(1, 0), (2, 0), (2, 1)])
    True
    """
    va, ra, vb, rb = _pair(A, B)
    if _big.is_large(va.shape[0], ra, vb.shape[0], rb):
        d = _big.separation_large(va, 0, va.shape[0], vb, 0, vb.shape[0])[0]
    else:
        d = _sat.shape_distance(va, 0, va.shape[0], ra, vb, 0, vb.shape[0], rb, 0.0, 0.0,
                                False)[0]
    return bool(d <= 0.0)


def penetration(A, B) -> Penetration | None:
    """Minimum translation distance. ``normal`` points from A to B: moving A by
    ``-normal * depth`` (or B by ``+normal * depth``) leaves A and B touching.

    ``None`` unless the interiors overlap (depth > 0).

    >>> pen = penetration(Circle((0, 0), 1), Circle((1.5, 0), 1))
    >>> pen.normal.tolist(), round(pen.depth, 12)
    ([1.0, 0.0], 0.5)
    """
    va, ra, vb, rb = _pair(A, B)
    if _big.is_large(va.shape[0], ra, vb.shape[0], rb):
        # Two big polygons: O(n + m) instead of the narrowphase's O(n m) scan.
        d, nx, ny = _big.separation_large(va, 0, va.shape[0], vb, 0, vb.shape[0])
    else:
        d, nx, ny, *_ = _sat.shape_distance(va, 0, va.shape[0], ra, vb, 0, vb.shape[0], rb,
                                            0.0, 0.0, True)
    if d >= 0.0:
        return None
    # The kernels' normal (nx, ny) already points from A to B, as the world's contacts do.
    return Penetration(_vec(nx, ny), float(-d))


def sweep(A, velocity_a, B, velocity_b=(0.0, 0.0), t_max: float = 1.0) -> Impact | None:
    """Swept separating axis test: when does A, moving at ``velocity_a``, first touch B?

    Positions at time t are ``A + velocity_a t`` and ``B + velocity_b t`` for t in
    [0, t_max]. Separated at the start: ``time`` of first touch and depth 0. Touching or
    overlapping at the start: time 0 and the penetration depth. ``normal`` points from A to
    B, as in :func:`penetration`: at first touch, the contact normal of the touching
    features (A's face normal, or minus B's).

    >>> hit = sweep([(0, 0), (1, 0), (1, 1), (0, 1)], (4, 0), [(3, 0), (4, 0), (4, 1), (3, 1)])
    >>> hit.time, hit.normal.tolist(), hit.depth
    (0.5, [1.0, 0.0], 0.0)
    """
    va, ra, vb, rb = _pair(A, B)
    wa = V.vector("velocity_a", velocity_a, bounded=True)
    wb = V.vector("velocity_b", velocity_b, bounded=True)
    t_max = V.finite_scalar("t_max", t_max, nonnegative=True)
    w = wa - wb
    _check_motion(w, t_max)
    if _big.is_large(va.shape[0], ra, vb.shape[0], rb):
        hit, t, px, py, depth = _big.sweep_pair_large(va, 0, va.shape[0], vb, 0, vb.shape[0],
                                                      w[0], w[1], t_max)
    else:
        hit, t, px, py, depth = _sat.sweep_pair(va, 0, va.shape[0], ra, vb, 0, vb.shape[0], rb,
                                                w[0], w[1], t_max)
    if not hit:
        return None
    # The sweep kernels' normal pushes A away from B: flip it here, not in the kernels the
    # world's continuous collision shares.
    return Impact(float(t), _vec(-px, -py), float(depth))


def contact_points(A, B) -> Manifold | None:
    """Contact manifold of two overlapping convex shapes: point-edge gives one point,
    edge-edge two, each midway between the surfaces with its depth. ``normal`` points from
    A to B.

    >>> lower = [(0, 0), (2, 0), (2, 1), (0, 1)]
    >>> m = contact_points(lower, [(0, 0.9), (2, 0.9), (2, 1.9), (0, 1.9)])
    >>> m.normal.tolist(), sorted(m.points.round(6).tolist()), m.depths.round(6).tolist()
    ([0.0, 1.0], [[0.0, 0.95], [2.0, 0.95]], [0.1, 0.1])
    """
    va, ra, vb, rb = _pair(A, B)
    pts = np.empty((2, 2))
    sep = np.empty(2)
    ids = np.empty(2, dtype=np.int64)
    count, nx, ny = _sat.collide(va, 0, va.shape[0], ra, vb, 0, vb.shape[0], rb, 0.0,
                                 pts, sep, ids)
    keep = sep[:count] < 0.0
    if not np.any(keep):
        return None
    return Manifold(_vec(nx, ny), pts[:count][keep], -sep[:count][keep])


def polygon_mass(polygon, density: float = 1.0) -> MassInfo:
    """Mass, centroid and inertia about the centroid of a simple polygon or a Circle.

    >>> round(polygon_mass([(0, 0), (1, 0), (1, 1), (0, 1)]).inertia, 12)  # unit square: 1/6
    0.166666666667
    """
    rho = V.finite_scalar("density", density, positive=True)
    if isinstance(polygon, Circle):
        m = rho * np.pi * polygon.radius**2
        inertia = 0.5 * m * polygon.radius**2
        if not (np.isfinite(m) and np.isfinite(inertia)):
            raise ValueError("polygon: the circle's mass or moment of inertia overflows "
                             f"float64 at density {rho:g}")
        return MassInfo(m, polygon.center.copy(), inertia)
    v = V.polygon("polygon", polygon)
    m, cx, cy, inertia = _mass.polygon_mass(v, 0, v.shape[0], rho)
    if not (np.isfinite(m) and np.isfinite(inertia)):
        raise ValueError("polygon: its mass or moment of inertia overflows float64 "
                         f"(area x density x size^2 is too large at density {rho:g})")
    return MassInfo(float(m), np.array([cx, cy]), float(inertia))


def convex_hull(points) -> np.ndarray:
    """Convex hull, counter-clockwise from the lowest-x (then lowest-y) point, without
    collinear vertices. All-collinear input gives its two extreme points.

    >>> convex_hull([(0, 0), (2, 0), (1, 1), (1, 3), (0, 2)]).tolist()
    [[0.0, 0.0], [2.0, 0.0], [1.0, 3.0], [0.0, 2.0]]
    """
    pts = V.points("points", points, allow_empty=False, bounded=True)
    order = np.lexsort((pts[:, 1], pts[:, 0]))
    pts = np.ascontiguousarray(pts[order])
    keep = np.ones(pts.shape[0], dtype=bool)
    keep[1:] = np.any(pts[1:] != pts[:-1], axis=1)
    pts = np.ascontiguousarray(pts[keep])
    if pts.shape[0] == 1:
        return pts.copy()
    out = np.empty((2 * pts.shape[0] + 1, 2))
    k = _hull.monotone_chain(pts, out)
    return out[:k].copy()


def is_convex(polygon) -> bool:
    """True for a convex outline (collinear vertices allowed), in either winding.

    >>> is_convex([(0, 0), (4, 0), (4, 3), (2, 1), (0, 3)])
    False
    """
    v = V.polygon("polygon", polygon)
    return bool(V.convex_ccw(v))


def _check_simple(v: np.ndarray, name: str = "polygon") -> None:
    """Reject outlines whose non-adjacent edges meet (a compiled grid test, memory O(n))."""
    if not is_simple(v, name):
        raise ValueError(f"{name}: outline is self-intersecting; decompose needs a simple polygon")


def decompose(polygon) -> list[np.ndarray]:
    """Split a simple (possibly concave) polygon into convex counter-clockwise parts whose
    union is exactly the polygon (ear clipping + Hertel-Mehlhorn merging).

    >>> parts = decompose([(0, 0), (4, 0), (4, 3), (2, 1), (0, 3)])  # reflex vertex (2, 1)
    >>> len(parts), sum(polygon_mass(p).mass for p in parts)  # area 12 - 4 = 8
    (3, 8.0)
    """
    v = V.polygon("polygon", polygon)
    if V.convex_ccw(v):
        return [v.copy()]
    _check_simple(v)
    return decompose_ccw(v)


# ---------------------------------------------------------------------------- batches


def pack_shapes(shapes) -> ShapePool:
    """Pack polygons and Circles into one :class:`ShapePool` for the ``*_many`` functions.

    Concave polygons are allowed (for segment queries); pair functions reject them.
    """
    shapes = list(shapes)
    vs, counts, radii, convex = [], [], [], []
    for i, s in enumerate(shapes):
        v, r = _shape(f"shapes[{i}]", s, convex=False)
        vs.append(v)
        counts.append(v.shape[0])
        radii.append(r)
        convex.append(r > 0.0 or V.convex_ccw(v))
    verts = np.ascontiguousarray(np.concatenate(vs) if vs else np.empty((0, 2)))
    counts_a = np.asarray(counts, dtype=np.int64)
    offsets = np.zeros(len(counts), dtype=np.int64)
    if len(counts) > 1:
        offsets[1:] = np.cumsum(counts_a)[:-1]
    radii_a = np.asarray(radii, dtype=np.float64)
    aabbs = np.empty((len(counts), 4))
    for i, v in enumerate(vs):
        aabbs[i, :2] = v.min(axis=0) - radii_a[i]
        aabbs[i, 2:] = v.max(axis=0) + radii_a[i]
    pool = ShapePool(verts, offsets, counts_a, radii_a, aabbs, np.asarray(convex, dtype=bool))
    # The kernels index verts through offsets and counts: read-only arrays keep an edit from
    # slipping in by accident (every batch call still checks the pool, see _pool).
    for arr in pool:
        arr.flags.writeable = False
    return pool


_POOL_FIELDS = (("verts", np.float64, 2), ("offsets", np.int64, 1), ("counts", np.int64, 1),
                ("radii", np.float64, 1), ("aabbs", np.float64, 2), ("convex", np.bool_, 1))


def _pool(pool) -> ShapePool:
    """Check a ShapePool before a kernel indexes into it: dtypes, shapes, every shape's
    vertex range inside ``verts``, finite coordinates. Raises ValueError / TypeError naming
    the field, so that an edited or hand-built pool cannot make a kernel read out of bounds."""
    if not isinstance(pool, ShapePool):
        raise TypeError(f"pool: expected a ShapePool from pack_shapes, got {type(pool).__name__}")
    arrays = []
    for (name, dtype, ndim), value in zip(_POOL_FIELDS, pool, strict=True):
        if not isinstance(value, np.ndarray):
            raise TypeError(f"pool.{name}: expected a numpy array, got {type(value).__name__}")
        if value.ndim != ndim:
            raise ValueError(f"pool.{name}: expected {ndim} dimensions, got shape {value.shape}")
        if dtype is np.bool_:
            ok = value.dtype == np.bool_
        elif dtype is np.int64:
            ok = np.issubdtype(value.dtype, np.integer)
        else:
            ok = np.issubdtype(value.dtype, np.floating) or np.issubdtype(value.dtype,
                                                                          np.integer)
        if not ok:
            raise TypeError(f"pool.{name}: expected dtype {np.dtype(dtype).name}, "
                            f"got {value.dtype}")
        arrays.append(value)
    verts, offs, counts, radii, aabbs, convex = arrays
    m = offs.shape[0]
    if verts.shape[1] != 2:
        raise ValueError(f"pool.verts: expected shape (V, 2), got {verts.shape}")
    if aabbs.shape != (m, 4):
        raise ValueError(f"pool.aabbs: expected shape ({m}, 4), got {aabbs.shape}")
    for name, arr in (("counts", counts), ("radii", radii), ("convex", convex)):
        if arr.shape != (m,):
            raise ValueError(f"pool.{name}: expected shape ({m},) like pool.offsets, "
                             f"got {arr.shape}")
    nv = verts.shape[0]
    # Compare as Python ints where int64 could wrap (offsets + counts near 2**63).
    if m and (int(counts.min()) < 1 or int(offs.min()) < 0):
        raise ValueError("pool.counts / pool.offsets: every shape needs counts >= 1 and "
                         "offsets >= 0")
    if m and int(np.max(offs.astype(object) + counts.astype(object))) > nv:
        raise ValueError(f"pool.offsets / pool.counts: a shape's vertices run past the end of "
                         f"pool.verts ({nv} rows)")
    verts = np.ascontiguousarray(verts, dtype=np.float64)
    radii = np.ascontiguousarray(radii, dtype=np.float64)
    aabbs = np.ascontiguousarray(aabbs, dtype=np.float64)
    if not np.all(np.isfinite(verts)):
        raise ValueError("pool.verts: contains NaN or inf")
    V.check_bound("pool.verts", verts)
    if not np.all(np.isfinite(radii)) or np.any(radii < 0.0):
        raise ValueError("pool.radii: must be finite and >= 0")
    V.check_bound("pool.radii", radii)
    if np.any(np.isnan(aabbs)):
        raise ValueError("pool.aabbs: contains NaN")
    return ShapePool(_writable(verts, np.float64), _writable(offs, np.int64),
                     _writable(counts, np.int64), _writable(radii, np.float64),
                     _writable(aabbs, np.float64), _writable(convex, np.bool_))


def _writable(arr: np.ndarray, dtype) -> np.ndarray:
    """``arr`` as the kernels take it: contiguous, ``dtype``, writable. A kernel compiles once
    per array type and read-only is another type, so a pool's read-only arrays are copied
    (the check above reads them whole anyway) rather than compiling every pair kernel
    twice."""
    out = np.ascontiguousarray(arr, dtype=dtype)
    return out if out.flags.writeable else out.copy()


def _pairs(pool: ShapePool, pairs) -> np.ndarray:
    p = np.asarray(pairs)
    if p.ndim == 2 and p.shape[0] == 0 and p.shape[1] == 2:
        p = p.astype(np.int64)
    if p.ndim != 2 or p.shape[1] != 2 or not np.issubdtype(p.dtype, np.integer):
        raise ValueError(f"pairs: expected an (M, 2) integer array, got shape {p.shape}")
    if p.size and (p.min() < 0 or p.max() >= pool.counts.shape[0]):
        raise ValueError("pairs: index out of range of the pool")
    if p.size and not np.all(pool.convex[p]):
        raise ValueError("pairs: pair functions need convex shapes; decompose concave ones")
    return np.ascontiguousarray(p, dtype=np.int64)


def _segments(starts, ends, names=("starts", "ends")) -> tuple[np.ndarray, np.ndarray]:
    a = V.points(names[0], starts, bounded=True)
    b = V.points(names[1], ends, bounded=True)
    if a.shape != b.shape:
        raise ValueError(f"{names[1]}: shape {b.shape} differs from {names[0]} {a.shape}")
    return a, b


def segment_intersection_many(a, b, c, d):
    """Row-wise :func:`segment_intersection`: returns ``(hit, point, t, u)`` arrays; rows
    without a hit hold NaN."""
    a, b = _segments(a, b, ("a", "b"))
    c, d = _segments(c, d, ("c", "d"))
    if c.shape != a.shape:
        raise ValueError("c: must have as many rows as a")
    n = a.shape[0]
    hit = np.empty(n, dtype=np.bool_)
    point = np.empty((n, 2))
    t = np.empty(n)
    u = np.empty(n)
    _seg.segment_intersection_batch(a, b, c, d, hit, point, t, u)
    return hit, point, t, u


def segment_polygon_many(starts, ends, pool: ShapePool) -> BoundaryHits:
    """First crossing of each segment with any shape of ``pool`` (the smallest fraction), with
    the outward surface normal there, as in :func:`segment_polygon`."""
    a, b = _segments(starts, ends)
    pool = _pool(pool)
    n = a.shape[0]
    out = BoundaryHits(np.empty(n, np.bool_), np.empty(n, np.int64), np.empty(n),
                      np.empty((n, 2)), np.empty((n, 2)), np.empty(n, np.int64))
    _seg.segment_pool_first(a, b, pool.verts, pool.offsets, pool.counts, pool.radii,
                            pool.aabbs, *out)
    return out


def clip_segment_many(starts, ends, convex):
    """Row-wise :func:`clip_segment` against one convex shape: ``(hit, t_enter, t_exit,
    normal_enter, normal_exit)``."""
    a, b = _segments(starts, ends)
    v, r = _shape("convex", convex)
    n = a.shape[0]
    hit = np.empty(n, np.bool_)
    t0 = np.empty(n)
    t1 = np.empty(n)
    n0 = np.empty((n, 2))
    n1 = np.empty((n, 2))
    _seg.clip_segment_batch(a, b, v, 0, v.shape[0], r, hit, t0, t1, n0, n1)
    return hit, t0, t1, n0, n1


def polygons_overlap_many(pool: ShapePool, pairs) -> np.ndarray:
    """:func:`polygons_overlap` for each row ``(i, j)`` of ``pairs``."""
    pool = _pool(pool)
    p = _pairs(pool, pairs)
    out = np.empty(p.shape[0], np.bool_)
    _pair_kernels.overlap_batch(pool.verts, pool.offsets, pool.counts, pool.radii, pool.aabbs,
                                p, out)
    return out


def penetration_many(pool: ShapePool, pairs):
    """:func:`penetration` for each row: ``(hit, normal, depth)``, the normal from shape
    ``pairs[k, 0]`` to shape ``pairs[k, 1]``; no hit gives NaN."""
    pool = _pool(pool)
    return _penetration_pairs(pool, _pairs(pool, pairs))


def _penetration_pairs(pool: ShapePool, p: np.ndarray):
    """:func:`penetration_many` without the checks, for a trusted pool built from the world's
    own shapes (``collide2d.draw``), which may hold rounded polygons and capsules (radius > 0
    with several vertices: the kernel handles them; ``pack_shapes`` never makes them)."""
    m = p.shape[0]
    hit = np.empty(m, np.bool_)
    normal = np.empty((m, 2))
    depth = np.empty(m)
    _pair_kernels.penetration_batch(pool.verts, pool.offsets, pool.counts, pool.radii,
                                    pool.aabbs, p, hit, normal, depth)
    return hit, _flip(normal), depth


def sweep_many(pool: ShapePool, pairs, velocities_a, velocities_b=None, t_max: float = 1.0):
    """:func:`sweep` for each row: ``(hit, time, normal, depth)``, the normal from shape
    ``pairs[k, 0]`` to shape ``pairs[k, 1]``; no hit gives NaN."""
    pool = _pool(pool)
    p = _pairs(pool, pairs)
    wa = V.points("velocities_a", velocities_a, bounded=True)
    wb = (np.zeros_like(wa) if velocities_b is None
          else V.points("velocities_b", velocities_b, bounded=True))
    if wa.shape[0] != p.shape[0] or wb.shape[0] != p.shape[0]:
        raise ValueError("velocities_a: need one velocity per pair")
    t_max = V.finite_scalar("t_max", t_max, nonnegative=True)
    _check_motion(wa - wb, t_max)
    m = p.shape[0]
    hit = np.empty(m, np.bool_)
    time = np.empty(m)
    normal = np.empty((m, 2))
    depth = np.empty(m)
    _pair_kernels.sweep_batch(pool.verts, pool.offsets, pool.counts, pool.radii, p,
                              np.ascontiguousarray(wa - wb), t_max, hit, time, normal, depth)
    return hit, time, _flip(normal), depth

