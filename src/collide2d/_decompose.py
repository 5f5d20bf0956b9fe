"""Concave polygon -> convex parts: ear clipping, then Hertel-Mehlhorn merging.

Runs once when a shape is created (never per step). Outlines of up to ``SMALL`` vertices go
through the plain-Python version below, whose parts (and their order) every existing scene
was recorded with; larger ones through the compiled kernels of ``_kernels/decompose.py``
(a 20,000-vertex star in tens of milliseconds, memory O(n)). Both yield at most 4x the optimal
number of convex parts, and the parts tile the input exactly: they are made of its own
vertices, and no vertex is moved.
"""

from __future__ import annotations

import numpy as np

from . import _tiers

_dk = _tiers.kernels("decompose")


#: Outlines with at most this many vertices keep the Python algorithm's exact parts.
SMALL = 32

#: Largest outline accepted for decomposition and the simple-outline test (vertices).
MAX_VERTICES = 1_000_000


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _in_triangle(p, a, b, c) -> bool:
    # Closed test, so a vertex touching the ear's boundary blocks the ear.
    return _cross(a, b, p) >= 0.0 and _cross(b, c, p) >= 0.0 and _cross(c, a, p) >= 0.0


def triangulate(v: np.ndarray) -> list[tuple[int, int, int]]:
    """Ear-clip a simple counter-clockwise polygon into triangles of vertex indices."""
    idx = list(range(len(v)))
    tris: list[tuple[int, int, int]] = []
    scale = float(np.max(np.ptp(v, axis=0))) ** 2
    guard = 0
    while len(idx) > 3:
        m = len(idx)
        clipped = False
        for k in range(m):
            i0, i1, i2 = idx[k - 1], idx[k], idx[(k + 1) % m]
            a, b, c = v[i0], v[i1], v[i2]
            turn = _cross(a, b, c)
            if turn <= 1e-15 * scale:
                if abs(turn) <= 1e-15 * scale:
                    # Collinear (or a spike): drop the middle vertex without a triangle.
                    idx.pop(k)
                    clipped = True
                    break
                continue
            if any(
                _in_triangle(v[j], a, b, c)
                for j in idx
                if j not in (i0, i1, i2) and not np.array_equal(v[j], b)
            ):
                continue
            tris.append((i0, i1, i2))
            idx.pop(k)
            clipped = True
            break
        guard += 1
        if not clipped or guard > 4 * len(v):
            raise ValueError(
                "polygon: outline is self-intersecting; decompose needs a simple polygon"
            )
    if len(idx) == 3 and _cross(v[idx[0]], v[idx[1]], v[idx[2]]) > 0.0:
        tris.append((idx[0], idx[1], idx[2]))
    return tris


def _convex(v: np.ndarray, ring: list[int]) -> bool:
    m = len(ring)
    for k in range(m):
        a, b, c = v[ring[k - 1]], v[ring[k]], v[ring[(k + 1) % m]]
        e1 = np.hypot(*(b - a))
        e2 = np.hypot(*(c - b))
        if _cross(a, b, c) < -1e-12 * e1 * e2:
            return False
    return True


def merge_convex(v: np.ndarray, tris: list[tuple[int, int, int]]) -> list[list[int]]:
    """Hertel-Mehlhorn: drop each diagonal whose removal keeps both sides' union convex."""
    parts = [list(t) for t in tris]
    merged = True
    while merged:
        merged = False
        for p in range(len(parts)):
            a = parts[p]
            for q in range(p + 1, len(parts)):
                b = parts[q]
                joined = _join(a, b)
                if joined is not None and _convex(v, joined):
                    parts[p] = joined
                    parts.pop(q)
                    merged = True
                    break
            if merged:
                break
    return parts


def _join(a: list[int], b: list[int]) -> list[int] | None:
    """Union of two CCW rings sharing edge (i, j) in a and (j, i) in b, else None."""
    for ia in range(len(a)):
        i, j = a[ia], a[(ia + 1) % len(a)]
        for ib in range(len(b)):
            if b[ib] == j and b[(ib + 1) % len(b)] == i:
                # Walk a from j round to i, then b from i round to j (exclusive).
                ring = [a[(ia + 1 + k) % len(a)] for k in range(len(a))]
                ring += [b[(ib + 2 + k) % len(b)] for k in range(len(b) - 2)]
                return ring
    return None


def decompose_ccw(v: np.ndarray, name: str = "polygon") -> list[np.ndarray]:
    """Convex parts (each CCW) of a simple CCW polygon."""
    if v.shape[0] <= SMALL:
        tris = triangulate(v)
        return [np.ascontiguousarray(v[ring]) for ring in merge_convex(v, tris)]
    check_size(v, name)
    n = v.shape[0]
    tris = np.empty((n, 3), dtype=np.int64)
    nt = _dk.ear_clip(v, tris)
    parts = -1
    if nt > 0:
        ring = np.empty(3 * nt, dtype=np.int64)
        start = np.empty(nt + 1, dtype=np.int64)
        parts = _dk.merge_convex(v, tris, nt, ring, start)
    if parts <= 0:
        raise ValueError(f"{name}: outline is self-intersecting or too degenerate to split "
                         "into convex parts; decompose needs a simple polygon")
    return [np.ascontiguousarray(v[ring[start[p]:start[p + 1]]]) for p in range(parts)]


def check_size(v: np.ndarray, name: str) -> None:
    if v.shape[0] > MAX_VERTICES:
        raise ValueError(f"{name}: {v.shape[0]} vertices; concave outlines are supported up "
                         f"to {MAX_VERTICES:,} vertices")


def is_simple(v: np.ndarray, name: str = "polygon") -> bool:
    """No two non-adjacent edges of the outline meet (compiled grid test, memory O(n))."""
    if v.shape[0] < 4:
        return True
    check_size(v, name)
    return bool(_dk.outline_is_simple(v))
