"""Adaptive substeps (``World.max_substeps``): the substep count follows the resting depth
the stacks' soft contacts are predicted to reach.

Worked out by hand for a column of N unit boxes (density 1, so m = 1 kg and I = m / 6) on
static ground, face on, with the contact points at the boxes' corners (r_n = +-0.5):

- a point's effective mass is 1 / (1/m + 1/m + 2 * 0.25 / I) = m / 5 between two boxes and
  1 / (1/m + 0.25 / I) = m / 2.5 against the ground; a face has two points;
- the contact under box k (from the top, k = 1..N-1) carries k m g; the ground N m g;
- a soft contact rests load / (m_eff w^2) deep, w = 2 pi 50 Hz, doubled against the ground;
- so the top box rests D(N) = g / w^2 (N / 3.2 + 1.25 N (N - 1)) deep in all: D(28) =
  0.0966 m, D(29) = 0.1038 m, D(30) = 0.1111 m; the deepest single contact is
  2.5 (N - 1) g / w^2 = 7.3 mm for N = 30;
- the tolerance is 0.1 m down a stack and 1 cm at a contact: D(N) > 0.1 takes
  ceil(4 sqrt(D / 0.1)) substeps, 5 for N = 29 and 30.
"""

import math

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0
G = 10.0
OMEGA = 2.0 * math.pi * 50.0


def column_depth(n):
    return G / OMEGA**2 * (n / 3.2 + 1.25 * n * (n - 1))


def column(n, max_substeps=8, substeps=4):
    w = c2d.World(gravity=(0.0, -G), substeps=substeps, max_substeps=max_substeps,
                  sleeping=False)
    ground = w.add_body(kind="static")
    ground.add_box(40.0, 1.0, offset=(0.0, -0.5))
    boxes = []
    for i in range(n):
        b = w.add_body(position=(0.0, 0.5 + i))
        b.add_box(1.0, 1.0)
        boxes.append(b)
    return w, boxes


def test_hand_worked_depths_straddle_the_tolerance():
    # The arithmetic the tests below rest on.
    assert column_depth(28) == pytest.approx(0.0966, abs=1e-4)
    assert column_depth(29) == pytest.approx(0.1038, abs=1e-4)
    assert column_depth(30) == pytest.approx(0.1111, abs=1e-4)
    assert math.ceil(4 * math.sqrt(column_depth(30) / 0.1)) == 5


@pytest.mark.nojit
@pytest.mark.parametrize("n, want", [(10, 4), (28, 4), (29, 5), (30, 5)])
def test_a_column_takes_the_substeps_its_predicted_depth_needs(n, want):
    w, _ = column(n)
    w.step(DT)
    assert w.substeps_used == want


def test_without_max_substeps_the_count_is_fixed():
    w, _ = column(30, max_substeps=None)
    w.step(DT)
    assert w.substeps_used == 4
    w.max_substeps = 4  # no more than substeps: fixed as well
    w.step(DT)
    assert w.substeps_used == 4


def test_the_most_substeps_caps_the_count():
    # A 1000 kg box on a 1 kg box: the contact between them predicts ~0.13 m (far beyond
    # 1 cm), which would need 15 substeps.
    w = c2d.World(gravity=(0.0, -G), max_substeps=6, sleeping=False)
    w.add_body(kind="static").add_box(40.0, 1.0, offset=(0.0, -0.5))
    w.add_body(position=(0.0, 0.5)).add_box(1.0, 1.0, density=1.0)
    w.add_body(position=(0.0, 1.5)).add_box(1.0, 1.0, density=1000.0)
    w.step(DT)
    assert w.substeps_used == 6


def test_without_gravity_nothing_sags():
    w, _ = column(40)
    w.gravity = (0.0, 0.0)
    w.step(DT)
    assert w.substeps_used == 4


def test_sideways_gravity_loads_nothing_down_the_column():
    # Gravity along the faces: no contact holds a box up against it, so no depth.
    w, _ = column(40)
    w.gravity = (G, 0.0)
    w.step(DT)
    assert w.substeps_used == 4


@pytest.mark.nojit
def test_the_count_drops_back_only_when_half_would_do():
    # 30 boxes need 5. Removing three leaves D(27) = 0.0898 m: 4 would do, but within the
    # factor-two band (4 sqrt(2 * 0.898) = 5.4, so up to 6 may stay) the count stays at 5.
    # Removing ten more leaves D(17) = 0.0350 m: 4 sqrt(0.70) < 4, so it drops to 4.
    w, boxes = column(30)
    w.step(DT)
    assert w.substeps_used == 5
    for b in boxes[27:]:
        w.remove(b)
    w.step(DT)
    assert w.substeps_used == 5
    fresh, _ = column(27)
    fresh.step(DT)
    assert fresh.substeps_used == 4
    for b in boxes[17:27]:
        w.remove(b)
    w.step(DT)
    assert w.substeps_used == 4


def test_a_tall_column_rests_shallower_with_adaptive_substeps():
    # The top of a 30-box column at rest: D(30) = 0.111 m of spring plus 1 mm of push slop
    # per contact (30 of them) at 4 substeps; 5 substeps (w 1.25x) cut the spring part to
    # 0.111 / 1.5625.
    depths = {}
    for most in (None, 8):
        w, boxes = column(30, max_substeps=most)
        for _ in range(240):
            w.step(DT)
        depths[most] = 29.5 - boxes[-1].position[1]
        assert abs(boxes[-1].position[0]) < 0.25  # standing (it sways a few cm)
    assert w.substeps_used == 5
    spring = column_depth(30)
    assert depths[None] == pytest.approx(spring + 0.030, rel=0.03)
    assert depths[8] == pytest.approx(spring / 1.5625 + 0.030, rel=0.03)


@pytest.mark.parametrize("n", [3, 5, 10])
def test_column_comes_to_rest_without_sleeping(n):
    # A column on the ground is in equilibrium: with sleeping off it must come to rest, not
    # rock. With every substep's passes forward then back, 3 boxes rocked at 0.05 m/s and 5
    # at 0.13 m/s for ever (Box2D v3 settles both within 100 steps).
    w, boxes = column(n, max_substeps=None)
    for _ in range(600):
        w.step(DT)
    x0 = [b.position[0] for b in boxes]
    vmax = 0.0
    for _ in range(60):
        w.step(DT)
        vmax = max(vmax, *(np.abs(b.velocity).max() for b in boxes),
                   *(abs(b.angular_velocity) for b in boxes))
    assert vmax < 1e-4
    assert max(abs(b.position[0] - x) for b, x in zip(boxes, x0, strict=True)) < 1e-5
    assert max(abs(b.position[0]) for b in boxes) < 0.01       # still a column


def test_changing_substeps_keeps_a_resting_stack_at_rest():
    # The contact table's impulses are per substep: a step with another count must warm-
    # start with the same force, or the stack is kicked (0.0095 m/s at 4 -> 8 before).
    w, boxes = column(3, max_substeps=None)
    for _ in range(120):
        w.step(DT)
    w.substeps = 8
    vmax = 0.0
    for _ in range(30):
        w.step(DT)
        vmax = max(vmax, max(abs(b.velocity[1]) for b in boxes))
    assert vmax < 1e-3


@pytest.mark.slow
def test_large_pyramid_stands_with_adaptive_substeps():
    # bench/scenes.md's B = 100 pyramid (5,050 boxes, 500 steps): "stands" is tilt < 0.05 rad,
    # drift < 0.1 m and every box's height within 0.25 m of its start. At 4 substeps the
    # top sinks 0.36 m; it predicts 0.40 m of spring depth, which takes 8 substeps.
    b_rows = 100
    w = c2d.World(gravity=(0.0, -G), max_substeps=8, sleeping=False)
    w.add_body(kind="static").add_box(200.0, 1.0, offset=(0.0, -0.5))
    start = []
    bodies = []
    for r in range(b_rows):
        for i in range(b_rows - r):
            x, y = i - (b_rows - r - 1) / 2.0, 0.5 + r
            b = w.add_body(position=(x, y))
            b.add_box(1.0, 1.0, density=1.0, friction=0.6, elasticity=0.0)
            start.append((x, y))
            bodies.append(b)
    for _ in range(500):
        w.step(DT)
    assert w.substeps_used == 8
    p = np.array([b.position for b in bodies]) - np.array(start)
    a = np.array([b.angle for b in bodies])
    assert np.all(np.isfinite(p))
    assert np.abs(a).max() < 0.05
    assert np.abs(p[:, 0]).max() < 0.1
    assert np.abs(p[:, 1]).max() < 0.25
