"""Angle joint: the relative angle alone (angle_b - angle_a - reference): limits, a spring
toward a target angle, a motor, and a ratchet (``ratio`` the step: the angle only moves
the step's way, held at ``notch``, the last step it reached). pymunk's RotaryLimitJoint,
DampedRotarySpring, SimpleMotor and RatchetJoint in one."""

import numpy as np

from .._jit import njit
from .constants import J_LIMIT, J_RATCHET
from .joint_common import (
    FR_JOINT,
    FR_MASS,
    FR_SOFT,
    I_LOWER,
    I_MOTOR,
    I_SPRING,
    I_UPPER,
    angle_impulses,
)


@njit(inline="always")
def prepare_angle(J, j, b, t, ia, ib):
    k = t.inv_i[ia] + t.inv_i[ib]
    J.frame[j][FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(_nrt=False)
def warm_start_angles(J, b, t, s, e):
    """Warm start the angle joints at positions [s, e) of ``seq`` (see ``joint_revolute``)."""
    seq = J.seq
    body_a = J.body_a
    body_b = J.body_b
    imp = J.imp
    angvel = b.angvel
    inv_i = t.inv_i
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        d = imp[j, I_SPRING] + imp[j, I_MOTOR] + imp[j, I_LOWER] - imp[j, I_UPPER]
        angvel[ia] -= inv_i[ia] * d
        angvel[ib] += inv_i[ib] * d


@njit(_nrt=False)
def solve_angles(J, b, t, s, e, h, use_bias):
    seq = J.seq
    body_a = J.body_a
    body_b = J.body_b
    flags = J.flags
    frame = J.frame
    imp = J.imp
    ref_angle = J.ref_angle
    lower = J.lower
    upper = J.upper
    ratio = J.ratio
    notch = J.notch
    hertz = J.hertz
    target = J.target
    motor_speed = J.motor_speed
    max_motor = J.max_motor
    angvel = b.angvel
    angle = b.angle
    inv_i = t.inv_i
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        ia_ = inv_i[ia]
        ib_ = inv_i[ib]
        if ia_ + ib_ == 0.0:
            continue
        lo = lower[j]
        hi = upper[j]
        fl = flags[j]
        if fl & J_RATCHET:
            if ratio[j] > 0.0:
                lo = max(lo, notch[j])
            else:
                hi = min(hi, notch[j])
        (imp[j, I_SPRING], imp[j, I_MOTOR], imp[j, I_LOWER], imp[j, I_UPPER], angvel[ia],
         angvel[ib]) = angle_impulses(
            fl, frame[j, FR_MASS],
            (frame[j, FR_SOFT], frame[j, FR_SOFT + 1], frame[j, FR_SOFT + 2],
             frame[j, FR_JOINT], frame[j, FR_JOINT + 1], frame[j, FR_JOINT + 2]),
            (hertz[j], target[j], motor_speed[j], h * max_motor[j]),
            angle[ib] - angle[ia] - ref_angle[j], (lo, hi, (fl & (J_LIMIT | J_RATCHET)) != 0),
            h, use_bias, (angvel[ia], angvel[ib]), (ia_, ib_),
            (imp[j, I_SPRING], imp[j, I_MOTOR], imp[j, I_LOWER], imp[j, I_UPPER]))
