"""The world's structure-of-arrays storage: bodies, shapes, and the vertex pool.

Rows are slots: a removed body or shape leaves a hole on a free list and bumps the slot's
generation, so a stale handle fails loudly and live handles never move. Capacity doubles
when full. Arrays are grouped by who reads them: the solver's hot state (velocity, angular
velocity) apart from pose and mass data and from bookkeeping.

Kernels receive these arrays directly; nothing here is compiled.
"""

from __future__ import annotations

import numpy as np

from ._kernels.constants import (  # noqa: F401  (re-exported for the surface)
    B_ALIVE,
    B_ARCADE,
    B_AWAKE,
    B_BULLET,
    B_CUSTOM_MASS,
    B_FIXED_ROTATION,
    DYNAMIC,
    EXPLICIT,
    KINEMATIC,
    MAX_SUBSTEPS,
    S_ALIVE,
    S_SENSOR,
    SEMI_IMPLICIT,
    STATIC,
)

KIND_NAMES = {"static": STATIC, "kinematic": KINEMATIC, "dynamic": DYNAMIC}
KIND_OF = {v: k for k, v in KIND_NAMES.items()}


def _grow(arr: np.ndarray, cap: int, fill=0) -> np.ndarray:
    out = np.full((cap,) + arr.shape[1:], fill, dtype=arr.dtype)
    out[: arr.shape[0]] = arr
    return out


class BodyStore:
    """One row per body slot."""

    FIELDS = {
        # hot: read and written by the solver every substep
        "vel": ((2,), np.float64, 0.0),
        "angvel": ((), np.float64, 0.0),
        # pose and mass
        "pos": ((2,), np.float64, 0.0),       # body origin, world frame (m)
        "angle": ((), np.float64, 0.0),       # radians, CCW
        "local_com": ((2,), np.float64, 0.0),  # centre of mass in the body frame
        "mass": ((), np.float64, 0.0),
        "inertia": ((), np.float64, 0.0),     # about the centre of mass
        "inv_mass": ((), np.float64, 0.0),
        "inv_inertia": ((), np.float64, 0.0),
        "force": ((2,), np.float64, 0.0),     # accumulated until the next step (N)
        "torque": ((), np.float64, 0.0),
        "damping": ((), np.float64, 1.0),     # fraction of velocity kept after 1 s
        "angular_damping": ((), np.float64, 1.0),
        "gravity_scale": ((), np.float64, 1.0),
        # bookkeeping
        "kind": ((), np.int8, 0),
        "flags": ((), np.int32, 0),
        "sleep_time": ((), np.float64, 0.0),
        "generation": ((), np.int64, 0),
        "order": ((), np.int64, -1),          # index in World.bodies
    }

    def __init__(self, capacity: int = 16):
        self.capacity = capacity
        for name, (shape, dtype, fill) in self.FIELDS.items():
            setattr(self, name, np.full((capacity,) + shape, fill, dtype=dtype))
        self.free: list[int] = []
        self.count = 0  # slots ever used (high-water mark)

    def alloc(self) -> int:
        if self.free:
            slot = self.free.pop()
        else:
            if self.count == self.capacity:
                self._resize(self.capacity * 2)
            slot = self.count
            self.count += 1
        for name, (_, _, fill) in self.FIELDS.items():
            if name != "generation":
                getattr(self, name)[slot] = fill
        return slot

    def release(self, slot: int) -> None:
        self.flags[slot] = 0
        self.generation[slot] += 1
        self.free.append(slot)
        self.free.sort(reverse=True)  # reuse the lowest slot first: deterministic layout

    def _resize(self, cap: int) -> None:
        for name, (_, _, fill) in self.FIELDS.items():
            setattr(self, name, _grow(getattr(self, name), cap, fill))
        self.capacity = cap

    def state(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in self.FIELDS}


class ShapeStore:
    """One row per convex part. A user-facing Shape owns one row, or several when a concave
    polygon was decomposed; ``owner`` maps each row to the Shape's id (its first row)."""

    FIELDS = {
        "body": ((), np.int64, -1),
        "owner": ((), np.int64, -1),
        "vstart": ((), np.int64, 0),
        "vcount": ((), np.int64, 0),
        "radius": ((), np.float64, 0.0),
        "density": ((), np.float64, 1.0),
        "friction": ((), np.float64, 0.6),
        "elasticity": ((), np.float64, 0.0),
        "category": ((), np.int64, 1),
        "mask": ((), np.int64, 0xFFFFFFFF),
        "group": ((), np.int64, 0),
        "flags": ((), np.int32, 0),
        "generation": ((), np.int64, 0),
        "aabb": ((4,), np.float64, 0.0),  # world frame: min x, min y, max x, max y
    }

    def __init__(self, capacity: int = 16, vcapacity: int = 64):
        self.capacity = capacity
        for name, (shape, dtype, fill) in self.FIELDS.items():
            setattr(self, name, np.full((capacity,) + shape, fill, dtype=dtype))
        self.free: list[int] = []
        self.count = 0
        # Vertex pool: local (body frame) and world frame, appended; holes are compacted
        # when more than half the pool is dead.
        self.vlocal = np.zeros((vcapacity, 2))
        self.vworld = np.zeros((vcapacity, 2))
        self.vcount_used = 0
        self.vdead = 0

    def alloc(self, verts_local: np.ndarray) -> int:
        if self.free:
            slot = self.free.pop()
        else:
            if self.count == self.capacity:
                cap = self.capacity * 2
                for name, (_, _, fill) in self.FIELDS.items():
                    setattr(self, name, _grow(getattr(self, name), cap, fill))
                self.capacity = cap
            slot = self.count
            self.count += 1
        for name, (_, _, fill) in self.FIELDS.items():
            if name != "generation":
                getattr(self, name)[slot] = fill
        n = verts_local.shape[0]
        if self.vcount_used + n > self.vlocal.shape[0]:
            cap = max(2 * self.vlocal.shape[0], self.vcount_used + n)
            self.vlocal = _grow(self.vlocal, cap)
            self.vworld = _grow(self.vworld, cap)
        self.vlocal[self.vcount_used : self.vcount_used + n] = verts_local
        self.vstart[slot] = self.vcount_used
        self.vcount[slot] = n
        self.vcount_used += n
        return slot

    def release(self, slot: int) -> None:
        self.flags[slot] = 0
        self.body[slot] = -1
        self.generation[slot] += 1
        self.vdead += int(self.vcount[slot])
        self.free.append(slot)
        self.free.sort(reverse=True)
        if self.vdead * 2 > self.vcount_used:
            self._compact()

    def _compact(self) -> None:
        live = np.flatnonzero(self.flags[: self.count] & S_ALIVE)
        pos = 0
        newl = np.zeros_like(self.vlocal)
        for s in live:
            a, n = int(self.vstart[s]), int(self.vcount[s])
            newl[pos : pos + n] = self.vlocal[a : a + n]
            self.vstart[s] = pos
            pos += n
        self.vlocal = newl
        self.vworld = np.zeros_like(newl)
        self.vcount_used = pos
        self.vdead = 0

    def state(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in self.FIELDS}
