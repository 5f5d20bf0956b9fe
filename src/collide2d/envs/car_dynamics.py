"""The top-down car of CarRacing-v3 on collide2d: a hull of four polygons, four wheels on
revolute joints, and Gymnasium's tyre model (``gymnasium/envs/box2d/car_dynamics.py``)
computed for the four wheels at once with NumPy.

Each wheel carries the original's state (gas, brake, steering target, spin ``omega`` and
``phase``) in arrays of four, front-left, front-right, rear-left, rear-right. Every frame
:meth:`Car.step` reads the wheels' poses and velocities with one batch call each, turns
the slip between the wheel's spin and its ground speed into a friction force capped by
the ground's grip (road or grass), and applies the four forces with one
``world.apply_forces`` call. Steering drives the front joints' motors toward the target
angle, as the original does, with the joint angles worked out from the bodies' angles.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np

SIZE = 0.02
ENGINE_POWER = 100000000 * SIZE * SIZE
WHEEL_MOMENT_OF_INERTIA = 4000 * SIZE * SIZE
FRICTION_LIMIT = 1000000 * SIZE * SIZE  # N; friction ~ mass ~ size^2
GRASS_FRICTION = 0.6  # the grip off the road, a fraction of FRICTION_LIMIT
ROAD_FRICTION = 1.0
SLIP_GAIN = 205000 * SIZE * SIZE  # N per m/s of slip: the original's damping of the slip
BRAKE_FORCE = 15.0  # rad/s taken off the spin per frame at full brake
WHEEL_R = 27
WHEEL_W = 14
WHEELPOS = [(-55, +80), (+55, +80), (-55, -82), (+55, -82)]
HULL_POLY1 = [(-60, +130), (+60, +130), (+60, +110), (-60, +110)]
HULL_POLY2 = [(-15, +120), (+15, +120), (+20, +20), (-20, 20)]
HULL_POLY3 = [(+25, +20), (+50, -10), (+50, -40), (+20, -90), (-20, -90), (-50, -40),
              (-50, -10), (-25, +20)]
HULL_POLY4 = [(-50, -120), (+50, -120), (+50, -90), (-50, -90)]
WHEEL_POLY = [(-WHEEL_W, +WHEEL_R), (+WHEEL_W, +WHEEL_R), (+WHEEL_W, -WHEEL_R),
              (-WHEEL_W, -WHEEL_R)]
HULL_COLOR = (204, 0, 0)
WHEEL_COLOR = (0, 0, 0)
WHEEL_WHITE = (77, 77, 77)
MUD_COLOR = (102, 102, 0)

STEER_LIMIT = 0.4  # rad, the wheel joints' limits
STEER_GAIN = 50.0  # motor speed per radian from the target, up to STEER_SPEED
STEER_SPEED = 3.0  # rad/s
STEER_TORQUE = 180 * 900 * SIZE * SIZE  # N m

# Box2D filter bits of the original: wheels meet only category 1 (the road tiles).
WHEEL_BITS = 0x0020
TILE_BITS = 0x0001


@dataclass(slots=True)
class Particle:
    """A skid mark: a polyline in world metres, mud-coloured on grass."""
    color: tuple[int, int, int]
    poly: list = field(default_factory=list)
    grass: bool = False


class Car:
    """The hull, the wheels and their joints in ``world``, at ``(x, y)`` heading ``angle``
    (rad; 0 faces +y), and the wheels' tyre state.

    The wheels are created on their joints' anchors, turned with the hull (see the module
    docstring of :mod:`collide2d.envs.car_racing` for why).
    """

    def __init__(self, world, init_angle: float, init_x: float, init_y: float,
                 wheel_type: int, hull_type: int):
        self.world = world
        self.hull = world.add_body(position=(init_x, init_y), angle=init_angle)
        for poly in (HULL_POLY1, HULL_POLY2, HULL_POLY3, HULL_POLY4):
            shape = self.hull.add_polygon([(x * SIZE, y * SIZE) for x, y in poly],
                                          density=1.0)
            shape.collision_type = hull_type
        c, s = math.cos(init_angle), math.sin(init_angle)
        self.wheels = []
        self.joints = []
        self.wheel_shapes = []
        for wx, wy in WHEELPOS:
            ax, ay = wx * SIZE, wy * SIZE
            at = (init_x + c * ax - s * ay, init_y + s * ax + c * ay)
            w = world.add_body(position=at, angle=init_angle)
            shape = w.add_polygon([(x * SIZE, y * SIZE) for x, y in WHEEL_POLY],
                                  density=0.1, elasticity=0.0, category=WHEEL_BITS,
                                  mask=TILE_BITS)
            shape.collision_type = wheel_type
            joint = world.add_revolute_joint(self.hull, w, at, lower_angle=-STEER_LIMIT,
                                             upper_angle=STEER_LIMIT, motor_speed=0.0,
                                             max_motor_torque=STEER_TORQUE)
            self.wheels.append(w)
            self.joints.append(joint)
            self.wheel_shapes.append(shape)
        self.ids = np.array([self.hull.id] + [w.id for w in self.wheels], dtype=np.int64)
        self.wheel_ids = self.ids[1:]
        self.wheel_rad = np.full(4, WHEEL_R * SIZE)
        self.gas_ = np.zeros(4)
        self.brake_ = np.zeros(4)
        self.steer_ = np.zeros(4)
        self.omega = np.zeros(4)
        self.phase = np.zeros(4)
        self.motor_speed = np.zeros(4)
        self.tiles = np.zeros(4, dtype=np.int64)  # road tiles under each wheel
        self.fuel_spent = 0.0
        self.particles: deque = deque(maxlen=30)
        self.skid_start: list = [None] * 4
        self.skid_particle: list = [None] * 4

    # -- controls, as the original's
    def gas(self, gas) -> None:
        """Rear-wheel drive: the throttle (clipped to 0..1) rises by at most 0.1 a frame and
        drops at once."""
        gas = np.clip(gas, 0, 1)
        diff = np.minimum(gas - self.gas_[2:], 0.1)
        self.gas_[2:] += diff

    def brake(self, b) -> None:
        """0..1 on every wheel; 0.9 or more locks the wheels."""
        self.brake_[:] = b

    def steer(self, s) -> None:
        """Target angle of the front wheels' joints (rad, -1..1, positive to the left)."""
        self.steer_[:2] = s

    def joint_angles(self, angles=None) -> np.ndarray:
        """The wheels' angles relative to the hull (rad): their joints' angles, as the
        joints were created with hull and wheels at the same angle."""
        if angles is None:
            angles = self.world.angles(self.ids)
        return angles[1:] - angles[0]

    # -- the tyre model
    def step(self, dt: float, skids: bool = False) -> None:
        """Steer, spin and push the four wheels for a frame of ``dt`` seconds; with
        ``skids``, also lay the skid marks the renderer draws."""
        angles = self.world.angles(self.ids)
        joint = self.joint_angles(angles)
        # The original's motor drives past the +-0.4 rad limits (targets reach 1) and
        # Box2D 2.3's rigid limit stops the wheel; collide2d's soft limit would give a
        # little and hold the push, so the wheel leaves the limit late when the steering
        # turns back. Aiming the motor at the limit itself stops the wheel there as
        # rigidly (at 50 rad/s per radian a frame of 0.02 s closes the gap exactly).
        diff = np.clip(self.steer_, -STEER_LIMIT, STEER_LIMIT) - joint
        speed = np.sign(diff) * np.minimum(STEER_GAIN * np.abs(diff), STEER_SPEED)
        # Only the speeds that changed (a setter wakes the car; the torques stay).
        for k in np.flatnonzero(speed != self.motor_speed):
            self.joints[k].motor_speed = float(speed[k])
        self.motor_speed = speed

        grass = self.tiles == 0
        friction_limit = FRICTION_LIMIT * np.where(grass, GRASS_FRICTION, ROAD_FRICTION)

        a = angles[1:]
        forw = np.column_stack((-np.sin(a), np.cos(a)))
        side = np.column_stack((np.cos(a), np.sin(a)))
        v = self.world.velocities(self.wheel_ids)
        vf = (forw * v).sum(axis=1)  # forward speed
        vs = (side * v).sum(axis=1)  # side speed

        # I omega^2 / 2 = E and I omega domega/dt = dE/dt = power, so
        # domega = dt power / (I omega); the 5 keeps it finite at rest.
        self.omega += (dt * ENGINE_POWER * self.gas_ / WHEEL_MOMENT_OF_INERTIA
                       / (np.abs(self.omega) + 5.0))
        self.fuel_spent += dt * ENGINE_POWER * float(self.gas_.sum())
        braking = self.brake_ > 0
        slow = np.minimum(BRAKE_FORCE * np.where(braking, self.brake_, 0.0),
                          np.abs(self.omega))  # low speed: stop, never reverse
        self.omega = np.where(self.brake_ >= 0.9, 0.0, self.omega - np.sign(self.omega) * slow)
        self.phase += self.omega * dt

        vr = self.omega * self.wheel_rad  # the tread's speed
        f_force = (vr - vf) * SLIP_GAIN
        p_force = -vs * SLIP_GAIN
        force = np.sqrt(f_force * f_force + p_force * p_force)
        if skids:
            self._skid(force > 2.0 * friction_limit, grass)
        over = force > friction_limit
        scale = np.where(over, friction_limit / np.where(over, force, 1.0), 1.0)
        f_force = f_force * scale
        p_force = p_force * scale
        self.omega -= dt * f_force * self.wheel_rad / WHEEL_MOMENT_OF_INERTIA
        self.world.apply_forces(self.wheel_ids,
                                p_force[:, None] * side + f_force[:, None] * forw)

    def _skid(self, skidding, grass) -> None:
        """The original's skid marks (drawn only): a wheel skidding for two frames starts
        a mark, and each further frame extends it up to 30 points."""
        if not skidding.any() and not any(self.skid_start) and not any(self.skid_particle):
            return
        pos = self.world.positions(self.wheel_ids)
        for k in range(4):  # marks are Python lists, drawn only in the rgb_array/human modes
            p = (float(pos[k, 0]), float(pos[k, 1]))
            mark = self.skid_particle[k]
            if not skidding[k]:
                self.skid_start[k] = None
                self.skid_particle[k] = None
            elif mark is not None and mark.grass == grass[k] and len(mark.poly) < 30:
                mark.poly.append(p)
            elif self.skid_start[k] is None:
                self.skid_start[k] = p
            else:
                mark = Particle(MUD_COLOR if grass[k] else WHEEL_COLOR,
                                [self.skid_start[k], p], bool(grass[k]))
                self.particles.append(mark)
                self.skid_particle[k] = mark
                self.skid_start[k] = None

    # -- drawing
    def draw(self, surf, zoom, translation, angle, draw_particles=True) -> None:
        """The car (and its skid marks) onto ``surf``, through the camera of
        :func:`collide2d.envs._render.camera`."""
        from . import _render

        pygame, _ = _render.import_pygame()
        if draw_particles:
            for p in self.particles:
                pts = _render.camera(np.array(p.poly), zoom, translation, angle)
                pygame.draw.lines(surf, p.color, False, pts.tolist(), width=2)
        g = self.world.shape_geometry()
        wheel_rows = np.flatnonzero(np.isin(g.body, self.wheel_ids))
        hull_rows = np.flatnonzero(g.body == self.hull.id)
        # The original draws the wheels and their treads, then the hull over them.
        self._fill(surf, g, wheel_rows, WHEEL_COLOR, zoom, translation, angle)
        self._draw_treads(surf, zoom, translation, angle)
        self._fill(surf, g, hull_rows, HULL_COLOR, zoom, translation, angle)

    @staticmethod
    def _fill(surf, g, rows, color, zoom, translation, angle) -> None:
        from . import _render

        pygame, _ = _render.import_pygame()
        for k in rows:
            v = g.vertices[g.offset[k]:g.offset[k] + g.count[k]]
            pygame.draw.polygon(surf, color, _render.camera(v, zoom, translation,
                                                            angle).tolist())

    def _draw_treads(self, surf, zoom, translation, angle) -> None:
        """The grey band on each wheel that turns with its ``phase`` (the original's)."""
        from . import _render

        pygame, _ = _render.import_pygame()
        s1, s2 = np.sin(self.phase), np.sin(self.phase + 1.2)
        c1, c2 = np.cos(self.phase), np.cos(self.phase + 1.2)
        c1 = np.where(s1 > 0, np.sign(c1), c1)
        c2 = np.where(s2 > 0, np.sign(c2), c2)
        shown = ~((s1 > 0) & (s2 > 0))
        if not shown.any():
            return
        pos = self.world.positions(self.wheel_ids)
        ang = self.world.angles(self.wheel_ids)
        w, r = WHEEL_W * SIZE, WHEEL_R * SIZE
        for k in np.flatnonzero(shown):
            local = np.array([(-w, r * c1[k]), (w, r * c1[k]), (w, r * c2[k]),
                              (-w, r * c2[k])])
            cs, sn = math.cos(ang[k]), math.sin(ang[k])
            world_pts = local @ np.array([[cs, sn], [-sn, cs]]) + pos[k]
            pts = _render.camera(world_pts, zoom, translation, angle)
            pygame.draw.polygon(surf, WHEEL_WHITE, pts.tolist())
