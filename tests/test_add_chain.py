"""Body.add_chain: the shapes add_segment makes pair by pair, in one call."""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2d

pytestmark = pytest.mark.nojit

POINTS = [(0.0, 0.0), (1.0, 0.4), (2.5, -0.3), (3.0, 1.0), (4.2, 0.9)]


def _pairwise(kind, points, loop, **kw):
    world = c2d.World(gravity=(0, -10))
    body = world.add_body(kind=kind, position=(0.3, 2.0))
    ends = list(points[1:]) + ([points[0]] if loop else [])
    shapes = [body.add_segment(a, b, **kw) for a, b in zip(points, ends, strict=False)]
    return world, body, shapes


def _chained(kind, points, loop, **kw):
    world = c2d.World(gravity=(0, -10))
    body = world.add_body(kind=kind, position=(0.3, 2.0))
    shapes = body.add_chain(points, loop=loop, **kw)
    return world, body, shapes


def _drop_on(world, body):
    # Something to hit the chain, so that the comparison covers contacts too.
    if body.kind == "static":
        world.add_body(position=(2.0, 4.0)).add_circle(0.4)
    else:
        world.add_body(kind="static").add_segment((-10, -3), (10, -3))


@pytest.mark.parametrize("kind", ["static", "dynamic"])
@pytest.mark.parametrize("loop", [False, True])
@pytest.mark.parametrize("radius", [0.0, 0.05])
def test_same_world_as_segments_pair_by_pair(kind, loop, radius):
    kw = {"radius": radius, "friction": 0.3, "elasticity": 0.1, "category": 2, "mask": 7}
    a = _pairwise(kind, POINTS, loop, **kw)
    b = _chained(kind, POINTS, loop, **kw)
    assert len(b[2]) == len(a[2]) == len(POINTS) - (0 if loop else 1)
    assert b[0].snapshot() == a[0].snapshot()
    assert b[1].mass == a[1].mass and b[1].inertia == a[1].inertia
    for w, body, _ in (a, b):
        _drop_on(w, body)
        for _ in range(30):
            w.step(1 / 60)
    assert b[0].snapshot() == a[0].snapshot()


def test_each_segment_is_its_own_shape_in_order():
    world = c2d.World()
    ground = world.add_body(kind="static")
    edges = ground.add_chain(POINTS, friction=0.5)
    assert ground.shapes == edges
    for k, edge in enumerate(edges):
        assert edge.kind == "segment"
        np.testing.assert_array_equal(edge.parts[0], [POINTS[k], POINTS[k + 1]])
        assert edge.friction == 0.5
    edges[1].friction = 0.9  # one shape's material alone
    assert [e.friction for e in edges] == [0.5, 0.9, 0.5, 0.5]


@pytest.mark.parametrize("points, loop, message", [
    ([(0, 0)], False, "at least 2 points"),
    ([(0, 0), (1, 0)], True, "at least 3 points"),
    ([(0, 0), (1, 0), (1, 0), (2, 0)], False, r"points\[1\] and points\[2\]"),
    ([(0, 0), (1, 0), (0, 0)], True, r"points\[2\] and points\[0\]"),
    ([(0, 0), (np.nan, 1)], False, "points"),
])
def test_bad_points_raise_and_change_nothing(points, loop, message):
    world = c2d.World()
    body = world.add_body(kind="static")
    before = world.snapshot()
    with pytest.raises(ValueError, match=message):
        body.add_chain(points, loop=loop)
    assert world.snapshot() == before and body.shapes == []


def test_bad_material_raises_and_changes_nothing():
    world = c2d.World()
    body = world.add_body()
    before = world.snapshot()
    with pytest.raises((ValueError, TypeError), match="friction"):
        body.add_chain(POINTS, friction=-1.0)
    with pytest.raises(TypeError, match="loop"):
        body.add_chain(POINTS, loop="yes")
    with pytest.raises(TypeError, match="points"):
        body.add_chain([("0", "1"), ("2", "3")])
    with pytest.raises(TypeError, match="points"):
        body.add_chain([(True, False), (False, True)])
    assert world.snapshot() == before
