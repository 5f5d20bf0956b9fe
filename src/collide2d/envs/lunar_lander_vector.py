"""LunarLander-v3 as a vector environment: N landers stepped in one compiled call.

``gymnasium.make_vec("collide2d/LunarLander-v3", num_envs=N)`` builds this (the default
``vectorization_mode``; ``"sync"`` gives Gymnasium's loop over single environments). Every
row equals the single environment's step for step, bit for bit, for the same seed and
actions. A vector step is one compiled call over every row (``_kernels/envs.py``'s
``lander_step``, the :class:`~collide2d.WorldBatch`'s step with each world's engines fired
before its physics step and its contact events, observation, reward, termination and
auto-reset read after it, while its memory is in the caches); wind, when enabled, is
applied in NumPy before it. A row's new episode is its world reset in place to a template world,
with the moon's points and the initial push drawn as the single environment's ``reset``
draws them (the same calls on the same ``np_random``); its first step, the single
environment's reset step, is taken in the batch step with the others. Without wind or a
seed, that reset is done in the same pass, just before the world's step
(``WorldBatch._take_again`` resets its record; ``lander_step`` copies the template's arrays
and writes the moon and push), else by ``WorldBatch.reset`` before the step.

Auto-reset is Gymnasium 1.x's ``NEXT_STEP`` mode: the step after a row ends returns that
row's reset observation with reward 0 and ``terminated = truncated = False``, and its
action is ignored. Rendering (``render_mode="rgb_array"``) draws environment 0.
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from .. import _tiers
from . import lunar_lander as L
from ._vector import BatchedEnv, _ke, event_columns

#: Uniform draws taken ahead from each row's generator: two a step (the engines'
#: dispersion) and, without wind, an episode's (``_EPISODE_DRAWS``: the moon's heights and
#: the push). With wind, whose phases are integer draws, the generator is wound back to
#: what was used when a row resets, and the episode drawn from it.
_BLOCK = 512
_EPISODE_DRAWS = L.CHUNKS + 3


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
        # One single environment per row draws its episodes (and checks the arguments).
        def make():
            return L.LunarLander(None, continuous, gravity, enable_wind, wind_power,
                                 turbulence_power)

        self._setup(num_envs, render_mode, max_episode_steps, make)
        self.continuous = continuous
        self.enable_wind = enable_wind
        self.wind_power = wind_power
        self.turbulence_power = turbulence_power
        n = self.num_envs
        # Every episode's world is this one with the episode's terrain and push: its
        # moon's points are rewritten and the push applied after a reset to it.
        maker = make()
        gym.Env.reset(maker, seed=0)
        points, _, _ = maker._draw_episode()
        self._use_template(maker._build(points, (0.0, 0.0)), maker.moon_edges,
                           (maker.lander, *maker.legs))
        self._ids = np.array([maker.lander.id])
        self._moon = np.zeros((n, L.CHUNKS, 2))  # each row's moon, (env 0's for drawing)
        self._edges = self._edge_start.astype(np.int64)
        self._wind_idx = np.zeros(n, np.int64)
        self._torque_idx = np.zeros(n, np.int64)
        self._u = np.zeros((n, _BLOCK))
        self._used = np.zeros(n, np.int64)
        self._drawn_ahead = np.zeros(n, np.bool_)  # u holds the generator's next draws
        self._rng_state: list = [None] * n
        self._actions = np.zeros((n, 2))  # as lander_step takes them
        # Rows whose new episode lander_step starts (_restart), and the template's views
        # it copies them from (None: no row this step).
        self._again = np.zeros(n, np.bool_)
        self._template_views = None
        # Where lander_step puts the engines' impulses, points and firing flags (n, 2, 2),
        # (n, 2, 2), (n, 2), and their throttles, which the reward reads (n, 2).
        self._engines = (np.zeros((n, 2, 2)), np.zeros((n, 2, 2)), np.zeros((n, 2), np.bool_))
        self._power = np.zeros((n, 2))
        # The step's contact events (began, ended, touching) of the pairs _EVENT_TYPES.
        self._counts = self._event_counts(len(_EVENT_TYPES))

    # ------------------------------------------------------------------ episodes
    def _no_action(self) -> np.ndarray:
        n = self.num_envs
        return np.zeros((n, 2)) if self.continuous else np.zeros(n, np.int64)

    def _restart(self, rows: np.ndarray, seeds: list) -> None:
        """New episodes in ``rows``, in place: each world reset to the template, then the
        episode's draws (as the single environment's reset makes them on the row's own
        generator) give its moon, its push and its wind phases. Without wind, a row whose
        next draws are in ``u`` takes them there: where its world can take the template
        again in place (``WorldBatch._take_again``), in the step's own pass (``_again``),
        else in one compiled call here (``lander_episodes``); seeded rows, rows not yet
        drawn ahead and every row with wind draw from the generator."""
        if not self.enable_wind:
            unseeded = np.array([s is None for s in seeds], np.bool_)
            ahead = rows[unseeded & self._drawn_ahead[rows]]
            if ahead.size:
                taken, self._template_views = self.batch._take_again(ahead)
                self._again[taken] = True
                left = ~self._again[rows]
                seeds = [s for s, keep in zip(seeds, left.tolist(), strict=True) if keep]
                rows = rows[left]
        self._game_over[self._again] = False
        self._ground[self._again] = False
        if not rows.size:
            return
        self.batch.reset(rows)
        ahead = []
        drawn = []
        pushes = np.zeros((self.num_envs, 1, 2))
        for i, seed in zip(rows.tolist(), seeds, strict=True):
            if seed is None and self._drawn_ahead[i] and not self.enable_wind:
                ahead.append(i)
                continue
            env = self._envs[i]
            if seed is not None:
                gym.Env.reset(env, seed=seed)
            elif self._rng_state[i] is not None:
                # Wind the generator back to the draws the episode really used.
                env.np_random.bit_generator.state = self._rng_state[i]
                env.np_random.random(int(self._used[i]))
            points, push, phases = env._draw_episode()
            self._ground_line(i, points)
            self._moon[i] = points
            pushes[i, 0] = push
            if phases is not None:
                self._wind_idx[i], self._torque_idx[i] = phases
            self._draw(i)
            drawn.append(i)
        if drawn:
            self._push(drawn, self._ids[0], pushes)
        if ahead:
            self._episodes(np.array(ahead, dtype=np.int64))
        self._game_over[rows] = False
        self._ground[rows] = False

    def _episodes(self, rows: np.ndarray) -> None:
        """Rows' episodes from the draws ahead, their worlds just reset: one compiled call
        (``lander_episodes``) writes each one's moon and push."""
        slots = self.batch._body_slots(self._ids)
        with self.batch._kernel_views() as views:
            _ke.lander_episodes(views["bodies"], views["shapes"], rows, int(slots[0, 0]),
                                self._edges, self._u, self._used, _WORLD, self._moon)

    def _draw(self, i: int) -> None:
        rng = self._envs[i].np_random
        self._rng_state[i] = rng.bit_generator.state
        self._u[i] = rng.random(_BLOCK)
        self._used[i] = 0
        self._drawn_ahead[i] = True

    def _draw_more(self) -> None:
        """After a step: rows that could run out of draws ahead take more. With wind, a
        used-up block (two draws a step) is replaced; without, the unused draws move to
        the front and the generator's next ones follow, room kept for an episode's."""
        if self.enable_wind:
            for i in np.flatnonzero(self._used + 2 > _BLOCK).tolist():
                self._draw(i)
            return
        for i in np.flatnonzero(self._used + _EPISODE_DRAWS + 2 > _BLOCK).tolist():
            k = int(self._used[i])
            self._u[i, :_BLOCK - k] = self._u[i, k:]
            self._u[i, _BLOCK - k:] = self._envs[i].np_random.random(k)
            self._used[i] = 0
            self._rng_state[i] = None  # (only the wind's rows wind back)

    def _frame(self, env) -> None:
        world = self.batch._worlds[0]
        env.world = world
        env.lander, *env.legs = (world.bodies[k] for k in self._drawn)
        env.sky_polys = L.sky_polys(self._moon[0].tolist())
        env.particles = []

    # ------------------------------------------------------------------ step
    def step(self, actions):
        if self.batch is None:
            raise gym.error.ResetNeeded("Cannot call step() before calling reset()")
        n = self.num_envs
        if self.continuous:
            a = np.clip(np.asarray(actions), -1, +1).astype(np.float64)
            if a.shape != (n, 2):
                raise ValueError(f"actions: expected shape ({n}, 2), got {a.shape}")
        else:
            a = np.asarray(actions)
            if a.shape != (n,) or not np.issubdtype(a.dtype, np.integer) or (
                    (a < 0) | (a > 3)).any():
                raise ValueError(f"actions: expected {n} ints in 0..3, got {actions!r}")
        return self._advance(a, [None] * n)

    def _advance(self, a, seeds):
        """One step of every row; the rows that ended last step start a new episode first
        (seeded by ``seeds``) and take its first step, the single environment's reset,
        with no engine firing whatever their action."""
        # The template's views _restart may take are for the kernels' tier, held until
        # the step has used them.
        _tiers.enter()
        try:
            return self._advance_held(a, seeds)
        finally:
            _tiers.leave()

    def _advance_held(self, a, seeds):
        n = self.num_envs
        batch = self.batch
        ids = self._ids
        fresh = self._autoreset.copy()
        rows = np.flatnonzero(fresh)
        self._again[:] = False
        self._template_views = None
        if rows.size:
            self._restart(rows, [seeds[i] for i in rows.tolist()])
        if self.enable_wind:
            calm = ~(self._ground[:, 0] | self._ground[:, 1])
            wind = _gust(self._wind_idx) * self.wind_power
            torque = _gust(self._torque_idx) * self.turbulence_power
            self._wind_idx += calm
            self._torque_idx += calm
            force = np.zeros((n, 1, 2))
            force[:, 0, 0] = wind
            batch.apply_forces(ids, force, where=calm[:, None])
            batch.apply_torques(ids, torque[:, None], where=calm[:, None])

        actions = self._actions
        if self.continuous:
            actions[:] = a
        else:
            actions[:, 0] = a
        # The engines fire at the hull, both rows of its slots.
        slots = batch._body_slots(np.stack((ids[0], ids[0])))
        power = self._power
        obs, reward, terminated, truncated = out = self._outputs()
        try:
            late = batch._step(1.0 / L.FPS, _ke, "lander_step", (
                slots, actions, self.continuous, fresh, self._u, self._used, _ENGINES,
                *self._engines, power, *_EVENT_PAIRS, *self._counts, _OUTCOME, self._limit,
                self._flags, self._prev_shaping, self._steps, *out, self._again,
                # (no row to start: any lists of the views' types, unread)
                *(self._template_views or batch._store_lists()), self._edges, _WORLD,
                self._moon))
        except ValueError:
            # No world was stepped (a NaN): the rows the pass was to start again start
            # here, as _restart starts the others.
            again = np.flatnonzero(self._again)
            if again.size:
                batch._copy_again(again, self._template_views)
                self._episodes(again)
            raise
        if late:
            with batch._kernel_views() as views:
                tables, counts, events = batch._event_args(views, _EVENT_TYPES)
                _ke.lander_after(views["bodies"], views["shapes"], *tables, counts, events,
                                 slots, power, fresh, _OUTCOME, self._limit, self._flags,
                                 self._prev_shaping, self._steps, *out,
                                 np.array(late, dtype=np.int64))
        self._draw_more()
        return obs, reward, terminated, truncated, {}


#: What ``_kernels.envs.lander_step`` and ``lander_after`` take of the game's constants.
_ENGINES = (L.SCALE, float(L.MAIN_ENGINE_Y_LOCATION), L.MAIN_ENGINE_POWER,
            float(L.SIDE_ENGINE_AWAY), float(L.SIDE_ENGINE_HEIGHT), L.SIDE_ENGINE_POWER)
_OUTCOME = (L.VIEWPORT_W / L.SCALE / 2, L.VIEWPORT_H / L.SCALE / 2,
            L.HELIPAD_Y + L.LEG_DOWN / L.SCALE, float(L.FPS))

#: What ``_kernels.envs.lander_episodes`` takes: the moon's width, the heights' bound, the
#: pad's height, the push's bound.
_WORLD = (L.VIEWPORT_W / L.SCALE, L.VIEWPORT_H / L.SCALE / 2, L.HELIPAD_Y,
          L.INITIAL_RANDOM)

#: Contact events read after each step: hull on moon, left leg, right leg; the two columns
#: as ``lander_step`` takes them.
_EVENT_TYPES = np.array([(L.HULL, L.MOON), (L.LEG_LEFT, L.MOON), (L.LEG_RIGHT, L.MOON)])
_EVENT_PAIRS = event_columns(_EVENT_TYPES)
