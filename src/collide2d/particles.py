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
from typing import NamedTuple

import numpy as np

from . import _store as S
from . import _validate as V
from ._kernels import particles as _kp
from .body import _ids_by_slot
from .queries import QueryFilter, ShapeTree
from .snapshot import register_system

__all__ = ["Particles", "ParticleHitArrays"]

_MODES = {"stop": _kp.STOP, "bounce": _kp.BOUNCE, "pass": _kp.PASS}
_MODE_NAMES = {v: k for k, v in _MODES.items()}


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
    as a segment query does; it stops, or (with "bounce" or "pass") flies on unchanged.

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
        self.on_hit = on_hit
        self.elasticity = elasticity
        self.gravity_scale = gravity_scale
        self.drag = drag
        self.filter = QueryFilter() if filter is None else filter
        self.max_bounces = 4
        pos, vel = self._check_new(positions, velocities)
        self._n = 0
        self._reserve(max(pos.shape[0], 16))
        self._append(pos, vel)
        self._tree = ShapeTree()
        self._hits = (np.empty(256, dtype=np.int64), np.empty(256, dtype=np.int64),
                      np.empty(256, dtype=np.int64), np.empty((256, 2)), np.empty((256, 2)),
                      np.empty(256))
        self._n_hits = 0
        self._snap = None
        self._snapshot()
        self._attached = True

    # ------------------------------------------------------------------ settings
    @property
    def on_hit(self) -> str:
        """"stop", "bounce" or "pass"."""
        return self._on_hit

    @on_hit.setter
    def on_hit(self, value):
        self._on_hit = V.choice("on_hit", value, _MODES)

    @property
    def elasticity(self) -> float:
        """Restitution of a bounce (>= 0): 0 slides along the surface, 1 mirrors."""
        return self._elasticity

    @elasticity.setter
    def elasticity(self, value):
        self._elasticity = V.finite_scalar("elasticity", value, nonnegative=True)

    @property
    def gravity_scale(self) -> float:
        """Multiplies the world's gravity for these particles (0: none)."""
        return self._gravity_scale

    @gravity_scale.setter
    def gravity_scale(self, value):
        self._gravity_scale = V.finite_scalar("gravity_scale", value)

    @property
    def drag(self) -> float:
        """Linear damping rate (1/s, >= 0): velocity decays as exp(-drag t)."""
        return self._drag

    @drag.setter
    def drag(self, value):
        self._drag = V.finite_scalar("drag", value, nonnegative=True)

    @property
    def filter(self) -> QueryFilter:
        return self._filter

    @filter.setter
    def filter(self, value):
        if not isinstance(value, QueryFilter):
            raise TypeError(f"filter: expected a QueryFilter, got {type(value).__name__}")
        self._filter = value

    @property
    def max_bounces(self) -> int:
        """Bounces per particle per step that continue the step's motion (default 4); a
        further hit in the same step reflects the velocity and leaves the particle at the
        hit point until the next step."""
        return self._max_bounces

    @max_bounces.setter
    def max_bounces(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"max_bounces: expected an int >= 0, got {value!r}")
        self._max_bounces = int(value)

    # ------------------------------------------------------------------ arrays
    def __len__(self) -> int:
        return self._n

    @property
    def positions(self) -> np.ndarray:
        return self._pos[: self._n]

    @property
    def velocities(self) -> np.ndarray:
        return self._vel[: self._n]

    @property
    def alive(self) -> np.ndarray:
        return self._alive[: self._n]

    @property
    def alive_count(self) -> int:
        """Number of live particles."""
        return int(np.count_nonzero(self._alive[: self._n]))

    @property
    def hits(self) -> ParticleHitArrays:
        """The last step's hits as arrays (copies), in particle order per bounce."""
        k = self._n_hits
        p, b, s, pt, nm, fr = self._hits
        return ParticleHitArrays(p[:k].copy(), b[:k].copy(), s[:k].copy(), pt[:k].copy(),
                                 nm[:k].copy(), fr[:k].copy())

    def add(self, positions, velocities=None) -> np.ndarray:
        """Append live particles; returns their indices.

        ``positions`` is (N, 2) (m); ``velocities`` (N, 2), one (vx, vy) for all, or None
        (at rest), in m/s.
        """
        self._check_attached()
        pos, vel = self._check_new(positions, velocities)
        first = self._n
        self._reserve(self._n + pos.shape[0])
        self._append(pos, vel)
        return np.arange(first, self._n)

    def remove(self, which) -> None:
        """Delete particles: a bool mask of length ``len(self)`` or integer indices. The
        others keep their order and move down to fill the gaps (indices change)."""
        n = self._n
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
        keep = ~drop
        m = int(np.count_nonzero(keep))
        self._pos[:m] = self._pos[:n][keep]
        self._vel[:m] = self._vel[:n][keep]
        self._alive[:m] = self._alive[:n][keep]
        self._n = m

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

    def _check_new(self, positions, velocities):
        pos = V.points("positions", positions)
        if velocities is None:
            vel = np.zeros_like(pos)
        else:
            try:
                v = np.asarray(velocities, dtype=np.float64)
            except (TypeError, ValueError):
                raise TypeError("velocities: expected (N, 2) or (2,) numbers") from None
            if v.shape == (2,):
                v = np.broadcast_to(v, pos.shape)
            vel = V.points("velocities", v)
            if vel.shape != pos.shape:
                raise ValueError(f"velocities: expected shape {pos.shape} (or (2,)), got "
                                 f"{vel.shape}")
        return pos, vel

    def _reserve(self, cap: int) -> None:
        old = getattr(self, "_pos", None)
        if old is not None and old.shape[0] >= cap:
            return
        cap = max(cap, 2 * (0 if old is None else old.shape[0]))
        pos = np.zeros((cap, 2))
        vel = np.zeros((cap, 2))
        alive = np.zeros(cap, dtype=np.bool_)
        if old is not None:
            pos[: self._n] = self._pos[: self._n]
            vel[: self._n] = self._vel[: self._n]
            alive[: self._n] = self._alive[: self._n]
        self._pos, self._vel, self._alive = pos, vel, alive
        # Scratch for the compiled step: legs and their cast results.
        self._scratch = (np.empty(cap, dtype=np.int64), np.empty((cap, 2)),
                         np.empty((cap, 2)), np.empty(cap), np.empty(cap),
                         np.empty(cap, dtype=np.bool_), np.empty(cap, dtype=np.int64),
                         np.empty(cap, dtype=np.int64), np.empty((cap, 2)),
                         np.empty((cap, 2)), np.empty(cap))

    def _append(self, pos, vel) -> None:
        a, b = self._n, self._n + pos.shape[0]
        self._pos[a:b] = pos
        self._vel[a:b] = vel
        self._alive[a:b] = True
        self._n = b

    # ------------------------------------------------------------------ stepping
    def _body_frames(self):
        """Centre of mass (slots, 2) and angle of every body slot now."""
        b = self._world._bodies
        n = b.count
        c, s = np.cos(b.angle[:n]), np.sin(b.angle[:n])
        lc = b.local_com[:n]
        com = b.pos[:n] + np.column_stack((c * lc[:, 0] - s * lc[:, 1],
                                           s * lc[:, 0] + c * lc[:, 1]))
        return com, b.angle[:n].copy(), b.generation[:n].copy()

    def _snapshot(self) -> None:
        self._snap = self._body_frames()

    def _motion(self, com1, ang1, gen1):
        """Per body slot: moved since the last step, its turn (rad) and its centre of mass
        at the last step (slots born since then did not move)."""
        com0_s, ang0_s, gen0_s = self._snap
        b = self._world._bodies
        n = com1.shape[0]
        k = min(n, com0_s.shape[0])
        com0 = com1.copy()
        ang0 = ang1.copy()
        same = gen0_s[:k] == gen1[:k]
        com0[:k][same] = com0_s[:k][same]
        ang0[:k][same] = ang0_s[:k][same]
        live = (b.flags[:n] & S.B_ALIVE) != 0
        moved = live & ((com0 != com1).any(axis=1) | (ang0 != ang1))
        return moved, ang1 - ang0, com0

    def _step(self, dt: float) -> None:
        world = self._world
        world._sync_shapes()
        b, s = world._bodies, world._shapes
        com1, ang1, gen1 = self._body_frames()
        moved, dtheta, com0 = self._motion(com1, ang1, gen1)
        swept = np.empty((s.count, 4))
        _kp.swept_boxes(s.aabb, s.flags, s.count, s.body, s.vstart, s.vcount, s.radius,
                        s.vworld, moved, dtheta, com0, com1, swept)
        self._tree.update(swept, s.flags, s.count)
        f = world._queries._filter_args(self._filter)
        g = world._gravity * self._gravity_scale
        out = _kp.step_particles(
            self._n, self._pos, self._vel, self._alive, float(dt), float(g[0]), float(g[1]),
            math.exp(-self._drag * dt), _MODES[self._on_hit], self._elasticity,
            self._max_bounces, *self._tree.args(), s.body, s.owner, s.flags, s.category,
            s.mask, s.vstart, s.vcount, s.radius, s.vworld, _ids_by_slot(b), b.vel, b.angvel, *f,
            moved, dtheta, com0, com1, *self._scratch, *self._hits)
        self._n_hits = int(out[0])
        self._hits = tuple(out[1:])
        self._snap = (com1, ang1, gen1)

    # ------------------------------------------------------------------ snapshots
    def _snapshot_arrays(self) -> dict[str, np.ndarray]:
        """Whole state as arrays (``world.snapshot``): particles, settings, filter (excluded
        bodies by index in ``world.bodies``), the last step's hits and the body frames that
        the next step measures motion from."""
        n, k = self._n, self._n_hits
        p, b, s, pt, nm, fr = self._hits
        com, ang, gen = self._snap
        f = self._filter
        return {
            "positions": self._pos[:n].copy(), "velocities": self._vel[:n].copy(),
            "alive": self._alive[:n].copy(),
            "on_hit": np.array(_MODES[self._on_hit], dtype=np.int64),
            "settings": np.array([self._elasticity, self._gravity_scale, self._drag]),
            "max_bounces": np.array(self._max_bounces, dtype=np.int64),
            "filter_bits": np.array([f.category, f.mask, int(f.sensors)], dtype=np.int64),
            "filter_exclude": np.array([body.index for body in f.exclude if body.alive],
                                       dtype=np.int64),
            "hit_particle": p[:k].copy(), "hit_body": b[:k].copy(), "hit_shape": s[:k].copy(),
            "hit_point": pt[:k].copy(), "hit_normal": nm[:k].copy(),
            "hit_fraction": fr[:k].copy(),
            "frame_com": com.copy(), "frame_angle": ang.copy(), "frame_generation": gen.copy(),
        }

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

        f8, i8 = np.dtype(np.float64), np.dtype(np.int64)
        pos = get("positions", f8, (None, 2))
        n = pos.shape[0]
        vel = get("velocities", f8, (n, 2))
        alive = get("alive", np.dtype(np.bool_), (n,))
        mode = int(get("on_hit", i8, ()))
        if mode not in _MODE_NAMES:
            raise ValueError(f"particles: unknown on_hit code {mode}")
        el, gs, drag = get("settings", f8, (3,)).tolist()
        bits = get("filter_bits", i8, (3,)).tolist()
        excl = get("filter_exclude", i8, (None,))
        if excl.size and (excl.min() < 0 or excl.max() >= len(world.bodies)):
            raise ValueError("particles: an excluded body index is out of range")
        k = get("hit_particle", i8, (None,)).shape[0]
        hits = (get("hit_particle", i8, (k,)), get("hit_body", i8, (k,)),
                get("hit_shape", i8, (k,)), get("hit_point", f8, (k, 2)),
                get("hit_normal", f8, (k, 2)), get("hit_fraction", f8, (k,)))
        com = get("frame_com", f8, (None, 2))
        m = com.shape[0]
        frames = (com.copy(), get("frame_angle", f8, (m,)).copy(),
                  get("frame_generation", i8, (m,)).copy())
        flt = QueryFilter(bits[0], bits[1], [world.bodies[int(i)] for i in excl], bool(bits[2]))
        system = cls(world, pos, vel, _MODE_NAMES[mode], el, gs, drag, flt)
        system.max_bounces = int(get("max_bounces", i8, ()))
        system._alive[:n] = alive
        cap = max(k, 256)
        system._hits = tuple(np.concatenate((h, np.zeros((cap - k,) + h.shape[1:], h.dtype)))
                             for h in hits)
        system._n_hits = k
        system._snap = frames
        return system

    def __repr__(self) -> str:
        return (f"<Particles {self.alive_count} alive of {self._n}, on_hit={self._on_hit!r}>")
