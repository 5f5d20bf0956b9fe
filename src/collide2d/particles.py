"""Particles: cannonballs, bullets, sparks and rain, many at once, that never tunnel.

A :class:`Particles` system holds positions and velocities as NumPy arrays and is moved by
the world at each ``world.step``, after the bodies, in one compiled call: gravity, drag,
then a segment test from each particle's old to its new position against every shape
through the world's tree. Hits come back as arrays (:attr:`Particles.hits`).

Example
-------
>>> import collide2d as c2d
>>> world = c2d.World(gravity=(0, 0))
>>> hull = world.add_body(kind="static", position=(50, 0))
>>> _ = hull.add_box(0.1, 10)                          # a thin plate, faces at x = 49.95
>>> balls = world.add_particles([(0, 0), (0, 20)], [(3000, 0), (3000, 0)])
>>> world.step(1 / 60)                                  # 50 m per step: straight through?
>>> balls.alive.tolist(), balls.positions[0].round(6).tolist()
([False, True], [49.95, 0.0])
>>> hits = balls.hits
>>> hits.particle.tolist(), hits.normal.tolist(), round(float(hits.fraction[0]), 6)
([0], [[-1.0, 0.0]], 0.999)
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import NamedTuple

import numpy as np

from . import _store as S
from . import _tiers
from . import _validate as V
from ._kernels import views as KV
from .body import _ids_by_slot
from .queries import QueryFilter, ShapeTree
from .snapshot import register_system

_kp = _tiers.kernels("particles")

__all__ = ["Particles", "ParticleHitArrays"]

def _modes() -> dict:
    """``on_hit`` names -> the kernel's codes (read on first use: importing collide2d does
    not import the particle kernels)."""
    return {"stop": _kp.STOP, "bounce": _kp.BOUNCE, "pass": _kp.PASS}


def _mode_names() -> dict:
    return {v: k for k, v in _modes().items()}

#: The body frames the next step measures motion from, one row per body slot at the last
#: step: centre of mass, angle, generation (a slot reused since then did not move). The
#: schema is walked by snapshots (saved as ``frame_<name>``).
_FRAME_FIELDS = {"com": ((2,), np.float64), "angle": ((), np.float64),
                 "generation": ((), np.int64)}
_Frames = namedtuple("_Frames", tuple(_FRAME_FIELDS))
# The settings saved as "settings", in order.
_SAVED_SETTINGS = ("elasticity", "gravity_scale", "drag")


class ParticleHitArrays(NamedTuple):
    """Hits of the last step, one row per hit (a bouncing particle may hit several times):
    ``particle`` (row in the system's arrays), ``body`` (body id, see ``Body.id``),
    ``shape`` (shape id), ``point`` (m), ``normal`` (the shape's outward unit surface normal
    at the hit, as a ray hit's: see ``docs/geometry-rules.md``, "Normals"; (0, 0) for a
    particle that started the step inside it), ``fraction`` (time of the hit within the step,
    0 at its start, 1 at its end)."""

    particle: np.ndarray
    body: np.ndarray
    shape: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    fraction: np.ndarray


@register_system
class Particles:
    """Many point projectiles moved by the world. Create with ``world.add_particles``.

    Each step: ``v += gravity * gravity_scale * dt``, then ``v *= exp(-drag * dt)``, then
    the particle moves along ``v * dt``; the segment is tested against every shape (tunnelling
    is impossible at any speed; moving and turning bodies are tested in their own frame).
    The first shape crossed is a hit, handled by ``on_hit``:

    * ``"stop"``: the particle dies at the hit point (``alive`` False; its velocity keeps the
      impact velocity);
    * ``"bounce"``: the velocity relative to the surface is reflected with ``elasticity``
      (0: slide along, 1: mirror) and the rest of the step's motion continues from the hit
      point; after ``max_bounces`` such bounces in one step, the next hit still reflects
      the velocity but the particle waits at that point until the next step;
    * ``"pass"``: the hit is reported and the particle flies on.

    A particle that starts a step inside a shape hits it at fraction 0 with normal (0, 0),
    as a segment query does; it stops, or (with "pass") flies on. With "bounce" there is no
    surface to reflect off: it leaves that shape unreported and still bounces off every
    other, so a body that squeezes a particle against a wall never pushes it into the wall.

    Attributes
    ----------
    positions, velocities : (n, 2) ndarray
        Live views (m, m/s): write to them to move or push particles. Views are replaced
        when particles are added or removed; fetch them again after :meth:`add` or
        :meth:`remove`.
    alive : (n,) ndarray of bool
        Live view; dead particles neither move nor hit. Set False to retire one.
    filter : QueryFilter
        Which shapes particles hit (sensors are ignored unless the filter includes them).

    Example
    -------
    >>> import collide2d as c2d
    >>> world = c2d.World(gravity=(0, -10))
    >>> _ = world.add_body(kind="static").add_box(100, 1, offset=(0, -0.5))   # floor y = 0
    >>> rain = world.add_particles([(0, 1)], [(0, -5)], on_hit="bounce", elasticity=1.0)
    >>> for _ in range(60):
    ...     world.step(1 / 60)
    >>> bool(rain.positions[0, 1] > 0), len(rain)
    (True, 1)
    """

    _snapshot_kind = "particles"

    def __init__(self, world, positions, velocities, on_hit="stop", elasticity=0.0,
                 gravity_scale=1.0, drag=0.0, filter=None):
        self._world = world
        self._params = np.zeros(1, KV.PARTICLE_PARAMS_DTYPE)
        self._state = np.zeros(1, KV.PARTICLE_STEP_DTYPE)
        self.on_hit = on_hit
        self.elasticity = elasticity
        self.gravity_scale = gravity_scale
        self.drag = drag
        self.filter = QueryFilter() if filter is None else filter
        self.max_bounces = 4
        pos, vel = S.ParticleStore.check_new(positions, velocities)
        self._store = S.ParticleStore(max(pos.shape[0], 16))
        self._store.append(pos, vel)
        self._tree = ShapeTree()
        self._hits = S.ParticleHitStore(256)
        self._frames = self._body_frames()
        self._attached = True

    # ------------------------------------------------------------------ settings
    @property
    def on_hit(self) -> str:
        """"stop", "bounce" or "pass"."""
        return _mode_names()[int(self._params[0]["mode"])]

    @on_hit.setter
    def on_hit(self, value):
        self._params[0]["mode"] = _modes()[V.choice("on_hit", value, _modes())]

    @property
    def elasticity(self) -> float:
        """Restitution of a bounce (>= 0): 0 slides along the surface, 1 mirrors."""
        return float(self._params[0]["elasticity"])

    @elasticity.setter
    def elasticity(self, value):
        self._params[0]["elasticity"] = V.finite_scalar("elasticity", value, nonnegative=True)

    @property
    def gravity_scale(self) -> float:
        """Multiplies the world's gravity for these particles (0: none)."""
        return float(self._params[0]["gravity_scale"])

    @gravity_scale.setter
    def gravity_scale(self, value):
        g = V.finite_scalar("gravity_scale", value)
        V.check_bound("gravity_scale", g)   # gravity times it must stay finite
        self._params[0]["gravity_scale"] = g

    @property
    def drag(self) -> float:
        """Linear damping rate (1/s, >= 0): velocity decays as exp(-drag t)."""
        return float(self._params[0]["drag"])

    @drag.setter
    def drag(self, value):
        self._params[0]["drag"] = V.finite_scalar("drag", value, nonnegative=True)

    @property
    def filter(self) -> QueryFilter:
        return self._filter

    @filter.setter
    def filter(self, value):
        if not isinstance(value, QueryFilter):
            raise TypeError(f"filter: expected a QueryFilter, got {type(value).__name__}")
        if any(b.world is not self._world for b in value.exclude):
            raise ValueError("filter: an excluded body belongs to another world")
        self._filter = value
        self._write_filter(value.category, value.mask, value.sensors)

    def _write_filter(self, category, mask, sensors) -> None:
        # A QueryFilter's fields may change after it is set: each step writes them again.
        p = self._params[0]
        p["category"] = category
        p["mask"] = mask
        p["sensors"] = 1 if sensors else 0

    @property
    def max_bounces(self) -> int:
        """Bounces per particle per step that continue the step's motion (default 4); a
        further hit in the same step reflects the velocity and leaves the particle at the
        hit point until the next step."""
        return int(self._params[0]["max_bounces"])

    @max_bounces.setter
    def max_bounces(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"max_bounces: expected an int >= 0, got {value!r}")
        if not 0 <= value < 2**31:
            raise ValueError(f"max_bounces: expected an int in [0, 2**31), got {value!r}")
        self._params[0]["max_bounces"] = int(value)

    # ------------------------------------------------------------------ arrays
    def __len__(self) -> int:
        return self._store.count

    @property
    def positions(self) -> np.ndarray:
        return self._store.positions[: self._store.count]

    @property
    def velocities(self) -> np.ndarray:
        return self._store.velocities[: self._store.count]

    @property
    def alive(self) -> np.ndarray:
        return self._store.alive[: self._store.count]

    @property
    def alive_count(self) -> int:
        """Number of live particles."""
        return int(np.count_nonzero(self.alive))

    @property
    def hits(self) -> ParticleHitArrays:
        """The last step's hits as arrays (copies), in particle order per bounce."""
        return ParticleHitArrays(*(arr.copy() for arr in self._hits.rows()))

    def add(self, positions, velocities=None) -> np.ndarray:
        """Append live particles; returns their indices.

        ``positions`` is (N, 2) (m); ``velocities`` (N, 2), one (vx, vy) for all, or None
        (at rest), in m/s.
        """
        self._check_attached()
        pos, vel = S.ParticleStore.check_new(positions, velocities)
        first = self._store.count
        self._store.append(pos, vel)
        return np.arange(first, self._store.count)

    def remove(self, which) -> None:
        """Delete particles: a bool mask of length ``len(self)`` or integer indices. The
        others keep their order and move down to fill the gaps (indices change)."""
        n = self._store.count
        w = np.asarray(which)
        if w.dtype == np.bool_:
            if w.shape != (n,):
                raise ValueError(f"which: a mask must have shape ({n},), got {w.shape}")
            drop = w
        else:
            if w.size and not np.issubdtype(w.dtype, np.integer):
                raise TypeError(f"which: expected a bool mask or integer indices, got {w.dtype}")
            idx = w.astype(np.int64).ravel()
            if idx.size and (idx.min() < -n or idx.max() >= n):
                raise ValueError(f"which: indices must be in [-{n}, {n}), got {idx.tolist()}")
            drop = np.zeros(n, dtype=np.bool_)
            drop[idx] = True
        self._store.keep(~drop)

    def remove_dead(self) -> None:
        """Delete every particle that is not alive (stopped ones, for instance)."""
        self.remove(~self.alive)

    def destroy(self) -> None:
        """Detach from the world: the world stops moving these particles."""
        if self._attached:
            self._world._systems.remove(self)
            self._attached = False

    def _check_attached(self) -> None:
        if not self._attached:
            raise RuntimeError("particles: this system was destroyed")

    # ------------------------------------------------------------------ stepping
    def _check_finite(self) -> None:
        """The live arrays are writable views: refuse to step or save what was written
        into them if it is NaN, inf or beyond the coordinate bound."""
        st = self._store
        for name in ("positions", "velocities"):
            arr = getattr(st, name)[: st.count]
            if not np.all(np.isfinite(arr)):
                raise ValueError(f"particles.{name}: holds NaN or inf (written into the live "
                                 "array); fix or remove those particles")
            V.check_bound(f"particles.{name}", arr)

    def _body_frames(self) -> _Frames:
        """Centre of mass (slots, 2), angle and generation of every body slot now."""
        b = self._world._bodies
        n = b.count
        c, s = np.cos(b.angle[:n]), np.sin(b.angle[:n])
        lc = b.local_com[:n]
        com = b.pos[:n] + np.column_stack((c * lc[:, 0] - s * lc[:, 1],
                                           s * lc[:, 0] + c * lc[:, 1]))
        return _Frames(com, b.angle[:n].copy(), b.generation[:n].copy())

    def _motion(self, now: _Frames) -> KV.MotionView:
        """Per body slot: its id, moved since the last step, its turn (rad) and its centre
        of mass at the last step and now (slots born since then did not move)."""
        last = self._frames
        b = self._world._bodies
        com1, ang1 = now.com, now.angle
        n = com1.shape[0]
        k = min(n, last.com.shape[0])
        com0 = com1.copy()
        ang0 = ang1.copy()
        same = last.generation[:k] == now.generation[:k]
        com0[:k][same] = last.com[:k][same]
        ang0[:k][same] = last.angle[:k][same]
        live = (b.flags[:n] & S.B_ALIVE) != 0
        moved = live & ((com0 != com1).any(axis=1) | (ang0 != ang1))
        return KV.MotionView(_ids_by_slot(b), moved, ang1 - ang0, com0, com1)

    def _step(self, dt: float) -> None:
        world = self._world
        world._sync_shapes()
        s = world._shapes
        now = self._body_frames()
        motion = self._motion(now)
        shapes = s.view()
        swept = np.empty((s.count, 4))
        _kp.swept_boxes(shapes, motion, s.count, swept)
        self._tree.update(swept, s.flags, s.count)
        category, mask, sensors, exclude = world._queries._filter_args(self._filter)
        self._write_filter(category, mask, sensors)
        p = self._params[0]
        g = world._gravity * p["gravity_scale"]
        p["dt"] = dt
        p["gx"] = g[0]
        p["gy"] = g[1]
        p["keep"] = math.exp(-p["drag"] * dt)
        st = self._state[0]
        st["n"] = self._store.count
        st["leg"] = -1
        parts, legs = self._store.view(), self._store.legs
        tree, bodies = self._tree.view(), world._bodies.view()
        while _kp.step_particles(parts, legs, self._hits.table, bodies, shapes, tree, motion,
                                 exclude, self._params, self._state):
            self._hits.count = int(st["n_hits"])    # the rows written so far are kept
            self._hits.fit(int(st["need"]))
        self._hits.count = int(st["n_hits"])
        self._frames = now

    # ------------------------------------------------------------------ snapshots
    def _snapshot_arrays(self) -> dict[str, np.ndarray]:
        """Whole state as arrays (``world.snapshot``), walking the schemas: the particle
        store's saved fields, settings, filter (excluded bodies by index in
        ``world.bodies``), the last step's hits (``hit_<field>``) and the body frames that
        the next step measures motion from (``frame_<field>``)."""
        p = self._params[0]
        f = self._filter
        out = self._store.state()
        out["on_hit"] = np.array(p["mode"], dtype=np.int64)
        out["settings"] = np.array([p[name] for name in _SAVED_SETTINGS])
        out["max_bounces"] = np.array(p["max_bounces"], dtype=np.int64)
        out["filter_bits"] = np.array([f.category, f.mask, int(f.sensors)], dtype=np.int64)
        out["filter_exclude"] = np.array([body.index for body in f.exclude if body.alive],
                                         dtype=np.int64)
        for name, arr in zip(KV.PARTICLE_HIT_FIELDS, self._hits.rows(), strict=True):
            out[f"hit_{name}"] = arr.copy()
        for name, arr in zip(_Frames._fields, self._frames, strict=True):
            out[f"frame_{name}"] = arr.copy()
        return out

    @classmethod
    def _snapshot_restore(cls, world, arrays) -> Particles:
        def get(name, dtype, shape):
            a = arrays.get(name)
            if a is None:
                raise ValueError(f"particles: the snapshot lacks {name!r}")
            if a.dtype != dtype or len(a.shape) != len(shape) or any(
                    want is not None and got != want
                    for got, want in zip(a.shape, shape, strict=True)):
                raise ValueError(f"particles: {name!r} has dtype {a.dtype} and shape {a.shape}")
            return a

        def rows(prefix, schema):
            """The arrays of a schema's fields (saved as prefix + name), all with the
            first one's row count."""
            out, n = {}, None
            for name, (shape, dtype, *_) in schema.items():
                out[name] = get(prefix + name, np.dtype(dtype), (n,) + shape)
                n = out[name].shape[0]
            return out

        f8, i8 = np.dtype(np.float64), np.dtype(np.int64)
        state = rows("", S.ParticleStore.saved_fields())
        mode = int(get("on_hit", i8, ()))
        if mode not in _mode_names():
            raise ValueError(f"particles: unknown on_hit code {mode}")
        settings = dict(zip(_SAVED_SETTINGS, get("settings", f8, (3,)).tolist(), strict=True))
        bits = get("filter_bits", i8, (3,)).tolist()
        excl = get("filter_exclude", i8, (None,))
        if excl.size and (excl.min() < 0 or excl.max() >= len(world.bodies)):
            raise ValueError("particles: an excluded body index is out of range")
        hits = rows("hit_", S.ParticleHitStore.FIELDS)
        frames = _Frames(**{k: a.copy() for k, a in rows("frame_", _FRAME_FIELDS).items()})
        flt = QueryFilter(bits[0], bits[1], [world.bodies[int(i)] for i in excl], bool(bits[2]))
        system = cls(world, state["positions"], state["velocities"], _mode_names()[mode],
                     filter=flt, **settings)
        system.max_bounces = int(get("max_bounces", i8, ()))
        store = system._store
        for name, arr in state.items():
            getattr(store, name)[: store.count] = arr
        system._hits.set_rows(256, **hits)
        system._frames = frames
        return system

    def __repr__(self) -> str:
        return (f"<Particles {self.alive_count} alive of {len(self)}, "
                f"on_hit={self.on_hit!r}>")
