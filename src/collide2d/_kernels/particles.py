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
rule): it stops, or passes on. A bouncing particle has no surface to reflect off there: it
passes out of that shape, unreported, and still hits every other, so a particle squeezed
into a body against a wall can leave the body but not enter the wall. A body that moves
onto a particle carries it to where the body ends the step; that path is checked against
the shapes that did not move (:func:`check_carried`).
Hit fractions are fractions of the step's time (0 at its start, 1 at its end).

Whole legs are cast as one batch: first every live particle, then the ones that bounced,
and so on, so the array-heavy traversal is entered a few times per step, not per particle.

State comes in as views and records (``views.py``): the particles (``ParticleView``), the
step's scratch (``LegView``), the hit table (``ParticleHitView``), the world's bodies and
shapes, the shape tree (``TreeView``), the bodies' motion over the step (``MotionView``),
the settings (``PARTICLE_PARAMS_DTYPE``) and the step record (``PARTICLE_STEP_DTYPE``).
The step writes into them and returns a status; it never allocates what it returns.
"""

import math

import numpy as np

from .._jit import njit
from .constants import S_ALIVE
from .queries import (
    MOTION_FRAME,
    MOTION_NONE,
    MOTION_SKIP,
    cast_segments_into,
    query_shapes,
)
from .views import FilterView, SegmentHits

STOP = 0
BOUNCE = 1
PASS = 2
# A bounced particle restarts this far off the surface (relative to its coordinates, + m).
NUDGE = 1e-9


@njit(_nrt=False, entry=True)
def swept_boxes(shapes, motion, count, out):
    """Boxes covering each live shape row (of the first ``count``) over the step: its end
    box, and for a body that moved, where it was. A translated row: the union of its box at
    both poses. A turned row: the disc about the centre of mass that holds it at every
    angle, swept from com0 to com1 (exact for kinematic bodies, whose centre of mass moves
    in a straight line)."""
    aabb = shapes.aabb
    vworld = shapes.vworld
    moved = motion.moved
    com0 = motion.com0
    com1 = motion.com1
    for s in range(count):
        if not shapes.flags[s] & S_ALIVE:
            continue
        lox = aabb[s, 0]
        loy = aabb[s, 1]
        hix = aabb[s, 2]
        hiy = aabb[s, 3]
        b = shapes.body[s]
        if moved[b]:
            if motion.dtheta[b] == 0.0:
                sx = com0[b, 0] - com1[b, 0]
                sy = com0[b, 1] - com1[b, 1]
                lox = min(lox, lox + sx)
                hix = max(hix, hix + sx)
                loy = min(loy, loy + sy)
                hiy = max(hiy, hiy + sy)
            else:
                r2 = 0.0
                for v in range(shapes.vstart[s], shapes.vstart[s] + shapes.vcount[s]):
                    dx = vworld[v, 0] - com1[b, 0]
                    dy = vworld[v, 1] - com1[b, 1]
                    r2 = max(r2, dx * dx + dy * dy)
                r = math.sqrt(r2) + shapes.radius[s]
                lox = min(lox, min(com0[b, 0], com1[b, 0]) - r)
                hix = max(hix, max(com0[b, 0], com1[b, 0]) + r)
                loy = min(loy, min(com0[b, 1], com1[b, 1]) - r)
                hiy = max(hiy, max(com0[b, 1], com1[b, 1]) + r)
        out[s, 0] = lox
        out[s, 1] = loy
        out[s, 2] = hix
        out[s, 3] = hiy


@njit(_nrt=False)
def start_legs(parts, legs, p, n):
    """Integrate the velocity of each live particle of rows 0..n-1 (gravity, then drag)
    and write its first leg: the whole step's motion. Returns the number of legs."""
    pos = parts.positions
    vel = parts.velocities
    alive = parts.alive
    dt = p["dt"]
    gx = p["gx"]
    gy = p["gy"]
    keep = p["keep"]
    leg_p = legs.particle
    leg_a = legs.start
    leg_b = legs.end
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
        legs.left[m] = 1.0
        legs.done[m] = 0.0
        m += 1
    return m


@njit(_nrt=True)
def cast_legs(legs, m, shapes, tree, motion, exclude, p, first):
    """First hit of legs 0..m-1 through the tree, into the legs' hit columns. The first
    legs (``first``) test moving bodies in their own frame; later legs, which start at a
    hit during the step, test shapes where they are at its end."""
    _cast(legs.start[:m], legs.end[:m], legs, m, shapes, tree, motion, exclude, p,
          MOTION_FRAME if first else MOTION_NONE)


@njit(_nrt=True)
def _cast(starts, ends, legs, m, shapes, tree, motion, exclude, p, mode):
    """Segments starts -> ends into the legs' hit columns 0..m-1. A bouncing particle
    passes out of a shape it starts inside (there is no surface to bounce off) but still
    hits every other."""
    rows = query_shapes(shapes)
    flt = FilterView(p["category"], p["mask"], p["sensors"] != 0, exclude)
    out = SegmentHits(legs.hit[:m], legs.body[:m], legs.shape[:m], legs.point[:m],
                      legs.normal[:m], legs.fraction[:m])
    # (cast_segments' walk with its stacks: that entry keeps the one signature the queries
    # call it with, their views as plain tuples.)
    n_nodes = max(tree.n_nodes, 1)
    cast_segments_into(starts, ends, tree, rows, flt, motion, mode, p["mode"] == BOUNCE, out,
                       np.empty(n_nodes, dtype=np.int64), np.empty(n_nodes))


@njit(_nrt=False)
def resolve_legs(parts, legs, m, hits, n_hits, bodies, shapes, motion, p, first, last):
    """Apply the cast legs 0..m-1: a miss moves its particle to the leg's end; a hit is
    written to hit row ``n_hits`` on (the table holds them: the caller checked) and stops,
    passes or bounces its particle. A bounce with motion left writes the particle's next
    leg, unless ``last``. A first leg's bounce off a body that moved puts the particle on
    that body where the step leaves it: such particles are listed (``legs.carry``, with
    where they started, ``legs.carry_from``) for :func:`check_carried`. Returns the number
    of next legs (rows 0.. of ``legs``) and of carried particles."""
    pos = parts.positions
    vel = parts.velocities
    mode = p["mode"]
    elasticity = p["elasticity"]
    dt = p["dt"]
    com1 = motion.com1
    leg_p = legs.particle
    leg_b = legs.end
    leg_a = legs.start
    m_next = 0
    n_carry = 0
    for q in range(m):
        i = leg_p[q]
        if not legs.hit[q]:
            pos[i, 0] = leg_b[q, 0]
            pos[i, 1] = leg_b[q, 1]
            continue
        t = legs.fraction[q]
        hx = legs.point[q, 0]
        hy = legs.point[q, 1]
        nx = legs.normal[q, 0]
        ny = legs.normal[q, 1]
        hits.particle[n_hits] = i
        hits.body[n_hits] = legs.body[q]
        hits.shape[n_hits] = legs.shape[q]
        hits.point[n_hits, 0] = hx
        hits.point[n_hits, 1] = hy
        hits.normal[n_hits, 0] = nx
        hits.normal[n_hits, 1] = ny
        hits.fraction[n_hits] = legs.done[q] + t * legs.left[q]
        n_hits += 1
        if mode == STOP:
            pos[i, 0] = hx
            pos[i, 1] = hy
            parts.alive[i] = False
            continue
        if mode == PASS or (nx == 0.0 and ny == 0.0):
            pos[i, 0] = leg_b[q, 0]
            pos[i, 1] = leg_b[q, 1]
            continue
        # Bounce off the surface, which moves with its body's velocity at the hit point.
        # (The hit's shape is a shape id: the id of its first row, which is on its body.)
        bs = shapes.body[legs.shape[q]]
        ux = bodies.vel[bs, 0] - bodies.angvel[bs] * (hy - com1[bs, 1])
        uy = bodies.vel[bs, 1] + bodies.angvel[bs] * (hx - com1[bs, 0])
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
        if first and motion.moved[bs]:
            legs.carry[n_carry] = i
            legs.carry_from[n_carry, 0] = leg_a[q, 0]
            legs.carry_from[n_carry, 1] = leg_a[q, 1]
            legs.carry_to[n_carry, 0] = px
            legs.carry_to[n_carry, 1] = py
            n_carry += 1
        pos[i, 0] = px
        pos[i, 1] = py
        left = legs.left[q] * (1.0 - t)
        if last or left <= 0.0:
            continue
        # The next leg reuses slot m_next <= q: already read above.
        leg_p[m_next] = i
        leg_a[m_next, 0] = px
        leg_a[m_next, 1] = py
        leg_b[m_next, 0] = px + vel[i, 0] * dt * left
        leg_b[m_next, 1] = py + vel[i, 1] * dt * left
        legs.done[m_next] = legs.done[q] + t * legs.left[q]
        legs.left[m_next] = left
        m_next += 1
    return m_next, n_carry


@njit(_nrt=True)
def check_carried(parts, legs, n_carry, m_next, shapes, tree, motion, exclude, p):
    """A particle a moving body carried went from where it started to where the body
    left it, a path no cast has seen: if it crosses a shape that did not move (a wall the
    body pressed it against), the particle stops at that surface for the rest of the step,
    its velocity into it reflected with the elasticity. It may be left inside the carrying
    body, which it passes out of later. Returns the number of next legs (rows 0..), the
    stopped particles' legs removed."""
    if n_carry == 0:
        return m_next
    pos = parts.positions
    vel = parts.velocities
    e = p["elasticity"]
    stopped = legs.stopped
    _cast(legs.carry_from[:n_carry], legs.carry_to[:n_carry], legs, n_carry, shapes, tree,
          motion, exclude, p, MOTION_SKIP)
    for k in range(n_carry):
        if not legs.hit[k]:
            continue
        i = legs.carry[k]
        nx = legs.normal[k, 0]
        ny = legs.normal[k, 1]
        hx = legs.point[k, 0]
        hy = legs.point[k, 1]
        nudge = NUDGE * (1.0 + abs(hx) + abs(hy))
        pos[i, 0] = hx + nudge * nx
        pos[i, 1] = hy + nudge * ny
        vn = vel[i, 0] * nx + vel[i, 1] * ny
        if vn < 0.0:
            vel[i, 0] -= (1.0 + e) * vn * nx
            vel[i, 1] -= (1.0 + e) * vn * ny
        stopped[i] = True
    kept = 0
    for q in range(m_next):
        i = legs.particle[q]
        if stopped[i]:
            continue
        if kept != q:
            legs.particle[kept] = i
            legs.start[kept, 0] = legs.start[q, 0]
            legs.start[kept, 1] = legs.start[q, 1]
            legs.end[kept, 0] = legs.end[q, 0]
            legs.end[kept, 1] = legs.end[q, 1]
            legs.left[kept] = legs.left[q]
            legs.done[kept] = legs.done[q]
        kept += 1
    for k in range(n_carry):
        stopped[legs.carry[k]] = False
    return kept


@njit(_nrt=True, entry=True)
def step_particles(parts, legs, hits, bodies, shapes, tree, motion, exclude, params, state):
    """Advance particles 0..n-1 (``state["n"]``) by ``params["dt"]``, writing their hits.

    ``state["leg"]`` -1 starts a step. Returns 0 when done (``state["n_hits"]`` rows of
    ``hits`` written), or 1 when the next leg's hits do not fit in the table:
    ``state["need"]`` rows are needed. That leg has not been applied and the step's place
    is kept in ``state``: grow the table (keeping its rows) and call again to resume.
    """
    p = params[0]
    st = state[0]
    if st["leg"] < 0:
        st["legs"] = start_legs(parts, legs, p, st["n"])
        st["leg"] = 0
        st["n_hits"] = 0
    st["need"] = 0
    max_bounces = p["max_bounces"]
    cap = hits.particle.shape[0]
    while st["leg"] <= max_bounces and st["legs"] > 0:
        bounce = st["leg"]
        m = st["legs"]
        cast_legs(legs, m, shapes, tree, motion, exclude, p, bounce == 0)
        k = 0
        for q in range(m):
            k += legs.hit[q]
        n_hits = st["n_hits"]
        if n_hits + k > cap:
            st["need"] = n_hits + k
            return 1
        n_next, n_carry = resolve_legs(parts, legs, m, hits, n_hits, bodies, shapes, motion,
                                       p, bounce == 0, bounce == max_bounces)
        st["legs"] = check_carried(parts, legs, n_carry, n_next, shapes, tree, motion,
                                   exclude, p)
        st["n_hits"] = n_hits + k
        st["leg"] = bounce + 1
    st["leg"] = -1
    return 0
