"""What every joint kind shares: anchors rotated by the substep's turn, impulses applied to a
pair of bodies, and the angular rows (spring, motor, limits) of revolute and angle joints.

Frames: ``frame[j]`` holds what ``prepare`` works out once per step (``FR_*`` below): the
anchors from each centre of mass, world-oriented at the step's start, the centres' offset
(B's minus A's), an effective mass, the axis in world frame, and three soft-constraint
records (bias rate, mass scale, impulse scale). During the substeps an anchor is that vector
turned by the body's rotation since the step began (``dq``), and a separation is the
offset plus both bodies' displacements (``dp``), as Box2D v3 solves joints.
"""

from .._jit import njit
from .constants import J_LIMIT, J_MOTOR_ON, J_SPRING

FR_RA = 0       # anchor A from A's centre (2)
FR_RB = 2       # anchor B from B's centre (2)
FR_DC = 4       # B's centre minus A's (2)
FR_MASS = 7     # axial (or angular) effective mass
FR_AXIS = 8     # A's axis, world frame (2)
FR_SOFT = 10    # the spring's (or weld's linear) soft record (3)
FR_SOFT2 = 13   # a second soft record: weld's angular, mouse's angular damping (3)
FR_JOINT = 16   # the stiff joints' softness (3)
FR_EXTRA = 19   # a kind's own scalar (wheel: the perpendicular mass)

# imp[j] rows: the accumulated impulses (per substep).
I_X = 0
I_Y = 1
I_ANG = 2
I_SPRING = 3
I_MOTOR = 4
I_LOWER = 5
I_UPPER = 6
I_PERP = 7


@njit(inline="always")
def rotate(c, s, x, y):
    return c * x - s * y, s * x + c * y


@njit(inline="always")
def set_soft(f, at, rec):
    f[at] = rec[0]
    f[at + 1] = rec[1]
    f[at + 2] = rec[2]


@njit(inline="always")
def start_anchor(J, b, t, j, body, local, f, at):
    """Into f[at:at+2], the anchor ``local`` (body frame, from the origin) from the body's
    centre of mass, world-oriented at the step's start."""
    x = local[j, 0] - b.local_com[body, 0]
    y = local[j, 1] - b.local_com[body, 1]
    f[at], f[at + 1] = rotate(b.rot[body, 0], b.rot[body, 1], x, y)


@njit(inline="always")
def anchors(f, t, ia, ib):
    """The anchors from each centre, turned by the bodies' rotations this step."""
    rax, ray = rotate(t.dq[ia, 0], t.dq[ia, 1], f[FR_RA], f[FR_RA + 1])
    rbx, rby = rotate(t.dq[ib, 0], t.dq[ib, 1], f[FR_RB], f[FR_RB + 1])
    return rax, ray, rbx, rby


@njit(inline="always")
def separation(f, t, ia, ib, rax, ray, rbx, rby):
    """Anchor B minus anchor A, world frame, now."""
    return (t.dp[ib, 0] - t.dp[ia, 0] + rbx - rax + f[FR_DC],
            t.dp[ib, 1] - t.dp[ia, 1] + rby - ray + f[FR_DC + 1])


@njit(inline="always")
def apply(b, ia, ib, ma, ia_, mb, ib_, px, py, la, lb):
    """Impulse (px, py) on B and its opposite on A, with angular impulses la on A (taken
    away) and lb on B (added)."""
    b.vel[ia, 0] -= ma * px
    b.vel[ia, 1] -= ma * py
    b.angvel[ia] -= ia_ * la
    b.vel[ib, 0] += mb * px
    b.vel[ib, 1] += mb * py
    b.angvel[ib] += ib_ * lb


@njit(inline="always")
def solve_point(b, imp, ia, ib, ma, ia_, mb, ib_, rax, ray, rbx, rby, sx, sy, soft_b, soft_m,
                soft_i, use_bias):
    """The 2D point constraint (anchor B on anchor A): K = [mA + mB + rA x rA iA ...]
    solved by Cramer's rule, soft when biased. Accumulates into imp[I_X], imp[I_Y]."""
    vax = b.vel[ia, 0] - b.angvel[ia] * ray
    vay = b.vel[ia, 1] + b.angvel[ia] * rax
    vbx = b.vel[ib, 0] - b.angvel[ib] * rby
    vby = b.vel[ib, 1] + b.angvel[ib] * rbx
    cx = vbx - vax
    cy = vby - vay
    ms = 1.0
    is_ = 0.0
    if use_bias:
        cx += soft_b * sx
        cy += soft_b * sy
        ms = soft_m
        is_ = soft_i
    k11 = ma + mb + ray * ray * ia_ + rby * rby * ib_
    k12 = -ray * rax * ia_ - rby * rbx * ib_
    k22 = ma + mb + rax * rax * ia_ + rbx * rbx * ib_
    det = k11 * k22 - k12 * k12
    if det != 0.0:
        det = 1.0 / det
    bx = det * (k22 * cx - k12 * cy)
    by = det * (k11 * cy - k12 * cx)
    px = -ms * bx - is_ * imp[I_X]
    py = -ms * by - is_ * imp[I_Y]
    imp[I_X] += px
    imp[I_Y] += py
    apply(b, ia, ib, ma, ia_, mb, ib_, px, py, rax * py - ray * px, rbx * py - rby * px)


@njit(inline="always")
def limit_impulse(mass, cdot, c, old, h, use_bias, soft_b, soft_m, soft_i):
    """The new accumulated impulse (>= 0) of a one-sided limit with gap c (>= 0: apart)
    and approach rate cdot: speculative while apart, soft when biased."""
    bias = 0.0
    ms = 1.0
    is_ = 0.0
    if c > 0.0:
        bias = c / h
    elif use_bias:
        bias = soft_b * c
        ms = soft_m
        is_ = soft_i
    new = old - mass * ms * (cdot + bias) - is_ * old
    return new if new > 0.0 else 0.0


@njit(inline="always")
def angular_rows(J, j, f, angvel, ia, ib, ia_, ib_, angle, lo, hi, limit, h, use_bias):
    """Spring (toward ``target``), motor and the limits [lo, hi] on the relative angle
    (rad): revolute and angle joints."""
    flags = J.flags[j]
    if (flags & J_SPRING) and J.hertz[j] > 0.0:
        _angular_spring(J.imp[j], f, angvel, ia, ib, ia_, ib_, angle - J.target[j])
    if flags & J_MOTOR_ON:
        _angular_motor(J.imp[j], f, angvel, ia, ib, ia_, ib_, J.motor_speed[j],
                       h * J.max_motor[j])
    if limit:
        _angular_limits(J.imp[j], f, angvel, ia, ib, ia_, ib_, angle, lo, hi, h, use_bias)


# The rows take the arrays they touch, not the views: every array of a view passed to a
# helper costs a counted reference per joint and substep.
@njit(inline="always")
def _angular_spring(imp, f, angvel, ia, ib, ia_, ib_, c):
    k = f[FR_MASS]
    cdot = angvel[ib] - angvel[ia]
    d = -f[FR_SOFT + 1] * k * (cdot + f[FR_SOFT] * c) - f[FR_SOFT + 2] * imp[I_SPRING]
    imp[I_SPRING] += d
    angvel[ia] -= ia_ * d
    angvel[ib] += ib_ * d


@njit(inline="always")
def _angular_motor(imp, f, angvel, ia, ib, ia_, ib_, speed, top):
    cdot = angvel[ib] - angvel[ia] - speed
    old = imp[I_MOTOR]
    new = min(max(old - f[FR_MASS] * cdot, -top), top)
    imp[I_MOTOR] = new
    angvel[ia] -= ia_ * (new - old)
    angvel[ib] += ib_ * (new - old)


@njit(inline="always")
def _angular_limits(imp, f, angvel, ia, ib, ia_, ib_, angle, lo, hi, h, use_bias):
    k = f[FR_MASS]
    sb = f[FR_JOINT]
    sm = f[FR_JOINT + 1]
    si = f[FR_JOINT + 2]
    old = imp[I_LOWER]
    new = limit_impulse(k, angvel[ib] - angvel[ia], angle - lo, old, h, use_bias, sb, sm, si)
    imp[I_LOWER] = new
    angvel[ia] -= ia_ * (new - old)
    angvel[ib] += ib_ * (new - old)
    old = imp[I_UPPER]
    new = limit_impulse(k, angvel[ia] - angvel[ib], hi - angle, old, h, use_bias, sb, sm, si)
    imp[I_UPPER] = new
    angvel[ia] += ia_ * (new - old)
    angvel[ib] -= ib_ * (new - old)


@njit(inline="always")
def has_limit(flags):
    return (flags & J_LIMIT) != 0
