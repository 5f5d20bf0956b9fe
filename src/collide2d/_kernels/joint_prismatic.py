"""Prismatic joint: B slides along A's axis through the anchor, its rotation locked to A's
(a 2x2 block: the perpendicular offset and the relative angle), with an optional spring
toward a target translation, a motor and translation limits along the axis. Box2D v3's
prismatic joint. ``axial_impulses`` is shared with the wheel joint."""

import numpy as np

from .._jit import njit
from .constants import J_MOTOR_ON, J_SPRING
from .joint_common import (
    FR_AXIS,
    FR_JOINT,
    FR_MASS,
    FR_RA,
    FR_RB,
    FR_SOFT,
    I_LOWER,
    I_MOTOR,
    I_SPRING,
    I_UPPER,
    I_X,
    I_Y,
    arms,
    current_anchors,
    current_axis,
    has_limit,
    limit_impulse,
    push,
    rotate,
    run_arrays,
    start_anchor,
)


@njit(inline="always")
def prepare_prismatic(J, j, b, t, ia, ib):
    """Anchors, A's axis in world frame, and the effective mass along it."""
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    f[FR_AXIS], f[FR_AXIS + 1] = rotate(b.rot[ia, 0], b.rot[ia, 1], J.axis[j, 0], J.axis[j, 1])
    rax, ray, rbx, rby, dx, dy = current_anchors(J.frame, j, t.dp, t.dq, ia, ib)
    ax, ay = current_axis(J.frame, j, t.dq, ia)
    a1, a2 = arms(ax, ay, dx, dy, rax, ray, rbx, rby)
    k = t.inv_m[ia] + t.inv_m[ib] + t.inv_i[ia] * a1 * a1 + t.inv_i[ib] * a2 * a2
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0


# Scalars in and out (see ``joint_revolute``): the bodies' velocities are locals of the
# run's loop.
@njit(inline="always")
def axial_impulses(flags, k, softs, drive, limits, h, use_bias, motor, axis, masses, vels,
                   imps):
    """Spring, motor (``motor``: a force along the axis; the wheel's motor is a torque) and
    limits along the axis: impulse P = lambda * axis, with angular parts lambda * a1 on A and
    lambda * a2 on B. The new accumulated impulses and velocities. Tuples of floats group
    the arguments: ``softs`` the spring's and the joints' soft records, ``drive`` (hertz,
    target, speed, top), ``limits`` (lower, upper, the translation), ``axis`` (ax, ay, a1,
    a2), ``masses`` (mA, iA, mB, iB), ``vels`` (vA, wA, vB, wB), ``imps`` the spring, motor,
    lower and upper impulses."""
    spring_b, spring_m, spring_i, sb, sm, si = softs
    hertz, target, speed, top = drive
    lower, upper, translation = limits
    ax, ay, a1, a2 = axis
    ma, ia_, mb, ib_ = masses
    vax, vay, wa, vbx, vby, wb = vels
    spring, mot, lo, hi = imps
    if (flags & J_SPRING) and hertz > 0.0:
        c = translation - target
        cdot = _axial_speed(ax, ay, a1, a2, vax, vay, wa, vbx, vby, wb)
        d = -spring_m * k * (cdot + spring_b * c) - spring_i * spring
        spring += d
        vax, vay, wa, vbx, vby, wb = push(vax, vay, wa, vbx, vby, wb, ma, ia_, mb, ib_,
                                          d * ax, d * ay, d * a1, d * a2)
    if motor and (flags & J_MOTOR_ON):
        cdot = _axial_speed(ax, ay, a1, a2, vax, vay, wa, vbx, vby, wb)
        old = mot
        mot = min(max(old + k * (speed - cdot), -top), top)
        d = mot - old
        vax, vay, wa, vbx, vby, wb = push(vax, vay, wa, vbx, vby, wb, ma, ia_, mb, ib_,
                                          d * ax, d * ay, d * a1, d * a2)
    if has_limit(flags):
        old = lo
        lo = limit_impulse(k, _axial_speed(ax, ay, a1, a2, vax, vay, wa, vbx, vby, wb),
                           translation - lower, old, h, use_bias, sb, sm, si)
        d = lo - old
        vax, vay, wa, vbx, vby, wb = push(vax, vay, wa, vbx, vby, wb, ma, ia_, mb, ib_,
                                          d * ax, d * ay, d * a1, d * a2)
        old = hi
        hi = limit_impulse(k, -_axial_speed(ax, ay, a1, a2, vax, vay, wa, vbx, vby, wb),
                           upper - translation, old, h, use_bias, sb, sm, si)
        d = old - hi
        vax, vay, wa, vbx, vby, wb = push(vax, vay, wa, vbx, vby, wb, ma, ia_, mb, ib_,
                                          d * ax, d * ay, d * a1, d * a2)
    return spring, mot, lo, hi, vax, vay, wa, vbx, vby, wb


@njit(inline="always")
def _axial_speed(ax, ay, a1, a2, vax, vay, wa, vbx, vby, wb):
    return ax * (vbx - vax) + ay * (vby - vay) + a2 * wb - a1 * wa


@njit(_nrt=False)
def warm_start_prismatics(J, b, t, s, e):
    """Warm start the prismatic joints at positions [s, e) of ``seq`` (see ``joint_revolute``)."""
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        rax, ray, rbx, rby, dx, dy = current_anchors(frame, j, dp, dq, ia, ib)
        ax, ay = current_axis(frame, j, dq, ia)
        a1, a2 = arms(ax, ay, dx, dy, rax, ray, rbx, rby)
        px_ = -ay  # the perpendicular: A's axis turned a quarter left
        py_ = ax
        s1, s2 = arms(px_, py_, dx, dy, rax, ray, rbx, rby)
        axial = imp[j, I_SPRING] + imp[j, I_MOTOR] + imp[j, I_LOWER] - imp[j, I_UPPER]
        px = axial * ax + imp[j, I_X] * px_
        py = axial * ay + imp[j, I_X] * py_
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib],
            inv_m[ia], inv_i[ia], inv_m[ib], inv_i[ib], px, py,
            axial * a1 + imp[j, I_X] * s1 + imp[j, I_Y],
            axial * a2 + imp[j, I_X] * s2 + imp[j, I_Y])


@njit(_nrt=False)
def solve_prismatics(J, b, t, s, e, h, use_bias):
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    flags = J.flags
    ref_angle = J.ref_angle
    hertz = J.hertz
    target = J.target
    motor_speed = J.motor_speed
    max_motor = J.max_motor
    lower = J.lower
    upper = J.upper
    angle = b.angle
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        ma = inv_m[ia]
        mb = inv_m[ib]
        ia_ = inv_i[ia]
        ib_ = inv_i[ib]
        rax, ray, rbx, rby, dx, dy = current_anchors(frame, j, dp, dq, ia, ib)
        ax, ay = current_axis(frame, j, dq, ia)
        translation = ax * dx + ay * dy
        a1, a2 = arms(ax, ay, dx, dy, rax, ray, rbx, rby)
        (imp[j, I_SPRING], imp[j, I_MOTOR], imp[j, I_LOWER], imp[j, I_UPPER], vax, vay, wa,
         vbx, vby, wb) = axial_impulses(
            flags[j], frame[j, FR_MASS],
            (frame[j, FR_SOFT], frame[j, FR_SOFT + 1], frame[j, FR_SOFT + 2],
             frame[j, FR_JOINT], frame[j, FR_JOINT + 1], frame[j, FR_JOINT + 2]),
            (hertz[j], target[j], motor_speed[j], h * max_motor[j]),
            (lower[j], upper[j], translation), h, use_bias, True, (ax, ay, a1, a2),
            (ma, ia_, mb, ib_),
            (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]),
            (imp[j, I_SPRING], imp[j, I_MOTOR], imp[j, I_LOWER], imp[j, I_UPPER]))
        # The perpendicular offset and the relative angle, solved together.
        px_ = -ay
        py_ = ax
        s1, s2 = arms(px_, py_, dx, dy, rax, ray, rbx, rby)
        c1 = px_ * (vbx - vax) + py_ * (vby - vay) + s2 * wb - s1 * wa
        c2 = wb - wa
        ms = 1.0
        is_ = 0.0
        if use_bias:
            c1 += frame[j, FR_JOINT] * (px_ * dx + py_ * dy)
            c2 += frame[j, FR_JOINT] * (angle[ib] - angle[ia] - ref_angle[j])
            ms = frame[j, FR_JOINT + 1]
            is_ = frame[j, FR_JOINT + 2]
        k11 = ma + mb + ia_ * s1 * s1 + ib_ * s2 * s2
        k12 = ia_ * s1 + ib_ * s2
        k22 = ia_ + ib_
        if k22 == 0.0:
            k22 = 1.0  # both rotations fixed: the angular row is idle
        det = k11 * k22 - k12 * k12
        if det != 0.0:
            det = 1.0 / det
        x = det * (k22 * c1 - k12 * c2)
        y = det * (k11 * c2 - k12 * c1)
        lx = -ms * x - is_ * imp[j, I_X]
        ly = -ms * y - is_ * imp[j, I_Y]
        imp[j, I_X] += lx
        imp[j, I_Y] += ly
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vax, vay, wa, vbx, vby, wb, ma, ia_, mb, ib_, lx * px_, lx * py_, lx * s1 + ly,
            lx * s2 + ly)
