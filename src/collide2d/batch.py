"""Array forms of the per-body getters and setters, and the shapes' geometry for drawing.

:class:`~collide2d.World` exposes these as ``world.positions(ids)``,
``world.set_velocities(ids, v)``, ``world.apply_forces(ids, f)``, ``world.shape_geometry()``
and so on; this module holds the shared work. Bodies are named by their ids (``Body.id``):
ids survive the removal of other bodies, and a removed body's id is never reused.

Every setter first validates all of its input, then writes: a call that raises leaves the
world as it was. Each one does, in NumPy over the arrays, exactly what a loop of the
single-body setter of :class:`~collide2d.Body` would do, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _store as S
from . import _validate as V
from .body import _encode, _ids_by_slot, _slots_of_ids

__all__ = ["ShapeGeometry"]

_KIND_NAMES = np.array([S.KIND_OF[k] for k in range(len(S.KIND_OF))])


class ShapeGeometry(NamedTuple):
    """Every live shape's convex parts in the world frame, one row per part, for drawing.

    A circle, box, convex polygon or segment is one part; a concave polygon is several parts
    with the same ``shape`` id. Rows are in storage order (the order a debug view draws
    them in). Vertices of part k are ``vertices[offset[k] : offset[k] + count[k]]``:
    ``count`` 1 is a circle's centre, 2 a segment (a capsule when ``radius`` > 0), 3 or more
    a convex polygon, counter-clockwise (rounded when ``radius`` > 0).

    Attributes
    ----------
    shape : (m,) int64
        Shape id of the part (``world.shape(id)``).
    body : (m,) int64
        Body id (see ``Body.id``) of the shape's body.
    sensor : (m,) bool
        Whether the shape is a sensor.
    radius : (m,) float64
        Circle radius, or rounding radius of a segment or polygon (m).
    vertices : (v, 2) float64
        World-frame vertices of every part, concatenated (m).
    offset, count : (m,) int64
        Where each part's vertices start in ``vertices``, and how many it has.
    aabb : (m, 4) float64
        World bounding box of each part: min x, min y, max x, max y (m).
    """

    shape: np.ndarray
    body: np.ndarray
    sensor: np.ndarray
    radius: np.ndarray
    vertices: np.ndarray
    offset: np.ndarray
    count: np.ndarray
    aabb: np.ndarray


def shape_geometry(world) -> ShapeGeometry:
    world._sync_shapes()
    st = world._shapes
    n = st.count
    rows = np.flatnonzero((st.flags[:n] & S.S_ALIVE) != 0)
    count = st.vcount[rows].copy()
    offset = np.cumsum(count) - count
    # Gather each part's vertices from the pool into one packed array.
    src = np.repeat(st.vstart[rows] - offset, count) + np.arange(int(count.sum()))
    return ShapeGeometry(
        shape=st.owner[rows].copy(),
        body=_ids_by_slot(world._bodies)[st.body[rows]],
        sensor=(st.flags[rows] & S.S_SENSOR) != 0,
        radius=st.radius[rows].copy(),
        vertices=np.ascontiguousarray(st.vworld[src]),
        offset=offset.astype(np.int64),
        count=count.astype(np.int64),
        aabb=st.aabb[rows].copy(),
    )


def shape_bodies(world, shape_ids) -> np.ndarray:
    a = np.asarray(shape_ids)
    if a.dtype == np.bool_ or not (np.issubdtype(a.dtype, np.integer) or a.size == 0):
        raise TypeError(f"shape_ids: expected an int array of shape ids, got dtype {a.dtype}")
    a = a.astype(np.int64)
    st = world._shapes
    flat = a.ravel()
    bad = (flat < 0) | (flat >= st.count)
    ok = ~bad
    r = flat[ok]
    bad[ok] = ((st.flags[r] & S.S_ALIVE) == 0) | (st.owner[r] != r)
    if bad.any():
        raise ValueError(f"shape_ids: no live shape has id {int(flat[np.flatnonzero(bad)[0]])}")
    return _ids_by_slot(world._bodies)[st.body[a]]


# ---------------------------------------------------------------------------- validation
def slots(world, ids) -> np.ndarray:
    """Slots of ``ids`` (None: every live body in ``world.bodies`` order)."""
    if ids is None:
        return world._live_slots()
    return _slots_of_ids(world._bodies, "ids", ids)


def distinct(s: np.ndarray) -> None:
    if s.size > 1:
        u, c = np.unique(s, return_counts=True)
        if (c > 1).any():
            raise ValueError("ids: a body id appears more than once (a setter takes each body "
                             "once; forces, impulses and torques add up instead)")


def values(name: str, value, n: int, width: int | None) -> np.ndarray:
    """Finite float64 values of shape (n, width), or (n,) for ``width`` None."""
    a = np.asarray(value)
    if a.dtype.kind not in "iuf":
        raise TypeError(f"{name}: expected an array of numbers, got dtype {a.dtype}")
    want = (n,) if width is None else (n, width)
    if n == 0 and a.size == 0:
        return np.empty(want)
    if a.shape != want:
        raise ValueError(f"{name}: expected shape {want} (one row per id), got {a.shape}")
    a = a.astype(np.float64)
    if not np.isfinite(a).all():
        raise ValueError(f"{name}: contains NaN or inf")
    return a


# ---------------------------------------------------------------------------- getters
def kinds(world, ids) -> np.ndarray:
    return _KIND_NAMES[world._bodies.kind[slots(world, ids)]]


def masses(world, ids) -> np.ndarray:
    b = world._bodies
    s = slots(world, ids)
    return np.where(b.kind[s] == S.DYNAMIC, b.mass[s], np.inf)


def inertias(world, ids) -> np.ndarray:
    # As Body.inertia: inf when the body does not turn (not dynamic, or fixed rotation),
    # 0 for a dynamic body with no massive shape yet.
    b = world._bodies
    s = slots(world, ids)
    dyn = b.kind[s] == S.DYNAMIC
    fixed = (b.inv_inertia[s] == 0.0) | ~dyn
    locked = np.where(~dyn | (b.inertia[s] > 0.0), np.inf, 0.0)
    return np.where(fixed, locked, b.inertia[s])


# ---------------------------------------------------------------------------- setters
def _wake(world, s: np.ndarray) -> None:
    world._unsettle()
    b = world._bodies
    b.flags[s] |= S.B_AWAKE
    b.sleep_time[s] = 0.0


def set_rows(world, ids, name: str, value, field: str, width: int | None,
             pose: bool) -> None:
    s = _slots_of_ids(world._bodies, "ids", ids)
    v = values(name, value, s.shape[0], width)
    distinct(s)
    if s.size == 0:
        return
    b = world._bodies
    if field in ("pos", "vel"):
        V.check_bound(name, v)  # as the single setters: coordinates and velocities bounded
    if field in ("vel", "angvel"):
        moving = (v != 0.0).any(axis=1) if v.ndim == 2 else v != 0.0
        bad = moving & (b.kind[s] == S.STATIC)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{name}: body {_encode(int(s[k]), int(b.generation[s[k]]))} "
                             "(its id) is static and never moves, so it takes no velocity; "
                             "make it kinematic to move it")
    getattr(b, field)[s] = v
    if pose:
        world._poses_changed()
    _wake(world, s)


def _com_world(b, s: np.ndarray) -> np.ndarray:
    """Centres of mass in the world frame, as Body.world_point_of(local_com) computes them
    (NumPy's cos and sin are the C library's here, so the bits agree)."""
    c, sn = np.cos(b.angle[s]), np.sin(b.angle[s])
    x, y = b.local_com[s, 0], b.local_com[s, 1]
    return b.pos[s] + np.column_stack((c * x - sn * y, sn * x + c * y))


def apply(world, ids, name: str, value, points, impulse: bool) -> None:
    s = _slots_of_ids(world._bodies, "ids", ids)
    f = values(name, value, s.shape[0], 2)
    p = None if points is None else values("points", points, s.shape[0], 2)
    V.check_bound(name, f)  # as the single calls
    if p is not None:
        V.check_bound("points", p)
    b = world._bodies
    dyn = b.kind[s] == S.DYNAMIC       # forces and impulses on other bodies do nothing
    s, f = s[dyn], f[dyn]
    if s.size == 0:
        return
    if p is not None:
        r = p[dyn] - _com_world(b, s)
        cross = r[:, 0] * f[:, 1] - r[:, 1] * f[:, 0]
    # np.add.at adds repeated ids one after another, as a loop of single calls would.
    if impulse:
        np.add.at(b.vel, s, f * b.inv_mass[s][:, None])
        if p is not None:
            np.add.at(b.angvel, s, b.inv_inertia[s] * cross)
    else:
        np.add.at(b.force, s, f)
        if p is not None:
            np.add.at(b.torque, s, cross)
    _wake(world, s)


def apply_torques(world, ids, torques) -> None:
    s = _slots_of_ids(world._bodies, "ids", ids)
    t = values("torques", torques, s.shape[0], None)
    V.check_bound("torques", t)
    b = world._bodies
    dyn = b.kind[s] == S.DYNAMIC
    s, t = s[dyn], t[dyn]
    if s.size == 0:
        return
    np.add.at(b.torque, s, t)
    _wake(world, s)
