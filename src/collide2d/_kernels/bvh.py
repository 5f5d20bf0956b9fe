"""Bounding volume hierarchy over boxes: a static binary tree for the world's queries.

The tree is built in one pass over k boxes (binned surface-area heuristic, where the 2D
"surface" is the half-perimeter: the chance that a random line meets a convex region is
proportional to its perimeter) and stored flat in depth-first order, so a traversal walks
memory forwards:

* ``node_box[i]``   (min x, min y, max x, max y) of everything below node i;
* ``node_right[i]`` the right child of an internal node (its left child is ``i + 1``),
  -1 for a leaf;
* ``node_first[i]``, ``node_count[i]``: a leaf's items are ``leaf_item[first:first+count]``
  with their boxes in ``leaf_box[0:4, first:first+count]`` (one row per coordinate, so a
  leaf's boxes are tested together in vector registers).

Leaves hold up to ``LEAF_SIZE`` items: testing 16 boxes side by side costs about what one
branchy step down the tree costs, so a shallow tree of buckets beats a deep tree of single
boxes (measured on the bullets scene: 4x). Every stored box is fattened by a relative
``FATTEN`` so that rounding in a slab test can never cull a segment that only grazes a
shape's extreme vertex; exact answers come from the leaf tests. The tree is rebuilt, not
refitted, when boxes change: O(k log k) compiled work.
"""

import math

import numpy as np

from .._jit import njit

BINS = 16
LEAF_SIZE = 16
# Relative growth of every stored box (plus the same amount in metres).
FATTEN = 1e-9


@njit
def _half_perimeter(lox, loy, hix, hiy):
    return (hix - lox) + (hiy - loy)


@njit
def _grow(lo, hi):
    return FATTEN * (1.0 + max(abs(lo), abs(hi)))


@njit
def build(boxes, items, leaf_size, node_box, node_right, node_first, node_count, leaf_box,
          leaf_item):
    """Build the tree over ``boxes`` (k, 4) carrying ``items`` (k,).

    Node arrays need 2k entries, ``leaf_box`` (4, k) and ``leaf_item`` (k,). Returns
    (node count, depth); depth bounds the traversal stack (a depth-first walk holds at
    most depth + 1 pending nodes).
    """
    k = boxes.shape[0]
    if k == 0:
        return 0, 0
    perm = np.arange(k)
    cx = np.empty(k)
    cy = np.empty(k)
    for i in range(k):
        cx[i] = 0.5 * (boxes[i, 0] + boxes[i, 2])
        cy[i] = 0.5 * (boxes[i, 1] + boxes[i, 3])
    # Pending ranges [start, end) with the node whose right link they fill (-1: none).
    t_start = np.empty(k + 1, dtype=np.int64)
    t_end = np.empty(k + 1, dtype=np.int64)
    t_parent = np.empty(k + 1, dtype=np.int64)
    t_depth = np.empty(k + 1, dtype=np.int64)
    bin_n = np.zeros(BINS, dtype=np.int64)
    bin_box = np.empty((BINS, 4))
    right_n = np.zeros(BINS, dtype=np.int64)
    right_cost = np.empty(BINS)
    t_start[0] = 0
    t_end[0] = k
    t_parent[0] = -1
    t_depth[0] = 0
    top = 1
    m = 0
    depth = 0
    while top > 0:
        top -= 1
        start = t_start[top]
        end = t_end[top]
        parent = t_parent[top]
        d = t_depth[top]
        depth = max(depth, d)
        node = m
        m += 1
        if parent >= 0:
            node_right[parent] = node
        lox = math.inf
        loy = math.inf
        hix = -math.inf
        hiy = -math.inf
        clox = math.inf
        cloy = math.inf
        chix = -math.inf
        chiy = -math.inf
        for i in range(start, end):
            p = perm[i]
            lox = min(lox, boxes[p, 0])
            loy = min(loy, boxes[p, 1])
            hix = max(hix, boxes[p, 2])
            hiy = max(hiy, boxes[p, 3])
            clox = min(clox, cx[p])
            cloy = min(cloy, cy[p])
            chix = max(chix, cx[p])
            chiy = max(chiy, cy[p])
        gx = _grow(lox, hix)
        gy = _grow(loy, hiy)
        node_box[node, 0] = lox - gx
        node_box[node, 1] = loy - gy
        node_box[node, 2] = hix + gx
        node_box[node, 3] = hiy + gy
        if end - start <= leaf_size:
            node_right[node] = -1
            node_first[node] = start
            node_count[node] = end - start
            for i in range(start, end):
                p = perm[i]
                gx = _grow(boxes[p, 0], boxes[p, 2])
                gy = _grow(boxes[p, 1], boxes[p, 3])
                leaf_box[0, i] = boxes[p, 0] - gx
                leaf_box[1, i] = boxes[p, 1] - gy
                leaf_box[2, i] = boxes[p, 2] + gx
                leaf_box[3, i] = boxes[p, 3] + gy
                leaf_item[i] = items[p]
            continue
        node_first[node] = -1
        node_count[node] = 0
        # Binned SAH over both axes; the split keeps bins <= best_bin on the left.
        best_cost = math.inf
        best_axis = -1
        best_bin = 0
        for axis in range(2):
            lo = clox if axis == 0 else cloy
            ext = (chix if axis == 0 else chiy) - lo
            if not ext > 0.0:
                continue
            scale = BINS / ext
            for b in range(BINS):
                bin_n[b] = 0
                bin_box[b, 0] = math.inf
                bin_box[b, 1] = math.inf
                bin_box[b, 2] = -math.inf
                bin_box[b, 3] = -math.inf
            for i in range(start, end):
                p = perm[i]
                c = cx[p] if axis == 0 else cy[p]
                b = min(int((c - lo) * scale), BINS - 1)
                bin_n[b] += 1
                bin_box[b, 0] = min(bin_box[b, 0], boxes[p, 0])
                bin_box[b, 1] = min(bin_box[b, 1], boxes[p, 1])
                bin_box[b, 2] = max(bin_box[b, 2], boxes[p, 2])
                bin_box[b, 3] = max(bin_box[b, 3], boxes[p, 3])
            # Right-hand sweep: cost of bins b..BINS-1 as one child.
            n_acc = 0
            rlx = math.inf
            rly = math.inf
            rhx = -math.inf
            rhy = -math.inf
            for b in range(BINS - 1, 0, -1):
                n_acc += bin_n[b]
                if bin_n[b] > 0:
                    rlx = min(rlx, bin_box[b, 0])
                    rly = min(rly, bin_box[b, 1])
                    rhx = max(rhx, bin_box[b, 2])
                    rhy = max(rhy, bin_box[b, 3])
                right_n[b] = n_acc
                right_cost[b] = n_acc * _half_perimeter(rlx, rly, rhx, rhy) if n_acc else 0.0
            n_acc = 0
            llx = math.inf
            lly = math.inf
            lhx = -math.inf
            lhy = -math.inf
            for b in range(BINS - 1):
                n_acc += bin_n[b]
                if bin_n[b] > 0:
                    llx = min(llx, bin_box[b, 0])
                    lly = min(lly, bin_box[b, 1])
                    lhx = max(lhx, bin_box[b, 2])
                    lhy = max(lhy, bin_box[b, 3])
                if n_acc == 0 or right_n[b + 1] == 0:
                    continue
                cost = n_acc * _half_perimeter(llx, lly, lhx, lhy) + right_cost[b + 1]
                if cost < best_cost:
                    best_cost = cost
                    best_axis = axis
                    best_bin = b
        mid = (start + end) // 2
        if best_axis >= 0:
            lo = clox if best_axis == 0 else cloy
            scale = BINS / ((chix if best_axis == 0 else chiy) - lo)
            i = start
            j = end - 1
            while i <= j:
                p = perm[i]
                c = cx[p] if best_axis == 0 else cy[p]
                if min(int((c - lo) * scale), BINS - 1) <= best_bin:
                    i += 1
                else:
                    perm[i] = perm[j]
                    perm[j] = p
                    j -= 1
            mid = i
        # else: every centre coincides; any halving is as good as another.
        t_start[top] = mid
        t_end[top] = end
        t_parent[top] = node
        t_depth[top] = d + 1
        top += 1
        t_start[top] = start
        t_end[top] = mid
        t_parent[top] = -1
        t_depth[top] = d + 1
        top += 1
    return m, depth


@njit
def live_boxes(aabb, flags, count, alive_bit, boxes, items):
    """Gather the boxes and row numbers of live rows; returns how many."""
    k = 0
    for s in range(count):
        if flags[s] & alive_bit:
            boxes[k, 0] = aabb[s, 0]
            boxes[k, 1] = aabb[s, 1]
            boxes[k, 2] = aabb[s, 2]
            boxes[k, 3] = aabb[s, 3]
            items[k] = s
            k += 1
    return k


@njit
def same_boxes(aabb, flags, count, alive_bit, boxes, items, k):
    """True when the live rows and their boxes are exactly those gathered last time."""
    j = 0
    for s in range(count):
        if flags[s] & alive_bit:
            if j >= k or items[j] != s:
                return False
            if (aabb[s, 0] != boxes[j, 0] or aabb[s, 1] != boxes[j, 1]
                    or aabb[s, 2] != boxes[j, 2] or aabb[s, 3] != boxes[j, 3]):
                return False
            j += 1
    return j == k


@njit
def query_box(node_box, node_right, node_first, node_count, leaf_box, leaf_item, n_nodes,
              lox, loy, hix, hiy, stack, out):
    """Items whose (fattened) boxes meet the closed box, in tree order; returns how many.

    ``stack`` needs depth + 2 entries and ``out`` room for every item.
    """
    if n_nodes == 0:
        return 0
    count = 0
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        i = stack[top]
        if (node_box[i, 0] > hix or node_box[i, 2] < lox or node_box[i, 1] > hiy
                or node_box[i, 3] < loy):
            continue
        if node_right[i] >= 0:
            stack[top] = node_right[i]
            stack[top + 1] = i + 1
            top += 2
            continue
        for j in range(node_first[i], node_first[i] + node_count[i]):
            if not (leaf_box[0, j] > hix or leaf_box[2, j] < lox or leaf_box[1, j] > hiy
                    or leaf_box[3, j] < loy):
                out[count] = leaf_item[j]
                count += 1
    return count
