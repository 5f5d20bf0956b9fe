"""Narrowphase: manifolds for candidate pairs, matched against last step's contacts, and
sensor overlaps.

For each candidate solid pair (sorted by key) this computes a manifold with the shared
``collide`` kernel (``collide_polygons`` first for two polygons: the same results, with each
shape's face normals computed once per step; ``collide_segments`` for two segments, the
same results on scalars), then walks last step's contact table
(also sorted by key) in step with it: impulses carry over for points whose feature ids match
(warm starting), and begin / end flags fall out of the walk. Pairs whose bodies are all
asleep or fixed keep their manifolds unchanged, aside in the sleeping table (asleep.py).

Contact table (one row per pair in contact): shape rows a < b, response, point count,
normal (from a to b), points, separations, feature ids, accumulated normal and tangent
impulses, and a touching flag.
"""

import numpy as np

from .._jit import njit
from .asleep import keep_asleep
from .broadphase import MOVER_PAIRS, boxes_apart, find_pairs, pair_shapes, small_pairs
from .constants import (
    B_ALIVE,
    B_AWAKE,
    C_PASSING,
    C_TOUCHING,
    DYNAMIC,
    IGNORE,
    KINEMATIC,
    SENSOR,
    STATIC,
)
from .sat import (
    closest_segment_segment,
    collide,
    collide_polygons,
    collide_segments,
    shape_distance,
    vertex_normals_into,
)

# A manifold point counts as touching (for events and islands) within this separation.
TOUCH_SLOP = 0.005
# A one-way shape blocks a body whose contact normal (from the shape) is within 60 degrees
# of its direction when the contact begins.
ONE_WAY_COS = 0.5


@njit(_nrt=False)
def _point_speed(b, px, py, dx, dy, pos, rot, local_com, vel, angvel):
    """Velocity of body b's point (px, py) along (dx, dy)."""
    c = rot[b, 0]
    s = rot[b, 1]
    cx = pos[b, 0] + c * local_com[b, 0] - s * local_com[b, 1]
    cy = pos[b, 1] + s * local_com[b, 0] + c * local_com[b, 1]
    return ((vel[b, 0] - angvel[b] * (py - cy)) * dx
            + (vel[b, 1] + angvel[b] * (px - cx)) * dy)


@njit(_nrt=False)
def _one_way_blocks(o, x, nx, ny, px, py, s_body, one_way, pos, rot, local_com, vel, angvel):
    """Does one-way shape row ``o`` block row ``x``, meeting it with normal (nx, ny) from o
    to x at (px, py)? Only what arrives from the side its direction points to, moving
    against it (or resting), is blocked."""
    bo = s_body[o]
    bx = s_body[x]
    c = rot[bo, 0]
    s = rot[bo, 1]
    dx = c * one_way[o, 0] - s * one_way[o, 1]
    dy = s * one_way[o, 0] + c * one_way[o, 1]
    if nx * dx + ny * dy < ONE_WAY_COS:
        return False
    # Velocity of x relative to o at the contact point, along the direction.
    rel = (_point_speed(bx, px, py, dx, dy, pos, rot, local_com, vel, angvel)
           - _point_speed(bo, px, py, dx, dy, pos, rot, local_com, vel, angvel))
    return rel <= 0.0


@njit(inline="always")
def _cores_apart(verts, offa, na, offb, nb, reach):
    """Whether two circles or segments (na, nb at most 2) have cores farther apart than
    ``reach`` (their radii plus the margin) by more than round-off: then ``collide`` finds
    no contact (tests/test_collide_fast.py checks it on random and grazing pairs). Half a
    capsule pile's candidates are such pairs, and a call to collide, which takes arrays,
    costs more than this test."""
    qa = offa + na - 1
    qb = offb + nb - 1
    d2 = closest_segment_segment(verts[offa, 0], verts[offa, 1], verts[qa, 0], verts[qa, 1],
                                 verts[offb, 0], verts[offb, 1], verts[qb, 0],
                                 verts[qb, 1])[0]
    scale = (abs(verts[offa, 0]) + abs(verts[offa, 1]) + abs(verts[offb, 0])
             + abs(verts[offb, 1]))
    gap = reach + 1e-9 * (1.0 + scale)
    return d2 > gap * gap


@njit(_nrt=False)
def _active(kind, flags, vx, vy, w):
    """A body whose motion can change a contact: awake dynamic, or moving kinematic."""
    # Scalars, not the body arrays: Numba keeps an atomic reference count per array argument
    # of a small branching function, a real cost twice per pair.
    if kind == DYNAMIC:
        return (flags & B_AWAKE) != 0
    if kind == KINEMATIC:
        return vx != 0.0 or vy != 0.0 or w != 0.0
    return False


@njit(_nrt=False)
def body_moving(kind, flags, vel, angvel, n_bodies, moving):
    """Per body, 1 where its motion can change a contact (``_active``), else 0. Returns how
    many bodies that are not static can not move (asleep, or kinematic at rest)."""
    still = 0
    for b in range(n_bodies):
        act = _active(kind[b], flags[b], vel[b, 0], vel[b, 1], angvel[b])
        moving[b] = 1 if act else 0
        if not act and kind[b] != STATIC and (flags[b] & B_ALIVE):
            still += 1
    return still


@njit(inline="always")
def _sleeps_on(a, b, s_body, moving, fat):
    """An old row's pair, left out of the quiet candidates, is one of two bodies that could
    not move when the step began (``moving``, as the candidates were chosen: the walk wakes
    bodies as it goes) whose fattened boxes overlap (a candidate, had it been listed)."""
    return (moving[s_body[a]] == 0 and moving[s_body[b]] == 0
            and not boxes_apart(fat, a, b))


@njit(_nrt=False)
def collide_pairs(pa, pb, pr, shapes, bodies, n_shapes, margin, old, n_old, new, asleep,
                  n_asleep, quiet, moving, room):
    """Manifolds for the candidate pairs into the table ``new`` (capacity at least the
    number of pairs), matched against the ``n_old`` rows of ``old`` and the ``n_asleep``
    rows of ``asleep`` (asleep.py): impulses carry over, ``new.began`` marks rows that
    began touching and ``old.ended`` (or ``asleep.ended``) rows that stopped. A pair whose
    bodies can not move keeps its manifold in ``asleep``, where an old row of such a pair
    goes; a sleeping row whose pair can move again is solved from it as from an old row.
    Returns (rows written, rows of ``asleep`` now, bodies it woke).

    ``quiet``: the candidates leave out pairs of two bodies that can not move (``moving``
    0 for both, per body: ``body_moving`` at the step's start; proxies.py), every one of
    which is still a candidate: a sleeping row no candidate matches then sleeps on, and an
    old row of such a pair goes to sleep if the fattened boxes still overlap (as the
    candidates would have them), else it is gone.

    ``room`` (a NarrowRoom) holds what it works in, at least as many rows as the pairs, the
    old rows, the sleeping rows and the vertex pool: it allocates nothing (it allocated
    ten arrays a step), and runs without reference counting (counted, it paid atomics on
    the arrays it read)."""
    # Which pairs can change (the rest keep their manifolds asleep); whether any of those
    # is two polygons, which need face normals.
    polys = _activity(pa, pb, shapes, bodies, room.active)
    # Polygon face normals per vertex row of vworld: once per shape per step, not once per
    # use in every pair the shape is part of.
    if polys:
        vertex_normals_into(shapes.vworld, shapes.vstart, shapes.vcount, n_shapes,
                            room.normal, room.ex, room.ey, room.nx, room.ny)
    m, n_to_sleep, woke = _walk(pa, pb, pr, shapes, bodies, n_shapes, margin, old, n_old,
                                new, asleep, n_asleep, quiet, moving, room)
    n_kept = n_asleep
    if n_to_sleep > 0 or _changed(asleep.ended, room.keep, room.end, n_asleep):
        n_kept = keep_asleep(asleep, n_asleep, room.keep, room.end, old,
                             room.to_sleep[:n_to_sleep])
    return m, n_kept, woke


@njit(_nrt=False)
def _activity(pa, pb, shapes, bodies, active):
    """Per candidate pair, whether a body of it can move (``active``); whether any such
    pair is two polygons."""
    s_body = shapes.body
    s_vcount = shapes.vcount
    kind = bodies.kind
    b_flags = bodies.flags
    vel = bodies.vel
    angvel = bodies.angvel
    polys = False
    for i in range(pa.shape[0]):
        a = pa[i]
        b = pb[i]
        ba = s_body[a]
        bb = s_body[b]
        act = (_active(kind[ba], b_flags[ba], vel[ba, 0], vel[ba, 1], angvel[ba])
               or _active(kind[bb], b_flags[bb], vel[bb, 0], vel[bb, 1], angvel[bb]))
        active[i] = act
        polys |= act and s_vcount[a] >= 3 and s_vcount[b] >= 3
    return polys


@njit(_nrt=False)
def _walk(pa, pb, pr, shapes, bodies, n_shapes, margin, old, n_old, new, asleep, n_asleep,
          quiet, moving, room):
    """``collide_pairs``' walk over the candidates, in step with the old and the sleeping
    rows. Returns (rows written, old rows sent to sleep (``room.to_sleep``), bodies
    woken)."""
    active, nrm, d_keep, d_end = room.active, room.normal, room.keep, room.end
    to_sleep, old_matched = room.to_sleep, room.matched
    pts, seps, ids = room.points, room.seps, room.ids
    s_body = shapes.body
    s_vstart = shapes.vstart
    s_vcount = shapes.vcount
    s_radius = shapes.radius
    s_fat = shapes.fat
    vworld = shapes.vworld
    kind = bodies.kind
    b_flags = bodies.flags
    vel = bodies.vel
    angvel = bodies.angvel
    b_pos = bodies.pos
    b_rot = bodies.rot
    b_local_com = bodies.local_com
    ended = old.ended
    o_a = old.a
    o_b = old.b
    o_count = old.count
    o_id = old.id
    o_nimp = old.nimp
    o_timp = old.timp
    o_flags = old.flags
    d_a = asleep.a
    d_b = asleep.b
    d_count = asleep.count
    d_id = asleep.id
    d_nimp = asleep.nimp
    d_timp = asleep.timp
    d_flags = asleep.flags
    d_ended = asleep.ended
    one_way = shapes.one_way
    n = pa.shape[0]
    c_a = new.a
    c_b = new.b
    c_resp = new.resp
    c_count = new.count
    c_normal = new.normal
    c_point = new.point
    c_sep = new.sep
    c_id = new.id
    c_nimp = new.nimp
    c_timp = new.timp
    c_flags = new.flags
    began = new.began
    # The sleeping rows' fates: kept in the table (asleep, or ended in this step and kept
    # until the next for the surface to read), and ended. A row ended in the last step
    # goes; a row no candidate matches lost its pair, and ends if it touched.
    for r in range(n_asleep):
        gone = not d_ended[r] and (d_flags[r] & C_TOUCHING) != 0
        d_keep[r] = gone or (quiet and not d_ended[r])
        d_end[r] = gone and not quiet
    n_to_sleep = 0
    woke = 0
    m = 0
    j = 0  # cursor into the old table
    q = 0  # and into the sleeping rows
    # An old row ends when it touched and its pair is gone or no longer touches (marked
    # as the rows are matched below).
    ended[:n_old] = False
    old_matched[:n_old] = False
    i = 0
    while i < n:
        a = pa[i]
        b = pb[i]
        key = a * n_shapes + b
        while j < n_old and o_a[j] * n_shapes + o_b[j] < key:
            # (The cursor stays on a row a candidate matched until the next candidate.)
            if quiet and not old_matched[j] and _sleeps_on(o_a[j], o_b[j], s_body, moving,
                                                           s_fat):
                to_sleep[n_to_sleep] = j
                n_to_sleep += 1
                old_matched[j] = True
            j += 1
        has_old = j < n_old and o_a[j] == a and o_b[j] == b
        while q < n_asleep and d_a[q] * n_shapes + d_b[q] < key:
            q += 1
        in_asleep = q < n_asleep and d_a[q] == a and d_b[q] == b and not d_ended[q]
        if in_asleep and has_old:
            # (Only after a step that stopped half way: the old row stands, this one goes.)
            d_keep[q] = False
            d_end[q] = False
            in_asleep = False
        ba = s_body[a]
        bb = s_body[b]
        if not active[i]:
            if has_old:
                # Goes to sleep, its manifold kept as it was (merged in below).
                to_sleep[n_to_sleep] = j
                n_to_sleep += 1
                old_matched[j] = True
            elif in_asleep:
                d_keep[q] = True
                d_end[q] = False
            i += 1
            continue
        if in_asleep:
            # Awake again: solved from its sleeping row, which leaves the table (or stays
            # this step as an ended row, below).
            d_keep[q] = False
            d_end[q] = False
        na = s_vcount[a]
        nb = s_vcount[b]
        count = -1
        nx = 0.0
        ny = 0.0
        if na >= 3 and nb >= 3:
            offa = s_vstart[a]
            offb = s_vstart[b]
            count, nx, ny = collide_polygons(vworld, nrm, offa, na, s_radius[a], offa,
                                             offb, nb, s_radius[b], offb, margin, pts, seps,
                                             ids)
        elif na <= 2 and nb <= 2:
            offa = s_vstart[a]
            offb = s_vstart[b]
            if na == 2 and nb == 2:
                (count, nx, ny, p0x, p0y, s0, id0, p1x, p1y, s1,
                 id1) = collide_segments(vworld[offa, 0], vworld[offa, 1], vworld[offa + 1, 0],
                                         vworld[offa + 1, 1], s_radius[a], vworld[offb, 0],
                                         vworld[offb, 1], vworld[offb + 1, 0],
                                         vworld[offb + 1, 1], s_radius[b], margin)
                pts[0, 0] = p0x
                pts[0, 1] = p0y
                seps[0] = s0
                ids[0] = id0
                pts[1, 0] = p1x
                pts[1, 1] = p1y
                seps[1] = s1
                ids[1] = id1
            elif _cores_apart(vworld, offa, na, offb, nb, s_radius[a] + s_radius[b] + margin):
                count = 0  # (what collide gives them, without its call)
        if count < 0:
            # Not two polygons, or a case the fast path leaves to the general one.
            count, nx, ny = collide(vworld, s_vstart[a], na, s_radius[a],
                                    vworld, s_vstart[b], nb, s_radius[b], margin,
                                    pts, seps, ids)
        # The row this pair had: last step's, or its sleeping one.
        p_flags = o_flags[j] if has_old else (d_flags[q] if in_asleep else 0)
        was_touching = (p_flags & C_TOUCHING) != 0
        if count == 0:
            # No row: an old touching row ends (below), a sleeping one here.
            if in_asleep and was_touching:
                d_keep[q] = True
                d_end[q] = True
            i += 1
            continue
        passing = False
        if (one_way[a, 0] != 0.0 or one_way[a, 1] != 0.0 or one_way[b, 0] != 0.0
                or one_way[b, 1] != 0.0):
            if has_old or in_asleep:
                # Decided when the row began, kept while it lasts: a body passing through
                # from below is not caught halfway.
                passing = (p_flags & C_PASSING) != 0
            else:
                blocked = True
                if one_way[a, 0] != 0.0 or one_way[a, 1] != 0.0:
                    blocked = _one_way_blocks(a, b, nx, ny, pts[0, 0], pts[0, 1], s_body,
                                              one_way, b_pos, b_rot, b_local_com, vel,
                                              angvel)
                if blocked and (one_way[b, 0] != 0.0 or one_way[b, 1] != 0.0):
                    blocked = _one_way_blocks(b, a, -nx, -ny, pts[0, 0], pts[0, 1], s_body,
                                              one_way, b_pos, b_rot, b_local_com, vel,
                                              angvel)
                passing = not blocked
        touching = False
        for k in range(count):
            if seps[k] < TOUCH_SLOP and not passing:
                touching = True
        c_a[m] = a
        c_b[m] = b
        c_resp[m] = IGNORE if passing else pr[i]
        c_count[m] = count
        c_normal[m, 0] = nx
        c_normal[m, 1] = ny
        for k in range(2):
            # (A one-point manifold's second point is zeros.)
            c_point[m, k, 0] = pts[k, 0] if k < count else 0.0
            c_point[m, k, 1] = pts[k, 1] if k < count else 0.0
            c_sep[m, k] = seps[k] if k < count else 0.0
            c_id[m, k] = ids[k] if k < count else 0
            c_nimp[m, k] = 0.0
            c_timp[m, k] = 0.0
            if k < count:
                # Warm start: same feature pair as last step keeps its impulses.
                if has_old:
                    for u in range(o_count[j]):
                        if o_id[j, u] == ids[k]:
                            c_nimp[m, k] = o_nimp[j, u]
                            c_timp[m, k] = o_timp[j, u]
                elif in_asleep:
                    for u in range(d_count[q]):
                        if d_id[q, u] == ids[k]:
                            c_nimp[m, k] = d_nimp[q, u]
                            c_timp[m, k] = d_timp[q, u]
        if has_old:
            old_matched[j] = True
        flags = C_PASSING if passing else (C_TOUCHING if touching else 0)
        c_flags[m] = flags
        began[m] = touching and not was_touching
        if was_touching and not (flags & C_TOUCHING):
            if has_old:
                ended[j] = True
            else:
                d_keep[q] = True
                d_end[q] = True
        # A moving body touching a sleeping one wakes it (its island follows); so does one
        # closing in on it within the margin: left asleep, the sleeper is fixed to the
        # solver, which would stop the mover dead at its surface, momentum lost.
        if touching or (not passing and (vel[bb, 0] - vel[ba, 0]) * nx
                        + (vel[bb, 1] - vel[ba, 1]) * ny < 0.0):
            if kind[ba] == DYNAMIC and not b_flags[ba] & B_AWAKE:
                b_flags[ba] |= B_AWAKE
                woke += 1
            if kind[bb] == DYNAMIC and not b_flags[bb] & B_AWAKE:
                b_flags[bb] |= B_AWAKE
                woke += 1
        m += 1
        i += 1
    while quiet and j < n_old:
        if not old_matched[j] and _sleeps_on(o_a[j], o_b[j], s_body, moving, s_fat):
            to_sleep[n_to_sleep] = j
            n_to_sleep += 1
            old_matched[j] = True
        j += 1
    # Old touching rows whose pair is gone end too.
    for u in range(n_old):
        if (o_flags[u] & C_TOUCHING) and not old_matched[u]:
            ended[u] = True
    return m, n_to_sleep, woke


@njit(_nrt=False)
def _changed(d_ended, d_keep, d_end, n):
    """Whether any sleeping row leaves the table or ends (one that ended in the last step
    leaves now). (An OR over every row, with no exit: the loop vectorises, where one that
    stopped at the first such row took ten times as long over a pile's ten thousand
    sleeping rows, which in most steps are all kept.)"""
    acc = False
    for r in range(n):
        acc |= d_ended[r] | d_end[r] | (not d_keep[r])
    return acc


@njit(_nrt=False)
def sensor_pairs(pa, pb, s_vstart, s_vcount, s_radius, vworld, n_shapes, old, n_old, new):
    """Sensor pairs that overlap (interiors meet) into the table ``new`` as sorted rows
    (a, b) with ``new.began``, and ``old.ended`` for the ``n_old`` old rows. Called on
    end-of-step poses; returns the number of rows."""
    n = pa.shape[0]
    a_out = new.a
    b_out = new.b
    m = 0
    for i in range(n):
        a = pa[i]
        b = pb[i]
        d = shape_distance(vworld, s_vstart[a], s_vcount[a], s_radius[a],
                           vworld, s_vstart[b], s_vcount[b], s_radius[b], 0.0, 0.0, False)[0]
        if d < 0.0:
            a_out[m] = a
            b_out[m] = b
            m += 1
    began = new.began
    began[:m] = True
    ended = old.ended
    ended[:n_old] = True
    o_a = old.a
    o_b = old.b
    j = 0
    for i in range(m):
        key = a_out[i] * n_shapes + b_out[i]
        while j < n_old and o_a[j] * n_shapes + o_b[j] < key:
            j += 1
        if j < n_old and o_a[j] == a_out[i] and o_b[j] == b_out[i]:
            began[i] = False
            ended[j] = False
    return m


@njit(_nrt=True)
def find_sensor_pairs(shapes, kind, rules, index, n_shapes, dynamic_response, old, n_old,
                      new):
    """The sensor step: candidate sensor pairs (broadphase) of the first ``n_shapes`` rows
    of ``shapes`` (a ShapeView, its exact boxes; ``kind`` the bodies', ``rules`` the pair
    rules, ``index`` its shape index's counts, movers and statics) and
    :func:`sensor_pairs` of them. Returns (rows written, 0), or (0, candidates) when the
    candidates do not fit the table ``new``. Its own call with reference counting: the
    candidates are allocated.

    The candidates come from ``small_pairs`` when it finds at most ``MOVER_PAIRS`` (a few
    moving shapes among many fixed ones: a car on a track of sensor tiles), else from the
    grid; both give the same pairs in the same order."""
    qa = np.empty(MOVER_PAIRS, dtype=np.int64)
    qb = np.empty(MOVER_PAIRS, dtype=np.int64)
    qr = np.empty(MOVER_PAIRS, dtype=np.int8)
    ps = pair_shapes(shapes, shapes.aabb, kind, rules, index[0], index[1])
    k = small_pairs(ps, n_shapes, dynamic_response, SENSOR, (qa, qb, qr), MOVER_PAIRS)
    if 0 <= k <= MOVER_PAIRS:
        qa = qa[:k]
        qb = qb[:k]
    else:
        qa, qb, _ = find_pairs(ps, n_shapes, dynamic_response, SENSOR)
    if qa.shape[0] > new.a.shape[0]:
        return 0, qa.shape[0]
    return sensor_pairs(qa, qb, shapes.vstart, shapes.vcount, shapes.radius, shapes.vworld,
                        n_shapes, old, n_old, new), 0
