"""Contacts in the World: restitution, friction on a ramp, elastic collisions, events,
sensors, collision filters, the dynamic-dynamic response setting and arcade bodies.

Expectations, derived here:

- A ball dropped from rest with its bottom H above the ground hits at sqrt(2 g H); with
  restitution e it leaves at e sqrt(2 g H) and rises e^2 H.
- On a ramp at angle t, a box with friction mu (pair friction sqrt(mu mu) = mu) stays if
  mu >= tan t, else slides down with a = g (sin t - mu cos t).
- A 1D elastic collision of m1, m2 at u1, u2 keeps m1 u1 + m2 u2 and the kinetic energy; the
  outgoing velocities are v1 = ((m1 - m2) u1 + 2 m2 u2) / (m1 + m2), v2 likewise.
- Arcade response: the relative velocity's normal part is reversed and
  scaled by the elasticity, V' = Vt (1 - f) - e Vn, so a ball bouncing on a static floor
  leaves with e times its impact speed.
- A resting body of mass m is held by a normal force m g: the normal impulse of one step is
  m g dt.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2d

# Small scenes: all of them also run with NUMBA_DISABLE_JIT=1.
pytestmark = pytest.mark.nojit

DT = 1.0 / 60.0
G = 10.0


def _ground(world, width=40.0, **material):
    ground = world.add_body(kind="static")
    shape = ground.add_box(width, 1.0, offset=(0.0, -0.5), **material)
    return ground, shape


def _drop(elasticity, shape="circle", height=2.0, steps=240, arcade=False):
    """Drop a body with its bottom ``height`` above the ground; return bottom heights and
    vertical velocities after each step."""
    world = c2d.World(gravity=(0.0, -G))
    _ground(world, elasticity=elasticity)
    body = world.add_body(position=(0.0, height + 0.5), arcade=arcade)
    if shape == "circle":
        body.add_circle(0.5, elasticity=elasticity)
    else:
        body.add_box(1.0, 1.0, elasticity=elasticity)
    ys, vys = [], []
    for _ in range(steps):
        world.step(DT)
        ys.append(body.position[1] - 0.5)
        vys.append(body.velocity[1])
    return np.array(ys), np.array(vys), body


# ---------------------------------------------------------------------------- restitution
@pytest.mark.parametrize("shape", ["circle", "box"])
def test_restitution_zero_does_not_bounce(shape):
    ys, vys, body = _drop(0.0, shape)
    first = int(np.argmax(ys < 0.05))          # first step within 5 cm of the ground
    assert ys[first] < 0.05
    after = ys[first:]
    assert after.max() < 0.01, f"rebounded to {after.max():.4f} m"
    assert after.min() > -0.02                  # did not sink either
    # Ends resting on the ground.
    assert abs(ys[-1]) < 0.01
    assert np.hypot(*body.velocity) < 0.01


@pytest.mark.parametrize("shape", ["circle", "box"])
def test_restitution_one_keeps_height(shape):
    height = 2.0
    ys, vys, _ = _drop(1.0, shape, height=height, steps=120)
    up = int(np.argmax(vys > 0.0))              # first step moving up: the bounce
    assert vys[up] > 0.0
    down_again = up + int(np.argmax(vys[up:] < 0.0))
    apex = ys[up:down_again + 1].max()
    assert apex >= 0.9 * height, f"rebound apex {apex:.3f} m of {height} m"
    assert apex <= 1.02 * height, f"rebound apex {apex:.3f} m gained energy"


# ---------------------------------------------------------------------------- friction
def _ramp_run(mu, steps):
    """A box on a 30 degree ramp (a rotated static box); returns times, distance down the
    slope and speed down the slope after each step."""
    theta = math.radians(30.0)
    c, s = math.cos(theta), math.sin(theta)
    world = c2d.World(gravity=(0.0, -G), sleeping=False)
    ramp = world.add_body(kind="static", angle=theta)
    ramp.add_box(40.0, 1.0, friction=mu)
    # Box resting on the top face (ramp frame y = 0.5), 10 m up the slope.
    local = np.array([10.0, 1.0])
    start = np.array([c * local[0] - s * local[1], s * local[0] + c * local[1]])
    box = world.add_body(position=start, angle=theta)
    box.add_box(1.0, 1.0, friction=mu)
    down = np.array([-c, -s])
    t, dist, speed, tilt = [], [], [], []
    for i in range(steps):
        world.step(DT)
        t.append((i + 1) * DT)
        dist.append(float((box.position - start) @ down))
        speed.append(float(box.velocity @ down))
        tilt.append(abs(box.angle - theta))
    return np.array(t), np.array(dist), np.array(speed), max(tilt)


def test_box_on_ramp_stays_with_high_friction():
    # tan 30 = 0.577 < 0.8: static friction holds.
    t, dist, speed, tilt = _ramp_run(0.8, 120)
    assert np.abs(dist).max() < 0.01
    assert abs(speed[-1]) < 0.01
    assert tilt < 0.01


def test_box_on_ramp_slides_with_low_friction():
    theta = math.radians(30.0)
    mu = 0.1
    a = G * (math.sin(theta) - mu * math.cos(theta))   # 4.134 m/s^2
    t, dist, speed, tilt = _ramp_run(mu, 90)
    sel = (t >= 0.25) & (t <= 1.5)
    slope = np.polyfit(t[sel], speed[sel], 1)[0]
    assert abs(slope - a) <= 0.03 * a, f"acceleration {slope:.4f}, expected {a:.4f}"
    # Distance too: 1/2 a t^2 after 1.5 s, within 3 %.
    assert abs(dist[-1] - 0.5 * a * t[-1] ** 2) <= 0.03 * 0.5 * a * t[-1] ** 2
    assert tilt < 0.01


# ---------------------------------------------------------------------------- elastic
def _kinetic(bodies):
    e = 0.0
    for b in bodies:
        v = b.velocity
        e += 0.5 * b.mass * float(v @ v) + 0.5 * b.inertia * b.angular_velocity ** 2
    return e


@pytest.mark.parametrize("shape", ["circle", "box"])
def test_head_on_elastic_collision(shape):
    world = c2d.World(gravity=(0.0, 0.0))
    a = world.add_body(position=(-3.0, 1.0), velocity=(5.0, 0.0))
    b = world.add_body(position=(3.0, 1.0), velocity=(-2.0, 0.0))
    if shape == "circle":
        a.add_circle(0.5, density=1.0, elasticity=1.0)
        b.add_circle(0.3, density=4.0, elasticity=1.0)
    else:
        a.add_box(1.0, 1.0, density=1.0, elasticity=1.0)
        b.add_box(0.6, 0.6, density=4.0, elasticity=1.0)
    m1, m2 = a.mass, b.mass
    assert m1 != pytest.approx(m2)
    u1, u2 = 5.0, -2.0
    p0 = m1 * u1 + m2 * u2
    e0 = 0.5 * m1 * u1 ** 2 + 0.5 * m2 * u2 ** 2
    for _ in range(90):
        world.step(DT)
        p = m1 * a.velocity + m2 * b.velocity
        assert abs(p[0] - p0) <= 1e-9 and abs(p[1]) <= 1e-9
    assert a.position[0] < b.position[0]      # they bounced, did not pass
    # Symmetric about the line of centres: nothing to start a spin.
    assert abs(a.angular_velocity) < 0.05 and abs(b.angular_velocity) < 0.05
    e1 = _kinetic([a, b])
    assert abs(e1 - e0) <= 0.01 * e0, f"energy {e1:.5f} vs {e0:.5f}"
    v1 = ((m1 - m2) * u1 + 2.0 * m2 * u2) / (m1 + m2)
    v2 = ((m2 - m1) * u2 + 2.0 * m1 * u1) / (m1 + m2)
    assert a.velocity[0] == pytest.approx(v1, abs=0.02 * abs(u1 - u2))
    assert b.velocity[0] == pytest.approx(v2, abs=0.02 * abs(u1 - u2))


# ---------------------------------------------------------------------------- events
def _array_events(arrays, world):
    """Each row of a ContactArrays as (shape ids, normal, points, impulse), the way the
    callbacks' ContactEvent carries it."""
    return [((int(a), int(b)), n.tolist(), pts[:k].tolist(), float(imp))
            for a, b, n, pts, k, imp in zip(*arrays, strict=True)]


def _typed(rows, world, between):
    """Rows a handler for ``between`` gets, turned so shape_a is of type between[0]."""
    out = []
    for (a, b), n, pts, imp in rows:
        types = (world.shape(a).collision_type, world.shape(b).collision_type)
        if types == between:
            out.append(((a, b), n, pts, imp))
        elif types == between[::-1]:
            out.append(((b, a), [0.0 - v for v in n], pts, imp))
    return out


@pytest.mark.parametrize("handlers", [(None, (0, 1), (2, 2)), ((0, 1), (2, 2), (1, 1))],
                         ids=["any-and-typed", "typed-only"])
def test_callback_events_are_the_event_arrays_row_for_row(handlers):
    # The callbacks select their rows apart from the arrays API (world._event_rows):
    # every step of a pile that falls asleep, is woken, loses a body and sleeps again,
    # with balls thrown up through a one-way ledge (rows that pass: no events), each
    # handler gets exactly the rows the arrays give, in their order.
    rng = np.random.default_rng(7)
    world = c2d.World(gravity=(0.0, -G))
    ground = world.add_body(kind="static")
    for k in range(4):
        ground.add_box(2.0, 0.5, offset=(2.5 * k - 4.0, 0.0)).collision_type = k % 3
    ledge = world.add_body(kind="static").add_box(3.0, 0.2, offset=(9.0, 3.0))
    ledge.one_way = (0.0, 1.0)
    ledge.collision_type = 1
    for k in range(24):
        body = world.add_body(position=(rng.uniform(-5, 5), rng.uniform(1, 12)),
                              angle=rng.uniform(0, 3))
        shape = body.add_box(0.5, 0.4) if k % 2 else body.add_circle(0.3)
        shape.collision_type = int(rng.integers(0, 3))
    got = {}
    for kind in ("begin", "persist", "end"):
        for between in handlers:
            log = got[kind, between] = []
            getattr(world, f"on_contact_{kind}")(
                lambda ev, log=log: log.append(((ev.shape_a.id, ev.shape_b.id),
                                                ev.normal.tolist(), ev.points.tolist(),
                                                ev.impulse)), between=between)
    aside = 0
    for step in range(420):
        if step % 40 == 0:
            ball = world.add_body(position=(8.0 + step / 200, 1.0), velocity=(0.0, 9.0))
            ball.add_circle(0.2).collision_type = step // 40 % 3
        if step == 250:
            world.add_body(position=(0.0, 8.0)).add_circle(0.4)
        if step == 330:
            world.remove(world.bodies[5])
        for log in got.values():
            log.clear()
        world.step(DT)
        began = _array_events(world.contact_begin_events(), world)
        touching = _array_events(world.contacts(), world)
        ends = _array_events(world.contact_end_events(), world)
        pairs_began = {r[0] for r in began}
        want = {"begin": began, "persist": [r for r in touching if r[0] not in pairs_began],
                "end": ends}
        # (steps with sleeping rows aside, asleep.py, and events to merge them with)
        aside += world._step_buffers.asleep.count > 0 and bool(began or ends)
        for (kind, between), log in got.items():
            rows = want[kind] if between is None else _typed(want[kind], world, between)
            assert log == rows, (step, kind, between)
    assert aside >= 5


def test_contact_events_begin_persist_end():
    world = c2d.World(gravity=(0.0, -G), sleeping=False)
    _, ground_shape = _ground(world)
    box = world.add_body(position=(0.0, 1.5))
    box_shape = box.add_box(1.0, 1.0, density=2.0)   # m = 2 kg
    assert ground_shape.id < box_shape.id
    log = {"begin": [], "persist": [], "end": []}
    world.on_contact_begin(lambda ev: log["begin"].append((world.time, ev)))
    world.on_contact_persist(lambda ev: log["persist"].append((world.time, ev)))
    world.on_contact_end(lambda ev: log["end"].append((world.time, ev)))

    began_at = None
    for _ in range(60):
        world.step(DT)
        arr = world.contact_begin_events()
        if log["begin"] and began_at is None:
            began_at = world.time
            assert arr.shape_a.tolist() == [ground_shape.id]
            assert arr.shape_b.tolist() == [box_shape.id]
            np.testing.assert_allclose(arr.normal, [[0.0, 1.0]], atol=1e-4)
        elif began_at is not None:
            assert len(arr.shape_a) == 0
    # Falling 1 m takes sqrt(2 / g) = 0.447 s; the contact begins around then.
    assert began_at is not None and 0.3 < began_at < 0.55
    assert len(log["begin"]) == 1
    ev = log["begin"][0][1]
    assert isinstance(ev, c2d.ContactEvent)
    assert ev.shape_a is ground_shape and ev.shape_b is box_shape
    np.testing.assert_allclose(ev.normal, (0.0, 1.0), atol=1e-4)   # from ground to box
    assert ev.points.shape[1] == 2 and 1 <= len(ev.points) <= 2
    assert np.all(np.abs(ev.points[:, 0]) <= 0.5 + 1e-9)
    assert np.all(np.abs(ev.points[:, 1]) <= 0.03)
    # Persisting every step after the beginning, with no end while resting.
    assert not log["end"]
    steps_after = round((world.time - began_at) / DT)
    assert len(log["persist"]) == steps_after
    ev = log["persist"][-1][1]
    assert len(ev.points) == 2
    np.testing.assert_allclose(np.sort(ev.points[:, 0]), (-0.5, 0.5), atol=0.01)
    assert ev.impulse > 0.0
    touching = world.contacts()
    assert touching.shape_a.tolist() == [ground_shape.id]
    assert touching.shape_b.tolist() == [box_shape.id]

    # Lift the box: the contact ends once, and persist stops.
    box.velocity = (0.0, 5.0)
    n_persist = len(log["persist"])
    ended_arrays = []
    for _ in range(10):
        world.step(DT)
        e = world.contact_end_events()
        if len(e.shape_a):
            ended_arrays.append((e.shape_a.tolist(), e.shape_b.tolist()))
    assert len(log["end"]) == 1
    ev = log["end"][0][1]
    assert ev.shape_a is ground_shape and ev.shape_b is box_shape
    assert ended_arrays == [([ground_shape.id], [box_shape.id])]
    assert len(log["persist"]) <= n_persist + 1
    assert not world.contacts().shape_a.size


def _bouncing_scene():
    """Balls bouncing on the ground (begin and end again and again) and falling through a
    sensor strip (its begin and end)."""
    world = c2d.World(gravity=(0.0, -10.0))
    _ground(world)
    world.add_body(kind="static", position=(0.0, 3.0)).add_box(30.0, 0.5, sensor=True)
    for i, e in enumerate((0.3, 0.6, 0.9)):
        world.add_body(position=(3.0 * i - 3.0, 5.0 + i)).add_circle(0.3, elasticity=e)
    return world


@pytest.mark.parametrize("kind", ["contact_begin", "contact_end", "sensor_begin",
                                  "sensor_end"])
def test_one_kind_of_callback_sees_the_events_every_kind_sees(kind):
    # The step skips building events when no row began or ended (World._may_have_events).
    # A world listening for one kind must get the same events, step by step, as one
    # listening for every kind, whose persist callback always builds them.
    alone, every = _bouncing_scene(), _bouncing_scene()
    got, want = [], []
    getattr(alone, "on_" + kind)(lambda ev: got.append((alone.time, ev.shape_a.id,
                                                        ev.shape_b.id)))
    for name in ("contact_begin", "contact_persist", "contact_end", "sensor_begin",
                 "sensor_end"):
        log = want if name == kind else []
        getattr(every, "on_" + name)(lambda ev, log=log: log.append(
            (every.time, ev.shape_a.id, ev.shape_b.id)))
    for _ in range(240):
        alone.step(DT)
        every.step(DT)
    assert len(want) >= 3  # each ball, at least once
    assert got == want


def test_contact_impulse_of_resting_box_is_weight_times_dt():
    # A resting 2 kg box is held by a 20 N normal force: 20 N * dt of impulse per step.
    world = c2d.World(gravity=(0.0, -G), sleeping=False)
    _ground(world)
    box = world.add_body(position=(0.0, 0.5))
    box.add_box(1.0, 1.0, density=2.0)
    events = []
    world.on_contact_persist(events.append)
    for _ in range(60):
        world.step(DT)
    assert abs(box.position[1] - 0.5) < 0.01
    assert events[-1].impulse == pytest.approx(2.0 * G * DT, rel=0.02)
    assert world.contacts().impulse[0] == pytest.approx(2.0 * G * DT, rel=0.02)


def test_contact_event_ids_ordered_when_dynamic_created_first():
    world = c2d.World(gravity=(0.0, -G))
    box = world.add_body(position=(0.0, 1.0))
    box_shape = box.add_box(1.0, 1.0)
    _, ground_shape = _ground(world)
    assert box_shape.id < ground_shape.id
    events = []
    world.on_contact_begin(events.append)
    for _ in range(60):
        world.step(DT)
    assert len(events) == 1
    ev = events[0]
    assert ev.shape_a is box_shape and ev.shape_b is ground_shape
    np.testing.assert_allclose(ev.normal, (0.0, -1.0), atol=1e-4)   # from box to ground
    arr = world.contacts()
    assert arr.shape_a.tolist() == [box_shape.id]
    np.testing.assert_allclose(arr.normal, [[0.0, -1.0]], atol=1e-4)


# ---------------------------------------------------------------------------- sensors
def test_sensor_reports_overlaps_and_exerts_no_force():
    substeps = 4
    world = c2d.World(gravity=(0.0, -G), substeps=substeps)
    zone = world.add_body(kind="static", position=(0.0, 5.0))
    zone_shape = zone.add_box(2.0, 2.0, sensor=True)
    ball = world.add_body(position=(0.0, 10.0))
    ball_shape = ball.add_circle(0.5)
    begins, ends = [], []
    world.on_sensor_begin(lambda ev: begins.append((world.time, ev)))
    world.on_sensor_end(lambda ev: ends.append((world.time, ev)))
    pair = sorted((zone_shape.id, ball_shape.id))
    h = DT / substeps
    inside = []
    for step in range(1, 121):
        world.step(DT)
        k = step * substeps
        y = 10.0 + -G * h * h * k * (k + 1) / 2.0
        # Free fall exactly: the sensor pushes nothing.
        assert abs(ball.position[1] - y) <= 1e-9
        # The circle (centre on the box's axis) overlaps the 2 x 2 box iff |y - 5| < 1.5.
        gap = abs(y - 5.0) - 1.5
        got = world.sensor_overlaps()
        assert got.shape[1] == 2 and got.dtype.kind == "i"
        if abs(gap) > 1e-6:
            expected = [pair] if gap < 0 else []
            assert got.tolist() == expected, f"step {step}, gap {gap:.4f}"
        inside.append(gap < 0)
    assert any(inside) and not inside[-1]
    assert len(begins) == 1 and len(ends) == 1
    assert begins[0][0] < ends[0][0]
    for _, ev in begins + ends:
        assert {ev.shape_a.id, ev.shape_b.id} == set(pair)
        assert ev.shape_a.id < ev.shape_b.id


def test_sensor_shape_on_dynamic_body_does_not_collide():
    # A sensor circle on a dynamic body falls through the ground (free fall exactly) and is
    # reported overlapping it while the two meet: centre height y in (-1.5, 0.5).
    world = c2d.World(gravity=(0.0, -G), substeps=4)
    _, ground_shape = _ground(world)      # y in [-1, 0]
    probe = world.add_body(position=(0.0, 3.0))
    probe_shape = probe.add_circle(0.5, sensor=True)
    pair = [[ground_shape.id, probe_shape.id]]
    h = DT / 4
    seen = 0
    for step in range(1, 61):
        world.step(DT)
        k = 4 * step
        y = 3.0 - G * h * h * k * (k + 1) / 2.0
        assert abs(probe.position[1] - y) <= 1e-9
        if min(abs(y + 1.5), abs(y - 0.5)) > 1e-6:
            inside = -1.5 < y < 0.5
            assert world.sensor_overlaps().tolist() == (pair if inside else []), step
            seen += inside
        assert world.contacts().shape_a.size == 0
    assert seen > 0


# ---------------------------------------------------------------------------- filters
def _fall_onto(lower_kw, upper_kw, steps=90):
    """A box resting on the ground and a box dropped onto it from 2 m above; returns
    (lower, upper)."""
    world = c2d.World(gravity=(0.0, -G), sleeping=False)
    _ground(world)
    lower = world.add_body(position=(0.0, 0.5))
    lower.add_box(1.0, 1.0, **lower_kw)
    upper = world.add_body(position=(0.0, 3.0))
    upper.add_box(1.0, 1.0, **upper_kw)
    for _ in range(steps):
        world.step(DT)
    return lower, upper


def test_filter_default_stacks():
    lower, upper = _fall_onto({}, {})
    assert abs(upper.position[1] - 1.5) < 0.02


@pytest.mark.parametrize("lower_kw,upper_kw", [
    ({"category": 2}, {"mask": 0xFFFFFFFF & ~2}),         # upper ignores category 2
    ({"category": 2, "mask": 0xFFFFFFFF & ~4}, {"category": 4}),  # lower ignores upper
    ({"group": -3}, {"group": -3}),                        # same negative group
    ({"group": -3, "category": 2}, {"group": -3, "mask": 0xFFFFFFFF}),
], ids=["mask-upper", "mask-lower", "negative-group", "negative-group-beats-mask"])
def test_filtered_pairs_pass_through(lower_kw, upper_kw):
    lower, upper = _fall_onto(lower_kw, upper_kw)
    # Upper falls through lower onto the ground; neither pushes the other.
    assert abs(upper.position[1] - 0.5) < 0.02
    np.testing.assert_allclose(lower.position, (0.0, 0.5), atol=0.01)
    np.testing.assert_allclose(upper.position[0], 0.0, atol=0.01)


def test_same_positive_group_collides_despite_masks():
    lower, upper = _fall_onto({"group": 5, "category": 2, "mask": 1},
                              {"group": 5, "category": 4, "mask": 1})
    assert abs(upper.position[1] - 1.5) < 0.02


def test_mask_excluding_ground_falls_through_it():
    world = c2d.World(gravity=(0.0, -G), substeps=4)
    _ground(world)   # category 1
    ghost = world.add_body(position=(0.0, 1.0))
    ghost.add_box(1.0, 1.0, mask=0xFFFFFFFE)
    for _ in range(60):
        world.step(DT)
    k, h = 240, DT / 4
    assert abs(ghost.position[1] - (1.0 - G * h * h * k * (k + 1) / 2.0)) <= 1e-9
    assert world.contacts().shape_a.size == 0


# ---------------------------------------------------------------------------- responses
@pytest.mark.parametrize("response", ["sensor", "ignore"])
def test_dynamic_response_pass_through(response):
    world = c2d.World(gravity=(0.0, 0.0), dynamic_response=response)
    a = world.add_body(position=(-2.0, 0.0), velocity=(3.0, 0.0))
    sa = a.add_circle(0.5)
    b = world.add_body(position=(2.0, 0.0), velocity=(-3.0, 0.0))
    sb = b.add_circle(0.5)
    wall = world.add_body(kind="static", position=(0.0, -5.0))
    wall.add_box(1.0, 1.0)
    overlapping = []
    for step in range(1, 61):
        world.step(DT)
        t = step * DT
        gap = (4.0 - 6.0 * t) if 4.0 - 6.0 * t > 0 else (6.0 * t - 4.0)
        assert a.position[0] == pytest.approx(-2.0 + 3.0 * t, abs=1e-9)
        assert b.position[0] == pytest.approx(2.0 - 3.0 * t, abs=1e-9)
        got = world.sensor_overlaps().tolist()
        if abs(gap - 1.0) > 1e-6:
            touching = gap < 1.0
            expected = [[sa.id, sb.id]] if (touching and response == "sensor") else []
            assert got == expected, f"step {step}"
            overlapping.append(touching)
    assert any(overlapping)
    assert world.contacts().shape_a.size == 0
    np.testing.assert_array_equal(a.velocity, (3.0, 0.0))
    np.testing.assert_array_equal(b.velocity, (-3.0, 0.0))


def test_dynamic_response_sensor_still_collides_with_static():
    world = c2d.World(gravity=(0.0, -G), dynamic_response="sensor")
    _ground(world)
    box = world.add_body(position=(0.0, 2.0))
    box.add_box(1.0, 1.0)
    for _ in range(90):
        world.step(DT)
    assert abs(box.position[1] - 0.5) < 0.02


# ---------------------------------------------------------------------------- arcade
def test_arcade_ball_rebounds_with_elasticity_times_speed():
    e = 0.5
    ys, vys, body = _drop(e, "circle", height=2.0, steps=120, arcade=True)
    up = int(np.argmax(vys > 0.0))
    assert vys[up] > 0.0
    v_in = -vys[up - 1]            # speed at the end of the last falling step
    v_out = vys[up]
    # V' = -e Vn at the reflection; gravity acts for at most one step around it.
    assert abs(v_out - e * v_in) <= G * DT + 0.01 * v_in, (v_in, v_out)
    assert v_in == pytest.approx(math.sqrt(2.0 * G * 2.0), rel=0.05)
    # Rises e^2 of the drop height (one step of gravity around the bounce is the slack).
    down_again = up + int(np.argmax(vys[up:] < 0.0))
    apex = ys[up:down_again + 1].max()
    assert apex == pytest.approx(e * e * 2.0, rel=0.15)
    assert body.angle == 0.0 and body.angular_velocity == 0.0


def test_arcade_body_does_not_rotate():
    world = c2d.World(gravity=(0.0, -G))
    _ground(world)
    box = world.add_body(position=(0.0, 2.0), angle=0.4, arcade=True)
    box.add_box(1.0, 1.0)
    assert box.arcade
    box.apply_torque(10.0)
    box.apply_impulse((0.0, 1.0), point=(0.5, 2.0))
    for _ in range(120):
        world.step(DT)
        assert box.angle == 0.4
        assert box.angular_velocity == 0.0
    # Resting on its lowest corner, not toppled.
    assert abs(box.position[1] - 0.5 * (math.cos(0.4) + math.sin(0.4))) < 0.03
