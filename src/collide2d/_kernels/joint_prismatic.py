"""Prismatic joint: B slides along A's axis through the anchor, its rotation locked to A's
(a 2x2 block: the perpendicular offset and the relative angle), with an optional spring
toward a target translation, a motor and translation limits along the axis. Box2D v3's
prismatic joint. ``axis_terms`` is shared with the wheel joint."""

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
    anchors,
    apply,
    has_limit,
    limit_impulse,
    rotate,
    separation,
    start_anchor,
)


@njit(inline="always")
def prepare_prismatic(J, j, b, t, ia, ib):
    """Anchors, A's axis in world frame, and the effective mass along it."""
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    f[FR_AXIS], f[FR_AXIS + 1] = rotate(b.rot[ia, 0], b.rot[ia, 1], J.axis[j, 0], J.axis[j, 1])
    ax, ay, dx, dy, rax, ray, rbx, rby = axis_terms(f, t, ia, ib)
    a1 = (dx + rax) * ay - (dy + ray) * ax
    a2 = rbx * ay - rby * ax
    k = t.inv_m[ia] + t.inv_m[ib] + t.inv_i[ia] * a1 * a1 + t.inv_i[ib] * a2 * a2
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(inline="always")
def axis_terms(f, t, ia, ib):
    """A's axis now, the separation of the anchors and the anchors themselves."""
    rax, ray, rbx, rby = anchors(f, t, ia, ib)
    dx, dy = separation(f, t, ia, ib, rax, ray, rbx, rby)
    ax, ay = rotate(t.dq[ia, 0], t.dq[ia, 1], f[FR_AXIS], f[FR_AXIS + 1])
    return ax, ay, dx, dy, rax, ray, rbx, rby


@njit(inline="always")
def axial_rows(J, j, f, b, t, ia, ib, ax, ay, a1, a2, translation, h, use_bias, motor):
    """Spring, motor (``motor``: a force along the axis; the wheel's motor is a torque) and
    limits along the axis: impulse P = lambda * axis, with angular parts lambda * a1 on A and
    lambda * a2 on B."""
    imp = J.imp[j]
    flags = J.flags[j]
    k = f[FR_MASS]
    ma = t.inv_m[ia]
    mb = t.inv_m[ib]
    ia_ = t.inv_i[ia]
    ib_ = t.inv_i[ib]
    if (flags & J_SPRING) and J.hertz[j] > 0.0:
        c = translation - J.target[j]
        cdot = _axial_speed(b, ia, ib, ax, ay, a1, a2)
        d = -f[FR_SOFT + 1] * k * (cdot + f[FR_SOFT] * c) - f[FR_SOFT + 2] * imp[I_SPRING]
        imp[I_SPRING] += d
        apply(b, ia, ib, ma, ia_, mb, ib_, d * ax, d * ay, d * a1, d * a2)
    if motor and (flags & J_MOTOR_ON):
        cdot = _axial_speed(b, ia, ib, ax, ay, a1, a2)
        old = imp[I_MOTOR]
        top = h * J.max_motor[j]
        new = min(max(old + k * (J.motor_speed[j] - cdot), -top), top)
        imp[I_MOTOR] = new
        d = new - old
        apply(b, ia, ib, ma, ia_, mb, ib_, d * ax, d * ay, d * a1, d * a2)
    if has_limit(flags):
        sb = f[FR_JOINT]
        sm = f[FR_JOINT + 1]
        si = f[FR_JOINT + 2]
        old = imp[I_LOWER]
        new = limit_impulse(k, _axial_speed(b, ia, ib, ax, ay, a1, a2),
                            translation - J.lower[j], old, h, use_bias, sb, sm, si)
        imp[I_LOWER] = new
        d = new - old
        apply(b, ia, ib, ma, ia_, mb, ib_, d * ax, d * ay, d * a1, d * a2)
        old = imp[I_UPPER]
        new = limit_impulse(k, -_axial_speed(b, ia, ib, ax, ay, a1, a2),
                            J.upper[j] - translation, old, h, use_bias, sb, sm, si)
        imp[I_UPPER] = new
        d = old - new
        apply(b, ia, ib, ma, ia_, mb, ib_, d * ax, d * ay, d * a1, d * a2)


@njit(inline="always")
def _axial_speed(b, ia, ib, ax, ay, a1, a2):
    return (ax * (b.vel[ib, 0] - b.vel[ia, 0]) + ay * (b.vel[ib, 1] - b.vel[ia, 1])
            + a2 * b.angvel[ib] - a1 * b.angvel[ia])


@njit(inline="always")
def warm_start_prismatic(J, j, b, t, ia, ib):
    f = J.frame[j]
    imp = J.imp[j]
    ax, ay, dx, dy, rax, ray, rbx, rby = axis_terms(f, t, ia, ib)
    a1 = (dx + rax) * ay - (dy + ray) * ax
    a2 = rbx * ay - rby * ax
    px_ = -ay  # the perpendicular: A's axis turned a quarter left
    py_ = ax
    s1 = (dx + rax) * py_ - (dy + ray) * px_
    s2 = rbx * py_ - rby * px_
    axial = imp[I_SPRING] + imp[I_MOTOR] + imp[I_LOWER] - imp[I_UPPER]
    px = axial * ax + imp[I_X] * px_
    py = axial * ay + imp[I_X] * py_
    apply(b, ia, ib, t.inv_m[ia], t.inv_i[ia], t.inv_m[ib], t.inv_i[ib], px, py,
          axial * a1 + imp[I_X] * s1 + imp[I_Y], axial * a2 + imp[I_X] * s2 + imp[I_Y])


@njit(inline="always")
def solve_prismatic(J, j, b, t, ia, ib, h, use_bias):
    f = J.frame[j]
    imp = J.imp[j]
    ax, ay, dx, dy, rax, ray, rbx, rby = axis_terms(f, t, ia, ib)
    translation = ax * dx + ay * dy
    a1 = (dx + rax) * ay - (dy + ray) * ax
    a2 = rbx * ay - rby * ax
    axial_rows(J, j, f, b, t, ia, ib, ax, ay, a1, a2, translation, h, use_bias, True)
    # The perpendicular offset and the relative angle, solved together.
    ma = t.inv_m[ia]
    mb = t.inv_m[ib]
    ia_ = t.inv_i[ia]
    ib_ = t.inv_i[ib]
    px_ = -ay
    py_ = ax
    s1 = (dx + rax) * py_ - (dy + ray) * px_
    s2 = rbx * py_ - rby * px_
    c1 = (px_ * (b.vel[ib, 0] - b.vel[ia, 0]) + py_ * (b.vel[ib, 1] - b.vel[ia, 1])
          + s2 * b.angvel[ib] - s1 * b.angvel[ia])
    c2 = b.angvel[ib] - b.angvel[ia]
    ms = 1.0
    is_ = 0.0
    if use_bias:
        angle = b.angle[ib] - b.angle[ia] - J.ref_angle[j]
        c1 += f[FR_JOINT] * (px_ * dx + py_ * dy)
        c2 += f[FR_JOINT] * angle
        ms = f[FR_JOINT + 1]
        is_ = f[FR_JOINT + 2]
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
    lx = -ms * x - is_ * imp[I_X]
    ly = -ms * y - is_ * imp[I_Y]
    imp[I_X] += lx
    imp[I_Y] += ly
    apply(b, ia, ib, ma, ia_, mb, ib_, lx * px_, lx * py_, lx * s1 + ly, lx * s2 + ly)
