"""Collision types: a shape's game tag, and contact and sensor handlers that select on it."""

import copy

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0

pytestmark = pytest.mark.nojit
PLAYER, COIN, WALL = 1, 2, 3


def _arena():
    """A coin (type COIN, created first so its shape id is the lower) and a wall (WALL) in
    a player's path (PLAYER), no gravity: the player moving right at 6 m/s overlaps the
    coin sensor at x = 1 and touches the wall at x = 3 (both worked out from the sizes)."""
    w = c2d.World(gravity=(0.0, 0.0))
    coin = w.add_body(kind="static", position=(1.0, 0.0)).add_circle(0.25, sensor=True)
    coin.collision_type = COIN
    wall = w.add_body(kind="static", position=(3.5, 0.0)).add_box(1.0, 4.0)
    wall.collision_type = WALL
    player = w.add_body(position=(0.0, 0.0), velocity=(6.0, 0.0))
    hull = player.add_circle(0.5)
    hull.collision_type = PLAYER
    crate = w.add_body(position=(0.0, 3.0))  # type 0, touching nothing
    crate.add_box(0.5, 0.5)
    return w, coin, wall, hull


def test_shapes_default_to_type_0_and_keep_what_is_set():
    w = c2d.World()
    s = w.add_body().add_box(1.0, 1.0)
    assert s.collision_type == 0
    s.collision_type = 12
    assert s.collision_type == 12


@pytest.mark.parametrize("value, error", [(-1, ValueError), (1.5, TypeError),
                                          (True, TypeError), ("1", TypeError),
                                          (2**64, ValueError)])
def test_a_bad_collision_type_is_refused_and_changes_nothing(value, error):
    w = c2d.World()
    s = w.add_body().add_box(1.0, 1.0)
    before = w.snapshot()
    with pytest.raises(error, match="collision_type"):
        s.collision_type = value
    assert w.snapshot() == before


@pytest.mark.parametrize("between, error", [((1,), TypeError), (1, TypeError),
                                            ((1, -2), ValueError), ((1, 2.0), TypeError),
                                            ((1, 2, 3), TypeError)])
def test_a_bad_between_is_refused(between, error):
    w = c2d.World()
    with pytest.raises(error, match="between"):
        w.on_contact_begin(print, between=between)


def test_a_typed_handler_sees_only_its_pair_with_shape_a_of_the_first_type():
    w, coin, wall, hull = _arena()
    seen = {"coin": [], "wall": [], "wall_rev": [], "all": []}
    w.on_sensor_begin(lambda ev: seen["coin"].append((ev.shape_a, ev.shape_b)),
                      between=(PLAYER, COIN))
    w.on_contact_begin(lambda ev: seen["wall"].append((ev.shape_a, ev.shape_b,
                                                       ev.normal.copy())),
                       between=(PLAYER, WALL))
    w.on_contact_begin(lambda ev: seen["wall_rev"].append((ev.shape_a, ev.shape_b,
                                                           ev.normal.copy())),
                       between=(WALL, PLAYER))
    w.on_contact_begin(lambda ev: seen["all"].append(ev))
    w.on_contact_begin(lambda ev: pytest.fail("no COIN-WALL contact exists"),
                       between=(COIN, WALL))
    for _ in range(40):  # 40 steps at 6 m/s: 4 m, past the coin and into the wall
        w.step(DT)
    # The coin's id is lower, so the untyped event would have it first; typed: the player.
    assert coin.id < hull.id
    assert seen["coin"] == [(hull, coin)]
    assert len(seen["wall"]) == 1 and len(seen["all"]) == 1
    a, b, n = seen["wall"][0]
    assert (a, b) == (hull, wall)
    np.testing.assert_allclose(n, (1.0, 0.0), atol=1e-12)  # from the player to the wall
    a, b, n = seen["wall_rev"][0]
    assert (a, b) == (wall, hull)
    np.testing.assert_allclose(n, (-1.0, 0.0), atol=1e-12)


def test_a_handler_for_one_type_twice_sees_pairs_of_that_type():
    w = c2d.World(gravity=(0.0, -10.0))
    ground = w.add_body(kind="static").add_box(10.0, 1.0, offset=(0.0, -0.5))
    lower = w.add_body(position=(0.0, 0.5)).add_box(1.0, 1.0)
    upper = w.add_body(position=(0.0, 1.5)).add_box(1.0, 1.0)
    lower.collision_type = upper.collision_type = 5
    got = []
    w.on_contact_begin(lambda ev: got.append({ev.shape_a, ev.shape_b}), between=(5, 5))
    w.step(DT)
    assert got == [{lower, upper}]  # not the ground-box contact
    assert ground.collision_type == 0


def test_decorator_forms_register_and_return_the_function():
    w, coin, wall, hull = _arena()
    got = []

    @w.on_sensor_end(between=(COIN, PLAYER))
    def left(ev):
        got.append(ev.shape_a)

    assert callable(left)
    for _ in range(40):
        w.step(DT)
    assert got == [coin]


def test_collision_types_are_saved_and_copied_and_unused_ones_cost_no_bytes():
    w, coin, wall, hull = _arena()
    plain = c2d.World(gravity=(0.0, 0.0))
    plain.add_body().add_box(1.0, 1.0)
    assert b"collision_type" not in plain.snapshot()
    assert b"collision_type" in w.snapshot()
    back = c2d.World.restore(w.snapshot())
    types = sorted(s.collision_type for b in back.bodies for s in b.shapes)
    assert types == [0, PLAYER, COIN, WALL]
    twin = copy.deepcopy(w)
    assert sorted(s.collision_type for b in twin.bodies for s in b.shapes) == types
