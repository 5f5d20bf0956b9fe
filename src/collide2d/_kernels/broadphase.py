"""Broadphase: candidate pairs of shapes whose bounding boxes overlap (the boxes come from
poses.py).

The boxes are binned afresh each call (no state between steps, so adding or removing shapes
costs nothing here; the step keeps the grid's pairs while few shapes move, proxies.py) on a
uniform grid: columns as wide as a typical box (the median of a
small sample), rows as tall as one, or up to four where boxes are sparse. Each box is
entered in every row its y-range touches, and each row's entries are ordered by the column
of their left edge (a counting sort, no comparisons). Sweeping a row then meets only the
entries whose columns the box reaches; a pair sharing several rows is reported only in the
row of the higher of its two bottom edges, so exactly once. A very large box (ground, wall)
costs one entry per row it crosses. Cells are clamped to the grid, which keeps the binning
monotone: a far-away or infinite box lands in edge cells and is still paired correctly, and
the cell sizes only ever change the speed, never the pairs.

Pairs are emitted as (low row, high row) and sorted by that key, so the pair order (and
everything downstream) is deterministic.
"""

import numpy as np

from .._jit import njit
from .constants import (
    DYNAMIC,
    IGNORE,
    KINEMATIC,
    S_ALIVE,
    S_SENSOR,
    SENSOR,
    SMALL_WORLD,
    SOLID,
    STATIC,
)
from .views import PairShapes

# Pair responses.

# Boxes sampled for the typical box size (the grid's cell size).
SIZE_SAMPLE = 64

# A world of few moving shapes among many fixed ones pairs each mover with every box and
# sorts what it finds (small_pairs); past this many pairs the grid is cheaper.
MOVER_PAIRS = 64


@njit(inline="always")
def filters_allow(category_a, mask_a, group_a, category_b, mask_b, group_b):
    """The collision filter of two shapes: a shared non-zero group decides (positive:
    always, negative: never); otherwise each one's category must be in the other's mask."""
    if group_a != 0 and group_a == group_b:
        return group_a > 0
    return (category_a & mask_b) != 0 and (category_b & mask_a) != 0


@njit(inline="always")
def boxes_apart(aabb, i, j):
    """Whether boxes i and j of ``aabb`` (rows of lower x, y, upper x, y) are apart: boxes
    that touch overlap."""
    return (aabb[i, 0] > aabb[j, 2] or aabb[j, 0] > aabb[i, 2] or aabb[i, 1] > aabb[j, 3]
            or aabb[j, 1] > aabb[i, 3])


@njit(inline="always")
def _find_key(keys, key):
    """Index of ``key`` in the sorted ``keys``, or -1."""
    lo = 0
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < keys.shape[0] and keys[lo] == key else -1


@njit(inline="always")
def pair_rule(rules, type_a, type_b, body_a, body_b):
    """(the response the pair's collision types set, -1 for none; whether its bodies never
    collide), from the world's pair rules."""
    rule = -1
    if rules.type_keys.shape[0] > 0:
        lo = min(type_a, type_b)
        hi = max(type_a, type_b)
        i = _find_key(rules.type_keys, (lo << 32) | hi)
        if i >= 0:
            rule = rules.type_resp[i]
    ignored = False
    if rules.body_keys.shape[0] > 0:
        lo = min(body_a, body_b)
        hi = max(body_a, body_b)
        ignored = _find_key(rules.body_keys, (lo << 32) | hi) >= 0
    return rule, ignored


@njit(inline="always")
def may_meet(row_a, row_b):
    """Rules 1 to 3 of :func:`shape_response` without the bodies kept apart (which take a
    lookup in the pair rules): False when they ignore the pair, whatever its rules."""
    body_a, kind_a, flags_a, category_a, mask_a, group_a = row_a
    body_b, kind_b, flags_b, category_b, mask_b, group_b = row_b
    if body_a == body_b:
        return False
    if kind_a != DYNAMIC and kind_b != DYNAMIC:
        # Static and kinematic geometry never collide; a sensor among them still reports a
        # kinematic mover.
        if not ((flags_a | flags_b) & S_SENSOR) or (kind_a != KINEMATIC
                                                    and kind_b != KINEMATIC):
            return False
    return filters_allow(category_a, mask_a, group_a, category_b, mask_b, group_b)


@njit(_nrt=False)
def shape_response(row_a, row_b, dynamic_response, rule, ignored):
    """What a pair of shapes does, IGNORE, SOLID or SENSOR, from their rows' values (each
    a tuple (body, body kind, flags, category, mask, group)) and the pair's rule
    (:func:`pair_rule`: a response its collision types set, or -1; whether its bodies never
    collide). Scalars only: a call with array arguments costs reference counts that
    outweigh the test itself in the sweep.

    The rules, first match wins (the one place they are decided):

    1. same body, or bodies kept apart (``ignore_collisions``, a joint with
       ``collide_connected=False``): ignore;
    2. two immovable bodies (static, kinematic): ignore, unless a sensor meets a kinematic
       body;
    3. the filter: a shared negative group never collides; a shared positive group passes
       the filter whatever the categories and masks; otherwise each category must be in the
       other's mask;
    4. either shape a sensor: sensor;
    5. a response set for the pair's collision types (``set_pair_response``);
    6. two dynamic bodies: ``dynamic_response``, except a shared positive group, which
       always collides (solid);
    7. solid.
    """
    if ignored or not may_meet(row_a, row_b):
        return IGNORE
    return met_response(row_a, row_b, dynamic_response, rule)


@njit(inline="always")
def met_response(row_a, row_b, dynamic_response, rule):
    """Rules 4 to 7 of :func:`shape_response`, for a pair that rules 1 to 3 let meet."""
    _, kind_a, flags_a, _, _, group_a = row_a
    _, kind_b, flags_b, _, _, group_b = row_b
    if (flags_a | flags_b) & S_SENSOR:
        return SENSOR
    if rule >= 0:
        return rule
    if kind_a == DYNAMIC and kind_b == DYNAMIC and not (group_a > 0 and group_a == group_b):
        return dynamic_response
    return SOLID


@njit(_nrt=True)
def _typical_extent(aabb, live, axis):
    """Median extent along an axis of an evenly strided sample of the live boxes."""
    m = live.shape[0]
    stride = max(1, m // SIZE_SAMPLE)
    k = (m + stride - 1) // stride
    ext = np.empty(k)
    for i in range(k):
        s = live[i * stride]
        e = aabb[s, axis + 2] - aabb[s, axis]
        # Insertion into the sorted prefix (at most SIZE_SAMPLE values: np.sort would
        # compile Numba's quicksort for them, a second of a cold start). NaN goes last,
        # as np.sort puts it.
        j = i
        while j > 0 and (ext[j - 1] > e or (e == e and ext[j - 1] != ext[j - 1])):
            ext[j] = ext[j - 1]
            j -= 1
        ext[j] = e
    return ext[k // 2]


@njit(_nrt=False)
def _axis_cells(lo, hi, size, total, m):
    """(1 / cell size, cell count) for an axis spanning [lo, hi] and boxes of typical extent
    ``size``. At most m + 1 cells; when ``total`` (the summed finite extents) is positive,
    cells are made large enough that the boxes make at most about 5 m entries in all."""
    span = hi - lo
    if not (span > 0.0 and span < np.inf):
        return 1.0, 1
    if not (size > 0.0 and size < np.inf):
        size = span / np.sqrt(m)  # points or degenerate boxes: about sqrt(m) cells
    if total > 3.0 * m * size:
        size = total / (3.0 * m)
    cells = span / size
    if cells >= m + 1:
        return (m + 1) / span, m + 1
    return 1.0 / size, int(cells) + 1


@njit(inline="always")
def _cell(v, lo, inv, n):
    """Cell of coordinate v, clamped to [0, n): monotone in v, NaN in cell 0."""
    t = (v - lo) * inv
    t = t if t > 0.0 else 0.0
    t = t if t < n - 1 else n - 1.0
    return int(t)


@njit(_nrt=True)
def _grid(aabb, live):
    """The grid over the live boxes: (x0, 1 / column width, columns, y0, 1 / row height,
    rows)."""
    m = live.shape[0]
    x0 = np.inf
    y0 = np.inf
    x1 = -np.inf
    y1 = -np.inf
    total_h = 0.0
    for i in range(m):
        s = live[i]
        if aabb[s, 2] - aabb[s, 0] < np.inf:
            x0 = min(x0, aabb[s, 0])
            x1 = max(x1, aabb[s, 2])
        h = aabb[s, 3] - aabb[s, 1]
        if h < np.inf:
            total_h += h
            y0 = min(y0, aabb[s, 1])
            y1 = max(y1, aabb[s, 3])
    # Columns never duplicate a box, so only rows bound the entries by total height.
    inv_x, ncol = _axis_cells(x0, x1, _typical_extent(aabb, live, 0), 0.0, m)
    # Where boxes are sparse, rows up to four boxes tall (about one box per cell): fewer
    # entries per box, still few per row and column.
    size_y = _typical_extent(aabb, live, 1)
    sparse = np.sqrt(max(x1 - x0, 0.0) * max(y1 - y0, 0.0) / m)
    inv_y, nrow = _axis_cells(y0, y1, min(max(size_y, sparse), 4.0 * size_y), total_h, m)
    return x0, inv_x, ncol, y0, inv_y, nrow


@njit(_nrt=True)
def _fill_rows(aabb, live, x0, inv_x, ncol, y0, inv_y, nrow):
    """The grid rows' entries and the number of rows: row r is ``ent[start[r]:start[r + 1]]``,
    one entry per box touching it, (shape row, first column, last column), in order of first
    column; the shape row is negated (``~row``) in every row but the box's first. int32
    halves the memory the grid touches."""
    m = live.shape[0]
    cells = np.empty((m, 4), dtype=np.int32)  # first, last column; first, last row
    cover = np.zeros(nrow + 1, dtype=np.int64)  # boxes starting minus ending at each row
    by_col = np.zeros(ncol + 1, dtype=np.int64)
    n_entries = 0
    for i in range(m):
        s = live[i]
        c0 = _cell(aabb[s, 0], x0, inv_x, ncol)
        r0 = _cell(aabb[s, 1], y0, inv_y, nrow)
        r1 = _cell(aabb[s, 3], y0, inv_y, nrow)
        cells[i, 0] = c0
        cells[i, 1] = _cell(aabb[s, 2], x0, inv_x, ncol)
        cells[i, 2] = r0
        cells[i, 3] = r1
        by_col[c0 + 1] += 1
        cover[r0] += 1
        cover[r1 + 1] -= 1
        n_entries += r1 - r0 + 1
    if n_entries > 8 * m + 64:
        # Only boxes of infinite height get here (finite ones make at most about 5 m
        # entries, see _axis_cells): one row rather than an entry in every row for them.
        nrow = 1
        n_entries = m
        cover = np.zeros(2, dtype=np.int64)
        cover[0] = m
        cells[:, 2] = 0
        cells[:, 3] = 0
    start = np.zeros(nrow + 1, dtype=np.int64)
    covering = 0
    for r in range(nrow):
        covering += cover[r]
        start[r + 1] = start[r] + covering
    # A stable counting sort of the boxes by first column (records packed so that the next
    # loop reads them in order)...
    for c in range(ncol):
        by_col[c + 1] += by_col[c]
    rec = np.empty((m, 5), dtype=np.int32)
    for i in range(m):
        u = by_col[cells[i, 0]]
        by_col[cells[i, 0]] += 1
        rec[u, 0] = live[i]
        for c in range(4):
            rec[u, c + 1] = cells[i, c]
    # ...dealt into the rows in that order, which keeps each row sorted by column.
    ent = np.empty((n_entries, 3), dtype=np.int32)
    fill = start[:nrow].copy()
    for u in range(m):
        s = rec[u, 0]
        for r in range(rec[u, 3], rec[u, 4] + 1):
            f = fill[r]
            fill[r] = f + 1
            ent[f, 0] = s if r == rec[u, 3] else ~s
            ent[f, 1] = rec[u, 1]
            ent[f, 2] = rec[u, 2]
    return start, ent, nrow


@njit(inline="always")
def _in_sweep(flags, want):
    """Whether a shape with these flags takes part in the sweep for ``want`` (SOLID or
    SENSOR): alive, and a sensor never makes a solid pair."""
    return (flags & S_ALIVE) != 0 and not (want == SOLID and (flags & S_SENSOR) != 0)


@njit(inline="always")
def rows_response(a, b, s_body, s_flags, s_category, s_mask, s_group, s_type, kind, rules,
                  dynamic_response):
    """:func:`shape_response` of shape rows a and b, with their pair rule, looked up only
    for a pair the cheaper rules let meet (a joint grid's or a ragdoll pile's neighbours,
    kept apart by a group, would otherwise each search the joints' keys)."""
    ba = s_body[a]
    bb = s_body[b]
    row_a = (ba, kind[ba], s_flags[a], s_category[a], s_mask[a], s_group[a])
    row_b = (bb, kind[bb], s_flags[b], s_category[b], s_mask[b], s_group[b])
    if not may_meet(row_a, row_b):
        return IGNORE
    rule, ignored = pair_rule(rules, s_type[a], s_type[b], ba, bb)
    if ignored:
        return IGNORE
    return met_response(row_a, row_b, dynamic_response, rule)


@njit(inline="always")
def pair_shapes(shapes, boxes, kind, rules, n_movers, n_statics):
    """The ``PairShapes`` of a ShapeView with its ``boxes`` (its fattened or exact boxes),
    the bodies' kinds, the pair rules and the counts of its shape index (``n_movers`` -1:
    no index, see ``poses.index_shapes``)."""
    return PairShapes(boxes, shapes.body, shapes.flags, shapes.category, shapes.mask,
                      shapes.group, shapes.collision_type, kind, rules, shapes.order,
                      shapes.reach, n_movers, n_statics)


@njit(inline="always")
def _unpack(ps):
    return (ps.aabb, ps.body, ps.flags, ps.category, ps.mask, ps.group, ps.collision_type,
            ps.kind, ps.rules)


@njit(_nrt=False)
def _sweep_rows(grid, ps, dynamic_response, want, out, k, row, entry):
    """Sweep the grid's rows (``grid`` = (row starts, entries, row count)) from entry
    ``entry`` of row ``row`` on, writing the pairs (a < b, shape rows of ``ps``, a
    ``PairShapes``) whose boxes overlap and whose response is ``want`` at ``pa[k:]``,
    ``pb[k:]``, ``pr[k:]`` (``out`` = (pa, pb, pr)).

    Returns (k, row, entry): row == nrow when done, else where to resume once the buffers
    have room for that entry's pairs (the rest of its row). Compiled without reference
    counting (``_nrt=False``), so it allocates nothing: the caller grows the buffers. With
    counting, Numba counted references to the rules' arrays, atomically, at every pair's
    rule lookup: nine tenths of the sweep (a B = 100 pyramid's: 1.1 ms, 0.1 without)."""
    start, ent, nrow = grid
    pa, pb, pr = out
    aabb, s_body, s_flags, s_category, s_mask, s_group, s_type, kind, rules = _unpack(ps)
    cap = pa.shape[0]
    for r in range(row, nrow):
        end = start[r + 1]
        for p in range(max(entry, start[r]), end):
            if k + (end - p - 1) > cap:
                return k, r, p
            last = ent[p, 2]
            # Sorted by first column: the first later entry that starts right of this
            # box's last column ends its candidates (at once, mostly, in sparse scenes).
            if p + 1 == end or ent[p + 1, 1] > last:
                continue
            i = ent[p, 0]
            starts_here = i >= 0
            if not starts_here:
                i = ~i
            x_lo = aabb[i, 0]
            y_lo = aabb[i, 1]
            x_hi = aabb[i, 2]
            y_hi = aabb[i, 3]
            for q in range(p + 1, end):
                if ent[q, 1] > last:
                    break
                j = ent[q, 0]
                if j < 0:
                    if not starts_here:
                        continue  # both start in a lower row: reported there
                    j = ~j
                if (aabb[j, 0] > x_hi or aabb[j, 2] < x_lo or aabb[j, 1] > y_hi
                        or aabb[j, 3] < y_lo):
                    continue
                a = min(i, j)
                b = max(i, j)
                resp = rows_response(a, b, s_body, s_flags, s_category, s_mask, s_group,
                                     s_type, kind, rules, dynamic_response)
                if resp != want:
                    continue
                pa[k] = a
                pb[k] = b
                pr[k] = resp
                k += 1
    return k, nrow, 0


@njit(_nrt=True)
def _grown(buf, k, cap):
    """A buffer of ``cap`` entries starting with buf[:k]."""
    out = np.empty(cap, dtype=buf.dtype)
    # A loop, not a slice assignment: that pulls in Numba's broadcast checks and their
    # error messages, seconds of compiling for a copy.
    for i in range(k):
        out[i] = buf[i]
    return out


@njit(_nrt=True)
def _counting_sort(key, pa, pb, pr, k, n_shapes, oa, ob, orr):
    """The first k pairs into (oa, ob, orr), stably ordered by key (a shape row)."""
    start = np.zeros(n_shapes + 1, dtype=np.int64)
    for t in range(k):
        start[key[t] + 1] += 1
    for s in range(n_shapes):
        start[s + 1] += start[s]
    for t in range(k):
        u = start[key[t]]
        start[key[t]] += 1
        oa[u] = pa[t]
        ob[u] = pb[t]
        orr[u] = pr[t]


@njit(_nrt=True)
def _argsort_distinct(key):
    """The indices that sort ``key``, whose values are distinct (so the order is unique:
    np.argsort's), by a bottom-up merge sort: np.argsort would compile Numba's quicksort,
    a second of a cold start."""
    k = key.shape[0]
    idx = np.empty(k, dtype=np.int64)
    for t in range(k):
        idx[t] = t
    tmp = np.empty(k, dtype=np.int64)
    width = 1
    while width < k:
        for lo in range(0, k, 2 * width):
            mid = min(lo + width, k)
            hi = min(lo + 2 * width, k)
            i = lo
            j = mid
            for o in range(lo, hi):
                if i < mid and (j >= hi or key[idx[i]] < key[idx[j]]):
                    tmp[o] = idx[i]
                    i += 1
                else:
                    tmp[o] = idx[j]
                    j += 1
        idx, tmp = tmp, idx
        width *= 2
    return idx


@njit(_nrt=True)
def _sort_pairs(pa, pb, pr, k, n_shapes):
    """The first k pairs sorted by (a, b); keys are unique. Many pairs take two counting
    sorts (by b, then stably by a), few a comparison sort."""
    oa = np.empty(k, dtype=np.int64)
    ob = np.empty(k, dtype=np.int64)
    orr = np.empty(k, dtype=np.int8)
    if 8 * k < n_shapes:
        key = np.empty(k, dtype=np.int64)
        for t in range(k):
            key[t] = pa[t] * n_shapes + pb[t]
        idx = _argsort_distinct(key)
        for t in range(k):
            oa[t] = pa[idx[t]]
            ob[t] = pb[idx[t]]
            orr[t] = pr[idx[t]]
        return oa, ob, orr
    ta = np.empty(k, dtype=np.int64)
    tb = np.empty(k, dtype=np.int64)
    tr = np.empty(k, dtype=np.int8)
    _counting_sort(pb, pa, pb, pr, k, n_shapes, ta, tb, tr)
    _counting_sort(ta, ta, tb, tr, k, n_shapes, oa, ob, orr)
    return oa, ob, orr


@njit(_nrt=True)
def find_pairs(ps, n_shapes, dynamic_response, want):
    """Candidate pairs (a < b) of the first ``n_shapes`` rows of ``ps`` (a ``PairShapes``)
    whose boxes overlap and whose response is ``want`` (SOLID or SENSOR), sorted, with their
    responses (the pair rules: see :func:`pair_rule`). Pairs whose bodies are all asleep or
    fixed are kept too (their old manifolds persist)."""
    aabb = ps.aabb
    s_flags = ps.flags
    live = np.empty(n_shapes, dtype=np.int64)
    m = 0
    for s in range(n_shapes):
        if _in_sweep(s_flags[s], want):
            live[m] = s
            m += 1
    if m < 2:
        return (np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64),
                np.empty(0, dtype=np.int8))
    live = live[:m]
    x0, inv_x, ncol, y0, inv_y, nrow = _grid(aabb, live)
    start, ent, nrow = _fill_rows(aabb, live, x0, inv_x, ncol, y0, inv_y, nrow)
    cap = max(16, 2 * m)
    pa = np.empty(cap, dtype=np.int64)
    pb = np.empty(cap, dtype=np.int64)
    pr = np.empty(cap, dtype=np.int8)
    k = 0
    row = 0
    entry = 0
    while True:
        k, row, entry = _sweep_rows((start, ent, nrow), ps, dynamic_response, want,
                                    (pa, pb, pr), k, row, entry)
        if row == nrow:
            break
        cap = max(2 * cap, k + start[row + 1] - entry)
        pa = _grown(pa, k, cap)
        pb = _grown(pb, k, cap)
        pr = _grown(pr, k, cap)
    return _sort_pairs(pa, pb, pr, k, n_shapes)


@njit(_nrt=False)
def small_pairs(ps, n_shapes, dynamic_response, want, out, room):
    """:func:`find_pairs` without the grid: the same pairs in the same order (a < b,
    sorted), written to ``out`` = (out_a, out_b, out_resp) while fewer than ``room`` (in
    order only when all fit);
    returns their number, or -1 where the grid is cheaper. Allocates nothing.

    A world of at most :data:`SMALL_WORLD` live shapes tests every two boxes. A larger one
    with a shape index (``ps.n_movers`` at least 0) and at most that many shapes on bodies
    that are not static (a terrain, a track or a tile map under a few bodies) tests each of
    those against the others and against the static boxes the index finds: two static
    bodies never make a pair. It sorts the pairs found, at most :data:`MOVER_PAIRS`.
    Without reference counting, as :func:`_sweep_rows`."""
    aabb, s_body, s_flags, s_category, s_mask, s_group, s_type, kind, rules = _unpack(ps)
    out_a, out_b, out_resp = out
    if ps.n_movers >= 0 and ps.n_movers + ps.n_statics > SMALL_WORLD:
        if ps.n_movers > SMALL_WORLD:
            return -1
        return _mover_pairs(ps, n_shapes, dynamic_response, want, out, room)
    if ps.n_movers >= 0 and 2 * ps.n_movers < ps.n_statics:
        # A few bodies over a static level of a few shapes (a lander over its moon's
        # edges): the index's tests, fewer than every two shapes'. Past MOVER_PAIRS pairs
        # or the room, every two shapes' below (which writes the first pairs in order).
        k = _mover_pairs(ps, n_shapes, dynamic_response, want, out, room)
        if 0 <= k <= room:
            return k
    m = 0
    for s in range(n_shapes):
        if _in_sweep(s_flags[s], want):
            m += 1
            if m > SMALL_WORLD:
                return -1
    k = 0
    for a in range(n_shapes):
        if not _in_sweep(s_flags[a], want):
            continue
        # Two static bodies' shapes never make a pair (a lander's moon, a level's walls:
        # most of a small world's pairs).
        fixed = kind[s_body[a]] == STATIC
        for b in range(a + 1, n_shapes):
            if not _in_sweep(s_flags[b], want) or (fixed and kind[s_body[b]] == STATIC):
                continue
            if boxes_apart(aabb, a, b):  # (as the grid's sweep)
                continue
            resp = rows_response(a, b, s_body, s_flags, s_category, s_mask, s_group, s_type,
                                 kind, rules, dynamic_response)
            if resp != want:
                continue
            if k < room:
                out_a[k] = a
                out_b[k] = b
                out_resp[k] = resp
            k += 1
    return k


@njit(_nrt=False)
def _mover_pairs(ps, n_shapes, dynamic_response, want, out, room):
    """small_pairs' pairs of the shapes on moving bodies (not static: the shape index's
    first ``n_movers`` rows) with each other and with the static shapes, sorted, or -1
    past MOVER_PAIRS pairs.

    The index lists the static shapes by the lower x of their fattened boxes, with the
    largest upper x up to each: those a box can overlap lie at or before the last whose
    lower x is within the box's upper x, and after the last whose largest upper x up to it
    is short of the box's lower x. Its order also holds for exact boxes (shifting lower
    bounds by the margin keeps their order), and the fattened boxes' reach bounds the exact
    ones'."""
    aabb, s_flags = ps.aabb, ps.flags
    order, reach, n_movers = ps.order, ps.reach, ps.n_movers
    last = n_movers + ps.n_statics
    out_a, out_b, out_resp = out
    k = 0
    for u in range(n_movers):
        i = order[u]
        if not _in_sweep(s_flags[i], want):
            continue
        # The statics, then the other movers (a pair of two found from the lower row).
        lo = aabb[i, 0]
        hi = aabb[i, 2]
        q = statics_past(aabb, order, n_movers, last, hi) - 1
        while q >= n_movers and reach[q] >= lo:
            k = _emit(ps, i, order[q], dynamic_response, want, out, room, k)
            if k < 0:
                return -1
            q -= 1
        for v in range(u + 1, n_movers):
            k = _emit(ps, i, order[v], dynamic_response, want, out, room, k)
            if k < 0:
                return -1
    if k <= room:
        sort_range(out_a, out_b, out_resp, 0, k, n_shapes)  # (few pairs)
    return k


@njit(inline="always")
def statics_past(boxes, order, first, last, hi):
    """In the shape index's statics (positions ``first:last`` of ``order``, by the lower x
    of ``boxes``), the first position whose lower x is past ``hi``: the statics a box
    reaching ``hi`` can meet lie before it (a binary search)."""
    a = first
    b = last
    while a < b:
        mid = (a + b) // 2
        if boxes[order[mid], 0] > hi:
            b = mid
        else:
            a = mid + 1
    return a


@njit(inline="always")
def sort_range(pa, pb, pr, lo, hi, n_shapes):
    """Pairs ``lo:hi`` sorted by (a, b) in place, by insertion: for a few pairs."""
    for u in range(lo + 1, hi):
        a = pa[u]
        b = pb[u]
        r = pr[u]
        key = a * n_shapes + b
        v = u
        while v > lo and pa[v - 1] * n_shapes + pb[v - 1] > key:
            pa[v] = pa[v - 1]
            pb[v] = pb[v - 1]
            pr[v] = pr[v - 1]
            v -= 1
        pa[v] = a
        pb[v] = b
        pr[v] = r


@njit(inline="always")
def box_pair_response(ps, i, j, dynamic_response, want):
    """The response of shape rows i and j of ``ps`` (a ``PairShapes``; i in the sweep for
    ``want``) if their boxes overlap and j is in the sweep too, else IGNORE."""
    aabb, s_body, s_flags, s_category, s_mask, s_group, s_type, kind, rules = _unpack(ps)
    if boxes_apart(aabb, i, j) or not _in_sweep(s_flags[j], want):
        return IGNORE
    return rows_response(min(i, j), max(i, j), s_body, s_flags, s_category, s_mask, s_group,
                         s_type, kind, rules, dynamic_response)


@njit(inline="always")
def _emit(ps, i, j, dynamic_response, want, out, room, k):
    """Pair (i, j), if their boxes overlap, both are in the sweep and their response is
    ``want``: written at ``k`` while there is room; returns the pairs' new count, or -1
    past MOVER_PAIRS."""
    resp = box_pair_response(ps, i, j, dynamic_response, want)
    if resp != want:
        return k
    a = min(i, j)
    b = max(i, j)
    if k == MOVER_PAIRS:
        return -1
    if k < room:
        out_a, out_b, out_resp = out
        out_a[k] = a
        out_b[k] = b
        out_resp[k] = resp
    return k + 1


@njit(_nrt=True)
def pairs_into(ps, n_shapes, dynamic_response, want, out, room):
    """:func:`find_pairs` copied into ``out`` = (out_a, out_b, out_resp) when at most
    ``room`` of them; their number either way. Its own call with reference counting:
    find_pairs allocates its results."""
    out_a, out_b, out_resp = out
    pa, pb, pr = find_pairs(ps, n_shapes, dynamic_response, want)
    k = pa.shape[0]
    if k <= room:
        for i in range(k):  # (a slice assignment compiles Numba's shape check)
            out_a[i] = pa[i]
            out_b[i] = pb[i]
            out_resp[i] = pr[i]
    return k


@njit(_nrt=False)
def has_sensors(s_flags, n_shapes, rules):
    """Can any pair be a sensor pair: a sensor shape, or a pair rule that says so?"""
    for i in range(rules.type_resp.shape[0]):
        if rules.type_resp[i] == SENSOR:
            return True
    # Counted over every shape rather than stopping at the first: a loop without an exit
    # is vectorised (most worlds have no sensor, and the count is read every step).
    both = S_ALIVE | S_SENSOR
    k = 0
    for s in range(n_shapes):
        k += (s_flags[s] & both) == both
    return k > 0
