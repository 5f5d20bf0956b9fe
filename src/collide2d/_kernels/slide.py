"""Collide-and-slide for characters: many movers in one compiled call.

Per mover, in order: (1) *carry*: a mover whose last move ended on the floor of a kinematic
body first follows that body's displacement since then (swept, ignoring that body);
(2) *recovery*: overlaps with solid geometry (a tile set under it, a platform that moved into
it) are pushed out, deepest first, along real faces; (3) *slides*: sweep every non-sensor
shape of the mover along the remaining displacement against tile maps (grid-direct, see
``tiles.py``) and obstacle shapes (swept SAT, ``sat.sweep_pair``), move to the first hit minus
a skin measured along the hit normal, apply that obstacle's response, and repeat up to
``max_slides`` times.

Invariant: a mover that starts a slide with no interior overlap ends it with none, and with a
gap of about ``skin`` to what it hit. Velocity and displacement are clipped against every plane
met in the move (Quake's multi-plane clip): against two non-parallel planes (a corner, a crack)
both clip to zero, so nothing jitters or squeezes through.

Obstacle shapes are found through a uniform grid built here, per call, with linked cells: a
mover that is also an obstacle (``character_response`` "block" / "push") is inserted again
after its move, so later movers see where it went (stale entries only cost a test).

Responses (per shape row in ``row_resp``, per tile in the tile class): SLIDE, TOUCH (stop, zero
velocity), CROSS (report, pass through), BOUNCE (reflect), ONEWAY (blocks only a push normal
along the obstacle's up, i.e. a mover coming from above; within ``margin`` below the top it is
lifted on). Normals push the mover away from the obstacle. Kernels never raise.
"""

import math

import numpy as np

from .._jit import njit
from .broadphase import filters_allow
from .ccd import body_rows
from .constants import B_ALIVE, B_AWAKE, DYNAMIC, KINEMATIC, S_ALIVE, S_SENSOR
from .poses import points_box, transform_vertices
from .sat import shape_distance
from .tiles import (
    BOUNCE,
    CROSS,
    ONEWAY,
    SLIDE,
    TOUCH,
    push_tiles,
    sweep_shapes,
    sweep_tiles,
)

MODE_CROSS = 0
MODE_BLOCK = 1
MODE_PUSH = 2

FLAG_FLOOR = 1
FLAG_WALL = 2
FLAG_CEILING = 4

KIND_SHAPE = 0
KIND_TILE = 1

MAX_PLANES = 8
CROSS_CAP = 32
RECOVER_ITERS = 4
# Shapes covering more grid cells than this live on a list every query checks.
BIG_CELLS = 64


@njit(_nrt=False)
def _filter_ok(a, b, s_category, s_mask, s_group):
    return filters_allow(s_category[a], s_mask[a], s_group[a], s_category[b], s_mask[b],
                         s_group[b])


@njit(_nrt=False)
def _place(o, pos, angle, s_body, s_vstart, s_vcount, vlocal, buf):
    """World vertices of shape row o at its body's current pose into buf[0:n]; its box."""
    b = s_body[o]
    n = s_vcount[o]
    lox, loy, hix, hiy = transform_vertices(vlocal, s_vstart[o], n, pos[b, 0], pos[b, 1],
                                            math.cos(angle[b]), math.sin(angle[b]), buf, 0)
    return n, lox, loy, hix, hiy


@njit(_nrt=False)
def _cells(lox, loy, hix, hiy, gf, gi):
    """Grid cell range [cx0, cx1] x [cy0, cy1] covering a box (clamped to the grid)."""
    gx0 = gf[0]
    gy0 = gf[1]
    h = gf[2]
    gnx = gi[0]
    gny = gi[1]
    fx0 = min(max((lox - gx0) / h, 0.0), gnx - 1.0)
    fx1 = min(max((hix - gx0) / h, 0.0), gnx - 1.0)
    fy0 = min(max((loy - gy0) / h, 0.0), gny - 1.0)
    fy1 = min(max((hiy - gy0) / h, 0.0), gny - 1.0)
    return int(fx0), int(fy0), int(fx1), int(fy1)


@njit(_nrt=False)
def _insert(row, lox, loy, hix, hiy, gf, gi, head, nxt, item, big):
    """Add a shape row to the grid (or to the big list); gi[2] entries, gi[3] big count."""
    cx0, cy0, cx1, cy1 = _cells(lox, loy, hix, hiy, gf, gi)
    if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > BIG_CELLS or gi[2] + BIG_CELLS > item.shape[0]:
        if gi[3] < big.shape[0]:
            big[gi[3]] = row
            gi[3] += 1
        return
    gnx = gi[0]
    for cy in range(cy0, cy1 + 1):
        for cx in range(cx0, cx1 + 1):
            c = cy * gnx + cx
            e = gi[2]
            item[e] = row
            nxt[e] = head[c]
            head[c] = e
            gi[2] = e + 1


@njit(_nrt=False)
def _gather(lox, loy, hix, hiy, gf, gi, head, nxt, item, big, stamp, qid, cand):
    """Distinct obstacle rows whose grid cells meet a box, into cand; returns their count."""
    n = 0
    if gi[0] == 0:
        return 0
    cx0, cy0, cx1, cy1 = _cells(lox, loy, hix, hiy, gf, gi)
    gnx = gi[0]
    for cy in range(cy0, cy1 + 1):
        for cx in range(cx0, cx1 + 1):
            e = head[cy * gnx + cx]
            while e >= 0:
                r = item[e]
                if stamp[r] != qid:
                    stamp[r] = qid
                    cand[n] = r
                    n += 1
                e = nxt[e]
    for k in range(gi[3]):
        r = big[k]
        if stamp[r] != qid:
            stamp[r] = qid
            cand[n] = r
            n += 1
    return n


@njit(_nrt=False)
def _up_of(b, angle):
    """A one-way shape's up: world +y turned with its body."""
    return -math.sin(angle[b]), math.cos(angle[b])


@njit(_nrt=False)
def _clip(x, y, planes, n_planes):
    """The displacement (or velocity) closest to (x, y) that does not go into any plane."""
    scale = 1e-12 * (abs(x) + abs(y))
    ok = True
    for k in range(n_planes):
        if x * planes[k, 0] + y * planes[k, 1] < -scale:
            ok = False
            break
    if ok:
        return x, y
    for i in range(n_planes):
        nx = planes[i, 0]
        ny = planes[i, 1]
        dn = x * nx + y * ny
        if dn >= -scale:
            continue
        cx = x - dn * nx
        cy = y - dn * ny
        good = True
        for k in range(n_planes):
            if k != i and cx * planes[k, 0] + cy * planes[k, 1] < -scale:
                good = False
                break
        if good:
            return cx, cy
    # Two planes meeting at an angle in 2D leave no direction: stop.
    return 0.0, 0.0


@njit(_nrt=False)
def _fill_mover(q, mrel, moff, mn, px, py, abuf):
    a0 = moff[q]
    for k in range(mn[q]):
        abuf[k, 0] = mrel[a0 + k, 0] + px
        abuf[k, 1] = mrel[a0 + k, 1] + py


@njit(_nrt=False)
def _first_hit(b, px0, py0, dx, dy, excl, mrows, mrel, moff, mn, mr, mbox, n_mr,
               pos, angle, s_body, s_vstart, s_vcount, s_radius, s_category, s_mask,
               s_group, vlocal, row_resp, t_cls, t_f, t_i, margin,
               gf, gi, head, nxt, item, big, stamp, qid, cand,
               abuf, obuf, cbuf, xt, xi, xn, n_x):
    """Earliest blocking hit for the mover at (px0, py0) moving by (dx, dy) t, t in [0, 1].

    Returns (found, t, nx, ny, kind, obs, ti, tj, resp, own_row, n_x, qid); ``obs`` is the
    tile map index (kind TILE, cell (ti, tj)) or the obstacle shape row (kind SHAPE).
    """
    found = False
    bt = 1.0
    bnx = 0.0
    bny = 0.0
    bkind = 0
    bobs = -1
    bti = -1
    btj = -1
    bresp = SLIDE
    bown = -1
    dtol = 1e-12 * (abs(dx) + abs(dy))
    for q in range(n_mr):
        row = mrows[q]
        _fill_mover(q, mrel, moff, mn, px0, py0, abuf)
        an = mn[q]
        ar = mr[q]
        n_before = n_x
        for m in range(t_i.shape[0]):
            h, t, nx, ny, ti, tj, c, n_x = sweep_tiles(
                t_cls, t_i[m, 2], t_i[m, 0], t_i[m, 1], t_f[m, 0], t_f[m, 1], t_f[m, 2], m,
                abuf, 0, an, ar, mbox[q], dx, dy, bt, margin, cbuf, xt, xi, xn, n_x)
            if h:
                found = True
                bt = t
                bnx = nx
                bny = ny
                bkind = 1
                bobs = m
                bti = ti
                btj = tj
                bresp = c
                bown = row
        # Obstacle shapes under the swept box.
        lox, loy, hix, hiy = points_box(abuf, 0, an)
        lox = min(lox, lox + dx) - ar
        loy = min(loy, loy + dy) - ar
        hix = max(hix, hix + dx) + ar
        hiy = max(hiy, hiy + dy) + ar
        qid += 1
        nc = _gather(lox, loy, hix, hiy, gf, gi, head, nxt, item, big, stamp, qid, cand)
        for ci in range(nc):
            o = cand[ci]
            ob = s_body[o]
            if ob == b or ob == excl:
                continue
            if not _filter_ok(row, o, s_category, s_mask, s_group):
                continue
            on, olox, oloy, ohix, ohiy = _place(o, pos, angle, s_body, s_vstart, s_vcount,
                                                vlocal, obuf)
            orad = s_radius[o]
            if (olox - orad > hix or ohix + orad < lox or oloy - orad > hiy
                    or ohiy + orad < loy):
                continue
            resp = row_resp[o]
            hit, t, nx, ny, depth = sweep_shapes(abuf, 0, an, ar, obuf, 0, on, orad, dx, dy,
                                                 1.0)
            if not hit:
                continue
            if resp == CROSS:
                if n_x < xt.shape[0]:
                    xt[n_x] = t
                    xi[n_x, 0] = 0
                    xi[n_x, 1] = o
                    xi[n_x, 2] = -1
                    xi[n_x, 3] = -1
                    xn[n_x, 0] = nx if depth == 0.0 else 0.0
                    xn[n_x, 1] = ny if depth == 0.0 else 0.0
                    n_x += 1
                continue
            if t >= bt:
                continue
            if resp == ONEWAY:
                ux, uy = _up_of(ob, angle)
                if depth > 0.0:
                    # Inside it: held only within the margin below its top, moving down.
                    top = -math.inf
                    for k in range(on):
                        top = max(top, ux * obuf[k, 0] + uy * obuf[k, 1])
                    bot = math.inf
                    for k in range(an):
                        bot = min(bot, ux * abuf[k, 0] + uy * abuf[k, 1])
                    if top + orad - (bot - ar) > margin or dx * ux + dy * uy >= 0.0:
                        continue
                    nx = ux
                    ny = uy
                    t = 0.0
                elif nx * ux + ny * uy <= 1e-9:
                    continue
            elif depth > 0.0:
                t = 0.0
            if dx * nx + dy * ny >= -dtol:
                continue
            found = True
            bt = t
            bnx = nx
            bny = ny
            bkind = 0
            bobs = o
            bti = -1
            btj = -1
            bresp = resp
            bown = row
        for k in range(n_before, n_x):
            xi[k, 4] = row
    return found, bt, bnx, bny, bkind, bobs, bti, btj, bresp, bown, n_x, qid


@njit(_nrt=False)
def _deepest(b, px0, py0, mdx, mdy, mrows, mrel, moff, mn, mr, mbox, n_mr,
             pos, angle, s_body, s_vstart, s_vcount, s_radius, s_category, s_mask,
             s_group, vlocal, row_resp, t_cls, t_f, t_i, margin,
             gf, gi, head, nxt, item, big, stamp, qid, cand, abuf, obuf, cbuf):
    """Deepest overlap of the mover with solid geometry: (found, depth, nx, ny, qid)."""
    found = False
    best = 0.0
    bnx = 0.0
    bny = 0.0
    for q in range(n_mr):
        row = mrows[q]
        _fill_mover(q, mrel, moff, mn, px0, py0, abuf)
        an = mn[q]
        ar = mr[q]
        for m in range(t_i.shape[0]):
            h, depth, nx, ny = push_tiles(t_cls, t_i[m, 2], t_i[m, 0], t_i[m, 1], t_f[m, 0],
                                          t_f[m, 1], t_f[m, 2], abuf, 0, an, ar, mbox[q], mdy,
                                          margin, cbuf)
            if h and depth > best:
                found = True
                best = depth
                bnx = nx
                bny = ny
        lox, loy, hix, hiy = points_box(abuf, 0, an)
        qid += 1
        nc = _gather(lox - ar, loy - ar, hix + ar, hiy + ar, gf, gi, head, nxt, item, big,
                     stamp, qid, cand)
        for ci in range(nc):
            o = cand[ci]
            ob = s_body[o]
            resp = row_resp[o]
            if ob == b or resp == CROSS:
                continue
            if not _filter_ok(row, o, s_category, s_mask, s_group):
                continue
            on, _, _, _, _ = _place(o, pos, angle, s_body, s_vstart, s_vcount, vlocal, obuf)
            orad = s_radius[o]
            d, nabx, naby, _, _, _, _ = shape_distance(abuf, 0, an, ar, obuf, 0, on, orad,
                                                       0.0, 0.0, True)
            if d >= 0.0:
                continue
            if resp == ONEWAY:
                ux, uy = _up_of(ob, angle)
                top = -math.inf
                for k in range(on):
                    top = max(top, ux * obuf[k, 0] + uy * obuf[k, 1])
                bot = math.inf
                for k in range(an):
                    bot = min(bot, ux * abuf[k, 0] + uy * abuf[k, 1])
                depth = top + orad - (bot - ar)
                if depth > margin or mdx * ux + mdy * uy > 0.0:
                    continue
                nx = ux
                ny = uy
            else:
                depth = -d
                nx = -nabx
                ny = -naby
            if depth > best:
                found = True
                best = depth
                bnx = nx
                bny = ny
    return found, best, bnx, bny, qid


@njit(_nrt=False)
def _add_contact(k, c_count, c_normal, c_kind, c_obs, c_tile, c_own, c_resp, nx, ny, kind,
                 obs, ti, tj, own, resp, dedupe):
    n = c_count[k]
    if dedupe:
        for e in range(n):
            if (c_kind[k, e] == kind and c_obs[k, e] == obs and c_tile[k, e, 0] == ti
                    and c_tile[k, e, 1] == tj and c_own[k, e] == own):
                return
    if n >= c_normal.shape[1]:
        return
    c_normal[k, n, 0] = nx
    c_normal[k, n, 1] = ny
    c_kind[k, n] = kind
    c_obs[k, n] = obs
    c_tile[k, n, 0] = ti
    c_tile[k, n, 1] = tj
    c_own[k, n] = own
    c_resp[k, n] = resp
    c_count[k] = n + 1


@njit
def move_bodies(movers, req_vel, fparams, iparams, n_bodies, n_shapes,
                pos, angle, kind, b_flags, b_gen, vel,
                s_body, s_flags, s_vstart, s_vcount, s_radius, s_category, s_mask, s_group,
                vlocal, row_resp, obs_rows, t_cls, t_f, t_i,
                ch_floor, ch_floor_gen, ch_floor_pose,
                out_vel, out_flags, c_count, c_normal, c_kind, c_obs, c_tile, c_own, c_resp):
    """Move every body in ``movers`` (slots, in order) by ``req_vel * dt`` with collide-and-
    slide; writes ``pos`` (and ``vel`` of dynamic bodies pushed in MODE_PUSH), the remaining
    velocities ``out_vel``, floor / wall / ceiling bits ``out_flags``, and per mover up to
    ``c_normal.shape[1]`` contacts. ``fparams``: dt, skin, up x, up y, cos(max floor angle),
    one-way margin. ``iparams``: max slides, has up, mode. Returns the number of contacts
    dropped for lack of room.
    """
    dt = fparams[0]
    skin = fparams[1]
    ux = fparams[2]
    uy = fparams[3]
    cos_floor = fparams[4]
    margin = fparams[5]
    max_slides = iparams[0]
    has_up = iparams[1] != 0
    mode = iparams[2]
    n_mov = movers.shape[0]

    start, rows = body_rows(s_body, s_flags, n_shapes, n_bodies)
    mover_of = np.full(n_bodies, -1, dtype=np.int64)
    for k in range(n_mov):
        mover_of[movers[k]] = k

    # Scratch sized by the largest shape.
    maxv = 4
    for s in range(n_shapes):
        if s_flags[s] & S_ALIVE:
            maxv = max(maxv, s_vcount[s])
    max_rows = 1
    max_body_v = 4
    for k in range(n_mov):
        b = movers[k]
        max_rows = max(max_rows, start[b + 1] - start[b])
        tot = 0
        for e in range(start[b], start[b + 1]):
            tot += s_vcount[rows[e]]
        max_body_v = max(max_body_v, tot)
    abuf = np.empty((maxv, 2))
    obuf = np.empty((maxv, 2))
    cbuf = np.empty((4, 2))
    mrows = np.empty(max_rows, dtype=np.int64)
    moff = np.empty(max_rows, dtype=np.int64)
    mn = np.empty(max_rows, dtype=np.int64)
    mr = np.empty(max_rows)
    mbox = np.empty(max_rows, dtype=np.bool_)
    mrel = np.empty((max_body_v, 2))
    planes = np.empty((MAX_PLANES, 2))
    xt = np.empty(CROSS_CAP)
    xi = np.empty((CROSS_CAP, 5), dtype=np.int64)
    xn = np.empty((CROSS_CAP, 2))
    cand = np.empty(max(n_shapes, 1), dtype=np.int64)
    stamp = np.full(max(n_shapes, 1), -1, dtype=np.int64)

    # Obstacle grid (linked cells): cell size about the mean obstacle extent.
    n_obs = obs_rows.shape[0]
    gf = np.zeros(3)
    gi = np.zeros(4, dtype=np.int64)
    head = np.empty(0, dtype=np.int64)
    nxt = np.empty(0, dtype=np.int64)
    item = np.empty(0, dtype=np.int64)
    big = np.empty(0, dtype=np.int64)
    if n_obs > 0:
        boxes = np.empty((n_obs, 4))
        gx0 = math.inf
        gy0 = math.inf
        gx1 = -math.inf
        gy1 = -math.inf
        ext = 0.0
        n_mover_rows = 0
        for e in range(n_obs):
            o = obs_rows[e]
            _, lox, loy, hix, hiy = _place(o, pos, angle, s_body, s_vstart, s_vcount, vlocal,
                                           obuf)
            r = s_radius[o]
            boxes[e, 0] = lox - r
            boxes[e, 1] = loy - r
            boxes[e, 2] = hix + r
            boxes[e, 3] = hiy + r
            gx0 = min(gx0, boxes[e, 0])
            gy0 = min(gy0, boxes[e, 1])
            gx1 = max(gx1, boxes[e, 2])
            gy1 = max(gy1, boxes[e, 3])
            ext += max(boxes[e, 2] - boxes[e, 0], boxes[e, 3] - boxes[e, 1])
            if mover_of[s_body[o]] >= 0:
                n_mover_rows += 1
        h = max(ext / n_obs, 1e-6 * (1.0 + gx1 - gx0 + gy1 - gy0))
        while True:
            gnx = int(min((gx1 - gx0) / h, 4096.0)) + 1
            gny = int(min((gy1 - gy0) / h, 4096.0)) + 1
            if gnx * gny <= 4 * n_obs + 4096:
                break
            h *= 1.5
        gf[0] = gx0
        gf[1] = gy0
        gf[2] = h
        gi[0] = gnx
        gi[1] = gny
        cap = 0
        for e in range(n_obs):
            cx0, cy0, cx1, cy1 = _cells(boxes[e, 0], boxes[e, 1], boxes[e, 2], boxes[e, 3],
                                        gf, gi)
            cells = (cx1 - cx0 + 1) * (cy1 - cy0 + 1)
            if cells <= BIG_CELLS:
                cap += cells
        cap += BIG_CELLS * (n_mover_rows + 1)
        head = np.full(gnx * gny, -1, dtype=np.int64)
        nxt = np.empty(cap, dtype=np.int64)
        item = np.empty(cap, dtype=np.int64)
        big = np.empty(n_obs + n_mover_rows, dtype=np.int64)
        for e in range(n_obs):
            _insert(obs_rows[e], boxes[e, 0], boxes[e, 1], boxes[e, 2], boxes[e, 3], gf, gi,
                    head, nxt, item, big)

    return _run_movers(movers, req_vel, dt, skin, ux, uy, cos_floor, margin, max_slides, has_up,
                       mode, n_bodies, pos, angle, kind, b_flags, b_gen, vel, s_body, s_flags,
                       s_vstart, s_vcount, s_radius, s_category, s_mask, s_group, vlocal,
                       row_resp, obs_rows, t_cls, t_f, t_i, ch_floor, ch_floor_gen,
                       ch_floor_pose, out_vel, out_flags, c_count, c_normal, c_kind, c_obs,
                       c_tile, c_own, c_resp, start, rows, gf, gi, head, nxt, item, big, stamp,
                       cand, abuf, obuf, cbuf, mrows, moff, mn, mr, mbox, mrel, planes, xt, xi,
                       xn)


@njit(_nrt=False)
def _run_movers(movers, req_vel, dt, skin, ux, uy, cos_floor, margin, max_slides, has_up,
                mode, n_bodies, pos, angle, kind, b_flags, b_gen, vel, s_body, s_flags,
                s_vstart, s_vcount, s_radius, s_category, s_mask, s_group, vlocal,
                row_resp, obs_rows, t_cls, t_f, t_i, ch_floor, ch_floor_gen,
                ch_floor_pose, out_vel, out_flags, c_count, c_normal, c_kind, c_obs,
                c_tile, c_own, c_resp, start, rows, gf, gi, head, nxt, item, big, stamp,
                cand, abuf, obuf, cbuf, mrows, moff, mn, mr, mbox, mrel, planes, xt, xi, xn):
    """The per-mover loop. Compiled without reference counting (it allocates nothing), so
    the many array arguments of the helpers it calls cost nothing per call."""
    qid = 0
    n_mov = movers.shape[0]
    dropped = 0
    for k in range(n_mov):
        b = movers[k]
        c_count[k] = 0
        out_flags[k] = 0
        vx = req_vel[k, 0]
        vy = req_vel[k, 1]
        # The mover's solid shapes, relative to its origin (characters do not rotate here).
        ca = math.cos(angle[b])
        sa = math.sin(angle[b])
        n_mr = 0
        vtot = 0
        for e in range(start[b], start[b + 1]):
            s = rows[e]
            if s_flags[s] & S_SENSOR:
                continue
            mrows[n_mr] = s
            moff[n_mr] = vtot
            mn[n_mr] = s_vcount[s]
            mr[n_mr] = s_radius[s]
            a0 = s_vstart[s]
            for v in range(s_vcount[s]):
                lx = vlocal[a0 + v, 0]
                ly = vlocal[a0 + v, 1]
                mrel[vtot + v, 0] = ca * lx - sa * ly
                mrel[vtot + v, 1] = sa * lx + ca * ly
            # An axis-aligned rectangle takes the exact box path against tiles.
            box = s_vcount[s] == 4 and s_radius[s] == 0.0
            if box:
                for v in range(4):
                    w = v + 1 if v < 3 else 0
                    ex = mrel[vtot + w, 0] - mrel[vtot + v, 0]
                    ey = mrel[vtot + w, 1] - mrel[vtot + v, 1]
                    if abs(ex) > 1e-12 * abs(ey) and abs(ey) > 1e-12 * abs(ex):
                        box = False
            mbox[n_mr] = box
            vtot += s_vcount[s]
            n_mr += 1
        px = pos[b, 0]
        py = pos[b, 1]
        if n_mr == 0:
            pos[b, 0] = px + vx * dt
            pos[b, 1] = py + vy * dt
            out_vel[k, 0] = vx
            out_vel[k, 1] = vy
            ch_floor[b] = -1
            continue

        # 1. carry: follow the kinematic body this mover stood on.
        fb = ch_floor[b]
        if (has_up and fb >= 0 and fb < n_bodies and b_gen[fb] == ch_floor_gen[b]
                and (b_flags[fb] & B_ALIVE) and kind[fb] == KINEMATIC):
            da = angle[fb] - ch_floor_pose[b, 2]
            rx = px - ch_floor_pose[b, 0]
            ry = py - ch_floor_pose[b, 1]
            c = math.cos(da)
            sn = math.sin(da)
            cdx = pos[fb, 0] + c * rx - sn * ry - px
            cdy = pos[fb, 1] + sn * rx + c * ry - py
            n_planes = 0
            for _ in range(max_slides):
                if cdx == 0.0 and cdy == 0.0:
                    break
                (h, t, nx, ny, hk, hobs, hti, htj, hresp, hown, _,
                 qid) = _first_hit(b, px, py, cdx, cdy, fb, mrows, mrel, moff, mn, mr, mbox,
                                   n_mr, pos, angle, s_body, s_vstart, s_vcount, s_radius,
                                   s_category, s_mask, s_group, vlocal, row_resp, t_cls, t_f,
                                   t_i, margin, gf, gi, head, nxt, item, big, stamp, qid,
                                   cand, abuf, obuf, cbuf, xt, xi, xn, 0)
                if not h:
                    px += cdx
                    py += cdy
                    break
                tt = max(0.0, t - skin / max(-(cdx * nx + cdy * ny), 1e-300))
                px += tt * cdx
                py += tt * cdy
                cdx *= 1.0 - tt
                cdy *= 1.0 - tt
                if n_planes < MAX_PLANES:
                    planes[n_planes, 0] = nx
                    planes[n_planes, 1] = ny
                    n_planes += 1
                cdx, cdy = _clip(cdx, cdy, planes, n_planes)

        dx = vx * dt
        dy = vy * dt
        # 2. recovery: push out of overlaps, deepest first.
        for _ in range(RECOVER_ITERS):
            h, depth, nx, ny, qid = _deepest(b, px, py, dx, dy, mrows, mrel, moff, mn, mr,
                                             mbox, n_mr, pos, angle, s_body, s_vstart,
                                             s_vcount, s_radius, s_category, s_mask, s_group,
                                             vlocal, row_resp, t_cls, t_f, t_i, margin, gf, gi,
                                             head, nxt, item, big, stamp, qid, cand, abuf,
                                             obuf, cbuf)
            if not h:
                break
            px += (depth + skin) * nx
            py += (depth + skin) * ny

        # 3. slides.
        pure_down = False
        if has_up:
            along = dx * ux + dy * uy
            perp = abs(dx * uy - dy * ux)
            pure_down = along < 0.0 and perp <= 1e-12 * abs(along)
        n_planes = 0
        flags = 0
        floor_body = -1
        for _ in range(max_slides):
            if dx == 0.0 and dy == 0.0:
                break
            (h, t, nx, ny, hk, hobs, hti, htj, hresp, hown, n_x,
             qid) = _first_hit(b, px, py, dx, dy, -1, mrows, mrel, moff, mn, mr, mbox, n_mr,
                               pos, angle, s_body, s_vstart, s_vcount, s_radius, s_category,
                               s_mask, s_group, vlocal, row_resp, t_cls, t_f, t_i, margin,
                               gf, gi, head, nxt, item, big, stamp, qid, cand, abuf, obuf,
                               cbuf, xt, xi, xn, 0)
            t_end = t if h else 1.0
            for e in range(n_x):
                if xt[e] <= t_end:
                    if c_count[k] >= c_normal.shape[1]:
                        dropped += 1
                    _add_contact(k, c_count, c_normal, c_kind, c_obs, c_tile, c_own, c_resp,
                                 xn[e, 0], xn[e, 1], xi[e, 0], xi[e, 1], xi[e, 2], xi[e, 3],
                                 xi[e, 4], CROSS, True)
            if not h:
                px += dx
                py += dy
                break
            approach = -(dx * nx + dy * ny)
            tt = max(0.0, t - skin / max(approach, 1e-300))
            px += tt * dx
            py += tt * dy
            if c_count[k] >= c_normal.shape[1]:
                dropped += 1
            _add_contact(k, c_count, c_normal, c_kind, c_obs, c_tile, c_own, c_resp, nx, ny,
                         hk, hobs, hti, htj, hown, hresp, False)
            # Classify the surface.
            is_floor = False
            if has_up:
                cu = nx * ux + ny * uy
                if cu >= cos_floor - 1e-12:
                    flags |= FLAG_FLOOR
                    is_floor = True
                    floor_body = s_body[hobs] if hk == KIND_SHAPE else -1
                elif -cu >= cos_floor - 1e-12:
                    flags |= FLAG_CEILING
                else:
                    flags |= FLAG_WALL
            else:
                flags |= FLAG_WALL
            # Pushing: a dynamic body in the way takes the mover's speed along the normal.
            if mode == MODE_PUSH and hk == KIND_SHAPE:
                ob = s_body[hobs]
                if kind[ob] == DYNAMIC:
                    vn = -(vx * nx + vy * ny)
                    on = -(vel[ob, 0] * nx + vel[ob, 1] * ny)
                    if vn > on:
                        vel[ob, 0] -= (vn - on) * nx
                        vel[ob, 1] -= (vn - on) * ny
                        b_flags[ob] |= B_AWAKE
            rx = (1.0 - tt) * dx
            ry = (1.0 - tt) * dy
            if hresp == TOUCH:
                vx = 0.0
                vy = 0.0
                break
            if hresp == BOUNCE:
                dn = rx * nx + ry * ny
                rx -= 2.0 * dn * nx
                ry -= 2.0 * dn * ny
                vn = vx * nx + vy * ny
                if vn < 0.0:
                    vx -= 2.0 * vn * nx
                    vy -= 2.0 * vn * ny
                n_planes = 0
                dx = rx
                dy = ry
                continue
            if is_floor and pure_down:
                # Standing on a walkable slope: gravity alone does not slide it down.
                vu = vx * ux + vy * uy
                if vu < 0.0:
                    vx -= vu * ux
                    vy -= vu * uy
                break
            if n_planes < MAX_PLANES:
                planes[n_planes, 0] = nx
                planes[n_planes, 1] = ny
                n_planes += 1
            dx, dy = _clip(rx, ry, planes, n_planes)
            vx, vy = _clip(vx, vy, planes, n_planes)
        pos[b, 0] = px
        pos[b, 1] = py
        out_vel[k, 0] = vx
        out_vel[k, 1] = vy
        out_flags[k] = flags
        ch_floor[b] = floor_body
        if floor_body >= 0:
            ch_floor_gen[b] = b_gen[floor_body]
            ch_floor_pose[b, 0] = pos[floor_body, 0]
            ch_floor_pose[b, 1] = pos[floor_body, 1]
            ch_floor_pose[b, 2] = angle[floor_body]
        # A mover that is an obstacle to later movers: insert it where it went.
        if gi[0] > 0 and mode != MODE_CROSS:
            for e in range(start[b], start[b + 1]):
                s = rows[e]
                if _is_obstacle(s, obs_rows):
                    _, lox, loy, hix, hiy = _place(s, pos, angle, s_body, s_vstart, s_vcount,
                                                   vlocal, obuf)
                    r = s_radius[s]
                    _insert(s, lox - r, loy - r, hix + r, hiy + r, gf, gi, head, nxt, item,
                            big)
    return dropped


@njit(_nrt=False)
def _is_obstacle(s, obs_rows):
    # obs_rows is sorted (the surface passes np.flatnonzero output).
    lo = 0
    hi = obs_rows.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if obs_rows[mid] < s:
            lo = mid + 1
        else:
            hi = mid
    return lo < obs_rows.shape[0] and obs_rows[lo] == s
