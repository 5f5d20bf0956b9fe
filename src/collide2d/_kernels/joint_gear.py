"""Gear joint: keeps angle_b + ratio * angle_a at its value at creation (``target``):
with ratio 1 the bodies turn opposite ways like meshed gears of one size. Stiff, with the
joints' softness; pymunk's GearJoint up to the sign of the ratio."""

from .._jit import njit
from .joint_common import FR_JOINT, FR_MASS, I_ANG


@njit(inline="always")
def prepare_gear(J, j, b, t, ia, ib):
    r = J.ratio[j]
    k = r * r * t.inv_i[ia] + t.inv_i[ib]
    J.frame[j][FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(inline="always")
def warm_start_gear(J, j, b, t, ia, ib):
    d = J.imp[j][I_ANG]
    b.angvel[ia] += t.inv_i[ia] * J.ratio[j] * d
    b.angvel[ib] += t.inv_i[ib] * d


@njit(inline="always")
def solve_gear(J, j, b, t, ia, ib, h, use_bias):
    f = J.frame[j]
    imp = J.imp[j]
    r = J.ratio[j]
    cdot = b.angvel[ib] + r * b.angvel[ia]
    ms = 1.0
    is_ = 0.0
    if use_bias:
        cdot += f[FR_JOINT] * (b.angle[ib] + r * b.angle[ia] - J.target[j])
        ms = f[FR_JOINT + 1]
        is_ = f[FR_JOINT + 2]
    d = -ms * f[FR_MASS] * cdot - is_ * imp[I_ANG]
    imp[I_ANG] += d
    b.angvel[ia] += t.inv_i[ia] * r * d
    b.angvel[ib] += t.inv_i[ib] * d
