"""BipedalWalker-v3 (and its hardcore mode) as a vector environment: N walkers stepped in
one compiled call.

``gymnasium.make_vec("collide2d/BipedalWalker-v3", num_envs=N)`` (or
``"collide2d/BipedalWalkerHardcore-v3"``) builds this; ``vectorization_mode="sync"`` gives
Gymnasium's loop over single environments. Every row equals the single environment's step
for step, bit for bit, for the same seed and actions: each episode's world (terrain,
walker, the first step) is built by the single environment's own ``reset``, then the
worlds are stepped together by a :class:`~collide2d.WorldBatch`: the four motors of every
walker set in one call (``WorldBatch.set_motors``), one compiled step, the ten lidar rays
of every walker in one compiled batch ray cast (``WorldBatch.raycast``, which keeps each
world's tree over the static ground between steps), and the joint angles, foot contacts,
rewards and terminations worked out in NumPy over all rows at once.

Auto-reset is Gymnasium 1.x's ``NEXT_STEP`` mode: the step after a row ends returns that
row's reset observation with reward 0 and ``terminated = truncated = False``, and its
action is ignored. Rendering (``render_mode="rgb_array"``) draws environment 0.

Throughput with random actions: 1.64 times Gymnasium's Box2D walker vectorised
synchronously at 1,024 environments, 3.2 times at 64 with two threads
(``bench/vector_envs.md``). The compiled batch step takes about 40 us per world, the batch
ray cast 7 us, the NumPy here about 9 us; each reset (the single environment's, terrain
built in Python) about 4 ms.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from ..queries import QueryFilter
from . import bipedal_walker as W
from ._vector import BatchedEnv

#: Episode limits as registered (``max_episode_steps`` of the two ids).
LIMIT, LIMIT_HARDCORE = 1600, 2000

#: ``max_episode_steps``' default: the registered limit of the mode.
REGISTERED = "registered"

_SPEEDS = np.array([W.SPEED_HIP, W.SPEED_KNEE, W.SPEED_HIP, W.SPEED_KNEE], np.float64)

#: Contact events read after each step: hull on ground, lower leg 1, lower leg 2.
_EVENT_TYPES = np.array([(W.HULL, W.GROUND), (W.FOOT_0, W.GROUND), (W.FOOT_1, W.GROUND)])


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
        # One single environment per row builds its episodes.
        self._setup(num_envs, render_mode, max_episode_steps,
                    lambda: W.BipedalWalker(None, hardcore))
        n = self.num_envs
        # Per row, ids of the hull and each leg's two segments (hardcore terrain has a
        # number of bodies of its own before them, so they differ from row to row).
        self._bodies = np.zeros((n, 5), np.int64)
        self._joints = None  # indices of the four joints in world.joints
        self._ends = None  # per joint, the columns of its bodies a and b in _bodies
        self._ref = np.zeros((n, 4))  # the joints' reference angles
        angles = self._envs[0]._lidar_angles
        self._lidar = np.stack((np.sin(angles) * W.LIDAR_RANGE,
                                -np.cos(angles) * W.LIDAR_RANGE), axis=1)
        self._lidar_filter = QueryFilter(mask=W.GROUND_BITS)

    # ------------------------------------------------------------------ episodes
    def _start(self, i: int, seed) -> np.ndarray:
        """A new episode in row i by the single environment's reset; its observation."""
        env = self._envs[i]
        obs, _ = env.reset(seed=seed)
        self._begin(i, env)
        self._bodies[i] = [b.id for b in (env.hull, *env.legs)]
        store = env.world._joints.store
        self._ref[i] = store.ref_angle[[j._slot for j in env.joints]]
        return obs

    def _made_batch(self) -> None:
        first = self._envs[0]
        bodies = [first.hull, *first.legs]
        column = {b.id: k for k, b in enumerate(bodies)}
        handles = first.world.joints
        self._joints = np.array([handles.index(j) for j in first.joints])
        self._ends = np.array([(column[j.body_a.id], column[j.body_b.id])
                               for j in first.joints])

    # ------------------------------------------------------------------ step
    def step(self, actions):
        if self.batch is None:
            raise gym.error.ResetNeeded("Cannot call step() before calling reset()")
        n = self.num_envs
        batch = self.batch
        a = np.asarray(actions, dtype=np.float64)
        if a.shape != (n, 4):
            raise ValueError(f"actions: expected shape ({n}, 4), got {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError("actions: must be finite (no NaN or inf)")
        strength = np.clip(np.abs(a), 0, 1)
        # A row about to be reset is stepped too (its world is replaced after).
        batch.set_motors(self._joints, _SPEEDS * np.sign(a), W.MOTORS_TORQUE * strength)

        batch.step(1.0 / W.FPS)

        state = batch.body_states(self._bodies)
        pos = state.position[:, 0]
        vel = state.velocity[:, 0]
        self._touches(batch.contact_events(_EVENT_TYPES))
        hits = batch.raycast(np.broadcast_to(pos[:, None, :], (n, 10, 2)),
                             pos[:, None, :] + self._lidar, self._lidar_filter)
        fraction = np.where(hits.hit, hits.fraction, 1.0)

        ja, jb = self._ends[:, 0], self._ends[:, 1]
        angle = state.angle[:, jb] - state.angle[:, ja] - self._ref
        speed = state.angular_velocity[:, jb] - state.angular_velocity[:, ja]
        s = np.empty((n, 24))
        hull_angle = state.angle[:, 0]
        s[:, 0] = hull_angle
        s[:, 1] = 2.0 * state.angular_velocity[:, 0] / W.FPS
        s[:, 2] = 0.3 * vel[:, 0] * (W.VIEWPORT_W / W.SCALE) / W.FPS
        s[:, 3] = 0.3 * vel[:, 1] * (W.VIEWPORT_H / W.SCALE) / W.FPS
        for leg in (0, 1):
            c = 4 + 5 * leg
            s[:, c] = angle[:, 2 * leg]
            s[:, c + 1] = speed[:, 2 * leg] / W.SPEED_HIP
            s[:, c + 2] = angle[:, 2 * leg + 1] + 1.0
            s[:, c + 3] = speed[:, 2 * leg + 1] / W.SPEED_KNEE
            s[:, c + 4] = np.where(self._ground[:, leg], 1.0, 0.0)
        s[:, 14:] = fraction

        shaping = 130 * pos[:, 0] / W.SCALE
        shaping -= 5.0 * np.abs(hull_angle)
        reward = shaping - self._prev_shaping
        self._prev_shaping = shaping
        for k in range(4):  # one term at a time, in the single environment's order
            reward -= 0.00035 * W.MOTORS_TORQUE * strength[:, k]
        fell = self._game_over | (pos[:, 0] < 0)
        reward = np.where(fell, -100.0, reward)
        terminated = fell | (pos[:, 0] > (W.TERRAIN_LENGTH - W.TERRAIN_GRASS)
                             * W.TERRAIN_STEP)
        return self._finish(s.astype(np.float32), reward, terminated)

    # ------------------------------------------------------------------ drawing
    def _frame(self, env) -> None:
        env.scroll = env.hull.position[0] - W.VIEWPORT_W / W.SCALE / 5
