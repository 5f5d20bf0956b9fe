"""Wheel joint: B's anchor slides along A's axis (a point-on-line constraint, stiff), B
turns freely; a spring along the axis (the suspension; hertz 0: a free groove), limits
along the axis and a motor torque on the relative rotation. Box2D v3's wheel joint."""

import numpy as np

from .._jit import njit
from .constants import J_MOTOR_ON
from .joint_common import (
    FR_EXTRA,
    FR_JOINT,
    FR_MASS,
    FR_SOFT,
    I_LOWER,
    I_MOTOR,
    I_PERP,
    I_SPRING,
    I_UPPER,
    arms,
    current_anchors,
    current_axis,
    push,
    run_arrays,
)
from .joint_prismatic import axial_impulses, prepare_prismatic


@njit(inline="always")
def prepare_wheel(J, j, b, t, ia, ib):
    f = J.frame[j]
    prepare_prismatic(J, j, b, t, ia, ib)
    rax, ray, rbx, rby, dx, dy = current_anchors(J.frame, j, t.dp, t.dq, ia, ib)
    ax, ay = current_axis(J.frame, j, t.dq, ia)
    s1, s2 = arms(-ay, ax, dx, dy, rax, ray, rbx, rby)  # across the axis
    k = t.inv_m[ia] + t.inv_m[ib] + t.inv_i[ia] * s1 * s1 + t.inv_i[ib] * s2 * s2
    f[FR_EXTRA] = 1.0 / k if k > 0.0 else 0.0


@njit(_nrt=False)
def warm_start_wheels(J, b, t, s, e):
    """Warm start the wheel joints at positions [s, e) of ``seq`` (see ``joint_revolute``)."""
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        rax, ray, rbx, rby, dx, dy = current_anchors(frame, j, dp, dq, ia, ib)
        ax, ay = current_axis(frame, j, dq, ia)
        a1, a2 = arms(ax, ay, dx, dy, rax, ray, rbx, rby)
        s1, s2 = arms(-ay, ax, dx, dy, rax, ray, rbx, rby)  # across the axis
        axial = imp[j, I_SPRING] + imp[j, I_LOWER] - imp[j, I_UPPER]
        p = imp[j, I_PERP]
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib],
            inv_m[ia], inv_i[ia], inv_m[ib], inv_i[ib], axial * ax - p * ay,
            axial * ay + p * ax, axial * a1 + p * s1 + imp[j, I_MOTOR],
            axial * a2 + p * s2 + imp[j, I_MOTOR])


@njit(_nrt=False)
def solve_wheels(J, b, t, s, e, h, use_bias):
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    flags = J.flags
    hertz = J.hertz
    target = J.target
    motor_speed = J.motor_speed
    max_motor = J.max_motor
    lower = J.lower
    upper = J.upper
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        ma = inv_m[ia]
        mb = inv_m[ib]
        ia_ = inv_i[ia]
        ib_ = inv_i[ib]
        wa = angvel[ia]
        wb = angvel[ib]
        if flags[j] & J_MOTOR_ON:
            k = ia_ + ib_
            if k > 0.0:
                cdot = wb - wa - motor_speed[j]
                old = imp[j, I_MOTOR]
                top = h * max_motor[j]
                new = min(max(old - cdot / k, -top), top)
                imp[j, I_MOTOR] = new
                wa -= ia_ * (new - old)
                wb += ib_ * (new - old)
        rax, ray, rbx, rby, dx, dy = current_anchors(frame, j, dp, dq, ia, ib)
        ax, ay = current_axis(frame, j, dq, ia)
        translation = ax * dx + ay * dy
        a1, a2 = arms(ax, ay, dx, dy, rax, ray, rbx, rby)
        (imp[j, I_SPRING], _, imp[j, I_LOWER], imp[j, I_UPPER], vax, vay, wa, vbx, vby,
         wb) = axial_impulses(
            flags[j], frame[j, FR_MASS],
            (frame[j, FR_SOFT], frame[j, FR_SOFT + 1], frame[j, FR_SOFT + 2],
             frame[j, FR_JOINT], frame[j, FR_JOINT + 1], frame[j, FR_JOINT + 2]),
            (hertz[j], target[j], motor_speed[j], h * max_motor[j]),
            (lower[j], upper[j], translation), h, use_bias, False, (ax, ay, a1, a2),
            (ma, ia_, mb, ib_),
            (vel[ia, 0], vel[ia, 1], wa, vel[ib, 0], vel[ib, 1], wb),
            (imp[j, I_SPRING], 0.0, imp[j, I_LOWER], imp[j, I_UPPER]))
        # Point on line: the anchors' offset across the axis.
        px_ = -ay
        py_ = ax
        s1, s2 = arms(-ay, ax, dx, dy, rax, ray, rbx, rby)  # across the axis
        cdot = px_ * (vbx - vax) + py_ * (vby - vay) + s2 * wb - s1 * wa
        ms = 1.0
        is_ = 0.0
        if use_bias:
            cdot += frame[j, FR_JOINT] * (px_ * dx + py_ * dy)
            ms = frame[j, FR_JOINT + 1]
            is_ = frame[j, FR_JOINT + 2]
        d = -ms * frame[j, FR_EXTRA] * cdot - is_ * imp[j, I_PERP]
        imp[j, I_PERP] += d
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vax, vay, wa, vbx, vby, wb, ma, ia_, mb, ib_, d * px_, d * py_, d * s1, d * s2)
