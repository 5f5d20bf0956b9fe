"""ragdolls: jointed people (11 capsules, 10 revolute joints with limits) pile up.

The ragdoll is Box2D v3's sample human (hip, torso, head, legs and arms in two bones each),
without feet. Each ragdoll's shapes share a negative group, so its bones never collide with
one another; its joints' motors at speed 0 with a small torque act as joint friction.
"""

from __future__ import annotations

import math

from ..world import World
from .scene import Scene, is_clear

PI = math.pi

#: Bones of a ragdoll standing with its feet at the origin, 1.55 m tall at scale 1:
#: name -> (centre height, capsule's lower and upper end above the centre, radius,
#: parent, pivot height, lower and upper joint angle (rad)).
BONES = {
    "hip": (0.95, -0.02, 0.02, 0.095, None, 0.0, 0.0, 0.0),
    "torso": (1.2, -0.135, 0.135, 0.09, "hip", 1.0, -0.25 * PI, 0.0),
    "head": (1.475, -0.038, 0.039, 0.075, "torso", 1.4, -0.3 * PI, 0.1 * PI),
    "upper_left_leg": (0.775, -0.125, 0.125, 0.06, "hip", 0.9, -0.05 * PI, 0.4 * PI),
    "lower_left_leg": (0.475, -0.155, 0.125, 0.045, "upper_left_leg", 0.625, -0.5 * PI,
                       -0.02 * PI),
    "upper_right_leg": (0.775, -0.125, 0.125, 0.06, "hip", 0.9, -0.05 * PI, 0.4 * PI),
    "lower_right_leg": (0.475, -0.155, 0.125, 0.045, "upper_right_leg", 0.625, -0.5 * PI,
                        -0.02 * PI),
    "upper_left_arm": (1.225, -0.125, 0.125, 0.035, "torso", 1.35, -0.1 * PI, 0.8 * PI),
    "lower_left_arm": (0.975, -0.125, 0.125, 0.03, "upper_left_arm", 1.1, -0.2 * PI,
                       0.3 * PI),
    "upper_right_arm": (1.225, -0.125, 0.125, 0.035, "torso", 1.35, -0.1 * PI, 0.8 * PI),
    "lower_right_arm": (0.975, -0.125, 0.125, 0.03, "upper_right_arm", 1.1, -0.2 * PI,
                        0.3 * PI),
}

SHIRT, PANTS = (72, 201, 204), (30, 144, 255)
SKIN = ((255, 222, 173), (255, 255, 224), (205, 133, 63), (210, 180, 140))


def add_ragdoll(world, feet, scale: float = 1.0, group: int = -1, velocity=(0.0, 0.0),
                friction_torque: float = 0.05, colors: dict | None = None) -> dict:
    """Add a ragdoll standing with its feet at ``feet`` (m); returns its bodies by bone
    name. ``group`` (negative) keeps its bones from colliding with one another; each joint's
    motor holds speed 0 with at most ``friction_torque * scale**3`` N m: joint friction."""
    x, y = float(feet[0]), float(feet[1])
    s = float(scale)
    bodies = {}
    for name, (cy, lo, hi, r, parent, pivot, lower, upper) in BONES.items():
        body = world.add_body(position=(x, y + cy * s), velocity=velocity)
        body.add_segment((0.0, lo * s), (0.0, hi * s), radius=r * s, density=1.0,
                         friction=0.4, group=group)
        bodies[name] = body
        if parent is not None:
            world.add_revolute_joint(bodies[parent], body, (x, y + pivot * s),
                                     lower_angle=lower, upper_angle=upper,
                                     max_motor_torque=friction_torque * s ** 3)
        if colors is not None:
            colors[body.id] = (SKIN[-group % len(SKIN)] if name == "head"
                               else PANTS if "leg" in name or name == "hip" else SHIRT)
    return bodies


class Ragdolls(Scene):
    name = "ragdolls"
    title = "ragdolls (capsules on revolute joints with limits) pile up in a bin"
    help = ("right click: drop a ragdoll there",)
    view = (-13.0, -1.0, 13.0, 17.0)
    limit = 40
    every = 20   # frames between drops
    scale = 2.0

    def build(self) -> World:
        world = World(gravity=(0.0, -10.0))
        bin_ = world.add_body(kind="static")
        bin_.add_box(26.0, 1.0, offset=(0.0, -0.5))
        bin_.add_box(1.0, 16.0, offset=(-12.5, 8.0))
        bin_.add_box(1.0, 16.0, offset=(12.5, 8.0))
        bin_.add_box(7.0, 0.4, offset=(-7.5, 7.0), angle=-0.35)
        bin_.add_box(7.0, 0.4, offset=(7.5, 4.5), angle=0.35)
        self.frame = 0
        self.dropped = 0
        return world

    def _drop(self, feet) -> None:
        self.dropped += 1
        vx = float(self.rng.uniform(-2.0, 2.0))
        add_ragdoll(self.world, feet, self.scale, group=-self.dropped, velocity=(vx, 0.0),
                    colors=self.colors)

    def before_step(self, dt: float) -> None:
        self.frame += 1
        if self.dropped >= self.limit or self.frame % self.every:
            return
        x = float(self.rng.uniform(-9.0, 9.0))
        if is_clear(self.world, (x, 13.0), 1.6):
            self._drop((x, 11.5))

    def spawn(self, point) -> None:
        self._drop((point[0], point[1] - 1.5))

    def stats(self) -> list[str]:
        return [f"ragdolls {self.dropped}/{self.limit}   joints {len(self.world.joints)}"]
