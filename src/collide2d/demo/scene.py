"""What every demo scene provides, and helpers the scenes share.

A scene owns one :class:`~collide2d.World` and says how to look at it. The demo loop calls,
each frame: ``before_step(dt)``, ``world.step(dt)``, ``after_step(dt)``; and, to draw,
``draw_under`` (after the background), the world through ``draw_world``, ``draw_over``.
"""

from __future__ import annotations

import math

import numpy as np

from ..draw import DrawOptions, Palette
from ..queries import QueryFilter

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
        ``radius`` (m) towards it, gravity cancelled, motion damped."""
        world = self.world
        ids = dynamic_ids(world)
        d = np.asarray(point, dtype=np.float64) - world.positions(ids)
        dist = np.hypot(d[:, 0], d[:, 1])
        near = dist < radius
        ids, d, dist = ids[near], d[near], dist[near]
        if ids.size == 0:
            return
        pull = ATTRACT_GAIN * radius * d / np.maximum(dist, 1e-9)[:, None]
        accel = (pull - ATTRACT_DAMPING * world.velocities(ids)
                 - world.gravity * world.gravity_scales(ids)[:, None])
        push(world, ids, world.masses(ids)[:, None] * accel)

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


def dynamic_ids(world) -> np.ndarray:
    """Ids of the dynamic bodies, in ``world.bodies`` order."""
    ids = world.body_ids()
    return ids[world.kinds(ids) == "dynamic"]


def push(world, ids: np.ndarray, forces: np.ndarray, torques=None) -> None:
    """Add forces (N) at the centres of mass (and torques, N m) of many dynamic bodies at
    once and wake them."""
    world.apply_forces(ids, forces)
    if torques is not None:
        world.apply_torques(ids, torques)


def is_clear(world, point, radius: float) -> bool:
    """True when no shape's bounding box meets the square of half side ``radius`` (m) around
    ``point``: a place to drop a new body without starting inside another."""
    p = np.asarray(point, dtype=np.float64)
    return not world.query_aabb(p - radius, p + radius, _EVERY_SHAPE)


def pick_body(world, point):
    """The dynamic body whose shape contains world ``point`` (the last drawn, on top), or
    None."""
    found = [s for s in world.query_point(point, _EVERY_SHAPE) if s.body.kind == "dynamic"]
    return found[-1].body if found else None   # the highest shape id: drawn last, on top


# Every shape, sensors included (a spawn must not start inside a sensor zone either).
_EVERY_SHAPE = QueryFilter(sensors=True)
