"""World queries: rays, points, boxes, shapes and shape casts, one at a time or in bulk.

:class:`Queries` answers :class:`~collide2d.World`'s query methods. Every query runs
compiled code over the world's arrays through a bounding volume hierarchy of the shapes'
world boxes (``_kernels/bvh.py``), rebuilt in compiled code whenever a shape was added,
removed or moved since the last query. A batch query (``raycast_many``, ``query_points``)
is one compiled pass: 100,000 segments cost about as much as a few Python calls.

Conventions (metres, radians, y up, counter-clockwise):

* **Results name Shapes**: a concave polygon, stored as convex parts, is one Shape; a point
  is in it when it is in its outline (in any part).
* **Start inside.** A segment that starts inside (or on) a shape hits it at fraction 0 with
  normal (0, 0), as in pymunk; otherwise the hit is the first crossing of the shape's
  boundary along a->b, with the outward unit normal there.
* **Normals** (``docs/geometry-rules.md``, "Normals"): a ray's (or particle's) hit carries the
  hit shape's **outward surface normal**. A normal between two shapes points **from the
  query shape to the world shape** (``query_shape``, ``shape_cast``), as a world contact's
  points from ``shape_a`` to ``shape_b`` and ``collide2d.penetration(A, B)``'s from A to B.
* **Closed sets.** Touching counts: a point on an edge is inside, a box that only touches a
  shape's box meets it, ``query_shape`` reports touching shapes with depth 0.
* **Ties** between shapes at the same fraction or time go to the lower shape id.
* **Filters**: :class:`QueryFilter` (category and mask bits, excluded bodies, sensors).
  Sensors are skipped unless the filter asks for them.

Example
-------
>>> import collide2d as c2d
>>> world = c2d.World()
>>> wall = world.add_body(kind="static", position=(5, 0))
>>> _ = wall.add_box(1, 4)                       # faces at x = 4.5 and 5.5
>>> hit = world.raycast((0, 0), (10, 0))
>>> hit.body is wall, hit.point.tolist(), hit.normal.tolist(), hit.fraction
(True, [4.5, 0.0], [-1.0, 0.0], 0.45)
>>> many = world.raycast_many([(0, 0), (0, 3)], [(10, 0), (10, 3)])
>>> many.hit.tolist(), many.body.tolist(), many.fraction.tolist()
([True, False], [0, -1], [0.45, nan])
>>> [s.body is wall for s in world.query_point((5, 1))]
[True]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import _store as S
from . import _tiers
from . import _validate as V
from ._decompose import decompose_ccw
from ._kernels import views as KV
from .body import _ids_of_slots, _slot_identity

_bvh = _tiers.kernels("bvh")
_q = _tiers.kernels("queries")

if TYPE_CHECKING:
    from .body import Body
    from .shapes import Shape

__all__ = ["QueryFilter", "RayHit", "RayHitArrays", "PointHitArrays", "ShapeOverlap",
           "ShapeCastHit", "Queries"]

_ALL_BITS = 0xFFFFFFFF


class QueryFilter:
    """Which shapes a query sees.

    A shape is seen when ``shape.category & mask`` and ``category & shape.mask`` are both
    non-zero (the query acts as a shape of ``category`` that collides with ``mask``, as in
    Box2D), its body is not in ``exclude``, and it is not a sensor unless ``sensors`` is
    True. The default sees every non-sensor shape.

    Parameters
    ----------
    category : int
        Category bits of the query (32 bits).
    mask : int
        Which shape categories the query sees (32 bits).
    exclude : Body or iterable of Body
        Bodies whose shapes are skipped (the shooter's own ship); bodies removed from the
        world since are ignored.
    sensors : bool
        Include sensor shapes.

    Example
    -------
    >>> import collide2d as c2d
    >>> world = c2d.World()
    >>> ship = world.add_body(kind="static")
    >>> _ = ship.add_circle(1.0)
    >>> world.raycast((-5, 0), (5, 0), QueryFilter(exclude=ship)) is None
    True
    >>> world.raycast((-5, 0), (5, 0), QueryFilter(mask=0b10)) is None   # category 1 hidden
    True
    """

    __slots__ = ("_category", "_mask", "_exclude", "_sensors")

    def __init__(self, category: int = _ALL_BITS, mask: int = _ALL_BITS, exclude=(),
                 sensors: bool = False):
        self.category = category
        self.mask = mask
        self.exclude = exclude
        self.sensors = sensors

    # Attributes are validated when set, as by the constructor.
    @property
    def category(self) -> int:
        """Category bits of the query (an int in 0 .. 0xFFFFFFFF)."""
        return self._category

    @category.setter
    def category(self, value):
        self._category = _bits("category", value)

    @property
    def mask(self) -> int:
        """Which shape categories the query sees (an int in 0 .. 0xFFFFFFFF)."""
        return self._mask

    @mask.setter
    def mask(self, value):
        self._mask = _bits("mask", value)

    @property
    def exclude(self) -> tuple:
        """Bodies whose shapes are skipped, a tuple (set a Body or an iterable of them)."""
        return self._exclude

    @exclude.setter
    def exclude(self, value):
        from .body import Body

        if isinstance(value, Body):
            value = (value,)
        try:
            value = tuple(value)
        except TypeError:
            raise TypeError("exclude: expected a Body or an iterable of Body, got "
                            f"{type(value).__name__}") from None
        for b in value:
            if not isinstance(b, Body):
                raise TypeError(f"exclude: expected Body handles, got {type(b).__name__}")
        self._exclude = value

    @property
    def sensors(self) -> bool:
        """Whether sensor shapes are seen."""
        return self._sensors

    @sensors.setter
    def sensors(self, value):
        self._sensors = V.flag("sensors", value)

    def __repr__(self) -> str:
        return (f"QueryFilter(category={self.category:#x}, mask={self.mask:#x}, "
                f"exclude={len(self.exclude)} bodies, sensors={self.sensors})")


class RayHit(NamedTuple):
    """First shape crossed by a segment (``world.raycast``, ``collide2d.RayHit``):
    ``point = a + fraction (b - a)``, ``normal`` the shape's outward unit surface normal there
    ((0, 0) when the segment starts inside the shape). The geometry function
    ``segment_polygon`` returns a :class:`collide2d.BoundaryHit` instead."""

    shape: Shape
    body: Body
    point: np.ndarray
    normal: np.ndarray
    fraction: float


class RayHitArrays(NamedTuple):
    """One row per segment: ``body`` is the body id (see ``Body.id``; ``world.body(id)``)
    and ``shape`` the shape id (``world.shape(id)``); rows without a hit hold False, -1 and
    NaN."""

    hit: np.ndarray
    body: np.ndarray
    shape: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    fraction: np.ndarray


class PointHitArrays(NamedTuple):
    """One row per point: whether a shape contains it, and which (the lowest shape id when
    several do, with its body id, see ``Body.id``; ``world.body(id)``); -1 where none does."""

    hit: np.ndarray
    body: np.ndarray
    shape: np.ndarray


class ShapeOverlap(NamedTuple):
    """A shape touching or overlapping the query shape. ``normal`` points from the query
    shape to this shape: moving the query shape by ``-normal * depth`` (m) separates it from
    this shape's deepest part (depth 0: touching)."""

    shape: Shape
    body: Body
    normal: np.ndarray
    depth: float


class ShapeCastHit(NamedTuple):
    """First shape met by a moving shape. ``time`` in [0, 1] is the fraction of the move
    start->end at first touch (0 with ``depth`` > 0 if it already overlaps at the start);
    ``normal`` points from the moving shape to the hit shape (as ``collide2d.sweep``'s
    ``Impact``); ``point`` (m) is the hit shape's surface point nearest the moving shape at
    that time."""

    shape: Shape
    body: Body
    time: float
    point: np.ndarray
    normal: np.ndarray
    depth: float


_bits = V.bits32


# Rows a query reduces to each owner's best part in Python (``_first_per_owner``).
_FEW_ROWS = 64
# Query outlines checked and split into convex parts (``_query_parts``), by their
# coordinates' bytes; a few dozen at most.
_QUERY_OUTLINES: dict = {}


def _first_per_owner(owners: np.ndarray, keys: np.ndarray) -> list:
    """For each owner, in increasing order, the row with the smallest key (the first such
    row on a tie): what ``np.lexsort((keys, owners))`` then ``np.unique(..., return_index=
    True)`` pick, in Python for the few rows a query finds (NumPy's sorts cost more there
    than the query's kernel), in NumPy past ``_FEW_ROWS``."""
    if len(owners) > _FEW_ROWS:
        order = np.lexsort((keys, owners))
        _, first = np.unique(owners[order], return_index=True)
        return order[first].tolist()
    best: dict = {}
    kl = keys.tolist()
    for i, o in enumerate(owners.tolist()):
        j = best.get(o)
        # (lexsort puts NaN keys last)
        if j is None or kl[i] < kl[j] or (kl[j] != kl[j] and kl[i] == kl[i]):
            best[o] = i
    return [best[o] for o in sorted(best)]


def _vec(x: float, y: float) -> np.ndarray:
    return np.array([x + 0.0, y + 0.0])


class ShapeTree:
    """A wide BVH over the live rows of a shape store (``_kernels/bvh.py``), rebuilt only
    when rows or boxes change. ``view()`` is the tree as the kernels take it (a
    ``TreeView``)."""

    def __init__(self) -> None:
        self.k = 0
        self.n_nodes = 0
        self.built = False
        self._alloc(0)

    def _alloc(self, cap: int) -> None:
        self.boxes = np.empty((cap, 4))
        self.items = np.empty(cap, dtype=np.int64)
        self.node_first = np.empty(cap, dtype=np.int64)
        self.node_count = np.empty(cap, dtype=np.int64)
        self.slot_box = np.empty((4, 2 * cap))
        self.slot_ref = np.empty(2 * cap, dtype=np.int64)

    def update(self, boxes: np.ndarray, flags: np.ndarray, count: int) -> bool:
        """Rebuild from ``boxes[:count]`` of the rows alive in ``flags``; True if rebuilt."""
        if self.built and _bvh.same_boxes(boxes, flags, count, S.S_ALIVE, self.boxes,
                                          self.items, self.k):
            return False
        if self.boxes.shape[0] < count:
            self._alloc(max(count, 2 * self.boxes.shape[0], 8))
        self.k = int(_bvh.live_boxes(boxes, flags, count, S.S_ALIVE, self.boxes, self.items))
        self.n_nodes = int(_bvh.build(self.boxes[: self.k], self.items[: self.k], _bvh.WIDTH,
                                      _bvh.ROOT_WIDTH, self.node_first, self.node_count,
                                      self.slot_box, self.slot_ref))
        self.built = True
        return True

    def update_accepted(self, shapes, f_category: int, f_mask: int, f_sensors: bool) -> bool:
        """Rebuild over the live rows of the shape store ``shapes`` that a filter's bits
        and sensor flag accept, if those rows or their boxes changed; True if rebuilt."""
        count = shapes.count
        if self.boxes.shape[0] < count:
            self._alloc(max(count, 2 * self.boxes.shape[0], 8))
            self.built = False
        k = int(_q.gather_accepted(shapes.aabb, shapes.flags, shapes.category, shapes.mask,
                                   count, f_category, f_mask, f_sensors, self.boxes,
                                   self.items, self.k if self.built else -1))
        if k < 0:
            return False
        self.k = k
        self.n_nodes = int(_bvh.build(self.boxes[:k], self.items[:k], _bvh.WIDTH,
                                      _bvh.ROOT_WIDTH, self.node_first, self.node_count,
                                      self.slot_box, self.slot_ref))
        self.built = True
        return True

    def view(self) -> KV.TreeView:
        return KV.TreeView(self.node_first, self.node_count, self.slot_box, self.slot_ref,
                           self.n_nodes)


_NO_FILTER = QueryFilter()
# Body motion arrays of the particle step; a plain query tests shapes where they are.
_NO_MOTION = (np.zeros(0, dtype=np.bool_), np.zeros(0), np.zeros((0, 2)), np.zeros((0, 2)))


def _frames(n: int) -> KV.MotionView:
    """A query's body frames for ``n`` body slots: slots mapped to themselves (the
    kernels' hits come back as slots), no motion."""
    global _FRAMES
    frames = _FRAMES  # (one read: another thread may replace it meanwhile)
    if frames.ids.shape[0] != n:
        frames = _FRAMES = KV.MotionView(_slot_identity(n), *_NO_MOTION)
    return frames


# The views of queries that exclude nothing, by (category, mask, sensors), and the frames
# of the last body count: made once, not at every call. (Kernels called from here take the
# views as plain tuples: Numba's dispatcher types a namedtuple argument in Python at every
# call, a tuple in C; a raycast's five views were 3 of its 15 us.)
_PLAIN_FILTERS: dict = {}
_FRAMES = KV.MotionView(np.zeros(0, np.int64), *_NO_MOTION)


class Queries:
    """The world's queries: a component of :class:`~collide2d.World`, which calls it for
    ``world.raycast``, ``world.query_point`` and the others. It owns the query tree over
    the shapes' boxes and reads the world's stores."""

    def __init__(self, world):
        self.world = world
        self._query_tree: ShapeTree | None = None
        # Segment casts' trees, one per filter (bits, sensors) in use: over the shapes the
        # filter accepts, so a lidar that sees only a static level never rebuilds its tree
        # as bodies move (the tree over every shape is rebuilt after every step that moves
        # one: 51 us for a walker's 204 shapes).
        self._cast_trees: dict[tuple, ShapeTree] = {}

    # ------------------------------------------------------------------ plumbing
    def _tree(self) -> ShapeTree:
        """World vertices and boxes up to date, and the tree over them."""
        self.world._sync_shapes()
        tree = self._query_tree
        if tree is None:
            tree = self._query_tree = ShapeTree()
        s = self.world._shapes
        tree.update(s.aabb, s.flags, s.count)
        return tree

    def _cast_tree(self, f: KV.FilterView) -> ShapeTree:
        """World vertices and boxes up to date, and the tree over the shapes the filter
        ``f`` accepts (its bits and sensor flag). A segment cast walks it to the same first
        hit as the tree over every shape: ties go to the lower shape id, and nodes entered
        at the best fraction so far are still walked."""
        self.world._sync_shapes()
        key = (int(f.category), int(f.mask), bool(f.sensors))
        tree = self._cast_trees.get(key)
        if tree is None:
            if len(self._cast_trees) >= 8:  # a few filters in use, not one per call
                self._cast_trees.clear()
            tree = self._cast_trees[key] = ShapeTree()
        tree.update_accepted(self.world._shapes, *key)
        return tree

    def _filter_args(self, filter, extra_exclude=()) -> KV.FilterView:
        if filter is None:
            filter = _NO_FILTER
        elif not isinstance(filter, QueryFilter):
            raise TypeError(f"filter: expected a QueryFilter or None, got "
                            f"{type(filter).__name__}")
        excluded = tuple(filter.exclude) + tuple(extra_exclude)
        if not excluded:
            # (Most filters exclude nothing: their view is made once, as queries take it.)
            key = (filter.category, filter.mask, filter.sensors)
            view = _PLAIN_FILTERS.get(key)
            if view is None:
                if len(_PLAIN_FILTERS) >= 64:
                    _PLAIN_FILTERS.clear()
                view = _PLAIN_FILTERS[key] = KV.FilterView(
                    np.int64(key[0]), np.int64(key[1]), bool(key[2]), np.zeros(0, np.int64))
            return view
        slots = []
        for b in excluded:
            if b.world is not self.world:
                raise ValueError("filter: an excluded body belongs to another world")
            if b.alive:  # a removed body has no shapes left to exclude
                slots.append(b._slot)
        return KV.FilterView(np.int64(filter.category), np.int64(filter.mask),
                             bool(filter.sensors), np.array(slots, dtype=np.int64))

    def _shape_rows(self) -> tuple:
        """The shape rows a query kernel reads (``KV.QueryShapes``' fields, in order)."""
        s = self.world._shapes
        return (s.body, s.owner, s.flags, s.category, s.mask, s.vstart, s.vcount, s.radius,
                s.vworld)

    def _handles(self, row: int) -> tuple:
        shape = self.world._shape_handles[int(self.world._shapes.owner[row])]
        return shape, shape.body

    # ------------------------------------------------------------------ segments
    def raycast(self, a, b, filter: QueryFilter | None = None) -> RayHit | None:
        """The first shape crossed by the segment a->b (m), or None.

        A segment that starts inside (or on) a shape hits it at fraction 0 with normal
        (0, 0). The same compiled code answers :meth:`raycast_many`, so the two agree
        exactly.

        Parameters
        ----------
        a, b : (x, y)
            Start and end of the segment, world frame (m). a == b tests the point.
        filter : QueryFilter, optional

        Returns
        -------
        RayHit or None
            ``RayHit(shape, body, point, normal, fraction)``.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> ball = world.add_body(kind="static", position=(0, 3))
        >>> _ = ball.add_circle(1.0)
        >>> hit = world.raycast((0, 0), (0, 10))
        >>> hit.point.tolist(), hit.normal.tolist(), hit.fraction
        ([0.0, 2.0], [0.0, -1.0], 0.2)
        >>> world.raycast((0, 3), (0, 10)).fraction       # starts inside
        0.0
        """
        pa = V.vector("a", a, bounded=True)
        pb = V.vector("b", b, bounded=True)
        out = self._raycast_arrays(pa.reshape(1, 2), pb.reshape(1, 2), filter, ids=False)
        if not out.hit[0]:
            return None
        shape = self.world._shape_handles[int(out.shape[0])]
        return RayHit(shape, shape.body, out.point[0], out.normal[0], float(out.fraction[0]))

    def raycast_many(self, starts, ends, filter: QueryFilter | None = None) -> RayHitArrays:
        """First hit of every segment ``starts[k] -> ends[k]`` in one compiled pass.

        Row k equals ``raycast(starts[k], ends[k], filter)``.

        Parameters
        ----------
        starts, ends : (N, 2) array_like
            Segment ends, world frame (m).
        filter : QueryFilter, optional

        Returns
        -------
        RayHitArrays
            ``hit`` (N,) bool, ``body`` (N,) body id (see ``Body.id``; -1: none), ``shape``
            (N,) shape id (-1), ``point`` (N, 2), ``normal`` (N, 2), ``fraction`` (N,)
            (NaN where nothing is hit).

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body(kind="static").add_box(2, 2)
        >>> out = world.raycast_many([(-5, 0), (0, 5)], [(5, 0), (0, 3)])
        >>> out.hit.tolist(), float(out.fraction[0]), out.normal[0].tolist()
        ([True, False], 0.4, [-1.0, 0.0])
        """
        p = V.points("starts", starts, bounded=True)
        q = V.points("ends", ends, bounded=True)
        if p.shape != q.shape:
            raise ValueError(f"ends: expected the same shape as starts {p.shape}, got {q.shape}")
        return self._raycast_arrays(p, q, filter)

    def _raycast_arrays(self, p, q, filter, ids: bool = True) -> RayHitArrays:
        """``raycast_many``'s arrays (``body`` as slots when not ``ids``)."""
        f = self._filter_args(filter)
        tree = self._cast_tree(f)
        m = p.shape[0]
        out = KV.SegmentHits(np.empty(m, dtype=np.bool_), np.empty(m, dtype=np.int64),
                             np.empty(m, dtype=np.int64), np.empty((m, 2)), np.empty((m, 2)),
                             np.empty(m))
        # The kernel maps slots through the identity: hits come back as slots, made ids below.
        _q.cast_segments(p, q, tuple(tree.view()), self._shape_rows(), tuple(f),
                         tuple(_frames(self.world._bodies.count)), _q.MOTION_NONE, False,
                         tuple(out))
        body = _ids_of_slots(self.world._bodies, out.body) if ids else out.body
        return RayHitArrays(out.hit, body, out.shape, out.point, out.normal, out.fraction)

    def raycast_all(self, a, b, filter: QueryFilter | None = None) -> list[RayHit]:
        """Every shape crossed by the segment a->b, nearest first (ties: lower shape id).

        Each shape appears once, at its first crossing (fraction 0 and normal (0, 0) if a is
        inside it).

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> for x in (2, 6):
        ...     _ = world.add_body(kind="static", position=(x, 0)).add_box(1, 1)
        >>> [h.point.tolist() for h in world.raycast_all((0, 0), (10, 0))]
        [[1.5, 0.0], [5.5, 0.0]]
        """
        pa = V.vector("a", a, bounded=True)
        pb = V.vector("b", b, bounded=True)
        f = self._filter_args(filter)
        tree = self._cast_tree(f)
        n = max(tree.k, 1)
        rows = np.empty(n, dtype=np.int64)
        ts = np.empty(n)
        normals = np.empty((n, 2))
        k = _q.raycast_rows(pa[0], pa[1], pb[0], pb[1], tuple(tree.view()), self._shape_rows(),
                            tuple(f), rows, ts, normals)
        rows, ts, normals = rows[:k], ts[:k], normals[:k]
        owners = self.world._shapes.owner[rows]
        keep = np.array(_first_per_owner(owners, ts), dtype=np.int64)  # nearest part
        keep = keep[np.lexsort((owners[keep], ts[keep]))]
        out = []
        for i in keep:
            shape, body = self._handles(int(rows[i]))
            t = float(ts[i])
            out.append(RayHit(shape, body, pa + t * (pb - pa), normals[i].copy(), t))
        return out

    # ------------------------------------------------------------------ points and boxes
    def query_point(self, p, filter: QueryFilter | None = None) -> list[Shape]:
        """Shapes containing the point ``p`` (m), closed (an edge counts), by shape id.

        A concave polygon contains p when its outline does.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> box = world.add_body(kind="static").add_box(2, 2)
        >>> world.query_point((1, 0)) == [box], world.query_point((3, 0))
        (True, [])
        """
        pt = V.vector("p", p, bounded=True)
        f = self._filter_args(filter)
        tree = self._tree()
        out = np.empty(max(tree.k, 1), dtype=np.int64)
        k = _q.point_rows(pt[0], pt[1], tuple(tree.view()), self._shape_rows(), tuple(f), out)
        return self._shapes_of(out[:k])

    def query_points(self, points, filter: QueryFilter | None = None) -> PointHitArrays:
        """For each point, whether a shape contains it and which one (lowest id), in one
        compiled pass. Row k agrees with ``query_point(points[k])``: ``hit`` is whether
        that list is non-empty and ``shape`` the id of its first element.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> land = world.add_body(kind="static")
        >>> _ = land.add_polygon([(0, 0), (4, 0), (4, 4), (3, 4), (3, 1), (0, 1)])  # an L
        >>> world.query_points([(3.5, 3), (1, 3), (1, 0.5)]).hit.tolist()
        [True, False, True]
        """
        pts = V.points("points", points, bounded=True)
        f = self._filter_args(filter)
        tree = self._tree()
        m = pts.shape[0]
        hit = np.empty(m, dtype=np.bool_)
        body = np.empty(m, dtype=np.int64)
        shape = np.empty(m, dtype=np.int64)
        _q.points_batch(pts, tuple(tree.view()), self._shape_rows(),
                        _slot_identity(self.world._bodies.count), tuple(f), hit, body, shape)
        return PointHitArrays(hit, _ids_of_slots(self.world._bodies, body), shape)

    def query_aabb(self, lower, upper, filter: QueryFilter | None = None) -> list[Shape]:
        """Shapes whose bounding box meets the closed box [lower, upper] (m), by shape id.

        Bounding boxes are coarse (a rotated box's is larger than the box): test the shapes
        found with :meth:`query_shape` when the exact overlap matters.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> box = world.add_body(kind="static", position=(3, 0)).add_box(2, 2)
        >>> world.query_aabb((0, 0), (2, 1)) == [box], world.query_aabb((0, 0), (1.9, 1))
        (True, [])
        """
        x0, y0 = V.vector("lower", lower, bounded=True).tolist()
        x1, y1 = V.vector("upper", upper, bounded=True).tolist()
        if x0 > x1 or y0 > y1:
            raise ValueError(f"upper: must be >= lower on both axes, got lower {[x0, y0]} "
                             f"and upper {[x1, y1]}")
        f = self._filter_args(filter)
        tree = self._tree()
        cand = np.empty(max(tree.k, 1), dtype=np.int64)
        stack = np.empty(max(tree.n_nodes, 1), dtype=np.int64)
        k = _bvh.query_box(*tree.view(), x0, y0, x1, y1, stack, cand)
        s = self.world._shapes
        # The tree's boxes are fattened a hair; the answer uses the exact boxes.
        owners = np.empty(max(k, 1), dtype=np.int64)
        n = _q.box_owners(cand, k, s.aabb, s.owner, s.body, s.flags, s.category, s.mask,
                          x0, y0, x1, y1, *f, owners)
        handles = self.world._shape_handles
        return [handles[i] for i in sorted(set(owners[:n].tolist()))]

    def _shapes_of(self, rows: np.ndarray) -> list[Shape]:
        ids = np.unique(self.world._shapes.owner[rows])
        return [self.world._shape_handles[int(i)] for i in ids]

    # ------------------------------------------------------------------ shapes
    def query_shape(self, shape_or_polygon, position=None, angle=None,
                    filter: QueryFilter | None = None) -> list[ShapeOverlap]:
        """Shapes touching or overlapping a shape placed at ``position`` and ``angle``.

        Parameters
        ----------
        shape_or_polygon : Shape, Circle or polygon
            A polygon ((N, 2) array-like, either winding, concave allowed) or
            :class:`~collide2d.Circle` in its own frame, placed by ``position`` (m, default
            (0, 0)) and ``angle`` (rad, default 0). A world :class:`Shape` is placed like its
            body: by default at its body's current pose; its own body is skipped.
        filter : QueryFilter, optional

        Returns
        -------
        list of ShapeOverlap
            ``ShapeOverlap(shape, body, normal, depth)`` by shape id; ``normal`` points from
            the query shape to that shape: moving the query shape by ``-normal * depth``
            separates it from that shape's deepest part (depth 0 for a touch).

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body(kind="static").add_box(4, 2)          # top face at y = 1
        >>> [ov] = world.query_shape(c2d.Circle((0, 0), 0.5), position=(0, 1.25))
        >>> ov.normal.tolist(), ov.depth          # from the circle down into the box
        ([0.0, -1.0], 0.25)
        """
        verts, offs, counts, radius, skip = self._query_parts(shape_or_polygon, position,
                                                              angle)
        f = self._filter_args(filter, skip)
        tree = self._tree()
        n = max(tree.k, 1)
        rows = np.empty(n, dtype=np.int64)
        dists = np.empty(n)
        normals = np.empty((n, 2))
        k = _q.shape_overlaps((verts, offs, counts, radius), tuple(tree.view()),
                              self._shape_rows(), tuple(f), rows, dists, normals)
        rows, dists, normals = rows[:k], dists[:k], normals[:k]
        out = []
        # By owner, each one's deepest part.
        for i in _first_per_owner(self.world._shapes.owner[rows], dists):
            shape, body = self._handles(int(rows[i]))
            # The kernel's normal pushes the query shape out: report it from the query shape
            # to the world shape.
            out.append(ShapeOverlap(shape, body, 0.0 - normals[i], float(-dists[i]) + 0.0))
        return out

    def shape_cast(self, shape_or_polygon, start, end, angle=None,
                   filter: QueryFilter | None = None) -> ShapeCastHit | None:
        """First shape met by a shape moving without turning from ``start`` to ``end`` (m).

        Swept separating-axis test (time of impact) against every shape near the path.

        Parameters
        ----------
        shape_or_polygon : Shape, Circle or polygon
            As in :meth:`query_shape`; ``start`` and ``end`` place its frame (a world Shape:
            its body's frame, and its own body is skipped).
        start, end : (x, y)
        angle : float, optional
            Orientation during the move (rad): default 0, or a Shape's body angle.
        filter : QueryFilter, optional

        Returns
        -------
        ShapeCastHit or None
            ``ShapeCastHit(shape, body, time, point, normal, depth)``; ``time`` is the
            fraction of the move at first touch, the shape's position then is
            ``start + time * (end - start)``; ``normal`` points from the moving shape to the
            hit shape.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> wall = world.add_body(kind="static", position=(10, 0))
        >>> _ = wall.add_box(2, 10)                             # left face at x = 9
        >>> hit = world.shape_cast(c2d.Circle((0, 0), 1), (0, 0), (20, 0))
        >>> hit.body is wall, round(hit.time, 12), hit.normal.tolist(), hit.point.round(9).tolist()
        (True, 0.4, [1.0, 0.0], [9.0, 0.0])
        """
        p0 = V.vector("start", start, bounded=True)
        p1 = V.vector("end", end, bounded=True)
        verts, offs, counts, radius, skip = self._query_parts(shape_or_polygon, p0, angle,
                                                              position_name="start")
        f = self._filter_args(filter, skip)
        tree = self._tree()
        w = p1 - p0
        row, t, px, py, depth, qx, qy = _q.shape_cast(
            (verts, offs, counts, radius), w[0], w[1], tuple(tree.view()),
            self._shape_rows(), tuple(f))
        if row < 0:
            return None
        shape, body = self._handles(int(row))
        # The kernel's normal pushes the moving shape away: report it from the moving shape
        # to the hit shape, as geometry.sweep does.
        return ShapeCastHit(shape, body, float(t), _vec(qx, qy), _vec(-px, -py), float(depth))

    # ------------------------------------------------------------------ particles
    def add_particles(self, positions, velocities=None, on_hit: str = "stop",
                      elasticity: float = 0.0, gravity_scale: float = 1.0, drag: float = 0.0,
                      *, filter: QueryFilter | None = None):
        """A particle system moved by this world at every step (see :class:`Particles`).

        Parameters
        ----------
        positions : (N, 2) array_like
            Starting positions (m).
        velocities : (N, 2) or (2,) array_like, optional
            Starting velocities (m/s); None: at rest.
        on_hit : "stop", "bounce" or "pass"
        elasticity : float
            Restitution of a bounce (>= 0).
        gravity_scale : float
            Multiplies the world's gravity.
        drag : float
            Linear damping rate (1/s): velocity decays as exp(-drag t).
        filter : QueryFilter, optional
            Which shapes the particles hit.

        Returns
        -------
        Particles

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> sparks = world.add_particles([(0, 0), (1, 0)], (2, 0), on_hit="pass")
        >>> world.step(0.5)
        >>> sparks.positions.tolist()
        [[1.0, 0.0], [2.0, 0.0]]
        """
        from .particles import Particles

        system = Particles(self.world, positions, velocities, on_hit, elasticity, gravity_scale,
                           drag, filter)
        self.world._systems.append(system)
        return system

    def _query_parts(self, shape_or_polygon, position, angle, position_name="position"):
        """World-frame convex parts of a query shape: (verts, offsets, counts, radius,
        bodies to skip)."""
        from .geometry import Circle, _check_simple
        from .shapes import Shape

        skip = ()
        if isinstance(shape_or_polygon, Shape):
            sh = shape_or_polygon
            if sh._world is not self.world:
                raise ValueError("shape_or_polygon: this Shape belongs to another world")
            parts = sh.parts
            radius = sh.radius
            skip = (sh.body,)
            pos = (sh.body.position if position is None
                   else V.vector(position_name, position, bounded=True))
            ang = sh.body.angle if angle is None else V.finite_scalar("angle", angle)
        else:
            pos = (np.zeros(2) if position is None
                   else V.vector(position_name, position, bounded=True))
            ang = 0.0 if angle is None else V.finite_scalar("angle", angle)
            if isinstance(shape_or_polygon, Circle):
                parts = [shape_or_polygon.center.reshape(1, 2)]
                radius = shape_or_polygon.radius
            else:
                try:
                    outline = V.points("shape_or_polygon", shape_or_polygon, bounded=True)
                except TypeError:
                    raise TypeError("shape_or_polygon: expected a Shape, a Circle or a polygon "
                                    f"((N, 2) array-like), got {type(shape_or_polygon).__name__}"
                                    ) from None
                # A game queries the same few outlines every frame: their checks and convex
                # parts (a concave one's decomposition) are kept, by their coordinates.
                key = outline.tobytes()
                parts = _QUERY_OUTLINES.get(key)
                if parts is None:
                    v = V.polygon("shape_or_polygon", outline)
                    if V.convex_ccw(v):
                        parts = [v]
                    else:
                        _check_simple(v, "shape_or_polygon")
                        parts = decompose_ccw(v)
                    if len(_QUERY_OUTLINES) >= 32:
                        _QUERY_OUTLINES.clear()
                    _QUERY_OUTLINES[key] = parts
                radius = 0.0
        c, sn = math.cos(ang), math.sin(ang)
        local = parts[0] if len(parts) == 1 else np.concatenate(parts)
        x, y = local[:, 0], local[:, 1]
        verts = np.empty((len(local), 2))
        verts[:, 0] = c * x - sn * y + pos[0]
        verts[:, 1] = sn * x + c * y + pos[1]
        counts = np.array([len(p) for p in parts], dtype=np.int64)
        offs = np.zeros(len(parts), dtype=np.int64)
        np.cumsum(counts[:-1], out=offs[1:])
        return verts, offs, counts, float(radius), skip
