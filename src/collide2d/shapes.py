"""Shape handles: material, filter and geometry of one collider on a body.

A Shape is a thin view of rows in the world's shape arrays. A convex polygon, box, circle or
segment is one row; a concave polygon is decomposed into convex parts, one row each, that
still act as one Shape (events and queries name the Shape, ``shape.id``).
"""

from __future__ import annotations

import math
import operator

import numpy as np

from . import _store as S
from . import _validate as V

#: The largest collision type (types pair up in 64-bit keys).
COLLISION_TYPE_MAX = 2**31 - 1

class Shape:
    """A collider attached to a body. Create with ``Body.add_box / add_circle / add_polygon /
    add_segment``; remove with ``world.remove(shape)``.

    Attributes are live: ``shape.friction = 0.2`` takes effect at the next step.

    Example
    -------
    >>> import collide2d as c2d
    >>> world = c2d.World()
    >>> box = world.add_body(position=(0, 2)).add_box(1, 0.5, density=2)
    >>> box.kind, box.density, box.body.mass
    ('polygon', 2.0, 1.0)
    """

    __slots__ = ("_world", "_rows", "_gen", "_kind", "body", "__weakref__")

    def __init__(self, world, body, rows: list[int], kind: str):
        self._world = world
        self.body = body
        self._rows = rows
        self._gen = int(world._shapes.generation[rows[0]])
        self._kind = kind

    # -- identity
    def _check(self) -> int:
        st = self._world._shapes
        r = self._rows[0]
        if st.generation[r] != self._gen or not st.flags[r] & S.S_ALIVE:
            raise ValueError(f"shape: this shape was removed from its world (id {r})")
        return r

    @property
    def id(self) -> int:
        """Stable integer id (the row of its first part); appears in events and queries."""
        return self._check()

    @property
    def kind(self) -> str:
        """"circle", "polygon", "segment" (a concave polygon is one "polygon" of parts)."""
        return self._kind

    @property
    def alive(self) -> bool:
        st = self._world._shapes
        r = self._rows[0]
        return bool(st.generation[r] == self._gen and st.flags[r] & S.S_ALIVE)

    # -- geometry
    @property
    def radius(self) -> float:
        return float(self._world._shapes.radius[self._check()])

    @property
    def parts(self) -> list[np.ndarray]:
        """Convex parts' vertices in the body frame, counter-clockwise (a circle: its centre)."""
        self._check()
        st = self._world._shapes
        return [st.vlocal[st.vstart[r] : st.vstart[r] + st.vcount[r]].copy() for r in self._rows]

    def world_parts(self) -> list[np.ndarray]:
        """Convex parts' vertices in the world frame at the body's current pose."""
        return [self.body.world_points(p) for p in self.parts]

    @property
    def aabb(self) -> tuple[float, float, float, float]:
        """World bounding box (min_x, min_y, max_x, max_y) as of the last step or query."""
        self._check()
        self._world._sync_shapes()
        b = self._world._shapes.aabb[self._rows]
        return (float(b[:, 0].min()), float(b[:, 1].min()), float(b[:, 2].max()),
                float(b[:, 3].max()))

    # -- material and filter
    def _get(self, field):
        return getattr(self._world._shapes, field)[self._check()]

    def _set(self, field, value):
        self._check()
        getattr(self._world._shapes, field)[self._rows] = value
        self._world._pairs_changed()

    @property
    def density(self) -> float:
        """kg / m^2; changing it recomputes the body's mass."""
        return float(self._get("density"))

    @density.setter
    def density(self, value):
        rho = V.finite_scalar("density", value, positive=True)
        self._check()
        self._replan({r: rho for r in self._rows} if not self.sensor else {}, "density")
        self._set("density", rho)
        self.body._update_mass()

    def _replan(self, change: dict, blame: str) -> None:
        """Refuse (``ValueError`` naming ``blame``) a change of this shape's rows that would
        leave its body's mass data unusable; changes nothing."""
        body = self.body
        s = body._s()
        b = self._world._bodies
        if b.kind[s] == S.DYNAMIC:
            body._mass_plan(s, S.DYNAMIC, body._parts(change), blame,
                            custom=bool(b.flags[s] & S.B_CUSTOM_MASS))

    @property
    def friction(self) -> float:
        """Coulomb friction coefficient (>= 0); a pair uses sqrt(f_a * f_b)."""
        return float(self._get("friction"))

    @friction.setter
    def friction(self, value):
        self._set("friction", V.finite_scalar("friction", value, nonnegative=True))

    @property
    def elasticity(self) -> float:
        """Restitution (>= 0; 0 no bounce, 1 keeps the speed); a pair uses the larger."""
        return float(self._get("elasticity"))

    @elasticity.setter
    def elasticity(self, value):
        self._set("elasticity", V.finite_scalar("elasticity", value, nonnegative=True))

    @property
    def sensor(self) -> bool:
        """A sensor detects overlaps (events, ``world.sensor_overlaps``) but never collides."""
        return bool(self._get("flags") & S.S_SENSOR)

    @sensor.setter
    def sensor(self, value):
        self._check()
        value = V.flag("sensor", value)
        st = self._world._shapes
        self._replan({r: None if value else float(st.density[r]) for r in self._rows},
                     "sensor")
        fl = st.flags
        for r in self._rows:
            fl[r] = (fl[r] | S.S_SENSOR) if value else (fl[r] & ~S.S_SENSOR)
        self._world._pairs_changed()
        # A sensor has no mass: the body's mass, centre and inertia change with the flag, and
        # a sleeping body wakes to feel it.
        self.body._update_mass()
        self.body.awake = True

    @property
    def category(self) -> int:
        """Category bits (what this shape is)."""
        return int(self._get("category"))

    @category.setter
    def category(self, value):
        self._set("category", _bits("category", value))

    @property
    def mask(self) -> int:
        """Mask bits (what this shape collides with)."""
        return int(self._get("mask"))

    @mask.setter
    def mask(self, value):
        self._set("mask", _bits("mask", value))

    @property
    def group(self) -> int:
        """Shapes of the same negative group never collide; of the same positive group they
        collide whatever their categories and masks and the world's ``dynamic_response``
        say (two dynamic crates of group 1 stack in a world whose dynamic bodies pass
        through each other). Still stronger: same body, ``ignore_collisions``, joints that
        keep bodies apart, sensors, and a response set for the shapes' collision types
        (``set_pair_response``); the full order is in
        ``collide2d._kernels.broadphase.shape_response``. Default 0: no group."""
        return int(self._get("group"))

    @group.setter
    def group(self, value):
        self._set("group", V.int64("group", value))

    @property
    def collision_type(self) -> int:
        """The game's tag for this shape (an int >= 0, default 0), which contact and sensor
        handlers can select on: ``world.on_contact_begin(fn, between=(PLAYER, COIN))``.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, 0))
        >>> coin = world.add_body(kind="static").add_circle(0.5, sensor=True)
        >>> coin.collision_type = 2
        >>> player = world.add_body()
        >>> hull = player.add_circle(0.5)
        >>> hull.collision_type = 1
        >>> got = []
        >>> _ = world.on_sensor_begin(lambda ev: got.append(ev.shape_a is hull),
        ...                           between=(1, 2))
        >>> world.step(1 / 60)
        >>> got
        [True]
        """
        return int(self._get("collision_type"))

    @collision_type.setter
    def collision_type(self, value):
        v = V.int64("collision_type", value)
        if not 0 <= v <= COLLISION_TYPE_MAX:
            raise ValueError(f"collision_type: must be an int in [0, {COLLISION_TYPE_MAX}], "
                             f"got {v}")
        self._set("collision_type", v)

    @property
    def surface_speed(self) -> float:
        """Speed (m/s) at which the shape's surface moves along its outline, counter-clockwise
        positive, while the shape stays put: a conveyor belt (default 0).

        Counter-clockwise runs along the outline the way a polygon's vertices go: on a box's
        top face that is toward -x, on its bottom face toward +x, as on a wheel turning
        counter-clockwise. So a positive speed on the top of a static box carries what rests
        on it toward -x (at the belt speed, once friction has caught it up); a negative speed
        toward +x. Friction drives the surfaces' relative sliding to this speed (a pair's
        speeds add; Box2D v3's tangent speed with the sign reversed, as its positive runs
        clockwise), up to what friction can hold: a body on a belt with zero friction is
        not carried. Character movers standing on the shape are carried too
        (``MoveResult.floor_velocity`` includes the surface's velocity). A pre-solve
        callback can change it per contact for one step (:meth:`World.on_pre_solve`).
        Setting it wakes the bodies touching the shape.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> belt = world.add_body(kind="static").add_box(20, 1, offset=(0, -0.5))
        >>> belt.surface_speed = -2.0          # the top face runs toward +x
        >>> crate = world.add_body(position=(0, 0.5))
        >>> _ = crate.add_box(1, 1)
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> round(float(crate.velocity[0]), 3)
        2.0
        """
        return float(self._get("surface_speed"))

    @surface_speed.setter
    def surface_speed(self, value):
        v = V.finite_scalar("surface_speed", value)
        V.check_bound("surface_speed", v)
        self._set("surface_speed", v)
        self._world._wake_touching(np.asarray(self._rows, dtype=np.int64))

    @property
    def one_way(self):
        """A one-way surface: None (the default: solid from every side) or a direction (a
        unit (x, y), world frame). The shape then blocks only what arrives from the side
        the direction points to, moving against it (or resting): a body rising from below
        passes through a platform with ``one_way = (0, 1)`` and lands on it when it falls
        back. The decision is made when two shapes first come within the contact margin and
        holds until they part, so nothing is caught halfway through. The direction turns
        with the body (it is kept in the body's frame, from its angle when set). Character
        movers treat the shape as "oneway" along that direction too (``world.set_response``
        can say otherwise), and fast bodies' sweeps stop at it only from that side.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> ledge = world.add_body(kind="static").add_box(4, 0.2, offset=(0, 1))
        >>> ledge.one_way = (0, 1)
        >>> crate = world.add_body(position=(0, 0), velocity=(0, 7))  # thrown up from below
        >>> _ = crate.add_box(0.5, 0.5)
        >>> for _ in range(120):
        ...     world.step(1 / 60)
        >>> round(float(crate.position[1]), 2)    # through, and resting on top (1.1 + 0.25)
        1.35
        """
        self._check()
        st = self._world._shapes
        r = self._rows[0]
        d = st.one_way[r]
        if d[0] == 0.0 and d[1] == 0.0:
            return None
        a = self.body.angle
        c, s = math.cos(a), math.sin(a)
        return np.array([c * d[0] - s * d[1], s * d[0] + c * d[1]])

    @one_way.setter
    def one_way(self, value):
        self._check()
        if value is None:
            self._set("one_way", np.zeros(2))
            return
        d = V.real_vector("one_way", value)
        n = math.hypot(d[0], d[1])
        if not n > 0.0 or not math.isfinite(n):
            raise ValueError(f"one_way: expected a nonzero direction (x, y) or None, got "
                             f"{d.tolist()}")
        a = self.body.angle
        c, s = math.cos(a), math.sin(a)
        x, y = d[0] / n, d[1] / n
        # Kept in the body's frame, unit length.
        lx, ly = c * x + s * y, -s * x + c * y
        m = math.hypot(lx, ly)
        self._set("one_way", np.array([lx / m, ly / m]))

    def __reduce__(self):
        # Pickled as its world and id: unpickling gives the restored world's own handle.
        return (operator.methodcaller("shape", self.id), (self._world,))

    def __repr__(self) -> str:
        state = f"id={self._rows[0]}" if self.alive else "removed"
        return f"<Shape {self._kind} {state}>"


_bits = V.bits32
