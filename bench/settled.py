"""Settled scenes with sleeping on: time per step once every body sleeps, collide2d and
Box2D v3 side by side (pyramid B = 100 and rain 2000 by default).

Each engine steps its scene (sleeping on, defaults) until every body sleeps (at most
``--seconds`` of simulated time), then times ``--steps`` more steps; a scene that never
fell asleep is timed as it is and marked. Then a ball is dropped far from the pile (300 m
away, 50 m up) and the steps are timed again: a sleeping pile with one body awake, what a
game level with a player in it costs. ``--profile`` adds collide2d's ``world.profile`` of
a settled step, stage by stage (each stage then pays a call from Python).
Run: ``python bench/settled.py [pyramid100 rain2000] [--steps 200]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from sleep_times import DT, build_b2d, build_c2d  # noqa: E402


def settle_c2d(name: str, seconds: float):
    world = build_c2d(name)
    ids = [b.id for b in world.bodies[1:]]
    for k in range(int(round(seconds / DT))):
        world.step(DT)
        if not np.any(world.awake(ids)):
            return world, (k + 1) * DT
    return world, None


def settle_b2d(name: str, seconds: float):
    world, bodies = build_b2d(name)
    for k in range(int(round(seconds / DT))):
        world.step(DT, 4)
        if k % 10 == 9 and not any(b.awake for b in bodies):
            return world, (k + 1) * DT
    return world, None


def drop_ball_c2d(world) -> None:
    world.add_body(position=(300.0, 50.0)).add_circle(0.5)


def drop_ball_b2d(world) -> None:
    import pyb2d3 as b2

    body = world.create_dynamic_body(position=(300.0, 50.0))
    body.create_shape(b2.shape_def(density=1.0), b2.circle(radius=0.5))


#: Steps taken, untimed, once every body sleeps and before the settled steps are timed:
#: the first of them still does the work of the pile falling asleep (in collide2d a whole
#: step that files the sleeping contacts away, then one that keeps the tables), which is
#: the sleep time's cost, not a settled step's.
AFTER_SLEEP = 10
#: Runs of the settled steps, the best taken (both engines alike).
SETTLED_RUNS = 7


def per_step_us(step, steps: int, untimed: int = 0, repeats: int = 1) -> float:
    """Microseconds per step: the best of ``repeats`` runs of ``steps`` (after ``untimed``
    steps). A settled step is under a microsecond: one run of 200 is a fifth of a
    millisecond, which one interruption of the process doubles."""
    for _ in range(untimed):
        step()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        best = min(best, (time.perf_counter() - t0) / steps)
    return 1e6 * best


def awake_one(world, drop, step, steps: int) -> float:
    """Per-step time with a ball falling far from the settled scene (after a few steps: a
    new body's first steps set it up). The ball falls 50 m: it stays in the air for the
    timed steps (3 s at most)."""
    drop(world)
    for _ in range(3):
        step()
    return per_step_us(step, min(steps, 170))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenes", nargs="*", default=["pyramid100", "rain2000"])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--engines", default="collide2d,box2d")
    args = ap.parse_args(argv)
    engines = args.engines.split(",")
    print("# Settled scenes, sleeping on\n\n`python bench/settled.py`: each engine steps its "
          f"scene until every body sleeps, then (after {AFTER_SLEEP} steps) times more steps "
          f"(us per step, the best of {SETTLED_RUNS} runs); then again "
          "with a ball falling 300 m away, awake (a sleeping level with a player in it).\n")
    print("| scene | engine | asleep at (s) | settled step (us) | one body awake elsewhere (us) |")
    print("|---|---|---|---|---|")
    for name in args.scenes:
        if "collide2d" in engines:
            world, at = settle_c2d(name, args.seconds)
            us = per_step_us(lambda w=world: w.step(DT), args.steps, AFTER_SLEEP, SETTLED_RUNS)
            one = awake_one(world, drop_ball_c2d, lambda w=world: w.step(DT), args.steps)
            print(f"| {name} | collide2d | {at if at is None else f'{at:.2f}'} | {us:.2f} "
                  f"| {one:.1f} |", flush=True)
            if args.profile:
                stages = {}
                for _ in range(20):
                    for stage, s in world.profile(DT).stages.items():
                        stages[stage] = stages.get(stage, 0.0) + s / 20
                print("    profile (us): " + ", ".join(
                    f"{k} {1e6 * v:.0f}" for k, v in stages.items() if v > 0.0))
        if "box2d" in engines:
            world, at = settle_b2d(name, args.seconds)
            us = per_step_us(lambda w=world: w.step(DT, 4), args.steps, AFTER_SLEEP, SETTLED_RUNS)
            one = awake_one(world, drop_ball_b2d, lambda w=world: w.step(DT, 4), args.steps)
            print(f"| {name} | Box2D v3 | {at if at is None else f'{at:.2f}'} | {us:.2f} "
                  f"| {one:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
