"""Sleeping: bodies at rest sleep together with everything they touch (their island).

Each awake dynamic body accumulates how long it has been slower than the sleep tolerances.
Touching solid contacts and enabled joints between dynamic bodies join islands (union-find;
static and kinematic bodies do not join, so a floor does not glue every pile into one
island). An island whose
least-rested member has rested ``time_to_sleep`` goes to sleep (velocities zeroed); an island
with any restless member is awake as a whole, which is how a moving body that touches a
sleeping pile, a force, or a moved neighbour wakes it.

Waking is immediate: before the solver reads who is awake, ``wake_islands`` wakes every
sleeping island that a touching contact or a joint links to an awake body, so a pile hit
this step is solved as bodies this step, not as a wall that wakes when the step is over.
When every dynamic body sleeps with a full clock nothing can change, and the sleep stage
returns after its first pass.
"""

from collections import namedtuple

import numpy as np

from .._jit import njit
from .constants import B_ALIVE, B_AWAKE, C_TOUCHING, DYNAMIC, J_ALIVE, J_ENABLED, SOLID

# What joins bodies into islands: the contact rows (shape rows ``c_a``, ``c_b``, response,
# flags; ``s_body`` the shapes' bodies), the sleeping table's rows (``d_*``, asleep.py;
# its ended rows do not join) and the first ``n_joints`` joint slots (bodies, flags).
# Sleeping off, the step hands empty slices and no joints: nothing to follow.
Links = namedtuple("Links", ("c_a", "c_b", "c_resp", "c_flags", "s_body", "j_a", "j_b",
                             "j_flags", "n_joints", "d_a", "d_b", "d_resp", "d_flags",
                             "d_ended"))


@njit(inline="always")
def wake(b, flags, sleep_time):
    """Wake body b mid-step: with no rest on its clock, the sleep stage keeps its island
    awake as a whole."""
    flags[b] |= B_AWAKE
    sleep_time[b] = 0.0


@njit(_nrt=False)
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(inline="always")
def _join(parent, kind, a, b):
    """One island for two dynamic bodies."""
    if kind[a] != DYNAMIC or kind[b] != DYNAMIC:
        return
    ra = _find(parent, a)
    rb = _find(parent, b)
    if ra != rb:
        # Lower index as root keeps the result independent of contact order details.
        if ra < rb:
            parent[rb] = ra
        else:
            parent[ra] = rb


@njit(inline="always")
def _sleeping_link(d_resp, d_flags, d_ended, i):
    """Sleeping row i joins its bodies: solid, touching, not an ended row kept for its
    event."""
    return d_resp[i] == SOLID and (d_flags[i] & C_TOUCHING) != 0 and not d_ended[i]


@njit(inline="always")
def _mixed(kind, flags, a, b):
    """Two dynamic bodies, one awake and one asleep."""
    return (kind[a] == DYNAMIC and kind[b] == DYNAMIC
            and ((flags[a] ^ flags[b]) & B_AWAKE) != 0)


@njit(_nrt=False)
def wake_islands(n_bodies, kind, flags, links, scan_asleep, parent, mark):
    """Wake every sleeping body linked (touching solid contacts, enabled joints, through
    other sleeping bodies) to an awake dynamic body. Returns how many woke. Islands are
    whole after each sleep stage, so only a link between an awake and a sleeping body (a
    new touch, a body woken by the user or the narrowphase) needs the union-find; most
    steps end after the first loop. A sleeping row (``d_*``) links two bodies that could
    not move when the step began: it can join an awake body only if the narrowphase woke
    one since (``scan_asleep``), so it is looked at only then.

    Clocks are kept: the sleep stage decides as before, from the least-rested member, so an
    island a restless body touches stays awake while it is touched, and one woken by a
    body that only came close (the narrowphase wakes on approach, so that a hit finds the
    sleeper movable) falls back asleep at the step's end if nothing touched it. Reset, such
    wakes kept islands awake half a second each: a settling rain of 500 woke 1,002 bodies
    again and slept 1 s later.

    ``parent`` and ``mark`` (one per body) are the union-find's room, overwritten."""
    c_a, c_b, c_resp, c_flags = links.c_a, links.c_b, links.c_resp, links.c_flags
    s_body, j_a, j_b, j_flags = links.s_body, links.j_a, links.j_b, links.j_flags
    n_joints = links.n_joints
    d_a, d_b, d_resp, d_flags = links.d_a, links.d_b, links.d_resp, links.d_flags
    d_ended = links.d_ended
    mixed = False
    for i in range(c_a.shape[0]):
        if c_resp[i] == SOLID and (c_flags[i] & C_TOUCHING) and _mixed(
                kind, flags, s_body[c_a[i]], s_body[c_b[i]]):
            mixed = True
            break
    for i in range(d_a.shape[0] if scan_asleep and not mixed else 0):
        if (_sleeping_link(d_resp, d_flags, d_ended, i)
                and _mixed(kind, flags, s_body[d_a[i]], s_body[d_b[i]])):
            mixed = True
            break
    for j in range(n_joints if not mixed else 0):
        if ((j_flags[j] & J_ALIVE) and (j_flags[j] & J_ENABLED) and j_a[j] >= 0
                and j_b[j] >= 0 and _mixed(kind, flags, j_a[j], j_b[j])):
            mixed = True
            break
    if not mixed:
        return 0
    for b in range(n_bodies):
        parent[b] = b
    for i in range(c_a.shape[0]):
        if c_resp[i] == SOLID and (c_flags[i] & C_TOUCHING):
            _join(parent, kind, s_body[c_a[i]], s_body[c_b[i]])
    for i in range(d_a.shape[0]):
        if _sleeping_link(d_resp, d_flags, d_ended, i):
            _join(parent, kind, s_body[d_a[i]], s_body[d_b[i]])
    for j in range(n_joints):
        if ((j_flags[j] & J_ALIVE) and (j_flags[j] & J_ENABLED) and j_a[j] >= 0
                and j_b[j] >= 0):
            _join(parent, kind, j_a[j], j_b[j])
    for b in range(n_bodies):
        mark[b] = 0.0
    for b in range(n_bodies):
        if kind[b] == DYNAMIC and (flags[b] & B_ALIVE) and (flags[b] & B_AWAKE):
            mark[_find(parent, b)] = 1.0
    woke = 0
    for b in range(n_bodies):
        if (kind[b] == DYNAMIC and (flags[b] & B_ALIVE) and not (flags[b] & B_AWAKE)
                and mark[_find(parent, b)] != 0.0):
            flags[b] |= B_AWAKE
            woke += 1
    return woke


@njit(_nrt=False)
def update_sleep(n_bodies, bodies, links, dt, tolerances, enabled, woke_late, parent, least):
    """Each awake dynamic body's rest clock over ``dt``, then islands to sleep (see the
    module). ``tolerances`` (linear speed, angular speed, time to sleep); ``enabled``
    False wakes every sleeper. (``parent`` and ``least``, one per body, are the
    union-find's room, overwritten.)

    A sleeping row (``d_*``) joins two bodies that sleep on with full clocks, whose island
    changes nothing, so the rows are followed only when a body may have woken since they
    were sorted out (``woke_late``: continuous collision woke a target) or a sleeper is
    short of its time (put to sleep by the user): its island wakes whole."""
    kind = bodies.kind
    flags = bodies.flags
    vel = bodies.vel
    angvel = bodies.angvel
    sleep_time = bodies.sleep_time
    lin_tol, ang_tol, time_to_sleep = tolerances
    c_a, c_b, c_resp, c_flags = links.c_a, links.c_b, links.c_resp, links.c_flags
    s_body, j_a, j_b, j_flags = links.s_body, links.j_a, links.j_b, links.j_flags
    n_joints = links.n_joints
    d_a, d_b, d_resp, d_flags = links.d_a, links.d_b, links.d_resp, links.d_flags
    d_ended = links.d_ended
    restless = False  # an awake body, or a sleeper whose clock is short of time_to_sleep
    short = woke_late
    for b in range(n_bodies):
        if kind[b] != DYNAMIC or not (flags[b] & B_ALIVE):
            continue
        if flags[b] & B_AWAKE:
            restless = True
            v2 = vel[b, 0] * vel[b, 0] + vel[b, 1] * vel[b, 1]
            if v2 > lin_tol * lin_tol or abs(angvel[b]) > ang_tol:
                sleep_time[b] = 0.0
            else:
                sleep_time[b] += dt
        elif not enabled:
            flags[b] |= B_AWAKE  # sleeping was turned off: wake (its clock starts next step)
        elif sleep_time[b] < time_to_sleep:
            restless = True
            short = True
    if not enabled or not restless:
        # All asleep with full clocks: every island's least-rested member has rested.
        return
    if not short:
        _settle_awake(n_bodies, kind, flags, vel, angvel, sleep_time, links, time_to_sleep,
                      parent, least)
        return
    for b in range(n_bodies):
        parent[b] = b
    for i in range(c_a.shape[0]):
        if c_resp[i] != 1 or not (c_flags[i] & C_TOUCHING):
            continue
        _join(parent, kind, s_body[c_a[i]], s_body[c_b[i]])
    for i in range(d_a.shape[0] if short else 0):
        if _sleeping_link(d_resp, d_flags, d_ended, i):
            _join(parent, kind, s_body[d_a[i]], s_body[d_b[i]])
    for j in range(n_joints):
        if ((j_flags[j] & J_ALIVE) and (j_flags[j] & J_ENABLED) and j_a[j] >= 0
                and j_b[j] >= 0):
            _join(parent, kind, j_a[j], j_b[j])
    for b in range(n_bodies):
        least[b] = np.inf
    for b in range(n_bodies):
        if kind[b] == DYNAMIC and (flags[b] & B_ALIVE):
            r = _find(parent, b)
            least[r] = min(least[r], sleep_time[b])
    for b in range(n_bodies):
        if kind[b] != DYNAMIC or not (flags[b] & B_ALIVE):
            continue
        if least[_find(parent, b)] >= time_to_sleep:
            if flags[b] & B_AWAKE:
                flags[b] &= ~B_AWAKE
                vel[b, 0] = 0.0
                vel[b, 1] = 0.0
                angvel[b] = 0.0
        else:
            flags[b] |= B_AWAKE


@njit(inline="always")
def _link_ends(c_a, c_b, c_resp, c_flags, s_body, j_a, j_b, j_flags, i, n_c):
    """Link i's two bodies, contact rows first (touching solid), then joints (enabled,
    with both bodies), or (-1, -1) if it joins nothing: ``update_sleep``'s links."""
    if i < n_c:
        if c_resp[i] != SOLID or not (c_flags[i] & C_TOUCHING):
            return -1, -1
        return s_body[c_a[i]], s_body[c_b[i]]
    j = i - n_c
    if (j_flags[j] & J_ALIVE) and (j_flags[j] & J_ENABLED) and j_a[j] >= 0 and j_b[j] >= 0:
        return j_a[j], j_b[j]
    return -1, -1


@njit(inline="always")
def _settle_one(b, kind, flags, vel, angvel, least, parent, time_to_sleep):
    """Body b's island asleep if its least-rested member has rested, else awake."""
    if kind[b] != DYNAMIC or not (flags[b] & B_ALIVE):
        return
    if least[_find(parent, b)] >= time_to_sleep:
        if flags[b] & B_AWAKE:
            flags[b] &= ~B_AWAKE
            vel[b, 0] = 0.0
            vel[b, 1] = 0.0
            angvel[b] = 0.0
    else:
        flags[b] |= B_AWAKE


@njit(_nrt=False)
def _settle_awake(n_bodies, kind, flags, vel, angvel, sleep_time, links, time_to_sleep,
                  parent, least):
    """``update_sleep``'s islands when every sleeper has a full clock and no sleeping row
    is followed: a sleeper no link reaches is an island of its own that has rested, which
    the full union-find leaves as it is. So only the awake bodies and the links' ends
    enter the union-find (as many as move, not as many as sleep: a sleeping pile with one
    body awake cost five passes over every body), with the same joins and outcome for
    each of them."""
    c_a, c_b, c_resp, c_flags = links.c_a, links.c_b, links.c_resp, links.c_flags
    s_body, j_a, j_b, j_flags = links.s_body, links.j_a, links.j_b, links.j_flags
    n_c = c_a.shape[0]
    n_links = n_c + links.n_joints
    for b in range(n_bodies):
        if kind[b] == DYNAMIC and (flags[b] & B_AWAKE):
            parent[b] = b
            least[b] = np.inf
    for i in range(n_links):
        a, b = _link_ends(c_a, c_b, c_resp, c_flags, s_body, j_a, j_b, j_flags, i, n_c)
        if a >= 0:
            parent[a] = a
            parent[b] = b
            least[a] = np.inf
            least[b] = np.inf
    for i in range(n_links):
        a, b = _link_ends(c_a, c_b, c_resp, c_flags, s_body, j_a, j_b, j_flags, i, n_c)
        if a >= 0:
            _join(parent, kind, a, b)
    # (A sleeper's full clock can not bring its island's least below time_to_sleep: the
    # awake members' clocks decide.)
    for b in range(n_bodies):
        if kind[b] == DYNAMIC and (flags[b] & B_ALIVE) and (flags[b] & B_AWAKE):
            r = _find(parent, b)
            least[r] = min(least[r], sleep_time[b])
    # (Each body's outcome reads only the least clocks, all known by now, so a body seen
    # twice, or put to sleep before its neighbour is seen, ends the same.)
    for b in range(n_bodies):
        if kind[b] == DYNAMIC and (flags[b] & B_AWAKE):
            _settle_one(b, kind, flags, vel, angvel, least, parent, time_to_sleep)
    for i in range(n_links):
        a, b = _link_ends(c_a, c_b, c_resp, c_flags, s_body, j_a, j_b, j_flags, i, n_c)
        if a >= 0:
            _settle_one(a, kind, flags, vel, angvel, least, parent, time_to_sleep)
            _settle_one(b, kind, flags, vel, angvel, least, parent, time_to_sleep)
