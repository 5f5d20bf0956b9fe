"""Worlds pickle through their snapshots (what Ray, multiprocessing and joblib send).

The oracle is the world itself: an unpickled copy must hold the same snapshot bytes and
then step on bit-identically next to the original.
"""

import math
import pickle

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0


def _scene():
    """A little of everything a step carries over: contacts (warm starts), a joint with a
    limit and a motor, a sleeping-capable pile, a bullet and a sensor."""
    world = c2d.World()
    ground = world.add_body(kind="static")
    ground.add_box(20, 1, offset=(0, -0.5))
    boxes = []
    for i in range(4):
        b = world.add_body(position=(0.1 * i, 0.5 + 1.05 * i), angle=0.05 * i)
        b.add_box(1, 1)
        boxes.append(b)
    arm = world.add_body(position=(4, 3))
    arm.add_box(2, 0.2)
    hinge = world.add_revolute_joint(ground, arm, (3, 3), lower_angle=-math.pi / 4,
                                     upper_angle=math.pi / 4, motor_speed=1.0,
                                     max_motor_torque=50.0)
    bullet = world.add_body(position=(-6, 2), velocity=(40, 0), bullet=True)
    bullet.add_circle(0.1)
    gate = world.add_body(kind="static", position=(-3, 1))
    gate.add_box(0.5, 2, sensor=True)
    for _ in range(10):
        world.step(DT)
    return world, boxes, hinge


def _state(world):
    return np.concatenate([world.positions().ravel(), world.velocities().ravel(),
                           world.angles(), world.angular_velocities()])


@pytest.mark.nojit
@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_unpickled_world_steps_on_bit_identically(protocol):
    world, _, _ = _scene()
    copy = pickle.loads(pickle.dumps(world, protocol=protocol))
    assert type(copy) is c2d.World
    assert copy.snapshot() == world.snapshot()
    for _ in range(20):
        world.step(DT)
        copy.step(DT)
    assert _state(copy).tobytes() == _state(world).tobytes()
    assert copy.snapshot() == world.snapshot()


@pytest.mark.nojit
def test_handles_pickled_with_their_world_are_the_copys_handles():
    world, boxes, hinge = _scene()
    shape = boxes[2].shapes[0]
    copy, box_copy, shape_copy, hinge_copy = pickle.loads(
        pickle.dumps((world, boxes[2], shape, hinge)))
    assert box_copy is copy.body(boxes[2].id)
    assert box_copy is copy.bodies[world.bodies.index(boxes[2])]
    assert shape_copy is copy.shape(shape.id) and shape_copy.body is box_copy
    assert hinge_copy is copy.joints[hinge.index]
    assert hinge_copy.body_b is copy.bodies[world.bodies.index(hinge.body_b)]


@pytest.mark.nojit
def test_pickle_drops_callbacks_as_snapshots_do():
    world, _, _ = _scene()
    world.on_contact_begin(lambda event: None)   # a lambda cannot be pickled at all
    copy = pickle.loads(pickle.dumps(world))
    assert copy._callbacks["contact_begin"] == []
    assert copy.snapshot() == world.snapshot()


@pytest.mark.nojit
def test_pickling_a_removed_body_raises():
    world, boxes, _ = _scene()
    world.remove(boxes[0])
    with pytest.raises(ValueError, match="removed"):
        pickle.dumps(boxes[0])
