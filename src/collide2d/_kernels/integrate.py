"""Integration: forces into velocities, velocities into positions, and the pose bookkeeping.

The solver works on centres of mass (``com``) and angles; the world stores body origins.
``begin_step`` computes centres from origins, ``end_step`` writes origins back and clears the
force accumulators (forces apply for one step). ``damping`` is the fraction of velocity kept
after one second, so a substep of length h multiplies by damping ** h and the result does
not depend on the step or substep length.
"""

import math
from collections import namedtuple

from .._jit import njit
from .constants import B_ALIVE, B_AWAKE, B_FIXED_ROTATION, DYNAMIC, KINEMATIC
from .scan import any_non_finite, words

MAX_ROTATION = 0.25 * math.pi


#: What the integrators read and write per body: velocities, forces, the body's damping and
#: gravity scale, angle, kind and flags (the body view's fields of those names); its centre
#: of mass, step-start angle, motion over the step so far (``dp``; ``dq`` the turn as
#: (cos, sin)), effective inverse masses, and whether a contact touches it (the step
#: view's).
BodyMotion = namedtuple("BodyMotion", (
    "vel", "angvel", "force", "torque", "gravity_scale", "damping", "angular_damping", "angle",
    "kind", "flags", "com", "angle0", "dp", "dq", "inv_m", "inv_i", "touched"))


@njit(_nrt=False)
def begin_step(mo, n_bodies, pos, rot, local_com, inv_mass, inv_inertia, com0):
    """Centres of mass, start-of-step poses, and the solver's effective inverse masses
    (zero for static, kinematic and sleeping bodies) into the ``BodyMotion`` ``mo``.
    ``rot``: (cos, sin) of each angle."""
    kind, flags, com, angle, angle0 = mo.kind, mo.flags, mo.com, mo.angle, mo.angle0
    dp, dq, inv_m, inv_i = mo.dp, mo.dq, mo.inv_m, mo.inv_i
    # (Pass by pass: each loop vectorises, where one loop writing eleven arrays did not.)
    n = n_bodies
    for b in range(n):
        c = rot[b, 0]
        s = rot[b, 1]
        cx = pos[b, 0] + c * local_com[b, 0] - s * local_com[b, 1]
        cy = pos[b, 1] + s * local_com[b, 0] + c * local_com[b, 1]
        com[b, 0] = cx
        com[b, 1] = cy
        com0[b, 0] = cx
        com0[b, 1] = cy
    for b in range(n):
        angle0[b] = angle[b]
    dp[:n] = 0.0
    dq[:n, 0] = 1.0
    dq[:n, 1] = 0.0
    for b in range(n):
        fl = flags[b]
        live = kind[b] == DYNAMIC and (fl & B_AWAKE) != 0 and (fl & B_ALIVE) != 0
        inv_m[b] = inv_mass[b] if live else 0.0
        inv_i[b] = inv_inertia[b] if live else 0.0


@njit(inline="always")
def _damping(b, damping, world_damping, h):
    """The fraction of velocity kept over a substep h."""
    keep = damping[b] * world_damping
    if keep != 1.0:  # pow is costly; most bodies keep the default damping of 1
        keep = keep ** h
    return keep


@njit(inline="always")
def _acceleration(b, gravity_scale, gx, gy, inv_m, force):
    """A body's linear acceleration from gravity and its accumulated force."""
    return (gravity_scale[b] * gx + inv_m[b] * force[b, 0],
            gravity_scale[b] * gy + inv_m[b] * force[b, 1])


@njit(inline="always")
def _velocity(vx, vy, w, lin, ang, ax, ay, inv_i, torque, fixed, h):
    """A dynamic body's velocity after a substep h, from its acceleration (ax, ay).
    Scalars in and out: a helper that writes the caller's arrays ran ten times slower."""
    vx = lin * (vx + h * ax)
    vy = lin * (vy + h * ay)
    w = 0.0 if fixed else ang * (w + h * inv_i * torque)
    return vx, vy, w


@njit(inline="always")
def integrate_velocities(mo, n_bodies, world_damping, gx, gy, h):
    """Velocities over a substep of the dynamic awake bodies some contact touches."""
    vel, angvel, force, torque, inv_m, inv_i = (mo.vel, mo.angvel, mo.force, mo.torque,
                                                mo.inv_m, mo.inv_i)
    gravity_scale, damping, angular_damping = mo.gravity_scale, mo.damping, mo.angular_damping
    flags, touched = mo.flags, mo.touched
    for b in range(n_bodies):
        if inv_m[b] == 0.0 or not touched[b]:
            continue
        # Helper results into locals, then stored: calls nested in the arguments, or the
        # tuple assigned straight into the arrays, made this loop 20-30 % slower.
        lin = _damping(b, damping, world_damping, h)
        ang = _damping(b, angular_damping, world_damping, h)
        ax, ay = _acceleration(b, gravity_scale, gx, gy, inv_m, force)
        vx, vy, w = _velocity(vel[b, 0], vel[b, 1], angvel[b], lin, ang, ax, ay, inv_i[b],
                              torque[b], (flags[b] & B_FIXED_ROTATION) != 0, h)
        vel[b, 0] = vx
        vel[b, 1] = vy
        angvel[b] = w


@njit(_nrt=False)
def free_velocities(mo, n_bodies, gx, gy, dt, vfree, wfree, moving):
    """Each body's velocity at the end of the step had it touched nothing (damping aside),
    and which bodies are kinematic and moving: restitution's energy bound."""
    vel, angvel, force, torque, inv_m, inv_i = (mo.vel, mo.angvel, mo.force, mo.torque,
                                                mo.inv_m, mo.inv_i)
    gravity_scale, kind, flags = mo.gravity_scale, mo.kind, mo.flags
    moving[:n_bodies] = False
    for b in range(n_bodies):
        vfree[b, 0] = vel[b, 0]
        vfree[b, 1] = vel[b, 1]
        wfree[b] = angvel[b]
        if inv_m[b] != 0.0:
            ax, ay = _acceleration(b, gravity_scale, gx, gy, inv_m, force)
            vfree[b, 0] += dt * ax
            vfree[b, 1] += dt * ay
            if not flags[b] & B_FIXED_ROTATION:
                wfree[b] += dt * inv_i[b] * torque[b]
        elif kind[b] == KINEMATIC:
            moving[b] = vel[b, 0] != 0.0 or vel[b, 1] != 0.0 or angvel[b] != 0.0


@njit(_nrt=False)
def cos_sin(x):
    """(cos x, sin x); a body turns a small angle in a step, where a Taylor polynomial is
    exact to round-off (the next terms are below 1e-17 for |x| <= 0.25) and several times
    cheaper than the library calls."""
    if abs(x) > 0.25:
        return math.cos(x), math.sin(x)
    x2 = x * x
    s = x * (1.0 + x2 * (-1.0 / 6.0 + x2 * (1.0 / 120.0 + x2 * (-1.0 / 5040.0 + x2 * (
        1.0 / 362880.0 + x2 * (-1.0 / 39916800.0))))))
    c = 1.0 + x2 * (-0.5 + x2 * (1.0 / 24.0 + x2 * (-1.0 / 720.0 + x2 * (1.0 / 40320.0 + x2 * (
        -1.0 / 3628800.0 + x2 * (1.0 / 479001600.0))))))
    return c, s


@njit(inline="always")
def moves(b, inv_m, kind, flags):
    """Dynamic and awake (inv_m > 0), or kinematic."""
    return inv_m[b] != 0.0 or (kind[b] == KINEMATIC and (flags[b] & B_ALIVE))


@njit(inline="always")
def _position(cx, cy, dpx, dpy, a, w, vx, vy, h):
    """A moving body's centre, displacement since the step began, angle and angular
    velocity after a substep h."""
    cx += h * vx
    cy += h * vy
    dpx += h * vx
    dpy += h * vy
    if w != 0.0:
        # At most a quarter turn per substep (as Box2D): a contact hit at 1000 m/s can
        # otherwise spin a small body so far in one substep that it skips through walls.
        if abs(h * w) > MAX_ROTATION:
            w = math.copysign(MAX_ROTATION / h, w)
        a += h * w
    return cx, cy, dpx, dpy, a, w


@njit(inline="always")
def integrate_positions(mo, n_bodies, h):
    """Move the dynamic (awake) and kinematic bodies some contact touches by their current
    velocity over a substep; keep each one's rotation since the step began as (cos, sin) in
    ``dq`` for the solver's anchors."""
    vel, angvel, com, angle, angle0 = mo.vel, mo.angvel, mo.com, mo.angle, mo.angle0
    dp, dq, inv_m, kind, flags, touched = mo.dp, mo.dq, mo.inv_m, mo.kind, mo.flags, mo.touched
    for b in range(n_bodies):
        if not touched[b] or not moves(b, inv_m, kind, flags):
            continue
        cx, cy, dpx, dpy, a, w = _position(com[b, 0], com[b, 1], dp[b, 0], dp[b, 1],
                                           angle[b], angvel[b], vel[b, 0], vel[b, 1], h)
        com[b, 0] = cx
        com[b, 1] = cy
        dp[b, 0] = dpx
        dp[b, 1] = dpy
        angle[b] = a
        angvel[b] = w
        if w != 0.0:
            dq[b, 0], dq[b, 1] = cos_sin(a - angle0[b])


@njit(_nrt=False)
def contact_bodies(ba, bb, n_bodies, touched):
    """Into ``touched``, which bodies some contact row touches: the substep loop integrates
    and solves these; ``integrate_alone`` takes the others through all substeps at once."""
    touched[:n_bodies] = False
    for q in range(ba.shape[0]):
        touched[ba[q]] = True
        touched[bb[q]] = True


@njit(_nrt=False)
def integrate_alone(mo, n_bodies, world_damping, gx, gy, h, substeps, explicit):
    """Every substep of the bodies no contact touches, one body at a time in registers:
    nothing in the substep loop reads them, and each sees the operations of that loop in
    the same order (the same bits) without eight passes over the arrays."""
    vel, angvel, force, torque, inv_m, inv_i = (mo.vel, mo.angvel, mo.force, mo.torque,
                                                mo.inv_m, mo.inv_i)
    gravity_scale, damping, angular_damping = mo.gravity_scale, mo.damping, mo.angular_damping
    com, angle, angle0, dp, dq = mo.com, mo.angle, mo.angle0, mo.dp, mo.dq
    kind, flags, touched = mo.kind, mo.flags, mo.touched
    for b in range(n_bodies):
        if touched[b] or not moves(b, inv_m, kind, flags):
            continue
        dyn = inv_m[b] != 0.0
        lin = _damping(b, damping, world_damping, h)
        ang = _damping(b, angular_damping, world_damping, h)
        ax, ay = _acceleration(b, gravity_scale, gx, gy, inv_m, force)
        fixed = (flags[b] & B_FIXED_ROTATION) != 0
        vx = vel[b, 0]
        vy = vel[b, 1]
        w = angvel[b]
        cx = com[b, 0]
        cy = com[b, 1]
        dpx = dp[b, 0]
        dpy = dp[b, 1]
        a = angle[b]
        for _ in range(substeps):
            if explicit:
                cx, cy, dpx, dpy, a, w = _position(cx, cy, dpx, dpy, a, w, vx, vy, h)
            if dyn:
                vx, vy, w = _velocity(vx, vy, w, lin, ang, ax, ay, inv_i[b], torque[b], fixed,
                                      h)
            if not explicit:
                cx, cy, dpx, dpy, a, w = _position(cx, cy, dpx, dpy, a, w, vx, vy, h)
        vel[b, 0] = vx
        vel[b, 1] = vy
        angvel[b] = w
        com[b, 0] = cx
        com[b, 1] = cy
        dp[b, 0] = dpx
        dp[b, 1] = dpy
        angle[b] = a
        # The substep loop's last update of dq (begin_step left (1, 0) = cos_sin(0), and the
        # angle entered this kernel equal to angle0).
        if a != angle0[b]:
            dq[b, 0], dq[b, 1] = cos_sin(a - angle0[b])


@njit(_nrt=False)
def end_step(pos, angle, angle0, rot, local_com, com, force, torque, inv_m, kind, flags,
             n_bodies):
    """Body origins from centres of mass for bodies that moved (fixed ones keep their exact
    origin, free of round-off), and the rotations of those that turned; clear the force
    accumulators."""
    force[:n_bodies] = 0.0
    torque[:n_bodies] = 0.0
    for b in range(n_bodies):
        if not moves(b, inv_m, kind, flags):
            continue
        if angle[b] != angle0[b]:
            rot[b, 0] = math.cos(angle[b])
            rot[b, 1] = math.sin(angle[b])
        c = rot[b, 0]
        s = rot[b, 1]
        pos[b, 0] = com[b, 0] - (c * local_com[b, 0] - s * local_com[b, 1])
        pos[b, 1] = com[b, 1] - (s * local_com[b, 0] + c * local_com[b, 1])


@njit(_nrt=False, entry=True)
def first_non_finite(pos, angle, vel, angvel, force, torque, flags, n_bodies):
    """Slot of the first live body with a NaN or inf in its state, or -1 (the NaN guard).
    Whole-array scans first (scan.py): the per-body loop runs only when one finds a value."""
    n = n_bodies
    if not (any_non_finite(words(pos, n)) or any_non_finite(words(angle, n))
            or any_non_finite(words(vel, n)) or any_non_finite(words(angvel, n))
            or any_non_finite(words(force, n)) or any_non_finite(words(torque, n))):
        return -1
    for b in range(n_bodies):
        if not flags[b] & B_ALIVE:
            continue
        # Each value on its own: a sum of finite values can overflow to inf.
        if not (math.isfinite(pos[b, 0]) and math.isfinite(pos[b, 1])
                and math.isfinite(angle[b]) and math.isfinite(vel[b, 0])
                and math.isfinite(vel[b, 1]) and math.isfinite(angvel[b])
                and math.isfinite(force[b, 0]) and math.isfinite(force[b, 1])
                and math.isfinite(torque[b])):
            return b
    return -1
