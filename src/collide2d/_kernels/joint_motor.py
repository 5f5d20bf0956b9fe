"""Motor joint: drives B's origin toward a point fixed in A's frame (``local_a``) and the
relative angle toward ``ref_angle``, closing ``correction`` of the error per second's
worth of steps, with bounded force and torque. Box2D v3's motor joint."""

import math

from .._jit import njit
from .joint_common import (
    FR_MASS,
    FR_RA,
    FR_RB,
    I_ANG,
    I_X,
    I_Y,
    anchors,
    apply,
    separation,
    start_anchor,
)


@njit(inline="always")
def prepare_motor(J, j, b, t, ia, ib):
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    k = t.inv_i[ia] + t.inv_i[ib]
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(inline="always")
def warm_start_motor(J, j, b, t, ia, ib):
    f = J.frame[j]
    imp = J.imp[j]
    rax, ray, rbx, rby = anchors(f, t, ia, ib)
    px = imp[I_X]
    py = imp[I_Y]
    apply(b, ia, ib, t.inv_m[ia], t.inv_i[ia], t.inv_m[ib], t.inv_i[ib], px, py,
          rax * py - ray * px + imp[I_ANG], rbx * py - rby * px + imp[I_ANG])


@njit(inline="always")
def solve_motor(J, j, b, t, ia, ib, h, use_bias):
    f = J.frame[j]
    imp = J.imp[j]
    ma = t.inv_m[ia]
    mb = t.inv_m[ib]
    ia_ = t.inv_i[ia]
    ib_ = t.inv_i[ib]
    rate = J.correction[j] / h
    c = b.angle[ib] - b.angle[ia] - J.ref_angle[j]
    old = imp[I_ANG]
    top = h * J.max_torque[j]
    new = min(max(old - f[FR_MASS] * (b.angvel[ib] - b.angvel[ia] + rate * c), -top), top)
    imp[I_ANG] = new
    b.angvel[ia] -= ia_ * (new - old)
    b.angvel[ib] += ib_ * (new - old)
    rax, ray, rbx, rby = anchors(f, t, ia, ib)
    sx, sy = separation(f, t, ia, ib, rax, ray, rbx, rby)
    cx = (b.vel[ib, 0] - b.angvel[ib] * rby - b.vel[ia, 0] + b.angvel[ia] * ray) + rate * sx
    cy = (b.vel[ib, 1] + b.angvel[ib] * rbx - b.vel[ia, 1] - b.angvel[ia] * rax) + rate * sy
    k11 = ma + mb + ray * ray * ia_ + rby * rby * ib_
    k12 = -ray * rax * ia_ - rby * rbx * ib_
    k22 = ma + mb + rax * rax * ia_ + rbx * rbx * ib_
    det = k11 * k22 - k12 * k12
    if det != 0.0:
        det = 1.0 / det
    ox = imp[I_X]
    oy = imp[I_Y]
    nx = ox - det * (k22 * cx - k12 * cy)
    ny = oy - det * (k11 * cy - k12 * cx)
    top = h * J.max_force[j]
    size = math.sqrt(nx * nx + ny * ny)
    if size > top:
        nx *= top / size
        ny *= top / size
    imp[I_X] = nx
    imp[I_Y] = ny
    px = nx - ox
    py = ny - oy
    apply(b, ia, ib, ma, ia_, mb, ib_, px, py, rax * py - ray * px, rbx * py - rby * px)
