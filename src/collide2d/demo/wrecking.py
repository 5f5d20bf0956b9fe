"""wrecking: a chain of capsule links on revolute joints swings a heavy ball into a tower.

The ball weighs about 50 links: a mass ratio that a plain iterative solver lets stretch, and
that the joint solver's substeps hold (``j.reaction_force`` of the top link shows the load).
"""

from __future__ import annotations

import math

from ..world import World
from .scene import Scene

PIVOT = (-1.0, 13.0)
LINKS, LINK = 12, 0.7          # links, and the distance between a link's two joints (m)
BALL_RADIUS, BALL_DENSITY = 0.8, 5.0


class Wrecking(Scene):
    name = "wrecking"
    title = "a chain of links on revolute joints swings a wrecking ball into a tower"
    help = ("right click: lift the ball to the cursor's side and let it go",)
    view = (-12.0, -1.0, 12.0, 15.0)

    def build(self) -> World:
        world = World(gravity=(0.0, -10.0))
        ground = world.add_body(kind="static")
        ground.add_box(40.0, 1.0, offset=(0.0, -0.5))
        ground.add_box(0.6, 0.6, offset=PIVOT)
        self.tower = []
        for row in range(10):
            for i in range(3 - row % 2):
                x = 3.0 + i * 1.0 + 0.5 * (row % 2)
                box = world.add_body(position=(x, 0.4 + 0.8 * row))
                box.add_box(0.95, 0.8, density=0.5, friction=0.6)
                self.tower.append(box)
        self.start = [b.position.copy() for b in self.tower]
        self.links, self.joints = [], []
        self._hang(world, ground, -1.0)
        return world

    def _hang(self, world, ground, side: float) -> None:
        """The chain straight out from the pivot, horizontal, towards ``side`` (-1: left)."""
        prev, x0, y0 = ground, PIVOT[0], PIVOT[1]
        for i in range(LINKS):
            cx = x0 + side * (i + 0.5) * LINK
            link = world.add_body(position=(cx, y0))
            link.add_segment((-0.5 * LINK, 0.0), (0.5 * LINK, 0.0), radius=0.12, density=1.0,
                             friction=0.4, group=-1)
            self.colors[link.id] = (150, 156, 170)
            self.joints.append(world.add_revolute_joint(prev, link, (x0 + side * i * LINK, y0)))
            self.links.append(link)
            prev = link
        end = x0 + side * LINKS * LINK
        self.ball = world.add_body(position=(end + side * BALL_RADIUS, y0))
        self.ball.add_circle(BALL_RADIUS, density=BALL_DENSITY, friction=0.4, group=-1)
        self.colors[self.ball.id] = (60, 64, 74)
        self.joints.append(world.add_revolute_joint(prev, self.ball, (end, y0)))

    def spawn(self, point) -> None:
        # Rebuild the chain straight out on the clicked side.
        world = self.world
        for body in [*self.links, self.ball]:
            world.remove(body)
        self.links, self.joints = [], []
        ground = world.bodies[0]
        self._hang(world, ground, -1.0 if point[0] < PIVOT[0] else 1.0)

    def stats(self) -> list[str]:
        load = float(math.hypot(*self.joints[0].reaction_force))
        return [f"top joint carries {load:.0f} N   ball {self.ball.mass:.1f} kg, "
                f"link {self.links[0].mass:.2f} kg"]
