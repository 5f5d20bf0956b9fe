"""Wheel joint: B's anchor slides along A's axis (a point-on-line constraint, stiff), B
turns freely; a spring along the axis (the suspension; hertz 0: a free groove), limits
along the axis and a motor torque on the relative rotation. Box2D v3's wheel joint."""

from .._jit import njit
from .constants import J_MOTOR_ON
from .joint_common import (
    FR_EXTRA,
    FR_JOINT,
    I_LOWER,
    I_MOTOR,
    I_PERP,
    I_SPRING,
    I_UPPER,
    apply,
)
from .joint_prismatic import axial_rows, axis_terms, prepare_prismatic


@njit(inline="always")
def prepare_wheel(J, j, b, t, ia, ib):
    f = J.frame[j]
    prepare_prismatic(J, j, b, t, ia, ib)
    ax, ay, dx, dy, rax, ray, rbx, rby = axis_terms(f, t, ia, ib)
    s1 = (dx + rax) * ax + (dy + ray) * ay   # (d + rA) x perp, perp = (-ay, ax)
    s2 = rbx * ax + rby * ay
    k = t.inv_m[ia] + t.inv_m[ib] + t.inv_i[ia] * s1 * s1 + t.inv_i[ib] * s2 * s2
    f[FR_EXTRA] = 1.0 / k if k > 0.0 else 0.0


@njit(inline="always")
def warm_start_wheel(J, j, b, t, ia, ib):
    f = J.frame[j]
    imp = J.imp[j]
    ax, ay, dx, dy, rax, ray, rbx, rby = axis_terms(f, t, ia, ib)
    a1 = (dx + rax) * ay - (dy + ray) * ax
    a2 = rbx * ay - rby * ax
    s1 = (dx + rax) * ax + (dy + ray) * ay
    s2 = rbx * ax + rby * ay
    axial = imp[I_SPRING] + imp[I_LOWER] - imp[I_UPPER]
    p = imp[I_PERP]
    apply(b, ia, ib, t.inv_m[ia], t.inv_i[ia], t.inv_m[ib], t.inv_i[ib],
          axial * ax - p * ay, axial * ay + p * ax, axial * a1 + p * s1 + imp[I_MOTOR],
          axial * a2 + p * s2 + imp[I_MOTOR])


@njit(inline="always")
def solve_wheel(J, j, b, t, ia, ib, h, use_bias):
    f = J.frame[j]
    imp = J.imp[j]
    ma = t.inv_m[ia]
    mb = t.inv_m[ib]
    ia_ = t.inv_i[ia]
    ib_ = t.inv_i[ib]
    if J.flags[j] & J_MOTOR_ON:
        k = ia_ + ib_
        if k > 0.0:
            cdot = b.angvel[ib] - b.angvel[ia] - J.motor_speed[j]
            old = imp[I_MOTOR]
            top = h * J.max_motor[j]
            new = min(max(old - cdot / k, -top), top)
            imp[I_MOTOR] = new
            b.angvel[ia] -= ia_ * (new - old)
            b.angvel[ib] += ib_ * (new - old)
    ax, ay, dx, dy, rax, ray, rbx, rby = axis_terms(f, t, ia, ib)
    translation = ax * dx + ay * dy
    a1 = (dx + rax) * ay - (dy + ray) * ax
    a2 = rbx * ay - rby * ax
    axial_rows(J, j, f, b, t, ia, ib, ax, ay, a1, a2, translation, h, use_bias, False)
    # Point on line: the anchors' offset across the axis.
    px_ = -ay
    py_ = ax
    s1 = (dx + rax) * ax + (dy + ray) * ay
    s2 = rbx * ax + rby * ay
    cdot = (px_ * (b.vel[ib, 0] - b.vel[ia, 0]) + py_ * (b.vel[ib, 1] - b.vel[ia, 1])
            + s2 * b.angvel[ib] - s1 * b.angvel[ia])
    ms = 1.0
    is_ = 0.0
    if use_bias:
        cdot += f[FR_JOINT] * (px_ * dx + py_ * dy)
        ms = f[FR_JOINT + 1]
        is_ = f[FR_JOINT + 2]
    d = -ms * f[FR_EXTRA] * cdot - is_ * imp[I_PERP]
    imp[I_PERP] += d
    apply(b, ia, ib, ma, ia_, mb, ib_, d * px_, d * py_, d * s1, d * s2)
