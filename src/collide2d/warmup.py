"""Compile every kernel ahead of time: ``python -m collide2d warmup``.

Each kernel compiles on its first call and is then cached on disk, so a program's first
``world.step`` or first query can spend tens of seconds compiling. Warm-up pays that once,
with a progress report, by calling each public entry point on tiny inputs: a small world
stepped with contacts, sensors, bullets, arcade bodies and sleeping; every query; the
geometry functions in their one-call and batch forms; particles; the character mover on a
tile map; snapshots. Only the public API is used, so warm-up follows the kernels wherever
they move.
"""

from __future__ import annotations

import copy
import sys
import time
from collections.abc import Callable

import numpy as np

DT = 1.0 / 60.0
_SQUARE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
_CONCAVE = [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0), (2.0, 1.0), (0.0, 3.0)]


def _geometry_one_call(c2d) -> None:
    tri = [(0.5, 0.2), (1.5, 0.2), (1.0, 1.4)]
    c2d.segment_intersection((0, 0), (2, 2), (0, 2), (2, 0))
    c2d.point_in_polygon((0.5, 0.5), _SQUARE)
    c2d.points_in_polygon([(0.5, 0.5), (3.0, 3.0)], _CONCAVE)
    c2d.segment_polygon((-1, 0.5), (2, 0.5), _SQUARE)
    c2d.segment_polygon((-1, 0.5), (2, 0.5), c2d.Circle((0.5, 0.5), 0.5))
    c2d.clip_segment((-1, 0.5), (2, 0.5), _SQUARE)
    c2d.polygons_overlap(_SQUARE, tri)
    c2d.penetration(_SQUARE, tri)
    c2d.penetration(_SQUARE, c2d.Circle((1.2, 0.5), 0.4))
    c2d.sweep(_SQUARE, (3, 0), c2d.Circle((4, 0.5), 0.5))
    c2d.sweep(_SQUARE, (3, 0), tri, (-1, 0))
    c2d.contact_points(_SQUARE, tri)
    c2d.contact_points(_SQUARE, c2d.Circle((1.2, 0.5), 0.4))
    c2d.polygon_mass(_SQUARE, density=2.0)
    c2d.convex_hull([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])
    c2d.is_convex(_CONCAVE)
    c2d.decompose(_CONCAVE)


def _geometry_batch(c2d) -> None:
    rng = np.random.default_rng(1)
    a = rng.uniform(-2, 2, (8, 2))
    b = rng.uniform(-2, 2, (8, 2))
    c2d.segment_intersection_many(a, b, b[::-1], a[::-1])
    pool = c2d.pack_shapes([_SQUARE, c2d.Circle((3, 0), 1.0), [(5, 0), (6, 0), (5.5, 1)]])
    c2d.segment_polygon_many(a, b, pool)
    c2d.clip_segment_many(a, b, _SQUARE)
    pairs = np.array([[0, 1], [0, 2], [1, 2]])
    c2d.polygons_overlap_many(pool, pairs)
    c2d.penetration_many(pool, pairs)
    c2d.sweep_many(pool, pairs, np.ones((3, 2)))


def _world(c2d, state: dict) -> None:
    """Contacts of every shape pair kind, a sensor, a bullet, an arcade body, callbacks."""
    w = c2d.World(gravity=(0.0, -10.0))
    ground = w.add_body(kind="static")
    ground.add_box(20.0, 1.0, offset=(0.0, -0.5))
    ground.add_segment((-10.0, 0.0), (-10.0, 5.0))
    ground.add_polygon([(c[0] + 6, c[1]) for c in _CONCAVE])
    w.add_body(kind="static", position=(0.0, 3.0)).add_circle(1.0, sensor=True)
    w.add_body(position=(0.0, 0.5)).add_box(1.0, 1.0)
    w.add_body(position=(0.1, 1.6), angle=0.2).add_box(1.0, 1.0, density=5.0)
    w.add_body(position=(-1.5, 0.5)).add_circle(0.5, elasticity=0.5)
    w.add_body(position=(1.5, 0.6)).add_segment((-0.4, 0.0), (0.4, 0.0), radius=0.15)
    w.add_body(position=(-3.0, 0.5)).add_polygon([(0, 0), (0.8, 0), (0.4, 0.7)], radius=0.05)
    w.add_body(position=(-8.0, 0.5), velocity=(300.0, 0.0), bullet=True).add_circle(0.05)
    w.add_body(position=(3.0, 0.6), arcade=True, velocity=(2.0, 0.0)).add_box(0.5, 0.5)
    w.add_body(kind="kinematic", position=(-5.0, 2.0), velocity=(1.0, 0.0)).add_box(1.0, 0.2)
    events = []
    w.on_contact_begin(events.append)
    w.on_contact_end(events.append)
    w.on_sensor_begin(events.append)
    for _ in range(4):
        w.step(DT)
    w.contacts()
    w.contact_begin_events()
    w.contact_end_events()
    w.sensor_overlaps()
    box = w.bodies[-1]
    box.apply_force((0.0, 20.0), point=(-5.0, 2.1))
    box.apply_impulse((1.0, 0.0))
    box.apply_torque(1.0)
    w.remove(w.bodies[5])
    w.step(DT)
    state["world"] = w


def _world_variants(c2d, state: dict) -> None:
    """Adaptive substeps, another integrator and response, and a world falling asleep."""
    w = state["world"]
    w.max_substeps = 8
    w.step(DT)
    quiet = c2d.World(gravity=(0.0, -10.0))
    quiet.add_body(kind="static").add_box(10.0, 1.0, offset=(0.0, -0.5))
    quiet.add_body(position=(0.0, 0.5)).add_box(1.0, 1.0)
    for _ in range(40):  # the box settles and its island sleeps
        quiet.step(0.1)


def _queries(c2d, state: dict) -> None:
    fresh = c2d.World()  # queried before any step: shapes are placed by the query itself
    fresh.add_body(position=(0.0, 1.0)).add_box(1.0, 1.0)
    fresh.query_point((0.0, 1.0))
    w = state["world"]
    pts = np.array([(0.0, 0.5), (5.0, 5.0), (-1.5, 0.5)])
    flt = c2d.QueryFilter(mask=0xFFFF)
    w.raycast((0.0, 10.0), (0.0, -10.0))
    w.raycast((0.0, 10.0), (0.0, -10.0), flt)
    w.raycast_all((-10.0, 0.5), (10.0, 0.5))
    w.raycast_many(pts + (0.0, 5.0), pts - (0.0, 5.0))
    w.query_point((0.0, 0.5))
    w.query_points(pts)
    w.query_aabb((-1.0, -1.0), (1.0, 1.0))
    w.query_shape(c2d.Circle((0.0, 0.5), 0.7))
    w.query_shape([(-1.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
    w.shape_cast([(0.0, 0.0), (0.5, 0.0), (0.5, 0.5)], start=(0.0, 5.0), end=(0.0, -5.0))
    w.shape_cast(c2d.Circle((0.0, 0.0), 0.3), start=(-5.0, 0.5), end=(5.0, 0.5))


def _particles(c2d, state: dict) -> None:
    w = state["world"]
    pos = np.column_stack([np.linspace(-3.0, 3.0, 12), np.full(12, 3.0)])
    vel = np.tile((0.0, -40.0), (12, 1))
    stop = w.add_particles(pos, vel)
    bounce = w.add_particles(pos, vel, on_hit="bounce", elasticity=0.5, drag=0.1)
    w.add_particles(pos, vel, on_hit="pass")
    for _ in range(3):
        w.step(DT)
    stop.hits  # noqa: B018 - reading the hit arrays is part of the warm-up
    bounce.remove_dead()


def _character(c2d, state: dict) -> None:
    w = c2d.World(gravity=(0.0, -10.0))
    grid = np.zeros((6, 12), dtype=np.int64)
    grid[0, :] = 1
    grid[:, 0] = 1
    grid[2, 6:9] = 2
    tiles = w.add_tilemap(grid, tile_size=1.0)
    tiles.set_response(2, "oneway")
    tiles.set_tile(1, 4, 1)
    slope = w.add_body(kind="static")
    slope.add_polygon([(9.0, 1.0), (11.0, 1.0), (11.0, 2.0)])
    lift = w.add_body(kind="kinematic", position=(3.0, 2.0), velocity=(0.0, 0.5))
    lift.add_box(1.5, 0.2)
    hero = w.add_body(kind="kinematic", position=(2.5, 1.5))
    hero.add_box(0.6, 0.9)
    other = w.add_body(kind="kinematic", position=(7.0, 4.0))
    other.add_circle(0.3)
    for k in range(4):
        w.move_and_slide(hero, (3.0, -5.0 if k % 2 else 6.0), DT, up=(0, 1))
        w.move_and_slide_many([other], [(2.0, -3.0)], DT)
        w.step(DT)
    state["character_world"] = w


def _snapshots(c2d, state: dict) -> None:
    for key in ("world", "character_world"):
        w = state[key]
        again = c2d.World.restore(w.snapshot())
        again.step(DT)
        copy.deepcopy(w).step(DT)


def _world_batch(c2d, state: dict) -> None:
    """WorldBatch's kernels: the batched step, the per-world reads and writes, the batched
    ray cast."""
    import numpy as np

    w = c2d.World()
    ground = w.add_body(kind="static")
    ground.add_box(10, 1)
    arm = w.add_body(position=(0, 2))
    arm.add_box(1, 1)
    w.add_revolute_joint(ground, arm, (0, 1.5), motor_speed=1.0, max_motor_torque=1.0)
    w.set_motors(w.joints, [1.0], [1.0])
    batch = c2d.WorldBatch(w, 2)
    ids = [arm.id]
    batch.apply_impulses(ids, np.zeros((2, 1, 2)), np.zeros((2, 1, 2)))
    batch.apply_forces(ids, np.zeros((2, 1, 2)))
    batch.apply_torques(ids, np.zeros((2, 1)))
    batch.set_motors([0], np.ones((2, 1)), np.ones((2, 1)))
    batch.step(DT)
    batch.body_states(ids)
    batch.contact_events((0, 0))
    batch.raycast(np.zeros((1, 2)), np.ones((1, 2)))
    batch.reset([0, 1])


def _vector_envs(c2d, state: dict) -> None:
    """The vector environments' own kernels (``collide2d.envs``), when Gymnasium is
    installed: a LunarLander and a BipedalWalker vector environment stepped."""
    try:
        import gymnasium as gym
    except ImportError:
        return
    import collide2d.envs  # noqa: F401

    for env_id in ("collide2d/LunarLander-v3", "collide2d/BipedalWalker-v3"):
        envs = gym.make_vec(env_id, num_envs=2)
        envs.reset(seed=0)
        envs.step(envs.action_space.sample())
        envs.reset()  # (unseeded: the lander's episodes from its draws ahead)
        envs.close()


def steps() -> list[tuple[str, Callable]]:
    """(label, function of (collide2d, state)) for each warm-up stage, in order."""
    # What most programs need first comes first: a program running uncompiled meanwhile
    # switches its step and queries as soon as their stages are done (``_tiers.EARLY``).
    return [
        ("world step", _world),
        ("world step variants", _world_variants),
        ("queries", _queries),
        ("particles", _particles),
        ("geometry, one call", lambda c2d, st: _geometry_one_call(c2d)),
        ("geometry, batch", lambda c2d, st: _geometry_batch(c2d)),
        ("character mover, tile map", _character),
        ("snapshots", _snapshots),
        ("world batch", _world_batch),
        ("vector environments", _vector_envs),
    ]


def run(out=None) -> float:
    """Run every warm-up stage, reporting progress to ``out`` (stderr); return seconds."""
    import collide2d as c2d

    from . import _jit, _tiers

    out = sys.stderr if out is None else out
    _jit.silence_first_use_notice()  # this report says it better
    _tiers.use("compiled")
    if not _jit.JIT_ENABLED:
        print("collide2d warmup: Numba is not in use (missing or NUMBA_DISABLE_JIT); "
              "nothing to compile.", file=out, flush=True)
    todo = steps()
    width = len(str(len(todo)))
    state: dict = {}
    start = time.perf_counter()
    for k, (label, fn) in enumerate(todo, 1):
        print(f"[{k:>{width}}/{len(todo)}] {label} ...", end=" ", file=out, flush=True)
        t0 = time.perf_counter()
        fn(c2d, state)
        if _jit.JIT_ENABLED and label in _tiers.EARLY:
            _tiers.write_stage_stamp(label)
        print(f"{time.perf_counter() - t0:.1f} s", file=out, flush=True)
    total = time.perf_counter() - start
    if _jit.JIT_ENABLED:
        _tiers.write_stamp()  # programs now start compiled
    print(f"collide2d warmup: done in {total:.1f} s.", file=out)
    if _jit.JIT_ENABLED:
        print(f"Compiled kernels are cached in {_jit.cache_dir(_any_kernel())}", file=out,
              flush=True)
    return total


def run_background() -> int:
    """``warmup --background``: what a program that found the cache cold starts. Runs only
    if no other process holds the lock (it then exits at once: that one writes the cache)."""
    from . import _jit, _tiers

    if not _jit.JIT_ENABLED:
        return 0
    if not _tiers.acquire_lock():
        return 0
    try:
        run(sys.stdout)
    finally:
        _tiers.release_lock()
    return 0


def _any_kernel():
    """A compiled kernel's dispatcher: Numba's cache knows where it writes."""
    from ._kernels import step

    for value in vars(step).values():
        if hasattr(value, "_cache") and hasattr(value, "py_func"):
            return value
    return None
