"""What the vector environments share: the seed of each row at reset."""

from __future__ import annotations

import numpy as np


def row_seeds(seed, n: int) -> list:
    """Per-row seeds from ``reset(seed=...)``: an int (row i gets ``seed + i``, as
    Gymnasium's synchronous vector env does), a sequence of ints or None per row, or None."""
    if seed is None:
        return [None] * n
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(n)]
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"seed: expected {n} seeds, got {len(seeds)}")
    for s in seeds:
        if s is not None and (isinstance(s, bool) or not isinstance(s, (int, np.integer))):
            raise TypeError(f"seed: expected ints or None per row, got {s!r}")
    return [None if s is None else int(s) for s in seeds]
