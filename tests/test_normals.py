"""One normal convention across the public API (docs/geometry-rules.md#normals).

Every result with a normal between two things A and B points from A to B: geometry's pair
functions and their batch forms, the world's contacts, ``query_shape``, ``shape_cast`` and
the character mover's contacts. A segment, ray or particle hit carries the outward surface
normal of what it hit instead. One hand case runs through all of them: two unit boxes, B to
the right of A, overlapping by 0.2 along x (or, for the swept forms, 1 m apart).
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

import collide2d as c2d
from collide2d import geometry, queries

nojit = pytest.mark.nojit

A = np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])
B = A + (0.8, 0.0)       # overlaps A by 0.2 along x
B_FAR = A + (2.0, 0.0)   # 1 m to the right of A
RIGHT = [1.0, 0.0]
LEFT = [-1.0, 0.0]


@nojit
def test_pair_functions_point_from_a_to_b():
    pen = c2d.penetration(A, B)
    assert_allclose(pen.normal, RIGHT, atol=1e-15)
    assert pen.depth == pytest.approx(0.2, abs=1e-15)
    # -depth * normal moves A out, +depth * normal moves B out: both just touch.
    assert not c2d.polygons_overlap(A - pen.depth * pen.normal - (1e-9, 0), B)
    assert c2d.penetration(A - pen.depth * pen.normal, B) is None
    assert c2d.penetration(A, B + pen.depth * pen.normal) is None
    assert c2d.penetration(A + pen.depth * pen.normal, B).depth == pytest.approx(0.4)
    # Swapping the pair reverses the normal.
    assert_allclose(c2d.penetration(B, A).normal, LEFT, atol=1e-15)
    assert_allclose(c2d.contact_points(A, B).normal, RIGHT, atol=1e-15)
    assert_allclose(c2d.contact_points(B, A).normal, LEFT, atol=1e-15)
    # sweep: overlapping at the start gives penetration's normal; a later first touch the
    # contact normal at that time, also from A to B (A closing along +normal).
    start = c2d.sweep(A, (1.0, 0.0), B)
    assert start.time == 0.0 and start.depth == pytest.approx(0.2)
    assert_allclose(start.normal, RIGHT, atol=1e-15)
    hit = c2d.sweep(A, (2.0, 0.0), B_FAR)
    assert hit.time == pytest.approx(0.5) and hit.depth == 0.0
    assert_allclose(hit.normal, RIGHT, atol=1e-15)
    assert np.dot((2.0, 0.0), hit.normal) > 0
    # B moving onto a still A: still from A to B.
    assert_allclose(c2d.sweep(A, (0.0, 0.0), B_FAR, (-2.0, 0.0)).normal, RIGHT, atol=1e-15)
    assert_allclose(c2d.sweep(B_FAR, (-2.0, 0.0), A).normal, LEFT, atol=1e-15)


@nojit
def test_batch_forms_point_from_the_first_of_each_pair_to_the_second():
    pool = c2d.pack_shapes([A, B, B_FAR])
    hit, normal, depth = c2d.penetration_many(pool, [(0, 1), (1, 0), (0, 2)])
    assert hit.tolist() == [True, True, False]
    assert normal[:2].tolist() == [RIGHT, LEFT] and np.isnan(normal[2]).all()
    assert_allclose(depth[:2], [0.2, 0.2], atol=1e-15)
    hit, time, normal, depth = c2d.sweep_many(pool, [(0, 2), (2, 0)], [(2.0, 0.0), (-2.0, 0.0)])
    assert hit.tolist() == [True, True] and time.tolist() == [0.5, 0.5]
    assert normal.tolist() == [RIGHT, LEFT]
    # No -0.0 from the flip: results print and compare cleanly.
    assert not np.signbit(normal[:, 1]).any()


@nojit
def test_segment_hits_carry_the_outward_surface_normal():
    # A segment hitting B's left face from the left: B's outward normal there, facing back
    # along the segment (not "from the segment to B").
    hit = c2d.segment_polygon((-1.0, 0.5), (3.0, 0.5), B)
    assert isinstance(hit, c2d.BoundaryHit) and hit.normal.tolist() == LEFT
    # Starting inside, it reports the exit: the outward normal of the right face.
    assert c2d.segment_polygon((1.0, 0.5), (3.0, 0.5), B).normal.tolist() == RIGHT
    many = c2d.segment_polygon_many([(-1.0, 0.5)], [(3.0, 0.5)], c2d.pack_shapes([B]))
    assert isinstance(many, c2d.BoundaryHits) and many.normal.tolist() == [LEFT]
    clip = c2d.clip_segment((-1.0, 0.5), (3.0, 0.5), B)
    assert clip.normal_enter.tolist() == LEFT and clip.normal_exit.tolist() == RIGHT


@nojit
def test_two_ray_hit_types_two_names():
    assert c2d.RayHit is queries.RayHit
    assert c2d.RayHit._fields == ("shape", "body", "point", "normal", "fraction")
    assert c2d.BoundaryHit is geometry.BoundaryHit
    assert c2d.BoundaryHit._fields == ("fraction", "point", "normal", "edge")
    assert c2d.BoundaryHits._fields == ("hit", "shape", "fraction", "point", "normal", "edge")
    assert not hasattr(geometry, "RayHit") and not hasattr(c2d, "SegmentHits")
    assert {"RayHit", "BoundaryHit", "BoundaryHits"} <= set(c2d.__all__)


def test_world_results_point_from_a_to_b():
    world = c2d.World(gravity=(0.0, 0.0))
    body_a = world.add_body(kind="static")
    shape_a = body_a.add_polygon(A)
    body_b = world.add_body(kind="dynamic")
    shape_b = body_b.add_polygon(B)
    assert shape_a.id < shape_b.id
    world.step(1 / 60)
    contacts = world.contacts()
    assert contacts.shape_a.tolist() == [shape_a.id]
    assert_allclose(contacts.normal, [RIGHT], atol=1e-12)

    # The query shape is A, the world shape B.
    probe = c2d.World()
    wall = probe.add_body(kind="static").add_polygon(B)
    [ov] = probe.query_shape(A)
    assert ov.shape is wall and ov.depth == pytest.approx(0.2)
    assert_allclose(ov.normal, RIGHT, atol=1e-12)
    cast = probe.shape_cast(A, (-2.0, 0.0), (0.0, 0.0))
    assert cast.shape is wall and cast.time == pytest.approx(0.9)
    assert_allclose(cast.normal, RIGHT, atol=1e-12)
    # A ray carries the surface normal instead.
    ray = probe.raycast((-1.0, 0.5), (3.0, 0.5))
    assert isinstance(ray, c2d.RayHit) and ray.normal.tolist() == LEFT

    # The mover is A, what it meets B.
    hero = probe.add_body(kind="kinematic", position=(-2.0, 0.0))
    hero.add_polygon(A)
    move = probe.move_and_slide(hero, (10.0, 0.0), 1.0)
    [c] = move.contacts
    assert c.shape is wall and c.normal.tolist() == RIGHT


def test_mover_on_a_floor_has_a_normal_towards_the_floor():
    world = c2d.World()
    floor = world.add_body(kind="static").add_box(10, 1, offset=(0, -0.5))   # top at y = 0
    hero = world.add_body(kind="kinematic", position=(0, 2))
    hero.add_box(1, 1)
    r = world.move_and_slide(hero, (0, -10), 1.0, up=(0, 1))
    assert r.on_floor and not r.on_wall
    [c] = r.contacts
    assert c.shape is floor and c.normal.tolist() == [0.0, -1.0]
    many = world.move_and_slide_many(np.array([hero.id]), [(0.0, -10.0)], 1.0, up=(0, 1))
    assert many.on_floor.tolist() == [True] and many.contact_normal.tolist() == [[0.0, -1.0]]


def test_particle_hits_carry_the_outward_surface_normal():
    world = c2d.World(gravity=(0.0, 0.0))
    world.add_body(kind="static").add_polygon(B)
    balls = world.add_particles([(-1.0, 0.5)], [(240.0, 0.0)])
    world.step(1 / 60)
    assert balls.hits.normal.tolist() == [LEFT]
