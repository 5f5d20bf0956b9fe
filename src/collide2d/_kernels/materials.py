"""A contact row's material: what the solver uses for it this step.

The ``collide`` stage writes each row's friction, restitution and surface speed from its two
shapes (the mixing rules for solver rows live here; arcade bodies mix their own in
arcade.py) and marks it enabled; a pre-solve
callback may then change them for this step only, before ``prepare`` reads them.

Surface speed: a shape's ``surface_speed`` s moves its surface along its outline,
counter-clockwise for s > 0, as a belt around it would (a wheel turning counter-clockwise
at w has s = w r). At a contact with normal n from a to b, a's counter-clockwise tangent is
(-ny, nx) and b's is (ny, -nx) = t, the solver's tangent; friction drives the surfaces'
relative velocity to zero, ``(v_b - v_a) . t + s_a + s_b = 0``, so a row keeps the sum.
Box2D v3's tangent speed runs along t on a and -t on b, clockwise: the opposite sign.
"""

import math

from .._jit import njit

#: The columns of the step's ``material`` array, one row per contact row.
FRICTION = 0
RESTITUTION = 1
SURFACE_SPEED = 2  # m/s
ENABLED = 3        # 1.0: solved this step, 0.0: not
MATERIAL_COLUMNS = ("friction", "restitution", "surface_speed", "enabled")


@njit(_nrt=False)
def contact_materials(c_a, c_b, m, s_friction, s_elasticity, s_speed, material):
    """Rows 0..m-1: friction sqrt(f_a f_b), restitution max(e_a, e_b), surface speed
    s_a + s_b (m/s), enabled."""
    for i in range(m):
        a = c_a[i]
        b = c_b[i]
        material[i, FRICTION] = math.sqrt(s_friction[a] * s_friction[b])
        material[i, RESTITUTION] = max(s_elasticity[a], s_elasticity[b])
        material[i, SURFACE_SPEED] = s_speed[a] + s_speed[b]
        material[i, ENABLED] = 1.0
