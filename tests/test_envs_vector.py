"""The vector LunarLander: every row equals the single environment, step for step, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
from vector_rows import compare_rows, small_tables  # noqa: E402

import collide2d.envs  # noqa: E402,F401  (registers the environments)
from collide2d.envs.lunar_lander_vector import LunarLanderVector  # noqa: E402

N = 3


def _compare(kwargs, steps, seed, actions):
    return compare_rows(gym, "collide2d/LunarLander-v3", LunarLanderVector, N, kwargs, steps,
                        seed, actions, 8)


def test_rows_equal_the_single_env_discrete():
    rng = np.random.default_rng(3)
    acts = rng.integers(0, 4, size=(400, N))
    resets = _compare({}, 400, 11, lambda t: acts[t])
    assert resets >= 2  # random landers crash: auto-reset was exercised


@pytest.mark.nojit
def test_rows_equal_the_single_env_a_few_steps():
    # (Also as plain Python: the kernels' twin runs while a cold cache compiles.)
    rng = np.random.default_rng(6)
    acts = rng.integers(0, 4, size=(30, N))
    _compare({}, 30, 2, lambda t: acts[t])


def test_rows_equal_the_single_env_over_many_episodes():
    # Without wind a row's episodes take their draws from those drawn ahead
    # (lander_episodes), and the draws left move to the front when more are drawn: over
    # 1,200 steps every row does both several times, at every offset.
    rng = np.random.default_rng(8)
    acts = rng.integers(0, 4, size=(1200, N))
    resets = _compare({}, 1200, 40, lambda t: acts[t])
    assert resets >= 20


def test_rows_equal_the_single_env_when_tables_grow(monkeypatch):
    # Step buffers with room for two pairs: a lander near the moon has more, so its step
    # stops in lander_step for the table to grow and the surface finishes it (and reads its
    # result with lander_after); the rows must not notice.
    finished = small_tables(monkeypatch)
    rng = np.random.default_rng(5)
    acts = rng.integers(0, 4, size=(300, N))
    resets = _compare({}, 300, 21, lambda t: acts[t])
    assert resets >= 1
    assert len(set(finished)) == N  # every row's table grew at least once


def _spy_take_again(monkeypatch, read_row=None):
    """Record the rows ``WorldBatch._take_again`` gives the step's pass to start again;
    with ``read_row``, that row's world is read first (``batch.world``): it may have
    changed, so its resets go through ``WorldBatch.reset`` instead."""
    from collide2d import batch_worlds

    taken = []
    real = batch_worlds.WorldBatch._take_again

    def spy(self, rows):
        if read_row is not None and read_row in rows.tolist():
            self.world(read_row)
        done, views = real(self, rows)
        taken.extend(done.tolist())
        return done, views

    monkeypatch.setattr(batch_worlds.WorldBatch, "_take_again", spy)
    return taken


def test_rows_equal_the_single_env_when_episodes_start_in_the_step(monkeypatch):
    # Every row's episodes after its first start in lander_step's pass (the template's
    # arrays copied there, the moon and push drawn there), but row 1's, whose world is
    # read before each of its resets: WorldBatch.reset and lander_episodes start those.
    # Both must give the single env's bits.
    taken = _spy_take_again(monkeypatch, read_row=1)
    rng = np.random.default_rng(12)
    acts = rng.integers(0, 4, size=(600, N))
    resets = _compare({}, 600, 30, lambda t: acts[t])
    assert resets >= 6
    assert {0, 2} <= set(taken) and 1 not in taken
    assert len(taken) >= resets // 2


@pytest.mark.nojit
def test_rows_equal_the_single_env_when_episodes_start_in_the_step_nojit(monkeypatch):
    # The same as plain Python: the main engine held on never lands, the side engine
    # held on spins the lander away (out of view or onto its hull) within 80 steps.
    taken = _spy_take_again(monkeypatch)
    acts = np.tile([1, 0, 3], (90, 1))
    resets = _compare({}, 90, 3, lambda t: acts[t])
    assert resets >= 2 and len(taken) >= 1


def test_a_failed_step_still_starts_the_rows_it_was_to_start(monkeypatch):
    # A NaN in one world: the step raises and steps no world. A row whose new episode the
    # step's pass was to start is started all the same, as WorldBatch.reset would have
    # done before the step: its bodies where the template has them, its moon drawn.
    taken = _spy_take_again(monkeypatch)
    envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=N)
    env = envs.unwrapped
    envs.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        _, _, term, trunc, _ = envs.step(rng.integers(0, 4, N))
        done = term | trunc
        if done.any() and not done.all():
            break
    row, other = int(np.flatnonzero(done)[0]), int(np.flatnonzero(~done)[0])
    bad = env.batch.world(other)
    bad._bodies.vel[bad.bodies[1]._s()] = np.nan
    taken.clear()
    with pytest.raises(ValueError, match="NaN"):
        envs.step(np.zeros(N, np.int64))
    assert row in taken
    w = env.batch.world(row)
    assert np.array_equal(w._bodies.pos, env._template._bodies.pos)
    edges = env._edges
    assert np.array_equal(w._shapes.vlocal[edges], env._moon[row, :len(edges)])
    assert np.array_equal(w._shapes.vlocal[edges + 1], env._moon[row, 1:len(edges) + 1])
    envs.close()


def test_rows_equal_the_single_env_continuous_with_wind():
    rng = np.random.default_rng(4)
    acts = rng.uniform(-1, 1, size=(300, N, 2)).astype(np.float32)
    resets = _compare({"continuous": True, "enable_wind": True}, 300, 5, lambda t: acts[t])
    assert resets >= 1


def test_truncation_and_spaces():
    envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=2, max_episode_steps=5)
    obs, _ = envs.reset(seed=0)
    assert envs.observation_space.shape == (2, 8)
    for _t in range(5):
        obs, rew, term, trunc, _ = envs.step(np.array([0, 0]))
    assert trunc.all() and not term.any()
    obs, rew, term, trunc, _ = envs.step(np.array([0, 0]))
    assert (rew == 0).all() and not trunc.any()  # the auto-reset step


def test_sync_mode_is_still_gymnasiums():
    envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=2, vectorization_mode="sync")
    assert isinstance(envs, gym.vector.SyncVectorEnv)
    envs.close()


def test_bad_actions_name_the_argument():
    envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=2)
    with pytest.raises(gym.error.ResetNeeded):
        envs.step(np.array([0, 0]))
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        envs.step(np.array([0, 7]))
    with pytest.raises(ValueError, match="actions"):
        envs.step(np.array([0, 1, 2]))
    with pytest.raises(ValueError, match="num_envs"):
        LunarLanderVector(num_envs=0)


def test_render_draws_env_0():
    pytest.importorskip("pygame")
    envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=2, render_mode="rgb_array")
    envs.reset(seed=0)
    envs.step(np.array([2, 2]))
    frame = envs.render()
    assert frame.shape == (400, 600, 3)
    single = gym.make("collide2d/LunarLander-v3", render_mode="rgb_array")
    single.reset(seed=0)
    # The single env draws exhaust particles; the hull's pixels agree, the frame size too.
    assert single.render().shape == frame.shape


def test_reset_with_a_seed_per_row():
    """A list of seeds (ints, NumPy ints or None) seeds row i as env.reset(seed=seeds[i])."""
    seeds = [7, np.int64(2), 40]
    envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=N)
    obs, _ = envs.reset(seed=seeds)
    for i, s in enumerate(seeds):
        single = gym.make("collide2d/LunarLander-v3")
        o, _ = single.reset(seed=int(s))
        assert np.array_equal(obs[i], o), i
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[1, 2])
    envs.close()
