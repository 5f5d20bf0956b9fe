"""Pair rules: responses for pairs of collision types (``set_pair_response``) and bodies
that never collide (``ignore_collisions``)."""

import copy

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0
HERO, CRATE, SPIKES = 1, 2, 3

pytestmark = pytest.mark.nojit


def _floor(w, ctype=0):
    s = w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    s.collision_type = ctype
    return s


def _drop(w, ctype=0, x=0.0, y=2.0):
    b = w.add_body(position=(x, y))
    b.add_box(1.0, 1.0).collision_type = ctype
    return b


def _fall(w, steps=60):
    for _ in range(steps):
        w.step(DT)


def test_a_type_rule_makes_dynamic_pairs_solid_under_a_world_that_ignores_them():
    w = c2d.World(gravity=(0.0, -10.0), dynamic_response="ignore")
    _floor(w)
    w.set_pair_response(CRATE, CRATE, "solid")
    low, high = _drop(w, CRATE, y=0.5), _drop(w, CRATE, y=2.0)
    hero = _drop(w, HERO, y=3.5)
    _fall(w, 120)
    # Crates stack (1.5 m for the upper one's centre); the hero passes through both and
    # rests on the floor (0.5 m): two bodies' worth of the default "ignore" kept.
    assert low.position[1] == pytest.approx(0.5, abs=0.01)
    assert high.position[1] == pytest.approx(1.5, abs=0.02)
    assert hero.position[1] == pytest.approx(0.5, abs=0.01)


def test_a_sensor_rule_turns_contacts_into_overlap_events():
    w = c2d.World(gravity=(0.0, -10.0))
    _floor(w, SPIKES)
    w.set_pair_response(SPIKES, HERO, "sensor")
    hero = _drop(w, HERO, y=0.6)
    crate = _drop(w, CRATE, x=3.0, y=0.6)
    hurt = []
    w.on_sensor_begin(lambda ev: hurt.append(ev.shape_a.body), between=(HERO, SPIKES))
    _fall(w, 30)
    assert hurt == [hero]
    assert hero.position[1] < 0.0                       # fell into the floor
    assert crate.position[1] == pytest.approx(0.5, abs=0.01)  # type 0 still lands


def test_an_ignore_rule_and_dropping_it():
    w = c2d.World(gravity=(0.0, -10.0))
    _floor(w, SPIKES)
    w.set_pair_response(HERO, SPIKES, "ignore")
    hero = _drop(w, HERO, y=0.6)
    w.step(DT)
    assert len(w.contacts().shape_a) == 0
    w.set_pair_response(SPIKES, HERO, None)  # either order names the pair
    hero.position = (0.0, 0.6)
    hero.velocity = (0.0, 0.0)
    _fall(w, 60)
    assert hero.position[1] == pytest.approx(0.5, abs=0.01)


def test_ignore_collisions_for_one_pair_of_bodies_and_undoing_it():
    w = c2d.World(gravity=(0.0, -10.0))
    floor = _floor(w).body
    ghost, solid = _drop(w, x=-2.0, y=0.6), _drop(w, x=2.0, y=0.6)
    w.ignore_collisions(ghost, floor)
    _fall(w, 30)
    assert ghost.position[1] < 0.0
    assert solid.position[1] == pytest.approx(0.5, abs=0.01)
    w.ignore_collisions(floor, ghost, ignore=False)
    ghost.position = (-2.0, 0.6)
    ghost.velocity = (0.0, 0.0)
    _fall(w, 60)
    assert ghost.position[1] == pytest.approx(0.5, abs=0.01)


def test_removing_a_body_drops_its_rule_so_a_body_in_its_slot_collides():
    w = c2d.World(gravity=(0.0, -10.0))
    floor = _floor(w).body
    ghost = _drop(w, y=0.6)
    w.ignore_collisions(ghost, floor)
    slot = ghost._slot
    w.remove(ghost)
    again = _drop(w, y=0.6)
    assert again._slot == slot
    _fall(w, 60)
    assert again.position[1] == pytest.approx(0.5, abs=0.01)


@pytest.mark.parametrize("call, error, name", [
    (lambda w, a, b: w.set_pair_response(-1, 2, "solid"), ValueError, "type_a"),
    (lambda w, a, b: w.set_pair_response(1, 2**31, "solid"), ValueError, "type_b"),
    (lambda w, a, b: w.set_pair_response(1.0, 2, "solid"), TypeError, "type_a"),
    (lambda w, a, b: w.set_pair_response(1, 2, "bouncy"), ValueError, "response"),
    (lambda w, a, b: w.ignore_collisions(a, a), ValueError, "body_b"),
    (lambda w, a, b: w.ignore_collisions(a, "floor"), TypeError, "body_b"),
    (lambda w, a, b: w.ignore_collisions(a, c2d.World().add_body()), ValueError, "body_b"),
    (lambda w, a, b: w.ignore_collisions(a, b, ignore="yes"), TypeError, "ignore"),
])
def test_bad_rules_are_refused_and_change_nothing(call, error, name):
    w = c2d.World()
    a, b = w.add_body(), w.add_body()
    before = w.snapshot()
    with pytest.raises(error, match=name):
        call(w, a, b)
    assert w.snapshot() == before


def test_rules_are_saved_copied_and_cost_no_bytes_unused():
    w = c2d.World(gravity=(0.0, -10.0))
    floor = _floor(w, SPIKES).body
    w.set_pair_response(HERO, SPIKES, "ignore")
    ghost = _drop(w, x=-2.0, y=0.6)
    hero = _drop(w, HERO, x=2.0, y=0.6)
    _drop(w, CRATE, y=0.6)
    w.ignore_collisions(ghost, floor)
    plain = c2d.World()
    plain.add_body().add_box(1.0, 1.0)
    assert b"rules." not in plain.snapshot()
    back = c2d.World.restore(w.snapshot())
    twin = copy.deepcopy(w)
    for x in (w, back, twin):
        _fall(x, 30)
    assert back.snapshot() == w.snapshot() == twin.snapshot()
    assert hero.position[1] < 0.0 and ghost.position[1] < 0.0
    np.testing.assert_array_equal(back.positions(), w.positions())


@pytest.mark.parametrize("world_response", ["ignore", "sensor"])
def test_a_shared_positive_group_collides_whatever_dynamic_response_says(world_response):
    # Two dynamic crates of group 1 in a world whose dynamic pairs pass: they stack (the
    # upper one's centre at 1.5 m); a third crate of no group passes through to the floor.
    w = c2d.World(gravity=(0.0, -10.0), dynamic_response=world_response)
    _floor(w)
    low, high, other = _drop(w, y=0.5), _drop(w, y=2.0), _drop(w, y=3.5)
    low.shapes[0].group = 1
    high.shapes[0].group = 1
    _fall(w, 120)
    assert low.position[1] == pytest.approx(0.5, abs=0.01)
    assert high.position[1] == pytest.approx(1.5, abs=0.02)
    assert other.position[1] == pytest.approx(0.5, abs=0.01)


def test_a_type_rule_and_ignore_collisions_still_beat_a_positive_group():
    # The order written in broadphase.shape_response: ignored bodies first, then the filter
    # (the group), then a response set for the collision types.
    w = c2d.World(gravity=(0.0, -10.0))
    _floor(w)
    low, high = _drop(w, CRATE, y=0.5), _drop(w, CRATE, y=2.0)
    low.shapes[0].group = high.shapes[0].group = 1
    w.set_pair_response(CRATE, CRATE, "ignore")
    _fall(w, 60)
    assert high.position[1] == pytest.approx(0.5, abs=0.01)
    w2 = c2d.World(gravity=(0.0, -10.0))
    _floor(w2)
    a, b = _drop(w2, y=0.5), _drop(w2, y=2.0)
    a.shapes[0].group = b.shapes[0].group = 1
    w2.ignore_collisions(a, b)
    _fall(w2, 60)
    assert b.position[1] == pytest.approx(0.5, abs=0.01)


def test_a_shared_negative_group_never_collides_even_when_a_type_rule_says_solid():
    w = c2d.World(gravity=(0.0, -10.0))
    _floor(w)
    w.set_pair_response(CRATE, CRATE, "solid")
    low, high = _drop(w, CRATE, y=0.5), _drop(w, CRATE, y=2.0)
    low.shapes[0].group = high.shapes[0].group = -1
    _fall(w, 60)
    assert high.position[1] == pytest.approx(0.5, abs=0.01)
