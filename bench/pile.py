"""The box pile (``scenes.pile``), collide2d and Box2D v3 side by side.

Columns of 1 m boxes (Box2D v3's large pyramid's boxes: 0.5 m half-extent) dropped with
0.15 m gaps between rows and columns onto a wide ground. Reports, over the run, the most any box's
centre rose above its own starting height (m; the goal is never above 0: no body is thrown higher
than it started), the largest speed (m/s), where the boxes end and the time per step.
Defaults of both engines (4 substeps, contact hertz 30), sleeping off.

Run: ``python bench/pile.py --columns 10 --rows 50 --seconds 10`` (the full scene is
``--columns 100 --rows 200``; it takes hours in pure Python engines, minutes here);
``--set name=value`` changes a collide2d World setting (``--set block_impacts=False``).

Measured here (100 x 200, 20 s; most any box rose above its start): collide2d's defaults
+0.55 m, with ``block_impacts`` off +0.28, at ``contact_hertz`` 30 +0.41, at 30 Hz with
``block_impacts`` off +0.08; ``max_substeps=8`` +0.10 (12 s); Box2D v3 +0.19. On smaller
piles (20 x 100, 30 x 60, 10 x 150, 40 x 50; 4-5 s) ``block_impacts`` off gave +0.06,
+0.07, +0.29, +0.02 against the defaults' +0.41, +0.22, +0.33, 0.00: a landing row's
manifolds are block-solved for the whole landing step, and the stack under it rebounds
more. ``max_substeps=16`` throws the 20 x 100 pile's top rows up at 30 m/s as the
substeps rise: each landing row bounces off the stack at a growing share of its speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from scenes import pile  # noqa: E402

DT = 1.0 / 60.0


def run_c2d(scene, steps: int, sample: int = 1, log: bool = False, **settings) -> dict:
    import collide2d as c2d

    world = c2d.World(gravity=(0.0, -10.0), sleeping=False)
    for name, value in settings.items():
        setattr(world, name, value)
    ground = world.add_body(kind="static")
    for (cx, cy), (hx, hy) in zip(scene.ground.centres, scene.ground.half_extents, strict=True):
        ground.add_box(2 * hx, 2 * hy, offset=(cx, cy), friction=scene.friction)
    for x, y in scene.centres:
        world.add_body(position=(x, y)).add_box(scene.box_size, scene.box_size,
                                                density=scene.density, friction=scene.friction)
    ids = [b.id for b in world.bodies[1:]]

    def state():
        return (np.asarray(world.positions(ids)), np.asarray(world.angles(ids)),
                np.asarray(world.velocities(ids)))

    return _run(lambda: world.step(DT), state, scene, steps, sample, log)


def run_b2d(scene, steps: int, sample: int = 1, log: bool = False) -> dict:
    import pyb2d3 as b2

    world = b2.World(gravity=(0.0, -10.0))
    world.sleeping_enabled = False
    material = b2.surface_material(friction=scene.friction)
    for (cx, cy), (hx, hy) in zip(scene.ground.centres, scene.ground.half_extents, strict=True):
        body = world.create_static_body(position=(float(cx), float(cy)))
        body.create_shape(b2.shape_def(material=material), b2.box(float(hx), float(hy)))
    batch = b2.Bodies()
    half = 0.5 * scene.box_size
    for x, y in scene.centres:
        body = world.create_dynamic_body(position=(float(x), float(y)))
        body.create_shape(b2.shape_def(density=scene.density, material=material),
                          b2.box(half, half))
        batch.append(body.id)

    def state():
        rot = batch.get_rotations().astype(np.float64)  # (cos, sin)
        return (batch.get_positions().astype(np.float64), np.arctan2(rot[:, 1], rot[:, 0]),
                batch.get_linear_velocities().astype(np.float64))

    return _run(lambda: world.step(DT, 4), state, scene, steps, sample, log)


def _run(step, state, scene, steps: int, sample: int, log: bool = False) -> dict:
    half = 0.5 * scene.box_size
    start = scene.centres[:, 1]

    def tops(p, a):
        """Each box's highest vertex: a square's top is its centre plus half
        (|cos| + |sin|) of its size above it."""
        return p[:, 1] + half * (np.abs(np.cos(a)) + np.abs(np.sin(a)))

    def highest(p, a):
        return float(tops(p, a).max())

    max_rise = -np.inf
    max_lift = -np.inf  # the rise less what turning in place gives
    max_speed = 0.0
    seconds = 0.0
    for k in range(steps):
        t0 = time.perf_counter()
        step()
        seconds += time.perf_counter() - t0
        if (k + 1) % sample == 0 or k == steps - 1:
            p, a, v = state()
            max_rise = max(max_rise, float((p[:, 1] - start).max()))
            # A box turned by a on a flat support holds its centre half (|cos a| + |sin a|)
            # up instead of half: that much rise needs no launch.
            turned = half * (np.abs(np.cos(a)) + np.abs(np.sin(a))) - half
            max_lift = max(max_lift, float((p[:, 1] - start - turned).max()))
            speed = np.hypot(v[:, 0], v[:, 1])
            max_speed = max(max_speed, float(speed.max()))
            if log:
                print(f"  t {(k + 1) * DT:6.2f} s: top {highest(p, a):7.2f} m, "
                      f"speed {speed.max():5.1f} m/s", file=sys.stderr, flush=True)
    p, a, v = state()
    return {"max_rise": max_rise, "max_lift": max_lift, "max_speed": max_speed,
            "final_top": highest(p, a),
            "final_speed": float(np.hypot(v[:, 0], v[:, 1]).max()),
            "ms_per_step": 1e3 * seconds / steps}


def _setting(text: str) -> tuple:
    """``name=value`` as (name, value): True / False, an int or a float."""
    name, _, value = text.partition("=")
    if value in ("True", "False"):
        return name, value == "True"
    return name, int(value) if value.lstrip("-").isdigit() else float(value)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--columns", type=int, default=10)
    ap.add_argument("--rows", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--sample", type=int, default=1, help="steps between state samples")
    ap.add_argument("--engines", default="collide2d,box2d")
    ap.add_argument("--log", action="store_true", help="each sample's top and speed")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a collide2d World setting, e.g. --set block_impacts=False "
                         "--set contact_hertz=30 (repeatable)")
    args = ap.parse_args(argv)
    settings = dict(_setting(text) for text in args.set)
    scene = pile(args.columns, args.rows)
    steps = int(round(args.seconds / DT))
    print(f"pile {args.columns} x {args.rows}, top {scene.top:.2f} m, {steps} steps")
    if settings:
        print("collide2d settings: " + ", ".join(f"{k}={v}" for k, v in settings.items()))
    print("| engine | most a box rose above its start (m) | the same less its turn (m) "
          "| max speed (m/s) | final top (m) | final max speed (m/s) | ms / step |")
    print("|---|---|---|---|---|---|---|")
    runs = {"collide2d": lambda *a: run_c2d(*a, **settings), "box2d": run_b2d}
    for name in args.engines.split(","):
        r = runs[name](scene, steps, args.sample, args.log)
        print(f"| {name} | {r['max_rise']:+.2f} | {r['max_lift']:+.2f} | {r['max_speed']:.1f} "
              f"| {r['final_top']:.1f} "
              f"| {r['final_speed']:.2f} | {r['ms_per_step']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
