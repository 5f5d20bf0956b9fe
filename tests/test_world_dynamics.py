"""World dynamics against closed forms: integrators, damping, forces, impulses, body kinds.

Every expectation is derived here, not read from the engine:

- Semi-implicit Euler with n substeps of h = dt / n updates the velocity first, then the
  position with the new velocity. From rest of forces other than a constant acceleration a,
  after k substeps ``v_k = v0 + a h k`` and
  ``y_k = y0 + h * sum_{i=1..k} v_i = y0 + v0 h k + a h^2 k (k + 1) / 2``.
- Explicit Euler moves with the old velocity first:
  ``y_k = y0 + h * sum_{i=0..k-1} v_i = y0 + v0 h k + a h^2 k (k - 1) / 2``.
- Damping d (fraction of velocity kept after one second) multiplies the velocity by
  ``d ** h`` each substep, so after one second of substeps the factor is ``d`` exactly (up to
  round-off) and the semi-implicit position is ``x0 + h v0 sum_{i=1..k} q^i`` with
  ``q = d ** h``, a geometric series.
- Impulses: ``dv = J / m`` and ``dw = (r x J) / I``; a force F over one step gives
  ``dv = F / m * dt`` and a torque ``dw = tau / I * dt``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2d

# Small scenes: all of them also run with NUMBA_DISABLE_JIT=1.
pytestmark = pytest.mark.nojit

DT = 1.0 / 60.0
G = -10.0


def _ball(world, position=(0.0, 0.0), radius=0.5, density=1.0, **kw):
    body = world.add_body(position=position, **kw)
    body.add_circle(radius, density=density)
    return body


# ---------------------------------------------------------------------------- integrators
@pytest.mark.parametrize("substeps", [1, 4, 8])
def test_free_fall_and_projectile_semi_implicit(substeps):
    world = c2d.World(gravity=(0.0, G), substeps=substeps)
    x0, y0, vx0, vy0 = 1.5, 100.0, 3.0, 7.0
    body = _ball(world, (x0, y0), velocity=(vx0, vy0))
    h = DT / substeps
    for step in range(1, 61):
        world.step(DT)
        k = step * substeps
        vy = vy0 + G * h * k
        y = y0 + vy0 * h * k + G * h * h * k * (k + 1) / 2.0
        x = x0 + vx0 * h * k
        np.testing.assert_allclose(body.velocity, (vx0, vy), rtol=0, atol=1e-9)
        np.testing.assert_allclose(body.position, (x, y), rtol=0, atol=1e-9)
    assert body.angle == 0.0
    assert body.angular_velocity == 0.0


@pytest.mark.parametrize("substeps", [1, 4])
def test_free_fall_explicit_euler(substeps):
    world = c2d.World(gravity=(0.0, G), substeps=substeps, integrator="euler")
    x0, y0, vx0, vy0 = -2.0, 50.0, -1.0, 4.0
    body = _ball(world, (x0, y0), velocity=(vx0, vy0))
    h = DT / substeps
    for step in range(1, 61):
        world.step(DT)
        k = step * substeps
        vy = vy0 + G * h * k
        y = y0 + vy0 * h * k + G * h * h * k * (k - 1) / 2.0
        x = x0 + vx0 * h * k
        np.testing.assert_allclose(body.velocity, (vx0, vy), rtol=0, atol=1e-9)
        np.testing.assert_allclose(body.position, (x, y), rtol=0, atol=1e-9)


def test_free_fall_of_offset_shape_moves_origin_like_centre():
    # A circle 2 m right of the body origin: the centre of mass is there, but a translation
    # moves origin and centre alike, so the origin follows the same closed form.
    world = c2d.World(gravity=(0.0, G), substeps=4)
    body = world.add_body(position=(0.0, 10.0))
    body.add_circle(0.5, offset=(2.0, 0.0))
    np.testing.assert_allclose(body.center_of_mass, (2.0, 10.0), atol=1e-12)
    for _ in range(30):
        world.step(DT)
    k = 30 * 4
    h = DT / 4
    np.testing.assert_allclose(
        body.position, (0.0, 10.0 + G * h * h * k * (k + 1) / 2.0), atol=1e-9
    )
    np.testing.assert_allclose(body.center_of_mass - body.position, (2.0, 0.0), atol=1e-12)


# ---------------------------------------------------------------------------- damping
@pytest.mark.parametrize("where", ["body", "world"])
def test_damping_half_halves_speed_in_one_second(where):
    substeps = 4
    if where == "world":
        world = c2d.World(gravity=(0.0, 0.0), damping=0.5, substeps=substeps)
        body = _ball(world, velocity=(4.0, -2.0), angular_velocity=3.0)
    else:
        world = c2d.World(gravity=(0.0, 0.0), substeps=substeps)
        body = _ball(
            world, velocity=(4.0, -2.0), angular_velocity=3.0, damping=0.5, angular_damping=0.5
        )
    for _ in range(60):
        world.step(DT)
    np.testing.assert_allclose(body.velocity, (2.0, -1.0), rtol=0, atol=1e-9)
    assert abs(body.angular_velocity - 1.5) <= 1e-9
    # Position: semi-implicit, x = h v0 sum_{i=1..k} q^i = h v0 q (1 - q^k) / (1 - q).
    h = DT / substeps
    q = 0.5**h
    k = 60 * substeps
    travel = h * q * (1.0 - q**k) / (1.0 - q)
    np.testing.assert_allclose(body.position, (4.0 * travel, -2.0 * travel), rtol=0, atol=1e-9)
    # The continuous limit is v0 (1 - 1/2) / ln 2 = 0.7213 v0: a sanity check on the series.
    assert abs(travel - 0.5 / math.log(2.0)) < 2e-3


def test_body_and_world_damping_multiply():
    world = c2d.World(gravity=(0.0, 0.0), damping=0.5)
    body = _ball(world, velocity=(8.0, 0.0), damping=0.5)
    for _ in range(60):
        world.step(DT)
    np.testing.assert_allclose(body.velocity, (2.0, 0.0), rtol=0, atol=1e-9)


def test_damping_one_keeps_all():
    world = c2d.World(gravity=(0.0, 0.0))
    body = _ball(world, velocity=(3.0, -4.0), angular_velocity=-2.0)
    for _ in range(60):
        world.step(DT)
    assert body.velocity.tolist() == [3.0, -4.0]
    assert body.angular_velocity == -2.0
    assert abs(body.angle - (-2.0)) < 1e-12  # one second at -2 rad/s


# ---------------------------------------------------------------------------- forces
def test_apply_force_acts_over_one_step_then_clears():
    substeps = 4
    world = c2d.World(gravity=(0.0, 0.0), substeps=substeps)
    body = world.add_body()
    body.add_box(2.0, 1.0, density=1.5)  # m = 3 kg
    m = 3.0
    assert body.mass == pytest.approx(m, abs=1e-12)
    f = np.array([6.0, -9.0])
    body.apply_force(f)
    world.step(DT)
    a = f / m
    np.testing.assert_allclose(body.velocity, a * DT, rtol=0, atol=1e-12)
    # Constant acceleration over n substeps, semi-implicit: x = a h^2 n (n + 1) / 2.
    h = DT / substeps
    np.testing.assert_allclose(
        body.position, a * h * h * substeps * (substeps + 1) / 2.0, rtol=0, atol=1e-12
    )
    assert body.angular_velocity == 0.0  # through the centre of mass: no torque
    # Cleared: the next step coasts at the same velocity.
    world.step(DT)
    np.testing.assert_allclose(body.velocity, a * DT, rtol=0, atol=1e-12)


def test_apply_force_at_point_gives_torque():
    world = c2d.World(gravity=(0.0, 0.0))
    body = world.add_body(position=(1.0, 2.0))
    body.add_box(2.0, 1.0, density=1.0)  # m = 2, I = 2 (4 + 1) / 12
    m, inertia = 2.0, 2.0 * 5.0 / 12.0
    f = (0.0, 3.0)
    point = (2.0, 2.0)  # r = (1, 0) from the centre: torque = 1 * 3 = 3 N m
    body.apply_force(f, point=point)
    world.step(DT)
    np.testing.assert_allclose(body.velocity, (0.0, 3.0 / m * DT), atol=1e-12)
    assert body.angular_velocity == pytest.approx(3.0 / inertia * DT, abs=1e-12)
    world.step(DT)
    assert body.angular_velocity == pytest.approx(3.0 / inertia * DT, abs=1e-12)


def test_apply_torque_over_one_step():
    world = c2d.World(gravity=(0.0, 0.0))
    body = world.add_body()
    body.add_circle(0.5, density=2.0)
    m = 2.0 * math.pi * 0.25
    inertia = 0.5 * m * 0.25
    body.apply_torque(2.0)
    world.step(DT)
    assert body.angular_velocity == pytest.approx(2.0 / inertia * DT, abs=1e-12)
    np.testing.assert_array_equal(body.velocity, (0.0, 0.0))
    world.step(DT)
    assert body.angular_velocity == pytest.approx(2.0 / inertia * DT, abs=1e-12)


def test_apply_impulse_at_point_changes_velocity_at_once():
    world = c2d.World(gravity=(0.0, 0.0))
    body = world.add_body(position=(0.0, 5.0), angle=0.3)
    body.add_box(1.0, 1.0, density=2.0)  # m = 2, I = 2 * 2 / 12 = 1/3
    m, inertia = 2.0, 1.0 / 3.0
    j = np.array([1.0, 0.5])
    point = np.array([0.5, 5.5])
    body.apply_impulse(j, point=point)
    r = point - np.array([0.0, 5.0])
    np.testing.assert_allclose(body.velocity, j / m, rtol=0, atol=1e-12)
    assert body.angular_velocity == pytest.approx((r[0] * j[1] - r[1] * j[0]) / inertia, abs=1e-12)


def test_apply_impulse_without_point_and_custom_mass():
    world = c2d.World(gravity=(0.0, 0.0))
    body = world.add_body()
    body.add_box(1.0, 1.0)
    body.mass = 5.0
    assert body.mass == 5.0
    body.apply_impulse((10.0, -5.0))
    np.testing.assert_allclose(body.velocity, (2.0, -1.0), atol=1e-12)
    assert body.angular_velocity == 0.0


@pytest.mark.parametrize("scale", [0.0, 2.0, -0.5])
def test_gravity_scale(scale):
    world = c2d.World(gravity=(0.0, G), substeps=2)
    body = _ball(world, (0.0, 20.0), gravity_scale=scale)
    for _ in range(30):
        world.step(DT)
    k, h = 60, DT / 2
    a = scale * G
    np.testing.assert_allclose(body.velocity, (0.0, a * h * k), atol=1e-9)
    np.testing.assert_allclose(
        body.position, (0.0, 20.0 + a * h * h * k * (k + 1) / 2.0), atol=1e-9
    )


def test_fixed_rotation_ignores_torque_and_offcentre_impulse():
    world = c2d.World(gravity=(0.0, 0.0))
    body = world.add_body(angle=0.25, fixed_rotation=True)
    body.add_box(1.0, 2.0)
    assert body.fixed_rotation
    assert body.inertia == math.inf
    body.apply_torque(50.0)
    body.apply_impulse((0.0, 2.0), point=(0.5, 0.0))
    body.apply_force((0.0, 10.0), point=(0.5, 1.0))
    for _ in range(10):
        world.step(DT)
    assert body.angle == 0.25
    assert body.angular_velocity == 0.0
    # The linear part still acts: m = 2, dv = J/m + F/m dt.
    np.testing.assert_allclose(body.velocity, (0.0, 1.0 + 5.0 * DT), atol=1e-12)


def test_fixed_rotation_box_lands_flat_on_corner():
    # A tilted fixed-rotation box dropped on its corner keeps its angle (a free one would
    # topple flat).
    world = c2d.World()
    ground = world.add_body(kind="static")
    ground.add_box(20.0, 1.0, offset=(0.0, -0.5))
    body = world.add_body(position=(0.0, 2.0), angle=0.4, fixed_rotation=True)
    body.add_box(1.0, 1.0)
    for _ in range(120):
        world.step(DT)
    assert body.angle == 0.4
    # Resting on its lowest corner: centre at the corner's height above it.
    corner_drop = 0.5 * (math.cos(0.4) + math.sin(0.4))
    assert abs(body.position[1] - corner_drop) < 0.02


# ---------------------------------------------------------------------------- body kinds
def test_static_body_never_moves_when_hit():
    world = c2d.World()
    wall = world.add_body(kind="static", position=(0.0, 1.0), angle=0.1)
    wall.add_box(1.0, 2.0)
    ball = _ball(world, (-5.0, 1.0), velocity=(20.0, 0.0), density=50.0)
    for _ in range(60):
        world.step(DT)
    assert wall.position.tolist() == [0.0, 1.0]
    assert wall.angle == 0.1
    assert wall.mass == math.inf
    assert ball.position[0] < -0.5  # bounced or stopped on the wall, did not pass


def test_kinematic_moves_at_its_velocity_without_gravity():
    world = c2d.World(gravity=(0.0, G))
    plat = world.add_body(
        kind="kinematic", position=(1.0, 2.0), velocity=(2.0, -0.5), angular_velocity=0.75
    )
    plat.add_box(3.0, 0.5)
    for _ in range(60):
        world.step(DT)
    np.testing.assert_allclose(plat.position, (3.0, 1.5), atol=1e-12)
    assert plat.angle == pytest.approx(0.75, abs=1e-12)
    np.testing.assert_array_equal(plat.velocity, (2.0, -0.5))
    assert plat.mass == math.inf


def test_kinematic_pushes_dynamic_and_is_not_pushed():
    world = c2d.World(gravity=(0.0, G), sleeping=False)
    ground = world.add_body(kind="static")
    ground.add_box(100.0, 1.0, offset=(0.0, -0.5), friction=0.3)
    pusher = world.add_body(kind="kinematic", position=(-3.0, 1.0), velocity=(2.0, 0.0))
    pusher.add_box(1.0, 2.0)
    box = world.add_body(position=(0.0, 0.5))
    box.add_box(1.0, 1.0, density=100.0, friction=0.3)  # 100 kg
    for _ in range(180):  # 3 s: the pusher travels 6 m, meets the box after 2.5 m
        world.step(DT)
    np.testing.assert_allclose(pusher.position, (3.0, 1.0), atol=1e-9)
    np.testing.assert_array_equal(pusher.velocity, (2.0, 0.0))
    assert pusher.angle == 0.0
    # The box is in front of the pusher's face (x = 3.5) and moving with it.
    assert box.position[0] > 3.5 + 0.5 - 0.05
    assert abs(box.velocity[0] - 2.0) < 0.2


def test_dynamic_hitting_kinematic_does_not_move_it():
    world = c2d.World(gravity=(0.0, 0.0))
    plat = world.add_body(kind="kinematic", position=(0.0, 0.0))
    plat.add_box(1.0, 1.0)
    _ball(world, (-3.0, 0.0), velocity=(10.0, 0.0), density=1000.0)
    for _ in range(60):
        world.step(DT)
    assert plat.position.tolist() == [0.0, 0.0]
    assert plat.velocity.tolist() == [0.0, 0.0]
    assert plat.angle == 0.0


# ------------------------------------------------------------------ rotation per substep
def test_substep_rotation_matches_the_library_cos_and_sin_to_one_ulp():
    # The integrator's small-angle polynomial against libm, on a dense grid of the range it
    # covers and beyond (where it defers to libm itself).
    from kernel_calls import compiled

    from collide2d._kernels.integrate import cos_sin

    cos_sin = compiled(cos_sin)
    for x in np.concatenate([np.linspace(-0.25, 0.25, 20001), [1e-300, -1e-9, 0.3, -3.0]]):
        c, s = cos_sin(float(x))
        assert abs(c - math.cos(x)) <= math.ulp(math.cos(x))
        assert abs(s - math.sin(x)) <= max(math.ulp(math.sin(x)), 5e-324)


# ------------------------------------------------------------------ bodies out of contact
@pytest.mark.parametrize("explicit", [False, True])
def test_bodies_out_of_contact_integrate_exactly_like_bodies_in_contact(explicit):
    # The step takes a body no contact touches through all substeps at once
    # (integrate_alone); the substep loop's two kernels must give it the same bits.
    # Damped, forced, spinning past the quarter-turn clamp, fixed-rotation, kinematic,
    # static and sleeping bodies.
    from kernel_calls import compiled

    from collide2d._kernels import integrate

    integrate_alone = compiled(integrate.integrate_alone)
    integrate_positions = compiled(integrate.integrate_positions)
    integrate_velocities = compiled(integrate.integrate_velocities)
    rng = np.random.default_rng(7)
    n, substeps, h = 14, 4, 1.0 / 240.0
    kind = np.array([2] * 10 + [1, 1, 0, 2], dtype=np.int8)
    flags = np.full(n, 1 | 16, dtype=np.int32)  # alive, awake
    flags[3] |= 4                               # fixed rotation
    flags[13] &= ~16                            # asleep
    inv_m = np.where((kind == 2) & (flags & 16 != 0), rng.uniform(0.2, 2.0, n), 0.0)
    inv_i = np.where(inv_m > 0.0, rng.uniform(0.5, 3.0, n), 0.0)
    damping = np.where(rng.random(n) < 0.5, 1.0, rng.uniform(0.2, 0.9, n))
    angular_damping = np.where(rng.random(n) < 0.5, 1.0, rng.uniform(0.2, 0.9, n))
    gravity_scale = rng.uniform(-1.0, 2.0, n)
    force = rng.normal(0.0, 5.0, (n, 2))
    torque = rng.normal(0.0, 3.0, n)
    vel0 = rng.normal(0.0, 4.0, (n, 2))
    angvel0 = rng.normal(0.0, 10.0, n)
    angvel0[[1, 10]] = [900.0, -700.0]          # beyond a quarter turn per substep
    angvel0[5] = 0.0
    angle0 = rng.uniform(-3.0, 3.0, n)

    def state():
        return {"vel": vel0.copy(), "angvel": angvel0.copy(), "com": rng.normal(0, 9, (n, 2)),
                "angle": angle0.copy(), "dp": np.zeros((n, 2)), "dq": np.tile([1.0, 0.0], (n, 1))}

    alone = state()
    looped = {k: v.copy() for k, v in alone.items()}

    def motion(s, touched):
        return integrate.BodyMotion(s["vel"], s["angvel"], force, torque, gravity_scale,
                                    damping, angular_damping, s["angle"], kind, flags,
                                    s["com"], angle0, s["dp"], s["dq"], inv_m, inv_i, touched)

    world_damping, gx, gy = 0.9, 0.5, -10.0
    integrate_alone(motion(alone, np.zeros(n, dtype=np.bool_)), n, world_damping, gx, gy, h,
                    substeps, explicit)
    every = motion(looped, np.ones(n, dtype=np.bool_))

    def positions():
        integrate_positions(every, n, h)

    for _ in range(substeps):
        if explicit:
            positions()
        integrate_velocities(every, n, world_damping, gx, gy, h)
        if not explicit:
            positions()
    for name in alone:
        assert np.array_equal(alone[name], looped[name]), name
    assert not np.array_equal(alone["angle"], angle0)  # the bodies did move and turn
