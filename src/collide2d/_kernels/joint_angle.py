"""Angle joint: the relative angle alone (angle_b - angle_a - reference): limits, a spring
toward a target angle, a motor, and a ratchet (``ratio`` the step: the angle only moves
the step's way, held at ``notch``, the last step it reached). pymunk's RotaryLimitJoint,
DampedRotarySpring, SimpleMotor and RatchetJoint in one."""

import math

from .._jit import njit
from .constants import J_LIMIT, J_RATCHET
from .joint_common import FR_MASS, I_LOWER, I_MOTOR, I_SPRING, I_UPPER, angular_rows


@njit(inline="always")
def prepare_angle(J, j, b, t, ia, ib):
    k = t.inv_i[ia] + t.inv_i[ib]
    J.frame[j][FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(inline="always")
def warm_start_angle(J, j, b, t, ia, ib):
    imp = J.imp[j]
    d = imp[I_SPRING] + imp[I_MOTOR] + imp[I_LOWER] - imp[I_UPPER]
    b.angvel[ia] -= t.inv_i[ia] * d
    b.angvel[ib] += t.inv_i[ib] * d


@njit(inline="always")
def solve_angle(J, j, b, t, ia, ib, h, use_bias):
    ia_ = t.inv_i[ia]
    ib_ = t.inv_i[ib]
    if ia_ + ib_ == 0.0:
        return
    lo = J.lower[j]
    hi = J.upper[j]
    flags = J.flags[j]
    if flags & J_RATCHET:
        if J.ratio[j] > 0.0:
            lo = max(lo, J.notch[j])
        else:
            hi = min(hi, J.notch[j])
    angle = b.angle[ib] - b.angle[ia] - J.ref_angle[j]
    angular_rows(J, j, J.frame[j], b.angvel, ia, ib, ia_, ib_, angle, lo, hi,
                 (flags & (J_LIMIT | J_RATCHET)) != 0, h, use_bias)


@njit(inline="always")
def advance_ratchet(J, j, b, ia, ib):
    """After the step: the notch moves to the last step the angle passed."""
    step = J.ratio[j]
    gone = (b.angle[ib] - b.angle[ia] - J.ref_angle[j] - J.notch[j]) / step
    if gone >= 1.0:
        J.notch[j] += step * math.floor(gone)
