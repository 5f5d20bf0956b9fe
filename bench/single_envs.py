"""One environment, random actions: the collide2d ports against Gymnasium's Box2D originals,
environment steps per CPU second, in one process with the rounds alternating (so that the
machine's load falls on both alike).

    python bench/single_envs.py                  # LunarLander-v3 and BipedalWalker-v3
    python bench/single_envs.py --seconds 2 --rounds 5

Each round runs one environment for ``--seconds`` of CPU time from a seeded reset, with
actions drawn from its seeded action space, auto-resetting; the table gives each side's
median over the rounds and their ratio. Prints a markdown table (docs/envs.md, "Speed").
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import collide2d.envs  # noqa: F401  (registers the ports)

PAIRS = (("LunarLander-v3", "collide2d/LunarLander-v3"),
         ("BipedalWalker-v3", "collide2d/BipedalWalker-v3"))


def rate(env_id: str, seconds: float, seed: int) -> float:
    """Environment steps per CPU second over ``seconds`` of CPU time."""
    env = gym.make(env_id)
    env.reset(seed=seed)
    env.action_space.seed(seed)
    actions = [env.action_space.sample() for _ in range(4096)]
    steps = 0
    start = time.process_time()
    while True:
        for a in actions[:256]:
            _, _, terminated, truncated, _ = env.step(a)
            if terminated or truncated:
                env.reset()
        steps += 256
        actions = actions[256:] + actions[:256]
        used = time.process_time() - start
        if used >= seconds:
            env.close()
            return steps / used


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    print("| environment | Gymnasium original (Box2D 2.3) | collide2d port | port / original |")
    print("|---|---|---|---|")
    for original, port in PAIRS:
        got = {original: [], port: []}
        for r in range(args.rounds):
            for env_id in (original, port):
                got[env_id].append(rate(env_id, args.seconds, r))
        a = float(np.median(got[original]))
        b = float(np.median(got[port]))
        print(f"| {original} | {a:,.0f} | {b:,.0f} | {b / a:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
