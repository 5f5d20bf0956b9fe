"""Whole-array scans that vectorise: whether any value is non-zero, or not finite.

A loop over one flat array of 64-bit words with an OR-accumulator and no branch compiles to
SIMD code; a loop over bodies reading six arrays with an early exit does not, and took
three to four times as long (5,000 bodies: 19.7 -> 5.6 us for the NaN guard). The scans
read every slot, live or not, so callers use them as a fast "nothing here" and run their
exact per-body loop only when a scan finds something.
"""

import numpy as np

from .._jit import njit

_MAGNITUDE = np.uint64(0x7FFFFFFFFFFFFFFF)  # every bit but the sign
_EXPONENT_SHIFT = np.uint64(52)
_EXPONENT = np.uint64(0x7FF)
_CARRY = np.uint64(0x800)


@njit(inline="always")
def words(a, n):
    """The first ``n`` rows of float64 array ``a`` (one or more columns, C order) as one
    flat array of their bit patterns."""
    rows = a[:n]
    return rows.reshape(rows.size).view(np.uint64)


@njit(_nrt=False)
def any_nonzero(x):
    """Whether any word of ``x`` is a float other than +0.0 and -0.0 (NaN counts)."""
    acc = np.uint64(0)
    for i in range(x.shape[0]):
        acc |= x[i] & _MAGNITUDE
    return acc != np.uint64(0)


@njit(_nrt=False)
def any_non_finite(x):
    """Whether any word of ``x`` is an inf or NaN: its exponent is all ones, so adding one
    to the exponent carries into bit 11 (and into no other word's result)."""
    acc = np.uint64(0)
    for i in range(x.shape[0]):
        acc |= ((x[i] >> _EXPONENT_SHIFT) & _EXPONENT) + np.uint64(1)
    return (acc & _CARRY) != np.uint64(0)
