"""Gymnasium's Box2D environments rebuilt on collide2d.

Importing this package registers them with Gymnasium under the ``collide2d/`` namespace
(``gymnasium.make("collide2d/LunarLander-v3")``), with the originals' episode limits and
reward thresholds. Needs the ``envs`` extra (``pip install "collide2d[envs]"``).
"""

from __future__ import annotations

import gymnasium as gym

_ENVS = {
    "collide2d/LunarLander-v3": dict(
        entry_point="collide2d.envs.lunar_lander:LunarLander", max_episode_steps=1000,
        reward_threshold=200,
        vector_entry_point="collide2d.envs.lunar_lander_vector:LunarLanderVector"),
    "collide2d/BipedalWalker-v3": dict(
        entry_point="collide2d.envs.bipedal_walker:BipedalWalker", max_episode_steps=1600,
        reward_threshold=300,
        vector_entry_point="collide2d.envs.bipedal_walker_vector:BipedalWalkerVector"),
    "collide2d/BipedalWalkerHardcore-v3": dict(
        entry_point="collide2d.envs.bipedal_walker:BipedalWalker", kwargs={"hardcore": True},
        max_episode_steps=2000, reward_threshold=300,
        vector_entry_point="collide2d.envs.bipedal_walker_vector:BipedalWalkerVector"),
    "collide2d/CarRacing-v3": dict(
        entry_point="collide2d.envs.car_racing:CarRacing", max_episode_steps=1000,
        reward_threshold=900),
}


def register_envs() -> None:
    """Register the environments with Gymnasium (idempotent; done on import)."""
    for env_id, spec in _ENVS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, **spec)


register_envs()

__all__ = ["register_envs"]
