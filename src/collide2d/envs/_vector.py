"""What the vector environments share: one :class:`~collide2d.WorldBatch` of the rows'
worlds, with the rows' episode bookkeeping.

A subclass builds its single environments (which draw each row's episodes) through
:meth:`BatchedEnv._setup` and a template world ``_template`` the batch starts from, and
provides ``_advance(actions, seeds)``: one step of every row, the rows whose episode ended
last step started again first (``_autoreset``) and taking their reset step with no action
(``_no_action()``). Its work over the rows is compiled (``_kernels/envs.py``): one call
before the batch's step (engines, motors), one after it (contact events, observations,
rewards, terminations and auto-resets of every row).
"""

from __future__ import annotations

import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from .. import _tiers
from ..batch_worlds import WorldBatch
from ._episodes import edge_starts, write_ground

_ke = _tiers.kernels("envs")


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


def event_columns(types) -> tuple:
    """The pairs of collision types ``types`` ((k, 2)) whose contact events a vector
    environment's kernel counts, as it takes them: each column contiguous."""
    types = np.asarray(types)
    return np.ascontiguousarray(types[:, 0]), np.ascontiguousarray(types[:, 1])


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
        # The rows' flags, as the kernels keep them (``_kernels.envs``): the episode is
        # over, each leg on the ground, the next step starts a new episode.
        self._flags = np.zeros((n, 4), np.bool_)
        self._game_over = self._flags[:, _ke.GAME_OVER]
        self._ground = self._flags[:, _ke.LEG_0:_ke.LEG_1 + 1]
        self._autoreset = self._flags[:, _ke.AUTORESET]
        self._prev_shaping = np.zeros(n)
        self._steps = np.zeros(n, np.int64)
        # (0: no truncation, as the kernels take it)
        self._limit = 0 if max_episode_steps is None else int(max_episode_steps)

    def _event_counts(self, k: int) -> tuple:
        """Where the kernel puts a step's contact events of k pairs of collision types:
        the counts began, ended and touching, (n, k) each."""
        return tuple(np.zeros((self.num_envs, k), np.int64) for _ in range(3))

    def _use_template(self, world, edges, drawn) -> None:
        """Episodes start from ``world`` (``WorldBatch.reset`` to it, then the episode's
        ground written in): the vertex rows of its ground's chain ``edges`` (shapes) and
        where the bodies env 0 draws (``drawn``) stand in ``world.bodies``."""
        self._template = world
        self._edge_start = edge_starts(world, edges)
        self._drawn = [world.bodies.index(body) for body in drawn]

    def _ground_line(self, i: int, points) -> None:
        """Row i's ground chain through ``points`` ((edges + 1, 2), m), written into its
        world's vertices in place."""
        write_ground(self.batch._worlds[i], self._edge_start, points)

    def _push(self, rows, body_id: int, pushes) -> None:
        """Body ``body_id`` of worlds ``rows`` pushed by ``pushes[i, 0]`` (N) for the first
        step, as the single environment's ``apply_force``."""
        where = np.zeros((self.num_envs, 1), np.bool_)
        where[rows] = True
        self.batch.apply_forces([body_id], pushes, where=where)

    def reset(self, *, seed=None, options=None):
        """Reset every row: ``seed`` an int (row i gets ``seed + i``, as Gymnasium's
        synchronous vector env does), a list of ints or None per row, or None."""
        # VectorEnv.reset seeds its own generator from a plain int only.
        super().reset(seed=seed if type(seed) is int else None)
        seeds = row_seeds(seed, self.num_envs)
        if self.batch is None:
            self.batch = WorldBatch(self._template, self.num_envs)
        self._autoreset[:] = True
        return self._advance(self._no_action(), seeds)[0], {}

    def _outputs(self):
        """Fresh arrays for a step's results: observations (of the single observation
        space's shape and dtype), rewards, terminated and truncated flags."""
        n = self.num_envs
        space = self.single_observation_space
        return (np.empty((n,) + space.shape, space.dtype), np.empty(n),
                np.empty(n, np.bool_), np.empty(n, np.bool_))

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
