"""Yes / no options, gravity scale and sensor mass: values worked out by hand."""

import math

import numpy as np
import pytest

import collide2d as c2d


def _world():
    w = c2d.World(gravity=(0.0, -10.0))
    b = w.add_body(position=(0.0, 5.0))
    b.add_box(1.0, 1.0)
    return w, b


@pytest.mark.nojit
@pytest.mark.parametrize("name", ["bullet", "fixed_rotation", "arcade", "awake"])
@pytest.mark.parametrize("bad", ["no", None, 0.5, 2, [True]])
def test_body_flags_refuse_non_booleans_and_change_nothing(name, bad):
    w, b = _world()
    before = w.snapshot()
    with pytest.raises(TypeError, match=name):
        setattr(b, name, bad)
    assert w.snapshot() == before


@pytest.mark.nojit
@pytest.mark.parametrize("value,expected", [(True, True), (np.bool_(True), True), (1, True),
                                            (False, False), (0, False)])
def test_body_flags_take_bools_and_0_1(value, expected):
    _, b = _world()
    b.bullet = value
    assert b.bullet is expected


@pytest.mark.nojit
@pytest.mark.parametrize("name", ["bullet", "fixed_rotation", "arcade"])
def test_add_body_refuses_a_string_flag(name):
    w, _ = _world()
    before = w.snapshot()
    with pytest.raises(TypeError, match=name):
        w.add_body(**{name: "yes"})
    assert w.snapshot() == before


@pytest.mark.nojit
def test_sleeping_and_sensor_and_query_filter_flags_refuse_strings():
    w, b = _world()
    with pytest.raises(TypeError, match="sleeping"):
        w.sleeping = "off"
    with pytest.raises(TypeError, match="sensor"):
        b.shapes[0].sensor = "yes"
    with pytest.raises(TypeError, match="sensor"):
        b.add_circle(0.5, sensor="yes")
    with pytest.raises(TypeError, match="sensors"):
        c2d.QueryFilter(sensors="no")


@pytest.mark.nojit
def test_angular_damping_error_names_angular_damping():
    w, _ = _world()
    with pytest.raises(ValueError, match="^angular_damping"):
        w.add_body(angular_damping=1.5)


@pytest.mark.nojit
def test_negative_gravity_scale_is_accepted_by_add_body_and_the_setter_alike():
    w, b = _world()
    b.gravity_scale = -1.0
    assert b.gravity_scale == -1.0
    c = w.add_body(gravity_scale=-0.5)
    assert c.gravity_scale == -0.5


def test_a_body_with_gravity_scale_minus_one_falls_up():
    # Semi-implicit Euler with no contacts: v(t) = -g * scale * t exactly.
    w = c2d.World(gravity=(0.0, -10.0))
    b = w.add_body(position=(0.0, 0.0), gravity_scale=-1.0)
    b.add_circle(0.5)
    for _ in range(60):
        w.step(1.0 / 60.0)
    assert b.velocity[1] == pytest.approx(10.0, rel=1e-12)
    assert b.position[1] > 0.0


@pytest.mark.nojit
def test_toggling_sensor_removes_and_restores_the_shapes_mass():
    w = c2d.World()
    b = w.add_body()
    b.add_box(1.0, 1.0, density=2.0)                    # 2 kg centred at the origin
    ring = b.add_circle(0.5, offset=(3.0, 0.0), density=1.0)  # pi/4 kg at x = 3
    m_circle = math.pi * 0.25
    total = 2.0 + m_circle
    assert b.mass == pytest.approx(total, rel=1e-12)
    ring.sensor = True
    assert b.mass == pytest.approx(2.0, rel=1e-12)
    assert b.inertia == pytest.approx(2.0 * (1.0 + 1.0) / 12.0, rel=1e-12)
    ring.sensor = False
    assert b.mass == pytest.approx(total, rel=1e-12)
    # Centre of mass back at the weighted mean of the two centres.
    cx = m_circle * 3.0 / total
    assert b.center_of_mass[0] == pytest.approx(cx, rel=1e-12)
