"""Continuous collision: fast and bullet bodies swept to their first time of impact.

After the solver has moved every body, a dynamic body that moved more than half its own
smallest extent this step (a fast body; a fast ``bullet`` has more targets) is swept
(translation from its start-of-step centre to its end, at its start-of-step orientation, a
pose the previous step left valid) against the shapes whose boxes meet the swept box, with the
swept SAT time of impact.

Targets, after Box2D v3's continuous stage: every fast body sweeps against static shapes and
bodies that did not move this step (asleep); bullets, swept after the other fast bodies have
been finalised, also against kinematic and awake non-bullet dynamic bodies at their final
poses. Bullets are never targets of bullets.

On a hit that would take the body more than a contact slop past the impact it is put back at
the first impact, a contact slop short of touching, with its start orientation and its
velocity kept: the next step's contact stops it, bounces it, or exchanges momentum with what
it hit. A dynamic body hit is woken (its island with it). Against immovable geometry (static
or kinematic) a body that started the step at the surface and still moves into it slides
along it instead, less its velocity into it. A shape already overlapping an unmoved target at
the start is left to the contacts; one overlapping a moved target's final pose at the start
stops there (the target moved into its path). A one-way shape stops only what meets it from
the side its direction points to, as its contacts do.

A moved target's final pose is worked out only for a bullet whose swept box meets a bound of
it (its step-start box carried by its centre's motion, grown by what its turn can sweep), and
written over its step-start vertices and box: ``finish`` places every shape afresh next.
"""

import math
from collections import namedtuple

import numpy as np

from .._jit import njit
from .broadphase import rows_response, statics_past
from .constants import (
    B_AWAKE,
    B_BULLET,
    DYNAMIC,
    KINEMATIC,
    S_ALIVE,
    S_SENSOR,
    SMALL_WORLD,
    SOLID,
    STATIC,
)
from .groups import group_by
from .islands import wake
from .narrowphase import ONE_WAY_COS
from .poses import transform_vertices
from .sat import sweep_pair

# What a shape row is to the sweeps.
NOT_TARGET = 0
FIXED = 1  # static: at its step-start pose, immovable
ASLEEP = 2  # dynamic, did not move this step: at its step-start pose, woken on a hit
KINEMATIC_MOVED = 3  # kinematic: at its final pose, immovable (bullets only)
MOVED = 4  # awake non-bullet dynamic: at its final pose, woken on a hit (bullets only)

# What every sweep of a step reads and writes: the bodies, the shapes (vertices and boxes:
# a moved target's are overwritten by its final pose) and the pair rules; the step's
# start-of-step centres and angles, its motion records; the live shape rows by body
# (``start``, ``rows``); the target rows ``targets[:nt]`` and each row's class (``cls``),
# which moved targets are ``placed``, a vertex scratch ``buf``; two settings; with
# ``near``, the targets are instead found for each swept box (:func:`_near_targets`, the
# shape index: ``n_movers``, ``n_statics``; the effective inverse masses ``inv_m``), into
# ``targets`` and ``cls``; ``woke`` counts the sleeping bodies a hit woke.
Sweeps = namedtuple("Sweeps", (
    "bodies", "shapes", "rules", "com", "com0", "angle0", "dp", "dq",
    "start", "rows", "targets", "cls", "nt", "placed", "buf", "slop", "dynamic_response",
    "near", "n_movers", "n_statics", "inv_m", "woke"))

# Up to this many fast bodies, none a bullet, the sweep looks for targets near each swept
# box in the shape index rather than classifying every shape first: a ball falling past a
# sleeping pile of 5,000 boxes, or a few fast bodies over a large static level.
FEW_FAST = 8


@njit(_nrt=True)
def body_rows(s_body, s_flags, n_shapes, n_bodies):
    """CSR of live shape rows per body: rows[start[b]:start[b + 1]]."""
    key = np.empty(n_shapes, dtype=np.int64)
    for s in range(n_shapes):
        key[s] = s_body[s] if s_flags[s] & S_ALIVE else -1
    return group_by(key, n_bodies)


@njit(_nrt=False)
def _first_hit(sw, b, cx, cy, c, sn, wx, wy, bullet):
    """Earliest impact of body b's shapes (centre (cx, cy), orientation (c, sn)) translated by
    (wx, wy) against the target rows (a bullet's moved targets placed at their final poses
    on first need): (t, push_x, push_y, target row); t = 1 and row -1 for none.

    Only a motion that would go deeper than the slop past the impact counts: the contacts
    handle the rest. (A body sliding fast along a wall it touches drifts into it by a hair
    each step; putting it back at that hair's time of impact froze it in place.)"""
    shapes, rules, dynamic_response, slop = sw.shapes, sw.rules, sw.dynamic_response, sw.slop
    kind, angle, local_com = sw.bodies.kind, sw.bodies.angle, sw.bodies.local_com
    com, com0, angle0 = sw.com, sw.com0, sw.angle0
    start, rows, targets, cls = sw.start, sw.rows, sw.targets, sw.cls
    placed, buf = sw.placed, sw.buf
    verts, boxes = shapes.vworld, shapes.fat  # (the step's boxes, fattened)
    s_body = shapes.body
    s_flags = shapes.flags
    s_vstart = shapes.vstart
    s_vcount = shapes.vcount
    s_radius = shapes.radius
    s_category = shapes.category
    s_mask = shapes.mask
    s_group = shapes.group
    s_type = shapes.collision_type
    one_way = shapes.one_way
    vlocal = shapes.vlocal
    ox = cx - (c * local_com[b, 0] - sn * local_com[b, 1])
    oy = cy - (sn * local_com[b, 0] + c * local_com[b, 1])
    t_best = 1.0
    bx = 0.0
    by = 0.0
    hit_row = -1
    for q in range(start[b], start[b + 1]):
        s = rows[q]
        if s_flags[s] & S_SENSOR:
            continue
        n = s_vcount[s]
        lox, loy, hix, hiy = transform_vertices(vlocal, s_vstart[s], n, ox, oy, c, sn, buf, 0)
        # The box swept by (wx, wy) (adding a constant keeps the min and max: same bits as
        # per vertex).
        lox, hix = min(lox, lox + wx), max(hix, hix + wx)
        loy, hiy = min(loy, loy + wy), max(hiy, hiy + wy)
        r = s_radius[s]
        nt = sw.nt
        if sw.near:
            nt = _near_targets(sw, lox - r, loy - r, hix + r, hiy + r)
        for k in range(nt):
            t = targets[k]
            ct = cls[t]
            if ct >= KINEMATIC_MOVED:
                if not bullet:
                    continue
                if not placed[t]:
                    if not _may_meet(t, s_body[t], boxes, com, com0, angle, angle0, lox - r,
                                     loy - r, hix + r, hiy + r):
                        continue
                    _place_final(t, s_body[t], s_vstart, s_vcount, s_radius, vlocal, com,
                                 angle, local_com, verts, boxes)
                    placed[t] = True
            if (boxes[t, 0] > hix + r or boxes[t, 2] < lox - r or boxes[t, 1] > hiy + r
                    or boxes[t, 3] < loy - r):
                continue
            d = s_body[t]
            if rows_response(s, t, s_body, s_flags, s_category, s_mask, s_group, s_type, kind,
                             rules, dynamic_response) != SOLID:
                continue
            hit, toi, px, py, depth = sweep_pair(buf, 0, n, r, verts, s_vstart[t],
                                                 s_vcount[t], s_radius[t], wx, wy, 1.0)
            # Overlap at the start is the contacts' business, unless the target moved into
            # the body's path this step (its step-start pose was clear).
            if not hit or toi >= t_best or (toi == 0.0 and depth > 0.0 and ct < KINEMATIC_MOVED):
                continue
            if (one_way[t, 0] != 0.0 or one_way[t, 1] != 0.0) and not _one_way_blocks(
                    one_way[t, 0], one_way[t, 1], angle[d], px, py):
                continue
            if (1.0 - toi) * -(wx * px + wy * py) > slop:
                t_best = toi
                bx = px
                by = py
                hit_row = t
    return t_best, bx, by, hit_row


@njit(_nrt=False)
def _near_targets(sw, lo_x, lo_y, hi_x, hi_y):
    """The targets of a body that is not a bullet whose fattened boxes meet the box (lo_x,
    lo_y, hi_x, hi_y), into ``sw.targets`` in row order with their classes in ``sw.cls``;
    returns how many: the rows :func:`_target_classes` would list that the sweep's box
    test keeps, in the same order, so the sweep finds the same first hit. Static shapes
    from the shape index (a binary search by lower x and a walk back while the reach
    allows, as ``broadphase._mover_pairs``), sleeping dynamic ones from its movers."""
    shapes = sw.shapes
    boxes, order, reach = shapes.fat, shapes.order, shapes.reach
    s_body, s_flags = shapes.body, shapes.flags
    kind = sw.bodies.kind
    inv_m, targets, cls = sw.inv_m, sw.targets, sw.cls
    n_movers = sw.n_movers
    k = 0
    q = statics_past(boxes, order, n_movers, n_movers + sw.n_statics, hi_x) - 1
    while q >= n_movers and reach[q] >= lo_x:
        t = order[q]
        if not (s_flags[t] & S_SENSOR) and _box_meets(boxes, t, lo_x, lo_y, hi_x, hi_y):
            targets[k] = t
            cls[t] = FIXED
            k += 1
        q -= 1
    # (The box first: of a large sleeping pile most shapes are far, and it reads the rows
    # in order where the body's kind and mass are reads by body.)
    for u in range(n_movers):
        t = order[u]
        if not _box_meets(boxes, t, lo_x, lo_y, hi_x, hi_y):
            continue
        d = s_body[t]
        if kind[d] == DYNAMIC and inv_m[d] == 0.0 and not (s_flags[t] & S_SENSOR):
            targets[k] = t
            cls[t] = ASLEEP
            k += 1
    # Row order, as the targets are listed (ties in time go to the first).
    for u in range(1, k):
        t = targets[u]
        v = u
        while v > 0 and targets[v - 1] > t:
            targets[v] = targets[v - 1]
            v -= 1
        targets[v] = t
    return k


@njit(inline="always")
def _box_meets(boxes, t, lo_x, lo_y, hi_x, hi_y):
    """The sweep's box test (closed: touching boxes meet)."""
    return not (boxes[t, 0] > hi_x or boxes[t, 2] < lo_x or boxes[t, 1] > hi_y
                or boxes[t, 3] < lo_y)


@njit(inline="always")
def _half_extent(aabb, s):
    """Half the smaller side of shape s's box: what a body must move to pass it."""
    return 0.5 * min(aabb[s, 2] - aabb[s, 0], aabb[s, 3] - aabb[s, 1])


@njit(inline="always")
def _moved(com, com0, b):
    """How far body b's centre moved this step."""
    wx = com[b, 0] - com0[b, 0]
    wy = com[b, 1] - com0[b, 1]
    return math.sqrt(wx * wx + wy * wy)


@njit(_nrt=True)
def fast_movers(kind, flags, com, com0, s_body, aabb, rows, n_rows, first):
    """Awake dynamic bodies with a shape that moved more than half its smallest extent this
    step (from step-start boxes), in body order, given the live shapes on bodies that are
    not static, ``rows[:n_rows]`` (the shape index's movers): a body moved more than the
    smallest half extent of its shapes exactly when it moved more than one shape's. Bullets
    too (Box2D v3's test): one moving less is still overlapping what it would pass at the
    step's end, for the contacts. ``first``: no earlier position of ``rows`` is one
    (:func:`any_fast`'s answer; in a large world with one fast body the pass over the
    others is not taken twice)."""
    fast = np.empty(max(n_rows, 1), dtype=np.int64)
    k = 0
    for u in range(first, n_rows):
        s = rows[u]
        b = s_body[s]
        if kind[b] != DYNAMIC or not (flags[b] & B_AWAKE):
            continue
        dist = _moved(com, com0, b)
        if dist != 0.0 and dist > _half_extent(aabb, s):
            fast[k] = b
            k += 1
    fast = np.sort(fast[:k])
    m = 0
    for u in range(k):
        if m == 0 or fast[u] != fast[m - 1]:
            fast[m] = fast[u]
            m += 1
    return fast[:m]


@njit(_nrt=False)
def _target_classes(kind, flags, inv_m, s_body, s_flags, n_shapes, cls, targets):
    """Each live solid shape row's class (``cls``) and the rows that are targets, in row
    order; returns their number."""
    nt = 0
    for s in range(n_shapes):
        cls[s] = NOT_TARGET
        if not (s_flags[s] & S_ALIVE) or (s_flags[s] & S_SENSOR):
            continue
        d = s_body[s]
        if kind[d] == STATIC:
            cls[s] = FIXED
        elif kind[d] == KINEMATIC:
            cls[s] = KINEMATIC_MOVED
        elif inv_m[d] == 0.0:
            cls[s] = ASLEEP
        elif not (flags[d] & B_BULLET):
            cls[s] = MOVED
        else:
            continue
        targets[nt] = s
        nt += 1
    return nt


@njit(_nrt=False)
def _one_way_blocks(ux, uy, angle, px, py):
    """Whether a one-way shape with local direction (ux, uy), on a body at ``angle``, blocks
    a body it pushes along (px, py) (from the shape to the body): the push within 60 degrees
    of its direction, as the contacts decide (narrowphase.ONE_WAY_COS)."""
    c = math.cos(angle)
    sn = math.sin(angle)
    dx = c * ux - sn * uy
    dy = sn * ux + c * uy
    return px * dx + py * dy >= ONE_WAY_COS * math.sqrt(px * px + py * py)


@njit(inline="always")
def _may_meet(t, d, boxes, com, com0, angle, angle0, lox, loy, hix, hiy):
    """Whether target row t, of body d, can meet the box (lox, loy, hix, hiy) at its final
    pose: its step-start box moved by its centre's motion and grown by the farthest its turn
    can carry a corner (a point r from the centre moves at most r times the turn)."""
    dx = com[d, 0] - com0[d, 0]
    dy = com[d, 1] - com0[d, 1]
    turn = abs(angle[d] - angle0[d])
    grow = 0.0
    if turn != 0.0:  # (static ground: no turn, and no square root)
        rx = max(abs(boxes[t, 0] - com0[d, 0]), abs(boxes[t, 2] - com0[d, 0]))
        ry = max(abs(boxes[t, 1] - com0[d, 1]), abs(boxes[t, 3] - com0[d, 1]))
        grow = turn * math.sqrt(rx * rx + ry * ry)
    return not (boxes[t, 0] + dx - grow > hix or boxes[t, 2] + dx + grow < lox
                or boxes[t, 1] + dy - grow > hiy or boxes[t, 3] + dy + grow < loy)


@njit(inline="always")
def _place_final(t, d, s_vstart, s_vcount, s_radius, vlocal, com, angle, local_com, verts,
                 boxes):
    """Target row t's vertices and exact box at its body d's final pose (centre ``com``,
    ``angle``)."""
    c = math.cos(angle[d])
    sn = math.sin(angle[d])
    ox = com[d, 0] - (c * local_com[d, 0] - sn * local_com[d, 1])
    oy = com[d, 1] - (sn * local_com[d, 0] + c * local_com[d, 1])
    a0 = s_vstart[t]
    lox, loy, hix, hiy = transform_vertices(vlocal, a0, s_vcount[t], ox, oy, c, sn, verts, a0)
    r = s_radius[t]
    boxes[t, 0] = lox - r
    boxes[t, 1] = loy - r
    boxes[t, 2] = hix + r
    boxes[t, 3] = hiy + r


@njit(_nrt=False)
def _sweep_body(sw, b, bullet):
    """Sweep body b over its step; put it back at its first impact. Returns 1 if it was."""
    bodies = sw.bodies
    kind = bodies.kind
    vel, angle = bodies.vel, bodies.angle
    com, com0, angle0, dp, dq = sw.com, sw.com0, sw.angle0, sw.dp, sw.dq
    slop, s_body = sw.slop, sw.shapes.body
    wx = com[b, 0] - com0[b, 0]
    wy = com[b, 1] - com0[b, 1]
    c = math.cos(angle0[b])
    sn = math.sin(angle0[b])
    t_best, px, py, row = _first_hit(sw, b, com0[b, 0], com0[b, 1], c, sn, wx, wy, bullet)
    if row < 0:
        return 0
    # Back off the impact by the slop measured along the surface normal (along the path,
    # a grazing body would be left touching). A counted hit moves into its surface, so
    # the normal is not zero and the motion into it is positive.
    pl = math.sqrt(px * px + py * py)
    ux = px / pl
    uy = py / pl
    back = max(0.0, t_best - slop / -(wx * ux + wy * uy))
    nx = com0[b, 0] + back * wx
    ny = com0[b, 1] + back * wy
    d = s_body[row]
    if kind[d] == DYNAMIC:
        # It can move: the next step's contact exchanges the momentum, so the velocity
        # stays, and the target wakes to take its share.
        _wake_target(sw, d)
    elif back == 0.0:
        # A body that starts the step at immovable geometry and still moves into it got past
        # its contacts (a fast spin turns the contact away within a substep). Put back where
        # it started with the same velocity, it would do the same again every step, frozen:
        # its velocity into the surface goes, and it slides on by its motion less the part
        # into the surface, swept once more. (A body hitting from afar stops at the impact
        # with its velocity kept; the next step's contact stops it, or bounces it.)
        vn = vel[b, 0] * ux + vel[b, 1] * uy
        if vn < 0.0:
            vel[b, 0] -= vn * ux
            vel[b, 1] -= vn * uy
        into = wx * ux + wy * uy
        rx = wx - into * ux
        ry = wy - into * uy
        if math.sqrt(rx * rx + ry * ry) > slop:
            t2, qx, qy, row2 = _first_hit(sw, b, nx, ny, c, sn, rx, ry, bullet)
            f = 1.0
            if row2 >= 0:
                ql = math.sqrt(qx * qx + qy * qy)
                f = max(0.0, t2 - slop * ql / -(rx * qx + ry * qy))
                if kind[s_body[row2]] == DYNAMIC:
                    _wake_target(sw, s_body[row2])
            nx += f * rx
            ny += f * ry
    dp[b, 0] += nx - com[b, 0]
    dp[b, 1] += ny - com[b, 1]
    com[b, 0] = nx
    com[b, 1] = ny
    angle[b] = angle0[b]
    dq[b, 0] = 1.0
    dq[b, 1] = 0.0
    return 1


@njit(inline="always")
def _wake_target(sw, d):
    """Wake the dynamic body d a sweep hit, counting it if it slept."""
    flags = sw.bodies.flags
    if not (flags[d] & B_AWAKE):
        sw.woke[0] += 1
    wake(d, flags, sw.bodies.sleep_time)


@njit(_nrt=True)
def sweep_fast_bodies(bodies, shapes, rules, t, n_bodies, n_shapes, slop, dynamic_response,
                      fast, n_movers, n_statics):
    """Sweeps the ``fast`` bodies (``fast_movers``) over the step's motion (``t``, the step's
    view); returns how many sleeping bodies their hits woke. Every shape is classified
    first (:func:`_target_classes`), and the rows of every body grouped; with at most
    ``FEW_FAST`` fast bodies and no bullet the targets are found near each swept box
    instead (:func:`_near_targets`), and only the fast bodies' rows grouped."""
    flags = bodies.flags
    s_body = shapes.body
    s_flags = shapes.flags
    s_vcount = shapes.vcount
    order = shapes.order
    near = fast.shape[0] <= FEW_FAST
    for b in fast:
        near &= (flags[b] & B_BULLET) == 0
    cls = np.empty(n_shapes, dtype=np.int64)
    targets = np.empty(n_shapes, dtype=np.int64)
    maxv = 1
    if near:
        # The fast bodies' rows, from the index's movers (by row), grouped as body_rows
        # would: start[b] and start[b + 1] bound body b's.
        nt = 0
        start = np.empty(n_bodies + 1, dtype=np.int64)
        rows = np.empty(max(n_movers, 1), dtype=np.int64)
        k = 0
        for b in fast:
            start[b] = k
            for u in range(n_movers):
                s = order[u]
                if s_body[s] == b:
                    rows[k] = s
                    maxv = max(maxv, s_vcount[s])
                    k += 1
            start[b + 1] = k
    else:
        nt = _target_classes(bodies.kind, flags, t.inv_m, s_body, s_flags, n_shapes, cls,
                             targets)
        if nt == 0:
            return 0
        start, rows = body_rows(s_body, s_flags, n_shapes, n_bodies)
        for s in range(n_shapes):
            if s_flags[s] & S_ALIVE:
                maxv = max(maxv, s_vcount[s])
    buf = np.empty((maxv, 2))
    placed = np.zeros(0 if near else n_shapes, dtype=np.bool_)
    woke = np.zeros(1, dtype=np.int64)
    sw = Sweeps(bodies, shapes, rules, t.com, t.com0, t.angle0, t.dp, t.dq, start, rows,
                targets, cls, nt, placed, buf, slop, dynamic_response, near, n_movers,
                n_statics, t.inv_m, woke)
    # The other fast bodies first: bullets then meet them where they end the step.
    for bullet in (False, True):
        for b in fast:
            if ((flags[b] & B_BULLET) != 0) != bullet:
                continue
            _sweep_body(sw, b, bullet)
    return woke[0]


@njit(_nrt=False)
def any_fast(n_bodies, kind, flags, com, com0, s_body, aabb, rows, n_rows):
    """The first position in ``rows[:n_rows]`` (the shape index's movers: the live shapes
    on bodies that are not static) whose shape :func:`fast_movers` would list, or -1:
    whether it finds any, without allocating, and where its pass may start (a body moved
    more than the smallest half extent of its shapes exactly when it moved more than one
    shape's)."""
    for u in range(n_rows):
        s = rows[u]
        b = s_body[s]
        if b >= n_bodies or kind[b] != DYNAMIC or not (flags[b] & B_AWAKE):
            continue
        dist = _moved(com, com0, b)
        if dist != 0.0 and dist > _half_extent(aabb, s):
            return u
    return -1


@njit(inline="always")
def _fast(b, com, com0, s_body, s_flags, aabb, n_shapes):
    """Whether body b moved more than half the smallest extent of one of its shapes."""
    dist = _moved(com, com0, b)
    if dist == 0.0:
        return False
    for s in range(n_shapes):
        if s_body[s] == b and (s_flags[s] & S_ALIVE) and dist > _half_extent(aabb, s):
            return True
    return False


@njit(_nrt=False)
def sweep_may_hit(n_bodies, n_shapes, kind, flags, com, com0, angle, angle0, shapes, rules,
                  dynamic_response, n_movers, n_statics):
    """Whether the step's sweep can find anything: whether any body is fast
    (:func:`any_fast`, over the shapes that can move: the shape index's first ``n_movers``
    rows; the index's counts are the live shapes, so a large static level costs nothing
    here), and in a world of at most ``SMALL_WORLD`` live shapes whether a fast body has
    something near that it would collide with. Each solid shape of a fast
    body, swept by its body's motion, is held in its step-start box stretched by that
    motion; a hit needs another body's shape there, at its step-start box or at its final
    pose's bound (``_may_meet``), the two tests the sweep makes on smaller boxes, and the
    pair's response solid (the sweep's own test: a leg never meets the hull it is jointed
    to). -1: the sweep would move nothing and write nothing, and is not called; else where
    :func:`fast_movers` may start (``any_fast``)."""
    s_body = shapes.body
    s_flags = shapes.flags
    s_category = shapes.category
    s_mask = shapes.mask
    s_group = shapes.group
    s_type = shapes.collision_type
    aabb = shapes.fat  # (the step's boxes, fattened)
    # (In a small world too: a pass over the movers, where the test below looks at every
    # shape for each shape of a body; a world in flight has no fast body.)
    first = any_fast(n_bodies, kind, flags, com, com0, s_body, aabb, shapes.order, n_movers)
    if first < 0 or n_movers + n_statics > SMALL_WORLD:
        return first
    for s in range(n_shapes):
        if not (s_flags[s] & S_ALIVE) or (s_flags[s] & S_SENSOR):
            continue
        b = s_body[s]
        if (b >= n_bodies or kind[b] != DYNAMIC or not (flags[b] & B_AWAKE)
                or not _fast(b, com, com0, s_body, s_flags, aabb, n_shapes)):
            continue
        wx = com[b, 0] - com0[b, 0]
        wy = com[b, 1] - com0[b, 1]
        lox = aabb[s, 0] + min(0.0, wx)
        loy = aabb[s, 1] + min(0.0, wy)
        hix = aabb[s, 2] + max(0.0, wx)
        hiy = aabb[s, 3] + max(0.0, wy)
        for t in range(n_shapes):
            d = s_body[t]
            if d == b or not (s_flags[t] & S_ALIVE) or (s_flags[t] & S_SENSOR):
                continue
            if ((aabb[t, 0] > hix or aabb[t, 2] < lox or aabb[t, 1] > hiy
                    or aabb[t, 3] < loy)
                    and not _may_meet(t, d, aabb, com, com0, angle, angle0, lox, loy, hix,
                                      hiy)):
                continue
            if rows_response(s, t, s_body, s_flags, s_category, s_mask, s_group, s_type, kind,
                             rules, dynamic_response) == SOLID:
                return first
    return -1


@njit(_nrt=True)
def continuous_step(bodies, shapes, rules, t, n_bodies, n_shapes, slop, dynamic_response,
                    n_movers, n_statics, first):
    """The step's continuous collision over its motion (``t``, the step's view):
    :func:`fast_movers`, then :func:`sweep_fast_bodies` of them when there are any. Returns
    how many sleeping bodies the hits woke. Its own call with reference counting: the fast
    bodies are allocated."""
    fast = fast_movers(bodies.kind, bodies.flags, t.com, t.com0, shapes.body, shapes.fat,
                       shapes.order, n_movers, first)
    if fast.shape[0] == 0:
        return 0
    return sweep_fast_bodies(bodies, shapes, rules, t, n_bodies, n_shapes, slop,
                             dynamic_response, fast, n_movers, n_statics)
