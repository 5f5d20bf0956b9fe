"""Determinism: the same world and inputs give bit-identical states, run to run and process to
process (with different hash seeds, so no iteration order may depend on hashing or memory
addresses).

The oracle is the state itself: a SHA-256 of the snapshot bytes and of the positions,
velocities and angles after a busy scene (a pile falling into a box, removals and re-adds
mid-run, forces, sleeping) must be the same every time it is computed.
"""

from __future__ import annotations

import copy
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import collide2d as c2d

DT = 1.0 / 60.0
HERE = Path(__file__).resolve().parent


SEED = 20261121


def build(rng) -> c2d.World:
    # A heavy box on a light one in the corner takes adaptive substeps (8 of max_substeps).
    w = c2d.World(gravity=(0.0, -10.0), max_substeps=8)
    room = w.add_body(kind="static")
    room.add_box(12.0, 1.0, offset=(0.0, -0.5))
    room.add_box(1.0, 12.0, offset=(-6.5, 6.0))
    room.add_box(1.0, 12.0, offset=(6.5, 6.0))
    w.add_body(position=(-5.7, 0.25)).add_box(0.5, 0.5, density=1.0)
    w.add_body(position=(-5.7, 0.75)).add_box(0.5, 0.5, density=400.0)
    for i in range(40):
        b = w.add_body(position=(rng.uniform(-5.0, 5.0), 1.0 + 0.6 * i),
                       angle=rng.uniform(-3.0, 3.0))
        k = i % 4
        if k == 0:
            b.add_box(rng.uniform(0.3, 0.9), rng.uniform(0.3, 0.9))
        elif k == 1:
            b.add_circle(rng.uniform(0.15, 0.45), elasticity=0.3)
        elif k == 2:
            b.add_polygon([(0, 0), (0.8, 0), (0.8, 0.6), (0.4, 0.2), (0, 0.6)])
        else:
            b.add_segment((-0.3, 0.0), (0.3, 0.0), radius=0.12)
    return w


def drive(w: c2d.World, rng, start: int, stop: int) -> None:
    """Steps ``start..stop`` with their inputs: removals, re-adds and forces."""
    for step in range(start, stop):
        if step % 37 == 5:
            w.remove(w.bodies[1 + (step % (len(w.bodies) - 1))])
            b = w.add_body(position=(0.0, 9.0), velocity=(rng.uniform(-3, 3), 0.0))
            b.add_box(0.5, 0.5)
        if step % 11 == 0:
            last = w.bodies[-1]
            last.apply_force((rng.uniform(-20, 20), 30.0), point=last.position + (0.1, 0.0))
        w.step(DT)


def busy_scene(steps: int = 240) -> c2d.World:
    rng = np.random.default_rng(SEED)   # the inputs: fixed numbers, same everywhere
    w = build(rng)
    drive(w, rng, 0, steps)
    return w


def state_hash(w: c2d.World) -> str:
    h = hashlib.sha256()
    h.update(w.snapshot())
    for arr in (w.positions(), w.velocities(), w.angles()):
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


def scene_hash() -> str:
    return state_hash(busy_scene())


def test_same_inputs_same_bits_in_one_process():
    a = busy_scene()
    b = busy_scene()
    assert state_hash(a) == state_hash(b)
    assert len(a.contacts().shape_a) > 20   # a busy scene: many bodies in contact


def test_same_inputs_same_bits_across_processes():
    here = scene_hash()
    code = (f"import sys; sys.path.insert(0, {str(HERE)!r}); "
            "from test_trust_determinism import scene_hash; print(scene_hash())")
    hashes = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, timeout=600, check=True)
        hashes.append(out.stdout.strip().splitlines()[-1])
    assert hashes == [here, here]


def test_restore_midway_matches_the_uninterrupted_run():
    rng = np.random.default_rng(SEED)
    w = build(rng)
    drive(w, rng, 0, 120)
    twin = c2d.World.restore(w.snapshot())
    rng_twin = copy.deepcopy(rng)
    drive(w, rng, 120, 240)
    drive(twin, rng_twin, 120, 240)
    assert state_hash(twin) == state_hash(w) == state_hash(busy_scene(240))


def test_rewriting_a_pose_with_its_own_value_changes_no_bit():
    """A step reuses the shapes' world vertices when nothing moved since the last step and
    recomputes them after any pose write; both ways must give the same bits."""
    rng = np.random.default_rng(SEED)
    plain = build(rng)
    drive(plain, rng, 0, 120)
    rng = np.random.default_rng(SEED)
    touched = build(rng)
    for step in range(120):
        drive(touched, rng, step, step + 1)
        # Not the corner pair: it falls asleep, and waking it changes the step for real.
        b = touched.bodies[3 + step % (len(touched.bodies) - 3)]
        b.position = b.position.copy()   # same value: marks the poses changed (and wakes b)
        b.angle = b.angle
    assert state_hash(touched) == state_hash(plain)


def short_scene_hash(steps: int = 120) -> str:
    rng = np.random.default_rng(SEED)
    w = build(rng)
    drive(w, rng, 0, steps)
    return state_hash(w)


def test_compiled_and_pure_python_kernels_give_the_same_bits():
    """No fast-math in the kernels: a world replays exactly where Numba is missing (or on a
    CPU with other instructions), so lockstep games and snapshots carry across."""
    code = (f"import sys; sys.path.insert(0, {str(HERE)!r}); "
            "from test_trust_determinism import short_scene_hash; print(short_scene_hash())")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env,
                         capture_output=True, text=True, timeout=600, check=True)
    assert out.stdout.strip().splitlines()[-1] == short_scene_hash()
