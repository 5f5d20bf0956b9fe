"""Body ids (stable across removal, never reused) and the World's batch getters and setters.

The oracle for every batch call is a loop of the per-body calls on an identical twin world:
the two worlds' snapshots must agree byte for byte.
"""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2d
from collide2d import QueryFilter

DT = 1.0 / 60.0
nojit = pytest.mark.nojit


def varied_world():
    """Static, kinematic and dynamic bodies; off-centre shapes (centre of mass away from the
    origin), fixed rotation, a sensor, a sleeping body, a body with no shape, and a removed
    body whose slot was reused."""
    w = c2d.World(gravity=(0, -10))
    ground = w.add_body(kind="static")
    ground.add_box(30, 1, offset=(0, -0.5))
    w.add_body(kind="kinematic", position=(-5, 3), velocity=(1, 0)).add_box(2, 0.2)
    for k in range(6):
        b = w.add_body(position=(-4 + 1.5 * k, 1 + 0.3 * k), angle=0.2 * k,
                       fixed_rotation=(k == 2))
        b.add_box(1.0, 0.5, offset=(0.3, -0.1 * k), density=1 + k)
        if k == 3:
            b.add_circle(0.3, offset=(-0.4, 0.2), sensor=True)
        if k == 4:
            b.add_polygon([(0.5, 0.0), (1.5, 0.0), (1.5, 0.35), (0.85, 0.35), (0.85, 1.0),
                           (0.5, 1.0)])              # concave: two parts
    w.add_body(position=(7, 7))                       # no shape: 1 kg, does not turn
    gone = w.add_body(position=(9, 9))
    gone.add_circle(0.5)
    for _ in range(10):
        w.step(DT)
    w.remove(gone)
    reborn = w.add_body(position=(9, 8), angle=0.7)   # the removed body's slot
    reborn.add_circle(0.4, offset=(0.2, 0.1))
    w.bodies[4].awake = False
    return w


def twins():
    w = varied_world()
    twin = c2d.World.restore(w.snapshot())
    assert twin.snapshot() == w.snapshot()
    return w, twin


def values_for(n, rng, width=2):
    shape = (n, width) if width else (n,)
    return rng.uniform(-3, 3, shape)


# ------------------------------------------------------------------------------- ids
@nojit
def test_ids_survive_removal_and_are_never_reused():
    w = c2d.World()
    bodies = [w.add_body(position=(k, 0)) for k in range(5)]
    ids = [b.id for b in bodies]
    assert len(set(ids)) == 5 and all(isinstance(i, int) and i >= 0 for i in ids)
    assert w.body_ids().tolist() == ids
    gone = [ids[1], ids[3]]
    w.remove(bodies[1])
    w.remove(bodies[3])
    # Indices shift; ids do not.
    assert [b.index for b in (bodies[0], bodies[2], bodies[4])] == [0, 1, 2]
    assert [b.id for b in (bodies[0], bodies[2], bodies[4])] == [ids[0], ids[2], ids[4]]
    assert w.body_ids().tolist() == [ids[0], ids[2], ids[4]]
    for i in (0, 2, 4):
        assert w.body(ids[i]) is bodies[i]
    # New bodies take the freed slots but get new ids.
    new = [w.add_body(), w.add_body(), w.add_body()]
    new_ids = [b.id for b in new]
    assert not set(new_ids) & set(ids)
    assert len(set(new_ids)) == 3
    for b in new:
        assert w.body(b.id) is b
    for i in gone:
        with pytest.raises(ValueError, match="body_id"):
            w.body(i)
    assert w.body_ids().tolist() == [b.id for b in w.bodies]


@nojit
def test_a_stale_id_raises_in_every_batch_call():
    w = c2d.World()
    a = w.add_body()
    a.add_box(1, 1)
    stale = a.id
    w.remove(a)
    b = w.add_body()                         # same slot, new id
    b.add_box(1, 1)
    assert b.id != stale
    ids = np.array([stale])
    one2 = np.zeros((1, 2))
    one = np.zeros(1)
    calls = [
        lambda: w.positions(ids), lambda: w.angles(ids), lambda: w.velocities(ids),
        lambda: w.angular_velocities(ids), lambda: w.kinds(ids), lambda: w.masses(ids),
        lambda: w.inertias(ids), lambda: w.gravity_scales(ids), lambda: w.awake(ids),
        lambda: w.set_positions(ids, one2), lambda: w.set_angles(ids, one),
        lambda: w.set_velocities(ids, one2), lambda: w.set_angular_velocities(ids, one),
        lambda: w.apply_forces(ids, one2), lambda: w.apply_impulses(ids, one2, one2),
        lambda: w.apply_torques(ids, one),
        lambda: w.move_and_slide_many(ids, one2, DT),
    ]
    before = w.snapshot()
    for call in calls:
        with pytest.raises(ValueError, match="not the id of a live body"):
            call()
    assert w.snapshot() == before


@nojit
def test_body_rejects_non_ids():
    w = c2d.World()
    w.add_body()
    for bad in (True, 0.0, "0", None):
        with pytest.raises(TypeError, match="body_id"):
            w.body(bad)
    for bad in (-1, 1, 1 << 32, 1 << 70):
        with pytest.raises(ValueError, match="body_id"):
            w.body(bad)
    assert w.body(np.int64(0)) is w.bodies[0]


def test_snapshot_restore_keeps_ids_and_stale_ids_stay_stale():
    w = varied_world()
    dead = w.add_body()
    dead_id = dead.id
    w.remove(dead)
    twin = c2d.World.restore(w.snapshot())
    assert twin.body_ids().tolist() == w.body_ids().tolist()
    for b in twin.bodies:
        assert twin.body(b.id) is b
    with pytest.raises(ValueError):
        twin.body(dead_id)
    assert twin.add_body().id == w.add_body().id      # the same slot and generation next


# ------------------------------------------------------------------------------- getters
def test_getters_match_the_per_body_properties():
    w = varied_world()
    rng = np.random.default_rng(1)
    ids = w.body_ids()
    pick = np.concatenate((rng.permutation(ids), ids[:3]))   # any order, repeats allowed
    by_id = {b.id: b for b in w.bodies}
    expect = {
        "positions": lambda b: b.position, "angles": lambda b: b.angle,
        "velocities": lambda b: b.velocity, "angular_velocities": lambda b: b.angular_velocity,
        "kinds": lambda b: b.kind, "masses": lambda b: b.mass, "inertias": lambda b: b.inertia,
        "gravity_scales": lambda b: b.gravity_scale, "awake": lambda b: b.awake,
    }
    for name, prop in expect.items():
        got = getattr(w, name)(pick)
        want = np.array([prop(by_id[int(i)]) for i in pick])
        assert got.tolist() == want.tolist(), name
        every = getattr(w, name)()
        assert every.tolist() == np.array([prop(b) for b in w.bodies]).tolist(), name
    assert np.isinf(w.masses()).sum() == 2            # the static and the kinematic body
    assert w.awake().tolist().count(False) == 1


def test_getters_return_copies():
    w = varied_world()
    p = w.positions()
    p[:] = 99.0
    v = w.velocities(w.body_ids()[:2])
    v[:] = 99.0
    assert not (w.positions() == 99.0).any() and not (w.velocities() == 99.0).any()


# ------------------------------------------------------------------------------- setters
def _loop(twin, name, ids, *columns):
    """The per-body calls a batch call stands for, in order."""
    for k, i in enumerate(ids):
        b = twin.body(int(i))
        vals = [None if c is None else c[k] for c in columns]
        if name == "set_positions":
            b.position = vals[0]
        elif name == "set_angles":
            b.angle = vals[0]
        elif name == "set_velocities":
            b.velocity = vals[0]
        elif name == "set_angular_velocities":
            b.angular_velocity = vals[0]
        elif name == "apply_forces":
            b.apply_force(vals[0], vals[1])
        elif name == "apply_impulses":
            b.apply_impulse(vals[0], vals[1])
        elif name == "apply_torques":
            b.apply_torque(vals[0])


SETTERS = [("set_positions", 2), ("set_angles", None), ("set_velocities", 2),
           ("set_angular_velocities", None)]
ADDERS = [("apply_forces", 2), ("apply_impulses", 2), ("apply_torques", None)]


@pytest.mark.parametrize("name,width", SETTERS)
def test_setters_match_a_loop_of_single_setters_bit_for_bit(name, width):
    w, twin = twins()
    rng = np.random.default_rng(7)
    ids = rng.permutation(w.body_ids())
    vals = values_for(len(ids), rng, width)
    if name in ("set_velocities", "set_angular_velocities"):
        static = w.kinds(ids) == "static"
        assert static.any()
        before = w.snapshot()
        with pytest.raises(ValueError, match="static"):    # as the single setter
            getattr(w, name)(ids, vals)
        assert w.snapshot() == before
        vals[static] = 0.0                                  # a static body's is zero
    getattr(w, name)(ids, vals)
    _loop(twin, name, ids, vals)
    assert w.snapshot() == twin.snapshot()
    w.step(DT)
    twin.step(DT)
    assert w.snapshot() == twin.snapshot()


@pytest.mark.parametrize("name,width,with_points", [
    ("apply_forces", 2, False), ("apply_forces", 2, True), ("apply_impulses", 2, False),
    ("apply_impulses", 2, True), ("apply_torques", None, False)])
def test_forces_impulses_torques_match_a_loop_with_repeats(name, width, with_points):
    w, twin = twins()
    rng = np.random.default_rng(11)
    ids = w.body_ids()
    ids = np.concatenate((rng.permutation(ids), ids[2:5], ids[3:4]))  # repeats add up
    vals = values_for(len(ids), rng, width)
    pts = rng.uniform(-5, 5, (len(ids), 2)) if with_points else None
    args = (ids, vals) if name == "apply_torques" else (ids, vals, pts)
    getattr(w, name)(*args)
    _loop(twin, name, ids, vals, pts)
    assert w.snapshot() == twin.snapshot()
    w.step(DT)
    twin.step(DT)
    assert w.snapshot() == twin.snapshot()


def test_set_positions_moves_shapes_for_queries_and_wakes():
    w = varied_world()
    sleeper = w.bodies[4]
    assert not sleeper.awake
    w.set_positions([sleeper.id], [(0.0, 20.0)])
    assert sleeper.awake
    hit = w.raycast((0.5, 25), (0.3, 15))
    assert hit is not None and hit.body is sleeper


def test_setter_repeats_are_refused():
    w = varied_world()
    i = w.bodies[3].id
    before = w.snapshot()
    for name, width in SETTERS:
        vals = np.zeros((2, 2)) if width else np.zeros(2)
        with pytest.raises(ValueError, match="ids: .*more than once"):
            getattr(w, name)([i, i], vals)
    assert w.snapshot() == before


def test_empty_batches_change_nothing():
    w = varied_world()
    before = w.snapshot()
    for name, width in SETTERS + ADDERS:
        vals = np.empty((0, 2)) if width else np.empty(0)
        getattr(w, name)(np.empty(0, np.int64), vals)
        getattr(w, name)([], [])
    assert w.snapshot() == before
    assert w.positions([]).shape == (0, 2) and w.angles([]).shape == (0,)


# ------------------------------------------------------------------------------- validation
BAD_VECTORS = [
    ("shape", lambda n: np.zeros((n, 3)), ValueError),
    ("flat", lambda n: np.zeros(2 * n), ValueError),
    ("rows", lambda n: np.zeros((n + 1, 2)), ValueError),
    ("nan", lambda n: np.full((n, 2), np.nan), ValueError),
    ("inf", lambda n: np.concatenate((np.zeros((n - 1, 2)), [[np.inf, 0]])), ValueError),
    ("str", lambda n: np.full((n, 2), "a"), TypeError),
    ("bool", lambda n: np.ones((n, 2), bool), TypeError),
]
BAD_SCALARS = [
    ("shape", lambda n: np.zeros((n, 1)), ValueError),
    ("rows", lambda n: np.zeros(n - 1), ValueError),
    ("nan", lambda n: np.concatenate((np.zeros(n - 1), [np.nan])), ValueError),
    ("inf", lambda n: np.full(n, -np.inf), ValueError),
    ("str", lambda n: ["x"] * n, TypeError),
    ("complex", lambda n: np.ones(n, complex), TypeError),
]
ARG = {"set_positions": "positions", "set_angles": "angles", "set_velocities": "velocities",
       "set_angular_velocities": "angular_velocities", "apply_forces": "forces",
       "apply_impulses": "impulses", "apply_torques": "torques"}


@nojit
@pytest.mark.parametrize("name,width", SETTERS + ADDERS)
def test_bad_values_raise_naming_the_argument_and_change_nothing(name, width):
    w = c2d.World()
    for k in range(3):
        w.add_body(position=(k, 0)).add_box(1, 1)
    ids = w.body_ids()
    before = w.snapshot()
    for label, make, err in (BAD_VECTORS if width else BAD_SCALARS):
        with pytest.raises(err, match=f"^{ARG[name]}:"):
            getattr(w, name)(ids, make(len(ids)))
        assert w.snapshot() == before, label
    if width:   # points are checked too
        fn = getattr(w, name) if name in ("apply_forces", "apply_impulses") else None
        if fn is not None:
            with pytest.raises(ValueError, match="^points:"):
                fn(ids, np.zeros((3, 2)), np.full((3, 2), np.nan))
            with pytest.raises(ValueError, match="^points:"):
                fn(ids, np.zeros((3, 2)), np.zeros((2, 2)))
    assert w.snapshot() == before


@nojit
@pytest.mark.parametrize("name,width", SETTERS + ADDERS)
def test_bad_ids_raise_and_change_nothing(name, width):
    w = c2d.World()
    bodies = [w.add_body(position=(k, 0)) for k in range(3)]
    for b in bodies:
        b.add_box(1, 1)
    before = w.snapshot()
    good = bodies[0].id
    cases = [
        (np.array([good, 0.5]), TypeError),              # float ids
        (np.array([True, False]), TypeError),
        (np.array(["a", "b"]), TypeError),
        (list(bodies[:2]), TypeError),                     # handles are not ids
        (np.array([[good, good]]).reshape(2, 1), ValueError),
        (np.array([good, -1]), ValueError),
        (np.array([good, 1 << 40]), ValueError),
        (np.array([good, 99]), ValueError),
    ]
    for ids, err in cases:
        vals = np.ones((2, 2)) if width else np.ones(2)
        with pytest.raises(err, match="^ids:"):
            getattr(w, name)(ids, vals)
        assert w.snapshot() == before, ids


@nojit
def test_getters_validate_ids():
    w = c2d.World()
    w.add_body()
    with pytest.raises(TypeError, match="^ids:"):
        w.positions([0.0])
    with pytest.raises(ValueError, match="^ids:"):
        w.angles([[0]])
    with pytest.raises(ValueError, match="^ids:"):
        w.velocities([5])


# ------------------------------------------------------------------------------- queries
def test_query_arrays_name_bodies_by_id_after_removals():
    w = c2d.World(gravity=(0, 0))
    walls = []
    for k in range(6):
        b = w.add_body(kind="static", position=(2.0 * k, 0))
        b.add_box(1, 1)
        walls.append(b)
    for b in walls[:3:2]:        # walls 0 and 2 go; later bodies' indices shift
        w.remove(b)
    newcomer = w.add_body(kind="static", position=(14.0, 0.0))  # reuses slot 0
    newcomer.add_box(1, 1)
    live = [walls[1], walls[3], walls[4], walls[5]]
    starts = np.array([(b.position[0], 5.0) for b in live] + [(14.0, 5.0), (40.0, 5.0)])
    ends = starts - (0, 10)
    rays = w.raycast_many(starts, ends)
    expect = [b.id for b in live] + [newcomer.id, -1]
    assert rays.body.tolist() == expect
    for k, i in enumerate(rays.body[:-1]):
        assert w.body(int(i)) is (live + [newcomer])[k]
    pts = w.query_points([b.position for b in live] + [newcomer.position, (40.0, 0.0)])
    assert pts.body.tolist() == expect
    # Each single query agrees.
    for k, b in enumerate(live):
        assert w.raycast(starts[k], ends[k]).body is b


def test_particle_hits_name_bodies_by_id_after_removals():
    w = c2d.World(gravity=(0, 0))
    first = w.add_body(kind="static", position=(3, 10))
    first.add_box(0.5, 1)
    plate = w.add_body(kind="static", position=(5, 0))
    plate.add_box(0.5, 4)
    w.remove(first)
    assert plate.index == 0 and plate.id != 0
    balls = w.add_particles([(0, 0)], (600, 0))
    w.step(DT)
    assert balls.hits.body.tolist() == [plate.id]
    assert w.body(int(balls.hits.body[0])) is plate
    assert w.particle_systems == [balls]


def test_move_and_slide_many_takes_ids_handles_and_lists_of_ids():
    w = c2d.World(gravity=(0, 0))
    w.add_body(kind="static").add_box(1, 10, offset=(5, 0))
    gone = w.add_body(kind="kinematic")
    gone.add_box(1, 1)
    w.remove(gone)
    movers = []
    for y in (0.0, 2.0):
        m = w.add_body(kind="kinematic", position=(0, y))
        m.add_box(1, 1)
        movers.append(m)
    ids = np.array([m.id for m in movers])
    a = c2d.World.restore(w.snapshot())
    b = c2d.World.restore(w.snapshot())
    r1 = w.move_and_slide_many(ids, [(60, 0), (0, 1)], 0.1)
    r2 = a.move_and_slide_many([a.body(int(i)) for i in ids], [(60, 0), (0, 1)], 0.1)
    r3 = b.move_and_slide_many(ids.tolist(), [(60, 0), (0, 1)], 0.1)
    assert r1.position.tolist() == r2.position.tolist() == r3.position.tolist()
    assert r1.position[0, 0] == pytest.approx(4.0, abs=1e-4)
    with pytest.raises(TypeError, match="^bodies:"):
        w.move_and_slide_many([movers[0], int(ids[1])], [(0, 0), (0, 0)], 0.1)


# ------------------------------------------------------------------------------- geometry
def test_shape_geometry_matches_the_shape_handles():
    w = varied_world()
    concave = w.add_body(position=(0, 8), angle=0.4)
    ell = concave.add_polygon([(-0.5, -0.5), (0.5, -0.5), (0.5, -0.15), (-0.15, -0.15),
                               (-0.15, 0.5), (-0.5, 0.5)])
    capsule = concave.add_segment((1, 0), (2, 0), radius=0.1)
    w.set_angles([concave.id], [0.9])            # a pose set after the step is seen
    g = w.shape_geometry()
    m = g.shape.size
    assert g.body.shape == g.sensor.shape == g.radius.shape == g.count.shape == (m,)
    assert g.aabb.shape == (m, 4) and g.vertices.shape == (int(g.count.sum()), 2)
    assert (g.offset == np.cumsum(g.count) - g.count).all()
    shapes = [s for b in w.bodies for s in b.shapes]
    assert sorted(set(g.shape.tolist())) == sorted(s.id for s in shapes)
    for s in shapes:
        rows = np.flatnonzero(g.shape == s.id)
        assert (g.body[rows] == s.body.id).all()
        assert (g.sensor[rows] == s.sensor).all() and (g.radius[rows] == s.radius).all()
        parts = [g.vertices[g.offset[r] : g.offset[r] + g.count[r]] for r in rows]
        want = s.world_parts()
        assert len(parts) == len(want)
        for got, exp in zip(parts, want, strict=True):
            np.testing.assert_allclose(got, exp, atol=1e-12)
        box = g.aabb[rows]
        np.testing.assert_allclose(
            [box[:, 0].min(), box[:, 1].min(), box[:, 2].max(), box[:, 3].max()], s.aabb,
            atol=1e-12)
    assert (g.shape == ell.id).sum() >= 2 and (g.count[g.shape == capsule.id] == 2).all()


def test_shape_bodies_maps_shape_ids_to_body_ids():
    w = varied_world()
    pairs = np.array([[s.id for s in b.shapes][:1] * 2 for b in w.bodies if b.shapes])
    got = w.shape_bodies(pairs)
    assert got.shape == pairs.shape
    assert got[:, 0].tolist() == [b.id for b in w.bodies if b.shapes]
    sh = w.bodies[2].shapes[0]
    sid = sh.id
    w.remove(sh)
    with pytest.raises(ValueError, match="^shape_ids:"):
        w.shape_bodies([sid])
    with pytest.raises(TypeError, match="^shape_ids:"):
        w.shape_bodies([0.5])
    assert w.shape_bodies([]).shape == (0,)


def test_sensor_overlap_pairs_to_bodies():
    w = c2d.World(gravity=(0, 0))
    zone = w.add_body(kind="static")
    zone_shape = zone.add_box(4, 4, sensor=True)
    visitor = w.add_body(position=(0.5, 0))
    visitor_shape = visitor.add_circle(0.5)
    w.step(DT)
    pairs = w.sensor_overlaps()
    assert pairs.tolist() == [sorted([zone_shape.id, visitor_shape.id])]
    body_pairs = w.shape_bodies(pairs)
    assert sorted(body_pairs[0].tolist()) == sorted([zone.id, visitor.id])
    assert QueryFilter(exclude=visitor).exclude == (visitor,)


def test_the_reset_copies_every_field_of_the_views():
    """``worlds.copy_views`` writes its fields out one by one (an unrolled loop compiled
    three times slower): every field of the body, shape and joint views must be there."""
    import inspect
    import re

    from collide2d._kernels import worlds
    from collide2d._kernels.views import BodyView, JointView, ShapeView

    source = inspect.getsource(getattr(worlds.copy_views, "py_func", worlds.copy_views))
    for name, view in (("b", BodyView), ("s", ShapeView), ("j", JointView)):
        copied = re.findall(rf"_copy_array\({name}\.(\w+), t{name}\.(\w+)\)", source)
        assert all(a == b for a, b in copied), (name, copied)
        assert sorted(a for a, _ in copied) == sorted(view._fields), name
