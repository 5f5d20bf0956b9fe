"""Items grouped by a key, as compressed rows: the indices with key k are
``items[start[k]:start[k + 1]]``, in index order (a stable counting sort)."""

import numpy as np

from .._jit import njit


@njit(_nrt=True)
def group_by(key, n_keys):
    """(start, items) for the indices i of ``key`` with key[i] >= 0 (negative: left out)."""
    start = np.zeros(n_keys + 1, dtype=np.int64)
    for i in range(key.shape[0]):
        if key[i] >= 0:
            start[key[i] + 1] += 1
    for k in range(n_keys):
        start[k + 1] += start[k]
    fill = start[:-1].copy()
    items = np.empty(start[n_keys], dtype=np.int64)
    for i in range(key.shape[0]):
        k = key[i]
        if k >= 0:
            items[fill[k]] = i
            fill[k] += 1
    return start, items
