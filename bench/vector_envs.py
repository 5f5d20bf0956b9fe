"""Throughput of the vector LunarLander: collide2d's batched env against Gymnasium's own.

    python bench/vector_envs.py [--seconds S] [--sizes 1,64,1024] [--out bench/vector_envs.md]

Environment steps per second with random actions (auto-reset included), for each number of
environments: collide2d's ``make_vec("collide2d/LunarLander-v3")`` (one compiled call a
step for all worlds) with 1 and 2 Numba threads, and Gymnasium's ``LunarLander-v3`` (Box2D
2.3) through ``vectorization_mode="sync"``, in the same run. Then where a collide2d step's
time goes: the compiled batch step against the NumPy around it, and one lander world's
``World.profile`` stages.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

import gymnasium as gym  # noqa: E402
import numba  # noqa: E402
import numpy as np  # noqa: E402

import collide2d.envs  # noqa: E402,F401


def _rate(envs, seconds: float, seed: int = 0) -> float:
    """Environment steps per second over at least ``seconds`` (and 3 steps)."""
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = envs.num_envs
    steps, t0 = 0, time.perf_counter()
    while steps < 3 or time.perf_counter() - t0 < seconds / 4:  # warm, resets included
        envs.step(rng.integers(0, 4, n))
        steps += 1
    steps, t0 = 0, time.perf_counter()
    while steps < 3 or time.perf_counter() - t0 < seconds:
        envs.step(rng.integers(0, 4, n))
        steps += 1
    return steps * n / (time.perf_counter() - t0)


def _split(n: int, seconds: float) -> tuple[float, float, float]:
    """Seconds per vector step: total, in the compiled batch step, and per world in it."""
    envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=n)
    env = envs.unwrapped
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    batch_time = [0.0]
    step = env.batch.step

    def timed(dt):
        t0 = time.perf_counter()
        step(dt)
        batch_time[0] += time.perf_counter() - t0

    for _ in range(20):
        envs.step(rng.integers(0, 4, n))
    env.batch.step = timed
    steps, t0 = 0, time.perf_counter()
    while steps < 3 or time.perf_counter() - t0 < seconds:
        envs.step(rng.integers(0, 4, n))
        steps += 1
    total = (time.perf_counter() - t0) / steps
    envs.close()
    return total, batch_time[0] / steps, batch_time[0] / steps / n


def _profile_one() -> dict:
    """World.profile of one lander world in flight (engines off, from 30 steps after reset:
    16 substeps of two joints, no contact), mean of 20 consecutive steps after 3 to warm,
    then World.step over the next 20."""
    env = gym.make("collide2d/LunarLander-v3").unwrapped
    env.reset(seed=0)
    for _ in range(30):
        env.step(0)
    world = env.world
    for _ in range(3):
        world.profile(1 / 50)
    sums: dict = {}
    for _ in range(20):
        prof = world.profile(1 / 50)
        for k, v in prof.stages.items():
            sums[k] = sums.get(k, 0.0) + v
        sums["total"] = sums.get("total", 0.0) + prof.total
    t0 = time.perf_counter()
    for _ in range(20):
        world.step(1 / 50)
    sums["step"] = time.perf_counter() - t0
    return {k: v / 20 for k, v in sums.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--sizes", default="1,64,1024")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "vector_envs.md"))
    ap.add_argument("--profile-only", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    threads = [t for t in (1, 2) if t <= numba.config.NUMBA_NUM_THREADS]
    rows = []
    for n in ([] if args.profile_only else sizes):
        row = {"n": n}
        for t in threads:
            numba.set_num_threads(t)
            envs = gym.make_vec("collide2d/LunarLander-v3", num_envs=n)
            row[f"c2d_{t}"] = _rate(envs, args.seconds)
            envs.close()
        numba.set_num_threads(threads[-1])
        try:
            envs = gym.make_vec("LunarLander-v3", num_envs=n, vectorization_mode="sync")
            row["box2d"] = _rate(envs, args.seconds)
            envs.close()
        except Exception as exc:  # the Box2D wheel is optional
            row["box2d"] = float("nan")
            print("Gymnasium's LunarLander unavailable:", exc)
        print(row, flush=True)
        rows.append(row)
    numba.set_num_threads(1)
    split = {} if args.profile_only else {n: _split(n, args.seconds) for n in sizes}
    prof = _profile_one()
    if args.profile_only:
        print(prof)
        return
    lines = [
        "# Vector LunarLander: environment steps per second",
        "",
        "Random actions, auto-reset included; `python bench/vector_envs.py`. collide2d: "
        "`make_vec(\"collide2d/LunarLander-v3\", num_envs=N)` (one compiled call a step for "
        "all N worlds) with 1 and 2 Numba threads; Box2D: Gymnasium's `LunarLander-v3` "
        "(Box2D 2.3 wheel) with `vectorization_mode=\"sync\"`, in the same run.",
        "",
        "| envs | collide2d, 1 thread | collide2d, 2 threads | Gymnasium + Box2D | "
        "best collide2d / Box2D |",
        "|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        best = max(r[f"c2d_{t}"] for t in threads)
        cells = [f"{r.get(f'c2d_{t}', float('nan')):,.0f}" for t in (1, 2)]
        lines.append(f"| {r['n']:,} | {cells[0]} | {cells[1]} | {r['box2d']:,.0f} | "
                     f"{best / r['box2d']:.2f} |")
    lines += ["", "Where a collide2d vector step goes (1 thread):", "",
              "| envs | vector step (ms) | compiled batch step (ms) | per world in it (us) | "
              "NumPy and resets (ms) |", "|---:|---:|---:|---:|---:|"]
    for n, (total, batch, per) in split.items():
        lines.append(f"| {n:,} | {total * 1e3:.2f} | {batch * 1e3:.2f} | {per * 1e6:.0f} | "
                     f"{(total - batch) * 1e3:.2f} |")
    lines += ["", "One lander world in flight by stage (`World.profile`, us, mean of 20 steps; "
              "each stage a call from Python; `step` is `World.step`):", "",
              "| stage | us |", "|---|---:|"]
    for k, v in prof.items():
        lines.append(f"| {k} | {v * 1e6:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
