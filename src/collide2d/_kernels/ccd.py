"""Continuous collision: fast and bullet bodies swept against static geometry.

After the solver has moved every body, a dynamic body flagged ``bullet``, or one that moved
more than half its own smallest extent this step, is swept (translation from its start-of-step
centre to its end, at its start-of-step orientation, a pose the previous step left valid)
against static shapes whose boxes meet the swept box, with the swept SAT time of impact. On a
hit that would take it more than a contact slop past the impact it is put back at the first
impact, a contact slop short of touching, with its start orientation; its velocity is kept, so
the next step's speculative contact stops it at the surface. A body that started the step at
the surface and still moves into it slides along it instead, less its velocity into it. A
shape already overlapping at the start is left to the contacts.
"""

import math

import numpy as np

from .._jit import njit
from .broadphase import filters_allow
from .constants import B_AWAKE, B_BULLET, DYNAMIC, S_ALIVE, S_SENSOR, STATIC
from .groups import group_by
from .poses import transform_vertices
from .sat import sweep_pair


@njit
def body_rows(s_body, s_flags, n_shapes, n_bodies):
    """CSR of live shape rows per body: rows[start[b]:start[b + 1]]."""
    key = np.empty(n_shapes, dtype=np.int64)
    for s in range(n_shapes):
        key[s] = s_body[s] if s_flags[s] & S_ALIVE else -1
    return group_by(key, n_bodies)


@njit
def _first_hit(b, cx, cy, c, sn, wx, wy, local_com, start, rows, s_flags, s_vstart, s_vcount,
               s_radius, s_category, s_mask, s_group, vlocal, vworld, aabb, statics, ns, buf,
               slop):
    """Earliest impact of body b's shapes (centre (cx, cy), orientation (c, sn)) translated by
    (wx, wy) against the static rows ``statics[:ns]``: (t, push_x, push_y); t = 1 for none.

    Only a motion that would go deeper than the slop past the impact counts: the contacts
    handle the rest. (A body sliding fast along a wall it touches drifts into it by a hair
    each step; putting it back at that hair's time of impact froze it in place.)"""
    ox = cx - (c * local_com[b, 0] - sn * local_com[b, 1])
    oy = cy - (sn * local_com[b, 0] + c * local_com[b, 1])
    t_best = 1.0
    bx = 0.0
    by = 0.0
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
        for k in range(ns):
            t = statics[k]
            if (aabb[t, 0] > hix + r or aabb[t, 2] < lox - r or aabb[t, 1] > hiy + r
                    or aabb[t, 3] < loy - r):
                continue
            if not filters_allow(s_category[s], s_mask[s], s_group[s], s_category[t],
                                 s_mask[t], s_group[t]):
                continue
            hit, toi, px, py, depth = sweep_pair(buf, 0, n, r, vworld, s_vstart[t],
                                                 s_vcount[t], s_radius[t], wx, wy, 1.0)
            if not hit or toi >= t_best or (toi == 0.0 and depth > 0.0):
                continue
            if (1.0 - toi) * -(wx * px + wy * py) > slop:
                t_best = toi
                bx = px
                by = py
    return t_best, bx, by


@njit
def _fast_bodies(n_bodies, kind, flags, com, com0, s_body, s_flags, aabb, n_shapes):
    """Awake dynamic bodies with shapes that are bullets or moved more than half their
    smallest extent this step (from step-start boxes, margin aside), in body order."""
    extent = np.full(n_bodies, np.inf)
    shaped = np.zeros(n_bodies, dtype=np.bool_)
    for s in range(n_shapes):
        if s_flags[s] & S_ALIVE:
            b = s_body[s]
            shaped[b] = True
            extent[b] = min(extent[b],
                            0.5 * min(aabb[s, 2] - aabb[s, 0], aabb[s, 3] - aabb[s, 1]))
    fast = np.empty(n_bodies, dtype=np.int64)
    k = 0
    for b in range(n_bodies):
        if kind[b] != DYNAMIC or not (flags[b] & B_AWAKE) or not shaped[b]:
            continue
        wx = com[b, 0] - com0[b, 0]
        wy = com[b, 1] - com0[b, 1]
        dist = math.sqrt(wx * wx + wy * wy)
        if dist == 0.0 or (not (flags[b] & B_BULLET) and dist <= extent[b]):
            continue
        fast[k] = b
        k += 1
    return fast[:k]


@njit
def sweep_fast_bodies(n_bodies, kind, flags, com, com0, dp, vel, angle, angle0, dq, local_com,
                      s_body, s_flags, s_vstart, s_vcount, s_radius, s_category, s_mask,
                      s_group, vlocal, vworld, aabb, n_shapes, slop):
    """Returns the number of bodies moved back to their time of impact. Most steps have no
    fast body: the static list and the shapes per body are only built for one."""
    fast = _fast_bodies(n_bodies, kind, flags, com, com0, s_body, s_flags, aabb, n_shapes)
    if fast.shape[0] == 0:
        return 0
    statics = np.empty(n_shapes, dtype=np.int64)
    ns = 0
    for s in range(n_shapes):
        if (s_flags[s] & S_ALIVE) and not (s_flags[s] & S_SENSOR) and kind[s_body[s]] == STATIC:
            statics[ns] = s
            ns += 1
    if ns == 0:
        return 0
    start, rows = body_rows(s_body, s_flags, n_shapes, n_bodies)
    maxv = 1
    for s in range(n_shapes):
        if s_flags[s] & S_ALIVE:
            maxv = max(maxv, s_vcount[s])
    buf = np.empty((maxv, 2))
    moved = 0
    for b in fast:
        wx = com[b, 0] - com0[b, 0]
        wy = com[b, 1] - com0[b, 1]
        c = math.cos(angle0[b])
        sn = math.sin(angle0[b])
        t_best, px, py = _first_hit(b, com0[b, 0], com0[b, 1], c, sn, wx, wy, local_com, start,
                                    rows, s_flags, s_vstart, s_vcount, s_radius, s_category,
                                    s_mask, s_group, vlocal, vworld, aabb, statics, ns, buf,
                                    slop)
        if t_best >= 1.0:
            continue
        # Back off the impact by the slop measured along the surface normal (along the path,
        # a grazing body would be left touching). A counted hit moves into its surface, so
        # the normal is not zero and the motion into it is positive.
        pl = math.sqrt(px * px + py * py)
        ux = px / pl
        uy = py / pl
        back = max(0.0, t_best - slop / -(wx * ux + wy * uy))
        nx = com0[b, 0] + back * wx
        ny = com0[b, 1] + back * wy
        # A body that starts the step at the surface and still moves into it got past its
        # contacts (a fast spin turns the contact away within a substep). Put back where it
        # started with the same velocity, it would do the same again every step, frozen: its
        # velocity into the surface goes, and it slides on by its motion less the part into
        # the surface, swept once more. (A body hitting from afar stops at the impact with
        # its velocity kept; the next step's contact stops it, or bounces it.)
        if back == 0.0:
            vn = vel[b, 0] * ux + vel[b, 1] * uy
            if vn < 0.0:
                vel[b, 0] -= vn * ux
                vel[b, 1] -= vn * uy
            into = wx * ux + wy * uy
            rx = wx - into * ux
            ry = wy - into * uy
            if math.sqrt(rx * rx + ry * ry) > slop:
                t2, qx, qy = _first_hit(b, nx, ny, c, sn, rx, ry, local_com, start, rows,
                                        s_flags, s_vstart, s_vcount, s_radius, s_category,
                                        s_mask, s_group, vlocal, vworld, aabb, statics, ns,
                                        buf, slop)
                f = 1.0
                if t2 < 1.0:
                    ql = math.sqrt(qx * qx + qy * qy)
                    f = max(0.0, t2 - slop * ql / -(rx * qx + ry * qy))
                nx += f * rx
                ny += f * ry
        dp[b, 0] += nx - com[b, 0]
        dp[b, 1] += ny - com[b, 1]
        com[b, 0] = nx
        com[b, 1] = ny
        angle[b] = angle0[b]
        dq[b, 0] = 1.0
        dq[b, 1] = 0.0
        moved += 1
    return moved
