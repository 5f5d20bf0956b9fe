"""Weld joint: B glued to A at the anchor, position and angle; each part rigid (the joints'
softness) or a spring of its own hertz and damping ratio. Box2D v3's weld joint."""

import numpy as np

from .._jit import njit
from .joint_common import (
    FR_JOINT,
    FR_MASS,
    FR_RA,
    FR_RB,
    FR_SOFT,
    FR_SOFT2,
    I_ANG,
    I_X,
    I_Y,
    current_anchors,
    point_impulse,
    push,
    run_arrays,
    start_anchor,
)


@njit(inline="always")
def prepare_weld(J, j, b, t, ia, ib):
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    k = t.inv_i[ia] + t.inv_i[ib]
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0
    # A rigid part takes the joints' softness.
    if J.hertz[j] == 0.0:
        _stiff(f, FR_SOFT)
    if J.hertz2[j] == 0.0:
        _stiff(f, FR_SOFT2)


@njit(inline="always")
def _stiff(f, at):
    f[at] = f[FR_JOINT]
    f[at + 1] = f[FR_JOINT + 1]
    f[at + 2] = f[FR_JOINT + 2]


@njit(_nrt=False)
def warm_start_welds(J, b, t, s, e):
    """Warm start the weld joints at positions [s, e) of ``seq`` (see ``joint_revolute``),
    and the motor joints': the same rows, a point and an angle."""
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        rax, ray, rbx, rby, _, _ = current_anchors(frame, j, dp, dq, ia, ib)
        px = imp[j, I_X]
        py = imp[j, I_Y]
        ma = inv_m[ia]
        mb = inv_m[ib]
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib], ma,
            inv_i[ia], mb, inv_i[ib], px, py, rax * py - ray * px + imp[j, I_ANG],
            rbx * py - rby * px + imp[j, I_ANG])


@njit(_nrt=False)
def solve_welds(J, b, t, s, e, h, use_bias):
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    ref_angle = J.ref_angle
    hertz = J.hertz
    hertz2 = J.hertz2
    angle = b.angle
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        ia_ = inv_i[ia]
        ib_ = inv_i[ib]
        bias = 0.0
        ms = 1.0
        is_ = 0.0
        if use_bias or hertz2[j] > 0.0:
            bias = frame[j, FR_SOFT2] * (angle[ib] - angle[ia] - ref_angle[j])
            ms = frame[j, FR_SOFT2 + 1]
            is_ = frame[j, FR_SOFT2 + 2]
        wa = angvel[ia]
        wb = angvel[ib]
        d = -frame[j, FR_MASS] * ms * (wb - wa + bias) - is_ * imp[j, I_ANG]
        imp[j, I_ANG] += d
        wa -= ia_ * d
        wb += ib_ * d
        rax, ray, rbx, rby, sx, sy = current_anchors(frame, j, dp, dq, ia, ib)
        ma = inv_m[ia]
        mb = inv_m[ib]
        px, py = point_impulse(
            (vel[ia, 0], vel[ia, 1], wa, vel[ib, 0], vel[ib, 1], wb), (ma, ia_, mb, ib_),
            (rax, ray, rbx, rby), (sx, sy), (imp[j, I_X], imp[j, I_Y]),
            (frame[j, FR_SOFT], frame[j, FR_SOFT + 1], frame[j, FR_SOFT + 2]),
            use_bias or hertz[j] > 0.0)
        imp[j, I_X] += px
        imp[j, I_Y] += py
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vel[ia, 0], vel[ia, 1], wa, vel[ib, 0], vel[ib, 1], wb, ma, ia_, mb, ib_, px, py,
            rax * py - ray * px, rbx * py - rby * px)
