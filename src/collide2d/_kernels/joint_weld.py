"""Weld joint: B glued to A at the anchor, position and angle; each part rigid (the joints'
softness) or a spring of its own hertz and damping ratio. Box2D v3's weld joint."""

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
    anchors,
    apply,
    separation,
    solve_point,
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


@njit(inline="always")
def warm_start_weld(J, j, b, t, ia, ib):
    f = J.frame[j]
    imp = J.imp[j]
    rax, ray, rbx, rby = anchors(f, t, ia, ib)
    px = imp[I_X]
    py = imp[I_Y]
    apply(b, ia, ib, t.inv_m[ia], t.inv_i[ia], t.inv_m[ib], t.inv_i[ib], px, py,
          rax * py - ray * px + imp[I_ANG], rbx * py - rby * px + imp[I_ANG])


@njit(inline="always")
def solve_weld(J, j, b, t, ia, ib, h, use_bias):
    f = J.frame[j]
    imp = J.imp[j]
    ia_ = t.inv_i[ia]
    ib_ = t.inv_i[ib]
    bias = 0.0
    ms = 1.0
    is_ = 0.0
    if use_bias or J.hertz2[j] > 0.0:
        bias = f[FR_SOFT2] * (b.angle[ib] - b.angle[ia] - J.ref_angle[j])
        ms = f[FR_SOFT2 + 1]
        is_ = f[FR_SOFT2 + 2]
    d = -f[FR_MASS] * ms * (b.angvel[ib] - b.angvel[ia] + bias) - is_ * imp[I_ANG]
    imp[I_ANG] += d
    b.angvel[ia] -= ia_ * d
    b.angvel[ib] += ib_ * d
    rax, ray, rbx, rby = anchors(f, t, ia, ib)
    sx, sy = separation(f, t, ia, ib, rax, ray, rbx, rby)
    solve_point(b, imp, ia, ib, t.inv_m[ia], ia_, t.inv_m[ib], ib_, rax, ray, rbx, rby, sx,
                sy, f[FR_SOFT], f[FR_SOFT + 1], f[FR_SOFT + 2],
                use_bias or J.hertz[j] > 0.0)
