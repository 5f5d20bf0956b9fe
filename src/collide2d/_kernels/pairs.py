"""Batch pair queries over a shape pool: overlap, penetration and sweep, one row per pair.

Overlap and penetration first compare the pool's bounding boxes: most pairs in a batch are
far apart, and two box comparisons are far cheaper than the separating axis test. Pairs of
large polygons take the O(n + m) path of ``bigsat.py``.
"""

import math

from .._jit import njit
from .bigsat import is_large, separation_large, sweep_pair_large
from .broadphase import boxes_apart
from .sat import shape_distance, sweep_pair


@njit(_nrt=False, entry=True)
def overlap_batch(verts, offs, counts, radii, aabbs, pairs, out):
    for k in range(pairs.shape[0]):
        i = pairs[k, 0]
        j = pairs[k, 1]
        if boxes_apart(aabbs, i, j):
            out[k] = False
            continue
        if is_large(counts[i], radii[i], counts[j], radii[j]):
            d = separation_large(verts, offs[i], counts[i], verts, offs[j], counts[j])[0]
        else:
            d = shape_distance(verts, offs[i], counts[i], radii[i],
                               verts, offs[j], counts[j], radii[j], 0.0, 0.0, False)[0]
        out[k] = d <= 0.0


@njit(_nrt=False, entry=True)
def penetration_batch(verts, offs, counts, radii, aabbs, pairs, hit, normal, depth):
    for k in range(pairs.shape[0]):
        i = pairs[k, 0]
        j = pairs[k, 1]
        if boxes_apart(aabbs, i, j):
            hit[k] = False
            normal[k, 0] = math.nan
            normal[k, 1] = math.nan
            depth[k] = math.nan
            continue
        if is_large(counts[i], radii[i], counts[j], radii[j]):
            d, nx, ny = separation_large(verts, offs[i], counts[i], verts, offs[j], counts[j])
        else:
            d, nx, ny, _, _, _, _ = shape_distance(verts, offs[i], counts[i], radii[i],
                                                   verts, offs[j], counts[j], radii[j],
                                                   0.0, 0.0, True)
        if d < 0.0:
            hit[k] = True
            normal[k, 0] = -nx
            normal[k, 1] = -ny
            depth[k] = -d
        else:
            hit[k] = False
            normal[k, 0] = math.nan
            normal[k, 1] = math.nan
            depth[k] = math.nan


@njit(_nrt=False, entry=True)
def sweep_batch(verts, offs, counts, radii, pairs, w, t_max, hit, time, normal, depth):
    for k in range(pairs.shape[0]):
        i = pairs[k, 0]
        j = pairs[k, 1]
        if is_large(counts[i], radii[i], counts[j], radii[j]):
            h, t, px, py, dep = sweep_pair_large(verts, offs[i], counts[i], verts, offs[j],
                                                 counts[j], w[k, 0], w[k, 1], t_max)
        else:
            h, t, px, py, dep = sweep_pair(verts, offs[i], counts[i], radii[i],
                                           verts, offs[j], counts[j], radii[j],
                                           w[k, 0], w[k, 1], t_max)
        hit[k] = h
        if h:
            time[k] = t
            normal[k, 0] = px
            normal[k, 1] = py
            depth[k] = dep
        else:
            time[k] = math.nan
            normal[k, 0] = math.nan
            normal[k, 1] = math.nan
            depth[k] = math.nan
