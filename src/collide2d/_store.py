"""The world's structure-of-arrays storage: bodies, shapes, the vertex pool, particles.

Rows are slots: a removed body or shape leaves a hole on a free list and bumps the slot's
generation, so a stale handle fails loudly and live handles never move. Capacity doubles
when full. Arrays are grouped by who reads them: the solver's hot state (velocity, angular
velocity) apart from pose and mass data and from bookkeeping.

Kernels receive these arrays directly; nothing here is compiled.
"""

from __future__ import annotations

import heapq

import numpy as np

from . import _arena
from . import _validate as _V
from ._kernels import views as V
from ._kernels.constants import (  # noqa: F401  (re-exported for the surface)
    B_ALIVE,
    B_ARCADE,
    B_AWAKE,
    B_BULLET,
    B_CUSTOM_MASS,
    B_FIXED_ROTATION,
    COLOURS,
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
    out = _arena.full((cap,) + arr.shape[1:], fill, dtype=arr.dtype)
    out[: arr.shape[0]] = arr
    return out


class SlotStore:
    """Rows handed out as slots: a free list (lowest slot first, for a deterministic
    layout), a generation per slot bumped on release, capacity doubling when full.

    ``FIELDS`` is the schema: name -> (row shape, dtype, fill). Fields in ``TRANSIENT`` are
    caches the step rebuilds; snapshots save the others (``saved_fields``), walking the
    schema, so a new field is saved and restored with no change to the snapshot code.
    ``view()`` is the kernels' named view of every field (capacity rows), rebuilt only
    when an array is replaced.
    """

    FIELDS: dict = {}
    TRANSIENT: frozenset = frozenset()
    View = None  # the namedtuple type of view()

    def __init__(self, capacity: int = 16):
        object.__setattr__(self, "_view", None)
        self.capacity = capacity
        for name, (shape, dtype, fill) in self.FIELDS.items():
            setattr(self, name, _arena.full((capacity,) + shape, fill, dtype=dtype))
        # Released slots, a min-heap: the lowest is reused first (a deterministic layout).
        self.free: list[int] = []
        self.count = 0  # slots ever used (high-water mark)

    def __setattr__(self, name, value):
        if name in self.FIELDS or name in self._VIEW_EXTRA:
            object.__setattr__(self, "_view", None)
        object.__setattr__(self, name, value)

    _VIEW_EXTRA: tuple = ()

    @classmethod
    def saved_fields(cls) -> dict:
        return {k: v for k, v in cls.FIELDS.items() if k not in cls.TRANSIENT}

    #: Saved fields a snapshot leaves out while every row holds the fill value, and fills
    #: in when a snapshot lacks them: a feature added later changes neither the bytes of
    #: worlds that do not use it nor the loading of snapshots saved before it existed.
    OPTIONAL: frozenset = frozenset()

    def view(self):
        if self._view is None:
            object.__setattr__(self, "_view",
                               self.View(*(getattr(self, n) for n in self.View._fields)))
        return self._view

    def _new_slot(self) -> int:
        if self.free:
            return heapq.heappop(self.free)
        if self.count == self.capacity:
            self._resize(self.capacity * 2)
        self.count += 1
        return self.count - 1

    def alloc(self) -> int:
        slot = self._new_slot()
        for name, (_, _, fill) in self.FIELDS.items():
            if name != "generation":
                getattr(self, name)[slot] = fill
        return slot

    def release(self, slot: int) -> None:
        self.flags[slot] = 0
        self.generation[slot] += 1
        heapq.heappush(self.free, slot)

    def _resize(self, cap: int) -> None:
        for name, (_, _, fill) in self.FIELDS.items():
            setattr(self, name, _grow(getattr(self, name), cap, fill))
        self.capacity = cap

    def state(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in self.FIELDS}


class BodyStore(SlotStore):
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
        # (cos, sin) of the angle as the shapes were last placed with: valid while the
        # world's shapes are fresh, so an untouched world skips the trigonometry
        "rot": ((2,), np.float64, 0.0),
    }
    TRANSIENT = frozenset(("rot",))
    View = V.BodyView


class ShapeStore(SlotStore):
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
        "collision_type": ((), np.int64, 0),  # the user's tag that typed handlers select on
        "one_way": ((2,), np.float64, 0.0),  # body frame, unit; zero: blocks from every side
        "surface_speed": ((), np.float64, 0.0),  # m/s along the outline, counter-clockwise
        # aabb fattened by the world's margin: the step's broadphase and sweeps read it
        "fat": ((4,), np.float64, 0.0),
        # the shape index (poses.index_shapes): rows of the shapes that can move, then of
        # the static ones by the lower x of their fattened boxes, and the largest upper x
        # up to each of those positions
        "order": ((), np.int64, 0),
        "reach": ((), np.float64, 0.0),
        # the broadphase's box (proxies.py): fat enlarged, moved only when fat leaves it;
        # NaN, which holds nothing, until the shape is first placed
        "proxy": ((4,), np.float64, np.nan),
        # the proxy moved since the broadphase last read it
        "escaped": ((), np.bool_, False),
    }
    TRANSIENT = frozenset(("fat", "order", "reach", "proxy", "escaped"))
    OPTIONAL = frozenset({"collision_type", "one_way", "surface_speed"})
    View = V.ShapeView
    _VIEW_EXTRA = ("vlocal", "vworld")

    def __init__(self, capacity: int = 16, vcapacity: int = 64):
        super().__init__(capacity)
        # Vertex pool: local (body frame) and world frame, appended; holes are compacted
        # when more than half the pool is dead.
        self.vlocal = _arena.zeros((vcapacity, 2))
        self.vworld = _arena.zeros((vcapacity, 2))
        self.vcount_used = 0
        self.vdead = 0

    def alloc(self, verts_local: np.ndarray) -> int:
        slot = super().alloc()
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
        self.body[slot] = -1
        self.vdead += int(self.vcount[slot])
        super().release(slot)
        if self.vdead * 2 > self.vcount_used:
            self._compact()

    def _compact(self) -> None:
        live = np.flatnonzero(self.flags[: self.count] & S_ALIVE)
        pos = 0
        newl = _arena.zeros_like(self.vlocal)
        for s in live:
            a, n = int(self.vstart[s]), int(self.vcount[s])
            newl[pos : pos + n] = self.vlocal[a : a + n]
            self.vstart[s] = pos
            pos += n
        self.vlocal = newl
        self.vworld = _arena.zeros_like(newl)
        self.vcount_used = pos
        self.vdead = 0


class PairRules:
    """Which pairs collide beyond the shapes' own filters: a response for a pair of
    collision types (``World.set_pair_response``) and pairs of bodies that never collide
    (``World.ignore_collisions``). Kept as dicts for the surface and as sorted keys for the
    broadphase (``views.PairRuleView``), rebuilt only when a rule changes."""

    def __init__(self) -> None:
        self.types: dict[tuple[int, int], int] = {}   # (type_a <= type_b) -> response
        self.bodies: set[tuple[int, int]] = set()     # (slot_a < slot_b)
        self._view = None
        self._step_view = None
        self._joint_keys = None

    def set_types(self, type_a: int, type_b: int, response: int | None) -> None:
        key = (min(type_a, type_b), max(type_a, type_b))
        if response is None:
            self.types.pop(key, None)
        else:
            self.types[key] = response
        self._view = None

    def set_bodies(self, slot_a: int, slot_b: int, ignore: bool) -> None:
        key = (min(slot_a, slot_b), max(slot_a, slot_b))
        if ignore:
            self.bodies.add(key)
        else:
            self.bodies.discard(key)
        self._view = None

    def drop_body(self, slot: int) -> None:
        """A removed body's pairs go with it (its slot will hold another body)."""
        gone = {key for key in self.bodies if slot in key}
        if gone:
            self.bodies -= gone
            self._view = None

    def step_view(self, joint_keys: np.ndarray) -> V.PairRuleView:
        """The rules the step applies: the user's, and the body pairs joints keep apart
        (``JointStore.keys``, sorted)."""
        view = self.view()
        if joint_keys.size == 0:
            return view
        if self._step_view is None or self._joint_keys is not joint_keys:
            self._step_view = view._replace(
                body_keys=_arena.copy(np.union1d(view.body_keys, joint_keys)))
            self._joint_keys = joint_keys
        return self._step_view

    def view(self) -> V.PairRuleView:
        """The user's rules (what snapshots save)."""
        if self._view is None:
            self._step_view = None
            tk = sorted(self.types)
            bk = sorted(self.bodies)
            self._view = V.PairRuleView(
                _arena.copy(np.array([a << 32 | b for a, b in tk], dtype=np.int64)),
                _arena.copy(np.array([self.types[k] for k in tk], dtype=np.int8)),
                _arena.copy(np.array([a << 32 | b for a, b in bk], dtype=np.int64)))
        return self._view


def _table(fields: dict, view_type, capacity: int):
    return view_type(*(_arena.full((capacity,) + shape, fill, dtype=dtype)
                       for shape, dtype, fill in fields.values()))


class ContactStore:
    """The contact table: one row per pair of shape rows in contact, ``count`` rows.

    Rows are rewritten every step (the step writes a new table; ``World.step`` swaps it
    in), so there are no slots: the table is sorted by pair, which is how the next step
    matches its manifolds against this one. ``FIELDS`` is the schema (``views.CONTACT_FIELDS``
    in order); ``SAVED`` the fields snapshots keep, in their saved order.
    """

    FIELDS = {
        "a": ((), np.int64, 0),              # shape rows, a < b
        "b": ((), np.int64, 0),
        "resp": ((), np.int8, 0),            # IGNORE, SOLID or SENSOR
        "count": ((), np.int64, 0),          # manifold points, 0 to 2
        "normal": ((2,), np.float64, 0.0),   # unit, from a to b
        "point": ((2, 2), np.float64, 0.0),  # midway between the surfaces (m)
        "sep": ((2,), np.float64, 0.0),      # separation per point (m), negative inside
        "id": ((2,), np.int64, 0),           # feature ids: warm starting matches them
        "nimp": ((2,), np.float64, 0.0),     # accumulated normal impulse per substep (N s)
        "timp": ((2,), np.float64, 0.0),     # and tangent
        "flags": ((), np.int64, 0),          # C_TOUCHING
        # the step that wrote the table: rows that began touching, rows of the table
        # before it that ended (set on that table's rows), total normal impulse (N s)
        "began": ((), np.bool_, False),
        "ended": ((), np.bool_, False),
        "impulse": ((2,), np.float64, 0.0),
    }
    SAVED = ("a", "b", "resp", "count", "normal", "point", "sep", "id", "nimp", "timp",
             "flags")

    def __init__(self, capacity: int = 16):
        self.table = _table(self.FIELDS, V.ContactView, capacity)
        self.count = 0

    @property
    def capacity(self) -> int:
        return self.table.a.shape[0]

    def rows(self):
        """The ``count`` rows (views, not copies) as a ContactView."""
        return V.ContactView(*(arr[: self.count] for arr in self.table))

    def set_rows(self, **columns) -> None:
        """Replace the table by these rows (every field given, or filled with its default)."""
        n = len(next(iter(columns.values()))) if columns else 0
        cap = max(16, n)
        self.table = _table(self.FIELDS, V.ContactView, cap)
        for name, arr in columns.items():
            getattr(self.table, name)[:n] = arr
        self.count = n

    def reserve(self, rows: int) -> None:
        """Room for at least ``rows`` rows, the table's contents kept (``set_rows`` and the
        step buffers' ``fit`` start afresh)."""
        if rows > self.capacity:
            old = self.table
            self.table = _table(self.FIELDS, type(old), rows)
            for new_arr, old_arr in zip(self.table, old, strict=True):
                new_arr[: old_arr.shape[0]] = old_arr

    def keep(self, mask: np.ndarray) -> None:
        """Keep the rows where ``mask`` is true, in order."""
        n = int(np.count_nonzero(mask))
        for arr in self.table:
            arr[:n] = arr[: self.count][mask]
        self.count = n


class SensorStore(ContactStore):
    """Sensor overlaps at the end of the last step: rows (a, b) of shape rows, a < b,
    sorted, with the step's changes (``began``; ``ended`` on the table before it)."""

    FIELDS = {
        "a": ((), np.int64, 0),
        "b": ((), np.int64, 0),
        "began": ((), np.bool_, False),
        "ended": ((), np.bool_, False),
    }
    SAVED = ("a", "b")

    def __init__(self, capacity: int = 16):
        self.table = _table(self.FIELDS, V.SensorView, capacity)
        self.count = 0

    def rows(self):
        return V.SensorView(*(arr[: self.count] for arr in self.table))

    def set_rows(self, **columns) -> None:
        n = len(next(iter(columns.values()))) if columns else 0
        self.table = _table(self.FIELDS, V.SensorView, max(16, n))
        for name, arr in columns.items():
            getattr(self.table, name)[:n] = arr
        self.count = n


class JointStore(SlotStore):
    """One row per joint slot. Anchors are in the bodies' frames (from their origins), the
    axis in A's frame; limits absent are -inf / inf, break limits absent inf. ``imp`` holds
    the accumulated impulses per substep (the warm start): linear x, y (prismatic: the
    perpendicular and angular rows), angular, spring, motor, lower, upper, perpendicular;
    ``reaction`` the last step's force (N) and torque (N m) on B."""

    FIELDS = {
        "kind": ((), np.int8, 0),
        "flags": ((), np.int32, 0),
        "body_a": ((), np.int64, -1),     # slot; -1: the world (a mouse joint's target)
        "body_b": ((), np.int64, -1),
        "generation": ((), np.int64, 0),
        "order": ((), np.int64, -1),      # index in World.joints
        "local_a": ((2,), np.float64, 0.0),
        "local_b": ((2,), np.float64, 0.0),
        "axis": ((2,), np.float64, 0.0),  # unit, A's frame
        "ref_angle": ((), np.float64, 0.0),
        "lower": ((), np.float64, -np.inf),
        "upper": ((), np.float64, np.inf),
        "motor_speed": ((), np.float64, 0.0),
        "max_motor": ((), np.float64, 0.0),
        "hertz": ((), np.float64, 0.0),
        "zeta": ((), np.float64, 0.0),
        "hertz2": ((), np.float64, 0.0),  # weld: angular; mouse: its angular damping
        "zeta2": ((), np.float64, 0.0),
        "target": ((), np.float64, 0.0),  # spring rest angle or translation
        "length": ((), np.float64, 0.0),
        "ratio": ((), np.float64, 1.0),   # gear ratio; angle joint: the ratchet step
        "notch": ((), np.float64, 0.0),   # ratchet: the angle it holds above
        "max_force": ((), np.float64, 0.0),
        "max_torque": ((), np.float64, 0.0),
        "correction": ((), np.float64, 0.0),
        "point": ((2,), np.float64, 0.0),  # mouse target, world frame
        "break_force": ((), np.float64, np.inf),
        "break_torque": ((), np.float64, np.inf),
        "imp": ((8,), np.float64, 0.0),
        "reaction": ((3,), np.float64, 0.0),
        "frame": ((20,), np.float64, 0.0),
        "on": ((), np.bool_, False),
        "level": ((), np.int64, 0),        # of the solved joints (joints.order_joints)
        "seq": ((), np.int64, 0),          # the solved joints' slots in solve order
        "run": ((), np.int64, 0),          # at a run's first position in seq: one past its end
        "wseq": ((), np.int64, 0),         # the solved joints' slots in slot order
        "wrun": ((), np.int64, 0),         # run ends along wseq, as run along seq
        "solved": ((), np.int8, -1),       # what the order was made for (prepare_joints)
    }
    TRANSIENT = frozenset(("frame", "on", "level", "seq", "run", "wseq", "wrun", "solved"))
    View = V.JointView
    _VIEW_EXTRA = ("keys",)

    def __init__(self, capacity: int = 16):
        super().__init__(capacity)
        self.keys = _arena.zeros(0, dtype=np.int64)


# Where each int64 field of the step's record sits among its 8-byte words.
_STEP_INTS = {name: offset // 8 for name, (dtype, offset) in V.STEP_DTYPE.fields.items()
              if dtype == np.int64}
assert V.STEP_DTYPE.itemsize == 8 * len(V.STEP_DTYPE.names)


class StepBuffers:
    """What a step works in (``views.StepView``), kept between steps so a step allocates
    nothing once the world has stopped growing: the tables it writes (swapped with the
    world's after the step), per-body solver state sized to the body store, and pair-sized
    buffers grown when a step finds more pairs than they hold."""

    BODY = {"com": (2,), "com0": (2,), "angle0": (), "dp": (2,), "dq": (2,), "inv_m": (),
            "inv_i": (), "vfree": (2,), "wfree": (), "body_float": ()}
    BODY_FLAGS = ("kin_moving", "touched")
    BODY_INDEX = ("body_int",)
    ROWS = {"rows": ((), np.int64), "ba": ((), np.int64), "bb": ((), np.int64),
            "jac": ((2, 4), np.float64), "nmass": ((2,), np.float64),
            "tmass": ((2,), np.float64), "coup": ((6,), np.float64),
            "adj": ((2,), np.float64), "relv": ((2,), np.float64), "fric": ((), np.float64),
            "rest": ((), np.float64), "static_pair": ((), np.bool_),
            "max_imp": ((2,), np.float64), "kinv": ((3,), np.float64),
            "heavy": ((), np.int64)}

    def __init__(self):
        self.contacts = ContactStore(16)
        self.sensors = SensorStore(16)
        # The world's sleeping contact rows (_kernels/asleep.py): world state, held here to
        # grow with the pairs' room; ``count`` is brought up to date after each step.
        self.asleep = ContactStore(16)
        self.arrays: dict[str, np.ndarray] = {}
        # The narrowphase's room (views.NarrowRoom), sized to the pairs, the sleeping table
        # and the vertex pool.
        self.narrow: dict[str, np.ndarray] = {
            "keep": _arena.zeros(16, dtype=np.bool_), "end": _arena.zeros(16, dtype=np.bool_),
            "points": _arena.zeros((2, 2)), "seps": _arena.zeros(2),
            "ids": _arena.zeros(2, dtype=np.int64)}
        self.vertex_capacity = 0
        self.body_capacity = 0
        self.pair_capacity = 0
        self.state = _arena.zeros(1, V.STEP_DTYPE)
        self._ints = self.state.view(np.int64)  # the record's 8-byte fields, for read()
        self.soft = _arena.zeros(3)
        self.soft_static = _arena.zeros(3)
        self.colour_start = _arena.zeros(COLOURS + 2, dtype=np.int64)
        self._views: dict = {}
        self.fit(16, 16)
        self.fit_vertices(64)

    def fit(self, bodies: int, pairs: int) -> None:
        """Hold at least ``bodies`` bodies and ``pairs`` pairs (grown by doubling)."""
        if bodies > self.body_capacity:
            cap = max(bodies, 2 * self.body_capacity)
            for name, shape in self.BODY.items():
                self.arrays[name] = _arena.zeros((cap,) + shape)
            for name in self.BODY_FLAGS:
                self.arrays[name] = _arena.zeros(cap, dtype=np.bool_)
            for name in self.BODY_INDEX:
                self.arrays[name] = _arena.zeros(cap, dtype=np.int64)
            self.body_capacity = cap
            self._views.clear()
        if pairs > self.pair_capacity:
            cap = max(pairs, 2 * self.pair_capacity)
            self.arrays["pair_a"] = _arena.zeros(cap, dtype=np.int64)
            self.arrays["pair_b"] = _arena.zeros(cap, dtype=np.int64)
            self.arrays["pair_resp"] = _arena.zeros(cap, dtype=np.int8)
            self.arrays["proxy_a"] = _arena.zeros(cap, dtype=np.int64)
            self.arrays["proxy_b"] = _arena.zeros(cap, dtype=np.int64)
            self.arrays["proxy_resp"] = _arena.zeros(cap, dtype=np.int8)
            self.state[0]["pairs_kept"] = 0  # the kept pairs are gone with the old arrays
            self.arrays["material"] = _arena.zeros((cap, 4))  # materials.MATERIAL_COLUMNS
            for name, (shape, dtype) in self.ROWS.items():
                self.arrays[name] = _arena.zeros((cap,) + shape, dtype=dtype)
            self.narrow["active"] = _arena.zeros(cap, dtype=np.bool_)
            self.narrow["matched"] = _arena.zeros(cap, dtype=np.bool_)
            self.narrow["to_sleep"] = _arena.zeros(cap, dtype=np.int64)
            self.pair_capacity = cap
            self._views.clear()
        if pairs > self.contacts.capacity:
            # The table the step writes: the last step's replaced table, whose ended rows
            # are no longer read once a step runs.
            self.contacts = ContactStore(self.pair_capacity)
            self._views.clear()

    def fit_asleep(self, pairs: int, n_asleep: int) -> None:
        """Room in the sleeping table for its ``n_asleep`` rows and ``pairs`` more (a step
        may send every pair to sleep), its rows kept."""
        if pairs + n_asleep > self.asleep.capacity:
            self.asleep.reserve(max(pairs + n_asleep, 2 * self.asleep.capacity))
            self.narrow["keep"] = _arena.zeros(self.asleep.capacity, dtype=np.bool_)
            self.narrow["end"] = _arena.zeros(self.asleep.capacity, dtype=np.bool_)
            self._views.clear()

    def fit_vertices(self, vertices: int) -> None:
        """Room for the narrowphase's face normals of a vertex pool of ``vertices`` rows."""
        if vertices > self.vertex_capacity:
            cap = max(vertices, 2 * self.vertex_capacity)
            self.narrow["normal"] = _arena.zeros((cap, 2))
            for name in ("ex", "ey", "nx", "ny"):
                self.narrow[name] = _arena.zeros(cap)
            self.vertex_capacity = cap
            self._views.clear()

    def fit_sensors(self, rows: int) -> None:
        if self.sensors.capacity < rows:
            self.sensors = SensorStore(max(rows, 2 * self.sensors.capacity))
            self._views.clear()

    def swap_contacts(self, world_contacts: ContactStore) -> ContactStore:
        """The table this step wrote becomes the world's; the world's old table becomes
        this one's buffer for the next step (its ended flags stay readable until then)."""
        new, self.contacts = self.contacts, world_contacts
        new.count = self.read("n_contacts")
        return new

    def swap_sensors(self, world_sensors: SensorStore) -> SensorStore:
        new, self.sensors = self.sensors, world_sensors
        new.count = self.read("n_sensors")
        return new

    def read(self, name: str) -> int:
        """An integer of the step's record (``state[0][name]``, a sixth of the time)."""
        return self._ints.item(_STEP_INTS[name])

    def view(self):
        """The StepView. The tables alternate with the world's from step to step, so a
        view is kept per pair of tables (same objects from step to step: the compiled step
        checks each new one's types once)."""
        key = (id(self.contacts.table), id(self.sensors.table), id(self.asleep.table))
        view = self._views.get(key)
        if view is None:
            own = {"contacts": self.contacts.table, "sensors": self.sensors.table,
                   "asleep": self.asleep.table,
                   "narrow": V.NarrowRoom(*(self.narrow[n] for n in V.NARROW_FIELDS)),
                   "soft": self.soft, "soft_static": self.soft_static,
                   "colour_start": self.colour_start, "state": self.state}
            view = V.StepView(*(own[n] if n in own else self.arrays[n]
                                for n in V.STEP_FIELDS))
            if len(self._views) >= 8:
                self._views.clear()
            self._views[key] = view
        return view


class ParticleStore:
    """A particle system's rows: ``count`` particles in rows 0..count-1, dense and in the
    order added (``keep`` compacts, keeping order); capacity at least doubles when full.

    ``FIELDS`` is the schema (``views.PARTICLE_FIELDS`` in order), walked by snapshots: the
    saved names are the field names. ``LEGS`` is the step's scratch, one row per particle
    (``views.LegView``), rebuilt by every step and never saved.
    """

    FIELDS = {
        "positions": ((2,), np.float64, 0.0),   # m
        "velocities": ((2,), np.float64, 0.0),  # m/s
        "alive": ((), np.bool_, False),         # dead particles neither move nor hit
    }
    TRANSIENT: frozenset = frozenset()
    LEGS = {
        "particle": ((), np.int64),
        "start": ((2,), np.float64),
        "end": ((2,), np.float64),
        "left": ((), np.float64),
        "done": ((), np.float64),
        "hit": ((), np.bool_),
        "body": ((), np.int64),
        "shape": ((), np.int64),
        "point": ((2,), np.float64),
        "normal": ((2,), np.float64),
        "fraction": ((), np.float64),
        "carry": ((), np.int64),          # particles a moving body carried this step
        "carry_from": ((2,), np.float64),
        "carry_to": ((2,), np.float64),
        "stopped": ((), np.bool_),        # by particle row: stopped at a wall it was carried to
    }

    def __init__(self, capacity: int = 16):
        self.count = 0
        self.capacity = 0
        self._view = None
        self.legs = None
        self.reserve(capacity)

    @classmethod
    def saved_fields(cls) -> dict:
        return {k: v for k, v in cls.FIELDS.items() if k not in cls.TRANSIENT}

    @staticmethod
    def check_new(positions, velocities) -> tuple[np.ndarray, np.ndarray]:
        """New particles' (N, 2) positions and velocities as float64 arrays, validated:
        ``velocities`` is (N, 2), one (vx, vy) for all, or None (at rest)."""
        pos = _V.points("positions", positions)
        if velocities is None:
            return pos, _arena.zeros_like(pos)
        try:
            v = np.asarray(velocities, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError("velocities: expected (N, 2) or (2,) numbers") from None
        if v.shape == (2,):
            v = np.broadcast_to(v, pos.shape)
        vel = _V.points("velocities", v)
        if vel.shape != pos.shape:
            raise ValueError(f"velocities: expected shape {pos.shape} (or (2,)), got "
                             f"{vel.shape}")
        return pos, vel

    def reserve(self, rows: int) -> None:
        """Hold at least ``rows`` particles (at least doubling), keeping the rows in use."""
        if rows <= self.capacity:
            return
        cap = max(rows, 2 * self.capacity)
        n = self.count
        for name, (shape, dtype, fill) in self.FIELDS.items():
            arr = _arena.full((cap,) + shape, fill, dtype=dtype)
            if self.capacity:
                arr[:n] = getattr(self, name)[:n]
            setattr(self, name, arr)
        # Zeroed: ``stopped`` is read before written (the rest is written before read).
        self.legs = V.LegView(*(_arena.zeros((cap,) + shape, dtype=dtype)
                                for shape, dtype in self.LEGS.values()))
        self.capacity = cap
        self._view = None

    def append(self, positions: np.ndarray, velocities: np.ndarray) -> None:
        """Add live particles (validated arrays of the same shape) after the others."""
        a, b = self.count, self.count + positions.shape[0]
        self.reserve(b)
        self.positions[a:b] = positions
        self.velocities[a:b] = velocities
        self.alive[a:b] = True
        self.count = b

    def keep(self, mask: np.ndarray) -> None:
        """Keep the rows where ``mask`` (count,) is true, in order."""
        n = self.count
        m = int(np.count_nonzero(mask))
        for name in self.FIELDS:
            arr = getattr(self, name)
            arr[:m] = arr[:n][mask]
        self.count = m

    def view(self) -> V.ParticleView:
        """The kernels' view of every field (capacity rows)."""
        if self._view is None:
            self._view = V.ParticleView(*(getattr(self, n) for n in V.PARTICLE_FIELDS))
        return self._view

    def state(self) -> dict[str, np.ndarray]:
        """The saved fields' rows in use (copies), by name, in schema order."""
        return {name: getattr(self, name)[: self.count].copy() for name in self.saved_fields()}


class ParticleHitStore:
    """The hits of a particle system's last step: ``count`` rows of a table with capacity
    (``views.ParticleHitView``). The step writes the rows; when it needs more than the table
    holds it says how many, and the surface grows the table (``fit``) and resumes it."""

    FIELDS = {
        "particle": ((), np.int64, 0),        # particle row
        "body": ((), np.int64, 0),            # body id
        "shape": ((), np.int64, 0),           # shape id
        "point": ((2,), np.float64, 0.0),     # m
        "normal": ((2,), np.float64, 0.0),    # outward unit normal; (0, 0) started inside
        "fraction": ((), np.float64, 0.0),    # of the step's time
    }

    def __init__(self, capacity: int = 256):
        self.table = _table(self.FIELDS, V.ParticleHitView, capacity)
        self.count = 0

    @property
    def capacity(self) -> int:
        return self.table.particle.shape[0]

    def fit(self, rows: int) -> None:
        """Hold at least ``rows`` rows (at least doubling), keeping the ``count`` in use."""
        if rows <= self.capacity:
            return
        cap = max(rows, 2 * self.capacity)
        table = _table(self.FIELDS, V.ParticleHitView, cap)
        for new, old in zip(table, self.table, strict=True):
            new[: self.count] = old[: self.count]
        self.table = table

    def rows(self) -> V.ParticleHitView:
        """The ``count`` rows (views, not copies)."""
        return V.ParticleHitView(*(arr[: self.count] for arr in self.table))

    def set_rows(self, capacity: int = 256, **columns) -> None:
        """Replace the table by these rows (every field given), at least ``capacity`` rows."""
        n = len(next(iter(columns.values()))) if columns else 0
        self.table = _table(self.FIELDS, V.ParticleHitView, max(capacity, n))
        for name, arr in columns.items():
            getattr(self.table, name)[:n] = arr
        self.count = n


class CharacterStore:
    """The character movers' state (``views.CharacterView``): per body slot the character
    mark and the floor a mover ended its last move on, per shape row the mover response.

    Not a slot store: rows are the world's body slots (``GROUP`` "slot") and shape rows
    ("row"). The arrays start empty and grow to exactly the world's capacities when a call
    needs them (``fit``), so a world that never moved a character holds none. ``FIELDS`` is
    the schema as in :class:`SlotStore`; snapshots save every field, in this order, at its
    length.
    """

    FIELDS = {
        "ch_gen": ((), np.int64, -1),         # the body's generation when marked, else -1
        "floor": ((), np.int64, -1),          # body slot of the kinematic floor, -1: none
        "floor_gen": ((), np.int64, 0),       # its generation and pose (x, y, angle) then
        "floor_pose": ((3,), np.float64, 0.0),
        "resp": ((), np.int8, 0),             # mover response (tilemap.RESPONSES index)
        "resp_gen": ((), np.int64, -1),       # valid while the row's generation is this
        "floor_speed": ((2,), np.float64, 0.0),  # the floor's surface velocity (m/s)
    }
    GROUP = {"ch_gen": "slot", "floor": "slot", "floor_gen": "slot", "floor_pose": "slot",
             "resp": "row", "resp_gen": "row", "floor_speed": "slot"}
    TRANSIENT: frozenset = frozenset()
    #: Saved only when some row differs from the fill (as SlotStore.OPTIONAL).
    OPTIONAL = frozenset({"floor_speed"})
    View = V.CharacterView

    def __init__(self):
        object.__setattr__(self, "_view", None)
        for name, (shape, dtype, fill) in self.FIELDS.items():
            setattr(self, name, _arena.full((0,) + shape, fill, dtype=dtype))

    def __setattr__(self, name, value):
        if name in self.FIELDS:
            object.__setattr__(self, "_view", None)
        object.__setattr__(self, name, value)

    @classmethod
    def saved_fields(cls) -> dict:
        return {k: v for k, v in cls.FIELDS.items() if k not in cls.TRANSIENT}

    def length(self, group: str) -> int:
        """Rows of the arrays of ``group`` ("slot" or "row")."""
        name = next(n for n, g in self.GROUP.items() if g == group)
        return getattr(self, name).shape[0]

    def fit(self, n_bodies: int, n_shapes: int) -> None:
        """Hold at least ``n_bodies`` body slots and ``n_shapes`` shape rows (grown to exactly
        that, new rows filled with each field's default)."""
        want = {"slot": n_bodies, "row": n_shapes}
        for name, (_, _, fill) in self.FIELDS.items():
            arr = getattr(self, name)
            n = want[self.GROUP[name]]
            if arr.shape[0] < n:
                setattr(self, name, _grow(arr, n, fill))

    def pristine(self) -> bool:
        """True while every row holds its field's default (nothing was ever set)."""
        return all(bool(np.all(getattr(self, name) == fill))
                   for name, (_, _, fill) in self.FIELDS.items())

    def view(self):
        if self._view is None:
            object.__setattr__(self, "_view",
                               self.View(*(getattr(self, n) for n in self.View._fields)))
        return self._view


class MoveBuffers:
    """What a character move writes, kept between calls so a move allocates no outputs once
    the calls stop growing: a row per mover (``views.MoverView``), the contact table
    (``views.MoveContactView``, grown when a move reports it needs more rows), and the
    move's result record (``views.MOVE_STATE_DTYPE``)."""

    MOVER = {"vel": ((2,), np.float64, 0.0), "flags": ((), np.int64, 0),
             "first": ((), np.int64, 0), "count": ((), np.int64, 0),
             "floor_vel": ((2,), np.float64, 0.0), "drop": ((), np.bool_, False)}
    CONTACT = {"mover": ((), np.int64, 0), "normal": ((2,), np.float64, 0.0),
               "kind": ((), np.int64, 0), "obs": ((), np.int64, 0),
               "tile": ((2,), np.int64, 0), "own": ((), np.int64, 0),
               "resp": ((), np.int8, 0), "shape": ((), np.int64, 0),
               "tilemap": ((), np.int64, 0), "own_shape": ((), np.int64, 0)}

    def __init__(self):
        self.movers = _table(self.MOVER, V.MoverView, 16)
        self.contacts = _table(self.CONTACT, V.MoveContactView, 128)
        self.state = _arena.zeros(1, V.MOVE_STATE_DTYPE)

    def fit_movers(self, n: int) -> None:
        cap = self.movers.vel.shape[0]
        if n > cap:
            self.movers = _table(self.MOVER, V.MoverView, max(n, 2 * cap))

    def fit_contacts(self, n: int) -> None:
        cap = self.contacts.mover.shape[0]
        if n > cap:
            self.contacts = _table(self.CONTACT, V.MoveContactView, max(n, 2 * cap))
