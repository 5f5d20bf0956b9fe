"""A substep's fixed cost in small worlds: CPU time per ``world.step`` at 16 and 4 substeps.

Rows (microseconds of process CPU time per step, the best of several repeats of 2,000 steps,
after 200 steps to settle; sleeping off so every step solves):

- ``lander in the air``: a hull and two legs on revolute joints with limits and motors,
  no gravity and no ground: joints, no contacts;
- ``lander on the ground``: the same under gravity, resting on a static segment;
- ``circle in the air``: one falling circle (no contact rows: no substep loop);
- ``circle on the ground``: one circle resting on a static segment (one contact row).

The difference between the 16- and 4-substep columns over 12 is the cost of one substep.
Run directly: ``python bench/substep_cost.py``.
"""

from __future__ import annotations

import time

HULL = [(-0.47, 0.57), (-0.57, 0.0), (-0.57, -0.33), (0.57, -0.33), (0.57, 0.0), (0.47, 0.57)]


def lander(substeps: int, ground: bool):
    import collide2d as c2d

    world = c2d.World(gravity=(0, -10) if ground else (0, 0), substeps=substeps,
                      sleeping=False)
    world.contact_hertz = 100.0
    if ground:
        world.add_body(kind="static").add_segment((-20, 0), (20, 0))
    hull = world.add_body(position=(0, 1.5 if ground else 10))
    hull.add_polygon(HULL, density=5)
    y0 = hull.position[1]
    for side in (-1, 1):
        leg = world.add_body(position=(side * 0.67, y0 - 0.6), angle=side * 0.05)
        leg.add_box(0.13, 0.53, density=1)
        lower, upper = (-0.1, 1.4) if side == -1 else (-1.4, 0.1)
        world.add_revolute_joint(hull, leg, (side * 0.67, y0 - 0.3), lower_angle=lower,
                                 upper_angle=upper, motor_speed=0.3 * side,
                                 max_motor_torque=40.0)
    return world


def circle(substeps: int, ground: bool):
    import collide2d as c2d

    world = c2d.World(gravity=(0, -10), substeps=substeps, sleeping=False)
    if ground:
        world.add_body(kind="static").add_segment((-20, 0), (20, 0))
    world.add_body(position=(0, 0.5 if ground else 10)).add_circle(0.5, density=1)
    return world


SCENES = {
    "lander in the air": (lander, False),
    "lander on the ground": (lander, True),
    "circle in the air": (circle, False),
    "circle on the ground": (circle, True),
}


def per_step(world, steps: int = 2000, repeat: int = 5) -> float:
    """Best CPU seconds per step over ``repeat`` runs of ``steps`` steps."""
    for _ in range(200):
        world.step(1 / 50)
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(steps):
            world.step(1 / 50)
        best = min(best, (time.process_time() - start) / steps)
    return best


def measure() -> dict:
    """{scene: {substeps: seconds per step}}."""
    return {name: {n: per_step(make(n, ground)) for n in (16, 4)}
            for name, (make, ground) in SCENES.items()}


def main() -> None:
    rows = measure()
    print(f"{'scene':<22} {'16 substeps':>12} {'4 substeps':>12} {'per substep':>12}  (us)")
    for name, t in rows.items():
        print(f"{name:<22} {t[16] * 1e6:12.1f} {t[4] * 1e6:12.1f} "
              f"{(t[16] - t[4]) / 12 * 1e6:12.2f}")


if __name__ == "__main__":
    main()
