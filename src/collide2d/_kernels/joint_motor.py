"""Motor joint: drives B's origin toward a point fixed in A's frame (``local_a``) and the
relative angle toward ``ref_angle``, closing ``correction`` of the error per second's
worth of steps, with bounded force and torque. Box2D v3's motor joint."""

import numpy as np

from .._jit import njit
from .joint_common import (
    FR_MASS,
    FR_RA,
    FR_RB,
    I_ANG,
    I_X,
    I_Y,
    clamp_length,
    current_anchors,
    push,
    run_arrays,
    start_anchor,
)


@njit(inline="always")
def prepare_motor(J, j, b, t, ia, ib):
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    k = t.inv_i[ia] + t.inv_i[ib]
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(_nrt=False)
def solve_motors(J, b, t, s, e, h, use_bias):
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    ref_angle = J.ref_angle
    correction = J.correction
    max_force = J.max_force
    max_torque = J.max_torque
    angle = b.angle
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        ma = inv_m[ia]
        mb = inv_m[ib]
        ia_ = inv_i[ia]
        ib_ = inv_i[ib]
        rate = correction[j] / h
        c = angle[ib] - angle[ia] - ref_angle[j]
        old = imp[j, I_ANG]
        top = h * max_torque[j]
        wa = angvel[ia]
        wb = angvel[ib]
        new = min(max(old - frame[j, FR_MASS] * (wb - wa + rate * c), -top), top)
        imp[j, I_ANG] = new
        wa -= ia_ * (new - old)
        wb += ib_ * (new - old)
        rax, ray, rbx, rby, sx, sy = current_anchors(frame, j, dp, dq, ia, ib)
        cx = (vel[ib, 0] - wb * rby - vel[ia, 0] + wa * ray) + rate * sx
        cy = (vel[ib, 1] + wb * rbx - vel[ia, 1] - wa * rax) + rate * sy
        k11 = ma + mb + ray * ray * ia_ + rby * rby * ib_
        k12 = -ray * rax * ia_ - rby * rbx * ib_
        k22 = ma + mb + rax * rax * ia_ + rbx * rbx * ib_
        det = k11 * k22 - k12 * k12
        if det != 0.0:
            det = 1.0 / det
        ox = imp[j, I_X]
        oy = imp[j, I_Y]
        nx, ny = clamp_length(ox - det * (k22 * cx - k12 * cy), oy - det * (k11 * cy - k12 * cx),
                              h * max_force[j])
        imp[j, I_X] = nx
        imp[j, I_Y] = ny
        px = nx - ox
        py = ny - oy
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = push(
            vel[ia, 0], vel[ia, 1], wa, vel[ib, 0], vel[ib, 1], wb, ma, ia_, mb, ib_, px, py,
            rax * py - ray * px, rbx * py - rby * px)
