"""Box2D v3 (through pyb2d3) adapter for the benchmark scenes.

Settings: Box2D v3 defaults (contact hertz 30, damping ratio 10, sleeping as asked), one
``world.step(1/60, 4)``: 4 sub-steps is Box2D v3's recommended default. The world is
single-threaded (no thread pool), as every other engine here.

Two API details matter for matching the other engines:
- ``b2MakeRot`` (``make_rot``) approximates cos/sin (error ~1e-3 rad); ``Rot(angle)`` is exact,
  and hull vertices 30 m from their body would otherwise move by centimetres.
- Box2D polygons have at most 8 vertices; bullets hulls of 9-10 vertices are split into a fan
  of convex pieces on the same body (a ray from outside first hits the outer boundary).
"""

from __future__ import annotations

import time

import numpy as np
from figures import (
    crowd_figures,
    crowd_samples,
    gc_paused,
    joint_grid_figures,
    pyramid_figures,
    ragdoll_figures,
    rain_figures,
    timed_steps,
    timing,
)
from scenes import (
    BulletsScene,
    CrowdScene,
    JointGridScene,
    PyramidScene,
    RagdollScene,
    RainScene,
    RayHits,
    StaticBoxes,
)

try:
    import pyb2d3 as b2
except ImportError as exc:  # reported by the runner, never a crash
    b2 = None
    UNAVAILABLE = f"pyb2d3 not importable ({exc})"
else:
    UNAVAILABLE = None

NAME = "box2d-v3"
DT = 1.0 / 60.0
SUB_STEPS = 4
MAX_POLYGON_VERTICES = 8


def version() -> str:
    if b2 is None:
        return "-"
    from importlib.metadata import version as dist_version

    return f"pyb2d3 {dist_version('pyb2d3')}"


def _world(gravity=(0.0, -10.0), sleeping=False):
    world = b2.World(gravity=gravity)
    world.sleeping_enabled = sleeping
    return world


def _shape_def(density=1.0, friction=0.6, restitution=0.0, **kwargs):
    material = b2.surface_material(friction=friction, restitution=restitution)
    return b2.shape_def(density=density, material=material, **kwargs)


def _add_static_boxes(world, boxes: StaticBoxes, friction: float):
    for (cx, cy), (hx, hy) in zip(boxes.centres, boxes.half_extents, strict=True):
        body = world.create_static_body(position=(float(cx), float(cy)))
        body.create_shape(_shape_def(friction=friction), b2.box(float(hx), float(hy)))


def _fan(vertices: np.ndarray, limit: int = MAX_POLYGON_VERTICES) -> list[np.ndarray]:
    """Split a convex CCW polygon into convex pieces of at most ``limit`` vertices."""
    pieces, first = [], 1
    while first < len(vertices) - 1:
        last = min(first + limit - 2, len(vertices) - 1)
        pieces.append(np.vstack([vertices[:1], vertices[first : last + 1]]))
        first = last
    return pieces


def _polygon(vertices: np.ndarray):
    return b2.polygon(points=np.ascontiguousarray(vertices, dtype=np.float32))


def _state(batch) -> tuple[np.ndarray, np.ndarray]:
    positions = batch.get_positions().astype(np.float64)
    rot = batch.get_rotations().astype(np.float64)  # (cos, sin)
    return positions, np.arctan2(rot[:, 1], rot[:, 0])


def run_pyramid(scene: PyramidScene, steps: int, sleeping: bool = False) -> dict:
    world = _world(sleeping=sleeping)
    _add_static_boxes(world, scene.ground, scene.friction)
    shape_def = _shape_def(scene.density, scene.friction, scene.restitution)
    half = 0.5 * scene.box_size
    batch = b2.Bodies()
    for x, y in scene.centres:
        body = world.create_dynamic_body(position=(float(x), float(y)))
        body.create_shape(shape_def, b2.box(half, half))
        batch.append(body.id)
    ms = timed_steps(lambda: world.step(DT, SUB_STEPS), steps)
    return timing(ms) | pyramid_figures(scene, *_state(batch))


def run_rain(scene: RainScene, steps: int, sleeping: bool = False) -> dict:
    world = _world(sleeping=sleeping)
    _add_static_boxes(world, scene.container, scene.friction)
    shape_def = _shape_def(scene.density, scene.friction, scene.restitution)
    batch = b2.Bodies()
    for k in range(scene.size):
        x, y = scene.positions[k]
        body = world.create_dynamic_body(
            position=(float(x), float(y)), rotation=b2.Rot(float(scene.angles[k]))
        )
        body.create_shape(shape_def, _polygon(scene.polygon(k)))
        batch.append(body.id)
    ms = timed_steps(lambda: world.step(DT, SUB_STEPS), steps)
    return timing(ms) | rain_figures(scene, _state(batch)[0])


def run_bullets(scene: BulletsScene) -> dict:
    """First hit of every segment, one ``cast_ray_closest`` each."""
    world = _world()
    for h in range(len(scene.centres)):
        x, y = scene.centres[h]
        body = world.create_static_body(
            position=(float(x), float(y)), rotation=b2.Rot(float(scene.angles[h]))
        )
        for piece in _fan(scene.hull_local(h)):
            body.create_shape(_shape_def(user_data=h), _polygon(piece))

    starts = [tuple(p) for p in scene.starts]
    translations = [tuple(p) for p in scene.ends - scene.starts]
    cast = world.cast_ray_closest
    with gc_paused():
        t0 = time.perf_counter()
        results = [cast(a, d) for a, d in zip(starts, translations, strict=True)]
        seconds = time.perf_counter() - t0

    m = len(starts)
    hits = RayHits(
        hit=np.zeros(m, dtype=bool),
        body=np.full(m, -1, dtype=np.int64),
        fraction=np.full(m, np.nan),
        point=np.full((m, 2), np.nan),
        normal=np.full((m, 2), np.nan),
    )
    for k, r in enumerate(results):
        if r.hit:
            hits.hit[k] = True
            hits.body[k] = r.shape.user_data
            hits.fraction[k] = r.fraction
            hits.point[k] = tuple(r.point)
            hits.normal[k] = tuple(r.normal)
    return {"seconds": seconds, "hits": int(hits.hit.sum()), "ray_hits": hits}


def run_crowd(scene: CrowdScene, steps: int) -> dict:
    """Sensor circles with sensor events; walls have sensor events off, so are not counted.

    Box2D v3 computes sensor overlaps at the end of the step, so the count after step k
    describes the positions after step k. Every overlapping pair is reported twice (each
    circle is a sensor and a visitor of the other), hence the halving.
    """
    world = _world(gravity=(0.0, 0.0))
    _add_static_boxes(world, scene.walls, 0.5)
    shape_def = _shape_def(scene.density, is_sensor=True, enable_sensor_events=True)
    batch = b2.Bodies()
    for (x, y), r, (vx, vy) in zip(scene.centres, scene.radii, scene.velocities, strict=True):
        body = world.create_dynamic_body(
            position=(float(x), float(y)), linear_velocity=(float(vx), float(vy))
        )
        body.create_shape(shape_def, b2.circle(radius=float(r)))
        batch.append(body.id)

    live = [0]  # ordered (sensor, visitor) overlaps
    counts = np.zeros(steps, dtype=np.int64)
    samples = set(crowd_samples(steps))
    sampled = {}

    def after(k):
        events = world.get_sensor_events()
        live[0] += events.begin_count - events.end_count
        counts[k - 1] = live[0] // 2
        if k in samples:
            sampled[k] = _state(batch)[0]

    ms = timed_steps(lambda: world.step(DT, SUB_STEPS), steps, after)
    return timing(ms) | crowd_figures(counts, sampled, scene.radii)


def _revolute(world, a, b, local_a, local_b, lower=None, upper=None):
    jd = b2.revolute_joint_def(body_a=a, body_b=b, local_anchor_a=tuple(map(float, local_a)),
                               local_anchor_b=tuple(map(float, local_b)))
    if lower is not None:
        jd.enable_limit = True
        jd.lower_angle, jd.upper_angle = float(lower), float(upper)
    return world.create_revolute_joint(jd)


def run_joint_grid(scene: JointGridScene, steps: int) -> dict:
    """Box2D v3's own joint_grid benchmark: category 2, mask all but 2 (no circle meets
    another)."""
    world = _world()
    shape_def = _shape_def(scene.density, filter=b2.make_filter(
        category_bits=2, mask_bits=0xFFFFFFFFFFFFFFFF ^ 2))
    batch = b2.Bodies()
    bodies = []
    for (x, y), pinned in zip(scene.positions, scene.static, strict=True):
        make = world.create_static_body if pinned else world.create_dynamic_body
        body = make(position=(float(x), float(y)))
        body.create_shape(shape_def, b2.circle(radius=scene.radius))
        bodies.append(body)
        batch.append(body.id)
    la, lb = scene.local_anchors()
    for (a, b), pa, pb in zip(scene.joint_bodies, la, lb, strict=True):
        _revolute(world, bodies[a], bodies[b], pa, pb)
    ms = timed_steps(lambda: world.step(DT, SUB_STEPS), steps)
    return timing(ms) | joint_grid_figures(scene, *_state(batch))


def run_ragdolls(scene: RagdollScene, steps: int, sleeping: bool = False) -> dict:
    world = _world(sleeping=sleeping)
    _add_static_boxes(world, scene.container, scene.friction)
    batch = b2.Bodies()
    bodies = []
    for k in range(len(scene.positions)):
        x, y = scene.positions[k]
        vx, vy = scene.velocities[k]
        body = world.create_dynamic_body(position=(float(x), float(y)),
                                         linear_velocity=(float(vx), float(vy)))
        shape_def = _shape_def(scene.density, scene.friction, scene.restitution,
                               filter=b2.make_filter(group_index=-int(scene.group[k])))
        body.create_shape(shape_def, b2.capsule(tuple(map(float, scene.bone_a[k])),
                                                tuple(map(float, scene.bone_b[k])),
                                                float(scene.bone_radius[k])))
        bodies.append(body)
        batch.append(body.id)
    la, lb = scene.local_anchors()
    for (a, b), pa, pb, lo, hi in zip(scene.joint_bodies, la, lb, scene.lower, scene.upper,
                                      strict=True):
        _revolute(world, bodies[a], bodies[b], pa, pb, lo, hi)
    ms = timed_steps(lambda: world.step(DT, SUB_STEPS), steps)
    return timing(ms) | ragdoll_figures(scene, *_state(batch))
