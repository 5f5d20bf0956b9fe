"""car: a car on wheel joints (sprung suspension, motors on both wheels) drives over hills.

The chassis carries each wheel on a wheel joint: the wheel slides along the chassis' vertical
axis against a damped spring and turns freely, or at the motor's speed up to its torque. The
car drives on its own, turning back at each end of the track; the arrow keys take over.
"""

from __future__ import annotations

import numpy as np

from ..world import World
from .scene import Scene

X0, X1 = -4.0, 30.0                     # the track's ends (walls)
WHEEL_RADIUS = 0.4
MOTOR_SPEED = 12.0                      # rad/s: about 4.8 m/s on the flat
MOTOR_TORQUE = 12.0                     # N m per wheel
CHASSIS = np.array([(-1.5, -0.5), (1.5, -0.5), (1.5, 0.0), (0.0, 0.9), (-1.15, 0.9),
                    (-1.5, 0.2)]) * 0.85


def terrain(x: np.ndarray) -> np.ndarray:
    """Height (m) of the hills at ``x``: flat near the start, rolling further on."""
    ramp = np.clip((x - 4.0) / 6.0, 0.0, 1.0)
    return ramp * (1.1 * np.sin(0.32 * (x - 4.0)) ** 2 + 0.45 * np.sin(0.9 * x) ** 2)


class Car(Scene):
    name = "car"
    title = "a car on wheel-joint suspension with motors drives over hills"
    help = ("left / right: drive that way (else it turns at each end)",)
    view = (-5.0, -2.0, 31.0, 10.0)

    def build(self) -> World:
        world = World(gravity=(0.0, -10.0))
        ground = world.add_body(kind="static")
        x = np.linspace(X0, X1, 137)
        y = terrain(x)
        for (xa, ya), (xb, yb) in zip(np.column_stack((x, y))[:-1],
                                      np.column_stack((x, y))[1:], strict=True):
            ground.add_segment((xa, ya), (xb, yb), friction=0.9)
        ground.add_box(1.0, 6.0, offset=(X0 - 0.5, 3.0))
        ground.add_box(1.0, 6.0, offset=(X1 + 0.5, 3.0))
        # A few crates in the way.
        for cx, row in ((14.0, 0), (14.0, 1), (23.0, 0)):
            h = float(terrain(np.array([cx]))[0])
            crate = world.add_body(position=(cx, h + 0.4 + 0.7 * row))
            crate.add_box(0.7, 0.7, density=0.3, friction=0.6)
        self.chassis = world.add_body(position=(0.0, 1.0))
        self.chassis.add_polygon(CHASSIS, density=1.0, friction=0.4)
        self.colors[self.chassis.id] = (231, 111, 81)
        self.wheels, self.joints = [], []
        for dx in (-1.0, 1.0):
            centre = (dx, 1.0 - 0.6)
            wheel = world.add_body(position=centre)
            wheel.add_circle(WHEEL_RADIUS, density=2.0, friction=1.5)
            self.colors[wheel.id] = (60, 64, 74)
            self.wheels.append(wheel)
            self.joints.append(world.add_wheel_joint(
                self.chassis, wheel, centre, (0.0, 1.0), spring_hertz=5.0,
                spring_damping_ratio=0.7, lower=-0.25, upper=0.25,
                max_motor_torque=MOTOR_TORQUE))
        self.direction = 1.0
        self.manual = 0.0
        return world

    def before_step(self, dt: float) -> None:
        x = float(self.chassis.position[0])
        if self.manual:
            self.direction = self.manual
        elif x > X1 - 5.0:
            self.direction = -1.0
        elif x < X0 + 4.0:
            self.direction = 1.0
        # Clockwise wheels (negative speed relative to the chassis) drive the car right.
        for j in self.joints:
            j.motor_speed = -self.direction * MOTOR_SPEED

    def key(self, key: int, down: bool) -> bool:
        import pygame as pg

        if key in (pg.K_LEFT, pg.K_RIGHT):
            d = -1.0 if key == pg.K_LEFT else 1.0
            if down:
                self.manual = d
            elif self.manual == d:
                self.manual = 0.0
            return True
        return False

    def stats(self) -> list[str]:
        v = float(self.chassis.velocity[0])
        squeeze = [f"{j.translation:+.2f}" for j in self.joints]
        return [f"speed {v:+.1f} m/s   suspension {' '.join(squeeze)} m"]
