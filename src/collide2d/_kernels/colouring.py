"""Graph colouring of the constraint rows (after Box2D v3's constraint graph).

A constraint joins two bodies; rows of one colour share no movable body, so within a colour
no row reads a velocity another row writes. Solved colour by colour, consecutive rows are
independent: the CPU overlaps them instead of waiting for each row's velocities to reach
the next (rows sorted by pair put a body's manifolds side by side, a chain of dependent
loads and stores), and a colour's rows could be split across threads.

Immovable bodies (static, kinematic, asleep: zero inverse mass and inertia) take no
impulse, so any number of rows of one colour may share them. Each row takes the lowest
colour that neither of its movable bodies has yet, in row order, so the colouring is a
function of the rows alone. Rows that find no free colour among ``COLOURS`` go to an
overflow colour, solved last in row order.

The colouring reads only body pairs: another constraint type (joints) joins by colouring
its pairs after the contacts' with the same ``used`` masks.
"""

import numpy as np

from .._jit import njit
from .constants import COLOURS

# Rows no colour below COLOURS can take: solved after the others, in row order.
OVERFLOW = COLOURS


@njit(_nrt=False)
def assign_colours(ba, bb, movable, used, colour):
    """Give row q (bodies ``ba[q]``, ``bb[q]``) the lowest colour neither movable body has
    in ``used`` (one bit per colour, per body; cleared by the caller), into ``colour``.
    ``OVERFLOW`` when all are taken. Returns one past the highest colour given."""
    top = 0
    for q in range(ba.shape[0]):
        a = ba[q]
        b = bb[q]
        ma = movable[a]
        mb = movable[b]
        taken = np.uint64(0)
        if ma:
            taken |= used[a]
        if mb:
            taken |= used[b]
        c = OVERFLOW
        if taken != np.uint64(0xFFFFFFFFFFFFFFFF):
            # Lowest clear bit: the lowest colour free for both.
            free = ~taken
            low = free & (~free + np.uint64(1))
            c = 0
            while low > np.uint64(1):
                low >>= np.uint64(1)
                c += 1
            bit = np.uint64(1) << np.uint64(c)
            if ma:
                used[a] |= bit
            if mb:
                used[b] |= bit
        colour[q] = c
        top = max(top, c + 1)
    return top


@njit(_nrt=True)
def colour_order(colour, n_colours, order, start):
    """Rows grouped by colour, in row order within each (a stable counting sort): colour c's
    rows are ``order[start[c]:start[c + 1]]``; ``start`` holds ``n_colours + 1`` entries."""
    start[: n_colours + 1] = 0
    for q in range(colour.shape[0]):
        start[colour[q] + 1] += 1
    for c in range(n_colours):
        start[c + 1] += start[c]
    fill = start[:n_colours].copy()
    for q in range(colour.shape[0]):
        c = colour[q]
        order[fill[c]] = q
        fill[c] += 1


@njit(_nrt=True)
def colour_rows(rows, ba, bb, inv_m, inv_i, n_bodies, start):
    """Reorder ``rows`` (with their bodies ``ba``, ``bb``) colour by colour, in place; colour
    c's rows end at ``start[c + 1]`` (``start`` holds at least ``COLOURS + 2`` entries).
    Returns the number of colours used."""
    k = rows.shape[0]
    movable = np.empty(n_bodies, dtype=np.bool_)
    for b in range(n_bodies):
        movable[b] = inv_m[b] > 0.0 or inv_i[b] > 0.0
    used = np.zeros(n_bodies, dtype=np.uint64)
    colour = np.empty(k, dtype=np.int64)
    n = assign_colours(ba, bb, movable, used, colour)
    order = np.empty(k, dtype=np.int64)
    colour_order(colour, n, order, start)
    old_rows = rows.copy()
    old_a = ba.copy()
    old_b = bb.copy()
    for q in range(k):
        rows[q] = old_rows[order[q]]
        ba[q] = old_a[order[q]]
        bb[q] = old_b[order[q]]
    return n
