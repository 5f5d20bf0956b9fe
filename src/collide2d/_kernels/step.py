"""The world step: a list of named stages, each a compiled function ``stage(w, p, t)``.

``w`` is the world's persistent state (``views.WorldView``: bodies, shapes, the contact
and sensor tables of the last step), ``p`` the step's settings (a one-row
``views.PARAMS_DTYPE`` record) and ``t`` what the step works in (``views.StepView``: the
tables it writes, candidate pairs, per-body solver state, constraint rows and the step
record). Every stage returns 0, or 1 when a table in ``t`` is too small: nothing it wrote
counts, ``t.state["need"]`` says how many rows it needs, and the caller grows the table and
runs the steps again from that stage (``run_step``'s ``first``). Only ``pairs`` and
``sensors`` can ask, and what both give is a pure function of the poses (``pairs`` keeps
its proxy pairs between steps, proxies.py, but its candidates are those of the poses).

Stages, in order (``STAGES``):

1. ``place``: shapes to world space and fattened boxes (poses.py)
2. ``pairs``: candidate pairs (broadphase.py; kept between steps: proxies.py)
3. ``collide``: manifolds, warm-start matching, begin / end, sleeping pairs' rows kept
   aside (narrowphase.py, asleep.py), sleeping islands an awake body touches woken with
   their rows (islands.py), each row's friction, restitution and surface speed
   (materials.py). With a pre-solve callback
   registered (``p["presolve"]``), ``run_step`` returns ``PRESOLVE`` here: the surface
   calls the callbacks, which may change those and disable rows for this step, and runs
   the step again from ``prepare``.
4. ``prepare``: centres of mass and effective masses (integrate.py), arcade response
   (arcade.py), constraint rows (solver.py), the substep count from the stacks' predicted
   resting depth and the warm start's rescale (stacks.py), the soft-contact coefficients;
   bodies no contact touches go through all their substeps at once (integrate.py)
5. per substep: ``integrate_velocities``, ``warm_start``, ``solve`` (extra passes for light
   bodies under heavy ones), ``integrate_positions``, ``relax`` (solver.py, integrate.py)
6. ``restitution`` (solver.py)
7. ``continuous``: fast and bullet bodies swept to their time of impact (ccd.py)
8. ``finish``: body origins from centres, forces cleared, the moved shapes at their final
   poses (exact and fattened boxes, proxies)
9. ``sleep``: sleeping islands (islands.py)
10. ``sensors``: sensor overlaps at the final poses (broadphase.py, narrowphase.py)

Impulses accumulate in the contact table the step writes, which is the next step's warm
start.

The once-a-step stages are their own kernels, called by ``run_step`` and compiled for
kernels only (``_jit.njit``: no Python wrapper, their code optimised and emitted in the
entry's library): a first step's cold compile 44 -> 41 CPU s against inlining them into
``run_step``, whose one large function Numba's front end handles in more than linear time;
the step is as fast or within 2 % (a lander, pyramids, rain, ragdolls). The stages run once per
substep are inlined (``inline="always"``) into ``run_substeps``: as calls, each passing
the views' arrays one by one, they made a lander's step (16 substeps) 6 -> 27 us.

``run_step`` and its substep loop (``run_substeps``) are compiled without reference
counting (``_nrt=False``): Numba otherwise counts a reference, atomically, to every array a
stage reads from the views and drops it again, a few thousand counts a step, most of a
small world's step. Without counting nothing may be allocated there, so the kernels that
allocate are their own calls, compiled with counting (``_nrt=True``: the broadphase's grid,
the stacks' substep count and weight shedding, continuous collision, colouring), and
none of them hands an allocated array back. (The narrowphase takes its room from the step
buffers, ``views.NarrowRoom``, and restitution keeps a pair's velocities in locals: both
run uncounted.) Their hot loops that allocate nothing are their own calls without counting
again (the grid's sweep, the geometry leaves): a counted loop pays atomics wherever it
reads a view's field or passes arrays to a call that is not inlined. Every kernel states
its setting (a kernel without one would take that of whichever compile reached it first).
Small worlds skip some of those calls (``broadphase.small_pairs``; no narrowphase without pairs
or old contacts; continuous collision only when ``ccd.sweep_may_hit`` finds a fast body
and, in a world of at most ``SMALL_WORLD`` shapes, something it could meet and would
collide with): a small world's stages allocate nothing, in contact or not.

A lone world's step is called through ``run_listed`` (its views in a one-item typed list,
unboxed as one object: see ``World._CompiledStep``). In each entry's compiled library the
stages, linked in, are inlined by LLVM (``_jit._internalize_linked_kernels``): as calls,
each passed the views field by field, about 1,500 words copied a call.
"""

import numpy as np

from .._jit import njit
from .arcade import arcade_response
from .asleep import clear_ended, rescale_asleep, wake_rows
from .broadphase import has_sensors, pair_shapes, small_pairs
from .ccd import continuous_step, sweep_may_hit
from .constants import SENSOR, SOLID
from .integrate import (
    BodyMotion,
    begin_step,
    contact_bodies,
    end_step,
    first_non_finite,
    free_velocities,
    integrate_alone,
    integrate_positions,
    integrate_velocities,
)
from .islands import Links, update_sleep, wake_islands
from .joints import (
    narrow_joints,
    prepare_joints,
    solve_joints,
    store_joints,
    warm_start_joints,
)
from .lists import borrow, filled
from .materials import contact_materials
from .narrowphase import body_moving, collide_pairs, find_sensor_pairs
from .poses import body_rotations, finish_shapes, place_shapes
from .proxies import proxy_pairs
from .settled import all_settled, keep_tables
from .solver import (
    EXTRA_PASSES,
    ContactPass,
    SolveRows,
    apply_restitution,
    make_soft,
    mass_ratio_rows,
    prepare_contacts,
    rescale_impulses,
    solve_contacts,
    warm_start,
)
from .stacks import shed_weight, stack_substeps_for

# Stage numbers: where run_step starts again after a table grew.
PAIRS = 1
PRESOLVE = 3  # the pre-solve callbacks run, then the step goes on from prepare
SENSORS = 13
# run_stage's index past the stages: the step record's end (end_record).
END_RECORD = 14
DONE = -1
# A body's pose, velocity or force is NaN or inf (its slot in the step record's "need"):
# nothing was changed.
NON_FINITE = -2
# Done, on a settled world: its tables were kept where they are (settled.py), so the
# surface leaves them in place rather than swapping in the step buffers'.
KEPT = -3


@njit(_nrt=False)
def place(w, p, t):
    """Every shape at its body's pose (poses.py), unless the last step left them there,
    fattened boxes and proxies too, with nothing moved since (``shapes_fresh``)."""
    prm = p[0]
    b = w.bodies
    s = w.shapes
    if prm["shapes_fresh"] == 0:
        body_rotations(b.angle, prm["n_bodies"], b.rot)
        place_shapes(b.pos, b.rot, b.kind, s, p, 0)
    return 0


@njit(_nrt=False)
def pairs(w, p, t):
    prm = p[0]
    st = t.state[0]
    s = w.shapes
    pair_a, pair_b, pair_resp = t.pair_a, t.pair_b, t.pair_resp
    # Every pair may become a contact row and a constraint row, or go to sleep.
    room = min(pair_a.shape[0], t.contacts.a.shape[0], t.rows.shape[0],
               t.asleep.a.shape[0] - prm["n_asleep"])
    kind = w.bodies.kind
    ps = pair_shapes(s, s.fat, kind, w.rules, prm["n_movers"], prm["n_statics"])
    out = (pair_a, pair_b, pair_resp)
    k = small_pairs(ps, prm["n_shapes"], prm["dynamic_response"], SOLID, out, room)
    if k >= 0:
        prm["pairs_kept"] = 0  # (the proxy pairs are not kept up to date here)
        st["quiet"] = 0
    else:
        # The grid's worlds keep their pairs from step to step (proxies.py), and leave out
        # those of bodies that can not move (t.body_int: which can, overwritten later).
        b = w.bodies
        still = body_moving(kind, b.flags, b.vel, b.angvel, prm["n_bodies"], t.body_int)
        k = proxy_pairs(ps, pair_shapes(s, s.proxy, kind, w.rules, prm["n_movers"],
                                        prm["n_statics"]),
                        s.escaped, prm["n_shapes"], prm["dynamic_response"],
                        (t.proxy_a, t.proxy_b, t.proxy_resp), out, room, prm, st,
                        t.body_int, still > 0)
    # (The narrowphase's room holds a row per pair and per old row.)
    if k > room or prm["n_contacts"] > room:
        st["need"] = max(k, prm["n_contacts"])
        return 1
    st["n_pairs"] = k
    st["need"] = 0
    return 0


@njit(_nrt=False)
def collide(w, p, t):
    """Manifolds (sleeping pairs' kept aside: asleep.py), then the sleeping islands an awake
    body now touches or joins woken, their rows back in the step's table, before anything
    reads who is awake (a pre-solve callback, the solver); then the rows' materials."""
    prm = p[0]
    st = t.state[0]
    b = w.bodies
    s = w.shapes
    c = t.contacts
    d = t.asleep
    J = w.joints
    k = st["n_pairs"]
    m = 0
    n_asleep = prm["n_asleep"]
    woke = 0
    # (no pairs and no old or sleeping rows: nothing to write)
    if k > 0 or prm["n_contacts"] > 0 or n_asleep > 0:
        m, n_asleep, woke = collide_pairs(t.pair_a[:k], t.pair_b[:k], t.pair_resp[:k], s, b,
                                          prm["n_shapes"], prm["margin"], w.contacts,
                                          prm["n_contacts"], c, d, n_asleep,
                                          st["quiet"] != 0, t.body_int, t.narrow)
    # Sleeping off, nothing sleeps: no links to follow.
    on = prm["sleeping"] != 0
    linked = m * on
    n_d = n_asleep * on
    nb = prm["n_bodies"]
    woke += wake_islands(nb, b.kind, b.flags,
                         Links(c.a[:linked], c.b[:linked], c.resp[:linked], c.flags[:linked],
                               s.body, J.body_a, J.body_b, J.flags, prm["n_joints"] * on,
                               d.a[:n_d], d.b[:n_d], d.resp[:n_d], d.flags[:n_d],
                               d.ended[:n_d]),
                         woke > 0, t.body_int, t.body_float)
    if woke > 0 and n_asleep > 0:
        m, n_asleep = wake_rows(d, n_asleep, c, m, b.kind, b.flags, s.body)
    st["n_contacts"] = m
    prm["n_asleep"] = n_asleep
    contact_materials(c.a, c.b, m, s.friction, s.elasticity, s.surface_speed, t.material)
    return 0


@njit(inline="always")
def prepare(w, p, t):
    """Everything the substeps share: poses and effective masses (after the narrowphase
    woke what it touched), constraint rows, the substep count, the soft coefficients, the
    joints' frames; bodies no constraint holds go through all their substeps at once.
    (``run_step`` calls the three parts itself, the joints' only when there are any.)"""
    prepare_contacts_stage(w, p, t)
    if p[0]["n_joints"] > 0:
        prepare_joints_stage(w, p, t)
    integrate_free(w, p, t)
    return 0


@njit(_nrt=False)
def prepare_contacts_stage(w, p, t):
    """Poses and effective masses, arcade response, the contact rows, the substep count and
    the soft coefficients."""
    prm = p[0]
    st = t.state[0]
    b = w.bodies
    s = w.shapes
    c = t.contacts
    nb = prm["n_bodies"]
    m = st["n_contacts"]
    gx = prm["gx"]
    gy = prm["gy"]
    dt = prm["dt"]
    gravity_scale, inv_m = b.gravity_scale, t.inv_m
    c_normal, c_nimp, c_timp, c_impulse = c.normal[:m], c.nimp[:m], c.timp[:m], c.impulse[:m]
    soft, soft_static, heavy, touched = t.soft, t.soft_static, t.heavy, t.touched
    t_rows, t_ba, t_bb = t.rows, t.ba, t.bb
    mo = _body_motion(w, t)
    begin_step(mo, nb, b.pos, b.rot, b.local_com, b.inv_mass, b.inv_inertia, t.com0)
    # Restitution's energy bound: only contacts read it, so without any it is skipped.
    free_velocities(mo, nb * min(m, 1), gx, gy, dt, t.vfree, t.wfree, t.kin_moving)
    arcade_response(c, m, s, b, t, prm["arcade_static_speed"])
    # (Its call passes a hundred arrays: a world without contacts skips it.)
    k = 0
    st["n_colours"] = 0
    if m > 0:
        k = prepare_contacts(c, m, s, b, t, prm["block_impacts"] != 0,
                             prm["colour_rows"] != 0)
    st["n_rows"] = k
    rows = t_rows[:k]
    ba = t_ba[:k]
    bb = t_bb[:k]
    inv_m = inv_m[:nb]
    substeps = prm["substeps"]
    h = dt / substeps
    # Contact stiffness can not exceed what the substep resolves (a quarter of its rate);
    # contacts with immovable bodies are twice as stiff.
    contact_hertz = min(prm["contact_hertz"], 0.25 / h)
    # Stacks that would rest too deep take more substeps, the springs stiffer in proportion.
    n_prev = prm["substeps_prev"]
    if prm["max_substeps"] > substeps and k > 0:
        n = stack_substeps_for(t, k, c, gravity_scale, (gx, gy), nb,
                               2.0 * np.pi * contact_hertz,
                               (substeps, prm["max_substeps"], n_prev))
        contact_hertz *= n / substeps
        substeps = n
        h = dt / substeps
    if substeps != n_prev:
        # The table's impulses are per substep: the warm start keeps the same force (the
        # sleeping rows' too, for when they wake).
        rescale_impulses(c_nimp, c_timp, n_prev / substeps)
        rescale_asleep(t.asleep, prm["n_asleep"], n_prev / substeps)
    st["substeps"] = substeps
    st["h"] = h
    st["contact_hertz"] = contact_hertz
    old_gx = prm["solved_gx"]
    old_gy = prm["solved_gy"]
    if (prm["shed_weight"] != 0 and (old_gx != gx or old_gy != gy) and k > 0):
        # Gravity changed: the warm start sheds the weight it no longer carries.
        shed_weight(ba, bb, rows, c_normal, inv_m, gravity_scale, old_gx, old_gy, gx, gy, nb,
                    c_nimp, c_timp)
    zeta = prm["contact_damping_ratio"]
    soft[0], soft[1], soft[2] = make_soft(contact_hertz, zeta, h)
    soft_static[0], soft_static[1], soft_static[2] = make_soft(2.0 * contact_hertz, zeta, h)
    c_impulse[:] = 0.0
    # (touched is their room for the light bodies: contact_bodies writes it next.)
    st["n_heavy"] = (mass_ratio_rows(ba, bb, inv_m, heavy, touched)
                     if prm["mass_ratio_passes"] != 0 else 0)
    contact_bodies(ba, bb, nb, touched)
    st["n_joints_on"] = 0
    return 0


@njit(_nrt=False)
def prepare_joints_stage(w, p, t):
    """The frames of the joints the substeps solve."""
    prm = p[0]
    st = t.state[0]
    st["n_joints_on"] = prepare_joints(w.joints, prm["n_joints"], w.bodies, t, st["h"],
                                       st["contact_hertz"], prm["joint_damping_ratio"],
                                       prm["substeps_prev"] / st["substeps"])
    return 0


@njit(_nrt=False)
def integrate_free(w, p, t):
    """Bodies no contact or joint holds go through all their substeps at once."""
    prm = p[0]
    st = t.state[0]
    integrate_alone(_body_motion(w, t), prm["n_bodies"], prm["damping"], prm["gx"], prm["gy"],
                    st["h"], st["substeps"], prm["explicit"] != 0)
    return 0


@njit(inline="always")
def _body_motion(w, t):
    """What the integrators read and write (``integrate.BodyMotion``)."""
    b = w.bodies
    return BodyMotion(b.vel, b.angvel, b.force, b.torque, b.gravity_scale, b.damping,
                      b.angular_damping, b.angle, b.kind, b.flags, t.com, t.angle0, t.dp, t.dq,
                      t.inv_m, t.inv_i, t.touched)


@njit(inline="always")
def integrate_velocities_stage(w, p, t):
    prm = p[0]
    st = t.state[0]
    mo = _body_motion(w, t)
    nb = prm["n_bodies"]
    h = st["h"]
    if prm["explicit"] != 0:
        integrate_positions(mo, nb, h)
    integrate_velocities(mo, nb, prm["damping"], prm["gx"], prm["gy"], h)
    return 0


@njit(inline="always")
def _contact_arrays(w, t):
    """What a contact pass reads and writes (``solver.ContactPass``)."""
    b = w.bodies
    c = t.contacts
    return ContactPass(SolveRows(t.rows, t.ba, t.bb, t.jac, t.nmass, t.tmass, t.coup, t.adj,
                                 t.fric, t.static_pair, t.max_imp, t.kinv),
                       c.count, c.normal, c.nimp, c.timp, t.material, b.vel, b.angvel,
                       t.inv_m, t.inv_i, t.dp, t.dq, t.soft, t.soft_static, c.impulse,
                       t.heavy)


@njit(inline="always")
def warm_start_stage(w, p, t):
    st = t.state[0]
    n_on = st["n_joints_on"]
    # The warm start in slot order: it has little arithmetic to overlap, and reads the
    # rows in memory order (the same bits as level order: see joints.order_joints).
    jr, bs, ts = narrow_joints(w.joints, w.bodies, t, True)
    a = _contact_arrays(w, t)
    k = st["n_rows"]
    if n_on > 0:
        warm_start_joints(jr, bs, ts, n_on)
    if k > 0:
        warm_start(k, a)
    return 0


@njit(inline="always")
def _pass(a, st, push, use_bias, reverse, subset):
    """One pass of solve_contacts over the step's rows (or the heavy subset); ``a`` from
    ``_contact_arrays``."""
    solve_contacts(a, st["n_rows"], st["h"], use_bias, push, reverse, st["n_heavy"], subset)


@njit(inline="always")
def solve(w, p, t):
    """The biased pass, then the extra passes for light bodies under heavy ones."""
    # True as a runtime value: the relax pass shares the joints' compiled pass.
    joint_pass(w, p, t, t.state[0]["h"] > 0.0)
    contact_passes(w, p, t)
    return 0


@njit(inline="always")
def joint_pass(w, p, t, use_bias):
    """One pass over the solved joints (``use_bias`` a runtime bool)."""
    st = t.state[0]
    if st["n_joints_on"] > 0:
        jr, bs, ts = narrow_joints(w.joints, w.bodies, t)
        solve_joints(jr, bs, ts, st["n_joints_on"], st["h"], use_bias)


@njit(inline="always")
def contact_passes(w, p, t):
    """The biased pass over the contact rows, then the extra passes over the light
    bodies' rows (one compiled pass for all of them: ``subset`` is a runtime bool)."""
    st = t.state[0]
    if st["n_rows"] > 0:
        push = p[0]["contact_push_speed"]
        a = _contact_arrays(w, t)
        back = st["sub"] % 2 == 1
        for q in range(1 + (EXTRA_PASSES if st["n_heavy"] > 0 else 0)):
            reverse = back if q == 0 else ((q - 1) % 2 == 0) != back
            _pass(a, st, push, True, reverse, q > 0)


@njit(inline="always")
def integrate_positions_stage(w, p, t):
    prm = p[0]
    st = t.state[0]
    nb = prm["n_bodies"]
    if prm["explicit"] == 0:
        integrate_positions(_body_motion(w, t), nb, st["h"])
    return 0


@njit(inline="always")
def relax(w, p, t):
    """The unbiased pass, in the opposite order to the biased one: a one-way Gauss-Seidel
    sweep leans a stack the way it runs (a B = 40 pyramid sheared 0.19 m); forward then
    back cancels the lean. The pair's order alternates by substep: always forward then
    back, a column of boxes rocked for ever (3 boxes at 0.05 m/s, 5 at 0.13 m/s)."""
    # False as a runtime value (h < 0 never holds): the joints' pass is solve's.
    joint_pass(w, p, t, t.state[0]["h"] < 0.0)
    relax_contacts(w, p, t)
    return 0


@njit(inline="always")
def relax_contacts(w, p, t):
    """The unbiased pass over the contact rows, in the order opposite to the biased one."""
    st = t.state[0]
    if st["n_rows"] > 0:
        a = _contact_arrays(w, t)
        _pass(a, st, p[0]["contact_push_speed"], False, st["sub"] % 2 == 0, False)


@njit(_nrt=False)
def restitution(w, p, t):
    prm = p[0]
    st = t.state[0]
    b = w.bodies
    k = st["n_rows"]
    # The joints' reactions from the last substep's impulses, and the joints they break.
    # Nothing they read is what restitution writes.
    st["n_broken"] = 0
    if prm["n_joints"] > 0:
        st["n_broken"] = store_joints(w.joints, prm["n_joints"], b, t, st["h"])
    if k > 0:
        apply_restitution(k, _contact_arrays(w, t), t.relv, t.rest,
                          (t.vfree, t.wfree, t.kin_moving), prm["restitution_threshold"],
                          prm["restitution_energy_cap"] != 0)
    return 0


@njit(_nrt=False)
def continuous(w, p, t):
    """Bodies that moved far enough this step to pass something, swept back to their first
    hit (ccd.py); not called when nothing is near enough to be hit (a small world's check,
    which spares the sweep's allocations)."""
    prm = p[0]
    b = w.bodies
    s = w.shapes
    t.state[0]["woke_late"] = 0
    # (first: where the sweep's pass over the movers may start, or -1: nothing to sweep)
    first = sweep_may_hit(prm["n_bodies"], prm["n_shapes"], b.kind, b.flags, t.com, t.com0,
                          b.angle, t.angle0, s, w.rules, prm["dynamic_response"],
                          prm["n_movers"], prm["n_statics"])
    if first >= 0:
        # (Targets it wakes may have sleeping rows: the sleep stage follows them.)
        t.state[0]["woke_late"] = continuous_step(b, s, w.rules, t, prm["n_bodies"],
                                                  prm["n_shapes"], prm["slop"],
                                                  prm["dynamic_response"], prm["n_movers"],
                                                  prm["n_statics"], first)
    return 0


@njit(_nrt=False)
def finish(w, p, t):
    """Body origins, forces cleared, and the moved shapes at their final poses (exact
    boxes, which queries use until the next change; fattened boxes and proxies, which the
    next step's broadphase reads)."""
    prm = p[0]
    b = w.bodies
    s = w.shapes
    end_step(b.pos, b.angle, t.angle0, b.rot, b.local_com, t.com, b.force, b.torque, t.inv_m,
             b.kind, b.flags, prm["n_bodies"])
    prm["n_escaped"] += finish_shapes(b.pos, b.rot, s, prm["n_movers"], t.inv_m, b.kind,
                                      b.flags, prm["margin"])
    return 0


@njit(_nrt=False)
def sleep(w, p, t):
    prm = p[0]
    b = w.bodies
    c = t.contacts
    m = t.state[0]["n_contacts"]
    d = t.asleep
    n_d = prm["n_asleep"]
    J = w.joints
    update_sleep(prm["n_bodies"], b,
                 Links(c.a[:m], c.b[:m], c.resp[:m], c.flags[:m], w.shapes.body, J.body_a,
                       J.body_b, J.flags, prm["n_joints"], d.a[:n_d], d.b[:n_d],
                       d.resp[:n_d], d.flags[:n_d], d.ended[:n_d]),
                 prm["dt"], (prm["sleep_linear"], prm["sleep_angular"], prm["time_to_sleep"]),
                 prm["sleeping"] != 0, t.state[0]["woke_late"] > 0, t.body_int,
                 t.body_float)
    return 0


@njit(_nrt=False)
def sensors(w, p, t):
    """Sensor overlaps at the final poses, as the user sees the world after the step."""
    prm = p[0]
    st = t.state[0]
    s = w.shapes
    n_old = prm["n_sensors"]
    old, new = w.sensors, t.sensors
    if prm["dynamic_response"] == SENSOR or has_sensors(s.flags, prm["n_shapes"], w.rules):
        n, need = find_sensor_pairs(s, w.bodies.kind, w.rules,
                                    (prm["n_movers"], prm["n_statics"]), prm["n_shapes"],
                                    prm["dynamic_response"], old, n_old, new)
        if need > 0:
            st["need"] = need
            return 1
        st["n_sensors"] = n
    else:
        st["n_sensors"] = 0
        old.ended[:n_old] = True
    st["need"] = 0
    return 0


@njit(_nrt=False)
def run_substeps(w, p, t):
    """The substep loop (without reference counting, as ``run_step``)."""
    st = t.state[0]
    for sub in range(st["substeps"]):
        st["sub"] = sub
        integrate_velocities_stage(w, p, t)
        warm_start_stage(w, p, t)
        # solve, integrate_positions, relax, with one compiled copy of the joints' pass.
        for phase in range(2):
            if phase == 1:
                integrate_positions_stage(w, p, t)
            joint_pass(w, p, t, phase == 0)
            if phase == 0:
                contact_passes(w, p, t)
            else:
                relax_contacts(w, p, t)
    return 0


@njit(_nrt=False)
def run_step(w, p, t, first):
    """Every stage in order from ``first`` (0, or where a grown table lets a stage run
    again, or ``PRESOLVE`` after the pre-solve callbacks). Returns ``DONE``, ``NON_FINITE``,
    ``PRESOLVE`` (with ``p["presolve"]`` set, once the contacts are found: call the
    callbacks, then again from ``PRESOLVE``), or the stage to run again once
    ``t.state["need"]`` rows fit. At ``DONE`` the record ``p`` describes the world the step
    left (its tables' rows, substeps, the gravity its impulses were solved under). On a
    settled world (settled.py) it keeps the world's tables and returns ``KEPT``."""
    st = t.state[0]
    prm = p[0]
    if first == 0:
        b = w.bodies
        still = all_settled(b.kind, b.flags, b.vel, b.angvel, b.force, b.torque, b.sleep_time,
                            prm["time_to_sleep"], prm["n_bodies"])
        # A world still settled since the last step, its poses untouched since (the surface
        # clears "settled" or "shapes_fresh" on a pose change), has the poses that step
        # found finite and every velocity and force zero: the NaN guard has nothing to find.
        bad = -1
        if not (still and prm["settled"] != 0 and prm["shapes_fresh"] != 0):
            bad = first_non_finite(b.pos, b.angle, b.vel, b.angvel, b.force, b.torque,
                                   b.flags, prm["n_bodies"])
        if bad >= 0:
            st["need"] = bad
            return NON_FINITE
        settled = (still and prm["sleeping"] != 0 and prm["presolve"] == 0
                   and prm["substeps_prev"] == prm["substeps"])
        if settled and prm["settled"] != 0 and prm["shapes_fresh"] != 0:
            keep(w, p, t, prm["settled"] == 1)
            prm["settled"] = 2
            return KEPT
        # The stages below build this step's tables at these poses: a next step that
        # starts settled can keep them (a step that stops to grow a table resumes here
        # with first > 0 and finishes them; the surface clears the flag on a change).
        prm["settled"] = 1 if settled else 0
    if first <= PRESOLVE:
        if first <= PAIRS:
            if first == 0:
                place(w, p, t)
            if pairs(w, p, t):
                return PAIRS
            collide(w, p, t)
            if prm["presolve"] != 0:
                return PRESOLVE
        # prepare's parts, the joints' only with joints
        prepare_contacts_stage(w, p, t)
        if prm["n_joints"] > 0:
            prepare_joints_stage(w, p, t)
        integrate_free(w, p, t)
        if substep_loop(st):
            run_substeps(w, p, t)
        restitution(w, p, t)
        continuous(w, p, t)
        finish(w, p, t)
        sleep(w, p, t)
    if sensors(w, p, t):
        return SENSORS
    end_record(p, t)
    return DONE


@njit(_nrt=True, entry=True)
def run_listed(items, p, first):
    """``run_step`` on ``items[0]``, a (world view, step view) pair in a one-item typed
    list: the entry a lone world's step calls. Its call unboxes one list where
    ``run_step``'s unboxes the views' hundred and fifty arrays, over a microsecond."""
    return _run_item(items, p, first)


# ``listed((w, t), 1)``: the one-item list ``run_listed`` takes, made by the step's own
# tier (a typed list, or a plain one in the pure-Python twin, whichever tier runs the
# step). It is ``lists.filled``, which the batch compiles for the same item type.
listed = filled


@njit(_nrt=False)
def _run_item(items, p, first):
    w, t = borrow(items, 0)
    return run_step(w, p, t, first)


@njit(_nrt=True, entry=True)
def run_stage(items, p, k):
    """Stage ``STAGES[k]`` alone on ``items[0]`` (as ``run_listed``), or with ``k ==
    END_RECORD`` the record as a step leaves it: ``world.profile``'s entry. Called from
    Python with the views themselves, a stage's call would unbox their hundred and fifty
    arrays, a tenth of a millisecond that would be most of what a small world's stage
    measures; a one-item list unboxes in a microsecond."""
    return _stage_item(items, p, k)


@njit(_nrt=False)
def _stage_item(items, p, k):
    w, t = borrow(items, 0)
    # STAGES' order (a tuple of functions can not be indexed in compiled code).
    if k == 0:
        return place(w, p, t)
    if k == 1:
        return pairs(w, p, t)
    if k == 2:
        return collide(w, p, t)
    if k == 3:
        return prepare(w, p, t)
    if k == 4:
        return integrate_velocities_stage(w, p, t)
    if k == 5:
        return warm_start_stage(w, p, t)
    if k == 6:
        return solve(w, p, t)
    if k == 7:
        return integrate_positions_stage(w, p, t)
    if k == 8:
        return relax(w, p, t)
    if k == 9:
        return restitution(w, p, t)
    if k == 10:
        return continuous(w, p, t)
    if k == 11:
        return finish(w, p, t)
    if k == 12:
        return sleep(w, p, t)
    if k == 13:
        return sensors(w, p, t)
    end_record(p, t)
    return 0


@njit(inline="always")
def keep(w, p, t, clear):
    """A settled world's step (settled.py): the tables stay, their event flags and the
    solver's outputs cleared (``clear``; a step after one that kept them finds them so),
    and the record as the stages would leave it."""
    prm = p[0]
    st = t.state[0]
    m = prm["n_contacts"]
    ns = prm["n_sensors"]
    nj = prm["n_joints"]
    if clear:
        keep_tables(w.contacts.began, w.contacts.impulse, m, t.contacts.ended, w.sensors.began,
                    ns, t.sensors.ended, w.joints.on, w.joints.reaction, nj)
        # Sleeping rows that ended in the last step leave (a walk would drop them).
        prm["n_asleep"] = clear_ended(t.asleep, prm["n_asleep"])
    st["n_pairs"] = 0
    st["n_contacts"] = m
    st["n_rows"] = 0
    st["n_heavy"] = 0
    st["n_sensors"] = ns
    st["n_joints_on"] = 0
    st["n_broken"] = 0
    st["substeps"] = prm["substeps"]
    st["h"] = prm["dt"] / prm["substeps"]
    st["need"] = 0
    end_record(p, t)


@njit(inline="always")
def substep_loop(st):
    """Whether the substeps have anything to do: contact rows or joints to solve (prepare
    moved every other body)."""
    return st["n_rows"] > 0 or st["n_joints_on"] > 0


@njit(inline="always")
def end_record(p, t):
    """The record as the world stands after the step: what the next step starts from."""
    prm = p[0]
    st = t.state[0]
    prm["n_contacts"] = st["n_contacts"]
    prm["n_sensors"] = st["n_sensors"]
    st["n_asleep"] = prm["n_asleep"]  # (for the surface: the record reads faster)
    prm["substeps_prev"] = st["substeps"]
    prm["solved_gx"] = prm["gx"]
    prm["solved_gy"] = prm["gy"]
    prm["shapes_fresh"] = 1


#: The stages in the order ``run_step`` runs them: (name, function, once per substep).
STAGES = (
    ("place", place, False),
    ("pairs", pairs, False),
    ("collide", collide, False),
    ("prepare", prepare, False),
    ("integrate_velocities", integrate_velocities_stage, True),
    ("warm_start", warm_start_stage, True),
    ("solve", solve, True),
    ("integrate_positions", integrate_positions_stage, True),
    ("relax", relax, True),
    ("restitution", restitution, False),
    ("continuous", continuous, False),
    ("finish", finish, False),
    ("sleep", sleep, False),
    ("sensors", sensors, False),
)
