"""Mouse joint: a soft spring (hertz, damping ratio) pulling B's anchor toward a world
point (``point``) with at most ``max_force``, plus a light angular damping so a dragged
body does not spin up. B alone: A is the world. Box2D v3's mouse joint."""

import numpy as np

from .._jit import njit
from .joint_common import (
    FR_DC,
    FR_RB,
    FR_SOFT,
    FR_SOFT2,
    I_ANG,
    I_X,
    I_Y,
    clamp_length,
    rotate,
    start_anchor,
)


@njit(inline="always")
def prepare_mouse(J, j, b, t, ib):
    start_anchor(J, b, t, j, ib, J.local_b, J.frame[j], FR_RB)


@njit(_nrt=False)
def warm_start_mice(J, b, t, s, e):
    """Warm start the mouse joints at positions [s, e) of ``seq`` (see ``joint_revolute``)."""
    seq = J.seq
    body_b = J.body_b
    frame = J.frame
    imp = J.imp
    vel = b.vel
    angvel = b.angvel
    inv_m = t.inv_m
    inv_i = t.inv_i
    dq = t.dq
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ib = np.uint64(body_b[j])
        rbx, rby = rotate(dq[ib, 0], dq[ib, 1], frame[j, FR_RB], frame[j, FR_RB + 1])
        mb = inv_m[ib]
        vel[ib, 0] += mb * imp[j, I_X]
        vel[ib, 1] += mb * imp[j, I_Y]
        angvel[ib] += inv_i[ib] * (rbx * imp[j, I_Y] - rby * imp[j, I_X] + imp[j, I_ANG])


@njit(_nrt=False)
def solve_mice(J, b, t, s, e, h):
    seq = J.seq
    body_b = J.body_b
    frame = J.frame
    imp = J.imp
    max_force = J.max_force
    vel = b.vel
    angvel = b.angvel
    inv_m = t.inv_m
    inv_i = t.inv_i
    dp = t.dp
    dq = t.dq
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ib = np.uint64(body_b[j])
        mb = inv_m[ib]
        ib_ = inv_i[ib]
        wb = angvel[ib]
        if ib_ > 0.0:
            d = -frame[j, FR_SOFT2 + 1] * wb / ib_ - frame[j, FR_SOFT2 + 2] * imp[j, I_ANG]
            imp[j, I_ANG] += d
            wb += ib_ * d
        rbx, rby = rotate(dq[ib, 0], dq[ib, 1], frame[j, FR_RB], frame[j, FR_RB + 1])
        soft_b = frame[j, FR_SOFT]
        cx = vel[ib, 0] - wb * rby + soft_b * (dp[ib, 0] + rbx + frame[j, FR_DC])
        cy = vel[ib, 1] + wb * rbx + soft_b * (dp[ib, 1] + rby + frame[j, FR_DC + 1])
        k11 = mb + ib_ * rby * rby
        k12 = -ib_ * rbx * rby
        k22 = mb + ib_ * rbx * rbx
        det = k11 * k22 - k12 * k12
        if det != 0.0:
            det = 1.0 / det
        ms = frame[j, FR_SOFT + 1]
        is_ = frame[j, FR_SOFT + 2]
        ox = imp[j, I_X]
        oy = imp[j, I_Y]
        nx, ny = clamp_length(ox - ms * det * (k22 * cx - k12 * cy) - is_ * ox,
                              oy - ms * det * (k11 * cy - k12 * cx) - is_ * oy,
                              h * max_force[j])
        imp[j, I_X] = nx
        imp[j, I_Y] = ny
        px = nx - ox
        py = ny - oy
        vel[ib, 0] += mb * px
        vel[ib, 1] += mb * py
        angvel[ib] = wb + ib_ * (rbx * py - rby * px)
