"""Input validation shared by every public entry point.

Each helper converts user input to the canonical float64 form or raises ``ValueError`` /
``TypeError`` whose message starts with the argument's name and says what to do. Nothing here
mutates state, so a call that fails validation leaves everything as it was.
"""

from __future__ import annotations

import math
from numbers import Real

import numpy as np

# Relative tolerance for "zero area" and "collinear": scaled by the polygon's size squared.
AREA_EPS = 1e-14

#: Largest accepted magnitude of a coordinate, radius, velocity or displacement (m, m/s).
#: Geometry multiplies up to four lengths together (areas, squared lengths times squared
#: lengths, moments of inertia); below 1e75 each such product stays under float64's 1.8e308,
#: so finite input never overflows into inf - inf = NaN. See docs/geometry-rules.md.
COORD_MAX = 1e75


def check_bound(name: str, arr) -> None:
    """Refuse values beyond :data:`COORD_MAX` (the array is already known to be finite)."""
    if type(arr) is float:  # (a scalar every frame, a torque: no NumPy reduction)
        if not abs(arr) > COORD_MAX:
            return
    a = np.asarray(arr)
    if a.size and float(np.max(np.abs(a))) > COORD_MAX:
        raise ValueError(f"{name}: magnitude {float(np.max(np.abs(a))):.3g} exceeds the "
                         f"supported {COORD_MAX:.0e} (products of four lengths must stay "
                         "finite in float64)")


def finite_scalar(name: str, value, *, positive: bool = False, nonnegative: bool = False) -> float:
    """Return ``value`` as a float, rejecting non-numbers, NaN and inf (and signs as asked)."""
    if type(value) is float and math.isfinite(value) and (
            value > 0.0 if positive else value >= 0.0 if nonnegative else True):
        return value  # the common case (``step(dt)`` every frame), without the ABC checks
    if isinstance(value, bool) or not isinstance(value, (Real, np.floating, np.integer)):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}")
    try:
        v = float(value)
    except OverflowError:  # an int beyond float64 (10**400)
        raise ValueError(f"{name}: an int of {int(value).bit_length()} bits is too large "
                         "for a float") from None
    if not math.isfinite(v):
        raise ValueError(f"{name}: must be finite, got {v}")
    if positive and v <= 0.0:
        raise ValueError(f"{name}: must be > 0, got {v}")
    if nonnegative and v < 0.0:
        raise ValueError(f"{name}: must be >= 0, got {v}")
    return v


def flag(name: str, value) -> bool:
    """A yes / no option: a bool (numpy's too) or the ints 0 and 1. A string such as "no" or
    None would be silently truthy or falsy, so it is refused."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{name}: expected True or False, got {value!r}")


def vector(name: str, value, *, bounded: bool = False) -> np.ndarray:
    """A finite length-2 vector as a float64 array of shape (2,); with ``bounded`` also
    within :data:`COORD_MAX` (a coordinate or velocity given to geometry or a query)."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a 2D vector (x, y), got {value!r}") from None
    if arr.shape != (2,):
        raise ValueError(f"{name}: expected a 2D vector (x, y), got shape {arr.shape}")
    # (Two floats checked as Python floats: NumPy's reductions cost microseconds each, most
    # of a single raycast's or query's call.)
    x, y = arr.tolist()
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"{name}: must be finite, got {[x, y]}")
    if bounded and (abs(x) > COORD_MAX or abs(y) > COORD_MAX):
        check_bound(name, arr)
    return arr


# Arrays up to this many values are checked as Python floats (``points``).
_FEW = 32


def points(name: str, value, *, allow_empty: bool = True, bounded: bool = False) -> np.ndarray:
    """A finite (N, 2) float64 C-contiguous array (accepts a flat x1, y1, x2, y2 sequence);
    with ``bounded`` also within :data:`COORD_MAX`."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected an (N, 2) array of points") from None
    if arr.ndim == 1 and arr.size % 2 == 0:
        arr = arr.reshape(-1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name}: expected an (N, 2) array of points, got shape {arr.shape}")
    if not allow_empty and arr.shape[0] == 0:
        raise ValueError(f"{name}: needs at least one point")
    if arr.size <= _FEW:
        # (A few values checked as Python floats: NumPy's reductions cost microseconds
        # each, most of a one-ray cast's or a small query shape's call.)
        flat = arr.ravel().tolist()
        if not all(map(math.isfinite, flat)):
            raise ValueError(f"{name}: contains NaN or inf")
        if bounded and flat and max(map(abs, flat)) > COORD_MAX:
            check_bound(name, arr)
    else:
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name}: contains NaN or inf")
        if bounded:
            check_bound(name, arr)
    return np.ascontiguousarray(arr)


def signed_area(v: np.ndarray) -> float:
    """Shoelace area, positive for counter-clockwise, computed about the first vertex."""
    d = v - v[0]
    x, y = d[:, 0], d[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def polygon(name: str, value, *, convex: bool = False) -> np.ndarray:
    """Normalise a polygon: (n, 2) float64, counter-clockwise, no repeated vertices.

    Drops a closing vertex equal to the first and consecutive duplicates; rejects NaN/inf,
    coordinates beyond :data:`COORD_MAX`, fewer than 3 distinct vertices, zero area, and (with
    ``convex``) concave or self-intersecting outlines.
    """
    v = points(name, value, bounded=True)
    if v.shape[0] > 0:
        keep = np.ones(v.shape[0], dtype=bool)
        keep[1:] = np.any(v[1:] != v[:-1], axis=1)
        v = v[keep]
        while v.shape[0] > 1 and np.all(v[-1] == v[0]):
            v = v[:-1]
    if v.shape[0] < 3:
        raise ValueError(f"{name}: a polygon needs at least 3 distinct vertices, got {v.shape[0]}")
    area = signed_area(v)
    span = float(np.max(np.ptp(v, axis=0)))
    if abs(area) <= AREA_EPS * span * span:
        if _collinear(v, span):
            raise ValueError(f"{name}: polygon has zero area (all vertices on one line)")
        # A bowtie: the two loops' signed areas cancel.
        raise ValueError(f"{name}: outline self-intersects (its loops' signed areas cancel "
                         "to zero); give a simple polygon")
    if area < 0.0:
        v = v[::-1]
    v = np.ascontiguousarray(v)
    if convex and not convex_ccw(v):
        raise ValueError(
            f"{name}: polygon must be convex (got a concave or self-intersecting outline); "
            "use decompose() or Body.add_polygon, which decomposes concave outlines"
        )
    return v


def _collinear(v: np.ndarray, span: float) -> bool:
    """All vertices within round-off of the line through v[0] and the vertex farthest
    from it."""
    d = v - v[0]
    far = d[int(np.argmax(np.abs(d[:, 0]) + np.abs(d[:, 1])))]
    cross = d[:, 0] * far[1] - d[:, 1] * far[0]
    return float(np.max(np.abs(cross))) <= AREA_EPS * span * span


def convex_ccw(v: np.ndarray) -> bool:
    """True when the counter-clockwise outline ``v`` turns left (or straight) at every vertex
    and winds exactly once (a pentagram turns left everywhere but winds twice)."""
    e = np.roll(v, -1, axis=0) - v
    e_next = np.roll(e, -1, axis=0)
    cross = e[:, 0] * e_next[:, 1] - e[:, 1] * e_next[:, 0]
    lens = np.hypot(e[:, 0], e[:, 1]) * np.hypot(e_next[:, 0], e_next[:, 1])
    if np.any(cross < -1e-12 * lens):
        return False
    dot = e[:, 0] * e_next[:, 0] + e[:, 1] * e_next[:, 1]
    turning = float(np.sum(np.arctan2(cross, dot)))
    return abs(turning - 2.0 * math.pi) < 1e-6


def choice(name: str, value, options) -> str:
    """One of a fixed set of keyword strings."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name}: expected one of {sorted(options)}, got {value!r}")
    return value


def real_number(name: str, value) -> float:
    """:func:`finite_scalar` (an int too large for a float is a ``ValueError`` there too)."""
    return finite_scalar(name, value)


def length(name: str, value, *, nonnegative: bool = False) -> float:
    """A size, radius or other length (m): a finite number > 0 (>= 0 with ``nonnegative``)
    and at most :data:`COORD_MAX`, the bound every coordinate obeys."""
    v = finite_scalar(name, value, positive=not nonnegative, nonnegative=nonnegative)
    if v > COORD_MAX:
        check_bound(name, v)  # raises, naming the argument and the bound
    return v


def invertible(name: str, value) -> float:
    """A mass or moment of inertia: a finite number > 0 whose reciprocal is finite too (the
    solver multiplies by ``1 / value``; below about 5.6e-309 that is inf)."""
    v = finite_scalar(name, value, positive=True)
    if not math.isfinite(1.0 / v):
        raise ValueError(f"{name}: {v!r} is too small (1 / {name} overflows float64); "
                         "use at least 1e-300")
    return v


def real_vector(name: str, value, *, bounded: bool = False) -> np.ndarray:
    """A finite (x, y) of real numbers as a float64 array of shape (2,); with ``bounded``
    also within :data:`COORD_MAX`.

    Stricter than :func:`vector`: strings ("12" would convert), bools and complex numbers
    (NumPy would drop the imaginary part) are a ``TypeError``, and an int too large for a
    float is a ``ValueError``.
    """
    # The common cases, a float64 pair or a tuple or list of two floats, without the
    # per-item checks (a body's apply_impulse and apply_force every frame).
    kind = type(value)
    if kind is np.ndarray:
        if value.dtype == np.float64 and value.shape == (2,):
            x, y = value.tolist()
            if math.isfinite(x) and math.isfinite(y):
                if bounded and not (abs(x) <= COORD_MAX and abs(y) <= COORD_MAX):
                    check_bound(name, value)
                return value.copy()
    elif (kind is tuple or kind is list) and len(value) == 2:
        x, y = value
        # (NumPy's float64 scalars too: arithmetic on an array's items makes them.)
        if ((type(x) is float or type(x) is np.float64)
                and (type(y) is float or type(y) is np.float64)
                and math.isfinite(x) and math.isfinite(y)):
            out = np.array((x, y))
            if bounded and not (abs(x) <= COORD_MAX and abs(y) <= COORD_MAX):
                check_bound(name, out)
            return out
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name}: expected a 2D vector (x, y) of numbers, got {value!r}")
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iuf" and value.dtype != object:
            raise TypeError(f"{name}: expected a 2D vector (x, y) of numbers, got an array "
                            f"of dtype {value.dtype}")
        if value.shape != (2,):
            raise ValueError(f"{name}: expected a 2D vector (x, y), got shape {value.shape}")
        items = value.tolist()
    else:
        try:
            items = list(value)
        except TypeError:
            raise TypeError(f"{name}: expected a 2D vector (x, y), got "
                            f"{type(value).__name__}") from None
        if len(items) != 2:
            raise ValueError(f"{name}: expected a 2D vector (x, y), got {len(items)} values")
    x, y = (real_number(name, v) for v in items)
    out = np.array((x, y), dtype=np.float64)
    if bounded and not (abs(x) <= COORD_MAX and abs(y) <= COORD_MAX):
        check_bound(name, out)
    return out


def bits32(name: str, value) -> int:
    """Collision filter bits: an int (not a bool) in 0 .. 0xFFFFFFFF."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: expected an int of bits, got {type(value).__name__}")
    v = int(value)
    if not 0 <= v <= 0xFFFFFFFF:
        raise ValueError(f"{name}: bits must fit in 32 bits (0 .. 0xFFFFFFFF), got {v}")
    return v


def int64(name: str, value) -> int:
    """An int (not a bool) that fits a signed 64-bit store field."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: expected an int, got {type(value).__name__}")
    v = int(value)
    if not -(2**63) <= v < 2**63:
        raise ValueError(f"{name}: must fit in 64 bits (-2**63 .. 2**63 - 1), got {v}")
    return v
