"""The broadphase's kept pairs (``_kernels/proxies.py``) against the brute-force pairs of
``test_broadphase_pairs``: the kept proxy pairs brought up to date after some proxies
moved, the candidates filtered from them, and a world whose steps keep their pairs
against its twin that finds every pair afresh each step (the same bits)."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_calls import compiled
from test_broadphase_pairs import LAYOUTS, SOLID, brute_pairs, random_scene

import collide2d as c2d
from collide2d._kernels import poses, proxies
from collide2d._kernels.constants import B_AWAKE, DYNAMIC, KINEMATIC
from collide2d._kernels.views import PairShapes
from collide2d._store import S_ALIVE, S_SENSOR

update_kept = compiled(proxies.update_kept)
within_fat = compiled(proxies.within_fat)
few_movers_pairs = compiled(proxies.few_movers_pairs)

nojit = pytest.mark.nojit


def kept_arrays(pairs, cap):
    """The buffers' proxy arrays holding ``pairs`` (a, b, resp), capacity ``cap``, junk
    past them."""
    out = (np.full(cap, -5, np.int64), np.full(cap, -5, np.int64), np.full(cap, -5, np.int8))
    for o, p in zip(out, pairs, strict=True):
        o[:len(p)] = p
    return out


def move(scene, rows, rng):
    """Shift the boxes of ``rows`` by up to 3 m, sizes kept."""
    shift = rng.uniform(-3.0, 3.0, (len(rows), 2))
    scene.aabb[rows] += np.hstack([shift, shift])


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("moved", [0, 1, 5, proxies.KEPT_ESCAPES])
def test_kept_pairs_follow_the_moved_proxies(layout, moved):
    rng = np.random.default_rng(100 * LAYOUTS.index(layout) + moved)
    for dynamic_response in (0, 1, 2):
        scene = random_scene(rng, 150, layout, seed=int(rng.integers(6)))
        before = brute_pairs(*scene.args(dynamic_response, SOLID))
        cap = 4 * len(before[0]) + 8 * proxies.KEPT_NEW
        kept = kept_arrays(before, cap)
        live = np.flatnonzero(scene.s_flags[:scene.n_shapes] & S_ALIVE)
        rows = rng.choice(live, min(moved, len(live)), replace=False)
        move(scene, rows, rng)
        escaped = np.zeros(len(scene.aabb), np.bool_)
        escaped[rows] = True
        was = escaped.copy()
        ps, n, dr, _ = scene.args(dynamic_response, SOLID)
        k = update_kept(ps, escaped, n, dr, kept, len(before[0]), len(rows), cap)
        expect = brute_pairs(*scene.args(dynamic_response, SOLID))
        new = np.count_nonzero(was[expect[0]] | was[expect[1]])
        if new > proxies.KEPT_NEW:  # past the sort's bound: the grid's work
            assert k == -1
            continue
        assert k == len(expect[0])
        for got, e in zip(kept, expect, strict=True):
            np.testing.assert_array_equal(got[:k], e)
        assert not escaped.any()  # read: cleared


def test_too_many_moved_proxies_leave_it_to_the_grid():
    rng = np.random.default_rng(3)
    scene = random_scene(rng, 200, "mixed", seed=1)
    before = brute_pairs(*scene.args(SOLID, SOLID))
    kept = kept_arrays(before, 4 * len(before[0]) + 64)
    escaped = np.zeros(len(scene.aabb), np.bool_)
    escaped[:proxies.KEPT_ESCAPES + 1] = True
    ps, n, dr, _ = scene.args(SOLID, SOLID)
    assert update_kept(ps, escaped, n, dr, kept, len(before[0]),
                       proxies.KEPT_ESCAPES + 1, len(kept[0])) == -1


def test_new_pairs_that_do_not_fit_leave_it_to_the_grid():
    # A box moved into a dense cluster makes more new pairs than the room left.
    rng = np.random.default_rng(4)
    scene = random_scene(rng, 120, "dense", seed=1)
    before = brute_pairs(*scene.args(SOLID, SOLID))
    room = len(before[0]) + 3
    kept = kept_arrays(before, room)
    escaped = np.zeros(len(scene.aabb), np.bool_)
    busiest = np.argmax(np.bincount(np.concatenate(before[:2])))
    escaped[busiest] = True  # its pairs found again: as many as the room left, and more
    ps, n, dr, _ = scene.args(SOLID, SOLID)
    assert update_kept(ps, escaped, n, dr, kept, len(before[0]), 1, room) == -1
    # With room for them, the same pairs again.
    kept = kept_arrays(before, 2 * room)
    escaped[busiest] = True
    assert update_kept(ps, escaped, n, dr, kept, len(before[0]), 1, 2 * room) == len(
        before[0])
    for got, e in zip(kept, before, strict=True):
        np.testing.assert_array_equal(got[:len(e)], e)


@nojit
def test_no_moved_proxy_keeps_the_pairs_as_they_are():
    rng = np.random.default_rng(5)
    scene = random_scene(rng, 40, "stack", seed=2)
    before = brute_pairs(*scene.args(SOLID, SOLID))
    kept = kept_arrays(before, len(before[0]) + 4)
    escaped = np.zeros(len(scene.aabb), np.bool_)
    ps, n, dr, _ = scene.args(SOLID, SOLID)
    assert update_kept(ps, escaped, n, dr, kept, len(before[0]), 0, len(kept[0])) == len(
        before[0])
    for got, e in zip(kept, before, strict=True):
        np.testing.assert_array_equal(got[:len(e)], e)


@pytest.mark.parametrize("layout", ["mixed", "dense", "stack"])
def test_candidates_are_the_kept_pairs_whose_fattened_boxes_overlap(layout):
    rng = np.random.default_rng(6)
    scene = random_scene(rng, 150, layout, seed=4)
    proxy = scene.aabb.copy()
    # Fattened boxes inside the proxies by up to poses.PROXY_MARGIN a side.
    shrink = rng.uniform(0.0, poses.PROXY_MARGIN, proxy.shape)
    fat = proxy + shrink * np.array([1, 1, -1, -1])
    fat[:, 2] = np.maximum(fat[:, 2], fat[:, 0])
    fat[:, 3] = np.maximum(fat[:, 3], fat[:, 1])
    kept = brute_pairs(*scene.args(SOLID, SOLID))
    scene.aabb = fat
    expect = brute_pairs(*scene.args(SOLID, SOLID))
    n = len(kept[0])
    out = (np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int8))
    m = within_fat(kept_arrays(kept, n), n, fat, out, np.zeros(1, np.int64),
                   np.zeros(1, np.int64), False)
    assert m == len(expect[0])
    if layout != "dense":  # (where boxes overlap by metres, every kept pair is one)
        assert m < n
    for got, e in zip(out, expect, strict=True):
        np.testing.assert_array_equal(got[:m], e)


@nojit
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("movers", [1, 2, 5])
def test_few_movers_find_the_quiet_candidates_without_the_kept_pairs(layout, movers):
    # The pairs the kept pairs' quiet filter gives (a pair with a body that can move, boxes
    # overlapping), worked out by brute force over every pair and filtered by the bodies.
    rng = np.random.default_rng(10 * LAYOUTS.index(layout) + movers)
    for dynamic_response in (0, 1, 2):
        scene = random_scene(rng, 120, layout, seed=int(rng.integers(6)))
        n_bodies = int(scene.s_body[:scene.n_shapes].max()) + 1
        moving = np.zeros(n_bodies + 1, np.int64)
        moving[rng.choice(n_bodies, min(movers, n_bodies), replace=False)] = 1
        ps, n, dr, _ = scene.args(dynamic_response, SOLID)
        every = brute_pairs(ps, n, dr, SOLID)
        listed = (moving[scene.s_body[every[0]]] | moving[scene.s_body[every[1]]]) != 0
        want = tuple(x[listed] for x in every)
        room = len(every[0]) + 4
        out = (np.full(room, -5, np.int64), np.full(room, -5, np.int64),
               np.full(room, -5, np.int8))
        k = few_movers_pairs(ps, n, dr, moving, out, room, 10**9)
        assert k == len(want[0])
        for got, e in zip(out, want, strict=True):
            np.testing.assert_array_equal(got[:k], e)
        shapes_moving = np.count_nonzero(
            moving[scene.s_body[:n]] & ((scene.s_flags[:n] & S_ALIVE) != 0)
            & ((scene.s_flags[:n] & S_SENSOR) == 0))
        # Past its budget of box tests, or of room, it leaves the pairs to the kept ones.
        if shapes_moving:
            assert few_movers_pairs(ps, n, dr, moving, out, room,
                                    shapes_moving * n - 1) == -1
            assert few_movers_pairs(ps, n, dr, moving, out, room, shapes_moving * n) == k
        if k:
            assert few_movers_pairs(ps, n, dr, moving, out, k - 1, 10**9) == -1


# ------------------------------------------------------------------------------ worlds
def rain_world(seed):
    """Mixed shapes falling into a bin: a grid world (past SMALL_WORLD movers; more
    falling than GRID_ESCAPES at first), with sensors, groups and a kinematic paddle."""
    w = c2d.World(gravity=(0.0, -10.0))
    ground = w.add_body(kind="static")
    ground.add_box(30.0, 1.0, offset=(0.0, -0.5))
    ground.add_box(1.0, 20.0, offset=(-15.0, 10.0))
    ground.add_box(1.0, 20.0, offset=(15.0, 10.0))
    paddle = w.add_body(kind="kinematic", position=(0.0, 6.0), angular_velocity=0.5)
    paddle.add_box(5.0, 0.3)
    rng = np.random.default_rng(seed)
    for i in range(200):
        b = w.add_body(position=(rng.uniform(-12, 12), rng.uniform(1.0, 30.0)),
                       angle=rng.uniform(0, 3))
        if i % 4:
            shape = b.add_box(rng.uniform(0.3, 1.2), rng.uniform(0.3, 1.2))
        else:
            shape = b.add_circle(rng.uniform(0.2, 0.6))
        if i % 16 == 0:
            b.add_circle(0.8, sensor=True)
        if i % 9 == 0:
            shape.group = -1
    return w


def change(w, k, rng):
    """What a game does between steps: teleports, filters, sensors, bodies added and
    removed, a body made static, pair rules, bodies kept apart, a joint, what two dynamic
    bodies do."""
    bodies = w.bodies
    if k == 100:
        bodies[1].angular_velocity = 0.0  # the paddle stops: the pile settles
    if k % 10 == 3:
        bodies[int(rng.integers(2, len(bodies)))].position = (rng.uniform(-10, 10), 15.0)
    if k % 15 == 7:
        shape = bodies[int(rng.integers(2, len(bodies)))].shapes[0]
        shape.group = -1 if shape.group == 0 else 0
    if k % 20 == 11:
        w.add_body(position=(rng.uniform(-10, 10), 25.0)).add_box(0.8, 0.8)
    if k % 25 == 13:
        w.remove(bodies[int(rng.integers(2, len(bodies)))])
    if k == 60:
        bodies[5].kind = "static"
    if k == 80:
        for body in bodies[10:20]:
            body.shapes[0].collision_type = 5
    if k == 90:
        w.set_pair_response(5, 5, "ignore")  # those ten pass through each other
    if k == 110:
        bodies[25].shapes[0].sensor = True
    if k == 130:
        w.ignore_collisions(bodies[30], bodies[31])
        w.add_revolute_joint(bodies[40], bodies[41], bodies[40].position)
    if k == 160:
        w.dynamic_response = "sensor"  # the pile falls into itself...
    if k == 170:
        w.dynamic_response = "solid"  # ...and pushes apart


def pairs_of(w):
    """(candidates, kept proxy pairs, proxies kept) after a step."""
    t = w._step_buffers
    st = t.state[0]
    n, m = int(st["n_pairs"]), int(st["n_kept"])
    a = t.arrays
    return ((a["pair_a"][:n].copy(), a["pair_b"][:n].copy(), a["pair_resp"][:n].copy()),
            (a["proxy_a"][:m].copy(), a["proxy_b"][:m].copy(), a["proxy_resp"][:m].copy()),
            bool(w._params[0]["pairs_kept"]))


def moving_bodies(w):
    """Per body slot: can its motion change a contact (awake dynamic, moving kinematic)."""
    b = w._bodies
    n = b.count
    dynamic = b.kind[:n] == DYNAMIC
    kinematic = b.kind[:n] == KINEMATIC
    still = (b.vel[:n] == 0.0).all(axis=1) & (b.angvel[:n] == 0.0)
    return (dynamic & ((b.flags[:n] & B_AWAKE) != 0)) | (kinematic & ~still)


def brute(w, boxes):
    """The oracle's solid pairs of world w's shapes at ``boxes``."""
    s, b = w._shapes, w._bodies
    ps = PairShapes(boxes, s.body, s.flags, s.category, s.mask, s.group, s.collision_type,
                    b.kind, w._rules.step_view(w._joints.store.keys), s.order, s.reach, -1, -1)
    return brute_pairs(ps, s.count, int(w._params[0]["dynamic_response"]), SOLID)


def assert_oracles_candidates(w, candidates, fat, moving):
    """The step's candidates are the oracle's pairs at the fattened boxes ``fat`` the step
    started from, and when the step was quiet only those with a body that could move then
    (``moving``)."""
    want = brute(w, fat)
    if w._step_buffers.state[0]["quiet"]:
        body = w._shapes.body
        listed = moving[body[want[0]]] | moving[body[want[1]]]
        want = tuple(x[listed] for x in want)
    for got, e in zip(candidates, want, strict=True):
        np.testing.assert_array_equal(got, e)


def test_a_world_keeps_its_pairs_as_a_twin_that_finds_them_afresh():
    a, b = rain_world(7), rain_world(7)
    ra, rb = np.random.default_rng(1), np.random.default_rng(1)
    kept_steps = 0
    few_moved = 0  # steps that brought the kept pairs up to date (some proxies moved)
    for k in range(300):
        change(a, k, ra)
        change(b, k, rb)
        was_kept = bool(a._params[0]["pairs_kept"])
        proxy = a._shapes.proxy.copy()
        # The boxes the step pairs: every shape placed at the poses it starts from (as a
        # query would place them; the step then places nothing), and the bodies that can
        # move then (the quiet candidates leave out pairs of two that can not).
        for w in (a, b):
            w._sync_shapes()
        fat, proxies_then = a._shapes.fat.copy(), a._shapes.proxy.copy()
        moving = moving_bodies(a)
        a.step(1 / 60)
        if proxy.shape == a._shapes.proxy.shape:
            now = a._shapes.proxy
            moved = np.count_nonzero(((proxy != now) & ~(np.isnan(proxy) & np.isnan(now)))
                                     .any(axis=1))
            few_moved += was_kept and 0 < moved <= proxies.KEPT_ESCAPES
        b._params[0]["pairs_kept"] = 0
        b.step(1 / 60)
        candidates, kept, is_kept = pairs_of(a)
        assert_oracles_candidates(a, candidates, fat, moving)
        if is_kept:
            kept_steps += 1
            for got, e in zip(kept, brute(a, proxies_then), strict=True):
                np.testing.assert_array_equal(got, e)
        np.testing.assert_array_equal(np.asarray(a.positions()), np.asarray(b.positions()))
        np.testing.assert_array_equal(np.asarray(a.angles()), np.asarray(b.angles()))
    assert 50 < kept_steps < 300  # (while many fall, the grid pairs the fattened boxes)
    assert few_moved >= 30


def sleeping_pile():
    """Eighty boxes in a bin on a floor of 1 m tiles running 50 m on to the right, a grid
    world: asleep after a few seconds."""
    w = c2d.World(gravity=(0.0, -10.0))
    ground = w.add_body(kind="static")
    for x in range(-6, 56):
        ground.add_box(1.0, 1.0, offset=(x + 0.5, -0.5))
    ground.add_box(1.0, 10.0, offset=(-6.0, 5.0))
    ground.add_box(1.0, 10.0, offset=(6.0, 5.0))
    for i in range(80):
        w.add_body(position=(-4.5 + (i % 10), 0.5 + 1.05 * (i // 10))).add_box(0.9, 0.9)
    return w


def test_a_sleeping_pile_with_few_bodies_awake_pairs_them_as_a_twin_that_finds_them_afresh():
    # While a ball rolls over the tiles, its candidates come from testing it against every
    # shape (proxies.few_movers_pairs) and the kept pairs wait, its escaped proxy with them;
    # a second ball then lands on the pile and wakes it: the kept pairs are brought up to
    # date with the proxies that moved meanwhile. Every step: the candidates the oracle
    # gives, and the bits of a twin that finds its pairs afresh.
    a, b = sleeping_pile(), sleeping_pile()
    for w in (a, b):
        for _ in range(400):
            w.step(1 / 60)
        assert not w.awake([body.id for body in w.bodies[1:]]).any()
        w.add_body(position=(10.0, 0.5), velocity=(6.0, 0.0)).add_circle(0.5)
    stale = 0
    woke = False
    for k in range(150):
        if k == 40:
            for w in (a, b):
                w.add_body(position=(0.0, 14.0), velocity=(0.0, -5.0)).add_circle(0.4)
        for w in (a, b):
            w._sync_shapes()
        fat, proxies_now = a._shapes.fat.copy(), a._shapes.proxy.copy()
        moving = moving_bodies(a)
        a.step(1 / 60)
        b._params[0]["pairs_kept"] = 0
        b.step(1 / 60)
        candidates, kept, is_kept = pairs_of(a)
        assert_oracles_candidates(a, candidates, fat, moving)
        if is_kept and len(kept[0]) != len(brute(a, proxies_now)[0]):
            stale += 1  # (the ball's proxy moved on since the kept pairs were made)
        woke = woke or np.count_nonzero(moving) > 10
        np.testing.assert_array_equal(np.asarray(a.positions()), np.asarray(b.positions()))
        np.testing.assert_array_equal(np.asarray(a.angles()), np.asarray(b.angles()))
    assert stale > 0 and woke


def test_a_batch_of_grid_worlds_steps_as_lone_worlds_through_a_reset():
    # The batch copies a reset world's arrays in place (proxies included) and its settings
    # row (pairs no longer kept): world i still ends as a lone world, bit for bit.
    world = rain_world(3)
    world.bodies[1].angular_velocity = 0.0  # the paddle still: the pile settles
    data = world.snapshot()
    batch = c2d.WorldBatch(world, 2)
    lone = [c2d.World.restore(data) for _ in range(2)]
    for k in range(240):
        if k == 200:  # settled enough that world 1 keeps its pairs until the reset
            assert batch.world(1)._params[0]["pairs_kept"] == 1
            batch.reset(1)
            lone[1] = c2d.World.restore(data)
        batch.step(1 / 60)
        for w in lone:
            w.step(1 / 60)
    for i in range(2):
        assert batch.world(i).snapshot() == lone[i].snapshot()
    assert batch.world(0).snapshot() != batch.world(1).snapshot()


def test_kept_pairs_survive_a_deepcopy_and_profiled_steps():
    # A copy made while pairs are kept carries them (its own buffers, the same bits); steps
    # run stage by stage (World.profile) keep them as World.step does.
    import copy

    w = rain_world(5)
    w.bodies[1].angular_velocity = 0.0
    for _ in range(200):
        w.step(1 / 60)
    assert w._params[0]["pairs_kept"] == 1
    twin = copy.deepcopy(w)
    for k in range(60):
        w.step(1 / 60)
        if k % 2:
            twin.profile(1 / 60)
        else:
            twin.step(1 / 60)
    np.testing.assert_array_equal(np.asarray(w.positions()), np.asarray(twin.positions()))
    np.testing.assert_array_equal(np.asarray(w.angles()), np.asarray(twin.angles()))
    assert twin._params[0]["pairs_kept"] == 1
