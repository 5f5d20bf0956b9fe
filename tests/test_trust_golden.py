"""Golden hashes: restructuring the engine must not move a bit.

Each scene's state (snapshot bytes, positions, velocities, angles, and the subsystem's own
arrays) is hashed after a fixed run and compared with the SHA-256 recorded before the state
model was restructured. A change that alters physics on purpose updates these constants in
the same commit and says why; any other change must leave them alone.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from test_trust_determinism import busy_scene, state_hash

import collide2d as c2d

DT = 1.0 / 60.0


def _hash(*arrays) -> str:
    h = hashlib.sha256()
    for arr in arrays:
        if isinstance(arr, bytes):
            h.update(arr)
        else:
            h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


def stack_and_rain() -> str:
    """A 10-box pyramid, 60 polygons raining on it, bullets and restitution."""
    rng = np.random.default_rng(5)
    w = c2d.World(gravity=(0.0, -10.0))
    ground = w.add_body(kind="static")
    ground.add_box(40.0, 1.0, offset=(0.0, -0.5))
    ground.add_box(1.0, 30.0, offset=(-15.0, 15.0))
    ground.add_box(1.0, 30.0, offset=(15.0, 15.0))
    base = 10
    for row in range(base):
        for i in range(base - row):
            w.add_body(position=(i - (base - row - 1) / 2, 0.5 + row)).add_box(1.0, 1.0)
    for k in range(60):
        n = int(rng.integers(3, 9))
        r = rng.uniform(0.3, 0.5)
        verts = [(r * np.cos(2 * np.pi * j / n), r * np.sin(2 * np.pi * j / n))
                 for j in range(n)]
        b = w.add_body(position=(-12.0 + 0.8 * (k % 30), 14.0 + 1.2 * (k // 30)),
                       angle=rng.uniform(0, 6.28))
        b.add_polygon(verts, elasticity=0.2 * (k % 3))
    for k in range(4):
        bullet = w.add_body(position=(-13.0, 3.0 + k), velocity=(300.0, 0.0), bullet=True)
        bullet.add_circle(0.05, density=5.0)
    for _ in range(200):
        w.step(DT)
    return _hash(w.snapshot(), w.positions(), w.velocities(), w.angles())


def particles_scene() -> str:
    w = c2d.World(gravity=(0.0, -10.0))
    room = w.add_body(kind="static")
    room.add_box(20.0, 1.0, offset=(0.0, -0.5))
    room.add_box(1.0, 20.0, offset=(-10.0, 10.0))
    room.add_box(1.0, 20.0, offset=(10.0, 10.0))
    w.add_body(position=(0.0, 2.0), angle=0.3).add_box(2.0, 1.0)
    rng = np.random.default_rng(9)
    pos = rng.uniform(-8.0, 8.0, (300, 2)) + (0.0, 10.0)
    vel = rng.uniform(-40.0, 40.0, (300, 2))
    p = w.add_particles(pos, vel, on_hit="bounce", elasticity=0.7)
    q = w.add_particles(pos[:50], vel[:50])
    for _ in range(120):
        w.step(DT)
    return _hash(w.snapshot(), p.positions, p.velocities, q.positions, w.positions())


def character_scene() -> str:
    w = c2d.World(gravity=(0.0, -10.0))
    rows = ["..........",
            "....##....",
            "..........",
            "##......##",
            "##########"]
    grid = np.array([[c == "#" for c in row] for row in rows[::-1]])
    w.add_tilemap(grid, tile_size=1.0, origin=(0.0, 0.0))
    slope = w.add_body(kind="static")
    slope.add_polygon([(10.0, 1.0), (14.0, 1.0), (14.0, 3.0)])
    lift = w.add_body(kind="kinematic", position=(6.0, 2.0), velocity=(0.0, 0.5))
    lift.add_box(1.5, 0.2)
    hero = w.add_body(kind="kinematic", position=(3.0, 2.5))
    hero.add_box(0.6, 0.9)
    other = w.add_body(kind="kinematic", position=(7.0, 4.0))
    other.add_circle(0.3)
    out = []
    for step in range(240):
        vx = 3.0 if (step // 60) % 2 == 0 else -2.0
        r = w.move_and_slide(hero, (vx, -5.0 if step % 30 else 6.0), DT)
        rs = w.move_and_slide_many([other], [(2.0, -3.0)], DT)
        out.append(r.position)
        out.append(rs.position)
        w.step(DT)
    return _hash(w.snapshot(), np.concatenate([np.ravel(o) for o in out]))


GOLDEN = {
    "busy": "157d6499585d6d69eb068612b24258fa5f4d7efb821ac9d9ea79be4b2aaaa87d",
    "stack_and_rain": "4168cbb2d4dc7038a562637a546c05430d45c10b12197bc5e458f5bbb9134df9",
    "particles": "0692e6aee5ce61a63b2df96cb07624b2751765c961b2bbd8749b8892c8120211",
    "character": "5f858b7122788edc463a3e1ed29f8844a28f16a69a852b9a3053dc8df3d75013",
}

SCENES = {
    "busy": lambda: state_hash(busy_scene()),
    "stack_and_rain": stack_and_rain,
    "particles": particles_scene,
    "character": character_scene,
}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_scene_hash_is_unchanged(name):
    assert SCENES[name]() == GOLDEN[name]
