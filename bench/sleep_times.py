"""Simulated time until every body sleeps, collide2d and Box2D v3 side by side.

Settling scenes: pyramids (B = 20, 40), rain of 500 polygons, a column of 10 unit boxes.
Both engines at their defaults with sleeping on (Box2D v3: 4 substeps, contact hertz 30,
sleep threshold 0.05 m/s, time to sleep 0.5 s). A scene that has not slept after
``--seconds`` reports ``-``. Run: ``python bench/sleep_times.py [--seconds 20]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from scenes import pyramid, rain  # noqa: E402

DT = 1.0 / 60.0


def column_centres(n: int = 10) -> np.ndarray:
    """A column of unit boxes resting on the ground (top of the ground at y = 0)."""
    return np.array([(0.0, 0.5 + k) for k in range(n)])


def _ground_c2d(ground, friction):
    import collide2d as c2d

    world = c2d.World(gravity=(0.0, -10.0))
    g = world.add_body(kind="static")
    for (cx, cy), (hx, hy) in zip(ground.centres, ground.half_extents, strict=True):
        g.add_box(2 * hx, 2 * hy, offset=(cx, cy), friction=friction)
    return world


def build_c2d(name: str):
    if name.startswith("rain"):
        sc = rain(int(name[4:]))
        world = _ground_c2d(sc.container, sc.friction)
        for k in range(sc.size):
            b = world.add_body(position=sc.positions[k], angle=sc.angles[k])
            b.add_polygon(sc.polygon(k), density=sc.density, friction=sc.friction)
        return world
    sc = pyramid(int(name[7:]) if name.startswith("pyramid") else 20)
    centres = sc.centres if name.startswith("pyramid") else column_centres()
    world = _ground_c2d(sc.ground, sc.friction)
    for x, y in centres:
        world.add_body(position=(x, y)).add_box(1.0, 1.0, density=1.0, friction=sc.friction)
    return world


def build_b2d(name: str):
    import pyb2d3 as b2

    world = b2.World(gravity=(0.0, -10.0))
    world.sleeping_enabled = True

    def shape_def(friction):
        return b2.shape_def(density=1.0, material=b2.surface_material(friction=friction))

    def statics(boxes, friction):
        for (cx, cy), (hx, hy) in zip(boxes.centres, boxes.half_extents, strict=True):
            body = world.create_static_body(position=(float(cx), float(cy)))
            body.create_shape(shape_def(friction), b2.box(float(hx), float(hy)))

    bodies = []
    if name.startswith("rain"):
        sc = rain(int(name[4:]))
        statics(sc.container, sc.friction)
        for k in range(sc.size):
            x, y = sc.positions[k]
            body = world.create_dynamic_body(position=(float(x), float(y)),
                                             rotation=b2.Rot(float(sc.angles[k])))
            pts = np.ascontiguousarray(sc.polygon(k), dtype=np.float32)
            body.create_shape(shape_def(sc.friction), b2.polygon(points=pts))
            bodies.append(body)
        return world, bodies
    sc = pyramid(int(name[7:]) if name.startswith("pyramid") else 20)
    centres = sc.centres if name.startswith("pyramid") else column_centres()
    statics(sc.ground, sc.friction)
    for x, y in centres:
        body = world.create_dynamic_body(position=(float(x), float(y)))
        body.create_shape(shape_def(sc.friction), b2.box(0.5, 0.5))
        bodies.append(body)
    return world, bodies


def time_to_sleep_c2d(name: str, seconds: float):
    """(simulated time until every body sleeps or None, re-wakes, world): re-wakes counts
    bodies woken again after they fell asleep (sleep chatter: nothing touches them from
    outside in these scenes)."""
    world = build_c2d(name)
    ids = [b.id for b in world.bodies[1:]]
    was = np.asarray(world.awake(ids))
    rewakes = 0
    for k in range(int(round(seconds / DT))):
        world.step(DT)
        now = np.asarray(world.awake(ids))
        rewakes += int(np.count_nonzero(now & ~was))
        was = now
        if not np.any(now):
            return (k + 1) * DT, rewakes, world
    return None, rewakes, world


def time_to_sleep_b2d(name: str, seconds: float):
    world, bodies = build_b2d(name)
    for k in range(int(round(seconds / DT))):
        world.step(DT, 4)
        if not any(b.awake for b in bodies):
            return (k + 1) * DT
    return None


SCENES = ("column10", "pyramid20", "pyramid40", "rain500")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("scenes", nargs="*", default=list(SCENES))
    args = ap.parse_args(argv)
    print("| scene | collide2d (s) | collide2d re-wakes | Box2D v3 (s) |")
    print("|---|---|---|---|")
    for name in args.scenes:
        a, rewakes, _ = time_to_sleep_c2d(name, args.seconds)
        b = time_to_sleep_b2d(name, args.seconds)
        print(f"| {name} | {'-' if a is None else f'{a:.3f}'} | {rewakes} | "
              f"{'-' if b is None else f'{b:.3f}'} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
