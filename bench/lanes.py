"""Explicit lanes for the contact solve, measured on a standalone kernel.

    python bench/lanes.py [--no-noalias] [--rounds R]

One colour's rows (1,024 two-point manifolds over 2,048 bodies, no body twice, so the rows
are independent), one biased pass: each point's normal impulse, then each point's tangent
impulse clamped by friction, as the solver does. Three ways, the same bits:

- ``lanes``: the two bodies' velocities gathered into one array per field, the rows solved
  over those and the rows' fields (one 1-D array each: LLVM vectorises the loop only when
  it may assume they do not alias, Numba's ``Flags.noalias``, which ``njit`` does not take as
  an option, so it is forced on here for every kernel of this process), then scattered back;
- ``scalar rows``: the scalar loop reading the bodies directly, each row's fields together
  (row-major, as the solver lays its rows out);
- ``scalar fields``: the same loop over field-major rows.

Prints ns per manifold (the best of ``R`` rounds) and whether the three agree bit for bit.
docs/architecture.md ("Graph colouring") quotes it.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

N_ROWS, N_BODIES, FIELDS = 1024, 2048, 25
# A row's fields: normal (0, 1), friction (2), inverse masses and inertias (3-6), then per
# point p at 7 + 9 p: anchors (rax, ray, rbx, rby), normal and tangent masses, bias, normal
# and tangent impulses.


def _force_noalias() -> None:
    from numba.core import cpu

    finalize = cpu.CPUTargetOptions.finalize

    def with_noalias(self, flags, options):
        finalize(self, flags, options)
        flags.noalias = True

    cpu.CPUTargetOptions.finalize = with_noalias


def _kernels():
    from numba import njit

    @njit(inline="always")
    def normal(va, vb, n, r, mass, bias, old):
        dvx = vb[0] - vb[2] * r[3] - va[0] + va[2] * r[1]
        dvy = vb[1] + vb[2] * r[2] - va[1] - va[2] * r[0]
        new = np.maximum(old - mass * (dvx * n[0] + dvy * n[1] + bias), 0.0)
        return new, new - old

    @njit(inline="always")
    def tangent(va, vb, t, r, mass, old, limit):
        dvx = vb[0] - vb[2] * r[3] - va[0] + va[2] * r[1]
        dvy = vb[1] + vb[2] * r[2] - va[1] - va[2] * r[0]
        new = np.minimum(np.maximum(old - mass * (dvx * t[0] + dvy * t[1]), -limit), limit)
        return new, new - old

    @njit(inline="always")
    def push(va, vb, d, r, lam, m):
        px = lam * d[0]
        py = lam * d[1]
        va = (va[0] - m[0] * px, va[1] - m[0] * py, va[2] - m[1] * (r[0] * py - r[1] * px))
        vb = (vb[0] + m[2] * px, vb[1] + m[2] * py, vb[2] + m[3] * (r[2] * py - r[3] * px))
        return va, vb

    @njit(inline="always")
    def manifold(va, vb, f):
        """One row's pass over its fields ``f`` (a tuple); the new impulses come back."""
        n = (f[0], f[1])
        t = (f[1], -f[0])
        m = (f[3], f[4], f[5], f[6])
        r0 = (f[7], f[8], f[9], f[10])
        r1 = (f[16], f[17], f[18], f[19])
        n0, lam = normal(va, vb, n, r0, f[11], f[13], f[14])
        va, vb = push(va, vb, n, r0, lam, m)
        n1, lam = normal(va, vb, n, r1, f[20], f[22], f[23])
        va, vb = push(va, vb, n, r1, lam, m)
        t0, lam = tangent(va, vb, t, r0, f[12], f[15], f[2] * n0)
        va, vb = push(va, vb, t, r0, lam, m)
        t1, lam = tangent(va, vb, t, r1, f[21], f[24], f[2] * n1)
        va, vb = push(va, vb, t, r1, lam, m)
        return va, vb, n0, n1, t0, t1

    @njit
    def lane_loop(v0, v1, v2, v3, v4, v5, c, n):
        for i in range(n):
            f = (c[0][i], c[1][i], c[2][i], c[3][i], c[4][i], c[5][i], c[6][i], c[7][i],
                 c[8][i], c[9][i], c[10][i], c[11][i], c[12][i], c[13][i], c[14][i],
                 c[15][i], c[16][i], c[17][i], c[18][i], c[19][i], c[20][i], c[21][i],
                 c[22][i], c[23][i], c[24][i])
            va, vb, n0, n1, t0, t1 = manifold((v0[i], v1[i], v2[i]), (v3[i], v4[i], v5[i]), f)
            c[14][i], c[23][i], c[15][i], c[24][i] = n0, n1, t0, t1
            v0[i], v1[i], v2[i] = va
            v3[i], v4[i], v5[i] = vb

    @njit
    def lanes(vel, a, b, lane, c, n):
        for i in range(n):
            for k in range(3):
                lane[k, i] = vel[a[i], k]
                lane[3 + k, i] = vel[b[i], k]
        lane_loop(lane[0], lane[1], lane[2], lane[3], lane[4], lane[5],
                  (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11],
                   c[12], c[13], c[14], c[15], c[16], c[17], c[18], c[19], c[20], c[21],
                   c[22], c[23], c[24]), n)
        for i in range(n):
            for k in range(3):
                vel[a[i], k] = lane[k, i]
                vel[b[i], k] = lane[3 + k, i]

    @njit(inline="always")
    def solve_row(vel, ia, ib, f):
        va, vb, n0, n1, t0, t1 = manifold((vel[ia, 0], vel[ia, 1], vel[ia, 2]),
                                          (vel[ib, 0], vel[ib, 1], vel[ib, 2]), f)
        vel[ia, 0], vel[ia, 1], vel[ia, 2] = va
        vel[ib, 0], vel[ib, 1], vel[ib, 2] = vb
        return n0, n1, t0, t1

    @njit
    def scalar_rows(vel, a, b, rows, n):
        for i in range(n):
            r = rows[i]
            f = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11],
                 r[12], r[13], r[14], r[15], r[16], r[17], r[18], r[19], r[20], r[21], r[22],
                 r[23], r[24])
            r[14], r[23], r[15], r[24] = solve_row(vel, a[i], b[i], f)

    @njit
    def scalar_fields(vel, a, b, c, n):
        for i in range(n):
            f = (c[0, i], c[1, i], c[2, i], c[3, i], c[4, i], c[5, i], c[6, i], c[7, i],
                 c[8, i], c[9, i], c[10, i], c[11, i], c[12, i], c[13, i], c[14, i], c[15, i],
                 c[16, i], c[17, i], c[18, i], c[19, i], c[20, i], c[21, i], c[22, i],
                 c[23, i], c[24, i])
            c[14, i], c[23, i], c[15, i], c[24, i] = solve_row(vel, a[i], b[i], f)

    return lanes, scalar_rows, scalar_fields


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-noalias", action="store_true")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    if not args.no_noalias:
        _force_noalias()
    lanes, scalar_rows, scalar_fields = _kernels()
    rng = np.random.default_rng(0)
    bodies = rng.permutation(N_BODIES)
    a, b = bodies[:N_ROWS].copy(), bodies[N_ROWS:2 * N_ROWS].copy()
    vel = rng.random((N_BODIES, 3))
    fields = rng.random((FIELDS, N_ROWS))
    fields[[3, 4, 5, 6, 11, 12, 20, 21]] *= 0.01  # small masses: the passes stay bounded
    runs = {
        "lanes": (lanes, vel.copy(), fields.copy(), np.zeros((6, N_ROWS))),
        "scalar rows": (scalar_rows, vel.copy(), np.ascontiguousarray(fields.T), None),
        "scalar fields": (scalar_fields, vel.copy(), fields.copy(), None),
    }
    for name, (fn, v, c, lane) in runs.items():
        def call(fn=fn, v=v, c=c, lane=lane):
            if lane is None:
                return fn(v, a, b, c, N_ROWS)
            return fn(v, a, b, lane, c, N_ROWS)

        call()  # compile, and one pass for the comparison below
        runs[name] = (call, v.copy(), c.T if name == "scalar rows" else c.copy())
    first = next(iter(runs.values()))
    same = all(np.array_equal(v, first[1]) and np.array_equal(c, first[2])
               for _, v, c in runs.values())
    print(f"noalias {'off' if args.no_noalias else 'on'}; the same bits after one pass: {same}")
    for name, (call, _, _) in runs.items():
        best = np.inf
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            for _ in range(2000):
                call()
            best = min(best, (time.perf_counter() - t0) / 2000 / N_ROWS)
        print(f"{name:14s} {best * 1e9:7.1f} ns a manifold")


if __name__ == "__main__":
    main()
