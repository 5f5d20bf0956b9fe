"""What the vector environments share: one :class:`~collide2d.WorldBatch` stepping the
worlds that a single environment per row builds, with the rows' episode bookkeeping.

A subclass builds its single environments through :meth:`BatchedEnv._setup`, starts a
row's episode in ``_start`` (calling :meth:`BatchedEnv._begin`), keeps what it needs of the
first batch in ``_made_batch``, and ends its ``step`` with :meth:`BatchedEnv._touches` and
:meth:`BatchedEnv._finish`.
"""

from __future__ import annotations

import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from ..batch_worlds import WorldBatch


def row_seeds(seed, n: int) -> list:
    """Per-row seeds from ``reset(seed=...)``: an int (row i gets ``seed + i``, as
    Gymnasium's synchronous vector env does), a sequence of ints or None per row, or None."""
    if seed is None:
        return [None] * n
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(n)]
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"seed: expected {n} seeds, got {len(seeds)}")
    for s in seeds:
        if s is not None and (isinstance(s, bool) or not isinstance(s, (int, np.integer))):
            raise TypeError(f"seed: expected ints or None per row, got {s!r}")
    return [None if s is None else int(s) for s in seeds]


def _positive_int(value) -> bool:
    return (not isinstance(value, bool) and isinstance(value, (int, np.integer))
            and value >= 1)


class BatchedEnv(VectorEnv):
    """A vector environment over one WorldBatch (see the module docstring)."""

    def _setup(self, num_envs, render_mode, max_episode_steps, make_env) -> None:
        """Check the common arguments, build one single environment per row
        (``make_env()``), the spaces and the rows' episode state."""
        if not _positive_int(num_envs):
            raise ValueError(f"num_envs: a positive int, got {num_envs!r}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode: None or 'rgb_array', got {render_mode!r}")
        if max_episode_steps is not None and not _positive_int(max_episode_steps):
            raise ValueError(f"max_episode_steps: a positive int or None, got "
                             f"{max_episode_steps!r}")
        n = self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self.max_episode_steps = max_episode_steps
        self._envs = [make_env() for _ in range(n)]
        first = self._envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.batch: WorldBatch | None = None
        self._game_over = np.zeros(n, np.bool_)
        self._ground = np.zeros((n, 2), np.bool_)  # each leg on the ground
        self._prev_shaping = np.zeros(n)
        self._steps = np.zeros(n, np.int64)
        self._autoreset = np.zeros(n, np.bool_)

    def _begin(self, i: int, env) -> None:
        """Row i's episode state from its single environment just reset; the batch runs no
        callbacks (it reads contact events itself)."""
        world = env.world
        world._callbacks = {k: [] for k in world._callbacks}
        self._game_over[i] = env.game_over
        self._ground[i] = env.ground_contact
        self._prev_shaping[i] = env.prev_shaping
        self._steps[i] = 0

    def reset(self, *, seed=None, options=None):
        """Reset every row: ``seed`` an int (row i gets ``seed + i``, as Gymnasium's
        synchronous vector env does), a list of ints or None per row, or None."""
        # VectorEnv.reset seeds its own generator from a plain int only.
        super().reset(seed=seed if type(seed) is int else None)
        seeds = row_seeds(seed, self.num_envs)
        obs = np.stack([self._start(i, s) for i, s in enumerate(seeds)])
        worlds = [env.world for env in self._envs]
        if self.batch is None:
            self.batch = WorldBatch._of(worlds)
            self._made_batch()
        else:
            for i, w in enumerate(worlds):
                self.batch._put(i, w)
        self._autoreset[:] = False
        return obs, {}

    def _touches(self, events) -> None:
        """The game ends when the hull touches (column 0 of ``events``); each leg's ground
        contact (columns 1, 2) as the single environment's callbacks leave it: they run
        begin before end, so an end in the same step wins."""
        self._game_over |= events.began[:, 0] > 0
        for leg in (0, 1):
            began = events.began[:, 1 + leg] > 0
            ended = events.ended[:, 1 + leg] > 0
            self._ground[:, leg] = ~ended & (began | self._ground[:, leg])

    def _finish(self, obs, reward, terminated, fresh=None):
        """Truncation, then Gymnasium's NEXT_STEP auto-reset: the rows that ended last step
        start again and report their reset observation, reward 0, not done. ``fresh``: those
        rows, already started and stepped by the subclass; None: started here (``_start``)."""
        n = self.num_envs
        self._steps += 1
        if fresh is not None:
            self._steps[fresh] = 0
        truncated = (np.zeros(n, np.bool_) if self.max_episode_steps is None
                     else self._steps >= self.max_episode_steps)
        if fresh is None:
            for i in np.flatnonzero(self._autoreset).tolist():
                obs[i] = self._start(i, None)
                self.batch._put(i, self._envs[i].world)
            fresh = self._autoreset
        reward[fresh] = 0.0
        terminated[fresh] = False
        truncated[fresh] = False
        self._autoreset = terminated | truncated
        return obs, reward, terminated, truncated, {}

    def render(self):
        """An RGB frame of environment 0 (``render_mode="rgb_array"``), else None."""
        if self.render_mode is None or self.batch is None:
            return None
        env = self._envs[0]
        self.batch.world(0)  # its tables and time in place for drawing
        self._frame(env)
        env.render_mode = "rgb_array"
        try:
            return env.render()
        finally:
            env.render_mode = None

    def _frame(self, env) -> None:
        """What environment 0 needs set before it draws (nothing by default)."""

    def close_extras(self, **kwargs):
        for env in self._envs:
            env.close()
