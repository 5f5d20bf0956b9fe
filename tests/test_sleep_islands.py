"""The sleep stage's islands against a breadth-first search written here.

``update_sleep`` takes a short cut when every sleeper has a full clock (only the awake
bodies and the links' ends enter its union-find); the search below knows nothing of it:
it advances the awake bodies' rest clocks, finds every island by walking the links, and
puts each island to sleep or wakes it from its least-rested live member. Random worlds of
static, kinematic, dynamic, dead, awake and sleeping bodies, touching and non-touching,
solid and sensor contacts, enabled and disabled joints, with and without sleepers short
of their time (the full union-find), must end alike, flag for flag and bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from collide2d import _tiers
from collide2d._kernels.constants import (
    B_ALIVE,
    B_AWAKE,
    C_TOUCHING,
    DYNAMIC,
    J_ALIVE,
    J_ENABLED,
    KINEMATIC,
    SENSOR,
    SOLID,
    STATIC,
)

pytestmark = pytest.mark.nojit

DT = 1.0 / 60.0
LIN, ANG, TTS = 0.05, 0.05, 0.5


def _random_world(rng, n, n_contacts, n_joints, short):
    kind = rng.choice([STATIC, KINEMATIC, DYNAMIC, DYNAMIC, DYNAMIC], n).astype(np.int8)
    flags = np.where(rng.random(n) < 0.9, B_ALIVE, 0).astype(np.int32)
    awake = (rng.random(n) < 0.15) & (flags != 0)
    flags[awake] |= B_AWAKE
    # Awake bodies: any clock; sleepers: full clocks, unless a few are short (the user
    # put them to sleep).
    sleep_time = np.where(awake, rng.choice([0.0, 0.2, TTS - DT / 2, TTS, 1.0], n),
                          rng.choice([TTS, TTS + 0.3, 2.0], n))
    if short:
        sleep_time[rng.choice(n, 2, replace=False)] = 0.1
    vel = np.where(rng.random((n, 1)) < 0.5, 0.0, rng.normal(0, 0.06, (n, 2)))
    vel[~awake] = 0.0
    angvel = np.where(awake & (rng.random(n) < 0.3), rng.normal(0, 0.06, n), 0.0)
    # Shapes: one per body, so shape row == body slot.
    s_body = np.arange(n, dtype=np.int64)
    c_a = rng.integers(0, n, n_contacts)
    c_b = rng.integers(0, n, n_contacts)
    c_resp = rng.choice(np.array([SOLID, SOLID, SOLID, SENSOR], dtype=np.int8), n_contacts)
    c_flags = np.where(rng.random(n_contacts) < 0.85, C_TOUCHING, 0).astype(np.int64)
    j_a = np.where(rng.random(n_joints) < 0.1, -1, rng.integers(0, n, n_joints))
    j_b = rng.integers(0, n, n_joints)
    j_flags = rng.choice(np.array([J_ALIVE | J_ENABLED, J_ALIVE | J_ENABLED, J_ALIVE, 0],
                                  dtype=np.int32), n_joints)
    return (kind, flags, vel, angvel, sleep_time, s_body, (c_a, c_b, c_resp, c_flags),
            (j_a, j_b, j_flags))


def _expected(kind, flags, vel, angvel, sleep_time, contacts, joints):
    """The rest clocks, then islands found by a breadth-first search over touching solid
    contacts and enabled joints between dynamic bodies."""
    flags, vel, angvel, sleep_time = flags.copy(), vel.copy(), angvel.copy(), sleep_time.copy()
    n = len(kind)
    live = [kind[b] == DYNAMIC and flags[b] & B_ALIVE for b in range(n)]
    restless = False
    for b in range(n):
        if not live[b]:
            continue
        if flags[b] & B_AWAKE:
            restless = True
            fast = (vel[b, 0] ** 2 + vel[b, 1] ** 2 > LIN * LIN) or abs(angvel[b]) > ANG
            sleep_time[b] = 0.0 if fast else sleep_time[b] + DT
        elif sleep_time[b] < TTS:
            restless = True
    if not restless:
        return flags, vel, angvel, sleep_time
    edges = [[] for _ in range(n)]
    c_a, c_b, c_resp, c_flags = contacts
    pairs = [(c_a[i], c_b[i]) for i in range(len(c_a))
             if c_resp[i] == SOLID and c_flags[i] & C_TOUCHING]
    j_a, j_b, j_flags = joints
    pairs += [(j_a[j], j_b[j]) for j in range(len(j_a))
              if j_flags[j] & J_ALIVE and j_flags[j] & J_ENABLED and j_a[j] >= 0]
    for a, b in pairs:
        if kind[a] == DYNAMIC and kind[b] == DYNAMIC:
            edges[a].append(b)
            edges[b].append(a)
    seen = [False] * n
    for start in range(n):
        if seen[start] or kind[start] != DYNAMIC:
            continue
        island, todo = [], [start]
        seen[start] = True
        while todo:
            x = todo.pop()
            island.append(x)
            for y in edges[x]:
                if not seen[y]:
                    seen[y] = True
                    todo.append(y)
        least = min((sleep_time[x] for x in island if live[x]), default=np.inf)
        for x in island:
            if not live[x]:
                continue
            if least >= TTS:
                if flags[x] & B_AWAKE:
                    flags[x] &= ~B_AWAKE
                    vel[x] = 0.0
                    angvel[x] = 0.0
            else:
                flags[x] |= B_AWAKE
    return flags, vel, angvel, sleep_time


@pytest.mark.parametrize("short", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_islands_fall_asleep_and_wake_as_a_search_finds_them(seed, short):
    islands = _tiers._twin("islands")
    views = _tiers._twin("views")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    kind, flags, vel, angvel, sleep_time, s_body, contacts, joints = _random_world(
        rng, n, int(rng.integers(0, 2 * n)), int(rng.integers(0, n // 3 + 1)), short)
    want = _expected(kind, flags, vel, angvel, sleep_time, contacts, joints)
    bodies = views.BodyView(*(None for _ in views.BodyView._fields))._replace(
        kind=kind, flags=flags.copy(), vel=vel.copy(), angvel=angvel.copy(),
        sleep_time=sleep_time.copy())
    none = np.zeros(0, dtype=np.int64)
    links = islands.Links(*contacts, s_body, *joints, len(joints[0]), none, none,
                          none.astype(np.int8), none, none.astype(np.bool_))
    islands.update_sleep(n, bodies, links, DT, (LIN, ANG, TTS), True, False,
                         np.full(n, -7, dtype=np.int64), np.full(n, -7.0))
    got = (bodies.flags, bodies.vel, bodies.angvel, bodies.sleep_time)
    for name, g, w in zip(("flags", "vel", "angvel", "sleep_time"), got, want, strict=True):
        assert np.array_equal(g, w), name
