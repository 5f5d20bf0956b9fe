"""The World: bodies and shapes in arrays, stepped by one compiled call.

Example
-------
>>> import collide2d as c2d
>>> world = c2d.World(gravity=(0, -10))
>>> ground = world.add_body(kind="static")
>>> _ = ground.add_box(20, 1, offset=(0, -0.5))
>>> box = world.add_body(position=(0, 2))
>>> _ = box.add_box(1, 1)
>>> for _ in range(120):
...     world.step(1 / 60)
>>> round(float(box.position[1]), 2)      # resting on the ground, centre 0.5 m up
0.5
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import _store as S
from . import _tiers
from . import _validate as V
from . import batch as _batch
from . import character as _character
from . import joint as _joint
from . import presolve as _presolve
from . import snapshot as _snapshot
from ._kernels import views as _views
from ._kernels.constants import C_TOUCHING, IGNORE, SENSOR, SOLID
from .batch import ShapeGeometry
from .body import Body, _ids_by_slot, _slots_of_ids
from .presolve import PreSolve
from .queries import Queries
from .shapes import COLLISION_TYPE_MAX, Shape

_integrate = _tiers.kernels("integrate")
_poses = _tiers.kernels("poses")
_step = _tiers.kernels("step")

_RESPONSES = {"ignore": IGNORE, "solid": SOLID, "sensor": SENSOR}
_INTEGRATORS = {"semi-implicit": S.SEMI_IMPLICIT, "euler": S.EXPLICIT}


class ContactEvent(NamedTuple):
    """A contact between two shapes (``shape_a.id < shape_b.id``). ``normal`` points from
    shape_a to shape_b; ``points`` (k, 2) are midway between the surfaces; ``impulse`` is
    the total normal impulse of the last step (N s). Sensor events carry no points."""

    shape_a: Shape
    shape_b: Shape
    normal: np.ndarray
    points: np.ndarray
    impulse: float


class ContactArrays(NamedTuple):
    """Contacts as arrays, one row per touching pair of shape ids (lower first)."""

    shape_a: np.ndarray
    shape_b: np.ndarray
    normal: np.ndarray
    points: np.ndarray
    count: np.ndarray
    impulse: np.ndarray


def _collision_type(name: str, value) -> int:
    """A collision type: an int in [0, 2**31)."""
    v = V.int64(name, value)
    if not 0 <= v <= COLLISION_TYPE_MAX:
        raise ValueError(f"{name}: collision types are ints in [0, {COLLISION_TYPE_MAX}], "
                         f"got {v}")
    return v


def _collision_types(between) -> tuple[int, int]:
    """``between=(type_a, type_b)``: two collision types."""
    if not isinstance(between, (tuple, list)) or len(between) != 2:
        raise TypeError(f"between: expected (type_a, type_b), got {between!r}")
    return tuple(_collision_type("between", t) for t in between)


def _oriented(ev: ContactEvent, types: tuple[int, int], between: tuple[int, int]):
    """The event as a handler for ``between`` sees it (shape_a of type_a), or None when
    the pair is not of those types."""
    if types == between:
        return ev
    if types == between[::-1]:
        return ContactEvent(ev.shape_b, ev.shape_a, 0.0 - ev.normal, ev.points, ev.impulse)
    return None


def _wanted(handlers):
    """The collision type pairs (both ways round) some handler selects, or None when one
    takes every pair."""
    if any(between is None for _, between in handlers):
        return None
    return {p for _, between in handlers for p in (between, between[::-1])}


def _merged(x, y):
    """Two ContactViews of rows in pair order, as one in pair order (copies)."""
    key = np.concatenate((x.a, y.a)) << 32 | np.concatenate((x.b, y.b))
    order = np.argsort(key, kind="stable")
    return _views.ContactView(*(np.concatenate((u, v))[order] for u, v in zip(x, y,
                                                                              strict=True)))


def _delegate(component: str, cls: type, name: str):
    """World's member ``name``, answered by one of its components (``self.<component>``, of
    class ``cls``): a method with the component method's signature and docstring
    (``help(World.raycast)`` shows the query's own), or a property, settable if the
    component's is."""
    member = getattr(cls, name)
    if isinstance(member, property):
        def get(self):
            return getattr(getattr(self, component), name)

        def set_(self, value):
            setattr(getattr(self, component), name, value)

        return property(get, set_ if member.fset is not None else None, doc=member.__doc__)

    @functools.wraps(member)
    def method(self, *args, **kwargs):
        return member(getattr(self, component), *args, **kwargs)

    return method


class StepProfile(NamedTuple):
    """Seconds each stage of one step took (``World.profile``), per stage name in the order
    the step runs them; substep stages are summed over the substeps. ``total`` is the
    whole step as profiled (each stage called from Python, so a little slower than
    ``step``)."""

    stages: dict
    substeps: int
    total: float


class World:
    """A 2D physics world. Units: metres, kilograms, seconds, radians; y up.

    Parameters
    ----------
    gravity : (gx, gy) in m/s^2.
    damping : fraction of every body's velocity kept after one second (1 keeps all).
    substeps : solver substeps per step (more: stiffer stacks, slower).
    max_substeps : None (default): every step takes ``substeps``. A larger int lets a step
        take up to that many, with the contacts stiffer in proportion, when its stacks
        would otherwise rest too deep in each other: tall stacks and heavy bodies on light
        ones hold, and only the steps that hold them pay (see ``substeps_used``).
    sleeping : let bodies at rest sleep (``world.sleeping = False`` to turn off).
    integrator : "semi-implicit" (default, stable: velocity first, then position from the
        new velocity) or "euler" (explicit Euler: position from the old velocity).
    dynamic_response : what two dynamic shapes do: "solid" (collide), "sensor" (overlap
        and report: characters that pass through each other) or "ignore".
    """

    def __init__(self, gravity=(0.0, -10.0), damping: float = 1.0, substeps: int = 4,
                 sleeping: bool = True, integrator: str = "semi-implicit",
                 dynamic_response: str = "solid", max_substeps: int | None = None):
        self._bodies = S.BodyStore()
        self._shapes = S.ShapeStore()
        self._queries = Queries(self)
        # The step's settings as the kernels read them; setters write them here.
        self._params = np.zeros(1, _views.PARAMS_DTYPE)
        # What the record holds of dt and the store counts (written only when they change).
        self._record = [0.0, -1, -1, 0]  # dt, n_bodies, n_shapes, the pre-solve flag
        # The record's bytes after a step that found the world settled and kept its tables
        # (None otherwise, and after any write that wakes a body or sets its motion:
        # _unsettle). While the record still reads so, the next step would keep them again
        # and change nothing: step skips the compiled call (_still_step).
        self._still: bytes | None = None
        self._wview: dict = {}  # id of a contact table -> the WorldView over it
        # (id(world view), id(step view)) -> the one-item list the compiled step takes
        # (_CompiledStep); two pairs at most, as the contact tables alternate
        self._listed: dict = {}
        for name, value in {**_EXTRAS, **_TOLERANCES}.items():
            self._params[0][name] = value
        self.bodies: list[Body] = []
        self._shape_handles: dict[int, Shape] = {}
        self.gravity = gravity
        # The gravity the contact table's impulses (the warm start) were solved under.
        self._solved_gravity = self._gravity.copy()
        self.damping = damping
        self.substeps = substeps
        self.max_substeps = max_substeps
        self._substeps_used = self._substeps  # the warm start's impulses are per substep
        self.sleeping = sleeping
        self.integrator = integrator
        self.dynamic_response = dynamic_response
        self.contact_hertz = 50.0
        self.contact_damping_ratio = 10.0
        self.joint_damping_ratio = _joint.JOINT_DAMPING_RATIO
        self.contact_push_speed = 3.0
        self.restitution_threshold = 1.0
        self.arcade_static_speed = 0.05
        self.time = 0.0
        # Contacts and sensor overlaps after the last step; the step's working buffers,
        # which also hold the tables the last step replaced (their ended rows).
        self._contacts = S.ContactStore()
        self._sensors = S.SensorStore()
        self._step_buffers = S.StepBuffers()
        self._rules = S.PairRules()  # set_pair_response, ignore_collisions
        self._callbacks: dict[str, list[Callable]] = {
            k: [] for k in ("contact_begin", "contact_persist", "contact_end", "sensor_begin",
                            "sensor_end", "pre_solve")}
        self._systems: list = []   # particle systems etc., stepped after the bodies
        self._shapes_dirty = True
        self._locked = False
        # Held from the start of a step to the end of its callbacks: one caller at a time.
        self._stepping = threading.Lock()
        self._characters = _character.Characters(self)  # movers and tile maps
        self._joints = _joint.Joints(self)

    # ------------------------------------------------------------------ settings
    @property
    def gravity(self) -> np.ndarray:
        return self._gravity.copy()

    @gravity.setter
    def gravity(self, value):
        self._gravity = V.vector("gravity", value)
        self._params[0]["gx"] = self._gravity[0]
        self._params[0]["gy"] = self._gravity[1]

    def _contact_setting(name, doc, positive=False):  # noqa: N805
        def get(self):
            return float(self._params[0][name])

        def set_(self, value):
            self._params[0][name] = V.finite_scalar(name, value, positive=positive,
                                                    nonnegative=True)

        return property(get, set_, doc=doc)

    contact_hertz = _contact_setting(
        "contact_hertz", "Contact spring stiffness (Hz, > 0) of the soft contact model. A "
        "stack sags by load / stiffness: 50 Hz (Box2D v3 uses 30) keeps the B = 40 pyramid "
        "within 0.09 m; the step caps it at a quarter of the substep rate.", positive=True)
    contact_damping_ratio = _contact_setting(
        "contact_damping_ratio", "Damping ratio (>= 0) of the contact springs.")
    joint_damping_ratio = _contact_setting(
        "joint_damping_ratio", "Damping ratio (>= 0) of the joints' stiff rows: anchors, "
        "limits, rods, locked angles (not their springs), 2 by default as Box2D v3's. Their "
        "stiffness comes from the substeps (twice the contact hertz, at most a quarter of "
        "the substep rate); a larger ratio keeps it and makes the rows rigid in velocity, "
        "correcting position more slowly: a heavy body held up by light ones through "
        "limits (a lander's legs pushed into their limits by motors) rests at 8 substeps "
        "with 20, where at 2 it rocks on the limits' springs.")
    contact_push_speed = _contact_setting(
        "contact_push_speed", "Fastest speed (m/s, >= 0) at which overlap is pushed out.")
    restitution_threshold = _contact_setting(
        "restitution_threshold", "Approach speed (m/s, >= 0) below which contacts do not "
        "bounce. Games in pixels-as-metres or small arenas may need it lower: a ball slower "
        "than this sticks instead of bouncing.")
    arcade_static_speed = _contact_setting(
        "arcade_static_speed", "Arcade bodies: tangential speed (m/s, >= 0) below which "
        "static friction holds.")
    del _contact_setting

    def _extra(name, doc):  # noqa: N805
        def get(self):
            return bool(self._params[0][name])

        def set_(self, value):
            self._params[0][name] = int(V.flag(name, value))

        return property(get, set_, doc=doc)

    mass_ratio_passes = _extra(
        "mass_ratio_passes", "Solver extra (on by default): three more biased passes per "
        "substep over the manifolds of bodies touching a dynamic body over four times "
        "heavier, so a light body under a heavy one holds. Costs those passes, in worlds "
        "with such mass ratios only.")
    shed_weight = _extra(
        "shed_weight", "Solver extra (on by default): when gravity changes, each contact's "
        "warm start is scaled by the load it will carry under the new gravity, so a "
        "settled stack does not pop when gravity is turned off. Costs one pass over the "
        "contacts, in the step after a change only.")
    restitution_energy_cap = _extra(
        "restitution_energy_cap", "Solver extra (on by default): a bounce is scaled back "
        "until the pair's kinetic energy is no more than it would have been with no contact "
        "(per-point bounce targets on a turning body could add energy: an elastic corner "
        "impact gained 0.8 %). Costs a few energy sums per bouncing manifold.")
    block_impacts = _extra(
        "block_impacts", "Solver extra (on by default): a two-point manifold hit squarely "
        "(both points approaching faster than 0.5 m/s) solves its two normal impulses "
        "together, so a box landing flat does not start spinning. Costs a 2x2 inverse per "
        "such manifold in the step it lands.")
    del _extra

    @property
    def time(self) -> float:
        """Simulated time (s): the sum of every step's dt."""
        return self._time

    @time.setter
    def time(self, value):
        self._time = V.finite_scalar("time", value)

    @property
    def damping(self) -> float:
        return self._damping

    @damping.setter
    def damping(self, value):
        d = V.finite_scalar("damping", value, nonnegative=True)
        if d > 1.0:
            raise ValueError(f"damping: must be in [0, 1] (fraction kept per second), got {d}")
        self._damping = d
        self._params[0]["damping"] = d

    @property
    def substeps(self) -> int:
        return self._substeps

    @substeps.setter
    def substeps(self, value):
        if (isinstance(value, bool) or not isinstance(value, (int, np.integer))
                or not 1 <= value <= S.MAX_SUBSTEPS):
            raise ValueError(f"substeps: must be an int in [1, {S.MAX_SUBSTEPS}], got {value!r}")
        self._substeps = int(value)
        self._params[0]["substeps"] = self._substeps

    @property
    def max_substeps(self) -> int | None:
        return self._max_substeps

    @max_substeps.setter
    def max_substeps(self, value):
        if value is not None and (isinstance(value, bool)
                                  or not isinstance(value, (int, np.integer))
                                  or not 1 <= value <= S.MAX_SUBSTEPS):
            raise ValueError(f"max_substeps: must be None or an int in [1, {S.MAX_SUBSTEPS}], "
                             f"got {value!r}")
        self._max_substeps = None if value is None else int(value)
        self._params[0]["max_substeps"] = self._max_substeps or 0

    @property
    def substeps_used(self) -> int:
        """Substeps the last step took: ``substeps``, or more (up to ``max_substeps``) while
        a stack needs them. A step takes more when the resting depth predicted from the
        contacts (each spring's load / stiffness, loads handed down from the top of each
        stack) is over 0.1 m down a stack or 1 cm at one contact: the depth falls with the
        square of the substep count. Against switching to and fro, the count only drops back
        once it is more than depths twice as deep would need.

        >>> w = World(max_substeps=8)
        >>> w.step(1 / 60)
        >>> w.substeps_used
        4
        """
        return self._substeps_used

    @property
    def sleeping(self) -> bool:
        return self._sleeping

    @sleeping.setter
    def sleeping(self, value):
        self._sleeping = V.flag("sleeping", value)
        self._params[0]["sleeping"] = int(self._sleeping)
        self._unsettle()
        if not self._sleeping:
            b = self._bodies
            live = (b.flags[: b.count] & S.B_ALIVE) != 0
            b.flags[: b.count][live] |= S.B_AWAKE

    @property
    def integrator(self) -> str:
        return self._integrator

    @integrator.setter
    def integrator(self, value):
        self._integrator = V.choice("integrator", value, _INTEGRATORS)
        self._params[0]["explicit"] = _INTEGRATORS[self._integrator]

    @property
    def dynamic_response(self) -> str:
        return self._dynamic_response

    @dynamic_response.setter
    def dynamic_response(self, value):
        self._dynamic_response = V.choice("dynamic_response", value, _RESPONSES)
        self._params[0]["dynamic_response"] = _RESPONSES[self._dynamic_response]
        self._pairs_changed()

    def set_pair_response(self, type_a: int, type_b: int, response: str | None) -> None:
        """What shapes of collision types ``type_a`` and ``type_b`` do when they meet:
        "solid", "sensor" (overlap events only) or "ignore"; None drops the rule. It
        replaces the world-wide default (``dynamic_response`` for two dynamic bodies,
        "solid" otherwise) for such pairs; the shapes' own filters (category, mask, group),
        sensor shapes, and pairs of immovable bodies are as before.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0), dynamic_response="ignore")  # heroes pass
        >>> CRATE = 4
        >>> world.set_pair_response(CRATE, CRATE, "solid")                 # crates do not
        >>> a = world.add_body(position=(0, 0), velocity=(2, 0)).add_box(1, 1)
        >>> b = world.add_body(position=(2, 0)).add_box(1, 1)
        >>> a.collision_type = b.collision_type = CRATE
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> round(float(b.body.velocity[0]), 2)       # pushed: both at 1 m/s after the hit
        1.0
        """
        ta = _collision_type("type_a", type_a)
        tb = _collision_type("type_b", type_b)
        r = None if response is None else _RESPONSES[V.choice("response", response,
                                                              _RESPONSES)]
        self._rules.set_types(ta, tb, r)
        self._pairs_changed()

    def ignore_collisions(self, body_a: Body, body_b: Body, ignore: bool = True) -> None:
        """Shapes of ``body_a`` never collide with (nor sense) shapes of ``body_b``, whatever
        their filters; ``ignore=False`` undoes it. The rule goes when either body is
        removed.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> floor = world.add_body(kind="static")
        >>> _ = floor.add_box(10, 1, offset=(0, -0.5))
        >>> ghost = world.add_body(position=(0, 0.5))
        >>> _ = ghost.add_box(1, 1)
        >>> world.ignore_collisions(ghost, floor)
        >>> for _ in range(30):
        ...     world.step(1 / 60)
        >>> bool(ghost.position[1] < 0)                                      # fell through
        True
        """
        for name, body in (("body_a", body_a), ("body_b", body_b)):
            if not isinstance(body, Body):
                raise TypeError(f"{name}: expected a Body, got {type(body).__name__}")
            if body._world is not self:
                raise ValueError(f"{name}: this body belongs to another world")
        sa, sb = body_a._s(), body_b._s()
        if sa == sb:
            raise ValueError("body_b: the same body as body_a (a body's shapes never collide "
                             "with each other)")
        self._rules.set_bodies(sa, sb, V.flag("ignore", ignore))
        self._pairs_changed()

    # ------------------------------------------------------------------ bodies
    def add_body(self, kind: str = "dynamic", position=(0.0, 0.0), angle: float = 0.0,
                 velocity=(0.0, 0.0), angular_velocity: float = 0.0, *, bullet: bool = False,
                 fixed_rotation: bool = False, damping: float = 1.0,
                 angular_damping: float = 1.0, gravity_scale: float = 1.0,
                 arcade: bool = False) -> Body:
        """Add a body and return its handle; add shapes to it with ``body.add_box`` etc.

        ``kind``: "static" (never moves), "kinematic" (moves by its velocity, pushes
        dynamic bodies, is not pushed) or "dynamic". Positions in m, angle in radians.
        """
        self._check_unlocked()
        k = S.KIND_NAMES.get(kind) if isinstance(kind, str) else None
        if k is None:
            raise ValueError(f"kind: expected 'static', 'kinematic' or 'dynamic', got {kind!r}")
        p = V.real_vector("position", position, bounded=True)
        a = V.finite_scalar("angle", angle)
        v = V.real_vector("velocity", velocity, bounded=True)
        w = V.finite_scalar("angular_velocity", angular_velocity)
        if k == S.STATIC and (v[0] != 0.0 or v[1] != 0.0 or w != 0.0):
            name = "angular_velocity" if v[0] == 0.0 and v[1] == 0.0 else "velocity"
            raise ValueError(f"{name}: a static body never moves, so it takes no velocity; "
                             "use kind='kinematic' for a body that moves by its velocity")
        d = V.finite_scalar("damping", damping, nonnegative=True)
        ad = V.finite_scalar("angular_damping", angular_damping, nonnegative=True)
        gs = V.finite_scalar("gravity_scale", gravity_scale)
        V.check_bound("gravity_scale", gs)
        bullet = V.flag("bullet", bullet)
        fixed_rotation = V.flag("fixed_rotation", fixed_rotation)
        arcade = V.flag("arcade", arcade)
        for name, value in (("damping", d), ("angular_damping", ad)):
            if value > 1.0:
                raise ValueError(f"{name}: must be in [0, 1] (fraction of velocity kept per "
                                 f"second), got {value}")
        st = self._bodies
        slot = st.alloc()
        st.pos[slot] = p
        st.angle[slot] = a
        if k != S.STATIC:
            st.vel[slot] = v
            st.angvel[slot] = 0.0 if (fixed_rotation or arcade) else w
        st.kind[slot] = k
        st.damping[slot] = d
        st.angular_damping[slot] = ad
        st.gravity_scale[slot] = gs
        st.flags[slot] = (S.B_ALIVE | S.B_AWAKE | (S.B_BULLET if bullet else 0)
                          | (S.B_FIXED_ROTATION if (fixed_rotation or arcade) else 0)
                          | (S.B_ARCADE if arcade else 0))
        st.order[slot] = len(self.bodies)
        body = Body(self, slot)
        self.bodies.append(body)
        body._update_mass()
        self._shapes_dirty = True
        return body

    def remove(self, item) -> None:
        """Remove a body (with its shapes and joints), a single shape or a joint. Their
        handles then raise."""
        self._check_unlocked()
        if isinstance(item, _joint.Joint):
            self._joints.remove(item)
            return
        if isinstance(item, (Body, Shape)) and item._world is not self:
            raise ValueError("item: this body or shape belongs to another world")
        if isinstance(item, Body):
            slot = item._s()
            self._joints.remove_body(slot)
            self._remove_shapes(list(item._shapes))
            st = self._bodies
            idx = int(st.order[slot])
            self._rules.drop_body(slot)
            st.release(slot)
            del self.bodies[idx]
            n = st.count
            later = ((st.flags[:n] & S.B_ALIVE) != 0) & (st.order[:n] > idx)
            st.order[:n][later] -= 1
        elif isinstance(item, Shape):
            item._check()
            self._remove_shapes([item])
            item.body._update_mass()
        else:
            raise TypeError(f"item: expected a Body, Shape or Joint, got "
                            f"{type(item).__name__}")
        self._topology_changed()

    def _remove_shapes(self, shapes: list) -> None:
        """Remove shapes of one body: one pass over the tables for all of them."""
        if not shapes:
            return
        st = self._shapes
        rows = np.fromiter((r for shape in shapes for r in shape._rows), dtype=np.int64)
        # Whatever rested on these shapes must wake up and fall; a mover on them is no
        # longer carried by a conveyor among them.
        touching = self._wake_touching(rows)
        self._characters.floor_removed(shapes[0].body._s())
        for r in rows.tolist():
            st.release(r)
        gone = set()
        for shape in shapes:
            self._shape_handles.pop(shape._rows[0], None)
            gone.add(id(shape))
        owner = shapes[0].body._shapes
        owner[:] = [shape for shape in owner if id(shape) not in gone]
        # Drop the contacts and sensor overlaps that name a removed row.
        for table, named in zip((self._contacts, self._step_buffers.asleep), touching,
                                strict=True):
            table.keep(~named)
        sensors = self._sensors.rows()
        self._sensors.keep(np.isin(sensors.a, rows, invert=True)
                           & np.isin(sensors.b, rows, invert=True))
        self._tables_changed()

    def _wake_touching(self, rows) -> tuple:
        """Wake every body in contact with one of the shape ``rows`` (their clocks restart);
        returns which rows of the contact table, and of the sleeping rows, name one of
        them."""
        named = []
        body = self._shapes.body
        b = self._bodies
        for table in (self._contacts, self._step_buffers.asleep):
            c = table.rows()
            touching = np.isin(c.a, rows) | np.isin(c.b, rows)
            others = np.unique(np.concatenate((body[c.a[touching]], body[c.b[touching]])))
            b.flags[others] |= S.B_AWAKE
            b.sleep_time[others] = 0.0
            named.append(touching)
        self._unsettle()
        return tuple(named)

    def _topology_changed(self) -> None:
        self._shapes_dirty = True

    def _pairs_changed(self) -> None:
        """A filter, material, pair rule or joint changed: the next step rebuilds the
        tables even if nothing moves (see _kernels/settled.py), and finds every pair again
        (_kernels/proxies.py)."""
        self._params[0]["settled"] = 0
        self._params[0]["pairs_kept"] = 0

    def _poses_changed(self) -> None:
        self._shapes_dirty = True

    def _check_unlocked(self) -> None:
        if self._locked:
            raise RuntimeError("world: cannot add or remove while the world is stepping; "
                               "do it after step() returns")

    def shape(self, shape_id: int) -> Shape:
        """The Shape handle with this id (as found in events and query arrays)."""
        if isinstance(shape_id, bool) or not isinstance(shape_id, (int, np.integer)):
            raise TypeError(f"shape_id: expected an int, got {type(shape_id).__name__}")
        try:
            return self._shape_handles[int(shape_id)]
        except KeyError:
            raise ValueError(f"shape_id: no live shape has id {shape_id}") from None

    # ------------------------------------------------------------------ arrays
    def _live_slots(self) -> np.ndarray:
        """Slots of the live bodies in ``world.bodies`` order, from the ``order`` column."""
        st = self._bodies
        live = np.flatnonzero(st.flags[: st.count] & S.B_ALIVE)
        slots = np.empty(live.size, dtype=np.int64)
        slots[st.order[live]] = live
        return slots

    def positions(self, ids=None) -> np.ndarray:
        """Body origins (m), as ``body.position`` gives them, for many bodies at once.

        Parameters
        ----------
        ids : (n,) int array_like, optional
            Body ids (see ``Body.id``); None: every body, in ``world.bodies`` order.

        Returns
        -------
        (n, 2) float64 ndarray, a copy.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> a = world.add_body(position=(1, 2))
        >>> b = world.add_body(position=(3, 4))
        >>> world.positions().tolist(), world.positions([b.id]).tolist()
        ([[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0]])
        """
        return self._bodies.pos[_batch.slots(self, ids)]

    def angles(self, ids=None) -> np.ndarray:
        """Body angles (rad, counter-clockwise), as ``body.angle`` gives them, for many bodies
        at once.

        Parameters
        ----------
        ids : (n,) int array_like, optional
            Body ids (see ``Body.id``); None: every body, in ``world.bodies`` order.

        Returns
        -------
        (n,) float64 ndarray, a copy.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body(angle=0.5)
        >>> world.angles().tolist(), world.angles([body.id]).tolist()
        ([0.5], [0.5])
        """
        return self._bodies.angle[_batch.slots(self, ids)]

    def velocities(self, ids=None) -> np.ndarray:
        """Velocities of the centres of mass (m/s), as ``body.velocity`` gives them, for many
        bodies at once.

        Parameters
        ----------
        ids : (n,) int array_like, optional
            Body ids (see ``Body.id``); None: every body, in ``world.bodies`` order.

        Returns
        -------
        (n, 2) float64 ndarray, a copy.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body(velocity=(2, 0))
        >>> world.velocities([body.id]).tolist()
        [[2.0, 0.0]]
        """
        return self._bodies.vel[_batch.slots(self, ids)]

    def _sync_shapes(self) -> None:
        """World-space vertices and boxes for queries, if anything moved since the step."""
        if not self._shapes_dirty:
            return
        b, s = self._bodies, self._shapes
        self._params[0]["n_shapes"] = self._record[2] = s.count
        _poses.update_shapes(b.pos, b.angle, b.rot, b.kind, s.view(), self._params, 0)
        self._shapes_dirty = False

    # ------------------------------------------------------------------ step
    def _begin_step(self, dt) -> tuple:
        """Validate dt, bring the step's record up to date (only what changed since the
        last step: the step itself leaves the record describing the world it left), size
        the buffers: (dt, world view, buffers)."""
        if type(dt) is not float or not 0.0 < dt <= MAX_DT:
            dt = V.finite_scalar("dt", dt, positive=True)
            if dt > MAX_DT:
                raise ValueError(f"dt: at most {MAX_DT:g} s per step (bodies moving at the "
                                 f"bounded speeds must stay within the coordinate bound), got "
                                 f"{dt!r}")
        b, s = self._bodies, self._shapes
        if dt != self._record[0]:
            self._params[0]["dt"] = dt
            self._record[0] = dt
        if b.count != self._record[1] or s.count != self._record[2]:
            self._params[0]["n_bodies"] = self._record[1] = b.count
            self._params[0]["n_shapes"] = self._record[2] = s.count
        # The compiled step stops for pre-solve only while a callback is registered.
        presolve = 1 if self._callbacks["pre_solve"] else 0
        if presolve != self._record[3]:
            self._params[0]["presolve"] = self._record[3] = presolve
        buffers = self._step_buffers
        if b.capacity > buffers.body_capacity:
            buffers.fit(b.capacity, 0)
        if s.vlocal.shape[0] > buffers.vertex_capacity:
            buffers.fit_vertices(s.vlocal.shape[0])
        bv, sv, ct, sn = b.view(), s.view(), self._contacts.table, self._sensors.table
        jv = self._joints.store.view()
        rv = self._rules.step_view(self._joints.store.keys)
        # The contact and sensor tables alternate with the buffers' from step to step: one
        # view is kept per table, so the compiled step sees the same two objects in turn
        # and checks each one's types once (_CompiledStep).
        w = self._wview.get(id(ct))
        if (w is None or w.contacts is not ct or w.sensors is not sn or w.bodies is not bv
                or w.shapes is not sv or w.rules is not rv or w.joints is not jv):
            if len(self._wview) > 1:
                self._wview.clear()
            w = self._wview[id(ct)] = _views.WorldView(bv, sv, ct, sn, rv, jv)
        return dt, w, buffers

    @property
    def _shapes_dirty(self) -> bool:
        """True when poses changed since the shapes were placed (the step places them)."""
        return not self._params[0]["shapes_fresh"]

    @_shapes_dirty.setter
    def _shapes_dirty(self, value) -> None:
        self._params[0]["shapes_fresh"] = 0 if value else 1
        if value:
            # A pose or the shapes changed: the tables must be rebuilt even if a query
            # places the shapes again before the next step (_kernels/settled.py), and the
            # pairs found again (the shapes may be others: _kernels/proxies.py).
            self._params[0]["settled"] = 0
            self._params[0]["pairs_kept"] = 0

    @property
    def _solved_gravity(self) -> np.ndarray:
        """The gravity the contact table's impulses (the warm start) were solved under."""
        prm = self._params[0]
        return np.array((prm["solved_gx"], prm["solved_gy"]))

    @_solved_gravity.setter
    def _solved_gravity(self, value) -> None:
        self._params[0]["solved_gx"], self._params[0]["solved_gy"] = value

    @property
    def _substeps_used(self) -> int:
        return int(self._params[0]["substeps_prev"])

    @_substeps_used.setter
    def _substeps_used(self, value) -> None:
        self._params[0]["substeps_prev"] = value

    def _tables_changed(self) -> None:
        """The contact or sensor table was edited outside a step (a removal, a restore)."""
        self._params[0]["n_contacts"] = self._contacts.count
        self._params[0]["n_sensors"] = self._sensors.count
        self._params[0]["n_asleep"] = self._step_buffers.asleep.count

    def _grow(self, buffers, stage: int) -> None:
        """A stage asked for more rows than the step's tables hold."""
        need = int(buffers.state[0]["need"])
        if stage == _step.PAIRS:
            buffers.fit(0, need)
            buffers.fit_asleep(need, int(self._params[0]["n_asleep"]))
        else:
            buffers.fit_sensors(need)

    def _end_step(self, dt, buffers, kept: bool = False) -> None:
        """After the compiled step: the tables it wrote become the world's (unless it kept
        the world's own: a settled step), then systems and callbacks."""
        if not kept:
            self._contacts = buffers.swap_contacts(self._contacts)
            self._sensors = buffers.swap_sensors(self._sensors)
        buffers.asleep.count = buffers.read("n_asleep")
        self._time += dt  # dt was checked: finite, positive, at most MAX_DT
        self._joints.after_step(buffers.read("n_broken"))
        for system in list(self._systems):
            system._step(dt)
        try:
            self._dispatch()
        finally:
            self._joints.dispatch_breaks()

    def _raise_non_finite(self, buffers) -> None:
        slot = int(buffers.state[0]["need"])
        raise ValueError(f"body {int(self._bodies.order[slot])} (world.bodies index): its "
                         "position, angle, velocity or force is NaN or inf; the step was not "
                         "taken")

    def step(self, dt: float) -> None:
        """Advance the world by ``dt`` seconds (> 0), then run callbacks and systems.

        The stages (``collide2d._kernels.step.STAGES``) run in one compiled call;
        ``profile`` runs the same stages one by one and times each. A world whose bodies
        all sleep, with nothing changed through its handles or setters since the last step,
        skips that call (it would change nothing) and only advances ``time``.

        One caller at a time: ``step`` (or ``profile``) called from a callback of this
        world, or from another thread while it steps, raises ``RuntimeError`` and changes
        nothing. Adding and removing bodies from a callback is fine."""
        if (self._still is not None and not self._systems and not any(self._callbacks.values())
                and not self._stepping.locked() and self._still_step(dt)):
            self._time += dt  # (a still step with no system or callback: _still_step)
            return
        self._enter_step()
        _tiers.enter()  # the whole step runs in one tier (see _tiers)
        try:
            self._step(dt)
        finally:
            _tiers.leave()
            self._stepping.release()

    def _check_systems(self) -> None:
        """Systems whose state the user can write directly check it before anything moves."""
        for system in self._systems:
            check = getattr(system, "_check_finite", None)
            if check is not None:
                check()

    def _enter_step(self) -> None:
        if not self._stepping.acquire(blocking=False):
            raise RuntimeError("world: step() was called while this world is stepping (from "
                               "one of its callbacks, or from another thread); step it from "
                               "one place, after step() returns")

    def _step(self, dt) -> None:
        self._check_systems()
        if self._still is not None and self._still_step(dt):
            self._end_step(dt, self._step_buffers, True)
            return
        self._still = None
        dt, w, buffers = self._begin_step(dt)
        self._locked = True
        stage = 0
        pre_error = None
        try:
            first = 0
            while True:
                stage = _run_step(w, self._params, buffers.view(), first, self._listed)
                if stage == _step.DONE or stage == _step.KEPT:
                    break
                if stage == _step.NON_FINITE:
                    self._raise_non_finite(buffers)
                if stage == _step.PRESOLVE:
                    pre_error = self._pre_solve(buffers)
                else:
                    self._grow(buffers, stage)
                first = stage
        except BaseException:
            if stage != _step.NON_FINITE:
                self._shapes_dirty = True  # the kernel may have fattened boxes
            raise
        finally:
            self._locked = False
        if stage == _step.KEPT:
            # (Taken before the callbacks: what they write makes the next step run.)
            self._still = self._params.tobytes()
        try:
            self._end_step(dt, buffers, stage == _step.KEPT)
        finally:
            if pre_error is not None:
                raise pre_error

    def _still_step(self, dt) -> bool:
        """Whether a step of ``dt`` would find the world as the last one left it: settled,
        its tables kept (``run_step``'s ``KEPT``), nothing written since. Such a step
        changes nothing but the time (the kept step at ``settled`` 2 writes the record's
        values back), so the compiled call is skipped. Every write that could make the
        compiled step run changes the record (poses, shapes, filters, rules, joints,
        settings: ``settled`` or a setting) or wakes a body or sets its velocity or force
        (``_unsettle``); the same dt, counts and no pre-solve callback are checked here, as
        ``_begin_step`` would write them."""
        r = self._record
        return (type(dt) is float and dt == r[0] and self._bodies.count == r[1]
                and self._shapes.count == r[2] and not self._callbacks["pre_solve"]
                and self._params.tobytes() == self._still)

    def _unsettle(self) -> None:
        """A body woke, or its velocity, force or flags were written: the next step runs."""
        self._still = None

    def _pre_solve(self, buffers):
        """The pre-solve callbacks on the step's contacts (the step's buffers' table); the
        first exception one raised, to raise once the step is done."""
        return _presolve.run_pre_solve(self, buffers.contacts.table, buffers.arrays["material"],
                                       int(buffers.state[0]["n_contacts"]),
                                       self._callbacks["pre_solve"])

    def profile(self, dt: float) -> StepProfile:
        """Take one step like ``step(dt)``, running its stages one by one from Python, and
        return the seconds each took (Box2D's ``b2Profile``). The world ends exactly as
        ``step`` would leave it: the same stages in the same order.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body(kind="static").add_box(10, 1)
        >>> _ = world.add_body(position=(0, 1)).add_box(1, 1)
        >>> prof = world.profile(1 / 60)
        >>> list(prof.stages)[:4]
        ['place', 'pairs', 'collide', 'prepare']
        """
        self._enter_step()
        _tiers.enter()
        try:
            return self._profile(dt)
        finally:
            _tiers.leave()
            self._stepping.release()

    def _profile(self, dt: float) -> StepProfile:
        import time

        self._check_finite()
        self._check_systems()
        dt, w, buffers = self._begin_step(dt)
        # The stages one by one always rebuild the tables; whether the next step may keep
        # them is left to a step (run_step's check).
        self._params[0]["settled"] = 0
        times = {name: 0.0 for name, _, _ in _step.STAGES}
        clock = time.perf_counter
        start = clock()
        self._locked = True
        pre_error = None
        # Each stage is one compiled call on the views in a one-item list (run_stage): a
        # call with the views themselves would time their unboxing, not the stage.
        items = _step.listed((w, buffers.view()), 1)
        try:
            for k, (name, _, per_substep) in enumerate(_step.STAGES):
                if per_substep:
                    continue
                t0 = clock()
                while _step.run_stage(items, self._params, k):
                    self._grow(buffers, _step.PAIRS if name == "pairs" else _step.SENSORS)
                    items = _step.listed((w, buffers.view()), 1)
                times[name] += clock() - t0
                if name == "collide" and self._params[0]["presolve"]:
                    pre_error = self._pre_solve(buffers)  # as run_step's PRESOLVE return
                    items = _step.listed((w, buffers.view()), 1)
                if name == "prepare":
                    self._profile_substeps(items, buffers, times)
        except BaseException:
            self._shapes_dirty = True
            raise
        finally:
            self._locked = False
        total = clock() - start
        _step.run_stage(items, self._params, _step.END_RECORD)
        try:
            self._end_step(dt, buffers)
        finally:
            if pre_error is not None:
                raise pre_error
        return StepProfile(times, int(buffers.state[0]["substeps"]), total)

    def _profile_substeps(self, items, buffers, times) -> None:
        st = buffers.state[0]
        clock = __import__("time").perf_counter
        substep_stages = [(k, name) for k, (name, _, per) in enumerate(_step.STAGES) if per]
        # As run_step's loop (step.substep_loop): contact rows or joints to solve.
        loop = st["n_rows"] > 0 or st["n_joints_on"] > 0
        for sub in range(int(st["substeps"]) if loop else 0):
            st["sub"] = sub
            for k, name in substep_stages:
                t0 = clock()
                _step.run_stage(items, self._params, k)
                times[name] += clock() - t0

    def _check_finite(self) -> None:
        b = self._bodies
        slot = _integrate.first_non_finite(b.pos, b.angle, b.vel, b.angvel, b.force, b.torque,
                                           b.flags, b.count)
        if slot >= 0:
            raise ValueError(f"body {int(b.order[slot])} (world.bodies index): its position, "
                             "angle, velocity or force is NaN or inf; the step was not taken")

    def _contact_rows(self):
        """The world's contact rows after the last step (a ContactView, pair order): the
        table the step wrote and the sleeping rows (_kernels/asleep.py), merged."""
        c = self._contacts.rows()
        d = self._step_buffers.asleep.rows()
        if not len(d.a) or d.ended.all():
            return c
        return _merged(c, _views.ContactView(*(arr[~d.ended] for arr in d)))

    def _ended_contacts(self):
        """Rows that ended in the last step (a ContactView, pair order): of the table it
        replaced, and sleeping rows whose pair went or woke apart."""
        old = self._step_buffers.contacts.rows()
        ended = _views.ContactView(*(arr[old.ended] for arr in old))
        d = self._step_buffers.asleep.rows()
        if not d.ended.any():
            return ended
        return _merged(ended, _views.ContactView(*(arr[d.ended] for arr in d)))

    def _ended_sensors(self):
        old = self._step_buffers.sensors.rows()
        return _views.SensorView(*(arr[old.ended] for arr in old))

    def _event_rows(self, name: str, wanted) -> list:
        """The solid rows of the last step's ``contact_begin``, ``contact_persist`` or
        ``contact_end`` events as (table, row) pairs, in the order ``_contact_rows`` /
        ``_ended_contacts`` give them (pair order where sleeping rows merge in), and only
        those whose collision types are in ``wanted`` (None: all). Selected from the few
        columns that decide, where those views copy every field of every row: a step with
        events in a small world cost 75 us, most of a walker environment's step."""
        end = name == "contact_end"
        store = self._step_buffers.contacts if end else self._contacts
        d = self._step_buffers.asleep
        col = self._shapes.collision_type
        out = []
        for table, n, aside in ((store.table, store.count, False), (d.table, d.count, True)):
            if n == 0:
                continue
            # Begin and end rows are few: found by their flag, then checked one by one.
            if end or name == "contact_begin":
                rows = np.flatnonzero((table.ended if end else table.began)[:n]).tolist()
                if aside and not end:
                    rows = [i for i in rows if not table.ended[i]]
                rows = [i for i in rows if table.resp[i] == SOLID]
            else:
                sel = ((table.flags[:n] & C_TOUCHING) != 0) & ~table.began[:n]
                sel &= table.resp[:n] == SOLID
                if aside:
                    sel &= ~table.ended[:n]
                rows = np.flatnonzero(sel).tolist()
            if wanted is not None:
                ta, tb = table.a, table.b
                rows = [i for i in rows if (int(col[ta[i]]), int(col[tb[i]])) in wanted]
            out.extend((table, i) for i in rows)
        if len(out) > 1:
            # The views merge the sleeping rows in, by pair, when any take part.
            sleeping = d.table.ended[:d.count]
            if sleeping.any() if end else not sleeping.all():
                out.sort(key=lambda r: int(r[0].a[r[1]]) << 32 | int(r[0].b[r[1]]))
        return out

    # ------------------------------------------------------------------ queries
    # Answered by the Queries component (queries.py); the docstrings are its methods'.
    raycast = _delegate("_queries", Queries, "raycast")
    raycast_many = _delegate("_queries", Queries, "raycast_many")
    raycast_all = _delegate("_queries", Queries, "raycast_all")
    query_point = _delegate("_queries", Queries, "query_point")
    query_points = _delegate("_queries", Queries, "query_points")
    query_aabb = _delegate("_queries", Queries, "query_aabb")
    query_shape = _delegate("_queries", Queries, "query_shape")
    shape_cast = _delegate("_queries", Queries, "shape_cast")
    add_particles = _delegate("_queries", Queries, "add_particles")

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> bytes:
        """The whole world as bytes (format in :mod:`collide2d.snapshot`).

        ``World.restore(data)`` gives a world that steps on bit-identically. Callbacks are
        not saved (register them again); systems must implement the snapshot protocol.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body(position=(1, 2)).add_circle(0.5)
        >>> data = world.snapshot()
        >>> data[:7]
        b'C2DSNAP'
        >>> c2d.World.restore(data).bodies[0].position.tolist()
        [1.0, 2.0]
        """
        return _snapshot.save(self)

    @classmethod
    def restore(cls, data) -> World:
        """A new world from ``World.snapshot()`` bytes.

        Raises ``ValueError`` for anything that is not an intact snapshot of this format
        (truncated, damaged, inconsistent or hostile data), ``TypeError`` if ``data`` is not
        bytes; nothing is executed and no large allocation happens before the data is
        checked.

        Example
        -------
        >>> import collide2d as c2d
        >>> c2d.World.restore(b"not a snapshot")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: data: not a valid collide2d snapshot: 14 bytes is shorter ...
        """
        return _snapshot.load(cls, data)

    def __deepcopy__(self, memo) -> World:
        return _snapshot.deep_copy(self, memo)

    def __reduce__(self):
        """Pickle through the snapshot: the world travels as its snapshot bytes (to another
        process, a Ray actor, a multiprocessing pool) and is rebuilt with ``restore``, so an
        unpickled world steps on bit-identically. As with snapshots, callbacks are not
        carried (register them again); body, shape and joint handles pickled with their
        world come back as the restored world's handles.

        Example
        -------
        >>> import pickle
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> ball = world.add_body(position=(0, 3))
        >>> _ = ball.add_circle(0.5)
        >>> copy, ball_copy = pickle.loads(pickle.dumps((world, ball)))
        >>> ball_copy is copy.bodies[0], copy.snapshot() == world.snapshot()
        (True, True)
        """
        return (type(self).restore, (self.snapshot(),))

    # ------------------------------------------------------------------ contacts and events
    def contacts(self) -> ContactArrays:
        """Touching solid contacts after the last step, as arrays (shape ids, lower first)."""
        c = self._contact_rows()
        return self._contact_arrays(c, (c.resp == SOLID) & ((c.flags & C_TOUCHING) != 0),
                                    c.impulse)

    def contact_begin_events(self) -> ContactArrays:
        """Solid contacts that began in the last step."""
        c = self._contact_rows()
        return self._contact_arrays(c, (c.resp == SOLID) & c.began, c.impulse)

    def contact_end_events(self) -> ContactArrays:
        """Solid contacts that ended in the last step (normal and points as last seen)."""
        c = self._ended_contacts()
        return self._contact_arrays(c, c.resp == SOLID, np.zeros((len(c.a), 2)))

    def sensor_overlaps(self) -> np.ndarray:
        """Every pair of shapes currently overlapping where one is a sensor (or both are
        dynamic with ``dynamic_response="sensor"``): a (k, 2) array of shape ids, lower id
        first, sorted."""
        rows = self._sensors.rows()
        return self._owner_pairs(rows.a, rows.b)

    def _owner_pairs(self, a, b) -> np.ndarray:
        own = self._shapes.owner
        pairs = np.column_stack((own[a], own[b])) if len(a) else np.empty((0, 2), np.int64)
        pairs.sort(axis=1)
        return np.unique(pairs, axis=0) if len(pairs) else pairs.astype(np.int64)

    def _contact_arrays(self, c, sel, impulse) -> ContactArrays:
        own = self._shapes.owner
        a, b = own[c.a[sel]], own[c.b[sel]]
        normal = c.normal[sel].copy()
        flip = a > b
        a2 = np.where(flip, b, a)
        b2 = np.where(flip, a, b)
        normal[flip] *= -1.0
        return ContactArrays(a2, b2, normal, c.point[sel].copy(), c.count[sel].copy(),
                             impulse[sel].sum(axis=1))

    def on_contact_begin(self, fn: Callable[[ContactEvent], None] | None = None, *,
                         between: tuple[int, int] | None = None) -> Callable:
        """Call ``fn(event)`` after each step for every contact that began.

        Parameters
        ----------
        fn : callable
            Called with a :class:`ContactEvent`.
        between : (type_a, type_b), optional
            Only contacts between a shape of ``collision_type`` type_a and one of type_b,
            with ``event.shape_a`` the one of type_a (and the normal from it to shape_b).

        Returns
        -------
        fn, so that it also works as a decorator (``@world.on_contact_begin`` or
        ``@world.on_contact_begin(between=(1, 2))``).

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> floor = world.add_body(kind="static").add_box(10, 1, offset=(0, -0.5))
        >>> floor.collision_type = 7
        >>> ball = world.add_body(position=(0, 0.5)).add_circle(0.5)
        >>> ball.collision_type = 3
        >>> @world.on_contact_begin(between=(3, 7))
        ... def landed(event):
        ...     print(event.shape_a is ball, event.normal.round(3).tolist())
        >>> world.step(1 / 60)
        True [0.0, -1.0]
        """
        return self._add_callback("contact_begin", fn, between)

    def on_contact_persist(self, fn: Callable[[ContactEvent], None] | None = None, *,
                           between: tuple[int, int] | None = None) -> Callable:
        """Call ``fn(event)`` after each step for every contact that was touching before the
        step and still touches (not on the step it began).

        Parameters
        ----------
        fn : callable
            Called with a :class:`ContactEvent` (``impulse``: the step's normal impulse, N s).
        between : (type_a, type_b), optional
            Only contacts between collision types type_a and type_b, shape_a of type_a (as
            :meth:`on_contact_begin`).

        Returns
        -------
        fn, so that it also works as a decorator.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> _ = world.add_body(kind="static").add_box(10, 1, offset=(0, -0.5))
        >>> _ = world.add_body(position=(0, 0.5)).add_box(1, 1)
        >>> resting = []
        >>> @world.on_contact_persist
        ... def on_rest(event):
        ...     resting.append(event.impulse > 0)
        >>> for _ in range(3):
        ...     world.step(1 / 60)
        >>> resting  # began on the first step, persisted on the next two
        [True, True]
        """
        return self._add_callback("contact_persist", fn, between)

    def on_contact_end(self, fn: Callable[[ContactEvent], None] | None = None, *,
                       between: tuple[int, int] | None = None) -> Callable:
        """Call ``fn(event)`` after each step for every contact that stopped touching in it
        (shapes removed since are not reported).

        Parameters
        ----------
        fn : callable
            Called with a :class:`ContactEvent` describing the contact as it last touched.
        between : (type_a, type_b), optional
            Only contacts between collision types type_a and type_b, shape_a of type_a (as
            :meth:`on_contact_begin`).

        Returns
        -------
        fn, so that it also works as a decorator.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> _ = world.add_body(kind="static").add_box(10, 1, offset=(0, -0.5))
        >>> box = world.add_body(position=(0, 0.5))
        >>> _ = box.add_box(1, 1)
        >>> ended = []
        >>> _ = world.on_contact_end(lambda event: ended.append(event.shape_b.body is box))
        >>> world.step(1 / 60)
        >>> box.velocity = (0, 8)            # jump off the ground
        >>> for _ in range(5):
        ...     world.step(1 / 60)
        >>> ended
        [True]
        """
        return self._add_callback("contact_end", fn, between)

    def on_sensor_begin(self, fn: Callable[[ContactEvent], None] | None = None, *,
                        between: tuple[int, int] | None = None) -> Callable:
        """Call ``fn(event)`` after each step for every sensor overlap that began in it
        (``shape_a.id < shape_b.id``, or with ``between=(type_a, type_b)`` only overlaps
        of those collision types, shape_a of type_a; no points, impulse 0). Returns fn,
        so that it also works as a decorator. See :attr:`Shape.collision_type` for an
        example."""
        return self._add_callback("sensor_begin", fn, between)

    def on_sensor_end(self, fn: Callable[[ContactEvent], None] | None = None, *,
                      between: tuple[int, int] | None = None) -> Callable:
        """Call ``fn(event)`` after each step for every sensor overlap that ended in it
        (``shape_a.id < shape_b.id``; no points, impulse 0).

        Parameters
        ----------
        fn : callable
            Called with a :class:`ContactEvent`.
        between : (type_a, type_b), optional
            Only overlaps between collision types type_a and type_b, shape_a of type_a.

        Returns
        -------
        fn, so that it also works as a decorator.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> zone = world.add_body(kind="static").add_box(2, 2, sensor=True)
        >>> ball = world.add_body(position=(0, 0))
        >>> _ = ball.add_circle(0.5)
        >>> left = []
        >>> _ = world.on_sensor_end(lambda event: left.append(zone in (event.shape_a,
        ...                                                               event.shape_b)))
        >>> world.step(1 / 60)
        >>> ball.position = (10, 0)          # out of the zone
        >>> world.step(1 / 60)
        >>> left
        [True]
        """
        return self._add_callback("sensor_end", fn, between)

    def on_pre_solve(self, fn: Callable[[PreSolve], None] | None = None, *,
                     between: tuple[int, int] | None = None) -> Callable:
        """Call ``fn(pre)`` once per step, after the step has found its contacts and before
        it solves them, with those contacts as arrays (:class:`PreSolve`): one Python call
        per step however many contacts.

        ``pre`` holds one row per contact manifold the solver is about to solve (a contact
        between bodies that sleep, or sleep against fixed ones, is left out until one wakes:
        nothing solves it, as in Box2D v3 and pymunk): ``shape_a``,
        ``shape_b`` (shape ids, lower first), ``body_a``, ``body_b`` (body ids), ``normal``
        (from shape_a to shape_b), ``points``, ``count``, ``separation`` (m), ``new`` (began
        this step); and four arrays to write into, prefilled with what the solver would use:
        ``enabled`` (False: not solved this step), ``friction``, ``elasticity`` and
        ``surface_speed`` (m/s, see :attr:`Shape.surface_speed`). What ``fn`` writes holds
        for this step only.

        A disabled contact is still a contact: its events fire and ``contacts()`` lists it
        (impulse 0); its accumulated impulses are dropped, so it starts from zero when next
        solved (as in Box2D v3 and pymunk). Fast bodies' sweeps (the continuous stage) and
        arcade bodies' friction and elasticity do not read ``pre``; to let two things pass
        for good, use :meth:`set_pair_response` or :meth:`ignore_collisions`.

        The world is mid-step while ``fn`` runs: ``step`` raises ``RuntimeError``, adding or
        removing bodies raises; read the world, write ``pre``. If ``fn`` raises, or writes
        a negative or non-finite friction or elasticity (or a non-finite surface speed), its
        writes are dropped, the other callbacks still run, the step completes as if it had
        written nothing, and the first exception is raised once the step is done. With no
        callback registered the compiled step never stops for pre-solve (it costs nothing).

        Parameters
        ----------
        fn : callable
            Called with a :class:`PreSolve`.
        between : (type_a, type_b), optional
            Only contacts between a shape of ``collision_type`` type_a and one of type_b,
            oriented so that ``pre.shape_a`` is the one of type_a (normal from it to
            shape_b); what ``fn`` writes goes back to the right contacts.

        Returns
        -------
        fn, so that it also works as a decorator (``@world.on_pre_solve`` or
        ``@world.on_pre_solve(between=(1, 2))``).

        Example
        -------
        A ghost crate (collision type 2) passes through the floor (type 1) and nothing
        else does:

        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> floor = world.add_body(kind="static").add_box(10, 1, offset=(0, -0.5))
        >>> floor.collision_type = 1
        >>> ghost = world.add_body(position=(-2, 0.5))
        >>> ghost.add_box(1, 1).collision_type = 2
        >>> crate = world.add_body(position=(2, 0.5))
        >>> _ = crate.add_box(1, 1)
        >>> @world.on_pre_solve(between=(1, 2))
        ... def let_through(pre):
        ...     pre.enabled[:] = False
        >>> for _ in range(30):
        ...     world.step(1 / 60)
        >>> bool(ghost.position[1] < -0.5), round(float(crate.position[1]), 2)
        (True, 0.5)
        """
        return self._add_callback("pre_solve", fn, between)

    def _add_callback(self, name: str, fn, between):
        """Register ``(fn, between)``; with fn None, a decorator that does."""
        if between is not None:
            between = _collision_types(between)
        if fn is None:
            return lambda f: self._add_callback(name, f, between)
        if not callable(fn):
            raise TypeError(f"fn: expected a callable for on_{name}, got {type(fn).__name__}")
        self._callbacks[name].append((fn, between))
        return fn

    def _dispatch(self) -> None:
        """Run the callbacks on the last step's events.

        Every event is built before the first callback runs, so each callback sees the
        step as it ended whatever the others do (remove bodies, change shapes). If
        callbacks raise, the others still run and get every event; the first exception is
        raised again once all have run."""
        cb = self._callbacks
        if not any(cb.values()) or not self._may_have_events():
            return
        calls = []
        for name in ("contact_begin", "contact_persist", "contact_end"):
            if cb[name]:
                current = name != "contact_end"
                events = (self._event(table, i, current)
                          for table, i in self._event_rows(name, _wanted(cb[name])))
                calls.append((list(cb[name]), [ev for ev in events if ev is not None]))
        for name in ("sensor_begin", "sensor_end"):
            if not cb[name]:
                continue
            if name == "sensor_begin":
                rows = self._sensors.rows()
                a, b = rows.a[rows.began], rows.b[rows.began]
            else:
                gone = self._ended_sensors()
                a, b = gone.a, gone.b
            events = []
            for pair in self._owner_pairs(a, b):
                sh_a = self._shape_handles.get(int(pair[0]))
                sh_b = self._shape_handles.get(int(pair[1]))
                if sh_a is not None and sh_b is not None:
                    events.append(ContactEvent(sh_a, sh_b, np.zeros(2), np.empty((0, 2)), 0.0))
            calls.append((list(cb[name]), events))
        first_error = None
        for handlers, events in calls:
            # Collision types are read before any callback runs (one may remove a shape).
            types = ([(ev.shape_a.collision_type, ev.shape_b.collision_type) for ev in events]
                     if any(between is not None for _, between in handlers) else None)
            for k, ev in enumerate(events):
                for fn, between in handlers:
                    arg = ev if between is None else _oriented(ev, types[k], between)
                    if arg is None:
                        continue
                    try:
                        fn(arg)
                    except Exception as exc:  # the others still get their events
                        if first_error is None:
                            first_error = exc
        if first_error is not None:
            raise first_error

    def _may_have_events(self) -> bool:
        """Whether a registered callback could have an event this step: a row that began,
        one that ended, or (for ``contact_persist``) any row at all. A look at the tables'
        flags, where building the events (masks and views of every field) costs tens of
        microseconds a step, most of a small world's step in a game or an environment
        that listens for begin and end."""
        cb = self._callbacks
        c = self._contacts
        d = self._step_buffers.asleep
        # (count_nonzero: a third of ndarray.any's cost on a few flags)
        if cb["contact_persist"] and (c.count or d.count):
            return True
        if cb["contact_begin"] and np.count_nonzero(c.table.began[:c.count]):
            return True
        old = self._step_buffers.contacts
        if cb["contact_end"] and (np.count_nonzero(old.table.ended[:old.count])
                                  or np.count_nonzero(d.table.ended[:d.count])):
            return True
        s = self._sensors
        if cb["sensor_begin"] and np.count_nonzero(s.table.began[:s.count]):
            return True
        gone = self._step_buffers.sensors
        return bool(cb["sensor_end"]) and np.count_nonzero(gone.table.ended[:gone.count]) > 0

    def on_joint_break(self, fn: Callable) -> Callable:
        """Register ``fn(joint)``, called after each step for every joint that broke in it
        (its reaction passed ``break_force`` or ``break_torque``; it is now disabled and
        still in ``world.joints``). Usable as a decorator; returns ``fn``.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> ground = world.add_body(kind="static")
        >>> weight = world.add_body(position=(0, -1))
        >>> _ = weight.add_circle(0.2, density=100)
        >>> rod = world.add_distance_joint(ground, weight, (0, 0), (0, -1))
        >>> rod.break_force = 10.0
        >>> @world.on_joint_break
        ... def snapped(joint):
        ...     print("broke:", joint.kind)
        >>> world.step(1 / 60)
        broke: distance
        >>> rod.enabled
        False
        """
        if not callable(fn):
            raise TypeError(f"fn: expected a callable for on_joint_break, got "
                            f"{type(fn).__name__}")
        self._joints.on_break.append(fn)
        return fn

    @property
    def joints(self) -> list:
        """The live joints, in creation order (a new list)."""
        return list(self._joints.handles)

    def joint_geometry(self) -> _joint.JointGeometry:
        """Every live joint for drawing, as arrays in creation order: ``kind`` codes
        (``collide2d.JOINT_KINDS`` names them), ``anchor_a``, ``anchor_b`` and ``axis``
        (n, 2) in world frame (axis zero where the kind has none), ``enabled`` (n,).

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> a = world.add_body(kind="static")
        >>> b = world.add_body(position=(1, 0))
        >>> _ = b.add_circle(0.1)
        >>> _ = world.add_revolute_joint(a, b, (0, 0))
        >>> g = world.joint_geometry()
        >>> c2d.JOINT_KINDS[g.kind[0]], g.anchor_b.tolist()
        ('revolute', [[0.0, 0.0]])
        """
        return self._joints.geometry()

    add_revolute_joint = _delegate("_joints", _joint.Joints, "add_revolute_joint")
    add_prismatic_joint = _delegate("_joints", _joint.Joints, "add_prismatic_joint")
    add_wheel_joint = _delegate("_joints", _joint.Joints, "add_wheel_joint")
    add_distance_joint = _delegate("_joints", _joint.Joints, "add_distance_joint")
    add_weld_joint = _delegate("_joints", _joint.Joints, "add_weld_joint")
    add_motor_joint = _delegate("_joints", _joint.Joints, "add_motor_joint")
    add_mouse_joint = _delegate("_joints", _joint.Joints, "add_mouse_joint")
    add_gear_joint = _delegate("_joints", _joint.Joints, "add_gear_joint")
    add_angle_joint = _delegate("_joints", _joint.Joints, "add_angle_joint")
    set_motors = _delegate("_joints", _joint.Joints, "set_motors")

    def _event(self, c, i, current) -> ContactEvent | None:
        own = self._shapes.owner
        a, b = int(own[c.a[i]]), int(own[c.b[i]])
        sa, sb = self._shape_handles.get(a), self._shape_handles.get(b)
        if sa is None or sb is None:
            return None
        normal = c.normal[i].copy()
        if a > b:
            sa, sb = sb, sa
            normal = -normal
        k = int(c.count[i])
        impulse = float(c.impulse[i][:k].sum()) if current else 0.0
        return ContactEvent(sa, sb, normal, c.point[i][:k].copy(), impulse)


    # ------------------------------------------------------------------ body ids and batches
    # Body ids (Body.id) name bodies in every array API. Getters take ``ids=None`` for every
    # body in ``world.bodies`` order; setters validate everything before writing anything.
    def body(self, body_id) -> Body:
        """The Body handle with this id (as found in query and particle hit arrays).

        Raises ``ValueError`` for the id of a removed body (even when a new body took its
        place: that one has another id) and for ints that never were an id.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> a = world.add_body()
        >>> b = world.add_body()
        >>> old_id = a.id
        >>> world.remove(a)
        >>> world.body(b.id) is b
        True
        >>> c = world.add_body()                 # takes a's place in the arrays
        >>> c.id != old_id
        True
        >>> try:
        ...     world.body(old_id)
        ... except ValueError:
        ...     print("removed")
        removed
        """
        if isinstance(body_id, bool) or not isinstance(body_id, (int, np.integer)):
            raise TypeError(f"body_id: expected an int, got {type(body_id).__name__}")
        v = int(body_id)
        if not 0 <= v < (1 << 63):
            raise ValueError(f"body_id: {v} is not the id of a live body")
        slot = int(_slots_of_ids(self._bodies, "body_id", np.array([v], np.int64))[0])
        return self.bodies[int(self._bodies.order[slot])]

    def body_ids(self) -> np.ndarray:
        """Ids (see ``Body.id``) of every body, in ``world.bodies`` order: (n,) int64.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> bodies = [world.add_body() for _ in range(3)]
        >>> world.body_ids().tolist() == [b.id for b in world.bodies]
        True
        """
        return _ids_by_slot(self._bodies)[self._live_slots()]

    def angular_velocities(self, ids=None) -> np.ndarray:
        """Angular velocities (rad/s, counter-clockwise): (n,) float64; ``ids`` as in
        :meth:`positions`.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body(angular_velocity=1.5)
        >>> world.angular_velocities([body.id]).tolist()
        [1.5]
        """
        return self._bodies.angvel[_batch.slots(self, ids)]

    def kinds(self, ids=None) -> np.ndarray:
        """Body kinds as strings ("static", "kinematic", "dynamic"): (n,); ``ids`` as in
        :meth:`positions`.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body(kind="static"), world.add_body()
        >>> world.kinds().tolist()
        ['static', 'dynamic']
        """
        return _batch.kinds(self, ids)

    def masses(self, ids=None) -> np.ndarray:
        """Masses (kg) as ``body.mass`` gives them (inf for static and kinematic bodies):
        (n,) float64; ``ids`` as in :meth:`positions`.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body(kind="static")
        >>> _ = world.add_body().add_box(1, 2, density=3)
        >>> world.masses().tolist()
        [inf, 6.0]
        """
        return _batch.masses(self, ids)

    def inertias(self, ids=None) -> np.ndarray:
        """Moments of inertia about the centres of mass (kg m^2) as ``body.inertia`` gives
        them (inf for bodies that cannot turn): (n,) float64; ``ids`` as in
        :meth:`positions`.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body().add_box(1, 1, density=12)
        >>> _ = world.add_body(fixed_rotation=True).add_box(1, 1)
        >>> world.inertias().tolist()
        [2.0, inf]
        """
        return _batch.inertias(self, ids)

    def gravity_scales(self, ids=None) -> np.ndarray:
        """``body.gravity_scale`` of many bodies: (n,) float64; ``ids`` as in
        :meth:`positions`.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> _ = world.add_body(gravity_scale=-0.5)
        >>> world.gravity_scales().tolist()
        [-0.5]
        """
        return self._bodies.gravity_scale[_batch.slots(self, ids)]

    def awake(self, ids=None) -> np.ndarray:
        """``body.awake`` of many bodies (False while asleep): (n,) bool; ``ids`` as in
        :meth:`positions`.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body()
        >>> body.awake = False
        >>> world.awake().tolist()
        [False]
        """
        return (self._bodies.flags[_batch.slots(self, ids)] & S.B_AWAKE) != 0

    def set_positions(self, ids, positions) -> None:
        """Set ``body.position`` of many bodies at once; like the single setter, this wakes
        them.

        Parameters
        ----------
        ids : (n,) int array_like
            Body ids (see ``Body.id``), each at most once (``ValueError`` otherwise).
        positions : (n, 2) array_like
            New body origins (m), finite.

        Raises ``ValueError`` (bad shape, NaN or inf, a removed body's id, a repeated id)
        or ``TypeError`` (not numbers) naming the argument; the world is then unchanged.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> a, b = world.add_body(), world.add_body()
        >>> world.set_positions([b.id, a.id], [(0, 5), (1, 1)])
        >>> a.position.tolist(), b.position.tolist()
        ([1.0, 1.0], [0.0, 5.0])
        """
        _batch.set_rows(self, ids, "positions", positions, "pos", 2, pose=True)

    def set_angles(self, ids, angles) -> None:
        """Set ``body.angle`` (rad) of many bodies at once, waking them; ``ids`` and errors
        as in :meth:`set_positions`, ``angles`` (n,).

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body()
        >>> world.set_angles([body.id], [0.25])
        >>> body.angle
        0.25
        """
        _batch.set_rows(self, ids, "angles", angles, "angle", None, pose=True)

    def set_velocities(self, ids, velocities) -> None:
        """Set ``body.velocity`` (m/s) of many bodies at once, waking them; ``ids`` and
        errors as in :meth:`set_positions`, ``velocities`` (n, 2). As with the single
        setter, a static body takes none: a nonzero row for one raises ``ValueError``.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body()
        >>> world.set_velocities([body.id], [(3, 4)])
        >>> body.velocity.tolist()
        [3.0, 4.0]
        """
        _batch.set_rows(self, ids, "velocities", velocities, "vel", 2, pose=False)

    def set_angular_velocities(self, ids, angular_velocities) -> None:
        """Set ``body.angular_velocity`` (rad/s) of many bodies at once, waking them;
        ``ids`` and errors as in :meth:`set_positions`, ``angular_velocities`` (n,).

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body()
        >>> world.set_angular_velocities([body.id], [2.0])
        >>> body.angular_velocity
        2.0
        """
        _batch.set_rows(self, ids, "angular_velocities", angular_velocities, "angvel", None,
                        pose=False)

    def apply_forces(self, ids, forces, points=None) -> None:
        """``body.apply_force(force, point)`` for many bodies at once.

        Forces (N) add up until the next step; a repeated id adds each of its forces.
        Static and kinematic bodies are skipped, as by the single call; dynamic ones wake.

        Parameters
        ----------
        ids : (n,) int array_like
            Body ids (see ``Body.id``); repeats allowed.
        forces : (n, 2) array_like
            Forces (N), finite.
        points : (n, 2) array_like, optional
            World points where they act (m); None: the centres of mass (no torque).

        Raises ``ValueError`` / ``TypeError`` naming the argument (bad shape, NaN or inf, a
        removed body's id); the world is then unchanged.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> body = world.add_body()
        >>> _ = body.add_box(1, 1)                       # 1 kg
        >>> world.apply_forces([body.id, body.id], [(30, 0), (30, 0)])
        >>> world.step(0.5)
        >>> body.velocity.tolist()
        [30.0, 0.0]
        """
        _batch.apply(self, ids, "forces", forces, points, impulse=False)

    def apply_impulses(self, ids, impulses, points=None) -> None:
        """``body.apply_impulse(impulse, point)`` for many bodies at once: velocities change
        now. Repeats add up; static and kinematic bodies are skipped; arguments and errors
        as in :meth:`apply_forces` (``impulses`` in N s).

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body()
        >>> _ = body.add_box(1, 1, density=2)            # 2 kg
        >>> world.apply_impulses([body.id], [(4, 0)])
        >>> body.velocity.tolist()
        [2.0, 0.0]
        """
        _batch.apply(self, ids, "impulses", impulses, points, impulse=True)

    def apply_torques(self, ids, torques) -> None:
        """``body.apply_torque(torque)`` for many bodies at once (N m, (n,)): repeats add
        up, static and kinematic bodies are skipped, dynamic ones wake; errors as in
        :meth:`apply_forces`.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> body = world.add_body()
        >>> _ = body.add_circle(1)
        >>> world.apply_torques([body.id], [1.0])
        >>> world.step(0.1)
        >>> body.angular_velocity > 0
        True
        """
        _batch.apply_torques(self, ids, torques)

    def shape_geometry(self) -> ShapeGeometry:
        """Every live shape's convex parts in the world frame, as arrays (for drawing).

        Returns
        -------
        ShapeGeometry
            One row per convex part: ``shape`` and ``body`` ids, ``sensor``, ``radius``,
            ``offset`` and ``count`` into ``vertices`` (v, 2), and ``aabb`` (m, 4); see
            :class:`~collide2d.batch.ShapeGeometry`. Copies, at the shapes' current poses.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body(position=(1, 0))
        >>> box = body.add_box(2, 2)
        >>> g = world.shape_geometry()
        >>> g.shape.tolist() == [box.id], g.body.tolist() == [body.id], g.count.tolist()
        (True, True, [4])
        >>> g.vertices.tolist(), g.aabb.tolist()
        ([[0.0, -1.0], [2.0, -1.0], [2.0, 1.0], [0.0, 1.0]], [[0.0, -1.0, 2.0, 1.0]])
        """
        return _batch.shape_geometry(self)

    def shape_bodies(self, shape_ids) -> np.ndarray:
        """Body ids (see ``Body.id``) of the shapes with these ids, in the same array shape
        (a (k, 2) array of ``sensor_overlaps()`` pairs gives (k, 2) body ids). Raises
        ``ValueError`` for an id that is not a live shape's.

        Examples
        --------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> body = world.add_body()
        >>> shape = body.add_circle(1)
        >>> world.shape_bodies([shape.id]).tolist() == [body.id]
        True
        """
        return _batch.shape_bodies(self, shape_ids)

    @property
    def particle_systems(self) -> list:
        """The particle systems of this world (``add_particles``), in the order added."""
        from .particles import Particles

        return [s for s in self._systems if isinstance(s, Particles)]

    # ------------------------------------------------------------------ characters
    # Character movers and tile maps live in the Characters component (collide2d.character).
    character_response = _delegate("_characters", _character.Characters, "character_response")
    character_skin = _delegate("_characters", _character.Characters, "character_skin")
    oneway_margin = _delegate("_characters", _character.Characters, "oneway_margin")
    tilemaps = _delegate("_characters", _character.Characters, "tilemaps")
    add_tilemap = _delegate("_characters", _character.Characters, "add_tilemap")
    remove_tilemap = _delegate("_characters", _character.Characters, "remove_tilemap")
    set_response = _delegate("_characters", _character.Characters, "set_response")
    response = _delegate("_characters", _character.Characters, "response")
    set_character = _delegate("_characters", _character.Characters, "set_character")
    is_character = _delegate("_characters", _character.Characters, "is_character")
    move_and_slide = _delegate("_characters", _character.Characters, "move_and_slide")
    move_and_slide_many = _delegate("_characters", _character.Characters, "move_and_slide_many")

class _CompiledStep:
    """The compiled step, called past Numba's dispatcher for arguments whose types it
    checked.

    The dispatcher works out the type of every argument on every call: for the step's
    hundred and fifty arrays in nested namedtuples that is most of a small world's step.
    So the views go in as one pair in a one-item typed list (``run_listed``), unboxed as
    one object where an entry taking the views unboxes each array (1.5 us). A world keeps
    its lists (``World._listed``, a list per pair of view objects: a store rebuilds its
    view only when it replaces an array, and the two contact tables alternate, so two pairs
    at a time; a third replaces them, so a list never keeps a world's outgrown arrays
    alive); each list's type, and each record's, is checked once against the one compiled
    signature, and later calls with checked objects go straight to its entry point.
    Anything unchecked goes through the dispatcher. (Large worlds took the views
    themselves through a second entry while the step behind the list ran slower there;
    with the step's callees inlined into each entry (``_jit._internalize_linked_kernels``)
    the list is as fast on every scene of the benchmark, and a world that grows past a few
    dozen shapes no longer compiles the step a second time.)
    """

    _LIMIT = 64

    def __init__(self):
        self.checked: dict[int, object] = {}  # id -> the record (kept, so the id is its)
        self.types: dict = {}  # (class, fingerprint) -> Numba type
        self.list_entry = None
        self.list_signature = None

    def __call__(self, w, p, t, first, held=None):
        """``run_step`` on views ``w``, ``t`` and record ``p`` from stage ``first``;
        ``held`` the world's dict of lists (None: a list made for this call)."""
        # (A list is made by the step's tier: the compiled step's, or the twin's plain list.)
        key = (id(w), id(t), _step._tier)
        item = None if held is None else held.get(key)
        if item is not None and item[3] and id(p) in self.checked:
            return self.list_entry(item[2], p, first)
        if item is None:
            item = (w, t, _step.listed((w, t), 1), False)
            if held is not None:
                if len(held) > 1:
                    held.clear()
                held[key] = item
        result = _step.run_listed(item[2], p, first)
        if held is not None and key in held:  # (not if the call switched the tier)
            held[key] = (w, t, item[2], self._check_listed(p, item[2]))
        return result

    @staticmethod
    def _one(kernel) -> tuple:
        """The kernel's one compiled signature and its entry point, or (None, None): pure
        Python, or more than one signature (always dispatch). With one signature it stays
        the same for the tier (a tier switch starts afresh), so it is read once: reading it
        hashes its types, 35 us."""
        overloads = getattr(kernel, "overloads", None)
        if overloads is None or len(overloads) != 1:
            return None, None
        signature, overload = next(iter(overloads.items()))
        return signature, overload.entry_point

    def _check_listed(self, p, items) -> bool:
        """Check the record (kept by id) and the list against the compiled signature:
        whether the list may go straight to the entry point."""
        if self.list_signature is None:
            self.list_signature, self.list_entry = self._one(_step.run_listed)
        if self.list_signature is None:
            return False
        if id(p) not in self.checked:
            if len(self.checked) > self._LIMIT:
                self.checked.clear()
            if self._typeof(p) == self.list_signature[1]:
                self.checked[id(p)] = p
        return items._list_type == self.list_signature[0]

    def _typeof(self, obj):
        """``numba.typeof(obj)``, remembered by the object's class and Numba's fingerprint of
        it (the dispatcher's own key for argument types): typing afresh took most of a new
        world's first step; the fingerprint takes 9 us."""
        import numba
        from numba import _dispatcher

        key = (type(obj), _dispatcher.compute_fingerprint(obj))
        typ = self.types.get(key)
        if typ is None:
            if len(self.types) > self._LIMIT:
                self.types.clear()
            typ = self.types[key] = numba.typeof(obj)
        return typ


_run_step = _CompiledStep()
_tiers.on_switch(lambda: _run_step.__init__())  # the checked entry point is one tier's


# The longest step (s): a day. Positions and speeds are bounded by COORD_MAX; a step this
# long keeps what they reach finite.
MAX_DT = 86400.0

# Engine tolerances (m, m/s, rad/s, s).
LINEAR_SLOP = 0.005
SPECULATIVE_DISTANCE = 4.0 * LINEAR_SLOP
SLEEP_LINEAR = 0.05
SLEEP_ANGULAR = math.radians(2.0)
TIME_TO_SLEEP = 0.5

# Solver extras (World settings of the same names), all on by default.
_EXTRAS = {"mass_ratio_passes": 1, "shed_weight": 1,
           "restitution_energy_cap": 1, "block_impacts": 1}
_TOLERANCES = {"margin": SPECULATIVE_DISTANCE, "slop": LINEAR_SLOP,
               "sleep_linear": SLEEP_LINEAR, "sleep_angular": SLEEP_ANGULAR,
               "time_to_sleep": TIME_TO_SLEEP}
