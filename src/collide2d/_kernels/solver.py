"""Contact solver: sequential impulses with soft contacts and substepping (after Box2D v3).

Stages, in the order the step calls them: ``prepare_contacts`` (anchors, effective masses,
softness), then per substep ``integrate_velocities`` (in integrate.py), ``warm_start``,
``solve_contacts`` (with bias), ``integrate_positions``, ``solve_contacts`` again without
bias (relax); after the substeps ``apply_restitution`` and ``store_impulses``.

Soft contacts: penetration is removed by a damped spring (contact hertz, damping ratio)
expressed as a bias velocity with mass and impulse scaling, capped at a maximum push-out
speed; this is what lets stacks rest without jitter. Separation is re-measured every substep
from the bodies' position deltas and rotated anchors, so it stays valid as bodies move.
Friction is Coulomb: the tangent impulse is clamped to friction * normal impulse.

Bodies are indexed by slot; ``inv_m`` / ``inv_i`` are zero for static, kinematic and
sleeping bodies, which makes them immovable here.
"""

import math

import numpy as np

from .._jit import njit

B_ARCADE = 8
# Overlap (m) left alone by the push-out. A single relax pass can not take back the push's
# velocity along a chain of contacts (Gauss-Seidel needs many passes there), so bodies placed
# a hair inside each other drifted apart for ever with no gravity; a stack rests this much
# deeper per contact instead.
PUSH_SLOP = 0.001


@njit
def make_soft(hertz, zeta, h):
    """(bias_rate, mass_scale, impulse_scale) of a soft constraint over substep h."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


@njit
def prepare_contacts(c_a, c_b, c_resp, c_count, c_normal, c_point, c_sep, s_body, s_friction,
                     s_elasticity, com, vel, angvel, inv_m, inv_i, b_flags):
    """Per-point solver data. Returns (rows, ba, bb, ra, rb, nmass, tmass, adj_sep,
    rel_vel, friction, restitution, static_pair, max_imp) for solid contacts with points."""
    n = c_a.shape[0]
    rows = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(n):
        if c_resp[i] == 1 and c_count[i] > 0:
            ba = s_body[c_a[i]]
            bb = s_body[c_b[i]]
            arcade = (b_flags[ba] | b_flags[bb]) & B_ARCADE
            if not arcade and inv_m[ba] + inv_m[bb] + inv_i[ba] + inv_i[bb] > 0.0:
                rows[k] = i
                k += 1
    rows = rows[:k]
    ba_arr = np.empty(k, dtype=np.int64)
    bb_arr = np.empty(k, dtype=np.int64)
    ra = np.zeros((k, 2, 2))
    rb = np.zeros((k, 2, 2))
    nmass = np.zeros((k, 2))
    tmass = np.zeros((k, 2))
    adj = np.zeros((k, 2))
    relv = np.zeros((k, 2))
    fric = np.empty(k)
    rest = np.empty(k)
    static_pair = np.zeros(k, dtype=np.bool_)
    max_imp = np.zeros((k, 2))
    for q in range(k):
        i = rows[q]
        a = c_a[i]
        b = c_b[i]
        ba = s_body[a]
        bb = s_body[b]
        ba_arr[q] = ba
        bb_arr[q] = bb
        fric[q] = math.sqrt(s_friction[a] * s_friction[b])
        rest[q] = max(s_elasticity[a], s_elasticity[b])
        static_pair[q] = inv_m[ba] == 0.0 or inv_m[bb] == 0.0
        nx = c_normal[i, 0]
        ny = c_normal[i, 1]
        tx = ny
        ty = -nx
        ma = inv_m[ba]
        mb = inv_m[bb]
        ia = inv_i[ba]
        ib = inv_i[bb]
        for p in range(c_count[i]):
            rax = c_point[i, p, 0] - com[ba, 0]
            ray = c_point[i, p, 1] - com[ba, 1]
            rbx = c_point[i, p, 0] - com[bb, 0]
            rby = c_point[i, p, 1] - com[bb, 1]
            ra[q, p, 0] = rax
            ra[q, p, 1] = ray
            rb[q, p, 0] = rbx
            rb[q, p, 1] = rby
            rna = rax * ny - ray * nx
            rnb = rbx * ny - rby * nx
            kn = ma + mb + ia * rna * rna + ib * rnb * rnb
            nmass[q, p] = 1.0 / kn if kn > 0.0 else 0.0
            rta = rax * ty - ray * tx
            rtb = rbx * ty - rby * tx
            kt = ma + mb + ia * rta * rta + ib * rtb * rtb
            tmass[q, p] = 1.0 / kt if kt > 0.0 else 0.0
            adj[q, p] = c_sep[i, p] - ((rbx - rax) * nx + (rby - ray) * ny)
            dvx = vel[bb, 0] - angvel[bb] * rby - vel[ba, 0] + angvel[ba] * ray
            dvy = vel[bb, 1] + angvel[bb] * rbx - vel[ba, 1] - angvel[ba] * rax
            relv[q, p] = dvx * nx + dvy * ny
    return (rows, ba_arr, bb_arr, ra, rb, nmass, tmass, adj, relv, fric, rest, static_pair,
            max_imp)


@njit
def _apply(ba, bb, px, py, rax, ray, rbx, rby, vel, angvel, inv_m, inv_i):
    """Apply impulse P at the anchors: -P to A, +P to B."""
    vel[ba, 0] -= inv_m[ba] * px
    vel[ba, 1] -= inv_m[ba] * py
    angvel[ba] -= inv_i[ba] * (rax * py - ray * px)
    vel[bb, 0] += inv_m[bb] * px
    vel[bb, 1] += inv_m[bb] * py
    angvel[bb] += inv_i[bb] * (rbx * py - rby * px)


@njit
def warm_start(rows, ba, bb, ra, rb, c_count, c_normal, c_nimp, c_timp, vel, angvel, inv_m,
               inv_i):
    for q in range(rows.shape[0]):
        i = rows[q]
        nx = c_normal[i, 0]
        ny = c_normal[i, 1]
        for p in range(c_count[i]):
            px = c_nimp[i, p] * nx + c_timp[i, p] * ny
            py = c_nimp[i, p] * ny - c_timp[i, p] * nx
            _apply(ba[q], bb[q], px, py, ra[q, p, 0], ra[q, p, 1], rb[q, p, 0], rb[q, p, 1],
                   vel, angvel, inv_m, inv_i)


@njit
def solve_contacts(rows, ba, bb, ra, rb, nmass, tmass, adj, fric, static_pair, max_imp,
                   c_count, c_normal, c_nimp, c_timp, vel, angvel, inv_m, inv_i, dp, dq,
                   h, use_bias, soft, soft_static, max_push, reverse):
    """One Gauss-Seidel pass over all contacts (last to first with ``reverse``): normal
    impulses (soft, with the current separation), then friction.

    The two bodies' velocities live in locals for the whole manifold and are stored once at
    its end: through memory, every impulse would wait on the last one's stores."""
    inv_h = 1.0 / h
    nq = rows.shape[0]
    for qq in range(nq):
        q = nq - 1 - qq if reverse else qq
        i = rows[q]
        a = ba[q]
        b = bb[q]
        nx = c_normal[i, 0]
        ny = c_normal[i, 1]
        ma = inv_m[a]
        mb = inv_m[b]
        ia = inv_i[a]
        ib = inv_i[b]
        vax = vel[a, 0]
        vay = vel[a, 1]
        wa = angvel[a]
        vbx = vel[b, 0]
        vby = vel[b, 1]
        wb = angvel[b]
        # Anchor rotation since the step began (per body, kept by integrate_positions).
        ca = dq[a, 0]
        sa = dq[a, 1]
        cb = dq[b, 0]
        sb = dq[b, 1]
        dpx = dp[b, 0] - dp[a, 0]
        dpy = dp[b, 1] - dp[a, 1]
        if static_pair[q]:
            bias_rate = soft_static[0]
            mass_scale = soft_static[1]
            imp_scale = soft_static[2]
        else:
            bias_rate = soft[0]
            mass_scale = soft[1]
            imp_scale = soft[2]
        for p in range(c_count[i]):
            rax = ra[q, p, 0]
            ray = ra[q, p, 1]
            rbx = rb[q, p, 0]
            rby = rb[q, p, 1]
            # Current separation from position deltas and rotated anchors.
            dx = dpx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
            dy = dpy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
            s = dx * nx + dy * ny + adj[q, p]
            if s > 0.0:
                bias = s * inv_h  # speculative: only stop what would close the gap
                ms = 1.0
                isc = 0.0
            elif use_bias:
                bias = max(bias_rate * min(s + PUSH_SLOP, 0.0), -max_push)
                ms = mass_scale
                isc = imp_scale
            else:
                bias = 0.0
                ms = 1.0
                isc = 0.0
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            old = c_nimp[i, p]
            new = max(old - nmass[q, p] * ms * (vn + bias) - isc * old, 0.0)
            imp = new - old
            c_nimp[i, p] = new
            max_imp[q, p] = max(max_imp[q, p], imp)
            px = imp * nx
            py = imp * ny
            vax -= ma * px
            vay -= ma * py
            wa -= ia * (rax * py - ray * px)
            vbx += mb * px
            vby += mb * py
            wb += ib * (rbx * py - rby * px)
        tx = ny
        ty = -nx
        mu = fric[q]
        for p in range(c_count[i]):
            rax = ra[q, p, 0]
            ray = ra[q, p, 1]
            rbx = rb[q, p, 0]
            rby = rb[q, p, 1]
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vt = dvx * tx + dvy * ty
            old = c_timp[i, p]
            limit = mu * c_nimp[i, p]
            new = min(max(old - tmass[q, p] * vt, -limit), limit)
            imp = new - old
            c_timp[i, p] = new
            px = imp * tx
            py = imp * ty
            vax -= ma * px
            vay -= ma * py
            wa -= ia * (rax * py - ray * px)
            vbx += mb * px
            vby += mb * py
            wb += ib * (rbx * py - rby * px)
        vel[a, 0] = vax
        vel[a, 1] = vay
        angvel[a] = wa
        vel[b, 0] = vbx
        vel[b, 1] = vby
        angvel[b] = wb


@njit
def apply_restitution(rows, ba, bb, ra, rb, nmass, relv, rest, max_imp, c_count, c_normal,
                      c_nimp, vel, angvel, inv_m, inv_i, threshold, total_imp):
    """Bounce: drive the normal velocity to -e * (approach speed) where the approach was
    faster than ``threshold`` and the contact pushed this step.

    Two bouncing points of one manifold are solved together (a 2x2 block, as Box2D v2's
    block solver): one point after the other would set the body spinning when it lands flat.
    """
    for q in range(rows.shape[0]):
        e = rest[q]
        if e == 0.0:
            continue
        i = rows[q]
        a = ba[q]
        b = bb[q]
        nx = c_normal[i, 0]
        ny = c_normal[i, 1]
        n = c_count[i]
        active0 = relv[q, 0] <= -threshold and max_imp[q, 0] != 0.0
        active1 = n == 2 and relv[q, 1] <= -threshold and max_imp[q, 1] != 0.0
        if active0 and active1 and _restitution_block(q, i, a, b, nx, ny, e, ra, rb, relv,
                                                      c_nimp, vel, angvel, inv_m, inv_i,
                                                      total_imp):
            continue
        for p in range(n):
            if relv[q, p] > -threshold or max_imp[q, p] == 0.0:
                continue
            rax = ra[q, p, 0]
            ray = ra[q, p, 1]
            rbx = rb[q, p, 0]
            rby = rb[q, p, 1]
            vn = _normal_velocity(a, b, nx, ny, rax, ray, rbx, rby, vel, angvel)
            imp = -nmass[q, p] * (vn + e * relv[q, p])
            new = max(c_nimp[i, p] + imp, 0.0)
            imp = new - c_nimp[i, p]
            c_nimp[i, p] = new
            total_imp[i, p] += imp
            _apply(a, b, imp * nx, imp * ny, rax, ray, rbx, rby, vel, angvel, inv_m, inv_i)


@njit
def _normal_velocity(a, b, nx, ny, rax, ray, rbx, rby, vel, angvel):
    dvx = vel[b, 0] - angvel[b] * rby - vel[a, 0] + angvel[a] * ray
    dvy = vel[b, 1] + angvel[b] * rbx - vel[a, 1] - angvel[a] * rax
    return dvx * nx + dvy * ny


@njit
def _restitution_block(q, i, a, b, nx, ny, e, ra, rb, relv, c_nimp, vel, angvel, inv_m,
                       inv_i, total_imp):
    """Solve both points' target velocities at once; False if an impulse would pull."""
    ma = inv_m[a]
    mb = inv_m[b]
    ia = inv_i[a]
    ib = inv_i[b]
    rn1a = ra[q, 0, 0] * ny - ra[q, 0, 1] * nx
    rn1b = rb[q, 0, 0] * ny - rb[q, 0, 1] * nx
    rn2a = ra[q, 1, 0] * ny - ra[q, 1, 1] * nx
    rn2b = rb[q, 1, 0] * ny - rb[q, 1, 1] * nx
    k11 = ma + mb + ia * rn1a * rn1a + ib * rn1b * rn1b
    k22 = ma + mb + ia * rn2a * rn2a + ib * rn2b * rn2b
    k12 = ma + mb + ia * rn1a * rn2a + ib * rn1b * rn2b
    det = k11 * k22 - k12 * k12
    if det <= 1e-12 * k11 * k22:
        return False  # the two points act as one (ill-conditioned): solve them one by one
    v1 = _normal_velocity(a, b, nx, ny, ra[q, 0, 0], ra[q, 0, 1], rb[q, 0, 0], rb[q, 0, 1],
                          vel, angvel)
    v2 = _normal_velocity(a, b, nx, ny, ra[q, 1, 0], ra[q, 1, 1], rb[q, 1, 0], rb[q, 1, 1],
                          vel, angvel)
    b1 = -(v1 + e * relv[q, 0])
    b2 = -(v2 + e * relv[q, 1])
    d1 = (k22 * b1 - k12 * b2) / det
    d2 = (k11 * b2 - k12 * b1) / det
    n1 = c_nimp[i, 0] + d1
    n2 = c_nimp[i, 1] + d2
    if n1 < 0.0 or n2 < 0.0:
        return False
    c_nimp[i, 0] = n1
    c_nimp[i, 1] = n2
    total_imp[i, 0] += d1
    total_imp[i, 1] += d2
    _apply(a, b, d1 * nx, d1 * ny, ra[q, 0, 0], ra[q, 0, 1], rb[q, 0, 0], rb[q, 0, 1], vel,
           angvel, inv_m, inv_i)
    _apply(a, b, d2 * nx, d2 * ny, ra[q, 1, 0], ra[q, 1, 1], rb[q, 1, 0], rb[q, 1, 1], vel,
           angvel, inv_m, inv_i)
    return True


@njit
def add_substep_impulses(rows, c_count, c_nimp, total_imp):
    """Each substep applies its accumulated impulse once (warm start + increments), so the
    step's total normal impulse is the sum of the substeps' final accumulated impulses."""
    for q in range(rows.shape[0]):
        i = rows[q]
        for p in range(c_count[i]):
            total_imp[i, p] += c_nimp[i, p]
