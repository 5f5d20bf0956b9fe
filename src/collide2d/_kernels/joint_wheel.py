"""Wheel joint: B's anchor slides along A's axis (a point-on-line constraint, stiff), B
turns freely; a spring along the axis (the suspension; hertz 0: a free groove), limits
along the axis and a motor torque on the relative rotation. Box2D v3's wheel joint."""

from .._jit import njit
from .constants import J_MOTOR_ON
from .joint_common import (
    FR_AXIS,
    FR_DC,
    FR_EXTRA,
    FR_JOINT,
    FR_MASS,
    FR_RA,
    FR_RB,
    FR_SOFT,
    I_LOWER,
    I_MOTOR,
    I_PERP,
    I_SPRING,
    I_UPPER,
    push,
    rotate,
)
from .joint_prismatic import axial_impulses, axis_terms, prepare_prismatic


@njit(inline="always")
def prepare_wheel(J, j, b, t, ia, ib):
    f = J.frame[j]
    prepare_prismatic(J, j, b, t, ia, ib)
    ax, ay, dx, dy, rax, ray, rbx, rby = axis_terms(f, t, ia, ib)
    s1 = (dx + rax) * ax + (dy + ray) * ay   # (d + rA) x perp, perp = (-ay, ax)
    s2 = rbx * ax + rby * ay
    k = t.inv_m[ia] + t.inv_m[ib] + t.inv_i[ia] * s1 * s1 + t.inv_i[ib] * s2 * s2
    f[FR_EXTRA] = 1.0 / k if k > 0.0 else 0.0


@njit
def warm_start_wheels(J, b, t, s, e):
    """Warm start the wheel joints of slots [s, e) (see ``joint_revolute``)."""
    on = J.on
    body_a = J.body_a
    body_b = J.body_b
    frame = J.frame
    imp = J.imp
    vel = b.vel
    angvel = b.angvel
    inv_m = t.inv_m
    inv_i = t.inv_i
    dp = t.dp
    dq = t.dq
    for j in range(s, e):
        if not on[j]:
            continue
        ia = body_a[j]
        ib = body_b[j]
        rax, ray = rotate(dq[ia, 0], dq[ia, 1], frame[j, FR_RA], frame[j, FR_RA + 1])
        rbx, rby = rotate(dq[ib, 0], dq[ib, 1], frame[j, FR_RB], frame[j, FR_RB + 1])
        dx = dp[ib, 0] - dp[ia, 0] + rbx - rax + frame[j, FR_DC]
        dy = dp[ib, 1] - dp[ia, 1] + rby - ray + frame[j, FR_DC + 1]
        ax, ay = rotate(dq[ia, 0], dq[ia, 1], frame[j, FR_AXIS], frame[j, FR_AXIS + 1])
        a1 = (dx + rax) * ay - (dy + ray) * ax
        a2 = rbx * ay - rby * ax
        s1 = (dx + rax) * ax + (dy + ray) * ay
        s2 = rbx * ax + rby * ay
        axial = imp[j, I_SPRING] + imp[j, I_LOWER] - imp[j, I_UPPER]
        p = imp[j, I_PERP]
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib],
            inv_m[ia], inv_i[ia], inv_m[ib], inv_i[ib], axial * ax - p * ay,
            axial * ay + p * ax, axial * a1 + p * s1 + imp[j, I_MOTOR],
            axial * a2 + p * s2 + imp[j, I_MOTOR])


@njit
def solve_wheels(J, b, t, s, e, h, use_bias):
    on = J.on
    body_a = J.body_a
    body_b = J.body_b
    flags = J.flags
    frame = J.frame
    imp = J.imp
    hertz = J.hertz
    target = J.target
    motor_speed = J.motor_speed
    max_motor = J.max_motor
    lower = J.lower
    upper = J.upper
    vel = b.vel
    angvel = b.angvel
    inv_m = t.inv_m
    inv_i = t.inv_i
    dp = t.dp
    dq = t.dq
    for j in range(s, e):
        if not on[j]:
            continue
        ia = body_a[j]
        ib = body_b[j]
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
        rax, ray = rotate(dq[ia, 0], dq[ia, 1], frame[j, FR_RA], frame[j, FR_RA + 1])
        rbx, rby = rotate(dq[ib, 0], dq[ib, 1], frame[j, FR_RB], frame[j, FR_RB + 1])
        dx = dp[ib, 0] - dp[ia, 0] + rbx - rax + frame[j, FR_DC]
        dy = dp[ib, 1] - dp[ia, 1] + rby - ray + frame[j, FR_DC + 1]
        ax, ay = rotate(dq[ia, 0], dq[ia, 1], frame[j, FR_AXIS], frame[j, FR_AXIS + 1])
        translation = ax * dx + ay * dy
        a1 = (dx + rax) * ay - (dy + ray) * ax
        a2 = rbx * ay - rby * ax
        (imp[j, I_SPRING], _, imp[j, I_LOWER], imp[j, I_UPPER], vax, vay, wa, vbx, vby,
         wb) = axial_impulses(
            flags[j], frame[j, FR_MASS],
            (frame[j, FR_SOFT], frame[j, FR_SOFT + 1], frame[j, FR_SOFT + 2],
             frame[j, FR_JOINT], frame[j, FR_JOINT + 1], frame[j, FR_JOINT + 2]),
            hertz[j], target[j], motor_speed[j], h * max_motor[j], lower[j], upper[j],
            translation, h, use_bias, False, ax, ay, a1, a2, (ma, ia_, mb, ib_),
            (vel[ia, 0], vel[ia, 1], wa, vel[ib, 0], vel[ib, 1], wb),
            (imp[j, I_SPRING], 0.0, imp[j, I_LOWER], imp[j, I_UPPER]))
        # Point on line: the anchors' offset across the axis.
        px_ = -ay
        py_ = ax
        s1 = (dx + rax) * ax + (dy + ray) * ay
        s2 = rbx * ax + rby * ay
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
