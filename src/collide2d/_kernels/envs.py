"""The vector environments' work over every world: what a LunarLander's engines push and
where, a BipedalWalker's motors; then each world's contact events, observation, reward,
termination, truncation and next auto-reset, read from its bodies.

LunarLander's vector step is one call (``lander_step``): each world's engines, its physics
step (the batch's own per-world code) and its result in one pass, while the world's memory
is in the caches; ``lander_after`` reads the result of the few rows whose step the batch
had to finish itself (a table grew). The walker's is the same (``walker_step``: its motors,
step and result; ``walker_after`` for the rows the batch finished), then the batch's ray
cast for its lidar.

The arithmetic is the single environments' (``envs/lunar_lander.py``,
``envs/bipedal_walker.py``) in their order, so every row gets their bits; the bodies are
read, pushed and their events counted by ``worlds.py``'s per-world functions, as
``WorldBatch``'s own calls do. Constants come in as tuples from the environment modules,
which own them. A vector step in NumPy around the batch's separate calls made some hundred
array operations, a microsecond each however few the rows: one environment's vector step
took 216 us, now 108.
"""

import math

import numpy as np

from .._jit import njit, prange
from .constants import B_AWAKE
from .joint_common import set_motors as set_joint_motors
from .lists import borrow
from .step import DONE, KEPT
from .worlds import (
    check_world,
    copy_views,
    events_view,
    events_world,
    first_bad,
    push_view,
    step_views,
    stepped_tables,
    world_views,
)

# A row's flags in ``flags`` (n, 4) bool: the episode is over, each leg on the ground.
GAME_OVER = 0
LEG_0 = 1
LEG_1 = 2
# The step that ended the episode: the next one starts it again (auto-reset).
AUTORESET = 3


@njit(inline="always")
def _sign(x):
    """``np.sign``: -1, 0 or 1 (0 for either zero), NaN for NaN."""
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return x * 0.0 if x != x else 0.0


@njit(parallel=True, _nrt=True, entry=True)
def lander_step(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts, prev_sensors,
                broken, lw0, lt0, lw1, lt1, delta, slots, actions, continuous, fresh, u, used,
                engines, imp, at, fire, power, type_a, type_b, began, ended, touching,
                outcome, limit, flags, prev_shaping, steps, obs, reward, terminated,
                truncated, again, tb, ts, tj, edges, episode, moon):
    """Every lander's step, each world in one pass while its memory is in the caches: the
    engines fired (``_engines``), the world stepped (``worlds.step_worlds``' arguments
    first, and its result: -1, or the first world with a NaN or inf in a live body's state,
    in which case nothing changed), then the step's result (``_lander_result``) where the
    step finished; a world whose step stopped for a table to grow is finished by the
    surface, which then calls ``lander_after`` for it.

    The engines: the hull (body ``slots[i, 0]``, which ``slots[i, 1]`` repeats) takes the
    main and side engines' impulses ``imp`` (n, 2, 2) at ``at`` where ``fire`` (n, 2) says,
    as ``Body.apply_impulse``; ``power`` (n, 2) their throttles. ``actions`` (n, 2): the
    discrete action in column 0, or the continuous (main, lateral) throttles (clipped to
    [-1, 1]); ``fresh`` rows take their reset step and fire nothing. Each row takes the
    next two of its uniform draws ``u`` (n, m) from ``used`` (n,), which moves on.
    ``engines``: (SCALE, MAIN_ENGINE_Y_LOCATION, MAIN_ENGINE_POWER, SIDE_ENGINE_AWAY,
    SIDE_ENGINE_HEIGHT, SIDE_ENGINE_POWER).

    The ``again`` rows start a new episode first, in the same pass: their body, shape and
    joint arrays a copy of the template's (``tb``, ``ts``, ``tj``: one-item lists of its
    views; ``WorldBatch._take_again`` reset the rest of them), then the episode's moon and
    push (``lander_episodes``' ``edges``, ``episode`` constants and ``moon``); their state
    before it is not checked. The rest are ``lander_after``'s."""
    n = len(ws0)
    for i in prange(n):
        if again[i]:
            status[i] = -1
        else:
            check_world(ws0, params, status, lw0, delta, np.int64(i))
    bad = first_bad(status)
    if bad >= 0:
        return bad
    for r in prange(n):
        i = np.int64(r)  # (a prange index may be typed uint64)
        _lander_world(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts,
                      prev_sensors, broken, lw0, lt0, lw1, lt1, delta, slots, actions,
                      continuous, fresh, u, used, engines, imp, at, fire, power,
                      (type_a, type_b, began, ended, touching), outcome, limit, flags,
                      prev_shaping, steps, obs, reward, terminated, truncated,
                      (again, tb, ts, tj, edges, episode, moon), i)
    return -1


@njit(_nrt=False)
def _lander_world(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts, prev_sensors,
                  broken, lw0, lt0, lw1, lt1, delta, slots, actions, continuous, fresh, u,
                  used, engines, imp, at, fire, power, events, outcome, limit, flags,
                  prev_shaping, steps, obs, reward, terminated, truncated, resets, i):
    w, t = world_views(ws0, ts0, ws1, ts1, parity, lw0, lt0, lw1, lt1, delta, i)
    again, tb, ts, tj, edges, episode, moon = resets
    if again[i]:
        copy_views(w.bodies, w.shapes, w.joints, borrow(tb, 0), borrow(ts, 0), borrow(tj, 0))
        _episode_views(w.bodies, w.shapes.vlocal, i, slots[i, 0], edges, u, used, episode,
                       moon)
    _engines(w.bodies, slots, actions, continuous, fresh, u, used, engines, imp, at, fire,
             power, i)
    if not _step_counted(w, t, params, parity, status, prev_contacts, prev_sensors, broken,
                         events, i):
        return 0
    began, ended = events[2], events[3]
    _lander_result(w.bodies, began, ended, slots, power, fresh, outcome, limit, flags,
                   prev_shaping, steps, obs, reward, terminated, truncated, i)
    return 0


@njit(inline="always")
def _step_counted(w, t, params, parity, status, prev_contacts, prev_sensors, broken, events,
                  i):
    """World i stepped on its views ``w``, ``t`` (``worlds.step_views``) and, where the
    step finished, its contact events counted (``events``: the pairs ``type_a``,
    ``type_b`` and the counts ``began``, ``ended``, ``touching``); whether it finished (a
    world whose step stopped for a table to grow is finished by the surface)."""
    step_views(w, t, params, parity, status, prev_contacts, prev_sensors, broken, i)
    if status[i] != DONE and status[i] != KEPT:
        return False
    cur, old, n_old = stepped_tables(w, t, status, prev_contacts, i)
    type_a, type_b, began, ended, touching = events
    events_view(w.shapes.collision_type, cur, old, t.asleep, params[i]["n_contacts"],
                n_old, params[i]["n_asleep"], type_a, type_b, began, ended, touching, i)
    return True


@njit(inline="always")
def _engines(b, slots, actions, continuous, fresh, u, used, consts, imp, at, fire, power, i):
    scale, main_y, main_engine, side_away, side_height, side_engine = consts
    hull = slots[i, 0]
    x = b.pos[hull, 0]
    y = b.pos[hull, 1]
    tip0 = math.sin(b.angle[hull])
    tip1 = math.cos(b.angle[hull])
    side0 = -tip1
    side1 = tip0
    k = used[i]
    d0 = (-1.0 + 2.0 * u[i, k]) / scale
    d1 = (-1.0 + 2.0 * u[i, k + 1]) / scale
    used[i] = k + 2
    a0 = actions[i, 0]
    if continuous:
        a1 = actions[i, 1]
        main = a0 > 0.0
        m_power = (min(max(a0, 0.0), 1.0) + 1.0) * 0.5 if main else 0.0
        lateral = abs(a1) > 0.5
        direction = _sign(a1)
        s_power = min(max(abs(a1), 0.5), 1.0) if lateral else 0.0
    else:
        main = a0 == 2.0
        m_power = 1.0 if main else 0.0
        lateral = a0 == 1.0 or a0 == 3.0
        direction = a0 - 2.0
        s_power = 1.0 if lateral else 0.0
    power[i, 0] = m_power
    power[i, 1] = s_power
    fire[i, 0] = main and not fresh[i]
    fire[i, 1] = lateral and not fresh[i]
    # ox = tip0 (main_y / scale + 2 d0) + side0 d1, oy = -tip1 (...) - side1 d1
    reach = main_y / scale + 2 * d0
    ox = tip0 * reach + side0 * d1
    oy = -tip1 * reach - side1 * d1
    at[i, 0, 0] = x + ox
    at[i, 0, 1] = y + oy
    imp[i, 0, 0] = -ox * main_engine * m_power
    imp[i, 0, 1] = -oy * main_engine * m_power
    # ox = tip0 d0 + side0 (3 d1 + direction away / scale), oy likewise
    away = 3 * d1 + direction * side_away / scale
    ox = tip0 * d0 + side0 * away
    oy = -tip1 * d0 - side1 * away
    at[i, 1, 0] = x + ox - tip0 * 17 / scale
    at[i, 1, 1] = y + oy + tip1 * side_height / scale
    imp[i, 1, 0] = -ox * side_engine * s_power
    imp[i, 1, 1] = -oy * side_engine * s_power
    push_view(b, slots, fire, imp, at, True, True, i)
    return 0


@njit(parallel=True, _nrt=True, entry=True)
def lander_episodes(bs, ss, rows, hull, edges, u, used, consts, moon):
    """New episodes in worlds ``rows`` (each just reset to the template world): the single
    environment's draws for them (``LunarLander._draw_episode`` without wind: ``CHUNKS +
    1`` heights, then the push's two components) taken from each row's uniform draws ``u``
    from ``used``, which moves on; the moon's points (``moon_points``) into ``moon[i]``
    (CHUNKS, 2) and into the ground chain's vertices (the vertex rows ``edges`` where its
    edges start); the push on body ``hull``, as ``Body.apply_force``. ``consts``:
    (VIEWPORT_W / SCALE, VIEWPORT_H / SCALE / 2, HELIPAD_Y, INITIAL_RANDOM)."""
    for r in prange(rows.shape[0]):
        _episode(bs, ss, rows[r], hull, edges, u, used, consts, moon)
    return 0


@njit(_nrt=False)
def _episode(bs, ss, i, hull, edges, u, used, consts, moon):
    return _episode_views(borrow(bs, i), borrow(ss, i).vlocal, i, hull, edges, u, used,
                          consts, moon)


@njit(inline="always")
def _episode_views(b, vlocal, i, hull, edges, u, used, consts, moon):
    """Row i's episode (``lander_episodes``) into its body view ``b`` and its shapes'
    vertices ``vlocal``."""
    width, top, pad, push = consts
    chunks = moon.shape[1]
    k = used[i]
    # uniform(low, high) is low + (high - low) * u, as NumPy's Generator computes it.
    heights = u[i, k:k + chunks + 1]  # (0 + top * u: each is top * u exactly)
    mid = chunks // 2
    for j in range(chunks):
        h0 = top * heights[j - 1] if j > 0 else top * heights[chunks]
        h1 = top * heights[j]
        h2 = top * heights[j + 1]
        if mid - 2 <= j - 1 < mid + 3:
            h0 = pad
        if mid - 2 <= j < mid + 3:
            h1 = pad
        if mid - 2 <= j + 1 < mid + 3:
            h2 = pad
        moon[i, j, 0] = width / (chunks - 1) * j
        moon[i, j, 1] = 0.33 * (h0 + h1 + h2)
    fx = -push + (push - -push) * u[i, k + chunks + 1]
    fy = -push + (push - -push) * u[i, k + chunks + 2]
    used[i] = k + chunks + 3
    for e in range(edges.shape[0]):
        v = edges[e]
        vlocal[v, 0] = moon[i, e, 0]
        vlocal[v, 1] = moon[i, e, 1]
        vlocal[v + 1, 0] = moon[i, e + 1, 0]
        vlocal[v + 1, 1] = moon[i, e + 1, 1]
    b.force[hull, 0] += fx
    b.force[hull, 1] += fy
    b.flags[hull] |= B_AWAKE
    b.sleep_time[hull] = 0.0
    return 0


@njit(inline="always")
def _touches(ss, tables, counts, events, flags, i):
    """World i's contact events of the step (``events_world`` with ``tables``, ``counts``
    and ``events`` as ``worlds.contact_events`` takes them), then its flags
    (``_lander_flags``: the walker's hull and legs are counted as the lander's)."""
    cw, cb, ca = tables
    parity, n_contacts, prev_contacts, n_asleep = counts
    type_a, type_b, began, ended, touching = events
    events_world(ss, cw, cb, ca, parity, n_contacts, prev_contacts, n_asleep, type_a, type_b,
                 began, ended, touching, i)
    _lander_flags(began, ended, flags, i)


@njit(inline="always")
def _lander_flags(began, ended, flags, i):
    """The game ends when the hull touches (column 0 of the counts); each leg's ground
    contact (columns 1, 2) as the single environment's callbacks leave it: they run begin
    before end, so an end in the same step wins."""
    if began[i, 0] > 0:
        flags[i, GAME_OVER] = True
    for leg in range(2):
        flags[i, LEG_0 + leg] = ended[i, 1 + leg] == 0 and (began[i, 1 + leg] > 0
                                                             or flags[i, LEG_0 + leg])


@njit(inline="always")
def _finish(i, fresh, steps, limit, reward, terminated, truncated, flags):
    """Truncation after ``limit`` steps (0: never), and Gymnasium's NEXT_STEP auto-reset:
    a row that ended last step (``fresh``: started again and stepped) reports its reset
    observation, reward 0, not done."""
    steps[i] = 0 if fresh[i] else steps[i] + 1
    truncated[i] = limit > 0 and steps[i] >= limit
    if fresh[i]:
        reward[i] = 0.0
        terminated[i] = False
        truncated[i] = False
    flags[i, AUTORESET] = terminated[i] or truncated[i]


@njit(parallel=True, _nrt=True, entry=True)
def lander_after(bs, ss, cw, cb, ca, counts, events, slots, power, fresh, consts, limit,
                 flags, prev_shaping, steps, obs, reward, terminated, truncated, rows):
    """The step result of landers ``rows`` (those whose step ``lander_step`` left to the
    surface): the contact events of the step (the tables ``cw``, ``cb``, ``ca``, ``counts``
    and ``events`` as ``worlds.contact_events`` takes them: the hull, left leg and right
    leg on the moon; the three lists are arguments of their own, where a tuple of them had
    Numba's dispatcher type it in Python on every call, 40 us), the contact ``flags`` they
    leave, and from the hull (body ``slots[i, 0]``) observation ``obs`` (n, 8) float32,
    ``reward``, ``terminated``, ``truncated``; ``prev_shaping`` and ``steps`` move on.
    ``power`` (n, 2): the throttles the engines gave. ``consts``: (VIEWPORT_W / SCALE / 2,
    VIEWPORT_H / SCALE / 2, HELIPAD_Y + LEG_DOWN / SCALE, FPS)."""
    tables = (cw, cb, ca)
    for r in prange(rows.shape[0]):
        _lander_row(bs, ss, tables, counts, events, slots, power, fresh, consts, limit, flags,
                    prev_shaping, steps, obs, reward, terminated, truncated, rows[r])
    return 0


@njit(_nrt=False)
def _lander_row(bs, ss, tables, counts, events, slots, power, fresh, consts, limit, flags,
                prev_shaping, steps, obs, reward, terminated, truncated, i):
    cw, cb, ca = tables
    parity, n_contacts, prev_contacts, n_asleep = counts
    type_a, type_b, began, ended, touching = events
    events_world(ss, cw, cb, ca, parity, n_contacts, prev_contacts, n_asleep, type_a, type_b,
                 began, ended, touching, i)
    return _lander_result(borrow(bs, i), began, ended, slots, power, fresh, consts, limit,
                          flags, prev_shaping, steps, obs, reward, terminated, truncated, i)


@njit(_nrt=False)
def _lander_result(b, began, ended, slots, power, fresh, consts, limit, flags,
                   prev_shaping, steps, obs, reward, terminated, truncated, i):
    """Row i's contact flags from the step's counts ``began`` and ``ended``
    (``_lander_flags``), then its observation, reward, termination and truncation from the
    hull (its body view ``b``)."""
    half_w, half_h, pad_y, fps = consts
    _lander_flags(began, ended, flags, i)
    hull = slots[i, 0]
    s0 = (b.pos[hull, 0] - half_w) / half_w
    s1 = (b.pos[hull, 1] - pad_y) / half_h
    s2 = b.vel[hull, 0] * half_w / fps
    s3 = b.vel[hull, 1] * half_h / fps
    s4 = b.angle[hull]
    s5 = 20.0 * b.angvel[hull] / fps
    s6 = 1.0 if flags[i, LEG_0] else 0.0
    s7 = 1.0 if flags[i, LEG_1] else 0.0
    obs[i, 0] = s0
    obs[i, 1] = s1
    obs[i, 2] = s2
    obs[i, 3] = s3
    obs[i, 4] = s4
    obs[i, 5] = s5
    obs[i, 6] = s6
    obs[i, 7] = s7
    shaping = (-100 * math.sqrt(s0 * s0 + s1 * s1) - 100 * math.sqrt(s2 * s2 + s3 * s3)
               - 100 * abs(s4) + 10 * s6 + 10 * s7)
    r = shaping - prev_shaping[i]
    prev_shaping[i] = shaping
    r -= power[i, 0] * 0.30  # fuel: less for the side engines
    r -= power[i, 1] * 0.03
    crashed = flags[i, GAME_OVER] or abs(s0) >= 1.0
    landed = (b.flags[hull] & B_AWAKE) == 0
    if crashed:
        r = -100.0
    if landed:
        r = 100.0
    reward[i] = r
    terminated[i] = crashed or landed
    _finish(i, fresh, steps, limit, reward, terminated, truncated, flags)
    return 0


@njit(parallel=True, _nrt=True, entry=True)
def walker_step(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts, prev_sensors,
                broken, lw0, lt0, lw1, lt1, delta, joints, actions, fresh, speeds, top, speed,
                torque, strength, type_a, type_b, began, ended, touching, slots, ends, ref,
                consts, limit, flags, prev_shaping, steps, lidar, ray_start, ray_end, obs,
                reward, terminated, truncated):
    """Every walker's step but its lidar, each world in one pass while its memory is in the
    caches: the four motors set (``_walker_motors``), the world stepped
    (``worlds.step_worlds``' arguments first, and its result: -1, or the first world with
    a NaN or inf in a live body's state, in which case nothing changed), then where the
    step finished the contact events (the hull, each lower leg on the ground: the pairs
    ``type_a``, ``type_b``; counts ``began``, ``ended``, ``touching``) and the result
    (``_walker_result``, which writes the lidar's rays); a world whose step stopped for a
    table to grow is finished by the surface, which then calls ``walker_after`` for it.

    The motors: joints ``joints[i, k]``, set as ``WorldBatch.set_motors`` sets them: speed
    ``speeds[k] * sign(a)`` and torque ``top * clip(|a|, 0, 1)`` (``strength`` the clipped
    magnitude, ``speed`` and ``torque`` what was set) from ``actions`` (n, 4); ``fresh`` rows
    take their reset step with the motors off. The rest are ``walker_after``'s."""
    n = len(ws0)
    for i in prange(n):
        check_world(ws0, params, status, lw0, delta, np.int64(i))
    bad = first_bad(status)
    if bad >= 0:
        return bad
    for r in prange(n):
        _walker_world(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts,
                      prev_sensors, broken, lw0, lt0, lw1, lt1, delta,
                      (joints, actions, fresh, speeds, top, speed, torque, strength),
                      (type_a, type_b, began, ended, touching), slots, ends, ref, consts,
                      limit, flags, prev_shaping, steps, lidar, ray_start, ray_end, obs,
                      reward, terminated, truncated, np.int64(r))
    return -1


@njit(_nrt=False)
def _walker_world(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts, prev_sensors,
                  broken, lw0, lt0, lw1, lt1, delta, motors, events, slots, ends, ref, consts,
                  limit, flags, prev_shaping, steps, lidar, ray_start, ray_end, obs, reward,
                  terminated, truncated, i):
    w, t = world_views(ws0, ts0, ws1, ts1, parity, lw0, lt0, lw1, lt1, delta, i)
    joints, actions, fresh, speeds, top, speed, torque, strength = motors
    _walker_motors(w.joints, w.bodies, joints, actions, fresh, speeds, top, speed, torque,
                   strength, i)
    if not _step_counted(w, t, params, parity, status, prev_contacts, prev_sensors, broken,
                         events, i):
        return 0
    began, ended = events[2], events[3]
    _lander_flags(began, ended, flags, i)
    _walker_result(w.bodies, slots, ends, ref, strength, fresh, consts, limit, flags,
                   prev_shaping, steps, lidar, ray_start, ray_end, obs, reward, terminated,
                   truncated, i)
    return 0


@njit(inline="always")
def _walker_motors(J, b, joints, actions, fresh, speeds, top, speed, torque, strength, i):
    """Row i's motors (``walker_step``) on its joint and body views."""
    for k in range(4):
        a = 0.0 if fresh[i] else actions[i, k]
        strength[i, k] = min(max(abs(a), 0.0), 1.0)
        speed[i, k] = speeds[k] * _sign(a)
        torque[i, k] = top * strength[i, k]
    set_joint_motors(joints[i], speed[i], torque[i], J.motor_speed, J.max_motor, J.flags,
                     J.imp, J.body_a, J.body_b, b.kind, b.flags, b.sleep_time)


@njit(parallel=True, _nrt=True, entry=True)
def walker_after(bs, ss, cw, cb, ca, counts, events, slots, ends, ref, strength, fresh,
                 consts, limit, flags, prev_shaping, steps, lidar, ray_start, ray_end, obs,
                 reward, terminated, truncated, rows):
    """The step result of walkers ``rows`` (those whose step ``walker_step`` left to the
    surface) but its lidar: the contact events of the step (as ``lander_after``: the hull,
    each lower leg on the ground) and the ``flags`` they leave, then from its bodies
    (``slots[i]``: hull, each leg's upper and lower part) and joints (``ends`` (4, 2): each
    joint's two body columns; ``ref`` (n, 4) their reference angles) observation ``obs``
    (n, 24) float32 but for its last ten (the lidar's, which the caller writes), ``reward``,
    ``terminated``, ``truncated``; ``prev_shaping`` and ``steps`` move on. The lidar's rays
    from the hull: ``ray_start``, ``ray_end`` (n, 10, 2), the hull's position and that plus
    ``lidar`` (10, 2). ``strength`` (n, 4): the motors' clipped actions. ``consts``: (FPS,
    VIEWPORT_W / SCALE, VIEWPORT_H / SCALE, SPEED_HIP, SPEED_KNEE, SCALE, MOTORS_TORQUE, the
    x past which the walker has arrived)."""
    tables = (cw, cb, ca)
    for r in prange(rows.shape[0]):
        _walker_row(bs, ss, tables, counts, events, slots, ends, ref, strength, fresh, consts,
                    limit, flags, prev_shaping, steps, lidar, ray_start, ray_end, obs, reward,
                    terminated, truncated, rows[r])
    return 0


@njit(_nrt=False)
def _walker_row(bs, ss, tables, counts, events, slots, ends, ref, strength, fresh, consts,
                limit, flags, prev_shaping, steps, lidar, ray_start, ray_end, obs, reward,
                terminated, truncated, i):
    _touches(ss, tables, counts, events, flags, i)
    return _walker_result(borrow(bs, i), slots, ends, ref, strength, fresh, consts, limit,
                          flags, prev_shaping, steps, lidar, ray_start, ray_end, obs, reward,
                          terminated, truncated, i)


@njit(_nrt=False)
def _walker_result(b, slots, ends, ref, strength, fresh, consts, limit, flags, prev_shaping,
                   steps, lidar, ray_start, ray_end, obs, reward, terminated, truncated, i):
    """Row i's lidar rays, observation (but the lidar's), reward, termination and
    truncation from its bodies (their view ``b``), once its contact flags are set."""
    fps, view_w, view_h, speed_hip, speed_knee, scale, motors_torque, finish_x = consts
    hull = slots[i, 0]
    x = b.pos[hull, 0]
    y = b.pos[hull, 1]
    for k in range(lidar.shape[0]):
        ray_start[i, k, 0] = x
        ray_start[i, k, 1] = y
        ray_end[i, k, 0] = x + lidar[k, 0]
        ray_end[i, k, 1] = y + lidar[k, 1]
    hull_angle = b.angle[hull]
    obs[i, 0] = hull_angle
    obs[i, 1] = 2.0 * b.angvel[hull] / fps
    obs[i, 2] = 0.3 * b.vel[hull, 0] * view_w / fps
    obs[i, 3] = 0.3 * b.vel[hull, 1] * view_h / fps
    for leg in range(2):
        c = 4 + 5 * leg
        for part in range(2):
            j = 2 * leg + part
            sa = slots[i, ends[j, 0]]
            sb = slots[i, ends[j, 1]]
            joint_angle = b.angle[sb] - b.angle[sa] - ref[i, j]
            joint_speed = b.angvel[sb] - b.angvel[sa]
            if part == 0:
                obs[i, c] = joint_angle
                obs[i, c + 1] = joint_speed / speed_hip
            else:
                obs[i, c + 2] = joint_angle + 1.0
                obs[i, c + 3] = joint_speed / speed_knee
        obs[i, c + 4] = 1.0 if flags[i, LEG_0 + leg] else 0.0
    shaping = 130 * x / scale
    shaping -= 5.0 * abs(hull_angle)
    r = shaping - prev_shaping[i]
    prev_shaping[i] = shaping
    for k in range(4):  # one term at a time, in the single environment's order
        r -= 0.00035 * motors_torque * strength[i, k]
    fell = flags[i, GAME_OVER] or x < 0
    if fell:
        r = -100.0
    reward[i] = r
    terminated[i] = fell or x > finish_x
    _finish(i, fresh, steps, limit, reward, terminated, truncated, flags)
    return 0
