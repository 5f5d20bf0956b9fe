"""Convex hull (Andrew's monotone chain) over points sorted by x, then y."""

from .._jit import njit


@njit(_nrt=False, entry=True)
def monotone_chain(pts, out):
    """Hull of lexicographically sorted points into ``out``; returns the vertex count.

    Counter-clockwise, starting at the first (lowest-x, lowest-y) point, collinear points
    dropped (a turn must be strictly left to be kept).
    """
    n = pts.shape[0]
    k = 0
    for i in range(n):
        while k >= 2 and _cross(out, k, pts[i, 0], pts[i, 1]) <= 0.0:
            k -= 1
        out[k, 0] = pts[i, 0]
        out[k, 1] = pts[i, 1]
        k += 1
    lower = k + 1
    for i in range(n - 2, -1, -1):
        while k >= lower and _cross(out, k, pts[i, 0], pts[i, 1]) <= 0.0:
            k -= 1
        out[k, 0] = pts[i, 0]
        out[k, 1] = pts[i, 1]
        k += 1
    return max(k - 1, 1)


@njit(_nrt=False)
def _cross(out, k, px, py):
    ax = out[k - 1, 0] - out[k - 2, 0]
    ay = out[k - 1, 1] - out[k - 2, 1]
    bx = px - out[k - 2, 0]
    by = py - out[k - 2, 1]
    return ax * by - ay * bx
