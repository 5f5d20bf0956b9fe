"""Bad input at every public entry point: a clear error naming the argument, and the world
left exactly as it was (the oracle: ``world.snapshot()`` bytes before and after the failing
call are equal).

Also the NaN guard: NaN written straight into a body's arrays (what a buggy callback does)
makes the next ``step`` raise ``ValueError`` naming the body, without stepping.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

import collide2d as c2d

NAN, INF = math.nan, math.inf
DT = 1.0 / 60.0
SQUARE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
CONCAVE = [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0), (2.0, 1.0), (0.0, 3.0)]


def make_world():
    w = c2d.World(gravity=(0.0, -10.0))
    ground = w.add_body(kind="static")
    ground.add_box(20.0, 1.0, offset=(0.0, -0.5))
    box = w.add_body(position=(0.0, 0.5))
    box_shape = box.add_box(1.0, 1.0)
    ball = w.add_body(position=(2.0, 3.0))
    ball.add_circle(0.5)
    gone = w.add_body(position=(5.0, 5.0))
    gone_shape = gone.add_circle(0.3)
    w.remove(gone)
    part = box.add_circle(0.2, offset=(0.0, 0.6))
    w.remove(part)
    for _ in range(10):
        w.step(DT)
    return SimpleNamespace(world=w, ground=ground, box=box, box_shape=box_shape, ball=ball,
                           gone=gone, gone_shape=gone_shape, removed_shape=part)


def _set(obj_name, attr, value):
    def fn(c):
        setattr(getattr(c, obj_name), attr, value)
    return fn


# (id, call, exception, text the message must contain: the argument's name)
CASES = [
    # -- world settings
    ("gravity nan", _set("world", "gravity", (NAN, 0.0)), ValueError, "gravity"),
    ("gravity inf", _set("world", "gravity", (0.0, -INF)), ValueError, "gravity"),
    ("gravity 3d", _set("world", "gravity", (0.0, 1.0, 2.0)), ValueError, "gravity"),
    ("gravity text", _set("world", "gravity", "down"), TypeError, "gravity"),
    ("damping negative", _set("world", "damping", -0.1), ValueError, "damping"),
    ("damping above 1", _set("world", "damping", 1.5), ValueError, "damping"),
    ("damping nan", _set("world", "damping", NAN), ValueError, "damping"),
    ("substeps zero", _set("world", "substeps", 0), ValueError, "substeps"),
    ("substeps float", _set("world", "substeps", 2.5), ValueError, "substeps"),
    ("substeps bool", _set("world", "substeps", True), ValueError, "substeps"),
    ("substeps huge", _set("world", "substeps", 2000), ValueError, "substeps"),
    ("max_substeps huge", _set("world", "max_substeps", 2000), ValueError, "max_substeps"),
    ("max_substeps zero", _set("world", "max_substeps", 0), ValueError, "max_substeps"),
    ("max_substeps float", _set("world", "max_substeps", 6.0), ValueError, "max_substeps"),
    ("max_substeps text", _set("world", "max_substeps", "8"), ValueError, "max_substeps"),
    ("max_substeps bool", _set("world", "max_substeps", True), ValueError, "max_substeps"),
    ("integrator unknown", _set("world", "integrator", "rk4"), ValueError, "integrator"),
    ("response unknown", _set("world", "dynamic_response", "bounce"), ValueError,
     "dynamic_response"),
    # -- step
    ("dt zero", lambda c: c.world.step(0.0), ValueError, "dt"),
    ("dt negative", lambda c: c.world.step(-DT), ValueError, "dt"),
    ("dt nan", lambda c: c.world.step(NAN), ValueError, "dt"),
    ("dt inf", lambda c: c.world.step(INF), ValueError, "dt"),
    ("dt text", lambda c: c.world.step("1/60"), TypeError, "dt"),
    ("dt none", lambda c: c.world.step(None), TypeError, "dt"),
    # -- add_body
    ("kind unknown", lambda c: c.world.add_body(kind="ghost"), ValueError, "kind"),
    ("kind not str", lambda c: c.world.add_body(kind=2), ValueError, "kind"),
    ("position nan", lambda c: c.world.add_body(position=(NAN, 0.0)), ValueError, "position"),
    ("position short", lambda c: c.world.add_body(position=(1.0,)), ValueError, "position"),
    ("angle inf", lambda c: c.world.add_body(angle=INF), ValueError, "angle"),
    ("velocity inf", lambda c: c.world.add_body(velocity=(0.0, INF)), ValueError, "velocity"),
    ("angular_velocity nan", lambda c: c.world.add_body(angular_velocity=NAN), ValueError,
     "angular_velocity"),
    ("body damping negative", lambda c: c.world.add_body(damping=-1.0), ValueError, "damping"),
    ("body damping above 1", lambda c: c.world.add_body(damping=2.0), ValueError, "damping"),
    ("angular_damping above 1", lambda c: c.world.add_body(angular_damping=2.0), ValueError,
     "damping"),
    ("gravity_scale nan", lambda c: c.world.add_body(gravity_scale=NAN), ValueError,
     "gravity_scale"),
    ("add_body unknown keyword", lambda c: c.world.add_body(mass=3.0), TypeError, "mass"),
    # -- remove / lookup
    ("remove not a handle", lambda c: c.world.remove(42), TypeError, "item"),
    ("remove removed body", lambda c: c.world.remove(c.gone), ValueError, "body"),
    ("remove removed shape", lambda c: c.world.remove(c.removed_shape), ValueError, "shape"),
    ("remove shape of removed body", lambda c: c.world.remove(c.gone_shape), ValueError,
     "shape"),
    ("shape id unknown", lambda c: c.world.shape(999), ValueError, "shape_id"),
    ("shape id text", lambda c: c.world.shape("abc"), TypeError, "shape_id"),
    ("shape id none", lambda c: c.world.shape(None), TypeError, "shape_id"),
    ("shape id float", lambda c: c.world.shape(1.7), TypeError, "shape_id"),
    ("remove a body of another world", lambda c: c.world.remove(c2d.World().add_body()),
     ValueError, "item"),
    ("remove a shape of another world",
     lambda c: c.world.remove(c2d.World().add_body().add_circle(1.0)), ValueError, "item"),
    ("callback not callable", lambda c: c.world.on_contact_begin(42), TypeError, "fn"),
    # -- body setters
    ("set position nan", _set("box", "position", (NAN, 1.0)), ValueError, "position"),
    ("set angle nan", _set("box", "angle", NAN), ValueError, "angle"),
    ("set velocity inf", _set("box", "velocity", (INF, 0.0)), ValueError, "velocity"),
    ("set angular_velocity nan", _set("box", "angular_velocity", NAN), ValueError,
     "angular_velocity"),
    ("set mass zero", _set("box", "mass", 0.0), ValueError, "mass"),
    ("set mass negative", _set("box", "mass", -2.0), ValueError, "mass"),
    ("set mass nan", _set("box", "mass", NAN), ValueError, "mass"),
    ("set mass static", _set("ground", "mass", 5.0), ValueError, "mass"),
    ("set inertia zero", _set("box", "inertia", 0.0), ValueError, "inertia"),
    ("set inertia static", _set("ground", "inertia", 1.0), ValueError, "inertia"),
    ("set damping above 1", _set("box", "damping", 1.5), ValueError, "damping"),
    ("set angular_damping negative", _set("box", "angular_damping", -0.5), ValueError,
     "angular_damping"),
    ("set gravity_scale nan", _set("box", "gravity_scale", NAN), ValueError, "gravity_scale"),
    # -- forces
    ("force nan", lambda c: c.box.apply_force((NAN, 0.0)), ValueError, "force"),
    ("torque inf", lambda c: c.box.apply_torque(INF), ValueError, "torque"),
    ("impulse nan", lambda c: c.box.apply_impulse((0.0, NAN)), ValueError, "impulse"),
    ("force bad shape", lambda c: c.box.apply_force((1.0, 2.0, 3.0)), ValueError, "force"),
    ("force point nan", lambda c: c.box.apply_force((1.0, 0.0), point=(NAN, 0.0)), ValueError,
     "point"),
    ("impulse point nan", lambda c: c.box.apply_impulse((1.0, 0.0), point=(NAN, 0.0)),
     ValueError, "point"),
    ("force point nan on static", lambda c: c.ground.apply_force((1.0, 0.0),
                                                                 point=(NAN, 0.0)),
     ValueError, "point"),
    # -- shapes on a body
    ("box width zero", lambda c: c.box.add_box(0.0, 1.0), ValueError, "width"),
    ("box height negative", lambda c: c.box.add_box(1.0, -1.0), ValueError, "height"),
    ("box offset nan", lambda c: c.box.add_box(1.0, 1.0, offset=(NAN, 0.0)), ValueError,
     "offset"),
    ("box angle inf", lambda c: c.box.add_box(1.0, 1.0, angle=INF), ValueError, "angle"),
    ("density zero", lambda c: c.box.add_box(1.0, 1.0, density=0.0), ValueError, "density"),
    ("density negative", lambda c: c.box.add_circle(1.0, density=-1.0), ValueError, "density"),
    ("density nan", lambda c: c.box.add_box(1.0, 1.0, density=NAN), ValueError, "density"),
    ("friction negative", lambda c: c.box.add_box(1.0, 1.0, friction=-0.1), ValueError,
     "friction"),
    ("elasticity nan", lambda c: c.box.add_box(1.0, 1.0, elasticity=NAN), ValueError,
     "elasticity"),
    ("material unknown keyword", lambda c: c.box.add_box(1.0, 1.0, bounciness=1.0), TypeError,
     "bounciness"),
    ("category negative", lambda c: c.box.add_box(1.0, 1.0, category=-1), ValueError,
     "category"),
    ("mask too wide", lambda c: c.box.add_box(1.0, 1.0, mask=2**33), ValueError, "mask"),
    ("group float", lambda c: c.box.add_box(1.0, 1.0, group=1.5), TypeError, "group"),
    ("circle radius zero", lambda c: c.box.add_circle(0.0), ValueError, "radius"),
    ("circle radius negative", lambda c: c.box.add_circle(-1.0), ValueError, "radius"),
    ("circle radius nan", lambda c: c.box.add_circle(NAN), ValueError, "radius"),
    ("circle offset inf", lambda c: c.box.add_circle(1.0, offset=(INF, 0.0)), ValueError,
     "offset"),
    ("polygon 2 vertices", lambda c: c.box.add_polygon([(0, 0), (1, 0)]), ValueError,
     "vertices"),
    ("polygon repeated vertices", lambda c: c.box.add_polygon([(0, 0), (1, 0), (1, 0),
                                                               (0, 0)]), ValueError, "vertices"),
    ("polygon zero area", lambda c: c.box.add_polygon([(0, 0), (1, 1), (2, 2)]), ValueError,
     "vertices"),
    ("polygon nan", lambda c: c.box.add_polygon([(0, 0), (1, NAN), (0, 1)]), ValueError,
     "vertices"),
    ("polygon not points", lambda c: c.box.add_polygon("abc"), TypeError, "vertices"),
    ("polygon radius negative", lambda c: c.box.add_polygon(SQUARE, radius=-0.1), ValueError,
     "radius"),
    ("concave polygon rounded", lambda c: c.box.add_polygon(CONCAVE, radius=0.1), ValueError,
     "radius"),
    ("polygon self-intersecting", lambda c: c.box.add_polygon([(0, 0), (2, 2), (2, 0),
                                                              (0, 1)]), ValueError, "vertices"),
    ("segment zero length", lambda c: c.ground.add_segment((1, 1), (1, 1)), ValueError, "b"),
    ("segment a nan", lambda c: c.ground.add_segment((NAN, 0), (1, 1)), ValueError, "a"),
    ("segment radius negative", lambda c: c.ground.add_segment((0, 0), (1, 1), radius=-1.0),
     ValueError, "radius"),
    # -- removed body handle
    ("removed body position", lambda c: c.gone.position, ValueError, "body"),
    ("removed body set velocity", _set("gone", "velocity", (1.0, 0.0)), ValueError, "body"),
    ("removed body add_box", lambda c: c.gone.add_box(1.0, 1.0), ValueError, "body"),
    ("removed body apply_force", lambda c: c.gone.apply_force((1.0, 0.0)), ValueError, "body"),
    ("removed body set bullet", _set("gone", "bullet", True), ValueError, "body"),
    ("removed body set mass", _set("gone", "mass", 2.0), ValueError, "body"),
    # -- shape setters
    ("shape density zero", _set("box_shape", "density", 0.0), ValueError, "density"),
    ("shape friction negative", _set("box_shape", "friction", -1.0), ValueError, "friction"),
    ("shape elasticity nan", _set("box_shape", "elasticity", NAN), ValueError, "elasticity"),
    ("shape category too wide", _set("box_shape", "category", 2**32), ValueError, "category"),
    ("shape mask text", _set("box_shape", "mask", "all"), TypeError, "mask"),
    ("shape group text", _set("box_shape", "group", "x"), TypeError, "group"),
    ("removed shape friction", _set("removed_shape", "friction", 0.5), ValueError, "shape"),
    ("removed shape sensor", _set("removed_shape", "sensor", True), ValueError, "shape"),
    ("removed shape parts", lambda c: c.removed_shape.parts, ValueError, "shape"),
    # -- queries
    ("raycast a nan", lambda c: c.world.raycast((NAN, 0.0), (1.0, 1.0)), ValueError, "a"),
    ("raycast b inf", lambda c: c.world.raycast((0.0, 0.0), (INF, 1.0)), ValueError, "b"),
    ("raycast bad filter", lambda c: c.world.raycast((0, 0), (1, 1), filter="walls"),
     TypeError, "filter"),
    ("raycast_many ragged", lambda c: c.world.raycast_many(np.zeros((3, 2)), np.ones((2, 2))),
     ValueError, "ends"),
    ("raycast_all nan", lambda c: c.world.raycast_all((0, 0), (NAN, 1)), ValueError, "b"),
    ("query_point nan", lambda c: c.world.query_point((NAN, 0.0)), ValueError, "p"),
    ("query_points nan", lambda c: c.world.query_points([(0.0, NAN)]), ValueError, "points"),
    ("query_aabb nan", lambda c: c.world.query_aabb((0.0, NAN), (1.0, 1.0)), ValueError,
     "lower"),
    ("query_shape bad type", lambda c: c.world.query_shape("box"), TypeError,
     "shape_or_polygon"),
    ("query_shape self-intersecting",
     lambda c: c.world.query_shape([(0, 0), (2, 2), (2, 0), (0, 1)]), ValueError,
     "shape_or_polygon"),
    ("shape_cast self-intersecting",
     lambda c: c.world.shape_cast([(0, 0), (2, 2), (2, 0), (0, 1)], (0, 0), (1, 1)),
     ValueError, "shape_or_polygon"),
    ("query_shape position nan", lambda c: c.world.query_shape(SQUARE, position=(NAN, 0)),
     ValueError, "position"),
    ("shape_cast end nan", lambda c: c.world.shape_cast(SQUARE, (0, 0), (NAN, 1)), ValueError,
     "end"),
    ("query_shape removed shape", lambda c: c.world.query_shape(c.removed_shape), ValueError,
     "shape"),
    # -- particles
    ("particles position nan", lambda c: c.world.add_particles([(NAN, 0.0)]), ValueError,
     "positions"),
    ("particles velocity inf", lambda c: c.world.add_particles([(0, 0)], [(INF, 0)]),
     ValueError, "velocities"),
    ("particles on_hit unknown", lambda c: c.world.add_particles([(0, 0)], on_hit="explode"),
     ValueError, "on_hit"),
    ("particles elasticity negative", lambda c: c.world.add_particles([(0, 0)],
                                                                      elasticity=-1.0),
     ValueError, "elasticity"),
    ("particles drag nan", lambda c: c.world.add_particles([(0, 0)], drag=NAN), ValueError,
     "drag"),
    # -- tile maps and character movers
    ("tilemap grid 1d", lambda c: c.world.add_tilemap(np.ones(5, bool)), ValueError, "grid"),
    ("tilemap grid float", lambda c: c.world.add_tilemap(np.ones((2, 2))), TypeError, "grid"),
    ("tilemap tile_size zero", lambda c: c.world.add_tilemap(np.ones((2, 2), bool),
                                                             tile_size=0.0), ValueError,
     "tile_size"),
    ("tilemap origin nan", lambda c: c.world.add_tilemap(np.ones((2, 2), bool),
                                                         origin=(NAN, 0)), ValueError,
     "origin"),
    ("remove_tilemap not one", lambda c: c.world.remove_tilemap("tiles"), ValueError,
     "tilemap"),
    ("set_response unknown", lambda c: c.world.set_response(c.box_shape, "teleport"),
     ValueError, "response"),
    ("set_response removed shape", lambda c: c.world.set_response(c.removed_shape, "touch"),
     ValueError, "shape"),
    ("set_character removed body", lambda c: c.world.set_character(c.gone), ValueError,
     "body"),
    ("character_response unknown", _set("world", "character_response", "ghost"), ValueError,
     "character_response"),
    ("character_skin zero", _set("world", "character_skin", 0.0), ValueError,
     "character_skin"),
    ("oneway_margin negative", _set("world", "oneway_margin", -1.0), ValueError,
     "oneway_margin"),
    ("move velocity nan", lambda c: c.world.move_and_slide(c.box, (NAN, 0.0), DT), ValueError,
     "velocity"),
    ("move dt zero", lambda c: c.world.move_and_slide(c.box, (1.0, 0.0), 0.0), ValueError,
     "dt"),
    ("move up nan", lambda c: c.world.move_and_slide(c.box, (1.0, 0.0), DT, up=(0.0, NAN)),
     ValueError, "up"),
    ("move max_slides zero", lambda c: c.world.move_and_slide(c.box, (1.0, 0.0), DT,
                                                              max_slides=0), ValueError,
     "max_slides"),
    ("move removed body", lambda c: c.world.move_and_slide(c.gone, (1.0, 0.0), DT),
     ValueError, "body"),
    ("move_many ragged", lambda c: c.world.move_and_slide_many([c.box, c.ball], [(1, 0)], DT),
     ValueError, "velocities"),
    ("tilemap bad material", lambda c: c.world.add_tilemap(np.ones((2, 2), bool),
                                                           bounciness=2.0), TypeError,
     "bounciness"),
]


# Entry points that do not validate, or half-apply, today (bugs in the engine itself, not in
# the validation layer):
# strict xfails, so each flips to a failure (to be moved into CASES) once fixed.
ENGINE_GAPS = [
]

PARAMS = [pytest.param(*c[1:], id=c[0]) for c in CASES] + [
    pytest.param(*g[1:4], id=g[0],
                 marks=pytest.mark.xfail(strict=True, reason="engine bug: " + g[4]))
    for g in ENGINE_GAPS]


@pytest.mark.parametrize("call,exc,name", PARAMS)
def test_bad_input_raises_naming_the_argument_and_changes_nothing(call, exc, name):
    c = make_world()
    before = c.world.snapshot()
    with pytest.raises(exc) as info:
        call(c)
    assert name in str(info.value), str(info.value)
    assert c.world.snapshot() == before
    c.world.step(DT)   # and the world still works


# ---------------------------------------------------------------------------- geometry
GEOMETRY = [
    ("circle radius zero", lambda: c2d.Circle((0, 0), 0.0), ValueError, "radius"),
    ("circle centre nan", lambda: c2d.Circle((NAN, 0), 1.0), ValueError, "center"),
    ("overlap concave A", lambda: c2d.polygons_overlap(CONCAVE, SQUARE), ValueError, "A"),
    ("penetration concave B", lambda: c2d.penetration(SQUARE, CONCAVE), ValueError, "B"),
    ("contact_points 2 vertices", lambda: c2d.contact_points([(0, 0), (1, 0)], SQUARE),
     ValueError, "A"),
    ("sweep velocity nan", lambda: c2d.sweep(SQUARE, (NAN, 0), SQUARE), ValueError,
     "velocity_a"),
    ("sweep t_max negative", lambda: c2d.sweep(SQUARE, (1, 0), SQUARE, t_max=-1.0),
     ValueError, "t_max"),
    ("polygon_mass density zero", lambda: c2d.polygon_mass(SQUARE, density=0.0), ValueError,
     "density"),
    ("polygon_mass zero area", lambda: c2d.polygon_mass([(0, 0), (1, 0), (2, 0)]),
     ValueError, "polygon"),
    ("segment_intersection inf", lambda: c2d.segment_intersection((INF, 0), (1, 1), (0, 1),
                                                                  (1, 0)), ValueError, "a"),
    ("point_in_polygon nan point", lambda: c2d.point_in_polygon((NAN, 0), SQUARE),
     ValueError, "point"),
    ("clip_segment concave", lambda: c2d.clip_segment((0, 0), (1, 1), CONCAVE), ValueError,
     "convex"),
    ("convex_hull empty", lambda: c2d.convex_hull(np.empty((0, 2))), ValueError, "points"),
    ("decompose nan", lambda: c2d.decompose([(0, 0), (1, 0), (NAN, 1)]), ValueError,
     "polygon"),
    ("is_convex repeated", lambda: c2d.is_convex([(0, 0), (0, 0), (1, 1)]), ValueError,
     "polygon"),
]


@pytest.mark.nojit
@pytest.mark.parametrize("call,exc,name", [g[1:] for g in GEOMETRY],
                         ids=[g[0] for g in GEOMETRY])
def test_geometry_rejects_bad_input(call, exc, name):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value).startswith(name), str(info.value)


# ---------------------------------------------------------------------------- NaN guard
@pytest.mark.parametrize("field,value", [("vel", (NAN, 0.0)), ("pos", (0.0, INF)),
                                         ("angvel", NAN), ("angle", -INF),
                                         ("force", (NAN, NAN)), ("torque", INF)])
def test_nan_written_into_a_body_stops_the_next_step(field, value):
    c = make_world()
    w = c.world
    slot = c.ball._slot
    getattr(w._bodies, field)[slot] = value
    before = w.snapshot()
    with pytest.raises(ValueError, match=rf"body {c.ball.index}\b.*NaN or inf"):
        w.step(DT)
    assert w.snapshot() == before          # nothing moved, time did not advance
    c.ball.velocity = (0.0, 0.0)           # the setters repair it
    getattr(w._bodies, field)[slot] = 0.0
    w.step(DT)


def test_nan_from_a_callback_is_caught_at_the_next_step_naming_the_body():
    c = make_world()
    w = c.world
    c.ball.position = (0.0, 1.6)  # falls onto the box within a few steps
    c.ball.velocity = (0.0, -3.0)
    target = c.ball

    def buggy(event):
        bodies = {event.shape_a.body, event.shape_b.body}
        if target in bodies:
            w._bodies.vel[target._slot] = (NAN, 0.0)   # a bug: NaN straight into the arrays

    w.on_contact_begin(buggy)
    with pytest.raises(ValueError, match=rf"body {target.index} \(world.bodies index\)"):
        for _ in range(120):
            w.step(DT)
    others = [b for b in w.bodies if b is not target]
    assert all(np.isfinite(b.position).all() and np.isfinite(b.velocity).all()
               for b in others)


def test_nan_guard_names_the_right_body_after_removals():
    w = c2d.World()
    bodies = [w.add_body(position=(3.0 * i, 0.0)) for i in range(5)]
    for b in bodies:
        b.add_circle(0.5)
    w.remove(bodies[1])
    w._bodies.vel[bodies[3]._slot] = (0.0, NAN)
    assert bodies[3].index == 2
    with pytest.raises(ValueError, match=r"body 2 \(world.bodies index\)"):
        w.step(DT)


def test_setters_validate_so_nan_never_gets_in_through_the_api():
    c = make_world()
    for attr, value in (("position", (NAN, 0)), ("velocity", (0, NAN)), ("angle", NAN),
                        ("angular_velocity", INF)):
        with pytest.raises(ValueError, match=attr):
            setattr(c.ball, attr, value)
    assert np.isfinite(c.world.positions()).all()


@pytest.mark.nojit
@pytest.mark.parametrize("value, exc", [
    ((1.5, -2.0), None), ([1.5, -2.0], None), (np.array([1.5, -2.0]), None),
    ((1, 2), None), ((np.float64(1.5), 2.0), None), ((1e75, -1e75), None),
    ((1e76, 0.0), ValueError), ([0.0, -1e76], ValueError), (np.array([1e76, 0.0]), ValueError),
    ((math.nan, 0.0), ValueError), ([0.0, math.inf], ValueError),
    (np.array([math.nan, 0.0]), ValueError), ((1.0, 2.0, 3.0), ValueError),
    ((True, 0.0), TypeError), (("1", 0.0), TypeError), (1.0, TypeError),
])
def test_a_body_force_takes_pairs_of_numbers_and_names_the_rest(value, exc):
    # Tuples and lists of two floats and float64 pairs take a short path; every value
    # must get what the long one gives: the same vector, or the same refusal.
    w = c2d.World(gravity=(0.0, 0.0))
    body = w.add_body()
    body.add_circle(0.5)
    inv = 1.0 / body.mass
    if exc is None:
        want = [float(value[0]), float(value[1])]
        body.apply_impulse(value)
        assert body.velocity.tolist() == [want[0] * inv, want[1] * inv]
        body.apply_force(value)
        w.step(0.5)
        np.testing.assert_allclose(body.velocity, [1.5 * want[0] * inv, 1.5 * want[1] * inv],
                                   rtol=1e-12)
    else:
        with pytest.raises(exc, match="impulse"):
            body.apply_impulse(value)
        with pytest.raises(exc, match="force"):
            body.apply_force(value)
        w.step(0.5)
        assert body.velocity.tolist() == [0.0, 0.0]
