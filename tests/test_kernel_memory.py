"""Compiled kernels free what they allocate: steps, queries, particles, the character mover
and the world batch.

Some kernels count references (those that allocate) and some do not (the step, the hot
loops and the geometry leaves). A kernel without counting that took an array from a counted
one would never free it, and one that handed an argument back would free it too early:
both are silent in every other test. Numba's allocation statistics (``NUMBA_NRT_STATS``,
read at import, hence a subprocess) show the first as memory still held that grows with
every step.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import collide2d
from collide2d import _jit

SRC = str(Path(collide2d.__file__).resolve().parent.parent)

SCENE = textwrap.dedent("""
    import gc
    import numpy as np
    import collide2d as c2d
    from numba.core.runtime import rtsys

    def world():
        w = c2d.World(gravity=(0, -10))
        ground = w.add_body(kind="static")
        ground.add_box(40, 1, offset=(0, -0.5))
        ground.add_segment((-20, 0), (-20, 10))
        ground.add_box(2, 2, offset=(8, 5), sensor=True)
        w.add_body(kind="kinematic", position=(-6, 4), velocity=(0.5, 0)).add_box(3, 0.2)
        for k in range(8):                            # a column of boxes
            w.add_body(position=(0, 0.5 + k)).add_box(1, 1)
        for k in range(4):                            # circles and capsules, bouncing
            w.add_body(position=(3 + k, 2 + k)).add_circle(0.3, elasticity=0.8)
            w.add_body(position=(-3 - k, 2 + k)).add_segment((-0.4, 0), (0.4, 0), radius=0.1)
        a = w.add_body(position=(10, 3))
        a.add_box(1, 0.4)
        b = w.add_body(position=(11, 3))
        b.add_box(1, 0.4)
        w.add_revolute_joint(a, b, (10.5, 3), lower_angle=-0.5, upper_angle=0.5,
                             motor_speed=1.0, max_motor_torque=5.0)
        w.add_distance_joint(a, ground, (10, 3), (10, 8))
        return w

    w = world()
    batch = c2d.WorldBatch(world(), 4)
    grid = np.zeros((8, 12), dtype=np.int64)
    grid[0, :] = 1
    grid[3, 4:7] = 1
    w.add_tilemap(grid, tile_size=1.0, origin=(20, 0))
    hero = w.add_body(kind="kinematic", position=(22.5, 1.5))
    hero.add_box(0.8, 0.8)
    rng = np.random.default_rng(0)
    balls = w.add_particles(rng.uniform((-5, 5), (5, 12), (30, 2)),
                            rng.uniform(-20, 20, (30, 2)), on_hit="bounce")
    starts = np.array([[-15.0, 5.0], [0.0, 20.0], [5.0, 20.0]])
    ends = np.array([[15.0, 5.0], [0.0, -1.0], [5.0, -1.0]])

    def rounds(n):
        for i in range(n):
            if i % 20 == 0:                           # a fast bullet through the column
                shot = w.add_body(position=(-10, 3), velocity=(400, 0), bullet=True)
                shot.add_circle(0.1)
            w.step(1 / 60)
            w.raycast_many(starts, ends)
            w.query_point((0, 3))
            w.query_aabb((-1, 0), (1, 2))
            w.contacts()
            w.query_shape(c2d.Circle((0, 2), 1.5))
            w.shape_cast([(0, 0), (1, 0), (1, 1)], start=(-2, 9), end=(-2, -1))
            w.move_and_slide(hero, (4 if i % 40 < 20 else -4, -3), 1 / 60, up=(0, 1))
            batch.step(1 / 60)
            batch.raycast(starts, ends)
            batch.contact_events((0, 0))

    def held():
        gc.collect()
        s = rtsys.get_allocation_stats()
        return s.alloc - s.free, s.mi_alloc - s.mi_free

    rounds(40)
    held_at = []
    for _ in range(3):
        rounds(40)
        held_at += held()
    print(*held_at)
""")


def _run_with_stats(script: str, cwd) -> str:
    """``script`` run in a fresh interpreter with Numba's allocation statistics on; its
    output."""
    env = dict(os.environ, NUMBA_NRT_STATS="1", COLLIDE2D_QUIET="1",
               COLLIDE2D_BACKGROUND_COMPILE="0")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=900, cwd=cwd)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


@pytest.mark.skipif(not _jit.JIT_ENABLED, reason="nothing is compiled without Numba")
def test_steps_and_queries_hold_no_more_memory_as_they_go(tmp_path):
    out = _run_with_stats(SCENE, tmp_path)
    # Caches fill once (a world's views in a typed list per contact table: a counted
    # reference to each array); after that, nothing more is held, round after round.
    held = [int(v) for v in out.split()]
    assert held[2:4] == held[4:6], out


SMALL = textwrap.dedent("""
    import collide2d as c2d
    from numba.core.runtime import rtsys

    def per_step(w):
        for _ in range(30):
            w.step(1 / 60)
        before = rtsys.get_allocation_stats().alloc
        for _ in range(200):
            w.step(1 / 60)
        return (rtsys.get_allocation_stats().alloc - before) / 200

    w = c2d.World(gravity=(0.0, -10.0))
    w.sleeping = False
    w.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5))
    for k in range(3):
        w.add_body(position=(0.0, 0.5 + k)).add_box(1.0, 1.0)
    w.add_body(position=(3.0, 0.4), angular_velocity=-3.0).add_circle(0.4)
    touching = per_step(w)
    # (sleeping off: an empty world with it on is still and skips the compiled call)
    empty = per_step(c2d.World(gravity=(0.0, -10.0), sleeping=False))
    # A box landing flat and a ball, bouncy, dropped in turn: restitution's block of two
    # points and its point by point path both run in the timed steps.
    def bouncy():
        b = c2d.World(gravity=(0.0, -10.0), sleeping=False)
        b.add_body(kind="static").add_box(20.0, 1.0, offset=(0.0, -0.5), elasticity=0.8)
        box = b.add_body(position=(-3.0, 2.0))
        box.add_box(1.0, 1.0, elasticity=0.8)
        ball = b.add_body(position=(3.0, 4.0))
        ball.add_circle(0.4, elasticity=0.8)
        return b, box, ball

    bouncing = per_step(bouncy()[0])
    # Its twin, stepped alike (the same bits) outside the count: how fast each leaves.
    b, box, ball = bouncy()
    up = [0.0, 0.0]
    for k in range(230):
        b.step(1 / 60)
        if k >= 30:
            up = [max(up[0], box.velocity[1]), max(up[1], ball.velocity[1])]
    print(len(w.contacts().shape_a), touching, empty, bouncing, *up)
""")


@pytest.mark.skipif(not _jit.JIT_ENABLED, reason="nothing is compiled without Numba")
def test_a_small_world_in_contact_allocates_no_more_than_an_empty_one(tmp_path):
    # A column of boxes on the floor and a rolling ball, awake: polygons meet polygons and
    # a circle, every step finds and solves contacts. The narrowphase works in the step
    # buffers' room and restitution in locals: per step, nothing is allocated beyond what
    # an empty world's step allocates.
    touching, per_step, empty, bouncing, box_up, ball_up = _run_with_stats(
        SMALL, tmp_path).split()
    assert int(touching) == 4  # each box on the one below or the floor, the ball on it
    assert float(per_step) == float(empty)
    # Both bounce in the timed steps (landing at some 6 and 8 m/s, e = 0.8: they leave
    # upwards at several m/s), and allocate nothing more for it.
    assert float(box_up) > 2.0 and float(ball_up) > 2.0
    assert float(bouncing) == float(empty)
