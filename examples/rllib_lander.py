"""PPO from RLlib on collide2d's LunarLander, its env runners building the environment by id.

RLlib's env runners are Ray actors that call ``gymnasium.make_vec(id, ...)`` in their own
process. The ``collide2d.envs:`` module prefix on the id makes Gymnasium import
``collide2d.envs`` there (which registers the ``collide2d/`` ids) before it looks the id
up; nothing else about the environment is special to RLlib.

Needs the ``rllib`` extra (``pip install "collide2d[rllib]"``: Ray's RLlib and PyTorch).
Run a few training iterations on a local cluster of two CPUs::

    python examples/rllib_lander.py --iterations 5

(``--address auto`` on a node of a running cluster instead.) Solving the lander takes
hundreds of iterations; this shows the wiring and prints the mean episode return as it
goes.
"""

from __future__ import annotations

import argparse
import time

ENV_ID = "collide2d.envs:collide2d/LunarLander-v3"


def build(num_env_runners: int = 1, envs_per_runner: int = 4, seed: int = 0):
    """A PPO algorithm sampling ``num_env_runners`` x ``envs_per_runner`` landers."""
    from ray.rllib.algorithms.ppo import PPOConfig

    config = (PPOConfig()
              .environment(ENV_ID)
              .env_runners(num_env_runners=num_env_runners,
                           num_envs_per_env_runner=envs_per_runner)
              .training(train_batch_size=2000, minibatch_size=250, num_epochs=4, lr=3e-4)
              .debugging(seed=seed))
    return config.build_algo()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--runners", type=int, default=1, help="env runner actors")
    parser.add_argument("--envs", type=int, default=4, help="landers per env runner")
    parser.add_argument("--address", default=None, help="a running cluster ('auto')")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of a local cluster")
    args = parser.parse_args(argv)

    import ray

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.cpus)
    algo = build(args.runners, args.envs)
    try:
        for i in range(args.iterations):
            start = time.perf_counter()
            result = algo.train()
            runners = result["env_runners"]
            print(f"iteration {i + 1}: {runners['num_env_steps_sampled']} env steps in "
                  f"{time.perf_counter() - start:.1f} s, mean episode return "
                  f"{runners.get('episode_return_mean', float('nan')):.1f}")
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
