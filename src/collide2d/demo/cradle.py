"""cradle: Newton's cradle, five elastic balls on rigid distance joints (rods).

The balls hang 2 cm apart and bounce without loss (elasticity 1, no friction): the first
one, let go from the side, stops dead and the last one swings out as high. The gap makes
each impact one pair at a time; balls touching at rest are hit all at once, and an impulse
solver shares that one impact out among them, so the whole row moves off together.
"""

from __future__ import annotations

import math

from ..world import World
from .scene import Scene

BALLS, RADIUS, ROD, BAR = 5, 0.5, 5.0, 9.0
GAP = 0.02                       # between neighbouring balls (m)
LIFT = math.radians(50.0)        # the first ball's start, from the vertical


class Cradle(Scene):
    name = "cradle"
    title = "Newton's cradle: elastic balls on distance joints"
    help = ("right click: let the first ball go again from the cursor's side",)
    view = (-8.0, 1.0, 8.0, 11.0)

    def build(self) -> World:
        world = World(gravity=(0.0, -10.0))
        world.restitution_threshold = 0.0
        # Sleeping off: balls resting on jointed rods fell asleep and were not woken by the
        # first ball's impact (they acted as fixed).
        world.sleeping = False
        bar = world.add_body(kind="static")
        bar.add_box(BALLS * (2.0 * RADIUS + GAP) + 3.0, 0.3, offset=(0.0, BAR + 0.15))
        self.balls, self.rods = [], []
        for i in range(BALLS):
            top = ((i - 0.5 * (BALLS - 1)) * (2.0 * RADIUS + GAP), BAR)
            angle = -LIFT if i == 0 else 0.0
            centre = (top[0] + ROD * math.sin(angle), BAR - ROD * math.cos(angle))
            ball = world.add_body(position=centre, damping=1.0, angular_damping=1.0)
            ball.add_circle(RADIUS, density=1.0, friction=0.0, elasticity=1.0)
            self.colors[ball.id] = (200, 204, 214)
            self.rods.append(world.add_distance_joint(bar, ball, top, centre))
            self.balls.append(ball)
        return world

    def spawn(self, point) -> None:
        # The outer ball on the clicked side swings out to LIFT; the others stop.
        i = 0 if point[0] < 0.0 else BALLS - 1
        side = -1.0 if i == 0 else 1.0
        for k, ball in enumerate(self.balls):
            top = self.rods[k].anchor_a
            angle = side * LIFT if k == i else 0.0
            ball.position = (top[0] + ROD * math.sin(angle), BAR - ROD * math.cos(angle))
            ball.velocity = (0.0, 0.0)
            ball.angular_velocity = 0.0

    def stats(self) -> list[str]:
        rise = [ball.position[1] - (BAR - ROD) for ball in self.balls]
        return ["heights " + " ".join(f"{h:.2f}" for h in rise) + " m"]
