"""BipedalWalker-v3 (and its hardcore mode) on collide2d.

Spaces, reward terms, termination, the seeded terrain (grass, and in hardcore mode
stumps, stairs and pits: the same draws from ``np_random`` in the same order), clouds,
options and render modes are Gymnasium's (``gymnasium/envs/box2d/bipedal_walker.py``), in
its Box2D units (30 pixels per metre, 50 steps per second).

The physics is collide2d's: the hull and four leg segments on revolute joints with limits
and motors whose speed and torque the action sets each step, the lower legs' ground
contact and the hull touching the ground from contact events with ``between=`` collision
types, and the ten lidar rays as one ``world.raycast_many`` call that sees the terrain only.

Where it differs from the Box2D original, and why:

- The legs are created where the original's first step leaves them (hips at 0.092 and
  0.032 rad, knees at -0.14 and -0.146), the walker standing on the start pad: collide2d's
  joints take their anchor in world coordinates at creation and hold that configuration,
  where the original creates each thigh half a metre off its hip anchor and lets Box2D
  2.3 snap it on. Letting collide2d's soft joints close that gap instead throws the walker
  upwards at 9 m/s (the soft step turns position error into velocity).
- Joint limits and motors are solved in collide2d's soft-step solver with 16 substeps and
  ``contact_hertz`` 100 instead of Box2D 2.3's 180 velocity and 60 position iterations;
  the limits are soft (a knee driven into its -1.6 rad limit by a weak motor rebounds
  further than Box2D's).
- Polygons have no 0.01 m skin (Box2D 2.3's polygon radius).
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from ..queries import QueryFilter
from ..world import World
from . import _render
from ._episodes import edge_starts, reset_in_place, write_ground

FPS = 50
SCALE = 30.0

MOTORS_TORQUE = 80
SPEED_HIP = 4
SPEED_KNEE = 6
_MOTOR_SPEEDS = (SPEED_HIP, SPEED_KNEE, SPEED_HIP, SPEED_KNEE)  # per joint
LIDAR_RANGE = 160 / SCALE

INITIAL_RANDOM = 5

HULL_POLY = [(-30, +9), (+6, +9), (+34, +1), (+34, -8), (-30, -8)]
LEG_DOWN = -8 / SCALE
LEG_W, LEG_H = 8 / SCALE, 34 / SCALE

VIEWPORT_W = 600
VIEWPORT_H = 400

TERRAIN_STEP = 14 / SCALE
TERRAIN_LENGTH = 200
TERRAIN_HEIGHT = VIEWPORT_H / SCALE / 4
TERRAIN_GRASS = 10
TERRAIN_STARTPAD = 20
_GROUND_X = [i * TERRAIN_STEP for i in range(TERRAIN_LENGTH)]
FRICTION = 2.5

# Stiffer joint limits (as the lander's; see its module docstring): the heuristic gait
# walked 29 m on average over seeds 0-9 at 16 substeps and 100 Hz, 25 m at 8 and 100 Hz.
SUBSTEPS = 16
CONTACT_HERTZ = 100.0
# Joint angles after the original's first step (seed-independent up to 0.01 rad).
HIP_AT_START = (0.092, 0.032)
KNEE_AT_START = (-0.14, -0.146)

GROUND, HULL, THIGH, FOOT_0, FOOT_1 = 1, 2, 3, 4, 5
GROUND_BITS, WALKER_BITS = 0x0001, 0x0020

_TERRAIN_COLORS = ((255, 255, 255), (153, 153, 153))


class BipedalWalker(gym.Env, EzPickle):
    """Walk a two-legged robot to the end of the terrain (Gymnasium's
    ``BipedalWalker-v3``; ``hardcore=True`` for ``BipedalWalkerHardcore-v3``).

    Observation (24 float32): hull angle, angular velocity, velocity (x, y), for each leg
    the hip angle and speed, the knee angle (+1) and speed and the foot's ground contact,
    then ten lidar fractions. Action: ``Box(-1, 1, (4,))``, the signed motor torques of
    hip 1, knee 1, hip 2, knee 2. Reward: 130 per terrain length walked (scaled), minus
    5 per radian of hull tilt, minus a torque cost; -100 for falling on the hull.

    Example
    -------
    >>> import gymnasium as gym
    >>> import collide2d.envs
    >>> env = gym.make("collide2d/BipedalWalker-v3")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, env.action_space.shape
    ((24,), (4,))
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}

    def __init__(self, render_mode: str | None = None, hardcore: bool = False):
        EzPickle.__init__(self, render_mode, hardcore)
        _render.check_mode(render_mode, self.metadata["render_modes"])
        self.hardcore = hardcore
        self.render_mode = render_mode
        self.screen = None
        self.clock = None
        self.world: World | None = None
        self._template: World | None = None  # what an episode's world is reset to
        self.hull = None
        self.prev_shaping = None
        low = np.array([-math.pi, -5.0, -5.0, -5.0, -math.pi, -5.0, -math.pi, -5.0, -0.0,
                        -math.pi, -5.0, -math.pi, -5.0, -0.0] + [-1.0] * 10, np.float32)
        high = np.array([math.pi, 5.0, 5.0, 5.0, math.pi, 5.0, math.pi, 5.0, 5.0,
                         math.pi, 5.0, math.pi, 5.0, 5.0] + [1.0] * 10, np.float32)
        self.action_space = spaces.Box(np.array([-1, -1, -1, -1], np.float32),
                                       np.array([1, 1, 1, 1], np.float32))
        self.observation_space = spaces.Box(low, high)
        self._lidar_angles = 1.5 * np.arange(10) / 10.0
        self._lidar_offsets = np.column_stack((-(np.sin(self._lidar_angles) * LIDAR_RANGE),
                                               np.cos(self._lidar_angles) * LIDAR_RANGE))
        self._lidar_filter = QueryFilter(mask=GROUND_BITS)

    # ------------------------------------------------------------------ terrain
    def _static_polygon(self, poly) -> None:
        body = self.world.add_body(kind="static")
        # The original's quads run clockwise for pits and stairs; collide2d wants them
        # counter-clockwise, so they are given in the order of increasing signed area.
        pts = np.array(poly, dtype=float)
        x, y = pts[:, 0], pts[:, 1]
        if np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) < 0:
            pts = pts[::-1]
        shape = body.add_polygon(pts, friction=FRICTION, category=GROUND_BITS)
        shape.collision_type = GROUND
        self.terrain_colors[body.id] = _TERRAIN_COLORS

    def _draw_terrain(self, hardcore: bool) -> tuple[list, list, list]:
        """The terrain's random draws on ``np_random``, in the original's order: the
        ground line's points (x and y lists) and the obstacles' polygons (hardcore), in
        the order they are built. Without obstacles, :meth:`_draw_grass` draws the ground;
        the loop below is the original's, for the hardcore terrain."""
        if not hardcore:
            return list(_GROUND_X), self._draw_grass(), []
        grass, stump, stairs, pit, n_states = range(5)
        state = grass
        velocity = 0.0
        y = TERRAIN_HEIGHT
        counter = TERRAIN_STARTPAD
        oneshot = False
        xs, ys, polys = [], [], []
        stair_steps, stair_width, stair_height = 0, 0, 0
        original_y = 0
        rng = self.np_random
        # A grass run's uniforms, drawn in one call when its first one is needed: the same
        # values in the same order as one call a step, nothing else being drawn in a run.
        run, taken = [], 0
        for i in range(TERRAIN_LENGTH):
            x = i * TERRAIN_STEP
            xs.append(x)
            if state == grass and not oneshot:
                up = TERRAIN_HEIGHT - y  # (its sign as np.sign gives it, without NumPy)
                velocity = 0.8 * velocity + 0.01 * (1.0 if up > 0 else -1.0 if up < 0 else 0.0)
                if i > TERRAIN_STARTPAD:
                    if taken == len(run):  # the run's steps left, up to the terrain's end
                        run = rng.uniform(-1, 1, min(counter, TERRAIN_LENGTH - i)).tolist()
                        taken = 0
                    velocity += run[taken] / SCALE
                    taken += 1
                y += velocity
            elif state == pit and oneshot:
                counter = rng.integers(3, 5)
                poly = [(x, y), (x + TERRAIN_STEP, y), (x + TERRAIN_STEP, y - 4 * TERRAIN_STEP),
                        (x, y - 4 * TERRAIN_STEP)]
                polys.append(poly)
                polys.append([(p[0] + TERRAIN_STEP * counter, p[1]) for p in poly])
                counter += 2
                original_y = y
            elif state == pit and not oneshot:
                y = original_y
                if counter > 1:
                    y -= 4 * TERRAIN_STEP
            elif state == stump and oneshot:
                counter = rng.integers(1, 3)
                size = counter * TERRAIN_STEP
                polys.append([(x, y), (x + size, y), (x + size, y + size), (x, y + size)])
            elif state == stairs and oneshot:
                stair_height = +1 if rng.random() > 0.5 else -1
                stair_width = rng.integers(4, 5)
                stair_steps = rng.integers(3, 5)
                original_y = y
                for s in range(stair_steps):
                    x0 = x + (s * stair_width) * TERRAIN_STEP
                    x1 = x + ((1 + s) * stair_width) * TERRAIN_STEP
                    top = y + (s * stair_height) * TERRAIN_STEP
                    bottom = y + (-1 + s * stair_height) * TERRAIN_STEP
                    polys.append([(x0, top), (x1, top), (x1, bottom), (x0, bottom)])
                counter = stair_steps * stair_width
            elif state == stairs and not oneshot:
                s = stair_steps * stair_width - counter - stair_height
                n = s / stair_width
                y = original_y + (n * stair_height) * TERRAIN_STEP
            oneshot = False
            ys.append(y)
            counter -= 1
            if counter == 0:
                counter = rng.integers(TERRAIN_GRASS // 2, TERRAIN_GRASS)
                if state == grass:  # (hardcore: without obstacles, _draw_grass draws)
                    state = rng.integers(1, n_states)
                else:
                    state = grass
                oneshot = True

        return xs, ys, polys

    def _draw_grass(self) -> list:
        """``_draw_terrain``'s ground heights without obstacles: the same draws and the
        same arithmetic, a grass run at a time (an episode reset of the vector walker
        spends most of its time here)."""
        rng = self.np_random
        # Flat up to the start pad's last step, where the pad's counter runs out; the
        # step after it (the first run's first) keeps y as every run's first step does.
        ys = [TERRAIN_HEIGHT] * (TERRAIN_STARTPAD + 1)
        y = TERRAIN_HEIGHT
        velocity = 0.0
        i = TERRAIN_STARTPAD + 1
        counter = rng.integers(TERRAIN_GRASS // 2, TERRAIN_GRASS) - 1
        while i < TERRAIN_LENGTH:
            # The run's other steps, one uniform each (cut short where the terrain ends).
            steps = min(counter, TERRAIN_LENGTH - i)
            for r in rng.uniform(-1, 1, steps).tolist():
                up = TERRAIN_HEIGHT - y
                velocity = 0.8 * velocity + 0.01 * (1.0 if up > 0 else -1.0 if up < 0
                                                    else 0.0)
                velocity += r / SCALE
                y += velocity
                ys.append(y)
            i += steps
            if steps == counter:  # the counter ran out (on the last step too): a new run
                counter = rng.integers(TERRAIN_GRASS // 2, TERRAIN_GRASS) - 1
                if i < TERRAIN_LENGTH:
                    ys.append(y)
                    i += 1
        return ys

    def _build_terrain(self, xs, ys, polys) -> None:
        """The obstacles (static bodies, in order), then the ground line: one static body
        of segments (the original: a body per edge)."""
        self.terrain_x, self.terrain_y = xs, ys
        self.terrain_colors = {}
        for poly in polys:
            self._static_polygon(poly)
        ground = self.world.add_body(kind="static")
        points = list(zip(xs, ys, strict=True))
        self.ground_edges = ground.add_chain(points, friction=FRICTION, category=GROUND_BITS)
        for edge in self.ground_edges:
            edge.collision_type = GROUND
        self.terrain_poly = terrain_polys(points)
        self.ground = ground

    #: Uniform draws ``_generate_clouds`` makes: per cloud its x and two per point.
    CLOUD_DRAWS = TERRAIN_LENGTH // 20 * (1 + 2 * 5)

    def _generate_clouds(self) -> None:
        self.cloud_poly = []
        for _ in range(TERRAIN_LENGTH // 20):
            x = self.np_random.uniform(0, TERRAIN_LENGTH) * TERRAIN_STEP
            y = VIEWPORT_H / SCALE * 3 / 4
            poly = [(x + 15 * TERRAIN_STEP * math.sin(3.14 * 2 * a / 5)
                     + self.np_random.uniform(0, 5 * TERRAIN_STEP),
                     y + 5 * TERRAIN_STEP * math.cos(3.14 * 2 * a / 5)
                     + self.np_random.uniform(0, 5 * TERRAIN_STEP)) for a in range(5)]
            self.cloud_poly.append((poly, min(p[0] for p in poly), max(p[0] for p in poly)))

    # ------------------------------------------------------------------ walker
    def _build_walker(self, push: float) -> None:
        """The walker, standing on the start pad, its hull pushed by ``push`` (N) along x
        for the first step."""
        w = self.world
        init_x = TERRAIN_STEP * TERRAIN_STARTPAD / 2
        init_y = TERRAIN_HEIGHT + 2 * LEG_H  # the original's; raised below to stand
        self.hull = w.add_body(position=(init_x, init_y))
        hull = self.hull.add_polygon([(x / SCALE, y / SCALE) for x, y in HULL_POLY],
                                     density=5.0, friction=0.1, category=WALKER_BITS,
                                     mask=GROUND_BITS)
        hull.collision_type = HULL
        self.hull.apply_force((push, 0))
        self.legs, self.joints = [], []
        hip = np.array([init_x, init_y + LEG_DOWN])
        for k, i in enumerate((-1, +1)):
            a = i * 0.05
            down = np.array([math.sin(a), -math.cos(a)])  # the leg's axis, hip to foot
            # Each joint is made with its bodies where its anchors meet (collide2d's
            # joints take one anchor in world coordinates), then the bodies are put where
            # the original creates them, half a metre off their hip anchor: the first step
            # pulls them together as Box2D does. Angles and limits count from the angle
            # at creation, as pybox2d's joint definitions do.
            thigh = w.add_body(position=hip + down * LEG_H / 2, angle=a)
            s = thigh.add_box(LEG_W, LEG_H, density=1.0, friction=0.2,
                              category=WALKER_BITS, mask=GROUND_BITS)
            s.collision_type = THIGH
            j = w.add_revolute_joint(self.hull, thigh, hip, lower_angle=-0.8,
                                     upper_angle=1.1, motor_speed=float(i),
                                     max_motor_torque=MOTORS_TORQUE)
            self.legs.append(thigh)
            self.joints.append(j)
            knee = hip + down * LEG_H
            lower = w.add_body(position=knee + down * LEG_H / 2, angle=a)
            s = lower.add_box(0.8 * LEG_W, LEG_H, density=1.0, friction=0.2,
                              category=WALKER_BITS, mask=GROUND_BITS)
            s.collision_type = (FOOT_0, FOOT_1)[k]
            j = w.add_revolute_joint(thigh, lower, knee, lower_angle=-1.6, upper_angle=-0.1,
                                     motor_speed=1.0, max_motor_torque=MOTORS_TORQUE)
            self.legs.append(lower)
            self.joints.append(j)
            # Bend hip and knee to where the original's first step leaves them (its legs
            # start off their hip anchors and Box2D snaps them on), turning each segment
            # about its joint so that the joints stay closed.
            _turn(thigh, hip, HIP_AT_START[k])
            _turn(lower, hip, HIP_AT_START[k])
            knee_now = thigh.world_point_of((0.0, -LEG_H / 2))
            _turn(lower, knee_now, KNEE_AT_START[k])
        # Stand the walker on the start pad: its lowest point just above the ground.
        g = w.shape_geometry()
        ids = {b.id for b in (self.hull, *self.legs)}
        mine = np.isin(g.body, list(ids))
        lowest = min(g.vertices[o:o + n, 1].min() for o, n in zip(g.offset[mine],
                                                                   g.count[mine], strict=True))
        lift = TERRAIN_HEIGHT + 0.005 - lowest
        for body in (self.hull, *self.legs):
            body.position = body.position + (0.0, lift)
        self.ground_contact = [False, False]

    def _listen(self) -> None:
        def fell(event):
            self.game_over = True

        def foot(k, on):
            def handler(event):
                self.ground_contact[k] = on
            return handler

        self.world.on_contact_begin(fell, between=(HULL, GROUND))
        for k, kind in enumerate((FOOT_0, FOOT_1)):
            self.world.on_contact_begin(foot(k, True), between=(kind, GROUND))
            self.world.on_contact_end(foot(k, False), between=(kind, GROUND))

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._new_episode()
        self.game_over = False
        self.prev_shaping = None
        self.scroll = 0.0
        self.lidar_render = 0
        self._listen()
        self.lidar_p1 = np.zeros((10, 2))
        self.lidar_p2 = np.zeros((10, 2))
        if self.render_mode == "human":
            self.render()
        return self.step(np.array([0, 0, 0, 0]))[0], {}

    def _new_episode(self) -> None:
        """The episode's draws (terrain, clouds, the push, in the original's order) and
        its world, not yet stepped and with no callbacks."""
        xs, ys, polys = self._draw_terrain(self.hardcore)
        self._generate_clouds()
        push = self.np_random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM)
        if polys or not self._reset_world(xs, ys, push):
            if not polys and self._template is None:
                self._template = self._build(xs, ys, polys, 0.0)
            self._build(xs, ys, polys, push)

    def _reset_world(self, xs, ys, push) -> bool:
        """The last episode's world reset in place to a world built once and never stepped
        (``snapshot.assign``, as the vector environment resets its rows), with the
        episode's ground line written into its vertices and its push: an episode without
        obstacles (every one but hardcore's) has the same bodies and shapes. False where
        that can not be (the first episode, the last one's world differing). A reset took
        7.8 ms building the world, 1.05 ms this way."""
        world = self.world
        if world is None or self._template is None or not reset_in_place(world,
                                                                          self._template):
            return False
        write_ground(world, edge_starts(world, self.ground_edges), np.column_stack((xs, ys)))
        self.hull.apply_force((push, 0))
        self.terrain_x, self.terrain_y = xs, ys
        self.terrain_colors = {}
        self.terrain_poly = terrain_polys(list(zip(xs, ys, strict=True)))
        self.ground_contact = [False, False]
        return True

    def _build(self, xs, ys, polys, push) -> World:
        """``self.world``: the terrain and the walker (see ``_draw_terrain``)."""
        self.world = World(gravity=(0.0, -10.0), substeps=SUBSTEPS)
        self.world.contact_hertz = CONTACT_HERTZ
        self._build_terrain(xs, ys, polys)
        self._build_walker(push)
        return self.world

    def step(self, action):
        if self.hull is None or self.world is None:
            raise gym.error.ResetNeeded("Cannot call env.step() before calling env.reset()")
        action = np.asarray(action, dtype=np.float64)
        if action.shape != (4,):
            raise ValueError(f"action: expected 4 values (got shape {action.shape})")
        # The original's speed * sign(a) and torque * clip(|a|, 0, 1), on Python floats
        # (the same values: NumPy's calls on scalars cost more than the rest of the loop).
        acts = action.tolist()
        if any(a != a for a in acts):
            raise ValueError(f"action: NaN in {acts} (the motors take numbers)")
        speeds = [speed * (1.0 if a > 0.0 else -1.0 if a < 0.0 else 0.0)
                  for a, speed in zip(acts, _MOTOR_SPEEDS, strict=True)]
        torques = [MOTORS_TORQUE * min(max(abs(a), 0.0), 1.0) for a in acts]
        self.world.set_motors(self.joints, speeds, torques)

        self.world.step(1.0 / FPS)

        pos = self.hull.position
        vel = self.hull.velocity
        p1 = np.empty((10, 2))
        p1[:] = pos
        # (pos[0] + sin a * range, pos[1] - cos a * range): minus the negated offset is the
        # same sum.
        p2 = pos - self._lidar_offsets
        hits = self.world.raycast_many(p1, p2, self._lidar_filter)
        fraction = np.where(hits.hit, hits.fraction, 1.0)
        self.lidar_p1 = p1
        self.lidar_p2 = np.where(hits.hit[:, None], hits.point, p2)

        j = self.joints
        ang = [jt.angle for jt in j]
        state = [
            self.hull.angle,
            2.0 * self.hull.angular_velocity / FPS,
            0.3 * vel[0] * (VIEWPORT_W / SCALE) / FPS,
            0.3 * vel[1] * (VIEWPORT_H / SCALE) / FPS,
            ang[0], j[0].speed / SPEED_HIP, ang[1] + 1.0, j[1].speed / SPEED_KNEE,
            1.0 if self.ground_contact[0] else 0.0,
            ang[2], j[2].speed / SPEED_HIP, ang[3] + 1.0, j[3].speed / SPEED_KNEE,
            1.0 if self.ground_contact[1] else 0.0,
        ]
        state += fraction.tolist()
        self.scroll = pos[0] - VIEWPORT_W / SCALE / 5

        shaping = 130 * pos[0] / SCALE
        shaping -= 5.0 * abs(state[0])
        reward = 0.0
        if self.prev_shaping is not None:
            reward = shaping - self.prev_shaping
        self.prev_shaping = shaping
        for a in acts:
            reward -= 0.00035 * MOTORS_TORQUE * min(max(abs(a), 0.0), 1.0)

        terminated = False
        if self.game_over or pos[0] < 0:
            reward = -100
            terminated = True
        if pos[0] > (TERRAIN_LENGTH - TERRAIN_GRASS) * TERRAIN_STEP:
            terminated = True
        if self.render_mode == "human":
            self.render()
        return np.array(state, dtype=np.float32), reward, terminated, False, {}

    # ------------------------------------------------------------------ drawing
    def render(self):
        if self.render_mode is None:
            _render.warn_no_mode("collide2d/BipedalWalker-v3")
            return None
        pygame, gfxdraw = _render.import_pygame()
        scroll = self.scroll * SCALE
        surf = pygame.Surface((VIEWPORT_W, VIEWPORT_H))
        shift = (-scroll, 0.0)
        surf.fill((215, 215, 255))
        for poly, x1, x2 in self.cloud_poly:
            if x2 < self.scroll / 2 or x1 > self.scroll / 2 + VIEWPORT_W / SCALE:
                continue
            pts = [(p[0] * SCALE + scroll / 2 - scroll, p[1] * SCALE) for p in poly]
            pygame.draw.polygon(surf, (255, 255, 255), pts)
            gfxdraw.aapolygon(surf, pts, (255, 255, 255))
        for poly, color in self.terrain_poly:
            if poly[1][0] < self.scroll or poly[0][0] > self.scroll + VIEWPORT_W / SCALE:
                continue
            pts = [(p[0] * SCALE - scroll, p[1] * SCALE) for p in poly]
            pygame.draw.polygon(surf, color, pts)
            gfxdraw.aapolygon(surf, pts, color)
        self.lidar_render = (self.lidar_render + 1) % 100
        i = self.lidar_render
        if i < 20:
            k = i if i < 10 else 10 - i - 1
            a, b = self.lidar_p1[k] * SCALE, self.lidar_p2[k] * SCALE
            pygame.draw.line(surf, (255, 0, 0), (a[0] - scroll, a[1]), (b[0] - scroll, b[1]))
        colors = dict(self.terrain_colors)
        for k, leg in enumerate(self.legs):
            i = -1 if k < 2 else 1
            colors[leg.id] = ((153 - i * 25, 76 - i * 25, 127 - i * 25),
                              (102 - i * 25, 51 - i * 25, 76 - i * 25))
        colors[self.hull.id] = ((127, 51, 229), (76, 76, 127))
        _render.draw_bodies(surf, self.world, colors, SCALE, shift)
        flagy1 = TERRAIN_HEIGHT * SCALE
        flagy2 = flagy1 + 50
        x = TERRAIN_STEP * 3 * SCALE - scroll
        pygame.draw.aaline(surf, (0, 0, 0), (x, flagy1), (x, flagy2))
        f = [(x, flagy2), (x, flagy2 - 10), (x + 25, flagy2 - 5)]
        pygame.draw.polygon(surf, (230, 51, 0), f)
        pygame.draw.lines(surf, (0, 0, 0), False, f + [f[0]], width=1)
        return _render.present(self, surf, (VIEWPORT_W, VIEWPORT_H))

    def close(self):
        _render.close(self)


def terrain_polys(points) -> list:
    """The grass below the ground line, one quad per edge, for drawing."""
    return [([p0, p1, (p1[0], 0), (p0[0], 0)], (102, 153, 76))
            for p0, p1 in zip(points, points[1:], strict=False)]


def _turn(body, pivot, angle: float) -> None:
    """Rotate ``body`` by ``angle`` (rad) about the world point ``pivot``."""
    c, s = math.cos(angle), math.sin(angle)
    r = body.position - pivot
    body.position = (pivot[0] + c * r[0] - s * r[1], pivot[1] + s * r[0] + c * r[1])
    body.angle = body.angle + angle


class BipedalWalkerHeuristics:
    """Gymnasium's hand-written walking gait (``bipedal_walker.BipedalWalkerHeuristics``),
    here so that it runs without the Box2D package: a three-state machine (stand on one
    leg, put the other down, push off) with PD control of hips and knees."""

    STAY_ON_ONE_LEG, PUT_OTHER_DOWN, PUSH_OFF = 1, 2, 3
    SPEED = 0.29
    SUPPORT_KNEE_ANGLE = +0.1

    def __init__(self):
        self.state = self.STAY_ON_ONE_LEG
        self.moving_leg = 0
        self.supporting_leg = 1
        self.supporting_knee_angle = self.SUPPORT_KNEE_ANGLE
        self.a = np.zeros(4)

    def step_heuristic(self, s):
        moving_s_base = 4 + 5 * self.moving_leg
        supporting_s_base = 4 + 5 * self.supporting_leg
        hip_targ, knee_targ = [None, None], [None, None]
        hip_todo, knee_todo = [0.0, 0.0], [0.0, 0.0]
        if self.state == self.STAY_ON_ONE_LEG:
            hip_targ[self.moving_leg] = 1.1
            knee_targ[self.moving_leg] = -0.6
            self.supporting_knee_angle += 0.03
            if s[2] > self.SPEED:
                self.supporting_knee_angle += 0.03
            self.supporting_knee_angle = min(self.supporting_knee_angle,
                                             self.SUPPORT_KNEE_ANGLE)
            knee_targ[self.supporting_leg] = self.supporting_knee_angle
            if s[supporting_s_base + 0] < 0.10:
                self.state = self.PUT_OTHER_DOWN
        if self.state == self.PUT_OTHER_DOWN:
            hip_targ[self.moving_leg] = +0.1
            knee_targ[self.moving_leg] = self.SUPPORT_KNEE_ANGLE
            knee_targ[self.supporting_leg] = self.supporting_knee_angle
            if s[moving_s_base + 4]:
                self.state = self.PUSH_OFF
                self.supporting_knee_angle = min(s[moving_s_base + 2],
                                                 self.SUPPORT_KNEE_ANGLE)
        if self.state == self.PUSH_OFF:
            knee_targ[self.moving_leg] = self.supporting_knee_angle
            knee_targ[self.supporting_leg] = +1.0
            if s[supporting_s_base + 2] > 0.88 or s[2] > 1.2 * self.SPEED:
                self.state = self.STAY_ON_ONE_LEG
                self.moving_leg = 1 - self.moving_leg
                self.supporting_leg = 1 - self.moving_leg
        # The original tests the targets' truth (a target of 0 counts as none); kept.
        if hip_targ[0]:
            hip_todo[0] = 0.9 * (hip_targ[0] - s[4]) - 0.25 * s[5]
        if hip_targ[1]:
            hip_todo[1] = 0.9 * (hip_targ[1] - s[9]) - 0.25 * s[10]
        if knee_targ[0]:
            knee_todo[0] = 4.0 * (knee_targ[0] - s[6]) - 0.25 * s[7]
        if knee_targ[1]:
            knee_todo[1] = 4.0 * (knee_targ[1] - s[11]) - 0.25 * s[12]
        hip_todo[0] -= 0.9 * (0 - s[0]) - 1.5 * s[1]
        hip_todo[1] -= 0.9 * (0 - s[0]) - 1.5 * s[1]
        knee_todo[0] -= 15.0 * s[3]
        knee_todo[1] -= 15.0 * s[3]
        self.a = np.clip(0.5 * np.array([hip_todo[0], knee_todo[0], hip_todo[1],
                                         knee_todo[1]]), -1.0, 1.0)
        return self.a
