"""Character mover and its floor: the floor's velocity, dropping through one-way platforms,
snapping to the floor down slopes and over crests, and the call order with moving platforms.

Oracles: rigid-body kinematics by hand (v + w x r at the contact point), free flight in closed
form, shapely's exact distance between the mover's box and the ground polygon, and the lift's
own position (the step moves it; the expectations follow from where it is).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely.geometry import Polygon
from shapely.geometry import box as sbox

import collide2d as c2d

DT = 1.0 / 60.0
SKIN = 1e-5
G = 20.0
SLOPE = math.radians(27.0)


def kinematic_box(world, position, w=0.8, h=0.8, **kw):
    body = world.add_body(kind="kinematic", position=position, **kw)
    body.add_box(w, h)
    return body


def static_box(world, x0, y0, x1, y1):
    return world.add_body(kind="static").add_box(x1 - x0, y1 - y0,
                                                  offset=((x0 + x1) / 2, (y0 + y1) / 2))


# ---------------------------------------------------------------------------- floor velocity
@pytest.mark.nojit
def test_floor_velocity_is_the_platform_velocity_at_the_contact_point():
    world = c2d.World(gravity=(0, 0))
    static_box(world, -20, -1, -6, 0)
    # A platform 6 m wide, top at y = 0.25, moving (1, 0) m/s and turning at 0.5 rad/s.
    deck = world.add_body(kind="kinematic", velocity=(1.0, 0.0), angular_velocity=0.5)
    deck.add_box(6.0, 0.5)
    rider = kinematic_box(world, (1.5, 0.25 + 0.25 + SKIN), 0.5, 0.5)
    walker = kinematic_box(world, (-10.0, 0.4 + SKIN))
    r = world.move_and_slide(rider, (0.0, -1.0), DT, up=(0, 1))
    assert r.on_floor and r.contacts[0].shape is deck.shapes[0]
    # Under the rider's centre, (1.5, 0.25), r = (1.5, 0.25) from the deck's centre:
    # v + w x r = (1 - 0.5 * 0.25, 0 + 0.5 * 1.5).
    assert r.floor_velocity == pytest.approx((0.875, 0.75), abs=1e-9)
    # Static ground, and the air: zeros; the batch form gives the same rows.
    rs = world.move_and_slide_many([walker, rider], [(0.0, -1.0), (0.0, -1.0)], DT, up=(0, 1))
    assert rs.on_floor.tolist() == [True, True]
    assert rs.floor_velocity[0].tolist() == [0.0, 0.0]
    assert rs.floor_velocity[1] == pytest.approx((0.875, 0.75), abs=1e-9)
    r = world.move_and_slide(walker, (0.0, 5.0), DT, up=(0, 1))
    assert not r.on_floor and r.floor_velocity.tolist() == [0.0, 0.0]


@pytest.mark.nojit
def test_floor_velocity_is_zero_on_tiles():
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((3, 10), dtype=bool)
    grid[0, :] = True                                        # floor top at y = 1
    world.add_tilemap(grid)
    hero = kinematic_box(world, (3.0, 1.4 + SKIN))
    r = world.move_and_slide(hero, (2.0, -1.0), DT, up=(0, 1))
    assert r.on_floor and r.contacts[0].tilemap is not None
    assert r.floor_velocity.tolist() == [0.0, 0.0]


@pytest.mark.nojit
def test_a_jump_off_a_moving_platform_keeps_its_velocity():
    world = c2d.World(gravity=(0, 0))
    belt = world.add_body(kind="kinematic", velocity=(3.0, 0.0))
    belt.add_box(40.0, 0.5)                                  # top at y = 0.25
    hero = kinematic_box(world, (0.0, 0.25 + 0.4 + SKIN))
    r = world.move_and_slide(hero, (0.0, -G * DT), DT, up=(0, 1))
    assert r.floor_velocity.tolist() == [3.0, 0.0]
    x0, y0 = r.position
    v = r.velocity + r.floor_velocity + (0.0, 8.0)           # the documented idiom
    n = 30                                                   # in the air for 0.5 s
    for _ in range(n):
        v = v + (0.0, -G * DT)
        r = world.move_and_slide(hero, v, DT, up=(0, 1))
        v = r.velocity
        assert not r.on_floor
    # Free flight: x grows by 3 m/s; y by sum over k of (8 - G k DT) DT, k = 1..n.
    assert r.position[0] == pytest.approx(x0 + 3.0 * n * DT, abs=1e-12)
    assert r.position[1] == pytest.approx(y0 + (8.0 * n - G * DT * n * (n + 1) / 2) * DT,
                                          abs=1e-12)


# ---------------------------------------------------------------------------- drop through
@pytest.mark.nojit
def test_one_character_drops_through_a_oneway_platform_while_another_stands_on_it():
    world = c2d.World(gravity=(0, 0))
    static_box(world, -20, -1, 20, 0)
    plank = static_box(world, -6, 3.0, -2, 3.2)              # a one-way shape, top y = 3.2
    world.set_response(plank, "oneway")
    grid = np.zeros((6, 8), np.int64)
    grid[3, :] = 2                                           # one-way tiles, top y = 4
    tm = world.add_tilemap(grid, origin=(2.0, 0.0))          # x in [2, 10]
    tm.set_response(2, "oneway")
    y_plank, y_tile = 3.2 + 0.4 + SKIN, 4.0 + 0.4 + SKIN
    heroes = [kinematic_box(world, (x, y)) for x, y in
              ((-5.0, y_plank), (-3.0, y_plank), (4.0, y_tile), (7.0, y_tile))]
    ids = np.array([h.id for h in heroes])
    drop = np.array([True, False, True, False])
    vel = np.tile([0.0, -3.0], (4, 1))
    for k in range(1, 13):                                   # 0.6 m down at 3 m/s
        r = world.move_and_slide_many(ids, vel, DT, up=(0, 1), drop_through=drop)
        assert r.on_floor.tolist() == [False, True, False, True]
        # The droppers fall freely; the others stay where they stood.
        assert r.position[0, 1] == pytest.approx(y_plank - 3.0 * k * DT, abs=1e-12)
        assert r.position[2, 1] == pytest.approx(y_tile - 3.0 * k * DT, abs=1e-12)
        assert r.position[1, 1] == pytest.approx(y_plank, abs=1e-12)
        assert r.position[3, 1] == pytest.approx(y_tile, abs=1e-12)
    # More than the one-way margin below the tops, the droppers fall on without
    # drop_through; the others drop on request in the one-body form.
    for h, y in ((heroes[0], y_plank - 0.6), (heroes[2], y_tile - 0.6)):
        r = world.move_and_slide(h, (0.0, -3.0), DT, up=(0, 1))
        assert not r.on_floor and r.position[1] == pytest.approx(y - 3.0 * DT, abs=1e-12)
    for h, y in ((heroes[1], y_plank), (heroes[3], y_tile)):
        assert world.move_and_slide(h, (0.0, -3.0), DT, up=(0, 1)).on_floor
        r = world.move_and_slide(h, (0.0, -3.0), DT, up=(0, 1), drop_through=True)
        assert not r.on_floor and r.position[1] == pytest.approx(y - 3.0 * DT, abs=1e-12)
    # A solid floor still holds a dropper.
    r = world.move_and_slide(heroes[0], (0.0, -300.0), DT, up=(0, 1), drop_through=True)
    assert r.on_floor and r.position[1] == pytest.approx(0.4 + SKIN, abs=1e-9)


# ---------------------------------------------------------------------------- snap to floor
def crest_down_world(a=8.0):
    """Flat ground y = 0 for x <= 0, then a 27-degree slope down to x = a (one convex
    polygon)."""
    world = c2d.World(gravity=(0, 0))
    pts = [(-20.0, -20.0), (a, -20.0), (a, -a * math.tan(SLOPE)), (0.0, 0.0), (-20.0, 0.0)]
    world.add_body(kind="static").add_polygon(pts)
    return world, Polygon(pts)


def crest_up_world(a=8.0):
    """A 27-degree slope up from x = -a to a crest at (0, 0), then flat ground y = 0."""
    world = c2d.World(gravity=(0, 0))
    pts = [(-a, -20.0), (20.0, -20.0), (20.0, 0.0), (0.0, 0.0), (-a, -a * math.tan(SLOPE))]
    world.add_body(kind="static").add_polygon(pts)
    return world, Polygon(pts)


def walk(world, ground, start, x_range, snap, frames=120):
    """Walk right at 6 m/s under gravity, keeping the returned velocity (a platformer's
    loop); per frame with x in ``x_range``: on_floor and the box's distance to the ground."""
    hero = kinematic_box(world, start)
    v = np.zeros(2)
    floors, gaps = [], []
    for _ in range(frames):
        r = world.move_and_slide(hero, (6.0, v[1] - G * DT), DT, up=(0, 1),
                                 snap_to_floor=snap)
        v = r.velocity
        x, y = r.position
        if x_range[0] <= x <= x_range[1]:
            floors.append(r.on_floor)
            gaps.append(ground.distance(sbox(x - 0.4, y - 0.4, x + 0.4, y + 0.4)))
            assert not ground.intersects(sbox(x - 0.4, y - 0.4, x + 0.4, y + 0.4))
    return np.array(floors), np.array(gaps)


@pytest.mark.nojit
def test_walking_down_a_slope_and_over_its_crest_stays_on_the_floor_with_snap():
    world, ground = crest_down_world()
    floors, gaps = walk(world, ground, (-2.0, 0.4 + SKIN), (-1.0, 7.0), snap=0.2)
    assert len(floors) > 60
    assert floors.all()
    assert gaps.max() <= SKIN + 1e-9
    # Without it the same walk hops: in the air in some frames, well above the slope.
    world, ground = crest_down_world()
    floors, gaps = walk(world, ground, (-2.0, 0.4 + SKIN), (-1.0, 7.0), snap=0.0)
    assert not floors.all() and gaps.max() > 0.01


@pytest.mark.nojit
def test_walking_up_a_slope_over_its_crest_is_not_launched_with_snap():
    a = 8.0
    # On the slope y = x tan(27 deg) the box's bottom right corner (x + 0.4, y - 0.4) is
    # the lowest against it: start it a skin (along the normal) above the line.
    x = -6.0
    y = (x + 0.4) * math.tan(SLOPE) + 0.4 + SKIN / math.cos(SLOPE)
    world, ground = crest_up_world(a)
    floors, gaps = walk(world, ground, (x, y), (-5.0, 6.0), snap=0.2)
    assert len(floors) > 60
    assert floors.all()
    assert gaps.max() <= SKIN + 1e-9
    world, ground = crest_up_world(a)
    floors, gaps = walk(world, ground, (x, y), (-5.0, 6.0), snap=0.0)
    assert gaps.max() > 0.05                                  # launched off the crest


@pytest.mark.nojit
def test_snap_leaves_jumps_and_deep_drops_alone():
    world = c2d.World(gravity=(0, 0))
    static_box(world, -20, -1, 0, 0)                         # a ledge ending at x = 0
    static_box(world, -20, -10, 20, -9)                      # the ground 9 m below
    hero = kinematic_box(world, (-2.0, 0.4 + SKIN))
    # A jump (moving up) is not pulled back.
    r = world.move_and_slide(hero, (0.0, 5.0), DT, up=(0, 1), snap_to_floor=0.2)
    assert not r.on_floor and r.position[1] == pytest.approx(0.4 + SKIN + 5.0 * DT, abs=1e-12)
    # Off the ledge the floor is 9 m down, beyond the snap: it walks on into the air.
    hero.position = (-0.3, 0.4 + SKIN)
    r = world.move_and_slide(hero, (60.0, 0.0), DT, up=(0, 1), snap_to_floor=0.2)
    assert not r.on_floor and r.position == pytest.approx((0.7, 0.4 + SKIN), abs=1e-12)
    # Started in the air: not snapped even with a floor within reach.
    hero.position = (-2.0, 0.5)
    r = world.move_and_slide(hero, (6.0, 0.0), DT, up=(0, 1), snap_to_floor=0.2)
    assert not r.on_floor and r.position == pytest.approx((-1.9, 0.5), abs=1e-12)


# ---------------------------------------------------------------------------- call order
@pytest.mark.nojit
@pytest.mark.parametrize("speed", [1.5, -1.5])
@pytest.mark.nojit
def test_riders_on_a_lift_end_each_frame_touching_it_when_moved_after_the_step(speed):
    world = c2d.World(gravity=(0, -9.81))
    lift = world.add_body(kind="kinematic", position=(0.0, 5.0))
    lift.add_box(6.0, 0.5)
    riders = [kinematic_box(world, (x, 5.25 + 0.4 + SKIN)) for x in (-2.0, 0.5, 2.0)]
    ids = np.array([b.id for b in riders])
    vel = np.zeros((3, 2))
    world.move_and_slide_many(ids, vel + (0.0, -G * DT), DT, up=(0, 1))
    lift.velocity = (0.0, speed)
    for _ in range(60):
        world.step(DT)
        r = world.move_and_slide_many(ids, vel + (0.0, -G * DT), DT, up=(0, 1))
        vel = r.velocity
        assert r.on_floor.all()
        gap = r.position[:, 1] - 0.4 - (lift.position[1] + 0.25)
        assert (gap >= -1e-9).all() and (gap <= SKIN + 1e-9).all()
    # Moved before the step instead, the lift moves on after the riders settled on it:
    # going up they end inside it by its travel in a frame, going down above it by as much.
    for _ in range(5):
        r = world.move_and_slide_many(ids, vel + (0.0, -G * DT), DT, up=(0, 1))
        vel = r.velocity
        world.step(DT)
        gap = r.position[:, 1] - 0.4 - (lift.position[1] + 0.25)
        assert gap == pytest.approx(np.full(3, SKIN - speed * DT), abs=1e-9)


# ---------------------------------------------------------------------------- validation
@pytest.mark.nojit
def test_floor_arguments_are_validated_and_a_failed_call_changes_nothing():
    world = c2d.World()
    hero = kinematic_box(world, (1.0, 2.0))
    other = kinematic_box(world, (3.0, 2.0))
    before = world.snapshot()
    one = [
        (dict(snap_to_floor=-0.1, up=(0, 1)), ValueError, "snap_to_floor"),
        (dict(snap_to_floor=math.nan, up=(0, 1)), ValueError, "snap_to_floor"),
        (dict(snap_to_floor=math.inf, up=(0, 1)), ValueError, "snap_to_floor"),
        (dict(snap_to_floor="0.2", up=(0, 1)), TypeError, "snap_to_floor"),
        (dict(snap_to_floor=0.2), ValueError, "snap_to_floor.*up"),
        (dict(drop_through="yes"), TypeError, "drop_through"),
        (dict(drop_through=2), TypeError, "drop_through"),
        (dict(drop_through=np.array([True])), TypeError, "drop_through"),
    ]
    for kwargs, exc, word in one:
        with pytest.raises(exc, match=word):
            world.move_and_slide(hero, (1.0, 0.0), 0.1, **kwargs)
        assert world.snapshot() == before
    many = [
        (dict(drop_through=np.array([True])), ValueError, "drop_through"),
        (dict(drop_through=np.array([True, False, True])), ValueError, "drop_through"),
        (dict(drop_through=np.array([1, 0])), TypeError, "drop_through"),
        (dict(drop_through=[True, None]), TypeError, "drop_through"),
        (dict(drop_through=None), TypeError, "drop_through"),
        (dict(snap_to_floor=0.2), ValueError, "snap_to_floor"),
    ]
    for kwargs, exc, word in many:
        with pytest.raises(exc, match=word):
            world.move_and_slide_many([hero, other], [(1.0, 0.0), (1.0, 0.0)], 0.1, **kwargs)
        assert world.snapshot() == before
    # Accepted forms.
    world.move_and_slide(hero, (1.0, 0.0), 0.1, up=(0, 1), drop_through=np.bool_(True),
                         snap_to_floor=0.2)
    world.move_and_slide_many([hero, other], [(1.0, 0.0), (1.0, 0.0)], 0.1,
                              drop_through=[True, False], snap_to_floor=0)
