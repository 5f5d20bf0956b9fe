"""What every joint kind shares: anchors rotated by the substep's turn, impulses applied to a
pair of bodies, and the angular rows (spring, motor, limits) of revolute and angle joints.

Frames: ``frame[j]`` holds what ``prepare`` works out once per step (``FR_*`` below): the
anchors from each centre of mass, world-oriented at the step's start, the centres' offset
(B's minus A's), an effective mass, the axis in world frame, and three soft-constraint
records (bias rate, mass scale, impulse scale). During the substeps an anchor is that vector
turned by the body's rotation since the step began (``dq``), and a separation is the
offset plus both bodies' displacements (``dp``), as Box2D v3 solves joints.
"""

import math

from .._jit import njit
from .constants import B_AWAKE, DYNAMIC, J_LIMIT, J_MOTOR_ON, J_SPRING

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


@njit(_nrt=False, entry=True)
def set_motors(slots, speeds, max_torques, motor_speed, max_motor, flags, imp, body_a, body_b,
               kind, body_flags, sleep_time):
    """Motor speed and maximum motor torque (or force) of joint slots ``slots[k]``, waking
    their dynamic bodies, as ``Joint``'s setters do: a motor turned off drops its impulse
    (``Joints._set_flags``). ``World.set_motors`` and ``WorldBatch.set_motors``; the joint
    store's columns, then the body store's."""
    for k in range(slots.shape[0]):
        s = slots[k]
        motor_speed[s] = speeds[k]
        max_motor[s] = max_torques[k]
        if max_torques[k] > 0.0:
            flags[s] |= J_MOTOR_ON
        elif flags[s] & J_MOTOR_ON:
            flags[s] &= ~J_MOTOR_ON
            imp[s, I_MOTOR] = 0.0
        for body in (body_a[s], body_b[s]):
            if body >= 0 and kind[body] == DYNAMIC:
                body_flags[body] |= B_AWAKE
                sleep_time[body] = 0.0
    return 0


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


# The substeps' geometry, from the whole arrays and a slot (a row view, or an array given
# to a helper that does not inline to one straight run, counts a reference): scalars out.
@njit(inline="always")
def current_anchors(frame, j, dp, dq, ia, ib):
    """Joint j's anchors from each centre, turned by the bodies' rotations this step
    (``dq``), and the separation: anchor B minus anchor A, world frame, now (``dp`` the
    centres' displacements). Returns (rax, ray, rbx, rby, dx, dy)."""
    rax, ray = rotate(dq[ia, 0], dq[ia, 1], frame[j, FR_RA], frame[j, FR_RA + 1])
    rbx, rby = rotate(dq[ib, 0], dq[ib, 1], frame[j, FR_RB], frame[j, FR_RB + 1])
    dx = dp[ib, 0] - dp[ia, 0] + rbx - rax + frame[j, FR_DC]
    dy = dp[ib, 1] - dp[ia, 1] + rby - ray + frame[j, FR_DC + 1]
    return rax, ray, rbx, rby, dx, dy


@njit(inline="always")
def current_axis(frame, j, dq, ia):
    """A's axis (prismatic, wheel) turned by A's rotation this step."""
    return rotate(dq[ia, 0], dq[ia, 1], frame[j, FR_AXIS], frame[j, FR_AXIS + 1])


@njit(inline="always")
def arms(ux, uy, dx, dy, rax, ray, rbx, rby):
    """The angular parts of an impulse along (ux, uy) through the anchors: (d + rA) x u on
    A, rB x u on B (d the separation)."""
    return (dx + rax) * uy - (dy + ray) * ux, rbx * uy - rby * ux


@njit(inline="always")
def push(vax, vay, wa, vbx, vby, wb, ma, ia_, mb, ib_, px, py, la, lb):
    """The velocities after impulse (px, py) on B and its opposite on A, with angular
    impulses la on A (taken away) and lb on B."""
    return (vax - ma * px, vay - ma * py, wa - ia_ * la, vbx + mb * px, vby + mb * py,
            wb + ib_ * lb)


@njit(inline="always")
def point_impulse(vels, masses, anchors, sep, old, soft, use_bias):
    """The 2D point constraint (anchor B on anchor A): K = [mA + mB + rA x rA iA ...]
    solved by Cramer's rule, soft when biased. Tuples of floats: ``vels`` (vA, wA, vB,
    wB), ``masses`` (mA, iA, mB, iB), ``anchors`` (rA, rB), ``sep`` the separation,
    ``old`` the accumulated impulse, ``soft`` the soft record. Returns the impulse (px, py)
    to add to the accumulated."""
    vax, vay, wa, vbx, vby, wb = vels
    ma, ia_, mb, ib_ = masses
    rax, ray, rbx, rby = anchors
    cx = (vbx - wb * rby) - (vax - wa * ray)
    cy = (vby + wb * rbx) - (vay + wa * rax)
    ms = 1.0
    is_ = 0.0
    if use_bias:
        cx += soft[0] * sep[0]
        cy += soft[0] * sep[1]
        ms = soft[1]
        is_ = soft[2]
    k11 = ma + mb + ray * ray * ia_ + rby * rby * ib_
    k12 = -ray * rax * ia_ - rby * rbx * ib_
    k22 = ma + mb + rax * rax * ia_ + rbx * rbx * ib_
    det = k11 * k22 - k12 * k12
    if det != 0.0:
        det = 1.0 / det
    bx = det * (k22 * cx - k12 * cy)
    by = det * (k11 * cy - k12 * cx)
    return -ms * bx - is_ * old[0], -ms * by - is_ * old[1]


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
def angle_impulses(flags, k, softs, drive, angle, limits, h, use_bias, ws, inv_is, imps):
    """Spring (toward the target), motor (the speed, impulse within +-top) and the limits
    [lo, hi] on the relative angle (rad) of revolute and angle joints, with effective mass
    ``k``: the new accumulated impulses and angular velocities. Tuples of floats:
    ``softs`` the spring's and the joints' soft records, ``drive`` (hertz, target, speed,
    top), ``limits`` (lo, hi, whether limited), ``ws`` (wA, wB), ``inv_is`` (iA, iB),
    ``imps`` the spring, motor, lower and upper impulses."""
    spring_b, spring_m, spring_i, sb, sm, si = softs
    hertz, target, speed, top = drive
    lo, hi, limit = limits
    wa, wb = ws
    ia_, ib_ = inv_is
    spring, motor, lower, upper = imps
    if (flags & J_SPRING) and hertz > 0.0:
        d = -spring_m * k * (wb - wa + spring_b * (angle - target)) - spring_i * spring
        spring += d
        wa -= ia_ * d
        wb += ib_ * d
    # A row whose impulse stays as it was (a saturated motor, a limit away from its stop)
    # leaves the velocities as they are, behind a branch the processor predicts: the next
    # row need not wait for this one's arithmetic (a lander's step in flight 4 % faster).
    if flags & J_MOTOR_ON:
        old = motor
        motor = min(max(old - k * (wb - wa - speed), -top), top)
        if motor != old:
            wa -= ia_ * (motor - old)
            wb += ib_ * (motor - old)
    if limit:
        old = lower
        lower = limit_impulse(k, wb - wa, angle - lo, old, h, use_bias, sb, sm, si)
        if lower != old:
            wa -= ia_ * (lower - old)
            wb += ib_ * (lower - old)
        old = upper
        upper = limit_impulse(k, wa - wb, hi - angle, old, h, use_bias, sb, sm, si)
        if upper != old:
            wa += ia_ * (upper - old)
            wb -= ib_ * (upper - old)
    return spring, motor, lower, upper, wa, wb


@njit(inline="always")
def clamp_length(x, y, top):
    """(x, y) scaled down to length ``top`` when longer: a bounded force's impulse."""
    size = math.sqrt(x * x + y * y)
    if size > top:
        x *= top / size
        y *= top / size
    return x, y


@njit(inline="always")
def has_limit(flags):
    return (flags & J_LIMIT) != 0


@njit(inline="always")
def run_arrays(J, b, t):
    """The arrays every kind's run reads and writes, taken once before its loop (in one
    straight run: see ``joint_revolute``)."""
    return (J.seq, J.body_a, J.body_b, J.frame, J.imp, b.vel, b.angvel, t.inv_m, t.inv_i, t.dp,
            t.dq)
