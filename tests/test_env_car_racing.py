"""collide2d/CarRacing-v3 against Gymnasium's CarRacing-v3.

Expected values come from the original (its track generator run on the same seed, its
controls for the discrete actions, with Box2D 2.3 as the oracle where it is installed),
from its documented rules (-0.1 a frame, +1000/N a tile, -100 off the playfield), and
from a brute-force overlap test of the wheels' and tiles' polygons written here.
"""

import os

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pygame")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import collide2d.envs  # noqa: E402,F401  (registers the environments)
from collide2d.envs import car_racing as cr  # noqa: E402

FULL_GAS = np.array([0.0, 1.0, 0.0])


def _overlap(p, q) -> bool:
    """Two convex polygons (k, 2) overlap (strictly): no edge normal of either separates
    them (the separating axis test)."""
    for poly in (p, q):
        edges = np.roll(poly, -1, axis=0) - poly
        normals = np.column_stack((edges[:, 1], -edges[:, 0]))
        a, b = p @ normals.T, q @ normals.T
        if np.any((a.max(axis=0) <= b.min(axis=0)) | (b.max(axis=0) <= a.min(axis=0))):
            return False
    return True


def _wheel_polygons(env):
    g = env.world.shape_geometry()
    rows = {int(b): k for k, b in enumerate(g.body)}
    return [g.vertices[g.offset[rows[int(w)]]:g.offset[rows[int(w)]] + 4]
            for w in env.car.wheel_ids]


def _tiles_under_wheels(env, tiles):
    """For each wheel, the set of tile indices its polygon overlaps (brute force)."""
    return [{i for i, t in enumerate(tiles) if _overlap(w, t)} for w in _wheel_polygons(env)]


def _tile_polygons(env):
    return [np.array(p) for p, c in env.road_poly if not isinstance(c, tuple)]


@pytest.mark.parametrize("continuous", [True, False])
def test_car_passes_gymnasium_env_checker(continuous):
    from gymnasium.utils.env_checker import check_env

    env = gym.make("collide2d/CarRacing-v3", continuous=continuous, render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_car_spaces_and_limits_are_the_originals():
    env = gym.make("collide2d/CarRacing-v3")
    assert env.observation_space == gym.spaces.Box(0, 255, (96, 96, 3), np.uint8)
    assert env.action_space == gym.spaces.Box(np.array([-1, 0, 0], np.float32),
                                              np.array([1, 1, 1], np.float32))
    assert env.spec.max_episode_steps == 1000 and env.spec.reward_threshold == 900
    assert gym.make("collide2d/CarRacing-v3", continuous=False).action_space == \
        gym.spaces.Discrete(5)
    assert env.unwrapped.metadata["render_modes"] == ["human", "rgb_array", "state_pixels"]


@pytest.mark.parametrize("domain_randomize", [False, True])
def test_car_track_is_the_originals_for_the_seed(domain_randomize):
    # Gymnasium's own CarRacing (Box2D 2.3) as the oracle: the same draws from np_random
    # in the same order give the same track points, tiles, kerbs and colours.
    pytest.importorskip("Box2D")
    original = gym.make("CarRacing-v3", domain_randomize=domain_randomize).unwrapped
    port = gym.make("collide2d/CarRacing-v3", domain_randomize=domain_randomize).unwrapped
    for seed in (0, 1, 7, 2024):
        original.reset(seed=seed)
        port.reset(seed=seed)
        assert port.track == original.track
        # Tiles and kerbs with their colours (a tile the car touched at reset takes the
        # plain road colour, in both).
        for (pv, pc), (ov, oc) in zip(port.road_poly, original.road_poly, strict=True):
            np.testing.assert_array_equal(np.array(pv), np.array(ov))
            np.testing.assert_array_equal(np.asarray(pc, float), np.asarray(oc, float))
        for name in ("road_color", "bg_color", "grass_color"):
            np.testing.assert_array_equal(getattr(port, name), getattr(original, name))
        # The car starts where the original's does: at track[0], heading beta.
        assert port.car.hull.angle == pytest.approx(original.track[0][1], abs=0.01)


def test_car_same_seed_same_trajectory_bit_for_bit():
    def rollout(seed):
        env = gym.make("collide2d/CarRacing-v3")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out, rewards = [obs], []
        for _ in range(60):
            action = rng.uniform([-1, 0, 0], [1, 1, 0.3])
            obs, r, *_ = env.step(action)
            out.append(obs)
            rewards.append(r)
        return np.array(out), np.array(rewards), env.unwrapped.car.hull.position

    obs_a, rew_a, pos_a = rollout(5)
    obs_b, rew_b, pos_b = rollout(5)
    assert obs_a.tobytes() == obs_b.tobytes() and rew_a.tobytes() == rew_b.tobytes()
    assert pos_a.tobytes() == pos_b.tobytes()
    obs_c, _, _ = rollout(6)
    assert obs_c[0].tobytes() != obs_a[0].tobytes()


def test_car_full_throttle_visits_tiles_and_earns_1000_over_n_each():
    # Full throttle from the start: each frame's reward is -0.1 plus 1000/N for every
    # tile a wheel overlaps for the first time (brute force over the polygons), and a
    # wheel grips like the road exactly while it overlaps a tile.
    env = gym.make("collide2d/CarRacing-v3").unwrapped
    env.reset(seed=0)
    tiles = _tile_polygons(env)
    n = len(tiles)
    under = _tiles_under_wheels(env, tiles)
    visited = set().union(*under)
    assert visited == {0, 1}  # the rear wheels on tile 0, the front ones on tile 1
    total, frames = 0.0, 40
    for frame in range(frames):
        _, reward, terminated, truncated, _ = env.step(FULL_GAS)
        under = _tiles_under_wheels(env, tiles)
        new = set().union(*under) - visited
        visited |= new
        # The first frame also collects reset's two tiles, as the original's does.
        expected = -0.1 + 1000.0 / n * (len(new) + (2 if frame == 0 else 0))
        assert reward == pytest.approx(expected, abs=1e-9), frame
        np.testing.assert_array_equal(env.car.tiles > 0, [len(u) > 0 for u in under])
        assert not (terminated or truncated)
        total += reward
    # Box2D's original visits 6 tiles in these 40 frames (and this port's sensors report
    # a tile a frame sooner: 7).
    assert len(visited) >= 6
    assert env.tile_visited_count == len(visited)
    assert total == pytest.approx(-0.1 * frames + 1000.0 / n * len(visited), abs=1e-9)


def test_car_full_throttle_follows_the_box2d_original():
    # The tyre model is the original's: on the start straight the speed and the tiles
    # match Box2D 2.3's, and the position does up to the hull's slightly different start
    # angle (0.005 rad; see the module docstring): measured 0.5 m apart after 60 frames.
    pytest.importorskip("Box2D")
    original = gym.make("CarRacing-v3").unwrapped
    port = gym.make("collide2d/CarRacing-v3").unwrapped
    original.reset(seed=0)
    port.reset(seed=0)
    got = {"o": 0.0, "p": 0.0}
    for _ in range(60):
        got["o"] += original.step(FULL_GAS)[1]
        got["p"] += port.step(FULL_GAS)[1]
    speed_o = np.hypot(*original.car.hull.linearVelocity)
    speed_p = np.hypot(*port.car.hull.velocity)
    assert speed_p == pytest.approx(speed_o, rel=0.01)
    assert np.hypot(*(port.car.hull.position - np.array(original.car.hull.position))) < 1.0
    # The port sees a tile a frame sooner, so at most one tile ahead (measured: equal).
    assert 0 <= port.tile_visited_count - original.tile_visited_count <= 1
    assert abs(got["p"] - got["o"]) <= 1000.0 / len(port.track) + 1e-9


def _pursue(env, ahead=5, top_speed=50.0):
    """A pure-pursuit driver: steer toward the track point ``ahead`` points past the
    nearest, half throttle below ``top_speed`` (m/s), a touch of brake well above it."""
    pts = np.array([(t[2], t[3]) for t in env.track])
    hull = env.car.hull
    pos, angle = np.array(hull.position), hull.angle
    vel = hull.velocity
    i = int(np.argmin(((pts - pos) ** 2).sum(axis=1)))
    to = pts[(i + ahead) % len(pts)] - pos
    heading = np.array([-np.sin(angle), np.cos(angle)])
    err = np.arctan2(heading[0] * to[1] - heading[1] * to[0], heading @ to)
    speed = np.hypot(*vel)
    return np.array([np.clip(-2.0 * err, -1, 1), 0.5 if speed < top_speed else 0.0,
                     0.3 if speed > top_speed + 8 else 0.0])


@pytest.mark.slow
def test_car_pursuit_driver_finishes_a_lap_as_on_the_original():
    # On Box2D 2.3 this driver finishes seed 1's lap (275 tiles) in frame 942 with a
    # return of 905.8: every tile (+1000) less 0.1 a frame. The port must finish it too.
    env = gym.make("collide2d/CarRacing-v3").unwrapped
    env.reset(seed=1)
    total, frames, terminated = 0.0, 0, False
    while not terminated and frames < 1000:
        _, reward, terminated, _, info = env.step(_pursue(env))
        total += reward
        frames += 1
    assert terminated and info == {"lap_finished": True}
    assert env.tile_visited_count == len(env.track) == 275
    assert total == pytest.approx(1000.0 - 0.1 * frames, abs=1e-6)
    assert frames >= 850  # no shortcut: a lap at under 50 m/s takes that long


def test_car_off_the_playfield_ends_with_minus_100():
    env = gym.make("collide2d/CarRacing-v3").unwrapped
    env.reset(seed=1)
    ids = env.car.ids
    shift = np.array([cr.PLAYFIELD + 10.0, 0.0]) - env.car.hull.position
    env.world.set_positions(ids, env.world.positions(ids) + shift)
    _, reward, terminated, truncated, info = env.step(np.zeros(3))
    assert abs(env.car.hull.position[0]) > cr.PLAYFIELD
    assert terminated and not truncated and reward == -100 and info == {"lap_finished": False}


@pytest.mark.parametrize("percent, ends", [(0.5, True), (0.95, False)])
def test_car_lap_ends_on_the_first_tile_once_enough_is_visited(percent, ends):
    # The rule: a first visit to tile 0 with more than lap_complete_percent of the tiles
    # visited ends the episode (lap_finished). Move the car off the road, mark 60 % of
    # the tiles visited (tile 1, under the front wheels, among them; tile 0 not), and
    # bring it back: tile 0 is new.
    env = gym.make("collide2d/CarRacing-v3", lap_complete_percent=percent).unwrapped
    env.reset(seed=2)
    n = len(env.track)
    ids = env.car.ids
    home = env.world.positions(ids)
    env.world.set_positions(ids, home + (40.0, 40.0))
    env.step(np.zeros(3))
    assert env.car.tiles.sum() == 0
    marked = int(0.6 * n)
    env.road_visited[:] = False
    env.road_visited[1:marked + 1] = True
    env.tile_visited_count = marked
    env.world.set_positions(ids, home)
    _, reward, terminated, _, info = env.step(np.zeros(3))
    assert env.tile_visited_count == marked + 1
    assert reward == pytest.approx(-0.1 + 1000.0 / n, abs=1e-9)
    assert terminated == ends
    assert info == ({"lap_finished": True} if ends else {})


# The original's discrete actions: (steering target of the front wheels, gas target of the
# rear wheels, brake), steering positive to the left.
DISCRETE = {0: (0.0, 0.0, 0.0), 1: (-0.6, 0.0, 0.0), 2: (0.6, 0.0, 0.0), 3: (0.0, 0.2, 0.0),
            4: (0.0, 0.0, 0.8)}


def test_car_discrete_actions_map_as_the_originals():
    env = gym.make("collide2d/CarRacing-v3", continuous=False).unwrapped
    for action, (steer, gas, brake) in DISCRETE.items():
        env.reset(seed=0)
        env.step(action)
        car = env.car
        np.testing.assert_array_equal(car.steer_, [steer, steer, 0, 0])
        np.testing.assert_array_equal(car.brake_, [brake] * 4)
        # The throttle rises by at most 0.1 a frame, on the rear wheels only.
        np.testing.assert_array_equal(car.gas_, [0, 0, min(gas, 0.1), min(gas, 0.1)])
        env.step(action)
        np.testing.assert_array_equal(car.gas_, [0, 0, gas, gas])


def test_car_discrete_controls_equal_the_box2d_originals():
    pytest.importorskip("Box2D")
    original = gym.make("CarRacing-v3", continuous=False).unwrapped
    port = gym.make("collide2d/CarRacing-v3", continuous=False).unwrapped
    original.reset(seed=0)
    port.reset(seed=0)
    for action in (3, 3, 1, 2, 4, 0, 3):
        original.step(action)
        port.step(action)
        for attr in ("steer", "gas", "brake"):
            expected = [getattr(w, attr) for w in original.car.wheels]
            np.testing.assert_array_equal(getattr(port.car, attr + "_"), expected)


def test_car_renders_the_originals_frame():
    env = gym.make("collide2d/CarRacing-v3", render_mode="rgb_array").unwrapped
    obs, _ = env.reset(seed=0)
    for _ in range(60):  # past the first second's zoom
        obs, *_ = env.step(np.zeros(3))
    frame = env.render()
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    assert obs.shape == (96, 96, 3) and obs.dtype == np.uint8
    # The camera puts the hull's origin at (W/2, 3H/4) of the window: in the hull's red
    # (smoothscale's averaging may take a unit off).
    red = np.array([204, 0, 0])
    assert np.abs(frame[300, 300].astype(int) - red).max() <= 2
    assert np.abs(obs[72, 48].astype(int) - red).max() <= 2
    # The road 5 m ahead of the car (16.2 window pixels a metre, scaled by 0.6: tiles are
    # 102 grey, 2.55 and 5.1 lighter on every second and third; blended at their seams),
    # and the black indicator strip at the bottom.
    r, g, b = frame[250, 300].tolist()
    assert r == g == b and 102 <= r <= 107
    assert (frame[-4:, 200:] == 0).all()
    env.close()


def test_car_domain_randomize_and_the_randomize_option():
    env = gym.make("collide2d/CarRacing-v3", domain_randomize=True).unwrapped
    env.reset(seed=3)
    first = env.bg_color.copy()
    env.reset(options={"randomize": False})
    np.testing.assert_array_equal(env.bg_color, first)
    env.reset(options={"randomize": True})
    assert not np.array_equal(env.bg_color, first)
    assert np.all((env.road_color >= 0) & (env.road_color < 210))
    # The grass is the background with 20 more on one channel.
    assert sorted(env.grass_color - env.bg_color) == [0, 0, 20]


def test_car_human_mode_runs_headless():
    env = gym.make("collide2d/CarRacing-v3", render_mode="human").unwrapped
    env.metadata = {**env.metadata, "render_fps": 10_000}
    env.reset(seed=0)
    env.step(FULL_GAS)
    assert env.render() is None and env.screen is not None
    env.close()
    assert env.screen is None


def test_car_state_pixels_mode_returns_the_observation():
    env = gym.make("collide2d/CarRacing-v3", render_mode="state_pixels").unwrapped
    obs, _ = env.reset(seed=0)
    np.testing.assert_array_equal(env.render(), obs)


def test_car_bad_arguments_raise_naming_them():
    from gymnasium.error import InvalidAction

    with pytest.raises(ValueError, match="render_mode"):
        cr.CarRacing(render_mode="window")
    with pytest.raises(ValueError, match="lap_complete_percent"):
        cr.CarRacing(lap_complete_percent=1.5)
    env = cr.CarRacing(continuous=False)
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)
    env.reset(seed=0)
    for bad in (5, -1):
        with pytest.raises(InvalidAction, match="action"):
            env.step(bad)
        with pytest.raises(ValueError, match="action"):
            env.step(bad)
    cont = cr.CarRacing()
    cont.reset(seed=0)
    before = cont.world.snapshot()
    for bad in (np.zeros(2), np.array([0.0, np.nan, 0.0])):
        with pytest.raises(ValueError, match="action"):
            cont.step(bad)
    assert cont.world.snapshot() == before
