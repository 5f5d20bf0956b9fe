"""The whole-array scans (``_kernels/scan.py``) and the NaN guard built on them, against
``math.isfinite`` and ``!= 0.0`` value by value.

The scans work on bit patterns, so the cases are the floats whose bits are the edge of each
test: both zeros, the smallest subnormal, the largest finite value, both infinities and
NaNs with different payloads and signs. Each is tried alone at every position of a row of
zeros, where a scan that skipped a word or a column would miss it.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from collide2d import _tiers
from collide2d._kernels.constants import B_ALIVE
from collide2d._kernels.integrate import first_non_finite


def _bits(u: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", u))[0]


SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.0, -3.5,
           1.7976931348623157e308, -1.7976931348623157e308, math.inf, -math.inf,
           math.nan, _bits(0x7FF0000000000001), _bits(0xFFF8000000000001),
           _bits(0x7FFFFFFFFFFFFFFF)]


@pytest.mark.nojit
@pytest.mark.parametrize("value", SPECIAL, ids=repr)
@pytest.mark.parametrize("cols", [(), (2,)])
def test_scans_find_each_value_at_every_position(value, cols):
    scan = _tiers._twin("scan")
    n = 7
    for k in range(n * (cols[0] if cols else 1)):
        a = np.zeros((n,) + cols)
        a.reshape(-1)[k] = value
        w = scan.words(a, n)
        assert bool(scan.any_nonzero(w)) == (value != 0.0 or math.isnan(value))
        assert bool(scan.any_non_finite(w)) == (not math.isfinite(value))
        # Rows past n are not read.
        assert not scan.any_nonzero(scan.words(a, k // (cols[0] if cols else 1)))


@pytest.mark.nojit
def test_guard_slot_and_dead_bodies():
    """The compiled guard (and the plain one under NUMBA_DISABLE_JIT) names the first live
    body with a non-finite value, in any of its six fields; a dead body's value, or one
    past ``n_bodies``, is not reported."""
    n = 9
    fields = {"pos": (n, 2), "angle": (n,), "vel": (n, 2), "angvel": (n,),
              "force": (n, 2), "torque": (n,)}
    rng = np.random.default_rng(3)
    for name in fields:
        for bad in (math.nan, math.inf, -math.inf):
            for slot in range(n):
                arrays = {k: rng.normal(size=s) for k, s in fields.items()}
                flags = np.full(n, B_ALIVE, dtype=np.int32)
                arrays[name].reshape(n, -1)[slot, -1] = bad
                args = [arrays[k] for k in fields]
                assert first_non_finite(*args, flags, n) == slot
                assert first_non_finite(*args, flags, slot) == -1
                flags[slot] = 0
                assert first_non_finite(*args, flags, n) == -1
                # A second bad body, the last, is the one named once the first is dead.
                arrays["torque"][n - 1] = math.nan
                flags[n - 1] = B_ALIVE
                assert first_non_finite(*args, flags, n) == n - 1
