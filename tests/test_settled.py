"""A settled world's step keeps its tables (``_kernels/settled.py``) and must leave exactly
what the full stages leave.

The oracle is the same world stepped through every stage: clearing the record's
``settled`` flag before a step makes ``run_step`` take the full path. Snapshot bytes and
every event must match step by step; the short cut must also really be taken (the world's
contact table is then the same object after the step, where the full path swaps in the
table it wrote)."""

from __future__ import annotations

import math

import pytest

import collide2d as c2d

pytestmark = pytest.mark.nojit

DT = 1.0 / 60.0


def _scene():
    """Two short columns of boxes on a floor, a hinged pair, a static sensor over a box,
    with every event recorded."""
    world = c2d.World(gravity=(0.0, -10.0))
    floor = world.add_body(kind="static")
    floor.add_box(20.0, 1.0, offset=(0.0, -0.5))
    boxes = []
    for col in range(2):
        for row in range(3):
            b = world.add_body(position=(3.0 * col, 0.5 + row))
            b.add_box(1.0, 1.0)
            boxes.append(b)
    hinged = [world.add_body(position=(x, 0.25)) for x in (8.0, 9.0)]
    for b in hinged:
        b.add_box(0.9, 0.5)
    world.add_revolute_joint(hinged[0], hinged[1], (8.5, 0.25))
    marker = world.add_body(kind="static", position=(0.0, 2.5))
    marker.add_circle(0.2, sensor=True)
    events = []
    for name in ("contact_begin", "contact_persist", "contact_end", "sensor_begin",
                 "sensor_end"):
        getattr(world, "on_" + name)(
            lambda ev, name=name: events.append((name, ev.shape_a.id, ev.shape_b.id)))
    return world, boxes + hinged, events


def _settle(world, bodies):
    for _ in range(600):
        world.step(DT)
        if not any(b.awake for b in bodies):
            break
    assert not any(b.awake for b in bodies)
    world.step(DT)  # a full step that starts settled: the next may keep its tables


def _twin(world):
    """The world restored from its snapshot, with the same event recording."""
    twin = c2d.World.restore(world.snapshot())
    events = []
    for name in ("contact_begin", "contact_persist", "contact_end", "sensor_begin",
                 "sensor_end"):
        getattr(twin, "on_" + name)(
            lambda ev, name=name: events.append((name, ev.shape_a.id, ev.shape_b.id)))
    return twin, events


def _full_step(world):
    world._params[0]["settled"] = 0
    world.step(DT)


def test_settled_steps_match_the_full_stages_and_keep_the_tables():
    world, bodies, events = _scene()
    _settle(world, bodies)
    twin, twin_events = _twin(world)
    events.clear()
    for _ in range(20):
        table = world._contacts
        world.step(DT)
        assert world._contacts is table  # kept: the short cut was taken
        _full_step(twin)
        assert world.snapshot() == twin.snapshot()
    assert events == twin_events
    # Touching contacts persist every step (the floor and the boxes on each other, the
    # hinged pair on the floor): 2 columns x 3 + 2 = 8 per step.
    assert sum(1 for e in events if e[0] == "contact_persist") == 20 * 8
    assert not any(e[0] in ("contact_begin", "contact_end") for e in events)


def test_a_sensor_added_to_a_settled_world_begins_once():
    world, bodies, events = _scene()
    _settle(world, bodies)
    events.clear()
    top = bodies[2]  # the top box of the first column, centre (0, 2.5)
    sensor = world.add_body(kind="static", position=(0.0, 2.5)).add_circle(0.3, sensor=True)
    for _ in range(10):
        world.step(DT)
    begins = [e for e in events if e[0] == "sensor_begin"]
    assert len(begins) == 1
    assert {begins[0][1], begins[0][2]} == {sensor.id, top.shapes[0].id}
    assert not any(b.awake for b in bodies)


def test_a_query_between_a_change_and_the_step_does_not_hide_the_change():
    """A query places the shapes again (as a step would): a sensor added over a settled box
    and a raycast before the step still begin; the floor moved away and a raycast before
    the step still ends its contacts."""
    world, bodies, events = _scene()
    _settle(world, bodies)
    events.clear()
    sensor = world.add_body(kind="static", position=(0.0, 2.5)).add_circle(0.3, sensor=True)
    world.raycast((-5.0, 10.0), (-5.0, -10.0))
    world.step(DT)
    begins = [e for e in events if e[0] == "sensor_begin"]
    assert len(begins) == 1 and sensor.id in begins[0][1:]
    events.clear()
    world.bodies[0].position = (0.0, -50.0)  # the floor, teleported away
    world.raycast((-5.0, 10.0), (-5.0, -10.0))
    world.step(DT)
    # The two columns' and the hinged pair's floor contacts: 2 + 2.
    assert len([e for e in events if e[0] == "contact_end"]) == 4


@pytest.mark.parametrize("change", ["mask", "group", "ignore", "rule", "sensor"])
def test_changes_to_a_settled_world_rebuild_its_tables(change):
    """A change that removes a pair ends its contact in the next step, as the full stages
    do: the twin stepped through every stage is the oracle."""
    world, bodies, events = _scene()
    _settle(world, bodies)
    twin, twin_events = _twin(world)
    events.clear()
    for w in (world, twin):
        floor = w.bodies[0]
        lowest = w.bodies[1]  # the bottom box of the first column, on the floor
        if change == "mask":
            lowest.shapes[0].mask = 0
        elif change == "group":
            lowest.shapes[0].group = -1
            floor.shapes[0].group = -1
        elif change == "ignore":
            w.ignore_collisions(lowest, floor)
        elif change == "rule":
            lowest.shapes[0].collision_type = 3
            floor.shapes[0].collision_type = 4
            w.set_pair_response(3, 4, "ignore")
        elif change == "sensor":
            floor.shapes[0].sensor = True
    world.step(DT)
    _full_step(twin)
    assert world.snapshot() == twin.snapshot()
    assert events == twin_events
    # Mask 0 parts the box from the floor and from the box on it; a floor turned sensor
    # parts it from all four bodies on it (two columns, the hinged pair); the others part
    # the box from the floor only.
    ends = [e for e in events if e[0] == "contact_end"]
    assert len(ends) == {"mask": 2, "sensor": 4}.get(change, 1)


@pytest.mark.parametrize("field,value", [("vel", (math.nan, 0.0)), ("angvel", math.inf),
                                         ("force", (0.0, -math.inf)), ("torque", math.nan)])
def test_a_nan_in_a_settled_world_still_stops_the_step(field, value):
    """A settled step skips the NaN guard (its poses were finite and nothing moved them
    since); a NaN or inf velocity or force makes the world unsettled, so the guard runs."""
    world, bodies, _ = _scene()
    _settle(world, bodies)
    world.step(DT)
    world.step(DT)  # two kept steps: the tables' flags already cleared
    assert world._params[0]["settled"] == 2
    getattr(world._bodies, field)[bodies[4]._slot] = value  # past the surface's checks
    # (what every write of a velocity or force through the surface does; without it the
    # step skips the compiled call: World._still_step, tests/test_still_step.py)
    world._unsettle()
    before = world.snapshot()
    with pytest.raises(ValueError, match=rf"body {bodies[4].index}\b.*NaN or inf"):
        world.step(DT)
    assert world.snapshot() == before
