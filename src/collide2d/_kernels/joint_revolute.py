"""Revolute joint: anchor B held on anchor A (a 2D point constraint, stiff with the joints'
softness), with an optional spring toward a target angle, a motor and angle limits on the
relative angle (angle_b - angle_a - reference). Box2D v3's revolute joint."""

import numpy as np

from .._jit import njit
from .constants import J_LIMIT, J_MOTOR_ON, J_SPRING
from .joint_common import (
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
    angle_impulses,
    current_anchors,
    has_limit,
    point_impulse,
    push,
    run_arrays,
    start_anchor,
)

# The flags that give a revolute joint an angular row.
ANGULAR_ROWS = J_SPRING | J_MOTOR_ON | J_LIMIT


@njit(inline="always")
def prepare_revolute(J, j, b, t, ia, ib):
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    k = t.inv_i[ia] + t.inv_i[ib]
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0


# The substep passes run over a run of revolute rows (consecutive in the solve order,
# ``seq``) with every array loaded once: a per-joint helper given arrays or row
# views counted a reference to each, which cost 20 times the rows' arithmetic.
@njit(inline="always")
def warm_start_revolutes(J, b, t, s, e):
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        rax, ray, rbx, rby, _, _ = current_anchors(frame, j, dp, dq, ia, ib)
        axial = imp[j, I_SPRING] + imp[j, I_MOTOR] + imp[j, I_LOWER] - imp[j, I_UPPER]
        px = imp[j, I_X]
        py = imp[j, I_Y]
        ma = inv_m[ia]
        mb = inv_m[ib]
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib], ma,
            inv_i[ia], mb, inv_i[ib], px, py, rax * py - ray * px + axial,
            rbx * py - rby * px + axial)


@njit(inline="always")
def solve_revolutes(J, b, t, s, e, h, use_bias):
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    flags = J.flags
    ref_angle = J.ref_angle
    lower = J.lower
    upper = J.upper
    hertz = J.hertz
    target = J.target
    motor_speed = J.motor_speed
    max_motor = J.max_motor
    angle = b.angle
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        ia_ = inv_i[ia]
        ib_ = inv_i[ib]
        wa = angvel[ia]
        wb = angvel[ib]
        # A plain pin (no spring, motor or limit: a grid's, a chain's) has no angular row:
        # angle_impulses would give back its impulses and velocities unchanged.
        if flags[j] & ANGULAR_ROWS and ia_ + ib_ > 0.0:
            (imp[j, I_SPRING], imp[j, I_MOTOR], imp[j, I_LOWER], imp[j, I_UPPER], wa,
             wb) = angle_impulses(
                flags[j], frame[j, FR_MASS],
                (frame[j, FR_SOFT], frame[j, FR_SOFT + 1], frame[j, FR_SOFT + 2],
                 frame[j, FR_JOINT], frame[j, FR_JOINT + 1], frame[j, FR_JOINT + 2]),
                (hertz[j], target[j], motor_speed[j], h * max_motor[j]),
                angle[ib] - angle[ia] - ref_angle[j],
                (lower[j], upper[j], has_limit(flags[j])), h, use_bias, (wa, wb),
                (ia_, ib_),
                (imp[j, I_SPRING], imp[j, I_MOTOR], imp[j, I_LOWER], imp[j, I_UPPER]))
        rax, ray, rbx, rby, sx, sy = current_anchors(frame, j, dp, dq, ia, ib)
        ma = inv_m[ia]
        mb = inv_m[ib]
        px, py = point_impulse(
            (vel[ia, 0], vel[ia, 1], wa, vel[ib, 0], vel[ib, 1], wb), (ma, ia_, mb, ib_),
            (rax, ray, rbx, rby), (sx, sy), (imp[j, I_X], imp[j, I_Y]),
            (frame[j, FR_JOINT], frame[j, FR_JOINT + 1], frame[j, FR_JOINT + 2]), use_bias)
        imp[j, I_X] += px
        imp[j, I_Y] += py
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vel[ia, 0], vel[ia, 1], wa, vel[ib, 0], vel[ib, 1], wb, ma, ia_, mb, ib_, px, py,
            rax * py - ray * px, rbx * py - rby * px)
