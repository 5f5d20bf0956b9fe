"""Sleeping islands wake in the step they are touched.

Worked out without the engine: with no gravity, contacts and joints exchange equal and
opposite impulses, so the total linear momentum of the bodies is what the moving one brought.
A sleeping body left out of the solve acts as a wall (infinite mass) and takes momentum out
of the system; a body woken in time takes its share, and the total is conserved to rounding.
"""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2d

pytestmark = pytest.mark.nojit

DT = 1.0 / 60.0


def _momentum(world) -> np.ndarray:
    ids = [b.id for b in world.bodies]
    v = np.asarray(world.velocities(ids))
    m = np.array([b.mass for b in world.bodies])
    return (m[:, None] * v).sum(axis=0)


def _sleep(world, bodies, seconds=1.0) -> None:
    for _ in range(int(seconds / DT)):
        world.step(DT)
    assert not any(b.awake for b in bodies)


def _row_of_boxes(world, n=3):
    """Unit boxes in a row, faces touching, at rest (no gravity)."""
    boxes = []
    for k in range(n):
        box = world.add_body(position=(float(k), 0.0))
        box.add_box(1.0, 1.0, friction=0.0)
        boxes.append(box)
    return boxes


def test_a_hit_wakes_the_whole_touching_row_in_that_step():
    world = c2d.World(gravity=(0.0, 0.0))
    boxes = _row_of_boxes(world)
    _sleep(world, boxes)
    ball = world.add_body(position=(-3.0, 0.0), velocity=(6.0, 0.0))
    ball.add_circle(0.25, density=4.0, friction=0.0)
    p0 = _momentum(world)
    assert p0[0] > 0.0
    woke_at = None
    for k in range(120):
        world.step(DT)
        # Whatever happens, no momentum leaves the system: no sleeper stood in as a wall.
        np.testing.assert_allclose(_momentum(world), p0, rtol=0, atol=1e-9 * p0[0])
        awake = [b.awake for b in boxes]
        if woke_at is None and any(awake):
            woke_at = k
            assert all(awake)   # the row wakes as one
    assert woke_at is not None
    assert boxes[-1].velocity[0] > 0.0   # the push reached the far end


def test_a_joint_to_a_woken_body_wakes_its_partner_before_the_solve():
    world = c2d.World(gravity=(0.0, 0.0))
    a = world.add_body(position=(0.0, 0.0))
    a.add_box(0.5, 0.5)
    b = world.add_body(position=(2.0, 0.0))
    b.add_circle(0.25)
    world.add_distance_joint(a, b, (0.0, 0.0), (2.0, 0.0))
    _sleep(world, [a, b])
    a.velocity = (-1.0, 0.0)   # pulls the rope from b
    assert a.awake and not b.awake
    p0 = _momentum(world)
    world.step(DT)
    assert a.awake and b.awake
    np.testing.assert_allclose(_momentum(world), p0, rtol=0, atol=1e-12)
    assert b.velocity[0] < 0.0   # the rope pulled b along in this very step


def test_an_untouched_sleeping_pile_stays_asleep():
    world = c2d.World(gravity=(0.0, 0.0))
    near = _row_of_boxes(world)
    far = []
    for k in range(3):
        box = world.add_body(position=(float(k), 10.0))
        box.add_box(1.0, 1.0)
        far.append(box)
    _sleep(world, near + far)
    ball = world.add_body(position=(-3.0, 0.0), velocity=(6.0, 0.0))
    ball.add_circle(0.25, density=4.0)
    for _ in range(60):
        world.step(DT)
        assert not any(b.awake for b in far)
    assert all(b.awake for b in near)
