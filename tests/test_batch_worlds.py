"""WorldBatch: world i of a batch ends bit for bit as a lone world stepped the same way."""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2d
from collide2d import batch_worlds

N = 3
DT = 1 / 60


def _scene():
    """A ground, a stack of boxes, a ball, and a motor-driven arm on a revolute joint."""
    world = c2d.World()
    ground = world.add_body(kind="static")
    ground.add_box(20, 1)
    ground.add_segment((-10, 0.5), (-10, 6))
    boxes = []
    for k in range(4):
        b = world.add_body(position=(0.1 * k, 1.1 + 1.05 * k), angle=0.05 * k)
        b.add_box(1, 1, friction=0.6)
        boxes.append(b)
    ball = world.add_body(position=(-3, 4))
    ball.add_circle(0.4, elasticity=0.5)
    arm = world.add_body(position=(4, 3))
    arm.add_box(2, 0.2)
    world.add_revolute_joint(ground, arm, (3, 3), motor_speed=1.0, max_motor_torque=50.0)
    return world, [*boxes, ball, arm]


def _impulses(steps):
    rng = np.random.default_rng(7)
    return rng.uniform(-2.0, 2.0, size=(steps, N, 2, 2)), rng.uniform(-3, 3, (steps, N, 2, 2))


def _drive_lone(data, ids, imps, pts, motor, steps):
    worlds = [c2d.World.restore(data) for _ in range(N)]
    for i, w in enumerate(worlds):
        for t in range(steps):
            for k in range(2):
                w.body(int(ids[k])).apply_impulse(imps[t, i, k], pts[t, i, k])
            w.joints[0].motor_speed = float(motor[i])
            w.step(DT)
    return worlds


def _drive_batch(batch, ids, imps, pts, motor, steps):
    for t in range(steps):
        batch.apply_impulses(ids, imps[t], pts[t])
        batch.set_motors([0], motor[:, None], np.full((N, 1), 50.0))
        batch.step(DT)


def _pile() -> c2d.World:
    """A ground and a pile of 40 balls: more than 16 pairs of shapes touch."""
    world = c2d.World()
    world.add_body(kind="static").add_box(30, 1)
    for k in range(40):
        world.add_body(position=(0.3 * (k % 8), 1 + 0.9 * (k // 8))).add_circle(0.45)
    return world


def test_world_i_equals_a_lone_world():
    world, bodies = _scene()
    data = world.snapshot()
    ids = np.array([bodies[0].id, bodies[4].id])
    steps = 90
    imps, pts = _impulses(steps)
    motor = np.array([1.0, -2.0, 0.5])
    batch = c2d.WorldBatch(world, N)
    _drive_batch(batch, ids, imps, pts, motor, steps)
    lone = _drive_lone(data, ids, imps, pts, motor, steps)
    for i in range(N):
        assert batch.world(i).snapshot() == lone[i].snapshot()
        assert batch.times[i] == pytest.approx(steps * DT)
    # The worlds differ from each other (the inputs did).
    assert batch.world(0).snapshot() != batch.world(1).snapshot()
    # Read back, a world keeps stepping in the batch as alone.
    for _t in range(10):
        batch.step(DT)
        for w in lone:
            w.step(DT)
    states = batch.body_states([b.id for b in bodies])
    for i in range(N):
        assert np.array_equal(states.position[i], lone[i].positions([b.id for b in bodies]))
        assert batch.world(i).snapshot() == lone[i].snapshot()


def test_one_thread_gives_the_same_bits_as_two():
    numba = pytest.importorskip("numba")
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread only: nothing to compare")
    world, bodies = _scene()
    ids = np.array([bodies[0].id, bodies[4].id])
    imps, pts = _impulses(40)
    motor = np.array([1.0, -2.0, 0.5])
    runs = []
    before = numba.get_num_threads()
    try:
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            batch = c2d.WorldBatch(world, N)
            _drive_batch(batch, ids, imps, pts, motor, 40)
            runs.append([batch.world(i).snapshot() for i in range(N)])
    finally:
        numba.set_num_threads(before)
    assert runs[0] == runs[1]


def test_a_world_that_needs_bigger_tables_finishes_its_step(monkeypatch):
    # Tables with room for 16 pairs only: a pile of 40 balls needs more, in some worlds.
    monkeypatch.setattr(batch_worlds, "_pair_room", lambda n_shapes: 16)
    world = _pile()
    data = world.snapshot()
    batch = c2d.WorldBatch(world, 2)
    lone = [c2d.World.restore(data) for _ in range(2)]
    for _ in range(30):
        batch.step(DT)
        for w in lone:
            w.step(DT)
    for i in range(2):
        assert batch.world(i).snapshot() == lone[i].snapshot()
        assert batch.world(i).contacts().shape_a.size > 16


def test_contact_events_match_the_callbacks():
    world = c2d.World()
    ground = world.add_body(kind="static")
    floor = ground.add_box(20, 1)
    floor.collision_type = 1
    ball = world.add_body(position=(0, 1.2))
    shape = ball.add_circle(0.5, elasticity=0.9)
    shape.collision_type = 2
    data = world.snapshot()
    batch = c2d.WorldBatch(world, 2)
    batch.apply_impulses([ball.id], [[[0.0, 0.0]], [[0.0, 3.0]]])
    lone = [c2d.World.restore(data) for _ in range(2)]
    lone[1].body(ball.id).apply_impulse((0.0, 3.0))
    seen = [[0, 0] for _ in range(2)]
    for i, w in enumerate(lone):
        w.on_contact_begin(lambda ev, i=i: seen[i].__setitem__(0, seen[i][0] + 1),
                           between=(1, 2))
        w.on_contact_end(lambda ev, i=i: seen[i].__setitem__(1, seen[i][1] + 1),
                         between=(2, 1))
    began = np.zeros(2, np.int64)
    ended = np.zeros(2, np.int64)
    for _ in range(120):
        batch.step(DT)
        counts = batch.contact_events((2, 1))
        began += counts.began[:, 0]
        ended += counts.ended[:, 0]
        for w in lone:
            w.step(DT)
        touching = np.array([w.contacts().shape_a.size for w in lone])
        assert np.array_equal(counts.touching[:, 0], touching)
    assert began.tolist() == [s[0] for s in seen]
    assert ended.tolist() == [s[1] for s in seen]
    assert began[1] >= 2 and ended[1] >= 1  # the thrown ball bounced


def test_reset_restores_the_starting_world():
    world, bodies = _scene()
    data = world.snapshot()
    batch = c2d.WorldBatch(world, N)
    for _ in range(20):
        batch.step(DT)
    batch.reset([0, 2])
    assert batch.world(0).snapshot() == data
    assert batch.world(2).snapshot() == data
    assert batch.world(1).snapshot() != data
    # Reset again, unread in between (the second time takes the template's state without
    # checking the layouts again: WorldBatch._assign_again), then stepped as a fresh copy.
    fresh = c2d.World.restore(data)
    for _ in range(3):
        for _ in range(20):
            batch.step(DT)
        batch.reset([2])
    for _ in range(15):
        batch.step(DT)
        fresh.step(DT)
    assert batch.world(2).snapshot() == fresh.snapshot()
    # A new snapshot for one world.
    moved = c2d.World.restore(data)
    moved.body(bodies[0].id).position = (5, 5)
    batch.reset(1, moved.snapshot())
    assert batch.body_states([bodies[0].id]).position[1, 0].tolist() == [5.0, 5.0]


def test_impulses_at_points_as_body_apply_impulse():
    world, bodies = _scene()
    box = bodies[1]
    batch = c2d.WorldBatch(world, 2)
    lone = c2d.World.restore(world.snapshot())
    lone.body(box.id).apply_impulse((0.3, -1.7), (0.2, 2.5))
    batch.apply_impulses([box.id], [[[0.3, -1.7]]], [[[0.2, 2.5]]], where=[[False], [True]])
    s = batch.body_states([box.id])
    assert s.velocity[1, 0].tolist() == lone.body(box.id).velocity.tolist()
    assert s.angular_velocity[1, 0] == lone.body(box.id).angular_velocity
    assert s.velocity[0, 0].tolist() == [0.0, 0.0]  # where=False: untouched
    angle = s.angle[1, 0]
    assert s.rotation[1, 0].tolist() == [math.cos(angle), math.sin(angle)]


@pytest.mark.nojit
def test_bad_input_names_the_argument_and_changes_nothing():
    world, bodies = _scene()
    batch = c2d.WorldBatch(world, 2)
    before = [batch.world(i).snapshot() for i in range(2)]
    with pytest.raises(ValueError, match="dt"):
        batch.step(-1.0)
    with pytest.raises(ValueError, match="ids"):
        batch.body_states([12345])
    with pytest.raises(ValueError, match="impulses"):
        batch.apply_impulses([bodies[0].id], np.zeros((3, 1, 2)))
    with pytest.raises(ValueError, match="impulses"):
        batch.apply_impulses([bodies[0].id], [[[np.nan, 0.0]], [[0.0, 0.0]]])
    with pytest.raises(TypeError, match="where"):
        batch.apply_forces([bodies[0].id], np.zeros((2, 1, 2)), where=np.ones((2, 1)))
    with pytest.raises(ValueError, match="joints"):
        batch.set_motors([3], [[1.0], [1.0]], [[1.0], [1.0]])
    with pytest.raises(ValueError, match="index"):
        batch.world(2)
    with pytest.raises(ValueError, match="between"):
        batch.contact_events((1, 2, 3))
    with pytest.raises(TypeError, match="n"):
        c2d.WorldBatch(world)
    with pytest.raises(TypeError, match="worlds"):
        c2d.WorldBatch(42)
    w2 = c2d.World()
    with pytest.raises(ValueError, match="same World"):
        c2d.WorldBatch([w2, w2])
    w2.on_contact_begin(lambda ev: None)
    with pytest.raises(ValueError, match="callbacks"):
        c2d.WorldBatch(w2, 2)
    assert [batch.world(i).snapshot() for i in range(2)] == before


def test_a_non_finite_body_stops_every_world():
    world, bodies = _scene()
    batch = c2d.WorldBatch(world, 3)
    batch.step(DT)
    before = [batch.world(i).snapshot() for i in range(3)]
    batch.world(1)._bodies.vel[bodies[2]._s()] = np.nan
    with pytest.raises(ValueError, match="world 1"):
        batch.step(DT)
    assert batch.world(0).snapshot() == before[0]
    assert batch.world(2).snapshot() == before[2]


def test_set_motors_refuses_joints_without_a_motor():
    world = c2d.World(gravity=(0, -10))
    a = world.add_body(position=(0, 0))
    a.add_box(1, 1)
    b = world.add_body(position=(1, 0))
    b.add_box(1, 1)
    world.add_weld_joint(a, b, (0.5, 0))
    batch = c2d.WorldBatch(world, 2)
    before = [batch.world(i).snapshot() for i in range(2)]
    with pytest.raises(ValueError, match="joints: weld joints have no motor"):
        batch.set_motors([0], [[1.0], [1.0]], [[5.0], [5.0]])
    assert [batch.world(i).snapshot() for i in range(2)] == before


def test_callbacks_added_to_a_world_read_from_the_batch_are_refused():
    world = c2d.World(gravity=(0, -10))
    world.add_body(position=(0, 1)).add_circle(0.5)
    batch = c2d.WorldBatch(world, 2)
    batch.world(1).on_pre_solve(lambda pre: None)
    with pytest.raises(ValueError, match="world 1: has callbacks"):
        batch.step(1 / 60)


def _ray_scene():
    """A floor, a wall, a sensor box, and a box and a ball that fall and tumble."""
    world = c2d.World()
    ground = world.add_body(kind="static")
    ground.add_box(20, 1, offset=(0, -0.5))
    ground.add_segment((6, 0), (6, 8), category=0b10)
    ground.add_box(1, 1, offset=(-4, 3), sensor=True)
    box = world.add_body(position=(0.2, 3), angle=0.3)
    box.add_box(1, 1)
    ball = world.add_body(position=(-2, 2))
    ball.add_circle(0.5)
    return world, box, ball


@pytest.mark.parametrize("filter_kwargs", [{}, {"mask": 0b01}, {"sensors": True},
                                           {"exclude": "box"}])
def test_batch_raycast_equals_each_worlds_raycast_many(filter_kwargs):
    """Row k of world i equals world.raycast_many of that world's segments, with the same
    filter, as the worlds move apart under different impulses."""
    world, box, ball = _ray_scene()
    kw = dict(filter_kwargs)
    if kw.get("exclude") == "box":
        kw["exclude"] = [box]
    flt = c2d.QueryFilter(**kw)
    batch = c2d.WorldBatch(world, N)
    rng = np.random.default_rng(2)
    m = 40
    for step in range(12):
        batch.apply_impulses([box.id, ball.id], rng.uniform(-3, 3, (N, 2, 2)))
        batch.step(DT)
        starts = rng.uniform(-8, 8, (N, m, 2))
        ends = starts + rng.uniform(-10, 10, (N, m, 2))
        ends[:, :4] = starts[:, :4]  # zero-length segments too
        out = batch.raycast(starts, ends, flt)
        # Cast again with nothing changed: the kept trees give the same bits.
        again = batch.raycast(starts, ends, flt)
        for name in ("hit", "body", "shape", "point", "normal", "fraction"):
            np.testing.assert_array_equal(getattr(again, name), getattr(out, name))
        for i in range(N):
            w = batch.world(i)
            lone_kw = dict(kw)
            if "exclude" in lone_kw:
                lone_kw["exclude"] = [w.body(box.id)]
            ref = w.raycast_many(starts[i], ends[i], c2d.QueryFilter(**lone_kw))
            for name in ("hit", "body", "shape", "point", "normal", "fraction"):
                np.testing.assert_array_equal(getattr(out, name)[i], getattr(ref, name),
                                              err_msg=f"{name}, world {i}, step {step}")
        assert out.hit.any() and not out.hit.all()


@pytest.mark.nojit
def test_batch_raycast_by_hand():
    """Hand-worked hits: a ray down onto the floor's top (y = 0) at fraction 0.5, one
    across the wall at x = 6 that a mask hides, the same segments for every world."""
    world, box, ball = _ray_scene()
    batch = c2d.WorldBatch(world, 2)
    starts = [(3.0, 2.0), (5.0, 7.0)]
    ends = [(3.0, -2.0), (7.0, 7.0)]
    out = batch.raycast(starts, ends)
    assert out.fraction.tolist() == [[0.5, 0.5], [0.5, 0.5]]
    assert out.point[:, 0].tolist() == [[3.0, 0.0], [3.0, 0.0]]
    assert out.normal[:, 1].tolist() == [[-1.0, 0.0], [-1.0, 0.0]]
    hidden = batch.raycast(starts, ends, c2d.QueryFilter(mask=0b01))
    assert hidden.hit.tolist() == [[True, False], [True, False]]
    assert np.isnan(hidden.fraction[:, 1]).all() and (hidden.body[:, 1] == -1).all()
    with pytest.raises(ValueError, match="starts"):
        batch.raycast(np.zeros((3, 2, 2)), np.zeros((3, 2, 2)))
    with pytest.raises(ValueError, match="ends"):
        batch.raycast(np.zeros((2, 2)), np.zeros((3, 2)))
    with pytest.raises(TypeError, match="filter"):
        batch.raycast(starts, ends, filter=3)


def test_a_batch_made_uncompiled_steps_on_after_the_switch(monkeypatch):
    """A batch made while the kernels run as Python (a background compile under way) holds
    plain lists; once the compile is done its next call remakes them for the compiled
    kernels, and every bit equals a batch that ran compiled throughout."""
    from collide2d import _tiers

    saved = dict(vars(_tiers._state))
    done = {"flag": False}
    monkeypatch.setattr(_tiers, "POLL_EVERY_S", 0.0)
    monkeypatch.setattr(_tiers, "_compile_finished", lambda: done["flag"])
    world, bodies = _scene()
    ids = [b.id for b in bodies]
    try:
        _tiers.use("python")
        st = _tiers._state
        st.pending, st.started, st.proc, st.next_poll = True, True, None, 0.0
        batch = c2d.WorldBatch(world, N)
        assert type(batch._lists["bodies"]) is list
        for _ in range(4):
            batch.step(DT)
        done["flag"] = True
        for _ in range(4):
            batch.step(DT)
        assert _tiers.tier() == "compiled"
        assert type(batch._lists["bodies"]) is not list
        got = batch.body_states(ids)
    finally:
        _tiers.use(saved["tier"])
        vars(_tiers._state).update(saved)
    ref = c2d.WorldBatch(world, N)
    for _ in range(8):
        ref.step(DT)
    want = ref.body_states(ids)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)


def test_batch_raycast_follows_moves_and_changes_between_unread_steps():
    """Worlds stepped and cast without being read between. A tree over static shapes only
    is kept unchecked; one over a kinematic box is rebuilt as the box moves; a static wall
    moved through ``world(i)``, and a reset, show in the next cast. By hand: the wall, x = 6
    from y = 0 to 8, meets a ray from (0, 2) to (10, 2) at 0.6 and misses one from (0, 12)
    to (10, 12); moved by (1, 10), it misses the first and meets the second at 0.7. A ray
    from (0, 2) to (-10, 2) meets the 1 m box centred at x = -6 on its face x = -5.5 (0.55)
    while the box, rising at 0.7 m/s from y = 1, spans y = 2."""
    world = c2d.World(gravity=(0, 0))
    wall = world.add_body(kind="static")
    wall.add_segment((6, 0), (6, 8), category=0b10)
    box = world.add_body(kind="kinematic", position=(-6, 1), velocity=(0, 0.7))
    box.add_box(1, 1, category=0b100)
    # A batch per filter: a batch's trees are rebuilt when its filter changes.
    batches = [c2d.WorldBatch(world, 2), c2d.WorldBatch(world, 2)]
    starts = [(0.0, 2.0), (0.0, 2.0), (0.0, 12.0)]
    ends = [(10.0, 2.0), (-10.0, 2.0), (10.0, 12.0)]
    static_only = c2d.QueryFilter(mask=0b10)
    both = c2d.QueryFilter(mask=0b110)
    moved = np.array([False, False])  # each world's wall
    since = np.array([0, 0])  # the step each world's box started rising from y = 1
    for k in range(1, 151):
        y = 1.0 + 0.7 * (k - since) * DT
        assert (np.abs(np.abs(2.0 - y) - 0.5) > 1e-6).all()  # clear of the faces' instants
        spans = np.abs(2.0 - y) < 0.5
        for batch, flt in zip(batches, (static_only, both), strict=True):
            batch.step(DT)
            out = batch.raycast(starts, ends, flt)
            assert out.hit[:, 0].tolist() == (~moved).tolist()
            assert out.hit[:, 2].tolist() == moved.tolist()
            assert out.fraction[~moved, 0] == pytest.approx(0.6, abs=1e-12)
            assert out.fraction[moved, 2] == pytest.approx(0.7, abs=1e-12)
            sees_box = spans & (flt is both)
            assert out.hit[:, 1].tolist() == sees_box.tolist()
            assert out.fraction[sees_box, 1] == pytest.approx(0.55, abs=1e-12)
            assert (out.body[sees_box, 1] == box.id).all()
        if k == 40:
            for batch in batches:
                batch.world(1).body(wall.id).position = (1.0, 10.0)
            moved[1] = True
        if k == 90:
            for batch in batches:
                batch.reset(1)
            moved[1] = False
            since[1] = 90  # the reset world's next step is its first


def test_batch_raycast_gives_the_same_bits_with_one_thread_or_two():
    numba = pytest.importorskip("numba")
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread only: nothing to compare")
    world, box, ball = _ray_scene()
    rng = np.random.default_rng(9)
    starts = rng.uniform(-8, 8, (8, 30, 2))
    ends = starts + rng.uniform(-10, 10, (8, 30, 2))
    pushes = rng.uniform(-3, 3, (8, 1, 2))
    runs = []
    before = numba.get_num_threads()
    try:
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            batch = c2d.WorldBatch(world, 8)
            batch.apply_impulses([box.id], pushes)
            batch.step(DT)
            runs.append(batch.raycast(starts, ends))
    finally:
        numba.set_num_threads(before)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_world_read_after_any_number_of_steps_has_the_lone_worlds_events():
    """``batch.world(i)`` after n unread steps equals a lone world stepped n times, the last
    step's ended contact rows included (the table holding them was once replaced when the
    batch made room for a step)."""
    world, bodies = _scene()
    data = world.snapshot()
    ids = np.array([b.id for b in bodies])
    imps = np.random.default_rng(2).uniform(-2.0, 2.0, (20, 1, len(ids), 2))
    lone = c2d.World.restore(data)
    for n in range(1, 21):
        for k, body_id in enumerate(ids):
            lone.body(int(body_id)).apply_impulse(imps[n - 1, 0, k])
        lone.step(DT)
        batch = c2d.WorldBatch(c2d.World.restore(data), 1)
        for t in range(n):
            batch.apply_impulses(ids, imps[t])
            batch.step(DT)
        assert batch.world(0).snapshot() == lone.snapshot(), n


def test_a_world_read_after_unread_steps_has_the_lone_worlds_sensor_events():
    """The same for sensor overlaps: a ball falls through a sensor strip, beginning and
    ending overlaps with it; the last step's ended sensor rows match the lone world's."""
    world = c2d.World()
    gate = world.add_body(kind="static")
    gate.add_box(4, 0.5, offset=(0, 2), sensor=True)
    world.add_body(kind="static").add_box(20, 1, offset=(0, -3))
    for k in range(3):
        ball = world.add_body(position=(-1 + k, 3.5 + 0.7 * k))
        ball.add_circle(0.2)
    data = world.snapshot()
    lone = c2d.World.restore(data)
    ended = []
    lone.on_sensor_end(ended.append)
    for n in range(1, 61):
        lone.step(DT)
        batch = c2d.WorldBatch(c2d.World.restore(data), 1)
        for _ in range(n):
            batch.step(DT)
        assert batch.world(0).snapshot() == lone.snapshot(), n
    assert len(ended) == 3  # every ball left the strip, at steps 38 to 60


@pytest.mark.parametrize("height,parity", [(0.5, 0), (0.52, 1)])
def test_settled_worlds_in_a_batch_keep_their_tables_as_lone_worlds(height, parity):
    """A box on the ground falls asleep; the steps after that keep the tables (the second
    kept step onwards leaves the flags the first cleared). Read after any number of steps,
    with the batch's tables at either parity (the box dropped from 2 cm settles after an
    odd number of full steps), world 1 equals a lone world, and no contact begins or ends
    once it sleeps."""
    world = c2d.World()
    world.add_body(kind="static").add_box(20, 1, offset=(0, -0.5)).collision_type = 1
    box = world.add_body(position=(0, height))
    box.add_box(1, 1).collision_type = 2
    data = world.snapshot()
    lone = c2d.World.restore(data)
    asleep_at = None
    for n in range(1, 80):
        lone.step(DT)
        if asleep_at is None and not lone.body(box.id).awake:
            asleep_at = n
        if n < 40 or n % 3:
            continue
        batch = c2d.WorldBatch(c2d.World.restore(data), 2)
        began = ended = 0
        for t in range(n):
            batch.step(DT)
            if asleep_at is not None and t >= asleep_at:
                counts = batch.contact_events((1, 2))
                began += int(counts.began.sum())
                ended += int(counts.ended.sum())
                assert counts.touching.sum() == 2  # one contact a world, kept
        assert batch._parity.tolist() == [parity, parity]
        assert batch.world(1).snapshot() == lone.snapshot(), n
        assert began == ended == 0
    assert asleep_at is not None and asleep_at < 40
    assert lone._params[0]["settled"] == 2  # the lone world kept its tables too


def _stepped_from_layout(batch) -> list[bool]:
    from collide2d._kernels.worlds import NO_LAYOUT

    return [int(d) != int(NO_LAYOUT) for d in batch._delta]


def test_copies_of_one_world_step_from_one_layout_as_lone_worlds():
    """The copies a batch makes of one world are laid out alike, and are stepped from the
    first's views moved to their arrays: each still ends bit for bit as a lone world (the
    pile makes contacts begin and end, the arm's joint solves, the balls spin)."""
    numba = pytest.importorskip("numba")
    world, bodies = _scene()
    data = world.snapshot()
    batch = c2d.WorldBatch(world, 5)
    if not numba.config.DISABLE_JIT:
        assert _stepped_from_layout(batch) == [True] * 5
    lone = [c2d.World.restore(data) for _ in range(5)]
    kick = np.array([[[3.0 * i - 6.0, 4.0]] for i in range(5)])
    batch.apply_impulses([bodies[4].id], kick)
    for i, w in enumerate(lone):
        w.body(bodies[4].id).apply_impulse(kick[i, 0])
    for _ in range(120):
        batch.step(DT)
        for w in lone:
            w.step(DT)
    for i in range(5):
        assert batch.world(i).snapshot() == lone[i].snapshot(), i


def test_worlds_of_other_layouts_step_from_their_own_views():
    """A batch of different worlds: only those laid out as the first are moved views of
    it; a world whose table grew leaves the layout. Every world ends as a lone world."""
    pytest.importorskip("numba")
    import numba

    if numba.config.DISABLE_JIT:
        pytest.skip("the layout is the compiled kernels' (the Python tier uses each view)")
    small, _ = _scene()
    big = _pile()
    worlds = [c2d.World.restore(small.snapshot()), c2d.World.restore(big.snapshot())]
    lone = [c2d.World.restore(w.snapshot()) for w in worlds]
    batch = c2d.WorldBatch(worlds)
    assert _stepped_from_layout(batch) == [True, False]
    for _ in range(60):
        batch.step(DT)
        for w in lone:
            w.step(DT)
    for i in range(2):
        assert batch.world(i).snapshot() == lone[i].snapshot(), i


def test_a_copy_whose_table_grew_leaves_the_layout(monkeypatch):
    numba = pytest.importorskip("numba")
    if numba.config.DISABLE_JIT:
        pytest.skip("the layout is the compiled kernels' (the Python tier uses each view)")
    monkeypatch.setattr(batch_worlds, "_pair_room", lambda n_shapes: 16)
    world = _pile()
    data = world.snapshot()
    batch = c2d.WorldBatch(world, 3)
    assert _stepped_from_layout(batch) == [True] * 3
    # World 2's balls spread out, 3 m apart: its table never needs more than 16 rows.
    ids = [b.id for b in world.bodies[1:]]
    spread = np.array([[3.0 * k, 0.0] for k in range(40)])
    w2 = batch.world(2)
    w2.set_positions(ids, w2.positions(ids) + spread)
    lone = [c2d.World.restore(data) for _ in range(3)]
    lone[2].set_positions(ids, lone[2].positions(ids) + spread)
    for _ in range(30):
        batch.step(DT)
        for w in lone:
            w.step(DT)
    assert _stepped_from_layout(batch) == [False, False, True]
    for i in range(3):
        assert batch.world(i).snapshot() == lone[i].snapshot(), i
    assert [batch.world(i).contacts().shape_a.size > 16 for i in range(3)] == [
        True, True, False]
