"""Many independent worlds in one compiled call (``collide2d.batch_worlds.WorldBatch``).

Each world keeps its own stores; the batch passes their views as typed lists, one entry per
world. ``step_worlds`` runs ``step.run_step`` on every world, worlds spread over threads
with ``prange``: world i is stepped by exactly the code ``World.step`` runs, so the result
does not depend on the thread count or on the other worlds.

A step swaps a world's contact and sensor tables with its step buffers' (the table the step
wrote becomes the world's). Here the swap is a parity per world: ``ws0`` / ``ts0`` are the
views with the world's own tables as its tables, ``ws1`` / ``ts1`` the views with the two
tables exchanged; parity 1 means the next step reads ``ws1`` / ``ts1``. The surface puts the
tables back in their places (``WorldBatch.world``) when a world is read as a ``World``.

A world's views are some three hundred array descriptors, ten kilobytes read before any
of its rows: a thousand worlds' outgrow the caches (a batch of 1,024 landers in flight
stepped in 8-10 us a world, one of 256 in 0.5; with the layout below, 1.3). The copies of
one world are laid out alike (``WorldBatch`` makes each one's arrays one after the other), so
they are stepped from the first's views with every data pointer moved by the world's
``delta`` (``lists.rebased``); ``layout_delta`` checks, whenever a world's views are set,
that every array is where the move puts it, with the layout's shape and strides, else the
world is stepped from its own views.

``raycast_worlds`` casts every world's rays with the queries' own walk
(``cast_segments_into``), over a tree per world of the shapes the filter accepts (kept
between calls and rebuilt only when those shapes or their boxes change: a lidar that sees
only the static ground never rebuilds it), so row k of world i equals
``world.raycast_many`` on that world. A tree over static shapes only is kept without looking
at the shapes again: a step never changes them, and every path of the surface that can (a
world read, reset or replaced, a new filter) marks the tree for a rebuild.

The other kernels read and write body and joint rows of every world by slot, with the same
arithmetic as the single-body setters (``Body.apply_impulse`` and so on), bit for bit.
"""

import math

import numpy as np

from .._jit import njit, prange
from .bvh import ROOT_WIDTH, WIDTH, build
from .constants import (
    B_AWAKE,
    C_TOUCHING,
    DYNAMIC,
    S_ALIVE,
    SOLID,
    STATIC,
    TREE_CHECKED,
    TREE_STALE,
    TREE_STATIC,
)
from .integrate import first_non_finite
from .joint_common import set_motors as set_joint_motors
from .lists import borrow, rebased, same_layout
from .poses import update_shapes
from .queries import MOTION_NONE, cast_segments_into, passes, query_shapes
from .step import DONE, run_step
from .views import FilterView, MotionView, SegmentHits, TreeView

#: ``delta`` of a world whose views are its own (not laid out as the layout's).
NO_LAYOUT = np.int64(-(1 << 63))


@njit(parallel=True, _nrt=True, entry=True)
def step_worlds(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts, prev_sensors,
                broken, lw0, lt0, lw1, lt1, delta):
    """Step every world once. Returns -1, or the first world with a NaN or inf in a live
    body's state (``status`` its slot), in which case no world was stepped.

    Per world: ``status`` the stage to run again once a table grew (``run_step``'s result;
    ``DONE`` or ``KEPT`` when finished), ``prev_contacts`` and ``prev_sensors`` the rows of
    the tables the step replaced (their ``ended`` flags are that step's end events),
    ``broken`` the joints it broke, ``delta`` where its arrays lie from the views in
    ``lw0``, ``lt0``, ``lw1``, ``lt1`` (one-item lists: a layout of the four views,
    ``layout_delta``), or ``NO_LAYOUT``."""
    n = len(ws0)
    # (Slots as int64: a prange index may be typed uint64, which would compile the
    # per-world functions a second time.)
    for i in prange(n):
        check_world(ws0, params, status, lw0, delta, np.int64(i))
    bad = first_bad(status)
    if bad >= 0:
        return bad
    for i in prange(n):
        _step_world(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts, prev_sensors,
                    broken, lw0, lt0, lw1, lt1, delta, np.int64(i))
    return -1


# A world's views are read from the lists without counting references to their arrays
# (lists.borrow), in functions compiled without counting: Numba's getitem counts each of
# the two hundred arrays, in and out, a few microseconds a world.
@njit(_nrt=False)
def check_world(ws0, params, status, lw0, delta, i):
    """``status[i]``: the slot of world i's first body with a NaN or inf in its state, or
    -1 (``step_worlds``'s check, before any world is stepped)."""
    if delta[i] != NO_LAYOUT:
        b = rebased(lw0, delta[i]).bodies
    else:
        b = borrow(ws0, i).bodies
    status[i] = first_non_finite(b.pos, b.angle, b.vel, b.angvel, b.force, b.torque, b.flags,
                                 params[i]["n_bodies"])
    return 0


@njit(inline="always")
def first_bad(status):
    """The first world ``check_world`` found a NaN or inf in, or -1."""
    for i in range(status.shape[0]):
        if status[i] >= 0:
            return i
    return -1


@njit(inline="always")
def world_views(ws0, ts0, ws1, ts1, parity, lw0, lt0, lw1, lt1, delta, i):
    """World i's views for its next step (``step_worlds``' lists and layout): its world
    view and step view, by its parity."""
    d = delta[i]
    if d != NO_LAYOUT:
        # The views made from the layout's, which every thread keeps in its caches: a
        # world's own descriptors (some ten kilobytes) would be read from memory, and a
        # thousand worlds' outgrow the caches.
        if parity[i] == 0:
            return rebased(lw0, d), rebased(lt0, d)
        return rebased(lw1, d), rebased(lt1, d)
    if parity[i] == 0:
        return borrow(ws0, i), borrow(ts0, i)
    return borrow(ws1, i), borrow(ts1, i)


@njit(_nrt=False)
def _step_world(ws0, ts0, ws1, ts1, params, parity, status, prev_contacts, prev_sensors,
                broken, lw0, lt0, lw1, lt1, delta, i):
    w, t = world_views(ws0, ts0, ws1, ts1, parity, lw0, lt0, lw1, lt1, delta, i)
    return step_views(w, t, params, parity, status, prev_contacts, prev_sensors, broken, i)


@njit(inline="always")
def step_views(w, t, params, parity, status, prev_contacts, prev_sensors, broken, i):
    """World i's step on its views ``w``, ``t`` (``world_views``), with ``step_worlds``'
    per-world records."""
    # The first stage as an int64, as World.step passes it.
    start = np.int64(0)
    prev_contacts[i] = params[i]["n_contacts"]
    prev_sensors[i] = params[i]["n_sensors"]
    s = run_step(w, params[i:i + 1], t, start)
    status[i] = s
    broken[i] = t.state[0]["n_broken"]
    if s == DONE:
        parity[i] = 1 - parity[i]  # (KEPT: the world's tables stayed in place)
    return 0


@njit(inline="always")
def stepped_tables(w, t, status, prev_contacts, i):
    """After world i's step on ``w``, ``t`` finished (``DONE`` or ``KEPT``): the contact
    table it left, the one it replaced (that step's end events) and that one's rows (with
    ``KEPT``, the same table, and none: a kept table ended nothing)."""
    if status[i] == DONE:
        return t.contacts, w.contacts, prev_contacts[i]
    return w.contacts, w.contacts, 0


@njit(_nrt=True, entry=True)
def layout_delta(ws0, ts0, ws1, ts1, lw0, lt0, lw1, lt1, i, guess):
    """``guess`` if world i's four views are the layout's (``lw0`` .. ``lt1``, as
    ``step_worlds`` takes it) moved by ``guess`` bytes
    (``lists.same_layout``), else ``NO_LAYOUT``."""
    if (same_layout(ws0, i, lw0, guess) and same_layout(ts0, i, lt0, guess)
            and same_layout(ws1, i, lw1, guess) and same_layout(ts1, i, lt1, guess)):
        return guess
    return NO_LAYOUT


# The kernels below call a per-world function compiled without counting, which reads the
# world's views with lists.borrow, as _step_world does: a counted read of a view costs more
# than the few rows these kernels touch. Worlds are spread over threads: each world's rows
# are in memory no other world shares, so a call costs its cache misses, which threads
# overlap (slots passed as int64, as in step_worlds).
@njit(parallel=True, _nrt=True, entry=True)
def read_bodies(bs, slots, pos, angle, vel, angvel, rot, awake):
    """Pose, velocity, (cos, sin) of the angle and awake flag of bodies ``slots[i, k]``."""
    for i in prange(len(bs)):
        _read_world(bs, slots, pos, angle, vel, angvel, rot, awake, np.int64(i))


@njit(_nrt=False)
def _read_world(bs, slots, pos, angle, vel, angvel, rot, awake, i):
    b = borrow(bs, i)
    for k in range(slots.shape[1]):
        s = slots[i, k]
        pos[i, k, 0] = b.pos[s, 0]
        pos[i, k, 1] = b.pos[s, 1]
        angle[i, k] = b.angle[s]
        vel[i, k, 0] = b.vel[s, 0]
        vel[i, k, 1] = b.vel[s, 1]
        angvel[i, k] = b.angvel[s]
        rot[i, k, 0] = math.cos(b.angle[s])
        rot[i, k, 1] = math.sin(b.angle[s])
        awake[i, k] = (b.flags[s] & B_AWAKE) != 0
    return 0


@njit(_nrt=True, entry=True)
def copy_worlds(bs, ss, js, rows, tb, ts, tj):
    """Every array of the body, shape and joint views of worlds ``rows`` made a copy of the
    template's (``tb``, ``ts``, ``tj``: views of the same layout, shapes and dtypes): the
    arrays of a reset in place (``snapshot.assign``), for many worlds in one call."""
    for r in range(rows.shape[0]):
        _copy_world(bs, ss, js, rows[r], tb, ts, tj)


@njit(_nrt=True)
def _copy_world(bs, ss, js, i, tb, ts, tj):
    """Every array of world i's views made a copy of the template's."""
    return copy_views(borrow(bs, i), borrow(ss, i), borrow(js, i), tb, ts, tj)


@njit(_nrt=True)
def copy_views(b, s, j, tb, ts, tj):
    """Every array of the body, shape and joint views ``b``, ``s``, ``j`` made a copy of
    the template's ``tb``, ``ts``, ``tj``, field by field (written out: a loop unrolled
    over the fields compiled in 11 s, these lines in 4; tests/test_world_batch.py checks
    that every field of the three views is here)."""
    _copy_array(b.vel, tb.vel)
    _copy_array(b.angvel, tb.angvel)
    _copy_array(b.pos, tb.pos)
    _copy_array(b.angle, tb.angle)
    _copy_array(b.local_com, tb.local_com)
    _copy_array(b.mass, tb.mass)
    _copy_array(b.inertia, tb.inertia)
    _copy_array(b.inv_mass, tb.inv_mass)
    _copy_array(b.inv_inertia, tb.inv_inertia)
    _copy_array(b.force, tb.force)
    _copy_array(b.torque, tb.torque)
    _copy_array(b.damping, tb.damping)
    _copy_array(b.angular_damping, tb.angular_damping)
    _copy_array(b.gravity_scale, tb.gravity_scale)
    _copy_array(b.kind, tb.kind)
    _copy_array(b.flags, tb.flags)
    _copy_array(b.sleep_time, tb.sleep_time)
    _copy_array(b.generation, tb.generation)
    _copy_array(b.order, tb.order)
    _copy_array(b.rot, tb.rot)
    _copy_array(s.body, ts.body)
    _copy_array(s.owner, ts.owner)
    _copy_array(s.vstart, ts.vstart)
    _copy_array(s.vcount, ts.vcount)
    _copy_array(s.radius, ts.radius)
    _copy_array(s.density, ts.density)
    _copy_array(s.friction, ts.friction)
    _copy_array(s.elasticity, ts.elasticity)
    _copy_array(s.category, ts.category)
    _copy_array(s.mask, ts.mask)
    _copy_array(s.group, ts.group)
    _copy_array(s.flags, ts.flags)
    _copy_array(s.generation, ts.generation)
    _copy_array(s.aabb, ts.aabb)
    _copy_array(s.one_way, ts.one_way)
    _copy_array(s.collision_type, ts.collision_type)
    _copy_array(s.surface_speed, ts.surface_speed)
    _copy_array(s.fat, ts.fat)
    _copy_array(s.order, ts.order)
    _copy_array(s.reach, ts.reach)
    _copy_array(s.proxy, ts.proxy)
    _copy_array(s.escaped, ts.escaped)
    _copy_array(s.vlocal, ts.vlocal)
    _copy_array(s.vworld, ts.vworld)
    _copy_array(j.kind, tj.kind)
    _copy_array(j.flags, tj.flags)
    _copy_array(j.body_a, tj.body_a)
    _copy_array(j.body_b, tj.body_b)
    _copy_array(j.generation, tj.generation)
    _copy_array(j.order, tj.order)
    _copy_array(j.local_a, tj.local_a)
    _copy_array(j.local_b, tj.local_b)
    _copy_array(j.axis, tj.axis)
    _copy_array(j.ref_angle, tj.ref_angle)
    _copy_array(j.lower, tj.lower)
    _copy_array(j.upper, tj.upper)
    _copy_array(j.motor_speed, tj.motor_speed)
    _copy_array(j.max_motor, tj.max_motor)
    _copy_array(j.hertz, tj.hertz)
    _copy_array(j.zeta, tj.zeta)
    _copy_array(j.hertz2, tj.hertz2)
    _copy_array(j.zeta2, tj.zeta2)
    _copy_array(j.target, tj.target)
    _copy_array(j.length, tj.length)
    _copy_array(j.ratio, tj.ratio)
    _copy_array(j.notch, tj.notch)
    _copy_array(j.max_force, tj.max_force)
    _copy_array(j.max_torque, tj.max_torque)
    _copy_array(j.correction, tj.correction)
    _copy_array(j.point, tj.point)
    _copy_array(j.break_force, tj.break_force)
    _copy_array(j.break_torque, tj.break_torque)
    _copy_array(j.imp, tj.imp)
    _copy_array(j.reaction, tj.reaction)
    _copy_array(j.frame, tj.frame)
    _copy_array(j.on, tj.on)
    _copy_array(j.level, tj.level)
    _copy_array(j.seq, tj.seq)
    _copy_array(j.wseq, tj.wseq)
    _copy_array(j.run, tj.run)
    _copy_array(j.wrun, tj.wrun)
    _copy_array(j.solved, tj.solved)
    return 0


@njit(_nrt=True)
def _copy_array(dst, src):
    """``dst[:] = src``, compiled once per array type: written out at each of the views'
    seventy-nine fields, Numba's array assignment made the batch's reset a 15 s compile."""
    dst[:] = src
    return 0


@njit(inline="always")
def _wake(b, s):
    b.flags[s] |= B_AWAKE
    b.sleep_time[s] = 0.0


@njit(inline="always")
def _lever(b, s, px, py):
    """From the body's centre of mass to the world point (px, py), as
    ``point - Body.world_point_of(local_com)`` computes it."""
    c = math.cos(b.angle[s])
    sn = math.sin(b.angle[s])
    x = b.local_com[s, 0]
    y = b.local_com[s, 1]
    return (px - (b.pos[s, 0] + (c * x - sn * y)), py - (b.pos[s, 1] + (sn * x + c * y)))


@njit(parallel=True, _nrt=True, entry=True)
def push_bodies(bs, slots, where, values, points, at_points, impulse):
    """Add ``values[i, k]`` to body ``slots[i, k]`` where ``where[i, k]``: a force (N)
    or an impulse (N s), at ``points[i, k]`` (world frame, m) when ``at_points``, else at the
    centre of mass. Rows are applied in order k; static and kinematic bodies take nothing."""
    for i in prange(len(bs)):
        push_world(bs, slots, where, values, points, at_points, impulse, np.int64(i))


@njit(_nrt=False)
def push_world(bs, slots, where, values, points, at_points, impulse, i):
    return push_view(borrow(bs, i), slots, where, values, points, at_points, impulse, i)


@njit(inline="always")
def push_view(b, slots, where, values, points, at_points, impulse, i):
    """``push_bodies``' rows of world i, whose body view is ``b``."""
    for k in range(slots.shape[1]):
        if not where[i, k]:
            continue
        s = slots[i, k]
        if b.kind[s] != DYNAMIC:
            continue
        fx = values[i, k, 0]
        fy = values[i, k, 1]
        if impulse:
            b.vel[s, 0] += fx * b.inv_mass[s]
            b.vel[s, 1] += fy * b.inv_mass[s]
        else:
            b.force[s, 0] += fx
            b.force[s, 1] += fy
        if at_points:
            rx, ry = _lever(b, s, points[i, k, 0], points[i, k, 1])
            if impulse:
                b.angvel[s] += b.inv_inertia[s] * (rx * fy - ry * fx)
            else:
                b.torque[s] += rx * fy - ry * fx
        _wake(b, s)
    return 0


@njit(parallel=True, _nrt=True, entry=True)
def push_torques(bs, slots, where, values):
    """Add torque ``values[i, k]`` (N m) to body ``slots[i, k]`` where ``where[i, k]``."""
    for i in prange(len(bs)):
        _torque_world(bs, slots, where, values, np.int64(i))


@njit(_nrt=False)
def _torque_world(bs, slots, where, values, i):
    b = borrow(bs, i)
    for k in range(slots.shape[1]):
        s = slots[i, k]
        if where[i, k] and b.kind[s] == DYNAMIC:
            b.torque[s] += values[i, k]
            _wake(b, s)
    return 0


@njit(parallel=True, _nrt=True, entry=True)
def set_motors(bs, js, slots, speeds, max_torques):
    """Motor speed and maximum motor torque (or force) of joints ``slots[i, k]``; wakes
    their dynamic bodies as ``Joint``'s setters do."""
    for i in prange(len(js)):
        motors_world(bs, js, slots, speeds, max_torques, np.int64(i))


@njit(_nrt=False)
def motors_world(bs, js, slots, speeds, max_torques, i):
    j = borrow(js, i)
    b = borrow(bs, i)
    return set_joint_motors(slots[i], speeds[i], max_torques[i], j.motor_speed, j.max_motor,
                            j.flags, j.imp, j.body_a, j.body_b, b.kind, b.flags, b.sleep_time)


@njit(inline="always")
def _of_types(ta, tb, type_a, type_b):
    return (ta == type_a and tb == type_b) or (ta == type_b and tb == type_a)


@njit(parallel=True, _nrt=True, entry=True)
def contact_events(ss, cw, cb, ca, parity, n_contacts, prev_contacts, n_asleep, type_a,
                   type_b, began, ended, touching):
    """Per world i and pair k of collision types (``type_a[k]``, ``type_b[k]``, either way
    round): solid contacts that began touching in the last step, ended in it, and touch now.

    ``cw[i]`` is world i's own contact table, ``cb[i]`` its step buffers'; after a step with
    parity p (already flipped) the current table is ``cw`` when p is 0. ``ca[i]`` holds its
    sleeping rows (asleep.py): they touch now, or ended in the last step."""
    for i in prange(len(ss)):
        events_world(ss, cw, cb, ca, parity, n_contacts, prev_contacts, n_asleep, type_a,
                     type_b, began, ended, touching, np.int64(i))


@njit(_nrt=False)
def events_world(ss, cw, cb, ca, parity, n_contacts, prev_contacts, n_asleep, type_a,
                 type_b, began, ended, touching, i):
    if parity[i] == 0:
        cur = borrow(cw, i)
        old = borrow(cb, i)
    else:
        cur = borrow(cb, i)
        old = borrow(cw, i)
    return events_view(borrow(ss, i).collision_type, cur, old, borrow(ca, i),
                       n_contacts[i], prev_contacts[i], n_asleep[i], type_a, type_b, began,
                       ended, touching, i)


@njit(inline="always")
def events_view(col, cur, old, d, n_cur, n_old, n_d, type_a, type_b, began, ended,
                touching, i):
    """``contact_events``' counts of world i from its shapes' collision types ``col``, the
    table the step left (``cur``, ``n_cur`` rows), the one it replaced (``old``, ``n_old``)
    and the sleeping rows (``d``, ``n_d``)."""
    for k in range(type_a.shape[0]):
        began[i, k] = 0
        ended[i, k] = 0
        touching[i, k] = 0
    for r in range(n_cur):
        if cur.resp[r] != SOLID:
            continue
        ta = col[cur.a[r]]
        tb = col[cur.b[r]]
        for k in range(type_a.shape[0]):
            if _of_types(ta, tb, type_a[k], type_b[k]):
                if cur.began[r]:
                    began[i, k] += 1
                if cur.flags[r] & C_TOUCHING:
                    touching[i, k] += 1
    for r in range(n_old):
        if old.resp[r] != SOLID or not old.ended[r]:
            continue
        ta = col[old.a[r]]
        tb = col[old.b[r]]
        for k in range(type_a.shape[0]):
            if _of_types(ta, tb, type_a[k], type_b[k]):
                ended[i, k] += 1
    for r in range(n_d):
        if d.resp[r] != SOLID:
            continue
        ta = col[d.a[r]]
        tb = col[d.b[r]]
        for k in range(type_a.shape[0]):
            if _of_types(ta, tb, type_a[k], type_b[k]):
                if d.ended[r]:
                    ended[i, k] += 1
                elif d.flags[r] & C_TOUCHING:
                    touching[i, k] += 1
    return 0


@njit(_nrt=False)
def _tree_is_current(s, n_shapes, fc, fm, fs, none, boxes, items, k):
    """True when the shapes the filter accepts, and their boxes, are those of the tree.
    A call without reference counting: inlined into the counted ray cast, every read of a
    field of ``s`` counted references atomically, for every shape of every world."""
    j = 0
    for r in range(n_shapes):
        if not (s.flags[r] & S_ALIVE) or not passes(s.category[r], s.mask[r], s.flags[r],
                                                    s.body[r], fc, fm, fs, none):
            continue
        if j >= k or items[j] != r:
            return False
        for c in range(4):
            if s.aabb[r, c] != boxes[j, c]:
                return False
        j += 1
    return j == k


# Worlds are cast in up to this many runs (each a task for a thread, with its own stacks):
# more than the threads of most machines, few enough that the stacks cost nothing.
_RAY_TASKS = 256


@njit(parallel=True, _nrt=True, entry=True)
def raycast_worlds(bs, ss, params, starts, ends, flt, slot_bits, trees, out):
    """First hit of every ray ``starts[i, k] -> ends[i, k]`` in world i into ``out`` (a
    ``SegmentHits`` with a world axis), worlds spread over threads; row k of world i is what
    ``world.raycast_many`` gives there (body ids, shape ids, NaN and -1 for misses).
    ``flt`` is a ``FilterView`` whose ``exclude[i]`` are the body slots left out in world i.

    ``trees`` (a ``WorldTrees``) holds one tree per world, with room for every shape, over
    the live shapes the filter accepts; a world's tree is rebuilt when ``trees.built[i]``
    is TREE_STALE, or TREE_CHECKED and those shapes changed.

    Two passes: the worlds whose shapes or tree need work get it (counted reads of their
    views: a rebuild allocates), then every world's rays are cast by a function compiled
    without counting (``_cast_world``), a run of worlds per task with one pair of stacks:
    a lidar over a static ground then costs its rays, not a world's views read and counted
    and two stacks allocated per world."""
    tree_built = trees.built
    n = len(bs)
    for k in prange(n):
        i = np.int64(k)  # (a prange index may be typed uint64: list reads want int64)
        if params[i]["shapes_fresh"] == 0 or tree_built[i] != TREE_STATIC:
            _tree_world(bs, ss, params, flt, trees, i)
    most = 1
    nodes = 1
    for i in range(n):
        most = max(most, params[i]["n_bodies"])
        nodes = max(nodes, trees.nodes[i])
    ident = np.arange(most)
    # No body motion to follow (MOTION_NONE): empty arrays in its place.
    moved = np.zeros(0, dtype=np.bool_)
    turns = np.zeros(0)
    coms = np.zeros((0, 2))
    frames = MotionView(ident, moved, turns, coms, coms)
    per = (n + _RAY_TASKS - 1) // _RAY_TASKS
    for task in prange(_RAY_TASKS):
        if task * per >= n:
            continue
        stack = np.empty(nodes, dtype=np.int64)
        stack_t = np.empty(nodes)
        for i in range(task * per, min(n, (task + 1) * per)):
            _cast_world(bs, ss, starts, ends, flt, slot_bits, trees, out, frames, i, stack,
                        stack_t)
    return 0


@njit(_nrt=True)
def _tree_world(bs, ss, params, flt, trees, i):
    """World i's shapes placed if a change left them stale (as ``World._sync_shapes``), and
    its tree rebuilt if it is stale, or checked and no longer current."""
    f_category, f_mask, f_sensors, _ = flt
    (tree_boxes, tree_items, tree_k, tree_first, tree_count, tree_slot_box, tree_slot_ref,
     tree_nodes, tree_built) = trees
    b = bs[i]
    s = ss[i]
    prm = params[i]
    n_shapes = prm["n_shapes"]
    none = np.empty(0, dtype=np.int64)
    if prm["shapes_fresh"] == 0:
        update_shapes(b.pos, b.angle, b.rot, b.kind, s, params, i)
        prm["shapes_fresh"] = 1
    boxes = tree_boxes[i]
    items = tree_items[i]
    if tree_built[i] == TREE_STALE or (
            tree_built[i] == TREE_CHECKED
            and not _tree_is_current(s, n_shapes, f_category, f_mask, f_sensors, none,
                                     boxes, items, tree_k[i])):
        m = 0
        state = TREE_STATIC
        for r in range(n_shapes):
            if (s.flags[r] & S_ALIVE) and passes(s.category[r], s.mask[r], s.flags[r],
                                                 s.body[r], f_category, f_mask, f_sensors,
                                                 none):
                for c in range(4):
                    boxes[m, c] = s.aabb[r, c]
                items[m] = r
                m += 1
                if b.kind[s.body[r]] != STATIC:
                    state = TREE_CHECKED
        tree_k[i] = m
        tree_nodes[i] = build(boxes[:m], items[:m], WIDTH, ROOT_WIDTH, tree_first[i],
                              tree_count[i], tree_slot_box[i], tree_slot_ref[i])
        tree_built[i] = state
    return 0


@njit(_nrt=False)
def _cast_world(bs, ss, starts, ends, flt, slot_bits, trees, out, frames, i, stack, stack_t):
    """World i's rays (its tree current), body slots turned into ids."""
    f_category, f_mask, f_sensors, exclude = flt
    hit, body, shape, point, normal, fraction = out
    b = borrow(bs, i)
    cast_segments_into(starts[i], ends[i],
                       TreeView(trees.first[i], trees.count[i], trees.slot_box[i],
                                trees.slot_ref[i], trees.nodes[i]),
                       query_shapes(borrow(ss, i)),
                       FilterView(f_category, f_mask, f_sensors, exclude[i]), frames,
                       MOTION_NONE, False,
                       SegmentHits(hit[i], body[i], shape[i], point[i], normal[i],
                                   fraction[i]), stack, stack_t)
    for j in range(body.shape[1]):
        slot = body[i, j]
        if slot >= 0:
            body[i, j] = (b.generation[slot] << slot_bits) | slot
    return 0
