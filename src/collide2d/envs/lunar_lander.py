"""LunarLander-v3 on collide2d: Gymnasium's Box2D lander with collide2d's physics.

The spaces, reward terms, termination rules, random draws (terrain, initial push, wind
phase, engine dispersion: the same calls on ``np_random`` in the same order), options and
render modes are Gymnasium's (``gymnasium/envs/box2d/lunar_lander.py``); the units are its
Box2D units (30 pixels per metre, a 20 m x 13.3 m viewport, 50 steps per second).

The physics is collide2d's: the moon is a static body of segments, the lander a polygon,
each leg a box on a revolute joint with limits and a motor (``world.add_revolute_joint``);
the legs' ground contact and the hull touching the moon come from contact events
(``on_contact_begin`` / ``on_contact_end`` with ``between=`` collision types); an episode
ends with +100 when the lander falls asleep (``body.awake``).

Where it differs from the Box2D original, and why:

- The legs are created where the original's joints pull them in the first steps (the leg
  anchor on the hull's origin, each leg at the limit its motor drives it to):
  collide2d's joints take their anchor in world coordinates at creation and hold that
  configuration, where Box2D 2.3 snaps mismatched local anchors together with a jolt.
  The first observations differ by that jolt (a few hundredths).
- Bodies fall asleep below 0.05 m/s and 2 deg/s for 0.5 s (collide2d's thresholds;
  Box2D 2.3's are 0.01 m/s and 2 deg/s), so a landing ends a little sooner.
- Polygons have no 0.01 m skin (Box2D 2.3's polygon radius): the lander rests 2 cm lower.
- Contacts and joints are solved by collide2d's soft-step solver with 8 substeps and
  ``contact_hertz`` 100 instead of Box2D 2.3's 180 velocity and 60 position iterations.
  collide2d's joint limits are soft (twice the contact hertz, at most a quarter of the
  substep rate), and each leg's motor pushes it into its limit with 40 N m as in the
  original: with the joints' default damping ratio (2) a landed lander rocks on its legs,
  on the limits' springs, above the sleep threshold for the whole episode, at 4 substeps as
  at 8 (16 held it). The world's ``joint_damping_ratio`` of 20 keeps the limits' stiffness
  and makes them rigid in velocity: at 8 substeps the lander comes to rest as soon after
  touching down as it did at 16 (about 100 steps) and lands as often (Gymnasium's
  heuristic over seeds 0-49: mean return 204, 41 at 200 or more; 217 and 42 at 16
  substeps), for half the substeps' cost. (At 4 substeps and ratio 50 it lands, but takes
  twice as long to come to rest.) In flight the motors bend the limits by 0.045 rad (0.015
  at 16 substeps): the legs hang 2.6 degrees further out than the original's.
  Trajectories agree with the original's to about 1 % until the first contact and diverge
  after it.
- Exhaust particles (drawn only when ``render_mode`` is set) are bodies as in the
  original; they collide with the moon only, so they never change the lander's motion.
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from ..world import World
from . import _render
from ._episodes import edge_starts, reset_in_place, write_ground

FPS = 50
SCALE = 30.0  # pixels per metre, the original's units

MAIN_ENGINE_POWER = 13.0
SIDE_ENGINE_POWER = 0.6

INITIAL_RANDOM = 1000.0  # N, the initial push's bound on each axis

LANDER_POLY = [(-14, +17), (-17, 0), (-17, -10), (+17, -10), (+17, 0), (+14, +17)]
LEG_AWAY = 20
LEG_DOWN = 18
LEG_W, LEG_H = 2, 8
LEG_SPRING_TORQUE = 40

SIDE_ENGINE_HEIGHT = 14
SIDE_ENGINE_AWAY = 12
MAIN_ENGINE_Y_LOCATION = 4

VIEWPORT_W = 600
VIEWPORT_H = 400

CHUNKS = 11  # the moon's surface points
HELIPAD_X1 = VIEWPORT_W / SCALE / (CHUNKS - 1) * (CHUNKS // 2 - 1)
HELIPAD_X2 = VIEWPORT_W / SCALE / (CHUNKS - 1) * (CHUNKS // 2 + 1)
HELIPAD_Y = VIEWPORT_H / SCALE / 4

# Leg limits that hold a landed lander still enough to fall asleep (the module docstring).
SUBSTEPS = 8
CONTACT_HERTZ = 100.0
JOINT_DAMPING_RATIO = 20.0
SKIN = 0.0  # Box2D 2.3's polygon radius would be 0.01; the landings were no better with it

# Collision types for the contact handlers.
MOON, HULL, LEG_LEFT, LEG_RIGHT = 1, 2, 3, 4
# Box2D filter bits of the original: everything but the moon collides with the moon only.
GROUND_BITS, HULL_BITS, LEG_BITS, PARTICLE_BITS = 0x0001, 0x0010, 0x0020, 0x0100

_HULL_COLORS = ((128, 102, 230), (77, 77, 128))


class LunarLander(gym.Env, EzPickle):
    """Land the craft on the pad between the flags (Gymnasium's ``LunarLander-v3``).

    Observation (8 float32): x and y of the hull relative to the pad, their velocities, the
    angle, the angular velocity (all scaled as in the original), and two leg-contact flags.
    Actions: ``Discrete(4)`` (nothing, left engine, main engine, right engine) or, with
    ``continuous=True``, ``Box(-1, 1, (2,))`` (main throttle, lateral throttle). Reward
    and termination as in Gymnasium: shaping on distance, speed, tilt and leg contact,
    fuel costs, -100 for a crash or flying off screen, +100 for coming to rest.

    Parameters
    ----------
    render_mode : None, "human" or "rgb_array"
    continuous : bool
    gravity : float
        m/s^2, between -12 and 0.
    enable_wind : bool
        Wind and turbulence while no leg touches the ground.
    wind_power, turbulence_power : float
        Peak wind force (N) and turbulence torque (N m).

    Example
    -------
    >>> import gymnasium as gym
    >>> import collide2d.envs
    >>> env = gym.make("collide2d/LunarLander-v3")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, env.action_space
    ((8,), Discrete(4))
    >>> obs, reward, terminated, truncated, info = env.step(0)
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}
    helipad_x1, helipad_x2, helipad_y = HELIPAD_X1, HELIPAD_X2, HELIPAD_Y

    def __init__(self, render_mode: str | None = None, continuous: bool = False,
                 gravity: float = -10.0, enable_wind: bool = False,
                 wind_power: float = 15.0, turbulence_power: float = 1.5):
        EzPickle.__init__(self, render_mode, continuous, gravity, enable_wind, wind_power,
                          turbulence_power)
        if not -12.0 < gravity < 0.0:
            raise ValueError(f"gravity: must be between -12 and 0 (got {gravity})")
        if not 0.0 <= wind_power <= 20.0:
            gym.logger.warn(f"wind_power value is recommended to be between 0.0 and 20.0, "
                            f"(current value: {wind_power})")
        if not 0.0 <= turbulence_power <= 2.0:
            gym.logger.warn(f"turbulence_power value is recommended to be between 0.0 and "
                            f"2.0, (current value: {turbulence_power})")
        _render.check_mode(render_mode, self.metadata["render_modes"])
        self.gravity = gravity
        self.wind_power = wind_power
        self.turbulence_power = turbulence_power
        self.enable_wind = enable_wind
        self.continuous = continuous
        self.render_mode = render_mode
        self.screen = None
        self.clock = None
        self.world: World | None = None
        self._template: World | None = None  # what an episode's world is reset to
        self.lander = None
        self.legs: list = []
        self.particles: list = []

        low = np.array([-2.5, -2.5, -10.0, -10.0, -2 * math.pi, -10.0, -0.0, -0.0],
                       dtype=np.float32)
        high = np.array([2.5, 2.5, 10.0, 10.0, 2 * math.pi, 10.0, 1.0, 1.0],
                        dtype=np.float32)
        self.observation_space = spaces.Box(low, high)
        if continuous:
            self.action_space = spaces.Box(-1, +1, (2,), dtype=np.float32)
        else:
            self.action_space = spaces.Discrete(4)

    # ------------------------------------------------------------------ building
    def _draw_episode(self) -> tuple:
        """An episode's random draws on ``np_random``, in the original's order: the
        terrain's chunk heights, the initial push, the wind and turbulence phases (with
        wind only). Returns (the moon's points, the push, the phases or None)."""
        heights = self.np_random.uniform(0, VIEWPORT_H / SCALE / 2, size=(CHUNKS + 1,))
        push = (self.np_random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM),
                self.np_random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM))
        phases = None
        if self.enable_wind:
            phases = (self.np_random.integers(-9999, 9999),
                      self.np_random.integers(-9999, 9999))
        return moon_points(heights), push, phases

    def _build(self, points, push) -> World:
        """The episode's world: the moon through ``points``, the lander pushed by ``push``
        (N) for the first step; no callbacks."""
        world = World(gravity=(0.0, self.gravity), substeps=SUBSTEPS)
        world.contact_hertz = CONTACT_HERTZ
        world.joint_damping_ratio = JOINT_DAMPING_RATIO
        self._build_moon(world, points)
        self._build_lander(world, push)
        return world

    def _build_moon(self, world: World, points) -> None:
        w = VIEWPORT_W / SCALE
        self.moon = world.add_body(kind="static")
        bottom = self.moon.add_segment((0, 0), (w, 0), radius=SKIN, friction=0.2)
        bottom.collision_type = MOON
        self.moon_edges = self.moon.add_chain(points, radius=SKIN, friction=0.1)
        for edge in self.moon_edges:
            edge.collision_type = MOON
        self.sky_polys = sky_polys(points)

    def _build_lander(self, world: World, push) -> None:
        x0, y0 = VIEWPORT_W / SCALE / 2, VIEWPORT_H / SCALE
        self.lander = world.add_body(position=(x0, y0))
        hull = self.lander.add_polygon([(x / SCALE, y / SCALE) for x, y in LANDER_POLY],
                                       radius=SKIN, density=5.0, friction=0.1, category=HULL_BITS,
                                       mask=GROUND_BITS)
        hull.collision_type = HULL
        self.lander.apply_force(push)
        self.legs = []
        self.leg_joints = []
        for i, kind in ((-1, LEG_LEFT), (+1, LEG_RIGHT)):
            # The pose the original's joint settles the leg into: its anchor
            # (i * LEG_AWAY, LEG_DOWN) on the hull's origin, at the limit its motor holds
            # (pybox2d counts joint angles from the angle at creation, i * 0.05).
            angle = -0.35 * i
            c, s = math.cos(angle), math.sin(angle)
            ax, ay = i * LEG_AWAY / SCALE, LEG_DOWN / SCALE
            leg = world.add_body(position=(x0 - (c * ax - s * ay), y0 - (s * ax + c * ay)),
                                 angle=angle)
            hw, hh = LEG_W / SCALE, LEG_H / SCALE
            shape = leg.add_polygon([(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)],
                                    radius=SKIN, density=1.0,
                                    friction=0.2, category=LEG_BITS, mask=GROUND_BITS)
            shape.collision_type = kind
            # The original's limits (+0.4..+0.9 left, -0.9..-0.4 right), from this angle.
            lower, upper = (0.0, 0.5) if i == -1 else (-0.5, 0.0)
            joint = world.add_revolute_joint(self.lander, leg, (x0, y0), lower_angle=lower,
                                             upper_angle=upper, motor_speed=0.3 * i,
                                             max_motor_torque=LEG_SPRING_TORQUE)
            self.legs.append(leg)
            self.leg_joints.append(joint)

    def _listen(self, world: World) -> None:
        def crashed(event):
            self.game_over = True

        def touched(leg):
            def on(event):
                self.ground_contact[leg] = True
            return on

        def lifted(leg):
            def off(event):
                self.ground_contact[leg] = False
            return off

        world.on_contact_begin(crashed, between=(HULL, MOON))
        for leg, kind in ((0, LEG_LEFT), (1, LEG_RIGHT)):
            world.on_contact_begin(touched(leg), between=(kind, MOON))
            world.on_contact_end(lifted(leg), between=(kind, MOON))

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        points, push, phases = self._draw_episode()
        if phases is not None:
            self.wind_idx, self.torque_idx = phases
        self.world = self._episode_world(points, push)
        self.ground_contact = [False, False]
        self.particles = []
        self.game_over = False
        self.prev_shaping = None
        self._listen(self.world)
        if self.render_mode == "human":
            self.render()
        return self.step(np.array([0, 0]) if self.continuous else 0)[0], {}

    def _episode_world(self, points, push) -> World:
        """The episode's world (as ``_build`` makes it): the last episode's world reset in
        place to a world built once and never stepped (``snapshot.assign``, as the vector
        environment resets its rows), the moon's points written into its vertices; or a
        new one, in the first episode or when the last left exhaust particles. A rebuild
        took 1.6 ms, a third of a random episode's time."""
        world = self.world
        if (world is not None and self._template is not None
                and reset_in_place(world, self._template)):
            write_ground(world, edge_starts(world, self.moon_edges), points)
            self.lander.apply_force(push)
            self.sky_polys = sky_polys(points)
            return world
        if self._template is None:
            self._template = self._build(points, (0.0, 0.0))
        return self._build(points, push)

    def _create_particle(self, mass, x, y, ttl):
        p = self.world.add_body(position=(x, y))
        p.add_circle(2 / SCALE, density=mass, friction=0.1, elasticity=0.3,
                     category=PARTICLE_BITS, mask=GROUND_BITS)
        self.particles.append([p, ttl])
        self._clean_particles(False)
        return p

    def _clean_particles(self, everything: bool) -> None:
        while self.particles and (everything or self.particles[0][1] < 0):
            self.world.remove(self.particles.pop(0)[0])

    def step(self, action):
        if self.lander is None or self.world is None:
            raise gym.error.ResetNeeded("Cannot call env.step() before calling env.reset()")
        lander = self.lander
        if self.enable_wind and not (self.ground_contact[0] or self.ground_contact[1]):
            wind = math.tanh(math.sin(0.02 * self.wind_idx)
                             + math.sin(math.pi * 0.01 * self.wind_idx)) * self.wind_power
            self.wind_idx += 1
            lander.apply_force((wind, 0.0))
            torque = math.tanh(math.sin(0.02 * self.torque_idx)
                               + math.sin(math.pi * 0.01 * self.torque_idx)
                               ) * self.turbulence_power
            self.torque_idx += 1
            lander.apply_torque(torque)

        if self.continuous:
            action = np.clip(action, -1, +1).astype(np.float64)
        # (An int in range passes as Discrete(4).contains passes it, without its cost.)
        elif not ((type(action) is int or isinstance(action, np.integer)) and 0 <= action < 4
                  or self.action_space.contains(action)):
            raise ValueError(f"action: {action!r} ({type(action)}) is not in "
                             f"{self.action_space}")

        angle = lander.angle
        pos = lander.position
        tip = (math.sin(angle), math.cos(angle))
        side = (-tip[1], tip[0])
        # (Two draws in one call: the values of two calls, in a third less time.)
        dispersion = (self.np_random.uniform(-1.0, +1.0, 2) / SCALE).tolist()

        m_power = 0.0
        if (self.continuous and action[0] > 0.0) or (not self.continuous and action == 2):
            m_power = (np.clip(action[0], 0.0, 1.0) + 1.0) * 0.5 if self.continuous else 1.0
            ox = (tip[0] * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * dispersion[0])
                  + side[0] * dispersion[1])
            oy = (-tip[1] * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * dispersion[0])
                  - side[1] * dispersion[1])
            at = (pos[0] + ox, pos[1] + oy)
            if self.render_mode is not None:
                p = self._create_particle(3.5, at[0], at[1], m_power)
                p.apply_impulse((ox * MAIN_ENGINE_POWER * m_power,
                                 oy * MAIN_ENGINE_POWER * m_power), at)
            lander.apply_impulse((-ox * MAIN_ENGINE_POWER * m_power,
                                  -oy * MAIN_ENGINE_POWER * m_power), at)

        s_power = 0.0
        if ((self.continuous and np.abs(action[1]) > 0.5)
                or (not self.continuous and action in (1, 3))):
            if self.continuous:
                direction = np.sign(action[1])
                s_power = np.clip(np.abs(action[1]), 0.5, 1.0)
            else:
                direction = action - 2
                s_power = 1.0
            ox = tip[0] * dispersion[0] + side[0] * (
                3 * dispersion[1] + direction * SIDE_ENGINE_AWAY / SCALE)
            oy = -tip[1] * dispersion[0] - side[1] * (
                3 * dispersion[1] + direction * SIDE_ENGINE_AWAY / SCALE)
            at = (pos[0] + ox - tip[0] * 17 / SCALE,
                  pos[1] + oy + tip[1] * SIDE_ENGINE_HEIGHT / SCALE)
            if self.render_mode is not None:
                p = self._create_particle(0.7, at[0], at[1], s_power)
                p.apply_impulse((ox * SIDE_ENGINE_POWER * s_power,
                                 oy * SIDE_ENGINE_POWER * s_power), at)
            lander.apply_impulse((-ox * SIDE_ENGINE_POWER * s_power,
                                  -oy * SIDE_ENGINE_POWER * s_power), at)

        self.world.step(1.0 / FPS)

        pos = lander.position
        vel = lander.velocity
        state = [
            (pos[0] - VIEWPORT_W / SCALE / 2) / (VIEWPORT_W / SCALE / 2),
            (pos[1] - (self.helipad_y + LEG_DOWN / SCALE)) / (VIEWPORT_H / SCALE / 2),
            vel[0] * (VIEWPORT_W / SCALE / 2) / FPS,
            vel[1] * (VIEWPORT_H / SCALE / 2) / FPS,
            lander.angle,
            20.0 * lander.angular_velocity / FPS,
            1.0 if self.ground_contact[0] else 0.0,
            1.0 if self.ground_contact[1] else 0.0,
        ]
        reward = 0.0
        # (math.sqrt: the same correctly rounded root as the original's np.sqrt, on floats)
        shaping = (-100 * math.sqrt(state[0] * state[0] + state[1] * state[1])
                   - 100 * math.sqrt(state[2] * state[2] + state[3] * state[3])
                   - 100 * abs(state[4]) + 10 * state[6] + 10 * state[7])
        if self.prev_shaping is not None:
            reward = shaping - self.prev_shaping
        self.prev_shaping = shaping
        reward -= m_power * 0.30
        reward -= s_power * 0.03

        terminated = False
        if self.game_over or abs(state[0]) >= 1.0:
            terminated = True
            reward = -100
        if not lander.awake:
            terminated = True
            reward = +100
        if self.render_mode == "human":
            self.render()
        return np.array(state, dtype=np.float32), reward, terminated, False, {}

    # ------------------------------------------------------------------ drawing
    def render(self):
        if self.render_mode is None:
            _render.warn_no_mode("collide2d/LunarLander-v3")
            return None
        pygame, gfxdraw = _render.import_pygame()
        surf = pygame.Surface((VIEWPORT_W, VIEWPORT_H))
        pygame.draw.rect(surf, (255, 255, 255), surf.get_rect())

        colors = {}
        for item in self.particles:
            item[1] -= 0.15
            ttl = item[1]
            c = (int(max(0.2, 0.15 + ttl) * 255), int(max(0.2, 0.5 * ttl) * 255),
                 int(max(0.2, 0.5 * ttl) * 255))
            colors[item[0].id] = (c, c)
        self._clean_particles(False)
        for poly in self.sky_polys:
            scaled = [(x * SCALE, y * SCALE) for x, y in poly]
            pygame.draw.polygon(surf, (0, 0, 0), scaled)
            gfxdraw.aapolygon(surf, scaled, (0, 0, 0))
        colors = {k: v for k, v in colors.items() if any(p[0].id == k for p in self.particles)}
        for body in [self.lander, *self.legs]:
            colors[body.id] = _HULL_COLORS
        _render.draw_bodies(surf, self.world, colors, SCALE)
        for x in (self.helipad_x1, self.helipad_x2):
            x = x * SCALE
            flagy1 = self.helipad_y * SCALE
            flagy2 = flagy1 + 50
            pygame.draw.line(surf, (255, 255, 255), (x, flagy1), (x, flagy2), width=1)
            flag = [(x, flagy2), (x, flagy2 - 10), (x + 25, flagy2 - 5)]
            pygame.draw.polygon(surf, (204, 204, 0), flag)
            gfxdraw.aapolygon(surf, flag, (204, 204, 0))
        return _render.present(self, surf, (VIEWPORT_W, VIEWPORT_H))

    def close(self):
        _render.close(self)


def moon_points(heights) -> list[tuple[float, float]]:
    """The moon's surface through ``CHUNKS + 1`` drawn heights (m): flat at the pad,
    each chunk's height the mean of its neighbours' (as the original smooths them)."""
    height = np.array(heights, dtype=np.float64)
    height[CHUNKS // 2 - 2:CHUNKS // 2 + 3] = HELIPAD_Y
    chunk_x = [VIEWPORT_W / SCALE / (CHUNKS - 1) * i for i in range(CHUNKS)]
    smooth_y = [0.33 * (height[i - 1] + height[i + 0] + height[i + 1]) for i in range(CHUNKS)]
    return list(zip(chunk_x, smooth_y, strict=True))


def sky_polys(points) -> list:
    """The black sky above the moon's surface, one quad per chunk, for drawing."""
    h = VIEWPORT_H / SCALE
    return [[p1, p2, (p2[0], h), (p1[0], h)] for p1, p2 in zip(points, points[1:], strict=False)]


def heuristic(env, s):
    """Gymnasium's hand-written lander controller (``lunar_lander.heuristic``), here so
    that it runs without the Box2D package: PD control of the angle toward the pad and
    of the hover height, the engines on thresholds."""
    angle_targ = s[0] * 0.5 + s[2] * 1.0
    angle_targ = min(max(angle_targ, -0.4), 0.4)
    hover_targ = 0.55 * np.abs(s[0])
    angle_todo = (angle_targ - s[4]) * 0.5 - (s[5]) * 1.0
    hover_todo = (hover_targ - s[1]) * 0.5 - (s[3]) * 0.5
    if s[6] or s[7]:
        angle_todo = 0
        hover_todo = -(s[3]) * 0.5
    if env.unwrapped.continuous:
        return np.clip(np.array([hover_todo * 20 - 1, -angle_todo * 20]), -1, +1)
    if hover_todo > np.abs(angle_todo) and hover_todo > 0.05:
        return 2
    if angle_todo < -0.05:
        return 3
    if angle_todo > +0.05:
        return 1
    return 0
