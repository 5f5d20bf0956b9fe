"""Sleeping contacts kept aside (``_kernels/asleep.py``): the rows of pairs that can not move
leave the table the step walks, and come back when a body of theirs wakes.

What a user sees must not change: the contacts, their events and every body's motion are
those of one table in pair order. The oracles: a column of boxes on a floor touches in
exactly one pair per box (each box on the one below, the lowest on the floor); a world
restored from a snapshot holds every row in the walked table (restore keeps nothing
aside), so stepping it beside the original compares the two representations bit for bit;
and the island rule (islands.py: an island with a restless member is awake as a whole).
"""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0


def _column(n: int = 4):
    world = c2d.World(gravity=(0.0, -10.0))
    floor = world.add_body(kind="static")
    floor.add_box(20.0, 1.0, offset=(0.0, -0.5))
    boxes = []
    for k in range(n):
        b = world.add_body(position=(0.0, 0.5 + k))
        b.add_box(1.0, 1.0)
        boxes.append(b)
    return world, floor, boxes


def _settle(world, bodies):
    for _ in range(900):
        world.step(DT)
        if not any(b.awake for b in bodies):
            break
    assert not any(b.awake for b in bodies)


def _pairs(world):
    c = world.contacts()
    return sorted(zip(c.shape_a.tolist(), c.shape_b.tolist(), strict=True))


def _column_pairs(floor, boxes):
    ids = [floor.shapes[0].id] + [b.shapes[0].id for b in boxes]
    return sorted((min(x, y), max(x, y)) for x, y in zip(ids[:-1], ids[1:], strict=True))


def _events(world):
    got = []
    world.on_contact_begin(lambda ev: got.append(("begin", ev.shape_a.id, ev.shape_b.id)))
    world.on_contact_end(lambda ev: got.append(("end", ev.shape_a.id, ev.shape_b.id)))
    return got


@pytest.mark.nojit
def test_a_sleeping_column_keeps_its_contacts_aside_unchanged():
    world, floor, boxes = _column()
    _settle(world, boxes)
    world.step(DT)
    before = world.contacts()
    assert _pairs(world) == _column_pairs(floor, boxes)
    # Every row is aside: the table the step walks is empty.
    assert world._contacts.count == 0
    assert world._step_buffers.asleep.count == len(boxes)
    events = _events(world)
    ball = world.add_body(position=(300.0, 50.0))
    ball.add_circle(0.5)
    for _ in range(30):
        world.step(DT)
    assert ball.awake and not any(b.awake for b in boxes)
    after = world.contacts()
    for x, y in zip(before, after, strict=True):
        np.testing.assert_array_equal(x, y)
    assert events == []


@pytest.mark.nojit
def test_a_hit_brings_every_row_back_and_begins_only_the_new_touch():
    world, floor, boxes = _column()
    _settle(world, boxes)
    events = _events(world)
    ball = world.add_body(position=(0.2, len(boxes) + 1.5))
    ball.add_circle(0.4)
    ball.velocity = (0.0, -4.0)
    touched = False
    for _ in range(40):
        world.step(DT)
        touched |= any(boxes[-1].shapes[0].id in p and ball.shapes[0].id in p
                       for p in _pairs(world))
        if touched:
            break
    assert touched
    # The hit woke the column, whose rows are back in the walked table, in pair order.
    assert all(b.awake for b in boxes)
    assert world._step_buffers.asleep.count == 0
    rows = world._contacts.rows()
    key = rows.a.astype(np.int64) << 32 | rows.b
    assert np.all(np.diff(key) > 0)
    assert set(_column_pairs(floor, boxes)) <= set(_pairs(world))
    ball_id = ball.shapes[0].id
    assert events and all(kind == "begin" and ball_id in (a, b) for kind, a, b in events)


def _bytes_equal_through(world, twin, steps, act=None):
    for k in range(steps):
        if act is not None:
            act(world, k)
            act(twin, k)
        world.step(DT)
        twin.step(DT)
        assert world.snapshot() == twin.snapshot(), f"step {k}"


def test_a_twin_holding_every_row_in_the_table_steps_the_same_bits():
    world = c2d.World(gravity=(0.0, -10.0))
    floor = world.add_body(kind="static")
    floor.add_box(40.0, 1.0, offset=(0.0, -0.5))
    boxes = []
    for row in range(5):
        for col in range(5 - row):
            b = world.add_body(position=(col - 2.0 + 0.5 * row, 0.5 + row))
            b.add_box(1.0, 1.0)
            boxes.append(b)
    _settle(world, boxes)
    far = world.add_body(position=(300.0, 50.0))
    far.add_circle(0.5)
    world.step(DT)
    assert world._step_buffers.asleep.count > 0
    twin = c2d.World.restore(world.snapshot())
    assert twin._step_buffers.asleep.count == 0
    _bytes_equal_through(world, twin, 5)

    def hit(w, k):
        if k == 0:
            ball = w.add_body(position=(0.3, 7.0))
            ball.add_circle(0.4, density=4.0)
            ball.velocity = (0.0, -6.0)

    _bytes_equal_through(world, twin, 90, hit)


@pytest.mark.nojit
def test_a_sleeping_box_moved_away_ends_its_touch():
    world, floor, boxes = _column(3)
    _settle(world, boxes)
    events = _events(world)
    top = boxes[-1]
    top.position = (10.0, 5.0)
    world.step(DT)
    below = boxes[-2].shapes[0].id
    assert events == [("end", min(below, top.shapes[0].id), max(below, top.shapes[0].id))]
    assert _pairs(world) == _column_pairs(floor, boxes[:-1])
    # The end is reported once: the next step has none.
    del events[:]
    world.step(DT)
    assert events == []


@pytest.mark.nojit
def test_removing_a_box_from_a_sleeping_column_drops_its_rows_and_wakes_the_others():
    world, floor, boxes = _column(3)
    _settle(world, boxes)
    gone = boxes[1].shapes[0].id
    world.remove(boxes[1])
    assert all(gone not in p for p in _pairs(world))
    assert boxes[0].awake and boxes[2].awake
    world.step(DT)
    assert all(gone not in p for p in _pairs(world))


@pytest.mark.nojit
def test_a_body_put_to_sleep_on_a_sleeping_column_wakes_its_island_whole():
    world, floor, boxes = _column(3)
    _settle(world, boxes)
    box = world.add_body(position=(0.0, 3.5))
    box.add_box(1.0, 1.0)
    world.step(DT)
    world.step(DT)
    # Resting on the column, it woke it; let the island sleep again, then the new box is
    # put to sleep with a short clock while the rest sleeps with full ones.
    _settle(world, boxes + [box])
    box.awake = True
    world.step(DT)
    assert all(b.awake for b in boxes + [box])  # (its touch wakes the column)
    box.awake = False
    world.step(DT)
    # A member short of its time to sleep keeps the island awake, the column with it.
    assert all(b.awake for b in boxes + [box])


def test_a_batch_counts_a_sleeping_contact_as_touching():
    world, floor, boxes = _column(1)
    floor.shapes[0].collision_type = 1
    boxes[0].shapes[0].collision_type = 2
    batch = c2d.WorldBatch(world, 3)
    ids = [boxes[0].id]
    for _ in range(400):
        batch.step(DT)
    assert not batch.body_states(ids).awake.any()
    assert batch.contact_events((1, 2)).touching.tolist() == [[1], [1], [1]]
