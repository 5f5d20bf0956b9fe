"""The joint solver: Box2D v3's soft-step joints, dispatched over the joint store's rows
with the contact solver's verbs.

``prepare_joints`` (once per step, after the contacts are prepared) picks the joints the
substeps solve (alive, enabled, one body awake and dynamic), marks their bodies for the
substep loop, works out each one's frame (joint_common) and rescales the warm start when
the substep count changed; per substep ``warm_start_joints`` applies the accumulated
impulses, ``solve_joints`` solves them before the contacts, with ``use_bias`` True, and again
without it (the relax pass) after the positions moved; ``store_joints`` turns the impulses
into reactions (N, N m), breaks the joints past their limits and moves ratchets on.
The substeps solve joints level by level (``order_joints``), which gives the slot order's
results: the same inputs give the same bits; the warm start walks them in slot order.

The stiff rows (points, rods, limits, locked angles) use the joints' softness for their
position bias, as Box2D v3 does: twice the contact hertz, the world's damping ratio
(``World.joint_damping_ratio``, 2 by default as Box2D v3's), but at most a quarter of the
substep rate (a chain of equal links at 100 Hz with 240 Hz substeps gained energy and flew
apart). Under a load F such a row gives F / (m_eff (2 pi f)^2): more substeps, stiffer
joints, whatever the damping ratio. A large ratio leaves the stiffness and makes the rows
rigid in velocity (mass scale near 1) with a slow position bias: a heavy body held by light
ones through stiff rows (a lander on its legs, their motors pushing them into their limits)
comes to rest at 8 substeps with ratio 20, where at ratio 2 it rocked on the rows' springs
for ever (16 substeps held it).
Springs have their own stiffness: k = m_eff (2 pi f)^2.
"""

import math
from collections import namedtuple

import numpy as np

from .._jit import njit
from .constants import (
    J_ALIVE,
    J_BROKEN,
    J_DISTANCE,
    J_ENABLED,
    J_GEAR,
    J_MOTOR,
    J_MOUSE,
    J_PRISMATIC,
    J_RATCHET,
    J_REVOLUTE,
    J_WELD,
    J_WHEEL,
)
from .joint_angle import prepare_angle, solve_angles, warm_start_angles
from .joint_common import (
    FR_DC,
    FR_JOINT,
    FR_SOFT,
    FR_SOFT2,
    I_ANG,
    I_LOWER,
    I_MOTOR,
    I_PERP,
    I_SPRING,
    I_UPPER,
    I_X,
    I_Y,
    current_anchors,
    current_axis,
    set_soft,
)
from .joint_distance import prepare_distance, solve_distances, unit_length, warm_start_distances
from .joint_gear import prepare_gear, solve_gears, warm_start_gears
from .joint_motor import prepare_motor, solve_motors
from .joint_mouse import prepare_mouse, solve_mice, warm_start_mice
from .joint_prismatic import prepare_prismatic, solve_prismatics, warm_start_prismatics
from .joint_revolute import prepare_revolute, solve_revolutes, warm_start_revolutes
from .joint_weld import prepare_weld, solve_welds, warm_start_welds
from .joint_wheel import prepare_wheel, solve_wheels, warm_start_wheels
from .solver import make_soft

# Joints ordered by level within windows of this many solved joints (``order_joints``): a
# few hundred joints' rows and bodies stay in a core's caches while a pass reorders them.
LEVEL_WINDOW = 256

# What a joint's ``solved`` code holds (prepare_joints): solved this step, and each of its
# bodies movable; 0 not solved. The order (order_joints) is made from these codes alone.
SOLVED = 1
A_MOVES = 2
B_MOVES = 4

# Narrow views for the kinds' runs, with the field names of the store's and the step's
# views: a compiled call passes every array of the tuples it is given field by field, 29
# arrays here against 96 in the whole views (the fixed cost of a run, paid per pass).
SolveJoints = namedtuple("SolveJoints", (
    "seq", "kind", "run", "body_a", "body_b", "flags", "imp", "frame", "ref_angle", "lower",
    "upper", "motor_speed", "max_motor", "hertz", "hertz2", "target", "length", "ratio",
    "notch", "max_force", "max_torque", "correction"))
SolveBodies = namedtuple("SolveBodies", ("vel", "angvel", "angle"))
SolveStep = namedtuple("SolveStep", ("inv_m", "inv_i", "dp", "dq"))


@njit(inline="always")
def narrow_joints(J, b, t, slot_order=False):
    """The substeps' views of the joints, bodies and step (``SolveJoints``, ``SolveBodies``,
    ``SolveStep``) from the whole ones; with ``slot_order`` True the joints go in slot
    order (``wseq``, ``wrun``: the warm start's), else level by level (``seq``, ``run``)."""
    seq = J.wseq if slot_order else J.seq
    run = J.wrun if slot_order else J.run
    return (SolveJoints(seq, J.kind, run, J.body_a, J.body_b, J.flags, J.imp, J.frame,
                        J.ref_angle, J.lower, J.upper, J.motor_speed, J.max_motor, J.hertz,
                        J.hertz2, J.target, J.length, J.ratio, J.notch, J.max_force,
                        J.max_torque, J.correction),
            SolveBodies(b.vel, b.angvel, b.angle), SolveStep(t.inv_m, t.inv_i, t.dp, t.dq))


# prepare_joints and store_joints run once a step but are inlined too: a call passes the
# whole views field by field.
@njit(inline="always")
def prepare_joints(J, n, b, t, h, contact_hertz, zeta, scale):
    """Frames of the joints the substeps solve, and their order (``order_joints``, made
    again only when a joint or a body's movability changed since it was made); returns how
    many. ``zeta``: the stiff rows' damping ratio. ``scale``: the warm start's factor (old
    substep count over new: the impulses are per substep)."""
    joint_soft = make_soft(min(2.0 * contact_hertz, 0.25 / h), zeta, h)
    # The last order stands while every joint is solved or not, and its bodies movable or
    # not, as when it was made (``solved``); ``count`` counts the solved joints.
    changed = False
    count = 0
    solved = J.solved
    inv_m = t.inv_m
    inv_i = t.inv_i
    for j in range(n):
        J.on[j] = False
        flags = J.flags[j]
        code = 0
        ia = J.body_a[j]
        ib = J.body_b[j]
        if ((flags & J_ALIVE) and (flags & J_ENABLED)
                and not (inv_m[ib] == 0.0 and (ia < 0 or inv_m[ia] == 0.0))):
            # (else nothing to move: asleep, or between fixed bodies). Immovable bodies
            # (static, kinematic, asleep, the world) have zero inverse masses.
            code = SOLVED
            if ia >= 0 and (inv_m[ia] > 0.0 or inv_i[ia] > 0.0):
                code |= A_MOVES
            if inv_m[ib] > 0.0 or inv_i[ib] > 0.0:
                code |= B_MOVES
        if solved[j] != code:
            solved[j] = code
            changed = True
        if code == 0:
            continue
        count += 1
        J.on[j] = True
        imp = J.imp[j]
        if scale != 1.0:
            for r in range(imp.shape[0]):
                imp[r] *= scale
        f = J.frame[j]
        set_soft(f, FR_JOINT, joint_soft)
        set_soft(f, FR_SOFT, make_soft(J.hertz[j], J.zeta[j], h))
        set_soft(f, FR_SOFT2, make_soft(J.hertz2[j], J.zeta2[j], h))
        t.touched[ib] = True
        kind = J.kind[j]
        if kind == J_MOUSE:
            f[FR_DC] = t.com[ib, 0] - J.point[j, 0]
            f[FR_DC + 1] = t.com[ib, 1] - J.point[j, 1]
            prepare_mouse(J, j, b, t, ib)
            continue
        t.touched[ia] = True
        f[FR_DC] = t.com[ib, 0] - t.com[ia, 0]
        f[FR_DC + 1] = t.com[ib, 1] - t.com[ia, 1]
        if kind == J_REVOLUTE:
            prepare_revolute(J, j, b, t, ia, ib)
        elif kind == J_PRISMATIC:
            prepare_prismatic(J, j, b, t, ia, ib)
        elif kind == J_WHEEL:
            prepare_wheel(J, j, b, t, ia, ib)
        elif kind == J_DISTANCE:
            prepare_distance(J, j, b, t, ia, ib)
        elif kind == J_WELD:
            prepare_weld(J, j, b, t, ia, ib)
        elif kind == J_MOTOR:
            prepare_motor(J, j, b, t, ia, ib)
        elif kind == J_GEAR:
            prepare_gear(J, j, b, t, ia, ib)
        else:
            prepare_angle(J, j, b, t, ia, ib)
    return order_joints(J, n, t) if changed else count


@njit(inline="always")
def order_joints(J, n, t):
    """The solve order of the joints ``prepare_joints`` marked solved (their ``solved``
    codes, which also say which bodies move), level by level: a joint's level is one
    more than the highest level of the joints before it (in slot order) that share one of
    its movable bodies, and ``seq`` lists the joints by level, in slot order within one (a
    counting sort). Two joints of one level share no movable body, so consecutive joints
    do not wait on each other's velocities (the CPU overlaps them, as Box2D v3's graph
    colouring lets it); two that share one keep their slot order, so the passes give the
    slot order's results bit for bit (joints that share no movable body commute). Each
    ``LEVEL_WINDOW`` joints start above every level before them: a pass then reorders
    joints only within a window, whose rows stay in cache. ``run``, at the first position
    of each run of one kind in ``seq``, holds one past its last. Returns how many joints
    are solved."""
    solved = J.solved
    body_a = J.body_a
    body_b = J.body_b
    kinds = J.kind
    level = J.level
    seq = J.seq
    run = J.run
    wseq = J.wseq
    # Each body's next free level: the islands' integer room, free once they woke what the
    # contacts and joints link.
    nxt = t.body_int
    for j in range(n):
        if solved[j] > 0:
            nxt[body_b[j]] = 0
            if body_a[j] >= 0:
                nxt[body_a[j]] = 0
    # Levels, counted in ``run`` (a level is at most the number of joints before it, so
    # n entries hold the counts; the runs are written over them once ``seq`` is filled).
    count = 0
    top = 0
    base = 0
    for j in range(n):
        code = solved[j]
        if code <= 0:
            continue
        if count % LEVEL_WINDOW == 0:
            base = top
        ia = body_a[j]
        ib = body_b[j]
        # A joint leaves an immovable body's velocities as they are (a -0.0 may become 0.0,
        # which no moving body reads differently), so such bodies are shared freely, as in
        # the contacts' colouring.
        ma = (code & A_MOVES) != 0
        mb = (code & B_MOVES) != 0
        lv = base
        if ma:
            lv = max(lv, nxt[ia])
        if mb:
            lv = max(lv, nxt[ib])
            nxt[ib] = lv + 1
        if ma:
            nxt[ia] = lv + 1
        level[j] = lv
        wseq[count] = j
        if lv == top:
            run[top] = 0
            top += 1
        run[lv] += 1
        count += 1
    first = 0
    for lv in range(top):
        size = run[lv]
        run[lv] = first
        first += size
    for j in range(n):
        if solved[j] > 0:
            seq[run[level[j]]] = j
            run[level[j]] += 1
    _mark_runs(kinds, seq, run, count)
    _mark_runs(kinds, wseq, J.wrun, count)
    return count


@njit(inline="always")
def _mark_runs(kinds, seq, run, count):
    """At the first position of each run of one kind along ``seq[:count]``, one past its
    last, in ``run``."""
    q = 0
    while q < count:
        kind = kinds[seq[q]]
        e = q + 1
        while e < count and kinds[seq[e]] == kind:
            e += 1
        run[q] = e
        q = e


# The dispatchers below are inlined into the substep stages and take the narrow views. A
# kind's run functions are compiled calls (each kind's code once, not at every call site),
# except the revolute's, inlined: a call passes the views' thirty arrays field by field,
# 0.1 us, which was two thirds of a two-joint world's substep; the revolute is the joint of
# ragdolls, walkers, landers, chains and grids, and inlining every kind tripled the step's
# compile time (72 -> 205 s; the revolute alone: 83 s).
@njit(inline="always")
def warm_start_joints(jr, bs, ts, n):
    """Apply the ``n`` solved joints' accumulated impulses, a run of one kind at a time."""
    seq = jr.seq
    kinds = jr.kind
    runs = jr.run
    j = np.int64(0)  # positions are int64: the run functions' one signature
    while j < n:
        kind = kinds[seq[j]]
        e = runs[j]
        if kind == J_REVOLUTE:
            warm_start_revolutes(jr, bs, ts, j, e)
        elif kind == J_PRISMATIC:
            warm_start_prismatics(jr, bs, ts, j, e)
        elif kind == J_WHEEL:
            warm_start_wheels(jr, bs, ts, j, e)
        elif kind == J_DISTANCE:
            warm_start_distances(jr, bs, ts, j, e)
        elif kind == J_WELD or kind == J_MOTOR:
            warm_start_welds(jr, bs, ts, j, e)
        elif kind == J_MOUSE:
            warm_start_mice(jr, bs, ts, j, e)
        elif kind == J_GEAR:
            warm_start_gears(jr, bs, ts, j, e)
        else:
            warm_start_angles(jr, bs, ts, j, e)
        j = e


@njit(inline="always")
def solve_joints(jr, bs, ts, n, h, use_bias):
    """One pass over the ``n`` solved joints in their solve order (``order_joints``), a run
    of one kind at a time; ``use_bias`` a runtime bool (the biased pass and the relax pass
    share one compiled function per kind)."""
    seq = jr.seq
    kinds = jr.kind
    runs = jr.run
    j = np.int64(0)  # positions are int64: the run functions' one signature
    while j < n:
        kind = kinds[seq[j]]
        e = runs[j]
        if kind == J_REVOLUTE:
            solve_revolutes(jr, bs, ts, j, e, h, use_bias)
        elif kind == J_PRISMATIC:
            solve_prismatics(jr, bs, ts, j, e, h, use_bias)
        elif kind == J_WHEEL:
            solve_wheels(jr, bs, ts, j, e, h, use_bias)
        elif kind == J_DISTANCE:
            solve_distances(jr, bs, ts, j, e, h, use_bias)
        elif kind == J_WELD:
            solve_welds(jr, bs, ts, j, e, h, use_bias)
        elif kind == J_MOTOR:
            solve_motors(jr, bs, ts, j, e, h, use_bias)
        elif kind == J_MOUSE:
            solve_mice(jr, bs, ts, j, e, h)
        elif kind == J_GEAR:
            solve_gears(jr, bs, ts, j, e, h, use_bias)
        else:
            solve_angles(jr, bs, ts, j, e, h, use_bias)
        j = e


@njit(inline="always")
def store_joints(J, n, b, t, h):
    """Reactions on B from the last substep's impulses (force N, torque N m), the joints
    they break (disabled and marked ``J_BROKEN``; returns how many) and ratchets moved on.
    Joints not solved this step report no reaction. Arrays are loaded once and indexed in
    place, as in the substeps' runs."""
    broken = 0
    on = J.on
    kinds = J.kind
    flags = J.flags
    body_a = J.body_a
    body_b = J.body_b
    imp = J.imp
    frame = J.frame
    reaction = J.reaction
    ratio = J.ratio
    notch = J.notch
    ref_angle = J.ref_angle
    break_force = J.break_force
    break_torque = J.break_torque
    angle = b.angle
    dp = t.dp
    dq = t.dq
    inv_h = 1.0 / h
    for j in range(n):
        rx = 0.0
        ry = 0.0
        tq = 0.0
        if on[j]:
            ia = body_a[j]
            ib = body_b[j]
            kind = kinds[j]
            # The last substep's impulse on B: linear (x, y) and the joint's own angular
            # part.
            axial = imp[j, I_SPRING] + imp[j, I_MOTOR] + imp[j, I_LOWER] - imp[j, I_UPPER]
            if kind == J_REVOLUTE:
                rx, ry, tq = imp[j, I_X], imp[j, I_Y], axial
            elif kind == J_PRISMATIC or kind == J_WHEEL:
                ax, ay = current_axis(frame, j, dq, ia)
                if kind == J_PRISMATIC:
                    rx = axial * ax - imp[j, I_X] * ay
                    ry = axial * ay + imp[j, I_X] * ax
                    tq = imp[j, I_Y]
                else:
                    axial -= imp[j, I_MOTOR]
                    rx = axial * ax - imp[j, I_PERP] * ay
                    ry = axial * ay + imp[j, I_PERP] * ax
                    tq = imp[j, I_MOTOR]
            elif kind == J_DISTANCE:
                _, _, _, _, dx, dy = current_anchors(frame, j, dp, dq, ia, ib)
                ux, uy, _ = unit_length(dx, dy)
                rx = axial * ux
                ry = axial * uy
            elif kind == J_WELD or kind == J_MOTOR or kind == J_MOUSE:
                rx, ry, tq = imp[j, I_X], imp[j, I_Y], imp[j, I_ANG]
            elif kind == J_GEAR:
                tq = imp[j, I_ANG]
            else:
                tq = axial
            if flags[j] & J_RATCHET:
                # The notch moves to the last step the angle passed.
                step = ratio[j]
                gone = (angle[ib] - angle[ia] - ref_angle[j] - notch[j]) / step
                if gone >= 1.0:
                    notch[j] += step * math.floor(gone)
        reaction[j, 0] = rx * inv_h
        reaction[j, 1] = ry * inv_h
        reaction[j, 2] = tq * inv_h
        if on[j] and (math.sqrt(rx * rx + ry * ry) * inv_h > break_force[j]
                      or abs(tq) * inv_h > break_torque[j]):
            flags[j] = (flags[j] & ~J_ENABLED) | J_BROKEN
            for r in range(imp.shape[1]):
                imp[j, r] = 0.0
            broken += 1
    return broken
