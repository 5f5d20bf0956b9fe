"""CarRacing-v3 on collide2d: Gymnasium's top-down racer with collide2d's physics.

The spaces, reward (-0.1 a frame, +1000/N for each new tile a wheel touches), termination
(the lap done, ``lap_complete_percent`` of the tiles visited; off the playfield with
-100), the seeded track (the same draws from ``np_random`` in the same order, so a seed
gives the original's track point for point), ``domain_randomize`` and the ``randomize``
reset option, and the render modes (``rgb_array``, ``human``, ``state_pixels``: the same
camera, colours and indicator bars) are Gymnasium's (``gymnasium/envs/box2d/car_racing.py``).

The physics is collide2d's: the hull (four polygons) and four wheels are bodies joined by
revolute joints with limits and motors (the steering); the tyre model of the original
runs for the four wheels at once in NumPy (:mod:`collide2d.envs.car_dynamics`) and
applies its forces with ``world.apply_forces``. The road tiles are sensor polygons on one
static body; ``on_sensor_begin`` / ``on_sensor_end`` with ``between=`` collision types
count the visited tiles and which wheels are on the road (grip 1.0 on the road, 0.6 on
grass).

Where it differs from the Box2D original, and why:

- The wheels are created on their joints' anchors, turned with the hull. The original
  places them unturned (at ``init + WHEELPOS``) and lets Box2D 2.3 snap them onto the
  anchors in the first frames; collide2d's joints take one anchor at creation and hold
  that configuration.
- A tile is visited when a wheel overlaps it at the end of a step (collide2d's sensor
  stage runs after the solver); Box2D 2.3 reports it in the next step's collide phase,
  a frame later.
- The steering motor aims at the joints' limits (+-0.4 rad) when the target lies beyond
  them, instead of pushing into them as the original does: collide2d's limits are soft
  (Box2D 2.3's rigid limit stops the wheel at 0.402 rad; the soft one gave 0.42-0.49 rad
  and held the push, so the wheel left the limit half a frame late and a car driven at
  the grip limit weaved and spun where the original held).
- collide2d substeps (4 per frame) where Box2D 2.3 takes one step: in a full-lock turn at
  54 m/s the hull yaws up to 9 % faster, as Box2D 2.3 itself does when substepped
  (measured in ``docs/envs.md``).
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import InvalidAction
from gymnasium.utils import EzPickle

from ..world import World
from . import _render
from .car_dynamics import TILE_BITS, Car

STATE_W = 96
STATE_H = 96
VIDEO_W = 600
VIDEO_H = 400
WINDOW_W = 1000
WINDOW_H = 800

SCALE = 6.0  # track scale
TRACK_RAD = 900 / SCALE  # m; the track is a heavily morphed circle of this radius
PLAYFIELD = 2000 / SCALE  # m; game over beyond it
FPS = 50
ZOOM = 2.7
TRACK_DETAIL_STEP = 21 / SCALE
TRACK_TURN_RATE = 0.31
TRACK_WIDTH = 40 / SCALE
BORDER = 8 / SCALE
BORDER_MIN_COUNT = 4
GRASS_DIM = PLAYFIELD / 20.0
MAX_SHAPE_DIM = max(GRASS_DIM, TRACK_WIDTH, TRACK_DETAIL_STEP) * math.sqrt(2) * ZOOM * SCALE
CHECKPOINTS = 12

# Collision types for the sensor handlers.
TILE, WHEEL, HULL = 1, 2, 3
# The world's default substeps: the steering motor stops the wheels at the joints'
# limits itself (see car_dynamics.Car.step), so the soft limits need no extra stiffness.
SUBSTEPS = 4



def _grass_patches() -> np.ndarray:
    """The original's 400 lighter squares, every other one of a 40 x 40 grid: (400, 4, 2)."""
    k = np.arange(-20, 20, 2)
    gx, gy = np.meshgrid(k, k, indexing="ij")
    corners = np.array([(1, 0), (0, 0), (0, 1), (1, 1)]) * GRASS_DIM
    return (np.stack((gx.ravel(), gy.ravel()), axis=-1)[:, None, :] * GRASS_DIM
            + corners[None])


_GRASS = _grass_patches()


class InvalidCarAction(InvalidAction, ValueError):
    """An action outside the action space: Gymnasium's ``InvalidAction`` (what the original
    raises) and a ``ValueError`` (what collide2d raises for bad input)."""


def create_track(np_random, verbose: bool = False):
    """The original's track generator (``CarRacing._create_track``) on ``np_random``.

    Returns ``(track, road_poly, start_alpha)``, or None when the loop does not close (the
    caller draws again from the same generator, as the original does). ``track`` is a list
    of ``(alpha, beta, x, y)``: the point's polar angle, the road's perpendicular angle
    (rad; the road heads along ``(-sin beta, cos beta)``) and its position (m);
    ``road_poly`` lists ``(vertices, color)`` of the tiles (color None: the road colour,
    lighter by 2.55 on every second and 5.1 on every third tile) and of the red-white kerbs.
    """
    checkpoints = []
    start_alpha = 2 * math.pi * (-0.5) / CHECKPOINTS
    for c in range(CHECKPOINTS):
        noise = np_random.uniform(0, 2 * math.pi * 1 / CHECKPOINTS)
        alpha = 2 * math.pi * c / CHECKPOINTS + noise
        rad = np_random.uniform(TRACK_RAD / 3, TRACK_RAD)
        if c == 0:
            alpha = 0
            rad = 1.5 * TRACK_RAD
        if c == CHECKPOINTS - 1:
            alpha = 2 * math.pi * c / CHECKPOINTS
            rad = 1.5 * TRACK_RAD
        checkpoints.append((alpha, rad * math.cos(alpha), rad * math.sin(alpha)))

    # Drive from checkpoint to checkpoint, turning toward the next at a bounded rate.
    x, y, beta = 1.5 * TRACK_RAD, 0, 0
    dest_i = 0
    laps = 0
    track = []
    no_freeze = 2500
    visited_other_side = False
    while True:
        alpha = math.atan2(y, x)
        if visited_other_side and alpha > 0:
            laps += 1
            visited_other_side = False
        if alpha < 0:
            visited_other_side = True
            alpha += 2 * math.pi
        while True:  # the destination checkpoint
            failed = True
            while True:
                dest_alpha, dest_x, dest_y = checkpoints[dest_i % len(checkpoints)]
                if alpha <= dest_alpha:
                    failed = False
                    break
                dest_i += 1
                if dest_i % len(checkpoints) == 0:
                    break
            if not failed:
                break
            alpha -= 2 * math.pi
        r1x = math.cos(beta)
        r1y = math.sin(beta)
        p1x = -r1y
        p1y = r1x
        dest_dx = dest_x - x
        dest_dy = dest_y - y
        proj = r1x * dest_dx + r1y * dest_dy  # the destination along the perpendicular
        while beta - alpha > 1.5 * math.pi:
            beta -= 2 * math.pi
        while beta - alpha < -1.5 * math.pi:
            beta += 2 * math.pi
        prev_beta = beta
        proj *= SCALE
        if proj > 0.3:
            beta -= min(TRACK_TURN_RATE, abs(0.001 * proj))
        if proj < -0.3:
            beta += min(TRACK_TURN_RATE, abs(0.001 * proj))
        x += p1x * TRACK_DETAIL_STEP
        y += p1y * TRACK_DETAIL_STEP
        track.append((alpha, prev_beta * 0.5 + beta * 0.5, x, y))
        if laps > 4:
            break
        no_freeze -= 1
        if no_freeze == 0:
            break

    # The closed loop between the last two passes through the start (not the first lap).
    i1, i2 = -1, -1
    i = len(track)
    while True:
        i -= 1
        if i == 0:
            return None
        through = track[i][0] > start_alpha and track[i - 1][0] <= start_alpha
        if through and i2 == -1:
            i2 = i
        elif through and i1 == -1:
            i1 = i
            break
    if verbose:
        print(f"Track generation: {i1}..{i2} -> {i2 - i1}-tiles track")
    track = track[i1:i2 - 1]

    first_beta = track[0][1]
    first_perp_x = math.cos(first_beta)
    first_perp_y = math.sin(first_beta)
    # The sideways jump that joins head and tail.
    well_glued_together = np.sqrt(np.square(first_perp_x * (track[0][2] - track[-1][2]))
                                  + np.square(first_perp_y * (track[0][3] - track[-1][3])))
    if well_glued_together > TRACK_DETAIL_STEP:
        return None

    # Red-white kerbs on hard turns: BORDER_MIN_COUNT turns the same way, each sharp
    # enough, mark a tile and the ones before it (indices wrap, as in the original).
    border = [False] * len(track)
    for i in range(len(track)):
        good = True
        oneside = 0
        for neg in range(BORDER_MIN_COUNT):
            beta1 = track[i - neg - 0][1]
            beta2 = track[i - neg - 1][1]
            good &= abs(beta1 - beta2) > TRACK_TURN_RATE * 0.2
            oneside += np.sign(beta1 - beta2)
        good &= abs(oneside) == BORDER_MIN_COUNT
        border[i] = good
    for i in range(len(track)):
        for neg in range(BORDER_MIN_COUNT):
            border[i - neg] |= border[i]

    road_poly = []
    for i in range(len(track)):
        _, beta1, x1, y1 = track[i]
        _, beta2, x2, y2 = track[i - 1]
        road1_l = (x1 - TRACK_WIDTH * math.cos(beta1), y1 - TRACK_WIDTH * math.sin(beta1))
        road1_r = (x1 + TRACK_WIDTH * math.cos(beta1), y1 + TRACK_WIDTH * math.sin(beta1))
        road2_l = (x2 - TRACK_WIDTH * math.cos(beta2), y2 - TRACK_WIDTH * math.sin(beta2))
        road2_r = (x2 + TRACK_WIDTH * math.cos(beta2), y2 + TRACK_WIDTH * math.sin(beta2))
        road_poly.append(([road1_l, road1_r, road2_r, road2_l], None))
        if border[i]:
            side = np.sign(beta2 - beta1)
            b1_l = (x1 + side * TRACK_WIDTH * math.cos(beta1),
                    y1 + side * TRACK_WIDTH * math.sin(beta1))
            b1_r = (x1 + side * (TRACK_WIDTH + BORDER) * math.cos(beta1),
                    y1 + side * (TRACK_WIDTH + BORDER) * math.sin(beta1))
            b2_l = (x2 + side * TRACK_WIDTH * math.cos(beta2),
                    y2 + side * TRACK_WIDTH * math.sin(beta2))
            b2_r = (x2 + side * (TRACK_WIDTH + BORDER) * math.cos(beta2),
                    y2 + side * (TRACK_WIDTH + BORDER) * math.sin(beta2))
            road_poly.append(([b1_l, b1_r, b2_r, b2_l],
                              (255, 255, 255) if i % 2 == 0 else (255, 0, 0)))
    return track, road_poly, start_alpha


class CarRacing(gym.Env, EzPickle):
    """Drive a lap of a random track from pixels (Gymnasium's ``CarRacing-v3``).

    Observation: the top-down 96 x 96 RGB view (uint8) that follows the car, with the
    indicator bars at the bottom (speed, the four wheels' spin, steering, yaw rate).
    Actions: ``Box([-1, 0, 0], [1, 1, 1])`` (steering, -1 full left; gas; brake) or, with
    ``continuous=False``, ``Discrete(5)`` (nothing, steer right, steer left, gas, brake).
    Reward -0.1 a frame and +1000/N for every new tile of the N; the episode ends when
    ``lap_complete_percent`` of the tiles are visited and the car is back on the first
    tile, or with -100 when the car leaves the playfield (|x| or |y| > 333 m).

    Parameters
    ----------
    render_mode : None, "human", "rgb_array" or "state_pixels"
    verbose : bool
        Print the track generation's tile count.
    lap_complete_percent : float
        The fraction of tiles (0..1) that makes a lap.
    domain_randomize : bool
        Random road, background and grass colours on every reset (``options={"randomize":
        False}`` keeps the current ones).
    continuous : bool

    Example
    -------
    >>> import gymnasium as gym
    >>> import collide2d.envs
    >>> env = gym.make("collide2d/CarRacing-v3", continuous=False)
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, obs.dtype, env.action_space
    ((96, 96, 3), dtype('uint8'), Discrete(5))
    >>> obs, reward, terminated, truncated, info = env.step(3)   # gas
    """

    metadata = {"render_modes": ["human", "rgb_array", "state_pixels"], "render_fps": FPS}

    def __init__(self, render_mode: str | None = None, verbose: bool = False,
                 lap_complete_percent: float = 0.95, domain_randomize: bool = False,
                 continuous: bool = True):
        EzPickle.__init__(self, render_mode, verbose, lap_complete_percent, domain_randomize,
                          continuous)
        _render.check_mode(render_mode, self.metadata["render_modes"])
        if not 0.0 <= lap_complete_percent <= 1.0:
            raise ValueError(f"lap_complete_percent: expected a fraction between 0 and 1 "
                             f"(got {lap_complete_percent})")
        self.continuous = continuous
        self.domain_randomize = domain_randomize
        self.lap_complete_percent = lap_complete_percent
        self.verbose = verbose
        self.render_mode = render_mode
        self._init_colors()
        self.world: World | None = None
        self.car: Car | None = None
        self.screen = None
        self.clock = None
        self.surf = None
        self._font = None
        self.isopen = True
        self.reward = 0.0
        self.prev_reward = 0.0
        self.new_lap = False
        if self.continuous:
            self.action_space = spaces.Box(np.array([-1, 0, 0]).astype(np.float32),
                                           np.array([+1, +1, +1]).astype(np.float32))
        else:
            self.action_space = spaces.Discrete(5)  # nothing, right, left, gas, brake
        self.observation_space = spaces.Box(low=0, high=255, shape=(STATE_H, STATE_W, 3),
                                            dtype=np.uint8)

    # ------------------------------------------------------------------ colours
    def _random_colors(self) -> None:
        self.road_color = self.np_random.uniform(0, 210, size=3)
        self.bg_color = self.np_random.uniform(0, 210, size=3)
        self.grass_color = np.copy(self.bg_color)
        idx = self.np_random.integers(3)
        self.grass_color[idx] += 20

    def _init_colors(self) -> None:
        if self.domain_randomize:
            self._random_colors()
        else:
            self.road_color = np.array([102, 102, 102])
            self.bg_color = np.array([102, 204, 102])
            self.grass_color = np.array([102, 230, 102])

    # ------------------------------------------------------------------ building
    def _build_road(self, world: World, road_poly) -> None:
        """One static body holding every tile as a sensor polygon; the kerbs are drawn
        only, as in the original."""
        road = world.add_body(kind="static")
        self.tile_of_shape: dict[int, int] = {}
        self.road_poly = []
        n = len(self.track)
        # Each tile's colour array is shared with road_poly, so that a tile a car touches
        # takes the plain road colour (the original's listener does this in place).
        self.tile_colors = np.empty((n, 3))
        i = 0
        for vertices, color in road_poly:
            if color is not None:
                self.road_poly.append((vertices, color))
                continue
            shape = road.add_polygon(vertices, sensor=True, category=TILE_BITS)
            shape.collision_type = TILE
            self.tile_of_shape[shape.id] = i
            self.tile_colors[i] = self.road_color + 0.01 * (i % 3) * 255
            self.road_poly.append((vertices, self.tile_colors[i]))
            i += 1
        self.road_visited = np.zeros(n, dtype=bool)
        self._road_vertices = np.array([v for v, _ in self.road_poly])

    def _listen(self, world: World) -> None:
        wheel_of_shape = {s.id: k for k, s in enumerate(self.car.wheel_shapes)}

        def touched(event):
            tile = self.tile_of_shape[event.shape_a.id]
            self.tile_colors[tile] = self.road_color
            if event.shape_b.collision_type != WHEEL:
                return
            self.car.tiles[wheel_of_shape[event.shape_b.id]] += 1
            if not self.road_visited[tile]:
                self.road_visited[tile] = True
                self.reward += 1000.0 / len(self.track)
                self.tile_visited_count += 1
                # A lap is complete on the first tile once enough of the track is visited.
                if (tile == 0 and self.tile_visited_count / len(self.track)
                        > self.lap_complete_percent):
                    self.new_lap = True

        def left(event):
            self.tile_colors[self.tile_of_shape[event.shape_a.id]] = self.road_color
            self.car.tiles[wheel_of_shape[event.shape_b.id]] -= 1

        for other in (WHEEL, HULL):
            world.on_sensor_begin(touched, between=(TILE, other))
        world.on_sensor_end(left, between=(TILE, WHEEL))

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.reward = 0.0
        self.prev_reward = 0.0
        self.tile_visited_count = 0
        self.t = 0.0
        self.new_lap = False
        if self.domain_randomize:
            randomize = True
            if isinstance(options, dict) and "randomize" in options:
                randomize = options["randomize"]
            if randomize:
                self._random_colors()
        while True:
            made = create_track(self.np_random, self.verbose)
            if made is not None:
                break
            if self.verbose:
                print("retry to generate track (normal if there are not many "
                      "instances of this message)")
        self.track, road_poly, self.start_alpha = made
        self.world = World(gravity=(0.0, 0.0), substeps=SUBSTEPS)
        self._build_road(self.world, road_poly)
        self.car = Car(self.world, *self.track[0][1:4], wheel_type=WHEEL, hull_type=HULL)
        self._listen(self.world)
        if self.render_mode == "human":
            self.render()
        return self.step(None)[0], {}

    def _apply_action(self, action) -> None:
        if self.continuous:
            a = np.asarray(action, dtype=np.float64)
            if a.shape != (3,) or not np.all(np.isfinite(a)):
                raise InvalidCarAction(f"action: expected 3 finite numbers (steering, gas, "
                                       f"brake) in {self.action_space} (got {action!r})")
            self.car.steer(-a[0])
            self.car.gas(a[1])
            self.car.brake(a[2])
        else:
            if not self.action_space.contains(action):
                raise InvalidCarAction(f"action: {action!r} is not in {self.action_space}")
            self.car.steer(-0.6 * (action == 1) + 0.6 * (action == 2))
            self.car.gas(0.2 * (action == 3))
            self.car.brake(0.8 * (action == 4))

    def step(self, action):
        if self.car is None or self.world is None:
            raise gym.error.ResetNeeded("Cannot call env.step() before calling env.reset()")
        if action is not None:
            self._apply_action(action)
        self.car.step(1.0 / FPS, skids=self.render_mode in ("human", "rgb_array"))
        self.world.step(1.0 / FPS)
        self.t += 1.0 / FPS
        self.state = self._render("state_pixels")

        step_reward = 0
        terminated = False
        info = {}
        if action is not None:  # reset's first step has none and earns nothing
            self.reward -= 0.1
            self.car.fuel_spent = 0.0
            step_reward = self.reward - self.prev_reward
            self.prev_reward = self.reward
            if self.tile_visited_count == len(self.track) or self.new_lap:
                terminated = True
                info["lap_finished"] = True
            x, y = self.car.hull.position
            if abs(x) > PLAYFIELD or abs(y) > PLAYFIELD:
                terminated = True
                info["lap_finished"] = False
                step_reward = -100
        if self.render_mode == "human":
            self.render()
        return self.state, step_reward, terminated, False, info

    # ------------------------------------------------------------------ drawing
    def render(self):
        if self.render_mode is None:
            _render.warn_no_mode("collide2d/CarRacing-v3")
            return None
        return self._render(self.render_mode)

    def _render(self, mode: str):
        pygame, _ = _render.import_pygame()
        if self.screen is None and mode == "human":
            pygame.init()
            pygame.display.init()
            self.screen = pygame.display.set_mode((WINDOW_W, WINDOW_H))
        if self.clock is None:
            self.clock = pygame.time.Clock()
        if self.car is None:
            return None  # reset() not called yet
        self.surf = pygame.Surface((WINDOW_W, WINDOW_H))
        # The camera follows the car, turned with it, zooming in over the first second.
        angle = -self.car.hull.angle
        zoom = 0.1 * SCALE * max(1 - self.t, 0) + ZOOM * SCALE * min(self.t, 1)
        pos = self.car.hull.position
        trans = _render.camera(-pos, zoom, (0.0, 0.0), angle)
        trans = (WINDOW_W / 2 + trans[0], WINDOW_H / 4 + trans[1])
        self._render_road(zoom, trans, angle)
        self.car.draw(self.surf, zoom, trans, angle,
                      mode not in ("state_pixels_list", "state_pixels"))
        self.surf = pygame.transform.flip(self.surf, False, True)
        self._render_indicators(WINDOW_W, WINDOW_H)
        if self._font is None:
            pygame.font.init()
            self._font = pygame.font.Font(pygame.font.get_default_font(), 42)
        text = self._font.render(f"{self.reward:04.0f}", True, (255, 255, 255), (0, 0, 0))
        text_rect = text.get_rect()
        text_rect.center = (60, WINDOW_H - WINDOW_H * 2.5 / 40.0)
        self.surf.blit(text, text_rect)
        if mode == "human":
            pygame.event.pump()
            self.clock.tick(self.metadata["render_fps"])
            self.screen.fill(0)
            self.screen.blit(self.surf, (0, 0))
            pygame.display.flip()
            return None
        if mode == "rgb_array":
            return self._image(self.surf, (VIDEO_W, VIDEO_H))
        return self._image(self.surf, (STATE_W, STATE_H))

    def _render_road(self, zoom, translation, angle) -> None:
        b = PLAYFIELD
        field = np.array([(b, b), (b, -b), (-b, -b), (-b, b)])
        self._fill(field[None], [self.bg_color], zoom, translation, angle, clip=False)
        self._fill(_GRASS, [self.grass_color] * len(_GRASS), zoom, translation, angle)
        self._fill(self._road_vertices, [c for _, c in self.road_poly], zoom, translation,
                   angle)

    def _fill(self, polys, colors, zoom, translation, angle, clip=True) -> None:
        """Draw (k, 4, 2) world polygons in their colours, skipping those with no corner
        within MAX_SHAPE_DIM of the window (the original's test)."""
        _, gfxdraw = _render.import_pygame()
        px = _render.camera(polys, zoom, translation, angle)
        if clip:
            near = ((px[..., 0] >= -MAX_SHAPE_DIM) & (px[..., 0] <= WINDOW_W + MAX_SHAPE_DIM)
                    & (px[..., 1] >= -MAX_SHAPE_DIM)
                    & (px[..., 1] <= WINDOW_H + MAX_SHAPE_DIM)).any(axis=1)
        else:
            near = np.ones(len(px), dtype=bool)
        for k in np.flatnonzero(near):
            poly = px[k].tolist()
            color = [int(c) for c in colors[k]]
            gfxdraw.aapolygon(self.surf, poly, color)
            gfxdraw.filled_polygon(self.surf, poly, color)

    def _render_indicators(self, W, H) -> None:
        pygame, _ = _render.import_pygame()
        s = W / 40.0
        h = H / 40.0
        pygame.draw.polygon(self.surf, (0, 0, 0), [(W, H), (W, H - 5 * h), (0, H - 5 * h),
                                                   (0, H)])

        def vertical_ind(place, val):
            return [(place * s, H - (h + h * val)), ((place + 1) * s, H - (h + h * val)),
                    ((place + 1) * s, H - h), ((place + 0) * s, H - h)]

        def horiz_ind(place, val):
            return [((place + 0) * s, H - 4 * h), ((place + val) * s, H - 4 * h),
                    ((place + val) * s, H - 2 * h), ((place + 0) * s, H - 2 * h)]

        def render_if_min(value, points, color):
            if abs(value) > 1e-4:
                pygame.draw.polygon(self.surf, points=points, color=color)

        car = self.car
        true_speed = float(np.hypot(*car.hull.velocity))
        render_if_min(true_speed, vertical_ind(5, 0.02 * true_speed), (255, 255, 255))
        for k, color in enumerate(((0, 0, 255), (0, 0, 255), (51, 0, 255), (51, 0, 255))):
            omega = float(car.omega[k])
            render_if_min(omega, vertical_ind(7 + k, 0.01 * omega), color)
        steer = float(car.joint_angles()[0])
        render_if_min(steer, horiz_ind(20, -10.0 * steer), (0, 255, 0))
        yaw = car.hull.angular_velocity
        render_if_min(yaw, horiz_ind(30, -0.8 * yaw), (255, 0, 0))

    @staticmethod
    def _image(surf, size) -> np.ndarray:
        pygame, _ = _render.import_pygame()
        scaled = pygame.transform.smoothscale(surf, size)
        return np.transpose(np.array(pygame.surfarray.pixels3d(scaled)), axes=(1, 0, 2))

    def close(self):
        if self.screen is not None:
            self.isopen = False
        _render.close(self)
