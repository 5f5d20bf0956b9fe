"""Body handles: pose, velocity, mass and the shapes of one rigid body.

A Body is a thin view of one row of the world's body arrays (``World._bodies``); every
property reads or writes that row, so there is no state to fall out of sync. Handles carry a
generation: after ``world.remove(body)`` any use raises ``ValueError``.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from . import _store as S
from . import _tiers
from . import _validate as V
from ._decompose import decompose_ccw
from .shapes import Shape

_mass = _tiers.kernels("mass")

_MATERIAL_KEYS = ("density", "friction", "elasticity", "sensor", "category", "mask", "group")


class Body:
    """A rigid body. Create with ``world.add_body(...)``.

    Units: metres, radians (counter-clockwise), seconds, kilograms. ``position`` is the body
    origin in the world; shapes are given in the body frame around it.

    Example
    -------
    >>> import collide2d as c2d
    >>> world = c2d.World(gravity=(0, -10))
    >>> box = world.add_body(position=(0, 5), angle=0.3)
    >>> _ = box.add_box(1, 1, density=2)
    >>> box.mass, round(box.inertia, 6)
    (2.0, 0.333333)
    >>> box.apply_impulse((2, 0))
    >>> box.velocity.tolist()
    [1.0, 0.0]
    """

    __slots__ = ("_world", "_slot", "_gen", "_shapes", "__weakref__")

    def __init__(self, world, slot: int):
        self._world = world
        self._slot = slot
        self._gen = int(world._bodies.generation[slot])
        self._shapes: list[Shape] = []

    # -- identity
    def _s(self) -> int:
        b = self._world._bodies
        if b.generation[self._slot] != self._gen or not b.flags[self._slot] & S.B_ALIVE:
            raise ValueError("body: this body was removed from its world")
        return self._slot

    @property
    def id(self) -> int:
        """The body's id: an int that names this body, and only this body, for the life of
        its world (batch getters and setters, query and particle hit arrays,
        ``move_and_slide_many``); ``world.body(id)`` gives the handle back.

        Unlike :attr:`index`, an id does not shift when other bodies are removed, and it is
        never reused: a body that takes a removed body's storage gets a new id, so a stale
        id raises ``ValueError`` instead of naming another body. Ids are non-negative
        int64 values and -1 means "no body" in arrays; treat them as opaque (the value
        encodes where the body is stored and how often that place was reused).
        """
        s = self._s()
        return _encode(s, self._gen)

    @property
    def index(self) -> int:
        """Position in ``world.bodies`` (creation order; shifts when earlier bodies go)."""
        return int(self._world._bodies.order[self._s()])

    @property
    def alive(self) -> bool:
        b = self._world._bodies
        return bool(b.generation[self._slot] == self._gen and b.flags[self._slot] & S.B_ALIVE)

    @property
    def world(self):
        return self._world

    @property
    def kind(self) -> str:
        """"static", "kinematic" or "dynamic". Settable between steps (not from inside one).

        Changing the kind recomputes the mass data from the shapes (a mass or inertia set
        directly is dropped), wakes the body and whatever touches it, and keeps the pose. A
        body made static stops (velocity, angular velocity, force and torque cleared); a body
        made kinematic keeps its velocity and moves on by it. Refused (``ValueError``, nothing
        changed) when the body cannot become dynamic: a shape too small or too dense for
        usable mass data (see ``add_box``).

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World(gravity=(0, -10))
        >>> crate = world.add_body(kind="static", position=(0, 5))
        >>> _ = crate.add_box(1, 1, density=2)
        >>> crate.kind = "dynamic"
        >>> crate.mass
        2.0
        >>> world.step(0.1)
        >>> crate.velocity.tolist()
        [0.0, -1.0]
        """
        return S.KIND_OF[int(self._world._bodies.kind[self._s()])]

    @kind.setter
    def kind(self, value):
        k = S.KIND_NAMES.get(value) if isinstance(value, str) else None
        if k is None:
            raise ValueError(f"kind: expected 'static', 'kinematic' or 'dynamic', got {value!r}")
        s = self._s()
        world = self._world
        if world._locked:
            raise RuntimeError("kind: cannot change a body's kind while the world is stepping; "
                               "do it after step() returns")
        b = world._bodies
        if int(b.kind[s]) == k:
            return
        if any(tm.body._slot == s and tm.body._gen == self._gen
               for tm in world._characters.maps):
            raise ValueError("kind: this body holds a tile map, whose tiles never move; it "
                             "stays static")
        plan = self._mass_plan(s, k, self._parts(all_new=True) if k == S.DYNAMIC else [],
                               "kind", custom=False)
        b.kind[s] = k
        b.flags[s] &= ~S.B_CUSTOM_MASS
        if k != S.DYNAMIC:
            b.force[s] = 0.0
            b.torque[s] = 0.0
        if k == S.STATIC:
            b.vel[s] = 0.0
            b.angvel[s] = 0.0
        self._write_mass(s, plan)
        self._wake_touching(s)
        world._topology_changed()

    @property
    def shapes(self) -> list[Shape]:
        self._s()
        return list(self._shapes)

    # -- pose and velocity (live views of the arrays)
    @property
    def position(self) -> np.ndarray:
        """Body origin in the world (m). Settable; setting wakes the body."""
        return self._world._bodies.pos[self._s()].copy()

    @position.setter
    def position(self, value):
        v = V.real_vector("position", value, bounded=True)
        s = self._s()
        self._world._bodies.pos[s] = v
        self._touched(s)

    @property
    def angle(self) -> float:
        """Rotation in radians, counter-clockwise."""
        return float(self._world._bodies.angle[self._s()])

    @angle.setter
    def angle(self, value):
        a = V.finite_scalar("angle", value)
        s = self._s()
        self._world._bodies.angle[s] = a
        self._touched(s)

    @property
    def velocity(self) -> np.ndarray:
        """Velocity of the centre of mass (m/s). A static body never moves: setting it a
        velocity other than (0, 0) raises ``ValueError`` (make it kinematic instead)."""
        return self._world._bodies.vel[self._s()].copy()

    @velocity.setter
    def velocity(self, value):
        v = V.real_vector("velocity", value, bounded=True)
        s = self._s()
        if self._world._bodies.kind[s] == S.STATIC and (v[0] != 0.0 or v[1] != 0.0):
            raise ValueError("velocity: a static body never moves, so it takes no velocity; "
                             "make it kinematic (body.kind = 'kinematic') to move it")
        self._world._bodies.vel[s] = v
        self._wake(s)

    @property
    def angular_velocity(self) -> float:
        """rad/s, counter-clockwise. A static body takes none (``ValueError`` unless 0)."""
        return float(self._world._bodies.angvel[self._s()])

    @angular_velocity.setter
    def angular_velocity(self, value):
        w = V.finite_scalar("angular_velocity", value)
        s = self._s()
        if self._world._bodies.kind[s] == S.STATIC and w != 0.0:
            raise ValueError("angular_velocity: a static body never turns, so it takes no "
                             "angular velocity; make it kinematic (body.kind = 'kinematic')")
        self._world._bodies.angvel[s] = w
        self._wake(s)

    @property
    def center_of_mass(self) -> np.ndarray:
        """Centre of mass in the world frame (m)."""
        s = self._s()
        b = self._world._bodies
        return self.world_point_of(b.local_com[s], s)

    @property
    def local_center_of_mass(self) -> np.ndarray:
        return self._world._bodies.local_com[self._s()].copy()

    # -- mass
    @property
    def mass(self) -> float:
        """kg; from the shapes' densities, or set directly (0 is not allowed for dynamic
        bodies; static and kinematic bodies have infinite mass, reported as inf).

        Setting the mass scales the moment of inertia with it, as another density of the same
        shapes would (set :attr:`inertia` afterwards to choose it too); the centre of mass
        stays. A mass or inertia set directly is kept when shapes change.

        Example
        -------
        >>> import collide2d as c2d
        >>> ball = c2d.World().add_body()
        >>> _ = ball.add_circle(3.0)       # density 1: mass 9 pi, inertia m r^2 / 2
        >>> ball.mass = 1.0
        >>> round(ball.inertia, 12)        # 1 kg r^2 / 2
        4.5
        """
        s = self._s()
        b = self._world._bodies
        if b.kind[s] != S.DYNAMIC:
            return math.inf
        return float(b.mass[s])

    @mass.setter
    def mass(self, value):
        m = V.invertible("mass", value)
        s = self._s()
        b = self._world._bodies
        if b.kind[s] != S.DYNAMIC:
            raise ValueError(f"mass: only dynamic bodies have a mass (this body is {self.kind})")
        inertia = float(b.inertia[s])
        if inertia > 0.0:
            # The same shapes at another density: the inertia scales with the mass.
            inertia = inertia * (m / float(b.mass[s]))
            if not (math.isfinite(inertia) and inertia > 0.0
                    and math.isfinite(1.0 / inertia)):
                raise ValueError(f"mass: {m!r} kg would scale the moment of inertia to "
                                 f"{inertia:.3g} kg m^2, outside float64's usable range; "
                                 "choose a mass nearer the shapes' own")
        b.flags[s] |= S.B_CUSTOM_MASS
        b.mass[s] = m
        b.inv_mass[s] = 1.0 / m
        self._apply_inertia(s, inertia)

    @property
    def inertia(self) -> float:
        """Moment of inertia about the centre of mass (kg m^2); inf for fixed rotation or
        non-dynamic bodies."""
        s = self._s()
        b = self._world._bodies
        if b.kind[s] != S.DYNAMIC or b.inv_inertia[s] == 0.0:
            return math.inf if b.kind[s] != S.DYNAMIC or b.inertia[s] > 0 else 0.0
        return float(b.inertia[s])

    @inertia.setter
    def inertia(self, value):
        i = V.invertible("inertia", value)
        s = self._s()
        if self._world._bodies.kind[s] != S.DYNAMIC:
            raise ValueError(
                f"inertia: only dynamic bodies have inertia (this body is {self.kind})")
        self._world._bodies.flags[s] |= S.B_CUSTOM_MASS
        self._apply_inertia(s, i)

    def _apply_inertia(self, s: int, inertia: float) -> None:
        b = self._world._bodies
        b.inertia[s] = inertia
        fixed = b.flags[s] & S.B_FIXED_ROTATION
        b.inv_inertia[s] = 0.0 if (fixed or inertia <= 0.0) else 1.0 / inertia

    # -- flags and settings
    def _flag(self, bit: int) -> bool:
        return bool(self._world._bodies.flags[self._s()] & bit)

    def _set_flag(self, bit: int, on: bool) -> None:
        s = self._s()
        fl = self._world._bodies.flags
        fl[s] = (fl[s] | bit) if on else (fl[s] & ~bit)

    @property
    def bullet(self) -> bool:
        """Continuous collision: swept against static bodies so it never tunnels."""
        return self._flag(S.B_BULLET)

    @bullet.setter
    def bullet(self, on):
        self._set_flag(S.B_BULLET, V.flag("bullet", on))

    @property
    def fixed_rotation(self) -> bool:
        """Locks the angle (infinite inertia)."""
        return self._flag(S.B_FIXED_ROTATION)

    @fixed_rotation.setter
    def fixed_rotation(self, on):
        on = V.flag("fixed_rotation", on)
        self._set_flag(S.B_FIXED_ROTATION, on)
        s = self._s()
        self._world._unsettle()
        self._world._bodies.angvel[s] = 0.0 if on else self._world._bodies.angvel[s]
        self._apply_inertia(s, float(self._world._bodies.inertia[s]))

    @property
    def arcade(self) -> bool:
        """Arcade response, for game characters: no rotation; contacts reflect the velocity
        with elasticity and friction, and static friction holds below a speed threshold."""
        return self._flag(S.B_ARCADE)

    @arcade.setter
    def arcade(self, on):
        self._set_flag(S.B_ARCADE, V.flag("arcade", on))

    @property
    def awake(self) -> bool:
        """False while the body sleeps (at rest with its island). Setting True wakes it."""
        return self._flag(S.B_AWAKE)

    @awake.setter
    def awake(self, on):
        on = V.flag("awake", on)
        s = self._s()
        if on:
            self._wake(s)
        else:
            self._world._unsettle()
            self._world._bodies.flags[s] &= ~S.B_AWAKE
            self._world._bodies.vel[s] = 0.0
            self._world._bodies.angvel[s] = 0.0

    def _scalar_prop(field, doc, positive=False, unit_interval=False, signed=False):  # noqa: N805
        def get(self):
            return float(getattr(self._world._bodies, field)[self._s()])

        def set_(self, value):
            v = V.finite_scalar(field, value, nonnegative=not signed, positive=positive)
            V.check_bound(field, v)  # gravity times it must stay finite
            if unit_interval and v > 1.0:
                raise ValueError(f"{field}: must be in [0, 1] (fraction kept per second), got {v}")
            getattr(self._world._bodies, field)[self._s()] = v

        return property(get, set_, doc=doc)

    damping = _scalar_prop(
        "damping", "Fraction of linear velocity kept after one second (1 keeps all).",
        unit_interval=True)
    angular_damping = _scalar_prop(
        "angular_damping", "Fraction of angular velocity kept after one second.",
        unit_interval=True)
    gravity_scale = _scalar_prop(
        "gravity_scale", "Multiplies the world's gravity (negative: it falls up, a balloon).",
        signed=True)
    del _scalar_prop

    # -- forces
    def apply_force(self, force, point=None) -> None:
        """Add a force (N) acting over the next step at a world ``point`` (None: the centre of
        mass, no torque). Cleared after the step (a force accumulator)."""
        f = V.real_vector("force", force, bounded=True)
        p = None if point is None else V.real_vector("point", point, bounded=True)
        s = self._s()
        b = self._world._bodies
        if b.kind[s] != S.DYNAMIC:
            return
        b.force[s] += f
        if p is not None:
            r = p - self.world_point_of(b.local_com[s], s)
            b.torque[s] += r[0] * f[1] - r[1] * f[0]
        self._wake(s)

    def apply_torque(self, torque: float) -> None:
        """Add a torque (N m) over the next step."""
        t = V.finite_scalar("torque", torque)
        V.check_bound("torque", t)
        s = self._s()
        if self._world._bodies.kind[s] == S.DYNAMIC:
            self._world._bodies.torque[s] += t
            self._wake(s)

    def apply_impulse(self, impulse, point=None) -> None:
        """Change momentum at once by ``impulse`` (N s) at a world ``point`` (None: centre
        of mass)."""
        j = V.real_vector("impulse", impulse, bounded=True)
        p = None if point is None else V.real_vector("point", point, bounded=True)
        s = self._s()
        b = self._world._bodies
        if b.kind[s] != S.DYNAMIC:
            return
        b.vel[s] += j * b.inv_mass[s]
        if p is not None:
            r = p - self.world_point_of(b.local_com[s], s)
            b.angvel[s] += b.inv_inertia[s] * (r[0] * j[1] - r[1] * j[0])
        self._wake(s)

    # -- frames
    def world_point_of(self, local, s=None) -> np.ndarray:
        """A body-frame point in the world frame, at the body's current pose.

        Parameters
        ----------
        local : (2,) array_like
            The point in the body frame (m), as shapes are given.

        Returns
        -------
        (2,) float64 ndarray
            ``position + R(angle) local``.

        Example
        -------
        >>> import collide2d as c2d
        >>> body = c2d.World().add_body(position=(1, 2), angle=0.5 * 3.141592653589793)
        >>> body.world_point_of((1, 0)).round(12).tolist()   # a quarter turn: +x becomes +y
        [1.0, 3.0]
        """
        if s is None:  # ``s``: a slot already checked (internal callers)
            s = self._s()
            local = V.real_vector("local", local)
        b = self._world._bodies
        c, sn = math.cos(b.angle[s]), math.sin(b.angle[s])
        x, y = float(local[0]), float(local[1])
        return b.pos[s] + np.array([c * x - sn * y, sn * x + c * y])

    def world_points(self, local) -> np.ndarray:
        """Body-frame points (N, 2) to the world frame."""
        s = self._s()
        b = self._world._bodies
        c, sn = math.cos(b.angle[s]), math.sin(b.angle[s])
        p = V.points("local", local)
        return np.column_stack((c * p[:, 0] - sn * p[:, 1], sn * p[:, 0] + c * p[:, 1])) + b.pos[s]

    def local_point(self, world_point) -> np.ndarray:
        """A world point in the body frame."""
        s = self._s()
        b = self._world._bodies
        d = V.real_vector("world_point", world_point) - b.pos[s]
        c, sn = math.cos(b.angle[s]), math.sin(b.angle[s])
        return np.array([c * d[0] + sn * d[1], -sn * d[0] + c * d[1]])

    # -- shapes
    # Every add_* validates all of its arguments, the shape's geometry and the body's new mass
    # data before it writes a row: a refused call changes nothing. Sizes, radii and offsets
    # obey the coordinate bound (``_validate.COORD_MAX``); on a dynamic body each shape must
    # also have a mass and a moment of inertia whose reciprocals are finite (see _mass_plan).
    def add_box(self, width, height, offset=(0.0, 0.0), angle=0.0, **material) -> Shape:
        """A width x height rectangle centred at ``offset`` (body frame), rotated by ``angle``.

        Sizes and offset are in metres, at most ``COORD_MAX`` (1e75). The corners must stay
        within 2**40 times the box's smaller side of the body origin, where float64 still
        places them to about 1e-4 of that side: a box far from its body's origin is refused
        (``ValueError`` naming ``offset``); place the body there instead.
        """
        w = V.length("width", width)
        h = V.length("height", height)
        o = V.real_vector("offset", offset, bounded=True)
        a = V.finite_scalar("angle", angle)
        c, sn = math.cos(a), math.sin(a)
        hx, hy = 0.5 * w, 0.5 * h
        corners = np.array([(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)])
        rot = np.column_stack((c * corners[:, 0] - sn * corners[:, 1],
                               sn * corners[:, 0] + c * corners[:, 1]))
        off = float(np.max(np.abs(o)))
        name = "offset" if off > 0.0 else "width"
        if not off <= _BOX_REACH * min(w, h):
            raise ValueError(f"offset: a {w:g} x {h:g} box at offset ({o[0]:g}, {o[1]:g}) "
                             "lies more than 2**40 times its smaller side from the body "
                             "origin, where float64 cannot place its corners (place the body "
                             "at the box instead)")
        rot += o
        reach = float(np.max(np.abs(rot)))
        if not reach <= V.COORD_MAX:
            raise ValueError(f"{name}: the box's corners would lie {reach:.3g} m from the body "
                             f"origin, beyond the supported {V.COORD_MAX:.0e}")
        try:
            poly = V.polygon(name, rot, convex=True)
        except ValueError as exc:
            raise ValueError(f"{name}: a {w:g} x {h:g} box here is degenerate in float64 "
                             f"({exc})") from None
        return self._add([poly], 0.0, "polygon", material, "width")

    def add_circle(self, radius, offset=(0.0, 0.0), **material) -> Shape:
        """A circle of ``radius`` (m) centred at ``offset`` in the body frame (both at most
        ``COORD_MAX``, 1e75)."""
        r = V.length("radius", radius)
        o = V.real_vector("offset", offset, bounded=True)
        return self._add([o.reshape(1, 2).copy()], r, "circle", material, "radius")

    def add_polygon(self, vertices, radius=0.0, **material) -> Shape:
        """A polygon in the body frame, either winding; a concave outline is decomposed into
        convex parts that act as one shape. ``radius`` > 0 rounds a convex polygon."""
        v = V.polygon("vertices", vertices)
        r = V.length("radius", radius, nonnegative=True)
        if V.convex_ccw(v):
            parts = [v]
        else:
            if r > 0.0:
                raise ValueError("radius: only convex polygons can be rounded")
            from .geometry import _check_simple

            _check_simple(v, "vertices")
            parts = decompose_ccw(v)
        return self._add(parts, r, "polygon", material, "vertices")

    def add_segment(self, a, b, radius=0.0, **material) -> Shape:
        """A segment from ``a`` to ``b`` (body frame), a capsule when ``radius`` > 0.

        A bare segment (radius 0) has no area, so no mass of its own: on a dynamic body
        whose other shapes have none either, the body's default 1 kg is spread along its
        segments as thin rods (inertia m L^2 / 12 about each segment's middle), so it turns
        and topples. Give such a body a capsule or a ``mass`` for other values.
        """
        pa = V.real_vector("a", a, bounded=True)
        pb = V.real_vector("b", b, bounded=True)
        if np.array_equal(pa, pb):
            raise ValueError("b: segment endpoints must differ (use add_circle for a point)")
        r = V.length("radius", radius, nonnegative=True)
        return self._add([np.vstack((pa, pb))], r, "segment", material, "b" if r == 0.0
                         else "radius")

    def add_chain(self, points, radius=0.0, loop=False, **material) -> list[Shape]:
        """Segments joining consecutive ``points`` (body frame), one shape each, in order,
        and with ``loop`` one more from the last point back to the first: the shapes
        ``add_segment`` would make pair by pair (the same rows, mass and material), in one
        call, several times faster for terrain of hundreds of segments. Consecutive points
        must differ.

        Example
        -------
        >>> import collide2d as c2d
        >>> world = c2d.World()
        >>> ground = world.add_body(kind="static")
        >>> edges = ground.add_chain([(0, 0), (1, 0.5), (2, 0)], friction=0.5)
        >>> len(edges), edges[1].friction
        (2, 0.5)
        """
        if np.asarray(points).dtype.kind not in "iuf":  # as add_segment: no bools, strings
            raise TypeError(f"points: expected numbers, got {points!r:.60}")
        p = V.points("points", points, bounded=True)
        loop = V.flag("loop", loop)
        if p.shape[0] < (3 if loop else 2):
            raise ValueError(f"points: a {'loop' if loop else 'chain'} needs at least "
                             f"{3 if loop else 2} points, got {p.shape[0]}")
        ends = np.roll(p, -1, axis=0) if loop else p[1:]
        starts = p if loop else p[:-1]
        same = np.flatnonzero(np.all(starts == ends, axis=1))
        if same.size:
            i = int(same[0])
            j = (i + 1) % p.shape[0]
            raise ValueError(f"points: points[{i}] and points[{j}] are equal (each segment "
                             "needs two distinct ends)")
        r = V.length("radius", radius, nonnegative=True)
        parts = [np.vstack((a, b)) for a, b in zip(starts, ends, strict=True)]
        return self._add_shapes([[q] for q in parts], r, "segment", material,
                                "points" if r == 0.0 else "radius")

    def _add(self, parts, radius, kind, material, blame="shape") -> Shape:
        """One shape of ``parts`` (a decomposed polygon's convex parts act as one)."""
        return self._add_shapes([parts], radius, kind, material, blame)[0]

    def _add_shapes(self, groups, radius, kind, material, blame) -> list[Shape]:
        """A shape per group of parts, in order: the material checked, the mass planned
        (nothing written if either fails), the topology changed and the body woken once."""
        s = self._s()
        mat = _material(material)
        world = self._world
        b = world._bodies
        groups = [[np.ascontiguousarray(p, dtype=np.float64) for p in parts]
                  for parts in groups]
        new = [] if mat["sensor"] else [(p, radius, mat["density"], True)
                                        for parts in groups for p in parts]
        kind_now = int(b.kind[s])
        plan = self._mass_plan(s, kind_now, self._parts() + new if kind_now == S.DYNAMIC
                               else [], blame, custom=bool(b.flags[s] & S.B_CUSTOM_MASS))
        st = world._shapes
        flags = S.S_ALIVE | (S.S_SENSOR if mat["sensor"] else 0)
        shapes = []
        for parts in groups:
            rows = [st.alloc(p) for p in parts]
            owner = rows[0]
            for row in rows:
                st.body[row] = s
                st.owner[row] = owner
                st.radius[row] = radius
                st.flags[row] = flags
                for k in ("density", "friction", "elasticity", "category", "mask", "group"):
                    getattr(st, k)[row] = mat[k]
            shape = Shape(world, self, rows, kind)
            self._shapes.append(shape)
            world._shape_handles[owner] = shape
            shapes.append(shape)
        world._topology_changed()
        self._write_mass(s, plan)
        self._wake(s)
        return shapes

    def _parts(self, change=None, all_new=False) -> list:
        """The body's massive parts (verts, radius, density, new) as its rows stand, or with
        ``change`` {row: density, or None for "not massive"} applied (marked new)."""
        st = self._world._shapes
        out = []
        for shape in self._shapes:
            for r in shape._rows:
                if change is not None and r in change:
                    rho = change[r]
                    if rho is None:
                        continue
                    is_new = True
                elif st.flags[r] & S.S_SENSOR:
                    continue
                else:
                    rho, is_new = float(st.density[r]), all_new
                a, n = int(st.vstart[r]), int(st.vcount[r])
                out.append((st.vlocal[a:a + n], float(st.radius[r]), rho, is_new))
        return out

    def _mass_plan(self, s: int, kind: int, parts: list, blame: str, custom: bool):
        """The mass data a body of ``kind`` with these massive ``parts`` gets: (mass,
        local_com or None to keep, inertia), or None to keep all (set directly). Raises
        ``ValueError`` naming ``blame`` when a new part or the whole is unusable; writes
        nothing."""
        if kind != S.DYNAMIC:
            return (0.0, None, 0.0)
        items, rods = [], []
        for verts, rad, rho, is_new in parts:
            with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked below
                item = _part_mass(verts, rad, rho)
            if verts.shape[0] == 2 and rad == 0.0:  # a bare segment: a rod of the default mass
                p, q = verts[0], verts[1]
                length = math.hypot(float(q[0] - p[0]), float(q[1] - p[1]))
                item = (length, 0.5 * float(p[0] + q[0]), 0.5 * float(p[1] + q[1]),
                        length * length / 12.0)
                if is_new:
                    _check_part(blame, 1.0, item[3], rho=None)
                rods.append(item)
            else:
                if is_new:
                    _check_part(blame, item[0], item[3], rho)
                items.append(item)
        if custom:
            return None
        if not items and not rods:
            # No shape yet: 1 kg at the origin that does not rotate, as in Box2D.
            return (1.0, (0.0, 0.0), 0.0)
        if not items:
            # Only bare segments: 1 kg spread along them by length, as thin rods.
            total = sum(it[0] for it in rods)
            items = [(it[0] / total, it[1], it[2], it[3] * (it[0] / total)) for it in rods]
        with np.errstate(over="ignore", invalid="ignore"):
            mass, cx, cy, inertia = _combine(items)
        if not (math.isfinite(mass) and math.isfinite(1.0 / mass) and math.isfinite(cx)
                and math.isfinite(cy) and math.isfinite(inertia) and inertia > 0.0
                and math.isfinite(1.0 / inertia)):
            raise ValueError(f"{blame}: the body's mass data would leave float64's usable "
                             f"range (mass {mass:.3g} kg, centre of mass ({cx:.3g}, {cy:.3g}), "
                             f"moment of inertia {inertia:.3g} kg m^2); use smaller sizes or "
                             "densities, or set body.mass")
        return (mass, (cx, cy), inertia)

    def _write_mass(self, s: int, plan) -> None:
        if plan is None:
            return
        b = self._world._bodies
        mass, com, inertia = plan
        if b.kind[s] != S.DYNAMIC:
            b.mass[s] = b.inv_mass[s] = b.inertia[s] = b.inv_inertia[s] = 0.0
            return
        b.mass[s] = mass
        b.inv_mass[s] = 1.0 / mass
        if com is not None:
            # The body's origin stays where it is; its centre of mass moves with the shapes.
            b.local_com[s] = com
        self._apply_inertia(s, inertia)

    def _update_mass(self) -> None:
        """Mass, centre of mass and inertia from the shapes (unless set directly), after a
        change that cannot make them unusable (a shape removed, a body added)."""
        s = self._s()
        b = self._world._bodies
        custom = bool(b.flags[s] & S.B_CUSTOM_MASS)
        kind = int(b.kind[s])
        try:
            plan = self._mass_plan(s, kind, self._parts() if kind == S.DYNAMIC else [], "shape",
                                   custom)
        except ValueError:  # pragma: no cover - every accepted change keeps it usable
            return
        self._write_mass(s, plan)

    def _wake_touching(self, s: int) -> None:
        """Wake this body and every body in contact with one of its shapes."""
        self._world._wake_touching(
            np.asarray([r for shape in self._shapes for r in shape._rows], dtype=np.int64))
        self._wake(s)

    def _touched(self, s: int) -> None:
        self._world._poses_changed()
        self._wake(s)

    def _wake(self, s: int) -> None:
        self._world._unsettle()
        b = self._world._bodies
        b.flags[s] |= S.B_AWAKE
        b.sleep_time[s] = 0.0

    def __reduce__(self):
        # Pickled as its world and id: unpickling gives the restored world's own handle.
        return (operator.methodcaller("body", self.id), (self._world,))

    def __repr__(self) -> str:
        if not self.alive:
            return "<Body removed>"
        p = self.position
        return f"<Body {self.kind} id={self.id} position=({p[0]:.3g}, {p[1]:.3g})>"


# -- body ids: generation << 32 | slot. Generation 0 gives id == slot, so a world that never
# removed a body has ids 0, 1, 2, ... in creation order.
_SLOT_BITS = 32
_SLOT_MASK = (1 << _SLOT_BITS) - 1


def _encode(slot: int, generation: int) -> int:
    return (int(generation) << _SLOT_BITS) | int(slot)


def _ids_by_slot(bodies) -> np.ndarray:
    """(count,) int64: the id every body slot would have now (dead slots included)."""
    n = bodies.count
    return (bodies.generation[:n] << _SLOT_BITS) | np.arange(n, dtype=np.int64)


_IDENTITY = np.arange(1024, dtype=np.int64)


def _slot_identity(n: int) -> np.ndarray:
    """0, 1, ..., n - 1 (a shared array): given to kernels that map a body slot through a
    lookup table, so that they write slots, which ``_ids_of_slots`` then turns into ids for
    just the rows found instead of building an id table of every slot per query."""
    global _IDENTITY
    if _IDENTITY.shape[0] < n:
        _IDENTITY = np.arange(max(n, 2 * _IDENTITY.shape[0]), dtype=np.int64)
    return _IDENTITY[:n]


def _ids_of_slots(bodies, slots: np.ndarray) -> np.ndarray:
    """Ids of body slots (-1 stays -1), in place."""
    found = slots >= 0
    s = slots[found]
    slots[found] = (bodies.generation[s] << _SLOT_BITS) | s
    return slots


def _slots_of_ids(bodies, name: str, ids) -> np.ndarray:
    """Validated slots (k,) of an array-like of live body ids (k,); a Body handle sequence is
    refused here (the callers that take handles convert them first)."""
    a = np.asarray(ids)
    if a.dtype == object and a.ndim == 1 and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
            for v in a.tolist()):
        # Python ints past int64: no body has such an id (a ValueError, not an overflow).
        big = [v for v in a.tolist() if not -(2**63) <= v < 2**63]
        if big:
            raise ValueError(f"{name}: {big[0]} is not the id of a live body")
        a = a.astype(np.int64)
    if a.dtype == np.bool_ or not (np.issubdtype(a.dtype, np.integer) or a.size == 0):
        raise TypeError(f"{name}: expected an int array of body ids (see Body.id), got "
                        f"dtype {a.dtype}")
    if a.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array of body ids, got shape {a.shape}")
    if a.size == 0:
        return np.empty(0, np.int64)
    if np.issubdtype(a.dtype, np.unsignedinteger) and int(a.max()) > np.iinfo(np.int64).max:
        raise ValueError(f"{name}: {int(a.max())} is not the id of a live body")
    a = a.astype(np.int64, copy=False)
    slot = a & _SLOT_MASK
    gen = a >> _SLOT_BITS
    bad = (a < 0) | (slot >= bodies.count)
    ok = ~bad
    s = slot[ok]
    bad[ok] = (bodies.generation[s] != gen[ok]) | ((bodies.flags[s] & S.B_ALIVE) == 0)
    if bad.any():
        raise ValueError(f"{name}: {int(a[np.flatnonzero(bad)[0]])} is not the id of a live "
                         "body (removed, or never one)")
    return slot


#: How far (in units of its smaller side) a box's corners may lie from the body origin:
#: beyond 2**40 sides float64 places them no better than 2**-13 of a side (as tile maps).
_BOX_REACH = 2.0**40


def _part_mass(verts, rad, rho):
    """(mass, cx, cy, inertia about the part's centroid) of one convex part; a bare segment
    has none (0, ...)."""
    n = verts.shape[0]
    if n >= 3:
        # A rounded polygon's skin is not counted (it is thin for game shapes).
        m, cx, cy, inertia = _mass.polygon_mass(verts, 0, n, rho)
        return float(m), float(cx), float(cy), float(inertia)
    if n == 1:
        m = rho * math.pi * rad * rad
        return m, float(verts[0, 0]), float(verts[0, 1]), 0.5 * m * rad * rad
    if rad == 0.0:
        return 0.0, 0.0, 0.0, 0.0
    m, cx, cy, inertia = _mass.capsule_mass(verts[0, 0], verts[0, 1], verts[1, 0], verts[1, 1],
                                            rad, rho)
    return float(m), float(cx), float(cy), float(inertia)


def _check_part(blame: str, m: float, inertia: float, rho) -> None:
    """A shape of a dynamic body needs a mass and a moment of inertia with finite
    reciprocals: the solver divides by them (``rho`` None: a bare segment's 1 kg rod)."""
    if (math.isfinite(m) and m > 0.0 and math.isfinite(1.0 / m) and math.isfinite(inertia)
            and inertia > 0.0 and math.isfinite(1.0 / inertia)):
        return
    what = "as a 1 kg rod" if rho is None else f"at density {rho:g}"
    raise ValueError(f"{blame}: on a dynamic body this shape {what} has mass {m:.3g} kg and "
                     f"moment of inertia {inertia:.3g} kg m^2; both must lie within float64's "
                     "usable range (1 / value finite, as the solver divides by them): make it "
                     "larger or smaller, change the density, or use a static body")


def _combine(items):
    """(mass, cx, cy, inertia about the centre of mass) of parts (m, px, py, inertia about
    their own centroids).

    The sum about the body origin (the long-standing formula, kept so that existing scenes
    give the same bits) loses all precision when the parts lie far from the origin compared
    with their size (I = sum(i + m p^2) - M c^2 cancels); then, or when it overflows, the sum
    about the centre of mass is used instead.
    """
    total, cx, cy, i_origin = 0.0, 0.0, 0.0, 0.0
    for m, px, py, i_c in items:
        total += m
        cx += m * px
        cy += m * py
        i_origin += i_c + m * (px * px + py * py)
    cx /= total
    cy /= total
    if not (math.isfinite(cx) and math.isfinite(cy)):  # m * p overflowed: weights first
        cx = math.fsum((m / total) * px for m, px, _, _ in items)
        cy = math.fsum((m / total) * py for m, _, py, _ in items)
    inertia = i_origin - total * (cx * cx + cy * cy)
    about_com = math.fsum(i_c + m * ((px - cx) ** 2 + (py - cy) ** 2)
                          for m, px, py, i_c in items)
    if not (math.isfinite(inertia) and abs(inertia - about_com) <= 1e-12 * about_com):
        inertia = about_com
    return total, cx, cy, inertia


def _material(kw) -> dict:
    unknown = set(kw) - set(_MATERIAL_KEYS)
    if unknown:
        raise TypeError(f"{sorted(unknown)[0]}: unknown shape option; expected one of "
                        f"{list(_MATERIAL_KEYS)}")
    out = {
        "density": V.finite_scalar("density", kw.get("density", 1.0), positive=True),
        "friction": V.finite_scalar("friction", kw.get("friction", 0.6), nonnegative=True),
        "elasticity": V.finite_scalar("elasticity", kw.get("elasticity", 0.0),
                                      nonnegative=True),
        "sensor": V.flag("sensor", kw.get("sensor", False)),
    }
    out["category"] = V.bits32("category", kw.get("category", 1))
    out["mask"] = V.bits32("mask", kw.get("mask", 0xFFFFFFFF))
    out["group"] = V.int64("group", kw.get("group", 0))
    return out
