"""pyramid: 210 unit boxes stacked 20 rows high (the benchmark's pyramid, B = 20)."""

from __future__ import annotations

from ..world import World
from .scene import Scene

BASE = 20


class Pyramid(Scene):
    name = "pyramid"
    title = "210 boxes stacked 20 high: a solver stress test (right click: a heavy ball)"
    view = (-13.0, -1.5, 13.0, 21.0)

    def build(self) -> World:
        world = World(gravity=(0.0, -10.0))
        ground = world.add_body(kind="static")
        ground.add_box(60.0, 1.0, offset=(0.0, -0.5))
        for row in range(BASE):
            for i in range(BASE - row):
                box = world.add_body(position=(i - (BASE - row - 1) / 2.0, 0.5 + row))
                box.add_box(1.0, 1.0, friction=0.6)
        return world

    def spawn(self, point) -> None:
        ball = self.world.add_body(position=point, bullet=True)
        ball.add_circle(0.6, density=6.0, friction=0.4)
        self.colors[ball.id] = (230, 232, 240)
