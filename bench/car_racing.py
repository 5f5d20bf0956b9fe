"""CarRacing-v3: environment steps per second, collide2d's port against Gymnasium's Box2D
original, interleaved in one process (rounds of ``--steps`` random actions each, the two
envs taking turns) so that a loaded machine slows both alike.

Also splits the port's step into its physics (the tyre model and ``world.step``) and the
rest (mostly drawing the 96 x 96 observation, as in the original).

    python bench/car_racing.py [--rounds 5] [--steps 200]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _round(env, actions) -> tuple[float, float]:
    """(wall seconds, CPU seconds) for stepping ``env`` through ``actions``."""
    w, c = time.perf_counter(), time.process_time()
    for a in actions:
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
    return time.perf_counter() - w, time.process_time() - c


def main(argv=None) -> None:
    import gymnasium as gym

    import collide2d.envs  # noqa: F401

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    actions = rng.uniform([-1, 0, 0], [1, 1, 0.2], size=(args.steps, 3))
    ids = ["CarRacing-v3", "collide2d/CarRacing-v3"]
    envs = {}
    for env_id in ids:
        try:
            envs[env_id] = gym.make(env_id).unwrapped
        except gym.error.DependencyNotInstalled:
            print(f"{env_id}: not installed (Box2D), skipped")
            continue
        envs[env_id].reset(seed=0)
        _round(envs[env_id], actions[:20])  # warm up (compiles, fonts)
    times = {k: np.zeros(2) for k in envs}
    for _ in range(args.rounds):
        for env_id, env in envs.items():
            env.reset(seed=0)
            times[env_id] += _round(env, actions)
    n = args.rounds * args.steps
    for env_id, (wall, cpu) in times.items():
        print(f"{env_id:24s} {n / wall:8.0f} steps/s wall  {n / cpu:8.0f} steps/s CPU")
    if len(times) == 2:
        ratio = times[ids[0]] / times[ids[1]]
        print(f"port / original speed: {ratio[0]:.2f} wall, {ratio[1]:.2f} CPU")

    port = envs[ids[1]]
    port.reset(seed=0)
    physics = 0.0
    start = time.process_time()
    for a in actions:
        port._apply_action(a)
        t = time.process_time()
        port.car.step(1 / 50)
        port.world.step(1 / 50)
        physics += time.process_time() - t
        port.state = port._render("state_pixels")
    total = time.process_time() - start
    print(f"port, per step: physics {1e3 * physics / len(actions):.2f} ms CPU, "
          f"drawing the observation {1e3 * (total - physics) / len(actions):.2f} ms CPU")


if __name__ == "__main__":
    main()
