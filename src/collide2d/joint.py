"""Joints: Joint handles and the world's Joints component (creation, validation, removal,
breaking, the drawing view and the snapshot section).

A Joint is a thin view of one row of the joint store (``_store.JointStore``), like Body.
Anchors and axes are given in **world coordinates at creation** and kept in the bodies'
frames; angles are relative (angle_b - angle_a minus its value at creation). The solver is
Box2D v3's soft step (``_kernels/joints.py``): stiff rows take the joints' softness,
springs their own hertz and damping ratio (k = m_eff (2 pi f)^2, m_eff the joint's
effective mass).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import _store as S
from . import _tiers
from . import _validate as V
from ._kernels import constants as K
from ._kernels.joint_common import I_LOWER as _I_LOWER
from ._kernels.joint_common import I_MOTOR as _I_MOTOR
from ._kernels.joint_common import I_SPRING as _I_SPRING
from ._kernels.joint_common import I_UPPER as _I_UPPER

#: Joint kind names by code (``world.joint_geometry().kind`` holds the codes).
JOINT_KINDS = ("revolute", "prismatic", "wheel", "distance", "weld", "motor", "mouse", "gear",
               "angle")
#: The kinds with a motor (``motor_speed`` and ``max_motor_torque`` / ``max_motor_force``).
MOTOR_KINDS = frozenset(("revolute", "prismatic", "wheel", "angle"))

_jc = _tiers.kernels("joint_common")
_INF = math.inf
#: ``World.joint_damping_ratio``'s default: the stiff rows' damping ratio, Box2D v3's.
JOINT_DAMPING_RATIO = 2.0
# The store fields a joint's row flags depend on (Joints._flags): setting any other leaves
# them as they are.
_FLAG_FIELDS = frozenset(("lower", "upper", "max_motor", "hertz"))


class JointGeometry(NamedTuple):
    """Live joints in creation order, for drawing: kind codes (``JOINT_KINDS``), anchors
    in world frame (m), the axis of prismatic and wheel joints (zeros for the others) and
    whether each joint is enabled."""

    kind: np.ndarray
    anchor_a: np.ndarray
    anchor_b: np.ndarray
    axis: np.ndarray
    enabled: np.ndarray


# Settable keywords: name -> (store field, kinds, what it takes). "limit" values may be
# None (no limit); "angle" any finite number; "nonneg" finite >= 0; "positive" > 0.
_KW = {
    "lower_angle": ("lower", ("revolute",), "lower"),
    "upper_angle": ("upper", ("revolute",), "upper"),
    "lower": ("lower", ("prismatic", "wheel", "angle"), "lower"),
    "upper": ("upper", ("prismatic", "wheel", "angle"), "upper"),
    "min_length": ("lower", ("distance",), "lower"),
    "max_length": ("upper", ("distance",), "upper"),
    "motor_speed": ("motor_speed", ("revolute", "prismatic", "wheel", "angle"), "real"),
    "max_motor_torque": ("max_motor", ("revolute", "wheel", "angle"), "nonneg"),
    "max_motor_force": ("max_motor", ("prismatic",), "nonneg"),
    "spring_hertz": ("hertz", ("revolute", "prismatic", "wheel", "distance", "angle"),
                     "nonneg"),
    "spring_damping_ratio": ("zeta", ("revolute", "prismatic", "wheel", "distance", "angle"),
                             "nonneg"),
    "target_angle": ("target", ("revolute", "angle"), "real"),
    "target_translation": ("target", ("prismatic",), "real"),
    "linear_hertz": ("hertz", ("weld",), "nonneg"),
    "angular_hertz": ("hertz2", ("weld",), "nonneg"),
    "linear_damping_ratio": ("zeta", ("weld",), "nonneg"),
    "angular_damping_ratio": ("zeta2", ("weld",), "nonneg"),
    "max_force": ("max_force", ("motor", "mouse"), "nonneg"),
    "max_torque": ("max_torque", ("motor",), "nonneg"),
    "correction_factor": ("correction", ("motor",), "unit"),
    "angular_offset": ("ref_angle", ("motor",), "real"),
    "hertz": ("hertz", ("mouse",), "nonneg"),
    "damping_ratio": ("zeta", ("mouse",), "nonneg"),
    "ratio": ("ratio", ("gear",), "real"),
}

# A mouse joint's light angular damping (hertz, damping ratio), as Box2D's.
_MOUSE_ANGULAR = (0.5, 0.1)


def _kind_code(name: str) -> int:
    return JOINT_KINDS.index(name)


def _pose(world, slot):
    b = world._bodies
    a = float(b.angle[slot])
    return b.pos[slot].copy(), math.cos(a), math.sin(a), a


def _to_local(world, slot, point):
    p, c, s, _ = _pose(world, slot)
    dx, dy = point[0] - p[0], point[1] - p[1]
    return np.array((c * dx + s * dy, -s * dx + c * dy))


def _to_world(world, slot, local):
    p, c, s, _ = _pose(world, slot)
    return np.array((p[0] + c * local[0] - s * local[1], p[1] + s * local[0] + c * local[1]))


class Joint:
    """A joint between two bodies. Create with ``world.add_revolute_joint(...)`` and the
    other ``world.add_*_joint`` methods; ``world.remove(joint)`` removes it.

    Units: metres, radians (counter-clockwise), newtons, newton metres. ``angle`` is
    angle_b - angle_a minus its value at creation; ``translation`` B's anchor from A's
    along the axis; ``speed`` the rate of either (or of ``length``, a distance joint's
    anchor distance). ``reaction_force`` (N, on B) and ``reaction_torque`` (N m: the
    joint's own torque, limit + motor + spring) are the last step's. A mouse joint's
    ``body_a`` is None (its anchor A is the target point).

    Every keyword of the creation call is a settable property of the same name; a change
    wakes the bodies. A removed joint's handle (or one whose body was removed) raises
    ``ValueError``.

    Example
    -------
    >>> import collide2d as c2d
    >>> world = c2d.World(gravity=(0, -10))
    >>> ground = world.add_body(kind="static")
    >>> arm = world.add_body(position=(1, 0))
    >>> _ = arm.add_circle(0.1)
    >>> hinge = world.add_revolute_joint(ground, arm, (0, 0))
    >>> hinge.kind, hinge.body_a is ground
    ('revolute', True)
    >>> for _ in range(30):
    ...     world.step(1 / 60)
    >>> bool(hinge.angle < 0)  # the arm swings down, clockwise
    True
    """

    __slots__ = ("_world", "_slot", "_gen", "__weakref__")

    def __init__(self, world, slot: int):
        self._world = world
        self._slot = slot
        self._gen = int(world._joints.store.generation[slot])

    def _s(self) -> int:
        st = self._world._joints.store
        if st.generation[self._slot] != self._gen or not st.flags[self._slot] & K.J_ALIVE:
            raise ValueError("joint: this joint was removed from its world (or one of its "
                             "bodies was)")
        return self._slot

    @property
    def alive(self) -> bool:
        """False once the joint (or one of its bodies) was removed."""
        st = self._world._joints.store
        return bool(st.generation[self._slot] == self._gen
                    and st.flags[self._slot] & K.J_ALIVE)

    def __reduce__(self):
        # Pickled as its world and place in ``world.joints``: unpickling gives the restored
        # world's own handle.
        return (_joint_at, (self._world, self.index))

    def __repr__(self) -> str:
        if not self.alive:
            return "<Joint removed>"
        return f"<Joint {self.kind} #{self.index}>"

    @property
    def index(self) -> int:
        """Position in ``world.joints``."""
        return int(self._world._joints.store.order[self._s()])

    @property
    def kind(self) -> str:
        return JOINT_KINDS[int(self._world._joints.store.kind[self._s()])]

    def _body(self, field):
        slot = int(getattr(self._world._joints.store, field)[self._s()])
        return None if slot < 0 else self._world._joints.body_of(slot)

    @property
    def body_a(self):
        """Body A (None for a mouse joint)."""
        return self._body("body_a")

    @property
    def body_b(self):
        return self._body("body_b")

    def _flag(self, bit) -> bool:
        return bool(self._world._joints.store.flags[self._s()] & bit)

    @property
    def enabled(self) -> bool:
        """A disabled joint is not solved (a broken joint is disabled); set True to enable
        it again."""
        return self._flag(K.J_ENABLED)

    @enabled.setter
    def enabled(self, value):
        slot = self._s()
        on = V.flag("enabled", value)
        self._world._joints.set_flag(slot, K.J_ENABLED, on)

    @property
    def collide_connected(self) -> bool:
        """Whether the two bodies' shapes collide with each other."""
        return self._flag(K.J_COLLIDE)

    @collide_connected.setter
    def collide_connected(self, value):
        slot = self._s()
        self._world._joints.set_flag(slot, K.J_COLLIDE, V.flag("collide_connected", value))

    @property
    def reaction_force(self) -> np.ndarray:
        """The force the joint put on B in the last step (N), shape (2,)."""
        return self._world._joints.store.reaction[self._s(), :2].copy()

    @property
    def reaction_torque(self) -> float:
        """The joint's own torque on B in the last step (limit + motor + spring; weld, gear
        and motor joints: their angular row), N m."""
        return float(self._world._joints.store.reaction[self._s(), 2])

    def _limit_get(self, field):
        v = float(getattr(self._world._joints.store, field)[self._s()])
        return None if math.isinf(v) else v

    @property
    def break_force(self):
        """Past this force (N) the joint breaks (is disabled, and ``on_joint_break``
        callbacks get it after the step); None: unbreakable."""
        return self._limit_get("break_force")

    @break_force.setter
    def break_force(self, value):
        self._world._joints.set_break(self._s(), "break_force", value)

    @property
    def break_torque(self):
        """Past this torque (N m) the joint breaks; None: unbreakable."""
        return self._limit_get("break_torque")

    @break_torque.setter
    def break_torque(self, value):
        self._world._joints.set_break(self._s(), "break_torque", value)

    # -- measurements
    @property
    def anchor_a(self) -> np.ndarray:
        """Anchor A now, world frame (m); a mouse joint's target."""
        return self._world._joints.anchors(self._s())[0]

    @property
    def anchor_b(self) -> np.ndarray:
        """Anchor B now, world frame (m)."""
        return self._world._joints.anchors(self._s())[1]

    @property
    def axis(self) -> np.ndarray:
        """A prismatic or wheel joint's axis now (unit, world frame); zeros for others."""
        return self._world._joints.axis(self._s())

    @property
    def angle(self) -> float:
        """angle_b - angle_a minus its value at creation (rad); a mouse joint's body's turn
        since creation."""
        return self._world._joints.angle(self._s())

    @property
    def translation(self) -> float:
        """Prismatic and wheel joints: B's anchor from A's along the axis (m)."""
        slot = self._s()
        self._need(slot, ("prismatic", "wheel"), "translation")
        a, b = self._world._joints.anchors(slot)
        return float(np.dot(b - a, self._world._joints.axis(slot)))

    @property
    def speed(self) -> float:
        """Rate of ``translation`` (prismatic, wheel; m/s), of ``length`` (distance; m/s) or
        of ``angle`` (the others; rad/s)."""
        return self._world._joints.speed(self._s())

    @property
    def length(self) -> float:
        """Distance joints: the anchors' distance now (m). Setting it sets the rest length
        (the rod's or spring's; ``rest_length`` reads it back)."""
        slot = self._s()
        self._need(slot, ("distance",), "length")
        a, b = self._world._joints.anchors(slot)
        return float(np.hypot(*(b - a)))

    @length.setter
    def length(self, value):
        slot = self._s()
        self._need(slot, ("distance",), "length")
        self._world._joints.set_length(slot, value)

    @property
    def rest_length(self) -> float:
        """Distance joints: the length the rod or spring keeps (m)."""
        slot = self._s()
        self._need(slot, ("distance",), "rest_length")
        return float(self._world._joints.store.length[slot])

    @rest_length.setter
    def rest_length(self, value):
        self.length = value

    @property
    def ratchet(self):
        """Angle joints: the ratchet's step (rad; None: no ratchet)."""
        slot = self._s()
        self._need(slot, ("angle",), "ratchet")
        st = self._world._joints.store
        return float(st.ratio[slot]) if st.flags[slot] & K.J_RATCHET else None

    @ratchet.setter
    def ratchet(self, value):
        slot = self._s()
        self._need(slot, ("angle",), "ratchet")
        self._world._joints.set_ratchet(slot, value)

    @property
    def linear_offset(self) -> np.ndarray:
        """Motor joints: B's origin target in A's frame (m)."""
        slot = self._s()
        self._need(slot, ("motor",), "linear_offset")
        return self._world._joints.store.local_a[slot].copy()

    @linear_offset.setter
    def linear_offset(self, value):
        slot = self._s()
        self._need(slot, ("motor",), "linear_offset")
        v = V.real_vector("linear_offset", value, bounded=True)
        self._world._joints.store.local_a[slot] = v
        self._world._joints.wake(slot)

    @property
    def target(self) -> np.ndarray:
        """Mouse joints: the point (world frame, m) the body is pulled to."""
        slot = self._s()
        self._need(slot, ("mouse",), "target")
        return self._world._joints.store.point[slot].copy()

    @target.setter
    def target(self, value):
        slot = self._s()
        self._need(slot, ("mouse",), "target")
        v = V.real_vector("target", value, bounded=True)
        self._world._joints.store.point[slot] = v
        self._world._joints.wake(slot)

    def _need(self, slot, kinds, name):
        kind = JOINT_KINDS[int(self._world._joints.store.kind[slot])]
        if kind not in kinds:
            raise AttributeError(f"{name}: a {kind} joint has no {name} (only "
                                 f"{', '.join(kinds)} joints do)")


def _keyword_property(name):
    field, kinds, what = _KW[name]

    def get(self):
        slot = self._s()
        self._need(slot, kinds, name)
        v = float(getattr(self._world._joints.store, field)[slot])
        if what in ("lower", "upper") and math.isinf(v):
            return None
        return v

    def set_(self, value):
        slot = self._s()
        self._need(slot, kinds, name)
        self._world._joints.set_value(slot, name, value)

    return property(get, set_, doc=f"The creation keyword ``{name}`` ({', '.join(kinds)} "
                                   "joints); settable every step.")


for _name in _KW:
    setattr(Joint, _name, _keyword_property(_name))


def _motor_values(name, values, k) -> np.ndarray:
    """(k,) finite floats from one value per joint or one for all."""
    try:
        v = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers, got {values!r}") from None
    if v.shape not in ((), (k,)):
        raise ValueError(f"{name}: expected one value per joint ({k}) or one for all, got "
                         f"shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError(f"{name}: must be finite (no NaN or inf)")
    return np.full(k, float(v)) if v.ndim == 0 else v


def _joint_at(world, index: int) -> Joint:
    return world._joints.handles[index]


class Joints:
    """The world's joints (``world._joints``): the store, the handles in creation order,
    creation with full validation, removal, breaking and the drawing view."""

    def __init__(self, world):
        self.world = world
        self.store = S.JointStore()
        self.handles: list[Joint] = []
        self.broken: list[Joint] = []   # the last step's, for on_joint_break
        self.on_break: list = []         # the on_joint_break callbacks

    # -- helpers
    def body_of(self, slot):
        w = self.world
        return w.bodies[int(w._bodies.order[slot])]

    def _body(self, name, body):
        from .body import Body

        if not isinstance(body, Body):
            raise TypeError(f"{name}: expected a Body, got {type(body).__name__}")
        if body._world is not self.world:
            raise ValueError(f"{name}: this body belongs to another world")
        if not body.alive:
            raise ValueError(f"{name}: this body was removed from its world")
        return body._slot

    def _pair(self, body_a, body_b):
        a = self._body("body_a", body_a)
        b = self._body("body_b", body_b)
        if a == b:
            raise ValueError("body_b: a joint needs two different bodies (body_a is body_b)")
        return a, b

    @staticmethod
    def _point(name, value):
        return V.real_vector(name, value, bounded=True)

    @staticmethod
    def _axis(name, value):
        v = V.real_vector(name, value, bounded=True)
        n = math.hypot(v[0], v[1])
        if not n > 1e-12:
            raise ValueError(f"{name}: the axis must have a direction (got the zero vector)")
        return v / n

    @staticmethod
    def _check_value(name, value):
        """A keyword's value as stored (limits: None -> -inf / inf)."""
        what = _KW[name][2]
        if what in ("lower", "upper"):
            if value is None:
                return -_INF if what == "lower" else _INF
            v = V.finite_scalar(name, value)
            if name in ("min_length", "max_length") and v < 0.0:
                raise ValueError(f"{name}: a length must be >= 0, got {v}")
            return v
        if what == "real":
            return V.finite_scalar(name, value)
        if what == "unit":
            v = V.finite_scalar(name, value, nonnegative=True)
            if v > 1.0:
                raise ValueError(f"{name}: must be in [0, 1], got {v}")
            return v
        return V.finite_scalar(name, value, nonnegative=True)

    @staticmethod
    def _check_order(lo_name, lo, hi_name, hi):
        if lo > hi:
            raise ValueError(f"{lo_name}: must not exceed {hi_name} ({lo} > {hi})")

    def _flags(self, kind, fields, collide, ratchet):
        """The flag bits a joint's settings call for."""
        limit = math.isfinite(fields.get("lower", -_INF)) or math.isfinite(
            fields.get("upper", _INF))
        f = K.J_ALIVE | K.J_ENABLED | (K.J_COLLIDE if collide else 0)
        if limit:
            f |= K.J_LIMIT
        if fields.get("max_motor", 0.0) > 0.0:
            f |= K.J_MOTOR_ON
        if fields.get("hertz", 0.0) > 0.0 or (kind == "distance" and limit):
            f |= K.J_SPRING
        if ratchet:
            f |= K.J_RATCHET
        return f

    # -- creation
    def create(self, kind, a, b, fields, collide=False, ratchet=False):
        """Add a joint from checked values (``fields``: store field -> value)."""
        self.world._check_unlocked()
        st = self.store
        slot = st.alloc()
        st.kind[slot] = _kind_code(kind)
        st.body_a[slot] = a
        st.body_b[slot] = b
        for name, value in fields.items():
            getattr(st, name)[slot] = value
        st.flags[slot] = self._flags(kind, fields, collide, ratchet)
        st.order[slot] = len(self.handles)
        joint = Joint(self.world, slot)
        self.handles.append(joint)
        self.world._params[0]["n_joints"] = st.count
        self._keys_changed()
        self.wake(slot)
        return joint

    def _rel_angle(self, a, b):
        return float(self.world._bodies.angle[b] - self.world._bodies.angle[a])

    def _kw(self, values):
        """Checked keyword values as store fields, with lower <= upper."""
        out = {}
        names = {}
        for name, value in values.items():
            field = _KW[name][0]
            out[field] = self._check_value(name, value)
            names[field] = name
        if "lower" in out and "upper" in out:
            self._check_order(names["lower"], out["lower"], names["upper"], out["upper"])
        return out

    def add_revolute_joint(self, body_a, body_b, anchor, *, collide_connected=False,
                           lower_angle=None, upper_angle=None, motor_speed=0.0,
                           max_motor_torque=0.0, spring_hertz=0.0, spring_damping_ratio=0.0,
                           target_angle=0.0) -> Joint:
        """Pin two bodies together at ``anchor`` (world frame at creation, m): they turn
        about it. Optional angle limits on the relative angle (rad, from its value now), a
        motor (``motor_speed`` rad/s at up to ``max_motor_torque`` N m), and a rotary
        spring toward ``target_angle`` (``spring_hertz`` > 0). pymunk's PivotJoint,
        Box2D's revolute joint.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> ground = world.add_body(kind="static")
        >>> wheel = world.add_body(position=(0, 0))
        >>> _ = wheel.add_circle(0.5, density=1)
        >>> j = world.add_revolute_joint(ground, wheel, (0, 0), motor_speed=2.0,
        ...                              max_motor_torque=100.0)
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> round(wheel.angular_velocity, 6)
        2.0
        """
        a, b = self._pair(body_a, body_b)
        p = self._point("anchor", anchor)
        collide = V.flag("collide_connected", collide_connected)
        kw = self._kw(dict(lower_angle=lower_angle, upper_angle=upper_angle,
                           motor_speed=motor_speed, max_motor_torque=max_motor_torque,
                           spring_hertz=spring_hertz,
                           spring_damping_ratio=spring_damping_ratio,
                           target_angle=target_angle))
        kw.update(local_a=_to_local(self.world, a, p), local_b=_to_local(self.world, b, p),
                  ref_angle=self._rel_angle(a, b))
        return self.create("revolute", a, b, kw, collide)

    def add_prismatic_joint(self, body_a, body_b, anchor, axis, *, collide_connected=False,
                            lower=None, upper=None, motor_speed=0.0, max_motor_force=0.0,
                            spring_hertz=0.0, spring_damping_ratio=0.0,
                            target_translation=0.0) -> Joint:
        """Let B slide along ``axis`` (world frame at creation, fixed in A) through
        ``anchor``, its rotation locked to A's. Optional translation limits (m, from
        now), a motor (``motor_speed`` m/s, ``max_motor_force`` N) and a spring toward
        ``target_translation``. pymunk's GrooveJoint with a locked angle; Box2D's prismatic
        joint.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> ground = world.add_body(kind="static")
        >>> slider = world.add_body(position=(0, 0))
        >>> _ = slider.add_box(0.2, 0.2, density=25)
        >>> j = world.add_prismatic_joint(ground, slider, (0, 0), (1, 0), upper=0.5)
        >>> slider.apply_impulse((5, 0))
        >>> for _ in range(120):
        ...     world.step(1 / 60)
        >>> bool(abs(slider.position[1]) < 1e-4), bool(abs(j.translation - 0.5) < 1e-3)
        (True, True)
        """
        a, b = self._pair(body_a, body_b)
        p = self._point("anchor", anchor)
        u = self._axis("axis", axis)
        collide = V.flag("collide_connected", collide_connected)
        kw = self._kw(dict(lower=lower, upper=upper, motor_speed=motor_speed,
                           max_motor_force=max_motor_force, spring_hertz=spring_hertz,
                           spring_damping_ratio=spring_damping_ratio,
                           target_translation=target_translation))
        kw.update(self._axis_fields(a, b, p, u))
        return self.create("prismatic", a, b, kw, collide)

    def _axis_fields(self, a, b, p, u):
        _, c, s, _ = _pose(self.world, a)
        return dict(local_a=_to_local(self.world, a, p), local_b=_to_local(self.world, b, p),
                    axis=np.array((c * u[0] + s * u[1], -s * u[0] + c * u[1])),
                    ref_angle=self._rel_angle(a, b))

    def add_wheel_joint(self, body_a, body_b, anchor, axis, *, spring_hertz=1.0,
                        spring_damping_ratio=0.7, lower=None, upper=None, motor_speed=0.0,
                        max_motor_torque=0.0, collide_connected=False) -> Joint:
        """A wheel (B) on a suspension: B's anchor slides along ``axis`` (world frame at
        creation, fixed in A) on a spring (``spring_hertz``; 0: a free groove), B turns
        freely, driven by an optional motor (rad/s, N m). Box2D's wheel joint; pymunk's
        GrooveJoint + DampedSpring.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> car = world.add_body(kind="static")
        >>> wheel = world.add_body(position=(0, 0))
        >>> _ = wheel.add_circle(0.3, density=1)
        >>> j = world.add_wheel_joint(car, wheel, (0, 0), (0, 1), spring_hertz=2.0,
        ...                           spring_damping_ratio=1.0)
        >>> for _ in range(300):
        ...     world.step(1 / 60)
        >>> k = wheel.mass * (2 * 3.141592653589793 * 2.0) ** 2   # m_eff (2 pi f)^2
        >>> bool(abs(j.translation + wheel.mass * 10 / k) < 1e-3)    # sags m g / k
        True
        """
        a, b = self._pair(body_a, body_b)
        p = self._point("anchor", anchor)
        u = self._axis("axis", axis)
        collide = V.flag("collide_connected", collide_connected)
        kw = self._kw(dict(spring_hertz=spring_hertz, spring_damping_ratio=spring_damping_ratio,
                           lower=lower, upper=upper, motor_speed=motor_speed,
                           max_motor_torque=max_motor_torque))
        kw.update(self._axis_fields(a, b, p, u))
        return self.create("wheel", a, b, kw, collide)

    def add_distance_joint(self, body_a, body_b, anchor_a, anchor_b, *, length=None,
                           min_length=None, max_length=None, spring_hertz=0.0,
                           spring_damping_ratio=0.0, collide_connected=False) -> Joint:
        """Keep ``anchor_a`` on A and ``anchor_b`` on B (world frame at creation, m)
        ``length`` apart (None: their distance now): a rigid rod (``spring_hertz`` 0) or
        a spring. ``min_length`` / ``max_length`` bound the distance; ``max_length``
        alone with no spring is a rope (slack below, inelastic when taut). pymunk's
        PinJoint, SlideJoint and DampedSpring; Box2D's distance joint.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> ceiling = world.add_body(kind="static")
        >>> ball = world.add_body(position=(0, -1))
        >>> _ = ball.add_circle(0.1)
        >>> rope = world.add_distance_joint(ceiling, ball, (0, 0), (0, -1), max_length=2.0)
        >>> for _ in range(120):
        ...     world.step(1 / 60)
        >>> round(rope.length, 2)   # fell until the rope went taut
        2.0
        """
        a, b = self._pair(body_a, body_b)
        pa = self._point("anchor_a", anchor_a)
        pb = self._point("anchor_b", anchor_b)
        collide = V.flag("collide_connected", collide_connected)
        kw = self._kw(dict(min_length=min_length, max_length=max_length,
                           spring_hertz=spring_hertz, spring_damping_ratio=spring_damping_ratio))
        if length is None:
            rest = float(np.hypot(*(pb - pa)))
        else:
            rest = V.finite_scalar("length", length, nonnegative=True)
        if min_length is not None and max_length is None:
            kw["upper"] = _INF
        kw.update(length=rest, local_a=_to_local(self.world, a, pa),
                  local_b=_to_local(self.world, b, pb))
        if min_length is not None or max_length is not None:
            kw.setdefault("lower", 0.0)
            if not math.isfinite(kw["lower"]):
                kw["lower"] = 0.0
        return self.create("distance", a, b, kw, collide)

    def add_weld_joint(self, body_a, body_b, anchor, *, linear_hertz=0.0, angular_hertz=0.0,
                       linear_damping_ratio=0.0, angular_damping_ratio=0.0,
                       collide_connected=False) -> Joint:
        """Glue B to A at ``anchor`` (world frame at creation): position and angle held,
        each rigid (hertz 0) or springy. Box2D's weld joint.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> wall = world.add_body(kind="static")
        >>> beam = world.add_body(position=(0.5, 0))
        >>> _ = beam.add_box(1.0, 0.1)
        >>> j = world.add_weld_joint(wall, beam, (0, 0))
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> bool(abs(beam.angle) < 0.01 and abs(beam.position[1]) < 0.01)
        True
        """
        a, b = self._pair(body_a, body_b)
        p = self._point("anchor", anchor)
        collide = V.flag("collide_connected", collide_connected)
        kw = self._kw(dict(linear_hertz=linear_hertz, angular_hertz=angular_hertz,
                           linear_damping_ratio=linear_damping_ratio,
                           angular_damping_ratio=angular_damping_ratio))
        kw.update(local_a=_to_local(self.world, a, p), local_b=_to_local(self.world, b, p),
                  ref_angle=self._rel_angle(a, b))
        return self.create("weld", a, b, kw, collide)

    def add_motor_joint(self, body_a, body_b, *, linear_offset=None, angular_offset=None,
                        max_force=1.0, max_torque=1.0, correction_factor=0.3) -> Joint:
        """Drive B toward a pose relative to A: B's origin to ``linear_offset`` (A's frame,
        m; None: where it is now) and angle_b - angle_a to ``angular_offset`` (rad; None:
        as now), with at most ``max_force`` N and ``max_torque`` N m, closing
        ``correction_factor`` (0..1) of the error per substep's worth of time. Box2D's
        motor joint.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> ground = world.add_body(kind="static")
        >>> box = world.add_body(position=(0, 0))
        >>> _ = box.add_box(0.5, 0.5)
        >>> j = world.add_motor_joint(ground, box, linear_offset=(1, 0), max_force=100.0)
        >>> for _ in range(120):
        ...     world.step(1 / 60)
        >>> bool(abs(box.position[0] - 1) < 1e-3)
        True
        """
        a, b = self._pair(body_a, body_b)
        kw = self._kw(dict(max_force=max_force, max_torque=max_torque,
                           correction_factor=correction_factor))
        if linear_offset is None:
            off = _to_local(self.world, a, self.world._bodies.pos[b])
        else:
            off = V.real_vector("linear_offset", linear_offset, bounded=True)
        rel = (self._rel_angle(a, b) if angular_offset is None
               else V.finite_scalar("angular_offset", angular_offset))
        kw.update(local_a=off, local_b=np.zeros(2), ref_angle=rel)
        return self.create("motor", a, b, kw, True)

    def add_mouse_joint(self, body, target, *, max_force, hertz=5.0,
                        damping_ratio=0.7) -> Joint:
        """Grab ``body`` at the point now at ``target`` (world frame, m) and pull that
        point toward ``joint.target`` (set it every step to drag) with a spring of
        ``hertz`` and ``damping_ratio``, at most ``max_force`` N. ``body_a`` is None.
        Box2D's mouse joint.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> box = world.add_body(position=(0, 0))
        >>> _ = box.add_box(1, 1)
        >>> j = world.add_mouse_joint(box, (0, 0), max_force=1000.0)
        >>> j.target = (2, 1)
        >>> for _ in range(180):
        ...     world.step(1 / 60)
        >>> bool(abs(box.position[0] - 2) < 1e-2 and abs(box.position[1] - 1) < 1e-2)
        True
        """
        b = self._body("body", body)
        p = self._point("target", target)
        kw = self._kw(dict(max_force=max_force, hertz=hertz, damping_ratio=damping_ratio))
        kw.update(local_b=_to_local(self.world, b, p), point=p,
                  ref_angle=float(self.world._bodies.angle[b]),
                  hertz2=_MOUSE_ANGULAR[0], zeta2=_MOUSE_ANGULAR[1])
        return self.create("mouse", -1, b, kw, True)

    def add_gear_joint(self, body_a, body_b, *, ratio=1.0) -> Joint:
        """Keep angle_b + ratio * angle_a at its value now: with ratio 1 the bodies turn
        opposite ways at the same rate, like meshed gears of one size. pymunk's GearJoint.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> g1 = world.add_body(kind="kinematic", angular_velocity=1.0)
        >>> g2 = world.add_body(position=(1, 0))
        >>> _ = g2.add_circle(0.5)
        >>> ground = world.add_body(kind="static")
        >>> _ = world.add_revolute_joint(ground, g2, (1, 0))
        >>> j = world.add_gear_joint(g1, g2, ratio=2.0)
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> round(g2.angular_velocity, 6)
        -2.0
        """
        a, b = self._pair(body_a, body_b)
        kw = self._kw(dict(ratio=ratio))
        bs = self.world._bodies
        kw.update(ref_angle=self._rel_angle(a, b),
                  target=float(bs.angle[b] + kw["ratio"] * bs.angle[a]))
        return self.create("gear", a, b, kw, True)

    def add_angle_joint(self, body_a, body_b, *, lower=None, upper=None, spring_hertz=0.0,
                        spring_damping_ratio=0.0, target_angle=0.0, motor_speed=0.0,
                        max_motor_torque=0.0, ratchet=None) -> Joint:
        """Constrain the relative angle only (angle_b - angle_a, from now): limits (rad),
        a rotary spring toward ``target_angle``, a motor (rad/s, N m), and a ratchet
        (``ratchet=step``, rad: the angle only moves the step's way, catching at each
        step). pymunk's RotaryLimitJoint, DampedRotarySpring, SimpleMotor and RatchetJoint.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> ground = world.add_body(kind="static")
        >>> wheel = world.add_body()
        >>> _ = wheel.add_circle(0.5)
        >>> j = world.add_angle_joint(ground, wheel, upper=0.5)
        >>> wheel.angular_velocity = 3.0
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> bool(abs(j.angle - 0.5) < 1e-3)
        True
        """
        a, b = self._pair(body_a, body_b)
        kw = self._kw(dict(lower=lower, upper=upper, spring_hertz=spring_hertz,
                           spring_damping_ratio=spring_damping_ratio,
                           target_angle=target_angle, motor_speed=motor_speed,
                           max_motor_torque=max_motor_torque))
        step = self._ratchet(ratchet)
        kw.update(ref_angle=self._rel_angle(a, b), ratio=step, notch=0.0)
        return self.create("angle", a, b, kw, True, ratchet=step != 0.0)

    @staticmethod
    def _ratchet(value):
        if value is None:
            return 0.0
        v = V.finite_scalar("ratchet", value)
        if v == 0.0:
            raise ValueError("ratchet: the step must not be 0 (None: no ratchet)")
        return v

    # -- changes
    def set_motors(self, joints, speeds, max_torques) -> None:
        """Motor speeds (rad/s, or m/s for prismatic joints) and maximum motor torques (N m,
        or forces in N for prismatic joints) of several joints at once: what setting each
        joint's ``motor_speed`` and ``max_motor_torque`` (``max_motor_force``) does, with one
        check and one write for all. ``joints``: Joint handles, or indices into
        ``world.joints``, each at most once; revolute, prismatic, wheel and angle joints
        have motors. ``speeds`` and ``max_torques``: one value per joint, or one for all.
        Raises ``ValueError`` / ``TypeError`` naming the argument, changing nothing.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> hub = world.add_body(kind="static")
        >>> wheels = [world.add_body(position=(x, 0)) for x in (0, 2)]
        >>> for w in wheels:
        ...     _ = w.add_circle(0.5)
        >>> motors = [world.add_revolute_joint(hub, w, w.position) for w in wheels]
        >>> world.set_motors(motors, [1.0, -2.0], 100.0)
        >>> for _ in range(30):
        ...     world.step(1 / 60)
        >>> [round(w.angular_velocity, 3) for w in wheels]
        [1.0, -2.0]
        """
        slots = self._motor_slots(joints)
        k = len(slots)
        s = _motor_values("speeds", speeds, k)
        m = _motor_values("max_torques", max_torques, k)
        if (m < 0.0).any():
            raise ValueError(f"max_torques: must be >= 0, got {float(m[m < 0.0][0])}")
        st = self.store
        bs = self.world._bodies
        self.world._unsettle()  # (the kernel wakes the joints' bodies)
        _jc.set_motors(slots, s, m, st.motor_speed, st.max_motor, st.flags, st.imp, st.body_a,
                       st.body_b, bs.kind, bs.flags, bs.sleep_time)

    def _motor_slots(self, joints) -> np.ndarray:
        """The store slots of ``joints`` (handles or indices into ``world.joints``), checked:
        this world's, alive, with a motor, none twice."""
        if isinstance(joints, (Joint, str, bytes)) or not hasattr(joints, "__len__"):
            raise TypeError(f"joints: expected a sequence of joints, got "
                            f"{type(joints).__name__}")
        handles = self.handles
        st = self.store
        slots = []
        for j in (joints.tolist() if isinstance(joints, np.ndarray) else joints):
            if isinstance(j, Joint):
                if j._world is not self.world:
                    raise ValueError("joints: a joint of another world")
                if not j.alive:
                    raise ValueError("joints: a joint that was removed from its world")
                slot = j._slot
            elif isinstance(j, (int, np.integer)) and not isinstance(j, (bool, np.bool_)):
                if not 0 <= j < len(handles):
                    raise ValueError(f"joints: {int(j)} is not an index into world.joints "
                                     f"(it has {len(handles)})")
                slot = handles[int(j)]._slot
            else:
                raise TypeError(f"joints: expected Joint handles or ints, got "
                                f"{type(j).__name__}")
            kind = JOINT_KINDS[int(st.kind[slot])]
            if kind not in MOTOR_KINDS:
                raise ValueError(f"joints: {kind} joints have no motor (motors: "
                                 f"{', '.join(sorted(MOTOR_KINDS))})")
            slots.append(slot)
        if len(set(slots)) != len(slots):
            raise ValueError("joints: a joint is listed more than once")
        return np.array(slots, dtype=np.int64)

    def wake(self, slot):
        self.world._unsettle()
        st = self.store
        bs = self.world._bodies
        for body in (int(st.body_a[slot]), int(st.body_b[slot])):
            if body >= 0 and bs.kind[body] == S.DYNAMIC:
                bs.flags[body] |= S.B_AWAKE
                bs.sleep_time[body] = 0.0

    def set_flag(self, slot, bit, on):
        st = self.store
        st.flags[slot] = (st.flags[slot] | bit) if on else (st.flags[slot] & ~bit)
        if bit == K.J_ENABLED and on:
            st.flags[slot] &= ~K.J_BROKEN
        self._keys_changed()
        self.wake(slot)

    def set_break(self, slot, field, value):
        v = _INF if value is None else V.finite_scalar(field, value, nonnegative=True)
        getattr(self.store, field)[slot] = v

    def set_length(self, slot, value):
        self.store.length[slot] = V.finite_scalar("length", value, nonnegative=True)
        self.wake(slot)

    def set_ratchet(self, slot, value):
        step = self._ratchet(value)
        st = self.store
        if step != 0.0:
            st.notch[slot] = self.angle(slot)
        st.ratio[slot] = step
        self._set_flags(slot)
        self.wake(slot)

    def set_value(self, slot, name, value):
        st = self.store
        field, _, what = _KW[name]
        v = self._check_value(name, value)
        kind = JOINT_KINDS[int(st.kind[slot])]
        if what == "lower":
            self._check_order(name, v, _upper_name(kind), float(st.upper[slot]))
        elif what == "upper":
            self._check_order(_lower_name(kind), float(st.lower[slot]), name, v)
        if kind == "distance" and what in ("lower", "upper") and not math.isfinite(v):
            v = 0.0 if what == "lower" and math.isfinite(st.upper[slot]) else v
        column = getattr(st, field)
        old = float(column[slot])
        column[slot] = v
        # (A motor's speed, a spring's target: no row switches. The flags read the others
        # only through whether a limit is finite, or a torque or hertz above zero: a
        # walker's motor torques, set every step, switch nothing.)
        if field in _FLAG_FIELDS and (
                math.isfinite(old) != math.isfinite(v) if what in ("lower", "upper")
                else (old > 0.0) != (v > 0.0)):
            self._set_flags(slot)
        self.wake(slot)

    def _set_flags(self, slot):
        st = self.store
        kind = JOINT_KINDS[int(st.kind[slot])]
        keep = int(st.flags[slot]) & (K.J_ALIVE | K.J_ENABLED | K.J_COLLIDE | K.J_BROKEN)
        fields = {"lower": float(st.lower[slot]), "upper": float(st.upper[slot]),
                  "max_motor": float(st.max_motor[slot]), "hertz": float(st.hertz[slot])}
        if kind in ("weld", "mouse"):
            fields["hertz"] = 0.0   # their hertz is no spring row
        new = self._flags(kind, fields, False, kind == "angle" and st.ratio[slot] != 0.0)
        old = int(st.flags[slot])
        st.flags[slot] = keep | (new & ~(K.J_ALIVE | K.J_ENABLED))
        # A row switched off drops its accumulated impulse (as Box2D v3's EnableMotor,
        # EnableLimit, EnableSpring do): the warm start would otherwise go on applying
        # the last one, a motor turned off still driving. (A distance joint's spring
        # column is its rod's too: it stays. An angle joint's ratchet is a limit row.)
        now = int(st.flags[slot])
        gone = old & ~now
        limits = K.J_LIMIT | (K.J_RATCHET if kind == "angle" else 0)
        if gone & K.J_MOTOR_ON:
            st.imp[slot, _I_MOTOR] = 0.0
        if old & limits and not now & limits:
            st.imp[slot, _I_LOWER] = st.imp[slot, _I_UPPER] = 0.0
        if gone & K.J_SPRING and kind != "distance":
            st.imp[slot, _I_SPRING] = 0.0

    # -- removal
    def remove(self, joint):
        self.world._check_unlocked()
        if joint._world is not self.world:
            raise ValueError("item: this joint belongs to another world")
        slot = joint._s()
        self.wake(slot)
        self._release([slot])

    def remove_body(self, slot):
        """The joints of a body being removed go with it."""
        st = self.store
        n = st.count
        alive = (st.flags[:n] & K.J_ALIVE) != 0
        hit = np.flatnonzero(alive & ((st.body_a[:n] == slot) | (st.body_b[:n] == slot)))
        for j in hit:
            self.wake(int(j))
        if hit.size:
            self._release(hit.tolist())

    def _release(self, slots):
        st = self.store
        gone = np.sort(st.order[np.asarray(slots, dtype=np.int64)])
        for slot in slots:
            st.release(slot)
        for i in gone[::-1]:
            del self.handles[int(i)]
        # Later joints move up by the removed joints before them.
        n = st.count
        live = (st.flags[:n] & K.J_ALIVE) != 0
        st.order[:n][live] -= np.searchsorted(gone, st.order[:n][live])
        self._keys_changed()

    def _keys_changed(self):
        """The sorted body-pair keys the pair finder drops (enabled joints whose bodies do
        not collide)."""
        st = self.store
        n = st.count
        f = st.flags[:n]
        sel = ((f & K.J_ALIVE) != 0) & ((f & K.J_ENABLED) != 0) & ((f & K.J_COLLIDE) == 0)
        a = st.body_a[:n][sel]
        b = st.body_b[:n][sel]
        keys = np.unique((np.minimum(a, b) << 32) | np.maximum(a, b))
        if not np.array_equal(keys, st.keys):
            st.keys = keys.astype(np.int64)
            self.world._pairs_changed()

    # -- after a step
    def after_step(self, n_broken):
        """The joints the step broke, in creation order, for on_joint_break."""
        if n_broken == 0:
            self.broken = []
            return
        st = self.store
        n = st.count
        hit = np.flatnonzero((st.flags[:n] & K.J_BROKEN) != 0)
        st.flags[hit] &= ~K.J_BROKEN
        self.broken = sorted((self.handles[int(st.order[j])] for j in hit),
                             key=lambda h: int(st.order[h._slot]))
        self._keys_changed()

    def dispatch_breaks(self):
        """Call the on_joint_break callbacks with each joint the step broke; if some raise,
        the others still run and the first exception is raised again at the end."""
        first_error = None
        for joint in list(self.broken) if self.on_break else ():
            for fn in list(self.on_break):
                try:
                    fn(joint)
                except Exception as exc:
                    if first_error is None:
                        first_error = exc
        if first_error is not None:
            raise first_error

    # -- measurements
    def anchors(self, slot):
        st = self.store
        b = int(st.body_b[slot])
        pb = _to_world(self.world, b, st.local_b[slot])
        a = int(st.body_a[slot])
        pa = st.point[slot].copy() if a < 0 else _to_world(self.world, a, st.local_a[slot])
        return pa, pb

    def axis(self, slot):
        st = self.store
        if JOINT_KINDS[int(st.kind[slot])] not in ("prismatic", "wheel"):
            return np.zeros(2)
        _, c, s, _ = _pose(self.world, int(st.body_a[slot]))
        u = st.axis[slot]
        return np.array((c * u[0] - s * u[1], s * u[0] + c * u[1]))

    def angle(self, slot):
        st = self.store
        bs = self.world._bodies
        a = int(st.body_a[slot])
        base = 0.0 if a < 0 else float(bs.angle[a])
        return float(bs.angle[int(st.body_b[slot])]) - base - float(st.ref_angle[slot])

    def _point_velocity(self, body, point):
        bs = self.world._bodies
        if body < 0:
            return np.zeros(2)
        p, c, s, _ = _pose(self.world, body)
        lc = bs.local_com[body]
        com = p + np.array((c * lc[0] - s * lc[1], s * lc[0] + c * lc[1]))
        r = point - com
        w = float(bs.angvel[body])
        return bs.vel[body] + w * np.array((-r[1], r[0]))

    def speed(self, slot):
        st = self.store
        bs = self.world._bodies
        kind = JOINT_KINDS[int(st.kind[slot])]
        a, b = int(st.body_a[slot]), int(st.body_b[slot])
        if kind in ("prismatic", "wheel", "distance"):
            pa, pb = self.anchors(slot)
            dv = self._point_velocity(b, pb) - self._point_velocity(a, pa)
            d = pb - pa
            if kind == "distance":
                n = float(np.hypot(*d))
                return 0.0 if n == 0.0 else float(np.dot(d, dv)) / n
            u = self.axis(slot)
            wa = float(bs.angvel[a])
            # d/dt (u . d) with u turning with A: u . dv + (wA x u) . d
            return float(np.dot(u, dv)) + wa * float(d[1] * u[0] - d[0] * u[1])
        wa = 0.0 if a < 0 else float(bs.angvel[a])
        return float(bs.angvel[b]) - wa

    def geometry(self) -> JointGeometry:
        st = self.store
        alive = np.flatnonzero(st.flags[: st.count] & K.J_ALIVE)
        slots = alive[np.argsort(st.order[alive], kind="stable")]
        n = slots.size
        aa = np.zeros((n, 2))
        ab = np.zeros((n, 2))
        ax = np.zeros((n, 2))
        # Vectorised over joints: anchors through the bodies' poses.
        bs = self.world._bodies
        for out, body, local in ((aa, st.body_a[slots], st.local_a[slots]),
                                 (ab, st.body_b[slots], st.local_b[slots])):
            safe = np.maximum(body, 0)
            ang = bs.angle[safe]
            c, s = np.cos(ang), np.sin(ang)
            out[:, 0] = bs.pos[safe, 0] + c * local[:, 0] - s * local[:, 1]
            out[:, 1] = bs.pos[safe, 1] + s * local[:, 0] + c * local[:, 1]
        mouse = st.body_a[slots] < 0
        aa[mouse] = st.point[slots][mouse]
        kinds = st.kind[slots].astype(np.int64)
        has_axis = (kinds == K.J_PRISMATIC) | (kinds == K.J_WHEEL)
        ang = bs.angle[np.maximum(st.body_a[slots], 0)]
        c, s = np.cos(ang), np.sin(ang)
        u = st.axis[slots]
        ax[:, 0] = np.where(has_axis, c * u[:, 0] - s * u[:, 1], 0.0)
        ax[:, 1] = np.where(has_axis, s * u[:, 0] + c * u[:, 1], 0.0)
        enabled = (st.flags[slots] & K.J_ENABLED) != 0
        return JointGeometry(kinds, aa, ab, ax, enabled)


def _lower_name(kind):
    return {"revolute": "lower_angle", "distance": "min_length"}.get(kind, "lower")


def _upper_name(kind):
    return {"revolute": "upper_angle", "distance": "max_length"}.get(kind, "upper")


# ---------------------------------------------------------------------------- snapshots
# The joint store travels in snapshots as ``joint.<field>`` arrays (every saved field of
# its schema, rows up to the high-water mark) and ``joint.free``, under a "joints" header
# entry present only in worlds that ever had a joint (older snapshots load unchanged).

_J_BITS = (K.J_ALIVE | K.J_ENABLED | K.J_COLLIDE | K.J_LIMIT | K.J_MOTOR_ON | K.J_SPRING
           | K.J_RATCHET | K.J_BROKEN)
# Fields that may hold inf (absent limits); every other float must be finite.
_MAY_BE_INF = ("lower", "upper", "break_force", "break_torque")


def snapshot_section(world, arrays) -> dict | None:
    from .snapshot import _free_list  # snapshot imports this module

    st = world._joints.store
    if st.count == 0:
        return None
    for name in st.saved_fields():
        arrays["joint." + name] = getattr(st, name)[: st.count]
    arrays["joint.free"] = _free_list(st)
    return {"count": int(st.count)}


def validate_section(section, arrays, body_alive, corrupt) -> set[str]:
    """Check the joints' arrays against the restored bodies (``body_alive``: one flag per
    body slot); ``corrupt(msg)`` makes the error to raise. Returns the array names."""
    if section is None:
        return set()
    if not isinstance(section, dict) or set(section) != {"count"}:
        raise corrupt("joints must have exactly the key 'count'")
    n = section["count"]
    if type(n) is not int or not 0 < n <= 1 << 24:
        raise corrupt("joints.count invalid")
    got = {}
    for name, (shape, dtype, _) in S.JointStore.saved_fields().items():
        arr = arrays.get("joint." + name)
        if arr is None or arr.dtype != np.dtype(dtype) or arr.shape != (n,) + shape:
            raise corrupt(f"array 'joint.{name}' is missing or has the wrong dtype or shape")
        if arr.dtype.kind == "f":
            bad = np.isnan(arr) if name in _MAY_BE_INF else ~np.isfinite(arr)
            if np.any(bad):
                raise corrupt(f"joint.{name} holds non-finite numbers")
        got[name] = arr
    free = arrays.get("joint.free")
    if free is None or free.dtype != np.int64 or free.ndim != 1:
        raise corrupt("array 'joint.free' is missing or malformed")
    flags = got["flags"]
    alive = (flags & K.J_ALIVE) != 0
    if np.any(flags & ~_J_BITS) or np.any((got["kind"] < 0) | (got["kind"] >= len(JOINT_KINDS))):
        raise corrupt("joint kinds or flags invalid")
    if sorted(free.tolist()) != np.flatnonzero(~alive).tolist():
        raise corrupt("joint.free does not list exactly the unused joint slots")
    nb = body_alive.shape[0]
    a = got["body_a"][alive]
    b = got["body_b"][alive]
    mouse = got["kind"][alive] == K.J_MOUSE
    ok_b = (b >= 0) & (b < nb)
    ok_a = np.where(mouse, a == -1, (a >= 0) & (a < nb) & (a != b))
    if not (np.all(ok_a) and np.all(ok_b)):
        raise corrupt("a joint names a body slot out of range")
    if not (np.all(body_alive[b]) and np.all(body_alive[a[~mouse]])):
        raise corrupt("a joint names a removed body")
    order = got["order"][alive]
    if sorted(order.tolist()) != list(range(order.size)):
        raise corrupt("joint.order is not a creation order")
    return {"joint." + name for name in got} | {"joint.free"}


def build_section(world, section, arrays) -> None:
    from .snapshot import _free_heap  # snapshot imports this module

    joints = Joints(world)
    world._joints = joints
    if section is None:
        return
    n = section["count"]
    cap = 16
    while cap < n:
        cap *= 2
    st = S.JointStore(cap)
    for name in st.saved_fields():
        getattr(st, name)[:n] = arrays["joint." + name]
    st.count = n
    st.free = _free_heap(arrays["joint.free"])
    joints.store = st
    alive = np.flatnonzero(st.flags[:n] & K.J_ALIVE)
    slots = alive[np.argsort(st.order[alive], kind="stable")]
    joints.handles = [Joint(world, int(s)) for s in slots]
    joints._keys_changed()
    world._params[0]["n_joints"] = n
