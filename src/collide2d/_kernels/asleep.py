"""Sleeping contacts, kept aside: the rows of pairs whose bodies can not move.

A pair neither of whose bodies can move (asleep, static, or kinematic at rest) keeps its
manifold unchanged until one of them moves again. Such rows live in their own table
(``StepView.asleep``, the world's, kept between steps), in pair order like the contact
table, so that the stages a step runs walk only the rows that can change: a sleeping pile
with one body awake elsewhere costs a walk over its candidate pairs, not a copy of its
manifolds into every step's table and a pass of every stage over them.

The narrowphase moves a row here when its pair can no longer move and solves it from here
again when it can (``narrowphase.collide_pairs``); bodies woken after it (``wake_rows``,
their islands woken through the sleeping rows too) bring their rows back into the step's
table before anything reads it. A sleeping row whose pair is gone, or that woke and no
longer touches, ends: it stays a step with its ``ended`` flag set, where the surface reads
the step's end events, and leaves at the next narrowphase. The world's contacts are the
two tables merged by pair; both hold every field, so a row moves whole and the solve is
that of one table in pair order (its rows are the same, in the same order).
"""

from .._jit import njit
from .constants import B_AWAKE, DYNAMIC


@njit(inline="always")
def copy_row(src, i, dst, k):
    """Row ``i`` of contact table ``src`` into row ``k`` of ``dst``, every field."""
    dst.a[k] = src.a[i]
    dst.b[k] = src.b[i]
    dst.resp[k] = src.resp[i]
    dst.count[k] = src.count[i]
    dst.flags[k] = src.flags[i]
    dst.began[k] = src.began[i]
    dst.ended[k] = src.ended[i]
    for u in range(2):
        dst.normal[k, u] = src.normal[i, u]
        dst.sep[k, u] = src.sep[i, u]
        dst.id[k, u] = src.id[i, u]
        dst.nimp[k, u] = src.nimp[i, u]
        dst.timp[k, u] = src.timp[i, u]
        dst.impulse[k, u] = src.impulse[i, u]
        dst.point[k, u, 0] = src.point[i, u, 0]
        dst.point[k, u, 1] = src.point[i, u, 1]


@njit(inline="always")
def _quiet(t, k):
    """A row as it sleeps: no event of this step, no impulse applied."""
    t.began[k] = False
    t.ended[k] = False
    t.impulse[k, 0] = 0.0
    t.impulse[k, 1] = 0.0


@njit(inline="always")
def _before(t, i, u, k):
    """Row i of table t sorts before row k of table u (pair order)."""
    return t.a[i] < u.a[k] or (t.a[i] == u.a[k] and t.b[i] < u.b[k])


@njit(_nrt=True)
def keep_asleep(asleep, n_asleep, keep, end, old, to_sleep):
    """The sleeping table after a narrowphase: its rows with ``keep`` set (``ended`` from
    ``end``), and the ``old`` table's rows ``to_sleep`` (ascending: pair order) merged in.
    Returns the rows it holds (its capacity holds them: every row matched a candidate pair,
    or was kept from the table)."""
    w = 0
    for r in range(n_asleep):
        if keep[r]:
            if r != w:
                copy_row(asleep, r, asleep, w)
            asleep.ended[w] = end[r]
            w += 1
    # Merged from the back: a row is written at or past where it is read.
    n = to_sleep.shape[0]
    x = w - 1
    y = n - 1
    z = w + n - 1
    while y >= 0:
        if x >= 0 and _before(old, to_sleep[y], asleep, x):
            copy_row(asleep, x, asleep, z)
            x -= 1
        else:
            copy_row(old, to_sleep[y], asleep, z)
            _quiet(asleep, z)
            y -= 1
        z -= 1
    return w + n


@njit(_nrt=False)
def wake_rows(asleep, n_asleep, new, m, kind, flags, s_body):
    """Rows of the sleeping table (not ended) with an awake dynamic body, merged into the
    step's table ``new`` (its first ``m`` rows, pair order) and taken out of the sleeping
    one. Returns (rows of ``new``, rows left asleep). ``new`` holds them: each matched a
    candidate pair this step."""
    moved = 0
    for r in range(n_asleep):
        if not asleep.ended[r] and _awake(asleep, r, kind, flags, s_body):
            moved += 1
    if moved == 0:
        return m, n_asleep
    # Into new from the back (its rows are written at or past where they are read), the
    # sleeping rows read from the back as well.
    x = m - 1
    y = n_asleep - 1
    z = m + moved - 1
    while z >= 0 and y >= 0:
        if asleep.ended[y] or not _awake(asleep, y, kind, flags, s_body):
            y -= 1
            continue
        if x >= 0 and _before(asleep, y, new, x):
            copy_row(new, x, new, z)
            x -= 1
        else:
            copy_row(asleep, y, new, z)
            _quiet(new, z)
            y -= 1
        z -= 1
    w = 0
    for r in range(n_asleep):
        if asleep.ended[r] or not _awake(asleep, r, kind, flags, s_body):
            if r != w:
                copy_row(asleep, r, asleep, w)
            w += 1
    return m + moved, w


@njit(inline="always")
def _awake(t, r, kind, flags, s_body):
    ba = s_body[t.a[r]]
    bb = s_body[t.b[r]]
    return ((kind[ba] == DYNAMIC and (flags[ba] & B_AWAKE) != 0)
            or (kind[bb] == DYNAMIC and (flags[bb] & B_AWAKE) != 0))


@njit(_nrt=False)
def clear_ended(asleep, n_asleep):
    """The sleeping table without its ended rows (a settled step's: no step walked it since
    they ended). Returns the rows left."""
    w = 0
    for r in range(n_asleep):
        if not asleep.ended[r]:
            if r != w:
                copy_row(asleep, r, asleep, w)
            w += 1
    return w


@njit(_nrt=False)
def rescale_asleep(asleep, n_asleep, f):
    """The sleeping rows' impulses (per substep) times ``f`` when the substep count
    changes, as the step's table's (its ended rows are events, left as they were)."""
    for r in range(n_asleep):
        if not asleep.ended[r]:
            for u in range(2):
                asleep.nimp[r, u] *= f
                asleep.timp[r, u] *= f
