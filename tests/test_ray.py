"""Scale-out through Ray: ``examples/ray_rollouts.py`` and worlds on a local Ray cluster.

Marked ``ray`` (``pytest -m ray``); skipped without the ``ray`` extra. The oracle for the
actors' rollouts is the same rollout run in this process without Ray, and single
environments stepped with the recorded actions; never what the actors printed.
"""

import importlib.util
import math
import pathlib
import sys
import time

import numpy as np
import pytest

ray = pytest.importorskip(
    "ray", reason="Ray is not installed: pip install -e '.[ray]' to run the Ray tests")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("pygame")

import collide2d as c2d  # noqa: E402
import collide2d.envs  # noqa: E402,F401  (registers the environments)

pytestmark = pytest.mark.ray

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANDER = "collide2d/LunarLander-v3"


def _example():
    """examples/ray_rollouts.py as a module (its ``collect`` has Ray send its classes by
    value: the workers cannot import examples/)."""
    mod = sys.modules.get("ray_rollouts")
    if mod is None:
        spec = importlib.util.spec_from_file_location(
            "ray_rollouts", ROOT / "examples" / "ray_rollouts.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["ray_rollouts"] = mod
        spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def cluster():
    """A local cluster of two CPUs (this machine's), shut down after the module."""
    ray.init(num_cpus=2, object_store_memory=100 * 1024 * 1024, include_dashboard=False,
             log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_warm_up_nodes_leaves_the_kernel_cache_warm(cluster):
    from collide2d import _tiers

    assert _example().warm_up_nodes() == 1  # the local cluster is this one machine
    assert _tiers.is_warm()  # the stamp warm-up writes once every kernel is cached


def test_rollouts_from_actors_equal_the_same_rollouts_without_ray(cluster):
    ex = _example()
    actors, copies, steps, seed = 2, 3, 60, 11
    # Run locally first: it also leaves the kernels compiled in the on-disk cache, which
    # the workers load instead of compiling.
    local = [ex.EnvActor(LANDER, copies).rollout(steps, ex.actor_seed(seed, i, copies))
             for i in range(actors)]

    start = time.perf_counter()
    r = ex.collect(LANDER, num_actors=actors, num_envs=copies, steps=steps, seed=seed)
    elapsed = time.perf_counter() - start
    assert elapsed < 45.0  # actors started, envs built, stepped and gathered

    n = actors * copies
    assert r.observations.shape == (steps + 1, n, 8) and r.observations.dtype == np.float32
    assert r.actions.shape == (steps, n) and np.issubdtype(r.actions.dtype, np.integer)
    assert r.rewards.shape == (steps, n) and r.rewards.dtype == np.float64
    assert r.terminations.shape == r.truncations.shape == (steps, n)
    assert r.terminations.dtype == r.truncations.dtype == np.bool_
    assert r.seconds > 0 and r.steps_per_second == n * steps / r.seconds
    assert r.cpu_seconds > 0 and r.steps_per_cpu_second == n * steps / r.cpu_seconds
    for i, ref in enumerate(local):
        cols = slice(i * copies, (i + 1) * copies)
        assert r.observations[:, cols].tobytes() == ref.observations.tobytes()
        assert r.actions[:, cols].tobytes() == ref.actions.tobytes()
        assert r.rewards[:, cols].tobytes() == ref.rewards.tobytes()
        assert np.array_equal(r.terminations[:, cols], ref.terminations)
        assert np.array_equal(r.truncations[:, cols], ref.truncations)
    # Every copy in the cluster has its own seed: no two start alike.
    first = r.observations[0]
    assert len({row.tobytes() for row in first}) == n


def test_each_column_is_a_single_env_with_its_seed_and_actions(cluster):
    # Column c of actor i is the copy Gymnasium seeds with seed + i * M + j (c = i*M + j):
    # a single environment reset with that seed and fed the column's actions gives the
    # same observations until the copy's first episode ends (then the vector env resets).
    ex = _example()
    actors, copies, steps, seed = 2, 2, 40, 3
    r = ex.collect(LANDER, num_actors=actors, num_envs=copies, steps=steps, seed=seed)
    for c in range(actors * copies):
        env = gym.make(LANDER)
        obs, _ = env.reset(seed=seed + c)
        assert obs.tobytes() == r.observations[0, c].tobytes()
        for t in range(steps):
            obs, reward, term, trunc, _ = env.step(int(r.actions[t, c]))
            assert obs.tobytes() == r.observations[t + 1, c].tobytes()
            assert reward == r.rewards[t, c]
            if term or trunc:
                break
        env.close()


def test_continuous_lander_rollouts_carry_box_actions(cluster):
    ex = _example()
    r = ex.collect(LANDER, num_actors=2, num_envs=2, steps=10, seed=0,
                   env_kwargs={"continuous": True})
    assert r.actions.shape == (10, 4, 2) and r.actions.dtype == np.float32
    assert np.all(np.abs(r.actions) <= 1.0)
    local = ex.EnvActor(LANDER, 2, {"continuous": True}).rollout(10, ex.actor_seed(0, 1, 2))
    assert r.observations[:, 2:].tobytes() == local.observations.tobytes()


@ray.remote
def _step_remote(world, steps):
    for _ in range(steps):
        world.step(1.0 / 60.0)
    return world


def test_worlds_travel_to_ray_tasks_and_back_bit_identically(cluster):
    world = c2d.World()
    ground = world.add_body(kind="static")
    ground.add_box(20, 1, offset=(0, -0.5))
    for i in range(5):
        world.add_body(position=(0.05 * i, 0.5 + 1.1 * i), angle=0.1 * i).add_box(1, 1)
    arm = world.add_body(position=(4, 3))
    arm.add_box(2, 0.2)
    world.add_revolute_joint(ground, arm, (3, 3), lower_angle=-math.pi / 4,
                             upper_angle=math.pi / 4)
    for _ in range(5):
        world.step(1.0 / 60.0)
    remote = ray.get(_step_remote.remote(world, 30))  # pickled there and back
    for _ in range(30):
        world.step(1.0 / 60.0)
    assert remote.snapshot() == world.snapshot()
    assert len(remote.joints) == 1 and len(remote.bodies) == 7


def test_rllib_env_runner_samples_the_lander_by_its_gymnasium_id(cluster):
    # RLlib builds the environment in its env runner actor with gymnasium.make_vec; the
    # module prefix makes Gymnasium import collide2d.envs (which registers the ids) there.
    pytest.importorskip("torch", reason="RLlib's default models need PyTorch (rllib extra)")
    ppo = pytest.importorskip("ray.rllib.algorithms.ppo",
                              reason="RLlib's dependencies are not installed (rllib extra)")
    PPOConfig = ppo.PPOConfig

    config = (PPOConfig()
              .environment("collide2d.envs:collide2d/LunarLander-v3")
              .env_runners(num_env_runners=1, num_envs_per_env_runner=2,
                           rollout_fragment_length=32)
              .training(train_batch_size=64, minibatch_size=32, num_epochs=1)
              .debugging(seed=7))
    algo = config.build_algo()
    try:
        (episodes,) = algo.env_runner_group.foreach_env_runner(
            lambda runner: runner.sample(num_timesteps=64, random_actions=True),
            local_env_runner=False)
        result = algo.train()
    finally:
        algo.stop()
    space = gym.make(LANDER).observation_space
    assert sum(len(e) for e in episodes) == 64
    for e in episodes:
        obs = np.asarray(e.get_observations())
        actions = np.asarray(e.get_actions())
        assert obs.shape == (len(e) + 1, 8) and actions.shape == (len(e),)
        assert all(space.contains(o) for o in obs)
        assert set(actions.tolist()) <= {0, 1, 2, 3}
    assert result["env_runners"]["num_env_steps_sampled"] >= 64
