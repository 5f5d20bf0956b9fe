"""Particles: stop / bounce / pass, gravity and drag, tunnelling, moving and turning bodies.

Expectations are closed forms (semi-implicit Euler under gravity, exponential drag,
reflections off axis-aligned walls) and, for the turning hull, an independent check of
each surviving particle's true path relative to the hull, sampled finely in time.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose

import collide2d as c2d
from collide2d import QueryFilter

nojit = pytest.mark.nojit
DT = 1.0 / 60.0
NUDGE_TOL = 1e-6  # a bounced particle restarts about 1e-9 (relative) off the surface


def plate_world(x=50.0, thickness=0.01, height=10.0):
    world = c2d.World(gravity=(0, 0))
    plate = world.add_body(kind="static", position=(x, 0))
    plate.add_box(thickness, height)
    return world, plate


@nojit
def test_stop_at_a_thin_plate_at_any_speed():
    world, plate = plate_world()
    speeds = np.array([30.0, 600.0, 3e4, 1e7])
    balls = world.add_particles(np.zeros((4, 2)), np.column_stack((speeds, 0 * speeds)))
    seen = []
    for _ in range(120):
        world.step(DT)
        h = balls.hits
        seen += list(
            zip(
                h.particle.tolist(),
                h.body.tolist(),
                h.shape.tolist(),
                h.normal.tolist(),
                h.point.tolist(),
                h.fraction.tolist(),
                strict=True,
            )
        )
    assert not balls.alive.any()
    assert_allclose(balls.positions, [[49.995, 0.0]] * 4, atol=1e-9)
    assert_allclose(balls.velocities[:, 0], speeds)  # the impact velocity is kept
    assert sorted(s[0] for s in seen) == [0, 1, 2, 3]
    for _, body, shape, normal, point, fraction in seen:
        assert body == plate.id and shape == plate.shapes[0].id
        assert normal == [-1.0, 0.0] and point == pytest.approx([49.995, 0.0])
        assert 0.0 <= fraction <= 1.0
    # The fastest ball's step: it covers 1e7 / 60 m, the plate is 49.995 m away.
    fast = [s for s in seen if s[0] == 3][0]
    assert fast[5] == pytest.approx(49.995 / (1e7 * DT), rel=1e-12)


@nojit
def test_pass_reports_and_keeps_flying():
    world, plate = plate_world()
    sparks = world.add_particles([(49, 0)], (120, 0), on_hit="pass")
    world.step(DT)  # 2 m: enters the plate at 49.995
    h = sparks.hits
    assert h.particle.tolist() == [0] and h.normal.tolist() == [[-1.0, 0.0]]
    assert h.fraction[0] == pytest.approx(0.995 / 2)
    assert sparks.alive.tolist() == [True] and sparks.positions[0, 0] == pytest.approx(51.0)
    world.step(DT)
    assert len(sparks.hits.particle) == 0 and sparks.positions[0, 0] == pytest.approx(53.0)


@nojit
@pytest.mark.parametrize("elasticity", [1.0, 0.5, 0.0])
def test_bounce_reflects_and_finishes_the_step(elasticity):
    world = c2d.World(gravity=(0, 0))
    floor = world.add_body(kind="static").add_box(100, 1, offset=(0, -0.5))  # top at y = 0
    drops = world.add_particles([(0, 0.5)], (60, -60), on_hit="bounce", elasticity=elasticity)
    world.step(DT)  # 1 m down and 1 m along: hits the floor halfway, at (0.5, 0)
    h = drops.hits
    assert h.shape.tolist() == [floor.id] and h.fraction[0] == pytest.approx(0.5)
    assert_allclose(h.point, [[0.5, 0.0]], atol=1e-12)
    assert_allclose(h.normal, [[0.0, 1.0]])
    assert_allclose(drops.velocities, [[60.0, 60.0 * elasticity]])
    assert_allclose(drops.positions, [[1.0, 0.5 * elasticity]], atol=NUDGE_TOL)
    assert drops.positions[0, 1] > 0.0 and drops.alive[0]


@nojit
def test_several_bounces_in_one_step_between_walls():
    world = c2d.World(gravity=(0, 0))
    walls = world.add_body(kind="static")
    walls.add_box(1, 10, offset=(-1.5, 0))  # inner face x = -1
    walls.add_box(1, 10, offset=(1.5, 0))  # inner face x = +1
    ball = world.add_particles([(0, 0)], (270, 0), on_hit="bounce", elasticity=1.0)
    world.step(DT)  # 4.5 m: +1 to the right wall, 2 back to the left one, then 1.5
    assert ball.hits.fraction.tolist() == pytest.approx([1 / 4.5, 3 / 4.5])
    assert ball.hits.normal.tolist() == [[-1.0, 0.0], [1.0, 0.0]]
    assert_allclose(ball.positions, [[0.5, 0.0]], atol=NUDGE_TOL)
    assert_allclose(ball.velocities, [[270.0, 0.0]])
    # With one bounce allowed, the second hit reflects the velocity and the ball waits there.
    ball.positions[:] = 0.0
    ball.max_bounces = 1
    world.step(DT)
    assert len(ball.hits.particle) == 2
    assert_allclose(ball.positions, [[-1.0, 0.0]], atol=NUDGE_TOL)
    assert_allclose(ball.velocities, [[270.0, 0.0]])


@nojit
def test_gravity_and_drag_closed_forms():
    world = c2d.World(gravity=(0, -10))
    n = 30
    free = world.add_particles([(0, 100)], (3, 4))
    light = world.add_particles([(0, 100)], (3, 4), gravity_scale=0.5)
    dragged = world.add_particles([(0, 0)], (8, 0), gravity_scale=0.0, drag=2.0)
    for _ in range(n):
        world.step(DT)
    t = n * DT
    # Semi-implicit Euler: v_k = v0 + g k dt, x_n = x0 + sum_k v_k dt.
    for p, g in ((free, -10.0), (light, -5.0)):
        assert_allclose(p.velocities, [[3.0, 4.0 + g * t]], rtol=1e-12)
        assert_allclose(
            p.positions, [[3.0 * t, 100.0 + 4.0 * t + g * DT * DT * n * (n + 1) / 2]], rtol=1e-12
        )
    # Drag: v = v0 exp(-c t); x = sum_k v0 exp(-c k dt) dt (geometric series).
    q = math.exp(-2.0 * DT)
    assert_allclose(dragged.velocities, [[8.0 * math.exp(-2.0 * t), 0.0]], rtol=1e-12)
    assert_allclose(dragged.positions, [[8.0 * DT * q * (1 - q**n) / (1 - q), 0.0]], rtol=1e-12)


def test_particles_never_pass_a_thin_rotating_hull():
    """Fast and slow particles against a 20 m x 2 cm kinematic plate turning at 4 rad/s (its
    tips at 40 m/s). A particle that is still alive after a step must not have crossed the
    plate's midline within its span during that step: checked on its true path relative to
    the turning plate, sampled 64 times per step."""
    rng = np.random.default_rng(12)
    world = c2d.World(gravity=(0, 0))
    hull = world.add_body(kind="kinematic", angular_velocity=4.0)
    half_len, half_thick = 10.0, 0.01
    hull.add_box(2 * half_len, 2 * half_thick)
    n = 3000
    r = rng.uniform(0.5, 14.0, n)
    phi = rng.uniform(0, 2 * math.pi, n)
    pos = np.column_stack((r * np.cos(phi), r * np.sin(phi)))
    keep = np.abs(pos[:, 1]) > 3 * half_thick  # none starts inside the plate
    speed = np.exp(rng.uniform(math.log(0.05), math.log(5000.0), n))
    ang = rng.uniform(0, 2 * math.pi, n)
    vel = np.column_stack((speed * np.cos(ang), speed * np.sin(ang)))
    balls = world.add_particles(pos[keep], vel[keep])
    tau = np.linspace(0.0, 1.0, 65)
    died = 0
    slow_died = 0
    for _ in range(90):
        p0 = balls.positions.copy()
        alive0 = balls.alive.copy()
        th0 = hull.angle
        world.step(DT)
        th1 = hull.angle
        p1 = balls.positions
        # Hits lie on the plate at its end-of-step pose.
        h = balls.hits
        c, s = math.cos(th1), math.sin(th1)
        lx = c * h.point[:, 0] + s * h.point[:, 1]
        ly = -s * h.point[:, 0] + c * h.point[:, 1]
        on_side = (np.abs(np.abs(ly) - half_thick) <= 1e-9) & (np.abs(lx) <= half_len + 1e-9)
        on_end = (np.abs(np.abs(lx) - half_len) <= 1e-9) & (np.abs(ly) <= half_thick + 1e-9)
        assert np.all(on_side | on_end)
        newly = alive0 & ~balls.alive
        died += int(newly.sum())
        slow_died += int((newly & (np.hypot(*balls.velocities.T) < 1.0)).sum())
        # Survivors: sample their straight path against the turning plate.
        sv = np.flatnonzero(alive0 & balls.alive)
        P = p0[sv, None, :] + tau[None, :, None] * (p1[sv] - p0[sv])[:, None, :]
        th = th0 + tau * (th1 - th0)
        x = np.cos(th) * P[..., 0] + np.sin(th) * P[..., 1]
        y = -np.sin(th) * P[..., 0] + np.cos(th) * P[..., 1]
        flip = np.sign(y[:, :-1]) != np.sign(y[:, 1:])
        w = y[:, :-1] / np.where(flip, y[:, :-1] - y[:, 1:], 1.0)
        x_cross = x[:, :-1] + w * (x[:, 1:] - x[:, :-1])
        crossed = flip & (np.abs(x_cross) < half_len - 0.1)
        assert not crossed.any(), sv[crossed.any(axis=1)]
    assert died > 500  # the test saw many hits,
    assert slow_died > 10  # including slow particles swept up by the turning plate


def test_a_moving_box_sweeps_up_resting_particles():
    world = c2d.World(gravity=(0, 0))
    ram = world.add_body(kind="kinematic", velocity=(600, 0))  # 10 m per step
    ram.add_box(1, 1)
    dust = world.add_particles([(3, 0), (6, 0.4), (9.6, 0), (12, 0), (5, 2)], None)
    world.step(DT)
    # The ram's front face (x = 0.5 at the start) passed x = 3, 6 and 9.6; it ends at 10.5.
    assert dust.alive.tolist() == [False, False, False, True, True]
    h = dust.hits
    assert h.particle.tolist() == [0, 1, 2]
    assert_allclose(h.fraction, [(3 - 0.5) / 10, (6 - 0.5) / 10, (9.6 - 0.5) / 10], rtol=1e-9)
    assert_allclose(h.normal, [[1.0, 0.0]] * 3)
    assert_allclose(h.point[:, 0], 10.5, rtol=1e-12)  # on the face, where the ram ends


def test_bounce_off_a_moving_body_takes_its_velocity():
    world = c2d.World(gravity=(0, 0))
    ram = world.add_body(kind="kinematic", velocity=(600, 0))
    ram.add_box(1, 1)
    dust = world.add_particles([(3, 0)], None, on_hit="bounce", elasticity=1.0)
    world.step(DT)
    # A resting particle struck elastically by an infinitely heavy wall at u leaves at 2u.
    assert_allclose(dust.velocities, [[1200.0, 0.0]], rtol=1e-12)
    assert dust.positions[0, 0] > 10.5  # in front of the ram's end-of-step face


@nojit
def test_start_inside_hits_at_fraction_zero():
    world = c2d.World(gravity=(0, 0))
    box = world.add_body(kind="static").add_box(2, 2)
    stuck = world.add_particles([(0.5, 0)], (60, 0))
    passing = world.add_particles([(0.5, 0)], (60, 0), on_hit="pass")
    world.step(DT)
    for p in (stuck, passing):
        h = p.hits
        assert h.shape.tolist() == [box.id] and h.fraction.tolist() == [0.0]
        assert h.normal.tolist() == [[0.0, 0.0]]
    assert stuck.alive.tolist() == [False] and stuck.positions.tolist() == [[0.5, 0.0]]
    assert passing.alive.tolist() == [True] and passing.positions[0, 0] == pytest.approx(1.5)


@nojit
def test_filters_sensors_and_excluded_bodies():
    world = c2d.World(gravity=(0, 0))
    own = world.add_body(kind="static", position=(2, 0))
    own.add_box(0.5, 4)
    world.add_body(kind="static", position=(4, 0)).add_box(0.5, 4, sensor=True)
    target = world.add_body(kind="static", position=(6, 0))
    target.add_box(0.5, 4, category=0b10)
    shots = world.add_particles([(0, 0)], (600, 0), filter=QueryFilter(exclude=own))
    world.step(DT)
    assert shots.hits.body.tolist() == [target.id]
    masked = world.add_particles([(0, 1)], (600, 0), filter=QueryFilter(exclude=own, mask=1))
    world.step(DT)
    assert len(masked.hits.particle) == 0 and masked.alive.all()
    with pytest.raises(TypeError, match="filter"):
        masked.filter = "none"
    # The excluded ship sinks: the filter simply has nothing left to exclude.
    world.remove(own)
    world.step(DT)
    assert world.snapshot()


@nojit
def test_add_remove_views_and_settings():
    world = c2d.World(gravity=(0, 0))
    p = world.add_particles([(0, 0), (1, 0)], [(1, 0), (2, 0)])
    assert len(p) == 2 and p.alive_count == 2
    idx = p.add([(5, 5)] * 3, (0, 1))
    assert idx.tolist() == [2, 3, 4] and len(p) == 5
    assert p.velocities[2:].tolist() == [[0.0, 1.0]] * 3
    p.add(np.zeros((40, 2)))  # grows past the first capacity
    assert len(p) == 45 and p.velocities[-1].tolist() == [0.0, 0.0]
    p.positions[0] = (10, 10)  # views are live
    p.alive[1] = False
    world.step(1.0)
    assert p.positions[0].tolist() == [11.0, 10.0] and p.positions[1].tolist() == [1.0, 0.0]
    p.remove([0, 3])
    assert len(p) == 43 and p.positions[0].tolist() == [1.0, 0.0] and not p.alive[0]
    p.remove_dead()
    assert len(p) == 42 and p.alive.all()
    p.remove(np.ones(42, dtype=bool))
    assert len(p) == 0
    world.step(1.0)  # nothing to move
    with pytest.raises(ValueError, match="on_hit"):
        p.on_hit = "explode"
    with pytest.raises(ValueError, match="elasticity"):
        p.elasticity = -1
    with pytest.raises(ValueError, match="drag"):
        world.add_particles([(0, 0)], None, drag=-0.1)
    with pytest.raises(ValueError, match="velocities"):
        world.add_particles([(0, 0), (1, 1)], [(1, 1), (2, 2), (3, 3)])
    with pytest.raises(ValueError, match="positions"):
        world.add_particles([(0, 0, 0)])
    with pytest.raises(ValueError, match="which"):
        p.add([(0, 0)])
        p.remove([5])
    p.destroy()
    assert p not in world._systems
    with pytest.raises(RuntimeError, match="destroyed"):
        p.add([(0, 0)])


def test_snapshot_and_deepcopy_continue_identically():
    import copy

    world = c2d.World(gravity=(0, -10))
    spinner = world.add_body(kind="kinematic", angular_velocity=3.0)
    spinner.add_box(8, 0.1)
    world.add_body(kind="static").add_box(40, 1, offset=(0, -6))
    rng = np.random.default_rng(3)
    shots = world.add_particles(rng.uniform(-6, 6, (300, 2)), rng.uniform(-40, 40, (300, 2)),
                                on_hit="bounce", elasticity=0.7, drag=0.1,
                                filter=QueryFilter(mask=0xFF))
    shots.max_bounces = 2
    for _ in range(10):
        world.step(DT)
    twin = c2d.World.restore(world.snapshot())
    clone = copy.deepcopy(world)
    (p2,) = twin._systems
    (p3,) = clone._systems
    assert p2.on_hit == "bounce" and p2.elasticity == 0.7 and p2.max_bounces == 2
    assert p2.filter.mask == 0xFF and p2._world is twin and p3._world is clone
    assert np.array_equal(p2.hits.point, shots.hits.point)
    for _ in range(20):
        for w in (world, twin, clone):
            w.step(DT)
    for p in (p2, p3):
        assert np.array_equal(p.positions, shots.positions)
        assert np.array_equal(p.velocities, shots.velocities)
        assert np.array_equal(p.alive, shots.alive)
        assert np.array_equal(p.hits.fraction, shots.hits.fraction)


def test_a_particle_squeezed_by_a_body_against_a_wall_stays_inside():
    world = c2d.World(gravity=(0.0, -7.0), substeps=1, sleeping=False)
    room = world.add_body(kind="static")
    room.add_box(12.0, 1.0, offset=(0.0, -5.5))
    room.add_box(12.0, 1.0, offset=(0.0, 5.5))
    room.add_box(1.0, 12.0, offset=(-5.5, 0.0))
    room.add_box(1.0, 12.0, offset=(5.5, 0.0))
    first = world.add_body(position=(0.0, 0.0))
    first.add_circle(0.30630367243605483, offset=(0.0, -0.1773557830402714), density=0.5,
                     friction=6.122769595533107e-22, elasticity=0.75)
    dust = world.add_particles([(1.0, -4.0)], [(0.0, 0.0)], on_hit="bounce", elasticity=0.0)
    falling = world.add_body(position=(3.0, 0.0), velocity=(-4.0, -8.0))
    falling.add_circle(0.375, density=1.0, friction=0.0, elasticity=0.0)
    for _ in range(30):
        world.step(1 / 60)
        assert np.all(np.abs(dust.positions) <= 5.0 + 1e-6)


def test_a_particle_a_kinematic_body_carries_into_a_wall_stops_at_its_face():
    # The box's leading face (x = 4.5) meets the particle (x = 4.8) 0.3 m into the step's
    # 1 m: the box would carry it to its face's end pose, x = 5.5, 0.5 m inside the wall
    # (x >= 5). It stops at the wall's face instead, its velocity into the wall gone, and
    # stays there while the box passes over it.
    world = c2d.World(gravity=(0.0, 0.0), sleeping=False)
    wall = world.add_body(kind="static")
    wall.add_box(1.0, 4.0, offset=(5.5, 0.0))
    ram = world.add_body(kind="kinematic", position=(4.0, 0.0), velocity=(60.0, 0.0))
    ram.add_box(1.0, 1.0)
    dust = world.add_particles([(4.8, 0.0)], [(0.0, 0.0)], on_hit="bounce", elasticity=0.0)
    world.step(1 / 60)
    assert dust.positions[0, 0] == pytest.approx(5.0, abs=1e-8)
    assert dust.positions[0, 0] <= 5.0
    assert dust.velocities[0, 0] <= 0.0
    assert dust.hits.body.tolist() == [ram.id]
    for _ in range(5):
        world.step(1 / 60)
        assert dust.positions[0, 0] <= 5.0
