"""The body and shape surface: every call validates all of its input before it changes
anything, and an accepted call leaves a world whose snapshot restores.

Oracles: a refused call leaves ``world.snapshot()`` bytes unchanged and names the argument;
an accepted one gives mass data equal to closed forms worked out by hand (a box of sides w, h:
m = rho w h, I = m (w^2 + h^2) / 12; a disc: m = rho pi r^2, I = m r^2 / 2; a thin rod of
length L: I = m L^2 / 12; the parallel axis theorem for parts off the centre of mass), and
``World.restore(world.snapshot())`` accepts the bytes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import collide2d as c2d
from collide2d.queries import QueryFilter

DT = 1.0 / 60.0
NAN, INF = math.nan, math.inf
nojit = pytest.mark.nojit


def assert_refused(world, exc, name, call):
    """``call`` raises ``exc`` whose message starts with the argument's name, and the world's
    bytes are unchanged."""
    before = world.snapshot()
    with pytest.raises(exc) as info:
        call()
    assert str(info.value).startswith(name), str(info.value)
    assert world.snapshot() == before
    c2d.World.restore(before)


def assert_restores(world):
    data = world.snapshot()
    assert c2d.World.restore(data).snapshot() == data


def dyn_world():
    w = c2d.World()
    ground = w.add_body(kind="static")
    ground.add_box(20.0, 1.0, offset=(0.0, -0.5))
    body = w.add_body(position=(0.0, 2.0))
    shape = body.add_box(1.0, 1.0)
    return w, ground, body, shape


# ---------------------------------------------------------------------------- 1. widths
@nojit
@pytest.mark.parametrize("kw, exc, name", [
    ({"group": 2**70}, ValueError, "group"),
    ({"group": 2**63}, ValueError, "group"),
    ({"group": -(2**63) - 1}, ValueError, "group"),
    ({"group": np.uint64(2**63)}, ValueError, "group"),
    ({"group": True}, TypeError, "group"),
    ({"group": 1.0}, TypeError, "group"),
    ({"category": 2**32}, ValueError, "category"),
    ({"category": 2**70}, ValueError, "category"),
    ({"category": -1}, ValueError, "category"),
    ({"mask": 2**64}, ValueError, "mask"),
    ({"mask": np.uint64(2**63)}, ValueError, "mask"),
    ({"mask": False}, TypeError, "mask"),
    ({"density": 10**400}, ValueError, "density"),
    ({"density": 2 + 0j}, TypeError, "density"),
    ({"friction": True}, TypeError, "friction"),
])
def test_add_box_refuses_material_past_its_stored_width(kw, exc, name):
    w, _, body, _ = dyn_world()
    assert_refused(w, exc, name, lambda: body.add_box(1.0, 1.0, **kw))
    assert len(body.shapes) == 1


@nojit
@pytest.mark.parametrize("group", [2**63 - 1, -(2**63)])
def test_group_at_the_ends_of_int64_is_stored_and_restores(group):
    w, _, body, _ = dyn_world()
    s = body.add_box(1.0, 1.0, group=group, category=0xFFFFFFFF, mask=0)
    assert (s.group, s.category, s.mask) == (group, 0xFFFFFFFF, 0)
    assert_restores(w)


@nojit
@pytest.mark.parametrize("attr, value, exc", [
    ("group", 2**70, ValueError), ("group", 2**63, ValueError), ("group", True, TypeError),
    ("category", 2**40, ValueError), ("mask", -1, ValueError), ("category", 1.0, TypeError),
    ("density", 10**400, ValueError), ("density", 1j, TypeError), ("friction", 10**400,
                                                                  ValueError),
])
def test_shape_setters_refuse_past_the_stored_width(attr, value, exc):
    w, _, _, shape = dyn_world()
    assert_refused(w, exc, attr, lambda: setattr(shape, attr, value))


@nojit
@pytest.mark.parametrize("call, exc, name", [
    (lambda b: b.add_box(1 + 0j, 1.0), TypeError, "width"),
    (lambda b: b.add_box(1.0, 1.0, offset=np.array([1 + 1j, 0])), TypeError, "offset"),
    (lambda b: b.add_box(1.0, 1.0, offset=[1j, 0]), TypeError, "offset"),
    (lambda b: b.add_box(1.0, 1.0, offset=(True, 0.0)), TypeError, "offset"),
    (lambda b: b.add_box(1.0, 1.0, offset=("1", "2")), TypeError, "offset"),
    (lambda b: b.add_box(True, 1.0), TypeError, "width"),
    (lambda b: b.add_box(10**400, 1.0), ValueError, "width"),
    (lambda b: b.add_box(1.0, 1.0, angle=10**400), ValueError, "angle"),
    (lambda b: b.add_circle(1.0, offset=(10**400, 0)), ValueError, "offset"),
    (lambda b: b.add_segment((0, 0), (1j, 1)), TypeError, "b"),
    (lambda b: b.add_segment((0, 0), (1, 0), radius=10**400), ValueError, "radius"),
    (lambda b: setattr(b, "position", (10**400, 0)), ValueError, "position"),
    (lambda b: setattr(b, "position", np.array([1j, 0])), TypeError, "position"),
    (lambda b: setattr(b, "velocity", (2**1100, 0)), ValueError, "velocity"),
    (lambda b: setattr(b, "velocity", (False, 0.0)), TypeError, "velocity"),
    (lambda b: setattr(b, "angle", 10**400), ValueError, "angle"),
    (lambda b: setattr(b, "angular_velocity", 1j), TypeError, "angular_velocity"),
    (lambda b: setattr(b, "mass", 10**400), ValueError, "mass"),
    (lambda b: setattr(b, "inertia", True), TypeError, "inertia"),
    (lambda b: setattr(b, "damping", 10**400), ValueError, "damping"),
    (lambda b: b.apply_impulse((1j, 0)), TypeError, "impulse"),
    (lambda b: b.apply_force((1, 0), point=(10**400, 0)), ValueError, "point"),
])
def test_big_ints_are_value_errors_and_complex_or_bools_type_errors(call, exc, name):
    w, _, body, _ = dyn_world()
    assert_refused(w, exc, name, lambda: call(body))


@nojit
@pytest.mark.parametrize("ids", [[2**70], [0, 2**64], [-(2**63) - 1]])
def test_body_ids_past_int64_are_value_errors(ids):
    w, _, _, _ = dyn_world()
    assert_refused(w, ValueError, "ids", lambda: w.positions(ids))
    assert_refused(w, ValueError, "ids", lambda: w.set_velocities(ids, [(1.0, 0.0)] * len(ids)))


# ---------------------------------------------------------------------------- 2. extremes
@nojit
@pytest.mark.parametrize("kind", ["dynamic", "static"])
@pytest.mark.parametrize("call, name", [
    (lambda b: b.add_box(1e-200, 1e-200), "width"),
    (lambda b: b.add_box(1.0, 1.0, offset=(1e17, 0.0)), "offset"),
    (lambda b: b.add_box(1.0, 1.0, offset=(0.0, -3e12)), "offset"),
    (lambda b: b.add_box(1e300, 1.0), "width"),
    (lambda b: b.add_box(1.0, 1.7e308), "height"),
    (lambda b: b.add_box(1e75, 1e75, offset=(1e75, 0.0)), "offset"),
    (lambda b: b.add_circle(1e300), "radius"),
    (lambda b: b.add_circle(1.0, offset=(1e200, 0.0)), "offset"),
    (lambda b: b.add_polygon([(0, 0), (1e300, 0), (0, 1)]), "vertices"),
    (lambda b: b.add_polygon([(0, 0), (1, 0), (0, 1)], radius=1e300), "radius"),
    (lambda b: b.add_segment((0, 0), (1e300, 0)), "b"),
    (lambda b: b.add_segment((0, 0), (1, 0), radius=1e200), "radius"),
])
def test_extreme_sizes_and_offsets_are_refused_naming_the_argument(kind, call, name):
    w = c2d.World()
    body = w.add_body(kind=kind)
    body.add_circle(0.5)
    assert_refused(w, ValueError, name, lambda: call(body))


@nojit
@pytest.mark.parametrize("call, name", [
    (lambda b: b.add_box(1e-100, 1e-100), "width"),      # inertia ~ 1e-400 underflows
    (lambda b: b.add_circle(1e-160), "radius"),          # mass ~ 3e-320: 1 / m is inf
    (lambda b: b.add_circle(1e-170), "radius"),          # mass 0 (underflow)
    (lambda b: b.add_polygon([(0, 0), (1e-170, 0), (0, 1e-170)]), "vertices"),   # and here
    (lambda b: b.add_box(1e70, 1e70, density=1e300), "width"),   # mass overflows
    (lambda b: b.add_circle(1e75, density=1e200), "radius"),
    (lambda b: b.add_segment((0, 0), (1e-160, 0)), "b"),  # a 1 kg rod: I = L^2 / 12 = 0
    (lambda b: setattr(b, "inertia", 1e-320), "inertia"),
    (lambda b: setattr(b, "mass", 1e-320), "mass"),
])
def test_unusable_mass_data_on_a_dynamic_body_is_refused(call, name):
    w = c2d.World()
    w.add_body().add_circle(1.0)
    body = w.add_body()
    if name in ("mass", "inertia"):
        body.add_circle(1.0)
    assert_refused(w, ValueError, name, lambda: call(body))


@nojit
@pytest.mark.parametrize("inertia, mass", [(1e-10, 1e-300), (1e10, 1e300)])
def test_a_mass_that_would_scale_the_inertia_out_of_range_is_refused(inertia, mass):
    w = c2d.World()
    body = w.add_body()
    body.add_circle(1.0)
    body.mass = 1.0
    body.inertia = inertia
    assert_refused(w, ValueError, "mass", lambda: setattr(body, "mass", mass))   # I m'/m


@nojit
def test_the_same_tiny_shapes_are_fine_on_a_static_body():
    # No mass there: only the geometry must hold in float64.
    w = c2d.World()
    body = w.add_body(kind="static")
    body.add_box(1e-100, 1e-100)
    body.add_circle(1e-160)
    assert_restores(w)


@nojit
def test_a_box_far_from_the_body_origin_keeps_its_exact_mass_data():
    # About the origin the inertia is 1e20 + 1/6 - 1e20: all digits cancel. Exact: 1/6.
    w = c2d.World()
    body = w.add_body()
    body.add_box(1.0, 1.0, offset=(1e10, 0.0))
    assert body.mass == 1.0
    np.testing.assert_array_equal(body.local_center_of_mass, (1e10, 0.0))
    assert body.inertia == pytest.approx(1.0 / 6.0, rel=1e-12)
    assert_restores(w)
    w.step(DT)
    assert np.isfinite(w.positions()).all() and np.isfinite(w.angles()).all()


@nojit
def test_two_discs_far_out_use_the_parallel_axis_about_their_centre():
    w = c2d.World()
    body = w.add_body()
    body.add_circle(0.5, offset=(1e8, 0.0))
    body.add_circle(0.5, offset=(1e8 + 2.0, 0.0))
    m = math.pi * 0.25                           # each disc
    assert body.mass == pytest.approx(2 * m, rel=1e-15)
    np.testing.assert_array_equal(body.local_center_of_mass, (1e8 + 1.0, 0.0))
    expect = 2 * (0.5 * m * 0.25) + 2 * (m * 1.0)   # own + m d^2 with d = 1
    assert body.inertia == pytest.approx(expect, rel=1e-12)


@nojit
def test_a_circle_at_1e70_and_a_box_at_the_coordinate_bound_are_accepted():
    w = c2d.World()
    body = w.add_body()
    body.add_circle(1.0, offset=(1e70, 0.0))
    assert body.mass == pytest.approx(math.pi, rel=1e-15)
    assert body.inertia == pytest.approx(math.pi / 2, rel=1e-15)
    big = w.add_body()
    big.add_box(1e75, 1e75)
    assert big.mass == pytest.approx(1e150, rel=1e-12)
    assert big.inertia == pytest.approx(1e150 * 2e150 / 12.0, rel=1e-12)
    assert_restores(w)


@nojit
def test_density_and_sensor_setters_check_the_new_mass_data_first():
    w = c2d.World()
    body = w.add_body()
    body.add_circle(1.0)
    s = body.add_box(1e70, 1e70, density=1e200, sensor=True)   # no mass: accepted
    assert body.mass == pytest.approx(math.pi, rel=1e-15)
    assert_refused(w, ValueError, "sensor", lambda: setattr(s, "sensor", False))
    small = body.add_box(2.0, 1.0)
    assert_refused(w, ValueError, "density", lambda: setattr(small, "density", 1e-320))
    assert_refused(w, ValueError, "density", lambda: setattr(small, "density", 1e308))  # 2e308
    small.density = 3.0
    assert body.mass == pytest.approx(math.pi + 6.0, rel=1e-15)


# ---------------------------------------------------------------------------- 3. setters
@nojit
@pytest.mark.parametrize("attr, value, exc", [
    ("radius", NAN, ValueError), ("radius", INF, ValueError), ("radius", 0.0, ValueError),
    ("radius", -1.0, ValueError), ("radius", 1e300, ValueError), ("radius", "1", TypeError),
    ("radius", 1j, TypeError), ("radius", 10**400, ValueError),
    ("center", (NAN, 0.0), ValueError), ("center", (1e300, 0.0), ValueError),
    ("center", (1.0,), ValueError), ("center", [1j, 0], TypeError),
])
def test_circle_setters_validate_as_the_constructor(attr, value, exc):
    c = c2d.Circle((1.0, 2.0), 0.5)
    with pytest.raises(exc, match=attr):
        setattr(c, attr, value)
    assert c.radius == 0.5 and c.center.tolist() == [1.0, 2.0]


@nojit
def test_circle_setters_accept_good_values_and_the_centre_is_not_edited_in_place():
    c = c2d.Circle((1.0, 2.0), 0.5)
    c.radius = 2
    c.center = (3, 4)
    assert c.radius == 2.0 and c.center.tolist() == [3.0, 4.0]
    with pytest.raises(ValueError):
        c.center[0] = NAN
    assert c2d.polygon_mass(c).mass == pytest.approx(4 * math.pi, rel=1e-15)


@nojit
@pytest.mark.parametrize("attr, value, exc", [
    ("category", 2**70, ValueError), ("category", -1, ValueError), ("mask", 2**32, ValueError),
    ("mask", True, TypeError), ("category", 1.5, TypeError), ("sensors", "no", TypeError),
    ("sensors", None, TypeError), ("exclude", 3, TypeError), ("exclude", [1, 2], TypeError),
])
def test_query_filter_setters_validate_as_the_constructor(attr, value, exc):
    f = QueryFilter(category=2, mask=3)
    with pytest.raises(exc, match=attr):
        setattr(f, attr, value)
    assert (f.category, f.mask, f.exclude, f.sensors) == (2, 3, (), False)


@nojit
def test_query_filter_setters_take_effect():
    w = c2d.World()
    wall = w.add_body(kind="static", position=(5.0, 0.0))
    wall.add_box(1.0, 4.0)
    f = QueryFilter()
    assert w.raycast((0, 0), (10, 0), f) is not None
    f.mask = 0b10
    assert w.raycast((0, 0), (10, 0), f) is None
    f.mask = 0xFFFFFFFF
    f.exclude = wall
    assert f.exclude == (wall,) and w.raycast((0, 0), (10, 0), f) is None


# ---------------------------------------------------------------------------- 4. control
@nojit
def test_setting_the_mass_scales_the_inertia_as_another_density_would():
    w = c2d.World()
    ball = w.add_body()
    ball.add_circle(3.0)
    assert ball.inertia == pytest.approx(0.5 * (9 * math.pi) * 9, rel=1e-14)   # 127.2
    ball.mass = 1
    assert ball.mass == 1.0
    assert ball.inertia == pytest.approx(4.5, rel=1e-14)                       # 1 * 3^2 / 2
    box = w.add_body()
    box.add_box(2.0, 1.0, density=3.0)                # m = 6, I = 6 * 5 / 12 = 2.5
    assert box.inertia == pytest.approx(2.5, rel=1e-14)
    box.mass = 2.0
    assert box.inertia == pytest.approx(2.0 * 5.0 / 12.0, rel=1e-14)
    box.inertia = 7.0                                 # set after: it is kept
    assert box.inertia == 7.0 and box.mass == 2.0
    assert_restores(w)


@nojit
def test_a_body_of_one_segment_gets_the_inertia_of_a_thin_rod():
    w = c2d.World()
    rod = w.add_body()
    rod.add_segment((0.0, 0.0), (2.0, 0.0))
    assert rod.mass == 1.0                                     # the default mass
    np.testing.assert_allclose(rod.local_center_of_mass, (1.0, 0.0), rtol=0, atol=1e-15)
    assert rod.inertia == pytest.approx(1.0 * 2.0**2 / 12.0, rel=1e-14)
    # Two segments share the 1 kg by length: 2/3 kg on the 2 m one, 1/3 kg on the 1 m one.
    ell = w.add_body()
    ell.add_segment((0.0, 0.0), (2.0, 0.0))
    ell.add_segment((0.0, 0.0), (0.0, 1.0))
    ma, mb = 2.0 / 3.0, 1.0 / 3.0
    cx, cy = ma * 1.0, mb * 0.5                                 # (2/3, 1/6)
    inertia = (ma * 4.0 / 12.0 + ma * ((1.0 - cx) ** 2 + cy**2)
               + mb * 1.0 / 12.0 + mb * (cx**2 + (0.5 - cy) ** 2))
    np.testing.assert_allclose(ell.local_center_of_mass, (cx, cy), rtol=1e-14)
    assert ell.inertia == pytest.approx(inertia, rel=1e-14)
    # A capsule keeps its own area's mass: rectangle 2 x 2r plus a disc.
    cap = w.add_body()
    cap.add_segment((0.0, 0.0), (2.0, 0.0), radius=0.5)
    assert cap.mass == pytest.approx(2.0 * 1.0 + math.pi * 0.25, rel=1e-14)
    assert_restores(w)


def test_a_segment_standing_on_its_tip_topples():
    w = c2d.World(gravity=(0.0, -10.0))
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    pole = w.add_body(position=(0.0, 1.0), angle=0.05)
    pole.add_segment((0.0, -1.0), (0.0, 1.0), friction=1.0)
    for _ in range(240):
        w.step(DT)
    assert abs(pole.angle) > 1.0                   # lying down, not balancing on the tip


@nojit
def test_static_bodies_refuse_a_velocity_they_would_never_use():
    w = c2d.World()
    ground = w.add_body(kind="static")
    ground.add_box(4.0, 1.0)
    assert_refused(w, ValueError, "velocity", lambda: setattr(ground, "velocity", (1.0, 0.0)))
    assert_refused(w, ValueError, "angular_velocity",
                   lambda: setattr(ground, "angular_velocity", 0.5))
    assert_refused(w, ValueError, "velocity",
                   lambda: w.add_body(kind="static", velocity=(0.0, -2.0)))
    assert_refused(w, ValueError, "angular_velocity",
                   lambda: w.add_body(kind="static", angular_velocity=1.0))
    ground.velocity = (0.0, 0.0)                     # zero is what it has: fine
    ground.angular_velocity = 0.0
    w.add_body(kind="static", velocity=(0, 0), angular_velocity=0)
    lift = w.add_body(kind="kinematic", velocity=(0.0, 1.0), angular_velocity=0.5)
    lift.velocity = (2.0, 0.0)
    assert lift.velocity.tolist() == [2.0, 0.0]


def test_a_static_box_made_dynamic_falls():
    w = c2d.World(gravity=(0.0, -10.0))
    crate = w.add_body(kind="static", position=(0.0, 50.0))
    crate.add_box(1.0, 1.0, density=2.0)
    for _ in range(10):
        w.step(DT)
    assert crate.position.tolist() == [0.0, 50.0]
    crate.kind = "dynamic"
    assert crate.kind == "dynamic" and crate.mass == 2.0
    assert crate.inertia == pytest.approx(2.0 * 2.0 / 12.0, rel=1e-14)
    for _ in range(60):
        w.step(DT)
    assert crate.velocity[1] == pytest.approx(-10.0, rel=1e-9)   # v = -g t after 1 s
    assert crate.position[1] < 50.0 - 4.0                          # ~5 m fallen
    assert_restores(w)


def test_a_dynamic_body_made_static_stops_and_holds_others():
    w = c2d.World(gravity=(0.0, -10.0))
    plank = w.add_body(position=(0.0, 10.0))
    plank.add_box(4.0, 0.5)
    for _ in range(30):
        w.step(DT)
    assert plank.velocity[1] < -4.0
    plank.kind = "static"
    held = plank.position.copy()
    assert plank.velocity.tolist() == [0.0, 0.0] and plank.mass == math.inf
    top = held[1] + 0.25
    box = w.add_body(position=(0.0, top + 2.0))
    box.add_box(1.0, 1.0)
    for _ in range(180):
        w.step(DT)
    np.testing.assert_array_equal(plank.position, held)
    assert box.position[1] == pytest.approx(top + 0.5, abs=0.02)   # resting on the plank
    assert abs(box.velocity[1]) < 0.05
    assert_restores(w)


def test_changing_the_kind_wakes_what_touches_the_body():
    w = c2d.World(gravity=(0.0, -10.0))
    shelf = w.add_body(kind="static", position=(0.0, 5.0))
    shelf.add_box(4.0, 0.5)
    box = w.add_body(position=(0.0, 5.75))
    box.add_box(1.0, 1.0)
    for _ in range(240):
        w.step(DT)
    assert not box.awake                        # asleep on the shelf
    shelf.kind = "dynamic"
    assert box.awake and shelf.awake
    for _ in range(30):
        w.step(DT)
    assert box.position[1] < 5.5 and shelf.position[1] < 4.5     # both fall


@nojit
def test_kind_is_refused_while_stepping_or_when_it_could_not_have_mass_data():
    w = c2d.World()
    body = w.add_body(kind="static")
    body.add_box(1.0, 1.0)
    assert_refused(w, ValueError, "kind", lambda: setattr(body, "kind", "ghost"))
    assert_refused(w, ValueError, "kind", lambda: setattr(body, "kind", 2))
    before = w.snapshot()
    w._locked = True   # what a step does while its kernel runs
    try:
        with pytest.raises(RuntimeError, match="kind"):
            body.kind = "dynamic"
    finally:
        w._locked = False
    assert w.snapshot() == before
    tiles = w.add_tilemap(np.ones((2, 3), bool))
    assert_refused(w, ValueError, "kind", lambda: setattr(tiles.body, "kind", "dynamic"))
    tiny = w.add_body(kind="static")
    tiny.add_box(1e-100, 1e-100)                # fine without mass
    assert_refused(w, ValueError, "kind", lambda: setattr(tiny, "kind", "dynamic"))
    body.kind = "kinematic"
    body.velocity = (1.0, 0.0)
    body.kind = "dynamic"
    assert body.velocity.tolist() == [1.0, 0.0] and body.mass == 1.0
    body.mass = 5.0
    body.kind = "static"
    assert body.velocity.tolist() == [0.0, 0.0] and body.mass == math.inf
    body.kind = "dynamic"                       # the mass set directly is dropped
    assert body.mass == 1.0
    assert_restores(w)


@nojit
def test_set_response_refuses_a_dynamic_shape_movers_never_meet():
    w = c2d.World()
    crate = w.add_body().add_box(1.0, 1.0)
    assert_refused(w, ValueError, "shape", lambda: w.set_response(crate, "oneway"))
    w.character_response = "block"        # now dynamic bodies block movers: it applies
    w.set_response(crate, "oneway")
    assert w.response(crate) == "oneway"


@nojit
def test_world_point_of_is_documented_and_validates():
    doc = c2d.Body.world_point_of.__doc__
    assert doc and "Example" in doc and "body frame" in doc
    body = c2d.World().add_body(position=(1.0, 2.0), angle=math.pi / 2)
    np.testing.assert_allclose(body.world_point_of((1.0, 0.0)), (1.0, 3.0), atol=1e-15)
    with pytest.raises(ValueError, match="local"):
        body.world_point_of((NAN, 0.0))


# ---------------------------------------------------------------------------- 5. property
_EXTREME = st.sampled_from([
    0, -1, 1e-320, 1e-200, 1e-160, 1e-100, 1e-50, 1e-8, 0.5, 1, 3, 1e10, 1e17, 1e70, 1e75,
    1.5e75, 1e200, 1e300, 1.7e308, INF, -INF, NAN, 2**63, 2**70, 10**400, True, 1 + 1j,
    -(2**63) - 1, np.float32(2.5), np.int64(7),
])
_NUMBER = st.one_of(_EXTREME, st.floats(allow_nan=True, allow_infinity=True),
                    st.integers(min_value=-(2**80), max_value=2**80))
_VEC = st.one_of(st.tuples(_NUMBER, _NUMBER), st.just((1e17, 0.0)), st.just((0.0, 0.0)))
_INT = st.one_of(_EXTREME, st.integers(min_value=-(2**66), max_value=2**66))
_KIND = st.sampled_from(["static", "kinematic", "dynamic", "ghost", 3])

_OPS = st.one_of(
    st.tuples(st.just("add_body"), _KIND, _VEC, _VEC),
    st.tuples(st.just("add_box"), _NUMBER, _NUMBER, _VEC, _NUMBER, _INT, _INT),
    st.tuples(st.just("add_circle"), _NUMBER, _VEC, _NUMBER),
    st.tuples(st.just("add_segment"), _VEC, _VEC, _NUMBER),
    st.tuples(st.just("set"), st.sampled_from(["mass", "inertia", "velocity", "position",
                                               "angular_velocity", "angle", "kind"]),
              st.one_of(_NUMBER, _VEC, _KIND)),
    st.tuples(st.just("shape"), st.sampled_from(["density", "group", "category", "mask",
                                                 "sensor", "friction"]),
              st.one_of(_INT, _NUMBER)),
)


def _apply(w, op, pick):
    bodies = w.bodies
    body = bodies[pick % len(bodies)]
    name = op[0]
    if name == "add_body":
        w.add_body(kind=op[1], position=op[2], velocity=op[3])
    elif name == "add_box":
        body.add_box(op[1], op[2], offset=op[3], density=op[4], group=op[5], category=op[6])
    elif name == "add_circle":
        body.add_circle(op[1], offset=op[2], density=op[3])
    elif name == "add_segment":
        body.add_segment(op[1], op[2], radius=op[3])
    elif name == "set":
        setattr(body, op[1], op[2])
    else:
        shapes = [s for b in bodies for s in b.shapes]
        if shapes:
            setattr(shapes[pick % len(shapes)], op[1], op[2])


@nojit
@given(ops=st.lists(st.tuples(_OPS, st.integers(0, 50)), min_size=1, max_size=25))
def test_any_sequence_of_calls_is_refused_unchanged_or_restores(ops):
    w = c2d.World()
    w.add_body().add_box(1.0, 1.0)
    w.add_body(kind="static").add_circle(2.0)
    for op, pick in ops:
        before = w.snapshot()
        try:
            _apply(w, op, pick)
        except (ValueError, TypeError):
            assert w.snapshot() == before, op
            continue
        data = w.snapshot()
        assert c2d.World.restore(data).snapshot() == data, op
        b = w._bodies
        n = b.count
        for field in ("mass", "inertia", "inv_mass", "inv_inertia", "local_com"):
            assert np.isfinite(getattr(b, field)[:n]).all(), (op, field)


@nojit
@pytest.mark.parametrize("name", ["on_contact_persist", "on_contact_end", "on_sensor_end",
                                  "velocities", "angles", "world_point_of"])
def test_surface_methods_have_numpydoc_with_an_example(name):
    fn = getattr(c2d.World, name, None) or getattr(c2d.Body, name)
    doc = fn.__doc__ or ""
    assert "Parameters\n" in doc and "Returns\n" in doc and "Example" in doc and ">>> " in doc
