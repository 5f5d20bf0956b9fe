"""Per-stage profile of the joint scenes: median wall seconds of each stage over a run of
``world.profile`` steps, and CPU time per ``world.step``.

    python bench/joint_profile.py                 # joint grids 20 and 50, ragdolls 50 and 200
    python bench/joint_profile.py grid:100 ragdolls:100

Each profiled stage is called from Python, which costs a fixed few tens of microseconds a
call (the ``sensors`` stage of a world without sensors shows it); substep stages are summed
over the substeps, so theirs is paid once per substep. Read the medians against that.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

import collide2d_engine as engine  # noqa: E402
import scenes  # noqa: E402

DT = 1.0 / 60.0


def build(name: str, n: int):
    """The bench's joint grid or ragdoll pile of size n, as the benchmark builds it."""
    if name == "grid":
        return engine.build_joint_grid(scenes.joint_grid(n))
    return engine.build_ragdolls(scenes.ragdolls(n))


def profile(name: str, n: int, warm: int = 60, steps: int = 60) -> tuple[float, dict]:
    """(CPU ms per world.step, {stage: median wall ms}) after ``warm`` steps."""
    world = build(name, n)
    for _ in range(warm):
        world.step(DT)
    world.profile(DT)  # the stages compile one by one on their first call from Python
    stages: dict[str, list[float]] = {}
    for _ in range(steps):
        for stage, seconds in world.profile(DT).stages.items():
            stages.setdefault(stage, []).append(seconds)
    t0 = time.process_time()
    for _ in range(steps):
        world.step(DT)
    cpu = (time.process_time() - t0) / steps
    return 1e3 * cpu, {k: 1e3 * float(np.median(v)) for k, v in stages.items()}


def main(specs: list[str]) -> None:
    for spec in specs or ["grid:20", "grid:50", "ragdolls:50", "ragdolls:200"]:
        name, n = spec.split(":")
        cpu, stages = profile(name, int(n))
        print(f"{spec}: world.step {cpu:.3f} ms CPU; stages (median ms, wall):")
        print("  " + "  ".join(f"{k} {v:.3f}" for k, v in stages.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
