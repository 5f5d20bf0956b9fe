"""pymunk 7 (Chipmunk 7) adapter for the benchmark scenes.

Settings: pymunk's defaults (10 iterations, collision_slop 0.1, no sleeping unless asked),
one ``space.step(1/60)`` per frame. Two conventions are converted, not tuned:
- pymunk multiplies the two shapes' frictions where Box2D takes their geometric mean, so each
  shape gets sqrt(mu) and every contact ends up with the scene's mu;
- sleeping, when asked for, uses Box2D's 0.5 s time-to-sleep.
"""

from __future__ import annotations

import math
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
    import pymunk
except ImportError as exc:  # reported by the runner, never a crash
    pymunk = None
    UNAVAILABLE = f"pymunk not importable ({exc})"
else:
    UNAVAILABLE = None

NAME = "pymunk"
DT = 1.0 / 60.0


def version() -> str:
    return pymunk.version if pymunk else "-"


def _space(gravity=(0.0, -10.0), sleeping=False) -> pymunk.Space:
    space = pymunk.Space()
    space.gravity = gravity
    space.sleep_time_threshold = 0.5 if sleeping else math.inf
    return space


def _add_static_boxes(space, boxes: StaticBoxes, friction: float, collision_type=0):
    for (cx, cy), (hx, hy) in zip(boxes.centres, boxes.half_extents, strict=True):
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        body.position = (cx, cy)
        shape = pymunk.Poly.create_box(body, (2 * hx, 2 * hy))
        shape.friction = math.sqrt(friction)
        shape.collision_type = collision_type
        space.add(body, shape)


def _state(bodies) -> tuple[np.ndarray, np.ndarray]:
    positions = np.array([tuple(b.position) for b in bodies], dtype=np.float64)
    angles = np.array([b.angle for b in bodies], dtype=np.float64)
    return positions, angles


def run_pyramid(scene: PyramidScene, steps: int, sleeping: bool = False) -> dict:
    space = _space(sleeping=sleeping)
    _add_static_boxes(space, scene.ground, scene.friction)
    bodies = []
    for x, y in scene.centres:
        body = pymunk.Body()
        body.position = (x, y)
        shape = pymunk.Poly.create_box(body, (scene.box_size, scene.box_size))
        shape.density = scene.density
        shape.friction = math.sqrt(scene.friction)
        shape.elasticity = scene.restitution
        space.add(body, shape)
        bodies.append(body)
    ms = timed_steps(lambda: space.step(DT), steps)
    return timing(ms) | pyramid_figures(scene, *_state(bodies))


def run_rain(scene: RainScene, steps: int, sleeping: bool = False) -> dict:
    space = _space(sleeping=sleeping)
    _add_static_boxes(space, scene.container, scene.friction)
    bodies = []
    for k in range(scene.size):
        body = pymunk.Body()
        body.position = tuple(scene.positions[k])
        body.angle = float(scene.angles[k])
        shape = pymunk.Poly(body, [tuple(v) for v in scene.polygon(k)])
        shape.density = scene.density
        shape.friction = math.sqrt(scene.friction)
        shape.elasticity = scene.restitution
        space.add(body, shape)
        bodies.append(body)
    ms = timed_steps(lambda: space.step(DT), steps)
    return timing(ms) | rain_figures(scene, _state(bodies)[0])


def run_bullets(scene: BulletsScene) -> dict:
    """First hit of every segment, one ``segment_query_first`` each (radius 0)."""
    space = _space()
    index = {}
    for h in range(len(scene.centres)):
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        body.position = tuple(scene.centres[h])
        body.angle = float(scene.angles[h])
        shape = pymunk.Poly(body, [tuple(v) for v in scene.hull_local(h)])
        space.add(body, shape)
        index[shape] = h
    space.reindex_static()

    starts = [tuple(p) for p in scene.starts]
    ends = [tuple(p) for p in scene.ends]
    query = space.segment_query_first
    everything = pymunk.ShapeFilter()
    with gc_paused():
        t0 = time.perf_counter()
        infos = [query(a, b, 0.0, everything) for a, b in zip(starts, ends, strict=True)]
        seconds = time.perf_counter() - t0

    m = len(starts)
    hits = RayHits(
        hit=np.zeros(m, dtype=bool),
        body=np.full(m, -1, dtype=np.int64),
        fraction=np.full(m, np.nan),
        point=np.full((m, 2), np.nan),
        normal=np.full((m, 2), np.nan),
    )
    for k, info in enumerate(infos):
        if info is not None:
            hits.hit[k] = True
            hits.body[k] = index[info.shape]
            hits.fraction[k] = info.alpha
            hits.point[k] = tuple(info.point)
            hits.normal[k] = tuple(info.normal)
    return {"seconds": seconds, "hits": int(hits.hit.sum()), "ray_hits": hits}


def run_crowd(scene: CrowdScene, steps: int) -> dict:
    """Sensor circles; a begin/separate handler keeps the number of overlapping pairs.

    Chipmunk integrates positions before it detects collisions, so the count after step k
    describes the positions after step k.
    """
    space = _space(gravity=(0.0, 0.0))
    _add_static_boxes(space, scene.walls, 0.5, collision_type=2)
    bodies = []
    for (x, y), r, (vx, vy) in zip(scene.centres, scene.radii, scene.velocities, strict=True):
        body = pymunk.Body()
        body.position = (x, y)
        body.velocity = (vx, vy)
        shape = pymunk.Circle(body, float(r))
        shape.density = scene.density
        shape.sensor = True
        shape.collision_type = 1
        space.add(body, shape)
        bodies.append(body)

    live = [0]

    def begin(arbiter, space, data):
        live[0] += 1

    def separate(arbiter, space, data):
        live[0] -= 1

    space.on_collision(1, 1, begin=begin, separate=separate)
    counts = np.zeros(steps, dtype=np.int64)
    samples = set(crowd_samples(steps))
    sampled = {}

    def after(k):
        counts[k - 1] = live[0]
        if k in samples:
            sampled[k] = _state(bodies)[0]

    ms = timed_steps(lambda: space.step(DT), steps, after)
    return timing(ms) | crowd_figures(counts, sampled, scene.radii)


def _revolute(space, a, b, local_a, local_b, lower=None, upper=None) -> None:
    """A pivot joint, and a rotary limit joint where limited (pymunk's revolute joint)."""
    parts = [pymunk.PivotJoint(a, b, tuple(map(float, local_a)), tuple(map(float, local_b)))]
    if lower is not None:
        parts.append(pymunk.RotaryLimitJoint(a, b, float(lower), float(upper)))
    for c in parts:
        c.collide_bodies = False
    space.add(*parts)


def run_joint_grid(scene: JointGridScene, steps: int) -> dict:
    """Every circle in one shape-filter group, so none collide. pymunk refuses a joint
    between two static bodies: the six joining the pins to each other (which do nothing)
    are left out."""
    space = _space()
    bodies = []
    no_self = pymunk.ShapeFilter(group=1)
    for (x, y), pinned in zip(scene.positions, scene.static, strict=True):
        body = pymunk.Body(body_type=pymunk.Body.STATIC if pinned else pymunk.Body.DYNAMIC)
        body.position = (x, y)
        shape = pymunk.Circle(body, scene.radius)
        shape.density = scene.density
        shape.filter = no_self
        space.add(body, shape)
        bodies.append(body)
    la, lb = scene.local_anchors()
    for (a, b), pa, pb in zip(scene.joint_bodies, la, lb, strict=True):
        if not (scene.static[a] and scene.static[b]):
            _revolute(space, bodies[a], bodies[b], pa, pb)
    # pymunk's grid tears apart at N >= 20 and its steps then slow without bound: stop once
    # a body is ten grid sizes away (the figures then show the tear; ms/step is the median
    # of the steps run).
    far = 10.0 * (float(np.ptp(scene.positions)) + 1.0)

    def torn(k):
        return k % 10 == 0 and any(abs(b.position.x) > far or abs(b.position.y) > far
                                   for b in bodies)

    ms = timed_steps(lambda: space.step(DT), steps, after=torn)
    return timing(ms) | joint_grid_figures(scene, *_state(bodies))


def run_ragdolls(scene: RagdollScene, steps: int, sleeping: bool = False) -> dict:
    space = _space(sleeping=sleeping)
    _add_static_boxes(space, scene.container, scene.friction)
    bodies = []
    for k in range(len(scene.positions)):
        body = pymunk.Body()
        body.position = tuple(scene.positions[k])
        body.velocity = tuple(scene.velocities[k])
        shape = pymunk.Segment(body, tuple(scene.bone_a[k]), tuple(scene.bone_b[k]),
                               float(scene.bone_radius[k]))
        shape.density = scene.density
        shape.friction = math.sqrt(scene.friction)
        shape.elasticity = scene.restitution
        shape.filter = pymunk.ShapeFilter(group=int(scene.group[k]))
        space.add(body, shape)
        bodies.append(body)
    la, lb = scene.local_anchors()
    for (a, b), pa, pb, lo, hi in zip(scene.joint_bodies, la, lb, scene.lower, scene.upper,
                                      strict=True):
        _revolute(space, bodies[a], bodies[b], pa, pb, lo, hi)
    ms = timed_steps(lambda: space.step(DT), steps)
    return timing(ms) | ragdoll_figures(scene, *_state(bodies))
