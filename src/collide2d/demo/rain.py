"""rain: regular polygons and circles pour into a walled bin over pegs and ramps, through
a shower of raindrops: particles (``world.add_particles(..., on_hit="bounce")``) that
bounce off every shape, moved and traced in one compiled call per step."""

from __future__ import annotations

import math

import numpy as np

from ..world import World
from .scene import Scene, is_clear, regular_polygon

HALF_WIDTH = 20.0
TOP = 34.0
DROPS_PER_FRAME = 30
DROP_LIFE = 3.0         # s


class Rain(Scene):
    name = "rain"
    title = "polygons and circles rain over pegs and ramps into a bin"
    view = (-21.5, -1.5, 21.5, 35.0)
    #: Bodies that fall before the rain stops (right click adds more).
    limit = 500
    per_frame = 3

    def build(self) -> World:
        world = World(gravity=(0.0, -10.0))
        walls = world.add_body(kind="static")
        walls.add_box(2 * HALF_WIDTH + 2, 1.0, offset=(0.0, -0.5))
        walls.add_box(1.0, TOP, offset=(-HALF_WIDTH - 0.5, TOP / 2))
        walls.add_box(1.0, TOP, offset=(HALF_WIDTH + 0.5, TOP / 2))
        walls.add_box(11.0, 0.5, offset=(-11.0, 24.0), angle=-0.5, friction=0.2)
        walls.add_box(11.0, 0.5, offset=(11.0, 19.0), angle=0.5, friction=0.2)
        for row, y in enumerate((9.0, 11.5, 14.0)):
            for x in np.arange(-16.0 + 2.0 * (row % 2), 16.5, 4.0):
                walls.add_circle(0.35, offset=(float(x), y))
        self.fallen = 0
        self.drops = world.add_particles(np.empty((0, 2)), on_hit="bounce", elasticity=0.2)
        self.drop_time = np.empty(0)
        return world

    def before_step(self, dt: float) -> None:
        self._shower()
        rng = self.rng
        for _ in range(self.per_frame):
            if self.fallen >= self.limit:
                return
            x = float(rng.uniform(-HALF_WIDTH + 1.5, HALF_WIDTH - 1.5))
            y = TOP - 1.0 - float(rng.uniform(0, 1))
            if not is_clear(self.world, (x, y), 0.6):
                continue
            body = self.world.add_body(position=(x, y),
                                       angle=float(rng.uniform(0, math.tau)),
                                       velocity=(0.0, -float(rng.uniform(2, 6))))
            sides = int(rng.integers(3, 10))
            r = float(rng.uniform(0.35, 0.55))
            if sides == 9:
                body.add_circle(r, friction=0.4, elasticity=0.1)
            else:
                body.add_polygon(regular_polygon(sides, r), friction=0.4, elasticity=0.1)
            self.fallen += 1

    def _shower(self) -> None:
        """New drops at the top; drops that have lived DROP_LIFE or came to rest go."""
        rng, drops = self.rng, self.drops
        old = ((self.time - self.drop_time > DROP_LIFE)
               | (np.hypot(*drops.velocities.T) < 0.5) | (drops.positions[:, 1] < 0.0))
        drops.remove(old)
        self.drop_time = self.drop_time[~old]
        k = DROPS_PER_FRAME
        x = rng.uniform(-HALF_WIDTH, HALF_WIDTH, k)
        y = TOP + rng.uniform(0.0, 2.0, k)
        drops.add(np.column_stack((x, y)),
                  np.column_stack((rng.uniform(-0.5, 0.5, k), np.full(k, -14.0))))
        self.drop_time = np.append(self.drop_time, np.full(k, self.time))

    def draw_options(self, debug: bool):
        opts = super().draw_options(debug)
        opts.palette.particle = (150, 196, 255)
        opts.particle_radius = 1.0
        return opts

    def spawn(self, point) -> None:
        self.fallen = max(0, self.fallen - 60)   # let it rain a little longer
        super().spawn(point)

    def stats(self) -> list[str]:
        return [f"rained {self.fallen}/{self.limit}"]
