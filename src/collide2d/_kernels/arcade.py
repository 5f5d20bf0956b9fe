"""Arcade response for bodies flagged ``arcade`` (game characters that must not tumble).

Instead of impulses with rotation, an overlapping pair is pushed apart along the contact
normal by the penetration depth, shared by inverse mass (an immovable body takes none), and
the relative velocity is reflected: the normal part is reversed and scaled by elasticity, the
tangential part loses the ``friction`` fraction (clamped to [0, 1]); below ``static_speed``
the tangential part stops (static friction, which keeps characters on slopes).
"""

from .._jit import njit
from .constants import B_ARCADE
from .materials import ENABLED


@njit(_nrt=False)
def arcade_response(c, m, s, b, t, static_speed):
    """The arcade response of the first ``m`` rows of the contact table ``c`` (a
    ContactView; ``s`` the shapes', ``b`` the bodies' views), moving the step's centres and
    displacements (``t``, the step's view, with the contacts' materials)."""
    c_a, c_b, c_resp, c_count, c_normal, c_sep = c.a, c.b, c.resp, c.count, c.normal, c.sep
    s_body, s_friction, s_elasticity = s.body, s.friction, s.elasticity
    flags, vel, angvel = b.flags, b.vel, b.angvel
    com, dp, inv_m, material = t.com, t.dp, t.inv_m, t.material
    for i in range(m):
        # Not for a row a pre-solve callback disabled (materials.ENABLED).
        if c_resp[i] != 1 or c_count[i] == 0 or material[i, ENABLED] == 0.0:
            continue
        a = s_body[c_a[i]]
        b = s_body[c_b[i]]
        if not ((flags[a] | flags[b]) & B_ARCADE):
            continue
        wsum = inv_m[a] + inv_m[b]
        if wsum == 0.0:
            continue
        depth = 0.0
        for p in range(c_count[i]):
            depth = max(depth, -c_sep[i, p])
        nx = c_normal[i, 0]
        ny = c_normal[i, 1]
        if depth > 0.0:
            fa = depth * inv_m[a] / wsum
            fb = depth * inv_m[b] / wsum
            com[a, 0] -= nx * fa
            com[a, 1] -= ny * fa
            com[b, 0] += nx * fb
            com[b, 1] += ny * fb
            dp[a, 0] -= nx * fa
            dp[a, 1] -= ny * fa
            dp[b, 0] += nx * fb
            dp[b, 1] += ny * fb
        rvx = vel[a, 0] - vel[b, 0]
        rvy = vel[a, 1] - vel[b, 1]
        vn = rvx * nx + rvy * ny
        if vn <= 0.0:
            continue  # already separating
        vnx = vn * nx
        vny = vn * ny
        vtx = rvx - vnx
        vty = rvy - vny
        fr = min(max(max(s_friction[c_a[i]], s_friction[c_b[i]]), 0.0), 1.0)
        if vtx * vtx + vty * vty < static_speed * static_speed:
            fr = 1.0
        e = max(s_elasticity[c_a[i]], s_elasticity[c_b[i]])
        # Change of relative velocity: remove fr of the tangent, reflect the normal.
        dvx = -fr * vtx - (1.0 + e) * vnx
        dvy = -fr * vty - (1.0 + e) * vny
        vel[a, 0] += dvx * inv_m[a] / wsum
        vel[a, 1] += dvy * inv_m[a] / wsum
        vel[b, 0] -= dvx * inv_m[b] / wsum
        vel[b, 1] -= dvy * inv_m[b] / wsum
        if flags[a] & B_ARCADE:
            angvel[a] = 0.0
        if flags[b] & B_ARCADE:
            angvel[b] = 0.0
