"""Tile maps: grid-direct swept tests for the character mover, and merged boxes for rigid bodies.

A tile map is a row-major array of tile *classes* (one int8 per cell, ``cls[off + i * nx + j]``)
covering x in [ox + j s, ox + (j + 1) s], y in [oy + i s, oy + (i + 1) s]; row i counts up.
Cells outside the map are empty. Classes: EMPTY, SLIDE, TOUCH, BOUNCE (solid), CROSS (reported,
never blocks) and ONEWAY (only its top face blocks, and only a mover coming from above).

Seam-free by construction: a cell face counts only when the neighbour across it is not solid
(a *real* face of the union of solid cells). A hit through an internal face is dropped: a mover
that enters cell C through a face shared with solid cell L already overlaps L's interior at that
time, so it entered L (through a real face) strictly earlier and that hit is the one reported.
A box sliding along a floor or wall of many tiles therefore never catches on the seams.

Queries walk the cells under the swept box column by column (or row by row) in the order of the
motion, and stop at the first column that starts after the best hit found: no tree, and the
cost is the number of cells under the swept box up to the first hit.

Normals here always push the mover away from the tile (they point out of the solid).
"""

import math

from .._jit import njit
from .poses import points_box
from .sat import shape_distance, sweep_pair

EMPTY = 0
SLIDE = 1
TOUCH = 2
CROSS = 3
BOUNCE = 4
ONEWAY = 5

# Cell ranges are widened by this fraction of a tile so that cells touched within round-off
# are examined (the exact per-cell test decides).
RANGE_EPS = 1e-9
# A unit normal component below this is zero: the normal is a face normal, not a corner one.
AXIS_EPS = 1e-9


@njit(_nrt=False)
def is_solid(c):
    return c == SLIDE or c == TOUCH or c == BOUNCE


@njit(_nrt=False)
def closes(cls, off, ny, nx, i, j):
    """True if cell (i, j) is solid, so the face a neighbour shares with it is internal."""
    if i < 0 or j < 0 or i >= ny or j >= nx:
        return False
    return is_solid(cls[off + i * nx + j])


@njit(_nrt=False)
def _solid_or_oneway(cls, off, ny, nx, i, j):
    if i < 0 or j < 0 or i >= ny or j >= nx:
        return False
    c = cls[off + i * nx + j]
    return is_solid(c) or c == ONEWAY


@njit(_nrt=False)
def _sign(x):
    return 1 if x > 0.0 else -1


@njit(_nrt=False)
def face_is_real(cls, off, ny, nx, i, j, px, py):
    """Is the feature of cell (i, j) met with push normal (px, py) on the union's surface?

    A face normal needs an open neighbour across that face; a corner normal (a rounded or
    rotated mover touching a cell corner) needs both neighbours beside that corner open.
    """
    fx = abs(px) > AXIS_EPS
    fy = abs(py) > AXIS_EPS
    if fy and not fx:
        return not closes(cls, off, ny, nx, i + _sign(py), j)
    if fx and not fy:
        return not closes(cls, off, ny, nx, i, j + _sign(px))
    return (not closes(cls, off, ny, nx, i, j + _sign(px))
            and not closes(cls, off, ny, nx, i + _sign(py), j))


@njit(_nrt=False)
def oneway_ok(cls, off, ny, nx, i, j, px, py):
    """A one-way tile holds a mover only on its top: the normal must point up and the top must
    not be covered; a corner normal also needs the walkway not to continue sideways."""
    if py <= AXIS_EPS:
        return False
    if closes(cls, off, ny, nx, i + 1, j):
        return False
    if abs(px) > AXIS_EPS and _solid_or_oneway(cls, off, ny, nx, i, j + _sign(px)):
        return False
    return True


@njit(_nrt=False)
def sweep_shapes(va, aoff, an, ar, vb, boff, bn, br, dx, dy, t_max):
    """``sat.sweep_pair`` with a trustworthy normal for sharp pairs that are not both polygons.

    ``sweep_pair`` solves those (a segment against anything, radius 0) by conservative
    advancement and reports the direction between closest points about 1e-12 m apart, which
    is round-off. At that time the shapes touch, so the separating axis of largest
    separation (SAT, ``exact`` False) is the contact normal; it is used instead.
    """
    hit, t, px, py, depth = sweep_pair(va, aoff, an, ar, vb, boff, bn, br, dx, dy, t_max)
    if hit and depth == 0.0 and ar == 0.0 and br == 0.0 and (an < 3 or bn < 3):
        _, nx, ny, _, _, _, _ = shape_distance(va, aoff, an, 0.0, vb, boff, bn, 0.0, dx * t,
                                               dy * t, False)
        if nx != 0.0 or ny != 0.0:
            px = -nx
            py = -ny
    return hit, t, px, py, depth


@njit(_nrt=False)
def _axis_entry(c0, c1, b0, b1, d):
    """One axis of a moving box [b0, b1] (velocity d) against a cell [c0, c1]: (ok, enter,
    leave, sign). ok False: never overlapping on this axis. enter is -inf when the axis
    already overlaps; sign is the entry face's push-normal sign (0 when already inside)."""
    inf = math.inf
    lo = c0 - b1  # > 0: box below the cell on this axis
    hi = b0 - c1  # > 0: box above it
    if lo >= 0.0:
        if d <= 0.0:
            return False, inf, inf, 0
        return True, lo / d, (c1 - b0) / d, -1
    if hi >= 0.0:
        if d >= 0.0:
            return False, inf, inf, 0
        return True, hi / -d, (b1 - c0) / -d, 1
    if d > 0.0:
        return True, -inf, (c1 - b0) / d, 0
    if d < 0.0:
        return True, -inf, (b1 - c0) / -d, 0
    return True, -inf, inf, 0


@njit(_nrt=False)
def box_cell(bx0, by0, bx1, by1, dx, dy, cx0, cy0, cx1, cy1):
    """Swept box [bx0, bx1] x [by0, by1] moving by (dx, dy) t, t >= 0, against a cell box.

    Returns (state, ex, ey, sx, sy, t_leave): state 0 the interiors never overlap, 1 they
    start to overlap at max(ex, ey) (entry times per axis; -inf on an axis that already
    overlaps; sx, sy the push-normal signs of the entry faces), 2 they overlap at t = 0.
    Touching without interior overlap is not a hit: tangential motion along a face is free.
    """
    inf = math.inf
    okx, ex, lx, sx = _axis_entry(cx0, cx1, bx0, bx1, dx)
    if not okx:
        return 0, inf, inf, 0, 0, -inf
    oky, ey, ly, sy = _axis_entry(cy0, cy1, by0, by1, dy)
    if not oky:
        return 0, inf, inf, 0, 0, -inf
    t_leave = min(lx, ly)
    if ex == -inf and ey == -inf:
        return 2, ex, ey, 0, 0, t_leave
    if max(ex, ey) >= t_leave:
        return 0, ex, ey, sx, sy, t_leave
    return 1, ex, ey, sx, sy, t_leave


@njit(_nrt=False)
def _mtd_real(cls, off, ny, nx, i, j, box, cell):
    """Shortest axis push out of cell (i, j) (``cell`` its (x0, y0, x1, y1)) through a real
    face for an overlapping ``box`` (lox, loy, hix, hiy). Returns (depth, px, py); depth inf
    when every face is internal."""
    lox, loy, hix, hiy = box
    cx0, cy0, cx1, cy1 = cell
    best = math.inf
    px = 0.0
    py = 0.0
    d = hix - cx0  # push left
    if d < best and not closes(cls, off, ny, nx, i, j - 1):
        best = d
        px = -1.0
        py = 0.0
    d = cx1 - lox  # push right
    if d < best and not closes(cls, off, ny, nx, i, j + 1):
        best = d
        px = 1.0
        py = 0.0
    d = hiy - cy0  # push down
    if d < best and not closes(cls, off, ny, nx, i - 1, j):
        best = d
        px = 0.0
        py = -1.0
    d = cy1 - loy  # push up
    if d < best and not closes(cls, off, ny, nx, i + 1, j):
        best = d
        px = 0.0
        py = 1.0
    return best, px, py


@njit(inline="always")
def _map(tiles, m):
    """Map m's grid: (cells, first cell, rows, columns, origin x, origin y, tile size)."""
    return (tiles.cls, tiles.start[m], tiles.dims[m, 0], tiles.dims[m, 1],
            tiles.origin[m, 0], tiles.origin[m, 1], tiles.tile_size[m])


@njit(_nrt=False)
def _cell_range(lo, hi, origin, s, n):
    """Cells [k0, k1] (clamped to the map) whose span meets [lo, hi]; k0 > k1 when none."""
    f0 = (lo - origin) / s - RANGE_EPS
    f1 = (hi - origin) / s + RANGE_EPS
    f0 = min(max(f0, -1.0), n + 1.0)
    f1 = min(max(f1, -1.0), n + 1.0)
    k0 = max(int(math.floor(f0)), 0)
    k1 = min(int(math.floor(f1)), n - 1)
    return k0, k1


@njit(_nrt=False)
def _record_cross(xt, xi, xn, n_x, m, i, j, t, px, py):
    # xi row: (kind 1 = tile, map, i, j, mover row filled in by the caller)
    if n_x < xt.shape[0]:
        xt[n_x] = t
        xi[n_x, 0] = 1
        xi[n_x, 1] = m
        xi[n_x, 2] = i
        xi[n_x, 3] = j
        xn[n_x, 0] = px
        xn[n_x, 1] = py
        n_x += 1
    return n_x


@njit(_nrt=False)
def sweep_tiles(tiles, m, shape, dx, dy, t_best, margin, oneway, cbuf, cross, n_x):
    """First blocking tile of map m (``tiles`` a TileView) for a convex mover shape moving
    by (dx, dy) t, t in [0, 1].

    ``shape`` is (vertices, first row, count, radius, is_box). ``is_box``: the shape is an
    axis-aligned rectangle, tested exactly against cells with :func:`box_cell`; other shapes
    use the shared swept SAT (``sweep_pair``) per cell, after the same box test on their
    bounding box. Only hits strictly earlier than ``t_best`` are kept. ONEWAY cells block
    only while ``oneway`` (False: a mover dropping through). CROSS cells met in [0, 1] are
    appended to ``cross`` = (xt, xi, xn) (time, (map, i, j), normal) from row ``n_x``.
    Returns (found, t, px, py, i, j, class, n_x); t may be 0 for a mover touching or
    slightly overlapping a real face while moving into it.
    """
    cls, off, ny, nx, ox, oy, s = _map(tiles, m)
    va, aoff, an, ar, is_box = shape
    xt, xi, xn = cross
    found = False
    bt = t_best
    bpx = 0.0
    bpy = 0.0
    bi = -1
    bj = -1
    bc = EMPTY
    lox, loy, hix, hiy = points_box(va, aoff, an)
    lox -= ar
    loy -= ar
    hix += ar
    hiy += ar
    j0, j1 = _cell_range(min(lox, lox + dx), max(hix, hix + dx), ox, s, nx)
    i0, i1 = _cell_range(min(loy, loy + dy), max(hiy, hiy + dy), oy, s, ny)
    if j0 > j1 or i0 > i1:
        return False, bt, 0.0, 0.0, -1, -1, EMPTY, n_x
    prim_x = abs(dx) >= abs(dy)
    if prim_x:
        p0, p1, dp, plo, phi, porg = j0, j1, dx, lox, hix, ox
        q0m, q1m, dq, qlo, qhi, qorg, nq = i0, i1, dy, loy, hiy, oy, ny
    else:
        p0, p1, dp, plo, phi, porg = i0, i1, dy, loy, hiy, oy
        q0m, q1m, dq, qlo, qhi, qorg, nq = j0, j1, dx, lox, hix, ox, nx
    vdown = dy < 0.0
    # Motion along a surface that round-off leaves a hair into it is not a hit.
    dtol = 1e-12 * (abs(dx) + abs(dy))
    for step in range(p1 - p0 + 1):
        p = p0 + step if dp >= 0.0 else p1 - step
        a0 = porg + p * s
        a1 = a0 + s
        if dp > 0.0:
            ta = (a0 - phi) / dp
            tb = (a1 - plo) / dp
        elif dp < 0.0:
            ta = (a1 - plo) / dp
            tb = (a0 - phi) / dp
        else:
            ta = 0.0
            tb = 1.0
        ta = max(ta, 0.0)
        tb = min(tb, 1.0)
        if ta > bt:
            break
        if ta > tb:
            continue
        q0, q1 = _cell_range(min(qlo + dq * ta, qlo + dq * tb), max(qhi + dq * ta, qhi + dq * tb),
                             qorg, s, nq)
        q0 = max(q0, q0m)
        q1 = min(q1, q1m)
        for q in range(q0, q1 + 1):
            if prim_x:
                i = q
                j = p
            else:
                i = p
                j = q
            c = cls[off + i * nx + j]
            if c == EMPTY or (c == ONEWAY and not oneway):
                continue
            cx0 = ox + j * s
            cy0 = oy + i * s
            cx1 = cx0 + s
            cy1 = cy0 + s
            state, ex, ey, sx, sy, _ = box_cell(lox, loy, hix, hiy, dx, dy, cx0, cy0, cx1, cy1)
            if state == 0:
                continue
            te = max(ex, ey) if state == 1 else 0.0
            if c == CROSS and is_box:
                if te <= 1.0:
                    n_x = _record_cross(xt, xi, xn, n_x, m, i, j, te,
                                        float(sx) if ex >= ey else 0.0,
                                        float(sy) if ey >= ex else 0.0)
                continue
            if te >= bt and c != CROSS:
                continue
            if is_box:
                if state == 2:
                    if c == ONEWAY:
                        if (not vdown or cy1 - loy > margin
                                or closes(cls, off, ny, nx, i + 1, j)):
                            continue
                        t = 0.0
                        px = 0.0
                        py = 1.0
                    else:
                        depth, px, py = _mtd_real(cls, off, ny, nx, i, j,
                                                  (lox, loy, hix, hiy), (cx0, cy0, cx1, cy1))
                        if depth == math.inf or dx * px + dy * py >= -dtol:
                            continue
                        t = 0.0
                else:
                    t = te
                    ok = False
                    px = 0.0
                    py = 0.0
                    # Entry faces: the axis that enters last (both on an exact corner tie,
                    # the dominant axis of the motion first).
                    for pick in range(2):
                        use_x = (ex > ey) or (ex == ey and ((pick == 0) == prim_x))
                        if ex != ey and pick == 1:
                            break
                        if use_x:
                            cpx = float(sx)
                            cpy = 0.0
                        else:
                            cpx = 0.0
                            cpy = float(sy)
                        if c == ONEWAY:
                            good = oneway_ok(cls, off, ny, nx, i, j, cpx, cpy)
                        else:
                            good = face_is_real(cls, off, ny, nx, i, j, cpx, cpy)
                        if good and dx * cpx + dy * cpy < -dtol:
                            ok = True
                            px = cpx
                            py = cpy
                            break
                    if not ok:
                        continue
            else:
                _cell_corners(cbuf, cx0, cy0, cx1, cy1)
                hit, t, px, py, depth = sweep_shapes(va, aoff, an, ar, cbuf, 0, 4, 0.0, dx, dy,
                                                     1.0 if c == CROSS else min(bt, 1.0))
                if hit and c == CROSS:
                    if depth > 0.0:
                        px = 0.0
                        py = 0.0
                    n_x = _record_cross(xt, xi, xn, n_x, m, i, j, t, px, py)
                    continue
                if not hit or t >= bt:
                    continue
                if depth > 0.0:
                    if c == ONEWAY:
                        if (not vdown or cy1 - loy > margin
                                or closes(cls, off, ny, nx, i + 1, j)):
                            continue
                        px = 0.0
                        py = 1.0
                    elif not face_is_real(cls, off, ny, nx, i, j, px, py):
                        depth, px, py = _mtd_real(cls, off, ny, nx, i, j,
                                                  (lox, loy, hix, hiy), (cx0, cy0, cx1, cy1))
                        if depth == math.inf:
                            continue
                    t = 0.0
                    if dx * px + dy * py >= -dtol:
                        continue
                else:
                    if c == ONEWAY:
                        if not oneway_ok(cls, off, ny, nx, i, j, px, py):
                            continue
                    elif not face_is_real(cls, off, ny, nx, i, j, px, py):
                        continue
                    if dx * px + dy * py >= -dtol:
                        continue
            found = True
            bt = t
            bpx = px
            bpy = py
            bi = i
            bj = j
            bc = c
    return found, bt, bpx, bpy, bi, bj, bc, n_x


@njit(_nrt=False)
def push_tiles(tiles, m, shape, dy, margin, oneway, cbuf):
    """Deepest overlap of a mover shape (``shape`` as :func:`sweep_tiles`') with map m's
    solid cells, through real faces only.

    Returns (found, depth, px, py): pushing the shape by ``depth`` along (px, py) clears that
    cell. A ONEWAY cell counts only when the shape's bottom is within ``margin`` below its
    top, the mover is not moving up (``dy`` > 0) and ``oneway`` holds (False: a mover dropping
    through): it is then lifted onto the top.
    """
    cls, off, ny, nx, ox, oy, s = _map(tiles, m)
    va, aoff, an, ar, is_box = shape
    lox, loy, hix, hiy = points_box(va, aoff, an)
    lox -= ar
    loy -= ar
    hix += ar
    hiy += ar
    j0, j1 = _cell_range(lox, hix, ox, s, nx)
    i0, i1 = _cell_range(loy, hiy, oy, s, ny)
    found = False
    best = 0.0
    bpx = 0.0
    bpy = 0.0
    for i in range(i0, i1 + 1):
        for j in range(j0, j1 + 1):
            c = cls[off + i * nx + j]
            if c == EMPTY or c == CROSS or (c == ONEWAY and not oneway):
                continue
            cx0 = ox + j * s
            cy0 = oy + i * s
            cx1 = cx0 + s
            cy1 = cy0 + s
            if not (lox < cx1 and hix > cx0 and loy < cy1 and hiy > cy0):
                continue
            if not is_box:
                _cell_corners(cbuf, cx0, cy0, cx1, cy1)
                d, nabx, naby, _, _, _, _ = shape_distance(va, aoff, an, ar, cbuf, 0, 4, 0.0,
                                                           0.0, 0.0, True)
                if d >= 0.0:
                    continue
            if c == ONEWAY:
                depth = cy1 - loy
                if dy > 0.0 or depth > margin or closes(cls, off, ny, nx, i + 1, j):
                    continue
                px = 0.0
                py = 1.0
            elif not is_box and face_is_real(cls, off, ny, nx, i, j, -nabx, -naby):
                depth = -d
                px = -nabx
                py = -naby
            else:
                depth, px, py = _mtd_real(cls, off, ny, nx, i, j, (lox, loy, hix, hiy),
                                          (cx0, cy0, cx1, cy1))
                if depth == math.inf:
                    continue
            if depth > best:
                found = True
                best = depth
                bpx = px
                bpy = py
    return found, best, bpx, bpy


@njit(_nrt=False)
def _cell_corners(cbuf, x0, y0, x1, y1):
    """A tile cell's corners, counter-clockwise, into cbuf[:4] (a polygon for the SAT)."""
    cbuf[0, 0] = x0
    cbuf[0, 1] = y0
    cbuf[1, 0] = x1
    cbuf[1, 1] = y0
    cbuf[2, 0] = x1
    cbuf[2, 1] = y1
    cbuf[3, 0] = x0
    cbuf[3, 1] = y1


# Side of the square chunks the rigid-body boxes are grouped in (one Shape per chunk).
CHUNK = 16


@njit(_nrt=False)
def _cover_chunk(cls, nx, i0, i1, j0, j1, out, count, scratch):
    """Greedy cover of the solid cells of rows [i0, i1), columns [j0, j1) by rectangles.

    Row runs are merged vertically while the run below has exactly the same columns. Writes
    (row0, col0, row1, col1) half-open rectangles to ``out`` from row ``count`` on and returns
    the new count (at most one rectangle per row run). ``scratch`` is (6, j1 - j0 + 1): the
    open rectangles (start column, end column, first row) and the ones of the current row.
    """
    oa = scratch[0]
    ob = scratch[1]
    oi = scratch[2]
    na = scratch[3]
    nb = scratch[4]
    ni = scratch[5]
    n_open = 0
    for i in range(i0, i1 + 1):
        n_new = 0
        p = 0
        j = j0
        row = i * nx
        while True:
            if i < i1:
                while j < j1 and not is_solid(cls[row + j]):
                    j += 1
            else:
                j = j1  # a virtual empty row after the last closes every open rectangle
            if j >= j1:
                break
            a = j
            while j < j1 and is_solid(cls[row + j]):
                j += 1
            b = j
            # Open rectangles that start before this run (or at it, with other columns) can
            # not continue: later runs start further right.
            while p < n_open and (oa[p] < a or (oa[p] == a and ob[p] != b)):
                out[count, 0] = oi[p]
                out[count, 1] = oa[p]
                out[count, 2] = i
                out[count, 3] = ob[p]
                count += 1
                p += 1
            if p < n_open and oa[p] == a and ob[p] == b:
                start = oi[p]
                p += 1
            else:
                start = i
            na[n_new] = a
            nb[n_new] = b
            ni[n_new] = start
            n_new += 1
        while p < n_open:
            out[count, 0] = oi[p]
            out[count, 1] = oa[p]
            out[count, 2] = i
            out[count, 3] = ob[p]
            count += 1
            p += 1
        for k in range(n_new):
            oa[k] = na[k]
            ob[k] = nb[k]
            oi[k] = ni[k]
        n_open = n_new
    return count


@njit(_nrt=False, entry=True)
def cover_chunks(cls, ny, nx, ci0, ci1, cj0, cj1, out, counts, scratch):
    """Rigid-body boxes of chunks (ci, cj), ci in [ci0, ci1), cj in [cj0, cj1), in row-major
    chunk order, from the row-major tile classes ``cls`` of an ny x nx map.

    Each chunk (rows [ci CHUNK, (ci + 1) CHUNK), columns likewise, clipped to the map) gets a
    greedy cover of its solid cells (see :func:`_cover_chunk`). The rectangles of all chunks
    go to ``out`` back to back, (row0, col0, row1, col1) in tiles; ``counts[k]`` is the number
    of chunk k = (ci - ci0) (cj1 - cj0) + (cj - cj0). ``out`` needs, per chunk, its height
    times (width + 1) // 2 rows (one per possible row run); ``scratch`` is (6, CHUNK + 1).
    Returns the total, or -1 (nothing meaningful written) when ``out`` is too small. One pass
    over the cells of those chunks: linear in their area.
    """
    total = 0
    k = 0
    for ci in range(ci0, ci1):
        i0 = ci * CHUNK
        i1 = min(i0 + CHUNK, ny)
        for cj in range(cj0, cj1):
            j0 = cj * CHUNK
            j1 = min(j0 + CHUNK, nx)
            if total + (i1 - i0) * ((j1 - j0 + 1) // 2) > out.shape[0]:
                return -1
            n = _cover_chunk(cls, nx, i0, i1, j0, j1, out, total, scratch)
            counts[k] = n - total
            total = n
            k += 1
    return total
