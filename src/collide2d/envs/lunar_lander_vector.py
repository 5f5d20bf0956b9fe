"""LunarLander-v3 as a vector environment: N landers stepped in one compiled call.

``gymnasium.make_vec("collide2d/LunarLander-v3", num_envs=N)`` builds this (the default
``vectorization_mode``; ``"sync"`` gives Gymnasium's loop over single environments). Every
row equals the single environment's step for step, bit for bit, for the same seed and
actions: each episode's world is built and its first step taken by the single
environment's own ``reset`` (the same draws on the same ``np_random``), then the worlds
are stepped together by a :class:`~collide2d.WorldBatch`, with the engines, wind, contact
flags, rewards and terminations worked out in NumPy over all rows at once.

Auto-reset is Gymnasium 1.x's ``NEXT_STEP`` mode: the step after a row ends returns that
row's reset observation with reward 0 and ``terminated = truncated = False``, and its
action is ignored. Rendering (``render_mode="rgb_array"``) draws environment 0.
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from . import lunar_lander as L
from ._vector import BatchedEnv

#: Uniform draws (two a step: the engines' dispersion) taken ahead from each row's
#: generator; the generator is wound back to what was used when a row resets.
_BLOCK = 512


def _gust(i: np.ndarray) -> np.ndarray:
    """``tanh(sin(0.02 i) + sin(pi 0.01 i))`` for integer steps ``i``, from a table filled
    with ``math`` (NumPy's sin and tanh may differ from it in the last bit)."""
    lo, hi = int(i.min()), int(i.max())
    if lo < _GUSTS[0] or hi >= _GUSTS[0] + len(_GUSTS[1]):
        start = min(lo, _GUSTS[0])
        stop = max(hi + 1, _GUSTS[0] + len(_GUSTS[1]))
        _GUSTS[0] = start
        _GUSTS[1] = np.array([math.tanh(math.sin(0.02 * k) + math.sin(math.pi * 0.01 * k))
                              for k in range(start, stop)])
    return _GUSTS[1][i - _GUSTS[0]]


_GUSTS = [0, np.zeros(0)]  # first step, values


class LunarLanderVector(BatchedEnv):
    """``num_envs`` LunarLander-v3 environments in one :class:`~collide2d.WorldBatch`.

    Parameters are the single environment's (``continuous``, ``gravity``,
    ``enable_wind``, ``wind_power``, ``turbulence_power``, ``render_mode``) plus
    ``num_envs`` and ``max_episode_steps`` (truncation, 1000 as registered).

    Example
    -------
    >>> import gymnasium as gym
    >>> import collide2d.envs
    >>> envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=4)
    >>> obs, info = envs.reset(seed=0)
    >>> obs.shape
    (4, 8)
    >>> obs, rewards, terminated, truncated, info = envs.step(envs.action_space.sample())
    >>> rewards.shape
    (4,)
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": L.FPS,
                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, render_mode: str | None = None,
                 continuous: bool = False, gravity: float = -10.0, enable_wind: bool = False,
                 wind_power: float = 15.0, turbulence_power: float = 1.5,
                 max_episode_steps: int | None = 1000):
        # One single environment per row builds its episodes (and checks the arguments).
        self._setup(num_envs, render_mode, max_episode_steps,
                    lambda: L.LunarLander(None, continuous, gravity, enable_wind, wind_power,
                                          turbulence_power))
        self.continuous = continuous
        self.enable_wind = enable_wind
        self.wind_power = wind_power
        self.turbulence_power = turbulence_power
        n = self.num_envs
        self._ids = None  # the lander's body id (the same in every world)
        self._wind_idx = np.zeros(n, np.int64)
        self._torque_idx = np.zeros(n, np.int64)
        self._helipad_y = np.zeros(n)
        self._u = np.zeros((n, _BLOCK))
        self._used = np.zeros(n, np.int64)
        self._rng_state: list = [None] * n

    # ------------------------------------------------------------------ episodes
    def _start(self, i: int, seed) -> np.ndarray:
        """A new episode in row i by the single environment's reset; its observation."""
        env = self._envs[i]
        if seed is None and self._rng_state[i] is not None:
            # Wind the generator back to the draws the episode really used.
            env.np_random.bit_generator.state = self._rng_state[i]
            env.np_random.random(int(self._used[i]))
        obs, _ = env.reset(seed=seed)
        self._begin(i, env)
        if self.enable_wind:
            self._wind_idx[i] = env.wind_idx
            self._torque_idx[i] = env.torque_idx
        self._helipad_y[i] = env.helipad_y
        self._draw(i)
        return obs

    def _draw(self, i: int) -> None:
        rng = self._envs[i].np_random
        self._rng_state[i] = rng.bit_generator.state
        self._u[i] = rng.random(_BLOCK)
        self._used[i] = 0

    def _made_batch(self) -> None:
        self._ids = np.array([self._envs[0].lander.id])

    # ------------------------------------------------------------------ step
    def step(self, actions):
        if self.batch is None:
            raise gym.error.ResetNeeded("Cannot call step() before calling reset()")
        n = self.num_envs
        batch = self.batch
        ids = self._ids
        if self.continuous:
            a = np.clip(np.asarray(actions), -1, +1).astype(np.float64)
            if a.shape != (n, 2):
                raise ValueError(f"actions: expected shape ({n}, 2), got {a.shape}")
        else:
            a = np.asarray(actions)
            if a.shape != (n,) or not np.issubdtype(a.dtype, np.integer) or (
                    (a < 0) | (a > 3)).any():
                raise ValueError(f"actions: expected {n} ints in 0..3, got {actions!r}")
        live = ~self._autoreset
        if self.enable_wind:
            calm = live & ~(self._ground[:, 0] | self._ground[:, 1])
            wind = _gust(self._wind_idx) * self.wind_power
            torque = _gust(self._torque_idx) * self.turbulence_power
            self._wind_idx += calm
            self._torque_idx += calm
            force = np.zeros((n, 1, 2))
            force[:, 0, 0] = wind
            batch.apply_forces(ids, force, where=calm[:, None])
            batch.apply_torques(ids, torque[:, None], where=calm[:, None])

        state = batch.body_states(ids)
        pos = state.position[:, 0]
        tip0 = state.rotation[:, 0, 1]  # sin(angle)
        tip1 = state.rotation[:, 0, 0]  # cos(angle)
        side0, side1 = -tip1, tip0
        k = self._used
        rows = np.arange(n)
        d0 = (-1.0 + 2.0 * self._u[rows, k]) / L.SCALE
        d1 = (-1.0 + 2.0 * self._u[rows, k + 1]) / L.SCALE
        self._used += 2 * live

        if self.continuous:
            main = a[:, 0] > 0.0
            m_power = np.where(main, (np.clip(a[:, 0], 0.0, 1.0) + 1.0) * 0.5, 0.0)
            lateral = np.abs(a[:, 1]) > 0.5
            direction = np.sign(a[:, 1])
            s_power = np.where(lateral, np.clip(np.abs(a[:, 1]), 0.5, 1.0), 0.0)
        else:
            main = a == 2
            m_power = np.where(main, 1.0, 0.0)
            lateral = (a == 1) | (a == 3)
            direction = a - 2
            s_power = np.where(lateral, 1.0, 0.0)
        main &= live
        lateral &= live
        imp = np.zeros((n, 2, 2))
        at = np.zeros((n, 2, 2))
        reach = L.MAIN_ENGINE_Y_LOCATION / L.SCALE + 2 * d0
        ox = tip0 * reach + side0 * d1
        oy = -tip1 * reach - side1 * d1
        at[:, 0, 0] = pos[:, 0] + ox
        at[:, 0, 1] = pos[:, 1] + oy
        imp[:, 0, 0] = -ox * L.MAIN_ENGINE_POWER * m_power
        imp[:, 0, 1] = -oy * L.MAIN_ENGINE_POWER * m_power
        away = 3 * d1 + direction * L.SIDE_ENGINE_AWAY / L.SCALE
        ox = tip0 * d0 + side0 * away
        oy = -tip1 * d0 - side1 * away
        at[:, 1, 0] = pos[:, 0] + ox - tip0 * 17 / L.SCALE
        at[:, 1, 1] = pos[:, 1] + oy + tip1 * L.SIDE_ENGINE_HEIGHT / L.SCALE
        imp[:, 1, 0] = -ox * L.SIDE_ENGINE_POWER * s_power
        imp[:, 1, 1] = -oy * L.SIDE_ENGINE_POWER * s_power
        both = np.stack((ids[0], ids[0]))
        batch.apply_impulses(both, imp, at, where=np.stack((main, lateral), axis=1))

        batch.step(1.0 / L.FPS)

        state = batch.body_states(ids)
        self._touches(batch.contact_events(_EVENT_TYPES))
        out = self._finish(*self._observe(state, m_power, s_power))
        for i in np.flatnonzero(self._used + 2 > _BLOCK).tolist():
            self._draw(i)
        return out

    def _observe(self, state, m_power, s_power):
        pos = state.position[:, 0]
        vel = state.velocity[:, 0]
        half_w = L.VIEWPORT_W / L.SCALE / 2
        half_h = L.VIEWPORT_H / L.SCALE / 2
        s = np.empty((self.num_envs, 8))
        s[:, 0] = (pos[:, 0] - half_w) / half_w
        s[:, 1] = (pos[:, 1] - (self._helipad_y + L.LEG_DOWN / L.SCALE)) / half_h
        s[:, 2] = vel[:, 0] * half_w / L.FPS
        s[:, 3] = vel[:, 1] * half_h / L.FPS
        s[:, 4] = state.angle[:, 0]
        s[:, 5] = 20.0 * state.angular_velocity[:, 0] / L.FPS
        s[:, 6] = np.where(self._ground[:, 0], 1.0, 0.0)
        s[:, 7] = np.where(self._ground[:, 1], 1.0, 0.0)
        shaping = (-100 * np.sqrt(s[:, 0] * s[:, 0] + s[:, 1] * s[:, 1])
                   - 100 * np.sqrt(s[:, 2] * s[:, 2] + s[:, 3] * s[:, 3])
                   - 100 * np.abs(s[:, 4]) + 10 * s[:, 6] + 10 * s[:, 7])
        reward = shaping - self._prev_shaping
        self._prev_shaping = shaping
        reward -= m_power * 0.30
        reward -= s_power * 0.03
        crashed = self._game_over | (np.abs(s[:, 0]) >= 1.0)
        landed = ~state.awake[:, 0]
        reward = np.where(crashed, -100.0, reward)
        reward = np.where(landed, 100.0, reward)
        return s.astype(np.float32), reward, crashed | landed


#: Contact events read after each step: hull on moon, left leg, right leg.
_EVENT_TYPES = np.array([(L.HULL, L.MOON), (L.LEG_LEFT, L.MOON), (L.LEG_RIGHT, L.MOON)])
