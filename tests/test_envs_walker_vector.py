"""The vector BipedalWalker: every row equals the single environment, step for step, bit for
bit, including across auto-resets, in both modes."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
from vector_rows import compare_rows, small_tables  # noqa: E402

import collide2d.envs  # noqa: E402,F401  (registers the environments)
from collide2d.envs.bipedal_walker_vector import BipedalWalkerVector  # noqa: E402

N = 3
WALKER = "collide2d/BipedalWalker-v3"
HARDCORE = "collide2d/BipedalWalkerHardcore-v3"


def _compare(env_id, steps, seed, actions, limit=None):
    kwargs = {} if limit is None else {"max_episode_steps": limit}
    return compare_rows(gym, env_id, BipedalWalkerVector, N, kwargs, steps, seed, actions, 24)


def test_rows_equal_the_single_env_across_truncation_resets():
    rng = np.random.default_rng(3)
    acts = rng.uniform(-1, 1, size=(70, N, 4)).astype(np.float32)
    resets = _compare(WALKER, 70, 11, lambda t: acts[t], limit=30)
    assert resets == 2 * N  # rows truncated at steps 30 and 61 were reset the step after


@pytest.mark.nojit
def test_rows_equal_the_single_env_a_few_steps():
    # (Also as plain Python: the kernels' twin runs while a cold cache compiles.)
    rng = np.random.default_rng(9)
    acts = rng.uniform(-1, 1, size=(12, N, 4)).astype(np.float32)
    _compare(WALKER, 12, 4, lambda t: acts[t])


def test_rows_equal_the_single_env_when_walkers_fall():
    """Hips driven hard forward and knees back topple the walkers onto their hulls: the
    -100 ending and the auto-reset after it, row by row."""
    push = np.tile(np.array([1.0, -1.0, 1.0, -1.0], np.float32), (N, 1))
    resets = _compare(WALKER, 150, 2, lambda t: push)
    assert resets >= 1


def test_rows_equal_the_single_env_when_tables_grow(monkeypatch):
    # Step buffers with room for two pairs: a walker on the ground has more, so its step
    # stops in walker_step for the table to grow and the surface finishes it (and reads its
    # result with walker_after); the rows must not notice.
    finished = small_tables(monkeypatch)
    rng = np.random.default_rng(6)
    acts = rng.uniform(-1, 1, size=(60, N, 4)).astype(np.float32)
    _compare(WALKER, 60, 13, lambda t: acts[t], limit=25)
    assert len(set(finished)) == N  # every row's table grew at least once


def test_hardcore_rows_equal_the_single_env():
    rng = np.random.default_rng(5)
    acts = rng.uniform(-1, 1, size=(40, N, 4)).astype(np.float32)
    _compare(HARDCORE, 40, 7, lambda t: acts[t], limit=25)


def test_vector_env_contract():
    """What Gymnasium's vector API promises: batched spaces of the single env's, results
    inside them with the right dtypes, the NEXT_STEP autoreset mode, the same seed giving
    the same trajectory, step before reset refused, sync mode left to Gymnasium."""
    envs = gym.make_vec(WALKER, num_envs=2)
    single = gym.make(WALKER)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space.shape == (2, 24) and envs.action_space.shape == (2, 4)
    with pytest.raises(gym.error.ResetNeeded):
        envs.step(np.zeros((2, 4)))
    envs.action_space.seed(0)
    acts = [envs.action_space.sample() for _ in range(10)]
    runs = []
    for _ in range(2):
        obs, info = envs.reset(seed=4)
        assert isinstance(info, dict) and obs in envs.observation_space
        out = [obs]
        for a in acts:
            obs, rew, term, trunc, info = envs.step(a)
            assert obs in envs.observation_space
            assert rew.shape == (2,) and rew.dtype == np.float64
            assert term.dtype == np.bool_ and trunc.dtype == np.bool_
            out += [obs, rew]
        runs.append(out)
    assert all(np.array_equal(x, y) for x, y in zip(*runs, strict=True))
    sync = gym.make_vec(WALKER, num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gym.vector.SyncVectorEnv)
    sync.close()
    envs.close()


def test_limits_are_the_registered_ones_and_truncate():
    assert gym.make_vec(WALKER, num_envs=1).unwrapped.max_episode_steps == 1600
    hard = gym.make_vec(HARDCORE, num_envs=1).unwrapped
    assert hard.max_episode_steps == 2000 and hard.hardcore
    envs = gym.make_vec(WALKER, num_envs=2, max_episode_steps=3)
    envs.reset(seed=0)
    for _ in range(3):
        _, _, term, trunc, _ = envs.step(np.zeros((2, 4)))
    assert trunc.all() and not term.any()
    _, rew, term, trunc, _ = envs.step(np.zeros((2, 4)))
    assert (rew == 0).all() and not (term | trunc).any()  # the auto-reset step


def test_bad_arguments_name_them():
    envs = gym.make_vec(WALKER, num_envs=2)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        envs.step(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="actions"):
        envs.step(np.full((2, 4), np.nan))
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="num_envs"):
        BipedalWalkerVector(num_envs=0)
    with pytest.raises(ValueError, match="max_episode_steps"):
        BipedalWalkerVector(num_envs=1, max_episode_steps=0)
    with pytest.raises(ValueError, match="render_mode"):
        BipedalWalkerVector(num_envs=1, render_mode="human")


def test_render_draws_env_0():
    pytest.importorskip("pygame")
    envs = gym.make_vec(WALKER, num_envs=2, render_mode="rgb_array")
    envs.reset(seed=0)
    envs.step(np.zeros((2, 4)))
    frame = envs.render()
    assert frame.shape == (400, 600, 3) and frame.std() > 0
    envs.step(np.zeros((2, 4)))  # the batch steps on after world 0 was read for drawing
