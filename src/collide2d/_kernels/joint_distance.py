"""Distance joint: the anchors kept ``length`` apart: a rigid rod (stiff, the joints'
softness), or with the spring flag a spring toward ``length`` (hertz 0: no force) between
optional limits [lower, upper] (a rope: upper only, slack below, inelastic when taut).
Box2D v3's distance joint."""

import math

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
    anchors,
    apply,
    has_limit,
    limit_impulse,
    separation,
    start_anchor,
)


@njit(inline="always")
def axis_of(f, t, ia, ib):
    """Unit vector from anchor A to anchor B (zero when they meet), their distance, and the
    anchors."""
    rax, ray, rbx, rby = anchors(f, t, ia, ib)
    dx, dy = separation(f, t, ia, ib, rax, ray, rbx, rby)
    length = math.sqrt(dx * dx + dy * dy)
    if length > 0.0:
        dx /= length
        dy /= length
    return dx, dy, length, rax, ray, rbx, rby


@njit(inline="always")
def prepare_distance(J, j, b, t, ia, ib):
    f = J.frame[j]
    start_anchor(J, b, t, j, ia, J.local_a, f, FR_RA)
    start_anchor(J, b, t, j, ib, J.local_b, f, FR_RB)
    ux, uy, _, rax, ray, rbx, rby = axis_of(f, t, ia, ib)
    cra = rax * uy - ray * ux
    crb = rbx * uy - rby * ux
    k = (t.inv_m[ia] + t.inv_m[ib] + t.inv_i[ia] * cra * cra + t.inv_i[ib] * crb * crb)
    f[FR_MASS] = 1.0 / k if k > 0.0 else 0.0


@njit(inline="always")
def _push(b, t, ia, ib, d, ux, uy, rax, ray, rbx, rby):
    px = d * ux
    py = d * uy
    apply(b, ia, ib, t.inv_m[ia], t.inv_i[ia], t.inv_m[ib], t.inv_i[ib], px, py,
          rax * py - ray * px, rbx * py - rby * px)


@njit(inline="always")
def _speed(b, ia, ib, ux, uy, rax, ray, rbx, rby):
    vx = b.vel[ib, 0] - b.angvel[ib] * rby - b.vel[ia, 0] + b.angvel[ia] * ray
    vy = b.vel[ib, 1] + b.angvel[ib] * rbx - b.vel[ia, 1] - b.angvel[ia] * rax
    return ux * vx + uy * vy


@njit(inline="always")
def warm_start_distance(J, j, b, t, ia, ib):
    f = J.frame[j]
    imp = J.imp[j]
    ux, uy, _, rax, ray, rbx, rby = axis_of(f, t, ia, ib)
    _push(b, t, ia, ib, imp[I_SPRING] + imp[I_LOWER] - imp[I_UPPER], ux, uy, rax, ray, rbx,
          rby)


@njit(inline="always")
def solve_distance(J, j, b, t, ia, ib, h, use_bias):
    f = J.frame[j]
    imp = J.imp[j]
    k = f[FR_MASS]
    ux, uy, length, rax, ray, rbx, rby = axis_of(f, t, ia, ib)
    c = length - J.length[j]
    if J.flags[j] & J_SPRING:
        if J.hertz[j] > 0.0:
            cdot = _speed(b, ia, ib, ux, uy, rax, ray, rbx, rby)
            d = (-f[FR_SOFT + 1] * k * (cdot + f[FR_SOFT] * c)
                 - f[FR_SOFT + 2] * imp[I_SPRING])
            imp[I_SPRING] += d
            _push(b, t, ia, ib, d, ux, uy, rax, ray, rbx, rby)
    else:
        cdot = _speed(b, ia, ib, ux, uy, rax, ray, rbx, rby)
        bias = 0.0
        ms = 1.0
        is_ = 0.0
        if use_bias:
            bias = f[FR_JOINT] * c
            ms = f[FR_JOINT + 1]
            is_ = f[FR_JOINT + 2]
        d = -ms * k * (cdot + bias) - is_ * imp[I_SPRING]
        imp[I_SPRING] += d
        _push(b, t, ia, ib, d, ux, uy, rax, ray, rbx, rby)
    if has_limit(J.flags[j]):
        sb = f[FR_JOINT]
        sm = f[FR_JOINT + 1]
        si = f[FR_JOINT + 2]
        old = imp[I_LOWER]
        new = limit_impulse(k, _speed(b, ia, ib, ux, uy, rax, ray, rbx, rby),
                            length - J.lower[j], old, h, use_bias, sb, sm, si)
        imp[I_LOWER] = new
        _push(b, t, ia, ib, new - old, ux, uy, rax, ray, rbx, rby)
        old = imp[I_UPPER]
        new = limit_impulse(k, -_speed(b, ia, ib, ux, uy, rax, ray, rbx, rby),
                            J.upper[j] - length, old, h, use_bias, sb, sm, si)
        imp[I_UPPER] = new
        _push(b, t, ia, ib, old - new, ux, uy, rax, ray, rbx, rby)
