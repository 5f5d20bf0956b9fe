"""What every demo scene provides, and helpers the scenes share.

A scene owns one :class:`~collide2d.World` and says how to look at it. The demo loop calls,
each frame: ``before_step(dt)``, ``world.step(dt)``, ``after_step(dt)``; and, to draw,
``draw_under`` (after the background), the world through ``draw_world``, ``draw_over``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _store as S
from ..draw import DrawOptions, Palette

# Attraction: acceleration (m/s^2) per metre of the attraction radius, and damping (1/s).
ATTRACT_GAIN, ATTRACT_DAMPING = 6.0, 2.5


class Scene:
    """Base class of the demo scenes. Subclasses set the class attributes and ``build``."""

    #: Key on the command line (``python -m collide2d demo NAME``).
    name = "scene"
    #: One line shown in the HUD and the help overlay.
    title = ""
    #: Extra help lines (scene-specific controls).
    help: tuple[str, ...] = ()
    #: World box (min_x, min_y, max_x, max_y) in metres the camera starts on.
    view = (-10.0, -1.0, 10.0, 12.0)

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.time = 0.0
        #: Fill colour per body (``{body.id: (r, g, b)}``), used by ``draw_world``.
        self.colors: dict[int, tuple] = {}
        self.palette = Palette()
        self.world = self.build()

    # ------------------------------------------------------------------ to override
    def build(self):
        raise NotImplementedError

    def before_step(self, dt: float) -> None:
        """Scene logic before the physics step (forces, spawning, steering)."""

    def after_step(self, dt: float) -> None:
        """Scene logic after the physics step (events, removal)."""

    def spawn(self, point) -> None:
        """Right click at world ``point`` (m): add something there."""
        body = self.world.add_body(position=point, angle=float(self.rng.uniform(0, math.tau)))
        random_shape(body, self.rng, 0.5)

    def attract(self, point, radius: float) -> None:
        """Left button held on empty space at world ``point``: pull the dynamic bodies within
        ``radius`` (m) towards it (seed 004's mouse), gravity cancelled, motion damped."""
        world = self.world
        slots = dynamic_slots(world)
        b = world._bodies
        d = np.asarray(point, dtype=np.float64) - b.pos[slots]
        dist = np.hypot(d[:, 0], d[:, 1])
        near = dist < radius
        slots, d, dist = slots[near], d[near], dist[near]
        if slots.size == 0:
            return
        pull = ATTRACT_GAIN * radius * d / np.maximum(dist, 1e-9)[:, None]
        accel = (pull - ATTRACT_DAMPING * b.vel[slots]
                 - world.gravity * b.gravity_scale[slots][:, None])
        push(world, slots, b.mass[slots][:, None] * accel)

    def key(self, key: int, down: bool) -> bool:
        """A key the scene handles itself (return True to consume it)."""
        return False

    def draw_options(self, debug: bool) -> DrawOptions:
        opts = DrawOptions.debug() if debug else DrawOptions()
        opts.body_colors = self.colors
        opts.palette = self.palette
        return opts

    def draw_under(self, renderer, camera) -> None:
        """Drawn after the background, before the world."""

    def draw_over(self, renderer, camera, debug: bool) -> None:
        """Drawn after the world, before the HUD."""

    def stats(self) -> list[str]:
        """Extra HUD text (one short line)."""
        return []


# ---------------------------------------------------------------------------- helpers
def regular_polygon(sides: int, radius: float, phase: float = 0.0) -> np.ndarray:
    """CCW regular polygon around the origin."""
    t = phase + np.arange(sides) * (2.0 * math.pi / sides)
    return radius * np.column_stack((np.cos(t), np.sin(t)))


#: Concave outlines (body frame, about 1 m across), decomposed by ``add_polygon``.
CONCAVE = {
    "L": [(-0.5, -0.5), (0.5, -0.5), (0.5, -0.15), (-0.15, -0.15), (-0.15, 0.5), (-0.5, 0.5)],
    "T": [(-0.6, 0.2), (-0.6, 0.5), (0.6, 0.5), (0.6, 0.2), (0.15, 0.2), (0.15, -0.5),
          (-0.15, -0.5), (-0.15, 0.2)],
    "chevron": [(-0.6, -0.4), (0.0, 0.1), (0.6, -0.4), (0.6, 0.0), (0.0, 0.5), (-0.6, 0.0)],
    "U": [(-0.55, -0.45), (0.55, -0.45), (0.55, 0.45), (0.3, 0.45), (0.3, -0.2), (-0.3, -0.2),
          (-0.3, 0.45), (-0.55, 0.45)],
}


def random_shape(body, rng, size: float = 0.5, **material):
    """Add one random shape of about ``size`` metres radius: a box, a regular polygon, a
    circle, a capsule, a rounded box or a concave outline."""
    kind = int(rng.integers(0, 8))
    s = float(size) * float(rng.uniform(0.8, 1.2))
    if kind == 0:
        return body.add_box(2 * s * rng.uniform(0.6, 1.6), 2 * s * rng.uniform(0.5, 1.0),
                            **material)
    if kind in (1, 2):
        return body.add_polygon(regular_polygon(int(rng.integers(3, 9)), s), **material)
    if kind == 3:
        return body.add_circle(s, **material)
    if kind == 4:
        return body.add_segment((-0.7 * s, 0), (0.7 * s, 0), radius=0.45 * s, **material)
    if kind == 5:
        return body.add_polygon(regular_polygon(4, 0.8 * s, math.pi / 4), radius=0.2 * s,
                                **material)
    outline = list(CONCAVE.values())[int(rng.integers(0, len(CONCAVE)))]
    return body.add_polygon(np.asarray(outline) * (2.0 * s), **material)


def dynamic_slots(world) -> np.ndarray:
    """Slots of the live, dynamic bodies."""
    b = world._bodies
    n = b.count
    return np.flatnonzero(((b.flags[:n] & S.B_ALIVE) != 0) & (b.kind[:n] == S.DYNAMIC))


def push(world, slots: np.ndarray, forces: np.ndarray, torques=None) -> None:
    """Add forces (N) at the centres of mass (and torques, N m) of many bodies at once and
    wake them: the array form of ``Body.apply_force``."""
    b = world._bodies
    b.force[slots] += forces          # slots are distinct: no repeated index to sum
    if torques is not None:
        b.torque[slots] += torques
    b.flags[slots] |= S.B_AWAKE
    b.sleep_time[slots] = 0.0


def is_clear(world, point, radius: float) -> bool:
    """True when no shape's bounding box meets the square of half side ``radius`` (m) around
    ``point``: a place to drop a new body without starting inside another."""
    world._sync_shapes()
    st = world._shapes
    n = st.count
    a = st.aabb[:n]
    x, y = float(point[0]), float(point[1])
    hit = (((st.flags[:n] & S.S_ALIVE) != 0) & (a[:, 0] < x + radius) & (a[:, 2] > x - radius)
           & (a[:, 1] < y + radius) & (a[:, 3] > y - radius))
    return not hit.any()


def pick_body(world, point):
    """The dynamic body whose shape contains world ``point`` (the last drawn, on top), or
    None."""
    world._sync_shapes()
    st, bd = world._shapes, world._bodies
    n = st.count
    p = np.asarray(point, dtype=np.float64)
    a = st.aabb[:n]
    cand = np.flatnonzero(((st.flags[:n] & S.S_ALIVE) != 0)
                          & (a[:, 0] <= p[0]) & (p[0] <= a[:, 2])
                          & (a[:, 1] <= p[1]) & (p[1] <= a[:, 3]))
    cand = cand[bd.kind[st.body[cand]] == S.DYNAMIC]
    for row in cand[::-1]:   # a handful of rows under the cursor
        v = st.vworld[st.vstart[row] : st.vstart[row] + st.vcount[row]]
        if _distance_to_part(v, p) <= st.radius[row]:
            return world.bodies[int(bd.order[st.body[row]])]
    return None


def _distance_to_part(v: np.ndarray, p: np.ndarray) -> float:
    """Distance from p to a convex CCW part (0 inside); a point or a segment for n < 3."""
    n = v.shape[0]
    if n == 1:
        return float(np.hypot(*(p - v[0])))
    e = np.roll(v, -1, axis=0) - v
    d = p - v
    if n >= 3 and np.all(e[:, 0] * d[:, 1] - e[:, 1] * d[:, 0] >= 0.0):
        return 0.0
    if n == 2:
        e, d = e[:1], d[:1]
    t = np.clip((d * e).sum(axis=1) / np.maximum((e * e).sum(axis=1), 1e-300), 0.0, 1.0)
    return float(np.hypot(*(d - t[:, None] * e).T).min())
