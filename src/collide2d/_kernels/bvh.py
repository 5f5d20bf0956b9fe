"""Bounding volume hierarchy over boxes: a static wide tree for the world's queries.

Built in two passes over k boxes, all compiled:

1. a binary tree, top down, split by the binned surface-area heuristic (in 2D the
   "surface" is the half-perimeter: the chance that a random line meets a convex region is
   proportional to its perimeter);
2. collapsed into a *wide* tree: a node starts from a binary node's two children and keeps
   opening its largest internal child until it holds ``WIDTH`` slots (``ROOT_WIDTH`` for
   the root) or only leaves.

Layout: node i's slots are ``node_first[i] .. node_first[i] + node_count[i]``; slot j has
its box in ``slot_box[0:4, j]`` (min x, min y, max x, max y: one row per coordinate, so a
node's boxes are tested side by side in vector registers) and ``slot_ref[j]``, an item
(>= 0, a shape row) or the wide node ``-ref - 1``. Node 0 is the root.

Why wide: a query pays about 10 ns for each branchy step from a node to a child, and
0.2 ns per box in a vectorised scan. On the bullets scene (100,000 short segments, 64
hulls) a binary tree cost 4.7 ms, a 64-slot root 1.6 ms; worlds of 2,000 and 10,000 shapes
prefer 16-slot nodes below a wide root (within 15 % of the best width measured for each).

Every stored box is fattened by a relative ``FATTEN`` so that rounding in a slab test can
never cull a segment that only grazes a shape's extreme vertex; exact answers come from the
shape tests. The tree is rebuilt, not refitted, when boxes change: O(k log k), about 0.5 us
per shape.
"""

import math

import numpy as np

from .._jit import njit

BINS = 16
WIDTH = 16  # slots per wide node
ROOT_WIDTH = 64  # slots of the root, which every query scans
# Relative growth of every stored box (plus the same amount in metres).
FATTEN = 1e-9


@njit(_nrt=False)
def _half_perimeter(lox, loy, hix, hiy):
    return (hix - lox) + (hiy - loy)


@njit(_nrt=False)
def _grow(lo, hi):
    return FATTEN * (1.0 + max(abs(lo), abs(hi)))


@njit(_nrt=True)
def _build_binary(boxes, node_box, node_right, node_item):
    """Binary SAH tree over ``boxes`` (k, 4), one item per leaf, in depth-first order:
    node i's left child is i + 1, its right child ``node_right[i]`` (-1 for a leaf, whose
    item index is ``node_item[i]``). Node arrays need 2k - 1 entries. Returns the node count.
    """
    k = boxes.shape[0]
    if k == 0:
        return 0
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
    bin_n = np.zeros(BINS, dtype=np.int64)
    bin_box = np.empty((BINS, 4))
    right_n = np.zeros(BINS, dtype=np.int64)
    right_cost = np.empty(BINS)
    t_start[0] = 0
    t_end[0] = k
    t_parent[0] = -1
    top = 1
    m = 0
    while top > 0:
        top -= 1
        start = t_start[top]
        end = t_end[top]
        parent = t_parent[top]
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
        node_box[node, 0] = lox
        node_box[node, 1] = loy
        node_box[node, 2] = hix
        node_box[node, 3] = hiy
        if end - start == 1:
            node_right[node] = -1
            node_item[node] = perm[start]
            continue
        node_item[node] = -1
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
        top += 1
        t_start[top] = start
        t_end[top] = mid
        t_parent[top] = -1
        top += 1
    return m


@njit(_nrt=True, entry=True)
def build(boxes, items, width, root_width, node_first, node_count, slot_box, slot_ref):
    """Build the wide tree over ``boxes`` (k, 4) carrying ``items`` (k,).

    A binary SAH tree is collapsed top-down: a wide node starts from a binary node's two
    children and keeps opening its largest (half-perimeter) internal child until it has
    ``width`` slots or only leaves. Node arrays need k entries, ``slot_box`` (4, 2k) and
    ``slot_ref`` (2k,). A slot refers to an item (``ref >= 0``) or to wide node
    ``-ref - 1``. Returns the number of wide nodes (0 for no boxes); each node is entered at
    most once per query, so that many stack entries always suffice.
    """
    k = boxes.shape[0]
    if k == 0:
        return 0
    bbox = np.empty((2 * k, 4))
    bright = np.empty(2 * k, dtype=np.int64)
    bitem = np.empty(2 * k, dtype=np.int64)
    _build_binary(boxes, bbox, bright, bitem)
    # Pending wide nodes: (binary node, wide id).
    pend_b = np.empty(k + 1, dtype=np.int64)
    pend_w = np.empty(k + 1, dtype=np.int64)
    members = np.empty(max(width, root_width, 2), dtype=np.int64)
    pend_b[0] = 0
    pend_w[0] = 0
    top = 1
    n_wide = 1
    n_slots = 0
    while top > 0:
        top -= 1
        bn = pend_b[top]
        wn = pend_w[top]
        if bright[bn] < 0:
            members[0] = bn  # a single box: the root of a one-item tree
            m = 1
        else:
            members[0] = bn + 1
            members[1] = bright[bn]
            m = 2
        cap = root_width if wn == 0 else width
        while m < cap:
            pick = -1
            best = -1.0
            for q in range(m):
                c = members[q]
                if bright[c] >= 0:
                    hp = _half_perimeter(bbox[c, 0], bbox[c, 1], bbox[c, 2], bbox[c, 3])
                    if hp > best:
                        best = hp
                        pick = q
            if pick < 0:
                break
            c = members[pick]
            members[pick] = c + 1
            members[m] = bright[c]
            m += 1
        node_first[wn] = n_slots
        node_count[wn] = m
        for q in range(m):
            c = members[q]
            j = n_slots + q
            gx = _grow(bbox[c, 0], bbox[c, 2])
            gy = _grow(bbox[c, 1], bbox[c, 3])
            slot_box[0, j] = bbox[c, 0] - gx
            slot_box[1, j] = bbox[c, 1] - gy
            slot_box[2, j] = bbox[c, 2] + gx
            slot_box[3, j] = bbox[c, 3] + gy
            if bright[c] < 0:
                slot_ref[j] = items[bitem[c]]
            else:
                slot_ref[j] = -n_wide - 1
                pend_b[top] = c
                pend_w[top] = n_wide
                top += 1
                n_wide += 1
        n_slots += m
    return n_wide


@njit(_nrt=False, entry=True)
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


@njit(_nrt=False, entry=True)
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


@njit(_nrt=False, entry=True)
def query_box(node_first, node_count, slot_box, slot_ref, n_nodes, lox, loy, hix, hiy,
              stack, out):
    """Items whose (fattened) boxes meet the closed box, in tree order; returns how many.

    ``stack`` needs ``n_nodes`` entries and ``out`` room for every item.
    """
    count = 0
    top = 0
    if n_nodes > 0:
        stack[0] = 0
        top = 1
    while top > 0:
        top -= 1
        i = stack[top]
        for j in range(node_first[i], node_first[i] + node_count[i]):
            if (slot_box[0, j] > hix or slot_box[2, j] < lox or slot_box[1, j] > hiy
                    or slot_box[3, j] < loy):
                continue
            ref = slot_ref[j]
            if ref >= 0:
                out[count] = ref
                count += 1
            else:
                stack[top] = -ref - 1
                top += 1
    return count
