"""Continuous collision: nothing passes what it is swept against, and no hit loses momentum.

Scenes are in zero gravity so that total linear momentum is a conserved quantity the test can
state exactly: what goes in (the launched body's mass times its speed) must come out, shared
between the bodies, whatever the contact solver does in between. A pass is the launched body's
centre moving through the target's rectangle over a step (the segment between its centres at
the step's start and end, in the target's frame at the step's end: a ball resting on or
sliding past the target keeps its centre a radius away from it).
Head-on hits are compared with the 1-D collision worked out by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0
SPEEDS = (10.0, 100.0, 1000.0)
N_OFFSETS = 32


def _local(body, point):
    """A world point in the body's frame."""
    c = math.cos(body.angle)
    s = math.sin(body.angle)
    dx = point[0] - body.position[0]
    dy = point[1] - body.position[1]
    return c * dx + s * dy, -s * dx + c * dy


def _through(body, half, p0, p1):
    """Whether the segment p0-p1 meets the body's rectangle of half extents ``half`` at its
    pose (Liang-Barsky clipping in the body's frame)."""
    ax, ay = _local(body, p0)
    bx, by = _local(body, p1)
    lo, hi = 0.0, 1.0
    for a, d, h in ((ax, bx - ax, half[0]), (ay, by - ay, half[1])):
        if d == 0.0:
            if abs(a) >= h:
                return False
            continue
        t0 = (-h - a) / d
        t1 = (h - a) / d
        lo = max(lo, min(t0, t1))
        hi = min(hi, max(t0, t1))
    return lo < hi


def _asleep_world(target_size, target_kind="dynamic", target_velocity=(0.0, 0.0)):
    """A zero-gravity world with a target box at the origin; a dynamic target is left to fall
    asleep (at rest for the world's time to sleep)."""
    w = c2d.World(gravity=(0.0, 0.0))
    target = w.add_body(kind=target_kind, position=(0.0, 0.0), velocity=target_velocity)
    target.add_box(*target_size)
    if target_kind == "dynamic" and target_velocity == (0.0, 0.0):
        for _ in range(60):
            w.step(DT)
        assert not target.awake
    return w, target


def _shoot(w, target, half_x, start_x, y, speed, radius, bullet, steps, elasticity=0.0):
    """Launch a circle along +x at height y from start_x; step, and return (passed, launched
    body, momentum in, most momentum lost along x)."""
    ball = w.add_body(position=(start_x, y), velocity=(speed, 0.0), bullet=bullet)
    ball.add_circle(radius, elasticity=elasticity)
    for shape in target.shapes:
        shape.elasticity = elasticity
    movable = target.kind == "dynamic"
    p_in = ball.mass * speed + (target.mass * target.velocity[0] if movable else 0.0)
    py_in = target.mass * target.velocity[1] if movable else 0.0
    worst = 0.0
    passed = False
    for _ in range(steps):
        before = ball.position
        w.step(DT)
        passed |= _through(target, half_x, before, ball.position)
        if movable:
            p = ball.mass * ball.velocity[0] + target.mass * target.velocity[0]
            q = ball.mass * ball.velocity[1] + target.mass * target.velocity[1]
            worst = max(worst, abs(p - p_in), abs(q - py_in))
    return passed, ball, p_in, worst


def _offsets(reach):
    """N_OFFSETS lateral offsets spread over (-reach, reach)."""
    return (np.arange(N_OFFSETS) + 0.5) / N_OFFSETS * 2.0 * reach - reach


@pytest.mark.nojit
@pytest.mark.parametrize("speed", SPEEDS)
def test_fast_ball_never_passes_a_sleeping_box_and_keeps_momentum(speed):
    """A 0.5 m ball (not a bullet) into a sleeping 0.4 m box, over 32 offsets across the box
    and a start a fraction of a step away (the step's phase at the hit differs per offset)."""
    for k, y in enumerate(_offsets(0.2 + 0.25)):
        w, box = _asleep_world((0.4, 0.4))
        start = -0.5 - speed * DT * (1.0 + k / N_OFFSETS)
        passed, ball, p_in, lost = _shoot(w, box, (0.2, 0.2), start, y, speed, 0.25, False,
                                          steps=6)
        assert not passed, (speed, y)
        assert lost <= 1e-9 * p_in, (speed, y, lost)
        # The box took a share of it: it is awake and moving along +x.
        assert box.awake and box.velocity[0] > 0.0, (speed, y)


@pytest.mark.nojit
@pytest.mark.parametrize("speed", SPEEDS)
@pytest.mark.parametrize("elasticity", [0.0, 1.0])
def test_head_on_hit_on_sleeping_box_matches_the_1d_collision(speed, elasticity):
    """Centred hit of a ball on a sleeping box: the velocities after are the 1-D collision's,
    v1' = (m1 - e m2) v / (m1 + m2), v2' = (1 + e) m1 v / (m1 + m2)."""
    w, box = _asleep_world((0.4, 0.4))
    passed, ball, p_in, lost = _shoot(w, box, (0.2, 0.2), -0.5 - 1.37 * speed * DT, 0.0,
                                      speed, 0.25, False, steps=6, elasticity=elasticity)
    m1 = ball.mass
    m2 = box.mass
    v1 = (m1 - elasticity * m2) * speed / (m1 + m2)
    v2 = (1.0 + elasticity) * m1 * speed / (m1 + m2)
    assert not passed
    assert lost <= 1e-9 * p_in
    assert ball.velocity[0] == pytest.approx(v1, abs=1e-3 * speed)
    assert box.velocity[0] == pytest.approx(v2, abs=1e-3 * speed)


def test_ball_at_40_moves_a_sleeping_box_at_every_phase():
    """The reported case: a 0.5 m ball at 40 m/s and a sleeping 0.4 m box, 64 start phases,
    with gravity and a floor (the box asleep on it). The box is pushed every time and the
    ball never goes through it."""
    for k in range(64):
        w = c2d.World(gravity=(0.0, -10.0))
        w.add_body(kind="static", position=(0.0, -0.5)).add_box(40.0, 1.0)
        box = w.add_body(position=(0.0, 0.2))
        box.add_box(0.4, 0.4)
        for _ in range(120):
            w.step(DT)
        assert not box.awake
        x0 = box.position[0]
        ball = w.add_body(position=(-3.0 - 40.0 * DT * k / 64, 0.3), velocity=(40.0, 0.0))
        ball.add_circle(0.25)
        for _ in range(20):
            before = ball.position
            w.step(DT)
            assert not _through(box, (0.2, 0.2), before, ball.position), k
        assert box.position[0] > x0 + 0.05, k


@pytest.mark.nojit
@pytest.mark.parametrize("speed", SPEEDS)
@pytest.mark.parametrize("moving", [False, True])
def test_bullet_never_passes_a_thin_dynamic_plank(speed, moving):
    """A 0.2 m bullet at a 0.1 m by 2 m awake dynamic plank, at rest or sliding along its
    length at 3 m/s, over 32 offsets along the plank: no pass, no momentum lost."""
    for k, y in enumerate(_offsets(1.0)):
        w = c2d.World(gravity=(0.0, 0.0))
        w.sleeping = False
        vy = 3.0 if moving else 0.0
        plank = w.add_body(position=(0.0, 0.0), velocity=(0.0, vy))
        plank.add_box(0.1, 2.0)
        start = -0.5 - speed * DT * (1.0 + k / N_OFFSETS)
        passed, ball, p_in, lost = _shoot(w, plank, (0.05, 1.0), start, y + 2.0 * vy * DT,
                                          speed, 0.1, True, steps=6)
        assert not passed, (speed, y)
        assert lost <= 1e-9 * p_in, (speed, y, lost)
        assert plank.velocity[0] > 0.0, (speed, y)


@pytest.mark.nojit
@pytest.mark.parametrize("speed", SPEEDS)
@pytest.mark.parametrize("plank_velocity", [(0.0, 0.0), (0.0, 5.0), (-2.0, 0.0)])
def test_bullet_never_passes_a_kinematic_plank(speed, plank_velocity):
    """A kinematic plank at rest, sliding along its length, and coming at the bullet: the
    bullet stops on its near side every time."""
    for k, y in enumerate(_offsets(1.0)):
        w, plank = _asleep_world((0.1, 2.0), "kinematic", plank_velocity)
        start = -0.5 - speed * DT * (1.0 + k / N_OFFSETS)
        passed, ball, _, _ = _shoot(w, plank, (0.05, 1.0), start,
                                    y + 2.0 * plank_velocity[1] * DT, speed, 0.1, True, steps=6)
        assert not passed, (speed, y, plank_velocity)


@pytest.mark.nojit
@pytest.mark.parametrize("speed", SPEEDS)
def test_fast_body_never_passes_a_thin_static_wall(speed):
    """A fast (not bullet) 0.2 m box at a 0.05 m static wall: stopped on its near side."""
    for k, y in enumerate(_offsets(1.0)):
        w, wall = _asleep_world((0.05, 2.0), "static")
        start = -0.5 - speed * DT * (1.0 + k / N_OFFSETS)
        body = w.add_body(position=(start, y), velocity=(speed, 0.0))
        body.add_box(0.2, 0.2)
        for _ in range(6):
            w.step(DT)
            assert body.position[0] < 0.0, (speed, y)


@pytest.mark.nojit
def test_bullets_and_fast_bodies_are_deterministic():
    """The same scene twice gives the same bytes."""

    def run():
        w = c2d.World(gravity=(0.0, -10.0))
        w.add_body(kind="static").add_box(20.0, 1.0)
        for k in range(8):
            b = w.add_body(position=(0.3 * k - 1.0, 0.7 + 0.4 * k))
            b.add_box(0.1, 0.6)
        kin = w.add_body(kind="kinematic", position=(3.0, 1.5), velocity=(0.0, 1.0))
        kin.add_box(0.1, 2.0)
        for k in range(6):
            b = w.add_body(position=(-6.0, 0.8 + 0.3 * k), velocity=(300.0 + 40 * k, 0.0),
                           bullet=k % 2 == 0)
            b.add_circle(0.1)
        for _ in range(40):
            w.step(DT)
        return w.snapshot()

    assert run() == run()


@pytest.mark.nojit
def test_a_hit_wakes_the_target_and_its_island_in_the_same_step():
    """A bullet hitting the top box of a sleeping two-box stack within one step: the step
    that finds the impact wakes the top box, and the box under it with it (one island)."""
    w = c2d.World(gravity=(0.0, -10.0))
    w.add_body(kind="static", position=(0.0, -0.5)).add_box(20.0, 1.0)
    low = w.add_body(position=(0.0, 0.25))
    low.add_box(0.5, 0.5)
    top = w.add_body(position=(0.0, 0.75))
    top.add_box(0.5, 0.5)
    for _ in range(120):
        w.step(DT)
    assert not low.awake and not top.awake
    bullet = w.add_body(position=(-8.0, 0.8), velocity=(1000.0, 0.0), bullet=True)
    bullet.add_circle(0.05)
    w.step(DT)
    # Stopped short of the top box's face (x = -0.25), velocity kept for the next contact.
    assert -0.25 - 0.05 - 0.02 < bullet.position[0] < -0.25 - 0.05
    assert bullet.velocity[0] == pytest.approx(1000.0, rel=1e-9)
    assert top.awake and low.awake


@pytest.mark.nojit
@pytest.mark.parametrize("speed", SPEEDS)
def test_one_way_platform_stops_fast_bodies_only_from_its_side(speed):
    """A 0.1 m static platform with one_way = (0, 1): a fast box rising from below goes
    through it; one falling onto it from above stops on it."""
    for up in (True, False):
        w = c2d.World(gravity=(0.0, 0.0))
        ledge = w.add_body(kind="static").add_box(4.0, 0.1)
        ledge.one_way = (0.0, 1.0)
        y0 = -0.5 - 1.37 * speed * DT
        body = w.add_body(position=(0.3, y0 if up else -y0),
                          velocity=(0.0, speed if up else -speed))
        body.add_box(0.2, 0.2)
        for _ in range(12):
            w.step(DT)
        if up:
            assert body.position[1] > 1.0, speed
        else:
            assert 0.05 + 0.1 - 0.02 < body.position[1] < 0.05 + 0.1 + 0.02, speed


@pytest.mark.nojit
def test_bodies_that_ignore_each_other_are_not_swept_against_each_other():
    """world.ignore_collisions holds for the sweep too: the bullet flies through the plank."""
    w = c2d.World(gravity=(0.0, 0.0))
    plank = w.add_body(position=(0.0, 0.0))
    plank.add_box(0.1, 2.0)
    bullet = w.add_body(position=(-0.5 - 1.37 * 1000.0 * DT, 0.0), velocity=(1000.0, 0.0),
                        bullet=True)
    bullet.add_circle(0.1)
    w.ignore_collisions(bullet, plank)
    for _ in range(3):
        w.step(DT)
    assert bullet.position[0] > 10.0
    assert plank.velocity[0] == 0.0


def _fast_bodies(kind, flags, com, com0, s_body, s_flags, aabb):
    """The fast bodies by definition: awake dynamic bodies with a live shape that moved
    (their centre) more than half the smallest side of their live shapes' boxes, in body
    order."""
    from collide2d._store import B_AWAKE, DYNAMIC, S_ALIVE

    out = []
    for b in range(len(kind)):
        live = [s for s in range(len(s_body)) if s_body[s] == b and s_flags[s] & S_ALIVE]
        if kind[b] != DYNAMIC or not flags[b] & B_AWAKE or not live:
            continue
        extent = min(0.5 * min(aabb[s, 2] - aabb[s, 0], aabb[s, 3] - aabb[s, 1]) for s in live)
        dist = math.hypot(*(com[b] - com0[b]))
        if dist != 0.0 and dist > extent:
            out.append(b)
    return out


def test_fast_movers_and_any_fast_find_the_fast_bodies():
    # The step's continuous stage finds its fast bodies from the shape index's movers
    # (fast_movers); in a large world any_fast, over the same rows, is the test before it
    # (sweep_may_hit), and fast_movers' pass starts where any_fast found the first: all
    # against the definition (each body moved 0..2x its smallest extent).
    from collide2d import _tiers
    from collide2d._store import B_AWAKE, DYNAMIC, KINEMATIC, S_ALIVE, STATIC

    # As Python (the same code, the kernels' pure-Python twin): compiled for these arrays,
    # each would gain a second signature, which the startup tests forbid.
    twin = _tiers._twin("ccd")
    any_fast, fast_movers = twin.any_fast, twin.fast_movers

    rng = np.random.default_rng(7)
    found = {True: 0, False: 0}
    for _ in range(300):
        nb = int(rng.integers(1, 6))
        ns = int(rng.integers(0, 8))
        kind = rng.choice([DYNAMIC, DYNAMIC, KINEMATIC, STATIC], nb).astype(np.int8)
        flags = np.where(rng.random(nb) < 0.8, B_AWAKE, 0).astype(np.int32)
        com0 = rng.normal(size=(nb, 2))
        com = com0 + rng.normal(size=(nb, 2)) * rng.choice([0.0, 0.2, 1.0], (nb, 1))
        s_body = rng.integers(0, nb, ns).astype(np.int64)
        s_flags = np.where(rng.random(ns) < 0.9, S_ALIVE, 0).astype(np.int64)
        lo = rng.normal(size=(ns, 2))
        aabb = np.hstack([lo, lo + rng.uniform(0.1, 2.0, (ns, 2))])
        expect = _fast_bodies(kind, flags, com, com0, s_body, s_flags, aabb)
        # The live shapes on bodies that are not static, by row (the index's movers), with
        # room to spare after them; any_fast takes them in any order.
        movers = np.flatnonzero((s_flags & S_ALIVE != 0) & (kind[s_body] != STATIC))
        rows = np.concatenate([movers, rng.integers(0, max(ns, 1), 3)])
        got = fast_movers(kind, flags, com, com0, s_body, aabb, rows, len(movers), 0)
        assert got.tolist() == expect
        shuffled = np.concatenate([rng.permutation(movers), rows[len(movers):]])
        first = any_fast(nb, kind, flags, com, com0, s_body, aabb, shuffled, len(movers))
        assert (first >= 0) == bool(expect)
        if expect:
            # Its position is a fast body's shape, and none before it is.
            assert _fast_bodies(kind, flags, com, com0, s_body[shuffled[:first]],
                                s_flags[shuffled[:first]], aabb[shuffled[:first]]) == []
            assert s_body[shuffled[first]] in expect
            got = fast_movers(kind, flags, com, com0, s_body, aabb, shuffled, len(movers),
                              first)
            assert got.tolist() == expect
        found[bool(expect)] += 1
    assert min(found.values()) > 20


@pytest.mark.nojit
def test_skipping_the_sweep_when_nothing_is_near_changes_no_bit(monkeypatch):
    """A small world calls the sweep only when ``sweep_may_hit`` finds something a fast
    body could meet. Stepped beside a twin whose check always says yes (the sweep then runs
    and finds nothing where the check said no), every snapshot is the same bytes."""
    from collide2d import _jit
    from collide2d._kernels import ccd
    from collide2d._kernels import step as step_kernels

    if _jit.JIT_ENABLED:
        pytest.skip("the compiled step's globals cannot be replaced: NUMBA_DISABLE_JIT=1")
    checked = getattr(ccd.sweep_may_hit, "py_func", ccd.sweep_may_hit)
    said = {True: 0, False: 0}

    def counting(*args):
        result = checked(*args)  # where the sweep's pass starts, or -1: no sweep
        said[result >= 0] += 1
        return result

    def scene(seed):
        rng = np.random.default_rng(seed)
        w = c2d.World(gravity=(0, 0))
        w.add_body(kind="static").add_box(0.2, 12, offset=(8, 0))
        plank = w.add_body(position=(4, rng.uniform(-2, 2)))
        plank.add_box(0.1, 3)
        for k in range(4):
            b = w.add_body(position=(rng.uniform(-30, 0), rng.uniform(-5, 5)),
                           angle=rng.uniform(0, 3), bullet=bool(k % 2))
            if k < 2:
                b.add_circle(rng.uniform(0.1, 0.4))
            else:
                b.add_box(rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.5))
            b.velocity = (rng.uniform(20, 400), rng.uniform(-30, 30))
            b.angular_velocity = rng.uniform(-20, 20)
        # A thin leg pinned to its hull, and a body filtered out of the plank's collisions:
        # fast beside what they never collide with (the check must say no there too).
        hull = w.add_body(position=(-20, 10), velocity=(rng.uniform(5, 30), 0))
        hull.add_box(1.0, 0.6)
        leg = w.add_body(position=(-20.6, 9.6), velocity=hull.velocity)
        leg.add_box(0.05, 0.6)
        w.add_revolute_joint(hull, leg, (-20.55, 9.85))
        ghost = w.add_body(position=(2, plank.position[1]), velocity=(rng.uniform(20, 60), 0))
        ghost.add_box(0.1, 0.1, mask=0)
        return w

    for seed in range(12):
        gated, always = scene(seed), scene(seed)
        for _ in range(8):
            monkeypatch.setattr(step_kernels, "sweep_may_hit", counting)
            gated.step(DT)
            # (always a sweep, its pass over every mover)
            monkeypatch.setattr(step_kernels, "sweep_may_hit", lambda *args: 0)
            always.step(DT)
            assert gated.snapshot() == always.snapshot()
    assert said[True] > 10 and said[False] > 10  # both ways, many times


@pytest.mark.nojit
def test_the_sweep_near_each_box_finds_the_first_hits_of_the_full_sweep(monkeypatch):
    """With few fast bodies, none a bullet, the sweep finds its targets near each swept box
    in the shape index (``ccd._near_targets``) instead of classifying every shape. Stepped
    beside a twin that always classifies every shape (``FEW_FAST`` 0), through fast balls
    and boxes fired across a large static level (boxes, discs, segments, a one-way ledge,
    a sensor, a shape filtered out) into a sleeping pile, every snapshot is the same
    bytes."""
    from collide2d import _jit
    from collide2d._kernels import ccd

    if _jit.JIT_ENABLED:
        pytest.skip("the compiled step's globals cannot be replaced: NUMBA_DISABLE_JIT=1")
    near_calls = [0]
    near = ccd._near_targets

    def counting(*args):
        near_calls[0] += 1
        return near(*args)

    def scene(seed):
        rng = np.random.default_rng(seed)
        w = c2d.World(gravity=(0, -10))
        level = w.add_body(kind="static")
        for i in range(12):
            for j in range(6):
                x, y = 3.0 * i + rng.uniform(-0.5, 0.5), 3.0 * j + 2.0
                pick = (i + j) % 4
                if pick == 0:
                    level.add_box(rng.uniform(0.3, 1.2), rng.uniform(0.3, 1.2), offset=(x, y))
                elif pick == 1:
                    level.add_circle(rng.uniform(0.2, 0.6), offset=(x, y))
                elif pick == 2:
                    level.add_segment((x - 0.8, y), (x + 0.8, y + rng.uniform(-0.5, 0.5)))
        level.add_box(40, 1, offset=(16, -0.5))
        ledge = level.add_box(3, 0.2, offset=(10, 9.5))
        ledge.one_way = (0.0, 1.0)
        level.add_circle(1.0, offset=(20, 6), sensor=True)
        level.add_box(1, 1, offset=(25, 4), mask=0)
        for k in range(6):  # the pile, asleep before the shots
            w.add_body(position=(34.0, 0.5 + 1.0 * k)).add_box(1.0, 1.0)
        w.sleeping = True
        return w, rng

    for seed in range(4):
        worlds = []
        for few in (ccd.FEW_FAST, 0):
            monkeypatch.setattr(ccd, "FEW_FAST", few)
            monkeypatch.setattr(ccd, "_near_targets", counting)
            w, rng = scene(seed)
            shots = []
            for step in range(150):
                if step >= 60 and step % 12 == 0:  # fired once the pile sleeps
                    b = w.add_body(position=(rng.uniform(-6, 0), rng.uniform(1, 18)))
                    if step % 24:
                        b.add_circle(rng.uniform(0.1, 0.3))
                    else:
                        b.add_box(rng.uniform(0.2, 0.5), rng.uniform(0.2, 0.5))
                    b.velocity = (rng.uniform(60, 400), rng.uniform(-40, 40))
                w.step(DT)
                shots.append(w.snapshot())
            worlds.append(shots)
        assert worlds[0] == worlds[1], seed
    assert near_calls[0] > 50  # the near sweep ran (the twins share the counter)
