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

State crosses in named forms (``views.py``): the world's ``BodyView`` and ``ShapeView``, the
movers' ``CharacterView`` (character marks, floors, shape responses), the tile maps as a
``TileView``, the settings record (``MOVE_PARAMS_DTYPE``), the outputs as tables the surface
owns (``MoverView`` per mover, ``MoveContactView`` per contact) and the scalar results in a
record (``MOVE_STATE_DTYPE``). A move whose contact table is too small writes the rows it
needs there and returns 1 before changing anything; the surface grows the table and calls
again. The per-call working arrays travel as one ``MoveWork``.

Responses (per shape row in the movers' ``resp``, per tile in the tile class): SLIDE, TOUCH
(stop, zero velocity), CROSS (report, pass through), BOUNCE (reflect), ONEWAY (blocks only a
push normal along the obstacle's up, i.e. a mover coming from above; within ``margin`` below
the top it is lifted on). Normals push the mover away from the obstacle. Kernels never raise.
"""

import math

import numpy as np

from .._jit import njit
from .broadphase import filters_allow
from .ccd import body_rows
from .constants import B_ALIVE, B_AWAKE, DYNAMIC, KINEMATIC, S_ALIVE, S_SENSOR, STATIC
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
from .views import HIT_DTYPE, WORK_DTYPE, MoveWork

MODE_CROSS = 0
MODE_BLOCK = 1
MODE_PUSH = 2

FLAG_FLOOR = 1
FLAG_WALL = 2
FLAG_CEILING = 4

KIND_SHAPE = 0
KIND_TILE = 1

#: ``move_bodies`` statuses: done, or the contact table needs ``state["need"]`` rows.
MOVE_DONE = 0
MOVE_NEED_ROWS = 1

MAX_PLANES = 8
CROSS_CAP = 32
RECOVER_ITERS = 4
# A mover starts a snapping move on the floor when one lies within this many skins of it,
# over the floor's cosine (a landing leaves one skin along the normal, round-off a little
# more): its first slide meets it that soon, or a probe straight down does.
FLOOR_PROBE_SKINS = 4.0
# Shapes covering more grid cells than this live on a list every query checks.
BIG_CELLS = 64

# Helpers that take views are inlined where they are called (``inline="always"``): a
# namedtuple argument is passed as every member of every array in it, hundreds of words a
# call, which costs more than the helper's work; inlined, the views cost nothing.


@njit(_nrt=False, inline="always")
def _filter_ok(a, b, shapes):
    return filters_allow(shapes.category[a], shapes.mask[a], shapes.group[a],
                         shapes.category[b], shapes.mask[b], shapes.group[b])


@njit(_nrt=False, inline="always")
def _row_resp(o, shapes, chars):
    """The mover response of shape row o: the one set on this row's shape, else ONEWAY for
    a one-way shape (``Shape.one_way``), else SLIDE."""
    if chars.resp_gen[o] == shapes.generation[o]:
        return chars.resp[o]
    if shapes.one_way[o, 0] != 0.0 or shapes.one_way[o, 1] != 0.0:
        return np.int8(ONEWAY)
    return np.int8(SLIDE)


@njit(_nrt=False, inline="always")
def _place(o, bodies, shapes, buf):
    """World vertices of shape row o at its body's current pose into buf[0:n]; its box."""
    b = shapes.body[o]
    n = shapes.vcount[o]
    lox, loy, hix, hiy = transform_vertices(shapes.vlocal, shapes.vstart[o], n,
                                            bodies.pos[b, 0], bodies.pos[b, 1],
                                            math.cos(bodies.angle[b]), math.sin(bodies.angle[b]),
                                            buf, 0)
    return n, lox, loy, hix, hiy


@njit(_nrt=False)
def _cells(lox, loy, hix, hiy, g):
    """Grid cell range [cx0, cx1] x [cy0, cy1] covering a box (clamped to the grid g)."""
    gx0 = g["x0"]
    gy0 = g["y0"]
    h = g["h"]
    gnx = g["nx"]
    gny = g["ny"]
    fx0 = min(max((lox - gx0) / h, 0.0), gnx - 1.0)
    fx1 = min(max((hix - gx0) / h, 0.0), gnx - 1.0)
    fy0 = min(max((loy - gy0) / h, 0.0), gny - 1.0)
    fy1 = min(max((hiy - gy0) / h, 0.0), gny - 1.0)
    return int(fx0), int(fy0), int(fx1), int(fy1)


@njit(_nrt=False, inline="always")
def _insert(row, lox, loy, hix, hiy, work):
    """Add a shape row to the grid (or to the big list)."""
    g = work.scalars[0]
    cx0, cy0, cx1, cy1 = _cells(lox, loy, hix, hiy, g)
    if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > BIG_CELLS
            or g["entries"] + BIG_CELLS > work.item.shape[0]):
        if g["n_big"] < work.big.shape[0]:
            work.big[g["n_big"]] = row
            g["n_big"] += 1
        return
    gnx = g["nx"]
    for cy in range(cy0, cy1 + 1):
        for cx in range(cx0, cx1 + 1):
            c = cy * gnx + cx
            e = g["entries"]
            work.item[e] = row
            work.nxt[e] = work.head[c]
            work.head[c] = e
            g["entries"] = e + 1


@njit(_nrt=False, inline="always")
def _gather(lox, loy, hix, hiy, work):
    """Distinct obstacle rows whose grid cells meet a box, into ``work.cand`` (stamped with
    the grid's current query id); returns their count."""
    g = work.scalars[0]
    n = 0
    if g["nx"] == 0:
        return 0
    qid = g["qid"]
    stamp = work.stamp
    cand = work.cand
    cx0, cy0, cx1, cy1 = _cells(lox, loy, hix, hiy, g)
    gnx = g["nx"]
    for cy in range(cy0, cy1 + 1):
        for cx in range(cx0, cx1 + 1):
            e = work.head[cy * gnx + cx]
            while e >= 0:
                r = work.item[e]
                if stamp[r] != qid:
                    stamp[r] = qid
                    cand[n] = r
                    n += 1
                e = work.nxt[e]
    for k in range(g["n_big"]):
        r = work.big[k]
        if stamp[r] != qid:
            stamp[r] = qid
            cand[n] = r
            n += 1
    return n


@njit(_nrt=False, inline="always")
def _up_of(o, bodies, shapes):
    """One-way shape row o's up: its ``one_way`` direction, or world +y, turned with its
    body."""
    a = bodies.angle[shapes.body[o]]
    ux = shapes.one_way[o, 0]
    uy = shapes.one_way[o, 1]
    if ux == 0.0 and uy == 0.0:
        return -math.sin(a), math.cos(a)
    c = math.cos(a)
    s = math.sin(a)
    return c * ux - s * uy, s * ux + c * uy


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


@njit(_nrt=False, inline="always")
def _fill_mover(q, work, px, py):
    """The mover's q-th solid shape at origin (px, py), into ``work.abuf``."""
    a0 = work.moff[q]
    mrel = work.mrel
    abuf = work.abuf
    for k in range(work.mn[q]):
        abuf[k, 0] = mrel[a0 + k, 0] + px
        abuf[k, 1] = mrel[a0 + k, 1] + py


@njit(_nrt=False, inline="always")
def _first_hit(b, px0, py0, dx, dy, excl, bodies, shapes, chars, tiles, margin, drop, work):
    """Earliest blocking hit for mover b at (px0, py0) moving by (dx, dy) t, t in [0, 1],
    ignoring the shapes of body ``excl`` (and one-way tiles and shapes when ``drop``).

    Returns whether one was found, and writes it into ``work.hit`` (t, normal, kind, obs,
    tile cell, response, own row: ``obs`` is the tile map index for kind TILE, cell (ti, tj),
    or the obstacle shape row for kind SHAPE). The CROSS obstacles met on the way are in
    ``work.xt / xi / xn``, ``work.scalars["n_cross"]`` of them.
    """
    g = work.scalars[0]
    abuf = work.abuf
    obuf = work.obuf
    xt = work.xt
    xi = work.xi
    xn = work.xn
    n_x = 0
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
    for q in range(g["n_mr"]):
        row = work.mrows[q]
        _fill_mover(q, work, px0, py0)
        an = work.mn[q]
        ar = work.mr[q]
        n_before = n_x
        for m in range(tiles.start.shape[0]):
            h, t, nx, ny, ti, tj, c, n_x = sweep_tiles(
                tiles, m, (abuf, 0, an, ar, work.mbox[q]), dx, dy, bt, margin, not drop,
                work.cbuf, (xt, xi, xn), n_x)
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
        g["qid"] += 1
        nc = _gather(lox, loy, hix, hiy, work)
        for ci in range(nc):
            o = work.cand[ci]
            ob = shapes.body[o]
            if ob == b or ob == excl:
                continue
            if not _filter_ok(row, o, shapes):
                continue
            on, olox, oloy, ohix, ohiy = _place(o, bodies, shapes, obuf)
            orad = shapes.radius[o]
            if (olox - orad > hix or ohix + orad < lox or oloy - orad > hiy
                    or ohiy + orad < loy):
                continue
            resp = _row_resp(o, shapes, chars)
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
                if drop:
                    continue
                ux, uy = _up_of(o, bodies, shapes)
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
    g["n_cross"] = n_x
    rec = work.hit[0]
    rec["t"] = bt
    rec["nx"] = bnx
    rec["ny"] = bny
    rec["kind"] = bkind
    rec["obs"] = bobs
    rec["ti"] = bti
    rec["tj"] = btj
    rec["resp"] = bresp
    rec["own"] = bown
    return found


@njit(_nrt=False, inline="always")
def _deepest(b, px0, py0, mdx, mdy, bodies, shapes, chars, tiles, margin, drop, work):
    """Deepest overlap of mover b at (px0, py0) with solid geometry, for a wanted motion
    (mdx, mdy): (found, depth, nx, ny). One-way geometry does not count when ``drop``."""
    g = work.scalars[0]
    abuf = work.abuf
    obuf = work.obuf
    found = False
    best = 0.0
    bnx = 0.0
    bny = 0.0
    for q in range(g["n_mr"]):
        row = work.mrows[q]
        _fill_mover(q, work, px0, py0)
        an = work.mn[q]
        ar = work.mr[q]
        for m in range(tiles.start.shape[0]):
            h, depth, nx, ny = push_tiles(tiles, m, (abuf, 0, an, ar, work.mbox[q]), mdy,
                                          margin, not drop, work.cbuf)
            if h and depth > best:
                found = True
                best = depth
                bnx = nx
                bny = ny
        lox, loy, hix, hiy = points_box(abuf, 0, an)
        g["qid"] += 1
        nc = _gather(lox - ar, loy - ar, hix + ar, hiy + ar, work)
        for ci in range(nc):
            o = work.cand[ci]
            ob = shapes.body[o]
            resp = _row_resp(o, shapes, chars)
            if ob == b or resp == CROSS or (drop and resp == ONEWAY):
                continue
            if not _filter_ok(row, o, shapes):
                continue
            on, _, _, _, _ = _place(o, bodies, shapes, obuf)
            orad = shapes.radius[o]
            d, nabx, naby, _, _, _, _ = shape_distance(abuf, 0, an, ar, obuf, 0, on, orad,
                                                       0.0, 0.0, True)
            if d >= 0.0:
                continue
            if resp == ONEWAY:
                ux, uy = _up_of(o, bodies, shapes)
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
    return found, best, bnx, bny


@njit(_nrt=False)
def _sweep(b, px, py, dx, dy, excl, bodies, shapes, chars, tiles, margin, drop, work):
    """:func:`_first_hit` for the carry and the snap's probe and sweep, compiled once and
    called: only the slide loop, run for every mover, inlines its own copy (each copy adds
    about 5 s to the kernel's cold compile)."""
    return _first_hit(b, px, py, dx, dy, excl, bodies, shapes, chars, tiles, margin, drop,
                      work)


@njit(_nrt=False)
def _floor_velocity(own, obs, px, py, bodies, shapes, work):
    """Velocity (m/s) of the body of obstacle row ``obs`` where the mover's shape row ``own``
    (mover origin at (px, py)) stands on it: the body's velocity plus its spin about its
    centre of mass, at the point of the contact line nearest the mover shape's centre (on a
    face-to-face contact, the point under the mover). Zero for a static body."""
    fb = shapes.body[obs]
    if bodies.kind[fb] == STATIC:
        return 0.0, 0.0
    q = 0
    for e in range(work.scalars[0]["n_mr"]):
        if work.mrows[e] == own:
            q = e
    _fill_mover(q, work, px, py)
    an = work.mn[q]
    abuf = work.abuf
    on, _, _, _, _ = _place(obs, bodies, shapes, work.obuf)
    orad = shapes.radius[obs]
    _, nx, ny, _, _, qx, qy = shape_distance(abuf, 0, an, work.mr[q], work.obuf, 0, on, orad,
                                             0.0, 0.0, True)
    qx -= orad * nx
    qy -= orad * ny
    mx = 0.0
    my = 0.0
    for v in range(an):
        mx += abuf[v, 0]
        my += abuf[v, 1]
    # Slide the witness point along the contact line (tangent (-ny, nx)) under the centre.
    s = (mx / an - qx) * -ny + (my / an - qy) * nx
    cx = qx - s * ny
    cy = qy + s * nx
    c = math.cos(bodies.angle[fb])
    sn = math.sin(bodies.angle[fb])
    lc = bodies.local_com
    rx = cx - (bodies.pos[fb, 0] + c * lc[fb, 0] - sn * lc[fb, 1])
    ry = cy - (bodies.pos[fb, 1] + sn * lc[fb, 0] + c * lc[fb, 1])
    w = bodies.angvel[fb]
    return bodies.vel[fb, 0] - w * ry, bodies.vel[fb, 1] + w * rx


@njit(_nrt=False, inline="always")
def _add_contact(out, con, k, cap, nx, ny, kind, obs, ti, tj, own, resp, dedupe):
    """Append a contact to mover k's rows (``out.first[k]`` on, at most ``cap``); with
    ``dedupe``, not when the mover already has one with the same obstacle, cell and own row."""
    n = out.count[k]
    r0 = out.first[k]
    if dedupe:
        for e in range(r0, r0 + n):
            if (con.kind[e] == kind and con.obs[e] == obs and con.tile[e, 0] == ti
                    and con.tile[e, 1] == tj and con.own[e] == own):
                return
    if n >= cap:
        return
    r = r0 + n
    con.mover[r] = k
    con.normal[r, 0] = nx
    con.normal[r, 1] = ny
    con.kind[r] = kind
    con.obs[r] = obs
    con.tile[r, 0] = ti
    con.tile[r, 1] = tj
    con.own[r] = own
    con.resp[r] = resp
    out.count[k] = n + 1


@njit(_nrt=True, entry=True)
def move_bodies(movers, req_vel, bodies, shapes, chars, tiles, params, out, contacts, state):
    """Move every body in ``movers`` (slots, in order) by ``req_vel * params["dt"]`` with
    collide-and-slide.

    Marks the movers as characters, writes ``bodies.pos`` (and in MODE_PUSH ``bodies.vel``
    of dynamic bodies pushed), wakes dynamic movers, and updates the movers' floors in
    ``chars``. Per mover (row k of ``out``): the velocity left, floor / wall / ceiling bits
    and its contacts, at most ``params["max_contacts"]``, rows ``out.first[k]`` on of
    ``contacts``; ``state``: rows written and contacts dropped for lack of room. Returns
    MOVE_DONE, or MOVE_NEED_ROWS with nothing changed when ``contacts`` holds fewer than
    ``state["need"]`` rows (``out`` must hold a row per mover).
    """
    p = params[0]
    st = state[0]
    n_mov = movers.shape[0]
    n_bodies = p["n_bodies"]
    n_shapes = p["n_shapes"]
    need = n_mov * p["max_contacts"]
    if contacts.mover.shape[0] < need:
        st["need"] = need
        return MOVE_NEED_ROWS
    st["need"] = 0
    st["n_contacts"] = 0
    st["dropped"] = 0
    for k in range(n_mov):
        b = movers[k]
        chars.ch_gen[b] = bodies.generation[b]

    # Obstacles: solid shapes of static bodies and (in MODE_CROSS, of kinematic bodies that
    # are not characters; otherwise of any body), tile maps' own bodies left out.
    mode = p["mode"]
    obs_all = np.empty(max(n_shapes, 1), dtype=np.int64)
    n_obs = 0
    for s in range(n_shapes):
        f = shapes.flags[s]
        if not (f & S_ALIVE) or (f & S_SENSOR):
            continue
        ob = shapes.body[s]
        is_tile_body = False
        for m in range(tiles.body.shape[0]):
            if tiles.body[m] == ob:
                is_tile_body = True
        if is_tile_body:
            continue
        if mode == MODE_CROSS:
            kd = bodies.kind[ob]
            if not (kd == STATIC or (kd == KINEMATIC
                                     and chars.ch_gen[ob] != bodies.generation[ob])):
                continue
        obs_all[n_obs] = s
        n_obs += 1
    obs_rows = obs_all[:n_obs]

    start, rows = body_rows(shapes.body, shapes.flags, n_shapes, n_bodies)
    mover_of = np.full(n_bodies, -1, dtype=np.int64)
    for k in range(n_mov):
        mover_of[movers[k]] = k

    # Scratch sized by the largest shape.
    maxv = 4
    for s in range(n_shapes):
        if shapes.flags[s] & S_ALIVE:
            maxv = max(maxv, shapes.vcount[s])
    max_rows = 1
    max_body_v = 4
    for k in range(n_mov):
        b = movers[k]
        max_rows = max(max_rows, start[b + 1] - start[b])
        tot = 0
        for e in range(start[b], start[b + 1]):
            tot += shapes.vcount[rows[e]]
        max_body_v = max(max_body_v, tot)
    obuf = np.empty((maxv, 2))
    scalars = np.zeros(1, dtype=WORK_DTYPE)
    g = scalars[0]

    # Obstacle grid (linked cells): cell size about the mean obstacle extent.
    head = np.empty(0, dtype=np.int64)
    nxt = np.empty(0, dtype=np.int64)
    item = np.empty(0, dtype=np.int64)
    big = np.empty(0, dtype=np.int64)
    boxes = np.empty((n_obs, 4))
    if n_obs > 0:
        gx0 = math.inf
        gy0 = math.inf
        gx1 = -math.inf
        gy1 = -math.inf
        ext = 0.0
        n_mover_rows = 0
        for e in range(n_obs):
            o = obs_rows[e]
            _, lox, loy, hix, hiy = _place(o, bodies, shapes, obuf)
            r = shapes.radius[o]
            boxes[e, 0] = lox - r
            boxes[e, 1] = loy - r
            boxes[e, 2] = hix + r
            boxes[e, 3] = hiy + r
            gx0 = min(gx0, boxes[e, 0])
            gy0 = min(gy0, boxes[e, 1])
            gx1 = max(gx1, boxes[e, 2])
            gy1 = max(gy1, boxes[e, 3])
            ext += max(boxes[e, 2] - boxes[e, 0], boxes[e, 3] - boxes[e, 1])
            if mover_of[shapes.body[o]] >= 0:
                n_mover_rows += 1
        h = max(ext / n_obs, 1e-6 * (1.0 + gx1 - gx0 + gy1 - gy0))
        while True:
            gnx = int(min((gx1 - gx0) / h, 4096.0)) + 1
            gny = int(min((gy1 - gy0) / h, 4096.0)) + 1
            if gnx * gny <= 4 * n_obs + 4096:
                break
            h *= 1.5
        g["x0"] = gx0
        g["y0"] = gy0
        g["h"] = h
        g["nx"] = gnx
        g["ny"] = gny
        cap = 0
        for e in range(n_obs):
            cx0, cy0, cx1, cy1 = _cells(boxes[e, 0], boxes[e, 1], boxes[e, 2], boxes[e, 3], g)
            cells = (cx1 - cx0 + 1) * (cy1 - cy0 + 1)
            if cells <= BIG_CELLS:
                cap += cells
        cap += BIG_CELLS * (n_mover_rows + 1)
        head = np.full(gnx * gny, -1, dtype=np.int64)
        nxt = np.empty(cap, dtype=np.int64)
        item = np.empty(cap, dtype=np.int64)
        big = np.empty(n_obs + n_mover_rows, dtype=np.int64)

    work = MoveWork(
        start, rows, obs_rows, head, nxt, item, big,
        np.full(max(n_shapes, 1), -1, dtype=np.int64),        # stamp
        np.empty(max(n_shapes, 1), dtype=np.int64),           # cand
        np.empty(max_rows, dtype=np.int64), np.empty(max_rows, dtype=np.int64),
        np.empty(max_rows, dtype=np.int64), np.empty(max_rows),
        np.empty(max_rows, dtype=np.bool_), np.empty((max_body_v, 2)),
        np.empty((maxv, 2)), obuf, np.empty((4, 2)), np.empty((MAX_PLANES, 2)),
        np.empty(CROSS_CAP), np.empty((CROSS_CAP, 5), dtype=np.int64),
        np.empty((CROSS_CAP, 2)), scalars, np.zeros(1, dtype=HIT_DTYPE))
    for e in range(n_obs):
        _insert(obs_rows[e], boxes[e, 0], boxes[e, 1], boxes[e, 2], boxes[e, 3], work)

    _run_movers(movers, req_vel, bodies, shapes, chars, tiles, params, out, contacts, state,
                work)

    # The contacts as the surface names them; dynamic movers wake.
    owner = shapes.owner
    for r in range(st["n_contacts"]):
        if contacts.kind[r] == KIND_TILE:
            contacts.shape[r] = -1
            contacts.tilemap[r] = contacts.obs[r]
        else:
            contacts.shape[r] = owner[contacts.obs[r]]
            contacts.tilemap[r] = -1
        own = contacts.own[r]
        contacts.own_shape[r] = owner[own] if own >= 0 else -1
    for k in range(n_mov):
        b = movers[k]
        if bodies.kind[b] == DYNAMIC:
            bodies.flags[b] |= B_AWAKE
            bodies.sleep_time[b] = 0.0
    return MOVE_DONE


@njit(_nrt=False)
def _run_movers(movers, req_vel, bodies, shapes, chars, tiles, params, out, contacts, state,
                work):
    """The per-mover loop. Compiled without reference counting (it allocates nothing), so
    passing the views to the helpers it calls costs nothing per call."""
    p = params[0]
    st = state[0]
    g = work.scalars[0]
    hit = work.hit[0]
    dt = p["dt"]
    skin = p["skin"]
    ux = p["ux"]
    uy = p["uy"]
    cos_floor = p["cos_floor"]
    margin = p["margin"]
    max_slides = p["max_slides"]
    has_up = p["has_up"] != 0
    snap = p["snap"]
    mode = p["mode"]
    cap = p["max_contacts"]
    n_bodies = p["n_bodies"]
    pos = bodies.pos
    angle = bodies.angle
    kind = bodies.kind
    b_flags = bodies.flags
    b_gen = bodies.generation
    vel = bodies.vel
    s_body = shapes.body
    s_flags = shapes.flags
    s_vstart = shapes.vstart
    s_vcount = shapes.vcount
    s_radius = shapes.radius
    vlocal = shapes.vlocal
    ch_floor = chars.floor
    ch_floor_gen = chars.floor_gen
    ch_floor_pose = chars.floor_pose
    ch_floor_speed = chars.floor_speed
    start = work.start
    rows = work.rows
    mrows = work.mrows
    moff = work.moff
    mn = work.mn
    mr = work.mr
    mbox = work.mbox
    mrel = work.mrel
    planes = work.planes
    xt = work.xt
    xi = work.xi
    xn = work.xn
    n_mov = movers.shape[0]
    dropped = 0
    first = 0
    # Excludes no body: an int64 like the carry's floor slot, so _sweep compiles once (a
    # literal -1 would be typed apart and compile a second signature).
    no_body = np.int64(-1)
    for k in range(n_mov):
        b = movers[k]
        out.first[k] = first
        out.count[k] = 0
        out.flags[k] = 0
        out.floor_vel[k, 0] = 0.0
        out.floor_vel[k, 1] = 0.0
        drop = out.drop[k]
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
        g["n_mr"] = n_mr
        px = pos[b, 0]
        py = pos[b, 1]
        if n_mr == 0:
            pos[b, 0] = px + vx * dt
            pos[b, 1] = py + vy * dt
            out.vel[k, 0] = vx
            out.vel[k, 1] = vy
            ch_floor[b] = -1
            ch_floor_speed[b, 0] = 0.0
            ch_floor_speed[b, 1] = 0.0
            continue

        # 1. carry: follow the kinematic body this mover stood on, and the surface of a
        # conveyor it stood on (its surface velocity over dt).
        fb = ch_floor[b]
        cdx = 0.0
        cdy = 0.0
        excl = no_body
        carry = False
        if (has_up and fb >= 0 and fb < n_bodies and b_gen[fb] == ch_floor_gen[b]
                and (b_flags[fb] & B_ALIVE) and kind[fb] == KINEMATIC):
            da = angle[fb] - ch_floor_pose[b, 2]
            rx = px - ch_floor_pose[b, 0]
            ry = py - ch_floor_pose[b, 1]
            c = math.cos(da)
            sn = math.sin(da)
            cdx = pos[fb, 0] + c * rx - sn * ry - px
            cdy = pos[fb, 1] + sn * rx + c * ry - py
            excl = fb
            carry = True
        # Added only when set: a zero leaves the platform carry's bits as they were. Only
        # while the conveyor's body is still the one it stood on (not removed since).
        if ((ch_floor_speed[b, 0] != 0.0 or ch_floor_speed[b, 1] != 0.0) and fb >= 0
                and fb < n_bodies and b_gen[fb] == ch_floor_gen[b] and (b_flags[fb] & B_ALIVE)):
            cdx += ch_floor_speed[b, 0] * dt
            cdy += ch_floor_speed[b, 1] * dt
            carry = True
        if carry:
            n_planes = 0
            for _ in range(max_slides):
                if cdx == 0.0 and cdy == 0.0:
                    break
                if not _sweep(b, px, py, cdx, cdy, excl, bodies, shapes, chars, tiles, margin,
                              drop, work):
                    px += cdx
                    py += cdy
                    break
                t = hit["t"]
                nx = hit["nx"]
                ny = hit["ny"]
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
            h, depth, nx, ny = _deepest(b, px, py, dx, dy, bodies, shapes, chars, tiles,
                                        margin, drop, work)
            if not h:
                break
            px += (depth + skin) * nx
            py += (depth + skin) * ny

        # Snapping applies to a mover on the floor now that is not moving away from it.
        snapping = has_up and snap > 0.0 and vx * ux + vy * uy <= 0.0
        reach = FLOOR_PROBE_SKINS * skin / max(cos_floor, 0.1)
        spx = px
        spy = py
        was_floor = False  # known when the first slide meets a floor within reach

        # 3. slides.
        pure_down = False
        if has_up:
            along = dx * ux + dy * uy
            perp = abs(dx * uy - dy * ux)
            pure_down = along < 0.0 and perp <= 1e-12 * abs(along)
        n_planes = 0
        flags = 0
        floor_body = -1
        floor_obs = -1     # the last floor's shape row (-1: a tile), its mover shape row
        floor_own = -1
        floor_nx = 0.0     # and its normal (toward the mover)
        floor_ny = 0.0
        end_floor = False  # the last slide ended against a floor
        for slide in range(max_slides):
            if dx == 0.0 and dy == 0.0:
                break
            h = _first_hit(b, px, py, dx, dy, -1, bodies, shapes, chars, tiles, margin, drop,
                           work)
            t = hit["t"]
            nx = hit["nx"]
            ny = hit["ny"]
            hk = hit["kind"]
            hobs = hit["obs"]
            hresp = hit["resp"]
            t_end = t if h else 1.0
            for e in range(g["n_cross"]):
                if xt[e] <= t_end:
                    if out.count[k] >= cap:
                        dropped += 1
                    _add_contact(out, contacts, k, cap, xn[e, 0], xn[e, 1], xi[e, 0],
                                 xi[e, 1], xi[e, 2], xi[e, 3], xi[e, 4], CROSS, True)
            if not h:
                px += dx
                py += dy
                end_floor = False
                break
            approach = -(dx * nx + dy * ny)
            tt = max(0.0, t - skin / max(approach, 1e-300))
            px += tt * dx
            py += tt * dy
            if out.count[k] >= cap:
                dropped += 1
            _add_contact(out, contacts, k, cap, nx, ny, hk, hobs, hit["ti"], hit["tj"],
                         hit["own"], hresp, False)
            # Classify the surface.
            is_floor = False
            if has_up:
                cu = nx * ux + ny * uy
                if cu >= cos_floor - 1e-12:
                    flags |= FLAG_FLOOR
                    is_floor = True
                    floor_body = s_body[hobs] if hk == KIND_SHAPE else -1
                    floor_obs = hobs if hk == KIND_SHAPE else -1
                    floor_own = hit["own"]
                    floor_nx = nx
                    floor_ny = ny
                elif -cu >= cos_floor - 1e-12:
                    flags |= FLAG_CEILING
                else:
                    flags |= FLAG_WALL
            else:
                flags |= FLAG_WALL
            end_floor = is_floor
            if slide == 0 and is_floor and tt * math.hypot(dx, dy) <= reach:
                was_floor = True
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

        # 4. snap: a mover that left the floor it started on (down a slope, over a crest)
        # goes straight down to a floor within ``snap``, less the skin along its normal.
        if snapping and not end_floor and not was_floor:
            # Not met on the way: probe straight down from where the slides started.
            if _sweep(b, spx, spy, -reach * ux, -reach * uy, no_body, bodies, shapes, chars, tiles,
                      margin, drop, work):
                was_floor = hit["nx"] * ux + hit["ny"] * uy >= cos_floor - 1e-12
        if snapping and was_floor and not end_floor:
            sdx = -snap * ux
            sdy = -snap * uy
            if (_sweep(b, px, py, sdx, sdy, no_body, bodies, shapes, chars, tiles, margin, drop,
                       work)
                    and hit["nx"] * ux + hit["ny"] * uy >= cos_floor - 1e-12):
                nx = hit["nx"]
                ny = hit["ny"]
                hk = hit["kind"]
                hobs = hit["obs"]
                tt = max(0.0, hit["t"] - skin / max(-(sdx * nx + sdy * ny), 1e-300))
                px += tt * sdx
                py += tt * sdy
                if out.count[k] >= cap:
                    dropped += 1
                _add_contact(out, contacts, k, cap, nx, ny, hk, hobs, hit["ti"], hit["tj"],
                             hit["own"], hit["resp"], False)
                flags |= FLAG_FLOOR
                floor_body = s_body[hobs] if hk == KIND_SHAPE else -1
                floor_obs = hobs if hk == KIND_SHAPE else -1
                floor_own = hit["own"]
                floor_nx = nx
                floor_ny = ny
                vn = vx * nx + vy * ny
                if vn < 0.0:
                    vx -= vn * nx
                    vy -= vn * ny
        if snapping and (flags & FLAG_FLOOR):
            # On the floor, gravity does not accumulate and a walk up a slope does not carry
            # on up past its crest: the velocity keeps no component along up.
            vu = vx * ux + vy * uy
            vx -= vu * ux
            vy -= vu * uy
        fsx = 0.0
        fsy = 0.0
        if (flags & FLAG_FLOOR) and floor_obs >= 0:
            fvx, fvy = _floor_velocity(floor_own, floor_obs, px, py, bodies, shapes, work)
            # A conveyor: the floor's surface moves along its outline, counter-clockwise for
            # a positive speed, i.e. along (-ny, nx) with n its outward normal (materials.py).
            speed = shapes.surface_speed[floor_obs]
            if speed != 0.0:
                fsx = -speed * floor_ny
                fsy = speed * floor_nx
                fvx += fsx
                fvy += fsy
            out.floor_vel[k, 0] = fvx
            out.floor_vel[k, 1] = fvy
        ch_floor_speed[b, 0] = fsx
        ch_floor_speed[b, 1] = fsy
        pos[b, 0] = px
        pos[b, 1] = py
        out.vel[k, 0] = vx
        out.vel[k, 1] = vy
        out.flags[k] = flags
        first += out.count[k]
        ch_floor[b] = floor_body
        if floor_body >= 0:
            ch_floor_gen[b] = b_gen[floor_body]
            ch_floor_pose[b, 0] = pos[floor_body, 0]
            ch_floor_pose[b, 1] = pos[floor_body, 1]
            ch_floor_pose[b, 2] = angle[floor_body]
        # A mover that is an obstacle to later movers: insert it where it went.
        if g["nx"] > 0 and mode != MODE_CROSS:
            for e in range(start[b], start[b + 1]):
                s = rows[e]
                if _is_obstacle(s, work.obs_rows):
                    _, lox, loy, hix, hiy = _place(s, bodies, shapes, work.obuf)
                    r = s_radius[s]
                    _insert(s, lox - r, loy - r, hix + r, hiy + r, work)
    st["n_contacts"] = first
    st["dropped"] = dropped
    return dropped


@njit(_nrt=False)
def _is_obstacle(s, obs_rows):
    # obs_rows is sorted (move_bodies lists the rows in order).
    lo = 0
    hi = obs_rows.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if obs_rows[mid] < s:
            lo = mid + 1
        else:
            hi = mid
    return lo < obs_rows.shape[0] and obs_rows[lo] == s
