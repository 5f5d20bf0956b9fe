"""The contact solver's scene suite on collide2d and Box2D v3 (pyb2d3), side by side.

The scenes are ``tests/solver_scenes.py``'s (one definition for both engines); this script
adds Box2D v3's adapter and prints each scene's figures for both engines, with the
criterion ``tests/test_solver_scenes.py`` holds collide2d to. Box2D v3 runs with its
defaults: 4 substeps, contact hertz 30, damping ratio 10, push-out 3 m/s.

    python bench/solver_suite.py            # every scene
    python bench/solver_suite.py column arch  # scenes whose name contains a word
    python bench/solver_suite.py off=block_impacts,shed_weight  # with extras off
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import solver_scenes as S  # noqa: E402


class B2D3:
    """Box2D v3 adapter (pyb2d3): the same calls as ``solver_scenes.C2D``."""

    name = "box2d-v3"

    def __init__(self, gravity=(0.0, -S.G)):
        import pyb2d3 as b2

        self.b2 = b2
        self.world = b2.World(gravity=gravity)
        self.world.sleeping_enabled = False
        self.bodies = []

    def add(self, kind="dynamic", position=(0.0, 0.0), angle=0.0, box=None, circle=None,
            polygon=None, density=1.0, friction=0.6, restitution=0.0, velocity=(0.0, 0.0)):
        b2 = self.b2
        at = {"position": (float(position[0]), float(position[1])),
              "rotation": b2.Rot(float(angle))}
        if kind == "static":
            body = self.world.create_static_body(**at)
        else:
            body = self.world.create_dynamic_body(
                **at, linear_velocity=(float(velocity[0]), float(velocity[1])))
        material = b2.surface_material(friction=friction, restitution=restitution)
        shape_def = b2.shape_def(density=density, material=material)
        if box is not None:
            geometry = b2.box(float(box[0]), float(box[1]))
        elif circle is not None:
            geometry = b2.circle(radius=float(circle))
        else:
            geometry = b2.polygon(points=np.ascontiguousarray(polygon, dtype=np.float32))
        body.create_shape(shape_def, geometry)
        self.bodies.append(body)
        return len(self.bodies) - 1

    def step(self, n=1):
        for _ in range(n):
            self.world.step(S.DT, 4)

    def positions(self, idx):
        return np.array([tuple(self.bodies[i].position) for i in idx], dtype=np.float64)

    def angles(self, idx):
        return np.array([self.bodies[i].angle for i in idx], dtype=np.float64)

    def velocities(self, idx):
        return np.array([tuple(self.bodies[i].linear_velocity) for i in idx],
                        dtype=np.float64)

    def remove(self, i):
        self.bodies[i].destroy()

    def apply_forces(self, idx, forces):
        for i, f in zip(idx, forces, strict=True):
            self.bodies[i].apply_force_to_center((float(f[0]), float(f[1])), True)

    def set_angular_velocity(self, i, w):
        self.bodies[i].angular_velocity = float(w)

    def angular_velocities(self, idx):
        return np.array([self.bodies[i].angular_velocity for i in idx], dtype=np.float64)

    def set_gravity(self, g):
        self.world.gravity = (float(g[0]), float(g[1]))


def _ramp(e, degrees, mu):
    return S.friction_ramp(e, degrees, mu)


def _far(e):
    near = S.far_column(e)["relative"]
    far = S.far_column(type(e)(), origin=(1e5, 1e5))["relative"]
    return {"difference": float(np.abs(far - near).max())}


#: name -> (run(engine) -> figures, criterion as the tests hold collide2d to it).
SCENES = {
    "column of 10 boxes": (S.column_of_boxes, "offset < 0.03 m, drop < 0.05 m"),
    "column of 10 circles": (S.column_of_circles, "height error < 0.03 m, speed < 0.01"),
    "card house (3 levels)": (S.card_house, "moved < 0.02 m over 4.5 s"),
    "arch": (S.arch, "moved < 0.35 m"),
    "dominoes (12)": (S.dominoes, "all fallen, in order"),
    "overlapping spawns": (S.overlapping_spawn, "overlap < 0.005 m, speed < 0.2 m/s"),
    "overlapping pile": (S.overlapping_pile, "overlap < 0.01 m, speed < 0.05 m/s"),
    "heavy on light 1:100": (lambda e: S.heavy_on_light(e, 100.0),
                             "drift < 0.02, drop 0.018 +- 0.005"),
    "heavy on light 1:1000": (lambda e: S.heavy_on_light(e, 1000.0),
                              "drift < 0.02, drop 0.161 +- 0.005"),
    "heavy off circles": (S.heavy_on_circles, "rise < 0.02 m"),
    "ramp 20 deg mu 0.5 (holds)": (lambda e: _ramp(e, 20.0, 0.5), "accel < 0.01"),
    "ramp 30 deg mu 0.3 (slides)": (
        lambda e: _ramp(e, 30.0, 0.3),
        f"accel = {S.G * (math.sin(math.radians(30)) - 0.3 * math.cos(math.radians(30))):.3f}"
        " +- 2 %"),
    "300 circles in a box": (S.confined_circles, "outside 0, overlap < 0.02, speed < 0.05"),
    "crowd to a point": (S.crowd_to_point, "overlap < 0.02 m, speed < 1"),
    "column at 1e5 m": (_far, "difference < 1e-6 m"),
    "gravity off under a column": (S.gravity_off, "speed < 0.01 m/s"),
    "plank landing flat at 20 m/s": (S.flat_landing, "spin < 0.1 rad/s"),
    "elastic corner impact": (S.corner_impact, "energy ratio <= 1 + 1e-9"),
    "pyramid B = 40": (lambda e: S.pyramid(e, 40, 600), "moved < 0.1 m"),
    "pyramid B = 100": (lambda e: S.pyramid(e, 100, 500), "sag < 0.375 m"),
    "pyramid B = 40, rows 0.02 m apart": (lambda e: S.pyramid(e, 40, 240, gap=0.02),
                                          "speed < 0.02 m/s (known to fail: strict xfail)"),
}


def _fmt(figures):
    return ", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                     for k, v in figures.items())


def main(argv):
    words = [w for w in argv[1:] if not w.startswith("off=")]
    off = [name for w in argv[1:] if w.startswith("off=") for name in w[4:].split(",")]
    S.C2D.settings = {name: False for name in off}
    engines = [S.C2D] if off else [S.C2D, B2D3]
    if off:
        print(f"collide2d with {', '.join(off)} off")
    print("| scene | criterion | " + " | ".join(e.name for e in engines) + " |")
    print("|---|---|" + "---|" * len(engines))
    for name, (run, criterion) in SCENES.items():
        if words and not any(w in name for w in words):
            continue
        cells = []
        for engine in engines:
            t0 = time.perf_counter()
            figures = run(engine())
            cells.append(f"{_fmt(figures)} ({time.perf_counter() - t0:.1f} s)")
        print(f"| {name} | {criterion} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
