"""The bench/scenes.md slide scene on collide2d: 2,000 characters on a 256 x 256 tile map.

Each step moves every character with one ``world.move_and_slide_many`` call (collide-and-slide
against the tiles, up to 4 slides) at the velocity the scene wants for that step. Untimed after
every step: ``scenes.slide_violations``, a brute-force NumPy check that no character overlaps a
solid tile by more than 1e-6 m and none is outside the map.

``run_slide(scene, steps)`` returns the runner's dict (``ms_per_step`` median, ``ms_mean``,
``max_overlap``, ``outside``, ``ok``), so the collide2d adapter can import it. Run directly::

    python bench/collide2d_slide.py [--size 2000] [--steps 600]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Timings are of the compiled kernels: compile here on a cold cache, not in the background.
os.environ.setdefault("COLLIDE2D_BACKGROUND_COMPILE", "0")

from figures import timed_steps, timing  # noqa: E402
from scenes import SlideScene, slide, slide_violations, steps_for  # noqa: E402

import collide2d as c2d  # noqa: E402

DT = 1.0 / 60.0
OVERLAP_TOL = 1e-6


def build(scene: SlideScene):
    """World with the scene's tile map and one kinematic 0.8 m box body per character."""
    world = c2d.World(gravity=(0.0, 0.0))
    world.add_tilemap(scene.solid, tile_size=1.0, origin=(0.0, 0.0))
    ids = np.empty(scene.size, dtype=np.int64)
    side = 2.0 * scene.half_size
    for k, (x, y) in enumerate(scene.starts):
        body = world.add_body(kind="kinematic", position=(x, y))
        body.add_box(side, side)
        ids[k] = body.id
    return world, ids


def run_slide(scene: SlideScene, steps: int) -> dict:
    world, ids = build(scene)
    # Compile (or load from the cache) outside the timed loop.
    t0 = time.perf_counter()
    world.move_and_slide_many(ids, np.zeros((scene.size, 2)), DT, max_slides=scene.max_slides)
    warm_s = time.perf_counter() - t0
    state = {"step": 0, "deepest": 0.0, "outside": 0}

    def step():
        v = scene.wanted_velocity(state["step"])
        world.move_and_slide_many(ids, v, DT, max_slides=scene.max_slides)

    def after(k):
        state["step"] = k
        deepest, outside = slide_violations(scene, world.positions(ids))
        state["deepest"] = max(state["deepest"], deepest)
        state["outside"] = max(state["outside"], outside)

    ms = timed_steps(step, steps, after)
    return timing(ms) | {
        "max_overlap": state["deepest"],
        "outside": state["outside"],
        "ok": state["deepest"] <= OVERLAP_TOL and state["outside"] == 0,
        "first_call_s": warm_s,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=2000)
    ap.add_argument("--steps", type=int, default=steps_for("slide", 2000))
    args = ap.parse_args(argv)
    scene = slide(args.size)
    r = run_slide(scene, args.steps)
    print(f"slide: {args.size} characters, 256 x 256 tiles, {args.steps} steps")
    print(f"  first call (compile or cache load): {r['first_call_s']:.2f} s")
    print(f"  ms/step: median {r['ms_per_step']:.3f}, mean {r['ms_mean']:.3f} "
          f"(frame budget 16.7 ms)")
    print(f"  deepest overlap {r['max_overlap']:.1e} m; outside {r['outside']}; "
          f"{'OK' if r['ok'] else 'FAILED'}")
    return 0 if r["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
