"""Gear joint: keeps angle_b + ratio * angle_a at its value at creation (``target``):
with ratio 1 the bodies turn opposite ways like meshed gears of one size. Stiff, with the
joints' softness; pymunk's GearJoint up to the sign of the ratio."""

import numpy as np

from .._jit import njit
from .joint_common import FR_JOINT, FR_MASS, I_ANG


@njit(inline="always")
def prepare_gear(J, j, b, t, ia, ib):
    r = J.ratio[j]
    k = r * r * t.inv_i[ia] + t.inv_i[ib]
    J.frame[j][FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(_nrt=False)
def warm_start_gears(J, b, t, s, e):
    """Warm start the gear joints at positions [s, e) of ``seq`` (see ``joint_revolute``)."""
    seq = J.seq
    body_a = J.body_a
    body_b = J.body_b
    ratio = J.ratio
    imp = J.imp
    angvel = b.angvel
    inv_i = t.inv_i
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        d = imp[j, I_ANG]
        angvel[ia] += inv_i[ia] * ratio[j] * d
        angvel[ib] += inv_i[ib] * d


@njit(_nrt=False)
def solve_gears(J, b, t, s, e, h, use_bias):
    seq = J.seq
    body_a = J.body_a
    body_b = J.body_b
    ratio = J.ratio
    target = J.target
    frame = J.frame
    imp = J.imp
    angvel = b.angvel
    angle = b.angle
    inv_i = t.inv_i
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        r = ratio[j]
        cdot = angvel[ib] + r * angvel[ia]
        ms = 1.0
        is_ = 0.0
        if use_bias:
            cdot += frame[j, FR_JOINT] * (angle[ib] + r * angle[ia] - target[j])
            ms = frame[j, FR_JOINT + 1]
            is_ = frame[j, FR_JOINT + 2]
        d = -ms * frame[j, FR_MASS] * cdot - is_ * imp[j, I_ANG]
        imp[j, I_ANG] += d
        angvel[ia] += inv_i[ia] * r * d
        angvel[ib] += inv_i[ib] * d
