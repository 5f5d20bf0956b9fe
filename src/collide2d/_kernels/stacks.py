"""Stack depth: how deep the soft contacts of the world's stacks will rest under gravity,
and the substeps that keep that depth within bounds (``World.max_substeps``).

A soft contact rests where its spring carries its load: load / (m_eff w^2) deep, with m_eff
the contact's effective mass and w = 2 pi * contact hertz. Down a stack the loads add up
row by row and the depths add up again (a 100-row pyramid of unit boxes sags 0.26 m at
50 Hz); under a heavy body a light one takes the whole load with its own small mass (a
1000 kg box sinks 0.16 m into a 1 kg one). A stiffer spring is the only cure, and it needs
a shorter substep: stiffer than about a fifth of the substep rate, Gauss-Seidel rocks a
tall stack instead of settling it (55-60 Hz at 4 substeps: the B = 100 pyramid drifted
0.3 m). So when the predicted depth exceeds ``STACK_SAG`` down a stack or ``CONTACT_SAG``
at one contact, the step takes more substeps with the stiffness in proportion: the depth
falls with the square of the substep count.

The prediction is static, from the contact graph alone. A body's level is its distance in
contacts from something immovable; from the top level down, each body hands its weight and
what it carries to its contacts one level lower, shared by how squarely each holds it up
against gravity. It does not follow the impulses, whose transients (a pyramid's first
settling overshoots its loads twofold) switched the substep count back and forth, and
every switch moves the springs' rest depth: the B = 100 pyramid drifted 0.4 m that way.

The same loads tell the warm start what weight to shed when gravity changes
(``shed_weight``).
"""

import math

import numpy as np

from .._jit import njit
from .groups import group_by

# Predicted resting depth (m) tolerated down a stack and at one contact, at the base
# substep count. The B = 100 pyramid predicts 0.40 m (0.26 m measured): 8 substeps.
STACK_SAG = 0.1
CONTACT_SAG = 0.01


@njit(inline="always")
def _other(q, b, ba, bb):
    """Contact q's body that is not b."""
    return bb[q] if ba[q] == b else ba[q]


@njit(_nrt=True)
def _levels(ba, bb, inv_m, n_bodies):
    """(level, queue, n_queued, start, edge): each body's distance in contacts from an
    immovable body (0 for those; bodies with no path keep -1), the bodies in
    breadth-first order, and the contact graph's adjacency as compressed rows of contact
    indices."""
    k = ba.shape[0]
    ends = np.empty(2 * k, dtype=np.int64)  # contact q's bodies at 2q and 2q + 1
    for q in range(k):
        ends[2 * q] = ba[q]
        ends[2 * q + 1] = bb[q]
    start, edge = group_by(ends, n_bodies)
    edge //= 2
    level = np.full(n_bodies, -1, dtype=np.int64)
    queue = np.empty(n_bodies, dtype=np.int64)
    tail = 0
    for q in range(k):
        for b in (ba[q], bb[q]):
            if level[b] < 0 and inv_m[b] == 0.0:
                level[b] = 0
                queue[tail] = b
                tail += 1
    head = 0
    while head < tail:
        b = queue[head]
        head += 1
        for e in range(start[b], start[b + 1]):
            q = edge[e]
            o = _other(q, b, ba, bb)
            if level[o] < 0:
                level[o] = level[b] + 1
                queue[tail] = o
                tail += 1
    return level, queue, tail, start, edge


@njit(_nrt=True)
def contact_loads(ba, bb, rows, c_normal, inv_m, gravity_scale, gx, gy, n_bodies):
    """(load, level, queue, n_queued, start, edge): each contact's predicted share (N) of
    the weight above it under gravity (gx, gy), with ``_levels``' graph. Zero loads when
    there is no gravity."""
    k = ba.shape[0]
    load = np.zeros(k)
    g = math.sqrt(gx * gx + gy * gy)
    if g == 0.0 or k == 0:
        none = np.zeros(0, dtype=np.int64)
        return load, none, none, 0, none, none
    level, queue, n, start, edge = _levels(ba, bb, inv_m, n_bodies)
    ux = -gx / g
    uy = -gy / g
    carried = np.zeros(n_bodies)
    up = np.zeros(k)  # how much a contact holds its upper body up: n . (-g) / |g|, or 0
    for j in range(n - 1, -1, -1):  # top down: each body's weight and burden, shared down
        b = queue[j]
        if level[b] == 0:
            continue
        total = 0.0
        for e in range(start[b], start[b + 1]):
            q = edge[e]
            o = _other(q, b, ba, bb)
            if level[o] < level[b]:
                # The normal points from a to b: towards b when b is the upper body.
                u = (c_normal[rows[q], 0] * ux + c_normal[rows[q], 1] * uy) * (
                    1.0 if bb[q] == b else -1.0)
                if u > 0.0:
                    up[q] = u
                    total += u
        if total == 0.0:
            continue  # held from the side or not at all: its weight goes nowhere
        weight = carried[b] + abs(gravity_scale[b]) * g / inv_m[b]
        for e in range(start[b], start[b + 1]):
            q = edge[e]
            o = _other(q, b, ba, bb)
            if level[o] < level[b] and up[q] > 0.0:
                load[q] = weight * up[q] / total
                carried[o] += load[q]
    return load, level, queue, n, start, edge


@njit(_nrt=True)
def rest_depths(load, rows, c_count, nmass, static_pair, omega):
    """Each contact's resting depth (m) under its load: the load over its points' summed
    stiffness, at angular stiffness ``omega`` (doubled against immovable bodies, as the
    solver does)."""
    k = load.shape[0]
    depth = np.zeros(k)
    for q in range(k):
        if load[q] == 0.0:
            continue
        m = 0.0
        for p in range(c_count[rows[q]]):
            m += nmass[q, p]
        w = 2.0 * omega if static_pair[q] else omega
        if m > 0.0:
            depth[q] = load[q] / (m * w * w)
    return depth


@njit(_nrt=True)
def stack_depth(ba, bb, load, depth, level, queue, n, start, edge, n_bodies):
    """(deepest stack, deepest contact): the predicted resting depths summed up each
    support path, and the largest of one contact."""
    below = np.zeros(n_bodies)
    deepest = 0.0
    worst = 0.0
    for j in range(n):  # bottom up: a body rests as deep as its deepest support path
        b = queue[j]
        for e in range(start[b], start[b + 1]):
            q = edge[e]
            o = _other(q, b, ba, bb)
            if level[o] >= level[b] or load[q] == 0.0:
                continue
            worst = max(worst, depth[q])
            below[b] = max(below[b], below[o] + depth[q])
        deepest = max(deepest, below[b])
    return deepest, worst


@njit(_nrt=False)
def _need(ratio, n_base, n_max):
    """Substeps for a depth ``ratio`` times the tolerance at n_base (depth ~ 1 / n^2)."""
    if ratio <= 1.0:
        return n_base
    return min(n_max, int(math.ceil(n_base * math.sqrt(ratio))))


@njit(_nrt=False)
def stack_substeps(deepest, worst, n_base, n_max, n_prev):
    """Substeps for this step: enough for the predicted depths; the last step's count stays
    while it is enough and no more than half the depths would need (contacts come and go;
    each switch moves the springs' rest depth)."""
    ratio = max(deepest / STACK_SAG, worst / CONTACT_SAG)
    need = _need(ratio, n_base, n_max)
    if n_prev < need:
        return need
    most = _need(2.0 * ratio, n_base, n_max)
    if n_prev > most:
        return most
    return n_prev


@njit(_nrt=True)
def shed_weight(ba, bb, rows, c_normal, inv_m, gravity_scale, old_gx, old_gy, gx, gy, n_bodies,
                c_nimp, c_timp):
    """Gravity changed from (``old_gx``, ``old_gy``) to (``gx``, ``gy``) since the contact
    table's impulses were solved: each contact's impulses (its warm start) keep the fraction
    of its predicted load that the new gravity leaves it, at most all. A warm start is an
    impulse already applied; one carrying weight that is gone is taken back only a body per
    Gauss-Seidel pass down a stack, and what is left flies apart (a 3-box stack at 0.05 m/s,
    gravity turned off)."""
    old = contact_loads(ba, bb, rows, c_normal, inv_m, gravity_scale, old_gx, old_gy,
                        n_bodies)[0]
    new = contact_loads(ba, bb, rows, c_normal, inv_m, gravity_scale, gx, gy, n_bodies)[0]
    for q in range(ba.shape[0]):
        if old[q] > 0.0 and new[q] < old[q]:
            f = new[q] / old[q]
            i = rows[q]
            for p in range(2):
                c_nimp[i, p] *= f
                c_timp[i, p] *= f


@njit(_nrt=True)
def stack_substeps_for(t, k, c, gravity_scale, gravity, n_bodies, omega, counts):
    """The substeps the stacks of the step's first ``k`` constraint rows need
    (:func:`stack_substeps` of their predicted depths at angular stiffness ``omega``): ``t``
    the step's view (the rows, their bodies and masses), ``c`` the contact table's,
    ``gravity`` (gx, gy), ``counts`` the base, most and last step's substeps. Its own call
    with reference counting: the loads and depths are arrays it allocates."""
    ba, bb, rows = t.ba[:k], t.bb[:k], t.rows[:k]
    nmass, static_pair = t.nmass[:k], t.static_pair[:k]
    c_normal, c_count, inv_m = c.normal, c.count, t.inv_m[:n_bodies]
    gx, gy = gravity
    n_base, n_max, n_prev = counts
    load, level, queue, nq, start, edge = contact_loads(ba, bb, rows, c_normal, inv_m,
                                                       gravity_scale, gx, gy, n_bodies)
    depth = rest_depths(load, rows, c_count, nmass, static_pair, omega)
    deepest, worst = stack_depth(ba, bb, load, depth, level, queue, nq, start, edge, n_bodies)
    return stack_substeps(deepest, worst, n_base, n_max, n_prev)
