"""Contact solver: sequential impulses with soft contacts and substepping (after Box2D v3).

Stages, in the order the step calls them: ``prepare_contacts`` (anchors, Jacobian terms,
effective masses, the couplings between a manifold's rows, the block inverse of two-point
impacts), then per substep ``integrate_velocities`` (in integrate.py), ``warm_start``,
``solve_contacts`` (with bias; then ``EXTRA_PASSES`` more over the manifolds
``mass_ratio_rows`` picks), ``integrate_positions``, ``solve_contacts`` again without bias
and in reverse order (relax, which also sums the step's impulses); after the substeps
``apply_restitution``. The accumulated impulses stay in the contact table: the next step's
warm start.

Soft contacts: penetration is removed by a damped spring (contact hertz, damping ratio)
expressed as a bias velocity with mass and impulse scaling, capped at the push-out speed
(``World.contact_push_speed``, Box2D v3's maximum bias velocity); this is what lets stacks
rest without jitter, and the relax pass takes the push's velocity back out, so bodies
created inside each other separate and stop. Separation is re-measured every substep from
the bodies' position deltas and rotated anchors (Box2D v3's anchor-relative update), so it
stays valid as bodies move. Friction is Coulomb: the tangent impulse is clamped to
friction * normal impulse.

Bodies are indexed by slot; ``inv_m`` / ``inv_i`` are zero for static, kinematic and
sleeping bodies, which makes them immovable here.
"""

import math
from collections import namedtuple

from .._jit import njit
from .colouring import colour_rows
from .constants import B_ARCADE
from .materials import ENABLED, FRICTION, RESTITUTION, SURFACE_SPEED

# Overlap (m) the springs leave alone: a stack rests this much deeper per contact, and
# bodies a hair inside each other are not moved at all.
PUSH_SLOP = 0.001
# Approach speed (m/s) of both points above which a two-point manifold is solved as a block.
BLOCK_SPEED = 0.5
# Mass ratio across a contact beyond which the lighter body's contacts get extra passes.
MASS_RATIO = 4.0
# Extra biased passes (alternating direction, ending in reverse) over those contacts.
EXTRA_PASSES = 3


@njit(_nrt=False)
def make_soft(hertz, zeta, h):
    """(bias_rate, mass_scale, impulse_scale) of a soft constraint over substep h (Box2D
    v3's b2MakeSoft)."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


@njit(_nrt=True)
def prepare_contacts(contacts, m, shapes, bodies, t, block, colour):
    """Per-point solver data for the solid contacts with points among the table's first
    ``m`` rows, into ``t`` (rows, ba, bb, jac, nmass, tmass, coup, adj, relv, fric, rest,
    static_pair, max_imp, kinv). Two-point impacts are solved as a block only with
    ``block``; with ``colour`` the rows go colour by colour (``t.colour_start``,
    ``n_colours`` in the step record), else in the table's pair order. Returns how many
    manifolds it prepared."""
    c_a = contacts.a
    c_b = contacts.b
    c_resp = contacts.resp
    c_count = contacts.count
    c_normal = contacts.normal
    c_point = contacts.point
    c_sep = contacts.sep
    material = t.material
    s_body = shapes.body
    vel = bodies.vel
    angvel = bodies.angvel
    b_flags = bodies.flags
    com = t.com
    inv_m = t.inv_m
    inv_i = t.inv_i
    rows = t.rows
    ba_arr = t.ba
    bb_arr = t.bb
    state = t.state
    colour_start = t.colour_start
    nmass = t.nmass
    tmass = t.tmass
    adj = t.adj
    relv = t.relv
    fric = t.fric
    rest = t.rest
    static_pair = t.static_pair
    max_imp = t.max_imp
    kinv = t.kinv  # inverse 2x2 normal mass (i11, i12, i22); zeros: no block
    jac = t.jac
    coup = t.coup
    k = 0
    for i in range(m):
        if c_resp[i] == 1 and c_count[i] > 0 and material[i, ENABLED] != 0.0:
            ba = s_body[c_a[i]]
            bb = s_body[c_b[i]]
            arcade = (b_flags[ba] | b_flags[bb]) & B_ARCADE
            if not arcade and inv_m[ba] + inv_m[bb] + inv_i[ba] + inv_i[bb] > 0.0:
                rows[k] = i
                k += 1
    for q in range(k):
        ba_arr[q] = s_body[c_a[rows[q]]]
        bb_arr[q] = s_body[c_b[rows[q]]]
    # Rows colour by colour: the solve's Gauss-Seidel order. Off by default: pair order
    # runs a pyramid bottom-up in one sweep and holds B = 100 at 0.37 m of sag, colour
    # order at 0.40 m.
    state[0]["n_colours"] = 0
    if colour:
        state[0]["n_colours"] = colour_rows(rows[:k], ba_arr[:k], bb_arr[:k], inv_m, inv_i,
                                            inv_m.shape[0], colour_start)
    nmass[:k] = 0.0
    tmass[:k] = 0.0
    adj[:k] = 0.0
    relv[:k] = 0.0
    static_pair[:k] = False
    max_imp[:k] = 0.0
    kinv[:k] = 0.0
    jac[:k] = 0.0
    coup[:k] = 0.0
    # jac per point: r_a x n, r_b x n, r_a . n, r_b . n. The velocity Jacobians use the
    # anchors of the step's start (as Box2D v3); with t = perp(n), r x t = -(r . n).
    # coup: couplings between a manifold's constraint rows n1, n2, t1, t2 (entries of
    # J M^-1 J^T): n1-n2, n1-t1, n1-t2, n2-t1, n2-t2, t1-t2.
    for q in range(k):
        i = rows[q]
        ba = ba_arr[q]
        bb = bb_arr[q]
        # The row's material (materials.contact_materials, or a pre-solve callback's).
        fric[q] = material[i, FRICTION]
        rest[q] = material[i, RESTITUTION]
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
            rna = rax * ny - ray * nx
            rnb = rbx * ny - rby * nx
            jac[q, p, 0] = rna
            jac[q, p, 1] = rnb
            jac[q, p, 2] = rax * nx + ray * ny
            jac[q, p, 3] = rbx * nx + rby * ny
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
        # r x t = -(r . n); n . t = 0.
        coup[q, 1] = -(ia * jac[q, 0, 0] * jac[q, 0, 2] + ib * jac[q, 0, 1] * jac[q, 0, 3])
        if c_count[i] == 2:
            rn1a = jac[q, 0, 0]
            rn1b = jac[q, 0, 1]
            rn2a = jac[q, 1, 0]
            rn2b = jac[q, 1, 1]
            rt1a = -jac[q, 0, 2]
            rt1b = -jac[q, 0, 3]
            rt2a = -jac[q, 1, 2]
            rt2b = -jac[q, 1, 3]
            k11, k12, k22, det = _normal_mass2(q, jac, ma, mb, ia, ib)
            coup[q, 0] = k12
            coup[q, 2] = ia * rn1a * rt2a + ib * rn1b * rt2b
            coup[q, 3] = ia * rn2a * rt1a + ib * rn2b * rt1b
            coup[q, 4] = ia * rn2a * rt2a + ib * rn2b * rt2b
            coup[q, 5] = ma + mb + ia * rt1a * rt2a + ib * rt1b * rt2b
            # Block only for impacts, and only when well conditioned (Box2D v2's test). Resting
            # contacts stay point by point: a block solve there (soft or not) let the B = 100
            # pyramid sag and drift more (0.52 m against 0.37 m).
            impact = block and relv[q, 0] < -BLOCK_SPEED and relv[q, 1] < -BLOCK_SPEED
            if impact and k11 * k11 < 1000.0 * det:
                kinv[q, 0] = k22 / det
                kinv[q, 1] = -k12 / det
                kinv[q, 2] = k11 / det
    return k


@njit(_nrt=False)
def rescale_impulses(c_nimp, c_timp, f):
    """Scale the accumulated (per substep) impulses by f: a step with another substep count
    warm-starts with the same forces."""
    for i in range(c_nimp.shape[0]):
        for p in range(2):
            c_nimp[i, p] *= f
            c_timp[i, p] *= f


@njit(_nrt=False)
def mass_ratio_rows(ba, bb, inv_m, sel, light):
    """Into ``sel``, the indices of the manifolds that touch a body in contact with a
    dynamic body over ``MASS_RATIO`` times heavier.

    A light body between a heavy one and the ground is Gauss-Seidel's worst case: each pass
    moves the heavy body by about the mass ratio's inverse, so with one pass per substep a
    1 kg box under a 10-1000 kg box never settles but rocks until the top box falls off.
    Its manifolds get ``EXTRA_PASSES`` more (cheap: few rows); four in all held every ratio
    up to 1:1000 at rest, as do eight substeps. Returns how many. (``light``: one per body,
    overwritten.)"""
    k = ba.shape[0]
    for q in range(k):
        light[ba[q]] = False
        light[bb[q]] = False
    for q in range(k):
        ma = inv_m[ba[q]]
        mb = inv_m[bb[q]]
        if ma > MASS_RATIO * mb and mb > 0.0:
            light[ba[q]] = True
        elif mb > MASS_RATIO * ma and ma > 0.0:
            light[bb[q]] = True
    n = 0
    for q in range(k):
        if light[ba[q]] or light[bb[q]]:
            sel[n] = q
            n += 1
    return n


@njit(_nrt=False)
def _normal_mass2(q, jac, ma, mb, ia, ib):
    """The 2x2 normal mass matrix K of a two-point manifold: (k11, k12, k22, det)."""
    rn1a = jac[q, 0, 0]
    rn1b = jac[q, 0, 1]
    rn2a = jac[q, 1, 0]
    rn2b = jac[q, 1, 1]
    k11 = ma + mb + ia * rn1a * rn1a + ib * rn1b * rn1b
    k22 = ma + mb + ia * rn2a * rn2a + ib * rn2b * rn2b
    k12 = ma + mb + ia * rn1a * rn2a + ib * rn1b * rn2b
    return k11, k12, k22, k11 * k22 - k12 * k12


@njit(_nrt=False)
def _normal_velocity(q, p, a, b, nx, ny, jac, vel, angvel):
    """Relative normal velocity at point p (B's minus A's, along n)."""
    return ((vel[b, 0] - vel[a, 0]) * nx + (vel[b, 1] - vel[a, 1]) * ny
            + angvel[b] * jac[q, p, 1] - angvel[a] * jac[q, p, 0])


@njit(_nrt=False)
def _apply_normal(q, p, a, b, imp, nx, ny, jac, vel, angvel, inv_m, inv_i):
    """A normal impulse at point p: -imp n to A, +imp n to B."""
    vel[a, 0] -= inv_m[a] * imp * nx
    vel[a, 1] -= inv_m[a] * imp * ny
    angvel[a] -= inv_i[a] * imp * jac[q, p, 0]
    vel[b, 0] += inv_m[b] * imp * nx
    vel[b, 1] += inv_m[b] * imp * ny
    angvel[b] += inv_i[b] * imp * jac[q, p, 1]


# The substeps' passes take the step's first k rows of whole arrays and are inlined into
# their stages: a compiled call per pass with a slice of each of its 30-odd arrays cost a
# small world several microseconds a substep.
#: The constraint rows' arrays a pass reads, with the step view's field names.
SolveRows = namedtuple("SolveRows", (
    "rows", "ba", "bb", "jac", "nmass", "tmass", "coup", "adj", "fric", "static_pair",
    "max_imp", "kinv"))

#: Everything a contact pass reads and writes: the rows (``SolveRows``); the contacts'
#: point counts, normals, accumulated normal and tangent impulses, materials and the
#: substep's total impulses; the bodies' velocities, inverse masses, substep motion
#: (``dp``, ``dq``); the soft coefficients; the light bodies' rows (``heavy``).
ContactPass = namedtuple("ContactPass", (
    "rows", "count", "normal", "nimp", "timp", "material", "vel", "angvel", "inv_m",
    "inv_i", "dp", "dq", "soft", "soft_static", "impulse", "heavy"))


@njit(inline="always")
def warm_start(k, cp):
    """Apply last substep's accumulated impulses (a manifold's sum, once per body) over the
    first ``k`` rows of the ``ContactPass`` ``cp``."""
    rows, ba, bb, jac = cp.rows.rows, cp.rows.ba, cp.rows.bb, cp.rows.jac
    c_count, c_normal, c_nimp, c_timp = cp.count, cp.normal, cp.nimp, cp.timp
    vel, angvel, inv_m, inv_i = cp.vel, cp.angvel, cp.inv_m, cp.inv_i
    for q in range(k):
        i = rows[q]
        a = ba[q]
        b = bb[q]
        nx = c_normal[i, 0]
        ny = c_normal[i, 1]
        n1 = c_nimp[i, 0]
        t1 = c_timp[i, 0]
        n2 = 0.0
        t2 = 0.0
        if c_count[i] == 2:
            n2 = c_nimp[i, 1]
            t2 = c_timp[i, 1]
        ln = n1 + n2
        lt = t1 + t2
        px = ln * nx + lt * ny
        py = ln * ny - lt * nx
        # Angular: r x (ln n + lt t) = ln (r x n) - lt (r . n).
        ta = n1 * jac[q, 0, 0] + n2 * jac[q, 1, 0] - t1 * jac[q, 0, 2] - t2 * jac[q, 1, 2]
        tb = n1 * jac[q, 0, 1] + n2 * jac[q, 1, 1] - t1 * jac[q, 0, 3] - t2 * jac[q, 1, 3]
        ma = inv_m[a]
        mb = inv_m[b]
        vel[a, 0] -= ma * px
        vel[a, 1] -= ma * py
        angvel[a] -= inv_i[a] * ta
        vel[b, 0] += mb * px
        vel[b, 1] += mb * py
        angvel[b] += inv_i[b] * tb


@njit(inline="always")
def solve_contacts(cp, k, h, use_bias, max_push, reverse, n_sel, subset):
    """One Gauss-Seidel pass of the ``ContactPass`` ``cp`` over its first ``k`` rows, or over
    the first ``n_sel`` manifolds of its ``heavy`` rows with ``subset`` (last to first with
    ``reverse``): normal impulses (soft, with the current separation), then friction.

    A manifold's constraint velocities (n1, n2, t1, t2) are computed once from the bodies;
    each impulse then updates the others through the coupling terms ``coup`` (the Delassus
    matrix J M^-1 J^T, fixed for the step), and the bodies' velocities change once at the
    end. The same Gauss-Seidel sweep as applying every impulse to the bodies and re-reading
    them, but the chain of dependent operations per impulse is a third as long.

    The relax pass (no bias) is a substep's last: it adds each final accumulated impulse to
    ``impulse``, since a substep applies it once (warm start plus increments)."""
    R = cp.rows
    c_count, c_normal, c_nimp, c_timp = cp.count, cp.normal, cp.nimp, cp.timp
    material, vel, angvel, inv_m, inv_i = cp.material, cp.vel, cp.angvel, cp.inv_m, cp.inv_i
    dp, dq, soft, soft_static = cp.dp, cp.dq, cp.soft, cp.soft_static
    total_imp, sel = cp.impulse, cp.heavy
    rows = R.rows
    ba = R.ba
    bb = R.bb
    jac = R.jac
    nmass = R.nmass
    tmass = R.tmass
    coup = R.coup
    adj = R.adj
    fric = R.fric
    static_pair = R.static_pair
    max_imp = R.max_imp
    kinv = R.kinv
    inv_h = 1.0 / h
    nq = n_sel if subset else k
    for qq in range(nq):
        q = nq - 1 - qq if reverse else qq
        if subset:
            q = sel[q]
        i = rows[q]
        a = ba[q]
        b = bb[q]
        nx = c_normal[i, 0]
        ny = c_normal[i, 1]
        vax = vel[a, 0]
        vay = vel[a, 1]
        wa = angvel[a]
        vbx = vel[b, 0]
        vby = vel[b, 1]
        wb = angvel[b]
        # Anchor rotation since the step began (per body, kept by integrate_positions), and
        # the centres' relative displacement along the normal.
        ca = dq[a, 0]
        sa = dq[a, 1]
        cb = dq[b, 0]
        sb = dq[b, 1]
        dpn = (dp[b, 0] - dp[a, 0]) * nx + (dp[b, 1] - dp[a, 1]) * ny
        if static_pair[q]:
            bias_rate = soft_static[0]
            mass_scale = soft_static[1]
            imp_scale = soft_static[2]
        else:
            bias_rate = soft[0]
            mass_scale = soft[1]
            imp_scale = soft[2]
        npts = c_count[i]
        two = npts == 2
        dvx = vbx - vax
        dvy = vby - vay
        dvn = dvx * nx + dvy * ny
        dvt = dvx * ny - dvy * nx
        # Tangent t = (ny, -nx); r x t = -(r . n).
        vn1 = dvn + (wb * jac[q, 0, 1] - wa * jac[q, 0, 0])
        vt1 = dvt + (wa * jac[q, 0, 2] - wb * jac[q, 0, 3])
        vn2 = 0.0
        vt2 = 0.0
        if two:
            vn2 = dvn + (wb * jac[q, 1, 1] - wa * jac[q, 1, 0])
            vt2 = dvt + (wa * jac[q, 1, 2] - wb * jac[q, 1, 3])
        s1 = _separation(q, 0, dpn, ca, sa, cb, sb, jac, adj)
        bias1, ms1, isc1 = _soft_terms(s1, inv_h, use_bias, bias_rate, mass_scale, imp_scale,
                                       max_push)
        d1 = 0.0
        d2 = 0.0
        solved = False
        if two:
            s2 = _separation(q, 1, dpn, ca, sa, cb, sb, jac, adj)
            bias2, ms2, isc2 = _soft_terms(s2, inv_h, use_bias, bias_rate, mass_scale,
                                           imp_scale, max_push)
            if kinv[q, 0] != 0.0 and ms1 == ms2 and isc1 == isc2:
                # Both normal impulses at once (Box2D v2's block solve). One after the
                # other, a hard face-on hit stops the first point alone and sets the body
                # spinning. Not when the two points are in different regimes (speculative /
                # pushing). When both would pull, the pushing-only solution; when one
                # would, point by point.
                e1 = vn1 + bias1
                e2 = vn2 + bias2
                old1 = c_nimp[i, 0]
                old2 = c_nimp[i, 1]
                new1 = old1 - ms1 * (kinv[q, 0] * e1 + kinv[q, 1] * e2) - isc1 * old1
                new2 = old2 - ms1 * (kinv[q, 1] * e1 + kinv[q, 2] * e2) - isc1 * old2
                if new1 < 0.0 and new2 < 0.0:
                    new1, new2 = _clamped_block(q, e1, e2, old1, old2, ms1, isc1, nmass,
                                                coup, new1, new2)
                if new1 >= 0.0 and new2 >= 0.0:
                    d1 = new1 - old1
                    d2 = new2 - old2
                    c_nimp[i, 0] = new1
                    c_nimp[i, 1] = new2
                    solved = True
            if not solved:
                d1 = _normal_point(i, 0, vn1, bias1, nmass[q, 0] * ms1, isc1, c_nimp)
                vn2 += coup[q, 0] * d1
                d2 = _normal_point(i, 1, vn2, bias2, nmass[q, 1] * ms2, isc2, c_nimp)
            max_imp[q, 1] = max(max_imp[q, 1], d2)
            vt1 += coup[q, 1] * d1 + coup[q, 3] * d2
            vt2 += coup[q, 2] * d1 + coup[q, 4] * d2
        else:
            d1 = _normal_point(i, 0, vn1, bias1, nmass[q, 0] * ms1, isc1, c_nimp)
            vt1 += coup[q, 1] * d1
        max_imp[q, 0] = max(max_imp[q, 0], d1)
        # Friction: Coulomb, the tangent impulse within friction * normal impulse, toward
        # the surfaces' relative speed (materials.py; added only when set, so that a zero
        # leaves every bit as it was, signed zeros included).
        spd = material[i, SURFACE_SPEED]
        if spd != 0.0:
            vt1 += spd
            vt2 += spd
        mu = fric[q]
        old = c_timp[i, 0]
        limit = mu * c_nimp[i, 0]
        new = min(max(old - tmass[q, 0] * vt1, -limit), limit)
        t1 = new - old
        c_timp[i, 0] = new
        t2 = 0.0
        if two:
            vt2 += coup[q, 5] * t1
            old = c_timp[i, 1]
            limit = mu * c_nimp[i, 1]
            new = min(max(old - tmass[q, 1] * vt2, -limit), limit)
            t2 = new - old
            c_timp[i, 1] = new
        # The bodies take the manifold's impulses once.
        pn = d1 + d2
        ma = inv_m[a]
        mb = inv_m[b]
        vax -= ma * nx * pn
        vay -= ma * ny * pn
        vbx += mb * nx * pn
        vby += mb * ny * pn
        pt = t1 + t2
        vel[a, 0] = vax - ma * ny * pt
        vel[a, 1] = vay + ma * nx * pt
        vel[b, 0] = vbx + mb * ny * pt
        vel[b, 1] = vby - mb * nx * pt
        ia = inv_i[a]
        ib = inv_i[b]
        wa -= ia * (jac[q, 0, 0] * d1 + jac[q, 1, 0] * d2)
        wb += ib * (jac[q, 0, 1] * d1 + jac[q, 1, 1] * d2)
        angvel[a] = wa + ia * jac[q, 0, 2] * t1 + ia * jac[q, 1, 2] * t2
        angvel[b] = wb - ib * jac[q, 0, 3] * t1 - ib * jac[q, 1, 3] * t2
        if not use_bias:
            total_imp[i, 0] += c_nimp[i, 0]
            if two:
                total_imp[i, 1] += c_nimp[i, 1]


@njit(_nrt=False)
def _separation(q, p, dpn, ca, sa, cb, sb, jac, adj):
    """Point p's current separation from the centres' displacement along the normal and
    the rotated anchors: a rotation (c, s) turns r . n into c (r . n) + s (r x n)."""
    return (dpn + cb * jac[q, p, 3] + sb * jac[q, p, 1] - ca * jac[q, p, 2]
            - sa * jac[q, p, 0] + adj[q, p])


@njit(inline="always")
def _clamped_block(q, e1, e2, old1, old2, ms, isc, nmass, coup, new1, new2):
    """Two normal impulses that push only, where the unclamped block solution (``new1``,
    ``new2``) pulls: the pushing-only solution of the same soft equations, K x = c with
    c = (1 - isc) K old - ms (v + bias), as a linear complementarity problem (x >= 0,
    K x - c >= 0, one of the two zero at each point), by Box2D v2's cases: point 1 alone,
    point 2 alone, neither. K is positive definite, so one case holds; when round-off
    rejects them all, the unclamped solution clamped at zero. The solve calls it when both
    would pull, as the substep after a hard hit, whose warm start hands the stopping
    impulse back, when the exact answer is zero at both points and round-off puts it a
    hair below: point by point, the first point took its impulse back alone and set the
    body spinning (a 1000 m/s face-on hit left at 188 rad/s)."""
    k11 = 1.0 / nmass[q, 0]
    k22 = 1.0 / nmass[q, 1]
    k12 = coup[q, 0]
    keep = 1.0 - isc
    c1 = keep * (k11 * old1 + k12 * old2) - ms * e1
    c2 = keep * (k12 * old1 + k22 * old2) - ms * e2
    x1 = c1 / k11
    if x1 >= 0.0 and k12 * x1 - c2 >= 0.0:
        return x1, 0.0
    x2 = c2 / k22
    if x2 >= 0.0 and k12 * x2 - c1 >= 0.0:
        return 0.0, x2
    if c1 <= 0.0 and c2 <= 0.0:
        return 0.0, 0.0
    return max(new1, 0.0), max(new2, 0.0)


@njit(inline="always")
def _normal_point(i, p, vn, bias, k, imp_scale, c_nimp):
    """Update point p's accumulated normal impulse (soft, clamped to push only); returns
    the increment. The leak and bias terms do not wait on the velocity: only k vn is on the
    chain of dependent operations."""
    old = c_nimp[i, p]
    new = max(((old - imp_scale * old) - k * bias) - k * vn, 0.0)
    c_nimp[i, p] = new
    return new - old


@njit(_nrt=False)
def _soft_terms(s, inv_h, use_bias, bias_rate, mass_scale, imp_scale, max_push):
    """(bias, mass scale, impulse scale) of a point at separation s: the spring's push-out
    speed for the overlap beyond the slop, at most ``max_push``."""
    if s > 0.0:
        return s * inv_h, 1.0, 0.0  # speculative: only stop what would close the gap
    if use_bias:
        return max(bias_rate * min(s + PUSH_SLOP, 0.0), -max_push), mass_scale, imp_scale
    return 0.0, 1.0, 0.0


@njit(_nrt=False)
def apply_restitution(k, cp, relv, rest, free, threshold, cap):
    """Bounce, over the first ``k`` rows of the ``ContactPass`` ``cp``: drive the normal
    velocity to -e * (approach speed) (``relv`` the rows' approach speeds, ``rest`` their
    restitution e) where the approach was faster than ``threshold`` and the contact pushed
    this step.

    Two bouncing points of one manifold are solved together (a 2x2 block, as Box2D v2's
    block solver): one point after the other would set the body spinning when it lands flat.
    Per-point targets can still add energy when the two points of a turning body were not
    both stopped (a corner hitting first gained 0.8 %), so the bounce is scaled back until
    the pair's kinetic energy is no more than it would have been with no contact at all
    (``free`` = (vfree, wfree, kinematic_moving): the step's start velocities plus the
    forces' change, and whether each body is a moving kinematic one). A moving kinematic
    body is exempt: it may give energy. ``cap`` False: no scaling back. (It allocates
    nothing: the pair's velocities before the bounce and the points' impulses are locals.)
    """
    rows, ba, bb, jac = cp.rows.rows, cp.rows.ba, cp.rows.bb, cp.rows.jac
    nmass, max_imp = cp.rows.nmass, cp.rows.max_imp
    c_count, c_normal, c_nimp, total_imp = cp.count, cp.normal, cp.nimp, cp.impulse
    vel, angvel, inv_m, inv_i = cp.vel, cp.angvel, cp.inv_m, cp.inv_i
    vfree, wfree, kinematic_moving = free
    for q in range(k):
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
        if not (active0 or active1):
            continue
        before = (vel[a, 0], vel[a, 1], angvel[a], vel[b, 0], vel[b, 1], angvel[b])
        # Each point's impulse this bounce.
        d0 = 0.0
        d1 = 0.0
        together = False
        if active0 and active1:
            together, i0, i1 = _restitution_block(cp, q, i, a, b, nx, ny, e, relv)
            if together:
                d0 += i0
                d1 += i1
        if not together:
            for p in range(n):
                if relv[q, p] > -threshold or max_imp[q, p] == 0.0:
                    continue
                vn = _normal_velocity(q, p, a, b, nx, ny, jac, vel, angvel)
                imp = -nmass[q, p] * (vn + e * relv[q, p])
                new = max(c_nimp[i, p] + imp, 0.0)
                imp = new - c_nimp[i, p]
                c_nimp[i, p] = new
                if p == 0:
                    d0 += imp
                else:
                    d1 += imp
                _apply_normal(q, p, a, b, imp, nx, ny, jac, vel, angvel, inv_m, inv_i)
        f = 1.0
        if cap and not (kinematic_moving[a] or kinematic_moving[b]):
            f = _energy_scale(a, b, before, vel, angvel, inv_m, inv_i, vfree, wfree)
        if f < 1.0:
            vel[a, 0] = before[0] + f * (vel[a, 0] - before[0])
            vel[a, 1] = before[1] + f * (vel[a, 1] - before[1])
            angvel[a] = before[2] + f * (angvel[a] - before[2])
            vel[b, 0] = before[3] + f * (vel[b, 0] - before[3])
            vel[b, 1] = before[4] + f * (vel[b, 1] - before[4])
            angvel[b] = before[5] + f * (angvel[b] - before[5])
            c_nimp[i, 0] -= (1.0 - f) * d0
            d0 *= f
            if n == 2:
                c_nimp[i, 1] -= (1.0 - f) * d1
                d1 *= f
        total_imp[i, 0] += d0
        if n == 2:
            total_imp[i, 1] += d1


@njit(_nrt=False)
def _pair_energy(a, b, vax, vay, wa, vbx, vby, wb, inv_m, inv_i):
    """Kinetic energy of the movable bodies of a pair (immovable ones count nothing)."""
    e = 0.0
    if inv_m[a] > 0.0:
        e += 0.5 * (vax * vax + vay * vay) / inv_m[a]
    if inv_i[a] > 0.0:
        e += 0.5 * wa * wa / inv_i[a]
    if inv_m[b] > 0.0:
        e += 0.5 * (vbx * vbx + vby * vby) / inv_m[b]
    if inv_i[b] > 0.0:
        e += 0.5 * wb * wb / inv_i[b]
    return e


@njit(_nrt=False)
def _energy_scale(a, b, before, vel, angvel, inv_m, inv_i, vfree, wfree):
    """Largest f in [0, 1] such that the pair's energy with the bounce scaled by f does not
    exceed its contact-free energy. The energy is quadratic in f: k0 + k1 f + k2 f^2."""
    limit = _pair_energy(a, b, vfree[a, 0], vfree[a, 1], wfree[a], vfree[b, 0], vfree[b, 1],
                         wfree[b], inv_m, inv_i)
    after = _pair_energy(a, b, vel[a, 0], vel[a, 1], angvel[a], vel[b, 0], vel[b, 1],
                         angvel[b], inv_m, inv_i)
    if after <= limit:
        return 1.0
    k0 = _pair_energy(a, b, before[0], before[1], before[2], before[3], before[4], before[5],
                      inv_m, inv_i)
    if k0 >= limit:
        return 0.0
    dax = vel[a, 0] - before[0]
    day = vel[a, 1] - before[1]
    dwa = angvel[a] - before[2]
    dbx = vel[b, 0] - before[3]
    dby = vel[b, 1] - before[4]
    dwb = angvel[b] - before[5]
    k2 = _pair_energy(a, b, dax, day, dwa, dbx, dby, dwb, inv_m, inv_i)
    k1 = after - k0 - k2
    # k2 f^2 + k1 f + (k0 - limit) = 0 has one root in (0, 1): k0 < limit < after.
    disc = max(k1 * k1 - 4.0 * k2 * (k0 - limit), 0.0)
    return min(max((-k1 + math.sqrt(disc)) / (2.0 * k2), 0.0), 1.0)


@njit(_nrt=False)
def _restitution_block(cp, q, i, a, b, nx, ny, e, relv):
    """Solve both points' target velocities at once: (True, the two points' impulses), or
    (False, 0, 0) if an impulse would pull (nothing written)."""
    jac, c_nimp, vel, angvel, inv_m, inv_i = (cp.rows.jac, cp.nimp, cp.vel, cp.angvel,
                                              cp.inv_m, cp.inv_i)
    k11, k12, k22, det = _normal_mass2(q, jac, inv_m[a], inv_m[b], inv_i[a], inv_i[b])
    if det <= 1e-12 * k11 * k22:
        # the two points act as one (ill-conditioned): solve them one by one
        return False, 0.0, 0.0
    b1 = -(_normal_velocity(q, 0, a, b, nx, ny, jac, vel, angvel) + e * relv[q, 0])
    b2 = -(_normal_velocity(q, 1, a, b, nx, ny, jac, vel, angvel) + e * relv[q, 1])
    d1 = (k22 * b1 - k12 * b2) / det
    d2 = (k11 * b2 - k12 * b1) / det
    n1 = c_nimp[i, 0] + d1
    n2 = c_nimp[i, 1] + d2
    if n1 < 0.0 or n2 < 0.0:
        return False, 0.0, 0.0
    c_nimp[i, 0] = n1
    c_nimp[i, 1] = n2
    _apply_normal(q, 0, a, b, d1, nx, ny, jac, vel, angvel, inv_m, inv_i)
    _apply_normal(q, 1, a, b, d2, nx, ny, jac, vel, angvel, inv_m, inv_i)
    return True, d1, d2
