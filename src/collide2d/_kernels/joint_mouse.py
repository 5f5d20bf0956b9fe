"""Mouse joint: a soft spring (hertz, damping ratio) pulling B's anchor toward a world
point (``point``) with at most ``max_force``, plus a light angular damping so a dragged
body does not spin up. B alone: A is the world. Box2D v3's mouse joint."""

import math

from .._jit import njit
from .joint_common import FR_DC, FR_RB, FR_SOFT, FR_SOFT2, I_ANG, I_X, I_Y, rotate, start_anchor


@njit(inline="always")
def prepare_mouse(J, j, b, t, ib):
    start_anchor(J, b, t, j, ib, J.local_b, J.frame[j], FR_RB)


@njit(inline="always")
def _anchor(f, t, ib):
    return rotate(t.dq[ib, 0], t.dq[ib, 1], f[FR_RB], f[FR_RB + 1])


@njit(inline="always")
def warm_start_mouse(J, j, b, t, ib):
    f = J.frame[j]
    imp = J.imp[j]
    rbx, rby = _anchor(f, t, ib)
    mb = t.inv_m[ib]
    b.vel[ib, 0] += mb * imp[I_X]
    b.vel[ib, 1] += mb * imp[I_Y]
    b.angvel[ib] += t.inv_i[ib] * (rbx * imp[I_Y] - rby * imp[I_X] + imp[I_ANG])


@njit(inline="always")
def solve_mouse(J, j, b, t, ib, h):
    f = J.frame[j]
    imp = J.imp[j]
    mb = t.inv_m[ib]
    ib_ = t.inv_i[ib]
    if ib_ > 0.0:
        d = -f[FR_SOFT2 + 1] * b.angvel[ib] / ib_ - f[FR_SOFT2 + 2] * imp[I_ANG]
        imp[I_ANG] += d
        b.angvel[ib] += ib_ * d
    rbx, rby = _anchor(f, t, ib)
    cx = b.vel[ib, 0] - b.angvel[ib] * rby + f[FR_SOFT] * (t.dp[ib, 0] + rbx + f[FR_DC])
    cy = b.vel[ib, 1] + b.angvel[ib] * rbx + f[FR_SOFT] * (t.dp[ib, 1] + rby + f[FR_DC + 1])
    k11 = mb + ib_ * rby * rby
    k12 = -ib_ * rbx * rby
    k22 = mb + ib_ * rbx * rbx
    det = k11 * k22 - k12 * k12
    if det != 0.0:
        det = 1.0 / det
    ms = f[FR_SOFT + 1]
    is_ = f[FR_SOFT + 2]
    ox = imp[I_X]
    oy = imp[I_Y]
    nx = ox - ms * det * (k22 * cx - k12 * cy) - is_ * ox
    ny = oy - ms * det * (k11 * cy - k12 * cx) - is_ * oy
    top = h * J.max_force[j]
    size = math.sqrt(nx * nx + ny * ny)
    if size > top:
        nx *= top / size
        ny *= top / size
    imp[I_X] = nx
    imp[I_Y] = ny
    px = nx - ox
    py = ny - oy
    b.vel[ib, 0] += mb * px
    b.vel[ib, 1] += mb * py
    b.angvel[ib] += ib_ * (rbx * py - rby * px)
