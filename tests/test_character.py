"""Character mover: collide-and-slide against static shapes, platformer behaviour, responses,
moving platforms, characters among characters, hitbox events, batch form, validation.

Oracles: shapely (exact distances to the union of obstacles; circles as a centre and a radius,
never a polygonal buffer), closed forms (wall and slope geometry), and the single-body form
for the batch form.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry import box as sbox
from shapely.ops import unary_union

import collide2d as c2d

DT = 1.0 / 60.0
SKIN = 1e-5


def kinematic_box(world, position, w=0.8, h=0.8, **kw):
    body = world.add_body(kind="kinematic", position=position, **kw)
    body.add_box(w, h)
    return body


def static_box(world, x0, y0, x1, y1):
    return world.add_body(kind="static").add_box(x1 - x0, y1 - y0,
                                                  offset=((x0 + x1) / 2, (y0 + y1) / 2))


# ---------------------------------------------------------------------------- basics
@pytest.mark.nojit
def test_slide_along_a_wall_closed_form():
    world = c2d.World()
    wall = static_box(world, 2.5, -5, 3.5, 5)
    hero = kinematic_box(world, (0.0, 0.0), 1.0, 1.0)
    r = world.move_and_slide(hero, (10.0, 10.0), 0.5)      # wants (5, 5); wall face x = 2.5
    assert r.position == pytest.approx((2.0 - SKIN, 5.0), abs=1e-12)
    assert r.velocity.tolist() == [0.0, 10.0]
    assert r.on_wall and not r.on_floor and not r.on_ceiling
    (c,) = r.contacts
    # From the mover to the wall on its right (docs/geometry-rules.md#normals).
    assert c.normal.tolist() == [1.0, 0.0] and c.shape is wall and c.tile is None
    assert c.own_shape is hero.shapes[0] and c.response == "slide"
    assert hero.position == pytest.approx(r.position)
    assert hero.velocity.tolist() == [0.0, 0.0]              # the body's velocity is untouched
    assert world.is_character(hero)


@pytest.mark.nojit
def test_free_move_and_result_fields():
    world = c2d.World()
    hero = kinematic_box(world, (1.0, 2.0))
    r = world.move_and_slide(hero, (3.0, -4.0), 0.5)
    assert r._fields == ("position", "velocity", "contacts", "on_floor", "on_wall",
                         "on_ceiling", "floor_velocity")
    assert r.floor_velocity.tolist() == [0.0, 0.0]
    assert r.position.tolist() == [2.5, 0.0] and r.velocity.tolist() == [3.0, -4.0]
    assert r.contacts == [] and not (r.on_floor or r.on_wall or r.on_ceiling)


@pytest.mark.nojit
def test_circle_mover_lands_on_a_segment():
    world = c2d.World()
    ground = world.add_body(kind="static").add_segment((-10, 0), (10, 0))
    ball = world.add_body(kind="kinematic", position=(0.0, 2.0))
    ball.add_circle(0.5)
    r = world.move_and_slide(ball, (3.0, -6.0), 0.5, up=(0, 1))   # lands after 1.5 of 3 m
    assert r.on_floor and r.contacts[0].shape is ground
    assert r.position[1] == pytest.approx(0.5, abs=1e-4)
    assert r.position[0] == pytest.approx(1.5, abs=1e-4)
    assert r.velocity == pytest.approx((3.0, 0.0), abs=1e-9)


def test_corner_push_stops_without_jitter():
    world = c2d.World()
    static_box(world, -1, -1, 10, 0)                         # floor
    static_box(world, -1, 0, 0, 10)                          # wall
    hero = kinematic_box(world, (3.0, 3.0))
    ps = []
    for _ in range(120):
        r = world.move_and_slide(hero, (-5.0, -5.0), DT, up=(0, 1))
        ps.append(r.position)
    assert r.on_floor and r.on_wall and r.velocity.tolist() == [0.0, 0.0]
    assert r.position == pytest.approx((0.4, 0.4), abs=2 * SKIN)
    assert np.abs(np.diff(np.array(ps[-60:]), axis=0)).max() == 0.0     # no jitter at all


def test_crack_between_two_walls_is_not_squeezed_through():
    """A V-shaped crack narrower than the box: pushing into it wedges the box, never
    through, and it stays still."""
    world = c2d.World()
    body = world.add_body(kind="static")
    body.add_polygon([(-5, 0), (-0.3, 0), (-5, 8)])          # left wall leaning in
    body.add_polygon([(0.3, 0), (5, 0), (5, 8)])             # right wall leaning in
    static_box(world, -5, -1, 5, 0)
    hero = kinematic_box(world, (0.0, 6.0), 1.2, 0.6)
    solid = unary_union([Polygon([(-5, 0), (-0.3, 0), (-5, 8)]),
                         Polygon([(0.3, 0), (5, 0), (5, 8)]), sbox(-5, -1, 5, 0)])
    ps = []
    for _ in range(200):
        r = world.move_and_slide(hero, (0.0, -30.0), DT)
        poly = Polygon(hero.shapes[0].world_parts()[0])
        assert not poly.buffer(-1e-6).intersects(solid)
        ps.append(r.position)
    assert ps[-1][1] > 0.3                                   # wedged above the crack bottom
    assert np.abs(np.diff(np.array(ps[-50:]), axis=0)).max() <= 1e-9


# ---------------------------------------------------------------------------- slopes
def slope_world(degrees):
    world = c2d.World()
    a = math.radians(degrees)
    world.add_body(kind="static").add_polygon(
        [(-20, -20 * math.tan(a)), (20, 20 * math.tan(a)), (20, -100), (-20, -100)])
    return world, a


def test_standing_still_on_a_30_degree_slope_under_gravity():
    world, a = slope_world(30)
    hero = kinematic_box(world, (0.0, 1.0))
    v = np.zeros(2)
    ps = []
    for _ in range(180):
        r = world.move_and_slide(hero, v + (0.0, -20.0 * DT), DT, up=(0, 1))
        v = r.velocity
        ps.append(r.position)
    assert r.on_floor and v.tolist() == [0.0, 0.0]
    assert np.abs(np.diff(np.array(ps[-120:]), axis=0)).max() == 0.0
    # Resting on the slope: the box's lower-right corner on the surface y = x tan(a).
    x, y = r.position
    gap = ((y - 0.4) - (x + 0.4) * math.tan(a)) * math.cos(a)
    assert gap == pytest.approx(SKIN, abs=1e-7)
    assert abs(x) < 1e-12                                    # never crept sideways


def test_walking_up_a_slope_and_sliding_down_a_steep_one():
    world, a = slope_world(30)
    hero = kinematic_box(world, (0.0, 1.0))
    v = np.zeros(2)
    for _ in range(60):
        r = world.move_and_slide(hero, (3.0, v[1] - 20.0 * DT), DT, up=(0, 1))
        v = r.velocity
    assert r.on_floor and r.position[0] > 1.5               # walks uphill
    steep, b = slope_world(60)                               # steeper than 45 degrees
    hero = kinematic_box(steep, (0.0, 2.0))
    v = np.zeros(2)
    for _ in range(60):
        r = steep.move_and_slide(hero, v + (0.0, -20.0 * DT), DT, up=(0, 1))
        v = r.velocity
    assert r.on_wall and not r.on_floor and r.position[0] < -0.5   # slides down it
    assert v @ np.array([math.cos(b), math.sin(b)]) < 0.0


# ---------------------------------------------------------------------------- random rooms
def test_random_polygon_rooms_fast_movers_never_overlap():
    rng = np.random.default_rng(3)
    for _ in range(10):
        world = c2d.World()
        w, h = rng.uniform(8, 20, 2)
        room = [(-1, -1, w + 1, 0), (-1, h, w + 1, h + 1), (-1, 0, 0, h), (w, 0, w + 1, h)]
        geoms = []
        for x0, y0, x1, y1 in room:
            static_box(world, x0, y0, x1, y1)
            geoms.append(sbox(x0, y0, x1, y1))
        for _ in range(rng.integers(3, 10)):
            n = rng.integers(3, 8)
            ang = np.sort(rng.uniform(0, 2 * np.pi, n))
            centre = rng.uniform((0, 0), (w, h))
            verts = rng.uniform(0.3, 2.0) * np.c_[np.cos(ang), np.sin(ang)]
            poly = Polygon(verts + centre)
            if poly.area < 0.05:
                continue
            world.add_body(kind="static", position=centre).add_polygon(verts)
            geoms.append(poly)
        c = rng.uniform((1, 1), (w - 1, h - 1))
        world.add_body(kind="static", position=c).add_circle(0.6)
        geoms.append(Point(c).buffer(0.6, 256))    # only for choosing start points
        a, b = (1.0, 1.0), (w - 1.0, h / 2)
        world.add_body(kind="static").add_segment(a, b)
        geoms.append(LineString([a, b]))
        exact = unary_union([g for g in geoms if not isinstance(g, Polygon) or
                             g.exterior.coords.__len__() < 200])
        movers, kinds = [], []
        for _ in range(200):
            if len(movers) == 6:
                break
            p = rng.uniform((0.5, 0.5), (w - 0.5, h - 0.5))
            if rng.random() < 0.4:
                r = rng.uniform(0.1, 0.4)
                if unary_union(geoms).distance(Point(p)) <= r + 1e-3:
                    continue
                body = world.add_body(kind="kinematic", position=p)
                body.add_circle(r)
                kinds.append(("circle", r))
            else:
                hw, hh = rng.uniform(0.1, 0.4, 2)
                ang = float(rng.choice([0.0, rng.uniform(0, np.pi)]))
                body = world.add_body(kind="kinematic", position=p, angle=ang)
                body.add_box(2 * hw, 2 * hh)
                if unary_union(geoms).distance(Polygon(body.shapes[0].world_parts()[0])) < 1e-3:
                    world.remove(body)
                    continue
                kinds.append(("box", 0.0))
            movers.append(body)
        ids = np.array([m.id for m in movers])
        circle_centre, circle_r = c, 0.6
        for _ in range(25):
            speed = rng.choice([0.05, 3.0, 30.0, 200.0], size=(len(ids), 1))
            world.move_and_slide_many(ids, rng.normal(size=(len(ids), 2)) * speed, 1.0)
            for body, (kind, r) in zip(movers, kinds, strict=True):
                if kind == "circle":
                    centre = body.position
                    pt = Point(centre)
                    d = -1.0 if exact.contains(pt) else exact.distance(pt)
                    assert d >= r - 1e-6
                    assert np.hypot(*(centre - circle_centre)) >= r + circle_r - 1e-6
                else:
                    poly = Polygon(body.shapes[0].world_parts()[0])
                    assert not poly.buffer(-1e-6).intersects(exact)
                    assert Point(circle_centre).distance(poly) >= circle_r - 1e-6
                p = body.position
                assert -0.01 < p[0] < w + 0.01 and -0.01 < p[1] < h + 0.01


def test_batch_equals_one_by_one():
    rng = np.random.default_rng(5)
    grid = np.zeros((30, 30), bool)
    grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = True
    grid[rng.integers(1, 29, 80), rng.integers(1, 29, 80)] = True
    starts = [(i + 0.5, j + 0.5) for j, i in np.argwhere(~grid)[::37]]
    vels = rng.normal(size=(len(starts), 2)) * 20
    worlds = []
    for _ in range(2):
        w = c2d.World()
        w.add_tilemap(grid)
        static_box(w, 10, 10, 12, 11)
        worlds.append((w, [kinematic_box(w, p, 0.6, 0.7) for p in starts]))
    (wa, ba), (wb, bb) = worlds
    for _ in range(20):
        r = wa.move_and_slide_many(ba, vels, 0.1, up=(0, 1))
        for k, body in enumerate(bb):
            one = wb.move_and_slide(body, vels[k], 0.1, up=(0, 1))
            assert r.position[k].tolist() == one.position.tolist()
            assert r.velocity[k].tolist() == one.velocity.tolist()
            assert (r.on_floor[k], r.on_wall[k], r.on_ceiling[k]) == (
                one.on_floor, one.on_wall, one.on_ceiling)
            rows = r.contact_index == k
            assert np.array_equal(r.contact_normal[rows],
                                  np.array([c.normal for c in one.contacts]).reshape(-1, 2))
        vels = np.where(r.on_wall[:, None], -vels, vels)


@pytest.mark.nojit
def test_move_outputs_are_kept_buffers_grown_on_request_and_results_are_copies():
    world = c2d.World(gravity=(0.0, 0.0))
    grid = np.ones((10, 42), dtype=bool)
    grid[1:-1, 1:-1] = False
    world.add_tilemap(grid)
    ids = np.array([kinematic_box(world, (1.5 + k, 5.0)).id for k in range(40)])
    buffers = world._characters.buffers
    assert buffers.contacts.mover.shape[0] < 40 * 8   # this move needs more rows: grown
    first = world.move_and_slide_many(ids, np.tile((0.0, -60.0), (40, 1)), 0.1)
    table = buffers.contacts
    assert table.mover.shape[0] >= 40 * 8
    assert first.contact_index.tolist() == list(range(40))   # each lands on the floor
    again = world.move_and_slide_many(ids, np.tile((0.0, 100.0), (40, 1)), 0.1)
    assert buffers.contacts is table                            # nothing reallocated
    # Normals point from the mover to what it met: up into the ceiling, down to the floor.
    assert again.contact_normal[:, 1].tolist() == [1.0] * 40    # the ceiling
    assert first.contact_normal[:, 1].tolist() == [-1.0] * 40   # earlier results kept
    for arr in first:
        for buf in (*table, *buffers.movers):
            assert not np.shares_memory(arr, buf)


# ---------------------------------------------------------------------------- responses
def test_shape_responses_touch_cross_bounce():
    world = c2d.World()
    touch = static_box(world, 5, -2, 6, 2)
    cross = static_box(world, 15, -2, 16, 2)
    bounce = static_box(world, 25, -2, 26, 2)
    world.set_response(touch, "touch")
    world.set_response(cross, "cross")
    world.set_response(bounce, "bounce")
    assert [world.response(s) for s in (touch, cross, bounce)] == ["touch", "cross", "bounce"]
    a = kinematic_box(world, (3.0, 0.0))
    r = world.move_and_slide(a, (5.0, 1.0), 1.0)
    assert r.velocity.tolist() == [0.0, 0.0] and r.position[0] == pytest.approx(4.6 - SKIN)
    b = kinematic_box(world, (13.0, 0.0))
    r = world.move_and_slide(b, (5.0, 0.0), 1.0)
    assert r.position[0] == pytest.approx(18.0)
    assert [(c.shape, c.response) for c in r.contacts] == [(cross, "cross")]
    c = kinematic_box(world, (23.0, 0.0))
    r = world.move_and_slide(c, (3.0, 0.0), 1.0)            # 1.6 m to the face, 1.4 back
    assert r.velocity.tolist() == [-3.0, 0.0]
    assert r.position[0] == pytest.approx(24.6 - 1.4, abs=1e-4)


def test_oneway_shape_jump_through_and_land():
    world = c2d.World()
    static_box(world, -10, -1, 10, 0)
    plank = static_box(world, -2, 3.0, 2, 3.2)
    world.set_response(plank, "oneway")
    hero = kinematic_box(world, (0.0, 0.4 + SKIN))
    v = np.array([0.0, 14.0])                                # apex 4.9 m higher
    seen_inside = False
    for _ in range(150):
        r = world.move_and_slide(hero, v + (0.0, -20.0 * DT), DT, up=(0, 1))
        v = r.velocity
        seen_inside |= 2.6 < r.position[1] < 3.6
        if r.on_floor and r.position[1] > 3:
            break
    assert seen_inside and r.on_floor
    assert r.position[1] == pytest.approx(3.6, abs=2 * SKIN)
    assert r.contacts[-1].shape is plank and r.contacts[-1].response == "oneway"


def test_moving_platforms_carry_what_stands_on_them():
    world = c2d.World(gravity=(0, 0))
    static_box(world, -50, -1, 50, 0)
    lift = world.add_body(kind="kinematic", position=(0.0, 1.0), velocity=(2.0, 1.0))
    lift.add_box(4.0, 0.5)                                   # top at y = 1.25 + t
    hero = kinematic_box(world, (0.5, 1.65 + SKIN))
    r = world.move_and_slide(hero, (0.0, -20.0 * DT), DT, up=(0, 1))   # stands on the lift
    assert r.on_floor and r.contacts[0].shape is lift.shapes[0]
    v = r.velocity
    for _ in range(120):
        world.step(DT)
        r = world.move_and_slide(hero, v + (0.0, -20.0 * DT), DT, up=(0, 1))
        v = r.velocity
        assert r.on_floor
        assert r.position - lift.position == pytest.approx((0.5, 0.65), abs=2 * SKIN)
    lift.velocity = (0.0, -1.5)                              # going down: the hero follows
    for _ in range(30):
        world.step(DT)
        r = world.move_and_slide(hero, v + (0.0, -20.0 * DT), DT, up=(0, 1))
        v = r.velocity
        assert r.position - lift.position == pytest.approx((0.5, 0.65), abs=2 * SKIN)
    # Stepping off: no more carrying.
    for _ in range(60):
        world.step(DT)
        r = world.move_and_slide(hero, (6.0, v[1] - 20.0 * DT), DT, up=(0, 1))
        v = r.velocity
    x_before = r.position[0]
    world.step(DT)
    r = world.move_and_slide(hero, (0.0, v[1] - 20.0 * DT), DT, up=(0, 1))
    assert r.position[0] == pytest.approx(x_before, abs=1e-12)


# ---------------------------------------------------------------------------- characters
def test_characters_pass_through_each_other_by_default_block_and_push_on_request():
    world = c2d.World(gravity=(0, 0))
    a = kinematic_box(world, (0.0, 0.0))
    b = kinematic_box(world, (3.0, 0.0))
    world.set_character(b)
    r = world.move_and_slide(a, (6.0, 0.0), 1.0)
    assert r.position[0] == pytest.approx(6.0) and r.contacts == []
    world.character_response = "block"
    r = world.move_and_slide(a, (-6.0, 0.0), 1.0)
    assert r.position[0] == pytest.approx(3.8 + SKIN)
    assert r.contacts[0].shape is b.shapes[0]
    crate = world.add_body(position=(8.0, 0.0))              # a dynamic box
    crate.add_box(1.0, 1.0)
    world.character_response = "push"
    r = world.move_and_slide(a, (4.0, 0.0), 1.0)
    assert r.position[0] == pytest.approx(7.1 - SKIN)
    assert crate.velocity[0] == pytest.approx(4.0)           # handed the mover's speed
    world.character_response = "cross"
    with pytest.raises(ValueError, match="character_response"):
        world.character_response = "shove"


def test_hitboxes_report_which_shape_of_which_body_met_which():
    """Two hitboxes per character, a body box (solid) and a weapon box (sensor), tell hits
    taken from hits given; overlaps are sensor events of world.step, naming the shapes."""
    world = c2d.World(gravity=(0, 0))
    grid = np.zeros((10, 20), bool)
    grid[0, :] = True
    world.add_tilemap(grid)
    knight = world.add_body(kind="kinematic", position=(3.0, 2.0))
    knight_body = knight.add_box(0.8, 0.8)
    sword = knight.add_box(0.8, 0.2, offset=(0.8, 0.0), sensor=True)
    orc = world.add_body(kind="kinematic", position=(8.0, 2.0))
    orc_body = orc.add_box(0.8, 0.8)
    orc_axe = orc.add_box(0.6, 0.2, offset=(-0.7, 0.0), sensor=True)
    began, ended = [], []
    world.on_sensor_begin(lambda e: began.append({e.shape_a, e.shape_b}))
    world.on_sensor_end(lambda e: ended.append({e.shape_a, e.shape_b}))
    ids = np.array([knight.id, orc.id])
    for _ in range(30):                                      # walk towards each other
        world.move_and_slide_many(ids, [(4.0, 0.0), (-4.0, 0.0)], DT)
        world.step(DT)
    assert abs(knight.position[0] - orc.position[0]) < 1.6   # overlapping, not blocked
    assert {sword, orc_body} in began and {orc_axe, knight_body} in began
    assert {sword, orc_axe} in began
    overlaps = {tuple(p) for p in world.sensor_overlaps().tolist()}
    assert tuple(sorted((sword.id, orc_body.id))) in overlaps
    assert (min(knight_body.id, orc_body.id), max(knight_body.id, orc_body.id)) not in \
        overlaps                                             # two solid boxes: no event
    for _ in range(60):                                      # and apart again
        world.move_and_slide_many(ids, [(-4.0, 0.0), (4.0, 0.0)], DT)
        world.step(DT)
    assert {sword, orc_body} in ended
    assert world.sensor_overlaps().shape == (0, 2)


def test_dynamic_characters_overlap_with_sensor_events():
    """Characters as dynamic bodies in a world with dynamic_response="sensor": the mover lets
    them pass through each other; world.step reports the overlap of their solid boxes."""
    world = c2d.World(gravity=(0, 0), dynamic_response="sensor")
    a = world.add_body(position=(0.0, 0.0))
    box_a = a.add_box(1.0, 1.0)
    b = world.add_body(position=(3.0, 0.0))
    box_b = b.add_box(1.0, 1.0)
    began, ended = [], []
    world.on_sensor_begin(lambda e: began.append((e.shape_a, e.shape_b)))
    world.on_sensor_end(lambda e: ended.append((e.shape_a, e.shape_b)))
    r = world.move_and_slide_many([a, b], [(1.5, 0.0), (-1.5, 0.0)], 1.0)
    assert r.position[:, 0].tolist() == [1.5, 1.5] and len(r.contact_index) == 0
    world.step(DT)
    assert began == [(box_a, box_b)]
    assert world.sensor_overlaps().tolist() == [[box_a.id, box_b.id]]
    world.move_and_slide_many([a, b], [(-2.0, 0.0), (2.0, 0.0)], 1.0)
    world.step(DT)
    assert ended == [(box_a, box_b)]


def test_several_solid_shapes_on_one_mover_all_collide():
    world = c2d.World()
    static_box(world, 5, -10, 6, 10)
    hero = world.add_body(kind="kinematic")
    hero.add_box(1.0, 1.0)
    shield = hero.add_box(0.2, 1.0, offset=(1.0, 0.0))       # sticks out 1.1 m ahead
    r = world.move_and_slide(hero, (10.0, 0.0), 1.0)
    assert r.position[0] == pytest.approx(3.9 - SKIN)
    assert r.contacts[0].own_shape is shield


# ---------------------------------------------------------------------------- validation
@pytest.mark.nojit
def test_argument_errors_name_the_argument_and_change_nothing():
    world = c2d.World()
    hero = kinematic_box(world, (1.0, 2.0))
    wall = world.add_body(kind="static")
    other = c2d.World().add_body(kind="kinematic")
    bad = [
        (dict(body=hero, velocity=(1, 2, 3), dt=0.1), ValueError, "velocity"),
        (dict(body=hero, velocity=(1, np.nan), dt=0.1), ValueError, "velocity"),
        (dict(body=hero, velocity=(1, 2), dt=0.0), ValueError, "dt"),
        (dict(body=hero, velocity=(1, 2), dt=0.1, max_slides=0), ValueError, "max_slides"),
        (dict(body=hero, velocity=(1, 2), dt=0.1, up=(0, 0)), ValueError, "up"),
        (dict(body=hero, velocity=(1, 2), dt=0.1, max_floor_angle=4.0), ValueError,
         "max_floor_angle"),
        (dict(body=wall, velocity=(1, 2), dt=0.1), ValueError, "static"),
        (dict(body=other, velocity=(1, 2), dt=0.1), TypeError, "body"),
        (dict(body="hero", velocity=(1, 2), dt=0.1), TypeError, "body"),
    ]
    for kwargs, exc, word in bad:
        with pytest.raises(exc, match=word):
            world.move_and_slide(**kwargs)
        assert hero.position.tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="more than once"):
        world.move_and_slide_many([hero, hero], [(1, 0), (1, 0)], 0.1)
    with pytest.raises(ValueError, match="velocities"):
        world.move_and_slide_many([hero], [(1, 0), (1, 0)], 0.1)
    with pytest.raises(ValueError, match="bodies"):
        world.move_and_slide_many(np.array([99]), [(1, 0)], 0.1)
    with pytest.raises(ValueError, match="response"):
        world.set_response(hero.shapes[0], "glue")
    with pytest.raises(ValueError, match="character_skin"):
        world.character_skin = 0.0
    assert hero.position.tolist() == [1.0, 2.0]
    assert world.character_skin == SKIN and world.oneway_margin == 0.05


@pytest.mark.nojit
def test_removed_shape_rows_forget_their_response():
    world = c2d.World()
    s = static_box(world, 0, 0, 1, 1)
    world.set_response(s, "cross")
    world.remove(s)
    s2 = static_box(world, 0, 0, 1, 1)                       # may reuse the row
    assert world.response(s2) == "slide"
