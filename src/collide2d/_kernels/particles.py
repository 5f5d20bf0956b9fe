"""Particles: many small fast projectiles, moved and tested against every shape each step.

A step integrates each live particle's velocity (gravity, then linear drag) and moves it
along the segment from its old to its new position; the segment is cast through the
world's shape tree (:func:`.queries.cast_segments`), so a particle cannot tunnel through a
shape at any speed. Bodies that moved during the step are handled in their own frame: the
particle's path relative to the body is tested (to within ``queries.MOTION_TOL``), so a
turning hull cannot sweep past a particle between two steps. The tree's boxes must cover
where each moving shape went during the step (:func:`swept_boxes`).

What a hit does:

* ``STOP``: the particle dies at the hit point (velocity kept, for the caller to read);
* ``PASS``: the hit is reported and the particle flies on to its end point;
* ``BOUNCE``: the velocity relative to the body's surface is reflected with the given
  elasticity, and the rest of the step's motion continues from the hit point, nudged off the
  surface by ``NUDGE`` (relative) so the next segment does not start on it. After
  ``max_bounces`` bounces in a step the next hit is still reflected, but the particle waits
  at that point (nudged) until the next step.

A particle that starts inside a shape hits it at fraction 0 with a zero normal (the query
rule): it stops, or passes on; a bounce has no normal to reflect about, so it passes on.
Hit fractions are fractions of the step's time (0 at its start, 1 at its end).

Whole legs are cast as one batch: first every live particle, then the ones that bounced,
and so on, so the array-heavy traversal is entered a few times per step, not per particle.
"""

import math

import numpy as np

from .._jit import njit
from .constants import S_ALIVE
from .queries import cast_segments

STOP = 0
BOUNCE = 1
PASS = 2
# A bounced particle restarts this far off the surface (relative to its coordinates, + m).
NUDGE = 1e-9


@njit
def swept_boxes(aabb, flags, count, s_body, s_vstart, s_vcount, s_radius, vworld, moved,
                dtheta, com0, com1, out):
    """Boxes covering each live row over the step: its end box, and for a body that moved,
    where it was. A translated row: the union of its box at both poses. A turned row: the
    disc about the centre of mass that holds it at every angle, swept from com0 to com1
    (exact for kinematic bodies, whose centre of mass moves in a straight line)."""
    for s in range(count):
        if not flags[s] & S_ALIVE:
            continue
        lox = aabb[s, 0]
        loy = aabb[s, 1]
        hix = aabb[s, 2]
        hiy = aabb[s, 3]
        b = s_body[s]
        if moved[b]:
            if dtheta[b] == 0.0:
                sx = com0[b, 0] - com1[b, 0]
                sy = com0[b, 1] - com1[b, 1]
                lox = min(lox, lox + sx)
                hix = max(hix, hix + sx)
                loy = min(loy, loy + sy)
                hiy = max(hiy, hiy + sy)
            else:
                r2 = 0.0
                for v in range(s_vstart[s], s_vstart[s] + s_vcount[s]):
                    dx = vworld[v, 0] - com1[b, 0]
                    dy = vworld[v, 1] - com1[b, 1]
                    r2 = max(r2, dx * dx + dy * dy)
                r = math.sqrt(r2) + s_radius[s]
                lox = min(lox, min(com0[b, 0], com1[b, 0]) - r)
                hix = max(hix, max(com0[b, 0], com1[b, 0]) + r)
                loy = min(loy, min(com0[b, 1], com1[b, 1]) - r)
                hiy = max(hiy, max(com0[b, 1], com1[b, 1]) + r)
        out[s, 0] = lox
        out[s, 1] = loy
        out[s, 2] = hix
        out[s, 3] = hiy


@njit
def _grow_hits(cap, h_particle, h_body, h_shape, h_point, h_normal, h_fraction, used):
    p = np.empty(cap, dtype=np.int64)
    b = np.empty(cap, dtype=np.int64)
    s = np.empty(cap, dtype=np.int64)
    pt = np.empty((cap, 2))
    nm = np.empty((cap, 2))
    fr = np.empty(cap)
    p[:used] = h_particle[:used]
    b[:used] = h_body[:used]
    s[:used] = h_shape[:used]
    pt[:used] = h_point[:used]
    nm[:used] = h_normal[:used]
    fr[:used] = h_fraction[:used]
    return p, b, s, pt, nm, fr


@njit
def step_particles(n, pos, vel, alive, dt, gx, gy, keep, mode, elasticity, max_bounces,
                   node_first, node_count, slot_box, slot_ref, n_nodes,
                   s_body, s_owner, s_flags, s_category, s_mask, s_vstart, s_vcount, s_radius,
                   vworld, b_order, b_vel, b_angvel, f_category, f_mask, f_sensors, f_exclude,
                   moved, dtheta, com0, com1,
                   leg_p, leg_a, leg_b, leg_left, leg_done, c_hit, c_body, c_shape, c_point,
                   c_normal, c_fraction,
                   h_particle, h_body, h_shape, h_point, h_normal, h_fraction):
    """Advance particles 0..n-1 by dt. ``keep`` = exp(-drag dt) scales velocities.

    ``leg_*`` and ``c_*`` are scratch arrays of length >= n. Returns the number of hits and
    the hit arrays (new, larger ones if the given ones filled up).
    """
    # First leg: every live particle, tested against bodies in their moving frames.
    m = 0
    for i in range(n):
        if not alive[i]:
            continue
        vx = (vel[i, 0] + gx * dt) * keep
        vy = (vel[i, 1] + gy * dt) * keep
        vel[i, 0] = vx
        vel[i, 1] = vy
        leg_p[m] = i
        leg_a[m, 0] = pos[i, 0]
        leg_a[m, 1] = pos[i, 1]
        leg_b[m, 0] = pos[i, 0] + vx * dt
        leg_b[m, 1] = pos[i, 1] + vy * dt
        leg_left[m] = 1.0
        leg_done[m] = 0.0
        m += 1
    n_hits = 0
    for bounce in range(max_bounces + 1):
        if m == 0:
            break
        cast_segments(leg_a[:m], leg_b[:m], node_first, node_count, slot_box, slot_ref,
                      n_nodes, s_body, s_owner, s_flags, s_category, s_mask, s_vstart,
                      s_vcount, s_radius, vworld, b_order, f_category, f_mask, f_sensors,
                      f_exclude, bounce == 0, moved, dtheta, com0, com1,
                      c_hit[:m], c_body[:m], c_shape[:m], c_point[:m], c_normal[:m],
                      c_fraction[:m])
        # Record this leg's hits (growing the buffers if needed).
        k = 0
        for q in range(m):
            k += c_hit[q]
        if n_hits + k > h_particle.shape[0]:
            cap = max(2 * h_particle.shape[0], n_hits + k)
            h_particle, h_body, h_shape, h_point, h_normal, h_fraction = _grow_hits(
                cap, h_particle, h_body, h_shape, h_point, h_normal, h_fraction, n_hits)
        m_next = 0
        for q in range(m):
            i = leg_p[q]
            if not c_hit[q]:
                pos[i, 0] = leg_b[q, 0]
                pos[i, 1] = leg_b[q, 1]
                continue
            t = c_fraction[q]
            hx = c_point[q, 0]
            hy = c_point[q, 1]
            nx = c_normal[q, 0]
            ny = c_normal[q, 1]
            h_particle[n_hits] = i
            h_body[n_hits] = c_body[q]
            h_shape[n_hits] = c_shape[q]
            h_point[n_hits, 0] = hx
            h_point[n_hits, 1] = hy
            h_normal[n_hits, 0] = nx
            h_normal[n_hits, 1] = ny
            h_fraction[n_hits] = leg_done[q] + t * leg_left[q]
            n_hits += 1
            if mode == STOP:
                pos[i, 0] = hx
                pos[i, 1] = hy
                alive[i] = False
                continue
            if mode == PASS or (nx == 0.0 and ny == 0.0):
                pos[i, 0] = leg_b[q, 0]
                pos[i, 1] = leg_b[q, 1]
                continue
            # Bounce off the surface, which moves with its body's velocity at the hit point.
            bs = s_body[c_shape[q]]
            ux = b_vel[bs, 0] - b_angvel[bs] * (hy - com1[bs, 1])
            uy = b_vel[bs, 1] + b_angvel[bs] * (hx - com1[bs, 0])
            rx = vel[i, 0] - ux
            ry = vel[i, 1] - uy
            vn = rx * nx + ry * ny
            if vn < 0.0:
                rx -= (1.0 + elasticity) * vn * nx
                ry -= (1.0 + elasticity) * vn * ny
            vel[i, 0] = ux + rx
            vel[i, 1] = uy + ry
            nudge = NUDGE * (1.0 + abs(hx) + abs(hy))
            px = hx + nudge * nx
            py = hy + nudge * ny
            pos[i, 0] = px
            pos[i, 1] = py
            left = leg_left[q] * (1.0 - t)
            if bounce == max_bounces or left <= 0.0:
                continue
            # The next leg reuses slot m_next <= q: already read above.
            leg_p[m_next] = i
            leg_a[m_next, 0] = px
            leg_a[m_next, 1] = py
            leg_b[m_next, 0] = px + vel[i, 0] * dt * left
            leg_b[m_next, 1] = py + vel[i, 1] * dt * left
            leg_done[m_next] = leg_done[q] + t * leg_left[q]
            leg_left[m_next] = left
            m_next += 1
        m = m_next
    return n_hits, h_particle, h_body, h_shape, h_point, h_normal, h_fraction
