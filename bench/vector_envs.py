"""Throughput of the vector LunarLander and BipedalWalker: collide2d's batched envs against
Gymnasium's own.

    python bench/vector_envs.py [--seconds S] [--rounds R] [--sizes 1,64,1024]
                                [--envs lander,walker] [--out bench/vector_envs.md]

Environment steps per second with random actions (auto-reset included), for each number of
environments: collide2d's ``make_vec("collide2d/LunarLander-v3")`` and
``make_vec("collide2d/BipedalWalker-v3")`` (one compiled call a step for all worlds, and for
the walker one compiled ray cast of every lidar) with 1 and 2 Numba threads, and
Gymnasium's ``LunarLander-v3`` / ``BipedalWalker-v3`` (Box2D 2.3) through
``vectorization_mode="sync"``, in the same run, taking turns: each gets ``S`` seconds (3)
in ``R`` rounds (6), and its figure is the median round's. Then where a collide2d step's
time goes: the compiled batch step (and the walker's batch ray cast) against the resets and
the NumPy around them, and one lander world's ``World.profile`` stages.
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
from collide2d.envs import lunar_lander as L  # noqa: E402


def _lander_actions(rng, n):
    return rng.integers(0, 4, n)


def _walker_actions(rng, n):
    return rng.uniform(-1.0, 1.0, (n, 4)).astype(np.float32)


#: name: (collide2d id, Gymnasium's id, random actions of (rng, n), title)
ENVS = {
    "lander": ("collide2d/LunarLander-v3", "LunarLander-v3", _lander_actions,
               "LunarLander"),
    "walker": ("collide2d/BipedalWalker-v3", "BipedalWalker-v3", _walker_actions,
               "BipedalWalker"),
}


def _rate(envs, actions, seconds: float, rng) -> float:
    """Environment steps per second over at least ``seconds`` (and 3 steps)."""
    n = envs.num_envs
    steps, t0 = 0, time.perf_counter()
    while steps < 3 or time.perf_counter() - t0 < seconds:
        envs.step(actions(rng, n))
        steps += 1
    return steps * n / (time.perf_counter() - t0)


def _rates(configs: dict, actions, seconds: float, rounds: int, seed: int = 0) -> dict:
    """Median environment steps per second of each of ``configs`` (name: (envs, Numba
    threads or None)), each stepped ``seconds`` in all over ``rounds`` rounds, the configs
    taking turns within each round: a machine whose speed drifts (other tenants on its
    cores and caches) moves every config alike, which one run after the other would not."""
    rngs = {}
    for name, (envs, threads) in configs.items():
        if threads is not None:
            numba.set_num_threads(threads)
        envs.reset(seed=seed)
        rngs[name] = np.random.default_rng(seed)
        _rate(envs, actions, seconds / 8, rngs[name])  # warm, resets included
    got: dict = {name: [] for name in configs}
    for _ in range(rounds):
        for name, (envs, threads) in configs.items():
            if threads is not None:
                numba.set_num_threads(threads)
            got[name].append(_rate(envs, actions, seconds / rounds, rngs[name]))
    return {name: float(np.median(v)) for name, v in got.items()}


def _timed(obj, name, into, key):
    """Wrap ``obj.name`` so that its time adds up in ``into[key]``."""
    fn = getattr(obj, name)

    def call(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            into[key] += time.perf_counter() - t0

    setattr(obj, name, call)


def _split(env_id, actions, n: int, seconds: float) -> dict:
    """Seconds per vector step: total, in the compiled batch step, in the batch ray cast,
    in resets (the episodes' draws and each row's world reset in place, or built in
    hardcore mode; their first step is in the batch step), and the batch step per world."""
    envs = gym.make_vec(env_id, num_envs=n)
    env = envs.unwrapped
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        envs.step(actions(rng, n))
    took = {"batch": 0.0, "raycast": 0.0, "resets": 0.0}
    # (WorldBatch._step: each environment's one call, which fires the lander's engines or
    # sets the walker's motors and reads the results in the same pass.)
    _timed(env.batch, "_step", took, "batch")
    _timed(env.batch, "raycast", took, "raycast")
    _timed(env, "_restart", took, "resets")
    steps, t0 = 0, time.perf_counter()
    while steps < 3 or time.perf_counter() - t0 < seconds:
        envs.step(actions(rng, n))
        steps += 1
    total = (time.perf_counter() - t0) / steps
    envs.close()
    out = {k: v / steps for k, v in took.items()}
    out["total"] = total
    out["per_world"] = out["batch"] / n
    return out


def _profile_one() -> dict:
    """World.profile of one lander world in flight (engines off, from 30 steps after reset:
    the lander's substeps of two joints, no contact), mean of 20 consecutive steps after 3
    to warm, then World.step over the next 20."""
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


def _table(name, rows, split, threads) -> list:
    c2d_id, box2d_id, _, title = ENVS[name]
    lines = [
        f"## {title}: environment steps per second",
        "",
        f"Random actions, auto-reset included. collide2d: `make_vec(\"{c2d_id}\", "
        "num_envs=N)` with 1 and 2 Numba threads; Box2D: Gymnasium's "
        f"`{box2d_id}` (Box2D 2.3 wheel) with `vectorization_mode=\"sync\"`, in the same run: "
        "the three take turns in rounds, each column the median round.",
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
    lines += ["", f"Where a collide2d {title} vector step goes (1 thread, ms; the "
              "compiled batch step is the one call of `WorldBatch._step`, with each world's "
              "engines or motors and results):", "",
              "| envs | vector step | compiled batch step | per world in it (us) | "
              "batch ray cast | resets | the rest (NumPy) |",
              "|---:|---:|---:|---:|---:|---:|---:|"]
    for n, t in split.items():
        rest = t["total"] - t["batch"] - t["raycast"] - t["resets"]
        lines.append(f"| {n:,} | {t['total'] * 1e3:.2f} | {t['batch'] * 1e3:.2f} | "
                     f"{t['per_world'] * 1e6:.0f} | {t['raycast'] * 1e3:.2f} | "
                     f"{t['resets'] * 1e3:.2f} | {rest * 1e3:.2f} |")
    return lines + [""]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--sizes", default="1,64,1024")
    ap.add_argument("--envs", default="lander,walker")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "vector_envs.md"))
    ap.add_argument("--profile-only", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    names = args.envs.split(",")
    threads = [t for t in (1, 2) if t <= numba.config.NUMBA_NUM_THREADS]
    lines = ["# Vector environments: environment steps per second", "",
             "`python bench/vector_envs.py`; each table's columns come from one run.", ""]
    for name in ([] if args.profile_only else names):
        c2d_id, box2d_id, actions, _ = ENVS[name]
        rows = []
        for n in sizes:
            ours = gym.make_vec(c2d_id, num_envs=n)
            configs = {f"c2d_{t}": (ours, t) for t in threads}
            try:
                configs["box2d"] = (gym.make_vec(box2d_id, num_envs=n,
                                                 vectorization_mode="sync"), None)
            except Exception as exc:  # the Box2D wheel is optional
                print(f"Gymnasium's {box2d_id} unavailable:", exc)
            row = {"n": n, "box2d": float("nan")}
            row.update(_rates(configs, actions, args.seconds, args.rounds))
            for envs, _ in configs.values():
                envs.close()
            numba.set_num_threads(threads[-1])
            print(name, row, flush=True)
            rows.append(row)
        numba.set_num_threads(1)
        split = {n: _split(c2d_id, actions, n, args.seconds) for n in sizes}
        print(name, split, flush=True)
        lines += _table(name, rows, split, threads)
    numba.set_num_threads(1)
    prof = _profile_one()
    if args.profile_only:
        print(prof)
        return
    lines += ["One lander world in flight by stage (`World.profile`, us, mean of 20 steps; "
              "each stage one compiled call from Python, about 1.3 us of it the call; the "
              f"substep stages are called {L.SUBSTEPS} times a step; `step` is "
              "`World.step`):", "",
              "| stage | us |", "|---|---:|"]
    for k, v in prof.items():
        lines.append(f"| {k} | {v * 1e6:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
