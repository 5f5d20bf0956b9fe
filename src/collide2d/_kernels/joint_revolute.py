"""Revolute joint: anchor B held on anchor A (a 2D point constraint, stiff with the joints'
softness), with an optional spring toward a target angle, a motor and angle limits on the
relative angle (angle_b - angle_a - reference). Box2D v3's revolute joint."""

from .._jit import njit
from .joint_common import (
    FR_JOINT,
    FR_MASS,
    FR_RA,
    FR_RB,
    I_LOWER,
    I_MOTOR,
    I_SPRING,
    I_UPPER,
    I_X,
    I_Y,
    anchors,
    angular_rows,
    apply,
    has_limit,
    separation,
    solve_point,
    start_anchor,
)


@njit(inline="always")
def prepare_revolute(J, j, b, t, ia, ib):
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    k = t.inv_i[ia] + t.inv_i[ib]
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(inline="always")
def warm_start_revolute(J, j, b, t, ia, ib):
    f = J.frame[j]
    imp = J.imp[j]
    rax, ray, rbx, rby = anchors(f, t, ia, ib)
    axial = imp[I_SPRING] + imp[I_MOTOR] + imp[I_LOWER] - imp[I_UPPER]
    px = imp[I_X]
    py = imp[I_Y]
    apply(b, ia, ib, t.inv_m[ia], t.inv_i[ia], t.inv_m[ib], t.inv_i[ib], px, py,
          rax * py - ray * px + axial, rbx * py - rby * px + axial)


@njit(inline="always")
def solve_revolute(J, j, b, t, ia, ib, h, use_bias):
    f = J.frame[j]
    ia_ = t.inv_i[ia]
    ib_ = t.inv_i[ib]
    if ia_ + ib_ > 0.0:
        angle = b.angle[ib] - b.angle[ia] - J.ref_angle[j]
        angular_rows(J, j, f, b.angvel, ia, ib, ia_, ib_, angle, J.lower[j], J.upper[j],
                     has_limit(J.flags[j]), h, use_bias)
    rax, ray, rbx, rby = anchors(f, t, ia, ib)
    sx, sy = separation(f, t, ia, ib, rax, ray, rbx, rby)
    solve_point(b, J.imp[j], ia, ib, t.inv_m[ia], ia_, t.inv_m[ib], ib_, rax, ray, rbx, rby,
                sx, sy, f[FR_JOINT], f[FR_JOINT + 1], f[FR_JOINT + 2], use_bias)
