"""BipedalWalker-v3 (and its hardcore mode) as a vector environment: N walkers stepped in
one compiled call.

``gymnasium.make_vec("collide2d/BipedalWalker-v3", num_envs=N)`` (or
``"collide2d/BipedalWalkerHardcore-v3"``) builds this; ``vectorization_mode="sync"`` gives
Gymnasium's loop over single environments. Every row equals the single environment's step
for step, bit for bit, for the same seed and actions. Each episode's draws (terrain,
clouds, the push) are made on the row's generator as the single environment's ``reset``
makes them; without
obstacles the row's world is reset in place to a template world (``WorldBatch.reset``)
with the episode's ground line and push written in, and in hardcore mode (whose
obstacles are bodies of their own) the episode's world is built. Every step, a reset
row's first among them, is two compiled calls: one pass over the worlds
(``_kernels/envs.py``'s ``walker_step``), each world's four motors set, its physics step
(``WorldBatch``'s) and its contact events, joint angles, reward and termination while its
memory is in the caches (a row whose contact table had to grow is finished by the batch
and read by ``walker_after``); then the ten lidar rays of every walker in one batch ray
cast (``WorldBatch.raycast``, which keeps each world's tree over the static ground between
steps).

Auto-reset is Gymnasium 1.x's ``NEXT_STEP`` mode: the step after a row ends returns that
row's reset observation with reward 0 and ``terminated = truncated = False``, and its
action is ignored. Rendering (``render_mode="rgb_array"``) draws environment 0.

Throughput: see ``bench/vector_envs.md``.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from .. import _arena
from ..queries import QueryFilter
from . import bipedal_walker as W
from ._vector import BatchedEnv, _ke, event_columns

#: Episode limits as registered (``max_episode_steps`` of the two ids).
LIMIT, LIMIT_HARDCORE = 1600, 2000

#: ``max_episode_steps``' default: the registered limit of the mode.
REGISTERED = "registered"

_SPEEDS = np.array([W.SPEED_HIP, W.SPEED_KNEE, W.SPEED_HIP, W.SPEED_KNEE], np.float64)

#: What ``_kernels.envs.walker_after`` takes of the game's constants.
_OUTCOME = (float(W.FPS), W.VIEWPORT_W / W.SCALE, W.VIEWPORT_H / W.SCALE, float(W.SPEED_HIP),
            float(W.SPEED_KNEE), float(W.SCALE), float(W.MOTORS_TORQUE),
            float((W.TERRAIN_LENGTH - W.TERRAIN_GRASS) * W.TERRAIN_STEP))

#: Contact events read after each step: hull on ground, lower leg 1, lower leg 2.
_EVENT_TYPES = np.array([(W.HULL, W.GROUND), (W.FOOT_0, W.GROUND), (W.FOOT_1, W.GROUND)])
#: The same as ``walker_step`` takes them: the first types, the second types.
_EVENT_PAIRS = event_columns(_EVENT_TYPES)


class BipedalWalkerVector(BatchedEnv):
    """``num_envs`` BipedalWalker-v3 environments in one :class:`~collide2d.WorldBatch`.

    Parameters are the single environment's (``render_mode``, ``hardcore``) plus
    ``num_envs`` and ``max_episode_steps`` (truncation: 1600, or 2000 in hardcore mode, as
    registered; None for none).

    Example
    -------
    >>> import gymnasium as gym
    >>> import collide2d.envs
    >>> envs = gym.make_vec("collide2d/BipedalWalker-v3", num_envs=4)
    >>> obs, info = envs.reset(seed=0)
    >>> obs.shape
    (4, 24)
    >>> obs, rewards, terminated, truncated, info = envs.step(envs.action_space.sample())
    >>> rewards.shape
    (4,)
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": W.FPS,
                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, render_mode: str | None = None,
                 hardcore: bool = False, max_episode_steps: int | None | str = REGISTERED):
        if max_episode_steps == REGISTERED:
            max_episode_steps = LIMIT_HARDCORE if hardcore else LIMIT
        self.hardcore = bool(hardcore)

        def make():
            return W.BipedalWalker(None, hardcore)

        # One single environment per row draws its episodes (hardcore: builds them).
        self._setup(num_envs, render_mode, max_episode_steps, make)
        n = self.num_envs
        # Per row, ids of the hull and each leg's two segments (hardcore terrain has a
        # number of bodies of its own before them, so they differ from row to row).
        self._bodies = np.zeros((n, 5), np.int64)
        self._ref = np.zeros((n, 4))  # the joints' reference angles
        # The step's contact events (began, ended, touching) of the pairs _EVENT_TYPES.
        self._counts = self._event_counts(len(_EVENT_TYPES))
        angles = self._envs[0]._lidar_angles
        self._lidar = np.stack((np.sin(angles) * W.LIDAR_RANGE,
                                -np.cos(angles) * W.LIDAR_RANGE), axis=1)
        self._lidar_filter = QueryFilter(mask=W.GROUND_BITS)
        # Without obstacles every episode's world is this one with its own ground line
        # and push: rows reset to it in place. (Hardcore worlds differ in their bodies:
        # each episode's is built.)
        maker = make()
        gym.Env.reset(maker, seed=0)
        xs, ys, _ = maker._draw_terrain(False)
        template = maker._build(xs, ys, [], 0.0)
        bodies = [maker.hull, *maker.legs]
        self._use_template(template, maker.ground_edges, bodies)
        self._walker_ids = np.array([b.id for b in bodies])
        self._template_ref = self._joint_refs(maker)
        column = {b.id: k for k, b in enumerate(bodies)}
        handles = self._template.joints
        self._joints = np.array([handles.index(j) for j in maker.joints])
        self._ends = np.array([(column[j.body_a.id], column[j.body_b.id])
                               for j in maker.joints])
        self._ground0 = (xs, ys)  # env 0's ground line, for drawing

    @staticmethod
    def _joint_refs(env) -> np.ndarray:
        store = env.world._joints.store
        return store.ref_angle[[j._slot for j in env.joints]]

    # ------------------------------------------------------------------ episodes
    def _no_action(self) -> np.ndarray:
        return np.zeros((self.num_envs, 4))

    def _restart(self, rows: np.ndarray, seeds: list) -> None:
        """New episodes in ``rows``, drawn on each row's own generator as the single
        environment's reset draws them: without obstacles, the world reset in place to
        the template with the episode's ground line and push; in hardcore mode, the
        episode's world built and put in the batch."""
        batch = self.batch
        if not self.hardcore:
            batch.reset(rows)
        pushes = np.zeros((self.num_envs, 1, 2))
        with _arena.packed():  # the hardcore episodes' new worlds side by side in memory
            self._start_rows(rows, seeds, pushes)
        if not self.hardcore:
            self._push(rows, self._walker_ids[0], pushes)
        self._game_over[rows] = False
        self._ground[rows] = False

    def _start_rows(self, rows, seeds, pushes) -> None:
        """``_restart``'s rows, one at a time; ``pushes`` takes each one's push."""
        batch = self.batch
        for i, seed in zip(rows.tolist(), seeds, strict=True):
            env = self._envs[i]
            if seed is not None:
                gym.Env.reset(env, seed=seed)
            if self.hardcore:
                env._new_episode()
                batch._put(i, env.world)
                self._bodies[i] = [b.id for b in (env.hull, *env.legs)]
                self._ref[i] = self._joint_refs(env)
                continue
            xs, ys, _ = env._draw_terrain(False)
            if i == 0:
                env._generate_clouds()  # drawn
            else:  # the same draws, not kept
                env.np_random.random(W.BipedalWalker.CLOUD_DRAWS)
            pushes[i, 0, 0] = env.np_random.uniform(-W.INITIAL_RANDOM, W.INITIAL_RANDOM)
            self._ground_line(i, np.column_stack((xs, ys)))
            self._bodies[i] = self._walker_ids
            self._ref[i] = self._template_ref
            if i == 0:
                self._ground0 = (xs, ys)

    # ------------------------------------------------------------------ step
    def step(self, actions):
        if self.batch is None:
            raise gym.error.ResetNeeded("Cannot call step() before calling reset()")
        a = np.ascontiguousarray(actions, dtype=np.float64)
        if a.shape != (self.num_envs, 4):
            raise ValueError(f"actions: expected shape ({self.num_envs}, 4), got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError("actions: must be finite (no NaN or inf)")
        return self._advance(a, [None] * self.num_envs)

    def _advance(self, a, seeds):
        """One step of every row; the rows that ended last step start a new episode first
        (seeded by ``seeds``) and take its first step, the single environment's reset,
        with the motors off whatever their action."""
        n = self.num_envs
        batch = self.batch
        fresh = self._autoreset.copy()
        rows = np.flatnonzero(fresh)
        if rows.size:
            self._restart(rows, [seeds[i] for i in rows.tolist()])
        strength = np.empty((n, 4))
        obs, reward, terminated, truncated = out = self._outputs()
        starts = np.empty((n, 10, 2))
        ends = np.empty((n, 10, 2))
        slots = batch._body_slots(self._bodies)
        late = batch._step(1.0 / W.FPS, _ke, "walker_step", (
            batch._joint_slots(self._joints), a, fresh, _SPEEDS, float(W.MOTORS_TORQUE),
            np.empty((n, 4)), np.empty((n, 4)), strength, *_EVENT_PAIRS, *self._counts,
            slots, self._ends, self._ref, _OUTCOME, self._limit, self._flags,
            self._prev_shaping, self._steps, self._lidar, starts, ends, *out))
        if late:
            with batch._kernel_views() as views:
                tables, counts, events = batch._event_args(views, _EVENT_TYPES)
                _ke.walker_after(views["bodies"], views["shapes"], *tables, counts, events,
                                 slots, self._ends, self._ref, strength, fresh, _OUTCOME,
                                 self._limit, self._flags, self._prev_shaping, self._steps,
                                 self._lidar, starts, ends, *out,
                                 np.array(late, dtype=np.int64))
        hits = batch.raycast(starts, ends, self._lidar_filter)
        obs[:, 14:] = np.where(hits.hit, hits.fraction, 1.0)
        return obs, reward, terminated, truncated, {}

    # ------------------------------------------------------------------ drawing
    def _frame(self, env) -> None:
        if not self.hardcore:  # env 0's world and ground line are the batch's row 0
            world = self.batch._worlds[0]
            env.world = world
            env.hull, *env.legs = (world.bodies[k] for k in self._drawn)
            env.terrain_poly = W.terrain_polys(list(zip(*self._ground0, strict=True)))
            env.terrain_colors = {}
        env.scroll = env.hull.position[0] - W.VIEWPORT_W / W.SCALE / 5
        if not hasattr(env, "lidar_p1"):
            env.lidar_p1 = env.lidar_p2 = np.zeros((10, 2))
            env.lidar_render = 0
