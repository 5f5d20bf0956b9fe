"""Box2D 2.3 (the ``Box2D`` wheel, pybox2d, as used by Gymnasium) adapter.

Settings: Box2D 2.3 defaults (warm starting, continuous physics, sleeping as asked) and the
iteration counts its manual and testbed recommend: ``world.Step(1/60, 8, 3)`` (velocity,
position iterations). Fixture friction defaults to 0.2 in 2.3, so every fixture, static
ones included, gets the scene's friction explicitly.

Sleeping is switched per body (``allowSleep``): in this wheel ``b2World(doSleep=False)`` and
``world.allowSleeping = False`` read back False, yet bodies still fall asleep (a B = 20
pyramid sleeps after ~250 steps and the rest of the run then costs nothing).
"""

from __future__ import annotations

import time

import numpy as np
from figures import (
    crowd_figures,
    crowd_samples,
    gc_paused,
    pyramid_figures,
    rain_figures,
    timed_steps,
    timing,
)
from scenes import BulletsScene, CrowdScene, PyramidScene, RainScene, RayHits, StaticBoxes

try:
    import Box2D
except ImportError as exc:  # reported by the runner, never a crash
    Box2D = None
    UNAVAILABLE = f"Box2D (2.3) not importable ({exc})"
else:
    UNAVAILABLE = None

NAME = "box2d-2.3"
DT = 1.0 / 60.0
VELOCITY_ITERATIONS = 8
POSITION_ITERATIONS = 3


def version() -> str:
    return f"Box2D {Box2D.__version__}" if Box2D else "-"


def _world(gravity=(0.0, -10.0), sleeping=False):
    return Box2D.b2World(gravity=gravity, doSleep=sleeping)  # not enough alone: see above


def _add_static_boxes(world, boxes: StaticBoxes, friction: float):
    for (cx, cy), (hx, hy) in zip(boxes.centres, boxes.half_extents, strict=True):
        body = world.CreateStaticBody(position=(float(cx), float(cy)))
        body.CreatePolygonFixture(box=(float(hx), float(hy)), friction=friction)


def _step(world):
    return lambda: world.Step(DT, VELOCITY_ITERATIONS, POSITION_ITERATIONS)


def _state(bodies) -> tuple[np.ndarray, np.ndarray]:
    positions = np.array([tuple(b.position) for b in bodies], dtype=np.float64)
    angles = np.array([b.angle for b in bodies], dtype=np.float64)
    return positions, angles


def run_pyramid(scene: PyramidScene, steps: int, sleeping: bool = False) -> dict:
    world = _world(sleeping=sleeping)
    _add_static_boxes(world, scene.ground, scene.friction)
    half = 0.5 * scene.box_size
    bodies = []
    for x, y in scene.centres:
        body = world.CreateDynamicBody(position=(float(x), float(y)), allowSleep=sleeping)
        body.CreatePolygonFixture(
            box=(half, half),
            density=scene.density,
            friction=scene.friction,
            restitution=scene.restitution,
        )
        bodies.append(body)
    ms = timed_steps(_step(world), steps)
    return timing(ms) | pyramid_figures(scene, *_state(bodies))


def run_rain(scene: RainScene, steps: int, sleeping: bool = False) -> dict:
    world = _world(sleeping=sleeping)
    _add_static_boxes(world, scene.container, scene.friction)
    bodies = []
    for k in range(scene.size):
        x, y = scene.positions[k]
        body = world.CreateDynamicBody(
            position=(float(x), float(y)), angle=float(scene.angles[k]), allowSleep=sleeping
        )
        body.CreatePolygonFixture(
            vertices=[tuple(v) for v in scene.polygon(k)],
            density=scene.density,
            friction=scene.friction,
            restitution=scene.restitution,
        )
        bodies.append(body)
    ms = timed_steps(_step(world), steps)
    return timing(ms) | rain_figures(scene, _state(bodies)[0])


def _closest_callback():
    """A ray-cast callback that keeps the closest fixture: returning the fraction clips the ray."""

    class Closest(Box2D.b2RayCastCallback):
        def ReportFixture(self, fixture, point, normal, fraction):  # noqa: N802 (Box2D's name)
            self.hit = (fixture, tuple(point), tuple(normal), fraction)
            return fraction

    return Closest()


def run_bullets(scene: BulletsScene) -> dict:
    """First hit of every segment, one ``world.RayCast`` with a closest-hit callback each."""
    world = _world()
    for h in range(len(scene.centres)):
        x, y = scene.centres[h]
        body = world.CreateStaticBody(position=(float(x), float(y)), angle=float(scene.angles[h]))
        body.CreatePolygonFixture(vertices=[tuple(v) for v in scene.hull_local(h)], userData=h)

    starts = [tuple(p) for p in scene.starts]
    ends = [tuple(p) for p in scene.ends]
    callback = _closest_callback()
    raycast = world.RayCast
    results = []
    with gc_paused():
        t0 = time.perf_counter()
        for a, b in zip(starts, ends, strict=True):
            callback.hit = None
            raycast(callback, a, b)
            results.append(callback.hit)
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
        if r is not None:
            fixture, point, normal, fraction = r
            hits.hit[k] = True
            hits.body[k] = fixture.userData
            hits.fraction[k] = fraction
            hits.point[k] = point
            hits.normal[k] = normal
    return {"seconds": seconds, "hits": int(hits.hit.sum()), "ray_hits": hits}


def run_crowd(scene: CrowdScene, steps: int) -> dict:
    """Sensor circles; a contact listener keeps the number of touching sensor-sensor contacts.

    Box2D 2.3 updates contacts at the start of ``Step`` and moves bodies after, so the count
    after step k describes the positions before step k (after step k - 1): those are the
    positions sampled for the brute-force check.
    """
    world = _world(gravity=(0.0, 0.0))
    _add_static_boxes(world, scene.walls, 0.5)  # walls are not sensors: never counted
    bodies = []
    for (x, y), r, (vx, vy) in zip(scene.centres, scene.radii, scene.velocities, strict=True):
        body = world.CreateDynamicBody(
            position=(float(x), float(y)),
            linearVelocity=(float(vx), float(vy)),
            allowSleep=False,
        )
        body.CreateCircleFixture(radius=float(r), density=scene.density, isSensor=True)
        bodies.append(body)

    live = [0]

    class Counter(Box2D.b2ContactListener):
        def BeginContact(self, contact):  # noqa: N802 (Box2D's name)
            if contact.fixtureA.sensor and contact.fixtureB.sensor:
                live[0] += 1

        def EndContact(self, contact):  # noqa: N802
            if contact.fixtureA.sensor and contact.fixtureB.sensor:
                live[0] -= 1

    listener = Counter()
    world.contactListener = listener
    counts = np.zeros(steps, dtype=np.int64)
    samples = set(crowd_samples(steps))
    sampled = {1: scene.centres.copy()} if 1 in samples else {}

    def after(k):
        counts[k - 1] = live[0]
        if k + 1 in samples:
            sampled[k + 1] = _state(bodies)[0]

    ms = timed_steps(_step(world), steps, after)
    return timing(ms) | crowd_figures(counts, sampled, scene.radii)
