"""The oracle of the vector environments' tests: N single environments stepped beside the
vector one with the same seeds and actions, auto-reset as Gymnasium's NEXT_STEP mode does."""

from __future__ import annotations

import numpy as np


def compare_rows(gym, env_id, vector_type, n, kwargs, steps, seed, actions, obs_dim) -> int:
    """Assert that every row of ``gym.make_vec(env_id, num_envs=n, **kwargs)`` (a
    ``vector_type``) equals a single ``gym.make(env_id, **kwargs)`` seeded ``seed + i``, step
    by step: observations bit for bit, rewards, terminations and truncations. ``actions(t)``
    gives the (n, ...) actions of step t. Returns how many auto-resets ran."""
    envs = gym.make_vec(env_id, num_envs=n, **kwargs)
    assert isinstance(envs.unwrapped, vector_type)
    singles = [gym.make(env_id, **kwargs) for _ in range(n)]
    obs, _ = envs.reset(seed=seed)
    for i, env in enumerate(singles):
        o, _ = env.reset(seed=seed + i)
        assert np.array_equal(obs[i], o)
    done = [False] * n
    resets = 0
    for t in range(steps):
        a = actions(t)
        obs, rew, term, trunc, _ = envs.step(a)
        assert obs.dtype == np.float32 and obs.shape == (n, obs_dim)
        for i, env in enumerate(singles):
            if done[i]:
                o, _ = env.reset()
                r, te, tr = 0.0, False, False
                resets += 1
            else:
                o, r, te, tr, _ = env.step(a[i])
            assert np.array_equal(obs[i], o), (t, i, np.flatnonzero(obs[i] != o))
            assert rew[i] == r, (t, i, rew[i], r)
            assert (term[i], trunc[i]) == (te, tr), (t, i)
            done[i] = te or tr
    envs.close()
    return resets


def small_tables(monkeypatch) -> list:
    """Step buffers with room for two pairs at first (``_pair_room`` and the buffers' first
    ``fit``): a world near the ground has more, so its step stops in the environment's
    kernel for the table to grow and the batch finishes it in Python. Returns the list the
    worlds that ``WorldBatch._finish_step`` finished are appended to."""
    from collide2d import _store, batch_worlds

    monkeypatch.setattr(batch_worlds, "_pair_room", lambda n_shapes: 2)
    fit = _store.StepBuffers.fit

    def small_first(self, bodies, pairs):
        if not getattr(self, "_small", False):  # the buffers' first room: two pairs
            self._small = True
            pairs = 2
        return fit(self, bodies, pairs)

    monkeypatch.setattr(_store.StepBuffers, "fit", small_first)
    finished = []
    real = batch_worlds.WorldBatch._finish_step

    def finish(self, i):
        finished.append(i)
        return real(self, i)

    monkeypatch.setattr(batch_worlds.WorldBatch, "_finish_step", finish)
    return finished
