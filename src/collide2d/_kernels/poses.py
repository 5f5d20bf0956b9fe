"""Shapes in world space: each live shape's local vertices moved to its body's pose, its
exact bounding box (``aabb``: queries), the box fattened by a margin (``fat``: the
step's contacts and sweeps) and the proxy holding it (``proxy``: the broadphase, which
keeps its pairs while no proxy moves; proxies.py).

When nothing moved the shapes since the last step, a step touches the shapes that can move
only (the shape index's movers, ``index_shapes``): their boxes fattened before the
broadphase, their vertices and boxes placed at the final poses after the solver. A static
level of any size costs nothing then.
"""

import math

from .._jit import njit
from .constants import S_ALIVE, STATIC
from .integrate import moves

# How far (m) a shape's proxy, the box the broadphase pairs, reaches past its fattened box:
# a shape moving less than this since its proxy was set keeps it, and keeps its pairs. At
# most PROXY_SHARE of the box's shorter side: a pile of beads would otherwise pair each
# with hundreds of its neighbours.
PROXY_MARGIN = 0.1
PROXY_SHARE = 0.25


@njit(_nrt=False)
def body_rotations(angle, n_bodies, rot):
    """(cos, sin) of each body's angle into ``rot``: once per body, for all its shapes."""
    for b in range(n_bodies):
        rot[b, 0] = math.cos(angle[b])
        rot[b, 1] = math.sin(angle[b])


@njit(_nrt=False, entry=True)
def update_shapes(pos, angle, rot, kind, s, params, i):
    """Every live shape of the ShapeView ``s`` placed at its body's pose, and the bodies'
    rotations (into ``rot``) they were placed with: ``place_shapes`` for world ``i`` of the
    settings rows ``params``."""
    body_rotations(angle, angle.shape[0], rot)
    place_shapes(pos, rot, kind, s, params, i)


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
def place_shapes(pos, rot, kind, s, params, i):
    """Every live shape of the ShapeView ``s`` at its body's pose (the bodies' rotations
    ``rot`` given: ``body_rotations``): world vertices, the exact box (``aabb``), the box
    fattened by the margin (``fat``, which the step's contacts and sweeps read) and its
    proxy (``enclose``: the moved ones counted in ``n_escaped``); then the shape index
    (``index_shapes``), its counts in the settings row ``params[i]``. What
    a settings row's ``shapes_fresh`` promises of its world."""
    prm = params[i]
    n_shapes = prm["n_shapes"]
    margin = prm["margin"]
    aabb, fat, s_body, s_flags = s.aabb, s.fat, s.body, s.flags
    proxy, escaped = s.proxy, s.escaped
    moved = False  # a static shape's fattened box changed: the index sorts again
    n_escaped = 0
    for r in range(n_shapes):
        if s_flags[r] & S_ALIVE:
            _place_shape(r, pos, rot, s)
            changed = _fatten(r, aabb, fat, margin)
            moved |= changed and kind[s_body[r]] == STATIC
            n_escaped += enclose(r, fat, proxy, escaped)
    prm["n_escaped"] += n_escaped
    prm["n_movers"], prm["n_statics"] = index_shapes(
        kind, s_body, s_flags, fat, s.order, s.reach, n_shapes, prm["n_movers"],
        prm["n_statics"], moved)


@njit(inline="always")
def _place_shape(r, pos, rot, s):
    """Shape ``r`` at its body's pose: world vertices and exact box."""
    b = s.body[r]
    a0 = s.vstart[r]
    lox, loy, hix, hiy = transform_vertices(s.vlocal, a0, s.vcount[r], pos[b, 0], pos[b, 1],
                                            rot[b, 0], rot[b, 1], s.vworld, a0)
    rad = s.radius[r]
    aabb = s.aabb
    aabb[r, 0] = lox - rad
    aabb[r, 1] = loy - rad
    aabb[r, 2] = hix + rad
    aabb[r, 3] = hiy + rad


@njit(inline="always")
def _fatten(r, aabb, fat, margin):
    """Shape ``r``'s exact box fattened by ``margin``, into ``fat``; whether that changed
    it."""
    lox = aabb[r, 0] - margin
    loy = aabb[r, 1] - margin
    hix = aabb[r, 2] + margin
    hiy = aabb[r, 3] + margin
    changed = lox != fat[r, 0] or loy != fat[r, 1] or hix != fat[r, 2] or hiy != fat[r, 3]
    fat[r, 0] = lox
    fat[r, 1] = loy
    fat[r, 2] = hix
    fat[r, 3] = hiy
    return changed


@njit(inline="always")
def enclose(r, fat, proxy, escaped):
    """Shape ``r``'s proxy: kept while it holds the fattened box, else that box enlarged
    (PROXY_MARGIN, PROXY_SHARE) and the shape marked ``escaped``. Returns 1 if it moved (a
    first move since the broadphase read it), else 0."""
    if (fat[r, 0] >= proxy[r, 0] and fat[r, 1] >= proxy[r, 1] and fat[r, 2] <= proxy[r, 2]
            and fat[r, 3] <= proxy[r, 3]):
        return 0  # (a NaN proxy holds nothing)
    m = min(PROXY_MARGIN, PROXY_SHARE * min(fat[r, 2] - fat[r, 0], fat[r, 3] - fat[r, 1]))
    proxy[r, 0] = fat[r, 0] - m
    proxy[r, 1] = fat[r, 1] - m
    proxy[r, 2] = fat[r, 2] + m
    proxy[r, 3] = fat[r, 3] + m
    if escaped[r]:
        return 0
    escaped[r] = True
    return 1


@njit(_nrt=False)
def finish_shapes(pos, rot, s, n_movers, inv_m, kind, flags, margin):
    """The shapes that moved (of the index's first ``n_movers`` rows: their bodies awake
    and dynamic this step, ``inv_m`` not zero, or kinematic) at their bodies' final poses:
    world vertices, exact boxes, fattened boxes and proxies, as ``place_shapes`` leaves
    every shape. Returns how many proxies moved. A step moves no other body, whose shapes
    are where the step's ``place`` (or the last step) left them: a large static level, or
    a sleeping pile, costs nothing here, and the next step starts with every shape
    placed."""
    order, s_body, aabb, fat, proxy, escaped = s.order, s.body, s.aabb, s.fat, s.proxy, s.escaped
    n_escaped = 0
    for u in range(n_movers):
        r = order[u]
        b = s_body[r]
        if moves(b, inv_m, kind, flags):
            _place_shape(r, pos, rot, s)
            _fatten(r, aabb, fat, margin)
            n_escaped += enclose(r, fat, proxy, escaped)
    return n_escaped


@njit(_nrt=False)
def index_shapes(kind, s_body, s_flags, fat, order, reach, n_shapes, movers, statics, moved):
    """The shape index of the first ``n_shapes`` shape rows, in ``order`` and ``reach`` (a
    ShapeView's fields of those names): first the live shapes of bodies that are not
    static, by row; then the live shapes of static bodies by the lower x of their fattened
    boxes ``fat`` (ties by row), with ``reach`` at each of those positions the largest
    upper x of the fattened boxes up to it. Returns (movers, statics), how many of each.

    ``movers`` and ``statics`` are the counts of the index as it stands, ``moved`` whether
    a static shape's fattened box changed since it was built: the static part is sorted
    again only then, or when the shapes changed (a body teleported every step costs a
    pass, not a sort). Box overlap with the static shapes is then a binary search and a
    short walk back (``broadphase.small_pairs``), and a step's moving shapes are found
    without a pass over the static ones."""
    # The movers, counting the statics. (While the movers are as many as the index has,
    # its static part is left as it is; else it is built again below.)
    m = 0
    k = 0
    for r in range(n_shapes):
        if s_flags[r] & S_ALIVE:
            if kind[s_body[r]] == STATIC:
                k += 1
            else:
                order[m] = r
                m += 1
    if (not moved and m == movers and k == statics
            and _lists_statics(order, m, k, kind, s_body, s_flags, n_shapes)):
        return m, k
    end = m
    for r in range(n_shapes):
        if (s_flags[r] & S_ALIVE) and kind[s_body[r]] == STATIC:
            order[end] = r
            end += 1
    _heap_sort(order, m, end, fat)
    hi = -math.inf
    for u in range(m, end):
        hi = max(hi, fat[order[u], 2])
        reach[u] = hi
    return m, k


@njit(inline="always")
def _lists_statics(order, m, k, kind, s_body, s_flags, n_shapes):
    """Whether ``order[m:m + k]`` are live static shapes: being distinct rows, when there
    are k live static shapes, they are those."""
    for u in range(m, m + k):
        r = order[u]
        if not (r < n_shapes and (s_flags[r] & S_ALIVE) != 0 and kind[s_body[r]] == STATIC):
            return False
    return True


@njit(inline="always")
def _before(fat, a, b):
    """Whether shape row ``a`` sorts before row ``b``: by lower x of the fattened box,
    then by row."""
    xa = fat[a, 0]
    xb = fat[b, 0]
    return xa < xb or (xa == xb and a < b)


@njit(_nrt=False)
def _heap_sort(order, lo, hi, fat):
    """``order[lo:hi]`` sorted in place by ``_before``: O(n log n), no allocation."""
    n = hi - lo
    for start in range(n // 2 - 1, -1, -1):
        _sift(order, lo, start, n, fat)
    for end in range(n - 1, 0, -1):
        top = order[lo]
        order[lo] = order[lo + end]
        order[lo + end] = top
        _sift(order, lo, 0, end, fat)


@njit(inline="always")
def _sift(order, lo, root, n, fat):
    """Sift ``order[lo + root]`` down the max-heap ``order[lo:lo + n]``."""
    while True:
        child = 2 * root + 1
        if child >= n:
            return
        if child + 1 < n and _before(fat, order[lo + child], order[lo + child + 1]):
            child += 1
        if not _before(fat, order[lo + root], order[lo + child]):
            return
        t = order[lo + root]
        order[lo + root] = order[lo + child]
        order[lo + child] = t
        root = child
