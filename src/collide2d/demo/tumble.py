"""tumble: rigid bodies of many shapes fall on shelves, roll and spin off, and stack.

Boxes, triangles to octagons, circles, capsules, rounded boxes and concave outlines (L, T,
U, chevron; decomposed into convex parts that move as one body).
"""

from __future__ import annotations

import math

from ..world import World
from .scene import Scene, is_clear, random_shape

HALF_WIDTH = 16.0


class Tumble(Scene):
    name = "tumble"
    title = "shapes of every kind fall, tumble off shelves and stack"
    view = (-17.0, -1.2, 17.0, 21.0)
    limit = 100
    every = 6   # frames between drops

    def build(self) -> World:
        world = World(gravity=(0.0, -10.0))
        bin_ = world.add_body(kind="static")
        bin_.add_box(2 * HALF_WIDTH + 2, 1.0, offset=(0.0, -0.5))
        bin_.add_box(1.0, 20.0, offset=(-HALF_WIDTH - 0.5, 10.0))
        bin_.add_box(1.0, 20.0, offset=(HALF_WIDTH + 0.5, 10.0))
        bin_.add_box(10.0, 0.4, offset=(-8.0, 13.0), angle=-0.45)
        bin_.add_box(10.0, 0.4, offset=(8.0, 8.5), angle=0.45)
        bin_.add_polygon([(-2.5, 3.5), (2.5, 3.5), (0.0, 5.2)])   # a roof to tumble over
        self.frame = 0
        self.dropped = 0
        return world

    def before_step(self, dt: float) -> None:
        self.frame += 1
        if self.dropped >= self.limit or self.frame % self.every:
            return
        rng = self.rng
        # Somewhere clear of the last drops (else try again next frame).
        for x in rng.uniform(-HALF_WIDTH + 2.0, HALF_WIDTH - 2.0, 6).tolist():
            if is_clear(self.world, (x, 19.0), 1.3):
                break
        else:
            return
        body = self.world.add_body(position=(x, 19.0), angle=float(rng.uniform(0, math.tau)),
                                   angular_velocity=float(rng.uniform(-3, 3)))
        random_shape(body, rng, 0.75, friction=0.3, elasticity=0.05)
        self.dropped += 1

    def stats(self) -> list[str]:
        return [f"dropped {self.dropped}/{self.limit}"]
