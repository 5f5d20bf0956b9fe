"""collide2d.envs: Gymnasium's Box2D environments on collide2d.

Expected values come from Gymnasium's originals (their spaces, their seeded terrain
worked out here from the same random generator) and from Gymnasium's own heuristic
controllers, never from what the ports printed.
"""

import math

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pygame")

import collide2d.envs  # noqa: E402,F401  (registers the environments)
from collide2d.envs import lunar_lander as ll  # noqa: E402


def _rollout(env, seed, steps):
    """Observations and rewards of ``steps`` random actions drawn from a seeded space."""
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    out, rewards = [obs], []
    for _ in range(steps):
        obs, r, term, trunc, _ = env.step(env.action_space.sample())
        out.append(obs)
        rewards.append(r)
        if term or trunc:
            break
    return np.array(out), np.array(rewards)


# ---------------------------------------------------------------- LunarLander
@pytest.mark.parametrize("continuous", [False, True])
def test_lander_passes_gymnasium_env_checker(continuous):
    from gymnasium.utils.env_checker import check_env

    env = gym.make("collide2d/LunarLander-v3", continuous=continuous,
                   render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_lander_spaces_are_the_originals():
    env = gym.make("collide2d/LunarLander-v3")
    high = np.array([2.5, 2.5, 10, 10, 2 * math.pi, 10, 1, 1], np.float32)
    low = np.array([-2.5, -2.5, -10, -10, -2 * math.pi, -10, 0, 0], np.float32)
    assert env.observation_space == gym.spaces.Box(low, high)
    assert env.action_space == gym.spaces.Discrete(4)
    assert env.spec.max_episode_steps == 1000 and env.spec.reward_threshold == 200
    cont = gym.make("collide2d/LunarLander-v3", continuous=True)
    assert cont.action_space == gym.spaces.Box(-1, 1, (2,), np.float32)


def test_lander_terrain_follows_the_seed_as_the_original():
    # The original draws 12 heights uniform in [0, H/2) first from np_random (PCG64 of
    # the seed), flattens the five around the pad to H/4 and smooths them over 3.
    seed = 7
    env = gym.make("collide2d/LunarLander-v3").unwrapped
    env.reset(seed=seed)
    w, h = 20.0, 400 / 30
    height = np.random.Generator(np.random.PCG64(seed)).uniform(0, h / 2, size=12)
    height[3:8] = h / 4
    smooth = [0.33 * (height[i - 1] + height[i] + height[i + 1]) for i in range(11)]
    xs = [w / 10 * i for i in range(11)]
    g = env.world.shape_geometry()
    moon = g.body == env.moon.id
    segs = sorted(tuple(map(tuple, g.vertices[o:o + 2].round(12)))
                  for o in g.offset[moon])
    expected = sorted([((0.0, 0.0), (w, 0.0))]
                      + [((xs[i], smooth[i]), (xs[i + 1], smooth[i + 1])) for i in range(10)])
    np.testing.assert_allclose(np.array(segs), np.round(np.array(expected), 12), atol=1e-12)
    assert env.helipad_x1 == xs[4] and env.helipad_x2 == xs[6] and env.helipad_y == h / 4


def test_lander_same_seed_same_trajectory_bit_for_bit():
    a = gym.make("collide2d/LunarLander-v3", enable_wind=True)
    b = gym.make("collide2d/LunarLander-v3", enable_wind=True)
    obs_a, rew_a = _rollout(a, 3, 300)
    obs_b, rew_b = _rollout(b, 3, 300)
    assert obs_a.tobytes() == obs_b.tobytes() and rew_a.tobytes() == rew_b.tobytes()
    obs_c, _ = _rollout(a, 4, 300)
    assert obs_c[0].tobytes() != obs_a[0].tobytes()


def _episodes_reused_and_fresh(env_id, seed, actions, every=None):
    """The same seed and actions on an environment that reuses its world from episode to
    episode and on one whose world is built afresh every episode (its ``world`` dropped
    before each reset): whether every step gave the same bits, and how many episodes
    there were. ``every``: also start a new episode after that many steps."""
    reused = gym.make(env_id).unwrapped
    fresh = gym.make(env_id).unwrapped
    out = {id(reused): [], id(fresh): []}
    for env in (reused, fresh):
        env.reset(seed=seed)
    episodes = 0
    for k, action in enumerate(actions):
        for env in (reused, fresh):
            obs, reward, terminated, truncated, _ = env.step(action)
            out[id(env)].append((obs.tobytes(), float(reward), terminated))
            if terminated or truncated or (every and k % every == every - 1):
                if env is fresh:
                    env.world = None  # (no world to reuse: built anew)
                    episodes += 1
                env.reset()
    return out[id(reused)] == out[id(fresh)], episodes


def test_lander_episodes_on_the_reused_world_are_those_of_fresh_worlds():
    # From the second episode on, the environment resets its world in place to a template
    # (snapshot.assign) and writes the new moon in.
    actions = np.random.default_rng(8).integers(0, 4, 700).tolist()
    same, episodes = _episodes_reused_and_fresh("collide2d/LunarLander-v3", 21, actions)
    assert same and episodes >= 4


def test_lander_flying_off_screen_ends_with_minus_100():
    env = gym.make("collide2d/LunarLander-v3").unwrapped
    env.reset(seed=0)
    # |x| >= 1 in the observation: the hull's origin at the viewport's edge or beyond.
    for body in [env.lander, *env.legs]:
        body.position = body.position + (10.5, 0.0)
    obs, reward, terminated, truncated, _ = env.step(0)
    assert obs[0] >= 1.0 and terminated and not truncated and reward == -100


def test_lander_legs_hang_at_the_originals_limits():
    # The original's joint angles count from the legs' angles at creation (+-0.05 rad, as
    # pybox2d sets the reference angle), limited to 0.4..0.9 (left) and -0.9..-0.4
    # (right); the motors hold each leg at its inner limit while the lander falls: leg
    # angle - hull angle = 0.4 - 0.05 and -0.4 + 0.05 (Box2D itself: 0.373, -0.371).
    # collide2d's limits are soft, as stiff as the substeps make them (100 Hz at the port's
    # 8): the motors bend them by 0.045 rad (0.015 at 16 substeps), within 0.06 here.
    env = gym.make("collide2d/LunarLander-v3").unwrapped
    env.reset(seed=1)
    for _ in range(20):
        env.step(0)
    left, right = (leg.angle - env.lander.angle for leg in env.legs)
    assert abs(left - 0.35) < 0.06 and abs(right + 0.35) < 0.06, (left, right)


def test_lander_free_fall_follows_the_box2d_original():
    # Before any contact the lander only feels gravity, the seeded push and the engines:
    # Gymnasium's original (Box2D 2.3) as the oracle for position and velocity over the
    # first 30 steps of the same seed and actions. The legs' start differs by a jolt
    # (see the module docstring) that tilts the hull up to 0.08 rad differently and so
    # turns the engines' thrust: measured differences reach 0.013 in y and 0.019 in vx.
    pytest.importorskip("Box2D")
    for seed in (0, 1, 2):
        obs = {}
        for env_id in ("LunarLander-v3", "collide2d/LunarLander-v3"):
            env = gym.make(env_id)
            s, _ = env.reset(seed=seed)
            for k in range(30):
                s, *_ = env.step((2, 0, 1, 3)[k % 4])
            obs[env_id] = s
        np.testing.assert_allclose(obs["collide2d/LunarLander-v3"][:4],
                                   obs["LunarLander-v3"][:4], atol=0.03)


def _lander_heuristic_returns(seeds, continuous=False):
    env = gym.make("collide2d/LunarLander-v3", continuous=continuous)
    returns = []
    for seed in seeds:
        s, _ = env.reset(seed=seed)
        total = 0.0
        while True:
            s, r, term, trunc, _ = env.step(ll.heuristic(env, s))
            total += r
            if term or trunc:
                break
        returns.append(total)
    return np.array(returns)


def test_lander_gymnasium_heuristic_lands():
    # Gymnasium's heuristic on its Box2D original: mean 265 over seeds 0..49, 46 of 50 at
    # >= 200 (92 %). The suite runs ten seeds and asks for 7 landings of 10; the slow test
    # below runs the fifty.
    returns = _lander_heuristic_returns(range(10))
    assert (returns >= 200).sum() >= 7, returns


@pytest.mark.slow
def test_lander_gymnasium_heuristic_lands_on_fifty_seeds():
    returns = _lander_heuristic_returns(range(50))
    assert returns.mean() >= 200 and (returns >= 200).sum() >= 40, returns


def test_lander_rgb_array_draws_the_lander():
    env = gym.make("collide2d/LunarLander-v3", render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    env.step(2)
    frame = env.render()
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    # The hull's fill colour at the hull's origin (pixels: x right, y down).
    x, y = env.lander.position * ll.SCALE
    assert tuple(frame[int(400 - y), int(x)]) == (128, 102, 230)
    env.close()


# ---------------------------------------------------------------- BipedalWalker
from collide2d.envs import bipedal_walker as bw  # noqa: E402


@pytest.mark.parametrize("env_id", ["collide2d/BipedalWalker-v3",
                                    "collide2d/BipedalWalkerHardcore-v3"])
def test_walker_passes_gymnasium_env_checker(env_id):
    from gymnasium.utils.env_checker import check_env

    env = gym.make(env_id, render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_walker_spaces_and_limits_are_the_originals():
    env = gym.make("collide2d/BipedalWalker-v3")
    assert env.observation_space.shape == (24,) and env.action_space.shape == (4,)
    assert env.action_space == gym.spaces.Box(-1, 1, (4,), np.float32)
    assert env.spec.max_episode_steps == 1600 and env.spec.reward_threshold == 300
    hard = gym.make("collide2d/BipedalWalkerHardcore-v3")
    assert hard.unwrapped.hardcore and hard.spec.max_episode_steps == 2000


@pytest.mark.parametrize("hardcore", [False, True])
def test_walker_terrain_is_the_originals_for_the_seed(hardcore):
    # Gymnasium's own BipedalWalker (Box2D) as the oracle for the seeded terrain: the same
    # draws from np_random in the same order give the same ground line and clouds.
    pytest.importorskip("Box2D")
    original = gym.make("BipedalWalker-v3", hardcore=hardcore).unwrapped
    port = gym.make("collide2d/BipedalWalker-v3", hardcore=hardcore).unwrapped
    # (More seeds without obstacles: the port draws that ground a run at a time.)
    for seed in range(8 if hardcore else 40):
        original.reset(seed=seed)
        port.reset(seed=seed)
        np.testing.assert_array_equal(port.terrain_x, original.terrain_x)
        np.testing.assert_array_equal(port.terrain_y, original.terrain_y)
        assert [c[0] for c in port.cloud_poly] == [c[0] for c in original.cloud_poly]
        # Every stump, stair and pit of the original is a static polygon here.
        assert len(port.terrain_colors) == len(original.terrain) - (bw.TERRAIN_LENGTH - 1)


def test_walker_same_seed_same_trajectory_bit_for_bit():
    a = gym.make("collide2d/BipedalWalkerHardcore-v3")
    b = gym.make("collide2d/BipedalWalkerHardcore-v3")
    obs_a, rew_a = _rollout(a, 2, 150)
    obs_b, rew_b = _rollout(b, 2, 150)
    assert obs_a.tobytes() == obs_b.tobytes() and rew_a.tobytes() == rew_b.tobytes()


def test_walker_episodes_on_the_reused_world_are_those_of_fresh_worlds():
    # Without obstacles, the environment resets its world in place to a template from the
    # second episode on and writes the new ground line in (random walkers may kneel for
    # the whole episode: a new one every 100 steps).
    actions = np.random.default_rng(9).uniform(-1, 1, (600, 4))
    same, episodes = _episodes_reused_and_fresh("collide2d/BipedalWalker-v3", 30, actions,
                                                every=100)
    assert same and episodes >= 6


def test_walker_lidar_measures_the_flat_start_pad():
    # On the flat start pad (height H/4) a ray at angle t from straight down, from the
    # hull's origin at height h above the pad, hits at fraction h / (cos t * range).
    env = gym.make("collide2d/BipedalWalker-v3").unwrapped
    obs, _ = env.reset(seed=0)
    height = env.hull.position[1] - bw.TERRAIN_HEIGHT
    t = 1.5 * np.arange(10) / 10
    expected = np.minimum(height / (np.cos(t) * bw.LIDAR_RANGE), 1.0)
    np.testing.assert_allclose(obs[14:], expected, atol=1e-6)


def test_walker_gymnasium_heuristic_walks_forward():
    # Gymnasium's heuristic gait on the Box2D original, seeds 0-9: it walks 12 to 89 m
    # before it falls or finishes (mean 42 m; seeds 1 and 2: 13 and 12 m). On the port
    # it must walk at least 10 m on each of seeds 0-2 before anything ends the episode.
    env = gym.make("collide2d/BipedalWalker-v3").unwrapped
    for seed in range(3):
        s, _ = env.reset(seed=seed)
        start = env.hull.position[0]
        gait = bw.BipedalWalkerHeuristics()
        for _ in range(1600):
            s, _, terminated, truncated, _ = env.step(gait.step_heuristic(s))
            if terminated or truncated or env.hull.position[0] > start + 10:
                break
        assert env.hull.position[0] > start + 10, (seed, env.hull.position)


def test_bad_arguments_raise_naming_them():
    with pytest.raises(ValueError, match="render_mode"):
        ll.LunarLander(render_mode="window")
    with pytest.raises(ValueError, match="gravity"):
        ll.LunarLander(gravity=-13.0)
    with pytest.raises(ValueError, match="render_mode"):
        bw.BipedalWalker(render_mode="window")
    env = bw.BipedalWalker()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(np.zeros(3))
