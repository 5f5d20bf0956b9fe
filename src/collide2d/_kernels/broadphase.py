"""Broadphase: candidate pairs of shapes whose bounding boxes overlap (the boxes come from
poses.py).

Sort-and-sweep along the axis where box centres spread most finds every pair of
overlapping boxes in O(n log n + k); it is rebuilt each step, so adding or removing shapes
costs nothing here. Pairs are emitted as (low row, high row) and then sorted by that key, so
the pair order (and everything downstream) is deterministic.
"""

import numpy as np

from .._jit import njit

S_ALIVE = 1
S_SENSOR = 2
B_AWAKE = 16
DYNAMIC = 2
KINEMATIC = 1

# Pair responses.
IGNORE = 0
SOLID = 1
SENSOR = 2


@njit
def pair_response(a, b, s_body, s_flags, s_category, s_mask, s_group, kind, b_flags,
                  dynamic_response):
    """What a pair of shape rows does: IGNORE, SOLID or SENSOR."""
    ba = s_body[a]
    bb = s_body[b]
    if ba == bb:
        return IGNORE
    ka = kind[ba]
    kb = kind[bb]
    sensor = (s_flags[a] | s_flags[b]) & S_SENSOR
    if ka != DYNAMIC and kb != DYNAMIC:
        # Static and kinematic geometry never collide; a sensor among them still reports a
        # kinematic mover.
        if not sensor or (ka != KINEMATIC and kb != KINEMATIC):
            return IGNORE
    ga = s_group[a]
    if ga != 0 and ga == s_group[b]:
        if ga < 0:
            return IGNORE
    elif (s_category[a] & s_mask[b]) == 0 or (s_category[b] & s_mask[a]) == 0:
        return IGNORE
    if sensor:
        return SENSOR
    if ka == DYNAMIC and kb == DYNAMIC:
        return dynamic_response
    return SOLID


@njit
def find_pairs(aabb, s_body, s_flags, s_category, s_mask, s_group, kind, b_flags, n_shapes,
               dynamic_response, want):
    """Candidate pairs (a < b) whose boxes overlap and whose response is ``want`` (SOLID or
    SENSOR), sorted, with their responses. Pairs whose bodies are all asleep or fixed are
    kept too (their old manifolds persist)."""
    live = np.empty(n_shapes, dtype=np.int64)
    m = 0
    sx = 0.0
    sy = 0.0
    sxx = 0.0
    syy = 0.0
    for s in range(n_shapes):
        # A sensor never makes a solid pair: leave it out of the solid sweep.
        if (s_flags[s] & S_ALIVE) and not (want == SOLID and s_flags[s] & S_SENSOR):
            live[m] = s
            m += 1
            cx = 0.5 * (aabb[s, 0] + aabb[s, 2])
            cy = 0.5 * (aabb[s, 1] + aabb[s, 3])
            sx += cx
            sy += cy
            sxx += cx * cx
            syy += cy * cy
    live = live[:m]
    # Sweep along the axis of larger spread: fewer false overlaps on it.
    axis = 0
    if m > 0 and (syy - sy * sy / m) > (sxx - sx * sx / m):
        axis = 1
    keys = np.empty(m)
    for i in range(m):
        keys[i] = aabb[live[i], axis]
    # Numba's quicksort is deterministic (same input, same order) and much faster than its
    # mergesort; ties only permute pairs, which are sorted by key below.
    order = live[np.argsort(keys)]
    other = 1 - axis
    cap = max(16, 4 * m)
    pa = np.empty(cap, dtype=np.int64)
    pb = np.empty(cap, dtype=np.int64)
    pr = np.empty(cap, dtype=np.int8)
    k = 0
    for i in range(m):
        a = order[i]
        hi = aabb[a, axis + 2]
        lo_o = aabb[a, other]
        hi_o = aabb[a, other + 2]
        for j in range(i + 1, m):
            b = order[j]
            if aabb[b, axis] > hi:
                break
            if aabb[b, other] > hi_o or aabb[b, other + 2] < lo_o:
                continue
            r = pair_response(a, b, s_body, s_flags, s_category, s_mask, s_group, kind,
                              b_flags, dynamic_response)
            if r != want:
                continue
            if k == cap:
                cap *= 2
                pa2 = np.empty(cap, dtype=np.int64)
                pb2 = np.empty(cap, dtype=np.int64)
                pr2 = np.empty(cap, dtype=np.int8)
                pa2[:k] = pa[:k]
                pb2[:k] = pb[:k]
                pr2[:k] = pr[:k]
                pa = pa2
                pb = pb2
                pr = pr2
            pa[k] = min(a, b)
            pb[k] = max(a, b)
            pr[k] = r
            k += 1
    key = np.empty(k, dtype=np.int64)
    for i in range(k):
        key[i] = pa[i] * n_shapes + pb[i]
    idx = np.argsort(key)  # keys are unique
    return pa[:k][idx], pb[:k][idx], pr[:k][idx]


@njit
def has_sensors(s_flags, n_shapes):
    for s in range(n_shapes):
        if (s_flags[s] & S_ALIVE) and (s_flags[s] & S_SENSOR):
            return True
    return False
