"""The world step: every stage, in order, in one compiled call.

1. shapes to world space and bounding boxes (poses.py); candidate pairs (broadphase.py)
2. manifolds, warm-start matching, begin / end (narrowphase.py)
3. effective masses for this step; arcade response (integrate.py, arcade.py)
4. prepare contacts; the substep count, from the stacks' predicted resting depth
   (stacks.py); if gravity changed, the warm start sheds the weight it no longer carries
   (stacks.py); per substep: integrate velocities, warm start, solve (extra passes for
   light bodies under heavy ones), push out overlap deeper than the springs hold,
   integrate positions, relax; then restitution (solver.py).
   Bodies no contact touches go through all their substeps at once (integrate.py).
   Impulses accumulate in the contact table, which is the next step's warm start.
5. continuous collision for fast and bullet bodies (ccd.py)
6. body origins from centres, forces cleared (integrate.py); sleeping islands (islands.py)
7. shapes at final poses; sensor overlaps there (broadphase.py, narrowphase.py)

``fparams``: gx, gy, world damping, contact hertz, damping ratio, max push-out speed,
restitution threshold, speculative margin, linear slop, sleep linear / angular tolerance,
time to sleep, arcade static speed, and the gravity (x, y) the contact table's impulses
were solved under (the warm start sheds weight gravity no longer puts on a contact).
``iparams``: substeps, explicit Euler, sleeping, dynamic-dynamic response, shapes fresh
(world vertices, exact boxes and ``rot``, the bodies' (cos, sin), are at the bodies' poses:
the last step or query left them so), max substeps (0: fixed), the last step's substeps
(the contact table's impulses are per substep); the step writes the substeps it took into
``iparams[7]``.
"""

import numpy as np

from .._jit import njit
from .arcade import arcade_response
from .broadphase import find_pairs, has_sensors
from .ccd import sweep_fast_bodies
from .constants import SENSOR, SOLID
from .integrate import (
    apply_push,
    begin_step,
    contact_bodies,
    end_step,
    free_velocities,
    integrate_alone,
    integrate_positions,
    integrate_velocities,
)
from .islands import update_sleep
from .narrowphase import collide_pairs, sensor_pairs
from .poses import body_rotations, fatten_boxes, place_shapes
from .solver import (
    EXTRA_PASSES,
    apply_restitution,
    make_soft,
    mass_ratio_rows,
    prepare_contacts,
    push_out,
    rescale_impulses,
    solve_contacts,
    warm_start,
)
from .stacks import contact_loads, rest_depths, shed_weight, stack_depth, stack_substeps


@njit
def step_world(dt, fparams, iparams, n_bodies, n_shapes,
               pos, angle, vel, angvel, local_com, mass, inertia, inv_mass, inv_inertia,
               force, torque, damping, angular_damping, gravity_scale, kind, b_flags,
               sleep_time, rot,
               s_body, s_vstart, s_vcount, s_radius, s_friction, s_elasticity, s_category,
               s_mask, s_group, s_flags, aabb, vlocal, vworld,
               o_a, o_b, o_count, o_normal, o_point, o_sep, o_id, o_nimp, o_timp, o_flags,
               os_a, os_b):
    gx = fparams[0]
    gy = fparams[1]
    world_damping = fparams[2]
    hertz = fparams[3]
    zeta = fparams[4]
    max_push = fparams[5]
    rest_threshold = fparams[6]
    margin = fparams[7]
    slop = fparams[8]
    substeps = iparams[0]
    explicit = iparams[1] != 0
    h = dt / substeps

    # 1-2. pairs and manifolds. Shapes left at their poses by the last step (nothing moved
    # since) only need their boxes fattened, and their bodies' rotations are those it left.
    if iparams[4] != 0:
        fatten_boxes(s_flags, aabb, n_shapes, margin)
    else:
        body_rotations(angle, n_bodies, rot)
        place_shapes(pos, rot, s_body, s_flags, s_vstart, s_vcount, s_radius, vlocal, vworld,
                     aabb, n_shapes, margin)
    pa, pb, pr = find_pairs(aabb, s_body, s_flags, s_category, s_mask, s_group, kind,
                            n_shapes, iparams[3], SOLID)
    (c_a, c_b, c_resp, c_count, c_normal, c_point, c_sep, c_id, c_nimp, c_timp, c_flags,
     began, ended) = collide_pairs(pa, pb, pr, s_body, s_vstart, s_vcount, s_radius, vworld,
                                   kind, b_flags, vel, angvel, n_shapes, margin,
                                   o_a, o_b, o_count, o_normal, o_point, o_sep, o_id, o_nimp,
                                   o_timp, o_flags)

    # 3. poses and effective masses (after narrowphase woke what it touched)
    com = np.empty((n_bodies, 2))
    com0 = np.empty((n_bodies, 2))
    angle0 = np.empty(n_bodies)
    dp = np.empty((n_bodies, 2))
    dq = np.empty((n_bodies, 2))
    inv_m = np.empty(n_bodies)
    inv_i = np.empty(n_bodies)
    begin_step(pos, rot, local_com, kind, b_flags, inv_mass, inv_inertia, mass, inertia,
               n_bodies, com, com0, angle, angle0, dp, dq, inv_m, inv_i)
    # Restitution's energy bound: only contacts read it, so without any it is skipped.
    vfree, wfree, kin_moving = free_velocities(vel, angvel, force, torque, inv_m, inv_i,
                                               gravity_scale, gx, gy, dt, kind, b_flags,
                                               n_bodies if c_a.shape[0] > 0 else 0)
    arcade_response(c_a, c_b, c_resp, c_count, c_normal, c_sep, s_body, s_friction,
                    s_elasticity, b_flags, com, dp, vel, angvel, inv_m, fparams[12])

    # 4. solve
    (rows, ba, bb, jac, nmass, tmass, coup, adj, relv, fric, rest, static_pair, max_imp,
     kinv) = prepare_contacts(c_a, c_b, c_resp, c_count, c_normal, c_point, c_sep, s_body,
                              s_friction, s_elasticity, com, vel, angvel, inv_m, inv_i, b_flags)
    # Contact stiffness can not exceed what the substep resolves (a quarter of its rate);
    # contacts with immovable bodies are twice as stiff (Box2D v3's choice).
    contact_hertz = min(hertz, 0.25 / h)
    # Stacks that would rest too deep take more substeps, the springs stiffer in proportion.
    n_prev = iparams[6]
    if iparams[5] > substeps and rows.shape[0] > 0:
        load, level, queue, nq, start, edge = contact_loads(ba, bb, rows, c_normal, inv_m,
                                                           gravity_scale, gx, gy, n_bodies)
        depth = rest_depths(load, rows, c_count, nmass, static_pair,
                            2.0 * np.pi * contact_hertz)
        deepest, worst = stack_depth(ba, bb, load, depth, level, queue, nq, start, edge,
                                     n_bodies)
        n = stack_substeps(deepest, worst, substeps, iparams[5], n_prev)
        contact_hertz *= n / substeps
        substeps = n
        h = dt / substeps
    if substeps != n_prev:
        # The table's impulses are per substep: the warm start keeps the same force.
        rescale_impulses(c_nimp, c_timp, n_prev / substeps)
    iparams[7] = substeps
    if (fparams[13] != gx or fparams[14] != gy) and rows.shape[0] > 0:
        # Gravity changed: the warm start sheds the weight it no longer carries.
        shed_weight(ba, bb, rows, c_normal, inv_m, gravity_scale, fparams[13:15], fparams[:2],
                    n_bodies, c_nimp, c_timp)
    soft = np.empty(4)
    soft_static = np.empty(4)
    soft[0], soft[1], soft[2], soft[3] = make_soft(contact_hertz, zeta, h)
    soft_static[0], soft_static[1], soft_static[2], soft_static[3] = make_soft(
        2.0 * contact_hertz, zeta, h)
    push = np.zeros((n_bodies, 3))  # the substep's push-out on positions (vx, vy, w)
    deep = np.empty(rows.shape[0])  # how deep each manifold's springs push (warm_start's)
    deep_body = np.zeros(n_bodies, dtype=np.bool_)  # bodies push_out moves this substep
    total_imp = np.zeros((c_a.shape[0], 2))
    heavy = mass_ratio_rows(ba, bb, inv_m)  # light bodies under heavy ones: extra passes
    touched = contact_bodies(ba, bb, n_bodies)
    integrate_alone(vel, angvel, force, torque, inv_m, inv_i, gravity_scale, damping,
                    angular_damping, world_damping, gx, gy, h, substeps, explicit, com, angle,
                    angle0, dp, dq, kind, b_flags, n_bodies, touched)
    # Without contacts the loop has nothing left to do: integrate_alone moved every body.
    for sub in range(substeps if rows.shape[0] > 0 else 0):
        if explicit:
            integrate_positions(vel, angvel, com, angle, angle0, dp, dq, inv_m, kind, b_flags,
                                n_bodies, h, touched)
        integrate_velocities(vel, angvel, force, torque, inv_m, inv_i, gravity_scale, damping,
                             angular_damping, world_damping, gx, gy, h, kind, b_flags,
                             n_bodies, touched)
        back = sub % 2 == 1
        warm_start(rows, ba, bb, jac, nmass, static_pair, c_count, c_normal, c_nimp, c_timp,
                   vel, angvel, inv_m, inv_i, soft, soft_static, deep)
        pushed = solve_contacts(rows, ba, bb, jac, nmass, tmass, coup, adj, fric, static_pair,
                                max_imp, kinv, c_count, c_normal, c_nimp, c_timp, vel, angvel,
                                inv_m, inv_i, dp, dq, h, True, soft, soft_static, max_push,
                                back, total_imp, heavy, False, deep,
                                deep_body)
        for extra in range(EXTRA_PASSES if heavy.shape[0] > 0 else 0):
            solve_contacts(rows, ba, bb, jac, nmass, tmass, coup, adj, fric, static_pair,
                           max_imp, kinv, c_count, c_normal, c_nimp, c_timp, vel, angvel, inv_m,
                           inv_i, dp, dq, h, True, soft, soft_static, max_push,
                           (extra % 2 == 0) != back,
                           total_imp, heavy, True, deep, deep_body)
        if pushed:  # on pseudo-velocities, moved after the positions (then cleared)
            push_out(rows, ba, bb, jac, nmass, coup, adj, static_pair, c_count, c_normal,
                     inv_m, inv_i, dp, dq, soft, soft_static, max_push, back, deep, deep_body,
                     push)
        if not explicit:
            integrate_positions(vel, angvel, com, angle, angle0, dp, dq, inv_m, kind, b_flags,
                                n_bodies, h, touched)
        if pushed:
            apply_push(push, com, angle, angle0, dp, dq, n_bodies, h)
        # Relax in the opposite order: a one-way Gauss-Seidel sweep leans a stack the way it
        # runs (a B = 40 pyramid sheared 0.19 m); forward then back cancels the lean. The
        # pair's order alternates by substep: always forward then back, a column of boxes
        # rocked for ever (3 boxes at 0.05 m/s, 5 at 0.13 m/s) where Box2D v3's settles.
        solve_contacts(rows, ba, bb, jac, nmass, tmass, coup, adj, fric, static_pair, max_imp,
                       kinv, c_count, c_normal, c_nimp, c_timp, vel, angvel, inv_m, inv_i, dp, dq,
                       h, False, soft, soft_static, max_push, not back, total_imp, heavy, False,
                       deep, deep_body)
    apply_restitution(rows, ba, bb, jac, nmass, relv, rest, max_imp, c_count, c_normal,
                      c_nimp, vel, angvel, inv_m, inv_i, rest_threshold, total_imp, vfree,
                      wfree, kin_moving)

    # 5. continuous collision
    sweep_fast_bodies(n_bodies, kind, b_flags, com, com0, dp, vel, angle, angle0, dq, local_com,
                      s_body, s_flags, s_vstart, s_vcount, s_radius, s_category, s_mask,
                      s_group, vlocal, vworld, aabb, n_shapes, slop)

    # 6. finish
    end_step(pos, angle, angle0, rot, local_com, com, force, torque, inv_m, kind, b_flags, n_bodies)
    update_sleep(n_bodies, kind, b_flags, vel, angvel, sleep_time, c_a, c_b, c_resp, c_flags,
                 s_body, dt, iparams[2] != 0, fparams[9], fparams[10], fparams[11])

    # 7. shapes at their final poses (exact boxes: queries use them until the next change),
    # then sensor overlaps at those poses, as the user sees the world after the step.
    place_shapes(pos, rot, s_body, s_flags, s_vstart, s_vcount, s_radius, vlocal, vworld, aabb,
                 n_shapes, 0.0)
    if iparams[3] == SENSOR or has_sensors(s_flags, n_shapes):
        qa, qb, _ = find_pairs(aabb, s_body, s_flags, s_category, s_mask, s_group, kind,
                               n_shapes, iparams[3], SENSOR)
        sa, sb, s_began, s_ended = sensor_pairs(qa, qb, s_vstart, s_vcount, s_radius, vworld,
                                                n_shapes, os_a, os_b)
    else:
        sa = os_a[:0]
        sb = os_b[:0]
        s_began = np.zeros(0, dtype=np.bool_)
        s_ended = np.ones(os_a.shape[0], dtype=np.bool_)
    return (c_a, c_b, c_resp, c_count, c_normal, c_point, c_sep, c_id, c_nimp, c_timp, c_flags,
            began, ended, sa, sb, s_began, s_ended, total_imp)
