"""World.on_pre_solve: the step's contacts handed to Python before the solver.

Oracles: free fall and rest positions from the sizes, a frictionless slide at g sin(theta),
an elastic bounce back to the drop height (energy), the pairs of collision types in contact
counted by brute force from the scene's layout, and a twin world stepped without any
callback (bit for bit).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2d

DT = 1.0 / 60.0
G = 10.0
FLOOR, GHOST, LEDGE = 1, 2, 3


def ghost_scene():
    """A floor (type FLOOR, top y = 0), a ledge below it (type LEDGE, top y = -3), a ghost
    crate (type GHOST) and two plain crates resting on the floor."""
    w = c2d.World(gravity=(0.0, -G))
    floor = w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    floor.collision_type = FLOOR
    ledge = w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -3.5))
    ledge.collision_type = LEDGE
    crates = []
    for x in (-3.0, 0.0, 3.0):
        b = w.add_body(position=(x, 0.5))
        b.add_box(1.0, 1.0)
        crates.append(b)
    crates[1].shapes[0].collision_type = GHOST
    return w, crates


@pytest.mark.nojit
def test_disabling_one_pair_lets_exactly_that_pair_pass():
    w, (left, ghost, right) = ghost_scene()
    calls = []

    @w.on_pre_solve(between=(FLOOR, GHOST))
    def through(pre):
        calls.append(len(pre.shape_a))
        pre.enabled[:] = False

    for _ in range(90):
        w.step(DT)
    # The ghost fell through the floor and rests on the ledge (top -3, half height 0.5);
    # the plain crates still rest on the floor.
    assert ghost.position[1] == pytest.approx(-2.5, abs=0.01)
    assert left.position[1] == pytest.approx(0.5, abs=0.01)
    assert right.position[1] == pytest.approx(0.5, abs=0.01)
    assert len(calls) == 90  # once per step, rows or none


@pytest.mark.nojit
def test_disabling_by_shape_ids_without_between():
    w, (left, ghost, right) = ghost_scene()
    target = ghost.shapes[0].id

    @w.on_pre_solve
    def through(pre):
        pre.enabled[(pre.shape_a == target) | (pre.shape_b == target)] = False

    for _ in range(30):
        w.step(DT)
    assert ghost.position[1] < -0.5  # falling freely: about 0.5 - g t^2 / 2 = -0.75
    assert left.position[1] == pytest.approx(0.5, abs=0.01)


@pytest.mark.nojit
def test_a_handler_between_two_types_sees_only_those_pairs_oriented_and_writes_back():
    # Three type-2 crates on a type-1 floor and one on a type-3 slab; the middle crates are
    # created before the floor (lower shape ids), so the table holds them both ways round.
    # (Sleeping off: a crate at rest would fall asleep, and its contact leave pre-solve.)
    w = c2d.World(gravity=(0.0, -G), sleeping=False)
    early = []
    for x in (-1.0, 1.0):
        b = w.add_body(position=(x, 0.5))
        b.add_box(1.0, 1.0).collision_type = 2
        early.append(b)
    floor = w.add_body(kind="static").add_box(6.0, 1.0, offset=(0.0, -0.5))
    floor.collision_type = 1
    slab = w.add_body(kind="static").add_box(2.0, 1.0, offset=(8.0, -0.5))
    slab.collision_type = 3
    late = w.add_body(position=(2.5, 0.5))
    late.add_box(1.0, 1.0).collision_type = 2
    other = w.add_body(position=(8.0, 0.5))
    other.add_box(1.0, 1.0).collision_type = 2
    types = {s.id: s.collision_type for b in w.bodies for s in b.shapes}
    body_of = {s.id: b.id for b in w.bodies for s in b.shapes}
    seen = []

    @w.on_pre_solve(between=(1, 2))
    def check(pre):
        seen.append(len(pre.shape_a))
        assert [types[int(s)] for s in pre.shape_a] == [1] * len(pre.shape_a)
        assert [types[int(s)] for s in pre.shape_b] == [2] * len(pre.shape_b)
        assert pre.body_a.tolist() == [body_of[int(s)] for s in pre.shape_a]
        assert pre.body_b.tolist() == [body_of[int(s)] for s in pre.shape_b]
        # Normals from the floor (a, centre y = -0.5) to the crates (b): up for those on
        # it, down for the one that fell halfway through.
        ys = np.array([w.body(int(i)).position[1] for i in pre.body_b])
        assert np.allclose(np.abs(pre.normal), [0.0, 1.0], atol=1e-3)
        assert np.array_equal(np.sign(pre.normal[:, 1]), np.sign(ys + 0.5))
        # Only the first crate (created first) is let through.
        pre.enabled[pre.shape_b == early[0].shapes[0].id] = False

    for _ in range(40):
        w.step(DT)
    # Brute force from the layout: three crates stand on the type-1 floor (one on the
    # slab), then two once the first has fallen through.
    assert seen[0] == 3 and seen[-1] == 2
    assert early[0].position[1] < -0.5
    for b in (early[1], late, other):
        assert b.position[1] == pytest.approx(0.5, abs=0.01)


@pytest.mark.nojit
def test_the_reversed_handler_gets_flipped_rows():
    w, (left, ghost, right) = ghost_scene()
    got = []
    w.on_pre_solve(lambda pre: got.append((pre.shape_a.tolist(), pre.normal.tolist())),
                   between=(GHOST, FLOOR))
    w.step(DT)
    assert got == [([ghost.shapes[0].id], [[0.0, -1.0]])]


def test_zero_friction_in_pre_solve_slides_at_g_sin_theta():
    theta = math.radians(30.0)  # tan 30 = 0.58 < 0.6: with friction the box stays put
    n = np.array([-math.sin(theta), math.cos(theta)])
    down = np.array([-math.cos(theta), -math.sin(theta)])

    def slope(frictionless):
        w = c2d.World(gravity=(0.0, -G))
        ramp = w.add_body(kind="static", angle=theta)
        ramp.add_box(40.0, 1.0, offset=(0.0, -0.5))
        box = w.add_body(position=tuple(0.5 * n), angle=theta)
        box.add_box(1.0, 1.0)
        if frictionless:
            w.on_pre_solve(lambda pre: pre.friction.fill(0.0))
        return w, box

    w, box = slope(True)
    for _ in range(30):
        w.step(DT)
    v0 = float(box.velocity @ down)
    for _ in range(60):
        w.step(DT)
    v1 = float(box.velocity @ down)
    assert v1 - v0 == pytest.approx(G * math.sin(theta) * 1.0, rel=0.01)
    held, hbox = slope(False)
    for _ in range(90):
        held.step(DT)
    assert abs(float(hbox.velocity @ down)) < 0.05


def test_elasticity_one_in_pre_solve_bounces_a_ball_back_to_its_height():
    h = 2.0
    w = c2d.World(gravity=(0.0, -G))
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    ball = w.add_body(position=(0.0, h + 0.25))
    ball.add_circle(0.25)
    w.on_pre_solve(lambda pre: pre.elasticity.fill(1.0))
    ys = []
    for _ in range(150):  # falls for 0.63 s, back up for 0.63 s
        w.step(DT)
        ys.append(float(ball.position[1]))
    low = int(np.argmin(ys[:60]))
    apex = max(ys[low:])
    assert apex - 0.25 == pytest.approx(h, rel=0.03)


@pytest.mark.nojit
def test_a_no_op_callback_leaves_every_bit_as_without_one():
    def run(with_callback):
        w, crates = ghost_scene()
        crates[0].velocity = (2.0, 3.0)
        if with_callback:
            w.on_pre_solve(lambda pre: None)
        for _ in range(40):
            w.step(DT)
        return w.snapshot()

    assert run(True) == run(False)


@pytest.mark.nojit
def test_a_raising_callback_finishes_the_step_without_its_writes_then_raises():
    plain, _ = ghost_scene()
    w, _ = ghost_scene()

    class Boom(Exception):
        pass

    def bad(pre):
        pre.enabled[:] = False
        pre.friction[:] = 0.0
        raise Boom("nope")

    w.on_pre_solve(bad)
    calls = []
    w.on_pre_solve(lambda pre: calls.append(len(pre.shape_a)))  # still runs
    for _ in range(5):
        with pytest.raises(Boom):
            w.step(DT)
        plain.step(DT)
    assert len(calls) == 5
    assert w.time == plain.time
    # As if nothing had been written: the same world as one stepped with no callback.
    assert w.snapshot() == plain.snapshot()


@pytest.mark.nojit
@pytest.mark.parametrize("field, value, match", [("friction", -1.0, "pre.friction"),
                                                 ("friction", math.nan, "pre.friction"),
                                                 ("elasticity", math.inf, "pre.elasticity"),
                                                 ("surface_speed", math.nan,
                                                  "pre.surface_speed")])
def test_unusable_writes_are_refused_after_the_step(field, value, match):
    plain, _ = ghost_scene()
    w, _ = ghost_scene()
    w.on_pre_solve(lambda pre: getattr(pre, field).fill(value))
    with pytest.raises(ValueError, match=match):
        w.step(DT)
    plain.step(DT)
    assert w.snapshot() == plain.snapshot()


@pytest.mark.nojit
def test_the_world_is_locked_inside_the_callback():
    w, crates = ghost_scene()
    w.on_pre_solve(lambda pre: w.step(DT))
    with pytest.raises(RuntimeError, match="step"):
        w.step(DT)
    w2, crates = ghost_scene()
    w2.on_pre_solve(lambda pre: w2.add_body())
    with pytest.raises(RuntimeError):
        w2.step(DT)


@pytest.mark.nojit
def test_prefilled_values_are_the_shapes_mixed_and_new_marks_the_first_step():
    w = c2d.World(gravity=(0.0, -G))
    floor = w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    floor.friction = 0.9
    floor.elasticity = 0.1
    floor.surface_speed = 0.5
    crate = w.add_body(position=(0.0, 0.5))
    top = crate.add_box(1.0, 1.0)
    top.friction = 0.4
    top.elasticity = 0.3
    top.surface_speed = -0.25
    got = []
    w.on_pre_solve(lambda pre: got.append(pre))
    w.step(DT)
    w.step(DT)
    first, second = got
    assert first.friction.tolist() == [math.sqrt(0.9 * 0.4)]
    assert first.elasticity.tolist() == [0.3]
    assert first.surface_speed.tolist() == [0.25]
    assert first.new.tolist() == [True] and second.new.tolist() == [False]
    assert first.count.tolist() == [2]
    assert np.allclose(first.points[0, :, 1], 0.0, atol=0.02)
    assert np.all(first.separation[0] <= 0.01)


@pytest.mark.nojit
def test_profile_runs_the_callbacks_too():
    w, crates = ghost_scene()
    calls = []
    w.on_pre_solve(lambda pre: (calls.append(1), pre.enabled.fill(False)))
    w.profile(DT)
    w.profile(DT)
    assert len(calls) == 2
    assert crates[0].position[1] < 0.5


@pytest.mark.nojit
def test_a_bad_callback_or_between_is_refused():
    w = c2d.World()
    with pytest.raises(TypeError, match="fn"):
        w.on_pre_solve(3)
    with pytest.raises(ValueError, match="between"):
        w.on_pre_solve(print, between=(1, -1))


@pytest.mark.nojit
def test_a_copy_keeps_its_callbacks_and_a_restored_world_has_none():
    import copy

    w, crates = ghost_scene()
    calls = []
    w.on_pre_solve(lambda pre: calls.append(1))
    twin = copy.deepcopy(w)
    twin.step(DT)
    assert calls == [1]
    back = c2d.World.restore(w.snapshot())
    back.step(DT)
    assert calls == [1]


@pytest.mark.nojit
def test_a_handler_for_one_type_twice_gets_lower_ids_first():
    w = c2d.World(gravity=(0.0, -G))
    crates = []
    for y in (0.5, 1.5):
        b = w.add_body(position=(0.0, y))
        b.add_box(1.0, 1.0).collision_type = 2
        crates.append(b)
    floor = w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    floor.collision_type = 2  # the floor's id is the highest
    got = []
    w.on_pre_solve(lambda pre: got.append((pre.shape_a.tolist(), pre.shape_b.tolist(),
                                           pre.normal[:, 1].round(3).tolist())),
                   between=(2, 2))
    w.step(DT)
    low, high, fl = crates[0].shapes[0].id, crates[1].shapes[0].id, floor.id
    rows = sorted(zip(*got[0], strict=True))
    # Lower crate to upper crate: normal up; lower crate to floor: normal down.
    assert rows == sorted([(low, high, 1.0), (low, fl, -1.0)])


@pytest.mark.nojit
def test_a_sleeping_contact_is_not_handed_to_pre_solve_until_it_wakes():
    # Nothing solves a contact between a sleeping crate and the floor (as in Box2D v3 and
    # pymunk, whose pre-solve skips sleeping contacts): it leaves pre-solve when the crate
    # falls asleep and comes back in the step a push wakes it.
    w = c2d.World(gravity=(0.0, -G))
    w.add_body(kind="static").add_box(6.0, 1.0, offset=(0.0, -0.5))
    crate = w.add_body(position=(0.0, 0.5))
    crate.add_box(1.0, 1.0)
    seen = []
    w.on_pre_solve(lambda pre: seen.append(len(pre.shape_a)))
    for _ in range(120):
        w.step(DT)
        if not crate.awake:
            break
    assert not crate.awake and seen[-1] == 1
    del seen[:]
    w.step(DT)
    assert seen == [0]
    crate.apply_impulse((0.5, 0.0))
    w.step(DT)
    assert crate.awake and seen == [0, 1]
