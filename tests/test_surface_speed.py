"""Shape.surface_speed: conveyor belts for rigid bodies and character movers.

Oracles: Coulomb friction by hand (a crate dropped at rest on a belt accelerates at mu g
until it moves with the surface), the sign convention worked out from the outline's
direction (counter-clockwise along a box's top face is -x), and the mover's own kinematics
(carried at the belt speed times dt per frame).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0
G = 10.0
MU = 0.6  # the default friction: a pair uses sqrt(0.6 * 0.6)


def belt_world(speed, belt_first=True):
    """A crate resting on a static belt whose top is at y = 0; the belt created first (its
    shape row lower: the contact's shape a) or after the crate (shape b)."""
    w = c2d.World(gravity=(0.0, -G))

    def belt():
        s = w.add_body(kind="static").add_box(40.0, 1.0, offset=(0.0, -0.5))
        s.surface_speed = speed
        return s

    if belt_first:
        belt()
    crate = w.add_body(position=(0.0, 0.5))
    crate.add_box(1.0, 1.0)
    if not belt_first:
        belt()
    return w, crate


@pytest.mark.nojit
@pytest.mark.parametrize("belt_first", [True, False])
@pytest.mark.parametrize("speed", [2.0, -2.0])
def test_a_crate_on_a_belt_is_carried_the_way_the_sign_convention_says(speed, belt_first):
    # Counter-clockwise along a box's outline runs -x on its top face: a positive surface
    # speed carries what rests on top toward -x, a negative one toward +x.
    w, crate = belt_world(speed, belt_first)
    for _ in range(60):
        w.step(DT)
    assert crate.velocity[0] == pytest.approx(-speed, abs=1e-3)
    assert np.sign(crate.position[0]) == -np.sign(speed)
    assert crate.position[1] == pytest.approx(0.5, abs=0.01)


def test_a_crate_on_a_belt_accelerates_at_mu_g_until_it_reaches_the_belt_speed():
    # From rest, friction mu g = 6 m/s^2 brings it to 2 m/s at t = 1/3 s; at 0.2 s it
    # moves at 1.2 m/s, and once caught up it keeps the belt's speed.
    w, crate = belt_world(-2.0)
    for _ in range(12):
        w.step(DT)
    assert crate.velocity[0] == pytest.approx(MU * G * 12 * DT, rel=0.03)
    for _ in range(48):
        w.step(DT)
    assert crate.velocity[0] == pytest.approx(2.0, abs=1e-3)


def test_a_belt_matches_box2d_whose_tangent_speed_has_the_opposite_sign():
    # Box2D v3's tangent speed runs along its right-perpendicular tangent, clockwise round
    # the shape: its +2 on a ground's top carries a box toward +x, as our -2 does.
    b2 = pytest.importorskip("pyb2d3")
    bw = b2.World(gravity=(0.0, -G))
    ground = bw.create_static_body(position=(0.0, -0.5))
    ground.create_polygon_shape(b2.shape_def(material=b2.surface_material(tangent_speed=2.0)),
                                b2.box(20.0, 0.5))
    box = bw.create_dynamic_body(position=(0.0, 0.5))
    box.create_polygon_shape(b2.shape_def(density=1.0), b2.box(0.5, 0.5))
    w, crate = belt_world(-2.0)
    for _ in range(60):
        bw.step(DT, 4)
        w.step(DT)
    assert crate.velocity[0] == pytest.approx(box.linear_velocity[0], abs=1e-3)
    assert crate.position[0] == pytest.approx(box.position[0], abs=5e-3)


def test_a_belt_with_no_friction_carries_nothing():
    w, crate = belt_world(-2.0)
    for body in w.bodies:
        for shape in body.shapes:
            shape.friction = 0.0
    for _ in range(30):
        w.step(DT)
    assert crate.velocity[0] == 0.0


def test_a_circle_belt_turns_like_a_wheel():
    # A static circle of radius r with surface speed s moves its surface as a wheel turning
    # counter-clockwise at s / r: its top runs toward -x, carrying a crate on it that way.
    w = c2d.World(gravity=(0.0, -G))
    drum = w.add_body(kind="static").add_circle(1.0)
    drum.surface_speed = 1.0
    crate = w.add_body(position=(0.0, 1.25))
    crate.add_box(0.5, 0.5)
    for _ in range(10):
        w.step(DT)
    assert crate.velocity[0] < -0.3


def test_the_speeds_of_a_pair_add():
    # The belt's top runs +x at 1 m/s (speed -1). The crate's own surface speed -1 runs
    # its bottom face (+x counter-clockwise) toward -x at 1 m/s relative to the crate, like
    # a tank's tread: with no slip the crate's body moves at 1 + 1 = 2 m/s toward +x.
    w, crate = belt_world(-1.0)
    crate.shapes[0].surface_speed = -1.0
    for _ in range(90):
        w.step(DT)
    assert crate.velocity[0] == pytest.approx(2.0, abs=1e-3)


@pytest.mark.nojit
@pytest.mark.parametrize("value, error", [(math.nan, ValueError), (math.inf, ValueError),
                                          ("1", TypeError), (True, TypeError),
                                          (1e80, ValueError)])
def test_a_bad_surface_speed_is_refused_and_changes_nothing(value, error):
    w, crate = belt_world(0.0)
    before = w.snapshot()
    with pytest.raises(error, match="surface_speed"):
        crate.shapes[0].surface_speed = value
    assert w.snapshot() == before


@pytest.mark.nojit
def test_surface_speed_is_saved_only_when_used_and_restores_exactly():
    w, crate = belt_world(0.0)
    plain = w.snapshot()
    assert b"surface_speed" not in plain
    w2, crate2 = belt_world(-2.0)
    for _ in range(5):
        w2.step(DT)
    data = w2.snapshot()
    back = c2d.World.restore(data)
    assert back.bodies[0].shapes[0].surface_speed == -2.0
    for _ in range(20):
        w2.step(DT)
        back.step(DT)
    assert back.snapshot() == w2.snapshot()


def test_setting_a_belt_speed_wakes_what_sleeps_on_it():
    w, crate = belt_world(0.0)
    for _ in range(120):
        w.step(DT)
    assert not crate.awake
    w.bodies[0].shapes[0].surface_speed = -1.0
    for _ in range(60):
        w.step(DT)
    assert crate.velocity[0] == pytest.approx(1.0, abs=1e-3)


# ---------------------------------------------------------------------------- characters
def character_on_belt(speed):
    w = c2d.World(gravity=(0.0, 0.0))
    belt = w.add_body(kind="static").add_box(40.0, 1.0, offset=(0.0, -0.5))
    belt.surface_speed = speed
    hero = w.add_body(kind="kinematic", position=(0.0, 0.4 + 1e-5))
    hero.add_box(0.8, 0.8)
    return w, hero


@pytest.mark.nojit
def test_a_character_on_a_belt_is_carried_and_reports_the_floor_velocity():
    # Standing still (only gravity's pull down) on a belt of -1.5 m/s, whose top runs +x:
    # the first move finds the floor, every later move carries the mover 1.5 dt along +x.
    w, hero = character_on_belt(-1.5)
    x0 = float(hero.position[0])
    frames = 30
    for _ in range(frames):
        r = w.move_and_slide(hero, (0.0, -1.0), DT, up=(0, 1))
    assert r.on_floor
    assert r.floor_velocity.tolist() == pytest.approx([1.5, 0.0], abs=1e-12)
    assert hero.position[0] - x0 == pytest.approx(1.5 * DT * (frames - 1), rel=1e-9)
    assert hero.position[1] == pytest.approx(0.4, abs=1e-3)


@pytest.mark.nojit
@pytest.mark.parametrize("removed", ["body", "shape"])
def test_a_removed_belt_carries_its_character_no_further(removed):
    # Carried 1.5 dt a frame while the belt is there; once its body (or only its shape) is
    # gone the next move (straight down, nothing below) leaves x exactly where it was.
    w, hero = character_on_belt(-1.5)
    for _ in range(3):
        w.move_and_slide(hero, (0.0, -1.0), DT, up=(0, 1))
    x = float(hero.position[0])
    belt = w.bodies[0]
    w.remove(belt if removed == "body" else belt.shapes[0])
    r = w.move_and_slide(hero, (0.0, -1.0), DT, up=(0, 1))
    assert not r.on_floor
    assert float(hero.position[0]) == x
    assert float(hero.position[1]) == pytest.approx(0.4 - DT, abs=1e-4)


@pytest.mark.nojit
def test_a_belt_carries_a_character_into_a_wall_and_no_further():
    w, hero = character_on_belt(-3.0)
    wall = w.add_body(kind="static", position=(2.0, 1.0))
    wall.add_box(0.2, 2.0)  # its left face at x = 1.9: the hero stops with x = 1.5
    for _ in range(120):
        w.move_and_slide(hero, (0.0, -1.0), DT, up=(0, 1))
    assert hero.position[0] == pytest.approx(1.5, abs=1e-3)
    assert hero.position[0] < 1.5


@pytest.mark.nojit
def test_a_character_snapshot_on_a_belt_restores_and_moves_on_identically():
    w, hero = character_on_belt(-1.5)
    for _ in range(3):
        w.move_and_slide(hero, (0.0, -1.0), DT, up=(0, 1))
    back = c2d.World.restore(w.snapshot())
    hero2 = back.bodies[1]
    for _ in range(5):
        w.move_and_slide(hero, (0.0, -1.0), DT, up=(0, 1))
        back.move_and_slide(hero2, (0.0, -1.0), DT, up=(0, 1))
    assert hero2.position.tolist() == hero.position.tolist()


@pytest.mark.nojit
def test_a_character_world_without_belts_saves_no_floor_speed_and_restores():
    w, hero = character_on_belt(0.0)
    for _ in range(3):
        w.move_and_slide(hero, (1.0, -1.0), DT, up=(0, 1))
    data = w.snapshot()
    assert b"floor_speed" not in data
    back = c2d.World.restore(data)
    assert back.snapshot() == data
