"""Per-call cost of the character mover: ``move_and_slide_many`` for N characters on the slide
scene's 256 x 256 tile map, and one ``move_and_slide``, with a hash of every result (two
builds that print the same hash moved every character to the same bits).

    PYTHONPATH=src python bench/mover_call_cost.py [N]
"""

from __future__ import annotations

import hashlib
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Timings are of the compiled kernels: compile here on a cold cache, not in the background.
os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

from scenes import slide  # noqa: E402

import collide2d as c2d  # noqa: E402

DT = 1.0 / 60.0


def main(n: int = 1000, rounds: int = 5, calls: int = 100) -> None:
    scene = slide(n)
    world = c2d.World(gravity=(0.0, 0.0))
    world.add_tilemap(scene.solid, tile_size=1.0)
    ids = np.array([world.add_body(kind="kinematic", position=xy) for xy in scene.starts])
    for body in ids:
        body.add_box(0.8, 0.8)
    ids = np.array([b.id for b in ids], dtype=np.int64)
    world.move_and_slide_many(ids, np.zeros((n, 2)), DT)   # compile or load
    hero = world.bodies[1]
    world.move_and_slide(hero, (0.0, 0.0), DT)
    digest = hashlib.sha256()
    medians, step = [], 0
    for _ in range(rounds):
        times = []
        for _ in range(calls):
            v = scene.wanted_velocity(step)
            step += 1
            t0 = time.perf_counter()
            result = world.move_and_slide_many(ids, v, DT)
            times.append(time.perf_counter() - t0)
            for arr in result:
                digest.update(np.ascontiguousarray(arr).tobytes())
        medians.append(np.median(times))
    one = []
    for _ in range(2000):
        t0 = time.perf_counter()
        world.move_and_slide(hero, (1.0, 0.5), DT, up=(0, 1))
        one.append(time.perf_counter() - t0)
    digest.update(world.positions().tobytes())
    print(f"{n} characters: move_and_slide_many {min(medians) * 1e6:.0f} us per call (best "
          f"median of {rounds} x {calls}); move_and_slide {np.median(one) * 1e6:.1f} us; "
          f"results {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
