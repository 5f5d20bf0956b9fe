"""The World / Body / Shape surface: handles, add and remove, mass from density, sleeping,
validation.

Mass properties are checked against closed forms worked out here: a w x h box of density
rho has m = w h rho and I = m (w^2 + h^2) / 12 about its centre; a circle m = rho pi r^2,
I = m r^2 / 2; a simple polygon (concave too) by the shoelace sums, independent of how the
engine decomposes it; several shapes by the parallel-axis theorem.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2d

# Small scenes: all of them also run with NUMBA_DISABLE_JIT=1.
pytestmark = pytest.mark.nojit

DT = 1.0 / 60.0


def _ground(world, width=40.0):
    ground = world.add_body(kind="static")
    ground.add_box(width, 1.0, offset=(0.0, -0.5))
    return ground


def _polygon_moments(vertices, density):
    """Mass, centroid and polar moment about the centroid of a simple polygon (shoelace)."""
    p = np.asarray(vertices, dtype=float)
    x, y = p[:, 0], p[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    cross = x * yn - xn * y
    area = 0.5 * cross.sum()
    cx = ((x + xn) * cross).sum() / (6.0 * area)
    cy = ((y + yn) * cross).sum() / (6.0 * area)
    ixx = ((y * y + y * yn + yn * yn) * cross).sum() / 12.0   # int y^2 dA about the origin
    iyy = ((x * x + x * xn + xn * xn) * cross).sum() / 12.0   # int x^2 dA
    if area < 0:  # clockwise input
        area, ixx, iyy = -area, -ixx, -iyy
    m = density * area
    j_origin = density * (ixx + iyy)
    return m, np.array([cx, cy]), j_origin - m * (cx * cx + cy * cy)


# ---------------------------------------------------------------------------- mass
@pytest.mark.parametrize("w,h,rho", [(1.0, 1.0, 1.0), (2.0, 0.5, 3.0), (0.3, 4.0, 0.25)])
def test_box_mass_and_inertia_from_density(w, h, rho):
    world = c2d.World()
    body = world.add_body(position=(3.0, -1.0), angle=0.7)
    body.add_box(w, h, density=rho)
    m = w * h * rho
    assert body.mass == pytest.approx(m, rel=1e-12)
    assert body.inertia == pytest.approx(m * (w * w + h * h) / 12.0, rel=1e-12)
    np.testing.assert_allclose(body.local_center_of_mass, (0.0, 0.0), atol=1e-12)


def test_circle_mass_and_inertia():
    world = c2d.World()
    body = world.add_body()
    body.add_circle(0.7, density=2.0)
    m = 2.0 * math.pi * 0.49
    assert body.mass == pytest.approx(m, rel=1e-12)
    assert body.inertia == pytest.approx(0.5 * m * 0.49, rel=1e-12)


def test_two_shapes_parallel_axis():
    # A 2 x 1 box at the origin (m1 = 2) and a circle r = 0.5, rho = 4 at (3, 0)
    # (m2 = pi): centre of mass on the x axis at x = 3 m2 / (m1 + m2).
    world = c2d.World()
    body = world.add_body()
    body.add_box(2.0, 1.0, density=1.0)
    body.add_circle(0.5, offset=(3.0, 0.0), density=4.0)
    m1, m2 = 2.0, 4.0 * math.pi * 0.25
    m = m1 + m2
    cx = 3.0 * m2 / m
    i1 = m1 * (4.0 + 1.0) / 12.0 + m1 * cx * cx
    i2 = 0.5 * m2 * 0.25 + m2 * (3.0 - cx) ** 2
    assert body.mass == pytest.approx(m, rel=1e-12)
    np.testing.assert_allclose(body.local_center_of_mass, (cx, 0.0), atol=1e-12)
    assert body.inertia == pytest.approx(i1 + i2, rel=1e-12)


@pytest.mark.parametrize("reverse", [False, True], ids=["ccw", "cw"])
def test_concave_polygon_mass_is_density_times_area(reverse):
    outline = [(0, 0), (4, 0), (4, 3), (2, 1), (0, 3)]   # notched concave hull: area 8
    if reverse:
        outline = outline[::-1]
    world = c2d.World()
    body = world.add_body()
    shape = body.add_polygon(outline, density=1.5)
    assert shape.kind == "polygon"
    assert len(shape.parts) >= 2  # decomposed into convex parts
    m, c, inertia = _polygon_moments(outline, 1.5)
    assert m == pytest.approx(1.5 * 8.0, rel=1e-12)
    assert body.mass == pytest.approx(m, rel=1e-12)
    np.testing.assert_allclose(body.local_center_of_mass, c, atol=1e-12)
    assert body.inertia == pytest.approx(inertia, rel=1e-12)
    # The parts tile the outline: their areas add up to it.
    part_area = sum(_polygon_moments(p, 1.0)[0] for p in shape.parts)
    assert part_area == pytest.approx(8.0, rel=1e-12)


def test_setting_mass_directly():
    world = c2d.World(gravity=(0.0, 0.0))
    body = world.add_body()
    body.add_box(1.0, 1.0, density=1.0)
    body.mass = 4.0
    assert body.mass == 4.0
    body.apply_impulse((2.0, 0.0))
    np.testing.assert_allclose(body.velocity, (0.5, 0.0), atol=1e-12)
    body.inertia = 2.0
    assert body.inertia == 2.0
    body.apply_impulse((0.0, 1.0), point=(1.0, 0.0))   # r x J = 1
    assert body.angular_velocity == pytest.approx(0.5, abs=1e-12)


def test_static_and_kinematic_have_infinite_mass():
    world = c2d.World()
    for kind in ("static", "kinematic"):
        body = world.add_body(kind=kind)
        body.add_box(1.0, 1.0, density=5.0)
        assert body.kind == kind
        assert body.mass == math.inf
        with pytest.raises(ValueError, match="mass"):
            body.mass = 3.0
    dyn = world.add_body()
    assert dyn.kind == "dynamic"


# ---------------------------------------------------------------------------- handles
def test_bodies_in_creation_order_and_removal():
    world = c2d.World()
    bodies = [world.add_body(position=(float(i), 0.0)) for i in range(5)]
    for b in bodies:
        b.add_circle(0.2)
    assert world.bodies == bodies
    world.remove(bodies[1])
    world.remove(bodies[3])
    assert world.bodies == [bodies[0], bodies[2], bodies[4]]
    assert [b.index for b in world.bodies] == [0, 1, 2]
    newer = world.add_body(position=(9.0, 0.0))
    assert world.bodies == [bodies[0], bodies[2], bodies[4], newer]
    # Survivors still read their own rows.
    assert [b.position[0] for b in world.bodies] == [0.0, 2.0, 4.0, 9.0]
    np.testing.assert_array_equal(world.positions()[:, 0], [0.0, 2.0, 4.0, 9.0])


def test_removed_body_handle_raises_even_after_slot_reuse():
    world = c2d.World()
    a = world.add_body(position=(1.0, 2.0))
    shape = a.add_box(1.0, 1.0)
    world.remove(a)
    b = world.add_body(position=(5.0, 6.0))  # may reuse a's slot
    b.add_box(1.0, 1.0)
    assert not a.alive
    assert not shape.alive
    for use in (lambda: a.position, lambda: a.velocity, lambda: a.mass, lambda: a.kind,
                lambda: a.shapes, lambda: a.apply_force((1.0, 0.0)),
                lambda: a.apply_impulse((1.0, 0.0)), lambda: a.add_circle(1.0),
                lambda: setattr(a, "position", (0.0, 0.0)), lambda: shape.id,
                lambda: shape.friction):
        with pytest.raises(ValueError, match="removed"):
            use()
    with pytest.raises(ValueError):
        world.remove(a)
    assert b.position.tolist() == [5.0, 6.0]
    assert world.bodies == [b]


def test_add_and_remove_between_steps_keeps_handles_valid():
    world = c2d.World()
    _ground(world)
    boxes = []
    for i in range(6):
        body = world.add_body(position=(2.0 * i - 5.0, 0.5))
        body.add_box(1.0, 1.0)
        boxes.append(body)
    for _ in range(30):
        world.step(DT)
    world.remove(boxes[2])
    extra = world.add_body(position=(10.0, 3.0))
    extra_shape = extra.add_circle(0.5)
    for _ in range(60):
        world.step(DT)
    for i in (0, 1, 3, 4, 5):
        np.testing.assert_allclose(boxes[i].position, (2.0 * i - 5.0, 0.5), atol=0.01)
    assert abs(extra.position[1] - 0.5) < 0.02 and abs(extra.position[0] - 10.0) < 1e-6
    assert world.shape(extra_shape.id) is extra_shape
    # Remove one of two shapes: the body keeps the other, its mass follows.
    two = world.add_body(position=(-10.0, 0.5))
    s1 = two.add_box(1.0, 1.0, density=1.0)
    s2 = two.add_box(1.0, 1.0, offset=(0.0, 1.0), density=3.0)
    assert two.mass == pytest.approx(4.0)
    s2_id = s2.id
    world.remove(s2)
    assert two.shapes == [s1]
    assert two.mass == pytest.approx(1.0)
    assert not s2.alive
    with pytest.raises(ValueError, match="shape"):
        world.shape(s2_id)
    for _ in range(30):
        world.step(DT)
    assert abs(two.position[1] - 0.5) < 0.02
    assert len(world.bodies) == 8


@pytest.mark.parametrize("sleeping", [True, False], ids=["sleeping", "awake"])
def test_remove_body_resting_on_another_then_step(sleeping):
    # After 1 s both boxes rest (and, with sleeping on, sleep); removing the lower one must
    # let the upper one fall onto the ground, as a moved neighbour would wake it.
    world = c2d.World(sleeping=sleeping)
    _ground(world)
    low = world.add_body(position=(0.0, 0.5))
    low.add_box(1.0, 1.0)
    top = world.add_body(position=(0.0, 1.5))
    top.add_box(1.0, 1.0)
    for _ in range(60):
        world.step(DT)
    world.remove(low)
    for _ in range(60):
        world.step(DT)
    assert abs(top.position[1] - 0.5) < 0.02   # fell onto the ground


# ---------------------------------------------------------------------------- sleeping
def test_resting_box_sleeps_and_force_wakes_it():
    world = c2d.World()
    _ground(world)
    box = world.add_body(position=(0.0, 0.6))
    box.add_box(1.0, 1.0)
    asleep_at = None
    for i in range(240):
        world.step(DT)
        if not box.awake:
            asleep_at = (i + 1) * DT
            break
    assert asleep_at is not None and asleep_at <= 3.0
    assert box.velocity.tolist() == [0.0, 0.0]
    pos = box.position
    for _ in range(30):
        world.step(DT)
    assert not box.awake
    np.testing.assert_array_equal(box.position, pos)   # a sleeping body does not move
    box.apply_force((0.0, 100.0))
    assert box.awake
    world.step(DT)
    assert box.awake
    assert box.velocity[1] > 0.0


def test_setting_velocity_wakes_a_sleeping_body():
    world = c2d.World()
    _ground(world)
    box = world.add_body(position=(0.0, 0.5))
    box.add_box(1.0, 1.0)
    for _ in range(180):
        world.step(DT)
    assert not box.awake
    box.velocity = (0.0, 5.0)
    assert box.awake
    world.step(DT)
    assert box.position[1] > 0.55


def test_sleeping_off_keeps_bodies_awake():
    world = c2d.World(sleeping=False)
    _ground(world)
    box = world.add_body(position=(0.0, 0.5))
    box.add_box(1.0, 1.0)
    for _ in range(300):
        world.step(DT)
        assert box.awake
    # Turning it off on a world whose body already sleeps wakes it.
    world2 = c2d.World()
    _ground(world2)
    b2 = world2.add_body(position=(0.0, 0.5))
    b2.add_box(1.0, 1.0)
    for _ in range(180):
        world2.step(DT)
    assert not b2.awake
    world2.sleeping = False
    assert b2.awake
    world2.step(DT)
    assert b2.awake


def test_falling_body_wakes_sleeping_pile():
    world = c2d.World()
    _ground(world)
    box = world.add_body(position=(0.0, 0.5))
    box.add_box(1.0, 1.0)
    for _ in range(180):
        world.step(DT)
    assert not box.awake
    ball = world.add_body(position=(0.3, 4.0))
    ball.add_circle(0.3, density=5.0)
    woke = False
    for _ in range(60):
        world.step(DT)
        woke |= box.awake
    assert woke
    assert ball.position[1] > 1.0   # landed on the box, did not pass through it


# ---------------------------------------------------------------------------- validation
NAN, INF = math.nan, math.inf


@pytest.mark.parametrize("kwargs,name", [
    ({"position": (NAN, 0.0)}, "position"),
    ({"position": (0.0, INF)}, "position"),
    ({"velocity": (0.0, NAN)}, "velocity"),
    ({"angle": INF}, "angle"),
    ({"angular_velocity": NAN}, "angular_velocity"),
    ({"kind": "ghost"}, "kind"),
    ({"kind": "Dynamic "}, "kind"),
    ({"kind": 2}, "kind"),
    ({"damping": -0.1}, "damping"),
    ({"damping": 1.5}, "damping"),
    ({"gravity_scale": NAN}, "gravity_scale"),
], ids=lambda v: str(v) if isinstance(v, str) else None)
def test_add_body_rejects_bad_input_and_leaves_world_unchanged(kwargs, name):
    world = c2d.World()
    first = world.add_body()
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        world.add_body(**kwargs)
    assert world.bodies == [first]
    np.testing.assert_array_equal(world.positions(), [[0.0, 0.0]])
    world.step(DT)  # still steps


@pytest.mark.parametrize("dt", [0.0, -DT, NAN, INF])
def test_step_rejects_non_positive_or_non_finite_dt(dt):
    world = c2d.World()
    body = world.add_body(position=(0.0, 1.0))
    body.add_circle(0.5)
    with pytest.raises(ValueError, match=r"\bdt\b"):
        world.step(dt)
    assert body.position.tolist() == [0.0, 1.0]
    assert world.time == 0.0


@pytest.mark.parametrize("density", [0.0, -1.0, NAN, INF])
def test_shape_rejects_bad_density_and_leaves_body_unchanged(density):
    world = c2d.World()
    body = world.add_body()
    body.add_box(1.0, 1.0, density=2.0)
    for add in (lambda: body.add_box(1.0, 1.0, density=density),
                lambda: body.add_circle(0.5, density=density),
                lambda: body.add_polygon([(0, 0), (4, 0), (4, 3), (2, 1), (0, 3)],
                                         density=density)):
        with pytest.raises(ValueError, match=r"\bdensity\b"):
            add()
    assert len(body.shapes) == 1
    assert body.mass == 2.0
    with pytest.raises(ValueError, match=r"\bdensity\b"):
        body.shapes[0].density = density
    assert body.mass == 2.0


def test_setters_reject_nan():
    world = c2d.World()
    body = world.add_body(position=(1.0, 1.0))
    body.add_circle(0.5)
    for attr, value in (("position", (NAN, 0.0)), ("velocity", (INF, 0.0)),
                        ("angle", NAN), ("angular_velocity", INF)):
        with pytest.raises(ValueError, match=rf"\b{attr}\b"):
            setattr(body, attr, value)
    assert body.position.tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match=r"\bforce\b"):
        body.apply_force((NAN, 0.0))
    with pytest.raises(ValueError, match=r"\bimpulse\b"):
        body.apply_impulse((0.0, INF))
    world.step(DT)
    assert np.isfinite(body.position).all()


def test_world_settings_validation():
    with pytest.raises(ValueError, match="integrator"):
        c2d.World(integrator="rk4")
    with pytest.raises(ValueError, match="dynamic_response"):
        c2d.World(dynamic_response="bounce")
    with pytest.raises(ValueError, match="gravity"):
        c2d.World(gravity=(0.0, NAN))
    with pytest.raises(ValueError, match="damping"):
        c2d.World(damping=2.0)
    with pytest.raises(ValueError, match="substeps"):
        c2d.World(substeps=0)
