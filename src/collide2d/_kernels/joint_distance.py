"""Distance joint: the anchors kept ``length`` apart: a rigid rod (stiff, the joints'
softness), or with the spring flag a spring toward ``length`` (hertz 0: no force) between
optional limits [lower, upper] (a rope: upper only, slack below, inelastic when taut).
Box2D v3's distance joint."""

import math

import numpy as np

from .._jit import njit
from .constants import J_SPRING
from .joint_common import (
    FR_JOINT,
    FR_MASS,
    FR_RA,
    FR_RB,
    FR_SOFT,
    I_LOWER,
    I_SPRING,
    I_UPPER,
    current_anchors,
    has_limit,
    limit_impulse,
    push,
    run_arrays,
    start_anchor,
)


@njit(inline="always")
def unit_length(dx, dy):
    """(dx, dy) over its length (unchanged when zero), and the length."""
    length = math.sqrt(dx * dx + dy * dy)
    if length > 0.0:
        dx /= length
        dy /= length
    return dx, dy, length


@njit(inline="always")
def prepare_distance(J, j, b, t, ia, ib):
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    rax, ray, rbx, rby, dx, dy = current_anchors(J.frame, j, t.dp, t.dq, ia, ib)
    ux, uy, _ = unit_length(dx, dy)
    cra = rax * uy - ray * ux
    crb = rbx * uy - rby * ux
    k = (t.inv_m[ia] + t.inv_m[ib] + t.inv_i[ia] * cra * cra + t.inv_i[ib] * crb * crb)
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0


# Scalars in and out (see ``joint_revolute``): the bodies' velocities are locals of the
# run's loop.
@njit(inline="always")
def _push(vels, masses, d, u, anchors):
    """The velocities ``vels`` (vA, wA, vB, wB) after impulse d along ``u`` on B and its
    opposite on A, through ``anchors`` (rA, rB); ``masses`` (mA, iA, mB, iB)."""
    vax, vay, wa, vbx, vby, wb = vels
    ma, ia_, mb, ib_ = masses
    rax, ray, rbx, rby = anchors
    px = d * u[0]
    py = d * u[1]
    return push(vax, vay, wa, vbx, vby, wb, ma, ia_, mb, ib_, px, py, rax * py - ray * px,
                rbx * py - rby * px)


@njit(inline="always")
def _speed(vax, vay, wa, vbx, vby, wb, ux, uy, rax, ray, rbx, rby):
    vx = vbx - wb * rby - vax + wa * ray
    vy = vby + wb * rbx - vay - wa * rax
    return ux * vx + uy * vy


@njit(_nrt=False)
def warm_start_distances(J, b, t, s, e):
    """Warm start the distance joints at positions [s, e) of ``seq`` (see ``joint_revolute``)."""
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        rax, ray, rbx, rby, dx, dy = current_anchors(frame, j, dp, dq, ia, ib)
        ux, uy, _ = unit_length(dx, dy)
        (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]) = _push(
            (vel[ia, 0], vel[ia, 1], angvel[ia], vel[ib, 0], vel[ib, 1], angvel[ib]),
            (inv_m[ia], inv_i[ia], inv_m[ib], inv_i[ib]),
            imp[j, I_SPRING] + imp[j, I_LOWER] - imp[j, I_UPPER], (ux, uy),
            (rax, ray, rbx, rby))


@njit(_nrt=False)
def solve_distances(J, b, t, s, e, h, use_bias):
    seq, body_a, body_b, frame, imp, vel, angvel, inv_m, inv_i, dp, dq = run_arrays(J, b, t)
    flags = J.flags
    rest = J.length
    hertz = J.hertz
    lower = J.lower
    upper = J.upper
    for q in range(np.uint64(s), np.uint64(e)):
        j = np.uint64(seq[q])
        ia = np.uint64(body_a[j])
        ib = np.uint64(body_b[j])
        ma = inv_m[ia]
        mb = inv_m[ib]
        ia_ = inv_i[ia]
        ib_ = inv_i[ib]
        k = frame[j, FR_MASS]
        rax, ray, rbx, rby, dx, dy = current_anchors(frame, j, dp, dq, ia, ib)
        ux, uy, length = unit_length(dx, dy)
        masses = (ma, ia_, mb, ib_)
        anchors = (rax, ray, rbx, rby)
        vax = vel[ia, 0]
        vay = vel[ia, 1]
        wa = angvel[ia]
        vbx = vel[ib, 0]
        vby = vel[ib, 1]
        wb = angvel[ib]
        c = length - rest[j]
        d = 0.0
        if flags[j] & J_SPRING:
            if hertz[j] > 0.0:
                cdot = _speed(vax, vay, wa, vbx, vby, wb, ux, uy, rax, ray, rbx, rby)
                d = (-frame[j, FR_SOFT + 1] * k * (cdot + frame[j, FR_SOFT] * c)
                     - frame[j, FR_SOFT + 2] * imp[j, I_SPRING])
                imp[j, I_SPRING] += d
                vax, vay, wa, vbx, vby, wb = _push(
                    (vax, vay, wa, vbx, vby, wb), masses, d, (ux, uy), anchors)
        else:
            cdot = _speed(vax, vay, wa, vbx, vby, wb, ux, uy, rax, ray, rbx, rby)
            bias = 0.0
            ms = 1.0
            is_ = 0.0
            if use_bias:
                bias = frame[j, FR_JOINT] * c
                ms = frame[j, FR_JOINT + 1]
                is_ = frame[j, FR_JOINT + 2]
            d = -ms * k * (cdot + bias) - is_ * imp[j, I_SPRING]
            imp[j, I_SPRING] += d
            vax, vay, wa, vbx, vby, wb = _push((vax, vay, wa, vbx, vby, wb), masses,
                                               d, (ux, uy), anchors)
        if has_limit(flags[j]):
            sb = frame[j, FR_JOINT]
            sm = frame[j, FR_JOINT + 1]
            si = frame[j, FR_JOINT + 2]
            old = imp[j, I_LOWER]
            new = limit_impulse(k, _speed(vax, vay, wa, vbx, vby, wb, ux, uy, rax, ray, rbx,
                                          rby),
                                length - lower[j], old, h, use_bias, sb, sm, si)
            imp[j, I_LOWER] = new
            vax, vay, wa, vbx, vby, wb = _push((vax, vay, wa, vbx, vby, wb), masses,
                                               new - old, (ux, uy), anchors)
            old = imp[j, I_UPPER]
            new = limit_impulse(k, -_speed(vax, vay, wa, vbx, vby, wb, ux, uy, rax, ray, rbx,
                                           rby),
                                upper[j] - length, old, h, use_bias, sb, sm, si)
            imp[j, I_UPPER] = new
            vax, vay, wa, vbx, vby, wb = _push((vax, vay, wa, vbx, vby, wb), masses,
                                               old - new, (ux, uy), anchors)
        vel[ia, 0] = vax
        vel[ia, 1] = vay
        angvel[ia] = wa
        vel[ib, 0] = vbx
        vel[ib, 1] = vby
        angvel[ib] = wb
