"""bridge: a rope bridge of planks, each tied to the next by a short rope, under falling loads.

Every rope is a distance joint with only a ``max_length``: slack below it, inelastic when
taut. Twenty 0.8 m planks and 21 ropes of 0.22 m span 20.2 m with 0.42 m of slack, so the
bridge hangs in a shallow curve; crates and ragdolls drop on it after a few seconds.
"""

from __future__ import annotations

from ..world import World
from .ragdolls import add_ragdoll
from .scene import Scene, is_clear, random_shape

PLANKS = 20
PLANK, GAP, ROPE = 0.8, 0.2, 0.22       # plank width, gap at rest, rope length (m)
DECK = 6.0                              # height of the posts' tops (m)
HALF_SPAN = 0.5 * (PLANKS * PLANK + (PLANKS + 1) * GAP)


class Bridge(Scene):
    name = "bridge"
    title = "a rope bridge: planks tied by ropes (distance joints with a max length)"
    help = ("right click: drop something there",)
    view = (-14.0, -1.0, 14.0, 15.0)
    limit = 24
    every = 40            # frames between drops, after the first 4 s

    def build(self) -> World:
        world = World(gravity=(0.0, -10.0))
        ground = world.add_body(kind="static")
        ground.add_box(30.0, 1.0, offset=(0.0, -0.5))
        for side in (-1.0, 1.0):
            ground.add_box(1.0, DECK, offset=(side * (HALF_SPAN + 0.5), 0.5 * DECK))
        self.planks, self.ropes = [], []
        left, prev = (-HALF_SPAN, DECK), ground
        for i in range(PLANKS):
            x = -HALF_SPAN + GAP + 0.5 * PLANK + i * (PLANK + GAP)
            plank = world.add_body(position=(x, DECK - 0.1), damping=0.2, angular_damping=0.2)
            plank.add_box(PLANK, 0.2, density=1.0, friction=0.8)
            self.colors[plank.id] = (176, 124, 80)
            self.ropes.append(world.add_distance_joint(prev, plank, left, (x - 0.5 * PLANK, DECK),
                                                       max_length=ROPE))
            self.planks.append(plank)
            left, prev = (x + 0.5 * PLANK, DECK), plank
        self.ropes.append(world.add_distance_joint(prev, ground, left, (HALF_SPAN, DECK),
                                                   max_length=ROPE))
        self.frame = 0
        self.dropped = 0
        return world

    def before_step(self, dt: float) -> None:
        self.frame += 1
        if self.frame < 240 or self.dropped >= self.limit or self.frame % self.every:
            return
        x = float(self.rng.uniform(-7.0, 7.0))
        if is_clear(self.world, (x, 12.0), 1.5):
            self.spawn((x, 12.0))

    def spawn(self, point) -> None:
        self.dropped += 1
        if self.dropped % 4 == 0:
            add_ragdoll(self.world, (point[0], point[1] - 1.5), 1.5, group=-self.dropped,
                        colors=self.colors)
        else:
            random_shape(self.world.add_body(position=point), self.rng, 0.45, friction=0.6)

    def stats(self) -> list[str]:
        mid = 0.5 * (self.planks[PLANKS // 2 - 1].position[1]
                     + self.planks[PLANKS // 2].position[1])
        return [f"sag {DECK - 0.1 - mid:.2f} m   drops {self.dropped}/{self.limit}"]
