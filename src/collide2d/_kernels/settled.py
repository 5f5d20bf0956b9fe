"""The settled world's short cut: a step in which nothing can move.

When every dynamic body sleeps with a full sleep clock, no kinematic body moves, no force
waits and sleeping is on, the stages change nothing but event flags: the broadphase finds
the pairs it found last step, the narrowphase keeps every sleeping manifold as it was, no
constraint row is solved, nothing integrates and nothing falls asleep or wakes. ``run_step``
then keeps the world's tables as they stand (``keep_tables``) instead of rebuilding them,
provided the last step also started settled (``p["settled"]``: its tables were built at
these poses, with these filters and rules). The surface clears that flag on every change
that could change the tables: a pose or the shapes (``World._shapes_dirty``: teleports,
bodies and shapes added or removed, kinds, movers), a shape's filter, material, collision
type or sensor flag, a pair rule, a joint's keys. The result is bit for bit what the
stages would have written; a settled pile then costs a pass over its bodies, not a step.
The first kept step leaves ``p["settled"]`` at 2: the next ones find the flags it cleared
still cleared and leave them (``run_step``), and a world still settled with untouched poses
skips the NaN guard (its velocities and forces are zero, its poses were finite when the
tables were built, and only the surface, which clears the flag, writes poses).
"""

from .._jit import njit
from .constants import B_ALIVE, B_AWAKE, DYNAMIC
from .scan import any_nonzero, words


@njit(_nrt=False)
def all_settled(kind, flags, vel, angvel, force, torque, sleep_time, time_to_sleep,
                n_bodies):
    """No live dynamic body awake or short of ``time_to_sleep``, and no live body moving
    or with a force or torque waiting. (A branch-free pass over the flags, then whole-array
    scans, scan.py: the per-body loop below runs only when a scan finds a value, which may
    be a removed body's.)"""
    waking = 0
    for b in range(n_bodies):
        fl = flags[b]
        waking |= ((fl & B_ALIVE) * (kind[b] == DYNAMIC)
                   * ((fl & B_AWAKE) | (sleep_time[b] < time_to_sleep)))
    if waking != 0:
        return False
    n = n_bodies
    if not (any_nonzero(words(vel, n)) or any_nonzero(words(angvel, n))
            or any_nonzero(words(force, n)) or any_nonzero(words(torque, n))):
        return True
    for b in range(n_bodies):
        if not flags[b] & B_ALIVE:
            continue
        # One test for six values: a sum of magnitudes is zero only when each is (it can
        # not underflow, and an overflow or a NaN is not zero either).
        if (abs(vel[b, 0]) + abs(vel[b, 1]) + abs(angvel[b]) + abs(force[b, 0])
                + abs(force[b, 1]) + abs(torque[b])) != 0.0:
            return False
    return True


@njit(_nrt=False)
def keep_tables(c_began, c_impulse, n_contacts, ended, s_began, n_sensors, s_ended,
                j_on, j_reaction, n_joints):
    """What the stages would write on a settled world: no contact or sensor began this
    step (the world's tables), none ended (the step buffers' tables, where the surface
    reads the last step's ends), no contact impulse, no joint solved, no reaction."""
    c_began[:n_contacts] = False
    c_impulse[:n_contacts] = 0.0
    ended[:] = False
    s_began[:n_sensors] = False
    s_ended[:] = False
    j_on[:n_joints] = False
    j_reaction[:n_joints] = 0.0
