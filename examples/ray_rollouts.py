"""Rollouts of collide2d's environments spread over a Ray cluster.

K Ray actors each hold one vector environment of M copies (``gymnasium.make_vec`` inside
the actor, by name), step it with random actions drawn from its seeded action space, and
send back the rollout as NumPy arrays; the driver joins them along the environment axis
and reports environment steps per second. Scale-out is Ray's job: each actor is one
process (one core), and whatever ``make_vec`` returns for the id (Gymnasium's synchronous
vector env, or a batched one that steps all M copies in one compiled call) runs unchanged.

Needs the ``ray`` extra (``pip install "collide2d[ray]"``: Ray, Gymnasium, pygame-ce).

Run it on a local cluster of two CPUs::

    python examples/ray_rollouts.py --actors 2 --envs 16 --steps 500

It first runs ``python -m collide2d warmup`` once on each node (:func:`warm_up_nodes`), so
the workers load compiled kernels from the node's on-disk cache instead of each starting
from a cold one. On a real cluster, install collide2d on every node (a cluster launcher's
``setup_commands`` can also run the warm-up there), start Ray (``ray start --head`` on
one node, ``ray start --address=HEAD:6379`` on the others), then pass the address:
``--address auto`` on a node of the cluster, or ``--address ray://HEAD:10001`` from
outside it through Ray Client. Ask for as many actors as the cluster has CPUs.

Seeds: actor ``i`` resets its M copies with seeds ``seed + i * M + j`` (Gymnasium's rule
for a vector env reset with one int) and seeds its action space with ``seed + i * M``, so
every copy in the cluster has its own seed, and ``EnvActor(...).rollout(steps, seed + i*M)``
run in one process without Ray gives the same arrays bit for bit.

Example
-------
>>> import ray                                                      # doctest: +SKIP
>>> ray.init(num_cpus=2)                                            # doctest: +SKIP
>>> r = collect("collide2d/LunarLander-v3", num_actors=2, num_envs=4, steps=50)  # doctest: +SKIP
>>> r.observations.shape, r.actions.shape, r.rewards.shape          # doctest: +SKIP
((51, 8, 8), (50, 8), (50, 8))
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import NamedTuple

import numpy as np


class Rollouts(NamedTuple):
    """Rollouts of ``n`` environment copies over ``steps`` steps.

    ``observations[0]`` is what the reset returned, ``observations[t + 1]`` what step ``t``
    returned; Gymnasium's vector envs reset a finished copy by themselves (a copy that
    ended at step t is reset at step t + 1, which then returns reward 0).
    """

    observations: np.ndarray  # (steps + 1, n, *obs_shape)
    actions: np.ndarray       # (steps, n, *action_shape)
    rewards: np.ndarray       # (steps, n) float64
    terminations: np.ndarray  # (steps, n) bool
    truncations: np.ndarray   # (steps, n) bool
    seconds: float            # wall-clock time of the stepping (not of starting actors)
    cpu_seconds: float        # CPU time the stepping took, summed over the actors

    @property
    def steps_per_second(self) -> float:
        """Environment steps (one copy, one step) per wall-clock second."""
        n_steps = self.rewards.size
        return n_steps / self.seconds if self.seconds > 0 else float("inf")

    @property
    def steps_per_cpu_second(self) -> float:
        """Environment steps per CPU second: what one core does, however loaded the
        machine is (on a busy machine the wall clock also counts other programs' turns)."""
        n_steps = self.rewards.size
        return n_steps / self.cpu_seconds if self.cpu_seconds > 0 else float("inf")


class EnvActor:
    """One vector environment of ``num_envs`` copies, made by name in this process.

    Used as a Ray actor (``ray.remote(EnvActor)``) or as a plain object: both give the
    same rollouts for the same seed.
    """

    def __init__(self, env_id: str, num_envs: int, env_kwargs: dict | None = None,
                 threads: int | None = None):
        import gymnasium as gym

        import collide2d.envs  # noqa: F401  registers the collide2d/ ids in this process

        if threads is not None:
            # A batched vector env spreads its worlds over Numba's threads, which default
            # to every core of the node: as many as the actor reserved, so actors sharing
            # a node do not oversubscribe it.
            try:
                import numba
            except ImportError:  # the pure-Python kernels: one thread anyway
                pass
            else:
                numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))

        self.env = gym.make_vec(env_id, num_envs=num_envs, **(env_kwargs or {}))

    def ready(self) -> bool:
        """True once the environment is built (lets the driver time the stepping alone)."""
        return True

    def rollout(self, steps: int, seed: int) -> Rollouts:
        """Reset with ``seed``, then take ``steps`` random actions from the action space
        seeded with ``seed``."""
        env = self.env
        obs, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        n = env.num_envs
        first = env.action_space.sample()
        observations = np.empty((steps + 1, *obs.shape), obs.dtype)
        actions = np.empty((steps, *np.shape(first)), np.asarray(first).dtype)
        rewards = np.empty((steps, n))
        terminations = np.empty((steps, n), bool)
        truncations = np.empty((steps, n), bool)
        observations[0] = obs
        start, cpu_start = time.perf_counter(), time.process_time()
        action = first
        for t in range(steps):
            actions[t] = action
            obs, rewards[t], terminations[t], truncations[t], _ = env.step(action)
            observations[t + 1] = obs
            action = env.action_space.sample()
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start
        return Rollouts(observations, actions, rewards, terminations, truncations, seconds,
                        cpu_seconds)

    def close(self) -> None:
        self.env.close()


def warm_up_nodes() -> int:
    """Run ``python -m collide2d warmup`` once on every node of the cluster, and wait.

    A worker that finds Numba's on-disk cache cold runs the kernels as Python and starts
    one background compile per node (a lock file keeps it to one), but Ray ends that
    compile with the worker that started it: short-lived actors on a cold node would keep
    restarting it. On a warm cache this takes a few seconds per node. Returns the number
    of nodes.
    """
    import subprocess

    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    @ray.remote(num_cpus=1)
    def warm_up() -> None:
        subprocess.run([sys.executable, "-m", "collide2d", "warmup"], check=True,
                       stdout=subprocess.DEVNULL)

    nodes = [n["NodeID"] for n in ray.nodes() if n["Alive"]]
    ray.get([warm_up.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
        node_id=node, soft=False)).remote() for node in nodes])
    return len(nodes)


def actor_seed(seed: int, actor: int, num_envs: int) -> int:
    """The seed actor ``actor`` resets with: its copies take ``seed + actor * num_envs``
    onwards, so no two copies in the cluster share one."""
    return seed + actor * num_envs


def collect(env_id: str = "collide2d/LunarLander-v3", num_actors: int = 2,
            num_envs: int = 8, steps: int = 200, seed: int = 0,
            env_kwargs: dict | None = None, cpus_per_actor: float = 1.0) -> Rollouts:
    """Roll out ``num_actors`` Ray actors of ``num_envs`` copies each for ``steps`` steps.

    Ray must be initialised (``ray.init(...)``). Returns the rollouts joined along the
    environment axis (actor ``i``'s copies are columns ``i * num_envs`` to
    ``(i + 1) * num_envs - 1``); ``seconds`` is the wall-clock time from sending the
    rollout calls to receiving every array, after the actors have built their envs.
    """
    import ray

    if num_actors < 1 or num_envs < 1 or steps < 1:
        raise ValueError(f"num_actors, num_envs, steps: expected >= 1, got {num_actors}, "
                         f"{num_envs}, {steps}")
    if __name__ != "__main__":
        # Imported (by a notebook, a test) from a folder the workers cannot import: send
        # this module's classes by value, as Ray does for a script's own.
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    remote = ray.remote(num_cpus=cpus_per_actor)(EnvActor)
    threads = max(1, int(cpus_per_actor))
    actors = [remote.remote(env_id, num_envs, env_kwargs, threads) for _ in range(num_actors)]
    try:
        ray.get([a.ready.remote() for a in actors])
        start = time.perf_counter()
        parts = ray.get([a.rollout.remote(steps, actor_seed(seed, i, num_envs))
                         for i, a in enumerate(actors)])
        seconds = time.perf_counter() - start
    finally:
        for a in actors:
            ray.kill(a)
    joined = [np.concatenate(arrays, axis=1) for arrays in zip(*(p[:5] for p in parts),
                                                               strict=True)]
    return Rollouts(*joined, seconds, sum(p.cpu_seconds for p in parts))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="collide2d/LunarLander-v3")
    parser.add_argument("--actors", type=int, default=2, help="Ray actors (K)")
    parser.add_argument("--envs", type=int, default=16, help="copies per actor (M)")
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--address", default=None,
                        help="a running cluster ('auto', 'ray://HEAD:10001'); default: "
                        "start a local one with --cpus CPUs")
    parser.add_argument("--cpus", type=int, default=2)
    args = parser.parse_args(argv)

    import ray

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.cpus)
    try:
        start = time.perf_counter()
        nodes = warm_up_nodes()
        print(f"kernels warm on {nodes} node(s) in {time.perf_counter() - start:.1f} s")
        r = collect(args.env, args.actors, args.envs, args.steps, args.seed)
    finally:
        ray.shutdown()
    episodes = int(r.terminations.sum() + r.truncations.sum())
    print(f"{args.env}: {args.actors} actors x {args.envs} copies x {args.steps} steps = "
          f"{r.rewards.size} env steps in {r.seconds:.2f} s: "
          f"{r.steps_per_second:,.0f} env steps/s ({r.steps_per_cpu_second:,.0f} per CPU "
          f"second); {episodes} episodes ended; "
          f"observations {r.observations.shape} {r.observations.dtype}")


if __name__ == "__main__":
    main()
